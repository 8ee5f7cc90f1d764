/* GUI tests (under Xvfb) of what the peers' users expect (issue 34,
 * items 12, 15, 16): processes by first activity, a duration filter as a
 * chip, Collapse / Expand All, the
 * histogram beside the statistics with its bars' tooltips, bookmarks named
 * and removed alone, a collapsed process's header drawn with its threads'
 * markers (one chosen there by a click). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include "et-bookmarks.h"
#include "et-cpu-strip.h"
#include "et-histogram-view.h"
#include "et-report-table.h"
#include "et-stats-pane.h"
#include "et-timeline-view.h"
#include "et-window.h"
#include "gui-test.h"

/* The first activity of process row @r's threads. */
static gint64
process_first_ns (EtLayout *layout, EtTrace *trace, guint r)
{
  const EtProcess *p = et_trace_get_process (trace, et_layout_row (layout, r)->index);
  gint64 first = G_MAXINT64;

  for (guint k = 0; k < p->n_threads; k++)
    if (et_layout_get_thread (layout, p->first_thread + k)->n_markers > 0)
      first = MIN (first, et_layout_get_thread (layout, p->first_thread + k)->first_ns);
  return first;
}

/* Item 15: processes are ordered as their threads are, by first
 * activity (the demo's Contoso.Jobs.exe, pid 6044, begins before
 * csc.exe, pid 5312). */
static void
test_processes_follow_first_activity (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  gint64 last = G_MININT64;
  guint processes = 0, out_of_pid_order = 0, last_pid = 0;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS)
      {
        gint64 first = process_first_ns (layout, trace, r);
        guint pid = et_trace_get_process (trace, et_layout_row (layout, r)->index)->pid;

        if (first < last)
          fail_msg ("process %u (first activity %" G_GINT64_FORMAT " ns) is under one that "
                    "began at %" G_GINT64_FORMAT " ns", pid, first, last);
        out_of_pid_order += pid < last_pid;
        last = first, last_pid = pid, processes++;
      }
  assert_true (processes >= 3);
  assert_true (out_of_pid_order > 0);       /* the demo's order is not the pids' */
  close_window (window);
}


/* Item 12: spans chosen on a duration histogram show as a chip over the
 * Markers report; Escape ends the filter (before the selection), and so
 * does a new search. */
static void
test_duration_filter_is_a_chip_escape_ends (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  GtkWidget *stats = find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE);
  const EtChannel *ch = NULL;
  GtkLabel *chip;

  for (guint c = 0; c < et_trace_get_n_channels (trace) && ch == NULL; c++)
    if (g_str_equal (et_trace_get_string (trace, et_trace_get_channel (trace, c)->series), "Request"))
      ch = et_trace_get_channel (trace, c);
  assert_non_null (ch);
  g_signal_emit_by_name (stats, "find-spans", (guint) et_channel_provider (ch), (guint) ch->series,
                         (gint64) 1000000, (gint64) 3000000);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_non_null (et_markers_list_get_zone (list));
  chip = find_label (GTK_WIDGET (list), "Request: ");
  assert_non_null (chip);
  assert_true (gtk_widget_is_visible (GTK_WIDGET (chip)));
  assert_says (gtk_label_get_text (chip), "1 ms to 3 ms");
  save_screenshot (window, "app-habits-chip.png");

  /* Escape from the report: the filter goes, the selection stays. */
  et_markers_list_select_row (list, 0);
  gtk_widget_grab_focus (GTK_WIDGET (window_report (window)));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_null (et_markers_list_get_zone (list));
  assert_false (gtk_widget_is_visible (GTK_WIDGET (chip)));
  assert_true (et_timeline_view_get_selection (window_timeline (window), NULL));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_false (et_timeline_view_get_selection (window_timeline (window), NULL));

  /* A new search lists its hits wherever they are. */
  g_signal_emit_by_name (stats, "find-spans", (guint) et_channel_provider (ch), (guint) ch->series,
                         (gint64) 1000000, (gint64) 3000000);
  assert_non_null (et_markers_list_get_zone (list));
  et_window_search (window, "GET");
  assert_null (et_markers_list_get_zone (list));
  RUN_UNTIL (!et_window_is_busy (window));
  close_window (window);
}

/* Item 16: Collapse All Threads gives one row per thread; Expand All
 * Threads opens every thread and process. */
static void
test_collapse_and_expand_all_threads (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  guint threads = 0, channels = 0;

  activate (window, "timeline.collapse-all-threads");
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);

      threads += row->kind == ET_ROW_THREAD;
      channels += row->kind == ET_ROW_CHANNEL;
      if (row->kind == ET_ROW_THREAD)
        assert_true (et_layout_get_thread_collapsed (layout, row->index));
    }
  assert_true (threads > 3);
  assert_int_equal (channels, 0);
  activate (window, "timeline.expand-all-threads");
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_layout_thread_row (layout, t) != NULL)
      assert_false (et_layout_get_thread_collapsed (layout, t));
  for (guint p = 0; p < et_trace_get_n_processes (trace); p++)
    assert_false (et_layout_get_collapsed (layout, p));
  close_window (window);
}

/* Item 16: a span row's histogram opens beside the Statistics table,
 * which keeps its rows; each bar's tooltip gives its spans and their
 * durations. */
static void
test_histogram_keeps_the_table_and_tells_its_bars (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtStatsPane *pane = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  EtReportTable *table = ET_REPORT_TABLE (find_widget (GTK_WIDGET (pane), ET_TYPE_REPORT_TABLE));
  EtHistogramView *view;
  const EtStatsHistogram *h;
  g_autofree char *tip = NULL;
  guint first, end, b = 0;

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (!et_window_is_busy (window) && et_stats_pane_get_n_rows (pane) > 5);
  select_span_row (pane);
  view = et_stats_pane_get_histogram (pane);
  wait_for_picture (window);
  wait_for_frame (GTK_WIDGET (view));
  et_report_table_get_visible (table, &first, &end);
  if (end - first < 5)
    fail_msg ("with the histogram open the table shows %u rows", end - first);
  h = et_histogram_view_get_histogram (view);
  while (h->counts[b] == 0)
    b++;
  tip = et_histogram_view_tooltip_at (view, (b + 0.5) * gtk_widget_get_width (GTK_WIDGET (view))
                                            / h->n_bins);
  assert_non_null (tip);
  assert_says (tip, " lasting ");
  assert_true (g_str_has_prefix (tip, h->counts[b] == 1 ? "1 span" : ""));
  save_screenshot (window, "app-habits-histogram.png");
  close_window (window);
}

/* The bookmark window's name entry, once the rename action opened it. */
static GtkEditable *
bookmark_name_entry (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!ET_IS_WINDOW (w) && g_str_has_prefix (gtk_window_get_title (w), "Name the Bookmark"))
        return GTK_EDITABLE (find_widget (GTK_WIDGET (w), GTK_TYPE_ENTRY));
    }
  return NULL;
}

/* Item 16: a bookmark can be named and removed alone; both are kept
 * beside the trace. */
static void
test_bookmarks_are_named_and_removed_alone (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "named.etl", NULL);
  g_autofree char *sidecar = g_strconcat (path, ".bookmarks", NULL);
  g_autofree char *bytes = NULL;
  g_autoptr(EtBookmarks) kept = NULL;
  EtTimelineView *timeline;
  GtkEditable *entry;
  EtWindow *window;
  gsize len;

  assert_true (g_file_get_contents (gui_demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  window = open_window (path);
  timeline = window_timeline (window);
  et_timeline_view_select_range (timeline, 1000000000, 1500000000);
  activate (window, "win.add-bookmark");
  et_timeline_view_select_range (timeline, 2000000000, 2500000000);
  activate (window, "win.add-bookmark");
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.rename-bookmark", "x",
                                           (gint64) 2000000000));
  entry = bookmark_name_entry ();
  assert_non_null (entry);
  gtk_editable_set_text (entry, "  slow checkout ");
  g_signal_emit_by_name (entry, "activate");
  drain_events ();
  assert_null (bookmark_name_entry ());
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-bookmark", "x",
                                           (gint64) 1000000000));
  close_window (window);

  kept = et_bookmarks_load (path);
  assert_int_equal (et_bookmarks_n (kept), 1);
  assert_int_equal (et_bookmarks_get (kept, 0), 2000000000);
  assert_string_equal (et_bookmarks_get_name (kept, 0), "slow checkout");
  g_unlink (sidecar);
  g_unlink (path);
}

/* Pixels of the plot side of a row (@top, @height) that differ in @a and
 * @b. */
static guint
row_pixels_apart (GBytes *a, GBytes *b, const EtViewport *v, int width, double top, int height)
{
  const guint8 *pa = g_bytes_get_data (a, NULL), *pb = g_bytes_get_data (b, NULL);
  guint n = 0;

  for (int y = (int) top + 1; y < (int) top + height - 1; y++)
    for (int x = v->label_width + 1; x < width; x++)
      n += memcmp (pa + ((gsize) y * width + x) * 4, pb + ((gsize) y * width + x) * 4, 3) != 0;
  return n;
}

static void
gather_shape (const EtShape *s, gpointer data)
{
  g_array_append_val ((GArray *) data, *s);
}

/* A single mark (a marker of its own, not merged with others) drawn in
 * @row and, clear of the marks drawn after it, clickable at its centre. */
static gboolean
lone_mark_in_row (EtWindow *window, const EtRow *row, EtShape *found)
{
  EtLayout *layout = et_window_get_layout (window);
  EtViewport *v = et_window_get_viewport (window);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));

  et_timeline_foreach_shape (et_window_get_trace (window), layout, v, gather_shape, all);
  for (guint i = all->len; i-- > 0;)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);
      double cx = (s->x0 + s->x1) / 2, cy = (s->y0 + s->y1) / 2;
      gboolean covered = FALSE;

      if (s->count != 1 || s->kind == ET_SHAPE_AGGREGATE || et_layout_channel_row (layout, s->channel) != row
          || cx < v->label_width + 4 || cx > v->width - 4)
        continue;
      for (guint j = i + 1; j < all->len && !covered; j++)
        {
          const EtShape *o = &g_array_index (all, EtShape, j);
          covered = cx >= o->x0 - 2 && cx <= o->x1 + 2 && cy >= o->y0 - 2 && cy <= o->y1 + 2;
        }
      if (!covered)
        {
          *found = *s;
          return TRUE;
        }
    }
  return FALSE;
}

/* Item 16: a collapsed process's header is not blank: its threads'
 * lifetime and where their markers start, as a thread's header shows,
 * and their markers merged under them, as a collapsed thread's row draws
 * its channels': a click on one of them there selects it. */
static void
test_collapsed_process_shows_its_markers (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtViewport *v = et_window_get_viewport (window);
  GtkWidget *timeline = GTK_WIDGET (window_timeline (window));
  g_autoptr(GBytes) open = NULL, collapsed = NULL;
  const EtRow *row = et_layout_row (layout, 0);
  double top = v->ruler_height + row->y - v->scroll_y;
  int height = row->height;
  guint apart;
  EtShape mark = { 0 }, chosen = { 0 };
  const EtThread *thread;

  assert_int_equal (row->kind, ET_ROW_PROCESS);
  v->scroll_y = 0;
  et_timeline_view_layout_changed (window_timeline (window));
  wait_for_picture (window);
  open = widget_pixels (timeline);
  et_window_select_at (window, v->label_width / 2, top + height / 2.0);
  assert_true (et_layout_get_collapsed (layout, et_layout_row (layout, 0)->index));
  wait_for_picture (window);
  collapsed = widget_pixels (timeline);
  apart = row_pixels_apart (open, collapsed, v, gtk_widget_get_width (timeline), top, height);
  if (apart < 200)
    fail_msg ("the collapsed process's header differs from the open one's in %u pixels", apart);
  row = et_layout_row (layout, 0);
  assert_true (row->lanes > 0);
  assert_true (lone_mark_in_row (window, row, &mark));
  thread = et_trace_get_thread (et_window_get_trace (window),
                                et_trace_channel_thread (et_window_get_trace (window), mark.channel));
  assert_int_equal (thread->process, row->index);
  assert_true (et_window_select_at (window, (mark.x0 + mark.x1) / 2, (mark.y0 + mark.y1) / 2));
  assert_true (et_timeline_view_get_selection (window_timeline (window), &chosen));
  assert_int_equal (chosen.channel, mark.channel);
  assert_int_equal (chosen.marker, mark.marker);
  wait_for_picture (window);
  save_screenshot (window, "app-habits-process-collapsed.png");

  top = v->ruler_height + row->y - v->scroll_y;
  et_window_select_at (window, v->label_width / 2, top + row->height / 2.0);
  close_window (window);
}

/* Item 16: a collapsed process's header draws its threads' CPU use (a
 * sampled thread, shown though it has no markers), in the CPU band's
 * green. */
static void
test_collapsed_process_shows_its_cpu (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "sampled-process.etl", NULL);
  g_autoptr(GBytes) pixels = NULL;
  EtWindow *window;
  EtLayout *layout;
  EtViewport *v;
  const EtRow *row = NULL;
  const guint8 *px;
  double rgb[3], top;
  int width;
  guint green = 0;

  write_sampled_thread (path);
  window = open_window (path);
  layout = et_window_get_layout (window);
  v = et_window_get_viewport (window);
  activate (window, "timeline.show-empty-threads");
  for (guint r = 0; r < et_layout_n_rows (layout) && row == NULL; r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS
        && et_trace_get_process (et_window_get_trace (window),
                                 et_layout_row (layout, r)->index)->pid == SAMPLED_PID)
      row = et_layout_row (layout, r);
  assert_non_null (row);
  top = v->ruler_height + row->y - v->scroll_y;
  et_window_select_at (window, v->label_width / 2, top + row->height / 2.0);
  assert_true (et_layout_get_collapsed (layout, row->index));
  wait_for_picture (window);
  pixels = widget_pixels (GTK_WIDGET (window_timeline (window)));
  px = g_bytes_get_data (pixels, NULL);
  width = gtk_widget_get_width (GTK_WIDGET (window_timeline (window)));
  et_cpu_strip_rgb (v, rgb);
  for (int y = (int) top; y < (int) top + row->height; y++)
    for (int x = v->label_width; x < width; x++)
      {
        const guint8 *p = px + ((gsize) y * width + x) * 4;   /* B, G, R, A */

        green += ABS (p[2] - rgb[0] * 255) < 8 && ABS (p[1] - rgb[1] * 255) < 8
                 && ABS (p[0] - rgb[2] * 255) < 8;
      }
  if (green == 0)
    fail_msg ("no CPU-use bar in the collapsed process's header");
  et_window_select_at (window, v->label_width / 2, top + row->height / 2.0);
  close_window (window);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_processes_follow_first_activity),
    cmocka_unit_test (test_duration_filter_is_a_chip_escape_ends),
    cmocka_unit_test (test_collapse_and_expand_all_threads),
    cmocka_unit_test (test_histogram_keeps_the_table_and_tells_its_bars),
    cmocka_unit_test (test_bookmarks_are_named_and_removed_alone),
    cmocka_unit_test (test_collapsed_process_shows_its_markers),
    cmocka_unit_test (test_collapsed_process_shows_its_cpu),
  };

  return cmocka_run_group_tests (tests, setup_demo, teardown_demo);
}
