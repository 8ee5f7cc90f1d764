/* et-legend-popover.c — see et-legend-popover.h.
 *
 *   GtkDrawingArea ─ et_timeline_draw_legend (render/) with the words of
 *   et_i18n_legend_labels, in the theme of the timeline's viewport
 */
#include "et-legend-popover.h"
#include "et-i18n.h"
#include "et-timeline-render.h"

#define LEGEND_WIDTH 620

struct _EtLegendPopover
{
  GtkPopover        parent_instance;

  GtkDrawingArea   *area;
  const EtViewport *viewport;   /* the timeline's; NULL before a window sets it */
};

G_DEFINE_FINAL_TYPE (EtLegendPopover, et_legend_popover, GTK_TYPE_POPOVER)

/* A viewport to take the theme from when no window gave one (light). */
static const EtViewport *
theme_source (EtLegendPopover *self, EtViewport *fallback)
{
  if (self->viewport != NULL)
    return self->viewport;
  et_viewport_init (fallback, LEGEND_WIDTH, 100);
  return fallback;
}

static void
draw_legend (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  EtLegendPopover *self = data;
  EtViewport fallback;
  EtLegendLabels labels;

  et_i18n_legend_labels (&labels);
  et_timeline_draw_legend (cr, theme_source (self, &fallback), &labels, 0, 0, width, TRUE);
}

/* The legend's height at the area's width, measured as render/ lays it out. */
static void
size_area (EtLegendPopover *self)
{
  cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t *cr = cairo_create (scratch);
  EtViewport fallback;
  EtLegendLabels labels;

  et_i18n_legend_labels (&labels);
  gtk_drawing_area_set_content_height (self->area,
                                       (int) ceil (et_timeline_draw_legend (cr, theme_source (self, &fallback),
                                                                            &labels, 0, 0, LEGEND_WIDTH,
                                                                            FALSE)));
  cairo_destroy (cr);
  cairo_surface_destroy (scratch);
}

static void
on_show (GtkWidget *widget, gpointer data)
{
  EtLegendPopover *self = ET_LEGEND_POPOVER (widget);

  /* The theme may have changed since: drawn again in the current one. */
  size_area (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
et_legend_popover_class_init (EtLegendPopoverClass *klass)
{
}

static void
et_legend_popover_init (EtLegendPopover *self)
{
  self->area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_content_width (self->area, LEGEND_WIDTH);
  gtk_drawing_area_set_draw_func (self->area, draw_legend, self, NULL);
  gtk_popover_set_child (GTK_POPOVER (self), GTK_WIDGET (self->area));
  g_signal_connect (self, "show", G_CALLBACK (on_show), NULL);
  size_area (self);
}

GtkWidget *
et_legend_popover_new (void)
{
  return g_object_new (ET_TYPE_LEGEND_POPOVER, NULL);
}

void
et_legend_popover_set_viewport (EtLegendPopover *self, const EtViewport *viewport)
{
  g_return_if_fail (ET_IS_LEGEND_POPOVER (self));
  self->viewport = viewport;
}

int
et_legend_popover_get_height (EtLegendPopover *self)
{
  g_return_val_if_fail (ET_IS_LEGEND_POPOVER (self), 0);
  return gtk_drawing_area_get_content_height (self->area);
}
