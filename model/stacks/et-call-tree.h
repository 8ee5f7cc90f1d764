/* et-call-tree.h — the call tree of the CPU samples of a time range × a set
 * of threads, with inclusive and exclusive counts.
 *
 *   EtStacks samples of each thread in [from, to] ─► root
 *                                                    └ process (pid)
 *                                                      └ thread (tid)
 *                                                        └ root frame … leaf
 *
 * Frames merge by name (et_stacks_frame_symbol), as PerfView's call tree
 * does: two addresses of one method are one node. A sample without a stack
 * counts on its thread's node. Built from the stacks' prefix tree in one
 * pass over the samples (a node's frames are named once, not per sample),
 * so it may run on any thread while the window draws; @cancellable stops
 * it (NULL is returned).
 */
#pragma once

#include <gio/gio.h>
#include "et-stacks.h"

G_BEGIN_DECLS

typedef enum
{
  ET_CALL_ROOT,
  ET_CALL_PROCESS,   /* id: the pid */
  ET_CALL_THREAD,    /* id: the tid */
  ET_CALL_FRAME,     /* id: the frame's symbol (et_stacks_name) */
} EtCallLevel;

typedef struct
{
  guint32 parent;      /* node 0 is the root (its own parent) */
  guint32 id;
  guint64 inclusive;   /* samples in it and below */
  guint64 exclusive;   /* samples that end in it */
  guint8  level;       /* EtCallLevel */
} EtCallNode;

/* Which threads: the stacks' thread index and its ids. */
typedef struct
{
  guint   thread;
  guint32 pid;
  guint32 tid;
} EtCallThread;

typedef struct _EtCallTree EtCallTree;

EtCallTree       *et_call_tree_new       (const EtStacks     *stacks,
                                          const EtCallThread *threads,
                                          guint               n_threads,
                                          gint64              from_ns,
                                          gint64              to_ns,
                                          GCancellable       *cancellable);
void              et_call_tree_free      (EtCallTree         *tree);
guint             et_call_tree_n_nodes   (const EtCallTree   *tree);
const EtCallNode *et_call_tree_node      (const EtCallTree   *tree,
                                          guint               node);
/* The children of @node, most inclusive first (ties by name, then id). */
GArray           *et_call_tree_children  (const EtCallTree   *tree,
                                          guint               node);
/* Appends the node's name: "Process (pid)", "Thread (tid)" or the frame's. */
void              et_call_tree_append_name (const EtCallTree *tree,
                                            guint             node,
                                            GString          *out);
const EtStacks   *et_call_tree_stacks    (const EtCallTree   *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtCallTree, et_call_tree_free)

G_END_DECLS
