/* GUI tests (under Xvfb): open a trace in a window, wait for loading, drive
 * zoom and selection through actions and clicks, check what is shown, and
 * save a screenshot into the build folder. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include "et-fixture.h"
#include "et-i18n.h"
#include "et-timeline-render.h"
#include "et-window.h"

static char *dir;
static char *demo_path;

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;

  gtk_init ();
  dir = g_dir_make_tmp ("et-app-XXXXXX", NULL);
  demo_path = g_build_filename (dir, "demo.etl", NULL);
  et_fixture_options_init (&o);
  return et_fixture_write_demo (demo_path, &o, &error) ? 0 : -1;
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

static gboolean
give_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, give_up, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Runs the main loop until the window has caught up (a slow, loaded
 * machine only makes this take longer, never fail). */
static void
settle (EtWindow *window)
{
  gboolean late = FALSE;
  guint timer = g_timeout_add_seconds (60, give_up, &late);

  while (et_window_is_busy (window) && !late)
    g_main_context_iteration (NULL, TRUE);
  assert_false (late);
  g_source_remove (timer);
}

/* Runs the main loop until loading ends and the timeline has a size. */
static EtWindow *
open_window (const char *path)
{
  EtWindow *window = et_window_new (NULL);
  gboolean late = FALSE;
  guint timer = g_timeout_add_seconds (60, give_up, &late);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  et_window_load (window, path);
  gtk_window_present (GTK_WINDOW (window));
  while ((et_window_is_loading (window) || !gtk_widget_get_mapped (GTK_WIDGET (window))) && !late)
    g_main_context_iteration (NULL, TRUE);
  assert_false (late);
  g_source_remove (timer);
  settle (window);
  run_for (200);                       /* a first frame sizes the timeline */
  return window;
}

typedef struct
{
  EtShape  shape;
  gboolean found;
} Find;

static void
find_alert (const EtShape *s, gpointer data)
{
  Find *f = data;
  if (!f->found && s->kind == ET_SHAPE_FLAG && s->m->category < 0)
    f->shape = *s, f->found = TRUE;
}

static void
save_screenshot (EtWindow *window, const char *name)
{
  /* The window's content (a toplevel's own paintable is drawn by its surface). */
  GtkWidget *widget = gtk_window_get_child (GTK_WINDOW (window));
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  /* The paintable has content once the frame clock has drawn the widget;
   * slow (sanitizer) builds may need a few frames. */
  for (int tries = 0; tries < 100; tries++)
    {
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL)
        break;
      snapshot = gtk_snapshot_new ();
      run_for (100);
    }
  assert_non_null (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  assert_true (gdk_texture_save_to_png (texture, name));
}

static void
test_open_select_and_read_details (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  g_autofree char *details = NULL;
  EtFields *fields = et_fields_new ();
  Find f = { 0 };
  EtEvent ev;

  assert_non_null (trace);
  assert_int_equal (v->from_ns, 0);
  assert_int_equal (v->to_ns, et_trace_get_duration_ns (trace));
  assert_true (et_layout_n_rows (et_window_get_layout (window)) > 10);

  /* Zoom to a third of the trace, find an alert flag, click its centre. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  assert_true (v->to_ns - v->from_ns < et_trace_get_duration_ns (trace) / 2);
  et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_alert, &f);
  assert_true (f.found);
  assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                    (f.shape.y0 + f.shape.y1) / 2));
  details = et_window_get_details (window);
  et_trace_decode_event (trace, f.shape.m->event, &ev, fields, NULL);
  assert_non_null (strstr (details, ev.name));
  assert_non_null (strstr (details, "Why it looks like this"));
  assert_non_null (strstr (details, "critical"));
  run_for (500);                      /* let the frame clock draw the new state */
  save_screenshot (window, "app-demo.png");

  /* Unticking the alert's provider in the filter hides its rows at once. */
  {
    guint rows = et_layout_n_rows (et_window_get_layout (window));
    Find again = { 0 };

    et_window_set_provider_visible (window, f.shape.m->provider, FALSE);
    assert_true (et_layout_n_rows (et_window_get_layout (window)) < rows);
    et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_alert, &again);
    assert_true (!again.found || again.shape.m->provider != f.shape.m->provider);
    et_window_set_provider_visible (window, f.shape.m->provider, TRUE);
    assert_int_equal (et_layout_n_rows (et_window_get_layout (window)), rows);
  }

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  assert_int_equal (v->to_ns - v->from_ns, et_trace_get_duration_ns (trace));
  g_action_group_activate_action (G_ACTION_GROUP (window), "pan-right", NULL);
  assert_true (v->from_ns > 0);
  et_fields_free (fields);
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
      for (guint i = 0; i < ch->n_markers; i++)
        n += et_marker_overlaps (&ch->markers[i], from, to)
             && et_layout_marker_visible (layout, &ch->markers[i]);
    }
  return n;
}

static void
test_markers_report_follows_view_and_selects (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  g_autofree char *csv_path = g_build_filename (dir, "markers.csv", NULL);
  g_autofree char *csv = NULL, *details = NULL;
  g_auto(GStrv) lines = NULL;
  EtFields *fields = et_fields_new ();
  guint channel, index, all;
  EtEvent ev;

  /* No row limit: the whole trace is in the report. */
  all = et_markers_list_get_n_rows (list);
  assert_int_equal (all, et_trace_get_stats (trace)->markers);

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  settle (window);
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));
  assert_true (et_markers_list_get_n_rows (list) < all);

  /* Choosing a row selects and reveals its marker. */
  et_markers_list_set_sort (list, ET_SORT_DURATION);
  assert_true (et_markers_list_get_row (list, 0, &channel, &index));
  et_markers_list_select_row (list, 0);
  details = et_window_get_details (window);
  et_trace_decode_event (trace, et_trace_get_channel (trace, channel)->markers[index].event,
                         &ev, fields, NULL);
  assert_non_null (strstr (details, ev.name));

  /* CSV export: a header and one line per row. */
  assert_true (et_markers_list_write_csv (list, csv_path, NULL));
  assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\r\n", -1);
  assert_string_equal (lines[0], "Start,Duration,Thread,Provider,Series,Category,Importance,Kind,Text");
  assert_int_equal (g_strv_length (lines) - 2, et_markers_list_get_n_rows (list));
  g_unlink (csv_path);

  /* A filter changes the report too. */
  et_window_set_provider_visible (window, ev.provider, FALSE);
  settle (window);
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));

  /* Large ranges are collected on a thread; the result is the same. */
  et_markers_list_set_async_threshold (list, 0);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-fit", NULL);
  settle (window);
  assert_int_equal (et_markers_list_get_n_rows (list),
                    count_visible (trace, et_window_get_layout (window), v->from_ns, v->to_ns));
  et_fields_free (fields);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Search runs on a thread, finds what the texts and event names say (as a
 * person reading them would count), reveals the first match, and steps. */
static void
test_search_finds_reveals_and_steps (void **state)
{
  EtWindow *window = open_window (demo_path);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *first = NULL, *second = NULL;
  EtFields *fields = et_fields_new ();
  guint expected = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      for (guint i = 0; i < ch->n_markers; i++)
        {
          EtEvent ev;
          g_autofree char *lower = NULL;

          g_string_truncate (text, 0);
          et_trace_marker_text (trace, &ch->markers[i], text);
          et_trace_decode_event (trace, ch->markers[i].event, &ev, fields, NULL);
          g_string_append_printf (text, " %s", ev.name);
          lower = g_ascii_strdown (text->str, -1);
          expected += strstr (lower, "failed") != NULL;
        }
    }
  assert_true (expected > 5);

  et_window_search (window, "FAILED");
  settle (window);
  assert_int_equal (et_window_get_n_matches (window), expected);
  first = et_window_get_details (window);
  assert_non_null (strstr (first, "failed"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "find-next", NULL);
  second = et_window_get_details (window);
  assert_non_null (strstr (second, "failed"));
  assert_string_not_equal (first, second);
  et_fields_free (fields);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_unreadable_file_shows_error_not_crash (void **state)
{
  g_autofree char *bad = g_build_filename (dir, "not-a-trace.etl", NULL);
  EtWindow *window;

  g_file_set_contents (bad, "this is not an etl file", -1, NULL);
  window = open_window (bad);
  assert_null (et_window_get_trace (window));
  assert_non_null (strstr (et_window_get_status (window), bad));
  assert_non_null (strstr (et_window_get_status (window), "byte offset"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (bad);
}

/* The first widget of @type under @widget, depth first. */
static GtkWidget *
find_widget (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_column (GtkColumnView *view, const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, i);
      if (g_strcmp0 (gtk_column_view_column_get_title (c), title) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A German user (LANGUAGE=de) sees German column titles, count, details
 * labels and importance names; the trace's own names stay as they are. */
static void
test_german_labels_under_language_de (void **state)
{
  EtWindow *window;
  EtTrace *trace;
  GtkWidget *list, *label;
  g_autofree char *details = NULL;
  EtFields *fields = et_fields_new ();
  Find f = { 0 };
  EtEvent ev;

  g_setenv ("LANGUAGE", "de", TRUE);
  et_i18n_init ();                    /* setlocale again: gettext caches */
  window = open_window (demo_path);
  trace = et_window_get_trace (window);
  list = GTK_WIDGET (et_window_get_markers_list (window));
  assert_true (has_column (GTK_COLUMN_VIEW (find_widget (list, GTK_TYPE_COLUMN_VIEW)), "Bedeutung"));
  assert_true (has_column (GTK_COLUMN_VIEW (find_widget (list, GTK_TYPE_COLUMN_VIEW)), "Reihe"));
  assert_false (has_column (GTK_COLUMN_VIEW (find_widget (list, GTK_TYPE_COLUMN_VIEW)), "Importance"));
  label = find_widget (list, GTK_TYPE_LABEL);
  assert_non_null (strstr (gtk_label_get_text (GTK_LABEL (label)), " Marker"));
  assert_null (strstr (gtk_label_get_text (GTK_LABEL (label)), "markers"));

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  et_timeline_foreach_shape (trace, et_window_get_layout (window), et_window_get_viewport (window),
                             find_alert, &f);
  assert_true (f.found);
  assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                    (f.shape.y0 + f.shape.y1) / 2));
  details = et_window_get_details (window);
  et_trace_decode_event (trace, f.shape.m->event, &ev, fields, NULL);
  assert_non_null (strstr (details, ev.name));
  assert_non_null (strstr (details, "Warum er so aussieht"));
  assert_non_null (strstr (details, "Bedeutung"));
  assert_non_null (strstr (details, "Kritisch"));
  assert_null (strstr (details, "Why it looks like this"));
  run_for (300);
  save_screenshot (window, "app-demo-de.png");

  et_fields_free (fields);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("LANGUAGE");
  et_i18n_init ();
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_open_select_and_read_details),
    cmocka_unit_test (test_markers_report_follows_view_and_selects),
    cmocka_unit_test (test_search_finds_reveals_and_steps),
    cmocka_unit_test (test_unreadable_file_shows_error_not_crash),
    cmocka_unit_test (test_german_labels_under_language_de),
  };
  return cmocka_run_group_tests_name ("app", tests, setup, teardown);
}
