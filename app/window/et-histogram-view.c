/* et-histogram-view.c — see et-histogram-view.h.
 *
 *   EtStatsHistogram ─ snapshot: a bar per bin (height ∝ count), the
 *   shortest and longest durations under them ─ drag: whole bins ─
 *   "selected" (min_ns, max_ns)
 */
#include "et-histogram-view.h"
#include "et-i18n.h"
#include "et-timeline-render.h"

#define AXIS 16   /* the labels' line under the bars */

struct _EtHistogramView
{
  GtkWidget         parent_instance;

  EtStatsHistogram *histogram;
  gint              drag_from, drag_to;   /* bins being dragged over, or -1 */
  gint              chosen_first, chosen_last;   /* the last selection, or -1 */
};

G_DEFINE_FINAL_TYPE (EtHistogramView, et_histogram_view, GTK_TYPE_WIDGET)

enum { SIGNAL_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static gint
bin_at (EtHistogramView *self, double x)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self));

  if (self->histogram == NULL || self->histogram->n_bins == 0 || w <= 0)
    return -1;
  return CLAMP ((gint) (x / w * self->histogram->n_bins), 0, (gint) self->histogram->n_bins - 1);
}

static void
draw_label (GtkWidget *widget, cairo_t *cr, gint64 ns, double x, double y, gboolean right)
{
  g_autoptr(GString) text = g_string_new (NULL);
  PangoLayout *layout;
  int w, h;

  et_format_duration_display (ns, text);
  layout = gtk_widget_create_pango_layout (widget, text->str);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, right ? x - w : x, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* The y axis: a faint line at the fullest bar's height and its count, so
 * the bars' heights read as numbers. */
static void
draw_peak (GtkWidget *widget, cairo_t *cr, guint64 peak, double w, double height)
{
  g_autoptr(GString) text = g_string_new (NULL);
  PangoLayout *layout;

  if (peak == 0)
    return;
  cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.5);
  cairo_rectangle (cr, 0, 2, w, 1);
  cairo_fill (cr);
  et_i18n_count (peak, text);
  layout = gtk_widget_create_pango_layout (widget, text->str);
  cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
  cairo_move_to (cr, 2, 4);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
et_histogram_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  EtHistogramView *self = ET_HISTOGRAM_VIEW (widget);
  const EtStatsHistogram *h = self->histogram;
  double w = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget) - AXIS;
  guint64 peak = 0;
  gint lo = MIN (self->drag_from, self->drag_to), hi = MAX (self->drag_from, self->drag_to);
  cairo_t *cr;

  if (h == NULL || h->n_bins == 0 || w <= 0 || height <= 0)
    return;
  if (self->drag_from < 0)
    lo = self->chosen_first, hi = self->chosen_last;
  for (guint b = 0; b < h->n_bins; b++)
    peak = MAX (peak, h->counts[b]);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, height + AXIS));
  for (guint b = 0; b < h->n_bins; b++)
    {
      double x0 = b * w / h->n_bins, bh = peak ? (double) h->counts[b] / peak * (height - 2) : 0;
      gboolean chosen = lo >= 0 && (gint) b >= lo && (gint) b <= hi;

      /* The selection in amber (as the ruler's range), the rest in the
       * bars' blue. */
      if (chosen)
        cairo_set_source_rgba (cr, 1.0, 0.6, 0.0, 0.25);
      if (chosen)
        cairo_rectangle (cr, x0, 0, w / h->n_bins, height), cairo_fill (cr);
      cairo_set_source_rgb (cr, chosen ? 0.85 : 0.36, chosen ? 0.5 : 0.22, chosen ? 0.0 : 0.93);
      if (h->counts[b] > 0)
        cairo_rectangle (cr, x0 + 0.5, height - MAX (bh, 1), MAX (w / h->n_bins - 1, 1), MAX (bh, 1));
      cairo_fill (cr);
    }
  cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
  draw_label (widget, cr, h->edges[0], 2, height + 1, FALSE);
  draw_label (widget, cr, h->edges[h->n_bins], w - 2, height + 1, TRUE);
  draw_peak (widget, cr, peak, w, height);
  cairo_destroy (cr);
}

char *
et_histogram_view_tooltip_at (EtHistogramView *self, double x)
{
  g_autoptr(GString) count = g_string_new (NULL), lo = g_string_new (NULL);
  g_autoptr(GString) hi = g_string_new (NULL);
  gint b;

  g_return_val_if_fail (ET_IS_HISTOGRAM_VIEW (self), NULL);
  b = bin_at (self, x);
  if (b < 0)
    return NULL;
  et_i18n_count (self->histogram->counts[b], count);
  et_format_duration_display (self->histogram->edges[b], lo);
  et_format_duration_display (self->histogram->edges[b + 1], hi);
  /* Translators: a duration histogram's bar: its spans, its durations;
   * then how to list them. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s span lasting %s to %s\n"
                                       "Drag across bars to list those spans in the Markers report",
                                       "%s spans lasting %s to %s\n"
                                       "Drag across bars to list those spans in the Markers report",
                                       (gulong) MIN (self->histogram->counts[b], G_MAXULONG)),
                          count->str, lo->str, hi->str);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  g_autofree char *text = et_histogram_view_tooltip_at (ET_HISTOGRAM_VIEW (widget), x);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
et_histogram_view_select_bins (EtHistogramView *self, guint first, guint last)
{
  g_return_if_fail (ET_IS_HISTOGRAM_VIEW (self));
  g_return_if_fail (self->histogram != NULL && first <= last && last < self->histogram->n_bins);
  self->chosen_first = (gint) first, self->chosen_last = (gint) last;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_SELECTED], 0, self->histogram->edges[first],
                 self->histogram->edges[last + 1]);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, gpointer data)
{
  EtHistogramView *self = data;

  self->drag_from = self->drag_to = bin_at (self, x);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtHistogramView *self = data;
  double x, y;

  gtk_gesture_drag_get_start_point (gesture, &x, &y);
  self->drag_to = bin_at (self, x + dx);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtHistogramView *self = data;
  gint from = self->drag_from, to = self->drag_to;

  self->drag_from = self->drag_to = -1;
  if (from >= 0 && to >= 0)
    et_histogram_view_select_bins (self, (guint) MIN (from, to), (guint) MAX (from, to));
}

static void
et_histogram_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_VERTICAL ? 60 : 120;
  *natural = orientation == GTK_ORIENTATION_VERTICAL ? 110 : 400;
}

static void
et_histogram_view_dispose (GObject *object)
{
  g_clear_pointer (&ET_HISTOGRAM_VIEW (object)->histogram, et_stats_histogram_free);
  G_OBJECT_CLASS (et_histogram_view_parent_class)->dispose (object);
}

static void
et_histogram_view_class_init (EtHistogramViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_histogram_view_dispose;
  widget_class->snapshot = et_histogram_view_snapshot;
  widget_class->measure = et_histogram_view_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
  signals[SIGNAL_SELECTED] =
    g_signal_new ("selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
}

static void
et_histogram_view_init (EtHistogramView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->drag_from = self->drag_to = self->chosen_first = self->chosen_last = -1;
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
et_histogram_view_new (void)
{
  return g_object_new (ET_TYPE_HISTOGRAM_VIEW, NULL);
}

void
et_histogram_view_set_histogram (EtHistogramView *self, EtStatsHistogram *histogram)
{
  g_return_if_fail (ET_IS_HISTOGRAM_VIEW (self));
  g_clear_pointer (&self->histogram, et_stats_histogram_free);
  self->histogram = histogram;
  self->chosen_first = self->chosen_last = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const EtStatsHistogram *
et_histogram_view_get_histogram (EtHistogramView *self)
{
  g_return_val_if_fail (ET_IS_HISTOGRAM_VIEW (self), NULL);
  return self->histogram;
}
