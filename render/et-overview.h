/* et-overview.h — the overview strip: how many markers of the whole trace
 * lie at each moment, with the visible range as a box over it (Concurrency
 * Visualizer's zoom slider, Perfetto's overview).
 *
 *   EtTrace + a copy of the layout's filters ─ et_overview_density (once
 *   per filter change, one pass over the shown markers, on any thread)
 *   ─ et_overview_draw (a bar per bin, the view's box)
 */
#pragma once

#include <cairo.h>
#include "et-layout.h"
#include "et-viewport.h"

G_BEGIN_DECLS

/* Markers that start in each of @n_bins equal slices of the trace (shown
 * channels and markers only, as the timeline's filters say). */
typedef struct
{
  guint   n_bins;
  guint64 total;      /* markers counted */
  guint32 peak;       /* the fullest bin */
  gint64  duration_ns;
  guint32 bins[];
} EtOverviewDensity;

EtOverviewDensity *et_overview_density (EtTrace              *trace,
                                        const EtLayoutFilter *filter,
                                        guint                 n_bins);

/* Draws @density into @width × @height in @viewport's theme, with the box
 * of @viewport's visible range (its from_ns and to_ns). */
void  et_overview_draw    (cairo_t                 *cr,
                           const EtOverviewDensity *density,
                           const EtViewport        *viewport,
                           double                   width,
                           double                   height);

/* The trace time at @x of a strip @width wide, and the reverse. */
gint64 et_overview_time   (const EtOverviewDensity *density,
                           double                   x,
                           double                   width);
double et_overview_x      (const EtOverviewDensity *density,
                           gint64                   t_ns,
                           double                   width);

G_END_DECLS
