/* et-viewport.h — what part of a trace is drawn, and how big.
 *
 * render/ turns (trace, layout, viewport) into pixels; the widget and the
 * CLI only fill this plain struct. Times are ns from t0 (et-trace.h).
 */
#pragma once

#include <glib.h>
#include "et-time.h"

G_BEGIN_DECLS

/* A lane's height, and in compact rows (et_layout_set_compact): span
 * labels need ET_LANE_HEIGHT_TEXT, flags shrink with the lane. */
#define ET_LANE_HEIGHT          18
#define ET_LANE_HEIGHT_COMPACT  12
#define ET_LANE_HEIGHT_TEXT     16

typedef struct
{
  gint64   from_ns;       /* left edge of the marker area */
  gint64   to_ns;         /* right edge */
  int      width;         /* whole picture, pixels */
  int      height;
  int      label_width;   /* the fixed label column */
  int      ruler_height;  /* the time ruler on top */
  int      lane_height;   /* one lane of a channel */
  int      scroll_y;      /* rows scrolled away, in pixels */
  gboolean dark;          /* dark theme */
  gboolean high_contrast; /* black and white, every mark outlined */
  gboolean wall_clock;    /* ruler in wall-clock time instead of relative */
} EtViewport;

/* et_viewport_x for many times in a row: the same arithmetic (so the same
 * pixels), set up once instead of per call. Pixels per nanosecond are
 * divided out once: a multiply per time instead of a divide, which the
 * walks over markers (window edges, span ends) wait on. */
typedef struct
{
  gint64 from_ns;
  double left, span, plot_width;
  double px_per_ns;
} EtTimeToX;

static inline void
et_time_to_x_init (EtTimeToX *map, const EtViewport *v)
{
  map->from_ns = v->from_ns;
  map->left = v->label_width;
  map->span = (double) MAX (1, et_time_sub (v->to_ns, v->from_ns));
  map->plot_width = MAX (1, v->width - v->label_width);
  map->px_per_ns = map->plot_width / map->span;
}

static inline double
et_time_to_x (const EtTimeToX *map, gint64 t_ns)
{
  return map->left + (double) et_time_sub (t_ns, map->from_ns) * map->px_per_ns;
}

void   et_viewport_init      (EtViewport       *viewport,
                              int               width,
                              int               height);
/* Sets dark and high_contrast from a theme's name: "light", "dark",
 * "high-contrast" or "high-contrast-dark"; FALSE (and nothing set) for
 * any other. */
gboolean et_viewport_set_theme (EtViewport     *viewport,
                                const char     *theme);
/* x of time @t_ns (may be outside the picture) and back. */
double et_viewport_x         (const EtViewport *viewport,
                              gint64            t_ns);
gint64 et_viewport_time      (const EtViewport *viewport,
                              double            x);
/* Keeps the time under @x fixed while zooming by @factor (> 1 zooms in);
 * never narrower than @min_span_ns. */
void   et_viewport_zoom      (EtViewport       *viewport,
                              double            x,
                              double            factor,
                              gint64            min_span_ns);
void   et_viewport_pan       (EtViewport       *viewport,
                              double            dx_pixels);

G_END_DECLS
