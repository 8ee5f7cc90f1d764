/* et-timeline-slices.c — a large picture drawn in horizontal slices at
 * once, one per core (see et-timeline-private.h).
 *
 * A slice is a band of pixel rows, cut where the rows' drawing cost
 * reaches each slice's share. Its thread draws into the band's pixels of
 * the target through an image surface of its own over that memory: no two
 * threads touch the same pixel or the same cairo object. It walks every
 * row reaching into the band (a row cut by two slices is walked by both,
 * each drawing its own pixels of it). Shapes never leave their row, so a
 * slice draws what the whole picture would in its pixels; connectors,
 * which cross rows, are collected by the slice their row begins in, and
 * once every slice has its marks each draws all connectors in its pixels,
 * in the order one thread would have found them.
 * The threads stay (an exclusive pool): Pango keeps a font map per
 * thread, which a new thread would have to build again for every picture.
 */
#include "et-timeline-private.h"
#include "et-workers.h"

#include <stdlib.h>

/* At most this many slices, and only from this many markers in view or
 * pixels: a small picture is drawn sooner by one thread than handed to
 * others. (bench-render, 1920 × 1080, 2 cores: the whole 10 M-event
 * trace in 15.6 ms instead of 29.8, a 20 µs view of it with next to no
 * markers in 1.4 ms instead of 2.0: backgrounds, labels and the ruler
 * are cut too.) */
#define MAX_SLICES           4
#define SLICES_FROM_MARKERS  20000
#define SLICES_FROM_PIXELS   1000000

/* What a row costs to draw, in markers: at coarse zoom the walk follows
 * blocks of markers and the marks follow pixels, so a row's cost grows
 * far slower than its markers; every row has a label and a background. */
static guint64
row_cost (guint64 markers)
{
  return 2048 + MIN (markers, 8192) + markers / 32;
}

guint64
et_timeline_row_markers (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtRow *row)
{
  guint64 n = 0;
  guint end, first;

  if (row->kind == ET_ROW_CHANNEL)
    {
      first = et_channel_query (trace, row->index, v->from_ns, v->to_ns, &end);
      return end - first;
    }
  if (row->lanes > 0)       /* a collapsed thread's or process's merged row */
    {
      guint from, to;

      et_layout_row_channels (layout, row, &from, &to);
      for (guint c = from; c < to; c++)
        if (et_layout_channel_row (layout, c) == row)
          {
            first = et_channel_query (trace, c, v->from_ns, v->to_ns, &end);
            n += end - first;
          }
    }
  return n;
}

static int
row_top (const EtViewport *v, const EtRow *row)
{
  return v->ruler_height + row->y - v->scroll_y;
}

/* Whether @cr draws straight into an image surface's pixels, one user
 * unit a whole number of pixels, nothing clipped: then a slice's pixels
 * are rows of that image, from a whole pixel row on. */
static gboolean
can_slice (cairo_t *cr, const EtViewport *v, double *scale)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_matrix_t m;
  double sx, sy, ox, oy, x0, y0, x1, y1;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE
      || (cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32
          && cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24))
    return FALSE;
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &ox, &oy);
  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  *scale = sx;
  return m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 && m.x0 == 0 && m.y0 == 0
         && sx == sy && sx >= 1 && sx == (int) sx && ox == 0 && oy == 0
         && x0 <= 0 && y0 <= 0 && x1 >= v->width && y1 >= v->height
         && cairo_image_surface_get_height (target) >= v->height * sx;
}

static guint
forced_slices (void)
{
  const char *forced = g_getenv ("ETLSCOPE_DRAW_SLICES");

  return forced != NULL ? (guint) CLAMP (atoi (forced), 1, MAX_SLICES) : 0;
}

/* Where each slice begins: the pixel rows where the rows' cost, spread
 * evenly over each row's pixels in view, reaches each slice's share. */
static guint
cut_pixels (const EtViewport *v, EtLayout *layout, const guint64 *cost, guint64 total, guint k,
            int *tops)
{
  g_autofree double *per_px = g_new0 (double, MAX (v->height, 1));
  double sum = 0;
  guint n = 1;

  tops[0] = 0;
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (cost[r] > 0)
      {
        const EtRow *row = et_layout_row (layout, r);
        int lo = MAX (row_top (v, row), v->ruler_height);
        int hi = MIN (row_top (v, row) + row->height, v->height);

        for (int y = lo; y < hi; y++)
          per_px[y] += (double) cost[r] / (hi - lo);
      }
  for (int y = 0; y < v->height && n < k; y++)
    {
      if (sum >= (double) total * n / k && y > tops[n - 1])
        tops[n++] = y;
      sum += per_px[y];
    }
  return n;
}

guint
_et_timeline_choose_slices (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v,
                            EtTimelineSlice *slices, guint max)
{
  guint n_rows = et_layout_n_rows (layout), k = forced_slices (), n;
  g_autofree guint64 *cost = NULL;
  guint64 total = 0, markers = 0;
  int tops[MAX_SLICES];
  double scale;

  slices[0] = (EtTimelineSlice) { 0, n_rows, 0, v->height };
  if (k == 1 || MIN (max, MAX_SLICES) < 2 || !can_slice (cr, v, &scale))
    return 1;
  cost = g_new0 (guint64, MAX (n_rows, 1));
  for (guint r = 0; r < n_rows; r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      int top = row_top (v, row);

      if (top + row->height <= v->ruler_height || top >= v->height)
        continue;
      cost[r] = et_timeline_row_markers (trace, layout, v, row);
      markers += cost[r];
      cost[r] = row_cost (cost[r]);
      total += cost[r];
    }
  if (k == 0)
    k = markers < SLICES_FROM_MARKERS
        && (double) v->width * v->height * scale * scale < SLICES_FROM_PIXELS
        ? 1 : MIN (g_get_num_processors (), MAX_SLICES);
  k = MIN (MIN (k, max), MAX_SLICES);
  if (k < 2 || total == 0)
    return 1;
  n = cut_pixels (v, layout, cost, total, k, tops);
  /* Each slice walks the rows that reach into its pixels. */
  for (guint j = 0; j < n; j++)
    {
      EtTimelineSlice *slice = &slices[j];

      *slice = (EtTimelineSlice) { 0, n_rows, tops[j], j + 1 < n ? tops[j + 1] : v->height };
      if (j > 0)
        while (slice->first_row < n_rows
               && row_top (v, et_layout_row (layout, slice->first_row))
                    + et_layout_row (layout, slice->first_row)->height <= slice->top)
          slice->first_row++;
      if (j + 1 < n)
        for (slice->end_row = slice->first_row; slice->end_row < n_rows
             && row_top (v, et_layout_row (layout, slice->end_row)) < slice->bottom;
             slice->end_row++)
          ;
    }
  return n;
}

/* The slices of one picture, drawn at once. */
typedef struct
{
  GMutex        lock;
  GCond         cond;
  guint         marked;      /* slices whose marks are drawn */
  guint         pending;     /* slices on other threads not finished */
  guint         n;
  const GArray *due[MAX_SLICES];
} Batch;

typedef struct
{
  cairo_surface_t *target;
  double           scale;
  EtTrace         *trace;
  EtLayout        *layout;
  const EtViewport *v;
  EtTimelineSlice  slice;
  GArray          *due;
  Batch           *batch;
} SliceJob;

/* The slice's rows of @target's pixels as a surface of their own, placed
 * so that the picture's coordinates still hold. */
static cairo_surface_t *
slice_surface (cairo_surface_t *target, double scale, const EtTimelineSlice *slice)
{
  int stride = cairo_image_surface_get_stride (target);
  int top = (int) (slice->top * scale), bottom = (int) (slice->bottom * scale);
  cairo_surface_t *surface
    = cairo_image_surface_create_for_data (cairo_image_surface_get_data (target) + (gsize) top * stride,
                                           cairo_image_surface_get_format (target),
                                           cairo_image_surface_get_width (target), bottom - top,
                                           stride);

  cairo_surface_set_device_scale (surface, scale, scale);
  cairo_surface_set_device_offset (surface, 0, -top);
  return surface;
}

/* EtSlicesMarked of a batch: every slice's marks are drawn when all have
 * come here. */
static const GArray *const *
all_marked (gpointer data, guint *n)
{
  Batch *batch = data;

  g_mutex_lock (&batch->lock);
  if (++batch->marked == batch->n)
    g_cond_broadcast (&batch->cond);
  while (batch->marked < batch->n)
    g_cond_wait (&batch->cond, &batch->lock);
  g_mutex_unlock (&batch->lock);
  *n = batch->n;
  return batch->due;
}

static void
draw_job (SliceJob *job)
{
  cairo_surface_t *surface = slice_surface (job->target, job->scale, &job->slice);
  cairo_t *cr = cairo_create (surface);

  _et_timeline_draw_slice (cr, job->trace, job->layout, job->v, &job->slice, job->due,
                           all_marked, job->batch);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);
}

static void
run_job (gpointer data, gpointer unused)
{
  SliceJob *job = data;

  et_worker_begin_as (ET_WORK_PICTURE);
  draw_job (job);
  g_mutex_lock (&job->batch->lock);
  if (--job->batch->pending == 0)
    g_cond_broadcast (&job->batch->cond);
  g_mutex_unlock (&job->batch->lock);
}

/* One thread per slice but the caller's. The slices of a picture wait
 * for each other, so a picture's slices must all be running at once: a
 * pool of MAX_SLICES - 1 threads serves one picture at a time
 * (picture_lock). */
static GThreadPool *
slice_pool (void)
{
  static gsize once = 0;
  static GThreadPool *pool;

  if (g_once_init_enter (&once))
    {
      pool = g_thread_pool_new (run_job, NULL, MAX_SLICES - 1, TRUE, NULL);
      g_once_init_leave (&once, 1);
    }
  return pool;
}

static GMutex picture_lock;

/* EtSlicesMarked of a picture in one slice. */
static const GArray *const *
only_marked (gpointer data, guint *n)
{
  *n = 1;
  return (const GArray *const *) data;
}

/* Every slice but the first on the pool's threads, the first on the
 * caller's; returns when all are drawn. */
static void
draw_at_once (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v,
              const EtTimelineSlice *slices, guint n)
{
  SliceJob jobs[MAX_SLICES];
  Batch batch = { 0 };
  cairo_surface_t *target = cairo_get_target (cr);
  double scale;

  cairo_surface_get_device_scale (target, &scale, NULL);
  g_mutex_init (&batch.lock);
  g_cond_init (&batch.cond);
  batch.n = n;
  batch.pending = n - 1;
  cairo_surface_flush (target);
  for (guint k = 0; k < n; k++)
    {
      jobs[k] = (SliceJob) { target, scale, trace, layout, v, slices[k],
                             g_array_new (FALSE, FALSE, sizeof (EtDueConnector)), &batch };
      batch.due[k] = jobs[k].due;
    }
  for (guint k = 1; k < n; k++)
    g_thread_pool_push (slice_pool (), &jobs[k], NULL);
  draw_job (&jobs[0]);
  g_mutex_lock (&batch.lock);
  while (batch.pending > 0)
    g_cond_wait (&batch.cond, &batch.lock);
  g_mutex_unlock (&batch.lock);
  g_mutex_clear (&batch.lock);
  g_cond_clear (&batch.cond);
  cairo_surface_mark_dirty (target);
  for (guint k = 0; k < n; k++)
    g_array_unref (jobs[k].due);
}

void
et_timeline_draw_in_slices (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v,
                            guint max_slices)
{
  EtTimelineSlice slices[MAX_SLICES];
  guint n = _et_timeline_choose_slices (cr, trace, layout, v, slices,
                                        max_slices == 0 ? MAX_SLICES : max_slices);
  g_autoptr(GArray) due = NULL;
  const GArray *dues[1];

  /* The pool draws one picture at a time: while it draws another, this
   * one is drawn alone rather than wait for it. */
  if (n > 1 && g_mutex_trylock (&picture_lock))
    {
      draw_at_once (cr, trace, layout, v, slices, n);
      g_mutex_unlock (&picture_lock);
      return;
    }
  slices[0] = (EtTimelineSlice) { 0, et_layout_n_rows (layout), 0, v->height };
  due = g_array_new (FALSE, FALSE, sizeof (EtDueConnector));
  dues[0] = due;
  _et_timeline_draw_slice (cr, trace, layout, v, &slices[0], due, only_marked, dues);
}
