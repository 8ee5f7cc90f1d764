/* peer-values.h — values as TraceEvent's baselines print them (grouped
 * integers, hex, flags as "A, B", texts cut at 20 characters with "...",
 * floats with three decimals), compared with our decoded fields: shared by
 * the .etl peer test and the .nettrace conformance test. */
#pragma once

#include "et-fields.h"

/* Whether our @index of @fields prints as @want does in a baseline. */
gboolean peer_field_equal (const EtFields *fields,
                           guint           index,
                           const char     *want);
/* Our text against a baseline's (which cuts at 20 characters). */
gboolean peer_text_equal  (const char     *ours,
                           const char     *want);
