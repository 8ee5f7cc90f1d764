/* et-stats-pane.h — the Statistics report: per provider × series × kind of
 * the selected time range (else the visible one), how many markers, and for
 * spans the total, min, mean, p50, p90, p99 and max duration
 * (model/query/et-stats.h), in a column view sortable by clicking a header.
 * Computed on a thread, and only while the pane is shown. */
#pragma once

#include <gtk/gtk.h>
#include "et-histogram-view.h"
#include "et-trace.h"
#include "et-layout.h"
#include "et-stats.h"

G_BEGIN_DECLS

#define ET_TYPE_STATS_PANE (et_stats_pane_get_type ())
G_DECLARE_FINAL_TYPE (EtStatsPane, et_stats_pane, ET, STATS_PANE, GtkBox)

/* The columns, in order. */
typedef enum
{
  ET_STATS_COL_PROVIDER,
  ET_STATS_COL_SERIES,
  ET_STATS_COL_KIND,
  ET_STATS_COL_COUNT,
  ET_STATS_COL_TOTAL,
  ET_STATS_COL_MIN,
  ET_STATS_COL_MEAN,
  ET_STATS_COL_P50,
  ET_STATS_COL_P90,
  ET_STATS_COL_P99,
  ET_STATS_COL_MAX,
  ET_STATS_COL_SAMPLES,   /* spans: their threads' CPU samples during them (et-stats-samples.h) */
  ET_STATS_N_COLUMNS,
} EtStatsColumn;

GtkWidget        *et_stats_pane_new         (void);
void              et_stats_pane_set_trace   (EtStatsPane   *self,
                                             EtTrace       *trace,
                                             EtLayout      *layout);
/* Counts what starts in [@from_ns, @to_ns) and passes the layout's
 * filters (again, even for the same range: the filters may have changed). */
void              et_stats_pane_set_range   (EtStatsPane   *self,
                                             gint64         from_ns,
                                             gint64         to_ns);
/* The range last set; FALSE when none. */
gboolean          et_stats_pane_get_range   (EtStatsPane   *self,
                                             gint64        *from_ns,
                                             gint64        *to_ns);
/* TRUE while statistics are computed on a thread. */
gboolean          et_stats_pane_is_busy     (EtStatsPane   *self);
/* As clicking a column header; @descending reverses the order. */
void              et_stats_pane_set_sort    (EtStatsPane   *self,
                                             EtStatsColumn  column,
                                             gboolean       descending);
/* The rows in the order shown. */
guint             et_stats_pane_get_n_rows  (EtStatsPane   *self);
const EtStatsRow *et_stats_pane_get_row     (EtStatsPane   *self,
                                             guint          row);
/* A cell's text as shown (transfer full). */
char             *et_stats_pane_cell_text   (EtStatsPane   *self,
                                             guint          row,
                                             EtStatsColumn  column);

/* Chooses row @row of the table, as a click does: a span row's duration
 * histogram shows under the table (dragging across its bars emits
 * "find-spans"); the histogram shown, or NULL. */
void              et_stats_pane_select_row      (EtStatsPane *self,
                                                 guint        row);
EtHistogramView  *et_stats_pane_get_histogram   (EtStatsPane *self);

G_END_DECLS
