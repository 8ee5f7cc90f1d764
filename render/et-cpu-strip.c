/* et-cpu-strip.c — the CPU-use band of thread headers (et-cpu-strip.h):
 * one query of the model per header and frame, for the bars of the
 * visible time, and one for the bar under the pointer. */
#include "et-cpu-strip.h"

#include <math.h>
#include <string.h>

#include "et-timeline-render.h"

int
et_thread_strip_px (EtTrace *trace, guint thread)
{
  return ET_THREAD_STRIP_PX
         + (et_trace_thread_cpu_source (trace, thread) != ET_CPU_NONE ? ET_CPU_STRIP_PX : 0);
}

int
et_process_strip_px (EtTrace *trace, guint process)
{
  return ET_THREAD_STRIP_PX
         + (et_cpu_strip_process_threads (trace, process) ? ET_CPU_STRIP_PX : 0);
}

gboolean
et_cpu_strip_band (EtTrace *trace, const EtRow *row, double top, double *band_top,
                   double *band_height)
{
  if (row->kind != ET_ROW_THREAD
      || et_trace_thread_cpu_source (trace, row->index) == ET_CPU_NONE)
    return FALSE;
  *band_height = ET_CPU_STRIP_PX - 1;
  /* Collapsed: under the density strip, above the lanes; expanded: at the
   * bottom of the header, over its grid line. */
  *band_top = row->lanes > 0 ? top + ET_THREAD_STRIP_PX : top + row->height - 2 - *band_height;
  return TRUE;
}

/* Green, apart from the category colours' blue, purple and yellow that
 * the lanes below draw in; darker on light themes, lighter on dark ones,
 * and at 4.5:1 or more against the high-contrast backgrounds. */
void
et_cpu_strip_rgb (const EtViewport *v, double rgb[3])
{
  static const double colors[4][3] = {
    { 0x26 / 255.0, 0xA2 / 255.0, 0x69 / 255.0 },    /* light */
    { 0x57 / 255.0, 0xE3 / 255.0, 0x89 / 255.0 },    /* dark */
    { 0x0B / 255.0, 0x6E / 255.0, 0x3A / 255.0 },    /* high contrast */
    { 0x8F / 255.0, 0xF0 / 255.0, 0xA4 / 255.0 },    /* high contrast dark */
  };
  guint k = (v->high_contrast ? 2 : 0) + (v->dark ? 1 : 0);

  memcpy (rgb, colors[k], sizeof colors[k]);
}

/* The bars of the plot: how many, and the time they cover. */
static guint
columns (const EtViewport *v, gint64 *from_ns, gint64 *to_ns)
{
  guint n = (guint) MAX (0, (v->width - v->label_width) / ET_CPU_COLUMN_PX);

  *from_ns = et_viewport_time (v, v->label_width);
  *to_ns = et_viewport_time (v, v->label_width + (double) n * ET_CPU_COLUMN_PX);
  return n;
}

/* A bar's height: at least a pixel for any use, so a thread that ran
 * briefly still shows. */
static int
bar_px (float fraction, double band_height)
{
  return fraction <= 0 ? 0 : MAX (1, (int) lround (fraction * band_height));
}

/* The bars of @fraction (0–1 each, @n of them) in the band. */
static void
draw_bars (cairo_t *cr, const EtViewport *v, const float *fraction, guint n, double band_top,
           double band_height)
{
  double rgb[3], bottom, left = v->label_width;

  et_cpu_strip_rgb (v, rgb);
  cairo_save (cr);
  /* The band's track, faint: where the bars stand, and that 0 is 0. */
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], 0.12);
  cairo_rectangle (cr, left, band_top, (double) n * ET_CPU_COLUMN_PX, band_height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
  bottom = band_top + band_height;
  /* Neighbouring bars of one height are one rectangle. */
  for (guint c = 0; c < n;)
    {
      int h = bar_px (fraction[c], band_height);
      guint end = c + 1;

      while (end < n && bar_px (fraction[end], band_height) == h)
        end++;
      if (h > 0)
        cairo_rectangle (cr, left + c * ET_CPU_COLUMN_PX, bottom - h,
                         (double) (end - c) * ET_CPU_COLUMN_PX, h);
      c = end;
    }
  cairo_fill (cr);
  cairo_restore (cr);
}

void
et_cpu_strip_draw (cairo_t *cr, EtTrace *trace, const EtViewport *v, const EtRow *row,
                   double top)
{
  double band_top, band_height;
  gint64 from_ns, to_ns;
  guint n = columns (v, &from_ns, &to_ns);
  g_autofree float *fraction = NULL;

  if (n == 0 || !et_cpu_strip_band (trace, row, top, &band_top, &band_height))
    return;
  fraction = g_new (float, n);
  et_trace_thread_cpu_use (trace, row->index, from_ns, to_ns, n, fraction, NULL);
  draw_bars (cr, v, fraction, n, band_top, band_height);
}

gboolean
et_cpu_strip_process_threads (EtTrace *trace, guint process)
{
  const EtProcess *p = et_trace_get_process (trace, process);
  guint with_cpu = 0;

  for (guint k = 0; k < p->n_threads; k++)
    with_cpu += et_trace_thread_cpu_source (trace, p->first_thread + k) != ET_CPU_NONE;
  return with_cpu > 0 && with_cpu <= ET_CPU_PROCESS_THREADS;
}

/* A collapsed process's band: its threads' use summed, as a share of the
 * machine's processors (the trace's header says how many; one when it
 * does not), so a full band is every core busy with this process. */
void
et_cpu_strip_draw_process (cairo_t *cr, EtTrace *trace, const EtViewport *v, const EtRow *row,
                           double top)
{
  const EtProcess *p = et_trace_get_process (trace, row->index);
  double cores = MAX (1, et_trace_get_header (trace)->n_processors);
  gint64 from_ns, to_ns;
  guint n = columns (v, &from_ns, &to_ns);
  g_autofree float *sum = NULL, *one = NULL;

  if (n == 0 || row->kind != ET_ROW_PROCESS || !et_cpu_strip_process_threads (trace, row->index))
    return;
  sum = g_new0 (float, n), one = g_new (float, n);
  for (guint k = 0; k < p->n_threads; k++)
    if (et_trace_thread_cpu_source (trace, p->first_thread + k) != ET_CPU_NONE)
      {
        et_trace_thread_cpu_use (trace, p->first_thread + k, from_ns, to_ns, n, one, NULL);
        for (guint c = 0; c < n; c++)
          sum[c] += one[c];
      }
  for (guint c = 0; c < n; c++)
    sum[c] = (float) MIN (1.0, sum[c] / cores);
  /* Over merged lanes: under the density strip, above them, as a collapsed
   * thread's; alone, at the bottom. */
  draw_bars (cr, v, sum, n,
             row->lanes > 0 ? top + ET_THREAD_STRIP_PX : top + row->height - 2 - (ET_CPU_STRIP_PX - 1),
             ET_CPU_STRIP_PX - 1);
}

gboolean
et_cpu_strip_hit_test (EtTrace *trace, EtLayout *layout, const EtViewport *v, double x, double y,
                       EtCpuHit *hit)
{
  const EtRow *row;
  double band_top, band_height;
  gint64 from_ns, to_ns;
  guint n = columns (v, &from_ns, &to_ns), c;
  EtHit at;

  memset (hit, 0, sizeof *hit);
  et_timeline_hit_test (trace, layout, v, x, y, &at);
  if (at.kind != ET_HIT_EMPTY_ROW && at.kind != ET_HIT_SHAPE)
    return FALSE;
  row = et_layout_row (layout, at.row);
  if (n == 0 || !et_cpu_strip_band (trace, row, row->y - v->scroll_y + v->ruler_height,
                                    &band_top, &band_height)
      || y < band_top || y >= band_top + band_height + 1)
    return FALSE;
  c = MIN ((guint) ((x - v->label_width) / ET_CPU_COLUMN_PX), n - 1);
  hit->thread = row->index;
  hit->from_ns = et_viewport_time (v, v->label_width + (double) c * ET_CPU_COLUMN_PX);
  hit->to_ns = et_viewport_time (v, v->label_width + (double) (c + 1) * ET_CPU_COLUMN_PX);
  hit->source = et_trace_thread_cpu_use (trace, row->index, hit->from_ns, hit->to_ns, 1,
                                         &hit->fraction, &hit->samples);
  return TRUE;
}
