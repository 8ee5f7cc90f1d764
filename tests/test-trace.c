/* Tests for the trace model (et-trace, et-trace-load): what a loaded trace
 * holds, range queries, on-demand decoding, damage, errors, cancellation.
 * Every input is written by the project's fixture writer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "et-fixture.h"
#include "et-fixture-nettrace.h"
#include "et-sort.h"
#include "et-trace.h"
#include "et-trace-private.h"
#include "et-search.h"
#include "et-workers.h"
#include "et-trace-load.h"
#include "et-trace-progress.h"
#include "et-trace-decode.h"
#include "et-trace-markers-private.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MS (G_GINT64_CONSTANT (1000000))

typedef EtFixtureFile Fixture;

static int
setup (void **state)
{
  *state = et_fixture_file_new ("t.etl");
  return 0;
}

static int
teardown (void **state)
{
  et_fixture_file_free (*state);
  return 0;
}

/* A TraceLogging "Work" event with an item number; @opcode 1/2 for spans. */
static void
write_work (EtFixtureWriter *w, guint cpu, gint64 t, guint32 pid, guint32 tid, guint8 opcode,
            guint8 level, guint32 item)
{
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureEvent ev;

  et_fixture_event_init (&ev);
  ev.cpu = cpu, ev.time_ns = t, ev.pid = pid, ev.tid = tid;
  ev.opcode = opcode, ev.level = level;
  et_fixture_payload_add_u32 (p, "item", item);
  et_fixture_write_tl_event (w, &ev, "Test.Work", "Work", p, NULL);
}

/* 2 processes × 2 threads; one long span on 100/101 and 300 flags spread
 * over 3 s; kernel names for both processes and one thread. */
static guint64
write_basic (const char *path, guint32 buffer_size)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  g_autoptr(EtFixtureWriter) w = NULL;
  guint64 n;

  et_fixture_options_init (&o);
  o.buffer_size = buffer_size;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  et_fixture_write_process (w, 0, 1000, 3, 100, 4, "Server.exe", "Server.exe --port 80");
  et_fixture_write_process (w, 0, 1000, 3, 200, 4, "Worker.exe", "Worker.exe");
  et_fixture_write_thread_name (w, 0, 2000, 100, 101, "Request loop");
  write_work (w, 1, 10 * MS, 100, 101, 1, 4, 0);             /* long span start */
  for (guint i = 0; i < 300; i++)
    write_work (w, i % 4, 20 * MS + i * 10 * MS, i % 2 ? 200 : 100,
                i % 2 ? 201 + (i % 4 == 3) : 101 + (i % 4 == 2), 0, 4, i + 1);
  write_work (w, 2, 2900 * MS, 100, 101, 2, 4, 0);           /* long span end */
  n = et_fixture_writer_get_n_records (w);
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
  return n;
}

static EtTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  EtTrace *t = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  assert_non_null (t);
  return t;
}

/* @path loaded in @parts loading parts (ETLSCOPE_THREADS), each step
 * that splits its work (walk, decode, pairing, layout) cut that many
 * ways. */
static EtTrace *
load_in_parts (const char *path, guint parts)
{
  g_autofree char *forced = g_strdup_printf ("%u", parts);
  EtTrace *t;

  g_setenv ("ETLSCOPE_THREADS", forced, TRUE);
  t = load (path);
  g_unsetenv ("ETLSCOPE_THREADS");
  return t;
}

/* The large fixture of @n_events (seed @seed), written to @path and loaded. */
static EtTrace *
load_large (const char *path, guint64 n_events, guint32 seed)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (path, n_events, seed, &o, &error));
  g_assert_no_error (error);
  return load (path);
}

static void
test_counts_threads_and_names (void **state)
{
  Fixture *f = *state;
  guint64 written = write_basic (f->path, 8192);
  g_autoptr(EtTrace) t = load (f->path);
  const EtTraceStats *s = et_trace_get_stats (t);
  guint64 sum = 0;
  gboolean saw_named_thread = FALSE;

  assert_int_equal (s->records, written);
  assert_int_equal (s->damage_count, 0);
  for (guint i = 0; i < et_trace_get_n_threads (t); i++)
    {
      const EtThread *th = et_trace_get_thread (t, i);
      sum += th->n_events;
      if (th->pid == 100 && th->tid == 101)
        {
          assert_string_equal (th->name, "Request loop");
          saw_named_thread = TRUE;
        }
    }
  assert_int_equal (sum, written);          /* every record is on some thread */
  assert_true (saw_named_thread);
  for (guint i = 0; i < et_trace_get_n_processes (t); i++)
    {
      const EtProcess *p = et_trace_get_process (t, i);
      if (p->pid == 100)
        assert_string_equal (p->name, "Server.exe");
      if (p->pid == 200)
        assert_string_equal (p->name, "Worker.exe");
    }
}

static void
test_markers_sorted_per_channel_and_span_paired (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = (write_basic (f->path, 8192), load (f->path));
  guint64 total = 0, spans = 0;

  for (guint c = 0; c < et_trace_get_n_channels (t); c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      for (guint i = 0; i < ch->n_markers; i++)
        {
          if (i > 0)
            assert_true (ch->markers[i - 1].start_ns <= ch->markers[i].start_ns);
          if (ch->markers[i].kind == ET_MARKER_SPAN)
            {
              spans++;
              assert_int_equal (ch->markers[i].start_ns, 10 * MS);
              assert_int_equal (ch->markers[i].end_ns, 2900 * MS);
              assert_int_equal (ch->markers[i].status, ET_SPAN_OK);
            }
        }
      total += ch->n_markers;
    }
  assert_int_equal (spans, 1);
  assert_int_equal (total, 301);             /* 300 flags + 1 span */
  assert_int_equal (et_trace_get_stats (t)->markers, 301);
}

/* What @ch's markers reach and use, added to what was read before: the
 * first start, the latest reach (an unmatched start's own start), the
 * depths its spans use, the deepest depth. */
static void
walk_markers (const EtChannel *ch, gint64 *first, gint64 *last, guint64 *depths, guint *deepest)
{
  for (guint i = 0; i < ch->n_markers; i++)
    {
      const EtMarker *m = &ch->markers[i];

      *first = MIN (*first, m->start_ns);
      *last = MAX (*last, m->status == ET_SPAN_UNMATCHED_START ? m->start_ns : m->end_ns);
      *deepest = MAX (*deepest, m->depth);
      if (m->kind == ET_MARKER_SPAN && m->depth < 64)
        *depths |= G_GUINT64_CONSTANT (1) << m->depth;
    }
}

/* A channel's summary is what its markers reach: the first start, the
 * latest end (an unmatched start's own start), the deepest depth, and the
 * depths its spans use; on the large fixture (spans of every kind and
 * status). */
static void
test_channel_summaries_agree_with_their_markers (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = load_large (f->path, 40000, 7);
  guint checked = 0;

  for (guint c = 0; c < et_trace_get_n_channels (t); c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      EtChannelSummary reach = et_trace_channel_summary (t, c);
      gint64 first = G_MAXINT64, last = G_MININT64;
      guint64 depths = 0;
      guint deepest = 0;

      walk_markers (ch, &first, &last, &depths, &deepest);
      checked += ch->n_markers;
      assert_int_equal (et_trace_channel_depth_mask (t, c), depths);
      assert_int_equal (reach.first_ns, first);
      assert_int_equal (reach.last_ns, last);
      assert_int_equal (reach.deepest, MIN (deepest, 255));
    }
  assert_true (checked > 20000);
}

/* The query must agree with a scan over every marker, for many ranges,
 * including ranges inside the long span where no flag starts. */
static void
test_range_query_matches_scan (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = (write_basic (f->path, 8192), load (f->path));
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 400; round++)
    {
      gint64 from = g_rand_int_range (rand, 0, 3100) * MS + g_rand_int_range (rand, 0, 1000);
      gint64 to = from + g_rand_int_range (rand, 0, round % 2 ? 5 : 500) * MS;

      for (guint c = 0; c < et_trace_get_n_channels (t); c++)
        {
          const EtChannel *ch = et_trace_get_channel (t, c);
          guint end, first = et_channel_query (t, c, from, to, &end), found = 0, expected = 0;

          for (guint i = first; i < end; i++)
            found += et_marker_overlaps (&ch->markers[i], from, to);
          for (guint i = 0; i < ch->n_markers; i++)
            {
              gboolean in = et_marker_overlaps (&ch->markers[i], from, to);
              expected += in;
              if (in)
                assert_true (i >= first && i < end);
            }
          assert_int_equal (found, expected);
        }
    }
  g_rand_free (rand);
}

static void
test_decode_event_of_marker (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = (write_basic (f->path, 8192), load (f->path));
  const EtChannel *ch = et_trace_get_channel (t, 0);
  EtFields *fields = et_fields_new ();
  g_autoptr(GError) error = NULL;
  EtEvent ev;
  gint item;

  assert_true (et_trace_decode_event (t, ch->markers[0].event, &ev, fields, &error));
  g_assert_no_error (error);
  assert_string_equal (ev.name, "Work");
  assert_string_equal (et_trace_get_provider (t, ev.provider)->name, "Test.Work");
  assert_int_equal (ev.time_ns, ch->markers[0].start_ns);
  item = et_fields_find (fields, "item");
  assert_true (item >= 0);
  assert_int_equal (et_fields_get (fields, item)->kind, ET_VALUE_UINT);
  et_fields_free (fields);
}

static void
test_wall_clock_is_start_time_plus_t (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = (write_basic (f->path, 8192), load (f->path));
  gint64 start = et_trace_get_header (t)->start_time;

  assert_int_equal (et_trace_ns_to_filetime (t, 0), start);
  assert_int_equal (et_trace_ns_to_filetime (t, 10 * MS), start + 100000);
  /* the last record is the 300th flag, at 20 ms + 299 × 10 ms */
  assert_int_equal (et_trace_get_duration_ns (t), 3010 * MS);
}

static void
test_truncated_file_keeps_what_can_be_read (void **state)
{
  Fixture *f = *state;
  guint64 written = write_basic (f->path, 4096);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureLayout) layout = et_fixture_layout_read (f->path, &error);
  guint n = layout->buffers->len;
  guint64 cut = et_fixture_layout_buffer_offset (layout, n - 1) + 700;
  g_autoptr(EtTrace) t = NULL;
  guint n_damage;
  const EtDamage *d;
  g_autofree char *offset_text = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT,
                                                  et_fixture_layout_buffer_offset (layout, n - 1));

  assert_true (n > 3);
  assert_true (et_fixture_damage_truncate (f->path, cut, &error));
  t = load (f->path);
  d = et_trace_get_damage (t, &n_damage);
  assert_true (et_trace_get_stats (t)->damage_count >= 1);
  assert_true (n_damage >= 1);
  assert_non_null (strstr (d[0].message, f->path));
  assert_non_null (strstr (d[0].message, offset_text));
  /* Every earlier buffer is intact, and records that fit in the cut one too. */
  assert_true (et_trace_get_stats (t)->records < written);
  assert_true (et_trace_get_stats (t)->records > written / 2);
}

static void
test_bad_record_size_skips_rest_of_its_buffer_only (void **state)
{
  Fixture *f = *state;
  guint64 written = write_basic (f->path, 4096);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureLayout) layout = et_fixture_layout_read (f->path, &error);
  guint k = layout->records->len / 2;
  const EtFixtureRecordInfo *r = &g_array_index (layout->records, EtFixtureRecordInfo, k);
  g_autoptr(EtTrace) t = NULL;
  guint lost_at_most = 0, n_damage;
  const EtDamage *d;

  for (guint i = k; i < layout->records->len; i++)
    lost_at_most += g_array_index (layout->records, EtFixtureRecordInfo, i).buffer == r->buffer;
  assert_true (et_fixture_damage_record_size (f->path, k, 0xFFF0, &error));
  t = load (f->path);
  d = et_trace_get_damage (t, &n_damage);
  assert_int_equal (et_trace_get_stats (t)->damage_count, 1);
  assert_int_equal (d[0].offset, r->offset);
  assert_int_equal (et_trace_get_stats (t)->records, written - lost_at_most);
  assert_int_equal (et_trace_get_stats (t)->records_skipped, 1);
}

static void
test_corrupt_compressed_buffer_is_reported (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  g_autoptr(EtTrace) t = NULL;
  guint n_damage;
  const EtDamage *d;

  et_fixture_options_init (&o);
  o.compress = TRUE;
  assert_true (et_fixture_write_demo (f->path, &o, &error));
  assert_true (et_fixture_damage_compressed (f->path, 3, &error));
  t = load (f->path);
  d = et_trace_get_damage (t, &n_damage);
  assert_true (n_damage >= 1);
  assert_non_null (strstr (d[0].message, "compressed buffer 3"));
  assert_true (et_trace_get_stats (t)->markers > 1000);   /* the rest still reads */
}

static void
test_unreadable_files_are_errors_naming_the_file (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (f->dir, "missing.etl", NULL);
  EtTrace *t;

  t = et_trace_load (missing, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  assert_null (t);
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_IO));
  assert_non_null (strstr (error->message, missing));
  g_clear_error (&error);

  g_file_set_contents (f->path, "", 0, NULL);
  assert_null (et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL));
  assert_non_null (strstr (error->message, "byte offset 0"));
  g_clear_error (&error);

  {
    char junk[8192];
    memset (junk, 'x', sizeof junk);
    g_file_set_contents (f->path, junk, sizeof junk, NULL);
  }
  assert_null (et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL));
  assert_non_null (strstr (error->message, f->path));
}

/* What a load told of each phase: its calls, first and last numbers. */
typedef struct
{
  guint        calls[ET_TRACE_N_PHASES];
  guint64      first[ET_TRACE_N_PHASES];
  guint64      last[ET_TRACE_N_PHASES];
  guint64      total[ET_TRACE_N_PHASES];
  EtTracePhase phase;
  gboolean     any;
  GThread     *inside;      /* a call under way: none may overlap */
} PhasesSeen;

static void
count_progress (EtTracePhase phase, guint64 done, guint64 total, gpointer data)
{
  PhasesSeen *s = data;

  assert_null (g_atomic_pointer_get (&s->inside));
  g_atomic_pointer_set (&s->inside, g_thread_self ());
  assert_true (phase < ET_TRACE_N_PHASES);
  assert_true (done <= total);
  /* In order, never back to an earlier phase, each phase once. */
  assert_true (!s->any || phase >= s->phase);
  if (!s->any || phase != s->phase)
    {
      assert_int_equal (s->calls[phase], 0);
      s->first[phase] = done;
      s->total[phase] = total;
    }
  else
    {
      assert_true (done > s->last[phase]);      /* forward only, no repeats */
      assert_int_equal (total, s->total[phase]);
    }
  s->any = TRUE;
  s->phase = phase;
  s->calls[phase]++;
  s->last[phase] = done;
  g_atomic_pointer_set (&s->inside, NULL);
}

/* Each phase told from 0 to its total, in order, a bounded number of
 * times: the bytes of the file, its events, the span starts and ends, two
 * passes over the markers. */
static void
assert_phases_told (const PhasesSeen *s, EtTrace *t, const char *path)
{
  GStatBuf st;
  guint64 spans = 0;

  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (s->phase, ET_TRACE_PHASE_CHANNELS);
  for (guint p = 0; p < ET_TRACE_N_PHASES; p++)
    {
      assert_true (s->calls[p] >= 1);
      assert_true (s->calls[p] <= ET_TRACE_PROGRESS_STEPS + 2);
      assert_int_equal (s->first[p], 0);
      assert_int_equal (s->last[p], s->total[p]);
    }
  assert_int_equal (s->total[ET_TRACE_PHASE_READING], (guint64) st.st_size);
  assert_int_equal (s->total[ET_TRACE_PHASE_DECODING], et_trace_get_n_events (t));
  for (guint c = 0; c < et_trace_get_n_channels (t); c++)
    {
      const EtChannel *channel = et_trace_get_channel (t, c);

      for (guint i = 0; i < channel->n_markers; i++)
        spans += channel->markers[i].kind == ET_MARKER_SPAN;
    }
  /* A span is made of a start and, mostly, an end. */
  assert_true (s->total[ET_TRACE_PHASE_PAIRING] >= spans);
  assert_true (s->total[ET_TRACE_PHASE_CHANNELS] >= 2 * et_trace_get_stats (t)->markers);
}

static void
test_progress_tells_each_phase_in_order (void **state)
{
  Fixture *f = *state;
  PhasesSeen seen = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;

  write_basic (f->path, 4096);
  t = et_trace_load (f->path, ET_LOAD_DEFAULT, count_progress, &seen, NULL, &error);
  g_assert_no_error (error);
  assert_phases_told (&seen, t, f->path);
  g_clear_object (&t);

  /* Large enough to decode, pair and lay out on several threads at once
   * (where there are cores), and to need the bound on calls. */
  memset (&seen, 0, sizeof seen);
  t = load_large (f->path, 450000, 3);
  g_clear_object (&t);
  t = et_trace_load (f->path, ET_LOAD_DEFAULT, count_progress, &seen, NULL, &error);
  g_assert_no_error (error);
  assert_phases_told (&seen, t, f->path);
  assert_true (seen.calls[ET_TRACE_PHASE_DECODING] > 2);   /* told on the way */
}

static void
test_cancelled_load_returns_cancelled (void **state)
{
  Fixture *f = *state;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  write_basic (f->path, 4096);
  g_cancellable_cancel (cancellable);
  assert_null (et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, cancellable, &error));
  assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
}

static void
test_all_providers_flag_adds_kernel_markers (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) def = (write_basic (f->path, 8192), load (f->path));
  g_autoptr(EtTrace) all = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  /* Process, thread-name, header and 0x50 records become markers too. */
  assert_true (et_trace_get_stats (all)->markers > et_trace_get_stats (def)->markers);
  for (guint i = 0; i < et_trace_get_n_providers (def); i++)
    {
      const EtProvider *p = et_trace_get_provider (def, i);
      assert_int_equal (p->default_on, p->kind == ET_PROVIDER_TRACELOGGING);
    }
}

/* What the walk finds (providers in order of first appearance, with their
 * kinds, names and counts; threads; record times) must not depend on how
 * many threads walked the buffers. */
static void
assert_same_walk (EtTrace *serial, EtTrace *parallel)
{
  const EtTraceStats *a = et_trace_get_stats (serial), *b = et_trace_get_stats (parallel);

  assert_int_equal (a->records, b->records);
  assert_int_equal (a->first_raw, b->first_raw);
  assert_int_equal (a->last_raw, b->last_raw);
  assert_int_equal (a->t0_raw, b->t0_raw);
  assert_int_equal (a->damage_count, b->damage_count);
  assert_int_equal (et_trace_get_n_providers (serial), et_trace_get_n_providers (parallel));
  for (guint i = 0; i < et_trace_get_n_providers (serial); i++)
    {
      const EtProvider *x = et_trace_get_provider (serial, i);
      const EtProvider *y = et_trace_get_provider (parallel, i);

      assert_true (et_guid_equal (&x->guid, &y->guid));
      assert_string_equal (x->name, y->name);
      assert_int_equal (x->kind, y->kind);
      assert_int_equal (x->n_events, y->n_events);
    }
  assert_int_equal (et_trace_get_n_threads (serial), et_trace_get_n_threads (parallel));
  for (guint i = 0; i < et_trace_get_n_threads (serial); i++)
    {
      const EtThread *x = et_trace_get_thread (serial, i);
      const EtThread *y = et_trace_get_thread (parallel, i);

      assert_int_equal (x->tid, y->tid);
      assert_string_equal (x->name, y->name);
      assert_int_equal (x->n_events, y->n_events);
    }
}

/* The same markers, channel by channel: every field, series names and
 * where each span ends. */
static void
assert_same_markers (EtTrace *x, EtTrace *y)
{
  assert_int_equal (et_trace_get_stats (x)->markers, et_trace_get_stats (y)->markers);
  assert_int_equal (et_trace_get_n_channels (x), et_trace_get_n_channels (y));
  for (guint c = 0; c < et_trace_get_n_channels (x); c++)
    {
      const EtChannel *a = et_trace_get_channel (x, c);
      const EtChannel *b = et_trace_get_channel (y, c);

      assert_int_equal (a->n_markers, b->n_markers);
      assert_string_equal (et_trace_get_string (x, a->series), et_trace_get_string (y, b->series));
      for (guint i = 0; i < a->n_markers; i++)
        {
          assert_memory_equal (&a->markers[i], &b->markers[i], sizeof (EtMarker));
          assert_int_equal (et_trace_marker_end_thread (x, &a->markers[i]),
                            et_trace_marker_end_thread (y, &b->markers[i]));
        }
    }
}

/* Channels are laid out thread by thread: each thread's contiguous, in
 * thread order, ordered within it by provider and then series name. */
static void
assert_channels_in_layout_order (EtTrace *t)
{
  guint next = 0;

  for (guint th = 0; th < et_trace_get_n_threads (t); th++)
    {
      const EtThread *thread = et_trace_get_thread (t, th);

      if (thread->n_channels == 0)
        continue;
      assert_int_equal (thread->first_channel, next);
      for (guint k = 0; k < thread->n_channels; k++)
        {
          guint c = thread->first_channel + k;
          const EtChannel *ch = et_trace_get_channel (t, c);

          assert_int_equal (et_trace_channel_thread (t, c), th);
          if (k > 0)
            {
              const EtChannel *before = et_trace_get_channel (t, c - 1);

              assert_true (et_channel_provider (before) < et_channel_provider (ch)
                           || (et_channel_provider (before) == et_channel_provider (ch)
                               && strcmp (et_trace_get_string (t, before->series),
                                          et_trace_get_string (t, ch->series)) < 0));
            }
        }
      next += thread->n_channels;
    }
  assert_int_equal (next, et_trace_get_n_channels (t));
}

/* A server's thread churn (threads of dozens of series, looked up through
 * each thread's own index past a few) and short-lived threads of 20–30
 * series: one, two and five loading parts lay the channels out alike, in
 * layout order. */
static void
test_channels_per_thread_match_any_parts (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  for (guint shape = 0; shape < 2; shape++)
    {
      g_autoptr(EtTrace) one = NULL, two = NULL, five = NULL;

      if (shape == 0)
        assert_true (et_fixture_write_churn (f->path, 60000, 7, &o, &error));
      else
        assert_true (et_fixture_write_threads (f->path, 60000, 400, 7, &o, &error));
      one = load_in_parts (f->path, 1);
      two = load_in_parts (f->path, 2);
      five = load_in_parts (f->path, 5);
      assert_true (et_trace_get_n_channels (one) > 2000);
      assert_channels_in_layout_order (one);
      assert_same_markers (one, two);
      assert_same_markers (one, five);
    }
}

/* A server's one process holds nearly every span: its records from the
 * second decoding part join the first's on every core (in slices of
 * 16,384, so that each core's share is whole slices), their markers
 * renumbered as they are copied. One loading part (no join) and two or
 * three (a join cut in two or three) make the same markers and spans. */
static void
test_a_lone_process_joins_its_spans_in_parts (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) one = NULL;
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_churn (f->path, 200000, 3, &o, &error));
  one = load_in_parts (f->path, 1);
  for (guint parts = 2; parts <= 3; parts++)
    {
      g_autoptr(EtTrace) many = load_in_parts (f->path, parts);

      assert_same_markers (one, many);
    }
  /* (a span per three events or more: every part has slices to copy) */
  assert_true (et_trace_get_stats (one)->markers > 100000);
}

/* A writer of @f's file with the fixture's default options. */
static EtFixtureWriter *
default_writer (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  EtFixtureWriter *w;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (f->path, &o, &error);
  g_assert_no_error (error);
  return w;
}

/* Event @i of a trace of level-4 TraceLogging events of @provider, a
 * microsecond apart on four CPUs, each naming its cvSeries. */
static void
write_series_event (EtFixtureWriter *w, guint64 i, guint32 tid, const char *series,
                    const char *provider)
{
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureEvent ev;

  et_fixture_event_init (&ev);
  ev.cpu = i % 4, ev.time_ns = MS + (gint64) i * 1000, ev.pid = 100;
  ev.tid = tid, ev.level = 4;
  et_fixture_payload_add_utf16 (p, "cvSeries", series);
  et_fixture_write_tl_event (w, &ev, provider, "Tick", p, NULL);
}

/* Threads taking turns, more than a loading part keeps the channel index
 * of at once, each with more series than its chain holds: indexes are
 * dropped and made again as the threads come back (and, past an insert
 * per marker, kept). Every (thread, series) is one channel of all its
 * markers, whatever the parts. */
static void
test_threads_taking_turns_keep_their_channels (void **state)
{
  Fixture *f = *state;
  const guint n_threads = 300, n_series = 12, rounds = 24;
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(EtFixtureWriter) w = default_writer (f);
    guint64 i = 0;

    for (guint r = 0; r < rounds; r++)
      for (guint s = 0; s < n_series; s++)
        for (guint t = 0; t < n_threads; t++, i++)
          {
            g_autofree char *series = g_strdup_printf ("Series %02u", (s * 7 + t) % n_series);

            write_series_event (w, i, 1000 + t, series, "Test.Turns");
          }
    assert_true (et_fixture_writer_close (w, &error));
  }
  for (guint parts = 1; parts <= 3; parts += 2)
    {
      g_autoptr(EtTrace) t = load_in_parts (f->path, parts);

      assert_int_equal (et_trace_get_n_channels (t), n_threads * n_series);
      assert_channels_in_layout_order (t);
      for (guint c = 0; c < et_trace_get_n_channels (t); c++)
        {
          const EtChannel *ch = et_trace_get_channel (t, c);
          const EtThread *thread = et_trace_get_thread (t, et_trace_channel_thread (t, c));
          EtFields *fields = et_fields_new ();
          g_autoptr(GString) value = g_string_new (NULL);

          assert_int_equal (ch->n_markers, rounds);
          for (guint k = 0; k < ch->n_markers; k += rounds - 1)
            {
              EtEvent e;

              assert_true (et_trace_decode_event (t, ch->markers[k].event, &e, fields, NULL));
              assert_int_equal (e.tid, thread->tid);
              g_string_truncate (value, 0);
              et_fields_format_value (fields, (guint) et_fields_find (fields, "cvSeries"), value);
              assert_string_equal (value->str, et_trace_get_string (t, ch->series));
            }
          et_fields_free (fields);
        }
    }
}

/* A thread of a thousand series, taken in turns, with a few of a few
 * series around it: its index of channels grows four times over (from
 * 256 slots) in each loading part, and each series is still one channel
 * of all its markers, in layout order, whatever the parts. */
static void
test_a_thread_of_many_series_keeps_its_channels (void **state)
{
  Fixture *f = *state;
  const guint n_series = 1000, rounds = 3;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) on_many = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint events_on_many = 0;

  {
    g_autoptr(EtFixtureWriter) w = default_writer (f);
    guint64 i = 0;

    for (guint r = 0; r < rounds; r++)
      for (guint s = 0; s < n_series; s++, i++)
        {
          g_autofree char *series = g_strdup_printf ("Many %04u", (s * 37 + r) % n_series);

          if (i % 5 == 0)
            write_series_event (w, i, 2000 + (guint32) (i % 3), "Few", "Test.Many");
          else
            {
              write_series_event (w, i, 1000, series, "Test.Many");
              g_hash_table_add (on_many, g_strdup (series));
              events_on_many++;
            }
        }
    assert_true (et_fixture_writer_close (w, &error));
  }
  for (guint parts = 1; parts <= 2; parts++)
    {
      g_autoptr(EtTrace) t = load_in_parts (f->path, parts);
      guint of_many = 0, markers_of_many = 0;

      assert_channels_in_layout_order (t);
      for (guint c = 0; c < et_trace_get_n_channels (t); c++)
        {
          const EtChannel *ch = et_trace_get_channel (t, c);
          const EtThread *thread = et_trace_get_thread (t, et_trace_channel_thread (t, c));

          if (thread->tid != 1000)
            {
              assert_string_equal (et_trace_get_string (t, ch->series), "Few");
              continue;
            }
          assert_true (g_str_has_prefix (et_trace_get_string (t, ch->series), "Many "));
          of_many++;
          markers_of_many += ch->n_markers;
        }
      /* one channel per series the thread wrote, every marker in one */
      assert_int_equal (of_many, g_hash_table_size (on_many));
      assert_int_equal (markers_of_many, events_on_many);
      assert_true (of_many > 512);     /* past 256 slots at half full, twice */
    }
}

/* Markers' events are told by a bit per event (EtMarkerEvents): marker
 * i's event is the i-th bit set. Against the list of them, for densities
 * from nearly empty to full (long runs of empty words, whole full words,
 * a step's boundary inside a word): every marker's event found at once,
 * and read in order from any marker. */
static void
test_marker_events_find_every_marker (void **state)
{
  GRand *rand = g_rand_new_with_seed (77);
  const guint densities[] = { 0, 1, 3, 50, 97, 100 };   /* percent of events */

  for (guint d = 0; d < G_N_ELEMENTS (densities); d++)
    for (guint round = 0; round < 4; round++)
      {
        guint64 n_events = (guint64) g_rand_int_range (rand, 1, 70000);
        g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint32));
        EtMarkerEvents events;

        _et_marker_events_init (&events, n_events);
        for (guint64 e = 0; e < n_events; e++)
          {
            /* Runs of a few hundred events at the density, then at none. */
            gboolean on = (e / 300) % 3 != 2
                          && (guint) g_rand_int_range (rand, 0, 100) < densities[d];

            if (on)
              {
                guint32 event = (guint32) e;

                events.bits[e >> 6] |= G_GUINT64_CONSTANT (1) << (e & 63);
                g_array_append_val (expected, event);
              }
          }
        _et_marker_events_index (&events, expected->len);
        for (guint i = 0; i < expected->len; i++)
          assert_int_equal (_et_marker_event (&events, i), g_array_index (expected, guint32, i));
        for (guint k = 0; k < 20 && expected->len > 0; k++)
          {
            guint from = (guint) g_rand_int_range (rand, 0, (gint32) expected->len);
            EtMarkerEventIter iter;

            _et_marker_event_iter_init (&iter, &events, from);
            for (guint i = from; i < expected->len && i < from + 2000; i++)
              assert_int_equal (_et_marker_event_next (&iter),
                                g_array_index (expected, guint32, i));
          }
        _et_marker_events_clear (&events);
      }
  g_rand_free (rand);
}

/* Events of many threads on one processor, in a .nettrace, come in file
 * order far from time order (each thread's clock lags the one written
 * before it; threads two by two at the same times): the run of that
 * processor is out of order, and long enough to be sorted in pieces
 * (et-trace-merge.c). Loaded on one, two, three and eight cores, the
 * index is the written events sorted by time, ties in the order written,
 * every one of them. */
static void
test_interleaved_threads_are_indexed_in_time_order (void **state)
{
  Fixture *f = *state;
  const guint n_threads = 12, rounds = 8000;
  const char *cores[] = { "1", "2", "3", "8" };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (36);
  g_autoptr(GArray) written = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  EtFixtureNettraceOptions o;

  et_fixture_nettrace_options_init (&o);
  nt = et_fixture_nettrace_new (f->path, &o, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < rounds; r++)
    for (guint t = 0; t < n_threads; t += 2)
      {
        /* (multiples of the 100 ns tick: no two times round alike) */
        gint64 at = 1000000 + (gint64) r * 2000 - (gint64) t * 350
                    + 100 * (gint64) g_rand_int_range (rand, 0, 60);

        for (guint pair = 0; pair < 2; pair++)
          {
            EtFixtureEvent ev;
            EtEventRef ref = { at, written->len };
            guint32 tid = 500 + t + pair;

            et_fixture_event_init (&ev);
            ev.pid = 4242, ev.tid = tid, ev.cpu = 0, ev.time_ns = at, ev.id = 1;
            et_fixture_payload_reset (p);
            et_fixture_payload_add_u32 (p, "item", written->len);
            et_fixture_nettrace_write_event (nt, &ev, "Etlscope-Order", "Work", p);
            g_array_append_val (written, ref);
            g_array_append_val (tids, tid);
          }
      }
  assert_true (et_fixture_nettrace_close (nt, &error));
  /* what the index must be: by time, then as written */
  g_array_sort (written, _et_compare_event_refs);
  assert_true (written->len > 2 * 32768);

  for (guint c = 0; c < G_N_ELEMENTS (cores); c++)
    {
      g_autoptr(EtTrace) t = NULL;
      EtFields *fields = et_fields_new ();
      guint64 first = 0, events = 0;

      g_setenv ("ETLSCOPE_THREADS", cores[c], TRUE);
      t = load (f->path);
      g_unsetenv ("ETLSCOPE_THREADS");
      for (guint64 i = 0; i < et_trace_get_n_events (t); i++)
        {
          EtEvent ev;
          gint64 item = -1;
          const EtEventRef *want = &g_array_index (written, EtEventRef, events);

          assert_true (et_trace_decode_event (t, i, &ev, fields, &error));
          if (ev.tid < 500)
            continue;                       /* (the trace's own events) */
          assert_true (et_fields_get_integer (fields, (guint) MAX (et_fields_find (fields, "item"), 0),
                                              &item));
          if (events == 0)
            first = ev.time_ns;
          assert_int_equal (item, want->loc);
          assert_int_equal (ev.tid, g_array_index (tids, guint32, want->loc));
          assert_int_equal (ev.time_ns - first, want->ts - g_array_index (written, EtEventRef, 0).ts);
          events++;
        }
      et_fields_free (fields);
      assert_int_equal (events, written->len);
    }
}

/* Walking and decoding on several threads must give exactly what one
 * thread gives. */
static void
test_parallel_decoding_matches_serial (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  g_autoptr(EtTrace) serial = NULL, parallel = NULL;

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (f->path, 60000, 3, &o, &error));
  g_setenv ("ETLSCOPE_THREADS", "1", TRUE);
  serial = load (f->path);
  g_setenv ("ETLSCOPE_THREADS", "3", TRUE);
  parallel = load (f->path);
  assert_same_walk (serial, parallel);
  /* Its processes pair two or three at once on three threads (a quarter
   * of the spans each at most): the same spans, ends, lanes and states. */
  assert_true (et_trace_get_n_processes (serial) >= 4);
  assert_same_markers (serial, parallel);
  {
    /* The ranges walked last first: every provider and name is found in
     * another order, and the merge must still give the one-thread answer. */
    g_autoptr(EtTrace) reversed = NULL;

    g_setenv ("ETLSCOPE_WALK_REVERSED", "1", TRUE);
    reversed = load (f->path);
    g_unsetenv ("ETLSCOPE_WALK_REVERSED");
    assert_same_walk (serial, reversed);
  }
  g_unsetenv ("ETLSCOPE_THREADS");

  assert_true (et_trace_get_n_providers (serial) >= 4);   /* kernel, manifest, TraceLogging */
  {
    /* Each channel's lanes (one per depth its spans use, at least one:
     * none left empty) and the categories present: what the window needs
     * without visiting every marker. */
    guint nested = 0, n_categories = 0;
    gboolean present[257] = { FALSE };

    for (guint c = 0; c < et_trace_get_n_channels (serial); c++)
      {
        const EtChannel *ch = et_trace_get_channel (serial, c);
        gboolean used[256] = { FALSE };
        guint depths = 0;

        for (guint i = 0; i < ch->n_markers; i++)
          {
            if (ch->markers[i].kind == ET_MARKER_SPAN)
              used[ch->markers[i].depth] = TRUE;
            present[ch->markers[i].category + 1] = TRUE;
          }
        for (guint d = 0; d < 256; d++)
          depths += used[d];
        assert_int_equal (et_trace_channel_lanes (serial, c), MAX (depths, 1));
        nested += depths > 1;
      }
    assert_true (nested > 0);
    for (gint k = -1; k <= 255; k++)
      {
        assert_int_equal (et_trace_has_category (serial, k), present[k + 1]);
        n_categories += present[k + 1];
      }
    assert_true (n_categories >= 2);
    assert_false (et_trace_has_category (serial, 256));
  }
  assert_true (et_trace_get_stats (serial)->markers > 30000);
  assert_same_markers (serial, parallel);
  {
    /* The time-ordered index, merged in parts on three threads, is the
     * one-thread index: the same record at every position. */
    EtFields *fields = et_fields_new ();
    EtEvent x, y;

    assert_int_equal (et_trace_get_n_events (serial), et_trace_get_n_events (parallel));
    for (guint64 i = 0; i < et_trace_get_n_events (serial); i++)
      {
        et_trace_decode_event (serial, i, &x, fields, NULL);
        et_trace_decode_event (parallel, i, &y, fields, NULL);
        assert_int_equal (x.file_offset, y.file_offset);
        assert_int_equal (x.raw_time, y.raw_time);
      }
    et_fields_free (fields);
  }
}

/* The merge into the time-ordered index is cut where each part gets as
 * many events: on a trace whose busiest CPU has nearly all the first
 * half's events and few of the second's, with runs of equal times across
 * CPUs, two and three parts give the one-part index, in time order (ties
 * in file order). */
static void
test_uneven_cpus_merge_into_the_same_index (void **state)
{
  Fixture *f = *state;
  const guint n = 40000;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) one = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);

  {
    g_autoptr(EtFixtureWriter) w = default_writer (f);
    gint64 t = MS;

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
        EtFixtureEvent ev;

        et_fixture_event_init (&ev);
        if (g_rand_int_range (rand, 0, 4) == 0)
          t += 1000;                                   /* runs of equal times */
        ev.time_ns = t, ev.pid = 100, ev.tid = 1000 + i % 7, ev.level = 4;
        ev.cpu = i < n / 2 ? (g_rand_int_range (rand, 0, 20) == 0 ? 1 + i % 3 : 0)
                           : (g_rand_int_range (rand, 0, 20) == 0 ? 0 : 1 + i % 3);
        et_fixture_payload_add_i32 (p, "i", (gint32) i);
        et_fixture_write_tl_event (w, &ev, "Test.Uneven", "Tick", p, NULL);
      }
    assert_true (et_fixture_writer_close (w, &error));
  }
  one = load_in_parts (f->path, 1);
  for (guint parts = 2; parts <= 3; parts++)
    {
      g_autoptr(EtTrace) many = load_in_parts (f->path, parts);
      EtFields *fields = et_fields_new ();
      EtEvent x, y, before = { 0 };

      assert_int_equal (et_trace_get_n_events (many), et_trace_get_n_events (one));
      for (guint64 i = 0; i < et_trace_get_n_events (one); i++)
        {
          et_trace_decode_event (one, i, &x, fields, NULL);
          et_trace_decode_event (many, i, &y, fields, NULL);
          assert_int_equal (x.file_offset, y.file_offset);
          assert_true (i == 0 || before.raw_time <= y.raw_time);
          before = y;
        }
      et_fields_free (fields);
    }
  assert_true (et_trace_get_n_events (one) >= n);
}

/* A CPU whose records go back in time now and then (a clock stepped
 * back, a buffer flushed late): the walk notes that its run is out of
 * order and the merge sorts it, so the index is in time order whatever
 * the parts, every event in it once; ties keep file order. */
static void
test_a_cpu_going_back_in_time_is_sorted (void **state)
{
  Fixture *f = *state;
  const guint n = 30000;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1207);
  g_autoptr(GHashTable) offsets = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  gint64 last_on_0 = 0;
  guint back_on_0 = 0;

  {
    g_autoptr(EtFixtureWriter) w = default_writer (f);

    for (guint i = 0; i < n; i++)
      {
        g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
        EtFixtureEvent ev;

        et_fixture_event_init (&ev);
        /* CPU 0 goes forward, but one record in fifty is from far back */
        ev.time_ns = MS + (g_rand_int_range (rand, 0, 50) == 0
                           ? (gint64) g_rand_int_range (rand, 0, (gint32) i + 1) : (gint64) i) * 1000;
        ev.cpu = i % 3 == 0 ? 1 : 0;
        if (ev.cpu == 0)
          {
            back_on_0 += ev.time_ns < last_on_0;
            last_on_0 = ev.time_ns;
          }
        ev.pid = 100, ev.tid = 1000 + i % 5, ev.level = 4;
        et_fixture_payload_add_i32 (p, "i", (gint32) i);
        et_fixture_write_tl_event (w, &ev, "Test.Back", "Tick", p, NULL);
      }
    assert_true (et_fixture_writer_close (w, &error));
  }
  assert_true (back_on_0 > 100);   /* CPU 0's run needs sorting */
  for (guint parts = 1; parts <= 2; parts++)
    {
      g_autoptr(EtTrace) t = load_in_parts (f->path, parts);
      EtFields *fields = et_fields_new ();
      EtEvent e, before = { 0 };

      assert_true (et_trace_get_n_events (t) >= n);
      g_hash_table_remove_all (offsets);
      for (guint64 i = 0; i < et_trace_get_n_events (t); i++)
        {
          et_trace_decode_event (t, i, &e, fields, NULL);
          if (i > 0)
            {
              assert_true (before.raw_time <= e.raw_time);
              if (before.raw_time == e.raw_time)
                assert_true (before.file_offset < e.file_offset);
            }
          /* every event once */
          assert_true (g_hash_table_add (offsets, g_memdup2 (&e.file_offset, sizeof (gint64))));
          before = e;
        }
      et_fields_free (fields);
    }
}

/* A TraceLogging trace of 4000 random events of one schema each: fields
 * named from @names, made by @add, now and then a payload cut short (a
 * decode failure). */
typedef void (*AddField) (EtFixturePayload *p, GRand *rand, const char *name);

typedef struct
{
  const char        *provider;
  const char *const *names;
  guint              n_names;
  guint              min_fields;   /* fields per event: min_fields … max_fields - 1 */
  guint              max_fields;
  guint              cut_one_in;
  AddField           add;
} TlMix;

static void
write_tl_mix (const char *path, guint32 seed, const TlMix *mix)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(GBytes) traits = et_fixture_tl_provider_traits (mix->provider, NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  for (guint e = 0; e < 4000; e++)
    {
      g_autoptr(GBytes) meta = NULL;
      guint n_fields = g_rand_int_range (rand, mix->min_fields, mix->max_fields);
      const guint8 *data;
      gsize len;
      EtFixtureEvent ev;

      et_fixture_payload_reset (p);
      for (guint k = 0; k < n_fields; k++)
        mix->add (p, rand, mix->names[g_rand_int_range (rand, 0, mix->n_names)]);
      meta = et_fixture_payload_tl_metadata (p, "Mix", 0);
      data = et_fixture_payload_data (p, &len);
      if (len > 0 && g_rand_int_range (rand, 0, mix->cut_one_in) == 0)
        len = g_rand_int_range (rand, 0, len);                 /* cut short */
      et_fixture_event_init (&ev);
      ev.cpu = e % 4, ev.time_ns = 1000 + e * 1000;
      ev.pid = 100, ev.tid = 101 + g_rand_int_range (rand, 0, 3);
      ev.opcode = g_rand_int_range (rand, 0, 3), ev.level = g_rand_int_range (rand, 0, 6);
      et_guid_from_eventsource_name (mix->provider, &ev.provider);
      ev.channel = 11;
      et_fixture_write_tl_event_blobs (w, &ev, traits, meta, data, len);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

/* A field of every integer width and signedness, or of a wrong kind
 * (Boolean, float), sometimes a string (no fixed layout). */
static void
add_cv_field (EtFixturePayload *p, GRand *rand, const char *name)
{
  /* Mostly small values (cv values that mean something), some of
   * every bit pattern (sign extension, values past G_MAXINT64). */
  guint64 v = g_rand_int_range (rand, 0, 4) ? (guint64) g_rand_int_range (rand, -2, 7)
              : ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

  switch (g_rand_int_range (rand, 0, 14))
    {
    case 0:  et_fixture_payload_add_i8 (p, name, (gint8) v); break;
    case 1:  et_fixture_payload_add_u8 (p, name, (guint8) v); break;
    case 2:  et_fixture_payload_add_i16 (p, name, (gint16) v); break;
    case 3:  et_fixture_payload_add_u16 (p, name, (guint16) v); break;
    case 4:  et_fixture_payload_add_i32 (p, name, (gint32) v); break;
    case 5:  et_fixture_payload_add_u32 (p, name, (guint32) v); break;
    case 6:  et_fixture_payload_add_i64 (p, name, (gint64) v); break;
    case 7:  et_fixture_payload_add_u64 (p, name, v); break;
    case 8:  et_fixture_payload_add_hex32 (p, name, (guint32) v); break;
    case 9:  et_fixture_payload_add_hex64 (p, name, v); break;
    case 10: et_fixture_payload_add_bool32 (p, name, v & 1); break;
    case 11: et_fixture_payload_add_double (p, name, (double) (gint64) v); break;
    case 12:
      et_fixture_payload_add_u8 (p, name, (guint8) v);
      et_fixture_payload_set_out_type (p, 3);   /* Boolean out-type */
      break;
    default: et_fixture_payload_add_utf16 (p, name, "text"); break;
    }
}

/* TraceLogging events with cv fields of every integer width and
 * signedness, of wrong kinds, named in other cases and repeated, beside
 * other fields, sometimes a string, some payloads cut short. */
static void
write_cv_mix (const char *path, guint32 seed)
{
  static const char *const names[] = {
    "cvType", "CVTYPE", "cvImportance", "cvSeries", "cvCategory", "cvSpanId", "cvspanid",
    "cvTextW", "value", "n",
  };
  const TlMix mix = { "Test.CvMix", names, G_N_ELEMENTS (names), 0, 5, 15, add_cv_field };

  write_tl_mix (path, seed, &mix);
}

static EtTrace *
load_decoding_in_full (const char *path)
{
  EtTrace *t;

  g_setenv ("ETLSCOPE_FULL_DECODE", "1", TRUE);
  t = load (path);
  g_unsetenv ("ETLSCOPE_FULL_DECODE");
  assert_int_equal (et_trace_get_stats (t)->fixed_layout_events, 0);
  assert_int_equal (et_trace_get_stats (t)->walked_events, 0);
  return t;
}

/* Loads @path with the shortcuts and decoding every payload in full:
 * the same markers, failures and damage. The quick load's stats, and its
 * number of events in *@n_events. */
static EtTraceStats
assert_loads_as_in_full (const char *path, guint64 *n_events)
{
  g_autoptr(EtTrace) fast = load (path);
  g_autoptr(EtTrace) full = load_decoding_in_full (path);
  EtTraceStats s = *et_trace_get_stats (fast);

  *n_events = et_trace_get_n_events (fast);
  assert_int_equal (s.decode_failures, et_trace_get_stats (full)->decode_failures);
  assert_int_equal (s.damage_count, et_trace_get_stats (full)->damage_count);
  assert_same_markers (fast, full);
  return s;
}

/* An event whose schema has a fixed layout makes its marker from its cv
 * fields alone; the markers must be the ones decoding every payload in
 * full gives, and failures are counted the same. */
static void
test_fixed_layouts_make_the_markers_of_full_decoding (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  EtTraceStats s;
  guint64 n_events;

  write_cv_mix (f->path, 11);
  s = assert_loads_as_in_full (f->path, &n_events);
  assert_true (s.fixed_layout_events > n_events / 2);
  assert_true (s.fixed_layout_events < n_events);          /* strings, cut payloads */
  assert_true (s.decode_failures > 0);
  /* Manifest events too: the large trace's spans and flags have fixed
   * layouts, its notes carry a string (walked). */
  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (f->path, 20000, 5, &o, &error));
  s = assert_loads_as_in_full (f->path, &n_events);
  assert_true (s.fixed_layout_events > n_events / 2);
  assert_true (s.walked_events > 0);
}

/* Text of every kind a cv string may hold: ASCII, accented, CJK, a
 * character outside the BMP (a surrogate pair in UTF-16), empty. */
static const char *const walk_texts[] = {
  "Series 07", "Sérié", "系列", "\xF0\x9F\x98\x80 rocket", "",
  "a much longer series name, past eight",
};

/* One field of a random kind (scalars, strings of every TraceLogging
 * form, counted bytes, now and then an array: no walk) named @name. */
static void
add_walk_field (EtFixturePayload *p, GRand *rand, const char *name)
{
  static const guint8 latin1[] = { 'c', 'a', 'f', 0xE9, 0 };   /* not UTF-8 */
  static const guint8 bytes[] = { 1, 0, 2 };
  const char *text = walk_texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (walk_texts))];
  gint64 v = g_rand_int_range (rand, -2, 7);

  switch (g_rand_int_range (rand, 0, 13))
    {
    case 0:  et_fixture_payload_add_i64 (p, name, v); break;
    case 1:  et_fixture_payload_add_u8 (p, name, (guint8) v); break;
    case 2:  et_fixture_payload_add_i16 (p, name, (gint16) v); break;
    case 3:  et_fixture_payload_add_double (p, name, (double) v); break;
    case 4:  et_fixture_payload_add_counted_utf16 (p, name, text); break;
    case 5:  et_fixture_payload_add_ansi (p, name, text); break;
    case 6:  et_fixture_payload_add_ansi (p, name, (const char *) latin1); break;
    case 7:  et_fixture_payload_add_counted_ansi (p, name, text); break;
    case 8:
      et_fixture_payload_add_ansi (p, name, (const char *) latin1);
      et_fixture_payload_set_out_type (p, 35);    /* UTF-8: invalid bytes replaced */
      break;
    case 9:  et_fixture_payload_add_counted_binary (p, name, bytes, sizeof bytes); break;
    case 10:
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          static const char *const two[] = { "x", "y" };
          et_fixture_payload_add_utf16_array (p, name, two, 2);
          break;
        }
      G_GNUC_FALLTHROUGH;
    default: et_fixture_payload_add_utf16 (p, name, text); break;
    }
}

/* TraceLogging events whose schemas hold strings (walked while loading):
 * cv fields of every kind (cvSeries as each string form, cvType as a
 * string: ignored), beside plain strings; some payloads cut short, also
 * inside a string (no terminator: a decode failure). */
static void
write_walk_mix (const char *path, guint32 seed)
{
  static const char *const names[] = {
    "cvType", "cvImportance", "cvSeries", "CVSERIES", "cvCategory", "cvSpanId", "cvTextW",
    "label", "n",
  };
  const TlMix mix = { "Test.WalkMix", names, G_N_ELEMENTS (names), 1, 6, 12, add_walk_field };

  write_tl_mix (path, seed, &mix);
}

/* Manifest events with strings and pointers: cvSeries as UnicodeString
 * and AnsiString, cvType as a string (ignored), spans by task; some
 * payloads cut short. */
static void
write_manifest_walk_mix (const char *path, guint32 seed)
{
  static const EtFixtureFieldDef f_start[] = {
    { "cvSeries", ET_FIXTURE_UNICODE_STRING }, { "cvSpanId", ET_FIXTURE_INT64 },
    { "where", ET_FIXTURE_POINTER },
  };
  static const EtFixtureFieldDef f_note[] = {
    { "label", ET_FIXTURE_ANSI_STRING }, { "cvImportance", ET_FIXTURE_UINT8 },
    { "cvSeries", ET_FIXTURE_ANSI_STRING }, { "cvType", ET_FIXTURE_UNICODE_STRING },
  };
  static const EtFixtureEventDef defs[] = {
    { 1, 0, "WorkStart", 4, 1, 1, 0, NULL, f_start, 3 },
    { 2, 0, "WorkStop", 4, 2, 1, 0, NULL, f_start, 3 },
    { 3, 0, "Note", 3, 0, 0, 0, NULL, f_note, 4 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  EtFixtureProvider *provider = et_fixture_provider_new ("Test-ManifestWalk");
  EtFixtureWhere where = { 0, 500, 100, 101 };
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  et_fixture_provider_add_task (provider, "Work", 1);
  for (guint i = 0; i < G_N_ELEMENTS (defs); i++)
    et_fixture_provider_add_event (provider, &defs[i]);
  et_fixture_write_manifest (w, provider, &where, 0, -1);
  for (guint e = 0; e < 3000; e++)
    {
      const char *a = walk_texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (walk_texts))];
      const char *b = walk_texts[g_rand_int_range (rand, 0, G_N_ELEMENTS (walk_texts))];
      guint16 id = (guint16) g_rand_int_range (rand, 1, 4);
      EtFixtureEvent ev;

      et_fixture_payload_reset (p);
      if (id < 3)
        {
          et_fixture_payload_add_utf16 (p, "cvSeries", a);
          et_fixture_payload_add_i64 (p, "cvSpanId", g_rand_int_range (rand, 0, 20));
          et_fixture_payload_add_pointer (p, "where", g_rand_int (rand), o.pointer_size);
        }
      else
        {
          et_fixture_payload_add_ansi (p, "label", b);
          et_fixture_payload_add_u8 (p, "cvImportance", g_rand_int_range (rand, 0, 6));
          et_fixture_payload_add_ansi (p, "cvSeries", a);
          et_fixture_payload_add_utf16 (p, "cvType", "3");
        }
      if (g_rand_int_range (rand, 0, 12) == 0)
        {
          gsize len;
          const guint8 *data = et_fixture_payload_data (p, &len);
          g_autofree guint8 *cut = g_memdup2 (data, len);

          et_fixture_payload_reset (p);
          et_fixture_payload_add_raw (p, cut, g_rand_int_range (rand, 0, len));
        }
      et_fixture_event_init (&ev);
      ev.cpu = e % 4, ev.time_ns = 1000 + e * 1000;
      ev.pid = 100, ev.tid = 101 + g_rand_int_range (rand, 0, 3);
      et_fixture_write_manifest_event (w, provider, &ev, id, p);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
  et_fixture_provider_free (provider);
}

/* Loading walks the payloads of schemas with strings for their cv fields
 * (only the cvSeries text converted); the markers must be the ones
 * decoding every payload in full gives, with failures (payloads cut,
 * strings without end) counted and reported the same. */
static void
test_walked_schemas_make_the_markers_of_full_decoding (void **state)
{
  Fixture *f = *state;

  for (guint round = 0; round < 2; round++)
    {
      EtTraceStats s;
      guint64 n_events;

      if (round == 0)
        write_walk_mix (f->path, 21);
      else
        write_manifest_walk_mix (f->path, 21);
      s = assert_loads_as_in_full (f->path, &n_events);
      assert_true (s.walked_events > n_events / 2);
      assert_true (s.walked_events + s.fixed_layout_events < n_events); /* cut, arrays */
      assert_true (s.decode_failures > 0);
    }
}

/* Whether marker @m belongs in lane run @r: a simple span of its lane,
 * or a span that is not simple in the block's run of the others. */
/* The lane of @m in its channel's row, counted by hand: the distinct
 * depths of the row's spans below its own. */
static guint
row_lane (const EtChannel *ch, const EtMarker *m)
{
  gboolean below[256] = { FALSE };
  guint lane = 0;

  for (guint i = 0; i < ch->n_markers; i++)
    if (ch->markers[i].kind == ET_MARKER_SPAN && ch->markers[i].depth < m->depth)
      below[ch->markers[i].depth] = TRUE;
  for (guint d = 0; d < 256; d++)
    lane += below[d];
  return lane;
}

static gboolean
belongs_to_run (const EtChannel *ch, const EtMarker *m, const EtLaneRun *r)
{
  if (m->kind != ET_MARKER_SPAN)
    return FALSE;
  if (r->flags & ET_LANE_RUN_SIMPLE)
    return et_marker_is_simple_span (m) && row_lane (ch, m) == r->lane;
  return !et_marker_is_simple_span (m) && r->lane == ET_LANE_RUN_OTHERS;
}

/* The lane runs of every block hold each of its spans once: the simple
 * ones in the run of their depth, the others in one run of their own.
 * Each run tells what drawing takes from it without visiting the spans:
 * highest importance, first category and whether others differ, and
 * bounds on their lengths and steps. */
static void
test_lane_runs_sum_up_the_spans_of_their_block (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = load_large (f->path, 20000, 11);
  guint n_runs = 0, n_others = 0, n_long = 0;

  for (guint c = 0; c < et_trace_get_n_channels (t); c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      const EtLaneRun *runs;
      const guint32 *index = et_channel_lane_runs (t, c, &runs);

      for (guint b = 0; b * ET_CHANNEL_BLOCK < ch->n_markers; b++)
        {
          const EtMarker *block = &ch->markers[b * ET_CHANNEL_BLOCK];
          guint n = MIN (ET_CHANNEL_BLOCK, ch->n_markers - b * ET_CHANNEL_BLOCK);
          guint64 spans = 0, seen = 0;
          int previous_first = -1;

          for (guint i = 0; i < n; i++)
            if (block[i].kind == ET_MARKER_SPAN)
              spans |= G_GUINT64_CONSTANT (1) << i;
          for (guint k = index[b]; k < index[b + 1]; k++)
            {
              const EtLaneRun *r = &runs[k];
              int first = __builtin_ctzll (r->members);
              guint importance = 0, mixed = 0;
              gint64 longest = 0, step = 0, last_start = block[first].start_ns;

              n_runs++;
              n_others += !(r->flags & ET_LANE_RUN_SIMPLE);
              assert_true (r->members != 0);
              assert_true (first > previous_first);       /* in order of first spans */
              previous_first = first;
              assert_int_equal (seen & r->members, 0);
              seen |= r->members;
              for (guint i = (guint) first; i < n; i++)
                {
                  const EtMarker *m = &block[i];

                  /* Exactly the spans that belong, none left out. */
                  assert_int_equal (belongs_to_run (ch, m, r),
                                    (r->members & (G_GUINT64_CONSTANT (1) << i)) != 0);
                  if (!belongs_to_run (ch, m, r))
                    continue;
                  importance = MAX (importance, m->importance);
                  mixed |= m->category != block[first].category ? ET_LANE_RUN_MIXED : 0;
                  if (m->status != ET_SPAN_UNMATCHED_END)
                    longest = MAX (longest, m->end_ns - m->start_ns);
                  step = MAX (step, m->start_ns - last_start);
                  last_start = m->start_ns;
                }
              assert_int_equal (r->importance, importance);
              assert_int_equal (r->category, block[first].category);
              assert_int_equal (r->flags & ET_LANE_RUN_MIXED, mixed);
              /* Microseconds rounded up: never short, never a whole one over. */
              if (r->longest_us != G_MAXUINT32)
                {
                  assert_true ((gint64) r->longest_us * 1000 >= longest);
                  assert_true ((gint64) r->longest_us * 1000 < longest + 1000);
                }
              else
                n_long++;
              assert_true ((gint64) r->step_us * 1000 >= step);
              assert_true ((gint64) r->step_us * 1000 < step + 1000);
            }
          assert_true (seen == spans);
        }
    }
  assert_true (n_runs > 500);
  assert_true (n_others > 20);       /* cross-thread and unmatched spans */
  /* Unmatched starts last to the end of the trace, under an hour here. */
  assert_int_equal (n_long, 0);
}

/* Every span knows the thread its end event was on (another thread only
 * for cross-thread spans, and then exactly those), checked against the
 * end event itself. */
static void
test_span_ends_know_their_thread (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = load_large (f->path, 20000, 9);
  EtFields *fields = et_fields_new ();
  guint n_cross = 0, n_ended = 0;

  for (guint c = 0; c < et_trace_get_n_channels (t); c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      guint thread = et_trace_channel_thread (t, c);

      for (guint i = 0; i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          guint32 elsewhere = ET_NO_INDEX;     /* et_trace_marker_end_thread's answer */
          const EtThread *end_thread;
          EtEvent end;

          if (m->kind != ET_MARKER_SPAN || m->end_event == ET_NO_INDEX)
            continue;
          elsewhere = et_trace_marker_end_thread (t, m);
          assert_true (et_trace_decode_event (t, m->end_event, &end, fields, NULL));
          end_thread = et_trace_get_thread (t, elsewhere != ET_NO_INDEX ? elsewhere : thread);
          assert_int_equal (end_thread->pid, end.pid);
          assert_int_equal (end_thread->tid, end.tid);
          assert_true (elsewhere != thread);
          assert_int_equal (m->status == ET_SPAN_CROSS_THREAD, elsewhere != ET_NO_INDEX);
          n_cross += m->status == ET_SPAN_CROSS_THREAD;
          n_ended++;
        }
    }
  et_fields_free (fields);
  assert_true (n_ended > 1000);
  assert_true (n_cross > 10);
}

/* A preview makes markers from the first N events only: everything is
 * still counted, and each of its markers is the complete load's marker of
 * the same event, except that a span whose end comes after the first N
 * events is open (pairing only looks back, so every other pair is kept). */
static void
test_preview_makes_markers_of_the_first_events (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) by_event = g_hash_table_new (NULL, NULL);
  g_autoptr(EtTrace) full = NULL, preview = NULL;
  EtFixtureOptions o;
  const guint32 cut = 20000;
  guint expected = 0, seen = 0, cut_open = 0;

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (f->path, 60000, 3, &o, &error));
  full = load (f->path);
  g_setenv ("ETLSCOPE_PREVIEW_EVENTS", "20000", TRUE);
  preview = et_trace_load (f->path, ET_LOAD_PREVIEW, NULL, NULL, NULL, &error);
  g_unsetenv ("ETLSCOPE_PREVIEW_EVENTS");
  assert_non_null (preview);

  assert_int_equal (et_trace_get_stats (full)->preview_events, 0);
  assert_int_equal (et_trace_get_stats (preview)->preview_events, cut);
  assert_int_equal (et_trace_get_stats (preview)->records, et_trace_get_stats (full)->records);
  assert_int_equal (et_trace_get_duration_ns (preview), et_trace_get_duration_ns (full));
  /* Only the first events are indexed, and they are the same events. */
  assert_int_equal (et_trace_get_n_events (preview), cut);
  for (guint64 i = 0; i < cut; i += 997)
    {
      EtFields *fields = et_fields_new ();
      EtEvent a, b;

      assert_true (et_trace_decode_event (full, i, &a, fields, NULL));
      assert_true (et_trace_decode_event (preview, i, &b, fields, NULL));
      assert_int_equal (a.file_offset, b.file_offset);
      assert_int_equal (a.time_ns, b.time_ns);
      et_fields_free (fields);
    }
  for (guint c = 0; c < et_trace_get_n_channels (full); c++)
    {
      const EtChannel *ch = et_trace_get_channel (full, c);
      for (guint i = 0; i < ch->n_markers; i++)
        if (ch->markers[i].event < cut)
          {
            g_hash_table_insert (by_event, GUINT_TO_POINTER (ch->markers[i].event + 1),
                                 (gpointer) &ch->markers[i]);
            expected++;
          }
    }
  for (guint c = 0; c < et_trace_get_n_channels (preview); c++)
    {
      const EtChannel *ch = et_trace_get_channel (preview, c);
      for (guint i = 0; i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          const EtMarker *whole = g_hash_table_lookup (by_event, GUINT_TO_POINTER (m->event + 1));

          assert_non_null (whole);
          assert_int_equal (m->kind, whole->kind);
          assert_int_equal (m->start_ns, whole->start_ns);
          if (m->kind == ET_MARKER_SPAN && whole->end_event != ET_NO_INDEX && whole->end_event >= cut)
            {
              assert_int_equal (m->status, ET_SPAN_UNMATCHED_START);
              cut_open++;
            }
          else
            assert_int_equal (m->end_event, whole->end_event);
          seen++;
        }
    }
  assert_int_equal (seen, expected);
  assert_true (seen > 5000);
  assert_true (cut_open > 0);     /* the fixture has spans across the cut */
}

/* Search finds markers by their text and by payload values, ignoring case,
 * in time order; an empty needle finds nothing. */
static void
test_search_text_and_payload_values (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = (write_basic (f->path, 8192), load (f->path));
  g_autoptr(GArray) by_value = et_trace_search (t, "item=17", NULL);
  g_autoptr(GArray) by_name = et_trace_search (t, "wORK", NULL);
  g_autoptr(GArray) none = et_trace_search (t, "no such thing", NULL);
  g_autoptr(GArray) empty = et_trace_search (t, "", NULL);
  const EtMarkerRef *r;
  const EtMarker *m;

  /* "Work: item=17" and "…item=170…179" */
  assert_int_equal (by_value->len, 11);
  r = &g_array_index (by_value, EtMarkerRef, 0);
  m = &et_trace_get_channel (t, r->channel)->markers[r->index];
  assert_int_equal (m->start_ns, 20 * MS + 16 * 10 * MS);   /* item 17 is the 17th flag */
  assert_int_equal (by_name->len, et_trace_get_stats (t)->markers);
  for (guint i = 1; i < by_name->len; i++)
    {
      const EtMarkerRef *a = &g_array_index (by_name, EtMarkerRef, i - 1);
      const EtMarkerRef *b = &g_array_index (by_name, EtMarkerRef, i);
      assert_true (et_trace_get_channel (t, a->channel)->markers[a->index].start_ns
                   <= et_trace_get_channel (t, b->channel)->markers[b->index].start_ns);
    }
  assert_int_equal (none->len, 0);
  assert_int_equal (empty->len, 0);
}

/* Folding is Unicode's, not ASCII's: "STRASSE" finds "Straße", and a
 * non-ASCII needle finds its other case; and several searching threads
 * find exactly what one finds. */
static void
test_search_folds_unicode_and_threads_agree (void **state)
{
  EtFixtureOptions o;
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;

  {
    g_autoptr(EtFixtureWriter) w = default_writer (f);
    const char *const places[] = { "Straße 5", "ÉCOLE", "plain ascii" };

    for (guint i = 0; i < G_N_ELEMENTS (places); i++)
      {
        g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
        EtFixtureEvent ev;

        et_fixture_event_init (&ev);
        ev.time_ns = (i + 1) * MS, ev.pid = 100, ev.tid = 101, ev.level = 4;
        et_fixture_payload_add_utf16 (p, "place", places[i]);
        et_fixture_write_tl_event (w, &ev, "Test.Places", "Visit", p, NULL);
      }
    assert_true (et_fixture_writer_close (w, &error));
  }
  t = load (f->path);
  {
    g_autoptr(GArray) strasse = et_trace_search (t, "STRASSE", NULL);
    g_autoptr(GArray) ecole = et_trace_search (t, "école", NULL);
    g_autoptr(GArray) ascii = et_trace_search (t, "ASCII", NULL);

    assert_int_equal (strasse->len, 1);
    assert_int_equal (ecole->len, 1);
    assert_int_equal (ascii->len, 1);
  }
  g_clear_object (&t);

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (f->path, 60000, 3, &o, &error));
  t = load (f->path);
  {
    g_autoptr(GArray) serial = NULL, parallel = NULL;

    g_setenv ("ETLSCOPE_THREADS", "1", TRUE);
    serial = et_trace_search (t, "cache", NULL);
    g_setenv ("ETLSCOPE_THREADS", "3", TRUE);
    parallel = et_trace_search (t, "cache", NULL);
    g_unsetenv ("ETLSCOPE_THREADS");
    assert_true (serial->len > 100);
    assert_int_equal (serial->len, parallel->len);
    assert_memory_equal (serial->data, parallel->data, serial->len * sizeof (EtMarkerRef));
  }
}

static int
own_nice (void)
{
  return getpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid));
}

static gpointer
nice_after_begin (gpointer data)
{
  et_worker_begin ();
  return GINT_TO_POINTER (own_nice () + 100);
}

static int
worker_nice (void)
{
  return GPOINTER_TO_INT (g_thread_join (g_thread_new ("test-worker", nice_after_begin, NULL))) - 100;
}

/* Whether @path is among this process's mappings. */
static gboolean
is_mapped (const char *path)
{
  g_autofree char *maps = NULL;

  assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, path) != NULL;
}

/* A trace's file is given back with the trace, on a thread of its own
 * beside the rest when threads are allowed (a large file's; here forced),
 * at once otherwise: either way it is gone when the trace is, and
 * loading it again gives the same trace. */
static void
test_a_freed_trace_gives_its_file_back (void **state)
{
  Fixture *f = *state;
  const char *threads[] = { "1", "2" };
  guint64 markers = 0;

  assert_true (et_fixture_write_large (f->path, 20000, 7, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      EtTrace *t;

      g_setenv ("ETLSCOPE_THREADS", threads[i], TRUE);
      t = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
      assert_non_null (t);
      assert_true (is_mapped (f->path));
      if (i > 0)
        assert_int_equal (et_trace_get_stats (t)->markers, markers);
      markers = et_trace_get_stats (t)->markers;
      assert_true (markers > 0);
      g_object_unref (t);
      assert_false (is_mapped (f->path));
    }
  g_unsetenv ("ETLSCOPE_THREADS");
}

/* Once a window's thread says so, the threads that load and search step
 * back (nice 10) so that its main loop gets a core at once; that thread
 * itself never does. Before, nothing changes. */
static void
test_workers_yield_to_the_window_thread (void **state)
{
  int own = own_nice ();

  assert_int_equal (worker_nice (), own);
  et_workers_yield_to_this_thread ();
  et_worker_begin ();
  assert_int_equal (own_nice (), own);
  assert_int_equal (worker_nice (), MAX (own, 10));
}

/* What each of the threads of test_small_channels_build_their_arrays_when_asked saw. */
typedef struct
{
  EtTrace              *trace;
  const EtBlockSummary **summaries;   /* per channel */
  const EtLaneRun      **runs;
} Asker;

static gpointer
ask_every_channel (gpointer data)
{
  Asker *a = data;

  guint n = et_trace_get_n_channels (a->trace);
  guint64 step = n % 7919 == 0 ? 1 : 7919;     /* a permutation, as below */

  for (guint c = 0; c < n; c++)
    {
      guint at = (guint) (((guint64) c * step) % n);

      a->summaries[at] = et_channel_block_summaries (a->trace, at);
      et_channel_lane_runs (a->trace, at, &a->runs[at]);
    }
  return NULL;
}

/* A server's short-lived threads make hundreds of thousands of channels of
 * a marker or two: the block arrays (summaries, lane and stretch runs,
 * loud markers) of a channel of one block are built when first asked for,
 * by drawing its row, not at load and not by a query of its markers. Any
 * thread may ask first: all get the same arrays. */
static void
test_small_channels_build_their_arrays_when_asked (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  EtFixtureOptions o;
  guint n, small = 0;
  Asker askers[4];
  GThread *threads[4];

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_threads (f->path, 20000, 2000, 5, &o, &error));
  t = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  assert_non_null (t);
  n = et_trace_get_n_channels (t);
  for (guint c = 0; c < n; c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      guint end, first = et_channel_query (t, c, ch->markers[0].start_ns, ch->markers[0].start_ns, &end);

      small += ch->n_markers <= ET_CHANNEL_BLOCK;
      /* The query of a channel of one block is the walk's answer. */
      assert_int_equal (first, 0);
      assert_true (end >= 1);
      first = et_channel_query (t, c, G_MAXINT64 - 1, G_MAXINT64, &end);
      assert_int_equal (first, ch->n_markers);
    }
  assert_true (small > n / 2);
  assert_int_equal (_et_trace_n_built_block_arrays (t), 0);
  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    {
      askers[k] = (Asker) { t, g_new0 (const EtBlockSummary *, n), g_new0 (const EtLaneRun *, n) };
      threads[k] = g_thread_new ("asker", ask_every_channel, &askers[k]);
    }
  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    g_thread_join (threads[k]);
  assert_int_equal (_et_trace_n_built_block_arrays (t), small);
  for (guint c = 0; c < n; c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      const EtBlockSummary *b = et_channel_block_summaries (t, c);
      guint count = 0;

      for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
        {
          assert_ptr_equal (askers[k].summaries[c], b);
          assert_ptr_equal (askers[k].runs[c], askers[0].runs[c]);
        }
      for (guint kind = 0; kind < 3; kind++)
        count += b[0].count[kind];
      assert_int_equal (count, MIN (ch->n_markers, ET_CHANNEL_BLOCK));
    }
  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    {
      g_free (askers[k].summaries);
      g_free (askers[k].runs);
    }
}

/* One channel's info as four threads asked for it at once. */
typedef struct
{
  EtTrace          *trace;
  EtChannelSummary *summaries;    /* per channel */
  guint64          *depths;
  guint            *lanes;
  guint             start;        /* where this asker begins */
} InfoAsker;

static gpointer
ask_every_channel_info (gpointer data)
{
  InfoAsker *a = data;
  guint n = et_trace_get_n_channels (a->trace);
  /* Each asker visits every channel once, in its own order: a step that
   * shares no factor with n walks a permutation (in 64 bits, so that no
   * product wraps). */
  guint64 step = n % 7919 == 0 ? 1 : 7919;

  for (guint c = 0; c < n; c++)
    {
      guint at = (guint) (((guint64) c * step + a->start) % n);

      a->summaries[at] = et_trace_channel_summary (a->trace, at);
      a->depths[at] = et_trace_channel_depth_mask (a->trace, at);
      a->lanes[at] = et_trace_channel_lanes (a->trace, at);
    }
  return NULL;
}

/* A channel's reach, depths and lanes are made for its thread's channels
 * when one of them is first asked for (a collapsed thread needs only its
 * thread's summary, read at load), except a thread's with a channel of
 * more than a block, whose block arrays load builds. The thread summaries
 * and, asked for from four threads at once, every channel's info are what
 * their markers say, each thread's made once. */
static void
test_channel_info_is_made_per_thread_when_asked (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  EtFixtureOptions o;
  guint n, with_channels = 0, large = 0;
  InfoAsker askers[4];
  GThread *threads[4];

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_threads (f->path, 20000, 2000, 5, &o, &error));
  t = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  assert_non_null (t);
  n = et_trace_get_n_channels (t);
  for (guint th = 0; th < et_trace_get_n_threads (t); th++)
    {
      const EtThread *thread = et_trace_get_thread (t, th);
      EtThreadSummary s = et_trace_thread_summary (t, th);
      gint64 first = G_MAXINT64, last = G_MININT64;
      guint64 depths = 0, markers = 0;
      guint deepest = 0;
      gboolean big = FALSE;

      for (guint k = 0; k < thread->n_channels; k++)
        {
          const EtChannel *ch = et_trace_get_channel (t, thread->first_channel + k);

          big |= ch->n_markers > ET_CHANNEL_BLOCK;
          markers += ch->n_markers;
          walk_markers (ch, &first, &last, &depths, &deepest);
        }
      assert_int_equal (s.first_ns, first);
      assert_int_equal (s.last_ns, last);
      assert_int_equal (s.depths, depths);
      assert_int_equal (s.deepest, MIN (deepest, 255));
      assert_int_equal (s.n_markers, markers);
      with_channels += thread->n_channels > 0;
      large += big;
    }
  assert_int_equal (_et_trace_n_threads_with_info (t), large);
  assert_true (large < with_channels / 2);

  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    {
      askers[k] = (InfoAsker) { t, g_new0 (EtChannelSummary, n), g_new0 (guint64, n),
                                g_new0 (guint, n), k * (n / G_N_ELEMENTS (askers)) };
      threads[k] = g_thread_new ("asker", ask_every_channel_info, &askers[k]);
    }
  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    g_thread_join (threads[k]);
  assert_int_equal (_et_trace_n_threads_with_info (t), with_channels);
  for (guint c = 0; c < n; c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      gint64 first = G_MAXINT64, last = G_MININT64;
      guint64 depths = 0;
      guint deepest = 0;

      walk_markers (ch, &first, &last, &depths, &deepest);
      for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
        {
          assert_int_equal (askers[k].summaries[c].first_ns, first);
          assert_int_equal (askers[k].summaries[c].last_ns, last);
          assert_int_equal (askers[k].summaries[c].deepest, MIN (deepest, 255));
          assert_int_equal (askers[k].depths[c], depths);
          assert_int_equal (askers[k].lanes[c], et_lane_of_depth (depths, deepest) + 1);
        }
    }
  for (guint k = 0; k < G_N_ELEMENTS (askers); k++)
    {
      g_free (askers[k].summaries);
      g_free (askers[k].depths);
      g_free (askers[k].lanes);
    }
}

static int
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The radix sort the loader orders channels and CPU times with gives
 * qsort's order: random 64-bit values, values that share their high
 * bytes (packed keys), duplicates, and values already in order. */
static void
test_radix_sort_orders_as_qsort (void **state)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint round = 0; round < 4; round++)
    {
      guint n = 5000 + round * 1000;
      g_autofree guint64 *v = g_new (guint64, n), *w = NULL;

      for (guint i = 0; i < n; i++)
        {
          guint64 r = (guint64) g_rand_int (rand) << 32 | g_rand_int (rand);

          v[i] = round == 0 ? r
                 : round == 1 ? (G_GUINT64_CONSTANT (0xABCD) << 48) | (r & 0xFFFFF)
                 : round == 2 ? r % 97
                 : i * G_GUINT64_CONSTANT (1000003);
        }
      w = g_memdup2 (v, n * sizeof *v);
      qsort (w, n, sizeof *w, compare_u64);
      et_sort_u64 (v, n);
      assert_memory_equal (v, w, n * sizeof *v);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_counts_threads_and_names, setup, teardown),
    cmocka_unit_test_setup_teardown (test_interleaved_threads_are_indexed_in_time_order, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_markers_sorted_per_channel_and_span_paired, setup, teardown),
    cmocka_unit_test_setup_teardown (test_channel_summaries_agree_with_their_markers, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_range_query_matches_scan, setup, teardown),
    cmocka_unit_test_setup_teardown (test_decode_event_of_marker, setup, teardown),
    cmocka_unit_test_setup_teardown (test_wall_clock_is_start_time_plus_t, setup, teardown),
    cmocka_unit_test_setup_teardown (test_truncated_file_keeps_what_can_be_read, setup, teardown),
    cmocka_unit_test_setup_teardown (test_bad_record_size_skips_rest_of_its_buffer_only, setup, teardown),
    cmocka_unit_test_setup_teardown (test_corrupt_compressed_buffer_is_reported, setup, teardown),
    cmocka_unit_test_setup_teardown (test_unreadable_files_are_errors_naming_the_file, setup, teardown),
    cmocka_unit_test_setup_teardown (test_progress_tells_each_phase_in_order, setup, teardown),
    cmocka_unit_test_setup_teardown (test_cancelled_load_returns_cancelled, setup, teardown),
    cmocka_unit_test_setup_teardown (test_all_providers_flag_adds_kernel_markers, setup, teardown),
    cmocka_unit_test (test_marker_events_find_every_marker),
    cmocka_unit_test_setup_teardown (test_threads_taking_turns_keep_their_channels, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_thread_of_many_series_keeps_its_channels, setup, teardown),
    cmocka_unit_test_setup_teardown (test_uneven_cpus_merge_into_the_same_index, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_cpu_going_back_in_time_is_sorted, setup, teardown),
    cmocka_unit_test_setup_teardown (test_parallel_decoding_matches_serial, setup, teardown),
    cmocka_unit_test_setup_teardown (test_channels_per_thread_match_any_parts, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_lone_process_joins_its_spans_in_parts, setup, teardown),
    cmocka_unit_test_setup_teardown (test_walked_schemas_make_the_markers_of_full_decoding,
                                     setup, teardown),
    cmocka_unit_test_setup_teardown (test_fixed_layouts_make_the_markers_of_full_decoding, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_span_ends_know_their_thread, setup, teardown),
    cmocka_unit_test_setup_teardown (test_lane_runs_sum_up_the_spans_of_their_block, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_search_text_and_payload_values, setup, teardown),
    cmocka_unit_test_setup_teardown (test_search_folds_unicode_and_threads_agree, setup, teardown),
    cmocka_unit_test_setup_teardown (test_preview_makes_markers_of_the_first_events, setup, teardown),
    cmocka_unit_test (test_workers_yield_to_the_window_thread),
    cmocka_unit_test_setup_teardown (test_a_freed_trace_gives_its_file_back, setup, teardown),
    cmocka_unit_test_setup_teardown (test_small_channels_build_their_arrays_when_asked, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_channel_info_is_made_per_thread_when_asked, setup,
                                     teardown),
    cmocka_unit_test (test_radix_sort_orders_as_qsort),
  };
  return cmocka_run_group_tests_name ("trace", tests, NULL, NULL);
}
