/* test-app-calltree.c — the Call Tree tab under Xvfb (issue 33).
 *
 * On the fixture of known stacks (`etlscope-fixture stacks`): the selected
 * span's call tree shows, row for row, the tree `etlscope-cli stacks
 * --format=json --marker 1` writes of the same span (names, inclusive and
 * exclusive samples, in its order), and a range's that of `--from --to`;
 * the bottom-up view's functions carry the samples that ended in them
 * (summed here from the CLI's tree); search reveals a frame; a trace
 * without samples says so. On the corpus's SampleProfiler trace
 * (eventpipe-dotnetcore3.0-win-x64-objver4.nettrace, skipped when absent)
 * the whole trace's tree against the CLI's, three levels and the hot path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "cli-run.h"
#include "et-call-tree-pane.h"
#include "et-details-pane.h"
#include "et-cpu-marks.h"
#include "et-cpu-strip.h"
#include "et-flame-view.h"
#include "et-sample-marks.h"
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

/* ---- the pane ------------------------------------------------------------- */

static EtCallTreePane *
call_tree_pane (EtWindow *window)
{
  return ET_CALL_TREE_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_CALL_TREE_PANE));
}

/* Brings up the Call Tree tab and waits for its tree. */
static EtCallTreePane *
show_call_tree (EtWindow *window)
{
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtCallTreePane *pane = call_tree_pane (window);

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (!et_window_is_busy (window) && et_call_tree_pane_get_tree (pane) != NULL);
  return pane;
}

/* The row at @iter against the CLI's node @json, and their children in
 * order down to @depth levels (the first child only below @full levels:
 * the hot path). */
static void
assert_rows_equal (GtkTreeView *view, GtkTreeIter *parent, JsonObject *json, guint depth,
                   guint full)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  JsonArray *children = json_object_get_array_member (json, "children");
  guint n = json_array_get_length (children), shown = 0;
  GtkTreeIter iter;

  if (parent != NULL && n > 0)
    {
      g_autoptr(GtkTreePath) path = gtk_tree_model_get_path (model, parent);

      gtk_tree_view_expand_row (view, path, FALSE);     /* as a click on its expander */
    }
  for (gboolean more = gtk_tree_model_iter_children (model, &iter, parent); more;
       more = gtk_tree_model_iter_next (model, &iter))
    {
      JsonObject *child = json_array_get_object_element (children, shown++);
      g_autofree char *name = NULL;
      guint64 incl, excl;

      assert_true (shown <= n);
      gtk_tree_model_get (model, &iter, ET_CALL_COL_NAME, &name, ET_CALL_COL_INCLUSIVE, &incl,
                          ET_CALL_COL_EXCLUSIVE, &excl, -1);
      assert_string_equal (name, json_object_get_string_member (child, "name"));
      assert_int_equal (incl, json_object_get_int_member (child, "inclusive"));
      assert_int_equal (excl, json_object_get_int_member (child, "exclusive"));
      if (depth > 1 && (full > 1 || shown == 1))
        assert_rows_equal (view, &iter, child, depth - 1, full > 0 ? full - 1 : 0);
    }
  assert_int_equal (shown, n);
}

/* The CLI's tree of @args (NULL-terminated after "stacks --format=json"). */
static JsonObject *
cli_tree (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  Run run;
  JsonObject *doc;

  g_ptr_array_add (argv, (gpointer) "stacks");
  g_ptr_array_add (argv, (gpointer) "--format=json");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  run = run_cli_v ((const char *const *) argv->pdata);
  assert_int_equal (run.status, 0);
  doc = parse_object (run.out, -1);
  run_clear (&run);
  return doc;
}

/* Samples ending in each frame, summed over the CLI's tree: name → count. */
static void
sum_exclusive (JsonObject *node, guint depth, GHashTable *sums)
{
  JsonArray *children = json_object_get_array_member (node, "children");
  const char *name = json_object_get_string_member (node, "name");
  guint64 excl = (guint64) json_object_get_int_member (node, "exclusive");

  if (depth >= 3 && excl > 0)          /* below root, process and thread: a frame */
    g_hash_table_insert (sums, g_strdup (name),
                         GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (sums, name)) + excl));
  for (guint i = 0; i < json_array_get_length (children); i++)
    sum_exclusive (json_array_get_object_element (children, i), depth + 1, sums);
}

/* The bottom-up view's top rows are the functions samples ended in, most
 * first, each with the samples the CLI's tree ends in it. */
static void
assert_bottom_up (EtCallTreePane *pane, JsonObject *tree)
{
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GtkTreeModel *model = gtk_tree_view_get_model (et_call_tree_pane_get_view (pane, TRUE));
  guint64 last = G_MAXUINT64;
  guint rows = 0;
  GtkTreeIter iter;

  sum_exclusive (tree, 0, sums);
  for (gboolean more = gtk_tree_model_iter_children (model, &iter, NULL); more;
       more = gtk_tree_model_iter_next (model, &iter), rows++)
    {
      g_autofree char *name = NULL;
      guint64 incl, excl;

      gtk_tree_model_get (model, &iter, ET_CALL_COL_NAME, &name, ET_CALL_COL_INCLUSIVE, &incl,
                          ET_CALL_COL_EXCLUSIVE, &excl, -1);
      assert_int_equal (incl, GPOINTER_TO_SIZE (g_hash_table_lookup (sums, name)));
      assert_int_equal (excl, incl);
      assert_true (incl <= last);
      last = incl;
    }
  assert_int_equal (rows, g_hash_table_size (sums));
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

/* Whether the details' text at @needle + @offset is greyed as a module. */
static gboolean
greyed_at (GtkTextView *view, const char *text, const char *needle, int offset)
{
  const char *at = strstr (text, needle);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "module");
  GtkTextIter iter;

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
  assert_true (greyed_at (view, text, line, 2));                        /* "Shop.Orders!" */
  assert_true (greyed_at (view, text, line, 2 + strlen ("Shop.Orders")));
  assert_false (greyed_at (view, text, line, 2 + strlen ("Shop.Orders!")));
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
  /* Ctrl+K's action brings the tab up, its tree focused */
  activate (window, "win.show-call-tree");
  pane = call_tree_pane (window);
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

/* The box of the frame named @name in the flame graph, or NULL. */
static const EtFlameBox *
flame_box (EtFlameView *flame, const EtCallTree *tree, const char *name)
{
  const EtFlameLayout *layout = et_flame_view_get_layout (flame);

  for (guint i = 0; i < layout->boxes->len; i++)
    {
      const EtFlameBox *b = &g_array_index (layout->boxes, EtFlameBox, i);
      g_autoptr(GString) text = g_string_new (NULL);

      et_call_tree_append_name (tree, b->node, text);
      if (g_str_equal (text->str, name))
        return b;
    }
  return NULL;
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

/* The corpus's SampleProfiler trace: the whole trace's tree (3 levels
 * whole, the hot path 12 deep) as the CLI writes it. */
static void
test_corpus_sample_profiler (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "nettrace",
                                                     "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
                                                     NULL) : NULL;
  g_autofree char *from_arg = NULL, *to_arg = NULL, *count = NULL;
  g_autoptr(JsonObject) doc = NULL;
  EtWindow *window;
  EtViewport *v;
  EtCallTreePane *pane;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/nettrace/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace "
                     "is absent: its call tree not checked\n");
      skip ();
    }
  window = open_window (path);
  v = et_window_get_viewport (window);
  from_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->from_ns);
  to_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->to_ns);
  doc = cli_tree ((const char *const[]) { "--from", from_arg, "--to", to_arg, path, NULL });
  pane = show_call_tree (window);
  /* the view is the whole trace: every one of its 35,161 samples */
  assert_int_equal (json_object_get_int_member (doc, "samples"), 35161);
  count = g_strdup_printf ("%'" G_GUINT64_FORMAT " CPU samples", (guint64) 35161);
  assert_non_null (strstr (et_call_tree_pane_get_heading (pane), count));
  assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                     json_object_get_object_member (doc, "tree"), 12, 3);
  assert_bottom_up (pane, json_object_get_object_member (doc, "tree"));
  wait_for_frame (GTK_WIDGET (pane));
  save_screenshot (window, "app-calltree-nettrace.png");
  /* its flame graph: the boxes under the root hold every sample */
  gtk_stack_set_visible_child_name (GTK_STACK (find_widget (GTK_WIDGET (pane), GTK_TYPE_STACK)),
                                    "flame");
  {
    EtFlameView *flame = ET_FLAME_VIEW (find_widget (GTK_WIDGET (pane), ET_TYPE_FLAME_VIEW));
    const EtFlameLayout *layout = et_flame_view_get_layout (flame);
    const EtFlameBox *root = &g_array_index (layout->boxes, EtFlameBox, 0);

    assert_true (root->node == 0 && root->x0 == 0.0 && root->x1 == 1.0);
    assert_true (layout->depth > 10);
    wait_for_frame (GTK_WIDGET (flame));
    save_screenshot (window, "app-calltree-flame-nettrace.png");
  }
  close_window (window);
}

/* The first span of @trace whose thread has @min samples or more during
 * it, into *channel and *index; FALSE when none. */
static gboolean
find_sampled_span (EtTrace *trace, guint min, guint *channel, guint *index)
{
  EtStacks *stacks = et_trace_get_stacks (trace);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint thread = et_trace_channel_thread (trace, c);
      const gint64 *ns;
      const guint32 *nodes;
      guint n = thread != ET_NO_INDEX ? et_stacks_thread_samples (stacks, thread, &ns, &nodes) : 0;

      for (guint i = 0; n > 0 && i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          guint in = 0;

          if (m->kind != ET_MARKER_SPAN || m->end_event == ET_NO_INDEX)
            continue;
          for (guint k = 0; k < n; k++)
            in += ns[k] >= m->start_ns && ns[k] <= m->end_ns;
          if (in >= min)
            {
              *channel = c;
              *index = i;
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* net.4.5.2.x64.etl (PerfView's default collection): a span with CPU
 * samples of its thread, its call tree as `stacks --pid --tid --from
 * --to` of the same thread and time writes it; before, the whole view's. */
static void
test_corpus_etl_span (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "net.4.5.2.x64.etl", NULL) : NULL;
  g_autofree char *pid = NULL, *tid = NULL, *from_arg = NULL, *to_arg = NULL;
  g_autoptr(JsonObject) doc = NULL;
  const EtThread *t;
  const EtMarker *m;
  EtWindow *window;
  EtTrace *trace;
  EtCallTreePane *pane;
  GtkStack *views;
  EtFlameView *flame;
  guint c = 0, i = 0;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/net.4.5.2.x64.etl is absent: a span's call tree not checked\n");
      skip ();
    }
  window = open_window (path);
  trace = et_window_get_trace (window);
  /* first the whole view, every thread (3 levels whole, the hot path) */
  {
    EtViewport *v = et_window_get_viewport (window);
    g_autofree char *view_from = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->from_ns);
    g_autofree char *view_to = g_strdup_printf ("%" G_GINT64_FORMAT "ns", v->to_ns);
    g_autoptr(JsonObject) all = cli_tree ((const char *const[]) { "--from", view_from, "--to", view_to,
                                                                  path, NULL });

    pane = show_call_tree (window);
    assert_true (json_object_get_int_member (all, "samples") > 70000);
    assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                       json_object_get_object_member (all, "tree"), 12, 3);
    views = GTK_STACK (find_widget (GTK_WIDGET (pane), GTK_TYPE_STACK));
    gtk_stack_set_visible_child_name (views, "flame");
    flame = ET_FLAME_VIEW (find_widget (GTK_WIDGET (pane), ET_TYPE_FLAME_VIEW));
    wait_for_frame (GTK_WIDGET (flame));
    /* zoomed into the traced program (Test.x64.exe), the reports dragged
     * taller, for the screenshot */
    gtk_paned_set_position (GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_PANED)), 260);
    assert_non_null (flame_box (flame, et_call_tree_pane_get_tree (pane), "Process (3676)"));
    et_flame_view_zoom (flame, flame_box (flame, et_call_tree_pane_get_tree (pane), "Process (3676)")->node);
    wait_for_frame (GTK_WIDGET (flame));
    save_screenshot (window, "app-calltree-flame-etl.png");
    gtk_stack_set_visible_child_name (views, "top-down");
  }
  assert_true (find_sampled_span (trace, 5, &c, &i));
  m = &et_trace_get_channel (trace, c)->markers[i];
  t = et_trace_get_thread (trace, et_trace_channel_thread (trace, c));
  pid = g_strdup_printf ("%u", t->pid);
  tid = g_strdup_printf ("%u", t->tid);
  from_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", m->start_ns);
  to_arg = g_strdup_printf ("%" G_GINT64_FORMAT "ns", m->end_ns);
  doc = cli_tree ((const char *const[]) { "--pid", pid, "--tid", tid, "--from", from_arg,
                                          "--to", to_arg, path, NULL });
  et_window_reveal_marker (window, c, i);
  RUN_UNTIL (!et_window_is_busy (window) && strstr (et_call_tree_pane_get_heading (pane), "the span") != NULL);
  assert_true (json_object_get_int_member (doc, "samples") >= 5);
  assert_rows_equal (et_call_tree_pane_get_view (pane, FALSE), NULL,
                     json_object_get_object_member (doc, "tree"), 64, 64);
  assert_bottom_up (pane, json_object_get_object_member (doc, "tree"));
  wait_for_picture (window);
  save_screenshot (window, "app-calltree-etl.png");
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_span_call_tree_equals_cli),
    cmocka_unit_test (test_range_call_tree_equals_cli),
    cmocka_unit_test (test_flame_graph_zooms),
    cmocka_unit_test (test_trace_without_samples_says_so),
    cmocka_unit_test (test_corpus_sample_profiler),
    cmocka_unit_test (test_corpus_etl_span),
  };
  return cmocka_run_group_tests_name ("app-calltree", tests, setup, teardown);
}
