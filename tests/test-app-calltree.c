/* test-app-calltree.c — the Call Tree tab under Xvfb (issue 33).
 *
 * On the fixture of known stacks (`etlscope-fixture stacks`): the selected
 * span's call tree shows, row for row, the tree `etlscope-cli stacks
 * --format=json --marker 1` writes of the same span (names, inclusive and
 * exclusive samples, in its order), and a range's that of `--from --to`;
 * the bottom-up view's functions carry the samples that ended in them
 * (summed here from the CLI's tree); search reveals a frame; a trace
 * without samples says so; the flame graph, the details' stacks, a
 * chosen frame's marks on the CPU bands, the Statistics' CPU samples and
 * a span row's call tree (its root those samples, counted by hand).
 * Real traces: test-app-calltree-corpus.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "calltree-check.h"
#include "et-details-pane.h"
#include "et-i18n.h"
#include "et-cpu-marks.h"
#include "et-cpu-strip.h"
#include "et-sample-marks.h"
#include "et-stats-pane.h"
#include "et-timeline-view.h"
#include "et-trace-stacks.h"
#include "gui-test.h"

static char *stacks_path;

/* Two frames of the fixture's stacks (et-fixture-stacks.c). */
#define CART_TOTAL "Shop.Orders!Shop.Orders.Cart.Total(int32,bool)"
#define MAIN "Shop.Orders!Shop.Orders.Program.Main(class System.String[])"

static int
setup (void **state)
{
  int status = setup_demo (state);

  stacks_path = g_build_filename (gui_dir, "stacks.nettrace", NULL);
  assert_true (run_fixture_tool ((const char *const[]) { "stacks", stacks_path, NULL }));
  return status;
}

static int
teardown (void **state)
{
  g_unlink (stacks_path);
  g_clear_pointer (&stacks_path, g_free);
  return teardown_demo (state);
}

static char *
selected_name (GtkTreeView *view)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  char *name = NULL;

  if (gtk_tree_selection_get_selected (gtk_tree_view_get_selection (view), &model, &iter))
    gtk_tree_model_get (model, &iter, ET_CALL_COL_NAME, &name, -1);
  return name;
}

/* Whether the details' text at @needle + @offset is greyed as a module
 * (found in the buffer as it is, with the break chances the details put
 * in long values: offsets are the buffer's). */
static gboolean
greyed_at (GtkTextView *view, const char *needle, int offset)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "module");
  GtkTextIter iter, start, end;
  g_autofree char *text = NULL;
  const char *at;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  at = strstr (text, needle);

  assert_non_null (at);
  assert_non_null (tag);
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, at) + offset);
  return gtk_text_iter_has_tag (&iter, tag);
}

/* The selected span's details end with its start's and its stop's stacks
 * (the fixture's, written by hand in et-fixture-stacks.c), leaf first,
 * each frame's module greyed. */
static void
assert_details_stacks (EtWindow *window)
{
  GtkWidget *details = find_widget (GTK_WIDGET (window), ET_TYPE_DETAILS_PANE);
  GtkTextView *view = GTK_TEXT_VIEW (find_widget (details, GTK_TYPE_TEXT_VIEW));
  g_autofree char *text = NULL;
  const char *line = "  " CART_TOTAL "\n";

  RUN_UNTIL (!et_details_pane_is_busy (ET_DETAILS_PANE (details)));
  text = et_details_pane_get_text (ET_DETAILS_PANE (details));
  assert_non_null (strstr (text, "\nCall stack at the start, innermost first — frames: 2, unnamed: 0\n"
                                 "  " CART_TOTAL "\n  " MAIN "\n"));
  assert_non_null (strstr (text, "\nCall stack at the stop, innermost first — frames: 1, unnamed: 0\n"
                                 "  " MAIN "\n"));
  assert_true (greyed_at (view, line, 2));                        /* "Shop.Orders!" */
  assert_true (greyed_at (view, line, 2 + strlen ("Shop.Orders")));
  assert_false (greyed_at (view, line, 2 + strlen ("Shop.Orders!")));
}

/* Samples of thread @thread whose stack names @name, by hand: its every
 * sample's frames, named at the sample's time. */
static guint
samples_naming (EtTrace *trace, guint thread, const char *name)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GArray) symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  const gint64 *ns;
  const guint32 *nodes;
  guint n = et_stacks_thread_samples (stacks, thread, &ns, &nodes), count = 0;

  for (guint k = 0; k < n; k++)
    {
      gboolean has = FALSE;

      g_array_set_size (symbols, 0);
      et_stacks_node_symbols (stacks, nodes[k], ns[k], symbols);
      for (guint i = 0; i < symbols->len; i++)
        has |= g_str_equal (et_stacks_name (stacks, g_array_index (symbols, guint32, i)), name);
      count += has;
    }
  return count;
}

/* The colour at (@x, @y) of PNG @name in the test output folder (0xRRGGBB). */
static guint32
png_pixel (const char *name, double x, double y)
{
  g_autofree char *path = g_build_filename (g_getenv ("ET_TEST_OUTPUT_DIR"), name, NULL);
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  guint32 pixel;

  assert_int_equal (cairo_surface_status (png), CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (png);
  pixel = *(const guint32 *) (cairo_image_surface_get_data (png)
                              + (int) y * cairo_image_surface_get_stride (png) + (int) x * 4);
  cairo_surface_destroy (png);
  return pixel & 0xffffff;
}

/* The chosen frame's samples are marked on every thread's CPU band as
 * counted by hand, and drawn there in the marks' colour (the window's
 * picture, read back). */
static void
assert_marked (EtWindow *window, const char *name, const char *png)
{
  EtSampleMarks *marks = ET_SAMPLE_MARKS (find_widget (GTK_WIDGET (window), ET_TYPE_SAMPLE_MARKS));
  GtkWidget *timeline = find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  graphene_point_t origin;
  double rgb[3];
  guint64 total = 0;

  RUN_UNTIL (!et_window_is_busy (window));
  save_screenshot (window, png);
  assert_true (gtk_widget_compute_point (timeline, gtk_window_get_child (GTK_WINDOW (window)),
                                         &GRAPHENE_POINT_INIT (0, 0), &origin));
  et_cpu_marks_rgb (v, rgb);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      const GArray *times = et_sample_marks_get_times (marks, t);
      guint expected = samples_naming (trace, t, name);
      const EtRow *row = et_layout_thread_row (et_window_get_layout (window), t);
      double top, height;
      guint32 pixel;

      assert_int_equal (times != NULL ? times->len : 0, expected);
      total += expected;
      if (expected == 0)
        continue;
      et_cpu_marks_columns (v, times, xs);
      assert_true (xs->len > 0 && row != NULL);
      assert_true (et_cpu_strip_band (trace, row, row->y - v->scroll_y + v->ruler_height, &top, &height));
      pixel = png_pixel (png, origin.x + g_array_index (xs, double, 0) + 1, origin.y + top + height / 2);
      assert_int_equal (pixel, ((guint32) (rgb[0] * 255 + 0.5) << 16) | ((guint32) (rgb[1] * 255 + 0.5) << 8)
                               | (guint32) (rgb[2] * 255 + 0.5));
    }
  assert_int_equal (et_sample_marks_get_n_samples (ET_SAMPLE_MARKS (marks)), total);
  assert_true (total > 0);
}

/* ---- the tests ------------------------------------------------------------ */

/* A span selected on the timeline: its thread's samples during it. */
static void
test_span_call_tree_equals_cli (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(JsonObject) doc = cli_tree ((const char *const[]) { "--marker", "1", stacks_path, NULL });
  EtCallTreePane *pane;
  g_autoptr(GtkTreePath) path = NULL;
  guint c;

  for (c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_trace_get_channel (trace, c)->n_markers > 0)
      break;
  assert_true (c < et_trace_get_n_channels (trace));
  assert_int_equal (et_trace_get_channel (trace, c)->markers[0].kind, ET_MARKER_SPAN);
  et_window_reveal_marker (window, c, 0);
  assert_details_stacks (window);
  /* nothing is computed while the tab is hidden; Ctrl+K's action brings
   * it up, its tree focused */
  pane = call_tree_pane (window);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_null (et_call_tree_pane_get_tree (pane));
  activate (window, "win.show-call-tree");
  assert_true (gtk_widget_get_mapped (GTK_WIDGET (pane)));
  assert_true (gtk_widget_has_focus (GTK_WIDGET (et_call_tree_pane_get_view (pane, FALSE))));
  pane = show_call_tree (window);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "Thread 100, the span from"));
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "1 CPU sample "));
  assert_null (et_call_tree_pane_get_message (pane));
  /* the hot path is open: process › thread › Main, so the span's leaf shows */
  path = gtk_tree_path_new_from_string ("0:0:0");
  assert_true (gtk_tree_view_row_expanded (et_call_tree_pane_get_view (pane, FALSE), path));
  assert_int_equal (json_object_get_int_member (doc, "samples"), 1);
  assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                     json_object_get_object_member (doc, "tree"), 16, 16);
  assert_bottom_up (pane, json_object_get_object_member (doc, "tree"));
  wait_for_frame (GTK_WIDGET (pane));
  save_screenshot (window, "app-calltree-span.png");

  /* Selecting nothing gives the pane back the visible range: all threads. */
  et_timeline_view_clear_selection (ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                                   ET_TYPE_TIMELINE_VIEW)));
  RUN_UNTIL (!et_window_is_busy (window));
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "All threads from"));
  close_window (window);
}

/* A range dragged on the ruler: every thread's samples in it; the
 * bottom-up view and search. */
static void
test_range_call_tree_equals_cli (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtViewport *v = et_window_get_viewport (window);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                            ET_TYPE_TIMELINE_VIEW));
  gint64 from = v->from_ns, to = v->to_ns;
  g_autofree char *from_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", from);
  g_autofree char *to_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", to);
  g_autoptr(JsonObject) doc = cli_tree ((const char *const[]) { "--from", from_arg, "--to", to_arg,
                                                                stacks_path, NULL });
  EtCallTreePane *pane;
  GtkTreeView *top_down;
  g_autofree char *found = NULL;

  et_timeline_view_select_range (timeline, from, to);
  pane = show_call_tree (window);
  RUN_UNTIL (!et_window_is_busy (window));
  top_down = et_call_tree_pane_get_view (pane, FALSE);
  /* the fixture's 8 samples: 5 of thread 100, 3 of thread 200 */
  assert_int_equal (json_object_get_int_member (doc, "samples"), 8);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "8 CPU samples"));
  assert_rows_equal (top_down, NULL, json_object_get_object_member (doc, "tree"), 16, 16);
  assert_bottom_up (pane, json_object_get_object_member (doc, "tree"));

  /* Search, case aside: the frame is opened to and chosen. */
  assert_true (et_call_tree_pane_find (pane, "old.run"));
  found = selected_name (top_down);
  assert_string_equal (found, "Shop.Orders!Shop.Orders.Old.Run()");
  /* chosen, the frame's samples are marked on the CPU bands: Old.Run's
   * one sample, Main's five of thread 100 */
  assert_marked (window, "Shop.Orders!Shop.Orders.Old.Run()", "app-calltree-marks-old.png");
  assert_true (et_call_tree_pane_find (pane, "program.main"));
  assert_marked (window, MAIN, "app-calltree-marks-main.png");
  assert_false (et_call_tree_pane_find (pane, "no such frame"));
  save_screenshot (window, "app-calltree-range.png");
  close_window (window);
}

/* The flame graph of the fixture's 8 samples: boxes as wide as their
 * samples, under their callers; a click zooms into a frame (its callers
 * over it at full width), a click on a caller or the right button back;
 * the tooltip names the frame with its samples. */
static void
test_flame_graph_zooms (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtViewport *v = et_window_get_viewport (window);
  EtCallTreePane *pane;
  EtFlameView *flame;
  const EtCallTree *tree;
  const EtFlameBox *cart, *main_box;
  double width, x, y;
  guint cart_node, main_node;
  g_autofree char *tip = NULL;

  et_timeline_view_select_range (ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                                ET_TYPE_TIMELINE_VIEW)),
                                 v->from_ns, v->to_ns);
  pane = show_call_tree (window);
  RUN_UNTIL (!et_window_is_busy (window));
  tree = et_call_tree_pane_get_tree (pane);
  gtk_stack_set_visible_child_name (GTK_STACK (find_widget (GTK_WIDGET (pane), GTK_TYPE_STACK)),
                                    "flame");
  flame = ET_FLAME_VIEW (find_widget (GTK_WIDGET (pane), ET_TYPE_FLAME_VIEW));
  wait_for_frame (GTK_WIDGET (flame));
  width = gtk_widget_get_width (GTK_WIDGET (flame));
  assert_true (width > 100);

  /* root › process › thread › Main › Cart.Total: 3 of the 8 samples */
  cart = flame_box (flame, tree, CART_TOTAL);
  main_box = flame_box (flame, tree, MAIN);
  assert_non_null (cart);
  assert_non_null (main_box);
  assert_int_equal (cart->depth, 4);
  assert_int_equal (main_box->depth, 3);
  assert_true (fabs ((cart->x1 - cart->x0) - 3.0 / 8) < 1e-9);
  assert_true (fabs ((main_box->x1 - main_box->x0) - 5.0 / 8) < 1e-9);
  assert_true (cart->x0 >= main_box->x0 && cart->x1 <= main_box->x1);
  x = (cart->x0 + cart->x1) / 2 * width;
  y = (cart->depth + 0.5) * ET_FLAME_ROW_HEIGHT;
  tip = et_flame_view_tooltip_at (flame, x, y);
  assert_non_null (strstr (tip, CART_TOTAL));
  assert_non_null (strstr (tip, "Inclusive: 3 samples (37.5 %)"));
  save_screenshot (window, "app-calltree-flame.png");

  /* zoom into Cart.Total: it fills the width under its four callers */
  cart_node = cart->node;                      /* (a zoom lays the boxes out again) */
  main_node = main_box->node;
  assert_true (et_flame_view_click (flame, GDK_BUTTON_PRIMARY, x, y));
  assert_int_equal (et_flame_view_get_zoom (flame), cart_node);
  cart = flame_box (flame, tree, CART_TOTAL);
  assert_true (cart->x0 == 0.0 && cart->x1 == 1.0 && !cart->caller);
  assert_true (flame_box (flame, tree, MAIN)->caller);
  /* a click on the caller Main goes back to it; the right button to its caller */
  assert_true (et_flame_view_click (flame, GDK_BUTTON_PRIMARY, width / 2,
                                    3.5 * ET_FLAME_ROW_HEIGHT));
  assert_int_equal (et_flame_view_get_zoom (flame), main_node);
  assert_true (et_flame_view_click (flame, GDK_BUTTON_SECONDARY, 0, 0));
  assert_int_equal (et_flame_view_get_zoom (flame), et_call_tree_node (tree, main_node)->parent);

  /* search in the flame graph zooms to the hottest match */
  assert_true (et_call_tree_pane_find (pane, "cart.total"));
  assert_int_equal (et_flame_view_get_zoom (flame), cart_node);
  close_window (window);
}

/* A range set while an older one is computed cancels it: the tree shown
 * is the newer range's, never the older one's arriving late. */
static void
test_newer_range_wins (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtCallTreePane *pane = show_call_tree (window);
  g_autoptr(JsonObject) early = cli_tree ((const char *const[]) { "--from", "0ns", "--to", "15ms",
                                                                  stacks_path, NULL });
  g_autoptr(JsonObject) late = cli_tree ((const char *const[]) { "--from", "20ms", "--to", "32ms",
                                                                 stacks_path, NULL });

  /* (two ranges of different trees, or the test could not tell them apart) */
  assert_true (json_object_get_int_member (early, "samples")
               != json_object_get_int_member (late, "samples"));
  et_call_tree_pane_set_range (pane, 0, 15000000);
  et_call_tree_pane_set_range (pane, 20000000, 32000000);   /* before the first is shown */
  RUN_UNTIL (!et_window_is_busy (window));
  assert_int_equal (et_call_tree_node (et_call_tree_pane_get_tree (pane), 0)->inclusive,
                    json_object_get_int_member (late, "samples"));
  assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                     json_object_get_object_member (late, "tree"), 16, 16);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "from 20 ms to 32 ms"));
  close_window (window);
}

/* "Selected Marker's Thread" ticked: the range's tree is that thread's
 * alone, as `stacks --tid` writes it; unticked, every thread's again. */
static void
test_selected_marker_thread (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtTrace *trace = et_window_get_trace (window);
  EtViewport *v = et_window_get_viewport (window);
  EtCallTreePane *pane = show_call_tree (window);
  GtkCheckButton *check = GTK_CHECK_BUTTON (find_widget (GTK_WIDGET (pane), GTK_TYPE_CHECK_BUTTON));
  g_autofree char *from_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->from_ns);
  g_autofree char *to_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->to_ns);
  g_autoptr(JsonObject) doc = cli_tree ((const char *const[]) { "--tid", "200", "--from", from_arg,
                                                                "--to", to_arg, stacks_path, NULL });
  guint t;

  for (t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_trace_get_thread (trace, t)->tid == 200)
      break;
  assert_true (t < et_trace_get_n_threads (trace));
  assert_false (gtk_widget_get_sensitive (GTK_WIDGET (check)));   /* no marker selected */
  et_call_tree_pane_set_marker_thread (pane, (gint) t);
  assert_true (gtk_widget_get_sensitive (GTK_WIDGET (check)));
  gtk_check_button_set_active (check, TRUE);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "Thread 200 from"));
  assert_int_equal (json_object_get_int_member (doc, "samples"), 3);
  assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                     json_object_get_object_member (doc, "tree"), 16, 16);
  gtk_check_button_set_active (check, FALSE);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_int_equal (et_call_tree_node (et_call_tree_pane_get_tree (pane), 0)->inclusive, 8);
  close_window (window);
}

/* The Statistics tab's span rows: the fixture's one span has one sample,
 * as `stacks --marker 1` folds it. */
static void
test_statistics_span_samples (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtViewport *v = et_window_get_viewport (window);
  Run run = run_cli ("stacks", "--marker", "1", stacks_path);

  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, " 1\n"));
  run_clear (&run);
  assert_stats_samples (window, v->from_ns, v->to_ns, 1);
  close_window (window);
}


/* A span row's call tree (Enter on the row): the fixture's one span, its
 * one sample in Total, under Main; a selected span gives the pane back
 * its own scope. */
static void
test_statistics_row_call_tree (void **state)
{
  EtWindow *window = open_window (stacks_path);
  EtViewport *v = et_window_get_viewport (window);
  EtStatsPane *stats = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  EtCallTreePane *pane = call_tree_pane (window);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(GString) name = g_string_new (NULL);
  guint row = 0;

  assert_stats_samples (window, v->from_ns, v->to_ns, 1);
  while (et_stats_pane_get_row (stats, row)->kind != ET_MARKER_SPAN)
    row++;
  assert_int_equal (assert_row_call_tree (window, row), 1);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), ": 1 CPU sample "));
  /* root › process › thread › Main › Total */
  et_call_tree_append_name (et_call_tree_pane_get_tree (pane),
                            et_call_tree_n_nodes (et_call_tree_pane_get_tree (pane)) - 1, name);
  assert_string_equal (name->str, CART_TOTAL);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_trace_get_channel (trace, c)->n_markers > 0)
      {
        et_window_reveal_marker (window, c, 0);
        break;
      }
  RUN_UNTIL (!et_window_is_busy (window)
             && strstr (et_call_tree_pane_get_heading (pane), "Thread 100, the span from"));
  close_window (window);
}

/* The demo trace has no CPU samples: the pane says what would give them. */
static void
test_trace_without_samples_says_so (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtCallTreePane *pane = show_call_tree (window);
  const char *message = et_call_tree_pane_get_message (pane);

  assert_non_null (message);
  assert_non_null (strstr (message, "no CPU samples"));
  assert_non_null (strstr (message, "dotnet-trace"));
  assert_int_equal (et_call_tree_node (et_call_tree_pane_get_tree (pane), 0)->inclusive, 0);
  close_window (window);
}


/* Under LANGUAGE=de: the heading, the columns and the details' stacks in
 * German (the frames' names stay as the trace names them). */
static void
test_german (void **state)
{
  EtWindow *window;
  EtTrace *trace;
  EtCallTreePane *pane;
  GtkWidget *details;
  g_autofree char *text = NULL;
  guint c;

  g_setenv ("LANGUAGE", "de", TRUE);
  et_i18n_init ();                    /* setlocale again: gettext caches */
  window = open_window (stacks_path);
  trace = et_window_get_trace (window);
  for (c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_trace_get_channel (trace, c)->n_markers > 0)
      break;
  et_window_reveal_marker (window, c, 0);
  pane = show_call_tree (window);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "Thread 100, die Spanne von"));
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), "1 CPU-Stichprobe"));
  assert_string_equal (gtk_tree_view_column_get_title (
                         gtk_tree_view_get_column (et_call_tree_pane_get_view (pane, FALSE), 0)),
                       "Inklusiv");
  details = find_widget (GTK_WIDGET (window), ET_TYPE_DETAILS_PANE);
  RUN_UNTIL (!et_details_pane_is_busy (ET_DETAILS_PANE (details)));
  text = et_details_pane_get_text (ET_DETAILS_PANE (details));
  assert_non_null (strstr (text, "Aufrufstapel am Anfang, innerster zuerst — Frames: 2, unbenannt: 0\n"
                                 "  " CART_TOTAL));
  save_screenshot (window, "app-calltree-de.png");
  close_window (window);
  g_unsetenv ("LANGUAGE");
  et_i18n_init ();
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_span_call_tree_equals_cli),
    cmocka_unit_test (test_range_call_tree_equals_cli),
    cmocka_unit_test (test_newer_range_wins),
    cmocka_unit_test (test_selected_marker_thread),
    cmocka_unit_test (test_flame_graph_zooms),
    cmocka_unit_test (test_statistics_span_samples),
    cmocka_unit_test (test_statistics_row_call_tree),
    cmocka_unit_test (test_trace_without_samples_says_so),
    cmocka_unit_test (test_german),
  };
  return cmocka_run_group_tests_name ("app-calltree", tests, setup, teardown);
}
