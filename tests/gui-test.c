/* gui-test.c — helpers shared by the GUI tests (see gui-test.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gui-test.h"
#include "et-fixture.h"
#include "et-timeline-view.h"
#include "et-stats-pane.h"

char *gui_dir;
char *gui_demo_path;

/* Writes a fixture trace with the fixture tool, as a person would. */
gboolean
run_fixture_tool (const char *const *args)
{
  const char *tool = g_getenv ("ET_FIXTURE_TOOL");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int status = -1;

  if (tool == NULL)
    return FALSE;
  g_ptr_array_add (argv, (gpointer) tool);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                       NULL, NULL, &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

gboolean
still_waiting (gpointer what)
{
  g_printerr ("# still waiting for %s\n", (const char *) what);
  return G_SOURCE_CONTINUE;
}

void
drain_events (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static void
count_paint (GdkFrameClock *clock, gpointer data)
{
  (*(guint *) data)++;
}

void
wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  guint painted = 0;
  gulong id;

  assert_non_null (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (count_paint), &painted);
  gtk_widget_queue_draw (widget);
  RUN_UNTIL (painted > 0);
  g_signal_handler_disconnect (clock, id);
}

/* A painted frame may start the next picture (the view moved on while the
 * last one was drawn), so this asks again after every frame. */
void
wait_for_picture (EtWindow *window)
{
  EtTimelineView *view = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                        ET_TYPE_TIMELINE_VIEW));

  assert_non_null (view);
  if (et_window_get_trace (window) == NULL || !gtk_widget_get_mapped (GTK_WIDGET (view)))
    {
      /* No timeline to wait for (a file that could not be read). */
      RUN_UNTIL (!et_window_is_busy (window));
      wait_for_frame (GTK_WIDGET (window));
      return;
    }
  do
    {
      RUN_UNTIL (!et_window_is_busy (window));
      wait_for_frame (GTK_WIDGET (view));
    }
  while (et_window_is_busy (window) || !et_timeline_view_is_settled (view));
}

void
close_window (EtWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  drain_events ();
}

/* Runs the main loop until loading ends and the timeline has a size. */
EtWindow *
open_window (const char *path)
{
  EtWindow *window = et_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  et_window_load (window, path);
  gtk_window_present (GTK_WINDOW (window));
  RUN_UNTIL (!et_window_is_loading (window) && gtk_widget_get_mapped (GTK_WIDGET (window)));
  wait_for_picture (window);              /* a first frame sizes the timeline */
  return window;
}

void
activate (EtWindow *window, const char *action)
{
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

/* The first widget of @type under @widget, depth first. */
GtkWidget *
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

void
save_screenshot (EtWindow *window, const char *name)
{
  /* The window's content (a toplevel's own paintable is drawn by its surface). */
  GtkWidget *widget = gtk_window_get_child (GTK_WINDOW (window));
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  const char *dir = g_getenv ("ET_TEST_OUTPUT_DIR");
  g_autofree char *path = g_build_filename (dir != NULL ? dir : g_get_tmp_dir (), name, NULL);

  /* The paintable has content once the frame clock has drawn the widget
   * (a page just switched to may need a frame more). */
  for (;;)
    {
      GdkRGBA background = { 1, 1, 1, 1 };

      wait_for_frame (widget);
      /* Under the content, the window's own background (its surface draws
       * it, so the paintable leaves it out): the theme's, dark or light. */
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (window)),
                                      "theme_bg_color", &background);
      G_GNUC_END_IGNORE_DEPRECATIONS
      gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, w, h));
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL && gsk_render_node_get_node_type (node) != GSK_COLOR_NODE)
        break;
      g_clear_pointer (&node, gsk_render_node_unref);
      snapshot = gtk_snapshot_new ();
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_mkdir_with_parents (dir != NULL ? dir : g_get_tmp_dir (), 0755);
  assert_true (gdk_texture_save_to_png (texture, path));
}

/* A plain button (not a check button) labelled @label. */
GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && !GTK_IS_CHECK_BUTTON (widget)
      && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
        return w;
    }
  return NULL;
}

int
setup_demo (void **state)
{
  gtk_init ();
  gui_dir = g_dir_make_tmp ("et-gui-XXXXXX", NULL);
  gui_demo_path = g_build_filename (gui_dir, "demo.etl", NULL);
  return run_fixture_tool ((const char *[]) { "demo", gui_demo_path, NULL }) ? 0 : -1;
}

int
teardown_demo (void **state)
{
  et_fixture_remove_dir (gui_dir);
  g_clear_pointer (&gui_demo_path, g_free);
  g_clear_pointer (&gui_dir, g_free);
  return 0;
}

/* Emits what a drag gesture emits for a drag from (@x, @y) by @dx. */
void
drag_on (GtkWidget *widget, double x, double y, double dx)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_DRAG (c))
        {
          g_signal_emit_by_name (c, "drag-begin", x, y);
          g_signal_emit_by_name (c, "drag-update", dx / 2, 0.0);
          g_signal_emit_by_name (c, "drag-update", dx, 0.0);
          g_signal_emit_by_name (c, "drag-end", dx, 0.0);
          return;
        }
    }
  fail_msg ("the timeline has no drag gesture");
}

/* @node drawn at @widget's size, as pixels. */
GBytes *
node_pixels (GtkWidget *widget, GskRenderNode *node)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkTexture) texture = NULL;
  gsize stride = (gsize) w * 4;
  guint8 *data = g_malloc (stride * h);

  assert_non_null (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_download (texture, data, stride);
  return g_bytes_new_take (data, stride * h);
}

/* What @widget shows now (its last frame), as pixels. */
GBytes *
widget_pixels (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget),
                          gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  return node_pixels (widget, node);
}

void
scroll_to_process (EtWindow *window, guint pid)
{
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  EtTimelineView *view = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
  gboolean found = FALSE;

  for (guint r = 0; r < et_layout_n_rows (layout) && !found; r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS
        && et_trace_get_process (trace, et_layout_row (layout, r)->index)->pid == pid)
      {
        et_window_get_viewport (window)->scroll_y = et_layout_row (layout, r)->y;
        found = TRUE;
      }
  assert_true (found);
  et_timeline_view_layout_changed (view);
  wait_for_picture (window);
}

guint
select_span_row (EtStatsPane *pane)
{
  guint r;

  for (r = 0; r < et_stats_pane_get_n_rows (pane); r++)
    if (et_stats_pane_get_row (pane, r)->kind == ET_MARKER_SPAN
        && et_stats_pane_get_row (pane, r)->count > 10)
      break;
  assert_true (r < et_stats_pane_get_n_rows (pane));
  et_stats_pane_select_row (pane, r);
  return r;
}

EtTimelineView *
window_timeline (EtWindow *window)
{
  return ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
}

EtReportTable *
window_report (EtWindow *window)
{
  return ET_REPORT_TABLE (find_widget (GTK_WIDGET (et_window_get_markers_list (window)),
                                       ET_TYPE_REPORT_TABLE));
}

/* A key pressed in the window goes where GTK sends it: the focused
 * widget's key handlers and bindings, then those of each widget it is in,
 * up to the window's own. TRUE when one of them took it. */
gboolean
press_in_window (EtWindow *window, guint keyval)
{
  g_autofree char *name = gtk_accelerator_name (keyval, 0);

  for (GtkWidget *w = gtk_root_get_focus (GTK_ROOT (window)); w != NULL; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
          gboolean handled = FALSE;

          if (gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_NONE)
            continue;
          if (GTK_IS_EVENT_CONTROLLER_KEY (c))
            g_signal_emit_by_name (c, "key-pressed", keyval, 0, 0, &handled);
          for (guint k = 0; GTK_IS_SHORTCUT_CONTROLLER (c) && !handled
                            && k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
            {
              g_autoptr(GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
              g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (s));

              if (g_str_equal (trigger, name))
                handled = gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0, w,
                                                        gtk_shortcut_get_arguments (s));
            }
          if (handled)
            return TRUE;
        }
    }
  return FALSE;
}

/* The first GtkLabel under @widget whose text holds @part, or NULL. */
GtkLabel *
find_label (GtkWidget *widget, const char *part)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = find_label (c, part);
      if (found != NULL)
        return found;
    }
  return NULL;
}

void
assert_says (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    fail_msg ("\"%s\" does not say \"%s\"", text, part);
}

static void
first_flag (const EtShape *s, gpointer data)
{
  EtShape *flag = data;

  if (flag->m == NULL && s->kind == ET_SHAPE_FLAG)
    *flag = *s;
}

EtShape
click_a_flag (EtWindow *window)
{
  EtShape flag = { 0 };

  et_timeline_foreach_shape (et_window_get_trace (window), et_window_get_layout (window),
                             et_window_get_viewport (window), first_flag, &flag);
  assert_non_null (flag.m);
  assert_true (et_window_select_at (window, (flag.x0 + flag.x1) / 2, (flag.y0 + flag.y1) / 2));
  return flag;
}

void
write_sampled_thread (const char *path)
{
  EtFixtureOptions o;
  EtFixtureWriter *w;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
  et_fixture_write_thread (w, 0, 100, ET_FIXTURE_KERNEL_START, SAMPLED_PID, SAMPLED_TID, NULL);
  et_fixture_write_sample (w, 1, 4000000, SAMPLED_TID, 0x1000);
  et_fixture_write_sample (w, 2, 10000000, 0, 0x1000);          /* the end */
  assert_true (et_fixture_writer_close (w, NULL));
}
