/* calltree-check.c — see calltree-check.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "call-tree-roots.h"
#include "calltree-check.h"
#include "et-report-table.h"
#include "et-stats-pane.h"
#include "et-timeline-view.h"
#include "et-trace-stacks.h"

EtCallTreePane *
call_tree_pane (EtWindow *window)
{
  return ET_CALL_TREE_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_CALL_TREE_PANE));
}

/* Brings up the Call Tree tab and waits for its tree. */
EtCallTreePane *
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
void
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
JsonObject *
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
void
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


/* The box of the frame named @name in the flame graph, or NULL. */
const EtFlameBox *
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

/* The Statistics tab's span rows count their threads' CPU samples during
 * their spans: each row's, counted here sample by sample (both ends in,
 * as the Call Tree of a span counts them); flags and messages have none.
 * On the fixture the one span's is also `stacks --marker 1`'s. */
guint64
assert_stats_samples (EtWindow *window, gint64 from, gint64 to, gint64 fixture_span_samples)
{
  EtStatsPane *stats = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  EtTrace *trace = et_window_get_trace (window);
  EtStacks *stacks = et_trace_get_stacks (trace);
  guint64 all = 0;
  guint spans = 0;

  et_timeline_view_select_range (ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                                ET_TYPE_TIMELINE_VIEW)), from, to);
  RUN_UNTIL (!et_window_is_busy (window) && et_stats_pane_get_n_rows (stats) > 0);
  for (guint r = 0; r < et_stats_pane_get_n_rows (stats); r++)
    {
      const EtStatsRow *row = et_stats_pane_get_row (stats, r);
      g_autofree char *text = et_stats_pane_cell_text (stats, r, ET_STATS_COL_SAMPLES);
      g_autofree char *expected = NULL;
      guint64 sum = 0;

      if (row->kind != ET_MARKER_SPAN)
        {
          assert_string_equal (text, "\342\200\224");
          continue;
        }
      for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
        {
          const EtChannel *ch = et_trace_get_channel (trace, c);
          guint thread = et_trace_channel_thread (trace, c);
          const gint64 *ns;
          const guint32 *nodes;
          guint n;

          if (et_channel_provider (ch) != row->provider || ch->series != row->series || thread == ET_NO_INDEX)
            continue;
          n = et_stacks_thread_samples (stacks, thread, &ns, &nodes);
          for (guint i = 0; i < ch->n_markers; i++)
            if (ch->markers[i].kind == ET_MARKER_SPAN && et_stats_marker_counted (&ch->markers[i])
                && ch->markers[i].start_ns >= from && ch->markers[i].start_ns < to)
              for (guint k = 0; k < n; k++)
                sum += ns[k] >= ch->markers[i].start_ns && ns[k] <= ch->markers[i].end_ns;
        }
      if (fixture_span_samples >= 0)
        assert_int_equal (sum, fixture_span_samples);
      expected = g_strdup_printf ("%'" G_GUINT64_FORMAT, sum);
      assert_string_equal (text, expected);
      spans++;
      all += sum;
    }
  assert_true (spans > 0);
  return all;
}

/* Counts by hand the samples of Statistics row @r's spans (start in
 * [@from, @to), both ends), each span's thread from its start to its end:
 * @roots gets "tid|root frame" → samples ("tid|": no stack); the spans'
 * count in @n_spans; all the samples returned. */
static guint64
count_row_by_hand (EtTrace *trace, const EtStatsRow *r, gint64 from, gint64 to,
                   GHashTable *roots, guint *n_spans)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  guint64 total = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint thread = et_trace_channel_thread (trace, c);
      const EtThread *t = thread != ET_NO_INDEX ? et_trace_get_thread (trace, thread) : NULL;
      const gint64 *ns = NULL;
      const guint32 *nodes = NULL;
      guint n = t != NULL ? et_stacks_thread_samples (stacks, thread, &ns, &nodes) : 0;

      for (guint i = 0; t != NULL && et_channel_provider (ch) == r->provider && ch->series == r->series
                        && i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];

          if (m->kind != ET_MARKER_SPAN || !et_stats_marker_counted (m) || m->start_ns < from
              || m->start_ns >= to)
            continue;
          (*n_spans)++;
          for (guint k = 0; k < n; k++)
            if (ns[k] >= m->start_ns && ns[k] <= m->end_ns)
              {
                roots_count_sample (roots, stacks, t->tid, nodes[k], ns[k]);
                total++;
              }
        }
    }
  return total;
}

guint64
assert_row_call_tree (EtWindow *window, guint row)
{
  EtStatsPane *stats = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  EtTrace *trace = et_window_get_trace (window);
  EtCallTreePane *pane = call_tree_pane (window);
  g_autoptr(GHashTable) roots = roots_new ();
  g_autofree char *cell = NULL, *total_text = NULL, *scope = NULL;
  const EtCallTree *tree;
  const EtStatsRow *r;
  guint64 total;
  guint n_spans = 0;
  gint64 from, to;

  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (stats)));
  RUN_UNTIL (!et_window_is_busy (window));
  et_stats_pane_select_row (stats, row);
  r = et_stats_pane_get_row (stats, row);
  assert_int_equal (r->kind, ET_MARKER_SPAN);
  assert_true (et_stats_pane_get_range (stats, &from, &to));
  total = count_row_by_hand (trace, r, from, to, roots, &n_spans);
  /* Enter in the table: the row's call tree, in the Call Tree tab */
  gtk_widget_grab_focus (GTK_WIDGET (find_widget (GTK_WIDGET (stats), ET_TYPE_REPORT_TABLE)));
  assert_true (press_in_window (window, GDK_KEY_Return));
  scope = g_strdup_printf ("%'u span%s of %s (", n_spans, n_spans == 1 ? "" : "s",
                           et_trace_get_string (trace, r->series));
  RUN_UNTIL (!et_window_is_busy (window) && et_call_tree_pane_get_tree (pane) != NULL
             && g_str_has_prefix (et_call_tree_pane_get_heading (pane), scope));
  assert_true (gtk_widget_get_mapped (GTK_WIDGET (pane)));
  tree = et_call_tree_pane_get_tree (pane);
  /* the tree's root is the row's "CPU samples", and the count by hand */
  cell = et_stats_pane_cell_text (stats, row, ET_STATS_COL_SAMPLES);
  total_text = g_strdup_printf ("%'" G_GUINT64_FORMAT, et_call_tree_node (tree, 0)->inclusive);
  assert_string_equal (cell, total_text);
  assert_int_equal (et_call_tree_node (tree, 0)->inclusive, total);
  assert_roots_equal (tree, roots);
  return total;
}
