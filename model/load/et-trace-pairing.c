/* et-trace-pairing.c — span starts paired with their ends while loading,
 * process by process (spans never pair across processes: markers.md
 * "Spans"), on every core within a budget of spans at once:
 *
 *   the decoding threads' span records of a process ─ joined in time
 *     order ─ repeated starts dropped ─ span events (et-span-pairing)
 *     ─ paired ─ ends folded into their starts (an end that closed
 *     something makes no marker of its own), lanes and states set
 */
#include "et-trace-markers-private.h"
#include "et-memory.h"

#include <string.h>

/* Which markers stay: a bit each (_et_marker_is_kept). Processes pair at
 * once, and the markers of two of them may share a word: dropping one is
 * atomic. */
static inline void
drop_marker (guint32 *keep, guint32 i)
{
  g_atomic_int_and (&keep[i >> 5], ~(1u << (i & 31)));
}

/* Pairing: the processes in order, on every core, within a budget. */
typedef struct
{
  EtTrace     *self;
  EtPendingMarker *markers;  /* the joined markers, folded in place */
  GArray      *cross_ends;
  const EtSpanPart *parts;   /* the decoding threads' span lists */
  guint        n_parts;
  guint        n_processes;
  guint32     *keep;         /* a bit per marker (is_kept): 0 for ends folded into
                                their starts */
  GMutex       lock;         /* cross_ends, next and in_flight */
  GCond        done;         /* a process was paired */
  guint        next;         /* the next process to take */
  guint64      in_flight;    /* the spans of the processes pairing now */
  guint64      budget;       /* at most this many at once, unless alone (_et_pair_spans) */
  guint64      n_spans;      /* of every process */
  EtTraceProgress *progress; /* counts span starts and ends paired */
} PairJob;

/* Records copied before the pages they came from are given back: a
 * process's records join those of the first decoding thread (in the room
 * it has for them all), and the copy and the original were both resident
 * in full, pairing's peak on traces of few processes. */
#define COPY_SLICE (16u << 10)

/* Records [@from, @from + @n) copied to @to, their markers renumbered
 * by @base as each slice is copied (it is in the cache then). */
typedef struct
{
  EtSpanRecord       *to;
  const EtSpanRecord *from;
  guint               n;
  guint32             base;
} CopyRange;

static gpointer
copy_releasing (gpointer data)
{
  const CopyRange *r = data;

  et_worker_begin ();
  for (guint done = 0; done < r->n; done += MIN (COPY_SLICE, r->n - done))
    {
      guint len = MIN (COPY_SLICE, r->n - done);

      memcpy (r->to + done, r->from + done, len * sizeof *r->from);
      for (guint i = done; i < done + len; i++)
        r->to[i].owner += r->base;
      et_memory_release (r->from + done, len * sizeof *r->from);
    }
  return NULL;
}

/* A process of this many spans pairs with a thread beside it, and its
 * records join on every core (a thread more costs more than it saves
 * for fewer). */
#define BESIDE_MIN 100000

/* Joins @list after the @n records at @to: in halves on two cores when
 * the process pairs alone (@alone: the other core waits for it
 * meanwhile). */
static void
join_list (EtSpanRecord *to, const EtSpanList *list, guint32 base, gboolean alone)
{
  guint k = alone ? et_workers_count (list->n, BESIDE_MIN) : 1;
  g_autofree CopyRange *ranges = g_new (CopyRange, MAX (k, 1));

  for (guint j = 0; j < k; j++)
    {
      /* (cut at whole slices, so that no page is given back twice) */
      guint from = (guint) ((guint64) list->n * j / k) / COPY_SLICE * COPY_SLICE;
      guint till = j + 1 == k ? list->n : (guint) ((guint64) list->n * (j + 1) / k) / COPY_SLICE * COPY_SLICE;

      ranges[j] = (CopyRange) { to + from, list->records + from, till - from, base };
    }
  et_workers_run (ranges, sizeof *ranges, k, copy_releasing, "etlscope-pair");
}

/* The span records of @process from every decoding thread, in thread
 * order (so in time order), with their markers numbered as joined. The
 * first list has room for all (marker_build_init); each other is freed
 * once copied (on every core when the process pairs @alone). Returns how
 * many. */
static guint
join_spans (PairJob *job, guint process, gboolean alone, EtSpanRecord **records)
{
  guint total = 0, n = 0;

  *records = NULL;
  for (guint k = 0; k < job->n_parts; k++)
    total += job->parts[k].spans[process].n;
  for (guint k = 0; k < job->n_parts && total > 0; k++)
    {
      EtSpanList *list = &job->parts[k].spans[process];

      if (list->n > 0 && *records == NULL)
        {
          *records = g_steal_pointer (&list->records);
          if (list->capacity < total)
            *records = g_renew (EtSpanRecord, *records, total);
          for (guint i = 0; i < list->n && job->parts[k].base != 0; i++)
            (*records)[i].owner += job->parts[k].base;
        }
      else if (list->n > 0)
        join_list (*records + n, list, job->parts[k].base, alone);
      n += list->n;
      _et_span_list_clear (list);
    }
  return n;
}


/* What folding a process's span ends into their starts works on. */
typedef struct
{
  PairJob            *job;
  const EtSpanRecord *records;
  GArray             *cross_ends;
} Fold;

/* Folds a span end into its start once pairing has its result
 * (markers.md "Spans"): a start learns its end's marker, an end that
 * closed something is dropped (drawn as part of its start). Told by the
 * pairing's sweep, which has just read the marker's time. */
static void
fold_span (guint i, EtSpanResult result, gboolean is_end, gpointer data)
{
  Fold *fold = data;
  EtPendingMarker *markers = fold->job->markers;
  guint32 mi = fold->records[i].owner;
  EtPendingMarker *m = &markers[mi];

  if (is_end && result.partner != G_MAXUINT)
    {
      drop_marker (fold->job->keep, mi);
      return;
    }
  m->status = result.status;
  m->depth = (guint8) MIN (result.depth, 255);
  if (is_end || result.partner == G_MAXUINT)
    return;
  m->end_marker = fold->records[result.partner].owner;
  /* Only a start paired through its process can end on another thread:
   * the others need not look at their end's marker. */
  if (result.status == ET_SPAN_CROSS_THREAD && markers[m->end_marker].thread != m->thread)
    {
      EtCrossEnd cross = { mi, markers[m->end_marker].thread };
      g_array_append_val (fold->cross_ends, cross);
    }
}

/* Drops the starts that repeat the open start before them (ET_SPAN_RECORD_REPEATS:
 * the runtime's GC/Start written twice for one GC): the first one stands
 * for the activity, the repeat makes no marker. Records are in time order
 * (those with a span id carry their provider); returns how many stay. */
static guint
drop_repeated_starts (PairJob *job, EtSpanRecord *records, guint n)
{
  gboolean open = FALSE;
  gint64 open_id = 0;
  guint16 open_provider = 0;
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    {
      const EtSpanRecord *r = &records[i];

      if ((r->is_end & ET_SPAN_RECORD_REPEATS) && r->has_span_id)
        {
          if (open && r->span_id == open_id && r->provider == open_provider)
            {
              drop_marker (job->keep, r->owner);
              continue;
            }
          open = TRUE;
          open_id = r->span_id;
          open_provider = r->provider;
        }
      else if (open && (r->is_end & ET_SPAN_RECORD_END) && r->has_span_id && r->span_id == open_id
               && r->provider == open_provider)
        open = FALSE;
      if (kept != i)             /* most processes drop nothing: no copying */
        records[kept] = *r;
      kept++;
    }
  return kept;
}

/* The span starts and ends of @process, from every decoding thread. */
static guint64
process_spans (const PairJob *job, guint process)
{
  guint64 n = 0;

  for (guint k = 0; k < job->n_parts; k++)
    n += job->parts[k].spans[process].n;
  return n;
}

static void
pair_process (PairJob *job, guint process, GArray *cross_ends)
{
  g_autofree EtSpanRecord *records = NULL;
  EtSpanOwners owners = { (const guint8 *) job->markers, sizeof (EtPendingMarker),
                          G_STRUCT_OFFSET (EtPendingMarker, start_ns), ET_SPAN_NO_FIELD,
                          G_STRUCT_OFFSET (EtPendingMarker, thread),
                          G_STRUCT_OFFSET (EtPendingMarker, provider), TRUE };
  /* Counted before the join frees the other threads' lists. A process of
   * most of the spans pairs mostly alone: its records join on every core,
   * the lanes are found beside its pairing and its records folded there,
   * on another core. */
  guint64 n_spans = process_spans (job, process);
  gboolean alone = n_spans * 2 > job->n_spans;
  guint n = join_spans (job, process, alone, &records), threads;
  Fold fold;

  n = drop_repeated_starts (job, records, n);
  if (n == 0)
    {
      _et_trace_progress_add (job->progress, n_spans);
      return;
    }
  /* The records as they are, their time read from their markers, their
   * thread and provider carried where they can be (else read there too;
   * one process: its thread indices are its threads). */
  threads = alone && et_workers_count (n, BESIDE_MIN) > 1 ? 2 : 1;
  fold = (Fold) { job, records, cross_ends };
  et_span_pair_keys_each (records, n, &owners, threads, fold_span, &fold);
  _et_trace_progress_add (job->progress, n_spans);
}

static void
add_cross_ends (PairJob *job, const GArray *cross_ends)
{
  g_mutex_lock (&job->lock);
  g_array_append_vals (job->cross_ends, cross_ends->data, cross_ends->len);
  g_mutex_unlock (&job->lock);
}

/* Takes the next process to pair (G_MAXUINT: none left), waiting while
 * pairing it beside those pairing now would go over the budget. */
static guint
take_process (PairJob *job)
{
  guint process;
  guint64 n;

  g_mutex_lock (&job->lock);
  process = job->next;
  n = process < job->n_processes ? process_spans (job, process) : 0;
  while (process < job->n_processes && job->in_flight > 0 && job->in_flight + n > job->budget)
    {
      g_cond_wait (&job->done, &job->lock);
      process = job->next;
      n = process < job->n_processes ? process_spans (job, process) : 0;
    }
  if (process < job->n_processes)
    {
      job->next++;
      job->in_flight += n;
    }
  g_mutex_unlock (&job->lock);
  return process < job->n_processes ? process : G_MAXUINT;
}

/* One pairing thread: a process at a time, in order. */
static gpointer
pair_processes (gpointer data)
{
  PairJob *job = data;
  g_autoptr(GArray) cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));
  guint process;

  et_worker_begin ();
  while ((process = take_process (job)) != G_MAXUINT)
    {
      guint64 n = process_spans (job, process);   /* before the join empties its lists */

      pair_process (job, process, cross_ends);
      g_mutex_lock (&job->lock);
      job->in_flight -= n;
      g_cond_broadcast (&job->done);
      g_mutex_unlock (&job->lock);
    }
  add_cross_ends (job, cross_ends);
  return NULL;
}

/* Pairs every process's spans and returns a mask of the markers that
 * stay. Processes pair on every core, a process per task, in order, as
 * long as those pairing at once hold at most two thirds of the spans or
 * the largest process's (what pairing it alone holds). A process's
 * records join in the room the first decoding thread has for them, the
 * others' pages given back as they are copied (join_spans), and each
 * span's result is written in place of its id: what pairing more at once
 * adds is the working tables (maps, links, each thread's sweep), half a
 * megabyte for a process of 5,000 threads. The large shape's eight
 * processes of an eighth each pair two at a time (34 ms instead of 55 one
 * at a time); threads-15k's three of a third each, which a third let
 * pair one at a time, 40 ms instead of 56. */
guint32 *
_et_pair_spans (EtTrace *self, EtPendingMarker *markers, guint n_markers, const EtSpanPart *parts,
                guint n_parts, GArray *cross_ends, EtTraceProgress *progress)
{
  guint n_threads;
  gsize words = ((gsize) n_markers + 31) / 32;
  PairJob job = { self, markers, cross_ends, parts, n_parts, self->processes->len,
                  g_new (guint32, MAX (words, 1)) };
  g_autofree GThread **threads = NULL;
  guint64 n_spans = 0, largest = 0;

  memset (job.keep, 0xFF, words * sizeof (guint32));
  for (guint p = 0; p < job.n_processes; p++)
    {
      n_spans += process_spans (&job, p);
      largest = MAX (largest, process_spans (&job, p));
    }
  job.budget = MAX (n_spans * 2 / 3, largest);
  job.n_spans = n_spans;
  job.progress = progress;
  _et_trace_progress_begin (progress, ET_TRACE_PHASE_PAIRING, n_spans);
  n_threads = MAX (MIN (et_workers_count (n_spans, 50000), job.n_processes), 1);
  g_mutex_init (&job.lock);
  g_cond_init (&job.done);
  threads = g_new0 (GThread *, n_threads);
  for (guint k = 1; k < n_threads; k++)
    threads[k] = g_thread_new ("etlscope-pair", pair_processes, &job);
  pair_processes (&job);
  for (guint k = 1; k < n_threads; k++)
    g_thread_join (threads[k]);
  g_cond_clear (&job.done);
  g_mutex_clear (&job.lock);
  /* The layout's scatter (et-trace-channel-layout.c) takes them in marker order. */
  g_array_sort (cross_ends, _et_compare_cross_ends);
  _et_trace_progress_end (progress);
  return job.keep;
}
