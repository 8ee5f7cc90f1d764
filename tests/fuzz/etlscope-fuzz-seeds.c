/* etlscope-fuzz-seeds — cuts a trace into seed inputs for the fuzz targets.
 *
 *   etlscope-fuzz-seeds IN.etl OUTDIR
 *
 * Writes OUTDIR/xpress/ (the stream of each compressed buffer),
 * OUTDIR/manifest/ (each reassembled manifest, a NUL, and the payload of one
 * of its provider's events) and OUTDIR/tracelogging/ (each distinct
 * TraceLogging metadata blob, length-prefixed, then a payload that uses it)
 * and OUTDIR/event-info/ (the trace's MetaData/EventInfo and EventMapInfo
 * records, then the first payload of one described provider, per
 * provider), in the input formats et-fuzz-targets.h describes. The whole-file targets
 * take the traces themselves; tests/fuzz/make-seeds does that part.
 */
#include "et-etl-reader.h"
#include "et-event-info.h"
#include "et-manifest.h"

#include <glib/gstdio.h>
#include <string.h>

#define MAX_PER_KIND 40

typedef struct
{
  const char          *out;
  const char          *stem;
  EtManifestAssembler *assembler;
  GPtrArray           *manifests;   /* GBytes: XML; NULL once written */
  GArray              *guids;       /* EtGuid of each manifest's provider */
  GHashTable          *tl_seen;     /* GBytes metadata */
  guint                n_tl;
  GByteArray          *metadata;    /* event-info records: kind, u16 length, payload */
  GHashTable          *payloads;    /* EtGuid* → GBytes: a provider's first payload */
} Seeds;

static void
write_seed (Seeds *s, const char *kind, guint n, const guint8 *a, gsize a_len,
            const guint8 *b, gsize b_len)
{
  g_autofree char *dir = g_build_filename (s->out, kind, NULL);
  g_autofree char *name = g_strdup_printf ("%s-%u", s->stem, n);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0755);
  g_byte_array_append (bytes, a, (guint) a_len);
  if (b != NULL)
    g_byte_array_append (bytes, b, (guint) b_len);
  if (!g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error))
    g_printerr ("etlscope-fuzz-seeds: %s\n", error->message);
}

static void
collect_manifest (Seeds *s, const EtRecord *record)
{
  gsize len = 0;
  g_autofree char *xml = et_manifest_assembler_add (s->assembler, &record->guid,
                                                    record->pid, record->tid,
                                                    record->payload, record->payload_len,
                                                    &len, NULL);
  g_autoptr(EtManifest) m = NULL;

  if (xml == NULL || s->manifests->len >= MAX_PER_KIND)
    return;
  m = et_manifest_parse (xml, len, NULL);
  if (m == NULL)
    return;
  g_ptr_array_add (s->manifests, g_bytes_new (xml, len));
  g_array_append_val (s->guids, *et_manifest_get_provider_guid (m));
}

static void
collect_tl (Seeds *s, const EtRecord *record)
{
  gsize len = 0;
  const guint8 *meta = et_record_find_ext (record, ET_EXT_EVENT_SCHEMA_TL, &len);
  g_autoptr(GBytes) key = NULL;
  guint8 prefix[2];
  g_autoptr(GByteArray) both = NULL;

  if (meta == NULL || len > 0xFFFF || s->n_tl >= MAX_PER_KIND)
    return;
  key = g_bytes_new (meta, len);
  if (g_hash_table_contains (s->tl_seen, key))
    return;
  g_hash_table_add (s->tl_seen, g_bytes_ref (key));
  prefix[0] = len & 0xFF;
  prefix[1] = len >> 8;
  both = g_byte_array_new ();
  g_byte_array_append (both, prefix, 2);
  g_byte_array_append (both, meta, (guint) len);
  write_seed (s, "tracelogging", s->n_tl++, both->data, both->len,
              record->payload, record->payload_len);
}

/* The first payload of each manifest's provider makes its seed. */
static void
pair_manifest_payload (Seeds *s, const EtRecord *record)
{
  for (guint i = 0; i < s->manifests->len; i++)
    {
      GBytes *xml = s->manifests->pdata[i];
      gsize len;
      const guint8 *text;
      static const guint8 nul = 0;
      g_autoptr(GByteArray) both = NULL;

      if (xml == NULL || !et_guid_equal (&g_array_index (s->guids, EtGuid, i), &record->guid))
        continue;
      text = g_bytes_get_data (xml, &len);
      both = g_byte_array_new ();
      g_byte_array_append (both, text, (guint) len);
      g_byte_array_append (both, &nul, 1);
      write_seed (s, "manifest", i, both->data, both->len,
                  record->payload, record->payload_len);
      g_bytes_unref (xml);
      s->manifests->pdata[i] = NULL;
    }
}

/* MetaData records in the event-info target's format, and each EVENT
 * provider's first payload. */
static void
collect_event_info (Seeds *s, const EtRecord *record)
{
  guint8 head[3] = { record->opcode, record->payload_len & 0xFF, record->payload_len >> 8 };

  if (record->klass == ET_RECORD_EVENT)
    {
      if (record->payload_len > 0 && !g_hash_table_contains (s->payloads, &record->guid))
        g_hash_table_insert (s->payloads, g_memdup2 (&record->guid, sizeof record->guid),
                             g_bytes_new (record->payload, record->payload_len));
      return;
    }
  if (record->payload_len == 0 || record->payload_len > 0xFFFF
      || !et_event_info_is_metadata (&record->guid, record->opcode))
    return;
  g_byte_array_append (s->metadata, head, 3);
  g_byte_array_append (s->metadata, record->payload, (guint) record->payload_len);
}

/* One seed per provider an EventInfo describes: every record, the end
 * mark, that provider's payload. */
static void
write_event_info_seeds (Seeds *s)
{
  static const guint8 end[3] = { 0 };
  g_autoptr(GHashTable) done = g_hash_table_new_full ((GHashFunc) et_guid_hash,
                                                      (GEqualFunc) et_guid_equal, g_free, NULL);
  guint n = 0;

  for (gsize pos = 0; pos + 3 <= s->metadata->len && n < MAX_PER_KIND;)
    {
      const guint8 *r = s->metadata->data + pos;
      gsize len = r[1] | r[2] << 8;
      EtGuid guid;
      GBytes *payload;
      g_autoptr(GByteArray) seed = NULL;

      pos += 3 + len;
      if (len < 16 || (r[0] & 1))
        continue;
      et_guid_from_bytes (&guid, r + 3);
      if (!g_hash_table_add (done, g_memdup2 (&guid, sizeof guid)))
        continue;
      payload = g_hash_table_lookup (s->payloads, &guid);
      seed = g_byte_array_new ();
      g_byte_array_append (seed, s->metadata->data, s->metadata->len);
      g_byte_array_append (seed, end, 3);
      if (payload != NULL)
        g_byte_array_append (seed, g_bytes_get_data (payload, NULL),
                             (guint) g_bytes_get_size (payload));
      write_seed (s, "event-info", n++, seed->data, seed->len, NULL, 0);
    }
}

static void
on_record (const EtRecord *record, guint buffer, gsize pos, gpointer user_data)
{
  Seeds *s = user_data;

  collect_event_info (s, record);
  if (record->klass != ET_RECORD_EVENT)
    return;
  if (record->id == 0xFFFE && record->opcode == 0xFE)
    collect_manifest (s, record);
  else
    {
      collect_tl (s, record);
      if (record->payload_len > 0)
        pair_manifest_payload (s, record);
    }
}

static void
write_xpress_seeds (Seeds *s, EtEtlFile *file, const guint8 *data, gsize size)
{
  guint n = 0;

  for (guint i = 0; i < et_etl_file_n_buffers (file) && n < MAX_PER_KIND; i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (file, i);

      if (!(info->flags & 0x40) || info->offset + info->disk_size > size)
        continue;
      write_seed (s, "xpress", n++, data + info->offset + ET_BUFFER_HEADER_SIZE,
                  info->disk_size - ET_BUFFER_HEADER_SIZE, NULL, 0);
    }
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autofree char *base = NULL;
  Seeds s = { 0 };

  if (argc != 3)
    {
      g_printerr ("Usage: etlscope-fuzz-seeds IN.etl OUTDIR\n");
      return 2;
    }
  file = et_etl_file_open (argv[1], NULL, NULL, &error);
  mapped = g_mapped_file_new (argv[1], FALSE, NULL);
  if (file == NULL || mapped == NULL)
    {
      g_printerr ("etlscope-fuzz-seeds: %s\n", error ? error->message : argv[1]);
      return 1;
    }
  base = g_path_get_basename (argv[1]);
  s.out = argv[2];
  s.stem = base;
  s.assembler = et_manifest_assembler_new ();
  s.manifests = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  s.guids = g_array_new (FALSE, FALSE, sizeof (EtGuid));
  s.tl_seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                     (GDestroyNotify) g_bytes_unref, NULL);
  s.metadata = g_byte_array_new ();
  s.payloads = g_hash_table_new_full ((GHashFunc) et_guid_hash, (GEqualFunc) et_guid_equal,
                                      g_free, (GDestroyNotify) g_bytes_unref);
  write_xpress_seeds (&s, file, (const guint8 *) g_mapped_file_get_contents (mapped),
                      g_mapped_file_get_length (mapped));
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    et_etl_file_walk_buffer (file, i, on_record, &s);
  /* Manifests whose provider logged nothing still make seeds, bare. */
  for (guint i = 0; i < s.manifests->len; i++)
    if (s.manifests->pdata[i] != NULL)
      {
        gsize len;
        const guint8 *text = g_bytes_get_data (s.manifests->pdata[i], &len);
        write_seed (&s, "manifest", i, text, len, NULL, 0);
      }
  write_event_info_seeds (&s);
  g_byte_array_unref (s.metadata);
  g_hash_table_unref (s.payloads);
  et_manifest_assembler_free (s.assembler);
  g_ptr_array_unref (s.manifests);
  g_hash_table_unref (s.tl_seen);
  g_array_unref (s.guids);
  return 0;
}
