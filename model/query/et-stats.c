/* et-stats.c — range statistics and duration histograms (see et-stats.h).
 *
 * Pipeline position: a query over the loaded model, like et-search. Each
 * channel's markers are sorted by start, so the counted ones of a range are
 * one stretch found by binary search; a channel's provider and series are
 * fixed, so its markers fall into at most three groups (one per kind).
 * Percentiles are picked by selection (expected linear time) instead of a
 * full sort: a range of the whole 10 M-marker benchmark trace is one pass.
 */
#include "et-stats.h"
#include "et-workers.h"

#include <math.h>
#include <string.h>

typedef struct
{
  guint16      provider;
  guint32      series;
  EtMarkerKind kind;
  guint64      count;
  __int128     total;        /* a sum of 64-bit durations cannot overflow it */
  GArray      *durations;    /* gint64, spans only */
} Group;

typedef void (*VisitFunc) (guint channel, const EtMarker *m, gpointer data);

/* Calls @visit for every counted marker of [@from_ns, @to_ns) that
 * passes @filter, channel by channel. Lone ends keep their own time in
 * start_ns and so sit in the same order; they are skipped as uncounted. */
static void
walk (EtTrace *trace, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter,
      VisitFunc visit, gpointer data)
{
  guint n_channels = et_trace_get_n_channels (trace);

  for (guint c = 0; c < n_channels; c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (filter != NULL && filter->channel != NULL && !filter->channel (trace, c, filter->data))
        continue;
      for (guint i = et_channel_first_at (ch, from_ns); i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];

          if (m->start_ns >= to_ns)
            break;
          if (!et_stats_marker_counted (m)
              || (filter != NULL && filter->marker != NULL && !filter->marker (m, filter->data)))
            continue;
          visit (c, m, data);
        }
    }
}

/* ---- selection -------------------------------------------------------- */

static inline void
swap (gint64 *a, gint64 *b)
{
  gint64 t = *a;
  *a = *b;
  *b = t;
}

/* Rearranges v[0, n) so that v[k] is the (k+1)-th smallest, nothing
 * before it larger and nothing after it smaller. Hoare partitions around a
 * median of three: runs of equal durations (common) split evenly. */
static void
select_kth (gint64 *v, gsize n, gsize k)
{
  gssize lo = 0, hi = (gssize) n - 1, want = (gssize) k;

  while (lo < hi)
    {
      gssize mid = lo + (hi - lo) / 2, i = lo, j = hi;
      gint64 pivot;

      if (v[mid] < v[lo])
        swap (&v[mid], &v[lo]);
      if (v[hi] < v[lo])
        swap (&v[hi], &v[lo]);
      if (v[hi] < v[mid])
        swap (&v[hi], &v[mid]);
      pivot = v[mid];
      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            swap (&v[i++], &v[j--]);
        }
      /* Now v[lo, j] ≤ pivot ≤ v[i, hi], and anything between equals it;
       * the first swap is certain, so both parts are smaller than before. */
      if (want <= j)
        hi = j;
      else if (want >= i)
        lo = i;
      else
        return;
    }
}

/* The nearest-rank index of percentile @p of @n values: ⌈p·n/100⌉ − 1,
 * in integers. */
static gsize
rank_index (guint p, guint64 n)
{
  guint64 rank = (p * (unsigned __int128) n + 99) / 100;

  return (gsize) MAX (rank, 1) - 1;
}

/* ---- statistics ------------------------------------------------------- */

gint64
et_stats_mean (gint64 total, guint64 count)
{
  __int128 num, den, q;

  if (count == 0)
    return 0;
  /* floor ((2·total + count) / (2·count)) = floor (total/count + 1/2). */
  num = 2 * (__int128) total + count;
  den = 2 * (__int128) count;
  q = num / den;
  if (num % den != 0 && num < 0)
    q--;
  return (gint64) q;
}

typedef struct
{
  GHashTable *by_key;      /* guint64 key → Group * */
  GPtrArray  *groups;
  guint       channel;
  Group      *cache[3];    /* the current channel's group per kind */
  EtTrace    *trace;
} Tally;

static void
group_free (gpointer data)
{
  Group *g = data;

  if (g->durations != NULL)
    g_array_unref (g->durations);
  g_free (g);
}

static Group *
tally_group (Tally *t, guint channel, const EtMarker *m)
{
  const EtChannel *ch = et_trace_get_channel (t->trace, channel);
  guint64 key = ((guint64) et_channel_provider (ch) << 34) | ((guint64) m->kind << 32) | ch->series;
  Group *g = g_hash_table_lookup (t->by_key, &key);

  if (g == NULL)
    {
      guint64 *stored = g_new (guint64, 1);

      g = g_new0 (Group, 1);
      g->provider = et_channel_provider (ch);
      g->series = ch->series;
      g->kind = m->kind;
      if (m->kind == ET_MARKER_SPAN)
        g->durations = g_array_new (FALSE, FALSE, sizeof (gint64));
      *stored = key;
      g_hash_table_insert (t->by_key, stored, g);
      g_ptr_array_add (t->groups, g);
    }
  return g;
}

static void
tally_visit (guint channel, const EtMarker *m, gpointer data)
{
  Tally *t = data;
  Group *g;

  if (channel != t->channel)
    {
      t->channel = channel;
      memset (t->cache, 0, sizeof t->cache);
    }
  g = t->cache[m->kind];
  if (g == NULL)
    g = t->cache[m->kind] = tally_group (t, channel, m);
  g->count++;
  if (g->durations != NULL)
    {
      gint64 d = m->end_ns - m->start_ns;

      g->total += d;
      g_array_append_val (g->durations, d);
    }
}

static void
fill_durations (EtStatsRow *row, Group *g)
{
  gint64 *v = (gint64 *) (gpointer) g->durations->data;
  gsize n = g->durations->len, k99 = rank_index (99, n), k90 = rank_index (90, n),
        k50 = rank_index (50, n);

  row->total_ns = g->total > G_MAXINT64 ? G_MAXINT64
                  : g->total < G_MININT64 ? G_MININT64 : (gint64) g->total;
  row->mean_ns = et_stats_mean (row->total_ns, n);
  row->min_ns = row->max_ns = v[0];
  for (gsize i = 1; i < n; i++)
    {
      row->min_ns = MIN (row->min_ns, v[i]);
      row->max_ns = MAX (row->max_ns, v[i]);
    }
  /* Each selection leaves everything below its rank before it, so the
   * lower ranks are looked for in that part alone. */
  select_kth (v, n, k99);
  row->p99_ns = v[k99];
  if (k90 < k99)
    select_kth (v, k99, k90);
  row->p90_ns = v[k90];
  if (k50 < k90)
    select_kth (v, k90, k50);
  row->p50_ns = v[k50];
}

static int
compare_rows (const EtStatsRow *a, const EtStatsRow *b, EtTrace *trace)
{
  int c;

  if (a->provider != b->provider)
    {
      c = strcmp (et_trace_get_provider (trace, a->provider)->name,
                  et_trace_get_provider (trace, b->provider)->name);
      return c != 0 ? c : a->provider < b->provider ? -1 : 1;
    }
  if (a->series != b->series)
    return strcmp (et_trace_get_string (trace, a->series), et_trace_get_string (trace, b->series));
  return (int) a->kind - (int) b->kind;
}

GArray *
et_stats_compute (EtTrace *trace, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter)
{
  Tally t = { NULL, NULL, G_MAXUINT, { NULL }, trace };
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (EtStatsRow));

  g_return_val_if_fail (ET_IS_TRACE (trace), rows);

  et_worker_begin ();
  t.by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  t.groups = g_ptr_array_new_with_free_func (group_free);
  walk (trace, from_ns, to_ns, filter, tally_visit, &t);
  for (guint i = 0; i < t.groups->len; i++)
    {
      Group *g = g_ptr_array_index (t.groups, i);
      EtStatsRow row = { g->provider, g->series, g->kind, g->count };

      if (g->durations != NULL)
        fill_durations (&row, g);
      g_array_append_val (rows, row);
    }
  g_array_sort_with_data (rows, (GCompareDataFunc) compare_rows, trace);
  g_hash_table_unref (t.by_key);
  g_ptr_array_unref (t.groups);
  return rows;
}

/* ---- histogram -------------------------------------------------------- */

typedef struct
{
  EtTrace *trace;
  guint16  provider;
  guint32  series;
  GArray  *durations;
} Collect;

static void
collect_visit (guint channel, const EtMarker *m, gpointer data)
{
  Collect *c = data;
  const EtChannel *ch = et_trace_get_channel (c->trace, channel);
  gint64 d = m->end_ns - m->start_ns;

  if (m->kind == ET_MARKER_SPAN && et_channel_provider (ch) == c->provider && ch->series == c->series)
    g_array_append_val (c->durations, d);
}

/* Edges for durations in [lo, hi): equal widths, or a constant factor from
 * max (lo, 1). Either way strictly ascending, with edges[0] = lo and
 * edges[n] = hi (the caller keeps n ≤ hi − lo). */
static void
set_edges (EtStatsHistogram *h, gint64 lo, gint64 hi)
{
  guint n = h->n_bins;
  __int128 width = (__int128) hi - lo;
  double a = (double) MAX (lo, 1), ratio = (double) hi / a;

  h->edges[0] = lo;
  h->edges[n] = hi;
  for (guint i = 1; i < n; i++)
    {
      gint64 e;

      if (h->log)
        e = (gint64) llround (a * pow (ratio, (double) i / n));
      else
        e = (gint64) (lo + (width * i + n - 1) / n);   /* lo + ⌈i·width/n⌉ */
      /* Room for one nanosecond per bin either side. */
      e = MAX (e, h->edges[i - 1] + 1);
      e = MIN (e, hi - (gint64) (n - i));
      h->edges[i] = e;
    }
}

gint
et_stats_histogram_bin (const EtStatsHistogram *h, gint64 duration_ns)
{
  guint lo = 0, hi;

  if (h->n_bins == 0 || duration_ns < h->edges[0] || duration_ns >= h->edges[h->n_bins])
    return -1;
  /* The last edge not above the duration. */
  hi = h->n_bins;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (h->edges[mid] <= duration_ns)
        lo = mid;
      else
        hi = mid;
    }
  return (gint) lo;
}

EtStatsHistogram *
et_stats_histogram (EtTrace *trace, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter,
                    guint16 provider, guint32 series, guint n_bins, gboolean log)
{
  Collect c = { trace, provider, series, g_array_new (FALSE, FALSE, sizeof (gint64)) };
  EtStatsHistogram *h = g_new0 (EtStatsHistogram, 1);
  const gint64 *v;
  gint64 lo, hi;

  g_return_val_if_fail (ET_IS_TRACE (trace) && n_bins > 0, h);

  h->log = log;
  walk (trace, from_ns, to_ns, filter, collect_visit, &c);
  v = (const gint64 *) (gconstpointer) c.durations->data;
  h->n = c.durations->len;
  if (h->n == 0)
    {
      h->edges = g_new0 (gint64, 1);
      g_array_unref (c.durations);
      return h;
    }
  lo = hi = v[0];
  for (guint i = 1; i < h->n; i++)
    {
      lo = MIN (lo, v[i]);
      hi = MAX (hi, v[i]);
    }
  hi = hi < G_MAXINT64 ? hi + 1 : hi;
  h->n_bins = (guint) MIN ((guint64) n_bins, (guint64) ((__int128) hi - lo));
  h->edges = g_new (gint64, h->n_bins + 1);
  h->counts = g_new0 (guint64, h->n_bins);
  set_edges (h, lo, hi);
  for (guint i = 0; i < h->n; i++)
    {
      gint b = et_stats_histogram_bin (h, v[i]);

      /* Only a span of exactly G_MAXINT64 ns could fall outside. */
      h->counts[b >= 0 ? (guint) b : h->n_bins - 1]++;
    }
  g_array_unref (c.durations);
  return h;
}

void
et_stats_histogram_free (EtStatsHistogram *h)
{
  if (h == NULL)
    return;
  g_free (h->edges);
  g_free (h->counts);
  g_free (h);
}
