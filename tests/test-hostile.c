/* test-hostile.c — values a hostile or damaged file can hold, through the
 * model, the drawing and the command-line tool (issue 19): timestamps
 * near the ends of the 64-bit range, broken extended-data items, text that
 * is not UTF-8, manifests cut into very many chunks. Each file is written
 * by the fixture writer and then damaged where the test says. Every check
 * is bounded by work done (ticks drawn, comparisons made), never by time.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "et-manifest.h"
#include "et-trace.h"
#include "et-timeline-render.h"
#include "et-viewport.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#define MS (G_GINT64_CONSTANT (1000000))

typedef EtFixtureFile Fixture;

static int
setup (void **state)
{
  *state = et_fixture_file_new ("hostile.etl");
  return 0;
}

static int
teardown (void **state)
{
  et_fixture_file_free (*state);
  return 0;
}

/* ---- a small trace of EVENT_HEADER records -------------------------------- */

/* 40 events of one manifest-less provider on two CPUs, @gap_ns apart. */
static void
write_events_apart (const char *path, gint64 gap_ns)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  EtFixtureOptions o;
  guint8 payload[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

  et_fixture_options_init (&o);
  o.buffer_size = 4096;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 40; i++)
    {
      EtFixtureEvent ev;

      et_fixture_event_init (&ev);
      ev.cpu = i % 2, ev.time_ns = MS + i * gap_ns, ev.pid = 10, ev.tid = 11;
      ev.provider.data1 = 0x1234;
      ev.id = 1;
      et_fixture_write_event (w, &ev, NULL, 0, payload, sizeof payload);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

static void
write_events (const char *path)
{
  write_events_apart (path, MS);
}

/* Indexes (in the layout) of the first @n EVENT_HEADER records of @path. */
static void
event_records (const char *path, guint *k, guint n, guint64 *offsets)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureLayout) layout = et_fixture_layout_read (path, &error);
  guint found = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < layout->records->len && found < n; i++)
    {
      const EtFixtureRecordInfo *r = &g_array_index (layout->records, EtFixtureRecordInfo, i);
      if (r->header_type == 0x12 || r->header_type == 0x13)
        {
          offsets[found] = r->offset;
          k[found++] = i;
        }
    }
  assert_int_equal (found, n);
}

static gboolean
damage_names (EtTrace *t, guint64 offset, const char *words)
{
  guint n = 0;
  const EtDamage *d = et_trace_get_damage (t, &n);
  g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT ":", offset);

  for (guint i = 0; i < n; i++)
    if (d[i].offset == offset && strstr (d[i].message, where) && strstr (d[i].message, words))
      return TRUE;
  return FALSE;
}

/* Every event's time lies in [0, duration]. */
static void
assert_times_inside (EtTrace *t)
{
  EtFields *fields = et_fields_new ();

  assert_true (et_trace_get_duration_ns (t) > 0);
  for (guint64 i = 0; i < et_trace_get_n_events (t); i++)
    {
      EtEvent ev;
      et_trace_decode_event (t, i, &ev, fields, NULL);
      assert_true (ev.time_ns >= 0 && ev.time_ns <= et_trace_get_duration_ns (t));
    }
  et_fields_free (fields);
}

/* ---- 1. absurd timestamps --------------------------------------------------- */

static void
test_absurd_timestamps_are_damage_and_clamped (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  guint k[3];
  guint64 offsets[3];
  gint64 plain_duration;
  guint64 plain_events;

  write_events (f->path);
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_stats (t)->damage_count, 0);
  plain_duration = et_trace_get_duration_ns (t);
  plain_events = et_trace_get_n_events (t);
  g_clear_object (&t);

  /* ~2^62 ticks after the start (issue 19), far before it, and the last
   * value a timestamp can have. */
  event_records (f->path, k, 3, offsets);
  assert_true (et_fixture_damage_timestamp (f->path, k[0], G_GINT64_CONSTANT (1) << 62, &error));
  assert_true (et_fixture_damage_timestamp (f->path, k[1], G_MININT64 + 5, &error));
  assert_true (et_fixture_damage_timestamp (f->path, k[2], G_MAXINT64, &error));
  g_assert_no_error (error);
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  assert_int_equal (et_trace_get_stats (t)->time_damage, 3);
  assert_true (damage_names (t, offsets[0], "after"));
  assert_true (damage_names (t, offsets[1], "before"));
  assert_true (damage_names (t, offsets[2], "after"));
  /* Clamped, not dropped: every event is still there, and every time lies
   * inside the trace, whose duration is that of the undamaged events. */
  assert_int_equal (et_trace_get_n_events (t), plain_events);
  assert_true (et_trace_get_duration_ns (t) <= plain_duration);
  assert_times_inside (t);
  g_clear_object (&t);

  /* The header is file data too: an EndTime at the end of time does not
   * make a timestamp 114 years on plausible (2^55 ticks: 3.6·10^18 ns,
   * where sums of two times overflow). (EndTime: the log-file header
   * record, SYSTEM64, at 0x48; its payload at 0x20, EndTime at 16.) */
  {
    guint8 end[8] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F };

    assert_true (et_fixture_damage_write (f->path, 0x48 + 0x20 + 16, end, 8, &error));
    assert_true (et_fixture_damage_timestamp (f->path, k[0], G_GINT64_CONSTANT (1) << 55, &error));
    t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    assert_int_equal (et_trace_get_header (t)->end_time, G_MAXINT64);
    assert_int_equal (et_trace_get_stats (t)->time_damage, 3);
    assert_times_inside (t);
  }
}

/* The header record's own timestamp is t0: when it is the damaged one,
 * the trace counts from its events instead of putting them all centuries
 * away. */
static void
test_a_damaged_header_timestamp_counts_from_the_events (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  g_autoptr(EtFixtureLayout) layout = NULL;
  gint64 plain_duration;

  write_events (f->path);
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  plain_duration = et_trace_get_duration_ns (t);
  g_clear_object (&t);
  layout = et_fixture_layout_read (f->path, &error);
  g_assert_no_error (error);
  assert_int_equal (et_fixture_layout_record_offset (layout, 0), 0x48);
  assert_true (et_fixture_damage_timestamp (f->path, 0, G_GINT64_CONSTANT (1) << 61, &error));
  g_assert_no_error (error);

  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_true (damage_names (t, 0x48, "header's timestamp"));
  assert_true (et_trace_get_duration_ns (t) <= plain_duration);
  assert_times_inside (t);
}

/* A header whose EndTime says one second, over events that go on for
 * three hours (a stale EndTime): the events themselves say how long the
 * trace is, and none of them is damage. */
static void
test_a_stale_header_end_time_makes_no_damage (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  gint64 end;
  guint8 v[8];

  write_events_apart (f->path, 3 * 3600 * 1000 * MS / 40);
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  end = et_trace_get_header (t)->start_time + 10000000;
  g_clear_object (&t);
  for (guint i = 0; i < 8; i++)
    v[i] = (guint8) (end >> (8 * i));
  assert_true (et_fixture_damage_write (f->path, 0x48 + 0x20 + 16, v, 8, &error));

  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_header (t)->end_time, end);
  assert_int_equal (et_trace_get_stats (t)->damage_count, 0);
  assert_true (et_trace_get_duration_ns (t) > 2 * 3600 * 1000 * MS);
}

/* `info` and `render` of the damaged file at @path both end with exit 1:
 * info names the record at @offset, render still draws the picture
 * (it used to never end) and says it is damaged. */
static void
assert_info_and_render_report (const char *path, const char *png, guint64 offset)
{
  g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT ":", offset);
  Run run = run_cli ("info", path);

  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.out, where));
  run_clear (&run);
  run = run_cli ("render", path, "-o", png);
  assert_int_equal (run.status, 1);
  assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  run_clear (&run);
}

static void
test_info_of_absurd_timestamps_exits_1_with_the_damage (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autofree char *png = g_build_filename (f->dir, "out.png", NULL);
  guint k[1];
  guint64 offsets[1];

  write_events (f->path);
  event_records (f->path, k, 1, offsets);
  assert_true (et_fixture_damage_timestamp (f->path, k[0], G_GINT64_CONSTANT (1) << 62, &error));
  g_assert_no_error (error);

  assert_info_and_render_report (f->path, png, offsets[0]);
}

/* The issue's own case: one event of ShutdownPerfDiagLogger.etl (from
 * the corpus) ~2^62 ticks after the start. info and render end, exit 1
 * and name the record's offset. */
static void
test_real_trace_with_an_absurd_timestamp_renders_and_reports_it (void **state)
{
  Fixture *f = *state;
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *source = g_build_filename (dir ? dir : ".", "ShutdownPerfDiagLogger.etl", NULL);
  g_autofree char *png = g_build_filename (f->dir, "real.png", NULL);
  g_autofree char *data = NULL;
  g_autoptr(EtFixtureLayout) layout = NULL;
  g_autoptr(GError) error = NULL;
  guint k[1] = { G_MAXUINT }, seen = 0;
  guint64 offsets[1] = { 0 };
  gsize len;

  if (dir == NULL || !g_file_get_contents (source, &data, &len, NULL))
    {
      print_message ("# corpus file not found: %s\n", source);
      skip ();
    }
  assert_true (g_file_set_contents (f->path, data, (gssize) len, NULL));
  /* The layout walk trusts buffer headers only: it reads a real file too.
   * The tenth record after the header whose TimeStamp is at 0x10. */
  layout = et_fixture_layout_read (f->path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < layout->records->len && seen < 10; i++)
    {
      const EtFixtureRecordInfo *r = &g_array_index (layout->records, EtFixtureRecordInfo, i);
      guint8 type = r->header_type;

      if (i > 0 && (type == 0x01 || type == 0x02 || type == 0x12 || type == 0x13))
        k[0] = i, offsets[0] = r->offset, seen++;
    }
  assert_int_equal (seen, 10);
  assert_true (et_fixture_damage_timestamp (f->path, k[0], G_GINT64_CONSTANT (1) << 62, &error));
  g_assert_no_error (error);
  assert_info_and_render_report (f->path, png, offsets[0]);
}

/* The ruler counts ticks, not time: at the ends of the 64-bit range it
 * still draws at most one tick per 90 pixels (plus the two edges), in
 * order, inside the view. */
static void
test_ruler_ticks_are_bounded_by_pixels_at_the_ends_of_time (void **state)
{
  static const gint64 views[][2] = {
    { 0, G_MAXINT64 }, { G_MININT64, G_MAXINT64 }, { G_MAXINT64 - 10, G_MAXINT64 },
    { G_MININT64, G_MININT64 + 1 }, { -5, 5 }, { G_MAXINT64 / 2, G_MAXINT64 },
    { G_MININT64, 0 }, { 0, 1 },
  };
  gint64 ticks[64];

  (void) state;
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      EtViewport v;
      guint n;

      et_viewport_init (&v, 1250, 400);
      v.from_ns = views[i][0];
      v.to_ns = views[i][1];
      n = et_ruler_ticks (&v, 90, ticks, G_N_ELEMENTS (ticks));
      assert_true (n <= (1250 - 250) / 90 + 2);
      assert_true (n >= 1);
      for (guint j = 0; j < n; j++)
        {
          assert_true (ticks[j] >= v.from_ns && ticks[j] <= v.to_ns);
          assert_true (j == 0 || ticks[j] > ticks[j - 1]);
        }
      /* Panning and zooming there stay in order, without wrapping. */
      et_viewport_pan (&v, -5000);
      assert_true (v.from_ns <= v.to_ns);
      et_viewport_pan (&v, 5000);
      assert_true (v.from_ns <= v.to_ns);
      et_viewport_zoom (&v, 700, 0.001, 1);
      assert_true (v.from_ns < v.to_ns);
      et_viewport_zoom (&v, 700, 1000, 1);
      assert_true (v.from_ns < v.to_ns);
    }

  /* A wide picture of an ordinary range: ticks all the way across. */
  {
    EtViewport v;
    g_autofree gint64 *many = g_new (gint64, 1000);
    gint64 step;
    guint n;

    et_viewport_init (&v, 20250, 400);
    v.from_ns = 0;
    v.to_ns = 1000000000;
    step = et_ruler_step (v.to_ns, 20000, 90);
    n = et_ruler_ticks (&v, 90, many, 1000);
    assert_true (n <= 20000 / 90 + 2);
    assert_int_equal (many[0], 0);
    assert_true (many[n - 1] + step > v.to_ns);
  }
}

/* ---- 6. damaged extended-data items ---------------------------------------- */

/* 12 TraceLogging events (traits and metadata items) on one CPU; with
 * @empty, without payloads: their last item ends the record. */
static void
write_tl_events (const char *path, gboolean empty)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.n_cpus = 1;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 12; i++)
    {
      EtFixtureEvent ev;

      et_fixture_event_init (&ev);
      ev.time_ns = MS + i * MS, ev.pid = 7, ev.tid = 8;
      et_fixture_payload_reset (p);
      if (!empty)
        {
          et_fixture_payload_add_u32 (p, "Count", i);
          et_fixture_payload_add_utf16 (p, "Text", "some text");
        }
      et_fixture_write_tl_event (w, &ev, "Hostile.Tl", "Tick", p, NULL);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

/* The decoded event of the record at @offset. */
static gboolean
decode_at (EtTrace *t, guint64 offset, EtEvent *ev, GError **error)
{
  EtFields *fields = et_fields_new ();
  gboolean ok = FALSE, found = FALSE;

  for (guint64 i = 0; i < et_trace_get_n_events (t) && !found; i++)
    {
      g_clear_error (error);
      ok = et_trace_decode_event (t, i, ev, fields, error);
      found = ev->file_offset == offset;
    }
  et_fields_free (fields);
  assert_true (found);
  return ok;
}

/* Damage in record @k's items is reported at @at (or, for a chain that
 * runs on, inside the record), the record is kept, and decoding it says
 * what is missing; the CLI exits 1. */
static void
check_ext_damage (Fixture *f, guint k, guint64 record, guint64 at, gboolean inside,
                  guint64 records)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  guint n = 0;
  const EtDamage *d;
  EtEvent ev;
  Run run;

  g_assert_no_error (error);
  d = et_trace_get_damage (t, &n);
  if (n != 1)
    fail_msg ("record %u: %u damage messages, the first: %s", k, n, n ? d[0].message : "");
  if (inside ? d[0].offset < at || d[0].offset >= record + 0x200 : d[0].offset != at)
    fail_msg ("record %u: damage at %" G_GUINT64_FORMAT ", item at %" G_GUINT64_FORMAT ": %s",
              k, d[0].offset, at, d[0].message);
  assert_non_null (strstr (d[0].message, "extended data"));
  assert_int_equal (et_trace_get_stats (t)->records, records);
  assert_false (decode_at (t, record, &ev, &error));
  assert_non_null (error);
  assert_non_null (strstr (error->message, "TraceLogging metadata"));

  run = run_cli ("info", f->path);
  assert_int_equal (run.status, 1);
  run_clear (&run);
}

static void
test_damaged_extended_items_are_reported_where_they_are (void **state)
{
  Fixture *f = *state;
  static const struct
  {
    guint item;
    guint16 size;
    gboolean linkage, inside, empty;
  } cases[] = {
    { 0, 0, TRUE, FALSE, FALSE },     /* size 0 */
    { 0, 1, TRUE, FALSE, FALSE },     /* size 1 */
    { 0, 9, TRUE, FALSE, FALSE },     /* size 9: not a multiple of 8 */
    { 1, 0, TRUE, TRUE, FALSE },      /* Linkage on the last item (its size kept):
                                         the payload is read as an item */
    { 1, 0, TRUE, FALSE, TRUE },      /* the same, at the record's end: that item */
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) plain = NULL;
  guint k[2];
  guint64 offsets[2], records;

  write_tl_events (f->path, FALSE);
  plain = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_stats (plain)->damage_count, 0);
  records = et_trace_get_stats (plain)->records;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint64 at;
      guint16 size = cases[i].size;

      write_tl_events (f->path, cases[i].empty);
      event_records (f->path, k, 2, offsets);
      assert_true (et_fixture_ext_item_offset (f->path, k[1], cases[i].item, &at, &error));
      if (cases[i].item == 1)
        {
          g_autofree guint8 *data = NULL;
          gsize len;
          assert_true (g_file_get_contents (f->path, (char **) &data, &len, NULL));
          size = (guint16) (data[at] | data[at + 1] << 8);
        }
      assert_true (et_fixture_damage_ext_item (f->path, k[1], cases[i].item, size,
                                               cases[i].linkage, &error));
      g_assert_no_error (error);
      check_ext_damage (f, k[1], offsets[1], at, cases[i].inside, records);
    }

  /* A DataSize that does not fit its item: that item alone is ignored. */
  {
    guint64 at;
    guint8 big[2] = { 0xF0, 0x00 };

    write_tl_events (f->path, FALSE);
    event_records (f->path, k, 2, offsets);
    assert_true (et_fixture_ext_item_offset (f->path, k[1], 1, &at, &error));
    assert_true (et_fixture_damage_write (f->path, at + 6, big, 2, &error));
    check_ext_damage (f, k[1], offsets[1], at, FALSE, records);
  }
}

/* ---- 7. text that is not UTF-8 -------------------------------------------- */

/* A trace whose one manifest is written in @chunk_size chunks (0: one). */
static void
write_manifest_trace (const char *path, gsize chunk_size, guint n_events)
{
  static const EtFixtureFieldDef fields[] = { { "Item", ET_FIXTURE_UINT32 } };
  EtFixtureEventDef def = { 1, 0, "Work", 4, 1, 0, 0, "Item %1", fields, 1 };
  EtFixtureWhere where = { 0, 1 * MS, 100, 101 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixtureProvider) p = et_fixture_provider_new ("Hostile-Source");
  g_autoptr(EtFixturePayload) payload = et_fixture_payload_new ();
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.buffer_size = 65536;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  et_fixture_provider_add_event (p, &def);
  et_fixture_write_manifest (w, p, &where, chunk_size, -1);
  for (guint i = 0; i < n_events; i++)
    {
      EtFixtureEvent ev;

      et_fixture_event_init (&ev);
      ev.time_ns = 2 * MS + i * MS, ev.pid = 100, ev.tid = 101;
      et_fixture_payload_reset (payload);
      et_fixture_payload_add_u32 (payload, "Item", i);
      et_fixture_write_manifest_event (w, p, &ev, 1, payload);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

/* The whole output is UTF-8 and parses as JSON. */
static void
assert_valid_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
}

static void
test_bytes_that_are_not_utf8_never_reach_the_output (void **state)
{
  Fixture *f = *state;
  /* Bytes that are not UTF-8 inside the manifest's XML: GMarkup's error
   * quotes them. The same length as what they replace. */
  static const char *breaks[][2] = {
    { "\"Work\"", "\"W\xff\xfe\xc3\"" }, { "<events>", "<ev\xc3\x28ts>" },
    { "Item %1", "It\x80m %1" },
  };
  static const char *commands[][2] = {
    { "info", "--format=json" }, { "info", NULL }, { "events", "--format=jsonl" },
    { "events", "--format=csv" }, { "events", NULL }, { "markers", "--format=jsonl" },
    { "markers", "--format=csv" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (breaks); i++)
    {
      write_manifest_trace (f->path, 0, 3);
      assert_true (et_fixture_damage_replace (f->path, breaks[i][0], breaks[i][1], NULL));
      for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
        {
          /* run_cli fails the test unless stdout and stderr are UTF-8. */
          Run run = commands[c][1] ? run_cli (commands[c][0], commands[c][1], f->path)
                                   : run_cli (commands[c][0], f->path);

          if (run.status != 1)
            fail_msg ("%s %s: exit status %d", commands[c][0], commands[c][1], run.status);
          if (c == 0)
            assert_valid_json (run.out);
          run_clear (&run);
        }
    }
}

/* A file name need not be UTF-8 (Linux names are bytes): the output
 * shows it with U+FFFD, in the header, the damage and the errors. */
static void
test_file_names_that_are_not_utf8_never_reach_the_output (void **state)
{
  Fixture *f = *state;
  g_autofree char *bad = g_build_filename (f->dir, "tr\xff\xfe" "ace.etl", NULL);
  g_autofree char *short_file = g_build_filename (f->dir, "sh\xc3" "ort.etl", NULL);
  static const char *commands[][2] = {
    { "info", "--format=json" }, { "info", NULL }, { "events", "--format=jsonl" },
  };
  guint k[1];
  guint64 offsets[1];

  write_events (bad);
  event_records (bad, k, 1, offsets);
  assert_true (et_fixture_damage_timestamp (bad, k[0], G_MAXINT64, NULL));
  assert_true (g_file_set_contents (short_file, "x", 1, NULL));
  for (guint i = 0; i < 2 * G_N_ELEMENTS (commands); i++)
    {
      const char *path = i % 2 ? short_file : bad;
      const char *const *c = commands[i / 2];
      /* run_cli fails the test unless stdout and stderr are UTF-8. */
      Run run = c[1] ? run_cli (c[0], c[1], path) : run_cli (c[0], path);

      assert_int_equal (run.status, i % 2 ? 2 : 1);
      if (strstr (run.err, "\xef\xbf\xbd") == NULL)
        fail_msg ("%s %s: stderr does not name the file", c[0], c[1]);
      if (i == 0)
        assert_valid_json (run.out);
      run_clear (&run);
    }
}

/* ---- 8. a manifest in very many chunks ----------------------------------- */

/* A manifest of @n_events events: about 250 bytes of XML each. */
static char *
many_event_manifest (guint n_events, gsize *len)
{
  static const EtFixtureFieldDef fields[] = { { "Item", ET_FIXTURE_UINT32 } };
  g_autoptr(EtFixtureProvider) p = et_fixture_provider_new ("Hostile-Many-Events");

  for (guint i = 0; i < n_events; i++)
    {
      g_autofree char *name = g_strdup_printf ("Event%05u", i);
      EtFixtureEventDef def = { (guint16) (i + 1), 0, name, 4, 0, 0, 0, "Item %1", fields, 1 };
      et_fixture_provider_add_event (p, &def);
    }
  return et_fixture_provider_build_manifest (p, len);
}

/* Feeds @xml to a new assembler in chunks of @size bytes (envelope §9),
 * chunk 0 first and the others in the order @order gives; returns the
 * work the assembler did, and checks the XML it gives back. */
static guint64
assemble (const char *xml, gsize len, gsize size, gboolean reversed, guint *n_chunks)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  guint total = (guint) ((len + size - 1) / size);
  g_autofree guint8 *payload = g_malloc (8 + size);
  g_autofree char *out = NULL;
  EtGuid guid = { 0x1234 };
  gsize out_len = 0;

  assert_true (total <= G_MAXUINT16);
  for (guint i = 0; i < total; i++)
    {
      g_autoptr(GError) error = NULL;
      guint number = i == 0 || !reversed ? i : total - i;
      gsize n = MIN (size, len - (gsize) number * size);
      char *done;

      payload[0] = 1, payload[1] = 0, payload[2] = 0, payload[3] = 0x5B;
      payload[4] = (guint8) total, payload[5] = (guint8) (total >> 8);
      payload[6] = (guint8) number, payload[7] = (guint8) (number >> 8);
      memcpy (payload + 8, xml + (gsize) number * size, n);
      done = et_manifest_assembler_add (a, &guid, 1, 2, payload, 8 + n, &out_len, &error);
      /* Chunks out of order are said to be out of order, and kept. */
      assert_true (error == NULL || reversed);
      if (done != NULL)
        {
          assert_int_equal (i, total - 1);
          out = done;
        }
    }
  assert_non_null (out);
  assert_int_equal (out_len, len);
  assert_memory_equal (out, xml, len);
  *n_chunks = total;
  return et_manifest_assembler_get_work (a);
}

/* The duplicate-chunk check was a scan of the chunks so far: 65,000
 * chunks took 2·10^9 comparisons. Now the work per chunk is bounded,
 * whatever the order the chunks come in. */
static void
test_a_manifest_in_65000_chunks_takes_work_linear_in_the_chunks (void **state)
{
  gsize len;
  g_autofree char *xml = many_event_manifest (300, &len);
  static const gsize sizes[] = { 64, 8, 0 };

  (void) state;
  assert_true (len > 65000);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int reversed = 0; reversed < 2; reversed++)
      {
        gsize size = sizes[i] ? sizes[i] : (len + 64999) / 65000;
        guint n_chunks;
        guint64 work = assemble (xml, len, size, reversed, &n_chunks);

        if (work > 2 * (guint64) n_chunks)
          fail_msg ("%u chunks took %" G_GUINT64_FORMAT " steps", n_chunks, work);
      }
}

/* Through the whole load: a manifest in one-byte chunks (as many chunks
 * as it has bytes) is put together, and names its provider's events. */
static void
test_a_trace_with_a_manifest_in_one_byte_chunks_loads_it (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  gsize len;
  g_autofree char *xml = NULL;
  static const EtFixtureFieldDef fields[] = { { "Item", ET_FIXTURE_UINT32 } };
  EtFixtureEventDef def = { 1, 0, "Work", 4, 1, 0, 0, "Item %1", fields, 1 };
  g_autoptr(EtFixtureProvider) p = et_fixture_provider_new ("Hostile-Source");

  et_fixture_provider_add_event (p, &def);
  xml = et_fixture_provider_build_manifest (p, &len);
  /* One byte per chunk: as many chunks as the manifest has bytes. */
  write_manifest_trace (f->path, 1, 3);
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_stats (t)->damage_count, 0);
  assert_int_equal (et_trace_get_stats (t)->manifests, 1);
  for (guint i = 0; i < et_trace_get_n_providers (t); i++)
    if (g_str_equal (et_trace_get_provider (t, i)->name, "Hostile-Source"))
      {
        assert_int_equal (et_trace_get_provider (t, i)->n_events, len + 3);
        return;
      }
  fail_msg ("the manifest did not name its provider");
}

/* ---- kernel records' version words (issue 32, item 8) --------------------- */

static guint
count_lines_with (const char *text, const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strstr (lines[i], needle) != NULL;
  return n;
}

/* A PerfInfo SampledProfile whose version word claims PMC counters (bits
 * 8–10) its size does not hold: reported at the record, which is read
 * without them; the records after it in its buffer are all kept. */
static void
test_extension_bits_of_a_sample_lose_no_other_record (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureLayout) layout = NULL;
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (f->path, NULL, &error);
  g_autofree char *where = NULL;
  const guint8 version[2] = { 2, 0x07 };
  guint64 at = 0;
  guint samples = 0;
  Run run;

  g_assert_no_error (error);
  for (guint i = 0; i < 100; i++)
    et_fixture_write_sample (w, 0, MS + i * MS, 11, 0x7ff000001000 + i);
  assert_true (et_fixture_writer_close (w, &error));
  layout = et_fixture_layout_read (f->path, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < layout->records->len && samples < 4; i++)
    {
      const EtFixtureRecordInfo *r = &g_array_index (layout->records, EtFixtureRecordInfo, i);

      if (r->header_type == 0x11 && ++samples == 4)
        at = r->offset;
    }
  assert_true (at > 0);
  assert_true (et_fixture_damage_write (f->path, at, version, sizeof version, &error));
  run = run_cli ("events", "--format=jsonl", f->path);
  assert_int_equal (run.status, 1);
  where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT ": buffer 0: a kernel record", at);
  if (strstr (run.err, where) == NULL)
    fail_msg ("no \"%s\" in %s", where, run.err);
  assert_int_equal (count_lines_with (run.out, "\"event\":\"PerfInfo/Sample\""), 100);
  run_clear (&run);
}

int
main (void)
{
#define T(name) cmocka_unit_test_setup_teardown (name, setup, teardown)
  const struct CMUnitTest tests[] = {
    T (test_absurd_timestamps_are_damage_and_clamped),
    T (test_a_damaged_header_timestamp_counts_from_the_events),
    T (test_a_stale_header_end_time_makes_no_damage),
    T (test_info_of_absurd_timestamps_exits_1_with_the_damage),
    T (test_damaged_extended_items_are_reported_where_they_are),
    T (test_bytes_that_are_not_utf8_never_reach_the_output),
    T (test_file_names_that_are_not_utf8_never_reach_the_output),
    T (test_a_manifest_in_65000_chunks_takes_work_linear_in_the_chunks),
    T (test_a_trace_with_a_manifest_in_one_byte_chunks_loads_it),
    T (test_real_trace_with_an_absurd_timestamp_renders_and_reports_it),
    T (test_ruler_ticks_are_bounded_by_pixels_at_the_ends_of_time),
    T (test_extension_bits_of_a_sample_lose_no_other_record),
  };
#undef T

  if (g_getenv ("ET_CLI") == NULL)
    {
      print_error ("ET_CLI must name the built etlscope-cli\n");
      return 1;
    }
  return cmocka_run_group_tests (tests, NULL, NULL);
}
