/* et-manifest.h — EventSource manifests carried inside the trace.
 *
 * Pipeline: manifest events (Id 0xFFFE) → EtManifestAssembler (chunks per
 * provider/process/thread) → et_manifest_parse (XML via GMarkup) → an
 * EtManifest, the event-class table of one provider. Payloads of that
 * provider's events are then decoded with et_manifest_decode into EtFields.
 */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-fields.h"

G_BEGIN_DECLS

typedef struct _EtManifest EtManifest;
typedef struct _EtManifestTemplate EtManifestTemplate;

typedef struct
{
  guint16     id;
  guint8      version;
  guint8      level;
  guint8      opcode;
  guint16     task;
  guint64     keywords;
  const char *name;        /* symbol=, else the X of message="$(string.event_X)",
                              else "Task/Opcode", "Task", or "Event <id>" */
  const char *task_name;   /* NULL when the event has no task */
  const char *opcode_name; /* "win:Start", a custom opcode's name, or NULL */
  const char *level_name;  /* "win:Informational" etc., or NULL */
  const char *message;     /* resolved message with %1…%N, or NULL */
  const EtManifestTemplate *template_; /* NULL: the event has no payload */
} EtManifestEvent;

/* Parses one whole manifest. On error returns NULL with an ET_ETL_ERROR
 * whose message gives the byte offset in the XML. */
EtManifest   *et_manifest_parse           (const char      *xml,
                                           gsize            len,
                                           GError         **error);
void          et_manifest_free            (EtManifest      *manifest);

/* A field's declared in-type and out-type (EtField.in_type, .out_type of
 * a field a manifest or built-in schema decoded) as the manifest spells
 * them without "win:" / "xs:" ("UInt32", "HexInt32"); NULL for none. */
const char   *et_manifest_in_type_name      (guint            in_type);
const char   *et_manifest_out_type_name     (guint            out_type);
const char   *et_manifest_get_provider_name (const EtManifest *manifest);
/* The guid= of the provider element (zero GUID if absent). */
const EtGuid *et_manifest_get_provider_guid (const EtManifest *manifest);
guint         et_manifest_get_n_events      (const EtManifest *manifest);

/* Exact (id, version) match, else the highest version with that id, else NULL. */
const EtManifestEvent *et_manifest_lookup   (const EtManifest *manifest,
                                             guint16           id,
                                             guint8            version);
const char   *et_manifest_task_name         (const EtManifest *manifest,
                                             guint16           task);
const char   *et_manifest_opcode_name       (const EtManifest *manifest,
                                             guint16           task,
                                             guint8            opcode);
/* Appends the names of the keywords set in @keywords, joined by "|". */
void          et_manifest_keyword_names     (const EtManifest *manifest,
                                             guint64           keywords,
                                             GString          *out);

/* Where the event's fields sit when every one is a fixed-size scalar (an
 * event without a template has an empty layout), else NULL. A payload of
 * at least layout->size bytes then decodes without fail. */
const EtFixedLayout *et_manifest_event_fixed_layout (const EtManifestEvent *event);
/* Without a fixed layout: how to walk the fields when each is a scalar, a
 * pointer or a NUL-terminated string, else NULL. */
const EtWalkLayout  *et_manifest_event_walk_layout  (const EtManifestEvent *event);

/* Decodes @payload with the event's template into @fields (appending
 * top-level entries). @pointer_size is 4 or 8, from the record's header
 * type. Value maps set labels; bit maps set "A|B" labels. Returns FALSE with
 * an error naming the field and the payload offset when the payload is too
 * short or a count/length is impossible; what was decoded before stays. */
gboolean      et_manifest_decode            (const EtManifest      *manifest,
                                             const EtManifestEvent *event,
                                             const guint8          *payload,
                                             gsize                  len,
                                             guint                  pointer_size,
                                             EtFields              *fields,
                                             gsize                 *consumed,
                                             GError               **error);
/* Whether et_manifest_decode would decode @payload without fail: the same
 * walk, but an array of fixed-size numbers is measured instead of read
 * (a stack's frames, a method's offset maps: the loader checks every
 * payload no layout clears, and reading such arrays was a seventh of
 * loading net.4.5.2.x64.etl). @scratch holds the fields counts are read
 * from; it is cleared first. */
gboolean      et_manifest_check             (const EtManifest      *manifest,
                                             const EtManifestEvent *event,
                                             const guint8          *payload,
                                             gsize                  len,
                                             guint                  pointer_size,
                                             EtFields              *scratch);

/* Chunk reassembly ("Chunk envelope" in etl-format.md §9). */
typedef struct _EtManifestAssembler EtManifestAssembler;

EtManifestAssembler *et_manifest_assembler_new  (void);
void                 et_manifest_assembler_free (EtManifestAssembler *assembler);
/* Feeds one manifest event payload (envelope + chunk). Returns a complete
 * XML document (transfer full, @len set) when this chunk completes one,
 * else NULL. A malformed envelope sets @error (payload offset in the
 * message) and returns NULL; so does a chunk that arrives past a missing
 * one, though it is kept in case the missing one turns up. */
char                *et_manifest_assembler_add  (EtManifestAssembler *assembler,
                                                 const EtGuid        *provider,
                                                 guint32              pid,
                                                 guint32              tid,
                                                 const guint8        *payload,
                                                 gsize                payload_len,
                                                 gsize               *len,
                                                 GError             **error);
/* The work done so far: chunk numbers compared or looked up (duplicate
 * checks and ordering). Linear in the chunks fed, for the tests. */
guint64              et_manifest_assembler_get_work (EtManifestAssembler *assembler);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtManifest, et_manifest_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtManifestAssembler, et_manifest_assembler_free)

G_END_DECLS
