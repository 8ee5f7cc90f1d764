/* et-run-density.c — how much of each pixel column a run of merged narrow
 * spans covers.
 *
 *   span_shapes (et-timeline-render.c): narrow spans of a lane → one run
 *   paint_span ─ _et_run_density (this) ─ a column per pixel, as opaque as
 *                the part of its time the run's spans take
 *
 * At whole-trace zoom the short spans of a lane merge into one bar. Drawn
 * solid, 264 GCs of ~135 µs (35.8 ms in all) over 5 s looked like one GC
 * of 5 s; drawn as a density, as the overview draws its counts, a solid
 * bar means busy the whole time and a sparse one is light.
 *
 * The members are walked one by one, so a run is only measured while it
 * has at most ET_RUN_DENSITY_PER_PX members per pixel: drawing counts
 * pixels, not markers (a run of a million spans at whole zoom would walk a
 * million markers per frame). A denser run is drawn solid, as before; at
 * that density its columns are mostly full anyway.
 */
#include "et-timeline-private.h"

#include <math.h>
#include <string.h>

#define ET_RUN_DENSITY_PER_PX 64

/* Adds the part of span [@sx, @ex) (pixels) in each column of @cover
 * (columns @first … @first + @n - 1). */
static void
add_cover (double *cover, int first, int n, double sx, double ex)
{
  int from = MAX ((int) floor (sx), first), to = MIN ((int) floor (ex), first + n - 1);

  for (int col = from; col <= to; col++)
    cover[col - first] += MIN (ex, col + 1.0) - MAX (sx, (double) col);
}

gboolean
_et_run_density (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtShape *run,
                 int first, int n, double *cover)
{
  const EtChannel *ch = et_trace_get_channel (trace, run->channel);
  guint lane;

  if (n <= 0 || run->count > (guint) n * ET_RUN_DENSITY_PER_PX)
    return FALSE;
  memset (cover, 0, sizeof (double) * (gsize) n);
  lane = et_layout_lane (layout, run->channel, run->m);
  /* The run's members are the channel's markers [marker, marker + count)
   * of its lane that are simple spans and shown (as its hit-test's). */
  for (guint i = run->marker; i < run->marker + run->count; i++)
    {
      const EtMarker *m = &ch->markers[i];
      double sx, ex;

      if (m->kind != ET_MARKER_SPAN || !et_marker_is_simple_span (m)
          || et_layout_lane (layout, run->channel, m) != lane || !et_layout_marker_visible (layout, m))
        continue;
      sx = et_viewport_x (v, m->start_ns);
      ex = MAX (et_viewport_x (v, m->end_ns), sx);
      add_cover (cover, first, n, sx, ex);
    }
  for (int k = 0; k < n; k++)
    cover[k] = MIN (cover[k], 1.0);
  return TRUE;
}
