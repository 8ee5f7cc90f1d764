/* test-app-stats.c — the Statistics report under Xvfb: a range dragged on
 * the ruler brings it up with the statistics of that range, which must be
 * those counted here by hand from the model (what starts in [from, to);
 * spans with both ends; nearest-rank percentiles; mean rounded to nearest,
 * halves up); its headers sort it; the filters change it; without a range
 * it shows the visible one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "et-stats-pane.h"
#include "et-timeline-view.h"
#include "gui-test.h"

/* ---- by hand ------------------------------------------------------------- */

typedef struct
{
  guint64 count;
  GArray *durations;    /* gint64 */
} Tally;

static void
tally_free (gpointer data)
{
  Tally *t = data;

  g_array_unref (t->durations);
  g_free (t);
}

static char *
row_key (guint provider, guint32 series, guint kind)
{
  return g_strdup_printf ("%u/%u/%u", provider, series, kind);
}

/* What starts in [@from, @to) on the rows shown, of the providers not
 * in @hidden (-1: none): key → Tally. */
static GHashTable *
count_by_hand (EtTrace *trace, gint64 from, gint64 to, gint hidden)
{
  GHashTable *tallies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, tally_free);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (!et_trace_get_provider (trace, et_channel_provider (ch))->default_on || (gint) et_channel_provider (ch) == hidden)
        continue;
      for (guint i = 0; i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          gboolean span = m->kind == ET_MARKER_SPAN;
          char *key;
          Tally *t;
          gint64 d = m->end_ns - m->start_ns;

          if (m->start_ns < from || m->start_ns >= to
              || (span && (m->status == ET_SPAN_UNMATCHED_START
                           || m->status == ET_SPAN_UNMATCHED_END)))
            continue;
          key = row_key (et_channel_provider (ch), ch->series, m->kind);
          t = g_hash_table_lookup (tallies, key);
          if (t == NULL)
            {
              t = g_new0 (Tally, 1);
              t->durations = g_array_new (FALSE, FALSE, sizeof (gint64));
              g_hash_table_insert (tallies, key, t);
            }
          else
            g_free (key);
          t->count++;
          if (span)
            g_array_append_val (t->durations, d);
        }
    }
  return tallies;
}

static int
compare_i64 (const void *pa, const void *pb)
{
  gint64 a = *(const gint64 *) pa, b = *(const gint64 *) pb;

  return a < b ? -1 : a > b;
}

static gint64
nearest_rank (GArray *sorted, guint p)
{
  return g_array_index (sorted, gint64, ((guint64) p * sorted->len + 99) / 100 - 1);
}

static void
assert_row_counted (const EtStatsRow *row, Tally *t)
{
  gint64 total = 0;
  guint n;

  assert_non_null (t);
  assert_int_equal (row->count, t->count);
  if (row->kind != ET_MARKER_SPAN)
    return;
  n = t->durations->len;
  qsort (t->durations->data, n, sizeof (gint64), compare_i64);
  for (guint i = 0; i < n; i++)
    total += g_array_index (t->durations, gint64, i);
  assert_int_equal (row->total_ns, total);
  assert_int_equal (row->min_ns, g_array_index (t->durations, gint64, 0));
  assert_int_equal (row->max_ns, g_array_index (t->durations, gint64, n - 1));
  assert_int_equal (row->mean_ns, (2 * total + (gint64) n) / (2 * (gint64) n));
  assert_int_equal (row->p50_ns, nearest_rank (t->durations, 50));
  assert_int_equal (row->p90_ns, nearest_rank (t->durations, 90));
  assert_int_equal (row->p99_ns, nearest_rank (t->durations, 99));
}

/* Every row of the pane is a tally made by hand, and every tally a row. */
static void
assert_pane_counts (EtStatsPane *pane, EtTrace *trace, gint64 from, gint64 to, gint hidden)
{
  g_autoptr(GHashTable) tallies = count_by_hand (trace, from, to, hidden);
  guint n = et_stats_pane_get_n_rows (pane), spans = 0;

  assert_true (n > 0);
  assert_int_equal (n, g_hash_table_size (tallies));
  for (guint r = 0; r < n; r++)
    {
      const EtStatsRow *row = et_stats_pane_get_row (pane, r);
      g_autofree char *key = row_key (row->provider, row->series, row->kind);

      assert_row_counted (row, g_hash_table_lookup (tallies, key));
      spans += row->kind == ET_MARKER_SPAN;
    }
  assert_true (spans > 0);
}

/* ---- the window ----------------------------------------------------------- */

static gboolean
pane_shows (EtStatsPane *pane, gint64 from, gint64 to)
{
  gint64 f, t;

  return et_stats_pane_get_range (pane, &f, &t) && f == from && t == to;
}

/* The visible range as the reports take it: within the trace (the whole
 * trace's view has a margin). */
static gboolean
pane_shows_view (EtStatsPane *pane, EtWindow *window)
{
  const EtViewport *v = et_window_get_viewport (window);

  return pane_shows (pane, MAX (v->from_ns, 0),
                     MIN (v->to_ns, et_trace_get_duration_ns (et_window_get_trace (window))));
}

static EtStatsPane *
stats_pane (EtWindow *window)
{
  return ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
}

/* Dragging on the ruler brings up the Statistics tab with the counts of
 * the dragged range, by hand; the default order is "most time first". */
static void
test_ruler_drag_shows_range_statistics (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  GtkWidget *timeline = find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW);
  EtStatsPane *pane = stats_pane (window);
  double x0 = v->label_width + 150, x1 = x0 + 500;
  gint64 from = et_viewport_time (v, x0), to = et_viewport_time (v, x1);
  guint n;

  assert_false (gtk_widget_get_mapped (GTK_WIDGET (pane)));   /* the Markers tab is up */
  drag_on (timeline, x0, v->ruler_height / 2.0, x1 - x0);
  RUN_UNTIL (pane_shows (pane, from, to) && !et_window_is_busy (window));
  assert_true (gtk_widget_get_mapped (GTK_WIDGET (pane)));
  assert_pane_counts (pane, et_window_get_trace (window), from, to, -1);

  n = et_stats_pane_get_n_rows (pane);
  for (guint r = 1; r < n; r++)
    {
      const EtStatsRow *a = et_stats_pane_get_row (pane, r - 1), *b = et_stats_pane_get_row (pane, r);
      gint64 ta = a->kind == ET_MARKER_SPAN ? a->total_ns : -1;
      gint64 tb = b->kind == ET_MARKER_SPAN ? b->total_ns : -1;

      assert_true (ta >= tb);
    }
  /* Flags and messages have no durations to show. */
  for (guint r = 0; r < n; r++)
    if (et_stats_pane_get_row (pane, r)->kind != ET_MARKER_SPAN)
      {
        g_autofree char *text = et_stats_pane_cell_text (pane, r, ET_STATS_COL_P99);
        assert_string_equal (text, "\342\200\224");
      }
  save_screenshot (window, "app-stats.png");
  close_window (window);
}

/* Clicking a header sorts by it, either way. */
static void
test_headers_sort (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                            ET_TYPE_TIMELINE_VIEW));
  EtStatsPane *pane = stats_pane (window);
  EtTrace *trace = et_window_get_trace (window);
  guint n;

  et_timeline_view_select_range (timeline, v->from_ns, v->to_ns);
  RUN_UNTIL (pane_shows_view (pane, window) && !et_window_is_busy (window));
  n = et_stats_pane_get_n_rows (pane);
  assert_true (n > 3);

  et_stats_pane_set_sort (pane, ET_STATS_COL_COUNT, FALSE);
  for (guint r = 1; r < n; r++)
    assert_true (et_stats_pane_get_row (pane, r - 1)->count <= et_stats_pane_get_row (pane, r)->count);
  et_stats_pane_set_sort (pane, ET_STATS_COL_P90, TRUE);
  for (guint r = 1; r < n; r++)
    {
      const EtStatsRow *a = et_stats_pane_get_row (pane, r - 1), *b = et_stats_pane_get_row (pane, r);

      if (b->kind == ET_MARKER_SPAN)
        assert_true (a->kind == ET_MARKER_SPAN && a->p90_ns >= b->p90_ns);
    }
  et_stats_pane_set_sort (pane, ET_STATS_COL_PROVIDER, FALSE);
  for (guint r = 1; r < n; r++)
    assert_true (g_utf8_collate (
                   et_trace_get_provider (trace, et_stats_pane_get_row (pane, r - 1)->provider)->name,
                   et_trace_get_provider (trace, et_stats_pane_get_row (pane, r)->provider)->name)
                 <= 0);
  close_window (window);
}

/* A provider unticked in the filters leaves the statistics; without a
 * selected range the report counts the visible one. */
static void
test_filters_and_visible_range (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtStatsPane *pane = stats_pane (window);
  EtTrace *trace = et_window_get_trace (window);
  guint hidden = et_stats_pane_get_n_rows (pane);   /* nothing counted while hidden */

  assert_int_equal (hidden, 0);
  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (pane_shows_view (pane, window) && !et_window_is_busy (window)
             && et_stats_pane_get_n_rows (pane) > 0);
  assert_pane_counts (pane, trace, v->from_ns, v->to_ns, -1);

  hidden = et_stats_pane_get_row (pane, 0)->provider;
  et_window_set_provider_visible (window, hidden, FALSE);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_pane_counts (pane, trace, v->from_ns, v->to_ns, (gint) hidden);
  close_window (window);
}

/* A span row's duration histogram (its bars hold every counted span), and
 * a range of its bars dragged: the Markers report lists exactly the spans
 * of that series whose durations fall in it (Tracy's "find zone"); Show
 * All Markers lists the range again (issue 23). */
static void
test_histogram_range_lists_those_spans (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtStatsPane *pane = stats_pane (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  EtTrace *trace = et_window_get_trace (window);
  const EtStatsHistogram *h;
  const EtStatsRow *row = NULL;
  guint r, first, last, all;
  guint64 in_bins = 0;

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (pane_shows_view (pane, window) && !et_window_is_busy (window)
             && et_stats_pane_get_n_rows (pane) > 0);
  all = et_markers_list_get_n_rows (list);
  r = select_span_row (pane);
  row = et_stats_pane_get_row (pane, r);
  assert_non_null (et_stats_pane_get_histogram (pane));
  h = et_histogram_view_get_histogram (et_stats_pane_get_histogram (pane));
  assert_non_null (h);
  assert_int_equal (h->n, row->count);
  wait_for_frame (GTK_WIDGET (pane));
  save_screenshot (window, "app-histogram.png");

  /* The middle third of the bars (at least one with spans in it). */
  first = h->n_bins / 3, last = 2 * h->n_bins / 3;
  for (guint b = first; b <= last; b++)
    in_bins += h->counts[b];
  assert_true (in_bins > 0);
  et_histogram_view_select_bins (et_stats_pane_get_histogram (pane), first, last);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_true (gtk_widget_get_mapped (GTK_WIDGET (list)));
  assert_non_null (et_markers_list_get_zone (list));
  assert_int_equal (et_markers_list_get_n_rows (list), in_bins);
  for (guint k = 0; k < et_markers_list_get_n_rows (list); k++)
    {
      guint channel, index;
      const EtMarker *m;

      assert_true (et_markers_list_get_row (list, k, &channel, &index));
      m = &et_trace_get_channel (trace, channel)->markers[index];
      assert_int_equal (et_trace_get_channel (trace, channel)->series, row->series);
      assert_true (m->end_ns - m->start_ns >= h->edges[first]);
      assert_true (m->end_ns - m->start_ns < h->edges[last + 1]);
    }
  et_markers_list_set_zone (list, NULL);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_int_equal (et_markers_list_get_n_rows (list), all);
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_ruler_drag_shows_range_statistics),
    cmocka_unit_test (test_headers_sort),
    cmocka_unit_test (test_filters_and_visible_range),
    cmocka_unit_test (test_histogram_range_lists_those_spans),
  };
  return cmocka_run_group_tests_name ("app-stats", tests, setup_demo, teardown_demo);
}
