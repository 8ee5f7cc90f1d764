/* test-churn.c — the thread-churn shape (etlscope-fixture churn, issue 36)
 * holds the figures of the server trace it stands in for, as the loaded
 * model sees them: 4,645 threads per million events with about 12 alive
 * at once, 154 series, 3 TraceLogging providers, 49 event names and
 * about 370 payload layouts, spans, flags and messages all present.
 *
 * The expected figures are the (its first table row), not read
 * from the generator; the counts come from the model and from decoding
 * every event again, never from the fixture's tables. The bench
 * (tests/bench/run) times this shape; this test only says it is the shape
 * the bench claims.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "et-fixture.h"
#include "et-trace.h"
#include "et-trace-decode.h"
#include "et-trace-load.h"

/* 200,000 events: a fifth of the million, so 4,645 / 5 threads. */
#define N_EVENTS 200000
#define N_THREADS 929

static EtTrace *trace;
static char *dir;
static char *path;

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;

  dir = g_dir_make_tmp ("et-churn-XXXXXX", NULL);
  path = g_build_filename (dir, "churn.etl", NULL);
  if (!et_fixture_write_churn (path, N_EVENTS, 1, NULL, &error))
    return -1;
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  return trace != NULL ? 0 : -1;
}

static int
teardown (void **state)
{
  g_clear_object (&trace);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  return 0;
}

static const EtProcess *
server_process (void)
{
  for (guint p = 0; p < et_trace_get_n_processes (trace); p++)
    if (g_strcmp0 (et_trace_get_process (trace, p)->name, "Contoso.Server.exe") == 0)
      return et_trace_get_process (trace, p);
  fail_msg ("no Contoso.Server.exe process");
  return NULL;
}

static gint
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The most threads alive at one time, and the mean over the trace's
 * events, a thread being alive from its first marker to the latest time
 * its markers reach: a sweep over the starts (+1) and ends (−1). */
static void
threads_alive (const EtProcess *proc, guint *most, double *mean)
{
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint alive = 0;
  double area = 0;
  gint64 last = 0;

  for (guint i = 0; i < proc->n_threads; i++)
    {
      EtThreadSummary s = et_trace_thread_summary (trace, proc->first_thread + i);
      gint64 start = s.first_ns * 2 + 1, end = s.last_ns * 2;   /* ends first at a tie */

      assert_true (s.n_markers > 0);
      g_array_append_val (edges, start);
      g_array_append_val (edges, end);
    }
  g_array_sort (edges, compare_i64);
  *most = 0;
  for (guint i = 0; i < edges->len; i++)
    {
      gint64 e = g_array_index (edges, gint64, i);

      area += (double) alive * (double) (e / 2 - last);
      last = e / 2;
      alive += (e & 1) ? 1 : -1;
      *most = MAX (*most, (guint) alive);
    }
  *mean = area / (double) et_trace_get_duration_ns (trace);
}

static void
test_threads_churn (void **state)
{
  const EtProcess *proc = server_process ();
  guint most;
  double mean;

  assert_int_equal (proc->n_threads, N_THREADS);
  threads_alive (proc, &most, &mean);
  print_message ("# threads alive at once: at most %u, %.1f on average\n", most, mean);
  assert_in_range (most, 10, 16);
  assert_true (mean > 9.0 && mean < 13.0);
}

static void
test_providers_and_series (void **state)
{
  guint tracelogging = 0, n_series = 0;
  const guint32 *series = et_trace_get_series (trace, &n_series);

  for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
    if (et_trace_get_provider (trace, p)->kind == ET_PROVIDER_TRACELOGGING)
      tracelogging++;
  assert_int_equal (tracelogging, 3);
  assert_int_equal (n_series, 154);
  for (guint i = 0; i < n_series; i++)
    assert_true (g_str_has_prefix (et_trace_get_string (trace, series[i]), "Stage "));
  assert_int_equal (et_trace_get_stats (trace)->decode_failures, 0);
  assert_int_equal (et_trace_get_stats (trace)->damage_count, 0);
}

/* "provider/name" of every TraceLogging event in @types, and with its
 * field names ("provider/name:f1,f2,…") in @layouts. */
static void
collect_types (GHashTable *types, GHashTable *layouts)
{
  EtFields *fields = et_fields_new ();
  g_autoptr(GString) key = g_string_new (NULL);

  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      g_autoptr(GError) error = NULL;
      EtEvent ev;

      assert_true (et_trace_decode_event (trace, i, &ev, fields, &error));
      if (et_trace_get_provider (trace, ev.provider)->kind != ET_PROVIDER_TRACELOGGING)
        continue;
      g_string_printf (key, "%s/%s", et_trace_get_provider (trace, ev.provider)->name, ev.name);
      g_hash_table_add (types, g_strdup (key->str));
      g_string_append_c (key, ':');
      for (guint f = 0; f < fields->n_entries; f++)
        if (!fields->entries[f].derived)
          g_string_append_printf (key, "%s,", fields->entries[f].name);
      g_hash_table_add (layouts, g_strdup (key->str));
    }
  et_fields_free (fields);
}

static void
test_event_types_and_layouts (void **state)
{
  g_autoptr(GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  collect_types (types, layouts);
  print_message ("# %u event types, %u payload layouts\n", g_hash_table_size (types),
                  g_hash_table_size (layouts));
  assert_int_equal (g_hash_table_size (types), 49);
  /* "~370" in the issue: the shape has exactly that many. */
  assert_int_equal (g_hash_table_size (layouts), 370);
}

static void
test_every_kind_of_marker (void **state)
{
  guint64 kinds[3] = { 0 }, channels = 0, markers = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      for (guint m = 0; m < ch->n_markers; m++)
        kinds[ch->markers[m].kind]++;
      channels++;
      markers += ch->n_markers;
    }
  print_message ("# %" G_GUINT64_FORMAT " markers in %" G_GUINT64_FORMAT " channels "
                  "(spans %" G_GUINT64_FORMAT ", flags %" G_GUINT64_FORMAT
                  ", messages %" G_GUINT64_FORMAT ")\n", markers, channels,
                  kinds[ET_MARKER_SPAN], kinds[ET_MARKER_FLAG], kinds[ET_MARKER_MESSAGE]);
  for (guint k = 0; k < 3; k++)
    assert_true (kinds[k] > markers / 10);
  /* About two markers per channel, as on the server (1.9): a channel lives
   * on one short-lived thread only. */
  assert_true (markers > channels * 3 / 2 && markers < channels * 5 / 2);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_threads_churn),
    cmocka_unit_test (test_providers_and_series),
    cmocka_unit_test (test_event_types_and_layouts),
    cmocka_unit_test (test_every_kind_of_marker),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
