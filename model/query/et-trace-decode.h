/* et-trace-decode.h — an event of a loaded trace as its readers see it:
 * the payload decoded (trace/) and the values derived from it and from
 * earlier events appended (et-derived); a marker's text.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

/* Decodes event @index (0 … n_events-1) into @event and @fields (cleared
 * first). FALSE with @error when the bytes cannot be decoded; the header
 * fields of @event are still filled. */
gboolean           et_trace_decode_event    (EtTrace   *self,
                                             guint64    index,
                                             EtEvent   *event,
                                             EtFields  *fields,
                                             GError   **error);
/* Appends the text of @marker (decoded from its event; rules as markers.md
 * "Text"). Safe to call from one thread at a time. */
void               et_trace_marker_text     (EtTrace        *self,
                                             const EtMarker *marker,
                                             GString        *out);

G_END_DECLS
