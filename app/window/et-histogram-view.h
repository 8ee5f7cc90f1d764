/* et-histogram-view.h — one series' span durations as bars (a duration
 * histogram, log or linear bins: EtStatsHistogram from model/), where a
 * range dragged across the bars is a duration range ("selected": the
 * shortest duration in, the first one out). */
#pragma once

#include <gtk/gtk.h>
#include "et-stats.h"

G_BEGIN_DECLS

#define ET_TYPE_HISTOGRAM_VIEW (et_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (EtHistogramView, et_histogram_view, ET, HISTOGRAM_VIEW, GtkWidget)

GtkWidget *et_histogram_view_new           (void);
/* Takes @histogram (NULL: nothing to show). */
void       et_histogram_view_set_histogram (EtHistogramView  *self,
                                            EtStatsHistogram *histogram);
const EtStatsHistogram *et_histogram_view_get_histogram (EtHistogramView *self);
/* A bar's tooltip at @x: its spans and their durations (transfer full),
 * NULL without a histogram. */
char      *et_histogram_view_tooltip_at    (EtHistogramView  *self,
                                            double            x);
/* The durations of bins @first..@last (whole bins): what a drag across
 * them selects; emits "selected" with [min_ns, max_ns). */
void       et_histogram_view_select_bins   (EtHistogramView  *self,
                                            guint             first,
                                            guint             last);

G_END_DECLS
