/* et-call-bottom-up.c — see et-call-bottom-up.h.
 *
 * The tree turned over is built as a call tree is (et-call-tree-private.h):
 * one walk per call-tree node that samples ended in, from it up to its
 * process, each step finding or making the node of (level, id) under the
 * node made by the step before, in the same table of (parent, level, id);
 * the samples are added where the walk ends and summed up at the end. The
 * work is the sum of those nodes' depths, no more than the call tree's own
 * build. Children are then put in runs by parent (most samples first), so
 * a row's callers are a slice.
 */
#include "et-call-bottom-up.h"
#include "et-call-tree-private.h"

struct _EtBottomUp
{
  GArray *nodes;       /* EtBottomUpNode */
  guint32 *order;      /* node indexes, by parent, most samples first */
  guint32 *first;      /* per node: where its children start in order */
  guint32 *count;      /* per node: how many */
};

/* The samples ending in call-tree node @leaf, under the turned tree's
 * path of its callers; @refs gets each new node's call-tree node. */
static void
add_path (EtCallTree *turned, GArray *refs, const EtCallTree *tree, guint32 leaf)
{
  guint32 at = 0;

  for (guint32 j = leaf; j != 0; j = et_call_tree_node (tree, j)->parent)
    {
      const EtCallNode *n = et_call_tree_node (tree, j);

      at = _et_call_tree_child (turned, at, n->level, n->id);
      if (at == refs->len)
        g_array_append_val (refs, j);
    }
  _et_call_tree_add_exclusive (turned, at, et_call_tree_node (tree, leaf)->exclusive);
}

static int
compare_children (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const EtBottomUp *self = data;
  const EtBottomUpNode *a = et_bottom_up_node (self, *(const guint32 *) pa);
  const EtBottomUpNode *b = et_bottom_up_node (self, *(const guint32 *) pb);

  if (a->parent != b->parent)
    return a->parent < b->parent ? -1 : 1;
  if (a->samples != b->samples)
    return a->samples > b->samples ? -1 : 1;
  return a->ref < b->ref ? -1 : a->ref > b->ref;
}

/* The children's runs: order sorted by parent, first/count per node. */
static void
index_children (EtBottomUp *self)
{
  guint n = self->nodes->len;

  self->order = g_new (guint32, n);
  self->first = g_new0 (guint32, n);
  self->count = g_new0 (guint32, n);
  for (guint i = 1; i < n; i++)
    self->order[i - 1] = i;                 /* the root is nobody's child */
  g_qsort_with_data (self->order, (gint) n - 1, sizeof (guint32), compare_children, self);
  for (guint i = n - 1; i-- > 0;)
    {
      guint32 parent = et_bottom_up_node (self, self->order[i])->parent;

      self->first[parent] = i;
      self->count[parent]++;
    }
}

EtBottomUp *
et_bottom_up_new (const EtCallTree *tree, GCancellable *cancellable)
{
  g_autoptr(EtCallTree) turned = _et_call_tree_new_empty (et_call_tree_stacks (tree));
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (guint32));
  EtBottomUp *self;
  guint n = et_call_tree_n_nodes (tree);
  guint32 root = 0;

  g_array_append_val (refs, root);
  for (guint i = 1; i < n; i++)
    {
      const EtCallNode *node = et_call_tree_node (tree, i);

      if ((i & 0xfff) == 0 && g_cancellable_is_cancelled (cancellable))
        return NULL;
      if (node->level == ET_CALL_FRAME && node->exclusive > 0)
        add_path (turned, refs, tree, i);
    }
  _et_call_tree_finish (turned);
  self = g_new0 (EtBottomUp, 1);
  self->nodes = g_array_sized_new (FALSE, FALSE, sizeof (EtBottomUpNode), refs->len);
  for (guint i = 0; i < refs->len; i++)
    {
      const EtCallNode *t = et_call_tree_node (turned, i);
      EtBottomUpNode node = { t->parent, g_array_index (refs, guint32, i), t->inclusive };

      g_array_append_val (self->nodes, node);
    }
  index_children (self);
  return self;
}

void
et_bottom_up_free (EtBottomUp *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->nodes);
  g_free (self->order);
  g_free (self->first);
  g_free (self->count);
  g_free (self);
}

guint
et_bottom_up_n_nodes (const EtBottomUp *self)
{
  return self->nodes->len;
}

const EtBottomUpNode *
et_bottom_up_node (const EtBottomUp *self, guint node)
{
  g_return_val_if_fail (node < self->nodes->len, NULL);
  return &g_array_index (self->nodes, EtBottomUpNode, node);
}

const guint32 *
et_bottom_up_children (const EtBottomUp *self, guint node, guint *n_children)
{
  g_return_val_if_fail (node < self->nodes->len, NULL);
  *n_children = self->count[node];
  return self->order + self->first[node];
}
