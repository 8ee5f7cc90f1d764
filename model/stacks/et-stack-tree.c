/* et-stack-tree.c — see et-stack-tree.h.
 *
 * Two open-addressing tables of 32-bit ids (0 empty) over flat arrays: a
 * stack costs 8 bytes per new node plus its index slots, and repeats (most
 * samples of a hot loop) cost a hash walk and nothing stored.
 */
#include "et-stack-tree.h"

#include <string.h>

typedef struct
{
  guint64 address;
  guint32 pid;
  guint32 zero;       /* (no padding: items are compared as words) */
} Frame;

typedef struct
{
  guint32 caller;
  guint32 frame;
} Node;

G_STATIC_ASSERT (sizeof (Frame) == 16 && sizeof (Node) == 8);

typedef struct
{
  guint32 *slots;     /* id + 1 … stored as id, 0 empty (ids start at 1) */
  guint    n_slots;   /* a power of two */
  guint    n_used;
} Index;

struct _EtStackTree
{
  GArray *frames;     /* Frame; [0] unused */
  GArray *nodes;      /* Node; [0] is ET_STACK_NONE */
  Index   frame_index;
  Index   node_index;
};

static guint64
mix (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  return x;
}

static guint64
frame_hash (guint32 pid, guint64 address)
{
  return mix (address ^ ((guint64) pid << 48) ^ pid);
}

static guint64
node_hash (guint32 caller, guint32 frame)
{
  return mix (((guint64) caller << 32) | frame);
}

static void
index_init (Index *index)
{
  index->n_slots = 1024;
  index->slots = g_new0 (guint32, index->n_slots);
}

EtStackTree *
et_stack_tree_new (void)
{
  EtStackTree *tree = g_new0 (EtStackTree, 1);
  Frame none_frame = { 0 };
  Node none_node = { 0 };

  tree->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  tree->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  g_array_append_val (tree->frames, none_frame);
  g_array_append_val (tree->nodes, none_node);
  index_init (&tree->frame_index);
  index_init (&tree->node_index);
  return tree;
}

void
et_stack_tree_free (EtStackTree *tree)
{
  if (tree == NULL)
    return;
  g_array_unref (tree->frames);
  g_array_unref (tree->nodes);
  g_free (tree->frame_index.slots);
  g_free (tree->node_index.slots);
  g_free (tree);
}

/* Doubles @index, placing each id again by its item's hash (rehashed
 * from the stored items: no hashes kept). */
static void
grow (EtStackTree *tree, Index *index, gboolean frames)
{
  guint old_n = index->n_slots;
  guint32 *old = index->slots;

  index->n_slots *= 2;
  index->slots = g_new0 (guint32, index->n_slots);
  for (guint i = 0; i < old_n; i++)
    {
      guint32 id = old[i];
      guint64 h;
      guint mask = index->n_slots - 1, at;

      if (id == 0)
        continue;
      if (frames)
        {
          const Frame *f = &g_array_index (tree->frames, Frame, id);
          h = frame_hash (f->pid, f->address);
        }
      else
        {
          const Node *n = &g_array_index (tree->nodes, Node, id);
          h = node_hash (n->caller, n->frame);
        }
      for (at = (guint) h & mask; index->slots[at] != 0; at = (at + 1) & mask)
        ;
      index->slots[at] = id;
    }
  g_free (old);
}

/* Whether two items of @size (8 or 16) bytes are equal: compared as
 * words (a call to memcmp per probe was most of interning). */
static inline gboolean
same (const void *a, const void *b, gsize size)
{
  const guint64 *x = a, *y = b;

  return x[0] == y[0] && (size == 8 || x[1] == y[1]);
}

/* The id of @item (@size bytes) in @items, added when new; @h its hash.
 * Inlined into its two callers, so that @size is a constant there. */
static inline __attribute__ ((always_inline)) guint32
find_or_add (EtStackTree *tree, Index *index, GArray *items, guint64 h, const void *item,
             gsize size)
{
  guint mask = index->n_slots - 1, at;

  for (at = (guint) h & mask; index->slots[at] != 0; at = (at + 1) & mask)
    if (same (items->data + (gsize) index->slots[at] * size, item, size))
      return index->slots[at];
  g_array_set_size (items, items->len + 1);
  memcpy (items->data + (gsize) (items->len - 1) * size, item, size);
  index->slots[at] = items->len - 1;
  if (++index->n_used * 2 > index->n_slots)
    grow (tree, index, items == tree->frames);
  return items->len - 1;
}

guint32
et_stack_tree_frame_of (EtStackTree *tree, guint32 pid, guint64 address)
{
  Frame f = { address, pid, 0 };

  return find_or_add (tree, &tree->frame_index, tree->frames, frame_hash (pid, address), &f,
                      sizeof f);
}

guint32
et_stack_tree_child (EtStackTree *tree, guint32 caller, guint32 frame)
{
  Node n = { caller, frame };

  return find_or_add (tree, &tree->node_index, tree->nodes, node_hash (caller, frame), &n,
                      sizeof n);
}

guint32
et_stack_tree_intern (EtStackTree *tree, guint32 caller, guint32 pid, const guint64 *addrs,
                      gsize n)
{
  guint32 node = caller;

  g_return_val_if_fail (tree != NULL, ET_STACK_NONE);
  /* Leaf first in, root first down the tree. */
  for (gsize i = n; i > 0; i--)
    node = et_stack_tree_child (tree, node, et_stack_tree_frame_of (tree, pid, addrs[i - 1]));
  return node;
}

guint32
et_stack_tree_n_nodes (const EtStackTree *tree)
{
  return tree->nodes->len;
}

guint32
et_stack_tree_n_frames (const EtStackTree *tree)
{
  return tree->frames->len;
}

guint32
et_stack_tree_caller (const EtStackTree *tree, guint32 node)
{
  g_return_val_if_fail (node < tree->nodes->len, ET_STACK_NONE);
  return g_array_index (tree->nodes, Node, node).caller;
}

guint32
et_stack_tree_frame (const EtStackTree *tree, guint32 node)
{
  g_return_val_if_fail (node < tree->nodes->len, 0);
  return g_array_index (tree->nodes, Node, node).frame;
}

guint
et_stack_tree_depth (const EtStackTree *tree, guint32 node)
{
  guint depth = 0;

  for (; node != ET_STACK_NONE; node = et_stack_tree_caller (tree, node))
    depth++;
  return depth;
}

guint64
et_stack_tree_address (const EtStackTree *tree, guint32 frame)
{
  g_return_val_if_fail (frame < tree->frames->len, 0);
  return g_array_index (tree->frames, Frame, frame).address;
}

guint32
et_stack_tree_pid (const EtStackTree *tree, guint32 frame)
{
  g_return_val_if_fail (frame < tree->frames->len, 0);
  return g_array_index (tree->frames, Frame, frame).pid;
}

gsize
et_stack_tree_size (const EtStackTree *tree)
{
  return tree->frames->len * sizeof (Frame) + tree->nodes->len * sizeof (Node)
         + (tree->frame_index.n_slots + tree->node_index.n_slots) * sizeof (guint32);
}
