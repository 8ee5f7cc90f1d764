/* et-trace-stacks-scan.c — what the walk notes for the stacks, and
 * finding the event a stack walk belongs to.
 *
 *   walk (every record, file order, per walking thread)
 *     ├ time and slot of method, module and image events     → code
 *     ├ slot of stack walks, keys, events' own stacks          → walks
 *     └ per thread its last event (slot, time): a walk that
 *       follows its event gets its slot                    → pairs (walk, event)
 *
 * The kernel logs a stack walk right after the event it walked, in the
 * same CPU's buffer, with that event's time and thread (EventTimeStamp,
 * StackThread); the runtime logs its ClrStack/Walk right after its event,
 * on the same thread, and TraceLog gives it to the last runtime event
 * (main or private provider) before it there. So the record before on the
 * thread, in the walk's own order, is nearly always the event; where the walk cannot tell (a
 * thread's last record forgotten, a walk whose event was before this
 * walking thread's first buffer, a user half logged later), the event is
 * searched in the time-ordered index (_et_stacks_event_of,
 * _et_stacks_event_before): the same answer, slower.
 */
#include "et-trace-load-private.h"
#include "et-kernel.h"
#include "et-stack-records.h"
#include "et-stack-walks.h"
#include "et-bytes.h"

#define LAST_SLOTS    1024     /* threads remembered per walking thread */
#define MAX_LOOK_BACK 4096     /* events searched back for a runtime walk's */

typedef struct
{
  guint32    tid;
  EtEventLoc loc;
  gint64     ts;
  gboolean   used;
} Last;

struct _EtStacksScan
{
  GArray *code;               /* EtEventRef (time, slot): method, module, image events */
  GArray *walks;              /* EtEventLoc: stack walks, keys, events with own stacks
                               * (their times are read again when the stacks are
                               * built: 4 bytes a walk while loading, not 16; a
                               * sample's own stack each in a .nettrace) */
  GArray *pairs;              /* EtStackPair */
  Last    last[LAST_SLOTS];   /* per thread, its last event (a kernel walk's) */
  Last    clr[LAST_SLOTS];    /* per thread, its last runtime event (a runtime walk's) */
};

EtStacksScan *
_et_stacks_scan_new (void)
{
  EtStacksScan *scan = g_new0 (EtStacksScan, 1);

  scan->code = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  scan->walks = g_array_new (FALSE, FALSE, sizeof (EtEventLoc));
  scan->pairs = g_array_new (FALSE, FALSE, sizeof (EtStackPair));
  return scan;
}

void
_et_stacks_scan_free (EtStacksScan *scan)
{
  if (scan == NULL)
    return;
  g_array_unref (scan->code);
  g_array_unref (scan->walks);
  g_array_unref (scan->pairs);
  g_free (scan);
}

guint32
_et_stacks_record_tid (const EtRecord *record)
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

static guint
slot_of (guint32 tid)
{
  return (tid * 2654435761u) >> 22;        /* 10 bits: LAST_SLOTS */
}

/* The pair of walk @loc with the last event of @tid (at @ts, or any time
 * when @ts is G_MININT64), when the walk remembers it. */
static void
pair_with_last (EtStacksScan *scan, const Last *table, EtEventLoc loc, guint32 tid, gint64 ts)
{
  const Last *last = &table[slot_of (tid)];
  EtStackPair pair = { loc, last->loc };

  if (last->used && last->tid == tid && (ts == G_MININT64 || last->ts == ts))
    g_array_append_val (scan->pairs, pair);
}

static void
remember (Last *table, guint32 tid, EtEventLoc loc, gint64 ts)
{
  Last *last = &table[slot_of (tid)];

  last->tid = tid;
  last->loc = loc;
  last->ts = ts;
  last->used = TRUE;
}

void
_et_stacks_scan_record (EtStacksScan *scan, const EtRecord *record, EtEventLoc loc)
{
  EtStackWalkKind kind = et_stack_walk_kind (record);
  EtEventRef ref = { record->ts, loc };
  guint32 tid;

  if (kind != ET_STACK_WALK_NONE)
    g_array_append_val (scan->walks, loc);
  if (et_stack_record_kind (record) != ET_STACK_RECORD_NONE)
    g_array_append_val (scan->code, ref);
  switch (kind)
    {
    case ET_STACK_WALK_CLR:
      pair_with_last (scan, scan->clr, loc, _et_stacks_record_tid (record), G_MININT64);
      return;
    case ET_STACK_WALK_STACK:
    case ET_STACK_WALK_KEY_USE:
      /* EventTimeStamp u64, StackProcess u32, StackThread u32 */
      if (record->payload_len >= 16)
        pair_with_last (scan, scan->last, loc, et_read_u32 (record->payload + 12),
                        (gint64) et_read_u64 (record->payload));
      return;
    case ET_STACK_WALK_KEY_DEF:
      return;
    case ET_STACK_WALK_ITEM:
    case ET_STACK_WALK_NONE:
    default:
      break;
    }
  tid = _et_stacks_record_tid (record);
  remember (scan->last, tid, loc, record->ts);
  if (et_stack_is_clr_event (record))
    remember (scan->clr, tid, loc, record->ts);
}

gboolean
_et_stacks_reads_provider (const EtGuid *guid)
{
  return et_stack_walks_read_provider (guid) || et_stack_records_read_provider (guid);
}

void
_et_stacks_scan_plain_event (EtStacksScan *scan, const EtRecord *record, EtEventLoc loc)
{
  if (et_stack_has_own_stack (record))
    g_array_append_val (scan->walks, loc);
  remember (scan->last, _et_stacks_record_tid (record), loc, record->ts);
}

void
_et_stacks_scan_merge (EtStacksScan *into, EtStacksScan *from)
{
  g_array_append_vals (into->code, from->code->data, from->code->len);
  g_array_append_vals (into->walks, from->walks->data, from->walks->len);
  g_array_append_vals (into->pairs, from->pairs->data, from->pairs->len);
}

GArray *
_et_stacks_scan_code (EtStacksScan *scan)
{
  return scan->code;
}

GArray *
_et_stacks_scan_walks (EtStacksScan *scan)
{
  return scan->walks;
}

GArray *
_et_stacks_scan_pairs (EtStacksScan *scan)
{
  return scan->pairs;
}

/* ---- searches in the time-ordered index ----------------------------------- */

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

EtEventLoc
_et_stacks_event_of (EtTrace *self, guint32 tid, gint64 ts)
{
  for (guint64 i = index_at (self, ts); i < self->n_events; i++)
    {
      EtRecord record;
      EtStackWalkKind kind;

      if (!_et_trace_record_at (self, self->events[i], &record) || record.ts != ts)
        break;
      kind = et_stack_walk_kind (&record);
      if (_et_stacks_record_tid (&record) == tid && kind != ET_STACK_WALK_STACK
          && kind != ET_STACK_WALK_KEY_USE)
        return self->events[i];
    }
  return G_MAXUINT32;
}

EtEventLoc
_et_stacks_event_before (EtTrace *self, EtEventLoc walk, const EtRecord *walk_record)
{
  guint64 at = index_at (self, walk_record->ts);
  guint32 tid = _et_stacks_record_tid (walk_record);

  while (at < self->n_events && self->events[at] != walk)
    at++;
  for (guint64 i = at, n = 0; i > 0 && n < MAX_LOOK_BACK; i--, n++)
    {
      EtRecord record;

      if (_et_trace_record_at (self, self->events[i - 1], &record)
          && _et_stacks_record_tid (&record) == tid && et_stack_is_clr_event (&record)
          && et_stack_walk_kind (&record) != ET_STACK_WALK_CLR)
        return self->events[i - 1];
    }
  return G_MAXUINT32;
}
