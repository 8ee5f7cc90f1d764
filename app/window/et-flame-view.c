/* et-flame-view.c — see et-flame-view.h. The widget keeps the layout of
 * the tree at the current zoom and hands render/ a cairo context; hover
 * outlines a box without a new layout. */
#include "et-flame-view.h"
#include "et-i18n.h"

struct _EtFlameView
{
  GtkDrawingArea    parent_instance;
  const EtCallTree *tree;
  EtFlameLayout    *layout;
  gint              hover;     /* a box, or -1 */
};

G_DEFINE_FINAL_TYPE (EtFlameView, et_flame_view, GTK_TYPE_DRAWING_AREA)

enum { SIGNAL_ZOOMED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Light text on the theme: a dark theme. */
static gboolean
is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  EtFlameView *self = ET_FLAME_VIEW (area);

  if (self->tree == NULL)
    return;
  /* Translators: the flame graph's top box: every sample of the tree */
  et_flame_draw (cr, self->layout, self->tree, width, self->hover, _("All samples"),
                 is_dark (GTK_WIDGET (area)));
}

static void
relayout (EtFlameView *self, guint zoom)
{
  g_clear_pointer (&self->layout, et_flame_layout_free);
  self->hover = -1;
  if (self->tree != NULL)
    self->layout = et_flame_layout_new (self->tree, zoom);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self),
                                       self->layout != NULL
                                       ? (int) self->layout->depth * ET_FLAME_ROW_HEIGHT : 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static const EtFlameBox *
box_at (EtFlameView *self, double x, double y, gint *index)
{
  gint i = et_flame_hit (self->layout, gtk_widget_get_width (GTK_WIDGET (self)), x, y);

  if (index != NULL)
    *index = i;
  return i >= 0 ? &g_array_index (self->layout->boxes, EtFlameBox, i) : NULL;
}

/* One level up from the zoom (nothing at the root). */
static gboolean
zoom_out (EtFlameView *self)
{
  if (self->layout == NULL || self->layout->zoom == 0)
    return FALSE;
  et_flame_view_zoom (self, et_call_tree_node (self->tree, self->layout->zoom)->parent);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (data));
  et_flame_view_click (data, button, x, y);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, gpointer data)
{
  EtFlameView *self = data;
  gint hover;

  box_at (self, x, y, &hover);
  if (hover != self->hover)
    {
      self->hover = hover;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *motion, gpointer data)
{
  on_motion (motion, -1, -1, data);
}

static gboolean
on_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
        gpointer data)
{
  if (keyval == GDK_KEY_Escape || keyval == GDK_KEY_BackSpace)
    return zoom_out (data);
  return FALSE;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  g_autofree char *text = et_flame_view_tooltip_at (ET_FLAME_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
et_flame_view_dispose (GObject *object)
{
  EtFlameView *self = ET_FLAME_VIEW (object);

  g_clear_pointer (&self->layout, et_flame_layout_free);
  self->tree = NULL;
  G_OBJECT_CLASS (et_flame_view_parent_class)->dispose (object);
}

static void
et_flame_view_class_init (EtFlameViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = et_flame_view_dispose;
  /* A click or a search zoomed into a node (guint: the call tree's). */
  signals[SIGNAL_ZOOMED] = g_signal_new ("zoomed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
et_flame_view_init (EtFlameView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  self->hover = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw, NULL, NULL);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), 0);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key), self);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
}

GtkWidget *
et_flame_view_new (void)
{
  return g_object_new (ET_TYPE_FLAME_VIEW, NULL);
}

void
et_flame_view_set_tree (EtFlameView *self, const EtCallTree *tree)
{
  g_return_if_fail (ET_IS_FLAME_VIEW (self));
  self->tree = tree;
  relayout (self, 0);
}

void
et_flame_view_zoom (EtFlameView *self, guint node)
{
  g_return_if_fail (ET_IS_FLAME_VIEW (self));
  if (self->tree != NULL && node < et_call_tree_n_nodes (self->tree))
    {
      relayout (self, node);
      g_signal_emit (self, signals[SIGNAL_ZOOMED], 0, node);
    }
}

guint
et_flame_view_get_zoom (EtFlameView *self)
{
  g_return_val_if_fail (ET_IS_FLAME_VIEW (self), 0);
  return self->layout != NULL ? self->layout->zoom : 0;
}

const EtFlameLayout *
et_flame_view_get_layout (EtFlameView *self)
{
  g_return_val_if_fail (ET_IS_FLAME_VIEW (self), NULL);
  return self->layout;
}

gboolean
et_flame_view_click (EtFlameView *self, guint button, double x, double y)
{
  const EtFlameBox *box;

  g_return_val_if_fail (ET_IS_FLAME_VIEW (self), FALSE);
  if (button == GDK_BUTTON_SECONDARY)
    return zoom_out (self);
  box = box_at (self, x, y, NULL);
  if (box == NULL || box->node == self->layout->zoom)
    return FALSE;
  et_flame_view_zoom (self, box->node);
  return TRUE;
}

char *
et_flame_view_tooltip_at (EtFlameView *self, double x, double y)
{
  const EtFlameBox *box;
  const EtCallNode *n;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *incl = NULL, *excl = NULL;
  double all;

  g_return_val_if_fail (ET_IS_FLAME_VIEW (self), NULL);
  box = box_at (self, x, y, NULL);
  if (box == NULL)
    return NULL;
  n = et_call_tree_node (self->tree, box->node);
  all = (double) MAX (et_call_tree_node (self->tree, 0)->inclusive, 1);
  incl = g_strdup_printf ("%'" G_GUINT64_FORMAT, n->inclusive);
  excl = g_strdup_printf ("%'" G_GUINT64_FORMAT, n->exclusive);
  if (box->node == 0)
    g_string_append (text, _("All samples"));
  else
    et_call_tree_append_name (self->tree, box->node, text);
  g_string_append_c (text, '\n');
  /* Translators: a flame graph box's tooltip, under the frame's name */
  g_string_append_printf (text, _("Inclusive: %s samples (%.1f %%)\nExclusive: %s samples (%.1f %%)"),
                          incl, 100.0 * n->inclusive / all, excl, 100.0 * n->exclusive / all);
  return g_string_free (g_steal_pointer (&text), FALSE);
}
