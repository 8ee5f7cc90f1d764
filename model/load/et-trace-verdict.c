/* et-trace-verdict.c — one verdict per file, whatever is asked of it.
 *
 * Pipeline position: while the markers are decoded (et-trace-markers.c),
 * for the events that make none. Loading decodes only what the marker
 * rules read, and the CLI's commands and the window decode the rest on
 * demand: a payload shorter than its schema's layout was damage for
 * `markers --all-providers` (decoded at load), a note for `events`
 * (decoded there), and nothing for `info`, `stats` and `render`. So every
 * event whose provider has a schema (an EventSource manifest, the
 * runtime's and the kernel's built-in ones) is checked at load, and a
 * payload that does not decode is damage in every command and in the
 * window's banner alike.
 *
 * A schema with a fixed layout is checked by size alone (a payload of at
 * least its size decodes without fail, et-fields.h); the others are
 * decoded into the worker's scratch fields.
 */
#include "et-trace-load-private.h"

gboolean
_et_trace_check_payload (EtTrace *self, const EtRecord *record, guint provider, EtEventLoc loc,
                         EtSchemaCache *cache, EtFields *scratch)
{
  const EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, provider);
  guint64 offset;
  EtFixedSchema fs;
  EtEvent event;
  g_autoptr(GError) local = NULL;

  if (p->manifest == NULL)
    return TRUE;
  offset = _et_trace_offset_of (self, loc);
  if (_et_trace_fixed_layout (self, record, provider, offset, cache, &fs) && fs.layout != NULL
      && record->payload_len >= fs.layout->size)
    return TRUE;
  if (_et_trace_decode_record (self, record, provider, offset, cache, &event, scratch, &local))
    return TRUE;
  _et_loader_report_error (self, loc, event.name ? event.name : "event payload", local);
  return FALSE;
}
