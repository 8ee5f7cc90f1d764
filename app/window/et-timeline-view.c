/* et-timeline-view.c — see et-timeline-view.h.
 *
 * The picture render/ draws is kept as a render node and reused until the
 * viewport, the size, the theme or the layout change; the selection ring is
 * drawn over it, so clicking around never repaints the markers. A picture
 * that takes long to draw (a large trace seen whole) is drawn on a thread,
 * from a copy of the layout, and the last picture stays on screen until it
 * is ready: the main loop keeps its frames.
 */
#include "et-timeline-view.h"
#include "et-workers.h"
#include "et-details.h"
#include "et-timeline-edges.h"
#include "et-timeline-focus.h"
#include "et-timeline-threads.h"
#include "et-i18n.h"
#include "et-cpu-strip.h"

#include <glib/gi18n.h>

#include "et-flows.h"

#include <math.h>

struct _EtTimelineView
{
  GtkWidget           parent_instance;

  EtTrace            *trace;
  EtLayout           *layout;        /* not owned */
  EtViewport          view;
  GSimpleActionGroup *actions;

  GskRenderNode      *picture;       /* the last et_timeline_draw output */
  EtViewport          picture_view;  /* what it was drawn for */
  guint               changes;       /* bumped by what the viewport does not say:
                                        layout, theme, trace */
  guint               picture_changes; /* `changes` when the picture was begun */
  gboolean            drawing;       /* a picture is being drawn on a thread */
  gint64              draw_us;       /* how long the last picture took */
  guint64             draw_markers;  /* and how many markers its view held */

  GHashTable         *highlights;    /* const EtMarker * set, or NULL */
  /* The selection is a marker (or a grey mark of merged ones) and stays
   * one until something else is chosen or Escape, wherever the view goes;
   * `selected`'s box is where it is drawn now, when `ring` says it is. */
  gboolean            has_selection;
  EtSelectionRing     ring;
  EtViewport          ring_view;     /* what `ring` was found for */
  guint               ring_changes;  /* and `changes` then */
  /* The selected marker's flow partners (et-flows.h): where its work went
   * (to) and where it came from (from); channel G_MAXUINT when none. */
  guint               flow_to[2], flow_from[2];
  GArray             *bookmarks;     /* gint64: marked times, drawn as lines */
  EtShape             selected;
  double              pointer_x;
  GtkWidget          *channel_menu;  /* right-click on a row */
  GtkWidget          *find_popover;  /* Go to Thread or Series */
  gint64              drag_from_ns;
  int                 drag_from_scroll;
  gboolean            range_drag;    /* the drag began on the ruler */
  double              range_start_x;
  gboolean            has_range;     /* a time range selected on the ruler */
  gint64              range_from_ns, range_to_ns;
  double              pinch_last;
  gboolean            compact;       /* compact rows (et_timeline_view_set_compact) */
};

G_DEFINE_FINAL_TYPE (EtTimelineView, et_timeline_view, GTK_TYPE_WIDGET)

enum { SIGNAL_SELECTION_CHANGED, SIGNAL_RANGE_CHANGED, SIGNAL_LAYOUT_CHANGED, SIGNAL_ESCAPE,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- drawing ------------------------------------------------------------ */

static void
sync_size (EtTimelineView *self)
{
  self->view.width = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 300);
  self->view.height = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 100);
}

static void
clamp_scroll (EtTimelineView *self)
{
  int max = 0;

  if (self->layout != NULL)
    max = et_layout_height (self->layout) - (self->view.height - self->view.ruler_height);
  self->view.scroll_y = CLAMP (self->view.scroll_y, 0, MAX (max, 0));
}

/* What the picture shows changed: it is drawn again, and shown until then. */
static void
invalidate (EtTimelineView *self)
{
  self->changes++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void refresh_selection   (EtTimelineView *self);
static void locate_selection    (EtTimelineView *self);
static void rows_follow_range   (EtTimelineView *self);

/* The view panned, zoomed or scrolled: the picture compares its viewport
 * (the rows change only when they follow the range). */
static void
view_moved (EtTimelineView *self)
{
  rows_follow_range (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_RANGE_CHANGED], 0);
}

/* The rows changed too. */
static void
view_changed (EtTimelineView *self)
{
  self->changes++;
  view_moved (self);
}

/* Search matches are ringed in amber. */
typedef struct
{
  cairo_t    *cr;
  GHashTable *set;
} Ring;

static void
ring_match (const EtShape *s, gpointer data)
{
  Ring *ring = data;

  if (s->kind == ET_SHAPE_AGGREGATE || !g_hash_table_contains (ring->set, s->m))
    return;
  cairo_set_source_rgb (ring->cr, 1.0, 0.6, 0.0);      /* amber */
  cairo_set_line_width (ring->cr, 2);
  cairo_rectangle (ring->cr, s->x0 - 2, s->y0 - 2, s->x1 - s->x0 + 4, s->y1 - s->y0 + 4);
  cairo_stroke (ring->cr);
}

/* The picture is drawn into pixels of our own, not into a recording for
 * GSK to replay: render/ copies small marks straight into an image surface
 * (et-stamps.h), which at whole-trace zoom is several times faster. Any
 * thread may draw it. The search's matches (@highlights, a set of markers
 * no one changes, or NULL) are ringed in the picture too: as an overlay
 * every frame would find the shapes of the whole view again. On the
 * widget's drawing thread, render/ may cut the picture into slices drawn
 * on the cores (@max_slices 0); on the main loop it draws alone (1): a
 * frame must not wait for a thread the X server and GTK compete with
 * (bench-interact: more frames over 16.7 ms when it did). */
static cairo_surface_t *
draw_surface (EtTrace *trace, EtLayout *layout, const EtViewport *view, GHashTable *highlights,
              int width, int height, int scale, guint max_slices)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale,
                                                         height * scale);
  cairo_t *cr;

  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  et_timeline_draw_in_slices (cr, trace, layout, view, max_slices);
  if (highlights != NULL)
    {
      Ring ring = { cr, highlights };
      et_timeline_foreach_shape (trace, layout, view, ring_match, &ring);
    }
  cairo_destroy (cr);
  return surface;
}

/* The pixels go to GSK as a cairo node that paints the surface (taken),
 * not as a texture: GTK 4.8's cairo renderer downloads a texture into a
 * new surface on every frame it draws, through a per-pixel float
 * conversion (perf: a quarter of bench-interact's time on the demo trace,
 * any frame that drew the window). A cairo node replays a paint of the
 * surface, clipped to what changed. */
static void
take_picture (EtTimelineView *self, cairo_surface_t *surface, const EtViewport *view,
              guint changes, gint64 took_us, guint64 markers)
{
  double scale;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  cairo_t *cr;

  cairo_surface_get_device_scale (surface, &scale, NULL);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0,
                                    cairo_image_surface_get_width (surface) / scale,
                                    cairo_image_surface_get_height (surface) / scale));

  cairo_set_source_surface (cr, surface, 0, 0);
  /* Drawn pixel for pixel, except scaled for a moment while a zoom's
   * picture comes (append_picture): the cheapest filter there. */
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_FAST);
  cairo_paint (cr);
  cairo_destroy (cr);
  /* The recording keeps the pixels (cairo hands them over, no copy). */
  cairo_surface_destroy (surface);
  g_clear_pointer (&self->picture, gsk_render_node_unref);
  self->picture = gtk_snapshot_free_to_node (snapshot);
  self->picture_view = *view;
  self->picture_changes = changes;
  self->draw_us = MAX (took_us, 1);
  self->draw_markers = markers;
}

static gboolean
picture_is_current (EtTimelineView *self)
{
  return self->picture != NULL && self->picture_changes == self->changes
         && memcmp (&self->picture_view, &self->view, sizeof self->view) == 0;
}

/* Markers of the rows on screen that may be drawn: what drawing costs. */
static guint64
markers_in_view (EtTimelineView *self)
{
  guint64 n = 0;

  for (guint r = 0; r < et_layout_n_rows (self->layout); r++)
    {
      const EtRow *row = et_layout_row (self->layout, r);
      int top = self->view.ruler_height + row->y - self->view.scroll_y;

      if (top + row->height > self->view.ruler_height && top < self->view.height)
        n += et_timeline_row_markers (self->trace, self->layout, &self->view, row);
    }
  return n;
}

/* A picture is drawn on a thread when the view holds this many markers (a
 * large trace seen whole), when the last one took this long, or when this
 * one would, going by the last one's time per marker (drawing takes time
 * in proportion to the markers, beyond a base that a view of a few
 * thousand already costs: counts under FLOOR count as FLOOR); else at
 * once, which is quicker to show. This long is a third of a frame: GTK's
 * painting of the window needs the rest. Meanwhile the last picture is
 * shown moved to the view (append_picture). ETLSCOPE_DRAW_ON_THREAD=always
 * or =never decides instead (tests). */
#define DRAW_ON_THREAD_FROM_MARKERS 250000
#define DRAW_ON_THREAD_FROM_US      5000
#define DRAW_ESTIMATE_FLOOR         10000

static gboolean
draws_on_thread (EtTimelineView *self, guint64 markers)
{
  const char *forced = g_getenv ("ETLSCOPE_DRAW_ON_THREAD");

  if (forced != NULL)
    return g_str_equal (forced, "always");
  return markers >= DRAW_ON_THREAD_FROM_MARKERS || self->draw_us >= DRAW_ON_THREAD_FROM_US
         || (guint64) self->draw_us * MAX (markers, DRAW_ESTIMATE_FLOOR)
              >= (guint64) DRAW_ON_THREAD_FROM_US * MAX (self->draw_markers, DRAW_ESTIMATE_FLOOR);
}

/* What a thread needs to draw a picture, none of it shared with the widget. */
typedef struct
{
  EtTrace         *trace;    /* a reference */
  EtLayout        *layout;   /* a copy */
  GHashTable      *highlights;   /* a reference, or NULL */
  EtViewport       view;
  int              width, height, scale;
  guint            changes;
  guint64          markers;  /* in the view */
  cairo_surface_t *surface;  /* the result */
  gint64           took_us;
} DrawJob;

static void
draw_job_free (gpointer data)
{
  DrawJob *job = data;

  g_clear_pointer (&job->surface, cairo_surface_destroy);
  et_layout_free (job->layout);
  g_clear_pointer (&job->highlights, g_hash_table_unref);
  g_object_unref (job->trace);
  g_free (job);
}

static void
draw_in_thread (gpointer data, gpointer unused)
{
  GTask *task = data;
  DrawJob *job = g_task_get_task_data (task);
  gint64 start;

  et_worker_begin_as (ET_WORK_PICTURE);
  start = g_get_monotonic_time ();
  job->surface = draw_surface (job->trace, job->layout, &job->view, job->highlights, job->width,
                               job->height, job->scale, 0);
  job->took_us = g_get_monotonic_time () - start;
  g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

/* Pictures have a thread of their own, which runs ahead of the window's
 * other background work: the shared pool's threads stay behind it once
 * that work used them (et-workers.h). */
static GThreadPool *
picture_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (draw_in_thread, NULL, 1, TRUE, NULL));
  return pool;
}

/* A picture from the thread: shown, and if the view moved on meanwhile,
 * the next frame starts the next one. */
static void
drawn (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtTimelineView) self = data;
  DrawJob *job = g_task_get_task_data (G_TASK (result));

  self->drawing = FALSE;
  if (self->trace != job->trace)
    return;                        /* another trace (or none) meanwhile */
  take_picture (self, g_steal_pointer (&job->surface), &job->view, job->changes, job->took_us,
                job->markers);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The task holds nothing of GTK, since it may be finalized on its thread:
 * the view is the callback's data, let go on the main loop. */
static void
start_drawing (EtTimelineView *self, int width, int height, guint64 markers)
{
  GTask *task;
  DrawJob *job;

  if (self->drawing)
    return;                        /* its picture comes first */
  job = g_new0 (DrawJob, 1);
  job->trace = g_object_ref (self->trace);
  job->layout = et_layout_copy (self->layout);
  job->highlights = self->highlights != NULL ? g_hash_table_ref (self->highlights) : NULL;
  job->view = self->view;
  job->width = width, job->height = height;
  job->scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  job->changes = self->changes;
  job->markers = markers;
  self->drawing = TRUE;
  task = g_task_new (NULL, NULL, drawn, g_object_ref (self));
  g_task_set_task_data (task, job, draw_job_free);
  g_thread_pool_push (picture_pool (), task, NULL);
}

static void
update_picture (EtTimelineView *self, int width, int height)
{
  cairo_surface_t *surface;
  gint64 start;
  guint64 markers;

  if (picture_is_current (self))
    return;
  markers = markers_in_view (self);
  if (draws_on_thread (self, markers))
    {
      start_drawing (self, width, height, markers);
      return;
    }
  start = g_get_monotonic_time ();
  surface = draw_surface (self->trace, self->layout, &self->view, self->highlights, width, height,
                          gtk_widget_get_scale_factor (GTK_WIDGET (self)), 1);
  take_picture (self, surface, &self->view, self->changes, g_get_monotonic_time () - start, markers);
}

gboolean
et_timeline_view_is_drawing (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  return self->drawing;
}

/* The picture on screen is the one the view asks for: nothing is being
 * drawn and nothing changed since (what a test waits for, not a time). */
gboolean
et_timeline_view_is_settled (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  return !self->drawing && picture_is_current (self);
}

/* For the benchmarks (tests/bench/run): ETLSCOPE_FIRST_FRAME=report says
 * on stderr when the first timeline of a trace is drawn; =quit also quits. */
static void
report_first_frame (void)
{
  static gboolean reported;
  const char *mode = g_getenv ("ETLSCOPE_FIRST_FRAME");

  if (reported || mode == NULL)
    return;
  reported = TRUE;
  g_printerr ("etlscope: first timeline drawn\n");
  if (g_strcmp0 (mode, "quit") == 0)
    g_application_quit (g_application_get_default ());
}

static gboolean flow_point (EtTimelineView *self, const guint ref[2], double *x, double *y);

/* An arrow from one marker to another: a curve, its head at the end. */
static void
draw_flow_arrow (cairo_t *cr, double x0, double y0, double x1, double y1)
{
  double angle, bend = MAX (20, ABS (y1 - y0) / 2);

  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.95);
  cairo_set_line_width (cr, 2);
  cairo_move_to (cr, x0, y0);
  cairo_curve_to (cr, x0 + bend, y0, x1 - bend, y1, x1, y1);
  cairo_stroke (cr);
  angle = atan2 (0, bend);   /* the curve arrives level, from the left */
  cairo_move_to (cr, x1, y1);
  cairo_line_to (cr, x1 - 9 * cos (angle - 0.45), y1 - 9 * sin (angle - 0.45));
  cairo_line_to (cr, x1 - 9 * cos (angle + 0.45), y1 - 9 * sin (angle + 0.45));
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* Marked times: a line down the plot and a tab on the ruler, green (not
 * data, not the amber of selections). */
static void
draw_bookmarks (EtTimelineView *self, cairo_t *cr)
{
  const EtViewport *v = &self->view;

  cairo_set_source_rgba (cr, 0.15, 0.6, 0.3, 0.9);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; self->bookmarks != NULL && i < self->bookmarks->len; i++)
    {
      double x = floor (et_viewport_x (v, g_array_index (self->bookmarks, gint64, i))) + 0.5;

      if (x < v->label_width || x > v->width)
        continue;
      cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
      cairo_move_to (cr, x, v->ruler_height);
      cairo_line_to (cr, x, v->height);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_move_to (cr, x, v->ruler_height);
      cairo_line_to (cr, x - 5, v->ruler_height - 8);
      cairo_line_to (cr, x + 5, v->ruler_height - 8);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

/* The selected marker's flows: arrows to their other ends, or towards
 * them at the picture's edge when they are out of view. */
static void
draw_flows (EtTimelineView *self, cairo_t *cr)
{
  double sx = (self->ring.x0 + self->ring.x1) / 2;
  double sy = (self->ring.y0 + self->ring.y1) / 2;
  double x, y;

  if (flow_point (self, self->flow_to, &x, &y))
    draw_flow_arrow (cr, sx, sy, x - 3, y);
  if (flow_point (self, self->flow_from, &x, &y))
    draw_flow_arrow (cr, x, y, sx - 3, sy);
}

/* The ring around exactly the selected marker; where it is merged into a
 * grey mark at this zoom, around that mark, with a pointer under it at the
 * marker's own time. Nothing while it is out of view. */
static void
draw_selection (EtTimelineView *self, cairo_t *cr)
{
  const EtSelectionRing *r = &self->ring;

  if (r->kind == ET_RING_NONE)
    return;
  draw_flows (self, cr);
  cairo_set_source_rgb (cr, self->view.dark, self->view.dark, self->view.dark);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, r->x0 - 3, r->y0 - 3, r->x1 - r->x0 + 6, r->y1 - r->y0 + 6);
  cairo_stroke (cr);
  if (r->kind == ET_RING_MERGED)
    {
      cairo_move_to (cr, r->at, r->y1 + 4);
      cairo_line_to (cr, r->at - 4, r->y1 + 10);
      cairo_line_to (cr, r->at + 4, r->y1 + 10);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

/* The selected marker's ring and flow arrows, in a node only as large as
 * their ink: what changes from one marker to the next is then all GTK
 * paints again (a node of the whole view made every step repaint the
 * whole timeline, ~10 ms in software rendering). */
static void
snapshot_selection (EtTimelineView *self, GtkSnapshot *snapshot)
{
  cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (recording);
  double x, y, w, h;

  draw_selection (self, cr);
  cairo_destroy (cr);
  cairo_recording_surface_ink_extents (recording, &x, &y, &w, &h);
  if (w > 0 && h > 0)
    {
      graphene_rect_t bounds = GRAPHENE_RECT_INIT (floor (x), floor (y), ceil (w) + 2, ceil (h) + 2);

      cr = gtk_snapshot_append_cairo (snapshot, &bounds);
      cairo_set_source_surface (cr, recording, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
    }
  cairo_surface_destroy (recording);
}

/* Appends the picture's @part (x, y, w, h), its time moved to @dx plus
 * @sx times its offset from the label column, and its rows by @dy. */
static void
append_moved (EtTimelineView *self, GtkSnapshot *snapshot, const graphene_rect_t *part,
              double dx, double sx, double dy)
{
  double left = self->view.label_width;

  gtk_snapshot_push_clip (snapshot, part);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (left + dx, dy));
  gtk_snapshot_scale (snapshot, sx, 1);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-left, 0));
  gtk_snapshot_append_node (snapshot, self->picture);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

#define MAX_MOVED_ZOOM 64

/* The last picture. While the one for a new view is drawn on a thread, a
 * view that only panned, zoomed or scrolled shows the last one moved
 * there: its times where they are now (scaled when zoomed) and its rows
 * scrolled, the band it does not cover in the rows' background. So the
 * selection and the other overlays, drawn for the new view, stay on
 * their markers meanwhile. Anything else (rows laid out again, another
 * size or theme) shows it as it was. */
static void
append_picture (EtTimelineView *self, GtkSnapshot *snapshot, int width, int height)
{
  const EtViewport *was = &self->picture_view, *now = &self->view;
  EtViewport same = *was;
  double left = now->label_width, top = now->ruler_height, rgb[3];
  double sx, dx, dy;
  cairo_t *cr;

  same.from_ns = now->from_ns, same.to_ns = now->to_ns, same.scroll_y = now->scroll_y;
  if (picture_is_current (self) || self->picture_changes != self->changes
      || memcmp (&same, now, sizeof same) != 0 || width <= left || height <= top)
    {
      gtk_snapshot_append_node (snapshot, self->picture);
      return;
    }
  sx = (double) MAX (1, et_time_sub (was->to_ns, was->from_ns))
       / MAX (1, et_time_sub (now->to_ns, now->from_ns));
  dx = et_viewport_x (now, was->from_ns) - left;
  dy = was->scroll_y - now->scroll_y;
  if (sx == 1)
    dx = round (dx);                /* a pan: whole pixels, copied as they are */
  et_timeline_theme_rgb (now, ET_THEME_ROW, 0, rgb);
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { rgb[0], rgb[1], rgb[2], 1 },
                             &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* The label column and the rows, moved. */
  append_moved (self, snapshot, &GRAPHENE_RECT_INIT (0, top, left, height - top), 0, 1, dy);
  /* A zoom of more than MAX_MOVED_ZOOM either way would show a sliver
   * stretched, or a smudge: the markers wait for their picture. */
  if (sx <= MAX_MOVED_ZOOM && sx >= 1.0 / MAX_MOVED_ZOOM)
    append_moved (self, snapshot, &GRAPHENE_RECT_INIT (left, top, width - left, height - top),
                  dx, sx, dy);
  /* The ruler is drawn anew for this view (a few labels: well under a
   * millisecond): stretched, its labels smeared into bars. */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, top));
  et_timeline_draw_ruler (cr, self->trace, now);
  cairo_destroy (cr);
}

static void
et_timeline_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->trace == NULL || width <= 0 || height <= 0)
    return;
  sync_size (self);
  clamp_scroll (self);
  update_picture (self, width, height);
  /* The last picture may be of a taller view (the damage banner or a
   * pane took room meanwhile): it never draws outside the timeline. */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->picture != NULL)
    append_picture (self, snapshot, width, height);
  if (picture_is_current (self))
    report_first_frame ();
  if (gtk_widget_has_visible_focus (widget))
    {
      /* Keyboard focus is visible: a frame in the accent blue. */
      GdkRGBA accent = { 0.21, 0.52, 0.89, 1 };
      GskRoundedRect frame;

      gsk_rounded_rect_init_from_rect (&frame, &GRAPHENE_RECT_INIT (1, 1, width - 2, height - 2), 0);
      gtk_snapshot_append_border (snapshot, &frame, (float[4]) { 2, 2, 2, 2 },
                                  (GdkRGBA[4]) { accent, accent, accent, accent });
    }
  /* The range, the bookmarks and the selection are overlays over the
   * cached picture. */
  if (self->has_range || (self->bookmarks != NULL && self->bookmarks->len > 0))
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      if (self->has_range)
        et_timeline_draw_range (cr, &self->view, self->range_from_ns, self->range_to_ns);
      draw_bookmarks (self, cr);
      cairo_destroy (cr);
    }
  if (self->has_selection)
    {
      /* Found again for the view drawn: a ring never stays where the
       * marker was (rows laid out again, another size or theme). */
      if (self->ring_changes != self->changes
          || memcmp (&self->ring_view, &self->view, sizeof self->view) != 0)
        locate_selection (self);
      snapshot_selection (self, snapshot);
    }
  gtk_snapshot_pop (snapshot);
}

/* ---- selection ------------------------------------------------------------ */

/* Screen readers hear the selected (focused) marker: its text, kind, time
 * and duration, as the tooltip shows them. */
static void
describe_selection (EtTimelineView *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->has_selection && self->selected.kind == ET_SHAPE_AGGREGATE)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u marker here — zoom in to tell them apart",
                                               "%u markers here — zoom in to tell them apart",
                                               self->selected.count), self->selected.count);
  else if (self->has_selection)
    et_details_summary (self->trace, self->selected.channel, self->selected.m, text);
  g_strdelimit (text->str, "\n", ';');
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text->str, -1);
}

/* The selected marker's partners across threads, asked once per
 * selection (they decode a few events). */
static void
find_flows (EtTimelineView *self)
{
  self->flow_to[0] = self->flow_from[0] = G_MAXUINT;
  if (!self->has_selection || self->trace == NULL || self->selected.kind == ET_SHAPE_AGGREGATE)
    return;
  if (!et_trace_flow_partner (self->trace, self->selected.channel, self->selected.marker, TRUE,
                              &self->flow_to[0], &self->flow_to[1]))
    self->flow_to[0] = G_MAXUINT;
  if (!et_trace_flow_partner (self->trace, self->selected.channel, self->selected.marker, FALSE,
                              &self->flow_from[0], &self->flow_from[1]))
    self->flow_from[0] = G_MAXUINT;
}

typedef struct
{
  EtLayout         *layout;
  const EtViewport *view;
  const EtMarker   *m;
  gboolean          aggregate_wanted; /* m is a grey mark's first member: that mark */
  EtShape           shape;
  gboolean          found;
  double            x;             /* the marker's x, for the aggregate below */
  EtShape           aggregate;     /* the grey mark it is merged into, if any */
  gboolean          in_aggregate;
} FindShape;

static gboolean
same_lane (FindShape *f, const EtShape *s)
{
  return et_layout_lane (f->layout, s->channel, f->m) == et_layout_lane (f->layout, s->channel, s->m);
}

static void
find_marker_shape (const EtShape *s, gpointer data)
{
  FindShape *f = data;

  if (f->aggregate_wanted)
    {
      if (s->kind == ET_SHAPE_AGGREGATE && s->m == f->m)
        f->shape = *s, f->found = TRUE;
    }
  /* A span merged into a run of narrow spans (its first one too) stays
   * selected: its ring is its own part of the run, as a click on the run
   * selects it (render/'s hit test), never the whole run. (Channels are
   * slices of one array, so the run's markers are s->m .. s->m + count - 1.) */
  else if (s->kind == ET_SHAPE_SPAN && s->count > 1 && f->m >= s->m && f->m < s->m + s->count
           && same_lane (f, s))
    {
      f->shape = *s;
      f->shape.marker = s->marker + (guint) (f->m - s->m);
      f->shape.m = f->m;
      f->shape.count = 1;
      f->shape.mixed = FALSE;
      f->shape.x0 = CLAMP (et_viewport_x (f->view, f->m->start_ns), s->x0, s->x1);
      f->shape.x1 = MAX (MIN (et_viewport_x (f->view, f->m->end_ns), s->x1), f->shape.x0 + 1);
      f->found = TRUE;
    }
  else if (s->m == f->m && s->kind != ET_SHAPE_AGGREGATE)
    f->shape = *s, f->found = TRUE;
  else if (s->kind == ET_SHAPE_AGGREGATE && f->x >= s->x0 - 0.5 && f->x <= s->x1 + 0.5
           && same_lane (f, s))
    f->aggregate = *s, f->in_aggregate = TRUE;
}

/* Where the selection is drawn in the current view: `ring`, and the
 * selected shape's box when it is its own. */
static void
locate_selection (EtTimelineView *self)
{
  FindShape f = { self->layout, &self->view };
  EtSelectionRing *r = &self->ring;

  r->kind = ET_RING_NONE;
  self->ring_view = self->view;
  self->ring_changes = self->changes;
  if (!self->has_selection || self->trace == NULL || self->layout == NULL)
    return;
  f.m = self->selected.m;
  f.aggregate_wanted = self->selected.kind == ET_SHAPE_AGGREGATE;
  f.x = et_viewport_x (&self->view, f.m->start_ns);
  et_timeline_foreach_channel_shape (self->trace, self->layout, &self->view,
                                     self->selected.channel, find_marker_shape, &f);
  if (f.found)
    {
      r->kind = ET_RING_OWN;
      r->x0 = f.shape.x0, r->y0 = f.shape.y0, r->x1 = f.shape.x1, r->y1 = f.shape.y1;
      self->selected.x0 = r->x0, self->selected.y0 = r->y0;
      self->selected.x1 = r->x1, self->selected.y1 = r->y1;
    }
  else if (f.in_aggregate)
    {
      r->kind = ET_RING_MERGED;
      r->x0 = f.aggregate.x0, r->y0 = f.aggregate.y0;
      r->x1 = f.aggregate.x1, r->y1 = f.aggregate.y1;
      r->at = f.x;
    }
}

/* @shape names the marker (or grey mark) chosen; NULL: nothing. */
static void
set_selection (EtTimelineView *self, const EtShape *shape)
{
  gboolean changed = shape == NULL ? self->has_selection
                                   : !self->has_selection || self->selected.m != shape->m
                                     || self->selected.kind != shape->kind;

  self->has_selection = shape != NULL;
  if (shape != NULL)
    self->selected = *shape;
  locate_selection (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (changed)
    {
      describe_selection (self);
      find_flows (self);
    }
  /* Chosen again, it is shown again (the report may have moved on). */
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

/* Where marker @ref (channel, index) is drawn now; out of view, the
 * nearest point of the plot towards its row and time. FALSE when @ref is
 * none or its row is not laid out (a collapsed process). */
static gboolean
flow_point (EtTimelineView *self, const guint ref[2], double *x, double *y)
{
  FindShape f = { self->layout, &self->view };
  const EtRow *row;
  const EtViewport *v = &self->view;

  if (ref[0] == G_MAXUINT || self->trace == NULL)
    return FALSE;
  f.m = &et_trace_get_channel (self->trace, ref[0])->markers[ref[1]];
  f.x = et_viewport_x (v, f.m->start_ns);
  et_timeline_foreach_channel_shape (self->trace, self->layout, v, ref[0], find_marker_shape, &f);
  if (f.found)
    {
      *x = (f.shape.x0 + f.shape.x1) / 2, *y = (f.shape.y0 + f.shape.y1) / 2;
      return TRUE;
    }
  row = et_layout_channel_row (self->layout, ref[0]);
  if (row == NULL)
    return FALSE;
  *x = CLAMP (f.x, v->label_width + 6, v->width - 6);
  *y = CLAMP (v->ruler_height + row->y - v->scroll_y + row->height / 2.0, v->ruler_height + 6,
              v->height - 6);
  return TRUE;
}

/* The view moved: the ring follows its marker (out of view: none), the
 * selection itself stays, as in Concurrency Visualizer and Perfetto. */
static void
refresh_selection (EtTimelineView *self)
{
  if (!self->has_selection)
    return;
  locate_selection (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What is at (@x, @y) in the current view; FALSE without a trace. */
static gboolean
hit_at (EtTimelineView *self, double x, double y, EtHit *hit)
{
  if (self->trace == NULL)
    return FALSE;
  sync_size (self);
  et_timeline_hit_test (self->trace, self->layout, &self->view, x, y, hit);
  return TRUE;
}

gboolean
et_timeline_view_select_at (EtTimelineView *self, double x, double y)
{
  EtHit hit;

  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  if (!hit_at (self, x, y, &hit))
    return FALSE;
  if (hit.kind == ET_HIT_ROW_LABEL)
    {
      const EtRow *row = et_layout_row (self->layout, hit.row);

      if (row->kind == ET_ROW_PROCESS)
        {
          et_layout_set_collapsed (self->layout, row->index,
                                   !et_layout_get_collapsed (self->layout, row->index));
          invalidate (self);
        }
      else if (row->kind == ET_ROW_THREAD)
        {
          et_layout_set_thread_collapsed (self->layout, row->index,
                                          !et_layout_get_thread_collapsed (self->layout, row->index));
          et_timeline_view_rows_changed (self);
        }
    }
  /* A marker chooses itself, an empty part of a row chooses nothing; a
   * header (collapsing or expanding it) or the ruler keeps the choice. */
  if (hit.kind == ET_HIT_SHAPE)
    set_selection (self, &hit.shape);
  else if (hit.kind == ET_HIT_EMPTY_ROW)
    set_selection (self, NULL);
  return hit.kind == ET_HIT_SHAPE;
}

/* Scrolls and pans to the marker (zooming in when @may_zoom and it is merged
 * with others) and selects it. */
static void
reveal (EtTimelineView *self, guint channel, guint index, gboolean may_zoom)
{
  const EtMarker *m;
  const EtRow *row;
  FindShape f = { self->layout, &self->view };
  EtViewport before;
  guint process;
  gboolean opened = FALSE;

  g_return_if_fail (ET_IS_TIMELINE_VIEW (self) && self->trace != NULL);
  m = &et_trace_get_channel (self->trace, channel)->markers[index];
  process = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, channel))->process;
  sync_size (self);
  before = self->view;
  if (et_layout_get_collapsed (self->layout, process))
    {
      et_layout_set_collapsed (self->layout, process, FALSE);
      opened = TRUE;
    }
  /* Whole and clear of the plot's edges (a flag at the trace's very end,
   * a span running past the view), zoomed out to a long span when asked. */
  et_timeline_edges_show_whole (&self->view, m, may_zoom);
  f.m = m;
  /* Zoom in around it until it is drawn alone, not merged into a grey
   * aggregate with its neighbours (bounded: 2^40 is far past 1 ns). A step
   * from marker to marker keeps the zoom the user chose: a merged marker
   * is selected in its grey mark, whose ring it takes. Rows that follow
   * the view (only threads active in it) are laid out for each range
   * first: its thread's row is there once the view holds the marker. */
  for (int i = 0; i < 40; i++)
    {
      rows_follow_range (self);
      row = et_layout_channel_row (self->layout, channel);
      if (row != NULL && (row->y < self->view.scroll_y
                          || row->y + row->height > self->view.scroll_y + self->view.height
                                                   - self->view.ruler_height))
        self->view.scroll_y = MAX (0, row->y - 3 * self->view.lane_height);
      f.x = et_viewport_x (&self->view, m->start_ns);
      f.in_aggregate = FALSE;
      et_timeline_foreach_channel_shape (self->trace, self->layout, &self->view, channel,
                                         find_marker_shape, &f);
      if (f.found)
        break;
      if (!may_zoom && f.in_aggregate)
        {
          f.shape = f.aggregate;
          f.shape.kind = m->kind == ET_MARKER_MESSAGE ? ET_SHAPE_MESSAGE : ET_SHAPE_FLAG;
          f.shape.channel = channel, f.shape.marker = index, f.shape.m = m, f.shape.count = 1;
          f.found = TRUE;
          break;
        }
      et_viewport_zoom (&self->view, et_viewport_x (&self->view, m->start_ns), 2, 1);
    }
  /* A marker already in view moves only the selection: the view did not
   * move, so nothing that follows it (the picture, the reports, the
   * overview) hears of a range change. */
  if (opened)
    view_changed (self);
  else if (memcmp (&before, &self->view, sizeof before) != 0)
    view_moved (self);
  set_selection (self, f.found ? &f.shape : NULL);
}

void
et_timeline_view_reveal_marker (EtTimelineView *self, guint channel, guint index)
{
  reveal (self, channel, index, TRUE);
}

void
et_timeline_view_center_on (EtTimelineView *self, gint64 t_ns)
{
  gint64 span;

  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  span = self->view.to_ns - self->view.from_ns;
  self->view.from_ns = t_ns - span / 2;
  self->view.to_ns = self->view.from_ns + span;
  view_moved (self);
  refresh_selection (self);
}

gboolean
et_timeline_view_get_selection (EtTimelineView *self, EtShape *shape)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  if (self->has_selection && shape != NULL)
    *shape = self->selected;
  return self->has_selection;
}

void
et_timeline_view_clear_selection (EtTimelineView *self)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->has_selection)
    set_selection (self, NULL);
}

gboolean
et_timeline_view_get_selection_ring (EtTimelineView *self, EtSelectionRing *ring)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  if (!self->has_selection)
    return FALSE;
  sync_size (self);
  locate_selection (self);
  *ring = self->ring;
  return TRUE;
}

/* ---- keyboard focus, marker to marker (et-timeline-focus.h) ----------------- */

/* In EtFocusMove order. */
static const char *const focus_actions[] = { "timeline.next-marker", "timeline.previous-marker",
                                             "timeline.marker-up", "timeline.marker-down" };

/* Ctrl+] and Ctrl+[: to where the selected marker's work went, or came
 * from (et-flows.h), at the same zoom; a bell when it has none. */
static void
on_follow_flow (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtTimelineView *self = data;
  gboolean back = g_str_equal (g_action_get_name (G_ACTION (action)), "follow-flow-back");
  guint to[2] = { back ? self->flow_from[0] : self->flow_to[0],
                  back ? self->flow_from[1] : self->flow_to[1] };

  /* A span that ends on another thread: forward is its own end. */
  if (!back && self->has_selection && to[0] == G_MAXUINT
      && self->selected.kind == ET_SHAPE_SPAN && self->selected.m->status == ET_SPAN_CROSS_THREAD)
    {
      et_timeline_view_center_on (self, self->selected.m->end_ns);
      return;
    }
  if (!self->has_selection || to[0] == G_MAXUINT)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  reveal (self, to[0], to[1], FALSE);
}

static void
on_focus_move (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (widget);
  guint channel = G_MAXUINT, index = 0, to_channel, to_index;
  EtFocusMove move = ET_FOCUS_NEXT;

  if (self->trace == NULL)
    return;
  for (guint k = 0; k < G_N_ELEMENTS (focus_actions); k++)
    if (g_str_equal (action_name, focus_actions[k]))
      move = (EtFocusMove) k;
  if (self->has_selection)
    channel = self->selected.channel, index = self->selected.marker;
  if (et_timeline_focus_move (self->trace, self->layout, channel, index, move, self->view.from_ns,
                              &to_channel, &to_index))
    reveal (self, to_channel, to_index, FALSE);
  else
    gtk_widget_error_bell (widget);
}

/* ---- range (dragged on the ruler) ------------------------------------------ */

void
et_timeline_view_select_range (EtTimelineView *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  self->has_range = TRUE;
  self->range_from_ns = MIN (from_ns, to_ns);
  self->range_to_ns = MAX (from_ns, to_ns);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_RANGE_CHANGED], 0);
}

void
et_timeline_view_clear_range (EtTimelineView *self)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (!self->has_range)
    return;
  self->has_range = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_RANGE_CHANGED], 0);
}

gboolean
et_timeline_view_get_range (EtTimelineView *self, gint64 *from_ns, gint64 *to_ns)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  if (self->has_range)
    *from_ns = self->range_from_ns, *to_ns = self->range_to_ns;
  return self->has_range;
}

static void
on_clear_range (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  et_timeline_view_clear_range (ET_TIMELINE_VIEW (widget));
}

/* Escape: the range first (the newer, passing choice), then what the
 * owner ends on "escape" (the report's duration filter), then the
 * selected marker. */
static void
on_escape (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (widget);
  gboolean handled = FALSE;

  if (self->has_range)
    {
      et_timeline_view_clear_range (self);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_ESCAPE], 0, &handled);
  if (!handled)
    et_timeline_view_clear_selection (self);
}

/* ---- view commands (the "timeline" actions) -------------------------------- */

static void
zoom_at (EtTimelineView *self, double x, double factor)
{
  et_viewport_zoom (&self->view, x, factor, 1);
  /* Zooming out stays on the trace (with its margin): never into times
   * before its start or after its end. */
  if (factor < 1)
    et_timeline_edges_clamp_zoom (&self->view, et_trace_get_duration_ns (self->trace));
  view_moved (self);
  refresh_selection (self);
}

static void
zoom_fit (EtTimelineView *self)
{
  sync_size (self);
  et_timeline_edges_whole (&self->view, et_trace_get_duration_ns (self->trace),
                           &self->view.from_ns, &self->view.to_ns);
  view_moved (self);
  refresh_selection (self);
}

/* The range selected on the ruler fills the view; without one, the
 * selected marker fills the middle 80 % of the width (a flag or message,
 * which has no width, gets 10 µs around it). */
static void
zoom_selection (EtTimelineView *self)
{
  gint64 from, to, margin;

  if (self->has_range)
    {
      self->view.from_ns = self->range_from_ns;
      self->view.to_ns = MAX (self->range_to_ns, self->range_from_ns + 10);
      self->has_range = FALSE;
      view_moved (self);
      refresh_selection (self);
      return;
    }
  if (!self->has_selection)
    return;
  if (self->selected.kind == ET_SHAPE_AGGREGATE)
    {
      zoom_at (self, (self->selected.x0 + self->selected.x1) / 2, 4);
      return;
    }
  from = self->selected.m->start_ns;
  to = self->selected.m->end_ns;
  if (to - from < 1000)
    from -= 5000, to += 5000;
  margin = (to - from) / 8;
  self->view.from_ns = from - margin;
  self->view.to_ns = to + margin;
  view_moved (self);
  refresh_selection (self);
}

static void
on_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtTimelineView *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  double middle;

  if (self->trace == NULL)
    return;
  sync_size (self);
  middle = self->view.label_width + (self->view.width - self->view.label_width) / 2.0;
  if (g_str_equal (name, "zoom-in"))
    zoom_at (self, middle, 1.5);
  else if (g_str_equal (name, "zoom-out"))
    zoom_at (self, middle, 1 / 1.5);
  else if (g_str_equal (name, "zoom-fit"))
    zoom_fit (self);
  else if (g_str_equal (name, "zoom-selection"))
    zoom_selection (self);
  else
    {
      double quarter = (self->view.width - self->view.label_width) / 4.0;

      et_viewport_pan (&self->view, g_str_equal (name, "pan-left") ? quarter : -quarter);
      view_moved (self);
      refresh_selection (self);
    }
}

/* ---- channels (the row menu) -------------------------------------------------- */

static void
update_channel_actions (EtTimelineView *self)
{
  GAction *show_all = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "show-all-channels");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (show_all),
                               self->layout != NULL && et_layout_n_hidden_channels (self->layout) > 0);
}

static void
on_channel_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtTimelineView *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  guint c = parameter != NULL ? g_variant_get_uint32 (parameter) : 0;

  if (self->trace == NULL || c >= et_trace_get_n_channels (self->trace))
    return;
  if (g_str_equal (name, "hide-channel"))
    et_layout_set_channel_visible (self->layout, c, FALSE);
  else if (g_str_equal (name, "collapse-channel"))
    et_layout_set_channel_collapsed (self->layout, c, !et_layout_get_channel_collapsed (self->layout, c));
  else if (g_str_equal (name, "move-channel-to-top"))
    {
      et_layout_move_channel_to_top (self->layout, c);
      self->view.scroll_y = 0;
    }
  else
    et_layout_show_all_channels (self->layout);
  et_timeline_view_rows_changed (self);
}

/* What follows the rows being laid out again. */
static void
rows_laid_out (EtTimelineView *self)
{
  update_channel_actions (self);
  clamp_scroll (self);
  view_changed (self);
  refresh_selection (self);
  g_signal_emit (self, signals[SIGNAL_LAYOUT_CHANGED], 0);
}

void
et_timeline_view_rows_changed (EtTimelineView *self)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->layout == NULL)
    return;
  et_layout_update (self->layout, self->view.lane_height);
  et_timeline_threads_save (self->layout, self->trace);
  rows_laid_out (self);
}

static void
append_channel_item (GMenu *menu, const char *label, const char *action, guint channel)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint32 (channel));
  g_menu_append_item (menu, item);
}

/* The menu of a channel's row, of a thread's header (@channel G_MAXUINT),
 * or of a marker in a collapsed thread's row (both). */
static GMenuModel *
channel_menu_model (EtTimelineView *self, guint thread, guint channel)
{
  GMenu *menu = et_timeline_threads_menu (self->layout, thread);
  g_autoptr(GMenu) one = g_menu_new ();
  g_autoptr(GMenu) all = g_menu_new ();

  if (channel == G_MAXUINT)
    {
      g_menu_append (all, _("Show Hidden Channels"), "timeline.show-all-channels");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
      return G_MENU_MODEL (menu);
    }
  append_channel_item (one, _("Hide Channel"), "timeline.hide-channel", channel);
  append_channel_item (one, et_layout_get_channel_collapsed (self->layout, channel)
                            ? _("Expand Lanes") : _("Collapse Lanes"),
                       "timeline.collapse-channel", channel);
  append_channel_item (one, _("Move to Top"), "timeline.move-channel-to-top", channel);
  g_menu_append (all, _("Show Hidden Channels"), "timeline.show-all-channels");
  g_menu_prepend_section (menu, NULL, G_MENU_MODEL (one));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
  return G_MENU_MODEL (menu);
}

/* The row menu of the channel under (@x, @y), there; FALSE when no channel
 * row is there. */
gboolean
et_timeline_view_popup_channel_menu (EtTimelineView *self, double x, double y)
{
  g_autoptr(GMenuModel) model = NULL;
  const EtRow *row;
  EtHit hit;

  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  if (!hit_at (self, x, y, &hit)
      || (hit.kind != ET_HIT_ROW_LABEL && hit.kind != ET_HIT_EMPTY_ROW && hit.kind != ET_HIT_SHAPE))
    return FALSE;
  row = et_layout_row (self->layout, hit.row);
  if (row->kind == ET_ROW_PROCESS)
    return FALSE;
  if (row->kind == ET_ROW_THREAD)
    model = channel_menu_model (self, row->index,
                                hit.kind == ET_HIT_SHAPE ? hit.shape.channel : G_MAXUINT);
  else
    model = channel_menu_model (self, et_trace_channel_thread (self->trace, row->index),
                                row->index);
  if (self->channel_menu == NULL)
    {
      self->channel_menu = gtk_popover_menu_new_from_model (NULL);
      gtk_widget_set_parent (self->channel_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->channel_menu), FALSE);
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->channel_menu), model);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->channel_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->channel_menu));
  return TRUE;
}

static void
on_secondary_click (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  if (et_timeline_view_popup_channel_menu (data, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* Shift+F10 or the Menu key: the menu of the selected marker's channel,
 * or of the first channel in view. */
static void
on_menu_key (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (widget);
  double y = self->view.ruler_height + 4;

  if (self->has_selection)
    y = (self->selected.y0 + self->selected.y1) / 2;
  else
    for (guint r = 0; self->layout != NULL && r < et_layout_n_rows (self->layout); r++)
      {
        const EtRow *row = et_layout_row (self->layout, r);
        double top = self->view.ruler_height + row->y - self->view.scroll_y;
        if (row->kind != ET_ROW_PROCESS && top >= self->view.ruler_height)
          {
            y = top + 2;
            break;
          }
      }
  et_timeline_view_popup_channel_menu (self, self->view.label_width / 2.0, y);
}

/* ---- input ------------------------------------------------------------------ */

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  EtTimelineView *self = data;
  GdkModifierType mods;

  if (self->trace == NULL)
    return FALSE;
  mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  if (mods & GDK_CONTROL_MASK)
    {
      zoom_at (self, self->pointer_x, pow (1.25, -dy));
      return TRUE;
    }
  if ((mods & GDK_SHIFT_MASK) || dx != 0)
    et_viewport_pan (&self->view, -((mods & GDK_SHIFT_MASK) ? dy : dx) * 40);
  else
    {
      self->view.scroll_y += (int) (dy * 40);
      clamp_scroll (self);
    }
  view_moved (self);
  refresh_selection (self);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, gpointer data)
{
  ET_TIMELINE_VIEW (data)->pointer_x = x;
}

static void
on_pinch_begin (GtkGesture *gesture, GdkEventSequence *sequence, gpointer data)
{
  ET_TIMELINE_VIEW (data)->pinch_last = 1;
}

static void
on_pinch (GtkGestureZoom *gesture, double scale, gpointer data)
{
  EtTimelineView *self = data;

  if (self->trace == NULL || scale <= 0)
    return;
  zoom_at (self, self->pointer_x, scale / self->pinch_last);
  self->pinch_last = scale;
}

/* A drag on the ruler selects a time range; anywhere else it pans. */
static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, gpointer data)
{
  EtTimelineView *self = data;

  self->drag_from_ns = self->view.from_ns;
  self->drag_from_scroll = self->view.scroll_y;
  self->range_drag = self->trace != NULL && y < self->view.ruler_height
                     && x >= self->view.label_width;
  self->range_start_x = x;
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtTimelineView *self = data;

  /* A click on the ruler, not a drag: no range (and an old one goes). */
  if (self->range_drag && fabs (dx) < 3)
    et_timeline_view_clear_range (self);
  self->range_drag = FALSE;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtTimelineView *self = data;
  gint64 span = self->view.to_ns - self->view.from_ns;

  if (self->trace == NULL)
    return;
  if (self->range_drag)
    {
      if (fabs (dx) >= 3)
        et_timeline_view_select_range (self, et_viewport_time (&self->view, self->range_start_x),
                                       et_viewport_time (&self->view, self->range_start_x + dx));
      return;
    }
  self->view.from_ns = self->drag_from_ns
                       - (gint64) (dx / MAX (1, self->view.width - self->view.label_width) * span);
  self->view.to_ns = self->view.from_ns + span;
  self->view.scroll_y = self->drag_from_scroll - (int) dy;
  clamp_scroll (self);
  view_moved (self);
  refresh_selection (self);
}

static void
on_click (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  gtk_widget_grab_focus (GTK_WIDGET (data));
  et_timeline_view_select_at (data, x, y);
}

char *
et_timeline_view_tooltip_at (EtTimelineView *self, double x, double y)
{
  GString *text;
  EtCpuHit cpu;
  EtHit hit;

  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  if (self->trace == NULL)
    return NULL;
  et_timeline_hit_test (self->trace, self->layout, &self->view, x, y, &hit);
  if (hit.kind != ET_HIT_SHAPE)
    {
      /* Over a thread header's CPU-use band: the use of the bar there. */
      /* Estimated from samples, a bar without one has no data: it says
       * nothing (switches say 0 % as a fact). */
      if (et_cpu_strip_hit_test (self->trace, self->layout, &self->view, x, y, &cpu)
          && cpu.source != ET_CPU_NONE && (cpu.source != ET_CPU_FROM_SAMPLES || cpu.samples > 0))
        return et_i18n_cpu_use (cpu.fraction, cpu.samples, cpu.source);
      return NULL;
    }
  text = g_string_new (NULL);
  if (hit.shape.kind == ET_SHAPE_AGGREGATE)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u marker here — zoom in to tell them apart",
                                               "%u markers here — zoom in to tell them apart",
                                               hit.shape.count), hit.shape.count);
  else
    et_details_summary (self->trace, hit.shape.channel, hit.shape.m, text);
  return g_string_free (text, FALSE);
}

/* Hover: what is under the pointer, in a few lines (et-details). */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  g_autofree char *text = et_timeline_view_tooltip_at (ET_TIMELINE_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ---- construction --------------------------------------------------------- */

/* Light or dark as the desktop prefers; high contrast with GTK's own
 * HighContrast and HighContrastInverse themes (white on black). */
static void
on_theme_changed (GtkSettings *settings, GParamSpec *pspec, gpointer data)
{
  EtTimelineView *self = data;
  g_autofree char *name = NULL;
  gboolean prefer_dark;

  g_object_get (settings, "gtk-application-prefer-dark-theme", &prefer_dark,
                "gtk-theme-name", &name, NULL);
  self->view.high_contrast = name != NULL && g_str_has_prefix (name, "HighContrast");
  self->view.dark = prefer_dark || g_str_equal (name ? name : "", "HighContrastInverse");
  if (pspec != NULL)
    invalidate (self);
}

static void
add_controllers (EtTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *pinch = gtk_gesture_zoom_new ();
  GtkGesture *menu_click = gtk_gesture_click_new ();

  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  g_signal_connect (pinch, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (on_pinch), self);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (menu_click), GDK_BUTTON_SECONDARY);
  g_signal_connect (menu_click, "pressed", G_CALLBACK (on_secondary_click), self);
  gtk_widget_add_controller (widget, scroll);
  gtk_widget_add_controller (widget, motion);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (pinch));
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (menu_click));
}

static void
add_actions (EtTimelineView *self)
{
  static const char *const names[] = { "zoom-in", "zoom-out", "zoom-fit", "zoom-selection",
                                       "pan-left", "pan-right" };

  self->actions = g_simple_action_group_new ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GSimpleAction) action = g_simple_action_new (names[i], NULL);

      g_signal_connect (action, "activate", G_CALLBACK (on_action), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
    }
  for (guint i = 0; i < 4; i++)
    {
      static const char *const channel_actions[] = { "hide-channel", "collapse-channel",
                                                     "move-channel-to-top", "show-all-channels" };
      g_autoptr(GSimpleAction) action = g_simple_action_new (channel_actions[i],
                                                             i < 3 ? G_VARIANT_TYPE_UINT32 : NULL);

      g_signal_connect (action, "activate", G_CALLBACK (on_channel_action), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
    }
  for (guint i = 0; i < 2; i++)
    {
      static const char *const flow_actions[] = { "follow-flow", "follow-flow-back" };
      g_autoptr(GSimpleAction) action = g_simple_action_new (flow_actions[i], NULL);

      g_signal_connect (action, "activate", G_CALLBACK (on_follow_flow), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
    }
  et_timeline_threads_add_actions (G_ACTION_MAP (self->actions), self);
  /* The view answers to its own "timeline." actions even when it is used
   * outside a window that inserts them. */
  gtk_widget_insert_action_group (GTK_WIDGET (self), "timeline", G_ACTION_GROUP (self->actions));
}

static void
et_timeline_view_dispose (GObject *object)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (object);

  g_signal_handlers_disconnect_by_data (gtk_settings_get_default (), self);
  g_clear_pointer (&self->picture, gsk_render_node_unref);
  g_clear_pointer (&self->bookmarks, g_array_unref);
  g_clear_pointer (&self->highlights, g_hash_table_unref);
  g_clear_pointer (&self->channel_menu, gtk_widget_unparent);
  g_clear_pointer (&self->find_popover, gtk_widget_unparent);
  g_clear_object (&self->trace);
  self->layout = NULL;
  G_OBJECT_CLASS (et_timeline_view_parent_class)->dispose (object);
}

static void
et_timeline_view_finalize (GObject *object)
{
  g_clear_object (&ET_TIMELINE_VIEW (object)->actions);
  G_OBJECT_CLASS (et_timeline_view_parent_class)->finalize (object);
}

static void
et_timeline_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  EtTimelineView *self = ET_TIMELINE_VIEW (widget);
  EtViewport was = self->view;
  gint64 from, to, duration;

  sync_size (self);
  /* The whole trace stays whole: its margin is in pixels of the width. */
  if (self->trace != NULL && was.width != self->view.width)
    {
      duration = et_trace_get_duration_ns (self->trace);
      et_timeline_edges_whole (&was, duration, &from, &to);
      if (from == was.from_ns && to == was.to_ns)
        {
          et_timeline_edges_whole (&self->view, duration, &self->view.from_ns, &self->view.to_ns);
          view_moved (self);
        }
    }
  clamp_scroll (self);
  refresh_selection (self);
}

static void
et_timeline_view_class_init (EtTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  /* Plain keys only while the timeline has focus, so they never reach
   * past a text entry; the Ctrl+ variants are application accelerators. */
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_w, "timeline.zoom-in" }, { GDK_KEY_s, "timeline.zoom-out" },
    { GDK_KEY_a, "timeline.pan-left" }, { GDK_KEY_d, "timeline.pan-right" },
    { GDK_KEY_z, "timeline.zoom-selection" }, { GDK_KEY_Home, "timeline.zoom-fit" },
    /* F fits the selection too, as Perfetto's F does. */
    { GDK_KEY_f, "timeline.zoom-selection" },
    /* M marks a time (the window keeps the bookmarks). */
    { GDK_KEY_m, "win.add-bookmark" },
    /* The arrows move keyboard focus marker to marker. */
    { GDK_KEY_Right, "timeline.next-marker" }, { GDK_KEY_Left, "timeline.previous-marker" },
    { GDK_KEY_Up, "timeline.marker-up" }, { GDK_KEY_Down, "timeline.marker-down" },
  };

  object_class->dispose = et_timeline_view_dispose;
  object_class->finalize = et_timeline_view_finalize;
  widget_class->snapshot = et_timeline_view_snapshot;
  widget_class->size_allocate = et_timeline_view_size_allocate;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_widget_class_add_binding_action (widget_class, keys[i].key, 0, keys[i].action, NULL);
  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  for (guint i = 0; i < G_N_ELEMENTS (focus_actions); i++)
    gtk_widget_class_install_action (widget_class, focus_actions[i], NULL, on_focus_move);
  signals[SIGNAL_SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_RANGE_CHANGED] =
    g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Channels hidden, shown, collapsed or moved from the row menu. */
  signals[SIGNAL_LAYOUT_CHANGED] =
    g_signal_new ("layout-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Escape with no range: TRUE from a handler when it ended something of
   * its own; else the selection ends. */
  signals[SIGNAL_ESCAPE] =
    g_signal_new ("escape", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 0);
  gtk_widget_class_install_action (widget_class, "timeline.channel-menu", NULL, on_menu_key);
  gtk_widget_class_install_action (widget_class, "timeline.clear-range", NULL, on_clear_range);
  gtk_widget_class_install_action (widget_class, "timeline.escape", NULL, on_escape);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.escape", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "timeline.channel-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "timeline.channel-menu", NULL);
}

static void
et_timeline_view_init (EtTimelineView *self)
{
  GtkSettings *settings = gtk_settings_get_default ();

  et_viewport_init (&self->view, 1200, 700);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  /* The focus frame comes and goes with the focus. */
  g_signal_connect (self, "state-flags-changed", G_CALLBACK (gtk_widget_queue_draw), NULL);
  add_controllers (self);
  add_actions (self);
  /* Follow the desktop's light/dark preference and high-contrast theme. */
  on_theme_changed (settings, NULL, self);
  g_signal_connect (settings, "notify::gtk-application-prefer-dark-theme",
                    G_CALLBACK (on_theme_changed), self);
  g_signal_connect (settings, "notify::gtk-theme-name", G_CALLBACK (on_theme_changed), self);
}

GtkWidget *
et_timeline_view_new (void)
{
  return g_object_new (ET_TYPE_TIMELINE_VIEW, NULL);
}

void
et_timeline_view_set_trace (EtTimelineView *self, EtTrace *trace, EtLayout *layout)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  g_set_object (&self->trace, trace);
  self->layout = layout;
  self->changes++;
  self->draw_us = 0;                /* a new trace: its views decide */
  self->draw_markers = 0;
  if (trace == NULL)
    g_clear_pointer (&self->picture, gsk_render_node_unref);
  self->has_selection = FALSE;
  self->has_range = FALSE;
  if (trace != NULL)
    {
      g_autofree char *name = g_path_get_basename (et_trace_get_path (trace));
      g_autofree char *label = g_strdup_printf (_("Timeline of %s"), name);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }
  g_clear_pointer (&self->highlights, g_hash_table_unref);
  update_channel_actions (self);
  if (layout != NULL && trace != NULL)
    et_timeline_threads_restore (layout, trace);
  et_timeline_threads_sync_actions (G_ACTION_MAP (self->actions), layout);
  if (layout != NULL)
    {
      et_layout_freeze (layout);
      et_layout_set_compact (layout, self->compact);
      et_layout_set_lane_height (layout, self->view.lane_height);
      et_layout_thaw (layout);
    }
  if (trace != NULL)
    zoom_fit (self);
  else
    invalidate (self);
}

EtLayout *
et_timeline_view_get_layout (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  return self->layout;
}

EtTrace *
et_timeline_view_get_trace (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  return self->trace;
}

void
et_timeline_view_find_track (EtTimelineView *self)
{
  GtkWidget *entry;

  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->trace == NULL)
    return;
  if (self->find_popover == NULL)
    {
      self->find_popover = gtk_popover_new ();
      gtk_widget_set_parent (self->find_popover, GTK_WIDGET (self));
      gtk_popover_set_child (GTK_POPOVER (self->find_popover),
                             et_timeline_threads_find_new (self, GTK_POPOVER (self->find_popover)));
      gtk_popover_set_position (GTK_POPOVER (self->find_popover), GTK_POS_BOTTOM);
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->find_popover),
                               &(GdkRectangle) { self->view.label_width / 2, self->view.ruler_height,
                                                 1, 1 });
  entry = gtk_widget_get_first_child (gtk_popover_get_child (GTK_POPOVER (self->find_popover)));
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (entry, "search-changed");
  gtk_popover_popup (GTK_POPOVER (self->find_popover));
  gtk_widget_grab_focus (entry);
}

GtkWidget *
et_timeline_view_get_find_popover (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  return self->find_popover;
}

GActionGroup *
et_timeline_view_get_actions (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  return G_ACTION_GROUP (self->actions);
}

EtViewport *
et_timeline_view_get_viewport (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), NULL);
  return &self->view;
}

void
et_timeline_view_layout_changed (EtTimelineView *self)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  clamp_scroll (self);
  view_changed (self);
  refresh_selection (self);
}

static guint top_row (EtTimelineView *self);

/* The thread a row belongs to, or G_MAXUINT for a process's. */
static guint
thread_of_row (EtTimelineView *self, const EtRow *row)
{
  if (row->kind == ET_ROW_THREAD)
    return row->index;
  if (row->kind == ET_ROW_CHANNEL)
    return et_trace_channel_thread (self->trace, row->index);
  return G_MAXUINT;
}

/* Only threads active in view (et_layout_set_active_only): the rows follow
 * the view's range; the thread at the top stays where it was on screen
 * while it has a row. */
static void
rows_follow_range (EtTimelineView *self)
{
  guint top, thread = G_MAXUINT;
  int offset = 0;

  if (self->layout == NULL || !et_layout_get_active_only (self->layout))
    return;
  top = top_row (self);
  if (top != G_MAXUINT)
    {
      const EtRow *row = et_layout_row (self->layout, top);

      thread = thread_of_row (self, row);
      offset = row->y - self->view.scroll_y;
    }
  if (!et_layout_set_active_range (self->layout, self->view.from_ns, self->view.to_ns))
    return;
  if (thread != G_MAXUINT && et_layout_thread_row (self->layout, thread) != NULL)
    self->view.scroll_y = et_layout_thread_row (self->layout, thread)->y - offset;
  self->changes++;
  clamp_scroll (self);
  update_channel_actions (self);
  refresh_selection (self);
  g_signal_emit (self, signals[SIGNAL_LAYOUT_CHANGED], 0);
}

void
et_timeline_view_set_active_only (EtTimelineView *self, gboolean active_only)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->layout == NULL || et_layout_get_active_only (self->layout) == !!active_only)
    return;
  et_layout_set_active_range (self->layout, self->view.from_ns, self->view.to_ns);
  et_layout_set_active_only (self->layout, active_only);
  et_timeline_threads_save (self->layout, self->trace);
  self->changes++;
  rows_laid_out (self);
}

/* The index of the row at the top of the view (or G_MAXUINT). */
static guint
top_row (EtTimelineView *self)
{
  guint lo = 0, hi = self->layout != NULL ? et_layout_n_rows (self->layout) : 0;

  if (hi == 0)
    return G_MAXUINT;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (et_layout_row (self->layout, mid)->y <= self->view.scroll_y)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

void
et_timeline_view_set_compact (EtTimelineView *self, gboolean compact)
{
  guint anchor;

  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->compact == !!compact)
    return;
  self->compact = !!compact;
  self->view.lane_height = compact ? ET_LANE_HEIGHT_COMPACT : ET_LANE_HEIGHT;
  if (self->layout == NULL)
    return;
  /* The row at the top stays at the top: the same rows, other heights. */
  anchor = top_row (self);
  et_layout_freeze (self->layout);
  et_layout_set_compact (self->layout, compact);
  et_layout_set_lane_height (self->layout, self->view.lane_height);
  et_layout_thaw (self->layout);
  if (anchor != G_MAXUINT && anchor < et_layout_n_rows (self->layout))
    self->view.scroll_y = et_layout_row (self->layout, anchor)->y;
  self->changes++;
  rows_laid_out (self);
}

gboolean
et_timeline_view_get_compact (EtTimelineView *self)
{
  g_return_val_if_fail (ET_IS_TIMELINE_VIEW (self), FALSE);
  return self->compact;
}

void
et_timeline_view_set_wall_clock (EtTimelineView *self, gboolean wall_clock)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (self->view.wall_clock == !!wall_clock)
    return;
  self->view.wall_clock = !!wall_clock;
  invalidate (self);
}

void
et_timeline_view_set_highlights (EtTimelineView *self, GHashTable *markers)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  if (markers == self->highlights)
    return;
  g_clear_pointer (&self->highlights, g_hash_table_unref);
  self->highlights = markers ? g_hash_table_ref (markers) : NULL;
  invalidate (self);                /* the rings are in the picture */
}

void
et_timeline_view_set_bookmarks (EtTimelineView *self, const gint64 *times, guint n)
{
  g_return_if_fail (ET_IS_TIMELINE_VIEW (self));
  g_clear_pointer (&self->bookmarks, g_array_unref);
  self->bookmarks = g_array_sized_new (FALSE, FALSE, sizeof (gint64), n);
  g_array_append_vals (self->bookmarks, times, n);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
