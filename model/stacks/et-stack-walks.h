/* et-stack-walks.h — the stacks of an .etl, which come apart from their
 * events, joined into one stack per event.
 *
 *   StackWalk/Stack (kernel)       EventTimeStamp, thread, frames ──┐
 *   StackWalk/StackKeyKernel/User  EventTimeStamp, thread, key ─────┤  by (thread,
 *   StackWalk/KeyDelete, KeyRundown  key → frames (defined after)   │  EventTimeStamp)
 *                                                                    ▼
 *                         kernel half (leaf side) + user half (root side) → node
 *
 * A key is defined when the kernel's cache lets it go (KeyDelete) or at the
 * end (KeyRundown), after the events that use it; a key may then be used
 * again for another stack, so each use waits for the next definition of
 * its key. A use whose key is never defined is damage (its offset). A
 * sample in the kernel gets its kernel and user halves from two walks of
 * the same EventTimeStamp: the user half becomes the caller of the kernel
 * half. Records are given in time order.
 */
#pragma once

#include "et-etl-reader.h"
#include "et-stack-tree.h"

G_BEGIN_DECLS

typedef enum
{
  ET_STACK_WALK_NONE,
  ET_STACK_WALK_STACK,      /* StackWalk/Stack */
  ET_STACK_WALK_KEY_USE,    /* StackKeyKernel, StackKeyUser */
  ET_STACK_WALK_KEY_DEF,    /* KeyDelete, KeyRundown (and KeyCreate) */
  ET_STACK_WALK_CLR,        /* the runtime's ClrStack/Walk */
  ET_STACK_WALK_ITEM,       /* an event with a STACK_TRACE32/64 item */
} EtStackWalkKind;

EtStackWalkKind et_stack_walk_kind (const EtRecord *record);

/* Whether an EVENT_HEADER record of provider @guid can be anything but
 * ET_STACK_WALK_ITEM or NONE (the kernel's StackWalk class, the runtime's
 * providers); for any other, et_stack_has_own_stack tells which. */
gboolean        et_stack_walks_read_provider (const EtGuid *guid);
/* Whether @record carries a STACK_TRACE32/64 item (ET_STACK_WALK_ITEM). */
gboolean        et_stack_has_own_stack       (const EtRecord *record);

typedef struct _EtStackJoin EtStackJoin;

/* A joined stack: the event it belongs to is the one of thread @tid at raw
 * time @ts (a CPU sample: its payload's thread). */
typedef struct
{
  gint64  ts;
  guint32 pid;
  guint32 tid;
  guint32 node;
  guint32 event;      /* the caller's id of its event (+ 1), when a walk knew it; 0 */
} EtJoinedStack;

typedef void (*EtStackDamageFunc) (guint64 offset, const char *what, gpointer data);

EtStackJoin *et_stack_join_new     (EtStackTree       *tree);
void         et_stack_join_free    (EtStackJoin       *join);
/* A STACK, KEY_USE or KEY_DEF record at file offset @offset; @event
 * (+ 1; 0: unknown) is the caller's id of the event it walked. */
void         et_stack_join_record  (EtStackJoin       *join,
                                    const EtRecord    *record,
                                    guint64            offset,
                                    guint32            event,
                                    EtStackDamageFunc  damage,
                                    gpointer           data);
/* Every joined stack, by (tid, ts); uses still waiting for their key are
 * told to @damage. */
GArray      *et_stack_join_finish  (EtStackJoin       *join,
                                    EtStackDamageFunc  damage,
                                    gpointer           data);
/* The frames of a CLR walk or a STACK_TRACE item of @record, leaf first,
 * interned in @tree; ET_STACK_NONE when it has none. @seen (from
 * et_stack_walk_seen_new, may be NULL) remembers the frames' bytes
 * already interned: a walk that repeats another's costs one hash. */
guint32      et_stack_walk_own_node (EtStackTree      *tree,
                                     GHashTable       *seen,
                                     const EtRecord   *record);
/* For et_stack_walk_own_node and et_stack_intern_raw: the bytes given
 * must outlive it. */
GHashTable  *et_stack_walk_seen_new (void);
/* The node of @n addresses of @ps bytes at @p (little-endian, leaf first)
 * of process @pid; @seen (may be NULL) makes a repeat cost one hash. */
guint32      et_stack_intern_raw    (EtStackTree      *tree,
                                     GHashTable       *seen,
                                     guint32           pid,
                                     const guint8     *p,
                                     gsize             n,
                                     guint             ps);
/* Whether @record is the runtime's (its main or private provider): a
 * ClrStack/Walk belongs to the last such event before it on its thread
 * (TraceLog's rule). */
gboolean     et_stack_is_clr_event  (const EtRecord   *record);
/* Whether @address is the kernel's for a process of @pointer_size. */
gboolean     et_stack_is_kernel_address (guint64       address,
                                         guint         pointer_size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStackJoin, et_stack_join_free)

G_END_DECLS
