/* et-stack-tree.h — call stacks stored once: frames interned, stacks as
 * nodes of a prefix tree.
 *
 *   (pid, address) ─► frame id        one per distinct return address
 *   (caller node, frame) ─► node id   one per distinct stack prefix
 *
 * A stack is its leaf node: its caller chain, followed to node 0 (no
 * frame), spells it from leaf to root. Readers of either format intern the
 * addresses they read (leaf first, as ETW's and EventPipe's stacks list
 * them) and keep a 4-byte node id per event or sample. Frames are raw
 * addresses here; names come later (et-symbols), at the time of each use,
 * since a process may load other code at an address it unloaded.
 *
 * Not thread-safe: built by one thread, then only read.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ET_STACK_NONE 0   /* the node of no stack (the root's caller) */

typedef struct _EtStackTree EtStackTree;

EtStackTree *et_stack_tree_new          (void);
void         et_stack_tree_free         (EtStackTree   *tree);

/* The node of the stack @addrs (@n addresses, leaf first) in process @pid,
 * below @caller (ET_STACK_NONE: from the root). ET_STACK_NONE when @n is 0. */
guint32      et_stack_tree_intern       (EtStackTree   *tree,
                                         guint32        caller,
                                         guint32        pid,
                                         const guint64 *addrs,
                                         gsize          n);
/* The node of @frame called from @caller. */
guint32      et_stack_tree_child        (EtStackTree   *tree,
                                         guint32        caller,
                                         guint32        frame);
guint32      et_stack_tree_frame_of     (EtStackTree   *tree,
                                         guint32        pid,
                                         guint64        address);

guint32      et_stack_tree_n_nodes      (const EtStackTree *tree);
guint32      et_stack_tree_n_frames     (const EtStackTree *tree);
/* A node's caller (its parent) and frame; nodes are numbered so that a
 * caller's id is below its callees'. */
guint32      et_stack_tree_caller       (const EtStackTree *tree,
                                         guint32            node);
guint32      et_stack_tree_frame        (const EtStackTree *tree,
                                         guint32            node);
guint        et_stack_tree_depth        (const EtStackTree *tree,
                                         guint32            node);
guint64      et_stack_tree_address      (const EtStackTree *tree,
                                         guint32            frame);
guint32      et_stack_tree_pid          (const EtStackTree *tree,
                                         guint32            frame);
/* Bytes the tree holds (for the bench's budget). */
gsize        et_stack_tree_size         (const EtStackTree *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStackTree, et_stack_tree_free)

G_END_DECLS
