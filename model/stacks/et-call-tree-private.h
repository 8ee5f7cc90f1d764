/* et-call-tree-private.h — how a call tree is built, for the trees built
 * here beside it (et-call-bottom-up: the same tree turned over). */
#pragma once

#include "et-call-tree.h"

G_BEGIN_DECLS

/* A tree of only its root, to build (@stacks names its frames). */
EtCallTree *_et_call_tree_new_empty      (const EtStacks *stacks);
/* The node of (@level, @id) under @parent, made when new (in an
 * open-addressed table of (parent, level, id), while the tree is built). */
guint32     _et_call_tree_child          (EtCallTree     *tree,
                                          guint32         parent,
                                          EtCallLevel     level,
                                          guint32         id);
/* @samples more that end in @node. */
void        _et_call_tree_add_exclusive  (EtCallTree     *tree,
                                          guint32         node,
                                          guint64         samples);
/* Done: the inclusive counts summed (callees after their callers) and
 * each node's children linked; no node can be added after. */
void        _et_call_tree_finish         (EtCallTree     *tree);

G_END_DECLS
