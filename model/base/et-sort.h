/* et-sort.h — sorting many integers without comparing them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts @n values ascending, a byte at a time from the lowest (radix):
 * bytes that every value shares are skipped, so keys that span few bits
 * take few passes; values already in order are left as they are. Takes a
 * copy of the values' size while it runs. */
void et_sort_u64 (guint64 *values,
                  guint    n);

G_END_DECLS
