/* et-trace-cpu.c — per thread, its CPU samples and its time on CPU, for the
 * thread headers' CPU-use strips (et-trace-cpu.h).
 *
 * Sits at the end of loading: the walk (et-trace-load.c) keeps the slot
 * of every record wanted here (_et_cpu_record_wanted: 4 bytes each), and
 * once the threads are built, _et_trace_cpu_build reads those records
 * again (in ranges, one a core, joined in file order), gives each sample
 * and switch its thread by the loader's own rule, sorts each thread's
 * times and keeps them delta-coded. Read-only after, so any thread may
 * query.
 */
#include "et-trace-load-private.h"
#include "et-trace-cpu.h"
#include "et-sort.h"

#include <stdlib.h>
#include <string.h>

#include "et-bytes.h"
#include "et-kernel.h"
#include "et-time.h"
#include "et-trace-cpu-private.h"
#include "et-workers.h"

#define HOOK_SAMPLE   0x0F2E   /* PerfInfo/SampledProfile */
#define HOOK_CSWITCH  0x0524   /* Thread/CSwitch */
#define HOOK_INTERVAL 0x0F48   /* PerfInfo/SetInterval */
#define HOOK_START    0x0F49   /* PerfInfo/CollectionStart (the interval too) */
/* Wanted records at least this many are read on every core (the corpus's
 * net.4.5.2.x64.etl: 80,000 samples, 6.9 ms on one). */
#define PARALLEL_RECORDS 20000

typedef enum
{
  WANT_NONE,
  WANT_SAMPLE,
  WANT_SWITCH,
  WANT_INTERVAL,
} Want;

static Want
want_of (const EtRecord *record)
{
  if (record->klass != ET_RECORD_SYSTEM && record->klass != ET_RECORD_PERFINFO)
    return et_is_thread_sample (record) ? WANT_SAMPLE : WANT_NONE;
  switch (record->hook)
    {
    case HOOK_SAMPLE:
      return WANT_SAMPLE;
    case HOOK_CSWITCH:
      return record->payload_len >= 8 ? WANT_SWITCH : WANT_NONE;
    case HOOK_INTERVAL:
    case HOOK_START:
      return record->payload_len >= 8 ? WANT_INTERVAL : WANT_NONE;
    default:
      return WANT_NONE;
    }
}

gboolean
_et_cpu_record_wanted (const EtRecord *record)
{
  return want_of (record) != WANT_NONE;
}

gboolean
_et_cpu_record_is_sample (const EtRecord *record)
{
  return want_of (record) == WANT_SAMPLE;
}

/* ---- which thread: the loader's rule (et-trace-load.c) ------------------ */

static int
compare_ids (const EtThread *t, guint32 pid, guint32 tid, gboolean has_ids)
{
  if (t->has_ids != has_ids)
    return t->has_ids ? -1 : 1;          /* threads without ids sort last */
  if (t->pid != pid)
    return t->pid < pid ? -1 : 1;
  return t->tid < tid ? -1 : t->tid > tid;
}

/* The model's thread (pid, tid), or ET_NO_INDEX: threads are sorted. */
static guint
find_thread (EtTrace *self, guint32 pid, guint32 tid, gboolean has_ids)
{
  const EtThread *threads = (const EtThread *) (gconstpointer) self->threads->data;
  guint lo = 0, hi = self->threads->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int c = compare_ids (&threads[mid], pid, tid, has_ids);

      if (c == 0)
        return mid;
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return ET_NO_INDEX;
}

/* A thread named only by its id: its process from Thread events (or its
 * own records), else the records without a thread (as samples are). */
static guint
thread_of_tid (EtTrace *self, guint32 tid, gboolean or_unattributed)
{
  gpointer pid;

  if (self->thread_pids != NULL
      && g_hash_table_lookup_extended (self->thread_pids, GUINT_TO_POINTER (tid), NULL, &pid))
    return find_thread (self, GPOINTER_TO_UINT (pid), tid, TRUE);
  return or_unattributed ? find_thread (self, 0, 0, FALSE) : ET_NO_INDEX;
}

static guint
thread_of_sample (EtTrace *self, const EtRecord *record)
{
  guint32 pid, tid;

  if (et_is_thread_sample (record))
    return find_thread (self, record->pid, record->tid, TRUE);
  if (et_kernel_ids (record, &pid, &tid) != ET_KERNEL_IDS_SAMPLE || tid == ET_KERNEL_NO_ID)
    return ET_NO_INDEX;
  if (pid != ET_KERNEL_NO_ID)
    return find_thread (self, pid, tid, TRUE);
  return thread_of_tid (self, tid, TRUE);
}

guint
_et_trace_sample_thread (EtTrace *self, const EtRecord *record)
{
  return thread_of_sample (self, record);
}

/* ---- delta-coded times -------------------------------------------------- */

static void
put_word (EtTraceCpu *cpu, guint32 w)
{
  g_array_append_val (cpu->words, w);
}

/* Keeps @n sorted times as @seq; with @pairs, in and out times
 * alternating, and each checkpoint says how long the pairs before it
 * lasted. */
static void
seq_store (EtTraceCpu *cpu, Seq *seq, const gint64 *t, guint n, gboolean pairs)
{
  gint64 cum = 0;

  seq->word = cpu->words->len;
  seq->check = cpu->check_t->len;
  seq->n = n;
  for (guint i = 0; i < n; i++)
    {
      guint64 d;

      if (pairs && i % 2 == 1)
        cum = et_time_add (cum, et_time_sub (t[i], t[i - 1]));
      if (i % SEQ_BLOCK == 0)
        {
          guint32 w = cpu->words->len;

          g_array_append_val (cpu->check_t, t[i]);
          g_array_append_val (cpu->check_w, w);
          g_array_append_val (cpu->check_cum, cum);
          continue;
        }
      d = (guint64) et_time_sub (t[i], t[i - 1]);
      if (d < ESCAPE)
        put_word (cpu, (guint32) d);
      else
        {
          put_word (cpu, ESCAPE);
          put_word (cpu, (guint32) d);
          put_word (cpu, (guint32) (d >> 32));
        }
    }
}

/* ---- building ----------------------------------------------------------- */

/* A thread's switches, sorted (time with its lowest bit replaced by 1 for
 * "in", 0 for "out": a nanosecond less exact, half the memory), into
 * alternating in and out times in @out (room for n + 2). A switch lost
 * from the trace shows as two ins or two outs in a row: the second is
 * dropped. Returns how many. */
static guint
pair_switches (const gint64 *keys, guint n, gint64 end_ns, gint64 *out)
{
  gboolean on = FALSE;
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      gint64 t = keys[i] & ~(gint64) 1;
      gboolean in = keys[i] & 1;

      if (in != on)
        out[k++] = t, on = in;
      else if (!in && k == 0)
        out[k++] = MIN (0, t), out[k++] = t;    /* on a CPU since before the trace */
    }
  if (on)
    {
      out[k] = MAX (end_ns, out[k - 1]);
      k++;
    }
  return k;
}

/* The sampling interval of the latest interval record (of two at one
 * time, the one later in the file): records, then ranges, offered in file
 * order. */
typedef struct
{
  gboolean taken;
  gint64   at;          /* the time of the record taken */
  gint64   ns;
} Interval;

static void
offer_interval (Interval *interval, gint64 at, gint64 ns)
{
  if (!interval->taken || at >= interval->at)
    *interval = (Interval) { TRUE, at, ns };
}

/* What one core takes from its range of the wanted records: each
 * thread's times in arrays of their own made on the thread's first time,
 * its samples' references in file order, and the sampling interval of
 * its latest interval record. */
typedef struct
{
  EtTrace     *self;
  const EtEventLoc *locs;
  guint        from, to;
  GArray     **samples;       /* per thread: gint64 */
  GArray     **switches;      /* per thread: gint64, in/out in the lowest bit */
  EtSampleRef *refs;          /* the samples' references (NULL: not kept), from the
                               * range's own place in the caller's array on */
  guint        n_refs;
  gboolean     has_switches;
  Interval     interval;
} ET_WORKER_ITEM Take;

static void
put_time (GArray **per_thread, guint thread, gint64 t)
{
  if (per_thread[thread] == NULL)
    per_thread[thread] = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_val (per_thread[thread], t);
}

/* One wanted record into its thread's times; a sample's reference too,
 * for the stacks. */
static void
take_record (Take *take, const EtRecord *record, EtEventLoc loc)
{
  EtTrace *self = take->self;
  gint64 ns = _et_trace_raw_to_ns (self, record->ts);
  Want want = want_of (record);
  guint t, t_old;

  if (want == WANT_SAMPLE && (t = thread_of_sample (self, record)) != ET_NO_INDEX)
    {
      EtSampleRef ref = { loc, t };

      put_time (take->samples, t, ns);
      if (take->refs != NULL)
        take->refs[take->n_refs++] = ref;
    }
  else if (want == WANT_SWITCH)
    {
      t = thread_of_tid (self, et_read_u32 (record->payload), FALSE);
      t_old = thread_of_tid (self, et_read_u32 (record->payload + 4), FALSE);
      take->has_switches = TRUE;
      if (t != ET_NO_INDEX)
        put_time (take->switches, t, (ns & ~(gint64) 1) | 1);
      if (t_old != ET_NO_INDEX)
        put_time (take->switches, t_old, ns & ~(gint64) 1);
    }
  else if (want == WANT_INTERVAL && et_read_u32 (record->payload) == 0
           && et_read_u32 (record->payload + 4) > 0)
    offer_interval (&take->interval, ns,
                    (gint64) et_read_u32 (record->payload + 4) * 100);   /* 100 ns units */
}

static gpointer
take_range (gpointer data)
{
  Take *take = data;

  et_worker_begin ();
  for (guint i = take->from; i < take->to; i++)
    {
      EtRecord record;

      /* (parsed while walking, unless the file shrank since: et-mapping.h) */
      if (_et_trace_record_at (take->self, take->locs[i], &record))
        take_record (take, &record, take->locs[i]);
    }
  return NULL;
}

/* Thread @t's samples (or @switches) as range @take found them, NULL for none. */
static GArray **
times_of (Take *take, gboolean switches, guint t)
{
  return &(switches ? take->switches : take->samples)[t];
}

/* Thread @t's times of every range (@switches: its switches, else its
 * samples), in one array of exactly their number (*@n), each range's
 * freed as soon as it is copied (a range's alone is taken as it is);
 * NULL when it has none. */
static gint64 *
joined_times (Take *takes, guint k, gboolean switches, guint t, guint *n)
{
  guint parts = 0, last = 0, at = 0;
  gint64 *all;

  *n = 0;
  for (guint j = 0; j < k; j++)
    if (*times_of (&takes[j], switches, t) != NULL)
      *n += (*times_of (&takes[j], switches, t))->len, parts++, last = j;
  if (parts == 0)
    return NULL;
  if (parts == 1)
    return (gint64 *) (gpointer) g_array_free (*times_of (&takes[last], switches, t), FALSE);
  all = g_new (gint64, *n);
  for (guint j = 0; j < k; j++)
    {
      GArray *part = *times_of (&takes[j], switches, t);

      if (part == NULL)
        continue;
      memcpy (all + at, part->data, part->len * sizeof *all);
      at += part->len;
      g_array_unref (part);
    }
  return all;
}

/* Sorts @n times by their distance from the least (et_sort_u64): a
 * thread's samples come as one sorted run per buffer, which a comparison
 * sort gains little from, and the distances span far fewer than 64 bits. */
static void
sort_times (gint64 *t, guint n)
{
  guint64 *d = (guint64 *) (gpointer) t;
  gint64 least = G_MAXINT64;

  for (guint i = 0; i < n; i++)
    least = MIN (least, t[i]);
  for (guint i = 0; i < n; i++)
    d[i] = (guint64) t[i] - (guint64) least;
  et_sort_u64 (d, n);
  for (guint i = 0; i < n; i++)
    t[i] = (gint64) (d[i] + (guint64) least);
}

/* A thread's samples and switches sorted and kept; its switches paired
 * first. Frees its arrays. */
static void
store_thread (EtTraceCpu *cpu, Take *takes, guint k, guint t, gint64 end_ns)
{
  guint n;
  g_autofree gint64 *samples = joined_times (takes, k, FALSE, t, &n);
  g_autofree gint64 *switches = NULL;

  if (samples != NULL)
    {
      sort_times (samples, n);
      seq_store (cpu, &cpu->samples[t], samples, n, FALSE);
    }
  switches = joined_times (takes, k, TRUE, t, &n);
  if (switches != NULL)
    {
      g_autofree gint64 *paired = g_new (gint64, n + 2);
      guint m;

      sort_times (switches, n);
      m = pair_switches (switches, n, end_ns, paired);
      seq_store (cpu, &cpu->switches[t], paired, m, TRUE);
      for (guint i = 0; i + 1 < m; i += 2)
        cpu->on_cpu_ns[t] = et_time_add (cpu->on_cpu_ns[t], et_time_sub (paired[i + 1], paired[i]));
    }
}

void
_et_trace_cpu_build (EtTrace *self, GArray *locs, GArray *sample_refs)
{
  EtTraceCpu *cpu = g_new0 (EtTraceCpu, 1);
  guint n = self->threads->len, k, base = 0;
  gint64 end_ns = et_trace_get_duration_ns (self);
  Interval interval = { FALSE, 0, 0 };
  Take *takes;

  cpu->n_threads = n;
  cpu->samples = g_new0 (Seq, MAX (n, 1));
  cpu->switches = g_new0 (Seq, MAX (n, 1));
  cpu->on_cpu_ns = g_new0 (gint64, MAX (n, 1));
  cpu->words = g_array_new (FALSE, FALSE, sizeof (guint32));
  cpu->check_t = g_array_new (FALSE, FALSE, sizeof (gint64));
  cpu->check_w = g_array_new (FALSE, FALSE, sizeof (guint32));
  cpu->check_cum = g_array_new (FALSE, FALSE, sizeof (gint64));
  cpu->interval_ns = ET_CPU_DEFAULT_INTERVAL_NS;
  /* Tests compare both ways of answering a query (et-trace-cpu-query.c). */
  cpu->by_bounds = g_getenv ("ETLSCOPE_CPU_BY_BOUNDS") == NULL ? -1
                   : atoi (g_getenv ("ETLSCOPE_CPU_BY_BOUNDS")) != 0;
  _et_trace_cpu_free (self->cpu);
  self->cpu = cpu;
  if (locs == NULL)
    return;
  /* The records in ranges, one a core; each range's sample references
   * written from its own place in @sample_refs on (at most one a record),
   * then moved up behind the range's before. */
  k = et_workers_count (locs->len, PARALLEL_RECORDS);
  takes = et_workers_new (k, sizeof *takes);
  if (sample_refs != NULL)
    {
      base = sample_refs->len;
      g_array_set_size (sample_refs, base + locs->len);
    }
  for (guint j = 0; j < k; j++)
    {
      guint from = (guint) ((guint64) locs->len * j / k);

      takes[j] = (Take) { self, (const EtEventLoc *) (gconstpointer) locs->data, from,
                          (guint) ((guint64) locs->len * (j + 1) / k),
                          g_new0 (GArray *, MAX (n, 1)), g_new0 (GArray *, MAX (n, 1)),
                          sample_refs != NULL && locs->len > 0
                          ? &g_array_index (sample_refs, EtSampleRef, base + from) : NULL,
                          0, FALSE, { FALSE, 0, 0 } };
    }
  et_workers_run (takes, sizeof *takes, k, take_range, "etlscope-cpu");
  g_array_unref (locs);
  for (guint j = 0; j < k; j++)
    {
      const Take *take = &takes[j];

      if (take->n_refs > 0)
        {
          memmove (&g_array_index (sample_refs, EtSampleRef, base), take->refs,
                   take->n_refs * sizeof (EtSampleRef));
          base += take->n_refs;
        }
      cpu->has_switches |= take->has_switches;
      if (take->interval.taken)
        offer_interval (&interval, take->interval.at, take->interval.ns);
    }
  if (interval.taken)
    cpu->interval_ns = interval.ns;
  if (sample_refs != NULL)
    g_array_set_size (sample_refs, base);
  for (guint t = 0; t < n; t++)
    store_thread (cpu, takes, k, t, end_ns);
  for (guint j = 0; j < k; j++)
    {
      g_free (takes[j].samples);
      g_free (takes[j].switches);
    }
  et_workers_free (takes);
}

