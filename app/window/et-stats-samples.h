/* et-stats-samples.h — the Statistics report's "CPU samples" of a span
 * row: for each span the row counts (model/query/et-stats.h: its start in
 * the range, both ends, the filters), the CPU samples of the span's
 * thread from its start to its end, both included — what the Call Tree
 * of that span counts (et_call_tree_new's range). Summed per row.
 */
#pragma once

#include "et-call-tree.h"
#include "et-stats.h"

G_BEGIN_DECLS

/* One guint64 per row of @rows (et_stats_compute's), 0 for flags and
 * messages; NULL when the trace's stacks were not read. Builds the
 * stacks on first use: call it on a thread. */
GArray *et_stats_span_samples (EtTrace             *trace,
                               gint64               from_ns,
                               gint64               to_ns,
                               const EtStatsFilter *filter,
                               const GArray        *rows);

/* The spans that row (@provider, @series) counts, as the Call Tree's
 * ranges (EtCallRange): each span's thread from its start to its end, so
 * that tree's samples are the row's "CPU samples". */
GArray *et_stats_span_ranges  (EtTrace             *trace,
                               gint64               from_ns,
                               gint64               to_ns,
                               const EtStatsFilter *filter,
                               guint                provider,
                               guint                series);

G_END_DECLS
