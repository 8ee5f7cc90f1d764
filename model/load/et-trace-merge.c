/* et-trace-merge.c — the time-ordered index of every event.
 *
 * Pipeline position: right after the walk, which left each CPU's records
 * as a run of (time, slot) references in file order; before the times
 * are checked (et-trace-times.c) and anything is decoded in time order.
 *
 *   runs per CPU ─ sorted (most already are) ─ cut in one part per core
 *     at times that give each as many references ─ each part merged into
 *     its stretch of the index at once (a small heap of its runs)
 */
#include "et-trace-load-private.h"
#include "et-workers.h"

#include <stdlib.h>

int
_et_compare_event_refs (const void *a, const void *b)
{
  const EtEventRef *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->loc < y->loc ? -1 : x->loc > y->loc;   /* slots follow file order */
}

/* The same order as a test the merge's heap can have inline (the
 * comparison function, called, was a third of the merge). */
static inline gboolean
ref_before (const EtEventRef *x, const EtEventRef *y)
{
  return x->ts < y->ts || (x->ts == y->ts && x->loc < y->loc);
}

/* One part of the merge: the first @n references of the runs' slices
 * [head, end) into @out, with a small heap of the runs ordered by their
 * next reference — a few comparisons per record, no copy of the
 * references. */
typedef struct
{
  guint              n_runs;
  const EtEventRef **head;
  const EtEventRef **end;
  EtEventLoc        *out;
  gsize              n;
} MergePart;

static gpointer
merge_part (gpointer data)
{
  MergePart *part = data;
  const EtEventRef **head = part->head, **end = part->end;
  g_autofree guint *heap = g_new (guint, MAX (part->n_runs, 1));
  guint heap_len = 0;

  et_worker_begin ();
  for (guint c = 0; c < part->n_runs; c++)
    if (head[c] < end[c])
      heap[heap_len++] = c;
#define LESS(a, b) ref_before (head[heap[a]], head[heap[b]])
#define SIFT_DOWN(from)                                         \
  for (guint j = (from), k; (k = 2 * j + 1) < heap_len; j = k)  \
    {                                                           \
      guint t;                                                  \
      if (k + 1 < heap_len && LESS (k + 1, k))                  \
        k++;                                                    \
      if (!LESS (k, j))                                         \
        break;                                                  \
      t = heap[j], heap[j] = heap[k], heap[k] = t;              \
    }
  for (guint i = heap_len / 2; i-- > 0;)
    SIFT_DOWN (i)
  for (gsize o = 0; o < part->n; o++)
    {
      guint c = heap[0];

      part->out[o] = head[c]->loc;
      if (++head[c] == end[c])
        heap[0] = heap[--heap_len];
      SIFT_DOWN (0)
    }
#undef SIFT_DOWN
#undef LESS
  return NULL;
}

/* The first reference of @run[0, len) not before @key. */
static gsize
lower_bound (const EtEventRef *run, gsize len, const EtEventRef *key)
{
  gsize lo = 0, hi = len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ref_before (&run[mid], key))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* How many references of the (sorted) runs are before time @t. */
static gsize
count_before (GPtrArray *runs, gint64 t)
{
  EtEventRef key = { t, 0 };
  gsize n = 0;

  for (guint c = 0; c < runs->len; c++)
    {
      const EtRun *run = g_ptr_array_index (runs, c);

      n += lower_bound (_et_run_refs (run), run->len, &key);
    }
  return n;
}

/* The first time before which at least @target references of the runs
 * lie (in [@lo, @hi]): where to cut the merge so that its parts hold as
 * many each. Found by halving the times, a lower bound per run each step:
 * a cut at a key of one run alone left one part three times the other's
 * on a trace whose busiest CPU's events are not spread like the rest. */
static gint64
time_of_count (GPtrArray *runs, gsize target, gint64 lo, gint64 hi)
{
  while (lo < hi)
    {
      gint64 mid = lo + (gint64) (((guint64) hi - (guint64) lo) / 2);

      if (count_before (runs, mid) < target)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Merges the runs into the event index, in time order (ties in file order).
 * Each CPU's buffers hold its events in time order, so each run is (nearly
 * always) sorted already: sort any the walk found is not, then merge. Large indexes
 * are cut into one part per core at times that give each as many
 * references (every run is split where the time would go), and the parts
 * merge at once, each into its own stretch of the index. A preview (@n
 * less than the runs hold) takes the first @n in one part. */
EtEventLoc *
_et_merge_runs (GPtrArray *runs, const guint8 *out_of_order, gsize n)
{
  guint n_runs = runs->len;
  gsize total = 0;
  guint k;
  g_autofree MergePart *parts = NULL;
  g_autofree const EtEventRef **cut = NULL;
  EtEventLoc *out = g_new (EtEventLoc, MAX (n, 1));
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint c = 0; c < n_runs; c++)
    {
      const EtRun *run = g_ptr_array_index (runs, c);
      const EtEventRef *refs = _et_run_refs (run);

      if (out_of_order[c])
        qsort (_et_run_refs (run), run->len, sizeof (EtEventRef), _et_compare_event_refs);
      if (run->len > 0)
        {
          first = MIN (first, refs[0].ts);
          last = MAX (last, refs[run->len - 1].ts);
        }
      total += run->len;
    }
  k = n < total ? 1 : et_workers_count (n, 1000000);
  parts = g_new0 (MergePart, k);
  cut = g_new (const EtEventRef *, (gsize) MAX (n_runs, 1) * (k + 1));
  /* cut[j * n_runs + c]: where part j begins in run c (part k: its end). */
  for (guint j = 0; j <= k; j++)
    {
      EtEventRef key = { j == 0 || j == k || total == 0 ? 0
                         : time_of_count (runs, total * j / k, first, last), 0 };

      for (guint c = 0; c < n_runs; c++)
        {
          const EtRun *run = g_ptr_array_index (runs, c);
          const EtEventRef *refs = _et_run_refs (run);
          gsize at = j == 0 ? 0 : j == k || total == 0 ? run->len
                   : lower_bound (refs, run->len, &key);

          /* (an empty run has no data at all: no arithmetic on NULL) */
          cut[j * n_runs + c] = at == 0 ? refs : refs + at;
        }
    }
  for (gsize j = 0, offset = 0; j < k; j++)
    {
      parts[j] = (MergePart) { n_runs, cut + j * n_runs, g_memdup2 (cut + (j + 1) * n_runs,
                                                                     MAX (n_runs, 1) * sizeof *cut),
                               out + offset, 0 };
      for (guint c = 0; c < n_runs; c++)
        parts[j].n += (gsize) (parts[j].end[c] - parts[j].head[c]);
      parts[j].n = MIN (parts[j].n, n - offset);
      offset += parts[j].n;
    }
  et_workers_run (parts, sizeof *parts, k, merge_part, "etlscope-merge");
  for (guint j = 0; j < k; j++)
    g_free (parts[j].end);
  return out;
}
