/* et-fuzz-targets.c — the bodies of the fuzz targets (et-fuzz-targets.h).
 *
 * The file-level targets write their input to an anonymous memory file and
 * open it through /proc/self/fd, so the reader maps it exactly as it maps a
 * real trace, without touching the disk. Every target consumes what the
 * model returns (strings, fields) so that a dangling pointer shows up under
 * the sanitizers rather than passing unread.
 */
#define _GNU_SOURCE
#include "et-fuzz-targets.h"
#include "et-etl-reader.h"
#include "et-event-info.h"
#include "et-manifest.h"
#include "et-trace.h"
#include "et-tracelogging.h"
#include "et-xpress.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile guint64 sink;
/* Things the model handed back (records, texts, field sets, damage
 * reports): what a replay checks against the input's size. */
static guint64 work;

guint64
et_fuzz_work (void)
{
  return work;
}

static void
consume (const char *text)
{
  work++;
  if (text != NULL)
    sink += strlen (text);
}

static void
consume_fields (const EtFields *fields)
{
  g_autoptr(GString) json = g_string_new (NULL);

  work++;
  et_fields_append_json_object (fields, json);
  sink += json->len;
}

/* An anonymous file holding @data; its path in *@path. -1 on failure. */
static int
memory_file (const guint8 *data, gsize size, char **path)
{
  int fd = memfd_create ("et-fuzz", MFD_CLOEXEC);
  gsize done = 0;

  if (fd < 0)
    return -1;
  while (done < size)
    {
      ssize_t n = write (fd, data + done, size - done);
      if (n <= 0)
        {
          close (fd);
          return -1;
        }
      done += (gsize) n;
    }
  *path = g_strdup_printf ("/proc/self/fd/%d", fd);
  return fd;
}

/* ---- buffers -------------------------------------------------------------- */

static void
on_damage_count (guint64 offset, const char *message, gpointer user_data)
{
  guint64 *n = user_data;

  g_assert (message != NULL);
  work++;
  sink += offset + strlen (message);
  (*n)++;
}

typedef struct
{
  const guint8 *bytes;
  gsize         len;
} Span;

/* The file is mapped, so ASan cannot see a read past a record: check that
 * everything a record points at lies inside the record itself. */
static void
assert_inside (const guint8 *p, gsize n, const guint8 *start, gsize size)
{
  g_assert (p >= start && n <= size && (gsize) (p - start) <= size - n);
}

static void
on_record (const EtRecord *record, guint buffer, gsize pos, gpointer user_data)
{
  const Span *span = user_data;
  const guint8 *start = span->bytes + pos;
  gsize len = 0;
  const guint8 *ext;

  work++;
  g_assert (pos < span->len && record->size <= span->len - pos);
  if (record->payload_len > 0)
    assert_inside (record->payload, record->payload_len, start, record->size);
  if (record->ext_len > 0)
    assert_inside (record->ext, record->ext_len, start, record->size);

  /* Touch the first and last byte of every span the record points into. */
  if (record->payload_len > 0)
    sink += record->payload[0] + record->payload[record->payload_len - 1];
  if (record->ext_len > 0)
    sink += record->ext[0] + record->ext[record->ext_len - 1];
  consume (et_record_header_name (record));
  for (guint type = 1; type <= 12; type++)
    {
      ext = et_record_find_ext (record, type, &len);
      if (ext != NULL && len > 0)
        {
          assert_inside (ext, len, record->ext, record->ext_len);
          sink += ext[0] + ext[len - 1];
        }
    }
}

int
et_fuzz_buffers (const guint8 *data, gsize size)
{
  g_autofree char *path = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  guint64 n_damage = 0;
  int fd;

  if (size > ET_FUZZ_MAX_FILE || (fd = memory_file (data, size, &path)) < 0)
    return 0;
  file = et_etl_file_open (path, on_damage_count, &n_damage, NULL);
  close (fd);
  if (file == NULL)
    return 0;
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (file, i);
      gsize len;
      const guint8 *bytes = et_etl_file_buffer (file, i, &len);

      g_assert (info != NULL);
      /* (a memory file never shrinks: every buffer lies inside it whole) */
      g_assert (info->disk_size >= ET_BUFFER_HEADER_SIZE);
      g_assert (info->offset + info->disk_size <= et_etl_file_size (file));
      g_assert (i == 0 || info->offset >= et_etl_file_buffer_info (file, i - 1)->offset
                                          + et_etl_file_buffer_info (file, i - 1)->disk_size);
      if (len > 0)
        sink += bytes[0] + bytes[len - 1];
      Span span = { bytes, len };

      sink += et_etl_file_offset_of (file, i, len);
      et_etl_file_walk_buffer (file, i, on_record, &span);
    }
  sink += et_etl_file_n_compressed (file) + et_etl_file_size (file);
  return 0;
}

/* ---- xpress --------------------------------------------------------------- */

int
et_fuzz_xpress (const guint8 *data, gsize size)
{
  /* An exact fit, a short buffer and nothing at all: the bound must hold
   * for each, and a failure must still say where it was. */
  static const gsize caps[] = { 65536, 4096, 17, 0 };
  g_autofree guint8 *out = NULL;

  if (size > ET_FUZZ_MAX_STREAM)
    return 0;
  out = g_malloc (65536);
  for (guint i = 0; i < G_N_ELEMENTS (caps); i++)
    {
      gsize out_len = G_MAXSIZE, bad = G_MAXSIZE;
      EtXpressStatus status;

      /* A heap block of exactly the capacity, so an overrun is caught. */
      g_autofree guint8 *exact = caps[i] > 0 ? g_malloc (caps[i]) : NULL;
      status = et_xpress_decompress (data, size, exact, caps[i], &out_len, &bad);
      g_assert (out_len <= caps[i]);
      if (status != ET_XPRESS_OK)
        g_assert (bad < MAX (size, 1));
      consume (et_xpress_status_to_string (status));
    }
  return 0;
}

/* ---- manifest ------------------------------------------------------------- */

int
et_fuzz_manifest (const guint8 *data, gsize size)
{
  const guint8 *nul;
  gsize xml_len, payload_len;
  const guint8 *payload;
  g_autoptr(EtManifest) manifest = NULL;
  EtFields *fields;
  g_autoptr(GString) names = g_string_new (NULL);

  if (size > ET_FUZZ_MAX_STREAM)
    return 0;
  nul = memchr (data, 0, size);
  xml_len = nul != NULL ? (gsize) (nul - data) : size;
  payload = nul != NULL ? nul + 1 : data + size;
  payload_len = size - (gsize) (payload - data);

  manifest = et_manifest_parse ((const char *) data, xml_len, NULL);
  if (manifest == NULL)
    return 0;
  fields = et_fields_new ();
  consume (et_manifest_get_provider_name (manifest));
  sink += et_manifest_get_provider_guid (manifest)->data1;
  et_manifest_keyword_names (manifest, G_MAXUINT64, names);
  /* Events are looked up by every id the manifest could hold in a small
   * range, which covers what a fuzzer can write in a few hundred bytes. */
  for (guint id = 0; id < 1024; id++)
    {
      const EtManifestEvent *event = et_manifest_lookup (manifest, (guint16) id, 0);
      if (event == NULL)
        continue;
      consume (event->name);
      consume (event->task_name);
      consume (event->opcode_name);
      consume (event->message);
      consume (et_manifest_task_name (manifest, event->task));
      consume (et_manifest_opcode_name (manifest, event->task, event->opcode));
      for (guint ps = 4; ps <= 8; ps += 4)
        {
          gsize consumed = 0;
          et_fields_clear (fields);
          et_manifest_decode (manifest, event, payload, payload_len, ps, fields,
                              &consumed, NULL);
          g_assert (consumed <= payload_len);
          consume_fields (fields);
        }
    }
  et_fields_free (fields);
  return 0;
}

/* ---- event metadata ------------------------------------------------------- */

/* Every event of @manifest whose id an EventInfo gave, decoded from @payload. */
static void
decode_described (const EtManifest *manifest, GArray *ids, const guint8 *payload, gsize len)
{
  EtFields *fields = et_fields_new ();

  consume (et_manifest_get_provider_name (manifest));
  for (guint i = 0; i < ids->len; i++)
    {
      const EtManifestEvent *event = et_manifest_lookup (manifest,
                                                         g_array_index (ids, guint16, i), 0);

      if (event == NULL)
        continue;
      consume (event->name);
      consume (event->task_name);
      consume (event->opcode_name);
      for (guint ps = 4; ps <= 8; ps += 4)
        {
          gsize consumed = 0;

          et_fields_clear (fields);
          et_manifest_decode (manifest, event, payload, len, ps, fields, &consumed, NULL);
          g_assert (consumed <= len);
          consume_fields (fields);
        }
    }
  et_fields_free (fields);
}

int
et_fuzz_event_info (const guint8 *data, gsize size)
{
  g_autoptr(EtEventInfoSet) set = et_event_info_set_new ();
  g_autoptr(GArray) guids = g_array_new (FALSE, FALSE, sizeof (EtGuid));
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint16));
  gsize pos = 0;

  if (size > ET_FUZZ_MAX_STREAM)
    return 0;
  while (pos + 3 <= size)
    {
      guint8 opcode = data[pos] & 1 ? ET_EVENT_MAP_INFO_OPCODE : ET_EVENT_INFO_OPCODE;
      gsize len = MIN ((gsize) (data[pos + 1] | data[pos + 2] << 8), size - pos - 3);
      const guint8 *payload = data + pos + 3;
      EtGuid guid;

      pos += 3 + len;
      if (len == 0)
        break;
      work++;
      et_event_info_set_add (set, opcode, payload, len, NULL);
      if (len >= 16)
        {
          guint k = 0;

          et_guid_from_bytes (&guid, payload);
          while (k < guids->len && !et_guid_equal (&g_array_index (guids, EtGuid, k), &guid))
            k++;
          if (k == guids->len)      /* each provider's manifest is built once */
            g_array_append_val (guids, guid);
        }
      if (opcode == ET_EVENT_INFO_OPCODE && len >= 34)
        g_array_append_val (ids, (guint16) { (guint16) (payload[32] | payload[33] << 8) });
    }
  for (guint i = 0; i < guids->len; i++)
    {
      g_autoptr(EtManifest) manifest =
        et_event_info_set_manifest_new (set, &g_array_index (guids, EtGuid, i));

      consume (et_event_info_set_provider_name (set, &g_array_index (guids, EtGuid, i)));
      if (manifest != NULL)
        decode_described (manifest, ids, data + MIN (pos, size), size - MIN (pos, size));
    }
  return 0;
}

/* ---- TraceLogging --------------------------------------------------------- */

int
et_fuzz_tracelogging (const guint8 *data, gsize size)
{
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  g_autofree char *name = NULL;
  gsize meta_len, consumed = 0;

  if (size < 2 || size > ET_FUZZ_MAX_STREAM)
    return 0;
  meta_len = MIN ((gsize) (data[0] | (data[1] << 8)), size - 2);
  name = et_tl_traits_provider_name (data + 2, meta_len, NULL);
  consume (name);
  schema = et_tl_schema_parse (data + 2, meta_len, NULL);
  if (schema == NULL)
    return 0;
  consume (et_tl_schema_event_name (schema));
  sink += et_tl_schema_event_tags (schema) + et_tl_schema_n_fields (schema);
  fields = et_fields_new ();
  et_tl_decode (schema, data + 2 + meta_len, size - 2 - meta_len, fields, &consumed, NULL);
  g_assert (consumed <= size - 2 - meta_len);
  consume_fields (fields);
  et_fields_free (fields);
  return 0;
}

/* ---- the whole trace ------------------------------------------------------ */

static void
walk_markers (EtTrace *trace)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *channel = et_trace_get_channel (trace, c);
      guint end = 0;

      consume (et_trace_get_string (trace, channel->series));
      sink += et_trace_channel_thread (trace, c);
      for (guint m = 0; m < channel->n_markers; m++)
        {
          const EtMarker *marker = &channel->markers[m];

          /* what the timeline relies on: sorted by start, never ending
           * before they start */
          g_assert (m == 0 || channel->markers[m - 1].start_ns <= marker->start_ns);
          g_assert (marker->end_ns >= marker->start_ns);
          /* texts are made on demand: make every one, as the window and CLI would */
          g_string_truncate (text, 0);
          et_trace_marker_text (trace, marker, text);
          consume (text->str);
          consume (et_trace_get_string (trace, channel->series));
          g_assert (et_trace_marker_channel (trace, marker) == c);
          if (et_trace_marker_end_thread (trace, marker) != ET_NO_INDEX)
            g_assert (et_trace_marker_end_thread (trace, marker) < et_trace_get_n_threads (trace));
          consume (et_marker_kind_to_string (marker->kind));
          g_assert (marker->provider < et_trace_get_n_providers (trace));
        }
      sink += et_channel_query (trace, c, G_MININT64 / 2, G_MAXINT64 / 2, &end);
    }
}

static void
walk_model (EtTrace *trace)
{
  guint n_damage = 0;
  const EtDamage *damage = et_trace_get_damage (trace, &n_damage);

  for (guint i = 0; i < n_damage; i++)
    {
      g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT,
                                                damage[i].offset);
      g_assert (strstr (damage[i].message, where) != NULL);
    }
  consume (et_trace_get_header (trace)->logger_name);
  consume (et_trace_get_header (trace)->log_file_name);
  for (guint i = 0; i < et_trace_get_n_providers (trace); i++)
    {
      consume (et_trace_get_provider (trace, i)->name);
      consume (et_provider_kind_to_string (et_trace_get_provider (trace, i)->kind));
    }
  for (guint i = 0; i < et_trace_get_n_processes (trace); i++)
    consume (et_trace_get_process (trace, i)->name);
  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    consume (et_trace_get_thread (trace, i)->name);
  sink += et_trace_get_duration_ns (trace);
}

/* Returns how many events did not decode. */
static guint64
decode_events (EtTrace *trace)
{
  EtFields *fields = et_fields_new ();
  guint64 failures = 0;

  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      g_autoptr(GError) error = NULL;
      EtEvent event;
      EtRuleResult result;

      if (!et_trace_decode_event (trace, i, &event, fields, &error))
        {
          g_assert (error != NULL);
          consume (error->message);
          failures++;
          continue;
        }
      consume (event.name);
      consume (event.task_name);
      consume (event.opcode_name);
      consume (event.message);
      consume (event.header_kind);
      consume_fields (fields);
      et_rule_result_init (&result);
      et_trace_explain_marker (trace, &event, fields, &result);
      et_rule_result_clear (&result);
    }
  et_fields_free (fields);
  return failures;
}

guint64
et_fuzz_walk_trace (EtTrace *trace)
{
  walk_model (trace);
  walk_markers (trace);
  return decode_events (trace);
}

int
et_fuzz_trace (const guint8 *data, gsize size)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  int fd;

  if (size > ET_FUZZ_MAX_FILE || (fd = memory_file (data, size, &path)) < 0)
    return 0;
  trace = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  close (fd);
  if (trace == NULL)
    {
      g_assert (error != NULL);
      consume (error->message);
      return 0;
    }
  et_fuzz_walk_trace (trace);
  return 0;
}

EtFuzzTarget
et_fuzz_target_lookup (const char *name)
{
  static const struct { const char *name; EtFuzzTarget func; } targets[] = {
    { "buffers", et_fuzz_buffers },
    { "xpress", et_fuzz_xpress },
    { "manifest", et_fuzz_manifest },
    { "tracelogging", et_fuzz_tracelogging },
    { "event-info", et_fuzz_event_info },
    { "trace", et_fuzz_trace },
    /* The same load, from EventPipe seeds, with the invariants of issue 32
     * checked (et-fuzz-nettrace.c). */
    { "nettrace", et_fuzz_nettrace },
  };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_str_equal (targets[i].name, name))
      return targets[i].func;
  return NULL;
}
