/* et-call-bottom-up.h — a call tree turned over: the functions samples
 * ended in (the hottest first), each with the callers it was called from,
 * and theirs, up to the thread and the process.
 *
 *   EtCallTree (root › process › thread › root frame … leaf)
 *     └ each node's exclusive samples, walked leaf → root ─► EtBottomUp
 *
 * A bottom-up node is a path read from a leaf upward; its samples are
 * those whose stack ends with that path. Nodes of one name under one
 * parent merge (as the call tree merges frames by name), so a function
 * called from two places is one row at the top with two callers under
 * it. Samples without a frame (counted on their thread) have no function
 * and are left out of it. Built on the call tree's worker thread.
 */
#pragma once

#include <gio/gio.h>
#include "et-call-tree.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 parent;    /* node 0 is the root (its own parent) */
  guint32 ref;       /* a call-tree node of this name and level */
  guint64 samples;   /* samples whose stack ends with this path */
} EtBottomUpNode;

typedef struct _EtBottomUp EtBottomUp;

/* NULL when @cancellable was cancelled. */
EtBottomUp           *et_bottom_up_new      (const EtCallTree *tree,
                                             GCancellable     *cancellable);
void                  et_bottom_up_free     (EtBottomUp       *self);
guint                 et_bottom_up_n_nodes  (const EtBottomUp *self);
const EtBottomUpNode *et_bottom_up_node     (const EtBottomUp *self,
                                             guint             node);
/* The children of @node (its callers), most samples first; @n_children
 * gets how many. Owned by @self. */
const guint32        *et_bottom_up_children (const EtBottomUp *self,
                                             guint             node,
                                             guint            *n_children);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtBottomUp, et_bottom_up_free)

G_END_DECLS
