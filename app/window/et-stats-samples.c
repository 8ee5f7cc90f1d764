/* et-stats-samples.c — see et-stats-samples.h.
 *
 *   span rows (provider, series) ─ each channel of them ─ its spans in the
 *     range ─ its thread's samples (time order): two binary searches a span
 *
 * A thread's samples are kept sorted by the stacks (et_stacks_thread_samples),
 * so a span costs two searches whatever its length: a row of 100,000
 * spans on threads of a million samples is counted in milliseconds.
 */
#include "et-stats-samples.h"
#include "et-trace-stacks.h"

/* The first of @n times at or after @t (@after: after it). */
static guint
search (const gint64 *ns, guint n, gint64 t, gboolean after)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ns[mid] < t || (after && ns[mid] == t))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The span rows' indexes by (provider, series). */
static GHashTable *
span_rows (const GArray *rows)
{
  GHashTable *index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint r = 0; r < rows->len; r++)
    {
      const EtStatsRow *row = &g_array_index (rows, EtStatsRow, r);
      gint64 key = ((gint64) row->provider << 32) | row->series;

      if (row->kind == ET_MARKER_SPAN)          /* (value r + 1: 0 is "none") */
        g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (r + 1));
    }
  return index;
}

/* Calls @func for each span of channel @c that the row counts in the
 * range (its start in it, both ends, the filters). */
static void
channel_spans (EtTrace *trace, guint c, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter,
               void (*func) (const EtMarker *m, gpointer data), gpointer data)
{
  const EtChannel *ch = et_trace_get_channel (trace, c);

  for (guint i = et_channel_first_at (ch, from_ns);
       i < ch->n_markers && ch->markers[i].start_ns < to_ns; i++)
    {
      const EtMarker *m = &ch->markers[i];

      if (m->kind == ET_MARKER_SPAN && et_stats_marker_counted (m)
          && (filter == NULL || filter->marker == NULL || filter->marker (m, filter->data)))
        func (m, data);
    }
}

typedef struct
{
  const gint64 *ns;
  guint         n;
  guint64       sum;
} Count;

static void
count_span (const EtMarker *m, gpointer data)
{
  Count *count = data;

  count->sum += search (count->ns, count->n, m->end_ns, TRUE)
                - search (count->ns, count->n, m->start_ns, FALSE);
}

/* The samples of channel @c's counted spans in the range. */
static guint64
channel_samples (EtTrace *trace, EtStacks *stacks, guint c, gint64 from_ns, gint64 to_ns,
                 const EtStatsFilter *filter)
{
  guint thread = et_trace_channel_thread (trace, c);
  const guint32 *nodes;
  Count count = { NULL, 0, 0 };

  if (thread == ET_NO_INDEX
      || (count.n = et_stacks_thread_samples (stacks, thread, &count.ns, &nodes)) == 0)
    return 0;
  channel_spans (trace, c, from_ns, to_ns, filter, count_span, &count);
  return count.sum;
}

GArray *
et_stats_span_samples (EtTrace *trace, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter,
                       const GArray *rows)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GHashTable) index = NULL;
  GArray *out;

  if (stacks == NULL)
    return NULL;
  index = span_rows (rows);
  out = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_array_set_size (out, rows->len);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      gint64 key = ((gint64) et_channel_provider (ch) << 32) | ch->series;
      guint r = GPOINTER_TO_UINT (g_hash_table_lookup (index, &key));

      if (r == 0
          || (filter != NULL && filter->channel != NULL && !filter->channel (trace, c, filter->data)))
        continue;
      g_array_index (out, guint64, r - 1) += channel_samples (trace, stacks, c, from_ns, to_ns,
                                                              filter);
    }
  return out;
}

typedef struct
{
  EtCallThread thread;
  GArray      *out;
} Ranges;

static void
add_range (const EtMarker *m, gpointer data)
{
  Ranges *ranges = data;
  EtCallRange range = { ranges->thread, m->start_ns, m->end_ns };

  g_array_append_val (ranges->out, range);
}

GArray *
et_stats_span_ranges (EtTrace *trace, gint64 from_ns, gint64 to_ns, const EtStatsFilter *filter,
                      guint provider, guint series)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EtCallRange));

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint thread = et_trace_channel_thread (trace, c);
      Ranges ranges = { { thread, 0, 0 }, out };

      if (et_channel_provider (ch) != provider || ch->series != series || thread == ET_NO_INDEX
          || (filter != NULL && filter->channel != NULL && !filter->channel (trace, c, filter->data)))
        continue;
      ranges.thread.pid = et_trace_get_thread (trace, thread)->pid;
      ranges.thread.tid = et_trace_get_thread (trace, thread)->tid;
      channel_spans (trace, c, from_ns, to_ns, filter, add_range, &ranges);
    }
  return out;
}
