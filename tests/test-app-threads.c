/* GUI tests (under Xvfb) of the thread rows on a many-threads trace
 * (etlscope-fixture threads: 300 short-lived threads, 20–30 series each):
 * thread headers, collapse and expand by a click on the header, a click on
 * a merged marker, the arrow keys across merged rows, the thread order
 * and empty threads from the "timeline" actions, the choices remembered
 * for the trace, Ctrl+P "Go to Thread or Series", and compact rows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "et-timeline-render.h"
#include "et-timeline-threads.h"
#include "et-timeline-view.h"
#include "gui-test.h"
#include "et-trace-decode.h"

static char *threads_path;

static int
setup (void **state)
{
  if (setup_demo (state) != 0)
    return -1;
  threads_path = g_build_filename (gui_dir, "threads.etl", NULL);
  return run_fixture_tool ((const char *[]) { "threads", "20000", threads_path, NULL }) ? 0 : -1;
}

static int
teardown (void **state)
{
  g_clear_pointer (&threads_path, g_free);
  return teardown_demo (state);
}

static EtTimelineView *
timeline_of (EtWindow *window)
{
  return ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
}

/* The first thread header in view, from the top. */
static const EtRow *
first_thread_row (EtLayout *layout)
{
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_THREAD)
      return et_layout_row (layout, r);
  fail_msg ("no thread row");
  return NULL;
}

/* Clicks the label of @thread's header, as a person does. */
static void
click_header (EtWindow *window, guint thread)
{
  EtLayout *layout = et_window_get_layout (window);
  const EtViewport *v = et_window_get_viewport (window);
  const EtRow *row = et_layout_thread_row (layout, thread);

  assert_non_null (row);
  assert_true (row->y - v->scroll_y >= 0);
  et_timeline_view_select_at (timeline_of (window), 20, v->ruler_height + row->y - v->scroll_y + 4);
  wait_for_picture (window);
}

/* Every thread has a header; threads of more than three series start
 * collapsed; a click on a header expands it into its series' rows and
 * another collapses it again, and the choice is there when the trace is
 * opened again. */
static void
test_headers_collapse_and_expand_by_click (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  guint rows = et_layout_n_rows (layout), headers = 0, thread;

  for (guint r = 0; r < rows; r++)
    {
      const EtRow *row = et_layout_row (layout, r);

      assert_true (row->kind != ET_ROW_CHANNEL);   /* all collapsed: 20–30 series each */
      headers += row->kind == ET_ROW_THREAD;
    }
  assert_true (headers >= 295);
  thread = first_thread_row (layout)->index;
  assert_true (et_layout_get_thread_collapsed (layout, thread));

  click_header (window, thread);
  assert_false (et_layout_get_thread_collapsed (layout, thread));
  assert_int_equal (et_layout_n_rows (layout), rows + et_trace_get_thread (trace, thread)->n_channels);
  for (guint k = 0; k < et_trace_get_thread (trace, thread)->n_channels; k++)
    assert_int_equal (et_layout_channel_row (layout, et_trace_get_thread (trace, thread)->first_channel + k)->kind,
                      ET_ROW_CHANNEL);
  close_window (window);

  /* Remembered for this trace: expanded when it opens again. */
  window = open_window (threads_path);
  layout = et_window_get_layout (window);
  assert_false (et_layout_get_thread_collapsed (layout, thread));
  assert_int_equal (et_layout_get_thread_choice (layout, thread), 0);
  click_header (window, thread);
  assert_true (et_layout_get_thread_collapsed (layout, thread));
  assert_int_equal (et_layout_n_rows (layout), rows);
  close_window (window);
}

typedef struct
{
  const EtRow *row;
  EtLayout    *layout;
  GArray      *shapes;
} RowShapes;

static void
gather_row (const EtShape *s, gpointer data)
{
  RowShapes *r = data;

  if (et_layout_channel_row (r->layout, s->channel) == r->row)
    g_array_append_val (r->shapes, *s);
}

/* A click on a marker in a collapsed thread's merged row selects that
 * marker (of its own channel), and the details show it. */
static void
test_click_on_merged_marker_selects_it (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  g_autoptr(GArray) shapes = g_array_new (FALSE, FALSE, sizeof (EtShape));
  const EtRow *row = first_thread_row (layout);
  RowShapes r = { row, layout, shapes };
  const EtLayoutThread *t = et_layout_get_thread (layout, row->index);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *details = NULL;
  const EtShape *s = NULL;
  EtShape selected;

  /* Zoomed to the thread's life: its markers stand apart. */
  v->from_ns = t->first_ns;
  v->to_ns = t->last_ns;
  et_timeline_view_layout_changed (timeline);
  wait_for_picture (window);
  et_timeline_foreach_shape (trace, layout, v, gather_row, &r);
  assert_true (shapes->len > 10);
  /* The last single flag drawn: nothing lies over it. */
  for (guint i = shapes->len; i-- > 0 && s == NULL;)
    if (g_array_index (shapes, EtShape, i).kind == ET_SHAPE_FLAG)
      s = &g_array_index (shapes, EtShape, i);
  assert_non_null (s);
  assert_true (et_timeline_view_select_at (timeline, (s->x0 + s->x1) / 2, (s->y0 + s->y1) / 2));
  assert_true (et_timeline_view_get_selection (timeline, &selected));
  assert_ptr_equal (selected.m, s->m);
  assert_int_equal (selected.channel, s->channel);
  assert_ptr_equal (selected.m, &et_trace_get_channel (trace, selected.channel)->markers[selected.marker]);
  et_trace_marker_text (trace, s->m, text);
  details = et_window_get_details (window);
  assert_non_null (strstr (details, text->str));
  close_window (window);
}

/* Right walks a merged row in time order across its channels; Down goes
 * to the thread below. */
static void
test_arrows_walk_merged_rows (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtTimelineView *timeline = timeline_of (window);
  const EtRow *row = first_thread_row (layout);
  EtShape a, b;
  guint channels_seen = 0, last_channel = G_MAXUINT;

  assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.next-marker", NULL));
  assert_true (et_timeline_view_get_selection (timeline, &a));
  assert_ptr_equal (et_layout_channel_row (layout, a.channel), row);
  for (guint k = 0; k < 20; k++)
    {
      assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.next-marker", NULL));
      assert_true (et_timeline_view_get_selection (timeline, &b));
      assert_ptr_equal (et_layout_channel_row (layout, b.channel), row);
      assert_true (b.m->start_ns > a.m->start_ns
                   || (b.m->start_ns == a.m->start_ns && b.channel > a.channel));
      channels_seen += b.channel != last_channel;
      last_channel = b.channel;
      a = b;
    }
  assert_true (channels_seen > 3);      /* the walk crossed series */
  assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.marker-down", NULL));
  assert_true (et_timeline_view_get_selection (timeline, &b));
  assert_true (et_layout_channel_row (layout, b.channel)->y > row->y);
  assert_int_equal (et_layout_channel_row (layout, b.channel)->kind, ET_ROW_THREAD);
  assert_int_not_equal (et_trace_channel_thread (trace, b.channel), row->index);
  close_window (window);
}

/* The order of threads and the empty threads, from the row menu's
 * actions; a thread's row menu is there on its header. */
static void
test_order_and_empty_threads_from_the_menu (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  const EtRow *previous = NULL;
  guint rows = et_layout_n_rows (layout), empty = 0;

  assert_true (et_timeline_view_popup_channel_menu (timeline, 20,
                                                    v->ruler_height + first_thread_row (layout)->y + 4));
  assert_true (gtk_widget_get_visible (find_widget (GTK_WIDGET (timeline), GTK_TYPE_POPOVER_MENU)));
  gtk_popover_popdown (GTK_POPOVER (find_widget (GTK_WIDGET (timeline), GTK_TYPE_POPOVER_MENU)));

  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.thread-order", "s", "markers"));
  assert_int_equal (et_layout_get_thread_order (layout), ET_THREAD_ORDER_MARKERS);
  wait_for_picture (window);
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);

      if (row->kind == ET_ROW_PROCESS)
        previous = NULL;
      else if (row->kind == ET_ROW_THREAD)
        {
          if (previous != NULL)
            assert_true (et_layout_get_thread (layout, previous->index)->n_markers
                         >= et_layout_get_thread (layout, row->index)->n_markers);
          previous = row;
        }
    }
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.thread-order", "s", "name"));
  assert_int_equal (et_layout_get_thread_order (layout), ET_THREAD_ORDER_NAME);

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    empty += et_trace_get_thread (trace, t)->n_channels == 0;
  assert_true (empty > 0);
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.show-empty-threads", NULL));
  assert_true (et_layout_get_show_empty_threads (layout));
  assert_true (et_layout_n_rows (layout) >= rows + empty);
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.show-empty-threads", NULL));
  assert_int_equal (et_layout_n_rows (layout), rows);
  wait_for_picture (window);
  close_window (window);

  /* The order is remembered for the trace too; back to the default. */
  window = open_window (threads_path);
  layout = et_window_get_layout (window);
  assert_int_equal (et_layout_get_thread_order (layout), ET_THREAD_ORDER_NAME);
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.thread-order", "s",
                                           "first-activity"));
  assert_int_equal (et_layout_get_thread_order (layout), ET_THREAD_ORDER_FIRST_ACTIVITY);
  close_window (window);
}

static GtkEditable *
find_entry (EtTimelineView *timeline)
{
  GtkWidget *popover = et_timeline_view_get_find_popover (timeline);

  assert_non_null (popover);
  return GTK_EDITABLE (find_widget (popover, GTK_TYPE_SEARCH_ENTRY));
}

/* Ctrl+P (win.find-track): typing part of a thread's or a series' name
 * and Enter scrolls its row to the top; a series' thread is expanded. */
static void
test_go_to_thread_or_series (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  g_autoptr(GArray) matches = NULL;
  GtkEditable *entry;
  guint thread = G_MAXUINT;
  const EtRow *row;

  for (guint t = 0; t < et_trace_get_n_threads (trace) && thread == G_MAXUINT; t++)
    if (g_str_equal (et_trace_get_thread (trace, t)->name, "Request 201"))
      thread = t;
  assert_true (thread != G_MAXUINT);
  activate (window, "win.find-track");
  entry = find_entry (timeline);
  RUN_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (entry)));
  gtk_editable_set_text (entry, "request 201");
  g_signal_emit_by_name (entry, "activate");
  RUN_UNTIL (!gtk_widget_get_visible (et_timeline_view_get_find_popover (timeline)));
  row = et_layout_thread_row (layout, thread);
  assert_non_null (row);
  assert_int_equal (v->scroll_y, row->y);
  wait_for_picture (window);

  /* A series: the first thread (in trace order) with "Series 07". */
  matches = et_timeline_threads_match (layout, trace, "series 07", 5);
  assert_true (matches->len > 0);
  thread = g_array_index (matches, EtTrackMatch, 0).thread;
  assert_true (et_layout_get_thread_collapsed (layout, thread));
  activate (window, "win.find-track");
  gtk_editable_set_text (entry, "Series 07");
  g_signal_emit_by_name (entry, "activate");
  RUN_UNTIL (!gtk_widget_get_visible (et_timeline_view_get_find_popover (timeline)));
  assert_false (et_layout_get_thread_collapsed (layout, thread));
  row = et_layout_channel_row (layout, g_array_index (matches, EtTrackMatch, 0).channel);
  assert_int_equal (row->kind, ET_ROW_CHANNEL);
  assert_int_equal (v->scroll_y, row->y);
  wait_for_picture (window);
  et_layout_set_all_threads_collapsed (layout, -1);    /* nothing left remembered */
  et_timeline_view_rows_changed (timeline);
  close_window (window);
}

/* Thread headers wholly in view. */
static guint
headers_in_view (EtLayout *layout, const EtViewport *v)
{
  guint n = 0;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);

      n += row->kind == ET_ROW_THREAD && row->y >= v->scroll_y
           && row->y + row->height <= v->scroll_y + v->height - v->ruler_height;
    }
  return n;
}

/* The row at the top of the view. */
static guint
top_row_index (EtLayout *layout, const EtViewport *v)
{
  guint top = 0;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->y <= v->scroll_y)
      top = r;
  return top;
}

/* Compact Rows (Shift+Ctrl+R, the main menu) fits more than twice the
 * threads on a screen: lower lanes, a collapsed thread's markers in one
 * lane, flags inside it. The row at the top stays there, a click on a
 * merged flag still selects it, the choice is kept for new windows, and
 * turning it off gives the rows back. */
static void
test_compact_rows_fit_more_threads (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.etlscope.Etlscope");
  g_autoptr(GArray) shapes = g_array_new (FALSE, FALSE, sizeof (EtShape));
  RowShapes r = { NULL, layout, shapes };
  guint before, top, thread, flags = 0, loud = 0;
  gboolean deep = FALSE;
  const EtShape *flag = NULL;
  EtShape selected;
  EtWindow *other;

  /* Scrolled to the tenth thread's header. */
  for (guint k = 0, seen = 0; seen < 10; k++)
    if (et_layout_row (layout, k)->kind == ET_ROW_THREAD && ++seen == 10)
      v->scroll_y = et_layout_row (layout, k)->y;
  et_timeline_view_layout_changed (timeline);
  wait_for_picture (window);
  before = headers_in_view (layout, v);
  top = top_row_index (layout, v);
  for (guint k = 0; k < et_layout_n_rows (layout); k++)
    deep |= et_layout_row (layout, k)->lanes > 1;
  assert_true (deep);                  /* merged rows of several lanes to begin with */

  activate (window, "win.compact-rows");
  wait_for_picture (window);
  assert_true (et_timeline_view_get_compact (timeline));
  assert_true (g_settings_get_boolean (settings, "compact-rows"));
  assert_int_equal (v->lane_height, ET_LANE_HEIGHT_COMPACT);
  assert_int_equal (top_row_index (layout, v), top);
  assert_int_equal (et_layout_row (layout, top)->y, v->scroll_y);
  for (guint k = 0; k < et_layout_n_rows (layout); k++)
    if (et_layout_row (layout, k)->kind == ET_ROW_THREAD)
      assert_true (et_layout_row (layout, k)->lanes <= 1);
  assert_true (headers_in_view (layout, v) >= 2 * before);

  /* Every merged flag in view lies inside the row's one lane (under the
   * header's strip), whatever its importance; the last one drawn is
   * selected by a click on it. */
  thread = first_thread_row (layout)->index;
  r.row = et_layout_thread_row (layout, thread);
  v->scroll_y = 0;
  v->from_ns = et_layout_get_thread (layout, thread)->first_ns;
  v->to_ns = et_layout_get_thread (layout, thread)->last_ns;
  et_timeline_view_layout_changed (timeline);
  wait_for_picture (window);
  et_timeline_foreach_shape (trace, layout, v, gather_row, &r);
  for (guint i = 0; i < shapes->len; i++)
    {
      const EtShape *s = &g_array_index (shapes, EtShape, i);
      double lane_top = v->ruler_height + r.row->y - v->scroll_y + r.row->height - 2 - v->lane_height;

      if (s->kind != ET_SHAPE_FLAG)
        continue;
      flags++;
      loud += s->importance >= ET_IMPORTANCE_HIGH;
      flag = s;
      assert_true (s->y0 >= lane_top && s->y1 <= lane_top + v->lane_height);
    }
  assert_true (flags > 10);
  assert_true (loud > 0);
  assert_true (et_timeline_view_select_at (timeline, (flag->x0 + flag->x1) / 2, (flag->y0 + flag->y1) / 2));
  assert_true (et_timeline_view_get_selection (timeline, &selected));
  assert_ptr_equal (selected.m, flag->m);
  wait_for_picture (window);
  save_screenshot (window, "app-threads-compact-light.png");   /* docs/screenshots */

  /* A new window opens compact too. */
  other = open_window (threads_path);
  assert_int_equal (et_window_get_viewport (other)->lane_height, ET_LANE_HEIGHT_COMPACT);
  assert_true (et_layout_get_compact (et_window_get_layout (other)));
  close_window (other);

  activate (window, "win.compact-rows");
  wait_for_picture (window);
  assert_false (g_settings_get_boolean (settings, "compact-rows"));
  assert_int_equal (v->lane_height, ET_LANE_HEIGHT);
  deep = FALSE;
  for (guint k = 0; k < et_layout_n_rows (layout); k++)
    deep |= et_layout_row (layout, k)->lanes > 1;
  assert_true (deep);
  close_window (window);
}

/* Threads with a header whose life (as the layout knows it) meets the view,
 * and those without. */
static void
count_active (EtWindow *window, guint *shown, guint *alive)
{
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  const EtViewport *v = et_window_get_viewport (window);

  *shown = *alive = 0;
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      const EtLayoutThread *s = et_layout_get_thread (layout, t);
      gboolean lives = s->n_markers > 0 && s->first_ns <= v->to_ns
                       && (s->last_ns >= v->from_ns || et_trace_get_thread (trace, t)->open_to_end);

      *alive += lives;
      if (s->n_markers > 0)
        assert_int_equal (et_layout_thread_row (layout, t) != NULL, lives);
      *shown += et_layout_thread_row (layout, t) != NULL;
    }
}

/* Only Threads Active in View (the row menu): zoomed in, the headers are
 * the threads alive in the view, and they follow it as it pans; a marker
 * of another time is revealed with its thread's row, and Go to Thread
 * goes to the thread's time; the choice is remembered for the trace;
 * off, every thread is back. */
static void
test_only_threads_active_in_view (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  guint all = 0, shown, alive, before;
  gint64 span = et_trace_get_duration_ns (trace) / 40;
  const EtRow *row;

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    all += et_layout_thread_row (layout, t) != NULL;
  v->from_ns = et_trace_get_duration_ns (trace) / 2;
  v->to_ns = v->from_ns + span;
  et_timeline_view_layout_changed (timeline);
  activate (window, "timeline.active-threads");
  wait_for_picture (window);
  assert_true (et_layout_get_active_only (layout));
  count_active (window, &shown, &alive);
  assert_true (shown > 0 && shown < all / 4);
  before = shown;

  /* Panned by a whole view: other threads. */
  for (guint k = 0; k < 10; k++)
    activate (window, "timeline.pan-right");
  wait_for_picture (window);
  assert_true (v->from_ns > et_trace_get_duration_ns (trace) / 2 + span / 2);
  count_active (window, &shown, &alive);
  assert_true (shown > 0 && shown < all / 4);
  save_screenshot (window, "app-threads-active-light.png");   /* docs/screenshots */

  /* A marker of a thread without a row here (a search result, the list):
   * revealed, the view holds it and its thread's row is in sight. */
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_layout_thread_row (layout, t) == NULL && et_trace_get_thread (trace, t)->n_channels > 0)
      {
        guint c = et_trace_get_thread (trace, t)->first_channel;
        EtShape selected;

        et_timeline_view_reveal_marker (timeline, c, 0);
        wait_for_picture (window);
        assert_true (et_timeline_view_get_selection (timeline, &selected));
        assert_ptr_equal (selected.m, &et_trace_get_channel (trace, c)->markers[0]);
        row = et_layout_channel_row (layout, c);
        assert_non_null (row);
        assert_true (row->y >= v->scroll_y && row->y + row->height <= v->scroll_y + v->height);
        break;
      }
  /* Go to Thread (Ctrl+P) a thread without a row: the view goes to its
   * time, its header in sight. */
  for (guint t = et_trace_get_n_threads (trace); t-- > 0;)
    if (et_layout_thread_row (layout, t) == NULL && et_trace_get_thread (trace, t)->n_channels > 0)
      {
        et_timeline_threads_go_to (timeline, t, G_MAXUINT);
        wait_for_picture (window);
        row = et_layout_thread_row (layout, t);
        assert_non_null (row);
        assert_true (row->y >= v->scroll_y
                     && row->y + row->height <= v->scroll_y + v->height - v->ruler_height);
        break;
      }
  close_window (window);

  window = open_window (threads_path);
  layout = et_window_get_layout (window);
  trace = et_window_get_trace (window);
  assert_true (et_layout_get_active_only (layout));
  activate (window, "timeline.active-threads");
  wait_for_picture (window);
  assert_false (et_layout_get_active_only (layout));
  shown = 0;
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    shown += et_layout_thread_row (layout, t) != NULL;
  assert_int_equal (shown, all);
  assert_true (before < all);
  close_window (window);
}

/* A trace of many threads (1,500 here) opens with a bar offering compact
 * rows and only threads active in view: either one hides it, turned off
 * again it is back; closed, it stays closed for the trace. The 300-thread
 * trace has none. */
static void
test_many_threads_bar_offers_what_helps (void **state)
{
  g_autofree char *many = g_build_filename (gui_dir, "many-threads.etl", NULL);
  EtWindow *window = open_window (threads_path);
  GtkInfoBar *bar = et_window_get_threads_bar (window);
  GtkWidget *label;

  assert_false (gtk_info_bar_get_revealed (bar));
  close_window (window);
  assert_true (run_fixture_tool ((const char *[]) { "threads", "30000", many, "--threads", "1500",
                                                    NULL }));
  window = open_window (many);
  bar = et_window_get_threads_bar (window);
  assert_true (gtk_info_bar_get_revealed (bar));
  label = find_widget (GTK_WIDGET (bar), GTK_TYPE_LABEL);
  assert_non_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "threads with markers"));

  activate (window, "win.compact-rows");
  assert_false (gtk_info_bar_get_revealed (bar));
  activate (window, "win.compact-rows");
  assert_true (gtk_info_bar_get_revealed (bar));
  activate (window, "timeline.active-threads");
  assert_false (gtk_info_bar_get_revealed (bar));
  activate (window, "timeline.active-threads");
  assert_true (gtk_info_bar_get_revealed (bar));

  gtk_info_bar_response (bar, GTK_RESPONSE_CLOSE);
  assert_false (gtk_info_bar_get_revealed (bar));
  activate (window, "win.compact-rows");
  activate (window, "win.compact-rows");
  assert_false (gtk_info_bar_get_revealed (bar));
  close_window (window);
}

/* The window on the many-threads trace, light and dark, for
 * docs/screenshots: the first threads' stretch of time, the first thread
 * expanded into its series, the others merged, a merged marker selected. */
static void
test_screenshots_light_and_dark (void **state)
{
  EtWindow *window = open_window (threads_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = timeline_of (window);
  const EtRow *first = first_thread_row (layout);
  guint thread = first->index;
  g_autoptr(GArray) shapes = g_array_new (FALSE, FALSE, sizeof (EtShape));
  RowShapes r = { NULL, layout, shapes };
  GtkSettings *settings = gtk_settings_get_default ();

  v->from_ns = et_layout_get_thread (layout, thread)->first_ns;
  v->to_ns = v->from_ns + (et_layout_get_thread (layout, thread)->last_ns - v->from_ns) * 2;
  et_timeline_view_layout_changed (timeline);
  et_layout_set_thread_collapsed (layout, thread, FALSE);
  et_timeline_view_rows_changed (timeline);
  assert_false (et_layout_get_thread_collapsed (layout, thread));
  /* a flag in the first merged row below it */
  for (guint k = et_layout_row_index (layout, et_layout_thread_row (layout, thread)) + 1;
       r.row == NULL; k++)
    if (et_layout_row (layout, k)->kind == ET_ROW_THREAD)
      r.row = et_layout_row (layout, k);
  et_timeline_foreach_shape (trace, layout, v, gather_row, &r);
  for (guint i = shapes->len; i-- > 0;)
    if (g_array_index (shapes, EtShape, i).kind == ET_SHAPE_FLAG)
      {
        const EtShape *s = &g_array_index (shapes, EtShape, i);
        assert_true (et_timeline_view_select_at (timeline, (s->x0 + s->x1) / 2, (s->y0 + s->y1) / 2));
        break;
      }
  wait_for_picture (window);
  save_screenshot (window, "app-threads-light.png");
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  assert_true (v->dark);
  wait_for_picture (window);
  save_screenshot (window, "app-threads-dark.png");
  gtk_settings_reset_property (settings, "gtk-application-prefer-dark-theme");
  /* back to the default for the trace: nothing remembered */
  et_layout_set_all_threads_collapsed (layout, -1);
  et_timeline_view_rows_changed (timeline);
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_headers_collapse_and_expand_by_click),
    cmocka_unit_test (test_click_on_merged_marker_selects_it),
    cmocka_unit_test (test_arrows_walk_merged_rows),
    cmocka_unit_test (test_order_and_empty_threads_from_the_menu),
    cmocka_unit_test (test_go_to_thread_or_series),
    cmocka_unit_test (test_compact_rows_fit_more_threads),
    cmocka_unit_test (test_only_threads_active_in_view),
    cmocka_unit_test (test_many_threads_bar_offers_what_helps),
    cmocka_unit_test (test_screenshots_light_and_dark),
  };
  return cmocka_run_group_tests_name ("app-threads", tests, setup, teardown);
}
