/* GUI tests (under Xvfb) of the filters by category and series, and of the
 * row menu that hides, collapses and moves channels: driven through the
 * filter popover's check buttons and the "timeline." actions, checked
 * against the Markers report and the rows, counted by hand from the
 * model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "et-filter-popover.h"
#include "et-markers-list.h"
#include "et-report-table.h"
#include "et-timeline-render.h"
#include "et-timeline-view.h"
#include "gui-test.h"
#include "et-overview-strip.h"

/* What a person hid, and the markers of the view that remain, by hand. */
typedef struct
{
  gint16  category;      /* hidden, or G_MININT16 */
  guint32 series;        /* hidden, or G_MAXUINT32 */
  guint   channel;       /* hidden, or G_MAXUINT */
} Hidden;

static guint
count_by_hand (EtWindow *window, const Hidden *h)
{
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (!et_trace_get_provider (trace, et_channel_provider (ch))->default_on || ch->series == h->series
          || c == h->channel)
        continue;
      for (guint i = 0; i < ch->n_markers; i++)
        n += et_marker_overlaps (&ch->markers[i], v->from_ns, v->to_ns)
             && ch->markers[i].category != h->category;
    }
  return n;
}

static guint
list_rows (EtWindow *window)
{
  EtMarkersList *list = et_window_get_markers_list (window);

  RUN_UNTIL (!et_window_is_busy (window) && !et_markers_list_is_busy (list));
  return et_markers_list_get_n_rows (list);
}

/* The check button under @widget whose @key data is @value. */
static GtkCheckButton *
find_check (GtkWidget *widget, const char *key, gpointer value)
{
  if (GTK_IS_CHECK_BUTTON (widget) && g_object_get_data (G_OBJECT (widget), key) == value
      && g_object_get_data (G_OBJECT (widget), key) != NULL)
    return GTK_CHECK_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkCheckButton *found = find_check (c, key, value);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Unticking a category or a series in the filter popover takes their
 * markers out of the Markers report at once; ticking brings them back. */
static void
test_popover_filters_categories_and_series (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkWidget *popover = find_widget (GTK_WIDGET (window), ET_TYPE_FILTER_POPOVER);
  EtTrace *trace = et_window_get_trace (window);
  EtLayout *layout = et_window_get_layout (window);
  Hidden hidden = { G_MININT16, G_MAXUINT32, G_MAXUINT };
  guint all = list_rows (window);
  GtkCheckButton *category, *series;

  assert_non_null (popover);
  assert_int_equal (all, count_by_hand (window, &hidden));
  /* Category 1 (green); category 0's data would be NULL, like none. */
  category = find_check (popover, "category", GINT_TO_POINTER (1));
  assert_non_null (category);
  gtk_check_button_set_active (category, FALSE);
  hidden.category = 1;
  assert_int_equal (list_rows (window), count_by_hand (window, &hidden));
  assert_true (list_rows (window) < all);

  /* A named series (the empty one's id, 0, would look like no data). */
  for (guint r = 0; r < et_layout_n_rows (layout) && hidden.series == G_MAXUINT32; r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_CHANNEL
        && et_trace_get_channel (trace, et_layout_row (layout, r)->index)->series != 0)
      hidden.series = et_trace_get_channel (trace, et_layout_row (layout, r)->index)->series;
  series = find_check (popover, "series", GUINT_TO_POINTER (hidden.series));
  assert_non_null (series);
  gtk_check_button_set_active (series, FALSE);
  assert_int_equal (list_rows (window), count_by_hand (window, &hidden));
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    assert_false (et_layout_row (layout, r)->kind == ET_ROW_CHANNEL
                  && et_trace_get_channel (trace, et_layout_row (layout, r)->index)->series
                     == hidden.series);

  gtk_check_button_set_active (category, TRUE);
  gtk_check_button_set_active (series, TRUE);
  assert_int_equal (list_rows (window), all);
  close_window (window);
}

static void
activate_on_channel (EtWindow *window, const char *action, guint channel)
{
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, "u", channel));
}

/* A right click on a row opens its menu; hiding the channel takes its row
 * and its markers away until "Show Hidden Channels"; "Move to Top" makes
 * it the first row under its process, the process first. */
/* The check buttons of the popover's list of @key ("provider", "series"),
 * in their order. */
static void
collect_checks (GtkWidget *widget, const char *key, GPtrArray *out)
{
  if (GTK_IS_CHECK_BUTTON (widget) && g_object_get_data (G_OBJECT (widget), key) != NULL)
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_checks (c, key, out);
}

/* The popover's own search entry (its drop-down has one of its own). */
static GtkEditable *
find_search (GtkWidget *widget)
{
  char *placeholder = NULL;

  if (GTK_IS_SEARCH_ENTRY (widget))
    {
      g_object_get (widget, "placeholder-text", &placeholder, NULL);
      if (g_strcmp0 (placeholder, "Find providers and series") == 0)
        return g_free (placeholder), GTK_EDITABLE (widget);
      g_free (placeholder);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkEditable *found = find_search (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The popover fits a small window (two columns, one list at a time);
 * providers are sorted by name, never shown as a bare GUID; All / None
 * tick and untick what the search shows (issue 23, item 9). */
static void
test_filter_popover_fits_sorts_searches_and_ticks_all (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkWidget *popover = find_widget (GTK_WIDGET (window), ET_TYPE_FILTER_POPOVER);
  EtLayout *layout = et_window_get_layout (window);
  g_autoptr(GPtrArray) providers = g_ptr_array_new ();
  GtkEditable *search;
  int natural;
  guint shown = 0;

  assert_non_null (popover);
  gtk_widget_measure (popover, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
  if (natural > 600)
    fail_msg ("the filter popover wants %d px of height", natural);

  collect_checks (popover, "provider", providers);
  assert_true (providers->len >= 2);
  for (guint k = 0; k < providers->len; k++)
    {
      const char *label = gtk_check_button_get_label (providers->pdata[k]);
      char guid[ET_GUID_STRING_LEN];
      guint p = GPOINTER_TO_UINT (g_object_get_data (providers->pdata[k], "provider"));

      et_guid_to_string (&et_trace_get_provider (et_window_get_trace (window), p)->guid, guid);
      assert_null (strstr (label, guid));
      if (k > 0 && *et_trace_get_provider (et_window_get_trace (window), p)->name)
        assert_true (g_utf8_collate (gtk_check_button_get_label (providers->pdata[k - 1]), label) <= 0);
    }

  /* None unticks every provider; the search narrows what All ticks. */
  g_signal_emit_by_name (find_button (popover, "None"), "clicked");
  for (guint k = 0; k < providers->len; k++)
    {
      assert_false (gtk_check_button_get_active (providers->pdata[k]));
      assert_false (et_layout_get_provider_visible (
                      layout, GPOINTER_TO_UINT (g_object_get_data (providers->pdata[k], "provider"))));
    }
  assert_int_equal (list_rows (window), 0);
  search = find_search (popover);
  assert_non_null (search);
  gtk_editable_set_text (search, gtk_check_button_get_label (providers->pdata[0]));
  RUN_UNTIL (!gtk_widget_get_visible (providers->pdata[providers->len - 1]));
  for (guint k = 0; k < providers->len; k++)
    shown += gtk_widget_get_visible (providers->pdata[k]);
  assert_true (shown >= 1 && shown < providers->len);
  g_signal_emit_by_name (find_button (popover, "All"), "clicked");
  RUN_UNTIL (!et_window_is_busy (window));
  assert_true (list_rows (window) > 0);
  close_window (window);
}

static void
test_row_menu_hides_moves_and_shows_channels (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                            ET_TYPE_TIMELINE_VIEW));
  guint rows = et_layout_n_rows (layout), all = list_rows (window), at = 0;
  guint first, last = et_layout_row (layout, rows - 1)->index;
  Hidden hidden = { G_MININT16, G_MAXUINT32, G_MAXUINT };
  GtkWidget *menu;

  /* The first channel row (under a process and a thread header) of a
   * thread that keeps a row without it. */
  while (et_layout_row (layout, at)->kind != ET_ROW_CHANNEL
         || et_layout_row (layout, at + 1)->kind != ET_ROW_CHANNEL)
    at++;
  first = hidden.channel = et_layout_row (layout, at)->index;
  /* On the row's label, as a right click there does. */
  assert_true (et_timeline_view_popup_channel_menu (timeline, 20,
                                                    v->ruler_height + et_layout_row (layout, at)->y + 4));
  menu = find_widget (GTK_WIDGET (timeline), GTK_TYPE_POPOVER_MENU);
  assert_non_null (menu);
  assert_true (gtk_widget_get_visible (menu));
  gtk_popover_popdown (GTK_POPOVER (menu));
  assert_false (g_action_group_get_action_enabled (et_timeline_view_get_actions (timeline),
                                                   "show-all-channels"));

  activate_on_channel (window, "timeline.hide-channel", first);
  assert_int_equal (et_layout_n_rows (layout), rows - 1);
  assert_null (et_layout_channel_row (layout, first));
  assert_int_equal (list_rows (window), count_by_hand (window, &hidden));
  assert_true (list_rows (window) < all);
  assert_true (g_action_group_get_action_enabled (et_timeline_view_get_actions (timeline),
                                                  "show-all-channels"));
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "timeline.show-all-channels", NULL));
  assert_int_equal (et_layout_n_rows (layout), rows);
  assert_int_equal (list_rows (window), all);

  activate_on_channel (window, "timeline.move-channel-to-top", last);
  assert_int_equal (et_layout_row (layout, 1)->index, et_trace_channel_thread (et_window_get_trace (window), last));
  assert_int_equal (et_layout_row (layout, 2)->index, last);
  assert_int_equal (v->scroll_y, 0);
  close_window (window);
}

typedef struct
{
  EtShape shape;
  gboolean found;
} FirstFlag;

/* The last flag drawn: its row is far down the report in time order. */
static void
last_flag (const EtShape *s, gpointer data)
{
  FirstFlag *f = data;

  if (s->kind == ET_SHAPE_FLAG && s->x0 > 300)
    f->shape = *s, f->found = TRUE;
}

/* Whether @row of the report lies within its scrolled view (rows are of
 * one height, so the row's place is its share of the whole). */
static gboolean
row_on_screen (EtMarkersList *list, guint row)
{
  GtkWidget *table = find_widget (GTK_WIDGET (list), ET_TYPE_REPORT_TABLE);
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (table));
  double n = et_markers_list_get_n_rows (list);
  double height = gtk_adjustment_get_upper (adj) / n, y = row * height;

  return y >= gtk_adjustment_get_value (adj) - 0.5
         && y + height <= gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) + 0.5;
}

/* Clicking a marker on the timeline selects its row in the Markers report
 * and scrolls to it, whatever column the report is sorted by; so does
 * stepping to the next marker. */
static void
test_clicking_a_marker_selects_its_list_row (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtMarkersList *list = et_window_get_markers_list (window);
  EtReportTable *table = ET_REPORT_TABLE (find_widget (GTK_WIDGET (list), ET_TYPE_REPORT_TABLE));
  FirstFlag f = { { 0 } };
  guint channel, index, row;

  list_rows (window);
  /* The panes settle (under load a frame may still resize the timeline). */
  wait_for_picture (window);
  et_timeline_foreach_shape (et_window_get_trace (window), et_window_get_layout (window),
                             et_window_get_viewport (window), last_flag, &f);
  assert_true (f.found);
  for (guint k = 0; k <= 2 * ET_SORT_KIND + 1; k++)
    {
      /* The default order first, then every column both ways. */
      if (k > 0)
        {
          et_markers_list_set_sort (list, (k - 1) / 2, (k - 1) % 2 == 1);
          RUN_UNTIL (!et_window_is_busy (window));
          et_report_table_set_selected (table, ET_REPORT_NONE);
        }
      assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                        (f.shape.y0 + f.shape.y1) / 2));
      row = et_report_table_get_selected (table);
      assert_true (row != ET_REPORT_NONE);
      assert_true (et_markers_list_get_row (list, row, &channel, &index));
      assert_int_equal (channel, f.shape.channel);
      assert_int_equal (index, f.shape.marker);
      wait_for_frame (GTK_WIDGET (list));
      if (!row_on_screen (list, row))
        fail_msg ("sort %u: row %u of %u is selected out of sight", k, row,
                  et_markers_list_get_n_rows (list));
    }
  /* When the view moves on (a pan keeps the marker in range) the report
   * follows it and keeps the marker selected, in sight. */
  activate (window, "timeline.pan-right");
  RUN_UNTIL (!et_window_is_busy (window));
  row = et_report_table_get_selected (table);
  assert_true (row != ET_REPORT_NONE);
  assert_true (et_markers_list_get_row (list, row, &channel, &index));
  assert_int_equal (channel, f.shape.channel);
  assert_int_equal (index, f.shape.marker);
  wait_for_frame (GTK_WIDGET (list));
  assert_true (row_on_screen (list, row));
  close_window (window);
}

/* Markers of [@from, @to] of the default providers, by hand. */
static guint
count_in (EtTrace *trace, gint64 from, gint64 to)
{
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      if (et_trace_get_provider (trace, et_channel_provider (ch))->default_on)
        for (guint i = 0; i < ch->n_markers; i++)
          n += et_marker_overlaps (&ch->markers[i], from, to);
    }
  return n;
}

/* A drag on the ruler selects a time range: the Markers report lists its
 * markers, Z zooms to it; Escape (timeline.clear-range) clears it. */
static void
test_ruler_drag_selects_a_range_that_z_zooms_to (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                            ET_TYPE_TIMELINE_VIEW));
  double x0 = v->label_width + 200, x1 = x0 + 300;
  gint64 from = et_viewport_time (v, x0), to = et_viewport_time (v, x1), got_from, got_to;
  guint all = list_rows (window);

  drag_on (GTK_WIDGET (timeline), x0, v->ruler_height / 2.0, x1 - x0);
  assert_true (et_timeline_view_get_range (timeline, &got_from, &got_to));
  assert_int_equal (got_from, from);
  assert_int_equal (got_to, to);
  RUN_UNTIL (!et_window_is_busy (window)); /* the report follows a moment later */
  assert_int_equal (list_rows (window), count_in (et_window_get_trace (window), from, to));
  assert_true (list_rows (window) < all);

  activate (window, "timeline.zoom-selection");
  assert_int_equal (v->from_ns, from);
  assert_int_equal (v->to_ns, to);
  assert_false (et_timeline_view_get_range (timeline, &got_from, &got_to));

  /* A drag below the ruler pans instead; Escape clears a range. */
  drag_on (GTK_WIDGET (timeline), x0, v->ruler_height + 50, -100);
  assert_false (et_timeline_view_get_range (timeline, &got_from, &got_to));
  assert_true (v->from_ns > from);
  et_timeline_view_select_range (timeline, from, to);
  assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-range", NULL));
  assert_false (et_timeline_view_get_range (timeline, &got_from, &got_to));
  close_window (window);
}

/* Markers the layout shows in the whole trace, counted by hand. */
static guint64
shown_markers (EtWindow *window)
{
  EtTrace *trace = et_window_get_trace (window);
  EtLayout *layout = et_window_get_layout (window);
  guint64 n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_layout_channel_shown (layout, c))
      for (guint i = 0; i < et_trace_get_channel (trace, c)->n_markers; i++)
        n += et_layout_marker_visible (layout, &et_trace_get_channel (trace, c)->markers[i]);
  return n;
}

/* The overview strip counts the markers the filters show over the whole
 * trace, follows the filters, and a click there centres the view on that
 * time (issue 23, overview). */
static void
test_overview_counts_follows_filters_and_seeks (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtOverviewStrip *overview = ET_OVERVIEW_STRIP (find_widget (GTK_WIDGET (window),
                                                              ET_TYPE_OVERVIEW_STRIP));
  const EtViewport *v = et_window_get_viewport (window);
  EtTrace *trace = et_window_get_trace (window);
  const EtOverviewDensity *d;
  guint64 sum = 0, all;
  gint64 at = et_trace_get_duration_ns (trace) / 3, span;

  assert_non_null (overview);
  RUN_UNTIL (!et_overview_strip_is_busy (overview));
  d = et_overview_strip_get_density (overview);
  assert_non_null (d);
  for (guint b = 0; b < d->n_bins; b++)
    sum += d->bins[b];
  assert_int_equal (sum, d->total);
  assert_int_equal (d->total, shown_markers (window));
  all = d->total;

  et_window_set_provider_visible (window, et_channel_provider (et_trace_get_channel (trace, 0)), FALSE);
  RUN_UNTIL (!et_overview_strip_is_busy (overview));
  assert_true (et_overview_strip_get_density (overview)->total < all);
  assert_int_equal (et_overview_strip_get_density (overview)->total, shown_markers (window));

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  span = v->to_ns - v->from_ns;
  g_signal_emit_by_name (overview, "seek", at);
  assert_true (ABS ((v->from_ns + v->to_ns) / 2 - at) <= span / 100 + 1);
  assert_int_equal (v->to_ns - v->from_ns, span);
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_popover_filters_categories_and_series),
    cmocka_unit_test (test_filter_popover_fits_sorts_searches_and_ticks_all),
    cmocka_unit_test (test_overview_counts_follows_filters_and_seeks),
    cmocka_unit_test (test_row_menu_hides_moves_and_shows_channels),
    cmocka_unit_test (test_clicking_a_marker_selects_its_list_row),
    cmocka_unit_test (test_ruler_drag_selects_a_range_that_z_zooms_to),
  };
  return cmocka_run_group_tests_name ("app-filters", tests, setup_demo, teardown_demo);
}
