/* et-timeline-edges.c — see et-timeline-edges.h.
 *
 * Times are the trace's (0 at its start); the margins are in pixels of
 * the plot, so they hold at every zoom and window width.
 */
#include "et-timeline-edges.h"

#include <math.h>

/* Nanoseconds per pixel of @v's plot. */
static double
ns_per_px (const EtViewport *v)
{
  return (double) MAX (v->to_ns - v->from_ns, 1) / MAX (v->width - v->label_width, 1);
}

void
et_timeline_edges_whole (const EtViewport *v, gint64 duration_ns, gint64 *from_ns, gint64 *to_ns)
{
  /* A plot not yet sized (or very narrow) gets at most 1/32 of the trace
   * at each end, not most of the view. */
  double inner = MAX (v->width - v->label_width - 2 * ET_EDGE_PX, 32 * ET_EDGE_PX);
  gint64 duration = MAX (duration_ns, 1);
  gint64 margin = MAX ((gint64) ceil ((double) duration * ET_EDGE_PX / inner), 1);

  *from_ns = -margin;
  *to_ns = duration + margin;
}

void
et_timeline_edges_clamp_zoom (EtViewport *v, gint64 duration_ns)
{
  gint64 lo, hi, width = v->to_ns - v->from_ns;

  et_timeline_edges_whole (v, duration_ns, &lo, &hi);
  if (width >= hi - lo)
    v->from_ns = lo, v->to_ns = hi;
  else if (v->from_ns < lo)
    v->from_ns = lo, v->to_ns = lo + width;
  else if (v->to_ns > hi)
    v->to_ns = hi, v->from_ns = hi - width;
}

gboolean
et_timeline_edges_show_whole (EtViewport *v, const EtMarker *m, gboolean may_zoom)
{
  gint64 end = m->kind == ET_MARKER_SPAN ? MAX (m->end_ns, m->start_ns) : m->start_ns;
  gint64 width = v->to_ns - v->from_ns, length = end - m->start_ns;
  gint64 pad = (gint64) ceil (ET_EDGE_PX * ns_per_px (v));

  if (m->start_ns - pad >= v->from_ns && end + pad <= v->to_ns)
    return FALSE;
  if (length + 2 * pad <= width)
    {
      v->from_ns = m->start_ns + length / 2 - width / 2;
      v->to_ns = v->from_ns + width;
    }
  else if (may_zoom)
    {
      /* The span fills the middle 80 %, as Z fits a selected one. */
      v->from_ns = m->start_ns - length / 8;
      v->to_ns = end + length / 8;
    }
  else
    {
      v->from_ns = m->start_ns - pad;
      v->to_ns = v->from_ns + width;
    }
  return TRUE;
}
