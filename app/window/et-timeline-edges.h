/* et-timeline-edges.h — the trace's edges on the timeline.
 *
 *   Home, Ctrl+0, a new trace ─ et_timeline_edges_whole (the trace + a margin)
 *   S, Ctrl+wheel out         ─ et_timeline_edges_clamp_zoom (never past it)
 *   a report row, a search hit, a step ─ et_timeline_edges_show_whole
 *
 * Markers at the very start or end of a trace stand whole inside the plot,
 * clear of its edges by ET_EDGE_PX: a flag is drawn centred on its time,
 * a ring 3 px around its mark.
 */
#pragma once

#include "et-trace.h"
#include "et-viewport.h"

G_BEGIN_DECLS

#define ET_EDGE_PX 16

/* The whole trace of @duration_ns with ET_EDGE_PX of room at each end of
 * @v's plot. */
void     et_timeline_edges_whole       (const EtViewport *v,
                                        gint64            duration_ns,
                                        gint64           *from_ns,
                                        gint64           *to_ns);
/* After a zoom out: the view moved back inside the whole trace (its
 * width kept), or the whole trace when it is wider. */
void     et_timeline_edges_clamp_zoom  (EtViewport       *v,
                                        gint64            duration_ns);
/* Moves @v so that @m is whole inside the plot, ET_EDGE_PX clear of its
 * edges: centred when it fits the view's width; a longer span is zoomed
 * out to when @may_zoom, else shown from its start. FALSE when the view
 * did not have to move. */
gboolean et_timeline_edges_show_whole  (EtViewport       *v,
                                        const EtMarker   *m,
                                        gboolean          may_zoom);

G_END_DECLS
