/* et-call-tree.h — the call tree of the CPU samples of a set of (thread,
 * from, to) ranges — a time range × threads, or the spans of a Statistics
 * row — with inclusive and exclusive counts.
 *
 *   EtStacks samples of each (thread, from, to) ─► root
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

/* A thread's samples in [from_ns, to_ns], both included. */
typedef struct
{
  EtCallThread thread;
  gint64       from_ns;
  gint64       to_ns;
} EtCallRange;

typedef struct _EtCallTree EtCallTree;

/* The samples of every range: a sample in two ranges (nested spans of one
 * thread) counts in each, as a sum of the ranges' counts would. */
EtCallTree       *et_call_tree_new_ranges (const EtStacks    *stacks,
                                           const EtCallRange *ranges,
                                           guint              n_ranges,
                                           GCancellable      *cancellable);
/* The one-range case: @threads' samples in [@from_ns, @to_ns]. */
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
