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
#include "et-stack-records.h"
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
  return et_stack_record_kind (record) != ET_STACK_RECORD_NONE;
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

/* Method, module and image events in time order: a load, an unload and
 * a load again at one address must be read in that order. */
static void
take_symbols (EtTrace *self, GArray *locs)
{
  EtSymbols *symbols = et_stacks_symbols (self->stacks);
  g_autofree EtEventRef *refs = g_new (EtEventRef, MAX (locs->len, 1));
  guint n = 0;

  for (guint i = 0; i < locs->len; i++)
    {
      EtRecord record;
      EtEventLoc loc = g_array_index (locs, EtEventLoc, i);

      if (_et_trace_record_at (self, loc, &record))
        refs[n++] = (EtEventRef) { record.ts, loc };
    }
  qsort (refs, n, sizeof (EtEventRef), compare_refs);
  for (guint i = 0; i < n; i++)
    {
      EtRecord record;
      guint64 offset = _et_trace_offset_of (self, refs[i].loc);

      if (_et_trace_record_at (self, refs[i].loc, &record)
          && !et_stack_record_symbol (symbols, &record, _et_trace_raw_to_ns (self, record.ts),
                                      offset))
        damage (offset, "a method, module or image event is too short to name code; "
                "frames it would name stay unnamed", self);
    }
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

static void
take_samples (EtTrace *self, GArray *locs, GArray *refs)
{
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
                              take_ref (refs, loc));
    }
  /* what is left are the other events' stacks */
  for (guint i = 0; i < refs->len; i++)
    et_stacks_add_event (self->stacks, g_array_index (refs, LocNode, i).loc,
                         g_array_index (refs, LocNode, i).node);
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
      refs = image_stacks (self, tables);
      if (stack_locs != NULL)
        take_symbols (self, stack_locs);
      et_symbols_finish (et_stacks_symbols (self->stacks), damage, self);
      take_samples (self, cpu_locs, refs);
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
