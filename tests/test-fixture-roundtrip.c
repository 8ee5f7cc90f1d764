/* test-fixture-roundtrip.c — files written by the fixture writer read back
 * through the reader (et-etl-reader, et-kernel, et-tracelogging).
 *
 * Field offsets of the log-file header are taken from etl-format.md §6,
 * not from the writer, so a writer mistake cannot hide behind a matching
 * reader mistake.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "et-bytes.h"
#include "et-error.h"
#include "et-etl-reader.h"
#include "et-fields.h"
#include "et-fixture.h"
#include "et-kernel.h"
#include "et-tracelogging.h"

typedef struct
{
  char   *dir;
  char   *path;
  GArray *damage;   /* guint64 offsets reported by the reader */
} Fixture;

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("et-fixture-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "t.etl", NULL);
  f->damage = g_array_new (FALSE, FALSE, sizeof (guint64));
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  et_fixture_remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_array_unref (f->damage);
  g_free (f);
  return 0;
}

static void
on_damage (guint64 offset, const char *message, gpointer data)
{
  g_array_append_val ((GArray *) data, offset);
}

static EtEtlFile *
open_file (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  EtEtlFile *file;

  g_array_set_size (f->damage, 0);
  file = et_etl_file_open (f->path, on_damage, f->damage, &error);
  assert_null (error);
  assert_non_null (file);
  return file;
}

/* Every record of the file in file order. */
typedef struct
{
  GArray *records;   /* EtRecord (pointers into the mapped file) */
  GArray *offsets;   /* guint64 */
} Records;

static void
collect (const EtRecord *record, guint buffer, gsize pos, gpointer data)
{
  g_array_append_val (((Records *) data)->records, *record);
}

static Records
all_records (EtEtlFile *file)
{
  Records r = { g_array_new (FALSE, FALSE, sizeof (EtRecord)), NULL };

  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    assert_int_equal (et_etl_file_walk_buffer (file, i, collect, &r), 0);
  return r;
}

static void
write_one_event (EtFixtureWriter *w, guint cpu, gint64 t, guint32 tid)
{
  EtFixtureEvent ev;

  et_fixture_event_init (&ev);
  et_guid_from_eventsource_name ("Test-Provider", &ev.provider);
  ev.cpu = cpu;
  ev.time_ns = t;
  ev.pid = 10;
  ev.tid = tid;
  ev.id = 1;
  et_fixture_write_event (w, &ev, NULL, 0, (const guint8 *) "abcd", 4);
}

static void
check_header (Fixture *f, guint pointer_size, EtFixtureClock clock)
{
  EtFixtureOptions o;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  Records r;
  const EtRecord *h;
  const guint8 *p;
  gsize tz = 0x38 + 2 * pointer_size, boot = tz + 0xAC + 4;
  gunichar2 name[5];

  et_fixture_options_init (&o);
  o.pointer_size = pointer_size;
  o.clock = clock;
  o.perf_freq = 3579545;
  o.events_lost = 3;
  o.buffers_lost = 2;
  w = et_fixture_writer_new (f->path, &o, NULL);
  write_one_event (w, 1, 5000, 7);
  assert_true (et_fixture_writer_close (w, NULL));

  file = open_file (f);
  assert_int_equal (et_etl_file_buffer_info (file, 0)->type, 4);
  r = all_records (file);
  h = &g_array_index (r.records, EtRecord, 0);
  assert_int_equal (h->klass, ET_RECORD_SYSTEM);
  assert_int_equal (h->header_type, pointer_size == 8 ? 2 : 1);
  assert_int_equal (h->hook, 0x0000);
  assert_int_equal (h->version, 2);
  assert_int_equal (h->ts, et_fixture_writer_ns_to_raw (w, 0));
  p = h->payload;
  assert_int_equal (et_read_u32 (p + 0x00), o.buffer_size);
  assert_int_equal (et_read_u32 (p + 0x0C), o.n_cpus);
  assert_int_equal (et_read_u32 (p + 0x24), et_etl_file_n_buffers (file));
  assert_int_equal (et_read_u32 (p + 0x2C), pointer_size);
  assert_int_equal (et_read_u32 (p + 0x30), 3);
  assert_int_equal ((gint64) et_read_u64 (p + boot + 8), o.perf_freq);
  assert_int_equal ((gint64) et_read_u64 (p + boot + 16), o.start_time);
  assert_int_equal (et_read_u32 (p + boot + 24), clock);
  assert_int_equal (et_read_u32 (p + boot + 28), 2);
  for (int i = 0; i < 5; i++)
    name[i] = et_read_u16 (p + boot + 32 + 2 * i);
  assert_memory_equal (name, ((gunichar2[]) { 'E', 't', 'l', 's', 'c' }), sizeof name);
  /* EndTime = StartTime + the last event's 5 µs. */
  assert_int_equal ((gint64) et_read_u64 (p + 0x10), o.start_time + 50);
  /* The type-0x50 record follows the header. */
  assert_int_equal (g_array_index (r.records, EtRecord, 1).hook, 0x0050);
  assert_int_equal (f->damage->len, 0);
  g_array_unref (r.records);
}

static void
test_header_record_64_qpc (void **state)
{
  check_header (*state, 8, ET_FIXTURE_CLOCK_QPC);
}

static void
test_header_record_32_system_time (void **state)
{
  check_header (*state, 4, ET_FIXTURE_CLOCK_SYSTEM_TIME);
}

static void
test_header_record_cpu_cycles (void **state)
{
  check_header (*state, 8, ET_FIXTURE_CLOCK_CPU_CYCLES);
}

static void
test_clock_conversion (void **state)
{
  Fixture *f = *state;
  EtFixtureOptions o;
  g_autoptr(EtFixtureWriter) w = NULL;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (f->path, &o, NULL);
  assert_int_equal (et_fixture_writer_ns_to_raw (w, 1000000000) - et_fixture_writer_ns_to_raw (w, 0),
                    10000000);
  et_fixture_writer_free (g_steal_pointer (&w));
  o.clock = ET_FIXTURE_CLOCK_SYSTEM_TIME;
  w = et_fixture_writer_new (f->path, &o, NULL);
  assert_int_equal (et_fixture_writer_ns_to_raw (w, 0), o.start_time);
  assert_int_equal (et_fixture_writer_ns_to_raw (w, 300), o.start_time + 3);
  et_fixture_writer_free (g_steal_pointer (&w));
  o.clock = ET_FIXTURE_CLOCK_CPU_CYCLES;
  w = et_fixture_writer_new (f->path, &o, NULL);
  assert_int_equal (et_fixture_writer_ns_to_raw (w, 1000) - et_fixture_writer_ns_to_raw (w, 0), 3000);
}

static void
test_event_header_fields_round_trip (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtEtlFile) file = NULL;
  EtFixtureEvent ev;
  EtFixtureExtItem item = { 3, (const guint8 *) "\x05\0\0\0", 4 };
  const EtRecord *rec;
  const guint8 *related;
  gsize len = 0;
  EtGuid g;
  Records r;

  et_fixture_event_init (&ev);
  et_guid_from_eventsource_name ("MySource", &ev.provider);
  ev.cpu = 2; ev.time_ns = 1234500; ev.pid = 4242; ev.tid = 4343;
  ev.id = 77; ev.version = 3; ev.channel = 11; ev.level = 2; ev.opcode = 1; ev.task = 9;
  ev.keywords = G_GUINT64_CONSTANT (0xF000000000000021);
  ev.activity_id = (EtGuid) { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };
  ev.has_related_activity_id = TRUE;
  ev.related_activity_id = (EtGuid) { 0xdeadbeef, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 12 } };
  et_fixture_write_event (w, &ev, &item, 1, (const guint8 *) "payload", 7);
  assert_true (et_fixture_writer_close (w, NULL));

  file = open_file (f);
  r = all_records (file);
  rec = &g_array_index (r.records, EtRecord, r.records->len - 1);
  assert_int_equal (rec->klass, ET_RECORD_EVENT);
  assert_int_equal (rec->header_type, 0x13);
  et_guid_from_eventsource_name ("MySource", &g);
  assert_true (et_guid_equal (&rec->guid, &g));
  assert_int_equal (rec->pid, 4242);
  assert_int_equal (rec->tid, 4343);
  assert_int_equal (rec->id, 77);
  assert_int_equal (rec->version, 3);
  assert_int_equal (rec->channel, 11);
  assert_int_equal (rec->level, 2);
  assert_int_equal (rec->opcode, 1);
  assert_int_equal (rec->task, 9);
  assert_true (rec->keywords == ev.keywords);
  assert_true (et_guid_equal (&rec->activity_id, &ev.activity_id));
  assert_int_equal (rec->ts, et_fixture_writer_ns_to_raw (w, 1234500));
  related = et_record_find_ext (rec, ET_EXT_RELATED_ACTIVITYID, &len);
  assert_non_null (related);
  assert_int_equal (len, 16);
  et_guid_from_bytes (&g, related);
  assert_true (et_guid_equal (&g, &ev.related_activity_id));
  assert_non_null (et_record_find_ext (rec, 3, &len));
  assert_int_equal (len, 4);
  assert_int_equal (rec->payload_len, 7);
  assert_memory_equal (rec->payload, "payload", 7);
  assert_int_equal (et_etl_file_buffer_info (file, 1)->cpu, 2);
  g_array_unref (r.records);
}

static void
test_event_header32_and_classic_kinds (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtEtlFile) file = NULL;
  EtFixtureEvent ev;
  EtFixtureWhere where = { 0, 100, 5, 6 };
  EtGuid g = { 0x9B79EE91, 1, 2, { 3 } };
  guint counts[8] = { 0 };
  Records r;

  et_fixture_event_init (&ev);
  ev.pointer_size = 4;
  et_fixture_write_event (w, &ev, NULL, 0, NULL, 0);
  et_fixture_write_classic (w, &where, 4, &g, 10, 4, 2, (const guint8 *) "mof", 3);
  et_fixture_write_classic (w, &where, 8, &g, 11, 4, 2, NULL, 0);
  et_fixture_write_perfinfo (w, 0, 200, 8, 0x0F, 46, 2, (const guint8 *) "12345678", 8);
  et_fixture_write_system (w, &where, 8, TRUE, 5, 36, 2, (const guint8 *) "ab", 2);
  et_fixture_write_message (w, &where, 9, ET_FIXTURE_MESSAGE_SEQUENCE | ET_FIXTURE_MESSAGE_GUID
                            | ET_FIXTURE_MESSAGE_TIMESTAMP | ET_FIXTURE_MESSAGE_SYSTEM_INFO,
                            1, &g, 0, (const guint8 *) "x", 1);
  assert_true (et_fixture_writer_close (w, NULL));

  file = open_file (f);
  r = all_records (file);
  for (guint i = 0; i < r.records->len; i++)
    {
      const EtRecord *rec = &g_array_index (r.records, EtRecord, i);
      counts[rec->klass]++;
      if (rec->klass == ET_RECORD_EVENT)
        assert_int_equal (rec->pointer_size, 4);
      if (rec->klass == ET_RECORD_FULL)
        assert_true (et_guid_equal (&rec->guid, &g));
      if (rec->klass == ET_RECORD_PERFINFO)
        assert_int_equal (rec->hook, 0x0F2E);
    }
  assert_int_equal (counts[ET_RECORD_EVENT], 1);
  assert_int_equal (counts[ET_RECORD_FULL], 2);
  assert_int_equal (counts[ET_RECORD_PERFINFO], 1);
  assert_int_equal (counts[ET_RECORD_MESSAGE], 1);
  assert_int_equal (counts[ET_RECORD_SYSTEM], 3);   /* header, 0x50, compact */
  assert_int_equal (f->damage->len, 0);
  g_array_unref (r.records);
}

static void
test_kernel_names_round_trip (void **state)
{
  Fixture *f = *state;

  for (guint ps = 4; ps <= 8; ps += 4)
    {
      EtFixtureOptions o;
      g_autoptr(EtFixtureWriter) w = NULL;
      g_autoptr(EtEtlFile) file = NULL;
      gboolean saw_process = FALSE, saw_thread = FALSE, saw_dc_start = FALSE;
      Records r;

      et_fixture_options_init (&o);
      o.pointer_size = ps;
      w = et_fixture_writer_new (f->path, &o, NULL);
      et_fixture_write_process (w, 0, 10, ET_FIXTURE_KERNEL_DC_START, 4120, 8, "Contoso.exe", "x");
      et_fixture_write_thread (w, 0, 20, ET_FIXTURE_KERNEL_DC_START, 4120, 4121, "Main");
      et_fixture_write_thread_name (w, 0, 30, 4120, 4122, "Kestrel IO #1");
      assert_true (et_fixture_writer_close (w, NULL));
      file = open_file (f);
      r = all_records (file);
      for (guint i = 0; i < r.records->len; i++)
        {
          EtKernelName n = { 0 };
          const EtRecord *rec = &g_array_index (r.records, EtRecord, i);

          if (et_kernel_process_name (rec, &n))
            {
              assert_int_equal (n.pid, 4120);
              assert_string_equal (n.name, "Contoso.exe");
              saw_process = TRUE;
            }
          else if (et_kernel_thread_name (rec, &n) && n.tid == 4121)
            {
              /* the name at the end of a version-4 DCStart */
              assert_int_equal (n.pid, 4120);
              assert_string_equal (n.name, "Main");
              saw_dc_start = TRUE;
            }
          else if (n.name != NULL)
            {
              assert_int_equal (n.tid, 4122);
              assert_string_equal (n.name, "Kestrel IO #1");
              saw_thread = TRUE;
            }
          g_free (n.name);
          g_free (n.command_line);
        }
      assert_true (saw_process && saw_thread && saw_dc_start);
      g_array_unref (r.records);
    }
}

static void
test_tracelogging_every_type_round_trips (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(EtEtlFile) file = NULL;
  g_autoptr(EtTlSchema) schema = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *provider = NULL;
  EtFields *fields = et_fields_new ();
  EtFixtureEvent ev;
  const EtRecord *rec;
  const guint8 *meta, *traits;
  gsize meta_len = 0, traits_len = 0, consumed = 0, len = 0;
  const char *text;
  gint64 v = 0;
  gint32 ints[3] = { GINT32_TO_LE (1), GINT32_TO_LE (-2), GINT32_TO_LE (3) };
  const char *const words[] = { "a", "bc" };
  EtGuid g = { 1, 2, 3, { 4 } };
  Records r;

  et_fixture_payload_add_i8 (p, "i8", -5);
  et_fixture_payload_add_u16 (p, "u16", 65000);
  et_fixture_payload_add_i64 (p, "i64", -204);
  et_fixture_payload_add_double (p, "d", 0.5);
  et_fixture_payload_add_bool32 (p, "b", TRUE);
  et_fixture_payload_add_utf16 (p, "s", "héllo");
  et_fixture_payload_add_ansi (p, "a", "ansi");
  et_fixture_payload_add_counted_utf16 (p, "cs", "counted");
  et_fixture_payload_add_counted_ansi (p, "ca", "c8");
  et_fixture_payload_add_guid (p, "g", &g);
  et_fixture_payload_add_filetime (p, "ft", G_GINT64_CONSTANT (133537968000000000));
  et_fixture_payload_add_hex32 (p, "h", 0xBEEF);
  et_fixture_payload_add_binary (p, "bin", (const guint8 *) "\x01\x02", 2);
  et_fixture_payload_add_array (p, "va", ET_FIXTURE_INT32, ints, 3, FALSE);
  et_fixture_payload_add_array (p, "ca3", ET_FIXTURE_INT32, ints, 3, TRUE);
  et_fixture_payload_add_utf16_array (p, "words", words, 2);
  et_fixture_payload_begin_struct (p, "st");
  et_fixture_payload_add_utf16 (p, "b", "Hello");
  et_fixture_payload_add_utf16 (p, "c", "World!");
  et_fixture_payload_end_struct (p);
  et_fixture_payload_begin_struct_array (p, "pts", 2);
  et_fixture_payload_add_i32 (p, "x", 1);
  et_fixture_payload_add_i32 (p, "y", 2);
  et_fixture_payload_next_element (p);
  et_fixture_payload_add_i32 (p, "x", 3);
  et_fixture_payload_add_i32 (p, "y", 4);
  et_fixture_payload_end_struct (p);
  et_fixture_payload_add_u32 (p, "last", 99);

  et_fixture_event_init (&ev);
  et_fixture_write_tl_event (w, &ev, "MySource", "TestEvent", p, NULL);
  assert_true (et_fixture_writer_close (w, NULL));

  file = open_file (f);
  r = all_records (file);
  rec = &g_array_index (r.records, EtRecord, r.records->len - 1);
  assert_int_equal (rec->channel, 11);
  meta = et_record_find_ext (rec, ET_EXT_EVENT_SCHEMA_TL, &meta_len);
  traits = et_record_find_ext (rec, ET_EXT_PROV_TRAITS, &traits_len);
  assert_non_null (meta);
  assert_non_null (traits);
  provider = et_tl_traits_provider_name (traits, traits_len, &error);
  assert_string_equal (provider, "MySource");
  schema = et_tl_schema_parse (meta, meta_len, &error);
  assert_null (error);
  assert_string_equal (et_tl_schema_event_name (schema), "TestEvent");
  assert_int_equal (et_tl_schema_n_fields (schema), 19);
  assert_true (et_tl_decode (schema, rec->payload, rec->payload_len, fields, &consumed, &error));
  assert_int_equal (consumed, rec->payload_len);
  assert_true (et_fields_get_integer (fields, et_fields_find (fields, "i64"), &v));
  assert_int_equal (v, -204);
  assert_true (et_fields_get_integer (fields, et_fields_find (fields, "u16"), &v));
  assert_int_equal (v, 65000);
  text = et_fields_text (fields, et_fields_find (fields, "s"), &len);
  assert_int_equal (len, strlen ("héllo"));
  assert_memory_equal (text, "héllo", len);
  text = et_fields_text (fields, et_fields_find (fields, "cs"), &len);
  assert_memory_equal (text, "counted", len);
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "pts"))->n_children, 2);
  assert_true (et_fields_get_integer (fields, et_fields_find (fields, "last"), &v));
  assert_int_equal (v, 99);
  et_fields_free (fields);
  g_array_unref (r.records);
}

static void
test_manifest_chunks_reassemble (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixtureProvider) provider = et_fixture_provider_new ("Contoso-Test");
  g_autoptr(EtEtlFile) file = NULL;
  g_autoptr(GString) xml = g_string_new (NULL);
  g_autoptr(GMarkupParseContext) ctx = NULL;
  static const GMarkupParser no_callbacks = { 0 };
  static const EtFixtureFieldDef fields[] = { { "n", ET_FIXTURE_INT32, "Kind" } };
  EtFixtureEventDef def = { 1, 0, "Work", 4, 1, 1, 1, "Work & %1 <done>\n", fields, 1 };
  EtFixtureWhere where = { 0, 100, 1, 2 };
  g_autofree char *expected = NULL;
  gsize expected_len = 0;
  guint chunks = 0, total = 0;
  Records r;

  et_fixture_provider_add_task (provider, "Job", 1);
  et_fixture_provider_add_keyword (provider, "Jobs", 1);
  et_fixture_provider_add_map_value (provider, "Kind", FALSE, 1, "One");
  et_fixture_provider_add_event (provider, &def);
  expected = et_fixture_provider_build_manifest (provider, &expected_len);
  assert_non_null (strstr (expected, "message=\"$(string.event_Work)\""));
  assert_non_null (strstr (expected, "value=\"Work &amp; %1 &lt;done&gt;%n\""));
  assert_non_null (strstr (expected, "\r\n"));
  et_fixture_write_manifest (w, provider, &where, 500, -1);
  assert_true (et_fixture_writer_close (w, NULL));

  file = open_file (f);
  r = all_records (file);
  for (guint i = 0; i < r.records->len; i++)
    {
      const EtRecord *rec = &g_array_index (r.records, EtRecord, i);

      if (rec->klass != ET_RECORD_EVENT || rec->id != 0xFFFE)
        continue;
      assert_int_equal (rec->opcode, 0xFE);
      assert_int_equal (rec->task, 0xFFFE);
      assert_int_equal (rec->level, 0);
      assert_int_equal (rec->version, 1);
      assert_true (rec->keywords == G_MAXUINT64);
      assert_int_equal (rec->payload[0], 1);
      assert_int_equal (rec->payload[3], 0x5B);
      total = et_read_u16 (rec->payload + 4);
      assert_int_equal (et_read_u16 (rec->payload + 6), chunks);
      assert_true (rec->payload_len - 8 <= 500);
      g_string_append_len (xml, (const char *) rec->payload + 8, rec->payload_len - 8);
      chunks++;
    }
  assert_int_equal (chunks, total);
  assert_true (chunks > 1);
  assert_int_equal (xml->len, expected_len);
  assert_memory_equal (xml->str, expected, expected_len);
  ctx = g_markup_parse_context_new (&no_callbacks, 0, NULL, NULL);
  assert_true (g_markup_parse_context_parse (ctx, xml->str, xml->len, NULL));
  assert_true (g_markup_parse_context_end_parse (ctx, NULL));
  g_array_unref (r.records);
}

static void
test_compressed_file_round_trips (void **state)
{
  Fixture *f = *state;
  EtFixtureOptions o;
  g_autoptr(EtEtlFile) file = NULL;
  gsize len = 0;
  const guint8 *buf;
  Records r;

  et_fixture_options_init (&o);
  o.compress = TRUE;
  assert_true (et_fixture_write_large (f->path, 3000, 7, &o, NULL));
  file = open_file (f);
  assert_int_equal (f->damage->len, 0);
  assert_false (et_etl_file_buffer_info (file, 0)->flags & 0x40);
  assert_int_equal (et_etl_file_n_compressed (file), et_etl_file_n_buffers (file) - 1);
  r = all_records (file);
  buf = et_etl_file_buffer (file, 0, &len);
  assert_int_equal (et_read_u32 (buf + 0x48 + 0x20 + 0x20), 0x04010001);
  /* 3000 events, the manifest chunk, header + 0x50, 8 processes, 64 threads. */
  assert_int_equal (r.records->len, 3000 + 1 + 2 + 8 + 64);
  g_array_unref (r.records);
}

static void
test_buffers_are_flushed_out_of_time_order (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtEtlFile) file = NULL;
  gint64 previous_first = G_MININT64;
  gboolean backwards = FALSE;

  write_one_event (w, 1, 500, 11);   /* CPU 1: one early event, flushed last */
  for (int i = 0; i < 400; i++)
    write_one_event (w, 2, 1000 + i * 1000, 12);
  assert_true (et_fixture_writer_close (w, NULL));
  file = open_file (f);
  for (guint i = 1; i < et_etl_file_n_buffers (file); i++)
    {
      Records r = { g_array_new (FALSE, FALSE, sizeof (EtRecord)), NULL };
      gint64 first;

      et_etl_file_walk_buffer (file, i, collect, &r);
      first = g_array_index (r.records, EtRecord, 0).ts;
      backwards |= first < previous_first;
      previous_first = first;
      g_array_unref (r.records);
    }
  assert_true (backwards);
  assert_true (et_etl_file_n_buffers (file) > 3);
}

static void
test_lost_event_flags_and_counters (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtEtlFile) file = NULL;
  guint events_lost = 0, buffer_lost = 0;

  write_one_event (w, 1, 100, 1);
  et_fixture_writer_mark_events_lost (w, 1);
  et_fixture_writer_flush_cpu (w, 1);
  write_one_event (w, 1, 200, 1);
  et_fixture_writer_mark_buffer_lost (w, 1);
  assert_true (et_fixture_writer_close (w, NULL));
  file = open_file (f);
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    {
      guint16 flags = et_etl_file_buffer_info (file, i)->flags;
      events_lost += (flags & 0x2) != 0;
      buffer_lost += (flags & 0x4) != 0;
    }
  assert_int_equal (events_lost, 1);
  assert_int_equal (buffer_lost, 1);
}

static void
test_damaged_record_size_names_its_offset (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixtureLayout) layout = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  guint64 target;
  guint bad = 0;
  Records r = { g_array_new (FALSE, FALSE, sizeof (EtRecord)), NULL };

  for (int i = 0; i < 5; i++)
    write_one_event (w, 1, 100 + i * 100, 1);
  assert_true (et_fixture_writer_close (w, NULL));
  layout = et_fixture_layout_read (f->path, NULL);
  assert_int_equal (layout->records->len, 7);
  target = et_fixture_layout_record_offset (layout, 4);
  assert_true (et_fixture_damage_record_size (f->path, 4, 0xFFF0, NULL));
  file = open_file (f);
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    bad += et_etl_file_walk_buffer (file, i, collect, &r);
  g_array_unref (r.records);
  assert_int_equal (bad, 1);
  assert_int_equal (f->damage->len, 1);
  assert_int_equal (g_array_index (f->damage, guint64, 0), target);
}

static void
test_truncated_and_corrupt_compressed_files_are_reported (void **state)
{
  Fixture *f = *state;
  EtFixtureOptions o;
  g_autoptr(EtFixtureLayout) layout = NULL;
  EtEtlFile *file;
  const EtFixtureBufferInfo *b2, *b3;
  guint64 at;

  et_fixture_options_init (&o);
  o.compress = TRUE;
  assert_true (et_fixture_write_large (f->path, 2000, 3, &o, NULL));
  layout = et_fixture_layout_read (f->path, NULL);
  b2 = &g_array_index (layout->buffers, EtFixtureBufferInfo, 2);
  b3 = &g_array_index (layout->buffers, EtFixtureBufferInfo, 3);
  /* The reader names a byte of the damaged buffer. */
  assert_true (et_fixture_damage_compressed (f->path, 2, NULL));
  file = open_file (f);
  assert_int_equal (f->damage->len, 1);
  at = g_array_index (f->damage, guint64, 0);
  assert_true (at >= b2->offset && at < b2->offset + b2->size);
  et_etl_file_free (file);

  assert_true (et_fixture_damage_truncate (f->path, b3->offset + 100, NULL));
  file = open_file (f);
  assert_true (f->damage->len >= 2);
  at = g_array_index (f->damage, guint64, f->damage->len - 1);
  assert_true (at >= b3->offset && at <= b3->offset + 100);
  et_etl_file_free (file);
}

static void
test_cases_expected_markers_are_well_formed (void **state)
{
  Fixture *f = *state;
  g_autofree char *expected = g_build_filename (f->dir, "cases.expected.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 previous = G_MININT64;
  guint n = 0;

  assert_true (et_fixture_write_cases (f->path, expected, NULL, NULL));
  assert_true (g_file_get_contents (expected, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++, n++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o;
      gint64 key;

      assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      for (const char *const *k = (const char *const[]) { "kind", "start_ns", "end_ns", "pid", "tid",
             "end_tid", "importance", "category", "series", "text", "span_id", "status", "depth",
             "provider", "provider_guid", "event", "event_id", "level", "opcode", "task", NULL };
           *k != NULL; k++)
        assert_true (json_object_has_member (o, *k));
      key = json_object_get_null_member (o, "start_ns") ? json_object_get_int_member (o, "end_ns")
                                                        : json_object_get_int_member (o, "start_ns");
      assert_true (key >= previous);
      previous = key;
    }
  assert_true (n >= 50);
}

static void
test_lying_tracelogging_metadata_sizes_are_caught (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(EtEtlFile) file = NULL;
  EtFixtureTlOptions lie = { 0, 40, 0, FALSE };
  EtFixtureEvent ev;
  Records r;
  guint rejected = 0;

  et_fixture_payload_add_u32 (p, "n", 1);
  et_fixture_event_init (&ev);
  et_fixture_write_tl_event (w, &ev, "Liar", "Big", p, &lie);
  lie.meta_size_delta = -3;
  et_fixture_write_tl_event (w, &ev, "Liar", "Small", p, &lie);
  assert_true (et_fixture_writer_close (w, NULL));
  file = open_file (f);
  r = all_records (file);
  for (guint i = 0; i < r.records->len; i++)
    {
      const EtRecord *rec = &g_array_index (r.records, EtRecord, i);
      const guint8 *meta;
      gsize len = 0;
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTlSchema) schema = NULL;

      if (rec->klass != ET_RECORD_EVENT)
        continue;
      meta = et_record_find_ext (rec, ET_EXT_EVENT_SCHEMA_TL, &len);
      assert_non_null (meta);
      /* Too big cannot be read at all; too small cuts the field list short. */
      schema = et_tl_schema_parse (meta, len, &error);
      if (schema == NULL)
        assert_true (error != NULL && error->domain == ET_ETL_ERROR);
      rejected += schema == NULL || et_tl_schema_n_fields (schema) != 1;
    }
  assert_int_equal (rejected, 2);
  g_array_unref (r.records);
}

static void
test_dropped_manifest_chunk_leaves_a_gap (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixtureProvider) provider = et_fixture_provider_new ("Contoso-Gap");
  g_autoptr(EtEtlFile) file = NULL;
  EtFixtureWhere where = { 0, 100, 1, 2 };
  EtFixtureEventDef def = { 1, 0, "Only", 4, 0, 0, 0, NULL, NULL, 0 };
  guint seen = 0, total = 0;
  Records r;

  et_fixture_provider_add_event (provider, &def);
  et_fixture_write_manifest (w, provider, &where, 300, 1);
  assert_true (et_fixture_writer_close (w, NULL));
  file = open_file (f);
  r = all_records (file);
  for (guint i = 0; i < r.records->len; i++)
    {
      const EtRecord *rec = &g_array_index (r.records, EtRecord, i);
      if (rec->klass == ET_RECORD_EVENT && rec->id == 0xFFFE)
        {
          total = et_read_u16 (rec->payload + 4);
          assert_int_not_equal (et_read_u16 (rec->payload + 6), 1);
          seen++;
        }
    }
  assert_true (total >= 3);
  assert_int_equal (seen, total - 1);
  g_array_unref (r.records);
}

static void
test_flipped_marker_bits_end_the_buffer_walk (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, NULL);
  g_autoptr(EtFixtureLayout) layout = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  Records r = { g_array_new (FALSE, FALSE, sizeof (EtRecord)), NULL };
  guint bad = 0;

  for (int i = 0; i < 3; i++)
    write_one_event (w, 1, 100 + i * 100, 1);
  assert_true (et_fixture_writer_close (w, NULL));
  layout = et_fixture_layout_read (f->path, NULL);
  /* Byte 3 of record 3 (the second event) loses its 0x40 bit: 0xC0 → 0x80. */
  assert_true (et_fixture_damage_flip_bits (f->path, et_fixture_layout_record_offset (layout, 3) + 3,
                                            0x40, NULL));
  file = open_file (f);
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    bad += et_etl_file_walk_buffer (file, i, collect, &r);
  assert_int_equal (bad, 1);
  assert_int_equal (g_array_index (f->damage, guint64, 0), et_fixture_layout_record_offset (layout, 3));
  g_array_unref (r.records);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_header_record_64_qpc, setup, teardown),
    cmocka_unit_test_setup_teardown (test_header_record_32_system_time, setup, teardown),
    cmocka_unit_test_setup_teardown (test_header_record_cpu_cycles, setup, teardown),
    cmocka_unit_test_setup_teardown (test_clock_conversion, setup, teardown),
    cmocka_unit_test_setup_teardown (test_event_header_fields_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown (test_event_header32_and_classic_kinds, setup, teardown),
    cmocka_unit_test_setup_teardown (test_kernel_names_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown (test_tracelogging_every_type_round_trips, setup, teardown),
    cmocka_unit_test_setup_teardown (test_manifest_chunks_reassemble, setup, teardown),
    cmocka_unit_test_setup_teardown (test_compressed_file_round_trips, setup, teardown),
    cmocka_unit_test_setup_teardown (test_buffers_are_flushed_out_of_time_order, setup, teardown),
    cmocka_unit_test_setup_teardown (test_lost_event_flags_and_counters, setup, teardown),
    cmocka_unit_test_setup_teardown (test_damaged_record_size_names_its_offset, setup, teardown),
    cmocka_unit_test_setup_teardown (test_truncated_and_corrupt_compressed_files_are_reported, setup, teardown),
    cmocka_unit_test_setup_teardown (test_cases_expected_markers_are_well_formed, setup, teardown),
    cmocka_unit_test_setup_teardown (test_lying_tracelogging_metadata_sizes_are_caught, setup, teardown),
    cmocka_unit_test_setup_teardown (test_dropped_manifest_chunk_leaves_a_gap, setup, teardown),
    cmocka_unit_test_setup_teardown (test_flipped_marker_bits_end_the_buffer_walk, setup, teardown),
  };

  return cmocka_run_group_tests_name ("fixture-roundtrip", tests, NULL, NULL);
}
