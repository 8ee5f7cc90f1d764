/* et-viewport.c — time ↔ pixel arithmetic shared by drawing and hit-tests. */
#include "et-viewport.h"

#include <math.h>

void
et_viewport_init (EtViewport *v, int width, int height)
{
  *v = (EtViewport) { 0 };
  v->width = width;
  v->height = height;
  v->label_width = 250;
  v->ruler_height = 28;
  v->lane_height = ET_LANE_HEIGHT;
  v->to_ns = 1;
}

gboolean
et_viewport_set_theme (EtViewport *v, const char *theme)
{
  static const struct { const char *name; gboolean dark, high_contrast; } themes[] = {
    { "light", FALSE, FALSE },
    { "dark", TRUE, FALSE },
    { "high-contrast", FALSE, TRUE },
    { "high-contrast-dark", TRUE, TRUE },
  };

  for (guint k = 0; k < G_N_ELEMENTS (themes); k++)
    if (g_strcmp0 (theme, themes[k].name) == 0)
      {
        v->dark = themes[k].dark;
        v->high_contrast = themes[k].high_contrast;
        return TRUE;
      }
  return FALSE;
}

static double
plot_width (const EtViewport *v)
{
  return MAX (1, v->width - v->label_width);
}

double
et_viewport_x (const EtViewport *v, gint64 t_ns)
{
  EtTimeToX map;

  et_time_to_x_init (&map, v);
  return et_time_to_x (&map, t_ns);
}

/* A rounded double in nanoseconds as a time, saturated (llround is
 * undefined past the 64-bit range). */
static gint64
ns_of (double ns)
{
  if (!(ns > -9.2e18))
    return ns != ns ? 0 : G_MININT64;
  if (ns > 9.2e18)
    return G_MAXINT64;
  return (gint64) llround (ns);
}

gint64
et_viewport_time (const EtViewport *v, double x)
{
  double span = (double) MAX (1, et_time_sub (v->to_ns, v->from_ns));
  return et_time_add (v->from_ns, ns_of ((x - v->label_width) / plot_width (v) * span));
}

void
et_viewport_zoom (EtViewport *v, double x, double factor, gint64 min_span_ns)
{
  gint64 anchor = et_viewport_time (v, x);
  double span = (double) et_time_sub (v->to_ns, v->from_ns) / factor;
  double left = (x - v->label_width) / plot_width (v);

  /* Between the floor and about 290 years, so times stay in 64 bits. */
  span = round (CLAMP (span, (double) MAX (min_span_ns, 1), 9.2e18));
  /* The inverse of et_viewport_time's rounding, so the anchor stays put. */
  v->from_ns = et_time_sub (anchor, ns_of (left * span));
  v->from_ns = (gint64) CLAMP ((double) v->from_ns, -4.6e18, 4.6e18 - span);
  v->to_ns = v->from_ns + (gint64) llround (span);
}

void
et_viewport_pan (EtViewport *v, double dx)
{
  gint64 span = et_time_sub (v->to_ns, v->from_ns);
  gint64 shift = ns_of (dx / plot_width (v) * (double) span);

  /* At the ends of the time range the view stops instead of wrapping or
   * shrinking. */
  v->from_ns = et_time_clamp (et_time_sub (v->from_ns, shift), G_MININT64,
                              et_time_sub (G_MAXINT64, span));
  v->to_ns = et_time_add (v->from_ns, span);
}
