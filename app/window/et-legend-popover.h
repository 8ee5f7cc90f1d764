/* et-legend-popover.h — the window's legend: what every mark of the
 * timeline means (kinds, category colours, importance sizes, span
 * statuses), drawn by render/ in the timeline's own theme. */
#pragma once

#include <gtk/gtk.h>
#include "et-viewport.h"

G_BEGIN_DECLS

#define ET_TYPE_LEGEND_POPOVER (et_legend_popover_get_type ())
G_DECLARE_FINAL_TYPE (EtLegendPopover, et_legend_popover, ET, LEGEND_POPOVER, GtkPopover)

GtkWidget *et_legend_popover_new          (void);
/* The timeline's viewport, whose theme the legend follows (not owned: it
 * lives as long as the window's timeline). */
void       et_legend_popover_set_viewport (EtLegendPopover  *self,
                                           const EtViewport *viewport);
/* The drawing area's height: the legend's, at its width. */
int        et_legend_popover_get_height   (EtLegendPopover  *self);

G_END_DECLS
