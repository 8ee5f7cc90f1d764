/* nettrace-fields.h — the first event of a TraceEvent baseline line of
 * ../shared/corpus/nettrace against our decoded fields: the event's own
 * attributes against our top-level fields, and each nested element
 * (`<GCBulkMovedObjectRangesValues …/>`, `<GenData …/>`) against the
 * element of the same position of our array of structs. Every difference
 * is either listed with its reason (nettrace_known_differences) or
 * counted as unexplained. */
#pragma once

#include "et-fields.h"

typedef struct
{
  guint n_fields;      /* attributes compared */
  guint ok;            /* printed as TraceEvent's */
  guint documented;    /* differing, with a listed reason */
  guint unexplained;   /* differing, with none */
} NettraceTally;

/* A baseline line TraceEvent names otherwise than we do: our names for
 * its events (NULL-terminated) and why, or NULL. */
const char *const *nettrace_renamed_line (const char  *name,
                                          const char **reason);

/* Compares the baseline's `<Event …>` text @event (its first element and
 * the nested ones after it) of the event type @name with @fields (NULL:
 * we have no such event) and adds to @tally; prints every difference. */
void nettrace_compare_fields (const char     *name,
                              const char     *event,
                              const EtFields *fields,
                              NettraceTally  *tally);
