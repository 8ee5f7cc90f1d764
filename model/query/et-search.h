/* et-search.h — text search over markers: their text and every payload
 * value, without regard to case. Used by the window's search bar (and
 * anything else that wants to find markers by what they say). */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 channel;
  guint32 index;     /* within the channel */
} EtMarkerRef;

/* All markers whose text or payload values contain @needle, in time order
 * (start, then event index). Decodes every marker's event, so it costs in
 * proportion to the markers: run it off the main loop for large traces.
 * Returns NULL when @cancellable was cancelled. */
GArray *et_trace_search (EtTrace      *trace,
                         const char   *needle,
                         GCancellable *cancellable);

G_END_DECLS
