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
 * The check costs what decoding would only for the payloads it cannot
 * clear by their layout: a fixed layout's size, or a walk of a walk
 * layout's fields (strings by their terminators), as the marker rules
 * read them (et-fields.h); other schemas (arrays, structs) are checked
 * by the manifest's decoder into the worker's scratch fields, arrays of
 * numbers measured, not read (et_manifest_check). An event its
 * provider's manifest does not describe decodes as raw bytes, which
 * cannot fail.
 */
#include "et-trace-load-private.h"
#include "et-manifest.h"
#include "et-marker-rules.h"

gboolean
_et_trace_check_payload (EtTrace *self, const EtRecord *record, guint provider, EtEventLoc loc,
                         EtSchemaCache *cache, EtFields *scratch)
{
  const EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, provider);
  const EtManifestEvent *me;
  const EtFixedLayout *fixed;
  const EtWalkLayout *walk;
  EtEvent event;
  g_autoptr(GError) local = NULL;

  if (p->manifest == NULL)
    return TRUE;
  /* Kernel and classic records are keyed by their event type, as
   * decoding keys them (et-trace.c). */
  me = et_manifest_lookup (p->manifest, record->klass == ET_RECORD_EVENT
                                        || record->klass == ET_RECORD_MESSAGE
                                        ? record->id : record->opcode, record->version);
  if (me == NULL)
    return TRUE;
  fixed = et_manifest_event_fixed_layout (me);
  if (fixed != NULL && record->payload_len >= fixed->size)
    return TRUE;
  walk = fixed == NULL ? et_manifest_event_walk_layout (me) : NULL;
  if (walk != NULL && et_walk_layout_fits (walk, record->payload, record->payload_len,
                                           record->pointer_size))
    return TRUE;
  if (et_manifest_check (p->manifest, me, record->payload, record->payload_len,
                         record->pointer_size, scratch))
    return TRUE;
  /* (decoded, to say why, as the event list will) */
  if (_et_trace_decode_record (self, record, provider, _et_trace_offset_of (self, loc), cache,
                               &event, scratch, &local))
    return TRUE;
  _et_loader_report_error (self, loc, event.name ? event.name : "event payload", local);
  return FALSE;
}
