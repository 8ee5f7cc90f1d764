/* et-call-bottom-up.c — see et-call-bottom-up.h.
 *
 * One walk per call-tree node that samples ended in, from it up to its
 * process: each step finds or makes the bottom-up child of (level, id)
 * under the node made by the step before, in one hash table keyed by
 * (parent, level, id). The work is the sum of those nodes' depths, no
 * more than the call tree's own build. Children are then put in runs by
 * parent (most samples first), so a row's callers are a slice.
 */
#include "et-call-bottom-up.h"

struct _EtBottomUp
{
  GArray *nodes;       /* EtBottomUpNode */
  guint32 *order;      /* node indexes, by parent, most samples first */
  guint32 *first;      /* per node: where its children start in order */
  guint32 *count;      /* per node: how many */
};

typedef struct
{
  guint32 parent;
  guint32 id;
  guint8  level;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;

  return (k->parent * 2654435761u) ^ (k->id * 40503u) ^ k->level;
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;

  return x->parent == y->parent && x->id == y->id && x->level == y->level;
}

/* The child of @parent for call-tree node @ref (made when new). */
static guint32
child_of (EtBottomUp *self, GHashTable *index, guint32 parent, const EtCallTree *tree,
          guint32 ref)
{
  const EtCallNode *n = et_call_tree_node (tree, ref);
  Key k = { parent, n->id, n->level };
  gpointer at;
  EtBottomUpNode node = { parent, ref, 0 };
  Key *stored;

  if (g_hash_table_lookup_extended (index, &k, NULL, &at))
    return GPOINTER_TO_UINT (at);
  stored = g_memdup2 (&k, sizeof k);
  g_array_append_val (self->nodes, node);
  g_hash_table_insert (index, stored, GUINT_TO_POINTER (self->nodes->len - 1));
  return self->nodes->len - 1;
}

/* The samples ending in call-tree node @leaf, added along its path up. */
static void
add_path (EtBottomUp *self, GHashTable *index, const EtCallTree *tree, guint32 leaf)
{
  guint64 samples = et_call_tree_node (tree, leaf)->exclusive;
  guint32 at = 0;

  for (guint32 j = leaf; j != 0; j = et_call_tree_node (tree, j)->parent)
    {
      at = child_of (self, index, at, tree, j);
      g_array_index (self->nodes, EtBottomUpNode, at).samples += samples;
    }
  g_array_index (self->nodes, EtBottomUpNode, 0).samples += samples;
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
  g_autoptr(GHashTable) index = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  EtBottomUp *self = g_new0 (EtBottomUp, 1);
  EtBottomUpNode root = { 0, 0, 0 };
  guint n = et_call_tree_n_nodes (tree);

  self->nodes = g_array_new (FALSE, FALSE, sizeof (EtBottomUpNode));
  g_array_append_val (self->nodes, root);
  for (guint i = 1; i < n; i++)
    {
      const EtCallNode *node = et_call_tree_node (tree, i);

      if ((i & 0xfff) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          et_bottom_up_free (self);
          return NULL;
        }
      if (node->level == ET_CALL_FRAME && node->exclusive > 0)
        add_path (self, index, tree, i);
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
