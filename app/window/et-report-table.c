/* et-report-table.c — a table that draws only its rows on screen (see
 * et-report-table.h).
 *
 *   owner ─ n_rows, EtReportCellFunc ─┐
 *   vadjustment (rows) ───────────────┼─ snapshot: header, then the rows
 *   hadjustment (columns) ────────────┘   on screen, one PangoLayout reused
 *   click / keys / drag ─ selection, "sort-changed", column widths
 *
 * Colours come from the GTK theme (the widget has the "view" style class,
 * so its background is the theme's view background; text, selection and
 * lines use the theme's named colours).
 */
#include "et-report-table-private.h"

#include <math.h>

static void scrollable_init (GtkScrollableInterface *iface) {}

G_DEFINE_FINAL_TYPE_WITH_CODE (EtReportTable, et_report_table, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, scrollable_init))

enum { PROP_0, PROP_HADJ, PROP_VADJ, PROP_HPOLICY, PROP_VPOLICY };
enum { SIGNAL_ROW_SELECTED, SIGNAL_SORT_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- geometry ---------------------------------------------------------------- */

static int
view_width (EtReportTable *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self));
}

/* Column @c's width as laid out: the expanding one takes what is left. */
double
_et_report_column_width (EtReportTable *self, guint c)
{
  double others = 0;

  if (!self->columns[c].expand)
    return self->columns[c].width;
  for (guint k = 0; k < self->n_columns; k++)
    if (k != c)
      others += self->columns[k].width;
  return MAX (self->columns[c].width, view_width (self) - others);
}

static double
content_width (EtReportTable *self)
{
  double w = 0;

  for (guint c = 0; c < self->n_columns; c++)
    w += _et_report_column_width (self, c);
  return w;
}

double
_et_report_hvalue (EtReportTable *self)
{
  return self->hadj != NULL ? gtk_adjustment_get_value (self->hadj) : 0;
}

double
_et_report_vvalue (EtReportTable *self)
{
  return self->vadj != NULL ? gtk_adjustment_get_value (self->vadj) : 0;
}

/* The column at content x @x, or -1. */
int
_et_report_column_at (EtReportTable *self, double x)
{
  double left = 0;

  for (guint c = 0; c < self->n_columns; c++)
    {
      double w = _et_report_column_width (self, c);
      if (x >= left && x < left + w)
        return (int) c;
      left += w;
    }
  return -1;
}

/* The column whose right edge is within EDGE_GRAB of widget x @x, or -1
 * (the expanding column's edge does not move: it follows the window). */
int
_et_report_edge_at (EtReportTable *self, double x)
{
  double right = -_et_report_hvalue (self);

  for (guint c = 0; c < self->n_columns; c++)
    {
      right += _et_report_column_width (self, c);
      if (!self->columns[c].expand && fabs (x - right) <= EDGE_GRAB)
        return (int) c;
    }
  return -1;
}

/* The row at widget y @y, or ET_REPORT_NONE. */
guint
_et_report_row_at (EtReportTable *self, double y)
{
  double at = y - self->header_h + _et_report_vvalue (self);
  guint row;

  if (y < self->header_h || at < 0)
    return ET_REPORT_NONE;
  row = (guint) (at / self->row_h);
  return row < self->n_rows ? row : ET_REPORT_NONE;
}

void
et_report_table_get_visible (EtReportTable *self, guint *first, guint *end)
{
  double top = _et_report_vvalue (self), rows = gtk_widget_get_height (GTK_WIDGET (self)) - self->header_h;

  g_return_if_fail (ET_IS_REPORT_TABLE (self));
  *first = MIN ((guint) (top / self->row_h), self->n_rows);
  *end = MIN ((guint) ceil ((top + MAX (rows, 0)) / self->row_h), self->n_rows);
}

guint
et_report_table_get_n_columns (EtReportTable *self)
{
  g_return_val_if_fail (ET_IS_REPORT_TABLE (self), 0);
  return self->n_columns;
}

const char *
et_report_table_get_column_title (EtReportTable *self, guint column)
{
  g_return_val_if_fail (ET_IS_REPORT_TABLE (self) && column < self->n_columns, NULL);
  return self->columns[column].title;
}

void
et_report_table_get_cell (EtReportTable *self, guint row, guint column, GString *out)
{
  g_return_if_fail (ET_IS_REPORT_TABLE (self) && column < self->n_columns);
  if (row < self->n_rows)
    self->cell (row, column, out, self->cell_data);
}

/* ---- the adjustments ------------------------------------------------------------ */

static void
configure_adjustments (EtReportTable *self)
{
  double page_h = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - self->header_h, 0);
  double rows_h = (double) self->n_rows * self->row_h, w = view_width (self);

  if (self->vadj != NULL)
    gtk_adjustment_configure (self->vadj, CLAMP (_et_report_vvalue (self), 0, MAX (rows_h - page_h, 0)), 0,
                              MAX (rows_h, page_h), self->row_h, MAX (page_h - self->row_h, self->row_h),
                              page_h);
  if (self->hadj != NULL)
    gtk_adjustment_configure (self->hadj, CLAMP (_et_report_hvalue (self), 0, MAX (content_width (self) - w, 0)),
                              0, MAX (content_width (self), w), w / 10, w * 0.9, w);
}

static void
adjustment_moved (GtkAdjustment *adj, gpointer data)
{
  gtk_widget_queue_draw (data);
}

static void
drop_adjustment (EtReportTable *self, GtkAdjustment **slot)
{
  if (*slot == NULL)
    return;
  g_signal_handlers_disconnect_by_func (*slot, adjustment_moved, self);
  g_clear_object (slot);
}

/* A scrollable always has adjustments: GTK sets NULL to mean "your own". */
static void
set_adjustment (EtReportTable *self, GtkAdjustment **slot, GtkAdjustment *adj)
{
  if (*slot == adj && adj != NULL)
    return;
  drop_adjustment (self, slot);
  *slot = adj != NULL ? g_object_ref_sink (adj) : g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 0, 0, 0));
  g_signal_connect (*slot, "value-changed", G_CALLBACK (adjustment_moved), self);
  configure_adjustments (self);
}

/* ---- drawing --------------------------------------------------------------------- */

static void
theme_color (GtkWidget *widget, const char *name, const char *fallback, GdkRGBA *out)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  if (!gtk_style_context_lookup_color (style, name, out)
      && !gtk_style_context_lookup_color (style, fallback, out))
    gdk_rgba_parse (out, "#3584e4");
}

static void
fill (GtkSnapshot *snapshot, double x, double y, double w, double h, const GdkRGBA *color)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

/* @text in the cell at @x, @y of width @w, ellipsized at the end. */
static void
draw_text (EtReportTable *self, GtkSnapshot *snapshot, const char *text, double x, double y,
           double w, gboolean numeric, const GdkRGBA *color)
{
  int text_h;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_set_width (self->layout, (int) MAX (w - 2 * PAD_X, 1) * PANGO_SCALE);
  pango_layout_set_alignment (self->layout, numeric ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
  pango_layout_get_pixel_size (self->layout, NULL, &text_h);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + PAD_X, y + floor ((self->row_h - text_h) / 2.0)));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

/* Rows from @first to @end, each cell asked of the owner. */
static void
draw_rows (EtReportTable *self, GtkSnapshot *snapshot, guint first, guint end, const GdkRGBA *fg)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double w = view_width (self), top = self->header_h - _et_report_vvalue (self);
  GdkRGBA sel_bg, sel_fg, hover = *fg;

  theme_color (widget, "accent_bg_color", "theme_selected_bg_color", &sel_bg);
  theme_color (widget, "accent_fg_color", "theme_selected_fg_color", &sel_fg);
  hover.alpha *= 0.06;
  for (guint r = first; r < end; r++)
    {
      double y = top + (double) r * self->row_h, x = -_et_report_hvalue (self);
      gboolean selected = r == self->selected;

      if (selected)
        fill (snapshot, 0, y, w, self->row_h, &sel_bg);
      else if (r == self->hovered)
        fill (snapshot, 0, y, w, self->row_h, &hover);
      for (guint c = 0; c < self->n_columns; x += _et_report_column_width (self, c), c++)
        {
          double cw = _et_report_column_width (self, c);

          if (x + cw <= 0 || x >= w)
            continue;
          g_string_truncate (self->text, 0);
          self->cell (r, c, self->text, self->cell_data);
          draw_text (self, snapshot, self->text->str, x, y, cw, self->columns[c].numeric,
                     selected ? &sel_fg : fg);
        }
    }
}

/* Lines between columns, from @y down. */
static void
draw_column_lines (EtReportTable *self, GtkSnapshot *snapshot, double y, const GdkRGBA *line)
{
  double x = -_et_report_hvalue (self), h = gtk_widget_get_height (GTK_WIDGET (self)) - y;

  for (guint c = 0; c + 1 < self->n_columns; c++)
    {
      x += _et_report_column_width (self, c);
      fill (snapshot, floor (x), y, 1, h, line);
    }
}

static void
draw_header (EtReportTable *self, GtkSnapshot *snapshot, const GdkRGBA *fg)
{
  double x = -_et_report_hvalue (self), w = view_width (self);
  GdkRGBA shade = *fg, line = *fg, dim = *fg;
  PangoAttrList *bold = pango_attr_list_new ();

  shade.alpha *= 0.05, line.alpha *= 0.18, dim.alpha *= 0.75;
  fill (snapshot, 0, 0, w, self->header_h, &shade);
  fill (snapshot, 0, self->header_h - 1, w, 1, &line);
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (self->layout, bold);
  for (guint c = 0; c < self->n_columns; x += _et_report_column_width (self, c), c++)
    {
      double col_w = _et_report_column_width (self, c), arrow_w = 0;
      int text_w;

      /* The sort arrow has its own place at the column's right edge: a
       * narrow column cuts the title ("Duratio…"), never the arrow. */
      if ((int) c == self->sort_column)
        {
          pango_layout_set_width (self->layout, -1);
          pango_layout_set_text (self->layout, "▾ ", -1);
          pango_layout_get_pixel_size (self->layout, &text_w, NULL);
          arrow_w = MIN (text_w, MAX (col_w - 2 * PAD_X, 0));
          draw_text (self, snapshot, self->descending ? "▾" : "▴", x + col_w - arrow_w - PAD_X, 0,
                     arrow_w + 2 * PAD_X, FALSE, &dim);
        }
      draw_text (self, snapshot, self->columns[c].title, x, 0, col_w - arrow_w,
                 self->columns[c].numeric, &dim);
    }
  pango_layout_set_attributes (self->layout, NULL);
  pango_attr_list_unref (bold);
  draw_column_lines (self, snapshot, 0, &line);
}

/* Keyboard focus: a line inside the selected row in its text's colour;
 * without a selected row on screen, a frame round the rows in the accent
 * colour (where the keys will start). */
static void
draw_focus (EtReportTable *self, GtkSnapshot *snapshot, guint first, guint end)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double w = view_width (self), h = gtk_widget_get_height (widget) - self->header_h;
  GdkRGBA ring;

  if (self->selected >= first && self->selected < end)
    {
      double y = self->header_h - _et_report_vvalue (self) + (double) self->selected * self->row_h;

      theme_color (widget, "accent_fg_color", "theme_selected_fg_color", &ring);
      ring.alpha *= 0.7;
      gtk_snapshot_append_border (snapshot, &GSK_ROUNDED_RECT_INIT (1, y + 1, w - 2, self->row_h - 2),
                                  (float[4]) { 1, 1, 1, 1 }, (GdkRGBA[4]) { ring, ring, ring, ring });
    }
  else if (gtk_widget_has_visible_focus (widget) && h > 2)
    {
      theme_color (widget, "accent_color", "theme_selected_bg_color", &ring);
      gtk_snapshot_append_border (snapshot, &GSK_ROUNDED_RECT_INIT (1, self->header_h + 1, w - 2, h - 2),
                                  (float[4]) { 2, 2, 2, 2 }, (GdkRGBA[4]) { ring, ring, ring, ring });
    }
}

static void
et_report_table_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  EtReportTable *self = ET_REPORT_TABLE (widget);
  double w = view_width (self), h = gtk_widget_get_height (widget);
  GdkRGBA fg, line;
  guint first, end;

  if (self->cell == NULL)
    return;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  line = fg, line.alpha *= 0.1;
  et_report_table_get_visible (self, &first, &end);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, self->header_h, w, MAX (h - self->header_h, 0)));
  draw_rows (self, snapshot, first, end, &fg);
  draw_column_lines (self, snapshot, self->header_h, &line);
  if (gtk_widget_has_focus (widget))
    draw_focus (self, snapshot, first, end);
  gtk_snapshot_pop (snapshot);
  draw_header (self, snapshot, &fg);
}

/* ---- selection and scrolling ------------------------------------------------------ */

/* The selected row's cells, for assistive technologies (the rows are
 * drawn, not widgets) and for Ctrl+C: "title: text" joined by @sep. */
char *
_et_report_row_text (EtReportTable *self, guint row, const char *sep, gboolean titles)
{
  GString *out = g_string_new (NULL);

  for (guint c = 0; c < self->n_columns; c++)
    {
      if (c > 0)
        g_string_append (out, sep);
      if (titles)
        g_string_append_printf (out, "%s: ", self->columns[c].title);
      self->cell (row, c, out, self->cell_data);
    }
  return g_string_free (out, FALSE);
}

static void
describe_selection (EtReportTable *self)
{
  g_autofree char *text = NULL;

  if (self->selected < self->n_rows && self->cell != NULL)
    text = _et_report_row_text (self, self->selected, ", ", TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
}

void
et_report_table_set_selected (EtReportTable *self, guint row)
{
  g_return_if_fail (ET_IS_REPORT_TABLE (self));
  row = row < self->n_rows ? row : ET_REPORT_NONE;
  if (row == self->selected)
    return;
  self->selected = row;
  describe_selection (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
et_report_table_get_selected (EtReportTable *self)
{
  g_return_val_if_fail (ET_IS_REPORT_TABLE (self), ET_REPORT_NONE);
  return self->selected;
}

/* Scrolls so @row shows: by as little as it takes when @nearest, else
 * (a jump from elsewhere) to the middle when it was out of sight. */
static void
reveal (EtReportTable *self, guint row, gboolean nearest)
{
  double top = (double) row * self->row_h, page, value;

  if (self->vadj == NULL || row >= self->n_rows)
    return;
  page = gtk_adjustment_get_page_size (self->vadj);
  /* Not allocated yet: where the middle is is not known. */
  self->to_reveal = page < self->row_h ? row : ET_REPORT_NONE;
  if (self->to_reveal != ET_REPORT_NONE)
    return;
  value = gtk_adjustment_get_value (self->vadj);
  if (top >= value && top + self->row_h <= value + page)
    return;
  if (nearest)
    value = top < value ? top : top + self->row_h - page;
  else
    value = top - (page - self->row_h) / 2;
  gtk_adjustment_set_value (self->vadj, value);
}

void
et_report_table_scroll_to (EtReportTable *self, guint row)
{
  g_return_if_fail (ET_IS_REPORT_TABLE (self));
  reveal (self, row, FALSE);
}

void
_et_report_sort_changed (EtReportTable *self)
{
  g_signal_emit (self, signals[SIGNAL_SORT_CHANGED], 0, (guint) self->sort_column, self->descending);
}

/* A person chose @row. */
void
_et_report_choose (EtReportTable *self, guint row)
{
  if (row >= self->n_rows)
    return;
  reveal (self, row, TRUE);
  if (row == self->selected)
    return;
  et_report_table_set_selected (self, row);
  g_signal_emit (self, signals[SIGNAL_ROW_SELECTED], 0, row);
}

/* Rows read to fit the columns, and the widest a column is made (in
 * average characters): a few long names must not push the rest away. */
#define FIT_ROWS 64
#define FIT_MAX_CHARS 40

/* Once, when rows first come: each column but the expanding one as wide
 * as its widest cell among the first rows (never narrower than it was).
 * A column's starting width is a guess in average characters, which
 * proportional fonts and translations make wrong. */
static void
fit_columns (EtReportTable *self)
{
  PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                                         NULL, NULL);
  double most = FIT_MAX_CHARS * pango_font_metrics_get_approximate_char_width (metrics) / PANGO_SCALE;

  pango_font_metrics_unref (metrics);
  pango_layout_set_width (self->layout, -1);
  for (guint c = 0; c < self->n_columns; c++)
    {
      if (self->columns[c].expand)
        continue;                      /* it takes what the others leave */
      for (guint r = 0; r < MIN (self->n_rows, FIT_ROWS); r++)
        {
          int text_w;

          g_string_truncate (self->text, 0);
          self->cell (r, c, self->text, self->cell_data);
          pango_layout_set_text (self->layout, self->text->str, -1);
          pango_layout_get_pixel_size (self->layout, &text_w, NULL);
          self->columns[c].width = MAX (self->columns[c].width, MIN (text_w, most) + 2 * PAD_X + 1);
        }
    }
  self->fitted = TRUE;
}

void
et_report_table_set_n_rows (EtReportTable *self, guint n_rows)
{
  g_return_if_fail (ET_IS_REPORT_TABLE (self));
  self->n_rows = n_rows;
  if (!self->fitted && n_rows > 0 && self->cell != NULL)
    fit_columns (self);
  self->selected = self->hovered = ET_REPORT_NONE;
  describe_selection (self);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
et_report_table_get_n_rows (EtReportTable *self)
{
  g_return_val_if_fail (ET_IS_REPORT_TABLE (self), 0);
  return self->n_rows;
}

void
et_report_table_set_sort (EtReportTable *self, int column, gboolean descending)
{
  g_return_if_fail (ET_IS_REPORT_TABLE (self) && column < (int) self->n_columns);
  self->sort_column = column;
  self->descending = descending;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- size --------------------------------------------------------------------------- */

/* Row height and the layout's font follow the theme's font. */
static void
measure_font (EtReportTable *self)
{
  int text_h;

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Xg");
  pango_layout_get_pixel_size (self->layout, NULL, &text_h);
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (self->layout, TRUE);
  /* Compact, as GTK's "data-table" rows. */
  self->row_h = text_h + 5;
  self->header_h = text_h + 8;
}

static void
et_report_table_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (et_report_table_parent_class)->css_changed (widget, change);
  measure_font (ET_REPORT_TABLE (widget));
  gtk_widget_queue_resize (widget);
}

static void
et_report_table_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min,
                         int *nat, int *min_baseline, int *nat_baseline)
{
  EtReportTable *self = ET_REPORT_TABLE (widget);

  /* The whole content, as the adjustments have it: the scrolled window
   * shows a scrollbar where this is larger than its room, and the
   * adjustments must agree, or it adds and takes the scrollbar away in
   * turn. Not from the allocation: the expanding column follows that. */
  double w = 0, h = self->header_h + (double) self->n_rows * self->row_h;

  for (guint c = 0; c < self->n_columns; c++)
    w += self->columns[c].width;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *min = *nat = (int) w;
  else
    *min = *nat = (int) MIN (h, G_MAXINT / 2);
}

static void
et_report_table_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  EtReportTable *self = ET_REPORT_TABLE (widget);

  configure_adjustments (self);
  if (self->to_reveal != ET_REPORT_NONE)
    reveal (self, self->to_reveal, FALSE);
}

/* ---- the object --------------------------------------------------------------------- */

static void
et_report_table_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  EtReportTable *self = ET_REPORT_TABLE (object);

  switch (id)
    {
    case PROP_HADJ:    g_value_set_object (value, self->hadj); break;
    case PROP_VADJ:    g_value_set_object (value, self->vadj); break;
    case PROP_HPOLICY: g_value_set_enum (value, self->hpolicy); break;
    case PROP_VPOLICY: g_value_set_enum (value, self->vpolicy); break;
    default:           G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
et_report_table_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  EtReportTable *self = ET_REPORT_TABLE (object);

  switch (id)
    {
    case PROP_HADJ:    set_adjustment (self, &self->hadj, g_value_get_object (value)); break;
    case PROP_VADJ:    set_adjustment (self, &self->vadj, g_value_get_object (value)); break;
    case PROP_HPOLICY: self->hpolicy = g_value_get_enum (value); break;
    case PROP_VPOLICY: self->vpolicy = g_value_get_enum (value); break;
    default:           G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
free_columns (EtReportTable *self)
{
  for (guint c = 0; c < self->n_columns; c++)
    g_free (self->columns[c].title);
  g_clear_pointer (&self->columns, g_free);
  self->n_columns = 0;
}

static void
et_report_table_dispose (GObject *object)
{
  EtReportTable *self = ET_REPORT_TABLE (object);

  drop_adjustment (self, &self->hadj);
  drop_adjustment (self, &self->vadj);
  G_OBJECT_CLASS (et_report_table_parent_class)->dispose (object);
}

static void
et_report_table_finalize (GObject *object)
{
  EtReportTable *self = ET_REPORT_TABLE (object);

  free_columns (self);
  g_clear_object (&self->layout);
  g_string_free (self->text, TRUE);
  G_OBJECT_CLASS (et_report_table_parent_class)->finalize (object);
}

static void
et_report_table_class_init (EtReportTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = et_report_table_get_property;
  object_class->set_property = et_report_table_set_property;
  object_class->dispose = et_report_table_dispose;
  object_class->finalize = et_report_table_finalize;
  widget_class->snapshot = et_report_table_snapshot;
  widget_class->measure = et_report_table_measure;
  widget_class->size_allocate = et_report_table_size_allocate;
  widget_class->css_changed = et_report_table_css_changed;
  g_object_class_override_property (object_class, PROP_HADJ, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJ, "vadjustment");
  g_object_class_override_property (object_class, PROP_HPOLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VPOLICY, "vscroll-policy");
  signals[SIGNAL_ROW_SELECTED] =
    g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_SORT_CHANGED] =
    g_signal_new ("sort-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
  gtk_widget_class_install_action (widget_class, "report.copy-row", NULL, _et_report_copy_row);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "report.copy-row", NULL);
  gtk_widget_class_set_css_name (widget_class, "reporttable");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}


static void
et_report_table_init (EtReportTable *self)
{
  self->selected = self->hovered = self->to_reveal = ET_REPORT_NONE;
  self->sort_column = -1;
  self->resizing = -1;
  self->text = g_string_new (NULL);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_add_css_class (GTK_WIDGET (self), "view");
  measure_font (self);
  _et_report_add_controllers (self);
}

GtkWidget *
et_report_table_new (void)
{
  return g_object_new (ET_TYPE_REPORT_TABLE, NULL);
}

/* Widths in average characters of the widget's font. */
void
et_report_table_set_columns (EtReportTable *self, const EtReportColumn *columns, guint n_columns,
                             EtReportCellFunc cell, gpointer data)
{
  PangoFontMetrics *metrics;
  double char_w;

  g_return_if_fail (ET_IS_REPORT_TABLE (self) && cell != NULL);
  metrics = pango_context_get_metrics (gtk_widget_get_pango_context (GTK_WIDGET (self)), NULL, NULL);
  char_w = pango_font_metrics_get_approximate_char_width (metrics) / (double) PANGO_SCALE;
  pango_font_metrics_unref (metrics);
  free_columns (self);
  self->columns = g_new0 (Column, n_columns);
  self->n_columns = n_columns;
  for (guint c = 0; c < n_columns; c++)
    {
      /* At least as wide as the title with the sort arrow after it, in
       * the header's bold (measured plain, "Duration ▾" was cut). */
      int title_w;
      g_autofree char *title = g_strdup_printf ("%s ▾ ", columns[c].title);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), title);
      PangoAttrList *bold = pango_attr_list_new ();

      pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, bold);
      pango_attr_list_unref (bold);
      pango_layout_get_pixel_size (layout, &title_w, NULL);
      self->columns[c] = (Column) { g_strdup (columns[c].title),
                                    MAX (columns[c].width_chars * char_w, title_w * 1.1) + 2 * PAD_X,
                                    columns[c].sortable, columns[c].numeric, columns[c].expand };
    }
  self->cell = cell;
  self->cell_data = data;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
