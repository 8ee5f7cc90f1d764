/* GUI tests (under Xvfb) of how the application fits the desktop: the
 * About dialog, and the Preferences window whose choices (time format,
 * theme, default filters) open windows follow at once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "et-application.h"
#include "et-legend-popover.h"
#include "et-stats-pane.h"
#include "et-details.h"
#include "et-preferences.h"
#include "et-timeline-view.h"

#include <string.h>
#include "gui-test.h"
#include "et-trace-decode.h"

/* An application (no session bus in tests: not unique) with the demo open. */
static EtApplication *
app_with_demo (EtWindow **window)
{
  EtApplication *app = et_application_new ();
  g_autoptr(GFile) file = g_file_new_for_path (gui_demo_path);

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_open (G_APPLICATION (app), &file, 1, "");
  *window = gtk_application_get_windows (GTK_APPLICATION (app))->data;
  RUN_UNTIL (!et_window_is_loading (*window) && !et_window_is_busy (*window));
  return app;
}

static void
test_about_names_the_program_and_version (void **state)
{
  EtWindow *window;
  g_autoptr(EtApplication) app = app_with_demo (&window);
  GtkAboutDialog *about;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  RUN_UNTIL (find_toplevel (GTK_TYPE_ABOUT_DIALOG) != NULL);
  about = GTK_ABOUT_DIALOG (find_toplevel (GTK_TYPE_ABOUT_DIALOG));
  assert_string_equal (gtk_about_dialog_get_program_name (about), "Etlscope");
  assert_string_equal (gtk_about_dialog_get_version (about), ETLSCOPE_VERSION);
  assert_int_equal (gtk_about_dialog_get_license_type (about), GTK_LICENSE_GPL_3_0);
  gtk_window_destroy (GTK_WINDOW (about));
  close_window (window);
}

/* The n-th widget of @type under @widget, depth first. */
static GtkWidget *
nth_widget (GtkWidget *widget, GType type, guint *n)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && (*n)-- == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = nth_widget (c, type, n);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkDropDown *
drop_down (GtkWidget *preferences, guint n)
{
  return GTK_DROP_DOWN (nth_widget (preferences, GTK_TYPE_DROP_DOWN, &n));
}

/* Whether the details pane's text is drawn light (a dark theme). */
static gboolean
text_is_light (EtWindow *window)
{
  GtkWidget *text = find_widget (GTK_WIDGET (window), GTK_TYPE_TEXT_VIEW);
  GdkRGBA color;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (text), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue > 0.5;
}

/* Each choice in Preferences lands in its GSettings key, and the open
 * window follows it at once: the ruler's time, light, dark or high
 * contrast, the minimum importance and the kinds shown. */
static void
test_preferences_apply_to_open_windows (void **state)
{
  EtWindow *window;
  g_autoptr(EtApplication) app = app_with_demo (&window);
  g_autoptr(GSettings) settings = et_application_settings_new ();
  g_auto(GStrv) kinds = NULL;
  g_autofree char *format = NULL, *theme = NULL;
  EtViewport *v = et_window_get_viewport (window);
  GtkWidget *preferences;
  guint n = 0;

  assert_non_null (settings);
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  RUN_UNTIL (find_toplevel (ET_TYPE_PREFERENCES) != NULL);
  preferences = GTK_WIDGET (find_toplevel (ET_TYPE_PREFERENCES));

  gtk_drop_down_set_selected (drop_down (preferences, 0), 1);
  format = g_settings_get_string (settings, "time-format");
  assert_string_equal (format, "wall-clock");
  assert_true (v->wall_clock);

  gtk_drop_down_set_selected (drop_down (preferences, 1), 2);
  theme = g_settings_get_string (settings, "theme");
  assert_string_equal (theme, "dark");
  assert_true (v->dark);
  gtk_drop_down_set_selected (drop_down (preferences, 1), 1);
  assert_false (v->dark);
  /* High contrast switches the whole program to GTK's HighContrast themes,
   * and the timeline to its outlined black-and-white look. */
  gtk_drop_down_set_selected (drop_down (preferences, 1), 3);
  g_free (theme);
  theme = g_settings_get_string (settings, "theme");
  assert_string_equal (theme, "high-contrast");
  assert_true (v->high_contrast);
  assert_false (v->dark);
  wait_for_picture (window);
  save_screenshot (window, "app-high-contrast.png");
  assert_false (text_is_light (window));
  gtk_drop_down_set_selected (drop_down (preferences, 1), 4);
  assert_true (v->high_contrast);
  assert_true (v->dark);
  /* The whole window turns dark, not the timeline alone: the details
   * pane's text is light (it stayed dark on light in GTK 4.8 with the
   * theme named HighContrastInverse, issue 23 item 6). */
  assert_true (text_is_light (window));
  wait_for_picture (window);
  save_screenshot (window, "app-high-contrast-dark.png");
  gtk_drop_down_set_selected (drop_down (preferences, 1), 1);
  assert_false (v->high_contrast);
  assert_false (v->dark);

  gtk_drop_down_set_selected (drop_down (preferences, 2), ET_IMPORTANCE_HIGH);
  assert_int_equal (g_settings_get_int (settings, "min-importance"), ET_IMPORTANCE_HIGH);
  assert_int_equal (et_layout_get_min_importance (et_window_get_layout (window)), ET_IMPORTANCE_HIGH);

  /* The third check button is Spans. */
  n = 2;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (nth_widget (preferences, GTK_TYPE_CHECK_BUTTON, &n)),
                               FALSE);
  kinds = g_settings_get_strv (settings, "kinds");
  assert_false (g_strv_contains ((const char * const *) kinds, "span"));
  assert_true (g_strv_contains ((const char * const *) kinds, "flag"));
  assert_false (et_layout_kind_visible (et_window_get_layout (window), ET_MARKER_SPAN));
  assert_true (et_layout_kind_visible (et_window_get_layout (window), ET_MARKER_FLAG));

  /* Back to the defaults for the tests after this one. */
  g_settings_reset (settings, "time-format");
  g_settings_reset (settings, "theme");
  g_settings_reset (settings, "min-importance");
  g_settings_reset (settings, "kinds");
  assert_false (v->wall_clock);
  gtk_window_destroy (GTK_WINDOW (preferences));
  close_window (window);
}

/* The first shown marker of @channel from @from on (by hand). */
static guint
first_shown (EtLayout *layout, const EtChannel *ch, guint from)
{
  for (guint i = from; i < ch->n_markers; i++)
    if (et_layout_marker_visible (layout, &ch->markers[i]))
      return i;
  return G_MAXUINT;
}

/* The shown marker of @ch starting nearest to @t (by hand: every one). */
static guint
nearest_shown (EtLayout *layout, const EtChannel *ch, gint64 t)
{
  guint best = G_MAXUINT;
  guint64 best_distance = G_MAXUINT64;

  for (guint i = 0; i < ch->n_markers; i++)
    {
      guint64 d = (guint64) ABS (ch->markers[i].start_ns - t);
      if (et_layout_marker_visible (layout, &ch->markers[i]) && d < best_distance)
        best = i, best_distance = d;
    }
  return best;
}

/* The channel row after @channel's (by hand), or G_MAXUINT. */
static guint
channel_below (EtLayout *layout, guint channel)
{
  gboolean seen = FALSE;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      if (row->kind != ET_ROW_CHANNEL)
        continue;
      if (seen)
        return row->index;
      seen = row->index == channel;
    }
  return G_MAXUINT;
}

/* After a key, the selected marker is @index of @channel, the details pane
 * shows it and the timeline's accessible description reads it out. */
static void
check_focus (EtWindow *window, EtTimelineView *timeline, guint channel, guint index)
{
  EtTrace *trace = et_window_get_trace (window);
  const EtMarker *m = &et_trace_get_channel (trace, channel)->markers[index];
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *details = NULL, *mismatch = NULL;
  EtShape shape;

  assert_true (et_timeline_view_get_selection (timeline, &shape));
  assert_int_equal (shape.channel, channel);
  assert_int_equal (shape.marker, index);
  et_trace_marker_text (trace, m, text);
  details = et_window_get_details (window);
  assert_non_null (strstr (details, text->str));
  /* The tooltip's lines (text; kind at time, lasting duration; …). */
  et_details_summary (trace, channel, m, expected);
  g_strdelimit (expected->str, "\n", ';');
  assert_true (g_str_has_prefix (expected->str, text->str));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (timeline),
                                                 GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected->str);
  if (mismatch != NULL)
    fail_msg ("description '%s', expected '%s'", mismatch, expected->str);
}

/* A step never zooms: the view keeps the span of time the user chose
 * (a marker merged with its neighbours is selected in their grey mark). */
static void
press (EtTimelineView *timeline, const char *action)
{
  const EtViewport *v = et_timeline_view_get_viewport (timeline);
  gint64 span = v->to_ns - v->from_ns;

  assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), action, NULL));
  assert_int_equal (v->to_ns - v->from_ns, span);
}

/* The timeline is an accessible group named after the trace; the arrow
 * keys move focus marker to marker (Right/Left in the channel, Down/Up to
 * the nearest in time in the next channel row), each selected, shown in
 * the details and described for screen readers. */
static void
test_keyboard_moves_focus_marker_to_marker (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
  EtTrace *trace = et_window_get_trace (window);
  EtLayout *layout = et_window_get_layout (window);
  g_autofree char *mismatch = NULL;
  guint c0 = G_MAXUINT, i0 = G_MAXUINT, i1, c1;

  assert_true (gtk_test_accessible_has_role (GTK_ACCESSIBLE (timeline), GTK_ACCESSIBLE_ROLE_GROUP));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (timeline),
                                                 GTK_ACCESSIBLE_PROPERTY_LABEL, "Timeline of demo.etl");
  assert_null (mismatch);
  assert_true (gtk_widget_get_focusable (GTK_WIDGET (timeline)));

  /* Channel rows only (merged rows of collapsed threads: test-app-threads). */
  et_layout_set_all_threads_collapsed (layout, FALSE);
  et_timeline_view_rows_changed (timeline);
  /* Nothing selected: the first marker of the first channel row (the view
   * starts at 0, so the nearest to it is the first shown). */
  for (guint r = 0; r < et_layout_n_rows (layout) && i0 == G_MAXUINT; r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_CHANNEL)
      {
        c0 = et_layout_row (layout, r)->index;
        i0 = first_shown (layout, et_trace_get_channel (trace, c0), 0);
      }
  press (timeline, "timeline.next-marker");
  check_focus (window, timeline, c0, i0);

  i1 = first_shown (layout, et_trace_get_channel (trace, c0), i0 + 1);
  press (timeline, "timeline.next-marker");
  check_focus (window, timeline, c0, i1);
  press (timeline, "timeline.previous-marker");
  check_focus (window, timeline, c0, i0);

  c1 = channel_below (layout, c0);
  assert_true (c1 != G_MAXUINT);
  press (timeline, "timeline.marker-down");
  check_focus (window, timeline, c1, nearest_shown (layout, et_trace_get_channel (trace, c1),
                                                    et_trace_get_channel (trace, c0)->markers[i0].start_ns));
  et_layout_set_all_threads_collapsed (layout, -1);    /* nothing left remembered */
  et_timeline_view_rows_changed (timeline);
  close_window (window);
}

/* In a crowded trace, where most markers are merged at the whole trace's
 * zoom, steps still keep the zoom and select the marker stepped to. */
static void
test_marker_steps_keep_the_zoom_in_a_crowded_trace (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "crowded.etl", NULL);
  EtWindow *window;
  EtTimelineView *timeline;
  EtTrace *trace;
  EtShape shape;
  const EtMarker *previous = NULL;
  guint kept = 0;

  assert_true (run_fixture_tool ((const char *[]) { "large", "20000", path, NULL }));
  window = open_window (path);
  trace = et_window_get_trace (window);
  timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
  for (guint k = 0; k < 30; k++)
    {
      EtViewport before = *et_timeline_view_get_viewport (timeline);

      wait_for_picture (window);
      press (timeline, k % 5 == 4 ? "timeline.marker-down" : "timeline.next-marker");
      /* A step to a marker in view moves the selection only: the picture
       * on screen is still the one for the view, nothing is drawn again. */
      if (memcmp (&before, et_timeline_view_get_viewport (timeline), sizeof before) == 0)
        {
          assert_true (et_timeline_view_is_settled (timeline));
          kept++;
        }
      assert_true (et_timeline_view_get_selection (timeline, &shape));
      assert_int_equal (shape.count, 1);
      assert_ptr_equal (shape.m, &et_trace_get_channel (trace, shape.channel)->markers[shape.marker]);
      /* Each step lands on another marker, but at a channel's end. */
      if (shape.m == previous
          && shape.marker + 1 < et_trace_get_channel (trace, shape.channel)->n_markers)
        fail_msg ("step %u stayed on marker %u of channel %u", k, shape.marker, shape.channel);
      previous = shape.m;
    }
  assert_true (kept > 0);
  close_window (window);
}

/* Ctrl+L shows the legend, drawn by render/ at the height it measures,
 * and Ctrl+L again puts it away (issue 23, legend). */
static void
test_legend_toggles_and_is_measured (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkWidget *legend = find_widget (GTK_WIDGET (window), ET_TYPE_LEGEND_POPOVER);

  assert_non_null (legend);
  assert_false (gtk_widget_get_visible (legend));
  activate (window, "win.show-legend");
  RUN_UNTIL (gtk_widget_get_mapped (legend));
  assert_true (et_legend_popover_get_height (ET_LEGEND_POPOVER (legend)) > 60);
  wait_for_frame (legend);
  save_screenshot (window, "app-legend.png");
  activate (window, "win.show-legend");
  RUN_UNTIL (!gtk_widget_get_visible (legend));
  close_window (window);
}

/* The dark theme over the whole window, with the legend, the overview,
 * the statistics and a span row's histogram: what a person sees, saved
 * for docs/screenshots (the light ones come from the other tests). The
 * legend draws in the timeline's dark colours, and the window's text is
 * light. */
static void
test_dark_theme_screenshots (void **state)
{
  EtWindow *window;
  g_autoptr(EtApplication) app = app_with_demo (&window);
  g_autoptr(GSettings) settings = et_application_settings_new ();
  GtkWidget *legend = find_widget (GTK_WIDGET (window), ET_TYPE_LEGEND_POPOVER);
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtStatsPane *pane = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  guint r;

  g_settings_set_string (settings, "theme", "dark");
  assert_true (et_window_get_viewport (window)->dark);
  assert_true (text_is_light (window));
  activate (window, "win.show-legend");
  RUN_UNTIL (gtk_widget_get_mapped (legend));
  wait_for_picture (window);
  save_screenshot (window, "app-legend-dark.png");
  activate (window, "win.show-legend");
  RUN_UNTIL (!gtk_widget_get_visible (legend));

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (!et_window_is_busy (window) && !et_stats_pane_is_busy (pane)
             && et_stats_pane_get_n_rows (pane) > 0);
  for (r = 0; r < et_stats_pane_get_n_rows (pane); r++)
    if (et_stats_pane_get_row (pane, r)->kind == ET_MARKER_SPAN)
      break;
  assert_true (r < et_stats_pane_get_n_rows (pane));
  et_stats_pane_select_row (pane, r);
  assert_non_null (et_stats_pane_get_histogram (pane));
  wait_for_picture (window);
  save_screenshot (window, "app-histogram-dark.png");
  g_settings_reset (settings, "theme");
  close_window (window);
}

/* The bookmarks menu's items that go to a bookmark, counted. */
static guint
bookmark_items (GMenuModel *menu)
{
  guint n = 0;

  for (gint i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      g_autofree char *action = NULL;

      if (section != NULL)
        n += bookmark_items (section);
      else if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        n += g_str_equal (action, "win.go-to-bookmark");
    }
  return n;
}

static GMenuModel *
bookmarks_menu (EtWindow *window)
{
  GtkWidget *button = find_widget (GTK_WIDGET (window), GTK_TYPE_MENU_BUTTON);
  GMenuModel *primary = NULL;

  /* The main menu's Bookmarks submenu, found through the header bar's
   * menu buttons. */
  for (GtkWidget *w = button; w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_MENU_BUTTON (w) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (w)) != NULL)
      primary = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (w));
  for (gint i = 0; primary != NULL && i < g_menu_model_get_n_items (primary); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (primary, i, G_MENU_LINK_SECTION);

      for (gint k = 0; section != NULL && k < g_menu_model_get_n_items (section); k++)
        {
          g_autoptr(GMenuModel) sub = g_menu_model_get_item_link (section, k, G_MENU_LINK_SUBMENU);
          g_autofree char *label = NULL;

          if (sub != NULL && g_menu_model_get_item_attribute (section, k, G_MENU_ATTRIBUTE_LABEL, "s", &label)
              && g_str_equal (label, "_Bookmarks"))
            return g_steal_pointer (&sub);
        }
    }
  return NULL;
}

/* M marks the selected marker's time: kept beside the trace (TRACE.bookmarks),
 * listed in the Bookmarks menu, there again when the trace is opened again;
 * a bookmark from the menu centres the view on it; Remove All empties them
 * (issue 23, bookmarks). */
static void
test_bookmarks_are_kept_beside_the_trace (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "marked.etl", NULL);
  g_autofree char *sidecar = g_strconcat (path, ".bookmarks", NULL);
  g_autofree char *bytes = NULL, *kept = NULL, *time_text = NULL;
  g_autoptr(GMenuModel) menu = NULL;
  gsize len;
  EtWindow *window;
  EtTimelineView *timeline;
  const EtViewport *v;
  EtShape shape;
  gint64 t;

  assert_true (g_file_get_contents (gui_demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  window = open_window (path);
  timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
  press (timeline, "timeline.next-marker");
  assert_true (et_timeline_view_get_selection (timeline, &shape));
  t = shape.m->start_ns;
  activate (window, "win.add-bookmark");
  assert_true (g_file_get_contents (sidecar, &kept, NULL, NULL));
  time_text = g_strdup_printf ("%" G_GINT64_FORMAT, t);
  assert_non_null (strstr (kept, time_text));
  menu = bookmarks_menu (window);
  assert_non_null (menu);
  assert_int_equal (bookmark_items (menu), 1);
  close_window (window);

  window = open_window (path);
  g_clear_object (&menu);
  menu = bookmarks_menu (window);
  assert_int_equal (bookmark_items (menu), 1);
  v = et_window_get_viewport (window);
  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.go-to-bookmark", "x", t));
  assert_true (ABS ((v->from_ns + v->to_ns) / 2 - t) <= (v->to_ns - v->from_ns) / 100 + 1);
  activate (window, "win.clear-bookmarks");
  assert_int_equal (bookmark_items (menu), 0);
  close_window (window);
  g_unlink (sidecar);
  g_unlink (path);
}

int
main (void)
{
  /* GTK's test accessibility backend keeps what screen readers would be
   * told, for gtk_test_accessible_check_property (). */
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* As when the program is started from the build folder by hand: no
   * GSETTINGS_SCHEMA_DIR. The preferences must still find the schema
   * compiled beside it (_build/data, beside this test's _build/tests). */
  g_unsetenv ("GSETTINGS_SCHEMA_DIR");

  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_about_names_the_program_and_version),
    cmocka_unit_test (test_preferences_apply_to_open_windows),
    cmocka_unit_test (test_keyboard_moves_focus_marker_to_marker),
    cmocka_unit_test (test_marker_steps_keep_the_zoom_in_a_crowded_trace),
    cmocka_unit_test (test_legend_toggles_and_is_measured),
    cmocka_unit_test (test_bookmarks_are_kept_beside_the_trace),
    cmocka_unit_test (test_dark_theme_screenshots),
  };
  return cmocka_run_group_tests_name ("app-desktop", tests, setup_demo, teardown_demo);
}
