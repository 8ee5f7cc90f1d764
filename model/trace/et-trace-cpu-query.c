/* et-trace-cpu-query.c — a thread's CPU use per column of a time range,
 * from the delta-coded times et-trace-cpu.c keeps.
 *
 * Columns have whole-nanosecond edges: column c of n over [from, to)
 * starts at from + ⌈c·(to − from)/n⌉, so a time's column and a column's
 * edges agree exactly. A query is answered one of two ways, whichever
 * reads less: walking the thread's times in the range (each adds its part
 * to its columns), or, when the range holds many times per column,
 * looking up at each column edge how much of the thread's time on CPU
 * (and how many samples) lie before it — a checkpoint search and at most a
 * block of times per edge — and taking differences. Both give the same
 * numbers; ETLSCOPE_CPU_BY_BOUNDS=0|1 forces one (the tests compare).
 */
#include "et-trace-cpu-private.h"

#include <string.h>

#include "et-time.h"

/* ---- reading the times -------------------------------------------------- */

typedef struct
{
  const EtTraceCpu *cpu;
  const Seq        *seq;
  guint             i;      /* the time's index */
  guint             w;      /* the next word */
  gint64            t;
} SeqIter;

static void
iter_block (SeqIter *it, guint b)
{
  it->i = b * SEQ_BLOCK;
  it->t = g_array_index (it->cpu->check_t, gint64, it->seq->check + b);
  it->w = g_array_index (it->cpu->check_w, guint32, it->seq->check + b);
}

/* To the next time; FALSE (and i = n) past the last. */
static gboolean
iter_next (SeqIter *it)
{
  const guint32 *words = (const guint32 *) (gconstpointer) it->cpu->words->data;
  guint64 d;

  if (++it->i >= it->seq->n)
    return FALSE;
  if (it->i % SEQ_BLOCK == 0)
    {
      iter_block (it, it->i / SEQ_BLOCK);
      return TRUE;
    }
  d = words[it->w++];
  if (d == ESCAPE)
    {
      d = words[it->w] | (guint64) words[it->w + 1] << 32;
      it->w += 2;
    }
  it->t = et_time_add (it->t, (gint64) d);
  return TRUE;
}

/* Starts @it at the block holding the last checkpoint at or before
 * @t_ns (the first block when none is). FALSE when @seq is empty. */
static gboolean
iter_start (SeqIter *it, const EtTraceCpu *cpu, const Seq *seq, gint64 t_ns)
{
  const gint64 *check = (const gint64 *) (gconstpointer) cpu->check_t->data + seq->check;
  guint lo = 0, hi = (seq->n + SEQ_BLOCK - 1) / SEQ_BLOCK;

  if (seq->n == 0)
    return FALSE;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (check[mid] <= t_ns)
        lo = mid;
      else
        hi = mid;
    }
  it->cpu = cpu;
  it->seq = seq;
  iter_block (it, lo);
  return TRUE;
}

/* @it at the first time at or after @t_ns (i = n when there is none). */
static void
iter_seek (SeqIter *it, const EtTraceCpu *cpu, const Seq *seq, gint64 t_ns)
{
  if (!iter_start (it, cpu, seq, t_ns))
    {
      it->i = 0;
      return;
    }
  while (it->t < t_ns && iter_next (it))
    ;
}

/* ---- columns ------------------------------------------------------------ */

typedef struct
{
  gint64  from, span;
  guint   n;
  gint64 *edge;       /* n + 1: where each column starts, and the end */
  guint   at;         /* the column the last time fell in (times come in order) */
} Columns;

static void
columns_init (Columns *k, gint64 from, gint64 to, guint n)
{
  k->from = from;
  k->span = et_time_sub (to, from);
  k->n = n;
  k->at = 0;
  k->edge = g_new (gint64, n + 1);
  for (guint c = 0; c <= n; c++)
    k->edge[c] = from + (gint64) (((__int128) c * k->span + n - 1) / n);
}

/* The column of @t, which lies in [from, from + span): from the last one
 * on, as the times of a walk increase; else from an estimate. */
static inline guint
column_of (Columns *k, gint64 t)
{
  guint c = k->at;

  if (t < k->edge[c])
    c = MIN ((guint) ((double) (t - k->from) / (double) k->span * k->n), k->n - 1);
  while (c > 0 && t < k->edge[c])
    c--;
  while (t >= k->edge[c + 1])
    c++;
  return k->at = c;
}

/* Adds to @covered (ns per column) the part of [@a, @b) in each column. */
static void
cover (gint64 *covered, Columns *k, gint64 a, gint64 b)
{
  a = MAX (a, k->from);
  b = MIN (b, k->from + k->span);
  for (guint c = a < b ? column_of (k, a) : 0; a < b; c++)
    {
      gint64 end = MIN (b, k->edge[c + 1]);

      covered[c] += end - a;
      a = end;
    }
}

/* ---- walking the times in the range ------------------------------------- */

static void
walk_switches (const EtTraceCpu *cpu, const Seq *seq, Columns *k, gint64 *covered)
{
  gint64 to = k->from + k->span;
  SeqIter it;

  if (!iter_start (&it, cpu, seq, k->from))
    return;
  do
    {
      gint64 in = it.t;

      if (in >= to || !iter_next (&it))
        break;
      cover (covered, k, in, it.t);
    }
  while (iter_next (&it));
}

/* Each sample stands for the sampling interval that ends with it (the
 * timer charges the thread it finds running with that interval), so
 * columns narrower than the interval show the thread running, not spikes
 * of samples. */
static void
walk_samples (const EtTraceCpu *cpu, const Seq *seq, Columns *k, guint *counts,
              gint64 *covered)
{
  gint64 to = k->from + k->span, reach = covered != NULL ? cpu->interval_ns : 0;
  SeqIter it;

  if (!iter_start (&it, cpu, seq, k->from))
    return;
  do
    {
      if (et_time_sub (it.t, reach) >= to)
        break;
      if (counts != NULL && it.t >= k->from && it.t < to)
        counts[column_of (k, it.t)]++;
      if (covered != NULL)
        cover (covered, k, et_time_sub (it.t, reach), it.t);
    }
  while (iter_next (&it));
}

/* ---- looking up the column edges ----------------------------------------- */

/* The thread's time on CPU before @t, from its switches. */
static gint64
on_cpu_before (const EtTraceCpu *cpu, const Seq *seq, gint64 t)
{
  gint64 sum;
  SeqIter it;

  if (!iter_start (&it, cpu, seq, t))
    return 0;
  sum = g_array_index (cpu->check_cum, gint64, seq->check + it.i / SEQ_BLOCK);
  do
    {
      gint64 in = it.t;

      if (in >= t || !iter_next (&it))
        break;
      sum += MIN (it.t, t) - in;
    }
  while (iter_next (&it));
  return sum;
}

/* Samples before @t, and how much of their intervals lies before it. */
static guint
samples_before (const EtTraceCpu *cpu, const Seq *seq, gint64 t, gint64 *covered)
{
  gint64 iv = cpu->interval_ns;
  guint before, ended;
  SeqIter it;

  iter_seek (&it, cpu, seq, t);
  before = ended = it.i;
  for (gboolean more = it.i < seq->n; more && it.t == t; more = iter_next (&it))
    ended++;                                   /* their intervals end at t */
  *covered = (gint64) ended * iv;
  for (gboolean more = it.i < seq->n; more && et_time_sub (it.t, iv) < t; more = iter_next (&it))
    *covered += t - et_time_sub (it.t, iv);    /* the intervals t cuts */
  return before;
}

static void
switches_by_edges (const EtTraceCpu *cpu, const Seq *seq, Columns *k, gint64 *covered)
{
  gint64 prev = 0;

  for (guint c = 0; c <= k->n; c++)
    {
      gint64 sum = on_cpu_before (cpu, seq, k->edge[c]);

      if (c > 0)
        covered[c - 1] = sum - prev;
      prev = sum;
    }
}

static void
samples_by_edges (const EtTraceCpu *cpu, const Seq *seq, Columns *k, guint *counts,
                  gint64 *covered)
{
  gint64 prev_cov = 0, cov;
  guint prev = 0;

  for (guint c = 0; c <= k->n; c++)
    {
      guint before = samples_before (cpu, seq, k->edge[c], &cov);

      if (c > 0 && counts != NULL)
        counts[c - 1] = before - prev;
      if (c > 0 && covered != NULL)
        covered[c - 1] = cov - prev_cov;
      prev = before, prev_cov = cov;
    }
}

/* Whether looking up the edges reads less than walking: an edge (a
 * search and part of a block) costs about what walking 50 times does
 * (measured on the corpus's samples), against every time in the range. */
static gboolean
use_edges (const EtTraceCpu *cpu, const Seq *seq, Columns *k)
{
  guint64 cost = (guint64) (k->n + 1) * 50;   /* measured: an edge costs ~50 steps */
  SeqIter a, b;

  if (cpu->by_bounds >= 0)
    return cpu->by_bounds;
  if (seq->n < cost)
    return FALSE;
  iter_seek (&a, cpu, seq, k->from);
  iter_seek (&b, cpu, seq, k->from + k->span);
  return b.i - a.i > cost;
}

/* ---- the API ------------------------------------------------------------ */

gint64
et_trace_sample_interval_ns (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), ET_CPU_DEFAULT_INTERVAL_NS);
  return self->cpu ? self->cpu->interval_ns : ET_CPU_DEFAULT_INTERVAL_NS;
}

gboolean
et_trace_has_cswitches (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), FALSE);
  return self->cpu != NULL && self->cpu->has_switches;
}

EtCpuSource
et_trace_thread_cpu_source (EtTrace *self, guint thread)
{
  g_return_val_if_fail (ET_IS_TRACE (self), ET_CPU_NONE);
  if (self->cpu == NULL || thread >= self->cpu->n_threads)
    return ET_CPU_NONE;
  if (self->cpu->switches[thread].n > 0)
    return ET_CPU_FROM_SWITCHES;
  return self->cpu->samples[thread].n > 0 ? ET_CPU_FROM_SAMPLES : ET_CPU_NONE;
}

gint64
et_trace_thread_on_cpu_ns (EtTrace *self, guint thread)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  if (self->cpu == NULL || thread >= self->cpu->n_threads)
    return 0;
  return self->cpu->on_cpu_ns[thread];
}

gint64
et_trace_thread_cpu_ns (EtTrace *self, guint thread)
{
  switch (et_trace_thread_cpu_source (self, thread))
    {
    case ET_CPU_FROM_SWITCHES:
      return self->cpu->on_cpu_ns[thread];
    case ET_CPU_FROM_SAMPLES:
      return et_time_mul (self->cpu->samples[thread].n, self->cpu->interval_ns);
    default:
      return 0;
    }
}

EtCpuSource
et_trace_thread_cpu_use (EtTrace *self, guint thread, gint64 from_ns, gint64 to_ns, guint n,
                         float *fraction, guint *samples)
{
  EtCpuSource source = et_trace_thread_cpu_source (self, thread);
  Columns k;
  g_autofree gint64 *covered = NULL;
  const Seq *sw, *sm;

  g_return_val_if_fail (fraction != NULL || n == 0, ET_CPU_NONE);
  for (guint c = 0; c < n; c++)
    fraction[c] = 0;
  if (samples != NULL && n > 0)
    memset (samples, 0, n * sizeof *samples);
  if (source == ET_CPU_NONE || n == 0 || from_ns >= to_ns)
    return source;
  covered = g_new0 (gint64, n);
  columns_init (&k, from_ns, to_ns, n);
  sw = &self->cpu->switches[thread];
  sm = &self->cpu->samples[thread];
  if (source == ET_CPU_FROM_SWITCHES)
    (use_edges (self->cpu, sw, &k) ? switches_by_edges : walk_switches) (self->cpu, sw, &k,
                                                                         covered);
  if (samples != NULL || source == ET_CPU_FROM_SAMPLES)
    (use_edges (self->cpu, sm, &k) ? samples_by_edges : walk_samples)
      (self->cpu, sm, &k, samples, source == ET_CPU_FROM_SAMPLES ? covered : NULL);
  for (guint c = 0; c < n; c++)
    {
      gint64 width = k.edge[c + 1] - k.edge[c];

      fraction[c] = width > 0 ? (float) CLAMP ((double) covered[c] / (double) width, 0, 1) : 0;
    }
  g_free (k.edge);
  return source;
}

void
_et_trace_cpu_free (EtTraceCpu *cpu)
{
  if (cpu == NULL)
    return;
  g_free (cpu->samples);
  g_free (cpu->switches);
  g_free (cpu->on_cpu_ns);
  g_array_unref (cpu->words);
  g_array_unref (cpu->check_t);
  g_array_unref (cpu->check_w);
  g_array_unref (cpu->check_cum);
  g_free (cpu);
}
