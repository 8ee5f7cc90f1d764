/* et-report-table-input.c — a report table's mouse, keys and tooltips
 * (see et-report-table.h): header clicks sort, a header edge dragged
 * resizes its column, a click or a key chooses a row, Ctrl+C copies it, a
 * cut-short cell's tooltip has its whole text. */
#include "et-report-table-private.h"

/* ---- input ---------------------------------------------------------------------------- */

/* A click on a header sorts by it; again reverses the order. */
static void
header_clicked (EtReportTable *self, double x)
{
  int c = _et_report_column_at (self, x + _et_report_hvalue (self));

  if (c < 0 || !self->columns[c].sortable)
    return;
  self->descending = c == self->sort_column ? !self->descending : FALSE;
  self->sort_column = c;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _et_report_sort_changed (self);
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  EtReportTable *self = data;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (y < self->header_h)
    {
      if (_et_report_edge_at (self, x) < 0)
        header_clicked (self, x);
      return;
    }
  _et_report_choose (self, _et_report_row_at (self, y));
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, gpointer data)
{
  EtReportTable *self = data;

  self->resizing = y < self->header_h ? _et_report_edge_at (self, x) : -1;
  if (self->resizing < 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->resize_from = self->columns[self->resizing].width;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtReportTable *self = data;

  if (self->resizing < 0)
    return;
  self->columns[self->resizing].width = MAX (self->resize_from + dx, MIN_COLUMN);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, gpointer data)
{
  EtReportTable *self = data;
  guint row = _et_report_row_at (self, y);

  gtk_widget_set_cursor_from_name (GTK_WIDGET (self),
                                   y < self->header_h && _et_report_edge_at (self, x) >= 0 ? "col-resize" : NULL);
  if (row != self->hovered)
    {
      self->hovered = row;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *motion, gpointer data)
{
  EtReportTable *self = data;

  self->hovered = ET_REPORT_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Rows a notch of a mouse wheel scrolls (GTK's own step is the page's
 * height to the power 2/3: one row of a short report per notch).
 * Touchpads scroll smoothly through the scrolled window. */
#define ROWS_PER_NOTCH 3

static gboolean
on_wheel (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  EtReportTable *self = data;

  if (self->vadj == NULL
      || gtk_event_controller_scroll_get_unit (controller) != GDK_SCROLL_UNIT_WHEEL || dy == 0)
    return FALSE;
  gtk_adjustment_set_value (self->vadj, _et_report_vvalue (self) + dy * ROWS_PER_NOTCH * self->row_h);
  return TRUE;
}

/* report.copy-row (Ctrl+C): the chosen row's cells, tab-separated. */
void
_et_report_copy_row (GtkWidget *widget, const char *action, GVariant *parameter)
{
  EtReportTable *self = ET_REPORT_TABLE (widget);
  g_autofree char *text = NULL;

  if (self->selected >= self->n_rows)
    return;
  text = _et_report_row_text (self, self->selected, "\t", FALSE);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

/* The row a key moves the selection to, or ET_REPORT_NONE. */
static guint
row_for_key (EtReportTable *self, guint keyval)
{
  guint page = MAX ((guint) ((gtk_widget_get_height (GTK_WIDGET (self)) - self->header_h) / self->row_h), 2) - 1;
  guint at = self->selected;

  if (at >= self->n_rows)
    {
      guint first, end;
      et_report_table_get_visible (self, &first, &end);
      return keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End ? self->n_rows - 1 : first;
    }
  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up:             return at > 0 ? at - 1 : 0;
    case GDK_KEY_Down: case GDK_KEY_KP_Down:         return MIN (at + 1, self->n_rows - 1);
    case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up:   return at > page ? at - page : 0;
    case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down: return MIN (at + page, self->n_rows - 1);
    case GDK_KEY_Home: case GDK_KEY_KP_Home:         return 0;
    case GDK_KEY_End: case GDK_KEY_KP_End:           return self->n_rows - 1;
    default:                                         return ET_REPORT_NONE;
    }
}

static gboolean
on_key (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
        gpointer data)
{
  EtReportTable *self = data;
  static const guint moves[] = { GDK_KEY_Up, GDK_KEY_KP_Up, GDK_KEY_Down, GDK_KEY_KP_Down,
                                 GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up, GDK_KEY_Page_Down,
                                 GDK_KEY_KP_Page_Down, GDK_KEY_Home, GDK_KEY_KP_Home, GDK_KEY_End,
                                 GDK_KEY_KP_End };

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    if (keyval == moves[i])
      {
        if (self->n_rows > 0)
          _et_report_choose (self, row_for_key (self, keyval));
        return TRUE;
      }
  return FALSE;
}

/* A cell's whole text when it was cut short. */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  EtReportTable *self = ET_REPORT_TABLE (widget);
  guint row = _et_report_row_at (self, y);
  int c = _et_report_column_at (self, x + _et_report_hvalue (self)), text_w;

  if (keyboard || row == ET_REPORT_NONE || c < 0 || self->cell == NULL)
    return FALSE;
  g_string_truncate (self->text, 0);
  self->cell (row, (guint) c, self->text, self->cell_data);
  pango_layout_set_width (self->layout, -1);
  pango_layout_set_text (self->layout, self->text->str, -1);
  pango_layout_get_pixel_size (self->layout, &text_w, NULL);
  if (text_w <= _et_report_column_width (self, (guint) c) - 2 * PAD_X)
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->text->str);
  return TRUE;
}

void
_et_report_add_controllers (EtReportTable *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *click = gtk_gesture_click_new (), *drag = gtk_gesture_drag_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  g_signal_connect (wheel, "scroll", G_CALLBACK (on_wheel), self);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key), self);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  /* The focus ring comes and goes with the focus. */
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (gtk_widget_queue_draw), widget);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (gtk_widget_queue_draw), widget);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));
  gtk_widget_add_controller (widget, motion);
  gtk_widget_add_controller (widget, wheel);
  gtk_widget_add_controller (widget, keys);
  gtk_widget_add_controller (widget, focus);
}
