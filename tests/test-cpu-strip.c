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
#include "et-layout.h"
#include "et-timeline-render.h"
#include "et-trace-cpu.h"
#include "et-trace.h"
#include "et-viewport.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

#define APP_PID    4120
#define MAIN_TID   4121
#define WORKER_TID 4122
#define STRAY_TID  4123
#define MS         1000000

/* The sampling interval the fixture sets: 0.25 ms, so a sample in a 1 ms
 * column is a quarter of it. */
#define INTERVAL_100NS 2500

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

/* Over [0, 10 ms), in 1 ms columns:
 * - the main thread has samples only: 2 in column 1, 1 in column 3, 4 in
 *   column 7 and 6 in column 8 (more than a column can hold);
 * - the worker is switched in at 2 ms, out at 2.5 ms, in at 4.25 ms and
 *   out at 6.75 ms (CPU 1), and has 3 samples;
 * - the stray thread's first switch takes it off CPU 2 at 1 ms (on since
 *   the start), and it is switched in again at 9 ms and never out (on
 *   until the trace's last event, at 10 ms). */
static char *
write_cpu_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", NULL);
  char *path = g_build_filename (dir, "cpu.etl", NULL);
  g_autoptr(EtFixtureWriter) w = NULL;
  static const gint64 main_samples[] = { 1200000, 1500000, 3100000, 7000000, 7250000, 7500000,
                                         7750000, 8000000, 8100000, 8200000, 8300000, 8400000,
                                         8500000 };
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
  assert_non_null (w);
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
  et_fixture_write_cswitch (w, 1, 4 * MS + MS / 4, WORKER_TID, 0);
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

/* Samples alone: count × 0.25 ms per 1 ms column, never more than all of it. */
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
  /* Zoomed in on column 1's two samples: 0.2 ms columns of 1.2–1.4 and 1.4–1.6 ms. */
  assert_int_equal (et_trace_thread_cpu_use (trace, main_thread, 1200000, 1600000, 2, fraction,
                                             samples), ET_CPU_FROM_SAMPLES);
  assert_int_equal (samples[0], 1);
  assert_int_equal (samples[1], 1);
  assert_columns (fraction, (const float[]) { 1, 1 }, 2);
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
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "many.etl", NULL);
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtTrace) trace = NULL;
  const gint64 gap = 6000 * (gint64) MS;
  EtFixtureOptions o;
  float fraction[4];
  guint t;

  (void) state;
  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
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
  g_unlink (path);
  g_rmdir (dir);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_fractions_from_samples),
    cmocka_unit_test (test_fractions_from_switches),
    cmocka_unit_test (test_many_switches),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
