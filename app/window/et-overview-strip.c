/* et-overview-strip.c — see et-overview-strip.h.
 *
 *   set_trace / refresh ─ GTask: et_overview_density (render/) on a copy
 *   of the layout's filters ─ snapshot: et_overview_draw ─ click/drag:
 *   "seek"
 */
#include "et-overview-strip.h"
#include "et-timeline-edges.h"

#include <glib/gi18n.h>

/* One bin per pixel of a wide window; drawing scales them to the width. */
#define N_BINS 1024

struct _EtOverviewStrip
{
  GtkWidget          parent_instance;

  EtTrace           *trace;
  EtLayout          *layout;       /* not owned */
  const EtViewport  *viewport;     /* the timeline's, not owned */
  EtOverviewDensity *density;
  GCancellable      *counting;     /* the count on its way, if any */
};

G_DEFINE_FINAL_TYPE (EtOverviewStrip, et_overview_strip, GTK_TYPE_WIDGET)

enum { SIGNAL_SEEK, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct
{
  EtTrace        *trace;
  EtLayoutFilter *filter;
} Count;

static void
count_free (gpointer data)
{
  Count *c = data;

  g_object_unref (c->trace);
  et_layout_filter_free (c->filter);
  g_free (c);
}

static void
count_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Count *c = data;

  g_task_return_pointer (task, et_overview_density (c->trace, c->filter, N_BINS), g_free);
}

static void
counted (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtOverviewStrip) self = data;
  EtOverviewDensity *density = g_task_propagate_pointer (G_TASK (result), NULL);

  if (g_task_get_cancellable (G_TASK (result)) != self->counting)
    {
      g_free (density);                 /* superseded by a newer count */
      return;
    }
  g_clear_object (&self->counting);
  g_free (self->density);
  self->density = density;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
et_overview_strip_refresh (EtOverviewStrip *self)
{
  g_autoptr(GTask) task = NULL;
  Count *c;

  g_return_if_fail (ET_IS_OVERVIEW_STRIP (self));
  if (self->counting != NULL)
    g_cancellable_cancel (self->counting);
  g_clear_object (&self->counting);
  if (self->trace == NULL)
    return;
  c = g_new0 (Count, 1);
  c->trace = g_object_ref (self->trace);
  c->filter = et_layout_filter_copy (self->layout);
  self->counting = g_cancellable_new ();
  task = g_task_new (NULL, self->counting, counted, g_object_ref (self));
  g_task_set_task_data (task, c, count_free);
  g_task_run_in_thread (task, count_in_thread);
}

/* The trace's width in the strip, between its margins. */
static double
strip_width (EtOverviewStrip *self)
{
  double left = self->viewport != NULL ? self->viewport->label_width : 0;

  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - left - 2 * ET_EDGE_PX, 1);
}

static void
et_overview_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  EtOverviewStrip *self = ET_OVERVIEW_STRIP (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->density == NULL || self->viewport == NULL || width <= 0)
    return;
  /* Under the ruler's scale: the strip starts where the plot does, right
   * of the row labels' column, with the whole trace's margin at each end
   * (et-timeline-edges.h), so the trace's very first and last markers are
   * not under the box's edges and line up with the whole timeline. */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_rectangle (cr, self->viewport->label_width, 0, width - self->viewport->label_width, height);
  cairo_clip (cr);
  cairo_translate (cr, self->viewport->label_width + ET_EDGE_PX, 0);
  et_overview_draw (cr, self->density, self->viewport, strip_width (self), height);
  cairo_destroy (cr);
}

static void
seek_to (EtOverviewStrip *self, double x)
{
  double left = (self->viewport != NULL ? self->viewport->label_width : 0) + ET_EDGE_PX;

  if (self->density != NULL)
    g_signal_emit (self, signals[SIGNAL_SEEK], 0,
                   et_overview_time (self->density, x - left, strip_width (self)));
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  seek_to (data, x);
}

static void
on_drag (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  seek_to (data, x + dx);
}

static void
et_overview_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? 28 : 100;
}

static void
et_overview_strip_dispose (GObject *object)
{
  EtOverviewStrip *self = ET_OVERVIEW_STRIP (object);

  if (self->counting != NULL)
    g_cancellable_cancel (self->counting);
  g_clear_object (&self->counting);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->density, g_free);
  G_OBJECT_CLASS (et_overview_strip_parent_class)->dispose (object);
}

static void
et_overview_strip_class_init (EtOverviewStripClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_overview_strip_dispose;
  widget_class->snapshot = et_overview_strip_snapshot;
  widget_class->measure = et_overview_strip_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
  signals[SIGNAL_SEEK] =
    g_signal_new ("seek", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT64);
}

static void
et_overview_strip_init (EtOverviewStrip *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("The whole trace: markers over time, the visible range boxed. "
                                 "Click or drag to move there."));
}

GtkWidget *
et_overview_strip_new (void)
{
  return g_object_new (ET_TYPE_OVERVIEW_STRIP, NULL);
}

void
et_overview_strip_set_trace (EtOverviewStrip *self, EtTrace *trace, EtLayout *layout,
                             const EtViewport *viewport)
{
  g_return_if_fail (ET_IS_OVERVIEW_STRIP (self));
  g_set_object (&self->trace, trace);
  self->layout = layout;
  self->viewport = viewport;
  g_clear_pointer (&self->density, g_free);
  et_overview_strip_refresh (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const EtOverviewDensity *
et_overview_strip_get_density (EtOverviewStrip *self)
{
  g_return_val_if_fail (ET_IS_OVERVIEW_STRIP (self), NULL);
  return self->density;
}

gboolean
et_overview_strip_is_busy (EtOverviewStrip *self)
{
  g_return_val_if_fail (ET_IS_OVERVIEW_STRIP (self), FALSE);
  return self->counting != NULL;
}
