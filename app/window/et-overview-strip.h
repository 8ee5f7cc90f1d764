/* et-overview-strip.h — the strip over the timeline: marker density of the
 * whole trace, the visible range as a box; a click or drag there moves the
 * view ("seek", with the time to centre on). */
#pragma once

#include <gtk/gtk.h>
#include "et-overview.h"

G_BEGIN_DECLS

#define ET_TYPE_OVERVIEW_STRIP (et_overview_strip_get_type ())
G_DECLARE_FINAL_TYPE (EtOverviewStrip, et_overview_strip, ET, OVERVIEW_STRIP, GtkWidget)

GtkWidget *et_overview_strip_new          (void);
/* @viewport is the timeline's (not owned; read when drawing). NULL @trace
 * empties the strip. The density is counted on a thread. */
void       et_overview_strip_set_trace    (EtOverviewStrip  *self,
                                           EtTrace          *trace,
                                           EtLayout         *layout,
                                           const EtViewport *viewport);
/* The filters changed: counted again. */
void       et_overview_strip_refresh      (EtOverviewStrip  *self);
/* The density drawn, or NULL while it is counted. */
const EtOverviewDensity *et_overview_strip_get_density (EtOverviewStrip *self);
gboolean   et_overview_strip_is_busy      (EtOverviewStrip  *self);

G_END_DECLS
