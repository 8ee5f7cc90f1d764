/* et-trace-merge.c — the time-ordered index of every event.
 *
 * Pipeline position: right after the walk, which left each CPU's records
 * as a run of (time, slot) references in file order; before the times
 * are checked (et-trace-times.c) and anything is decoded in time order.
 *
 *   runs per CPU ─ those out of order cut in pieces, each sorted on a
 *     core (most runs are in order already) ─ runs and pieces cut again
 *     in one part per core at times that give each as many references ─
 *     each part merged into its stretch of the index at once (a small
 *     heap of its runs and pieces)
 */
#include "et-trace-load-private.h"
#include "et-workers.h"

#include <stdlib.h>
#include <string.h>

/* A run out of order (a .nettrace's, whose events of many threads come
 * interleaved; an .etl CPU's whose buffers are not in time order) is
 * sorted in pieces of at most this many references, as many on each
 * core, and the merge takes the pieces as runs of their own. Sorting a
 * run whole with qsort was a twelfth of loading PerfView's
 * HeartRateMonitor .nettrace, on one core; a piece and its scratch stay
 * in the core's cache. */
#define PIECE_MAX  32768
/* Out-of-order references at least this many are sorted on every core
 * (fewer: the second core's memory costs more than its time saves, see
 * WALK_PARALLEL_RECORDS in et-trace-load.c); merges of at least
 * PARTS_MIN references are cut in parts, one a core. */
#define SORT_PARALLEL_MIN 65536
#define PARTS_MIN  100000

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

/* A stretch of references in time order: a run, or a piece of one. */
typedef struct
{
  EtEventRef *refs;
  gsize       len;
} Segment;

/* Sorts @n references with @scratch of as many: runs of 16 by insertion,
 * then merged in pairs back and forth. No two references are equal
 * (their slots differ), so the order is the one qsort gives. */
static gboolean
in_order (const EtEventRef *refs, gsize n)
{
  for (gsize i = 1; i < n; i++)
    if (ref_before (&refs[i], &refs[i - 1]))
      return FALSE;
  return TRUE;
}

/* (its callers skip references in order already, without a scratch) */
static void
sort_refs (EtEventRef *refs, gsize n, EtEventRef *scratch)
{
  EtEventRef *from = refs, *to = scratch;

  for (gsize b = 0; b < n; b += 16)
    for (gsize i = b + 1; i < MIN (b + 16, n); i++)
      {
        EtEventRef r = refs[i];
        gsize j = i;

        for (; j > b && ref_before (&r, &refs[j - 1]); j--)
          refs[j] = refs[j - 1];
        refs[j] = r;
      }
  for (gsize width = 16; width < n; width *= 2)
    {
      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n), a = lo, b = mid, o = lo;

          while (a < mid && b < hi)
            to[o++] = ref_before (&from[b], &from[a]) ? from[b++] : from[a++];
          while (a < mid)
            to[o++] = from[a++];
          while (b < hi)
            to[o++] = from[b++];
        }
      EtEventRef *t = from;
      from = to, to = t;
    }
  if (from != refs)
    memcpy (refs, from, n * sizeof *refs);
}

void
_et_sort_event_refs (EtEventRef *refs, gsize n)
{
  g_autofree EtEventRef *scratch = NULL;

  if (in_order (refs, n))
    return;
  scratch = g_new (EtEventRef, n);
  sort_refs (refs, n, scratch);
}

/* One core's share of the pieces: every k-th from the first. */
typedef struct
{
  Segment *pieces;
  gsize    n_pieces;
  guint    k;
} SortShare;

static gpointer
sort_share (gpointer data)
{
  SortShare *share = data;
  g_autofree EtEventRef *scratch = NULL;
  gsize longest = 0;

  et_worker_begin ();
  for (gsize p = 0; p < share->n_pieces; p += share->k)
    longest = MAX (longest, share->pieces[p].len);
  scratch = g_new (EtEventRef, MAX (longest, 1));
  for (gsize p = 0; p < share->n_pieces; p += share->k)
    if (!in_order (share->pieces[p].refs, share->pieces[p].len))
      sort_refs (share->pieces[p].refs, share->pieces[p].len, scratch);
  return NULL;
}

/* At most how many pieces @run is sorted in: as many as @k cores, or a
 * multiple, so that the cores share its pieces evenly (of equal length,
 * but the last; a short run may make fewer); 0 for a run in order. */
static gsize
run_pieces (const EtRun *run, gboolean out_of_order, guint k)
{
  gsize cuts = (run->len + PIECE_MAX - 1) / PIECE_MAX;

  if (!out_of_order || run->len < 2)
    return 0;
  return MIN ((cuts + k - 1) / k * k, run->len);
}

/* The runs as segments in time order: each run in order as it is, each
 * other cut in pieces that are sorted here, on every core. */
static Segment *
sorted_segments (GPtrArray *runs, const guint8 *out_of_order, guint *n_segments)
{
  gsize unsorted = 0, n = 0, n_pieces = 0, total = 0;
  guint k;
  Segment *segments;
  g_autofree Segment *pieces = NULL;
  g_autofree SortShare *shares = NULL;

  for (guint c = 0; c < runs->len; c++)
    if (out_of_order[c])
      unsorted += ((EtRun *) g_ptr_array_index (runs, c))->len;
  k = et_workers_count (unsorted, SORT_PARALLEL_MIN);
  for (guint c = 0; c < runs->len; c++)
    total += MAX (run_pieces (g_ptr_array_index (runs, c), out_of_order[c], k), 1);
  segments = g_new (Segment, MAX (total, 1));
  pieces = g_new (Segment, MAX (total, 1));
  for (guint c = 0; c < runs->len; c++)
    {
      EtRun *run = g_ptr_array_index (runs, c);
      EtEventRef *refs = _et_run_refs (run);
      gsize cuts = run_pieces (run, out_of_order[c], k), per;

      if (cuts == 0)
        {
          segments[n++] = (Segment) { refs, run->len };
          continue;
        }
      per = (run->len + cuts - 1) / cuts;
      for (gsize at = 0; at < run->len; at += per)
        {
          segments[n] = (Segment) { refs + at, MIN (per, run->len - at) };
          pieces[n_pieces++] = segments[n++];
        }
    }
  shares = g_new (SortShare, k);
  for (guint j = 0; j < k; j++)
    shares[j] = (SortShare) { pieces + j, n_pieces > j ? n_pieces - j : 0, k };
  et_workers_run (shares, sizeof *shares, k, sort_share, "etlscope-sort");
  *n_segments = (guint) n;
  return segments;
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
  /* (the heads move at every reference: a copy of this thread's own, not
   * on a line with another part's) */
  g_autofree const EtEventRef **head = g_memdup2 (part->head, MAX (part->n_runs, 1)
                                                              * sizeof *head);
  const EtEventRef **end = part->end;
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

/* How many references of the segments are before time @t. */
static gsize
count_before (const Segment *segments, guint n_segments, gint64 t)
{
  EtEventRef key = { t, 0 };
  gsize n = 0;

  for (guint c = 0; c < n_segments; c++)
    n += lower_bound (segments[c].refs, segments[c].len, &key);
  return n;
}

/* The first time before which at least @target references of the
 * segments lie (in [@lo, @hi]): where to cut the merge so that its parts
 * hold as many each. Found by halving the times, a lower bound per
 * segment each step: a cut at a key of one run alone left one part three
 * times the other's on a trace whose busiest CPU's events are not spread
 * like the rest. */
static gint64
time_of_count (const Segment *segments, guint n_segments, gsize target, gint64 lo, gint64 hi)
{
  while (lo < hi)
    {
      gint64 mid = lo + (gint64) (((guint64) hi - (guint64) lo) / 2);

      if (count_before (segments, n_segments, mid) < target)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Merges the runs into the event index, in time order (ties in file order).
 * Each CPU's buffers hold its events in time order, so each run is (nearly
 * always) sorted already: those the walk found are not are sorted in
 * pieces, then runs and pieces merge. Large indexes are cut into one part
 * per core at times that give each as many references (every segment is
 * split where the time would go), and the parts merge at once, each into
 * its own stretch of the index. A preview (@n less than the runs hold)
 * takes the first @n in one part. */
EtEventLoc *
_et_merge_runs (GPtrArray *runs, const guint8 *out_of_order, gsize n)
{
  guint n_segs, k;
  g_autofree Segment *segs = sorted_segments (runs, out_of_order, &n_segs);
  gsize total = 0;
  g_autofree MergePart *parts = NULL;
  g_autofree const EtEventRef **cut = NULL;
  EtEventLoc *out = g_new (EtEventLoc, MAX (n, 1));
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint c = 0; c < n_segs; c++)
    {
      if (segs[c].len > 0)
        {
          first = MIN (first, segs[c].refs[0].ts);
          last = MAX (last, segs[c].refs[segs[c].len - 1].ts);
        }
      total += segs[c].len;
    }
  k = n < total ? 1 : et_workers_count (n, PARTS_MIN);
  parts = g_new0 (MergePart, k);
  cut = g_new (const EtEventRef *, (gsize) MAX (n_segs, 1) * (k + 1));
  /* cut[j * n_segs + c]: where part j begins in segment c (part k: its end). */
  for (guint j = 0; j <= k; j++)
    {
      EtEventRef key = { j == 0 || j == k || total == 0 ? 0
                         : time_of_count (segs, n_segs, total * j / k, first, last), 0 };

      for (guint c = 0; c < n_segs; c++)
        {
          gsize at = j == 0 ? 0 : j == k || total == 0 ? segs[c].len
                   : lower_bound (segs[c].refs, segs[c].len, &key);

          /* (an empty run has no data at all: no arithmetic on NULL) */
          cut[j * n_segs + c] = at == 0 ? segs[c].refs : segs[c].refs + at;
        }
    }
  for (gsize j = 0, offset = 0; j < k; j++)
    {
      parts[j] = (MergePart) { n_segs, cut + j * n_segs, g_memdup2 (cut + (j + 1) * n_segs,
                                                                     MAX (n_segs, 1) * sizeof *cut),
                               out + offset, 0 };
      for (guint c = 0; c < n_segs; c++)
        parts[j].n += (gsize) (parts[j].end[c] - parts[j].head[c]);
      parts[j].n = MIN (parts[j].n, n - offset);
      offset += parts[j].n;
    }
  et_workers_run (parts, sizeof *parts, k, merge_part, "etlscope-merge");
  for (guint j = 0; j < k; j++)
    g_free (parts[j].end);
  return out;
}
