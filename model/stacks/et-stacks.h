/* et-stacks.h — the call stacks of a trace, joined to their events and CPU
 * samples, and named from the trace's own method, module and image events.
 *
 *   readers ─► EtStackTree (frames, prefix tree)  ─┐
 *   method/module/image events ─► EtSymbols       ─┼─► EtStacks
 *   samples per thread (time, node): 12 B each     ─┤    ├ et_stacks_thread_samples
 *   events with a stack (slot, node): 8 B each     ─┘    ├ et_stacks_event_node
 *                                                        └ et_stacks_frame_name
 *
 * Built by the trace loader once its threads are known (the loader calls
 * in here; nothing here knows the trace), read-only after, so any thread
 * may query it (the call tree is computed off the main thread:
 * et-call-tree.h). Event slots are the trace's (EtEventLoc); threads are
 * the trace's thread indexes.
 */
#pragma once

#include <glib.h>
#include "et-stack-tree.h"
#include "et-symbols.h"

G_BEGIN_DECLS

typedef struct _EtStacks EtStacks;

typedef struct
{
  guint64 stacks;           /* events and samples holding a stack */
  guint64 samples;          /* CPU samples kept (with or without a stack) */
  guint64 frames;           /* distinct (process, address) frames */
  guint64 nodes;            /* prefix-tree nodes */
  guint64 methods;          /* managed method ranges */
  guint64 unnamed_frames;   /* distinct frames nothing covers (?!0x…) */
  guint64 damage;           /* stacks, keys and ranges counted as damage */
  gsize   bytes;            /* what the stacks hold, for the budget */
} EtStacksStats;

/* ---- building (the loader) ------------------------------------------- */

/* Takes @tree (frames the readers interned; may be NULL: a new one). */
EtStacks    *et_stacks_new              (EtStackTree  *tree,
                                         guint         n_threads);
void         et_stacks_free             (EtStacks     *stacks);
EtStackTree *et_stacks_tree             (EtStacks     *stacks);
EtSymbols   *et_stacks_symbols          (EtStacks     *stacks);
/* A CPU sample of thread @thread at @ns (ET_STACK_NONE: without stack). */
void         et_stacks_add_sample       (EtStacks     *stacks,
                                         guint         thread,
                                         gint64        ns,
                                         guint32       node);
void         et_stacks_add_event        (EtStacks     *stacks,
                                         guint32       loc,
                                         guint32       node);
void         et_stacks_count_damage     (EtStacks     *stacks);
/* Sorts samples and events and names the frames (et_symbols_finish first). */
void         et_stacks_finish           (EtStacks     *stacks);

/* ---- reading ---------------------------------------------------------- */

EtStacksStats et_stacks_get_stats       (const EtStacks *stacks);
/* Thread @thread's samples in time order: times (ns) and nodes. */
guint        et_stacks_thread_samples   (const EtStacks  *stacks,
                                         guint            thread,
                                         const gint64   **ns,
                                         const guint32  **nodes);
/* The stack of the event in slot @loc (ET_STACK_NONE: none). */
guint32      et_stacks_event_node       (const EtStacks  *stacks,
                                         guint32          loc);
/* The name of @frame at @ns: a string id (et_stacks_name) that equal
 * names share, so a call tree merges by it. */
guint32      et_stacks_frame_symbol     (const EtStacks  *stacks,
                                         guint32          frame,
                                         gint64           ns);
/* Whether @frame's name depends on when it ran (code was unloaded at
 * its address and other code loaded there). */
gboolean     et_stacks_frame_timed      (const EtStacks  *stacks,
                                         guint32          frame);
const char  *et_stacks_name             (const EtStacks  *stacks,
                                         guint32          symbol);
/* Whether the name of a symbol is an address nothing covers. */
gboolean     et_stacks_symbol_unnamed   (const EtStacks  *stacks,
                                         guint32          symbol);
/* Appends the frames of @node at @ns to @symbols (guint32), root first. */
void         et_stacks_node_symbols     (const EtStacks  *stacks,
                                         guint32          node,
                                         gint64           ns,
                                         GArray          *symbols);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStacks, et_stacks_free)

G_END_DECLS
