/* et-call-tree.c — see et-call-tree.h.
 *
 * A thread's samples name a prefix-tree node each; the call-tree node of a
 * prefix-tree node is found once per thread (a map from one to the other,
 * an array over the prefix tree's nodes) by following its callers up to
 * one already mapped, then down again. A chain with a frame whose name
 * depends on time (et-stacks.c) is mapped again for each sample and never
 * kept. A node's children are found by an open-addressing table of
 * (parent, level, id) while the tree is built.
 */
#include "et-call-tree-private.h"

#include <stdlib.h>
#include <string.h>

#define CANCEL_EVERY 65536   /* samples between looks at the cancellable */

struct _EtCallTree
{
  const EtStacks *stacks;
  GArray         *nodes;     /* EtCallNode */
  guint32        *slots;     /* while built: (parent, level, id) → node + 1, open addressing */
  guint           n_slots;   /* a power of two */
  guint32        *first;     /* per node: its first child + 1 (0: none) */
  guint32        *next;      /* per node: its next sibling + 1 */
  guint64         counted;   /* samples so far (for the cancellable) */
};

static guint
child_hash (guint32 parent, guint8 level, guint32 id)
{
  guint64 x = ((guint64) parent << 32 | id) ^ ((guint64) level << 61);

  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  return (guint) (x ^ (x >> 33));
}

static void
grow_slots (EtCallTree *tree)
{
  guint old_n = tree->n_slots;
  guint32 *old = tree->slots;

  tree->n_slots = MAX (old_n * 2, 1024);
  tree->slots = g_new0 (guint32, tree->n_slots);
  for (guint i = 0; i < old_n; i++)
    if (old[i] != 0)
      {
        const EtCallNode *n = &g_array_index (tree->nodes, EtCallNode, old[i] - 1);
        guint at = child_hash (n->parent, n->level, n->id) & (tree->n_slots - 1);

        while (tree->slots[at] != 0)
          at = (at + 1) & (tree->n_slots - 1);
        tree->slots[at] = old[i];
      }
  g_free (old);
}

guint32
_et_call_tree_child (EtCallTree *tree, guint32 parent, EtCallLevel level, guint32 id)
{
  guint mask = tree->n_slots - 1, at = child_hash (parent, level, id) & mask;
  EtCallNode node = { parent, id, 0, 0, level };

  for (; tree->slots[at] != 0; at = (at + 1) & mask)
    {
      const EtCallNode *n = &g_array_index (tree->nodes, EtCallNode, tree->slots[at] - 1);

      if (n->parent == parent && n->id == id && n->level == level)
        return tree->slots[at] - 1;
    }
  g_array_append_val (tree->nodes, node);
  tree->slots[at] = tree->nodes->len;
  if (tree->nodes->len * 2 > tree->n_slots)
    grow_slots (tree);
  return tree->nodes->len - 1;
}

/* The call-tree node of prefix-tree @node at @ns below @thread_node, with
 * @map (prefix node → call node + 1, this thread's; 0 unknown) filled on
 * the way. */
static guint32
map_node (EtCallTree *tree, guint32 *map, GArray *chain, guint32 thread_node, guint32 node,
          gint64 ns)
{
  const EtStackTree *st = et_stacks_tree ((EtStacks *) tree->stacks);
  guint32 at = thread_node, up = node;
  gboolean keep = TRUE;

  if (node != ET_STACK_NONE && map[node] != 0)
    return map[node] - 1;
  g_array_set_size (chain, 0);
  for (; up != ET_STACK_NONE; up = et_stack_tree_caller (st, up))
    {
      if (map[up] != 0)
        {
          at = map[up] - 1;
          break;
        }
      g_array_append_val (chain, up);
    }
  for (guint i = chain->len; i > 0; i--)
    {
      guint32 n = g_array_index (chain, guint32, i - 1);
      guint32 frame = et_stack_tree_frame (st, n);

      keep = keep && !et_stacks_frame_timed (tree->stacks, frame);
      at = _et_call_tree_child (tree, at, ET_CALL_FRAME,
                                et_stacks_frame_symbol (tree->stacks, frame, ns));
      if (keep)
        map[n] = at + 1;
    }
  return at;
}

/* The first of @n sample times at or after @t. */
static guint
first_at (const gint64 *ns, guint n, gint64 t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ns[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The samples of one range's thread in its [from, to]; FALSE when
 * cancelled. @map is this thread's (et_call_tree_new_ranges). */
static gboolean
add_range (EtCallTree *tree, const EtCallRange *r, guint32 *map, GArray *chain,
           GCancellable *cancellable)
{
  const gint64 *ns;
  const guint32 *nodes;
  guint n = et_stacks_thread_samples (tree->stacks, r->thread.thread, &ns, &nodes);
  guint i = first_at (ns, n, r->from_ns);
  guint32 thread_node;

  if (i >= n || ns[i] > r->to_ns)
    return TRUE;                                /* (no thread node for a thread without samples) */
  thread_node = _et_call_tree_child (tree, 0, ET_CALL_PROCESS, r->thread.pid);
  thread_node = _et_call_tree_child (tree, thread_node, ET_CALL_THREAD, r->thread.tid);
  for (; i < n && ns[i] <= r->to_ns; i++)
    {
      guint32 at = map_node (tree, map, chain, thread_node, nodes[i], ns[i]);

      g_array_index (tree->nodes, EtCallNode, at).exclusive++;
      if (++tree->counted % CANCEL_EVERY == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
    }
  return TRUE;
}

/* Ranges by thread (one map a thread), then by time. */
static int
compare_ranges (gconstpointer pa, gconstpointer pb)
{
  const EtCallRange *a = pa, *b = pb;

  if (a->thread.thread != b->thread.thread)
    return a->thread.thread < b->thread.thread ? -1 : 1;
  if (a->from_ns != b->from_ns)
    return a->from_ns < b->from_ns ? -1 : 1;
  return (a->to_ns > b->to_ns) - (a->to_ns < b->to_ns);
}

/* Every range's samples; FALSE when cancelled. */
static gboolean
add_ranges (EtCallTree *tree, const EtCallRange *ranges, guint n_ranges,
            GCancellable *cancellable)
{
  guint n_nodes = et_stack_tree_n_nodes (et_stacks_tree ((EtStacks *) tree->stacks));
  g_autofree EtCallRange *sorted = g_memdup2 (ranges, n_ranges * sizeof *ranges);
  g_autofree guint32 *map = g_new (guint32, MAX (n_nodes, 1));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));

  qsort (sorted, n_ranges, sizeof *sorted, compare_ranges);
  for (guint i = 0; i < n_ranges; i++)
    {
      /* (a thread's own map: the same stack is another node on another thread) */
      if (i == 0 || sorted[i].thread.thread != sorted[i - 1].thread.thread)
        memset (map, 0, n_nodes * sizeof *map);
      if (!add_range (tree, &sorted[i], map, chain, cancellable))
        return FALSE;
    }
  return TRUE;
}

void
_et_call_tree_finish (EtCallTree *tree)
{
  EtCallNode *n = (EtCallNode *) (gpointer) tree->nodes->data;

  /* callees come after their callers: one pass from the end sums them */
  for (guint i = tree->nodes->len; i > 0; i--)
    {
      n[i - 1].inclusive += n[i - 1].exclusive;
      if (i - 1 > 0)
        n[n[i - 1].parent].inclusive += n[i - 1].inclusive;
    }
  g_clear_pointer (&tree->slots, g_free);
  tree->first = g_new0 (guint32, tree->nodes->len);
  tree->next = g_new0 (guint32, tree->nodes->len);
  for (guint i = tree->nodes->len; i > 1; i--)
    {
      guint32 parent = n[i - 1].parent;

      tree->next[i - 1] = tree->first[parent];
      tree->first[parent] = i;
    }
}

EtCallTree *
_et_call_tree_new_empty (const EtStacks *stacks)
{
  EtCallTree *tree = g_new0 (EtCallTree, 1);
  EtCallNode root = { 0, 0, 0, 0, ET_CALL_ROOT };

  tree->stacks = stacks;
  tree->nodes = g_array_new (FALSE, FALSE, sizeof (EtCallNode));
  g_array_append_val (tree->nodes, root);
  grow_slots (tree);
  return tree;
}

void
_et_call_tree_add_exclusive (EtCallTree *tree, guint32 node, guint64 samples)
{
  g_array_index (tree->nodes, EtCallNode, node).exclusive += samples;
}

EtCallTree *
et_call_tree_new_ranges (const EtStacks *stacks, const EtCallRange *ranges, guint n_ranges,
                         GCancellable *cancellable)
{
  g_autoptr(EtCallTree) tree = NULL;

  g_return_val_if_fail (stacks != NULL && (ranges != NULL || n_ranges == 0), NULL);
  tree = _et_call_tree_new_empty (stacks);
  if (!add_ranges (tree, ranges, n_ranges, cancellable))
    return NULL;
  _et_call_tree_finish (tree);
  return g_steal_pointer (&tree);
}

EtCallTree *
et_call_tree_new (const EtStacks *stacks, const EtCallThread *threads, guint n_threads,
                  gint64 from_ns, gint64 to_ns, GCancellable *cancellable)
{
  g_autofree EtCallRange *ranges = g_new (EtCallRange, MAX (n_threads, 1));

  g_return_val_if_fail (stacks != NULL && (threads != NULL || n_threads == 0), NULL);
  for (guint i = 0; i < n_threads; i++)
    ranges[i] = (EtCallRange) { threads[i], from_ns, to_ns };
  return et_call_tree_new_ranges (stacks, ranges, n_threads, cancellable);
}

void
et_call_tree_free (EtCallTree *tree)
{
  if (tree == NULL)
    return;
  g_clear_pointer (&tree->nodes, g_array_unref);
  g_free (tree->slots);
  g_free (tree->first);
  g_free (tree->next);
  g_free (tree);
}

guint
et_call_tree_n_nodes (const EtCallTree *tree)
{
  return tree->nodes->len;
}

const EtCallNode *
et_call_tree_node (const EtCallTree *tree, guint node)
{
  g_return_val_if_fail (node < tree->nodes->len, NULL);
  return &g_array_index (tree->nodes, EtCallNode, node);
}

const EtStacks *
et_call_tree_stacks (const EtCallTree *tree)
{
  return tree->stacks;
}

void
et_call_tree_append_name (const EtCallTree *tree, guint node, GString *out)
{
  const EtCallNode *n = et_call_tree_node (tree, node);

  switch (n->level)
    {
    case ET_CALL_PROCESS:
      g_string_append_printf (out, "Process (%u)", n->id);
      break;
    case ET_CALL_THREAD:
      g_string_append_printf (out, "Thread (%u)", n->id);
      break;
    case ET_CALL_FRAME:
      g_string_append (out, et_stacks_name (tree->stacks, n->id));
      break;
    default:
      g_string_append (out, "ROOT");
      break;
    }
}

static int
compare_children (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const EtCallTree *tree = data;
  const EtCallNode *a = et_call_tree_node (tree, *(const guint *) pa);
  const EtCallNode *b = et_call_tree_node (tree, *(const guint *) pb);
  int by_name;

  if (a->inclusive != b->inclusive)
    return a->inclusive > b->inclusive ? -1 : 1;
  if (a->level == ET_CALL_FRAME && b->level == ET_CALL_FRAME)
    {
      by_name = strcmp (et_stacks_name (tree->stacks, a->id), et_stacks_name (tree->stacks, b->id));
      if (by_name != 0)
        return by_name;
    }
  return a->id < b->id ? -1 : a->id > b->id;
}

GArray *
et_call_tree_children (const EtCallTree *tree, guint node)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (node < tree->nodes->len, out);
  for (guint32 c = tree->first[node]; c != 0; c = tree->next[c - 1])
    {
      guint i = c - 1;

      g_array_append_val (out, i);
    }
  g_array_sort_with_data (out, compare_children, (gpointer) tree);
  return out;
}
