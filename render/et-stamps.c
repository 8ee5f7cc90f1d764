/* et-stamps.c — small marks drawn once per picture, then copied (see
 * et-stamps.h). Painter (et-timeline-render.c) asks for them; this file
 * knows nothing about markers, only keys, sizes and pixel grids.
 */
#include "et-stamps.h"

#include <math.h>

/* A picture uses a few dozen distinct marks (5 colours × 4 sizes, grey,
 * digits); past this many, marks are drawn as paths again. */
#define N_SLOTS   128
#define MAX_USED  96

typedef struct
{
  guint32          key;
  gboolean         used;
  cairo_surface_t *image;
  const guint8    *pixels;          /* premultiplied ARGB, from image */
  int              stride, pixel_width, pixel_height;
  guint16         *row_first;       /* per row: the first and after the last */
  guint16         *row_end;         /* pixel that is not transparent */
} Stamp;

struct _EtStamps
{
  cairo_surface_t *target;
  guint8          *pixels;      /* the target's, written directly (see blit) */
  int              stride;
  int              clip_x0, clip_y0, clip_x1, clip_y1;   /* device pixels */
  double           scale;       /* device pixels per user unit */
  guint            n_used;
  Stamp            slots[N_SLOTS];
};

EtStamps *
et_stamps_new (cairo_t *cr)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_matrix_t m;
  double sx, sy;
  EtStamps *stamps;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return NULL;
  if (cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32
      && cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24)
    return NULL;
  /* Only translation and one uniform scale keep a copied image sharp. */
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &sx, &sy);
  if (m.xy != 0 || m.yx != 0 || m.xx <= 0 || m.xx != m.yy || sx != sy)
    return NULL;
  stamps = g_new0 (EtStamps, 1);
  stamps->scale = m.xx * sx;
  stamps->target = target;
  cairo_surface_flush (target);
  stamps->pixels = cairo_image_surface_get_data (target);
  stamps->stride = cairo_image_surface_get_stride (target);
  et_stamps_clip (stamps, cr);
  return stamps;
}

void
et_stamps_free (EtStamps *stamps)
{
  if (stamps == NULL)
    return;
  for (guint k = 0; k < N_SLOTS; k++)
    {
      g_clear_pointer (&stamps->slots[k].image, cairo_surface_destroy);
      g_free (stamps->slots[k].row_first);
    }
  g_free (stamps);
}

double
et_stamps_scale (EtStamps *stamps)
{
  return stamps->scale;
}

static Stamp *
find_slot (EtStamps *stamps, guint32 key)
{
  guint k = (key * 2654435761u) % N_SLOTS;

  while (stamps->slots[k].used && stamps->slots[k].key != key)
    k = (k + 1) % N_SLOTS;
  return &stamps->slots[k];
}

/* A diamond leaves half its box transparent: copies skip those pixels. */
static void
find_row_extents (Stamp *stamp)
{
  stamp->row_first = g_new (guint16, 2 * stamp->pixel_height);
  stamp->row_end = stamp->row_first + stamp->pixel_height;
  for (int row = 0; row < stamp->pixel_height; row++)
    {
      const guint32 *p = (const guint32 *) (stamp->pixels + (gsize) row * stamp->stride);
      int first = 0, end = stamp->pixel_width;

      while (first < end && p[first] == 0)
        first++;
      while (end > first && p[end - 1] == 0)
        end--;
      stamp->row_first[row] = (guint16) first;
      stamp->row_end[row] = (guint16) end;
    }
}

static void
make_stamp (EtStamps *stamps, Stamp *stamp, double half_width, double half_height,
            EtStampDrawFunc draw, gconstpointer data)
{
  cairo_t *cr;

  stamp->pixel_width = (int) ceil ((2 * half_width + 2) * stamps->scale);
  stamp->pixel_height = (int) ceil ((2 * half_height + 2) * stamps->scale);
  stamp->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, stamp->pixel_width,
                                             stamp->pixel_height);
  cairo_surface_set_device_scale (stamp->image, stamps->scale, stamps->scale);
  cr = cairo_create (stamp->image);
  cairo_translate (cr, half_width + 1, half_height + 1);
  draw (cr, data);
  cairo_destroy (cr);
  cairo_surface_flush (stamp->image);
  stamp->pixels = cairo_image_surface_get_data (stamp->image);
  stamp->stride = cairo_image_surface_get_stride (stamp->image);
  find_row_extents (stamp);
}

/* User space to the target's pixels: cairo's "device" space leaves out the
 * surface's own scale and offset (HiDPI), which the pixels include. */
static void
to_pixels (EtStamps *stamps, cairo_t *cr, double *x, double *y)
{
  double sx, sy, ox, oy;

  cairo_user_to_device (cr, x, y);
  cairo_surface_get_device_scale (stamps->target, &sx, &sy);
  cairo_surface_get_device_offset (stamps->target, &ox, &oy);
  *x = *x * sx + ox;
  *y = *y * sy + oy;
}

void
et_stamps_clip (EtStamps *stamps, cairo_t *cr)
{
  double x0, y0, x1, y1;
  int width = cairo_image_surface_get_width (stamps->target);
  int height = cairo_image_surface_get_height (stamps->target);

  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  to_pixels (stamps, cr, &x0, &y0);
  to_pixels (stamps, cr, &x1, &y1);
  stamps->clip_x0 = CLAMP ((int) ceil (x0 - 0.5), 0, width);
  stamps->clip_y0 = CLAMP ((int) ceil (y0 - 0.5), 0, height);
  stamps->clip_x1 = CLAMP ((int) floor (x1 + 0.5), 0, width);
  stamps->clip_y1 = CLAMP ((int) floor (y1 + 0.5), 0, height);
}

/* The nearest whole pixel, halves up (floor (v + 0.5)), inline: it is
 * called several times per mark. Halves go the same way on either side
 * of zero, so a picture drawn in slices (et-timeline-slices.c), whose
 * coordinates are shifted by a whole pixel row, rounds as the whole one. */
static inline long
round_px (double v)
{
  double up = v + 0.5;
  long i = (long) up;

  return i - (i > up);
}

/* d = s + d × (1 − αs), per premultiplied channel, in 8 bits. */
static inline guint32
over (guint32 s, guint32 d)
{
  guint32 rest = 255 - (s >> 24);
  guint32 rb = (d & 0x00FF00FF) * rest + 0x00800080;
  guint32 ag = ((d >> 8) & 0x00FF00FF) * rest + 0x00800080;

  rb = ((rb + ((rb >> 8) & 0x00FF00FF)) >> 8) & 0x00FF00FF;
  ag = (ag + ((ag >> 8) & 0x00FF00FF)) & 0xFF00FF00;
  return s + (rb | ag);
}

/* Copies @stamp with its top left at device pixel (@x, @y), within the clip.
 * Writing the target's pixels ourselves is allowed between a flush and a
 * mark_dirty; a few hundred pixels this way cost far less than a cairo
 * fill, whose set-up dominates at this size. */
static void
blit (EtStamps *stamps, Stamp *stamp, int x, int y)
{
  int x0 = MAX (x, stamps->clip_x0), x1 = MIN (x + stamp->pixel_width, stamps->clip_x1);
  int y0 = MAX (y, stamps->clip_y0), y1 = MIN (y + stamp->pixel_height, stamps->clip_y1);

  if (x0 >= x1 || y0 >= y1)
    return;
  cairo_surface_flush (stamps->target);
  for (int row = y0; row < y1; row++)
    {
      const guint32 *src = (const guint32 *) (stamp->pixels + (gsize) (row - y) * stamp->stride);
      guint32 *dst = (guint32 *) (stamps->pixels + (gsize) row * stamps->stride);
      int first = MAX (x0, x + stamp->row_first[row - y]);
      int end = MIN (x1, x + stamp->row_end[row - y]);

      /* over() leaves dst as it is under a clear pixel and replaces it
       * under an opaque one, so one branch-free loop serves all three. */
      for (int col = first; col < end; col++)
        dst[col] = over (src[col - x], dst[col]);
    }
  cairo_surface_mark_dirty (stamps->target);
}

void
et_stamps_paint (EtStamps *stamps, cairo_t *cr, guint32 key, double half_width,
                 double half_height, double cx, double cy, EtStampDrawFunc draw,
                 gconstpointer data)
{
  Stamp *stamp = find_slot (stamps, key);
  double x = cx - half_width - 1, y = cy - half_height - 1;

  if (!stamp->used)
    {
      if (stamps->n_used >= MAX_USED)
        {
          cairo_save (cr);
          cairo_translate (cr, cx, cy);
          draw (cr, data);
          cairo_restore (cr);
          return;
        }
      stamp->used = TRUE;
      stamp->key = key;
      stamps->n_used++;
      make_stamp (stamps, stamp, half_width, half_height, draw, data);
    }
  to_pixels (stamps, cr, &x, &y);
  blit (stamps, stamp, (int) round_px (x), (int) round_px (y));
}

/* @rgb covering @coverage (0–1] of a pixel, premultiplied: blended like
 * cairo's antialiasing would, so a bar a third of a pixel wide stays light. */
static guint32
coverage_pixel (guint32 rgb, double coverage)
{
  guint32 a = (guint32) round_px (coverage * 255);

  return a << 24 | ((rgb >> 16 & 0xFF) * a / 255) << 16 | ((rgb >> 8 & 0xFF) * a / 255) << 8
         | ((rgb & 0xFF) * a / 255);
}

void
et_stamps_fill_box (EtStamps *stamps, cairo_t *cr, double x0, double y0, double x1,
                    double y1, double r, double g, double b)
{
  guint32 rgb = (guint32) round_px (r * 255) << 16 | (guint32) round_px (g * 255) << 8
                | (guint32) round_px (b * 255);
  guint32 left, right, full = 0xFF000000u | rgb;
  int top, bottom, first, last, from, to;

  to_pixels (stamps, cr, &x0, &y0);
  to_pixels (stamps, cr, &x1, &y1);
  top = MAX ((int) round_px (y0), stamps->clip_y0);
  bottom = MIN ((int) round_px (y1), stamps->clip_y1);
  x0 = MAX (x0, stamps->clip_x0 - 1), x1 = MIN (x1, stamps->clip_x1 + 1);
  if (top >= bottom || x0 >= x1)
    return;
  first = (int) floor (x0), last = (int) floor (x1);
  /* The partly covered columns at either end, and the whole ones between,
   * written row by row. */
  left = coverage_pixel (rgb, first == last ? x1 - x0 : first + 1 - x0);
  right = first == last ? 0 : coverage_pixel (rgb, x1 - last);
  from = MAX (first + 1, stamps->clip_x0), to = MIN (last, stamps->clip_x1);
  cairo_surface_flush (stamps->target);
  for (int row = top; row < bottom; row++)
    {
      guint32 *dst = (guint32 *) (stamps->pixels + (gsize) row * stamps->stride);

      if (first >= stamps->clip_x0 && first < stamps->clip_x1)
        dst[first] = over (left, dst[first]);
      for (int col = from; col < to; col++)
        dst[col] = full;
      if (last != first && last >= stamps->clip_x0 && last < stamps->clip_x1)
        dst[last] = over (right, dst[last]);
    }
  cairo_surface_mark_dirty (stamps->target);
}

#define PREFETCH_ROWS 8

void
et_stamps_dashed_vline (EtStamps *stamps, cairo_t *cr, double x, double y0, double y1,
                        double r, double g, double b, double alpha)
{
  guint32 a = (guint32) round_px (alpha * 255);
  guint32 pixel = a << 24 | (guint32) round_px (r * a) << 16 | (guint32) round_px (g * a) << 8
                  | (guint32) round_px (b * a);
  double x1 = x;
  int column, start, top, bottom, first, end;

  to_pixels (stamps, cr, &x, &y0);
  to_pixels (stamps, cr, &x1, &y1);
  column = (int) floor (x);
  start = (int) round_px (y0);
  top = (int) round_px (MIN (y0, y1));
  bottom = (int) round_px (MAX (y0, y1));
  if (column < stamps->clip_x0 || column >= stamps->clip_x1)
    return;
  cairo_surface_flush (stamps->target);
  /* 3 pixels on, 2 off, counted from where the line starts, like cairo's
   * dash. Each pixel is in a row of its own, so waiting for memory is
   * most of the cost: fetching rows ahead hides part of it (a whole-trace
   * view of 10 M events draws about a million such pixels). */
  first = MAX (top, stamps->clip_y0), end = MIN (bottom, stamps->clip_y1);
  for (int row = first; row < end; row++)
    {
      guint32 *dst = (guint32 *) (stamps->pixels + (gsize) row * stamps->stride) + column;

      if (row + PREFETCH_ROWS < end)
        __builtin_prefetch (dst + PREFETCH_ROWS * (stamps->stride / 4), 1);
      if (ABS (row - start) % 5 < 3)
        *dst = over (pixel, *dst);
    }
  cairo_surface_mark_dirty (stamps->target);
}
