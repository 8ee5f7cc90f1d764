/* test-app-calltree-corpus.c — the Call Tree tab under Xvfb on the
 * corpus's real traces (each test skipped, saying so, when its trace is
 * absent): the SampleProfiler .nettrace's whole tree (35,161 samples) and
 * its flame graph; net.4.5.2.x64.etl's whole view, a flame graph zoomed
 * into the traced program (docs/screenshots), a span with samples
 * against `stacks --pid --tid --from --to` at every level; the
 * Statistics' span rows' CPU samples there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "calltree-check.h"
#include "et-stats-pane.h"
#include "et-timeline-view.h"
#include "et-trace-stacks.h"

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


/* net.4.5.2.x64.etl's span rows (GCs, JITs, suspensions: runtime spans
 * on sampled threads) count their threads' samples during them. */
static void
test_corpus_statistics_span_samples (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "net.4.5.2.x64.etl", NULL) : NULL;
  EtWindow *window;
  EtViewport *v;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/net.4.5.2.x64.etl is absent: its span rows' samples not checked\n");
      skip ();
    }
  window = open_window (path);
  v = et_window_get_viewport (window);
  assert_true (assert_stats_samples (window, v->from_ns, v->to_ns, -1) > 100);
  /* each span row's call tree: its samples counted by hand, its root the row's */
  {
    EtStatsPane *stats = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
    guint64 in_trees = 0;

    for (guint r = 0; r < et_stats_pane_get_n_rows (stats); r++)
      if (et_stats_pane_get_row (stats, r)->kind == ET_MARKER_SPAN)
        in_trees += assert_row_call_tree (window, r);
    assert_true (in_trees > 100);
  }
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_corpus_sample_profiler),
    cmocka_unit_test (test_corpus_etl_span),
    cmocka_unit_test (test_corpus_statistics_span_samples),
  };
  return cmocka_run_group_tests_name ("app-calltree-corpus", tests, setup_demo, teardown_demo);
}
