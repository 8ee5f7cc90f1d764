/* et-release.h — letting go of big things off the main loop. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Calls @destroy (@data) on a thread of its own. The last reference to a
 * trace unmaps its file, and an array of millions of rows goes back to the
 * system: either takes the kernel tens of milliseconds, which the main
 * loop must not wait for. @data must be no one else's by then. */
void et_release_in_background (gpointer       data,
                               GDestroyNotify destroy);

G_END_DECLS
