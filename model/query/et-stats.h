/* et-stats.h — range statistics: "where did the time go" between two
 * times, per provider × series × kind, and one series' duration histogram.
 *
 *   EtTrace channels ─ filter (channel, marker) ─ counted markers in [from, to)
 *        ├─ et_stats_compute   → rows: count; spans also total, min, mean,
 *        │                        p50, p90, p99, max duration
 *        └─ et_stats_histogram → one series' span durations in bins
 *
 * What is counted: a flag or message whose time lies in [from, to), and a
 * span that has both ends (not unmatched_start, not unmatched_end) and
 * whose start lies in [from, to). A span's duration is end_ns − start_ns,
 * as `etlscope-cli markers --format=jsonl` writes them. The filters are the
 * caller's (the CLI's options, the window's filter state), handed in as two
 * tests so that the model need not know either.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

/* Whether a channel's markers may count at all (provider, thread, hidden
 * rows), and whether one marker does (kind, importance, category). */
typedef gboolean (*EtStatsChannelFunc) (EtTrace        *trace,
                                        guint           channel,
                                        gpointer        data);
typedef gboolean (*EtStatsMarkerFunc)  (const EtMarker *marker,
                                        gpointer        data);

typedef struct
{
  EtStatsChannelFunc channel;   /* NULL: every channel */
  EtStatsMarkerFunc  marker;    /* NULL: every marker */
  gpointer           data;
} EtStatsFilter;

/* One provider × series × kind. The durations are for spans only (0 for
 * flags and messages). */
typedef struct
{
  guint16      provider;   /* index */
  guint32      series;     /* string id (et_trace_get_string) */
  EtMarkerKind kind;
  guint64      count;
  gint64       total_ns;   /* saturates at G_MAXINT64 (never reached by real traces) */
  gint64       min_ns;
  gint64       mean_ns;    /* et_stats_mean (total, count) */
  gint64       p50_ns;     /* nearest rank: the ⌈p·n/100⌉-th smallest */
  gint64       p90_ns;
  gint64       p99_ns;
  gint64       max_ns;
} EtStatsRow;

/* Whether @m counts at all (spans need both ends), before range and filter. */
static inline gboolean
et_stats_marker_counted (const EtMarker *m)
{
  return m->kind != ET_MARKER_SPAN
         || (m->status != ET_SPAN_UNMATCHED_START && m->status != ET_SPAN_UNMATCHED_END);
}

/* The rows of the markers counted in [@from_ns, @to_ns) that pass
 * @filter (may be NULL), one per provider × series × kind with a count of
 * at least 1, ordered by provider name (then index), series text and kind.
 * Returns a GArray of EtStatsRow. */
GArray *et_stats_compute (EtTrace             *trace,
                          gint64               from_ns,
                          gint64               to_ns,
                          const EtStatsFilter *filter);

/* @total / @count rounded to the nearest integer, halves up (towards +∞);
 * 0 for no count. */
gint64  et_stats_mean    (gint64               total,
                          guint64              count);

/* The durations of one provider × series' counted spans, in bins.
 * Bin i holds durations d with edges[i] ≤ d < edges[i + 1]; edges[0] is
 * the shortest span and edges[n_bins] the longest + 1. Linear bins are
 * equally wide (within a nanosecond); log bins grow by a constant factor
 * from the shortest (or 1 ns) to the longest, so that a few slow spans
 * among many fast ones stay visible. Fewer bins than asked when the
 * durations span fewer nanoseconds; none when no span counts. */
typedef struct
{
  gboolean log;
  guint    n_bins;
  gint64  *edges;     /* n_bins + 1, strictly ascending */
  guint64 *counts;    /* n_bins */
  guint64  n;         /* spans counted, the sum of the counts */
} EtStatsHistogram;

EtStatsHistogram *et_stats_histogram      (EtTrace             *trace,
                                           gint64               from_ns,
                                           gint64               to_ns,
                                           const EtStatsFilter *filter,
                                           guint16              provider,
                                           guint32              series,
                                           guint                n_bins,
                                           gboolean             log);
void              et_stats_histogram_free (EtStatsHistogram    *histogram);
/* The bin of @duration_ns, or -1 outside the edges. */
gint              et_stats_histogram_bin  (const EtStatsHistogram *histogram,
                                           gint64               duration_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStatsHistogram, et_stats_histogram_free)

G_END_DECLS
