/* GUI tests (under Xvfb): open traces written by the fixture tool in a
 * window, wait for loading, drive the timeline, list, filter and search
 * through their actions, check what the window shows, and save a
 * screenshot into the build folder (app-demo.png). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include "et-fixture.h"
#include "et-application.h"
#include "et-details.h"
#include "et-i18n.h"
#include "et-report-table.h"
#include "et-loader.h"
#include "et-timeline-render.h"
#include "et-timeline-view.h"
#include "et-window.h"
#include "gui-test.h"
#include "et-trace-decode.h"
#include "et-trace-load.h"

static char *dir;
static char *demo_path;

static int
setup (void **state)
{
  gtk_init ();
  dir = g_dir_make_tmp ("et-app-XXXXXX", NULL);
  demo_path = g_build_filename (dir, "demo.etl", NULL);
  return run_fixture_tool ((const char *[]) { "demo", demo_path, NULL }) ? 0 : -1;
}

static int
teardown (void **state)
{
  g_unlink (demo_path);
  g_rmdir (dir);
  g_free (demo_path);
  g_free (dir);
  return 0;
}

typedef struct
{
  EtShapeKind kind;
  gboolean    alert;       /* only flags with the alert category */
  gboolean    with_end;    /* only spans whose end event is known */
  EtShape     shape;
  gboolean    found;
} Find;

static void
find_shape (const EtShape *s, gpointer data)
{
  Find *f = data;

  if (f->found || s->kind != f->kind)
    return;
  if ((f->alert && s->m->category != ET_CATEGORY_ALERT) || (f->with_end && s->m->end_event == ET_NO_INDEX))
    return;
  f->shape = *s;
  f->found = TRUE;
}

static char *
event_name (EtTrace *trace, guint32 index)
{
  EtFields *fields = et_fields_new ();
  EtEvent ev;
  char *name;

  et_trace_decode_event (trace, index, &ev, fields, NULL);
  name = g_strdup (ev.name);
  et_fields_free (fields);
  return name;
}

/* The details pane cuts nothing at its right edge: long lines wrap, and
 * go on under their value's column (issue 23, item 4). Returns how many
 * lines wrapped. */
static guint
check_details_wrap (EtWindow *window)
{
  GtkTextView *view = GTK_TEXT_VIEW (find_widget (GTK_WIDGET (window), GTK_TYPE_TEXT_VIEW));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkAdjustment *h = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (view));
  guint wrapped = 0;

  wait_for_frame (GTK_WIDGET (view));
  assert_true (gtk_adjustment_get_upper (h) <= gtk_adjustment_get_page_size (h) + 0.5);
  for (int line = 0; line < gtk_text_buffer_get_line_count (buffer); line++)
    {
      GtkTextIter start, next, value;
      GdkRectangle at_value, at_next;
      g_autofree char *text = NULL;
      const char *p, *gap;

      gtk_text_buffer_get_iter_at_line (buffer, &start, line);
      next = start;
      if (gtk_text_iter_ends_line (&start) || !gtk_text_view_forward_display_line (view, &next)
          || gtk_text_iter_get_line (&next) != line)
        continue;                               /* one display line */
      wrapped++;
      value = start;
      gtk_text_iter_forward_to_line_end (&value);
      text = gtk_text_buffer_get_text (buffer, &start, &value, FALSE);
      for (p = text; *p == ' '; p++)
        ;
      gap = strstr (p, "  ");
      if (gap == NULL)
        continue;                               /* no label column */
      while (*gap == ' ')
        gap++;
      gtk_text_buffer_get_iter_at_line_offset (buffer, &value, line,
                                               (int) g_utf8_pointer_to_offset (text, gap));
      gtk_text_view_get_iter_location (view, &value, &at_value);
      gtk_text_view_get_iter_location (view, &next, &at_next);
      if (ABS (at_value.x - at_next.x) > 1)
        fail_msg ("details line %d goes on at x %d, its value starts at x %d: %s", line,
                  at_next.x, at_value.x, text);
    }
  return wrapped;
}

static void
test_zoom_actions_and_selection_show_details (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  gint64 duration, wide;
  g_autofree char *details = NULL, *name = NULL;
  Find f = { .kind = ET_SHAPE_FLAG, .alert = TRUE };

  assert_non_null (trace);
  duration = et_trace_get_duration_ns (trace);
  /* The whole trace, with a margin at each end (et-timeline-edges.h). */
  assert_true (v->from_ns < 0 && v->from_ns > -duration / 20);
  assert_int_equal (v->to_ns, duration - v->from_ns);
  assert_true (et_layout_n_rows (et_window_get_layout (window)) > 10);

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  assert_true (v->to_ns - v->from_ns < duration / 2);
  wide = v->to_ns - v->from_ns;
  activate (window, "timeline.zoom-out");
  assert_true (v->to_ns - v->from_ns > wide);
  activate (window, "timeline.zoom-in");

  /* An alert flag, clicked at its centre, fills the details pane. */
  scroll_to_process (window, DEMO_WEB_SERVER);
  et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_shape, &f);
  assert_true (f.found);
  assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                    (f.shape.y0 + f.shape.y1) / 2));
  details = et_window_get_details (window);
  name = event_name (trace, f.shape.m->event);
  assert_non_null (strstr (details, name));
  assert_non_null (strstr (details, "Why it looks like this"));
  assert_non_null (strstr (details, "critical"));
  assert_true (check_details_wrap (window) > 0);
  /* The hover tooltip says the same in a few lines. */
  {
    g_autoptr(GString) tip = g_string_new (NULL);

    et_details_summary (trace, f.shape.channel, f.shape.m, tip);
    assert_non_null (strstr (tip->str, "importance critical"));
    assert_non_null (strstr (tip->str, "thread "));
  }
  wait_for_picture (window);          /* the frame clock draws the new state */
  save_screenshot (window, "app-demo.png");

  /* Z zooms to the selection and keeps it selected. */
  activate (window, "timeline.zoom-selection");
  assert_true (v->to_ns - v->from_ns < wide);
  assert_true (v->from_ns <= f.shape.m->start_ns && f.shape.m->start_ns <= v->to_ns);
  assert_non_null (strstr (et_window_get_details (window), name));

  activate (window, "timeline.zoom-fit");
  assert_int_equal (v->to_ns, duration - v->from_ns);
  wide = v->from_ns;
  activate (window, "timeline.pan-right");
  assert_true (v->from_ns > wide);
  activate (window, "timeline.pan-left");
  assert_int_equal (v->from_ns, wide);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_timeline (GtkWidget *widget)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), g_type_from_name ("EtTimelineView")))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_timeline (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Fires the timeline's own key binding for @key (as pressing it with the
 * timeline focused does); FALSE when no binding has that key. */
static gboolean
press_on_timeline (GtkWidget *timeline, const char *key)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (timeline);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (trigger, key))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, timeline,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }
  return FALSE;
}

static void
test_plain_keys_on_the_timeline_zoom_and_pan (void **state)
{
  EtWindow *window = open_window (demo_path);
  GtkWidget *timeline = find_timeline (GTK_WIDGET (window));
  EtViewport *v = et_window_get_viewport (window);
  gint64 duration = et_trace_get_duration_ns (et_window_get_trace (window));

  assert_non_null (timeline);
  assert_true (press_on_timeline (timeline, "w"));
  assert_true (v->to_ns - v->from_ns < duration);
  assert_true (press_on_timeline (timeline, "d"));
  assert_true (v->from_ns > 0);
  assert_true (press_on_timeline (timeline, "a"));
  assert_true (press_on_timeline (timeline, "s"));
  assert_true (press_on_timeline (timeline, "Home"));
  assert_true (v->from_ns < 0 && v->from_ns > -duration / 20);      /* with its margin */
  assert_int_equal (v->to_ns, duration - v->from_ns);
  /* F fits a selected range, as Z does. */
  et_timeline_view_select_range (ET_TIMELINE_VIEW (timeline), duration / 4, duration / 2);
  assert_true (press_on_timeline (timeline, "f"));
  assert_true (v->from_ns <= duration / 4 && v->to_ns >= duration / 2);
  assert_true (v->to_ns - v->from_ns < duration / 2);
  close_window (window);
}

static void
test_go_to_end_centres_the_span_end (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  Find f = { .kind = ET_SHAPE_SPAN, .with_end = TRUE };
  g_autofree char *details = NULL;
  gint64 middle;

  et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_shape, &f);
  assert_true (f.found);
  et_window_reveal_marker (window, f.shape.channel, f.shape.marker);
  details = et_window_get_details (window);
  assert_non_null (strstr (details, "End event"));
  activate (window, "win.go-to-end");
  middle = v->from_ns + (v->to_ns - v->from_ns) / 2;
  assert_true (llabs (middle - f.shape.m->end_ns) <= (v->to_ns - v->from_ns) / 100 + 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Markers of [from, to] passing the layout's filters, counted by hand. */
static guint
count_visible (EtTrace *trace, EtLayout *layout, gint64 from, gint64 to)
{
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (!et_layout_get_provider_visible (layout, et_channel_provider (ch)))
        continue;
      for (guint i = 0; i < ch->n_markers; i++)
        n += et_marker_overlaps (&ch->markers[i], from, to)
             && et_layout_marker_visible (layout, &ch->markers[i]);
    }
  return n;
}

static gint64
row_duration (EtTrace *trace, EtMarkersList *list, guint row)
{
  guint channel, index;
  const EtMarker *m;

  assert_true (et_markers_list_get_row (list, row, &channel, &index));
  m = &et_trace_get_channel (trace, channel)->markers[index];
  return m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END ? m->end_ns - m->start_ns : 0;
}

/* The rows are the markers in strict time order (start, then event: a
 * total order), earliest first or last: no marker twice, none out of
 * place, whatever way the list sorted them. */
static void
assert_rows_in_time_order (EtTrace *trace, EtMarkersList *list, gboolean descending)
{
  for (guint r = 1; r < et_markers_list_get_n_rows (list); r++)
    {
      guint c0, i0, c1, i1;
      const EtMarker *a, *b;

      assert_true (et_markers_list_get_row (list, r - 1, &c0, &i0));
      assert_true (et_markers_list_get_row (list, r, &c1, &i1));
      a = &et_trace_get_channel (trace, c0)->markers[i0];
      b = &et_trace_get_channel (trace, c1)->markers[i1];
      if (descending)
        {
          const EtMarker *swap = a;
          a = b, b = swap;
        }
      assert_true (a->start_ns < b->start_ns
                   || (a->start_ns == b->start_ns && a->event < b->event));
    }
}

static EtReportTable *
table_of (EtMarkersList *list)
{
  return ET_REPORT_TABLE (find_widget (GTK_WIDGET (list), ET_TYPE_REPORT_TABLE));
}

/* Every cell of the rows the table shows, as it draws them. */
static void
collect_shown_cells (EtReportTable *table, GHashTable *texts)
{
  guint first, end;

  et_report_table_get_visible (table, &first, &end);
  for (guint r = first; r < end; r++)
    for (guint c = 0; c < et_report_table_get_n_columns (table); c++)
      {
        GString *cell = g_string_new (NULL);

        et_report_table_get_cell (table, r, c, cell);
        g_hash_table_add (texts, g_string_free (cell, FALSE));
      }
}

/* Whether the table shows the list's first rows, their start times in
 * the Start column (what it draws: it asks the list for each cell). */
static gboolean
first_rows_shown (EtTrace *trace, EtMarkersList *list)
{
  EtReportTable *table = table_of (list);
  guint channel, index, first, end, n = MIN (5, et_markers_list_get_n_rows (list));

  et_report_table_get_visible (table, &first, &end);
  if (first != 0 || end < n)
    return FALSE;
  for (guint r = 0; r < n; r++)
    {
      g_autoptr(GString) start = g_string_new (NULL), shown = g_string_new (NULL);

      assert_true (et_markers_list_get_row (list, r, &channel, &index));
      et_format_duration_display (et_trace_get_channel (trace, channel)->markers[index].start_ns,
                                  start);
      et_report_table_get_cell (table, r, 0, shown);
      assert_string_equal (shown->str, start->str);
    }
  return TRUE;
}

/* The list is idle, then the table is scrolled to its first rows. */
static void
check_first_rows_shown (EtTrace *trace, EtMarkersList *list)
{
  RUN_UNTIL (!et_markers_list_is_busy (list));
  while (!first_rows_shown (trace, list))
    wait_for_frame (GTK_WIDGET (list));
}

/* Splits RFC 4180 CSV text into rows of fields (quoted fields may hold
 * commas, quotes and line breaks). */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, '"'), p++;
      else if (*p == '"')
        quoted = !quoted;
      else if (!quoted && (*p == ',' || *p == '\r'))
        {
          g_ptr_array_add (row, g_string_free (field, FALSE));
          field = g_string_new (NULL);
          if (*p == '\r')
            {
              assert_int_equal (p[1], '\n');
              p++;
              g_ptr_array_add (rows, row);
              row = g_ptr_array_new_with_free_func (g_free);
            }
        }
      else
        g_string_append_c (field, *p);
    }
  assert_int_equal (field->len, 0);   /* the last line ends with CRLF */
  assert_int_equal (row->len, 0);
  g_string_free (field, TRUE);
  g_ptr_array_unref (row);
  return rows;
}

#define CSV_FIELD(row, i) ((const char *) g_ptr_array_index ((row), (i)))

/* The export holds the report's rows in its order, with times in integer
 * nanoseconds (no units), the process and its pid (issue 23, item 7). */
static void
check_csv (EtTrace *trace, EtMarkersList *list, const char *csv)
{
  g_autoptr(GPtrArray) rows = parse_csv (csv);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *header = NULL;
  guint channel, index;

  assert_int_equal (rows->len, et_markers_list_get_n_rows (list) + 1);
  header = g_strjoinv (",", (char **) ((GPtrArray *) g_ptr_array_index (rows, 0))->pdata);
  for (guint r = 1; r < rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (rows, r);
      const EtMarker *m;
      const EtThread *t;

      assert_int_equal (row->len, 14);
      assert_true (et_markers_list_get_row (list, r - 1, &channel, &index));
      m = &et_trace_get_channel (trace, channel)->markers[index];
      t = et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));
      assert_string_equal (CSV_FIELD (row, 0), et_marker_kind_to_string (m->kind));
      if (m->status != ET_SPAN_UNMATCHED_END)
        assert_int_equal (g_ascii_strtoll (CSV_FIELD (row, 2), NULL, 10), m->start_ns);
      if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END
          && m->status != ET_SPAN_UNMATCHED_START)
        assert_int_equal (g_ascii_strtoll (CSV_FIELD (row, 4), NULL, 10), m->end_ns - m->start_ns);
      else
        assert_string_equal (CSV_FIELD (row, 4), "");
      assert_int_equal (g_ascii_strtoull (CSV_FIELD (row, 5), NULL, 10), t->pid);
      assert_string_equal (CSV_FIELD (row, 6), et_trace_get_process (trace, t->process)->name);
      assert_int_equal (g_ascii_strtoull (CSV_FIELD (row, 7), NULL, 10), t->tid);
      g_string_truncate (text, 0);
      et_trace_marker_text (trace, m, text);
      assert_string_equal (CSV_FIELD (row, 13), text->str);
    }
  assert_string_equal (header, "kind,status,start_ns,end_ns,duration_ns,pid,process,tid,thread,"
                               "provider,series,category,importance,text");
}

/* The rows the list's table shows (its scrollbar's length). */
static guint
rows_in_view (EtMarkersList *list)
{
  return et_report_table_get_n_rows (table_of (list));
}

static void
test_markers_list_follows_view_filters_and_sort (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  g_autofree char *csv_path = g_build_filename (dir, "markers.csv", NULL);
  g_autofree char *csv = NULL, *details = NULL, *name = NULL;
  guint channel, index, all, before;
  guint16 provider;
  gint64 start;

  /* No row limit: the whole trace is in the list. */
  all = et_markers_list_get_n_rows (list);
  assert_int_equal (all, et_trace_get_stats (trace)->markers);
  assert_int_equal (rows_in_view (list), all);

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  RUN_UNTIL (!et_window_is_busy (window));
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));
  assert_true (et_markers_list_get_n_rows (list) < all);
  check_first_rows_shown (trace, list);

  /* Large ranges are collected on a thread; the result is the same. */
  et_markers_list_set_async_threshold (list, 0);
  activate (window, "timeline.zoom-out");
  RUN_UNTIL (!et_window_is_busy (window));
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));
  assert_int_equal (rows_in_view (list), et_markers_list_get_n_rows (list));
  et_markers_list_set_async_threshold (list, 50000);

  /* Longest first, as clicking the Duration header twice does. */
  et_markers_list_set_sort (list, ET_SORT_DURATION, TRUE);
  for (guint r = 1; r < et_markers_list_get_n_rows (list); r++)
    assert_true (row_duration (trace, list, r - 1) >= row_duration (trace, list, r));
  check_first_rows_shown (trace, list);

  /* A large list sorts on a thread, and the selected marker stays
   * selected, wherever it lands. */
  {
    EtReportTable *table = table_of (list);
    guint chosen_channel, chosen_index, row, n = et_markers_list_get_n_rows (list);

    assert_true (et_markers_list_get_row (list, n / 3, &chosen_channel, &chosen_index));
    assert_true (et_markers_list_show_marker (list, chosen_channel, chosen_index));
    assert_int_equal (et_report_table_get_selected (table), n / 3);
    et_markers_list_set_async_threshold (list, 0);
    et_markers_list_set_sort (list, ET_SORT_START, FALSE);
    assert_true (et_markers_list_is_busy (list));
    RUN_UNTIL (!et_window_is_busy (window));
    assert_int_equal (et_markers_list_get_n_rows (list), n);
    assert_rows_in_time_order (trace, list, FALSE);
    row = et_report_table_get_selected (table);
    assert_true (et_markers_list_get_row (list, row, &channel, &index));
    assert_int_equal (channel, chosen_channel);
    assert_int_equal (index, chosen_index);
    et_markers_list_set_sort (list, ET_SORT_DURATION, TRUE);
    RUN_UNTIL (!et_window_is_busy (window));
    et_markers_list_set_async_threshold (list, 50000);
  }

  /* Choosing a row selects and reveals its marker. */
  assert_true (et_markers_list_get_row (list, 0, &channel, &index));
  et_markers_list_select_row (list, 0);
  details = et_window_get_details (window);
  name = event_name (trace, et_trace_get_channel (trace, channel)->markers[index].event);
  assert_non_null (strstr (details, name));

  /* CSV export: a header and one line per row, machine values. */
  assert_true (et_markers_list_write_csv (list, csv_path, NULL));
  assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  check_csv (trace, list, csv);
  g_unlink (csv_path);

  /* Unticking that marker's provider takes its rows away at once. */
  activate (window, "timeline.zoom-fit");
  RUN_UNTIL (!et_window_is_busy (window));
  before = et_markers_list_get_n_rows (list);
  provider = et_channel_provider (et_trace_get_channel (trace, channel));
  et_window_set_provider_visible (window, provider, FALSE);
  assert_true (et_markers_list_get_n_rows (list) < before);
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));
  et_window_set_provider_visible (window, provider, TRUE);
  assert_int_equal (et_markers_list_get_n_rows (list), before);

  /* Shrunk to one row, resorted and grown again before the view let go of
   * the old rows: the rows that come back show their new markers. */
  et_markers_list_set_sort (list, ET_SORT_START, FALSE);
  RUN_UNTIL (!et_markers_list_is_busy (list));
  wait_for_frame (GTK_WIDGET (list));
  assert_true (et_markers_list_get_row (list, 0, &channel, &index));
  start = et_trace_get_channel (trace, channel)->markers[index].start_ns;
  et_markers_list_set_range (list, start, start);
  assert_true (et_markers_list_get_n_rows (list) < 5);
  et_markers_list_set_sort (list, ET_SORT_START, TRUE);
  et_markers_list_set_range (list, v->from_ns, v->to_ns);
  assert_int_equal (et_markers_list_get_n_rows (list), before);
  assert_rows_in_time_order (trace, list, TRUE);
  check_first_rows_shown (trace, list);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Ticking a provider whose events are not markers by default reads the
 * file again with every provider's markers; the other ticks stay. */
static void
test_ticking_a_non_default_provider_reloads_with_its_markers (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  guint extra = G_MAXUINT, shown = G_MAXUINT, n_markers;
  gboolean has_channel = FALSE;

  for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
    {
      const EtProvider *provider = et_trace_get_provider (trace, p);

      if (!provider->default_on && g_str_equal (provider->name, "Thread"))
        extra = p;
      if (provider->default_on && shown == G_MAXUINT)
        shown = p;
    }
  assert_true (extra != G_MAXUINT && shown != G_MAXUINT);
  assert_false (et_layout_get_provider_visible (et_window_get_layout (window), extra));
  n_markers = et_markers_list_get_n_rows (et_window_get_markers_list (window));

  et_window_set_provider_visible (window, extra, TRUE);
  assert_true (et_window_is_loading (window));
  RUN_UNTIL (!et_window_is_loading (window));
  wait_for_picture (window);
  trace = et_window_get_trace (window);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    has_channel |= et_channel_provider (et_trace_get_channel (trace, c)) == extra;
  assert_true (has_channel);
  assert_true (et_layout_get_provider_visible (et_window_get_layout (window), extra));
  assert_true (et_layout_get_provider_visible (et_window_get_layout (window), shown));
  assert_true (et_markers_list_get_n_rows (et_window_get_markers_list (window)) > n_markers);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Search runs on a thread, finds what the texts and event names say (as a
 * person reading them would count), reveals the first match, rings them
 * all, and steps. */
static void
test_search_finds_reveals_and_steps (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *first = NULL, *second = NULL;
  guint expected = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      for (guint i = 0; i < ch->n_markers; i++)
        {
          g_autofree char *lower = NULL, *name = event_name (trace, ch->markers[i].event);

          g_string_truncate (text, 0);
          et_trace_marker_text (trace, &ch->markers[i], text);
          g_string_append_printf (text, " %s", name);
          lower = g_ascii_strdown (text->str, -1);
          expected += strstr (lower, "failed") != NULL;
        }
    }
  assert_true (expected > 5);

  et_window_search (window, "FAILED");
  assert_true (et_window_is_searching (window));
  RUN_UNTIL (!et_window_is_searching (window));
  assert_int_equal (et_window_get_n_matches (window), expected);
  first = et_window_get_details (window);
  assert_non_null (strstr (first, "failed"));
  activate (window, "win.find-next");
  second = et_window_get_details (window);
  assert_non_null (strstr (second, "failed"));
  assert_string_not_equal (first, second);
  activate (window, "win.find-previous");
  assert_string_equal (et_window_get_details (window), first);

  et_window_search (window, "no marker says this: 7f3a9c1e");
  RUN_UNTIL (!et_window_is_searching (window));
  assert_int_equal (et_window_get_n_matches (window), 0);
  assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "find-next"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_damaged_file_opens_with_banner (void **state)
{
  g_autofree char *bad = g_build_filename (dir, "damaged.etl", NULL);
  g_autofree char *bytes = NULL;
  g_autoptr(EtFixtureLayout) layout = NULL;
  gsize len;
  EtWindow *window;

  assert_true (g_file_get_contents (demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (bad, bytes, (gssize) len, NULL));
  layout = et_fixture_layout_read (bad, NULL);
  assert_non_null (layout);
  assert_true (layout->buffers->len > 3);
  /* Cut the file in the middle of its last buffer. */
  assert_true (et_fixture_damage_truncate (bad, et_fixture_layout_buffer_offset (layout, layout->buffers->len - 1) + 100,
                                           NULL));
  window = open_window (bad);
  assert_non_null (et_window_get_trace (window));
  assert_non_null (strstr (et_window_get_status (window), "damage"));
  assert_non_null (strstr (et_window_get_status (window), "byte offset"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (bad);
}

static void
test_unreadable_file_shows_error_not_crash (void **state)
{
  g_autofree char *bad = g_build_filename (dir, "not-a-trace.txt", NULL);
  EtWindow *window;

  g_file_set_contents (bad, "this is not an etl file", -1, NULL);
  window = open_window (bad);
  assert_null (et_window_get_trace (window));
  assert_non_null (strstr (et_window_get_status (window), bad));
  /* Said once, on the window's page (no dialog on top), and the window is
   * not named after a file it does not show. */
  assert_null (find_toplevel (GTK_TYPE_MESSAGE_DIALOG));
  assert_string_equal (gtk_window_get_title (GTK_WINDOW (window)), "Etlscope");
  assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-markers"));
  /* The timeline's commands do nothing without a trace (and do not crash). */
  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-fit");
  close_window (window);
  g_unlink (bad);
}

static GThread *main_thread;

static void
on_progress (EtLoader *loader, guint64 done, guint64 total, gpointer data)
{
  guint64 *seen = data;

  assert_true (done <= total);
  seen[0]++;
  if (et_loader_get_phase (loader) == ET_LOAD_PHASE_READING)
    seen[1] = total;
  if (g_thread_self () != main_thread)
    seen[2]++;
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  GError **error = data;
  g_autoptr(EtTrace) trace = et_loader_load_finish (ET_LOADER (source), result, error);
  EtLayout *layout = et_loader_take_layout (ET_LOADER (source));

  /* A loaded trace comes with its layout, made on the loading thread:
   * rows laid out for every thread, taken once. */
  assert_true ((trace != NULL) == (layout != NULL));
  assert_null (et_loader_take_layout (ET_LOADER (source)));
  if (layout != NULL)
    assert_true (et_layout_n_rows (layout) >= et_trace_get_n_threads (trace));
  g_clear_pointer (&layout, et_layout_free);
  if (trace != NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "loaded");
}

static void
test_loader_reports_progress_on_main_loop_and_cancels (void **state)
{
  g_autofree char *big = g_build_filename (dir, "large.etl", NULL);
  g_autoptr(EtLoader) loader = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  guint64 seen[3] = { 0 };   /* calls, the reading's total, calls off the main thread */
  GStatBuf st;

  assert_true (run_fixture_tool ((const char *[]) { "large", "200000", big, NULL }));
  assert_int_equal (g_stat (big, &st), 0);

  main_thread = g_thread_self ();
  loader = et_loader_new (big, ET_LOAD_DEFAULT);
  g_signal_connect (loader, "progress", G_CALLBACK (on_progress), seen);
  et_loader_load_async (loader, NULL, on_loaded, &error);
  /* The main loop is not running meanwhile (as between two iterations, or
   * before an application's loop starts): progress still waits for it,
   * since its handlers update widgets. Waits (without iterating) until the
   * loading thread has reported some progress. */
  while (et_loader_get_done (loader) == 0)
    g_thread_yield ();
  /* The reading's end (the whole file) may come just after the result. */
  RUN_UNTIL (error != NULL && seen[1] == (guint64) st.st_size);
  assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS));
  assert_int_equal (seen[2], 0);
  g_clear_error (&error);
  g_clear_object (&loader);

  /* Cancel at once: the caller hears "cancelled", not a trace. */
  loader = et_loader_new (big, ET_LOAD_DEFAULT);
  et_loader_load_async (loader, cancellable, on_loaded, &error);
  g_cancellable_cancel (cancellable);
  RUN_UNTIL (error != NULL);
  assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_unlink (big);
}

static void
test_application_one_window_per_file_and_shortcuts (void **state)
{
  g_autoptr(EtApplication) app = et_application_new ();
  g_autoptr(GFile) file = g_file_new_for_path (demo_path);
  g_autoptr(GBytes) overlay = NULL;
  g_auto(GStrv) accels = NULL;
  const char *text;
  GList *windows;
  static const char *const listed[] = {
    "win.open", "win.find", "win.export-markers", "win.show-help-overlay", "app.quit",
    "w &lt;Control&gt;plus", "s &lt;Control&gt;minus", "Home &lt;Control&gt;0", ">z f<", ">a<", ">d<",
    "win.show-legend",
    ">Right Left<", ">Up Down<", ">Escape<",
  };

  /* Tests have no session bus to be unique on. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_open (G_APPLICATION (app), &file, 1, "");
  g_application_open (G_APPLICATION (app), &file, 1, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  assert_int_equal (g_list_length (windows), 1);
  RUN_UNTIL (!et_window_is_loading (windows->data));
  assert_non_null (et_window_get_trace (windows->data));
  /* GtkApplication found the shortcuts window in our resources. */
  assert_true (g_action_group_has_action (G_ACTION_GROUP (windows->data), "show-help-overlay"));

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "timeline.zoom-in");
  assert_true (g_strv_contains ((const char * const *) accels, "<Control>plus"));
  overlay = g_resources_lookup_data ("/io/github/etlscope/Etlscope/gtk/help-overlay.ui", 0, NULL);
  assert_non_null (overlay);
  text = g_bytes_get_data (overlay, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (listed); i++)
    if (strstr (text, listed[i]) == NULL)
      fail_msg ("the shortcuts window does not list %s", listed[i]);
  close_window (windows->data);
}

static gboolean
has_column (GtkWidget *list, const char *title)
{
  EtReportTable *table = ET_REPORT_TABLE (find_widget (list, ET_TYPE_REPORT_TABLE));

  for (guint c = 0; c < et_report_table_get_n_columns (table); c++)
    if (g_strcmp0 (et_report_table_get_column_title (table, c), title) == 0)
      return TRUE;
  return FALSE;
}

/* A large file opens with a first look (the markers of its first events)
 * while the whole trace loads; the whole one then takes its place and
 * keeps the view the user had zoomed to. */
static void
test_large_file_opens_with_a_first_look_then_the_whole (void **state)
{
  g_autofree char *path = g_build_filename (dir, "large.etl", NULL);
  EtWindow *window;
  EtTrace *trace;
  EtViewport *view;
  gint64 from, to;
  guint64 preview_markers;

  assert_true (run_fixture_tool ((const char *[]) { "large", "40000", path, "--seed", "1", NULL }));
  g_setenv ("ETLSCOPE_PREVIEW_BYTES", "1", TRUE);
  g_setenv ("ETLSCOPE_PREVIEW_EVENTS", "10000", TRUE);
  window = et_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  et_window_load (window, path);
  gtk_window_present (GTK_WINDOW (window));
  RUN_UNTIL (et_window_get_trace (window) != NULL);
  trace = et_window_get_trace (window);
  assert_int_equal (et_trace_get_stats (trace)->preview_events, 10000);
  assert_true (et_window_is_loading (window));          /* the rest is on its way */
  preview_markers = et_trace_get_stats (trace)->markers;
  assert_true (preview_markers > 0);

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  view = et_window_get_viewport (window);
  from = view->from_ns, to = view->to_ns;
  assert_true (to - from < et_trace_get_duration_ns (trace) / 2);

  RUN_UNTIL (!et_window_is_loading (window));
  g_unsetenv ("ETLSCOPE_PREVIEW_BYTES");
  g_unsetenv ("ETLSCOPE_PREVIEW_EVENTS");
  trace = et_window_get_trace (window);
  assert_int_equal (et_trace_get_stats (trace)->preview_events, 0);
  assert_true (et_trace_get_stats (trace)->markers > 3 * preview_markers);
  view = et_window_get_viewport (window);
  assert_int_equal (view->from_ns, from);
  assert_int_equal (view->to_ns, to);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

/* A German user (LANGUAGE=de) sees German column titles, count, details
 * labels and importance names; the trace's own names stay as they are. */
static void
test_german_labels_under_language_de (void **state)
{
  EtWindow *window;
  EtTrace *trace;
  GtkWidget *list, *label;
  g_autofree char *details = NULL, *name = NULL;
  Find f = { .kind = ET_SHAPE_FLAG, .alert = TRUE };

  g_setenv ("LANGUAGE", "de", TRUE);
  et_i18n_init ();                    /* setlocale again: gettext caches */
  window = open_window (demo_path);
  trace = et_window_get_trace (window);
  list = GTK_WIDGET (et_window_get_markers_list (window));
  assert_true (has_column (list, "Wichtigkeit"));
  assert_true (has_column (list, "Reihe"));
  assert_false (has_column (list, "Importance"));
  label = find_widget (list, GTK_TYPE_LABEL);
  assert_non_null (strstr (gtk_label_get_text (GTK_LABEL (label)), " Marker"));
  assert_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "markers"));

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  scroll_to_process (window, DEMO_WEB_SERVER);
  et_timeline_foreach_shape (trace, et_window_get_layout (window), et_window_get_viewport (window),
                             find_shape, &f);
  assert_true (f.found);
  assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                    (f.shape.y0 + f.shape.y1) / 2));
  details = et_window_get_details (window);
  name = event_name (trace, f.shape.m->event);
  assert_non_null (strstr (details, name));
  assert_non_null (strstr (details, "Warum es so aussieht"));
  /* "Bedeutung" alone reads as "meaning": importance is "Wichtigkeit". */
  assert_non_null (strstr (details, "Wichtigkeit"));
  assert_null (strstr (details, "Bedeutung"));
  assert_non_null (strstr (details, "Kritisch"));
  assert_null (strstr (details, "Why it looks like this"));
  check_details_wrap (window);
  wait_for_picture (window);
  save_screenshot (window, "app-demo-de.png");

  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("LANGUAGE");
  et_i18n_init ();
}

/* A marker of a provider known only from the trace's own event metadata
 * (the event-info fixture, every provider on) says where its schema came
 * from, in English and in German. */
static void
test_details_say_the_schema_is_the_trace_metadata (void **state)
{
  EtFixtureFile *file = et_fixture_file_new ("event-info.etl");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GString) en = g_string_new (NULL);
  g_autoptr(GString) de = g_string_new (NULL);
  EtFixtureOptions options;
  guint channel, index;
  const EtMarker *m;

  et_fixture_options_init (&options);
  assert_true (et_fixture_write_event_info_trace (file->path, &options,
                                                  ET_FIXTURE_EVENT_INFO_GOOD, &error));
  trace = et_trace_load (file->path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, &error);
  assert_non_null (trace);
  assert_true (et_fixture_find_marker (trace, "Shapes/Reshape: Color=Blue", &channel, &index));
  m = &et_trace_get_channel (trace, channel)->markers[index];
  et_details_describe (trace, channel, m, en);
  assert_non_null (strstr (en->str, "Schema from the trace's own event metadata."));
  g_setenv ("LANGUAGE", "de", TRUE);
  et_i18n_init ();
  et_details_describe (trace, channel, m, de);
  g_unsetenv ("LANGUAGE");
  et_i18n_init ();
  assert_non_null (strstr (de->str, "Schema aus den eigenen Ereignis-Metadaten der Aufzeichnung."));
  et_fixture_file_free (file);
}

/* What @widget would draw now, without a main-loop iteration. */
static GskRenderNode *
drawn_node (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}

/* The same, as pixels. */
static GBytes *
drawn_pixels (GtkWidget *widget)
{
  g_autoptr(GskRenderNode) node = drawn_node (widget);

  return node_pixels (widget, node);
}

/* How many pixels are the amber of a search match's ring. */
static guint
amber_pixels (GBytes *pixels)
{
  gsize n;
  const guint8 *p = g_bytes_get_data (pixels, &n);
  guint count = 0;

  /* B, G, R, A: gdk_texture_download's format. */
  for (gsize i = 0; i + 3 < n; i += 4)
    count += p[i] <= 1 && ABS (p[i + 1] - 153) <= 1 && p[i + 2] >= 254;
  return count;
}

/* A picture that takes long is drawn on a thread while the last one stays
 * on screen: the frame after a zoom starts it rather than waiting for it,
 * and what comes is what drawing at once shows, the search's rings
 * included. */
static void
test_slow_pictures_are_drawn_on_a_thread (void **state)
{
  EtWindow *window;
  EtTimelineView *view;
  g_autoptr(GBytes) on_thread = NULL, at_once = NULL;
  g_autoptr(GBytes) ringed_on_thread = NULL, ringed_at_once = NULL;

  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "always", TRUE);
  window = open_window (demo_path);
  view = ET_TIMELINE_VIEW (find_timeline (GTK_WIDGET (window)));
  activate (window, "timeline.zoom-in");
  RUN_UNTIL (et_timeline_view_is_drawing (view));
  wait_for_picture (window);                   /* a frame with the new picture */
  on_thread = widget_pixels (GTK_WIDGET (view));

  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "never", TRUE);
  et_timeline_view_layout_changed (view);      /* drawn again, at once */
  wait_for_picture (window);
  assert_false (et_timeline_view_is_drawing (view));
  at_once = widget_pixels (GTK_WIDGET (view));
  g_unsetenv ("ETLSCOPE_DRAW_ON_THREAD");
  assert_true (g_bytes_equal (on_thread, at_once));
  assert_int_equal (amber_pixels (at_once), 0);

  /* The search's matches are ringed in the picture the thread draws. */
  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "always", TRUE);
  et_window_search (window, "FAILED");
  RUN_UNTIL (!et_window_is_searching (window));
  assert_true (et_window_get_n_matches (window) > 0);
  wait_for_picture (window);
  ringed_on_thread = widget_pixels (GTK_WIDGET (view));
  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "never", TRUE);
  et_timeline_view_layout_changed (view);
  wait_for_picture (window);
  ringed_at_once = widget_pixels (GTK_WIDGET (view));
  g_unsetenv ("ETLSCOPE_DRAW_ON_THREAD");
  assert_true (amber_pixels (ringed_at_once) > 20);
  assert_true (g_bytes_equal (ringed_on_thread, ringed_at_once));
  et_window_search (window, "");
  RUN_UNTIL (!et_window_is_searching (window));
  wait_for_picture (window);
  on_thread = (g_bytes_unref (on_thread), widget_pixels (GTK_WIDGET (view)));
  assert_int_equal (amber_pixels (on_thread), 0);

  /* And a window closed while its picture is being drawn goes cleanly. */
  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "always", TRUE);
  activate (window, "timeline.zoom-out");
  RUN_UNTIL (et_timeline_view_is_drawing (view));
  close_window (window);
  g_unsetenv ("ETLSCOPE_DRAW_ON_THREAD");
}

/* Whether pixel @i of @a and @j of @b are one colour, give or take
 * antialiasing. */
static gboolean
same_colour (const guint8 *a, gsize i, const guint8 *b, gsize j)
{
  for (int c = 0; c < 3; c++)
    if (ABS (a[i * 4 + c] - b[j * 4 + c]) > 48)
      return FALSE;
  return TRUE;
}

/* Pixels of the marker area (below the ruler, from x @x0 to @x1) of @a
 * whose colour @b has at none of the same place and its two neighbours
 * in the row (a time falls on a pixel's edge in one view and inside it
 * in another). */
static guint
plot_pixels_apart (GBytes *a, GBytes *b, const EtViewport *v, int width, int x0, int x1)
{
  const guint8 *pa = g_bytes_get_data (a, NULL), *pb = g_bytes_get_data (b, NULL);
  guint n = 0;

  for (int y = v->ruler_height; y < v->height; y++)
    for (int x = MAX (x0, 1); x < MIN (x1, width - 1); x++)
      {
        gsize i = (gsize) y * width + x;

        n += !same_colour (pa, i, pb, i) && !same_colour (pa, i, pb, i - 1)
             && !same_colour (pa, i, pb, i + 1);
      }
  return n;
}

/* Pixels of the ruler's band of @a and @b of another colour. */
static guint
ruler_pixels_apart (GBytes *a, GBytes *b, const EtViewport *v, int width)
{
  const guint8 *pa = g_bytes_get_data (a, NULL), *pb = g_bytes_get_data (b, NULL);
  guint n = 0;

  for (int y = 2; y < v->ruler_height - 1; y++)
    for (int x = 2; x < width - 2; x++)
      n += !same_colour (pa, (gsize) y * width + x, pb, (gsize) y * width + x);
  return n;
}

/* While the picture of a panned or zoomed view is drawn on a thread, the
 * last one is shown moved to the new view (scaled when zoomed): what is
 * on screen meanwhile is close to what comes (marks merged at the old
 * view's pixels and lines half a pixel off differ), less than half as far
 * from it as the last picture left where it was. Its ruler is the new
 * view's, drawn anew, not the last one's stretched (labels smeared into
 * bars, issue 34 item 8): its band has the new picture's pixels. */
static void
test_the_last_picture_follows_the_view_while_drawing (void **state)
{
  static const char *const moves[] = { "timeline.pan-right", "timeline.pan-left",
                                       "timeline.zoom-in", "timeline.zoom-out" };
  EtWindow *window;
  EtTimelineView *view;
  int width;

  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "always", TRUE);
  window = open_window (demo_path);
  view = ET_TIMELINE_VIEW (find_timeline (GTK_WIDGET (window)));
  width = gtk_widget_get_width (GTK_WIDGET (view));
  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  for (guint k = 0; k < G_N_ELEMENTS (moves); k++)
    {
      g_autoptr(GBytes) before = NULL, meanwhile = NULL, after = NULL;
      const EtViewport *now = et_window_get_viewport (window);
      EtViewport was;
      guint moved, unmoved;
      int x0, x1;

      wait_for_picture (window);
      was = *now;
      before = widget_pixels (GTK_WIDGET (view));
      activate (window, moves[k]);
      /* No main-loop iteration between: the thread's picture cannot have
       * been taken yet. */
      meanwhile = drawn_pixels (GTK_WIDGET (view));
      assert_true (et_timeline_view_is_drawing (view));
      wait_for_picture (window);
      after = widget_pixels (GTK_WIDGET (view));
      /* Where the last picture's times are in the new view (the rest is
       * new ground, which only the new picture shows). */
      x0 = MAX (now->label_width, (int) ceil (et_viewport_x (now, was.from_ns)));
      x1 = MIN (width, (int) floor (et_viewport_x (now, was.to_ns)));
      assert_true (x1 - x0 > (width - now->label_width) / 3);
      moved = plot_pixels_apart (meanwhile, after, now, width, x0, x1);
      unmoved = plot_pixels_apart (before, after, now, width, x0, x1);
      g_test_message ("%s: %u pixels apart moved, %u as it was", moves[k], moved, unmoved);
      if (moved * 2 >= unmoved)
        fail_msg ("%s: the picture shown while drawing is %u pixels from the new one "
                  "(%u if left where it was)", moves[k], moved, unmoved);
      moved = ruler_pixels_apart (meanwhile, after, now, width);
      if (moved > 0)
        fail_msg ("%s: %u pixels of the ruler shown meanwhile differ from the new one's",
                  moves[k], moved);
    }
  close_window (window);
  g_unsetenv ("ETLSCOPE_DRAW_ON_THREAD");
}

static gboolean
has_text_containing (GHashTable *texts, const char *needle)
{
  GHashTableIter iter;
  const char *text;

  g_hash_table_iter_init (&iter, texts);
  while (g_hash_table_iter_next (&iter, (gpointer *) &text, NULL))
    if (strstr (text, needle) != NULL)
      return TRUE;
  return FALSE;
}

/* The report's rows are one line each (a text's line break shows as ⏎),
 * and a new order is read from its first row, not from where the old one
 * was scrolled to (issue 23, item 10). */
static void
test_report_rows_are_one_line_and_a_new_order_starts_at_the_top (void **state)
{
  g_autofree char *path = g_build_filename (dir, "cases.etl", NULL);
  g_autoptr(GHashTable) texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  EtWindow *window;
  EtMarkersList *list;
  GtkAdjustment *adj;

  assert_true (run_fixture_tool ((const char *[]) { "cases", path, NULL }));
  window = open_window (path);
  list = et_window_get_markers_list (window);
  RUN_UNTIL (!et_window_is_busy (window));
  wait_for_frame (GTK_WIDGET (list));
  collect_shown_cells (table_of (list), texts);
  assert_true (has_text_containing (texts, "50% done \u23CE  next io"));
  assert_false (has_text_containing (texts, "\n"));

  adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (table_of (list)));
  assert_true (gtk_adjustment_get_upper (adj) > gtk_adjustment_get_page_size (adj));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  wait_for_frame (GTK_WIDGET (list));
  assert_true (gtk_adjustment_get_value (adj) > 0);
  et_markers_list_set_sort (list, ET_SORT_KIND, TRUE);
  RUN_UNTIL (!et_window_is_busy (window));
  wait_for_frame (GTK_WIDGET (list));
  assert_true (gtk_adjustment_get_value (adj) == 0);
  close_window (window);
  g_unlink (path);
}

/* A span that ends on another thread: Ctrl+] goes to its end (its own
 * flow), at the same zoom. */
static void
test_follow_flow_goes_to_a_cross_thread_end (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  const EtMarker *m = NULL;
  guint c, i = 0;
  gint64 span;

  for (c = 0; c < et_trace_get_n_channels (trace) && m == NULL; c++)
    for (i = 0; i < et_trace_get_channel (trace, c)->n_markers && m == NULL; i++)
      if (et_trace_get_channel (trace, c)->markers[i].status == ET_SPAN_CROSS_THREAD)
        m = &et_trace_get_channel (trace, c)->markers[i];
  assert_non_null (m);
  et_window_reveal_marker (window, c - 1, i - 1);
  span = v->to_ns - v->from_ns;
  activate (window, "timeline.follow-flow");
  assert_int_equal (v->to_ns - v->from_ns, span);
  assert_true (ABS ((v->from_ns + v->to_ns) / 2 - m->end_ns) <= span / 100 + 1);
  close_window (window);
}

/* A selected task's flow: Ctrl+] goes to the thread that ran it, Ctrl+[
 * back to where it was scheduled; an arrow joins them (issue 23, flows).
 * On the corpus trace net.4.5.2.x64.etl (PerfView's TPL events). */
static void
test_flows_follow_a_task_across_threads (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "net.4.5.2.x64.etl", NULL) : NULL;
  EtWindow *window;
  EtTrace *trace;
  EtShape shape;
  GtkWidget *timeline;
  guint c, i, run_c, run_i;
  g_autoptr(GString) text = g_string_new (NULL);

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/net.4.5.2.x64.etl is absent: flows not checked\n");
      skip ();
    }
  window = open_window (path);
  trace = et_window_get_trace (window);
  timeline = find_timeline (GTK_WIDGET (window));
  et_layout_set_all_threads_collapsed (et_window_get_layout (window), FALSE);
  et_timeline_view_layout_changed (ET_TIMELINE_VIEW (timeline));
  assert_true (et_fixture_find_marker (trace, "Task 6 scheduled to TaskScheduler 1.", &c, &i));
  assert_true (et_fixture_find_marker (trace, "Task 6 executing.", &run_c, &run_i));
  et_window_reveal_marker (window, c, i);
  wait_for_picture (window);
  save_screenshot (window, "app-flow.png");
  /* The same in the dark theme, for docs/screenshots. */
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  wait_for_picture (window);
  save_screenshot (window, "app-flow-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  wait_for_picture (window);

  activate (window, "timeline.follow-flow");
  assert_true (et_timeline_view_get_selection (ET_TIMELINE_VIEW (timeline), &shape));
  assert_int_equal (shape.channel, run_c);
  assert_int_equal (shape.marker, run_i);
  et_trace_marker_text (trace, shape.m, text);
  assert_string_equal (text->str, "Task 6 executing.");
  activate (window, "timeline.follow-flow-back");
  assert_true (et_timeline_view_get_selection (ET_TIMELINE_VIEW (timeline), &shape));
  assert_int_equal (shape.channel, c);
  assert_int_equal (shape.marker, i);
  close_window (window);
}

/* A picture drawn for a taller timeline (before the damage banner or a
 * pane took room) never spills over the widgets below it while the new
 * one is drawn (issue 23, item 5). */
static void
test_an_old_picture_stays_inside_the_timeline (void **state)
{
  EtWindow *window;
  GtkWidget *view;
  int w, h;
  g_autoptr(GskRenderNode) node = NULL;
  graphene_rect_t bounds;

  g_setenv ("ETLSCOPE_DRAW_ON_THREAD", "always", TRUE);
  window = open_window (demo_path);
  view = find_timeline (GTK_WIDGET (window));
  w = gtk_widget_get_width (view), h = gtk_widget_get_height (view);
  /* Shrunk as its parent shrinks it, and drawn before the thread's new
   * picture can come: the old, taller one is what it has. */
  gtk_widget_size_allocate (view, &(GtkAllocation) { 0, 0, w, h / 2 }, -1);
  assert_int_equal (gtk_widget_get_height (view), h / 2);
  node = drawn_node (view);
  assert_non_null (node);
  assert_true (et_timeline_view_is_drawing (ET_TIMELINE_VIEW (view)));
  gsk_render_node_get_bounds (node, &bounds);
  if (bounds.origin.y < 0 || bounds.origin.y + bounds.size.height > h / 2 + 0.5)
    fail_msg ("the timeline draws from y %g to %g, its height is %d", bounds.origin.y,
              bounds.origin.y + bounds.size.height, h / 2);
  g_unsetenv ("ETLSCOPE_DRAW_ON_THREAD");
  gtk_widget_queue_resize (view);
  wait_for_picture (window);
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_zoom_actions_and_selection_show_details),
    cmocka_unit_test (test_plain_keys_on_the_timeline_zoom_and_pan),
    cmocka_unit_test (test_slow_pictures_are_drawn_on_a_thread),
    cmocka_unit_test (test_the_last_picture_follows_the_view_while_drawing),
    cmocka_unit_test (test_an_old_picture_stays_inside_the_timeline),
    cmocka_unit_test (test_go_to_end_centres_the_span_end),
    cmocka_unit_test (test_markers_list_follows_view_filters_and_sort),
    cmocka_unit_test (test_report_rows_are_one_line_and_a_new_order_starts_at_the_top),
    cmocka_unit_test (test_ticking_a_non_default_provider_reloads_with_its_markers),
    cmocka_unit_test (test_search_finds_reveals_and_steps),
    cmocka_unit_test (test_flows_follow_a_task_across_threads),
    cmocka_unit_test (test_follow_flow_goes_to_a_cross_thread_end),
    cmocka_unit_test (test_damaged_file_opens_with_banner),
    cmocka_unit_test (test_unreadable_file_shows_error_not_crash),
    cmocka_unit_test (test_loader_reports_progress_on_main_loop_and_cancels),
    cmocka_unit_test (test_application_one_window_per_file_and_shortcuts),
    cmocka_unit_test (test_german_labels_under_language_de),
    cmocka_unit_test (test_details_say_the_schema_is_the_trace_metadata),
    cmocka_unit_test (test_large_file_opens_with_a_first_look_then_the_whole),
  };
  return cmocka_run_group_tests_name ("app", tests, setup, teardown);
}
