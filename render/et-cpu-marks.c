/* et-cpu-marks.c — see et-cpu-marks.h.
 *
 * A frame run by a busy thread may have a sample every millisecond for
 * minutes; the marks of a view are found by a binary search for its left
 * edge and drawn once per column, so a frame costs what the view shows.
 */
#include "et-cpu-marks.h"
#include "et-cpu-strip.h"

#include <math.h>
#include <string.h>

void
et_cpu_marks_rgb (const EtViewport *v, double rgb[3])
{
  static const double colors[4][3] = {
    { 0xE6 / 255.0, 0x61 / 255.0, 0x00 / 255.0 },    /* light */
    { 0xFF / 255.0, 0xA3 / 255.0, 0x48 / 255.0 },    /* dark */
    { 0xA5 / 255.0, 0x1D / 255.0, 0x2D / 255.0 },    /* high contrast */
    { 0xFF / 255.0, 0xBE / 255.0, 0x6F / 255.0 },    /* high contrast dark */
  };
  guint k = (v->high_contrast ? 2 : 0) + (v->dark ? 1 : 0);

  memcpy (rgb, colors[k], sizeof colors[k]);
}

/* The first of @times at or after @t. */
static guint
first_at (const GArray *times, gint64 t)
{
  guint lo = 0, hi = times->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (times, gint64, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
et_cpu_marks_columns (const EtViewport *v, const GArray *times, GArray *xs)
{
  EtTimeToX map;
  double last = -1;

  g_array_set_size (xs, 0);
  if (times == NULL)
    return;
  et_time_to_x_init (&map, v);
  for (guint i = first_at (times, v->from_ns); i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);
      double x;

      if (t > v->to_ns)
        break;
      /* the column the sample falls in, as the band's bars are cut */
      x = v->label_width + floor ((et_time_to_x (&map, t) - v->label_width) / ET_CPU_COLUMN_PX)
                           * ET_CPU_COLUMN_PX;
      if (x != last)
        g_array_append_val (xs, x);
      last = x;
    }
}

void
et_cpu_marks_draw (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v,
                   GPtrArray *times)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  double rgb[3];

  if (times == NULL)
    return;
  et_cpu_marks_rgb (v, rgb);
  cairo_save (cr);
  cairo_rectangle (cr, v->label_width, v->ruler_height, v->width - v->label_width,
                   v->height - v->ruler_height);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  for (guint t = 0; t < times->len; t++)
    {
      const EtRow *row = g_ptr_array_index (times, t) != NULL ? et_layout_thread_row (layout, t) : NULL;
      double top, band_top, band_height;

      if (row == NULL)
        continue;
      top = row->y - v->scroll_y + v->ruler_height;
      if (top > v->height || top + row->height < v->ruler_height
          || !et_cpu_strip_band (trace, row, top, &band_top, &band_height))
        continue;
      et_cpu_marks_columns (v, g_ptr_array_index (times, t), xs);
      for (guint i = 0; i < xs->len; i++)
        cairo_rectangle (cr, g_array_index (xs, double, i), band_top, ET_CPU_COLUMN_PX, band_height);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}
