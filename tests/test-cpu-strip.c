/* test-cpu-strip.c — a thread's CPU use: the model's per-column fractions
 * from context switches and from samples (et-trace-cpu.h) on a fixture
 * written with known switches, samples and sampling interval; the strip
 * drawn in the thread headers only where the thread was on a CPU
 * (pixels); `etlscope-cli info` giving on-CPU time per thread; and on the
 * corpus's net.4.5.2.x64.etl, every sample in its thread's strip. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "et-i18n.h"
#include "et-cpu-strip.h"
#include "et-layout.h"
#include "et-timeline-render.h"
#include "et-trace-cpu.h"
#include "et-trace.h"
#include "et-viewport.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"
#include "et-trace-stacks.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

#define APP_PID    4120
#define MAIN_TID   4121
#define WORKER_TID 4122
#define STRAY_TID  4123
#define MS         1000000

/* The sampling interval the fixture sets: 0.25 ms, so a sample in a 1 ms
 * column is a quarter of it. */
#define INTERVAL_100NS 2500

/* The runtime's GC/Start (1) or GC/Stop (2), version 1, of GC 1 on the
 * worker: a span marker of the built-in runtime rules, so the worker's
 * header can be collapsed over a lane. */
static void
write_gc (EtFixtureWriter *w, gint64 time_ns, guint16 id)
{
  static const guint8 start[18] = { 1, 0, 0, 0, 0 };   /* Count 1, Depth, Reason, Type, Clr */
  static const guint8 stop[10] = { 1, 0, 0, 0, 0 };    /* Count 1, Depth, ClrInstanceID */
  EtFixtureEvent ev;

  et_fixture_event_init (&ev);
  ev.time_ns = time_ns;
  ev.pid = APP_PID;
  ev.tid = WORKER_TID;
  assert_true (et_guid_parse ("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", &ev.provider));
  ev.id = id;
  ev.version = 1;
  ev.task = 1;
  ev.opcode = id;
  et_fixture_write_event (w, &ev, NULL, 0, id == 1 ? start : stop, id == 1 ? sizeof start : sizeof stop);
}

static void
write_interval (EtFixtureWriter *w, gint64 time_ns, guint32 interval_100ns)
{
  guint8 p[12] = { 0 };

  /* SampleSource 0 (the timer), NewInterval, OldInterval (10000: 1 ms) */
  p[4] = interval_100ns & 0xFF, p[5] = (interval_100ns >> 8) & 0xFF;
  p[6] = (interval_100ns >> 16) & 0xFF, p[7] = interval_100ns >> 24;
  p[8] = 10000 & 0xFF, p[9] = 10000 >> 8;
  et_fixture_write_perfinfo (w, 0, time_ns, 0, 0x0F, 72, 2, p, sizeof p);
}

/* A fixture writer for a new trace in a folder of its own (remove_trace
 * removes both). */
static EtFixtureWriter *
new_writer (char **path)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", NULL);
  EtFixtureWriter *w;
  EtFixtureOptions o;

  *path = g_build_filename (dir, "cpu.etl", NULL);
  et_fixture_options_init (&o);
  w = et_fixture_writer_new (*path, &o, NULL);
  assert_non_null (w);
  return w;
}

/* Over [0, 10 ms), in 1 ms columns:
 * - the main thread has samples only: 2 in column 1, 1 in column 3, 4 in
 *   column 7 and 6 in column 8 (more than a column can hold), each at the
 *   end of a 0.25 ms interval inside its column;
 * - the worker is switched in at 2 ms, out at 2.5 ms, in at 4.25 ms and
 *   out at 6.75 ms (CPU 1), and has 3 samples;
 * - the stray thread's first switch takes it off CPU 2 at 1 ms (on since
 *   the start), and it is switched in again at 9 ms and never out (on
 *   until the trace's last event, at 10 ms);
 * - the worker runs a GC from 3 to 5 ms (its only marker). */
static char *
write_cpu_trace (void)
{
  char *path = NULL;
  g_autoptr(EtFixtureWriter) w = new_writer (&path);
  static const gint64 main_samples[] = { 1500000, 1750000, 3500000, 7250000, 7500000, 7750000,
                                         7990000, 8250000, 8300000, 8400000, 8500000, 8600000,
                                         8700000 };

  et_fixture_write_process (w, 0, 100, ET_FIXTURE_KERNEL_START, APP_PID, 4, "Contoso.exe",
                            "Contoso.exe");
  et_fixture_write_thread (w, 0, 200, ET_FIXTURE_KERNEL_START, APP_PID, MAIN_TID, NULL);
  et_fixture_write_thread (w, 0, 300, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  et_fixture_write_thread (w, 0, 400, ET_FIXTURE_KERNEL_START, APP_PID, STRAY_TID, NULL);
  write_interval (w, 500, INTERVAL_100NS);
  for (guint i = 0; i < G_N_ELEMENTS (main_samples); i++)
    et_fixture_write_sample (w, 0, main_samples[i], MAIN_TID, 0x7FF6A1B21000);
  et_fixture_write_cswitch (w, 2, 1 * MS, 0, STRAY_TID);
  et_fixture_write_cswitch (w, 1, 2 * MS, WORKER_TID, 0);
  et_fixture_write_sample (w, 1, 2 * MS + 100000, WORKER_TID, 0x7FF6A1B22000);
  et_fixture_write_cswitch (w, 1, 2 * MS + MS / 2, 0, WORKER_TID);
  write_gc (w, 3 * MS, 1);
  et_fixture_write_cswitch (w, 1, 4 * MS + MS / 4, WORKER_TID, 0);
  write_gc (w, 5 * MS, 2);
  et_fixture_write_sample (w, 1, 5 * MS, WORKER_TID, 0x7FF6A1B22000);
  et_fixture_write_sample (w, 1, 6 * MS, WORKER_TID, 0x7FF6A1B22000);
  et_fixture_write_cswitch (w, 1, 6 * MS + 3 * MS / 4, 0, WORKER_TID);
  et_fixture_write_cswitch (w, 2, 9 * MS, STRAY_TID, 0);
  et_fixture_write_sample (w, 3, 10 * MS, 0, 0x1000);          /* the idle thread: the end */
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

static guint
thread_index (EtTrace *trace, guint32 pid, guint32 tid)
{
  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);

      if (t->has_ids && t->pid == pid && t->tid == tid)
        return i;
    }
  fail_msg ("no thread %u/%u", pid, tid);
  return 0;
}

static void
remove_trace (char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
}

static EtTrace *
load_cpu_trace (char **path)
{
  EtTrace *trace;

  *path = write_cpu_trace ();
  trace = et_trace_load (*path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  assert_int_equal (et_trace_get_duration_ns (trace), 10 * MS);
  return trace;
}

static void
assert_columns (const float *got, const float *want, guint n)
{
  for (guint c = 0; c < n; c++)
    if (got[c] < want[c] - 1e-4 || got[c] > want[c] + 1e-4)
      fail_msg ("column %u: %.5f, expected %.5f", c, got[c], want[c]);
}

/* Samples alone: count × 0.25 ms per 1 ms column, never more than all of
 * it; zoomed in, the intervals the samples end. */
static void
test_fractions_from_samples (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  guint main_thread = thread_index (trace, APP_PID, MAIN_TID);
  static const float want[10] = { 0, 0.5f, 0, 0.25f, 0, 0, 0, 1, 1, 0 };
  static const guint want_samples[10] = { 0, 2, 0, 1, 0, 0, 0, 4, 6, 0 };
  float fraction[10];
  guint samples[10];

  (void) state;
  assert_int_equal (et_trace_sample_interval_ns (trace), INTERVAL_100NS * 100);
  assert_true (et_trace_has_cswitches (trace));
  assert_int_equal (et_trace_thread_cpu_source (trace, main_thread), ET_CPU_FROM_SAMPLES);
  assert_int_equal (et_trace_thread_cpu_use (trace, main_thread, 0, 10 * MS, 10, fraction,
                                             samples), ET_CPU_FROM_SAMPLES);
  assert_columns (fraction, want, 10);
  assert_memory_equal (samples, want_samples, sizeof samples);
  assert_int_equal (et_trace_thread_on_cpu_ns (trace, main_thread), 0);
  /* Zoomed in on column 1's samples (at 1.5 and 1.75 ms): 0.125 ms columns
   * from 1.125 ms, the first two before the first sample's interval. */
  assert_int_equal (et_trace_thread_cpu_use (trace, main_thread, 1125000, 1875000, 6, fraction,
                                             samples), ET_CPU_FROM_SAMPLES);
  assert_columns (fraction, (const float[]) { 0, 1, 1, 1, 1, 0 }, 6);
  assert_memory_equal (samples, ((const guint[]) { 0, 0, 0, 1, 0, 1 }), 6 * sizeof (guint));
  remove_trace (g_steal_pointer (&path));
}

/* Switches: the part of each column between switched in and switched out. */
static void
test_fractions_from_switches (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  guint worker = thread_index (trace, APP_PID, WORKER_TID);
  guint stray = thread_index (trace, APP_PID, STRAY_TID);
  static const float want_worker[10] = { 0, 0, 0.5f, 0, 0.75f, 1, 0.75f, 0, 0, 0 };
  static const float want_stray[10] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
  float fraction[10];
  guint samples[10];

  (void) state;
  assert_int_equal (et_trace_thread_cpu_use (trace, worker, 0, 10 * MS, 10, fraction, samples),
                    ET_CPU_FROM_SWITCHES);
  assert_columns (fraction, want_worker, 10);
  assert_int_equal (samples[2] + samples[5] + samples[6], 3);
  assert_int_equal (et_trace_thread_on_cpu_ns (trace, worker), 3 * MS);
  assert_int_equal (et_trace_get_thread (trace, worker)->n_samples, 3);

  assert_int_equal (et_trace_thread_cpu_use (trace, stray, 0, 10 * MS, 10, fraction, NULL),
                    ET_CPU_FROM_SWITCHES);
  assert_columns (fraction, want_stray, 10);
  assert_int_equal (et_trace_thread_on_cpu_ns (trace, stray), 2 * MS);

  /* Columns not on whole milliseconds: 2.25–2.75 ms in two. */
  et_trace_thread_cpu_use (trace, worker, 2250000, 2750000, 2, fraction, NULL);
  assert_columns (fraction, (const float[]) { 1, 0 }, 2);
  /* One column over the whole trace: 3 of 10 ms. */
  et_trace_thread_cpu_use (trace, worker, 0, 10 * MS, 1, fraction, NULL);
  assert_columns (fraction, (const float[]) { 0.3f }, 1);
  /* Before the trace and after it, nothing; an empty range, nothing. */
  et_trace_thread_cpu_use (trace, worker, -5 * MS, 0, 2, fraction, NULL);
  assert_columns (fraction, (const float[]) { 0, 0 }, 2);
  et_trace_thread_cpu_use (trace, worker, 3 * MS, 3 * MS, 1, fraction, NULL);
  assert_columns (fraction, (const float[]) { 0 }, 1);
  remove_trace (g_steal_pointer (&path));
}

/* More switches than a block of the delta coding holds, one escape (a
 * gap of over 4.3 s): every column still exact, wherever the query
 * starts. */
static void
test_many_switches (void **state)
{
  char *path = NULL;
  g_autoptr(EtFixtureWriter) w = new_writer (&path);
  g_autoptr(EtTrace) trace = NULL;
  const gint64 gap = 6000 * (gint64) MS;
  float fraction[4];
  guint t;

  (void) state;
  et_fixture_write_thread (w, 0, 100, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  /* 1000 runs of 0.25 ms, one per ms from 1 ms on; then one after the gap */
  for (guint i = 1; i <= 1000; i++)
    {
      et_fixture_write_cswitch (w, 0, i * (gint64) MS, WORKER_TID, 0);
      et_fixture_write_cswitch (w, 0, i * (gint64) MS + MS / 4, 0, WORKER_TID);
    }
  et_fixture_write_cswitch (w, 0, gap, WORKER_TID, 0);
  et_fixture_write_cswitch (w, 0, gap + MS, 0, WORKER_TID);
  assert_true (et_fixture_writer_close (w, NULL));
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  t = thread_index (trace, APP_PID, WORKER_TID);
  assert_int_equal (et_trace_thread_on_cpu_ns (trace, t), 1000 * MS / 4 + MS);
  for (guint at = 1; at < 1000; at += 37)
    {
      et_trace_thread_cpu_use (trace, t, at * (gint64) MS, (at + 2) * (gint64) MS, 4, fraction,
                               NULL);
      assert_columns (fraction, (const float[]) { 0.5f, 0, 0.5f, 0 }, 4);
    }
  et_trace_thread_cpu_use (trace, t, gap - MS, gap + 3 * MS, 4, fraction, NULL);
  assert_columns (fraction, (const float[]) { 0, 1, 0, 0 }, 4);
  g_clear_object (&trace);
  remove_trace (path);
}

/* Samples, switches and sampling intervals read on one core and on two,
 * three and eight (the records cut in ranges, one a core): the same
 * interval (the latest; of two at one time, the one later in the file),
 * the same time on CPU, CPU time and strip, column by column, with the
 * same samples in each column, for every thread. */
static void
test_read_on_every_core_as_on_one (void **state)
{
  const char *cores[] = { "2", "3", "8" };
  char *path = NULL;
  g_autoptr(EtFixtureWriter) w = new_writer (&path);
  g_autoptr(EtTrace) one = NULL;
  const guint rounds = 12000, n_threads = 4;
  const gint64 end = 1000000 + (gint64) rounds * 100000;

  (void) state;
  write_interval (w, 500000, INTERVAL_100NS);
  for (guint t = 0; t < n_threads; t++)
    et_fixture_write_thread (w, t, 100 + t, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID + t,
                             NULL);
  for (guint i = 0; i < rounds; i++)
    for (guint t = 0; t < n_threads; t++)
      {
        gint64 at = 1000000 + i * (gint64) 100000 + t * 20000;
        guint cpu = (i + t) % 4;

        et_fixture_write_cswitch (w, cpu, at, WORKER_TID + t, 0);
        if ((i + t) % 3 != 0)
          et_fixture_write_sample (w, cpu, at + 5000 + t * 1000, WORKER_TID + t, 0x1000);
        et_fixture_write_cswitch (w, cpu, at + 10000 + t * 2000, 0, WORKER_TID + t);
        if (i == rounds / 2 && t == 0)
          write_interval (w, at, 5000);
        if (i == rounds * 3 / 4 && t == 0)
          {
            write_interval (w, at, 7500);
            write_interval (w, at, 1250);      /* the same time, later in the file */
          }
      }
  assert_true (et_fixture_writer_close (w, NULL));
  g_setenv ("ETLSCOPE_THREADS", "1", TRUE);
  one = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (one);
  assert_int_equal (et_trace_sample_interval_ns (one), 1250 * 100);
  assert_true (et_trace_has_cswitches (one));
  for (guint c = 0; c < G_N_ELEMENTS (cores); c++)
    {
      g_autoptr(EtTrace) many = NULL;

      g_setenv ("ETLSCOPE_THREADS", cores[c], TRUE);
      many = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
      assert_non_null (many);
      assert_int_equal (et_trace_sample_interval_ns (many), et_trace_sample_interval_ns (one));
      assert_int_equal (et_trace_get_n_threads (many), et_trace_get_n_threads (one));
      for (guint t = 0; t < n_threads; t++)
        {
          guint a = thread_index (one, APP_PID, WORKER_TID + t);
          guint b = thread_index (many, APP_PID, WORKER_TID + t);
          float fa[64], fb[64];
          guint sa[64], sb[64], samples = 0;

          assert_true (et_trace_thread_on_cpu_ns (one, a) > 0);
          assert_int_equal (et_trace_thread_on_cpu_ns (many, b), et_trace_thread_on_cpu_ns (one, a));
          assert_int_equal (et_trace_thread_cpu_ns (many, b), et_trace_thread_cpu_ns (one, a));
          assert_int_equal (et_trace_thread_cpu_use (many, b, 0, end, 64, fb, sb),
                            et_trace_thread_cpu_use (one, a, 0, end, 64, fa, sa));
          assert_memory_equal (fa, fb, sizeof fa);
          assert_memory_equal (sa, sb, sizeof sa);
          for (guint k = 0; k < 64; k++)
            samples += sa[k];
          assert_int_equal (samples, et_trace_get_thread (one, a)->n_samples);
          assert_true (samples > rounds / 2);
          {
            /* the samples as the stacks keep them (their references joined
             * across the ranges, switches between them left out): every
             * one, in time order, at the same times */
            const gint64 *ns_a, *ns_b;
            const guint32 *nodes_a, *nodes_b;
            guint na = et_stacks_thread_samples (et_trace_get_stacks (one), a, &ns_a, &nodes_a);

            assert_int_equal (na, samples);
            assert_int_equal (et_stacks_thread_samples (et_trace_get_stacks (many), b, &ns_b,
                                                        &nodes_b), na);
            assert_memory_equal (ns_a, ns_b, na * sizeof *ns_a);
            assert_memory_equal (nodes_a, nodes_b, na * sizeof *nodes_a);
          }
        }
    }
  g_unsetenv ("ETLSCOPE_THREADS");
  g_clear_object (&one);
  remove_trace (path);
}

/* A thread that moves from CPU to CPU: its samples and switches are in
 * the file CPU by CPU, out of time order, and still counted in their
 * columns; runs of 30 µs every 100 µs, each on the next of 4 CPUs. */
#define RUNS 2000

static char *
write_moving_trace (void)
{
  char *path = NULL;
  g_autoptr(EtFixtureWriter) w = new_writer (&path);

  et_fixture_write_thread (w, 0, 100, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  for (guint i = 0; i < RUNS; i++)
    {
      gint64 at = 1000000 + i * (gint64) 100000;

      et_fixture_write_cswitch (w, i % 4, at, WORKER_TID, 0);
      et_fixture_write_sample (w, i % 4, at + 10000, WORKER_TID, 0x1000);
      et_fixture_write_cswitch (w, i % 4, at + 30000, 0, WORKER_TID);
    }
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

static void
test_thread_across_cpus (void **state)
{
  char *path = write_moving_trace ();
  g_autoptr(EtTrace) trace = NULL;
  const guint runs = RUNS;
  float fraction[20];
  guint samples[20];
  guint t;

  (void) state;
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  t = thread_index (trace, APP_PID, WORKER_TID);
  assert_int_equal (et_trace_get_thread (trace, t)->n_samples, runs);
  assert_int_equal (et_trace_thread_on_cpu_ns (trace, t), runs * (gint64) 30000);
  /* 20 columns of 10 ms (100 runs each), then of 50 µs (a run and a gap) */
  et_trace_thread_cpu_use (trace, t, 1000000, 201000000, 20, fraction, samples);
  for (guint c = 0; c < 20; c++)
    {
      assert_int_equal (samples[c], 100);
      assert_true (fraction[c] > 0.2999f && fraction[c] < 0.3001f);
    }
  for (guint at = 3; at < runs; at += 97)
    {
      gint64 from = 1000000 + at * (gint64) 100000;

      et_trace_thread_cpu_use (trace, t, from, from + 200000, 4, fraction, samples);
      assert_columns (fraction, (const float[]) { 0.6f, 0, 0.6f, 0 }, 4);
      assert_memory_equal (samples, ((const guint[]) { 1, 0, 1, 0 }), 4 * sizeof (guint));
    }
  g_clear_object (&trace);
  remove_trace (path);
}

/* @trace loaded twice, answering queries by walking its times and by
 * looking up column edges (ETLSCOPE_CPU_BY_BOUNDS): the same numbers for
 * ranges of every kind, every thread. */
static void
compare_ways (const char *path)
{
  g_autoptr(EtTrace) walking = NULL, edges = NULL;
  static const guint ns[] = { 1, 2, 7, 100, 1600, 5000 };
  gint64 end;

  g_setenv ("ETLSCOPE_CPU_BY_BOUNDS", "0", TRUE);
  walking = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  g_setenv ("ETLSCOPE_CPU_BY_BOUNDS", "1", TRUE);
  edges = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  g_unsetenv ("ETLSCOPE_CPU_BY_BOUNDS");
  assert_non_null (walking);
  assert_non_null (edges);
  end = et_trace_get_duration_ns (walking) + 1;
  for (guint t = 0; t < et_trace_get_n_threads (walking); t++)
    for (guint j = 0; j < G_N_ELEMENTS (ns); j++)
      for (gint64 from = -end / 7; from < end; from += end / 5 + 12345)
        {
          gint64 to = from + (end - from) / (j + 1) + (gint64) j * 999;
          g_autofree float *f1 = g_new (float, ns[j]), *f2 = g_new (float, ns[j]);
          g_autofree guint *c1 = g_new (guint, ns[j]), *c2 = g_new (guint, ns[j]);

          et_trace_thread_cpu_use (walking, t, from, to, ns[j], f1, c1);
          et_trace_thread_cpu_use (edges, t, from, to, ns[j], f2, c2);
          assert_memory_equal (c1, c2, ns[j] * sizeof (guint));
          assert_memory_equal (f1, f2, ns[j] * sizeof (float));
        }
}

static void
test_both_ways_agree (void **state)
{
  char *moving = write_moving_trace ();
  char *cpu = write_cpu_trace ();

  (void) state;
  compare_ways (moving);
  compare_ways (cpu);
  remove_trace (moving);
  remove_trace (cpu);
}

static void
test_both_ways_agree_on_the_corpus (void **state)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *corpus = dir ? g_build_filename (dir, "net.4.5.2.x64.etl", NULL) : NULL;

  (void) state;
  if (corpus == NULL || !g_file_test (corpus, G_FILE_TEST_IS_REGULAR))
    {
      print_message ("# corpus not found: net.4.5.2.x64.etl not compared\n");
      skip ();
    }
  compare_ways (corpus);
}

/* ---- drawing ------------------------------------------------------------ */

#define PX_PER_MS 100

typedef struct
{
  cairo_surface_t *surface;
  EtViewport       v;
  double           rgb[3];
} Picture;

/* [0, 10 ms) at 100 px per ms, every row in view. */
static void
draw (EtTrace *trace, EtLayout *layout, gboolean dark, Picture *pic)
{
  cairo_t *cr;

  et_viewport_init (&pic->v, 250 + 10 * PX_PER_MS, 100);
  pic->v.from_ns = 0;
  pic->v.to_ns = 10 * MS;
  pic->v.dark = dark;
  et_layout_update (layout, pic->v.lane_height);
  pic->v.height = pic->v.ruler_height + et_layout_height (layout) + 1;
  g_clear_pointer (&pic->surface, cairo_surface_destroy);
  pic->surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, pic->v.width, pic->v.height);
  cr = cairo_create (pic->surface);
  et_timeline_draw (cr, trace, layout, &pic->v);
  cairo_destroy (cr);
  cairo_surface_flush (pic->surface);
  et_cpu_strip_rgb (&pic->v, pic->rgb);
}

/* Whether the pixel at (@x, @y) is the strip's colour. */
static gboolean
is_cpu (const Picture *pic, double x, double y)
{
  const guint8 *data = cairo_image_surface_get_data (pic->surface);
  int stride = cairo_image_surface_get_stride (pic->surface);
  guint32 px = *(const guint32 *) (gconstpointer) (data + (int) y * stride + (int) x * 4);
  int r = (px >> 16) & 0xFF, g = (px >> 8) & 0xFF, b = px & 0xFF;

  return ABS (r - (int) (pic->rgb[0] * 255 + 0.5)) <= 2
         && ABS (g - (int) (pic->rgb[1] * 255 + 0.5)) <= 2
         && ABS (b - (int) (pic->rgb[2] * 255 + 0.5)) <= 2;
}

/* The band of @thread's header: its top and bottom pixel rows. */
static void
band_of (EtTrace *trace, EtLayout *layout, const Picture *pic, guint thread, double *top,
         double *bottom)
{
  const EtRow *row = et_layout_thread_row (layout, thread);
  double height;

  assert_non_null (row);
  assert_true (et_cpu_strip_band (trace, row, pic->v.ruler_height + row->y - pic->v.scroll_y,
                                  top, &height));
  *bottom = *top + height - 1;
}

static double
x_at (const Picture *pic, double ms)
{
  return pic->v.label_width + ms * PX_PER_MS;
}

/* Per millisecond of the worker (on 2–2.5 and 4.25–6.75 ms), whether its
 * band's bottom row is coloured: only where it ran. */
static void
check_worker_band (EtTrace *trace, EtLayout *layout, const Picture *pic, guint worker)
{
  static const double on[] = { 2.1, 2.4, 4.3, 5.05, 5.5, 6.7 };
  static const double off[] = { 0.5, 1.5, 2.6, 3.0, 4.2, 6.8, 7.5, 8.5, 9.5 };
  double top, bottom;

  band_of (trace, layout, pic, worker, &top, &bottom);
  for (guint i = 0; i < G_N_ELEMENTS (on); i++)
    {
      if (!is_cpu (pic, x_at (pic, on[i]), bottom) || !is_cpu (pic, x_at (pic, on[i]), top))
        fail_msg ("no full CPU bar at %.1f ms", on[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (off); i++)
    for (double y = top; y <= bottom; y++)
      if (is_cpu (pic, x_at (pic, off[i]), y))
        fail_msg ("a CPU bar at %.1f ms, y %.0f", off[i], y);
  /* Nowhere above or below the band in the header. */
  for (double x = pic->v.label_width; x < pic->v.width; x += 3)
    {
      assert_false (is_cpu (pic, x, top - 1));
      assert_false (is_cpu (pic, x, bottom + 1));
    }
}

/* The strip in the expanded and the collapsed header of the worker, and
 * of the main thread (from samples); the tooltip's numbers. */
static void
test_strip_drawn_where_the_thread_ran (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  guint worker = thread_index (trace, APP_PID, WORKER_TID);
  guint main_thread = thread_index (trace, APP_PID, MAIN_TID);
  Picture pic = { NULL };
  double top, bottom;
  EtCpuHit hit;

  (void) state;
  et_layout_set_show_empty_threads (layout, TRUE);
  for (guint dark = 0; dark < 2; dark++)
    {
      draw (trace, layout, dark, &pic);
      assert_int_equal (et_layout_thread_row (layout, worker)->lanes, 0);       /* expanded */
      check_worker_band (trace, layout, &pic, worker);
    }
  band_of (trace, layout, &pic, main_thread, &top, &bottom);
  /* at 2 px a bar, the intervals of 0.25 ms ending at 1.5 and 1.75 ms are
   * full bars, before and after them nothing */
  assert_true (is_cpu (&pic, x_at (&pic, 7.5), top));
  assert_true (is_cpu (&pic, x_at (&pic, 1.3), top));
  assert_true (is_cpu (&pic, x_at (&pic, 1.7), top));
  assert_false (is_cpu (&pic, x_at (&pic, 1.2), bottom));
  assert_false (is_cpu (&pic, x_at (&pic, 1.8), bottom));
  assert_false (is_cpu (&pic, x_at (&pic, 5.05), bottom));

  /* The tooltip's bar: on CPU all of it, the sample at 6 ms in it. */
  band_of (trace, layout, &pic, worker, &top, &bottom);
  assert_true (et_cpu_strip_hit_test (trace, layout, &pic.v, x_at (&pic, 6.0) + 0.5, bottom,
                                      &hit));
  assert_int_equal (hit.thread, worker);
  assert_int_equal (hit.source, ET_CPU_FROM_SWITCHES);
  assert_true (hit.fraction > 0.99f);
  assert_int_equal (hit.samples, 1);
  assert_true (et_cpu_strip_hit_test (trace, layout, &pic.v, x_at (&pic, 8.0), top, &hit));
  assert_true (hit.fraction == 0 && hit.samples == 0);
  assert_false (et_cpu_strip_hit_test (trace, layout, &pic.v, x_at (&pic, 6.0), top - 2, &hit));

  /* Collapsed over its GC: the band under the density strip, the GC's
   * lane under the band. */
  et_layout_set_all_threads_collapsed (layout, TRUE);
  draw (trace, layout, FALSE, &pic);
  assert_true (et_layout_thread_row (layout, worker)->lanes > 0);
  check_worker_band (trace, layout, &pic, worker);
  band_of (trace, layout, &pic, worker, &top, &bottom);
  assert_int_equal (top - (pic.v.ruler_height + et_layout_thread_row (layout, worker)->y),
                    ET_THREAD_STRIP_PX);
  assert_false (is_cpu (&pic, x_at (&pic, 4.5), bottom + 4));      /* the GC bar there */
  g_clear_pointer (&pic.surface, cairo_surface_destroy);
  remove_trace (g_steal_pointer (&path));
}

/* A thread without samples or switches keeps its header as it was. */
static void
test_no_strip_without_cpu_data (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  guint none = ET_NO_INDEX;
  EtRow row = { ET_ROW_THREAD, 0, 0, 22, 0 };
  double top, height;

  (void) state;
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_trace_get_thread (trace, t)->n_samples == 0
        && et_trace_thread_cpu_source (trace, t) == ET_CPU_NONE)
      none = t;
  assert_true (none != ET_NO_INDEX);       /* the Process/Start's logger thread */
  row.index = none;
  assert_false (et_cpu_strip_band (trace, &row, 0, &top, &height));
  assert_int_equal (et_thread_strip_px (trace, none), ET_THREAD_STRIP_PX);
  assert_int_equal (et_thread_strip_px (trace, thread_index (trace, APP_PID, WORKER_TID)),
                    ET_THREAD_STRIP_PX + ET_CPU_STRIP_PX);
  remove_trace (g_steal_pointer (&path));
}

/* Empty threads hidden (the default): the threads of Contoso.exe that only
 * ran (the main thread's samples, the stray thread's switches) are shown
 * beside the worker's markers; the idle process's, which has no markers,
 * stays hidden. */
static void
test_threads_that_ran_are_shown (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  gboolean idle_seen = FALSE;

  (void) state;
  et_layout_update (layout, 22);
  assert_non_null (et_layout_thread_row (layout, thread_index (trace, APP_PID, WORKER_TID)));
  assert_non_null (et_layout_thread_row (layout, thread_index (trace, APP_PID, MAIN_TID)));
  assert_non_null (et_layout_thread_row (layout, thread_index (trace, APP_PID, STRAY_TID)));
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_trace_get_thread (trace, t)->pid != APP_PID
        && et_trace_thread_cpu_source (trace, t) != ET_CPU_NONE)
      {
        assert_null (et_layout_thread_row (layout, t));
        idle_seen = TRUE;
      }
  assert_true (idle_seen);
  remove_trace (g_steal_pointer (&path));
}

/* Threads by CPU use: the main thread's 13 samples of 0.25 ms (3.25 ms),
 * then the worker's switched-in 3 ms, then the stray thread's 2 ms. */
static void
test_threads_by_cpu_use (void **state)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = load_cpu_trace (&path);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  guint main_thread = thread_index (trace, APP_PID, MAIN_TID);
  guint worker = thread_index (trace, APP_PID, WORKER_TID);
  guint stray = thread_index (trace, APP_PID, STRAY_TID);

  (void) state;
  assert_int_equal (et_trace_thread_cpu_ns (trace, main_thread), 13 * 250000);
  assert_int_equal (et_trace_thread_cpu_ns (trace, worker), 3 * MS);
  assert_int_equal (et_trace_thread_cpu_ns (trace, stray), 2 * MS);
  et_layout_set_thread_order (layout, ET_THREAD_ORDER_CPU);
  et_layout_update (layout, 22);
  assert_true (et_layout_thread_row (layout, main_thread)->y
               < et_layout_thread_row (layout, worker)->y);
  assert_true (et_layout_thread_row (layout, worker)->y
               < et_layout_thread_row (layout, stray)->y);
  /* By first activity (the default) the worker, whose GC is the only
   * marker, comes first. */
  et_layout_set_thread_order (layout, ET_THREAD_ORDER_FIRST_ACTIVITY);
  et_layout_update (layout, 22);
  assert_true (et_layout_thread_row (layout, worker)->y
               < et_layout_thread_row (layout, main_thread)->y);
  remove_trace (g_steal_pointer (&path));
}

/* ---- the command line --------------------------------------------------- */

static void
test_cli_info_on_cpu (void **state)
{
  g_autofree char *path = write_cpu_trace ();
  Run text = run_cli ("info", path);
  Run json = run_cli ("info", "--format=json", path);
  g_autoptr(JsonObject) info = NULL;
  JsonArray *threads;
  gint64 worker_ns = -1, main_ns = -1;

  (void) state;
  assert_int_equal (text.status, 0);
  assert_non_null (strstr (text.out, "3 CPU samples, 3 ms on CPU\n"));
  assert_non_null (strstr (text.out, "13 CPU samples\n"));        /* the main thread: none */
  assert_non_null (strstr (text.out, "0 events, 2 ms on CPU\n"));   /* the stray thread */
  assert_int_equal (json.status, 0);
  info = parse_object (json.out, -1);
  threads = json_object_get_array_member (info, "threads");
  for (guint i = 0; i < json_array_get_length (threads); i++)
    {
      JsonObject *o = json_array_get_object_element (threads, i);

      if (json_object_get_int_member (o, "tid") == WORKER_TID)
        worker_ns = json_object_get_int_member (o, "on_cpu_ns");
      if (json_object_get_int_member (o, "tid") == MAIN_TID)
        main_ns = json_object_get_int_member (o, "on_cpu_ns");
    }
  assert_int_equal (worker_ns, 3 * MS);
  assert_int_equal (main_ns, 0);
  run_clear (&text);
  run_clear (&json);
  remove_trace (g_steal_pointer (&path));
}

/* The tooltip's words, in English and German. */
static void
test_tooltip_text (void **state)
{
  g_autofree char *samples = NULL, *switches = NULL, *one = NULL, *german = NULL;

  (void) state;
  samples = et_i18n_cpu_use (0.371f, 12, ET_CPU_FROM_SAMPLES);
  switches = et_i18n_cpu_use (1, 1, ET_CPU_FROM_SWITCHES);
  one = et_i18n_cpu_use (0.004f, 1, ET_CPU_FROM_SAMPLES);
  assert_string_equal (samples, "CPU 37 % (12 samples)");
  assert_string_equal (switches, "CPU 100 % by context switches (1 sample)");
  assert_string_equal (one, "CPU 0 % (1 sample)");
  g_setenv ("LANGUAGE", "de", TRUE);
  et_i18n_init ();
  german = et_i18n_cpu_use (0.371f, 12, ET_CPU_FROM_SAMPLES);
  g_unsetenv ("LANGUAGE");
  assert_string_equal (german, "CPU 37 % (12 Stichproben)");
}

/* ---- the corpus --------------------------------------------------------- */

/* Of @thread, samples at @times (decoded), per column of [@from, @to) in
 * @n, counted one by one as the strip must count them. */
static void
check_columns (EtTrace *trace, guint thread, const GArray *times, gint64 from, gint64 to, guint n)
{
  g_autofree guint *want = g_new0 (guint, n);
  g_autofree guint *got = g_new0 (guint, n);
  g_autofree float *fraction = g_new0 (float, n);
  double width = (double) (to - from) / n;

  for (guint i = 0; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);

      if (t >= from && t < to)
        want[MIN ((guint) ((double) (t - from) / width), n - 1)]++;
    }
  et_trace_thread_cpu_use (trace, thread, from, to, n, fraction, got);
  for (guint c = 0; c < n; c++)
    if (got[c] != want[c])
      fail_msg ("thread %u, [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") in %u: column %u has %u"
                " samples, expected %u", thread, from, to, n, c, got[c], want[c]);
}

/* Every CPU sample of net.4.5.2.x64.etl (PerfInfo/Sample, decoded) is in
 * its thread's strip, whatever the columns; the busiest threads' samples
 * are in the columns their decoded times say, for the whole trace and for
 * ranges starting anywhere. */
static void
test_corpus_samples_in_strips (void **state)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = dir ? g_build_filename (dir, "net.4.5.2.x64.etl", NULL) : NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GArray) idle = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) busy = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 decoded = 0, in_strips = 0, in_columns = 0;
  guint counts[997];
  float fraction[997];
  gint64 end;

  (void) state;
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      print_message ("# corpus not found (ET_CORPUS_DIR=%s): net.4.5.2.x64.etl not checked\n",
                     dir ? dir : "unset");
      skip ();
      return;
    }
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      EtEvent e;

      if (!et_trace_decode_event (trace, i, &e, fields, NULL)
          || strcmp (e.name, "PerfInfo/Sample") != 0)
        continue;
      decoded++;
      if (e.has_ids && e.pid == 0 && e.tid == 0)
        g_array_append_val (idle, e.time_ns);
      if (e.has_ids && e.pid == 3676 && e.tid == 3680)
        g_array_append_val (busy, e.time_ns);
    }
  end = et_trace_get_duration_ns (trace) + 1;
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      guint one;
      float whole;
      guint64 sum = 0;

      et_trace_thread_cpu_use (trace, t, 0, end, 1, &whole, &one);
      et_trace_thread_cpu_use (trace, t, 0, end, G_N_ELEMENTS (counts), fraction, counts);
      for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
        {
          sum += counts[c];
          assert_true (fraction[c] >= 0 && fraction[c] <= 1);
          assert_true (counts[c] == 0 || fraction[c] > 0);
        }
      assert_int_equal (one, et_trace_get_thread (trace, t)->n_samples);
      assert_int_equal (sum, one);
      in_strips += one;
      in_columns += sum;
    }
  print_message ("# net.4.5.2.x64: %" G_GUINT64_FORMAT " samples decoded, %" G_GUINT64_FORMAT
                 " in the strips; sampling interval %" G_GINT64_FORMAT " ns\n",
                 decoded, in_strips, et_trace_sample_interval_ns (trace));
  assert_true (decoded > 70000);
  assert_int_equal (in_strips, decoded);
  assert_int_equal (in_columns, decoded);
  assert_false (et_trace_has_cswitches (trace));

  assert_true (idle->len > 70000 && busy->len > 5000);
  for (guint k = 0; k < 2; k++)
    {
      guint t = thread_index (trace, k ? 3676 : 0, k ? 3680 : 0);
      const GArray *times = k ? busy : idle;

      check_columns (trace, t, times, 0, end, 1600);
      for (gint64 from = 0; from < end; from += end / 13)
        check_columns (trace, t, times, from, from + end / 50, 333);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_fractions_from_samples),
    cmocka_unit_test (test_fractions_from_switches),
    cmocka_unit_test (test_many_switches),
    cmocka_unit_test (test_thread_across_cpus),
    cmocka_unit_test (test_read_on_every_core_as_on_one),
    cmocka_unit_test (test_both_ways_agree),
    cmocka_unit_test (test_both_ways_agree_on_the_corpus),
    cmocka_unit_test (test_strip_drawn_where_the_thread_ran),
    cmocka_unit_test (test_no_strip_without_cpu_data),
    cmocka_unit_test (test_threads_that_ran_are_shown),
    cmocka_unit_test (test_threads_by_cpu_use),
    cmocka_unit_test (test_cli_info_on_cpu),
    cmocka_unit_test (test_tooltip_text),
    cmocka_unit_test (test_corpus_samples_in_strips),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
