/* bench-stacks — what a trace's call stacks cost once it is loaded: the
 * build of its stacks (et_trace_get_stacks: the names of code and the
 * stacks' joins, on first use) and the call tree of all its CPU samples
 * (every thread, the whole trace: what the Call Tree tab builds for a view
 * of the whole trace).
 *
 *   bench-stacks FILE [ROUNDS]
 *
 * Prints one JSON object: the samples, stacks, frames and prefix-tree
 * nodes, the bytes the stacks hold, the wall time of the stacks' build
 * (build_s, once: it is kept by the trace), and the best wall time over
 * ROUNDS (5) call trees (tree_s), with the tree's samples and nodes.
 * tests/bench/run sets them beside loading the same file with and without
 * stacks (ETLSCOPE_NO_STACKS=1).
 */
#include <stdlib.h>

#include "et-call-tree.h"
#include "et-trace-load.h"
#include "et-trace-stacks.h"

/* Every thread of @trace, as the call tree takes them. */
static GArray *
all_threads (EtTrace *trace)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EtCallThread));

  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);
      EtCallThread c = { i, t->pid, t->tid };

      g_array_append_val (out, c);
    }
  return out;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GArray) threads = NULL;
  EtStacks *stacks;
  EtStacksStats stats;
  guint rounds = argc > 2 ? (guint) atoi (argv[2]) : 5;
  gint64 t0, best = G_MAXINT64;
  guint64 tree_samples = 0;
  guint tree_nodes = 0;
  double build_s;

  if (argc < 2 || rounds == 0)
    {
      g_printerr ("usage: bench-stacks FILE [ROUNDS]\n");
      return 2;
    }
  trace = et_trace_load (argv[1], ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("bench-stacks: %s\n", error->message);
      return 1;
    }
  t0 = g_get_monotonic_time ();
  stacks = et_trace_get_stacks (trace);
  build_s = (g_get_monotonic_time () - t0) / 1e6;
  if (stacks == NULL)
    {
      g_printerr ("bench-stacks: no stacks (ETLSCOPE_NO_STACKS is set)\n");
      return 1;
    }
  stats = et_stacks_get_stats (stacks);
  threads = all_threads (trace);
  for (guint r = 0; r < rounds; r++)
    {
      g_autoptr(EtCallTree) tree = NULL;

      t0 = g_get_monotonic_time ();
      tree = et_call_tree_new (stacks, (const EtCallThread *) (gconstpointer) threads->data,
                               threads->len, G_MININT64, G_MAXINT64, NULL);
      best = MIN (best, g_get_monotonic_time () - t0);
      tree_samples = et_call_tree_node (tree, 0)->inclusive;
      tree_nodes = et_call_tree_n_nodes (tree);
    }
  g_print ("{\"samples\": %" G_GUINT64_FORMAT ", \"stacks\": %" G_GUINT64_FORMAT
           ", \"frames\": %" G_GUINT64_FORMAT ", \"nodes\": %" G_GUINT64_FORMAT
           ", \"bytes\": %" G_GSIZE_FORMAT ", \"build_s\": %.6f, \"tree_s\": %.6f"
           ", \"tree_samples\": %" G_GUINT64_FORMAT ", \"tree_nodes\": %u}\n",
           stats.samples, stats.stacks, stats.frames, stats.nodes, stats.bytes, build_s,
           best / 1e6, tree_samples, tree_nodes);
  return 0;
}
