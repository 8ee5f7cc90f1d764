/* et-details.h — everything about one marker, as text for the details pane
 * (kind, times, thread, provider, event descriptor, activity ids, payload
 * fields, and which rule decided each property). */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

void et_details_describe (EtTrace        *trace,
                          guint           channel,
                          const EtMarker *marker,
                          GString        *out);

/* A few lines for a tooltip: text, kind, time, duration, importance,
 * category, series and thread. */
void et_details_summary  (EtTrace        *trace,
                          guint           channel,
                          const EtMarker *marker,
                          GString        *out);

G_END_DECLS
