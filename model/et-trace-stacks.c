/* et-trace-stacks.c — the trace's call stacks (stacks/et-stacks.h), built
 * once the threads are known, after the CPU times.
 *
 *   walk ─ slots of method, module and image events ─┐ time order
 *        ─ slots of CPU samples (the CPU's own)      ─┼─► EtStacks
 *   .nettrace image ─ stack tree + (slot, node)      ─┘
 *
 * The stacks room knows records, not the trace: this file gives it each
 * record with its time, thread and file offset. ETLSCOPE_NO_STACKS=1 skips
 * it all (to measure what stacks cost a load).
 */
#include "et-trace-private.h"
#include "et-image-record.h"
#include "et-kernel.h"
#include "et-stack-records.h"
#include "et-stack-walks.h"
#include "et-stacks.h"

#include <stdlib.h>

typedef struct
{
  guint32 loc;
  guint32 node;
} LocNode;

gboolean
_et_stacks_record_wanted (const EtRecord *record)
{
  return et_stack_record_kind (record) != ET_STACK_RECORD_NONE
         || et_stack_walk_kind (record) != ET_STACK_WALK_NONE;
}

static int
compare_loc_nodes (const void *a, const void *b)
{
  const LocNode *x = a, *y = b;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* The image's (buffer, position, node) as slots, in slot order. */
static GArray *
image_stacks (EtTrace *self, const EtImageTables *tables)
{
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (LocNode));

  if (tables == NULL)
    return refs;
  g_array_set_size (refs, tables->stack_refs->len);
  for (guint i = 0; i < tables->stack_refs->len; i++)
    {
      const EtImageStackRef *r = &g_array_index (tables->stack_refs, EtImageStackRef, i);
      LocNode *ln = &g_array_index (refs, LocNode, i);

      ln->loc = r->buffer * self->slot_stride + (r->pos >> 3);
      ln->node = r->node;
    }
  qsort (refs->data, refs->len, sizeof (LocNode), compare_loc_nodes);
  return refs;
}

static void
damage (guint64 offset, const char *what, gpointer data)
{
  EtTrace *self = data;
  g_autofree char *message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s",
                                              self->path, offset, what);

  _et_trace_add_damage (self, offset, message);
  et_stacks_count_damage (self->stacks);
}

static int
compare_refs (const void *a, const void *b)
{
  const EtEventRef *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* The thread a record belongs to: its header's, or for kernel records
 * whose header names none, its payload's. */
static guint32
record_tid (const EtRecord *record)
{
  guint32 pid, tid;

  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    {
      EtKernelIdsFrom from = et_kernel_ids (record, &pid, &tid);

      if ((from == ET_KERNEL_IDS_SAMPLE || from == ET_KERNEL_IDS_TID || from == ET_KERNEL_IDS_THREAD)
          && tid != ET_KERNEL_NO_ID)
        return tid;
    }
  return record->has_ids ? record->tid : G_MAXUINT32;
}

/* The first index whose event is at raw time @ts or later. */
static guint64
index_at (EtTrace *self, gint64 ts)
{
  guint64 lo = 0, hi = self->n_events;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      EtRecord record;

      if (_et_trace_record_at (self, self->events[mid], &record) && record.ts < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The event of thread @tid at raw time @ts that a kernel walk belongs to
 * (not a walk itself), or G_MAXUINT32. */
static EtEventLoc
event_of (EtTrace *self, guint32 tid, gint64 ts)
{
  for (guint64 i = index_at (self, ts); i < self->n_events; i++)
    {
      EtRecord record;

      if (!_et_trace_record_at (self, self->events[i], &record) || record.ts != ts)
        break;
      if (record_tid (&record) == tid && et_stack_walk_kind (&record) != ET_STACK_WALK_STACK
          && et_stack_walk_kind (&record) != ET_STACK_WALK_KEY_USE)
        return self->events[i];
    }
  return G_MAXUINT32;
}

/* The runtime's stack walk belongs to the event before it on its thread. */
#define MAX_LOOK_BACK 4096

static EtEventLoc
event_before (EtTrace *self, EtEventLoc walk, const EtRecord *walk_record)
{
  guint64 at = index_at (self, walk_record->ts);
  guint32 tid = record_tid (walk_record);

  while (at < self->n_events && self->events[at] != walk)
    at++;
  for (guint64 i = at, n = 0; i > 0 && n < MAX_LOOK_BACK; i--, n++)
    {
      EtRecord record;

      if (_et_trace_record_at (self, self->events[i - 1], &record) && record_tid (&record) == tid
          && et_stack_walk_kind (&record) == ET_STACK_WALK_NONE)
        return self->events[i - 1];
    }
  return G_MAXUINT32;
}

/* One record of the time-ordered walk: code it names, or a stack. */
static void
take_ordered (EtTrace *self, EtStackJoin *join, GArray *refs, EtEventLoc loc,
              const EtRecord *record)
{
  guint64 offset = _et_trace_offset_of (self, loc);
  LocNode own = { loc, ET_STACK_NONE };

  switch (et_stack_walk_kind (record))
    {
    case ET_STACK_WALK_STACK:
    case ET_STACK_WALK_KEY_USE:
    case ET_STACK_WALK_KEY_DEF:
      et_stack_join_record (join, record, offset, damage, self);
      return;
    case ET_STACK_WALK_CLR:
      own.loc = event_before (self, loc, record);
      if (own.loc == G_MAXUINT32)
        return;
      G_GNUC_FALLTHROUGH;
    case ET_STACK_WALK_ITEM:
      own.node = et_stack_walk_own_node (et_stacks_tree (self->stacks), record);
      if (own.node != ET_STACK_NONE)
        g_array_append_val (refs, own);
      if (et_stack_walk_kind (record) == ET_STACK_WALK_CLR)
        return;
      break;
    case ET_STACK_WALK_NONE:
    default:
      break;
    }
  if (!et_stack_record_symbol (et_stacks_symbols (self->stacks), record,
                               _et_trace_raw_to_ns (self, record->ts), offset))
    damage (offset, "a method, module or image event is too short to name code; "
            "frames it would name stay unnamed", self);
}

/* Method, module, image and stack events in time order: a load, an
 * unload and a load again at one address must be read in that order, and
 * a stack key's uses before its definition. Returns the joined kernel
 * walks (EtJoinedStack). */
static GArray *
take_ordered_records (EtTrace *self, GArray *locs, GArray *refs)
{
  g_autoptr(EtStackJoin) join = et_stack_join_new (et_stacks_tree (self->stacks));
  g_autofree EtEventRef *ordered = g_new (EtEventRef, MAX (locs != NULL ? locs->len : 0, 1));
  guint n = 0;

  for (guint i = 0; locs != NULL && i < locs->len; i++)
    {
      EtRecord record;
      EtEventLoc loc = g_array_index (locs, EtEventLoc, i);

      if (_et_trace_record_at (self, loc, &record))
        ordered[n++] = (EtEventRef) { record.ts, loc };
    }
  qsort (ordered, n, sizeof (EtEventRef), compare_refs);
  for (guint i = 0; i < n; i++)
    {
      EtRecord record;

      if (_et_trace_record_at (self, ordered[i].loc, &record))
        take_ordered (self, join, refs, ordered[i].loc, &record);
    }
  qsort (refs->data, refs->len, sizeof (LocNode), compare_loc_nodes);
  return et_stack_join_finish (join, damage, self);
}

/* Joined walks by (tid, raw time), for the samples to take theirs. */
static gint64
joined_key (guint32 tid, gint64 ts)
{
  return ts ^ ((gint64) tid << 40) ^ ((gint64) tid >> 24);
}

/* The node of slot @loc in @refs (taken: it is a sample's), or NONE. */
static guint32
take_ref (GArray *refs, EtEventLoc loc)
{
  LocNode key = { loc, 0 };
  LocNode *hit = bsearch (&key, refs->data, refs->len, sizeof (LocNode), compare_loc_nodes);
  guint32 node;

  if (hit == NULL)
    return ET_STACK_NONE;
  node = hit->node;
  hit->node = ET_STACK_NONE;
  return node;
}

/* A sample's stack: its own (a .nettrace's), else the kernel walk of its
 * thread and time (taken from @joined: one stack, one event). */
static guint32
sample_node (EtTrace *self, GArray *refs, GArray *joined, GHashTable *by_key, EtEventLoc loc,
             const EtRecord *record, guint thread)
{
  guint32 node = take_ref (refs, loc), tid = g_array_index (self->threads, EtThread, thread).tid;
  gint64 key = joined_key (tid, record->ts);
  gpointer at;

  for (; node == ET_STACK_NONE && g_hash_table_lookup_extended (by_key, &key, NULL, &at); key++)
    {
      EtJoinedStack *j = &g_array_index (joined, EtJoinedStack, GPOINTER_TO_UINT (at));

      if (j->tid == tid && j->ts == record->ts)
        {
          node = j->node;
          j->node = ET_STACK_NONE;
        }
    }
  return node;
}

static void
take_samples (EtTrace *self, GArray *locs, GArray *refs, GArray *joined)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < joined->len; i++)
    {
      const EtJoinedStack *j = &g_array_index (joined, EtJoinedStack, i);
      gint64 key = joined_key (j->tid, j->ts);

      while (g_hash_table_contains (by_key, &key))
        key++;                          /* (the mixed keys of two collide) */
      g_hash_table_insert (by_key, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (i));
    }
  for (guint i = 0; locs != NULL && i < locs->len; i++)
    {
      EtEventLoc loc = g_array_index (locs, EtEventLoc, i);
      EtRecord record;
      guint thread;

      if (!_et_trace_record_at (self, loc, &record) || !_et_cpu_record_is_sample (&record))
        continue;
      thread = _et_trace_sample_thread (self, &record);
      if (thread != ET_NO_INDEX)
        et_stacks_add_sample (self->stacks, thread, _et_trace_raw_to_ns (self, record.ts),
                              sample_node (self, refs, joined, by_key, loc, &record, thread));
    }
}

/* What is left are the other events' stacks: their own, and the walks
 * joined to the event of their thread and time. */
static void
take_events (EtTrace *self, GArray *refs, GArray *joined)
{
  for (guint i = 0; i < refs->len; i++)
    et_stacks_add_event (self->stacks, g_array_index (refs, LocNode, i).loc,
                         g_array_index (refs, LocNode, i).node);
  for (guint i = 0; i < joined->len; i++)
    {
      const EtJoinedStack *j = &g_array_index (joined, EtJoinedStack, i);
      EtEventLoc loc = j->node != ET_STACK_NONE ? event_of (self, j->tid, j->ts) : G_MAXUINT32;

      if (loc != G_MAXUINT32)
        et_stacks_add_event (self->stacks, loc, j->node);
    }
}

void
_et_trace_stacks_build (EtTrace *self, GArray *cpu_locs, GArray *stack_locs)
{
  EtImageTables *tables = et_etl_file_image_tables (self->file);
  g_autoptr(GArray) refs = NULL;

  g_clear_pointer (&self->stacks, et_stacks_free);
  if (g_getenv ("ETLSCOPE_NO_STACKS") == NULL)
    {
      self->stacks = et_stacks_new (tables != NULL ? g_steal_pointer (&tables->stacks) : NULL,
                                    self->threads->len);
      g_autoptr(GArray) joined = NULL;

      refs = image_stacks (self, tables);
      joined = take_ordered_records (self, stack_locs, refs);
      et_symbols_finish (et_stacks_symbols (self->stacks), damage, self);
      take_samples (self, cpu_locs, refs, joined);
      take_events (self, refs, joined);
      et_stacks_finish (self->stacks);
    }
  if (tables != NULL)
    g_array_set_size (tables->stack_refs, 0);
  g_clear_pointer (&cpu_locs, g_array_unref);
  g_clear_pointer (&stack_locs, g_array_unref);
}

EtStacks *
et_trace_get_stacks (EtTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->stacks;
}

/* A sample's stack is kept with its thread's samples, found by its time. */
static guint32
sample_stack (EtTrace *self, const EtRecord *record)
{
  guint thread = _et_trace_sample_thread (self, record);
  gint64 ns = _et_trace_raw_to_ns (self, record->ts);
  const gint64 *times;
  const guint32 *nodes;
  guint n, lo = 0, hi;

  if (thread == ET_NO_INDEX)
    return ET_STACK_NONE;
  n = et_stacks_thread_samples (self->stacks, thread, &times, &nodes);
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (times[mid] < ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && times[lo] == ns ? nodes[lo] : ET_STACK_NONE;
}

guint32
et_trace_event_stack (EtTrace *self, guint64 index, gint64 *ns)
{
  EtRecord record;
  guint32 node;

  g_return_val_if_fail (self != NULL && index < self->n_events, ET_STACK_NONE);
  if (self->stacks == NULL || !_et_trace_record_at (self, self->events[index], &record))
    return ET_STACK_NONE;
  if (ns != NULL)
    *ns = _et_trace_raw_to_ns (self, record.ts);
  node = et_stacks_event_node (self->stacks, self->events[index]);
  if (node == ET_STACK_NONE && _et_cpu_record_is_sample (&record))
    node = sample_stack (self, &record);
  return node;
}
