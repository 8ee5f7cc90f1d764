/* et-overview.c — see et-overview.h. The density is counted once, off the
 * drawing path: a draw costs a bar per bin, whatever the trace's size. */
#include "et-overview.h"
#include "et-workers.h"
#include "et-time.h"
#include "et-timeline-render.h"

#include <math.h>

EtOverviewDensity *
et_overview_density (EtTrace *trace, const EtLayoutFilter *filter, guint n_bins)
{
  EtOverviewDensity *d = g_malloc0 (sizeof *d + sizeof (guint32) * MAX (n_bins, 1));

  et_worker_begin ();
  d->n_bins = MAX (n_bins, 1);
  d->duration_ns = MAX (et_trace_get_duration_ns (trace), 1);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (!et_layout_filter_channel (filter, c))
        continue;
      for (guint i = 0; i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          gint64 t = CLAMP (m->start_ns, 0, d->duration_ns - 1);
          guint bin = (guint) ((double) t / (double) d->duration_ns * d->n_bins);

          if (!et_layout_filter_marker (filter, m))
            continue;
          bin = MIN (bin, d->n_bins - 1);
          d->bins[bin]++;
          d->peak = MAX (d->peak, d->bins[bin]);
          d->total++;
        }
    }
  return d;
}

gint64
et_overview_time (const EtOverviewDensity *d, double x, double width)
{
  double f = CLAMP (x / MAX (width, 1), 0, 1);

  return (gint64) (f * (double) d->duration_ns);
}

double
et_overview_x (const EtOverviewDensity *d, gint64 t_ns, double width)
{
  return (double) t_ns / (double) d->duration_ns * width;
}

void
et_overview_draw (cairo_t *cr, const EtOverviewDensity *d, const EtViewport *v, double width,
                  double height)
{
  double row[3], text[3], bar[3], left, right, top, bottom;
  double x0, x1;

  /* The strip is the clip: a caller may leave margins around the trace's
   * @width, filled and dimmed as the rest is. */
  cairo_clip_extents (cr, &left, &top, &right, &bottom);
  left = MIN (left, 0), right = MAX (right, width);
  x0 = MAX (et_overview_x (d, v->from_ns, width), left);
  x1 = MIN (et_overview_x (d, v->to_ns, width), right);
  et_timeline_theme_rgb (v, ET_THEME_STRIPE, 0, row);
  et_timeline_theme_rgb (v, ET_THEME_BAR, 0, bar);
  cairo_set_source_rgb (cr, row[0], row[1], row[2]);
  cairo_rectangle (cr, left, 0, right - left, height);
  cairo_fill (cr);
  /* Bars on a square-root scale: a burst does not flatten the rest. */
  cairo_set_source_rgb (cr, bar[0], bar[1], bar[2]);
  for (guint b = 0; b < d->n_bins && d->peak > 0; b++)
    {
      double h = sqrt ((double) d->bins[b] / d->peak) * (height - 2);

      if (d->bins[b] == 0)
        continue;
      cairo_rectangle (cr, b * width / d->n_bins, height - 1 - MAX (h, 1),
                       MAX (width / d->n_bins, 1), MAX (h, 1));
    }
  cairo_fill (cr);
  /* The visible range: the rest dimmed, the box outlined. */
  et_timeline_theme_rgb (v, ET_THEME_ROW, 0, row);
  cairo_set_source_rgba (cr, row[0], row[1], row[2], 0.55);
  cairo_rectangle (cr, left, 0, x0 - left, height);
  cairo_rectangle (cr, x1, 0, right - x1, height);
  cairo_fill (cr);
  et_timeline_theme_rgb (v, ET_THEME_TEXT, 0, text);
  cairo_set_source_rgb (cr, text[0], text[1], text[2]);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, floor (x0) + 0.5, 0.5, MAX (floor (x1) - floor (x0), 1), height - 1);
  cairo_stroke (cr);
}
