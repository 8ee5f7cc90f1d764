/* et-trace-stacks.c — the trace's call stacks (stacks/et-stacks.h), built
 * once the threads are known, after the CPU times.
 *
 *   walk ─ slots of method, module and image events ─┐ time order
 *        ─ slots of CPU samples (the CPU's own)      ─┼─► EtStacks
 *   .nettrace image ─ StackBlock entries + (slot, entry) ─┘ (interned here)
 *
 * The stacks room knows records, not the trace: this file gives it each
 * record with its time, thread and file offset. Loading only notes what
 * the stacks need (et-trace-stacks-scan.c, the CPU's samples); they are
 * built on first use (et_trace_get_stacks, once, under a lock), so a
 * window or command that never shows a stack never pays for them.
 * ETLSCOPE_NO_STACKS=1 skips it all (to measure what stacks cost a load).
 */
#include "et-trace-stacks.h"
#include "et-trace-load-private.h"
#include "et-image-record.h"
#include "et-stack-records.h"
#include "et-stack-walks.h"
#include "et-stacks.h"
#include "et-workers.h"

#include <stdlib.h>

typedef struct
{
  guint32 loc;
  guint32 node;
} LocNode;

typedef struct
{
  GArray     *refs;       /* LocNode: stacks events hold themselves, by slot */
  GArray     *joined;     /* EtJoinedStack: kernel walks by (tid, time) */
  GHashTable *by_key;     /* joined_key → index in joined */
  GArray     *pairs;      /* EtStackPair, by walk: the event the walk found */
  GHashTable *seen;       /* the frames of events' own stacks already interned */
  guint       unjoined;   /* joined stacks no sample took */
} Build;

static int
compare_loc_nodes (const void *a, const void *b)
{
  const LocNode *x = a, *y = b;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* The image's StackBlock entries, copied as the file was read, interned
 * now (first use) in the order they were first named, as the image's
 * writer did when it interned them itself: the same nodes. Each ref's
 * entry becomes its node. NULL without entries. */
static EtStackTree *
intern_image_stacks (EtImageTables *tables)
{
  g_autoptr(GHashTable) seen = NULL;
  g_autofree guint32 *nodes = NULL;
  EtStackTree *tree;

  if (tables == NULL || tables->stack_entries->len == 0)
    return NULL;
  tree = et_stack_tree_new ();
  seen = et_stack_walk_seen_new ();
  nodes = g_new (guint32, tables->stack_entries->len);
  for (guint i = 0; i < tables->stack_entries->len; i++)
    {
      const EtImageStackEntry *e = &g_array_index (tables->stack_entries, EtImageStackEntry, i);

      nodes[i] = et_stack_intern_raw (tree, seen, e->pid, et_image_stack_frames (tables, e),
                                      e->n_frames, e->ps);
    }
  for (guint b = 0; b < tables->stack_refs->len; b++)
    {
      GArray *refs = g_ptr_array_index (tables->stack_refs, b);

      for (guint i = 0; i < refs->len; i++)
        g_array_index (refs, EtImageStackRef, i).node
          = nodes[g_array_index (refs, EtImageStackRef, i).node];
    }
  return tree;
}

/* The image's (buffer, position, node) as slots, in slot order. */
static GArray *
image_stacks (EtTrace *self, const EtImageTables *tables)
{
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (LocNode));

  if (tables == NULL)
    return refs;
  for (guint b = 0; b < tables->stack_refs->len; b++)
    {
      const GArray *image_refs = g_ptr_array_index (tables->stack_refs, b);
      guint32 buffer = g_array_index (tables->stack_ref_buffers, guint32, b);

      for (guint i = 0; i < image_refs->len; i++)
        {
          const EtImageStackRef *r = &g_array_index (image_refs, EtImageStackRef, i);
          LocNode ln = { buffer * self->slot_stride + (r->pos >> 3), r->node };

          g_array_append_val (refs, ln);
        }
    }
  g_array_sort (refs, compare_loc_nodes);
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
compare_pairs (const void *a, const void *b)
{
  const EtStackPair *x = a, *y = b;

  return x->walk < y->walk ? -1 : x->walk > y->walk;
}

/* The event the walk found for stack walk @walk, or G_MAXUINT32. */
static EtEventLoc
paired_event (const Build *b, EtEventLoc walk)
{
  EtStackPair key = { walk, 0 };
  const EtStackPair *hit = b->pairs == NULL ? NULL
                           : bsearch (&key, b->pairs->data, b->pairs->len, sizeof (EtStackPair),
                                      compare_pairs);

  return hit != NULL ? hit->event : G_MAXUINT32;
}

/* One stack record: a kernel walk or key for the joiner, or an event's
 * own stack (the runtime's walk: the event before it). */
static void
take_walk (EtTrace *self, EtStackJoin *join, Build *b, EtEventLoc loc, const EtRecord *record)
{
  LocNode own = { loc, ET_STACK_NONE };

  switch (et_stack_walk_kind (record))
    {
    case ET_STACK_WALK_STACK:
    case ET_STACK_WALK_KEY_USE:
    case ET_STACK_WALK_KEY_DEF:
      et_stack_join_record (join, record, _et_trace_offset_of (self, loc),
                            paired_event (b, loc) + 1, damage, self);
      return;
    case ET_STACK_WALK_CLR:
      own.loc = paired_event (b, loc);
      if (own.loc == G_MAXUINT32)
        own.loc = _et_stacks_event_before (self, loc, record);
      if (own.loc == G_MAXUINT32)
        return;
      break;
    case ET_STACK_WALK_ITEM:
      break;
    case ET_STACK_WALK_NONE:
    default:
      return;
    }
  own.node = et_stack_walk_own_node (et_stacks_tree (self->stacks), b->seen, record);
  if (own.node != ET_STACK_NONE)
    g_array_append_val (b->refs, own);
}

/* Calls @take on each record of @refs in time order: a load, an unload
 * and a load again at one address must be read in that order, and a
 * stack key's uses before its definition. */
static void
each_in_time_order (EtTrace *self, GArray *refs,
                    void (*take) (EtTrace *, EtEventLoc, const EtRecord *, gpointer),
                    gpointer data)
{
  _et_sort_event_refs ((EtEventRef *) (gpointer) refs->data, refs->len);
  for (guint i = 0; i < refs->len; i++)
    {
      EtEventLoc loc = g_array_index (refs, EtEventRef, i).loc;
      EtRecord record;

      if (_et_trace_record_at (self, loc, &record))
        take (self, loc, &record, data);
    }
}

static void
take_code (EtTrace *self, EtEventLoc loc, const EtRecord *record, gpointer data)
{
  guint64 offset = _et_trace_offset_of (self, loc);

  (void) data;
  if (!et_stack_record_symbol (et_stacks_symbols (self->stacks), record,
                               _et_trace_raw_to_ns (self, record->ts), offset))
    damage (offset, "a method, module or image event is too short to name code; "
            "frames it would name stay unnamed", self);
}

typedef struct
{
  Build       *b;
  EtStackJoin *join;
} Walks;

static void
take_walk_of (EtTrace *self, EtEventLoc loc, const EtRecord *record, gpointer data)
{
  Walks *w = data;

  take_walk (self, w->join, w->b, loc, record);
}

/* The two halves of the ordered work share nothing (names of code; stacks
 * and their joins), so they run side by side when there are cores. */
typedef struct
{
  EtTrace *self;
  Build   *b;
  GArray  *refs;      /* code: EtEventRef; walks: EtEventLoc */
  gboolean code;
} Half;

/* The (time, slot) of each of @locs whose record still parses, as
 * each_in_time_order takes them (a failed one it would skip). */
static GArray *
refs_of (EtTrace *self, GArray *locs)
{
  GArray *refs = g_array_sized_new (FALSE, FALSE, sizeof (EtEventRef), locs->len);

  for (guint i = 0; i < locs->len; i++)
    {
      EtEventRef ref = { 0, g_array_index (locs, EtEventLoc, i) };
      EtRecord record;

      if (!_et_trace_record_at (self, ref.loc, &record))
        continue;
      ref.ts = record.ts;
      g_array_append_val (refs, ref);
    }
  return refs;
}

static gpointer
run_half (gpointer data)
{
  Half *h = data;

  et_worker_begin ();
  if (h->code)
    {
      each_in_time_order (h->self, h->refs, take_code, NULL);
      et_symbols_finish (et_stacks_symbols (h->self->stacks), damage, h->self);
    }
  else
    {
      g_autoptr(EtStackJoin) join = et_stack_join_new (et_stacks_tree (h->self->stacks));
      g_autoptr(GArray) walks = refs_of (h->self, h->refs);
      Walks w = { h->b, join };

      each_in_time_order (h->self, walks, take_walk_of, &w);
      g_array_sort (h->b->refs, compare_loc_nodes);
      h->b->joined = et_stack_join_finish (join, damage, h->self);
    }
  return NULL;
}

static void
take_ordered_records (EtTrace *self, EtStacksScan *scan, Build *b)
{
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  g_autoptr(GArray) no_walks = g_array_new (FALSE, FALSE, sizeof (EtEventLoc));
  GArray *code = scan != NULL ? _et_stacks_scan_code (scan) : none;
  GArray *walks = scan != NULL ? _et_stacks_scan_walks (scan) : no_walks;
  Half halves[2] = { { self, b, walks, FALSE }, { self, b, code, TRUE } };

  if (et_workers_count (MIN (code->len, walks->len), 4096) > 1)
    et_workers_run (halves, sizeof (Half), 2, run_half, "etlscope-stacks");
  else
    for (guint i = 0; i < 2; i++)
      run_half (&halves[i]);
}

/* Joined walks by (tid, time in ns), for the samples to take theirs. */
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
  LocNode *hit = refs->len > 0 ? bsearch (&key, refs->data, refs->len, sizeof (LocNode),
                                          compare_loc_nodes) : NULL;
  guint32 node;

  if (hit == NULL)
    return ET_STACK_NONE;
  node = hit->node;
  hit->node = ET_STACK_NONE;
  return node;
}

/* The joined stack of (tid, ns), taken (one stack, one event), or NONE. */
static guint32
take_joined (EtTrace *self, Build *b, guint32 tid, gint64 ns)
{
  gint64 key = joined_key (tid, ns);
  gpointer at;

  for (; g_hash_table_lookup_extended (b->by_key, &key, NULL, &at); key++)
    {
      EtJoinedStack *j = &g_array_index (b->joined, EtJoinedStack, GPOINTER_TO_UINT (at));
      guint32 node = j->node;

      if (j->tid == tid && _et_trace_raw_to_ns (self, j->ts) == ns && node != ET_STACK_NONE)
        {
          j->node = ET_STACK_NONE;
          b->unjoined--;
          return node;
        }
    }
  return ET_STACK_NONE;
}

/* Joined stacks whose event a walk found become that event's (slot,
 * node); the others are found by thread and time (ns). */
static void
index_joined (EtTrace *self, Build *b)
{
  for (guint i = 0; i < b->joined->len; i++)
    {
      EtJoinedStack *j = &g_array_index (b->joined, EtJoinedStack, i);
      gint64 key;

      if (j->event != 0)
        {
          LocNode ln = { j->event - 1, j->node };

          g_array_append_val (b->refs, ln);
          j->node = ET_STACK_NONE;
          continue;
        }
      key = joined_key (j->tid, _et_trace_raw_to_ns (self, j->ts));
      while (g_hash_table_contains (b->by_key, &key))
        key++;                          /* (the mixed keys of two collide) */
      g_hash_table_insert (b->by_key, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (i));
      b->unjoined++;
    }
  g_array_sort (b->refs, compare_loc_nodes);
}

/* Each sample's stack: its own (a .nettrace's, or the kernel walk paired
 * with it), else the kernel walk of its thread and time. */
static void
take_samples (EtTrace *self, GArray *samples, Build *b)
{
  for (guint i = 0; samples != NULL && i < samples->len; i++)
    {
      const EtSampleRef *s = &g_array_index (samples, EtSampleRef, i);
      guint32 node = take_ref (b->refs, s->loc);
      EtRecord record;
      gint64 ns;

      if (!_et_trace_record_at (self, s->loc, &record))
        {
          /* read while loading, gone since (the file shrank: the load
           * said so): its time with it, so it is counted as damage */
          et_stacks_count_damage (self->stacks);
          continue;
        }
      ns = _et_trace_raw_to_ns (self, record.ts);
      if (node == ET_STACK_NONE && b->unjoined > 0)
        node = take_joined (self, b, g_array_index (self->threads, EtThread, s->thread).tid, ns);
      et_stacks_add_sample (self->stacks, s->thread, ns, node);
    }
}

/* What is left are the other events' stacks: their own, and the kernel
 * walks no sample took, given to the event of their thread and time. */
static void
take_events (EtTrace *self, Build *b)
{
  for (guint i = 0; i < b->refs->len; i++)
    et_stacks_add_event (self->stacks, g_array_index (b->refs, LocNode, i).loc,
                         g_array_index (b->refs, LocNode, i).node);
  for (guint i = 0; i < b->joined->len && b->unjoined > 0; i++)
    {
      const EtJoinedStack *j = &g_array_index (b->joined, EtJoinedStack, i);
      EtEventLoc loc;

      if (j->node == ET_STACK_NONE)
        continue;
      loc = _et_stacks_event_of (self, j->tid, j->ts);
      if (loc != G_MAXUINT32)
        et_stacks_add_event (self->stacks, loc, j->node);
    }
}

void
_et_trace_stacks_build (EtTrace *self, GArray *samples, EtStacksScan *scan)
{
  EtImageTables *tables = et_etl_file_image_tables (self->file);
  Build b = { 0 };

  g_clear_pointer (&self->stacks, et_stacks_free);
  if (g_getenv ("ETLSCOPE_NO_STACKS") == NULL)
    {
      self->stacks = et_stacks_new (intern_image_stacks (tables), self->threads->len);
      b.refs = image_stacks (self, tables);
      b.by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      b.seen = et_stack_walk_seen_new ();
      b.pairs = scan != NULL ? _et_stacks_scan_pairs (scan) : NULL;
      if (b.pairs != NULL)
        g_array_sort (b.pairs, compare_pairs);
      take_ordered_records (self, scan, &b);
      index_joined (self, &b);
      take_samples (self, samples, &b);
      take_events (self, &b);
      et_stacks_finish (self->stacks);
      g_array_unref (b.refs);
      g_array_unref (b.joined);
      g_hash_table_unref (b.by_key);
      g_hash_table_unref (b.seen);
    }
  if (tables != NULL)
    et_image_tables_drop_stacks (tables);
  g_clear_pointer (&samples, g_array_unref);
  g_clear_pointer (&scan, _et_stacks_scan_free);
}

EtStacks *
et_trace_get_stacks (EtTrace *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_mutex_lock (&self->stacks_lock);
  if (!self->stacks_built && self->stacks_scan != NULL)
    {
      gint64 since = g_get_monotonic_time ();

      _et_trace_stacks_build (self, g_steal_pointer (&self->stacks_samples),
                              g_steal_pointer (&self->stacks_scan));
      _et_loader_phase_done ("stacks", &since);
      if (self->stacks != NULL && g_getenv ("ETLSCOPE_TIMING") != NULL)
        {
          EtStacksStats st = et_stacks_get_stats (self->stacks);

          g_printerr ("etlscope: stacks: %" G_GUINT64_FORMAT " samples (12 B each), %"
                      G_GUINT64_FORMAT " stacks, %" G_GUINT64_FORMAT " nodes, %"
                      G_GUINT64_FORMAT " frames, %" G_GSIZE_FORMAT " B in all\n",
                      st.samples, st.stacks, st.nodes, st.frames, st.bytes);
        }
    }
  self->stacks_built = TRUE;
  g_mutex_unlock (&self->stacks_lock);
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
  if (et_trace_get_stacks (self) == NULL || !_et_trace_record_at (self, self->events[index], &record))
    return ET_STACK_NONE;
  if (ns != NULL)
    *ns = _et_trace_raw_to_ns (self, record.ts);
  node = et_stacks_event_node (self->stacks, self->events[index]);
  if (node == ET_STACK_NONE && _et_cpu_record_is_sample (&record))
    node = sample_stack (self, &record);
  return node;
}
