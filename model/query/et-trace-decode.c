/* et-trace-decode.c — the decode every reader of a loaded trace uses: the
 * trace's own (its payload, trace/et-trace.c) with the derived values
 * appended (et-derived.c), and a marker's text made from it.
 *
 * Loading decodes without derived values (they read other events, which
 * loading has not indexed yet); the trace keeps only an opaque slot for
 * et-derived's state, so the trace model does not depend on this room.
 */
#include "et-trace-decode.h"
#include "et-derived.h"
#include "et-trace-private.h"

gboolean
et_trace_decode_event (EtTrace *self, guint64 index, EtEvent *event, EtFields *fields,
                       GError **error)
{
  gboolean ok;

  g_return_val_if_fail (ET_IS_TRACE (self), FALSE);
  g_return_val_if_fail (index < self->n_events, FALSE);

  ok = _et_trace_decode_event (self, index, NULL, event, fields, error);
  _et_derived_append (self, index, event, fields);
  return ok;
}

void
et_trace_marker_text (EtTrace *self, const EtMarker *marker, GString *out)
{
  EtEvent event;

  g_return_if_fail (ET_IS_TRACE (self));
  g_return_if_fail (marker != NULL && marker->event < self->n_events);

  g_mutex_lock (&self->scratch_lock);
  /* A payload that does not decode still gives the text its decoded part,
   * as it did when the marker was made. */
  et_trace_decode_event (self, marker->event, &event, self->scratch_fields, NULL);
  et_trace_explain_marker (self, &event, self->scratch_fields, &self->scratch_rules);
  g_string_append_len (out, self->scratch_rules.text->str, (gssize) self->scratch_rules.text->len);
  g_mutex_unlock (&self->scratch_lock);
}
