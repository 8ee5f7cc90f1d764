/* et-report-table.h — a table of many rows that draws only the rows on
 * screen: a header with sortable, resizable columns, one selected row,
 * keyboard and mouse navigation, Ctrl+C. It holds no rows: it asks its
 * owner for a cell's text (EtReportCellFunc) when it draws that cell.
 *
 * Why not GtkColumnView: GTK 4.8's list views keep widgets for up to 200
 * rows around the one scrolled to and rebind all of them when a jump lands
 * far away — 1,400 to 3,700 label cells for one step from marker to
 * marker, 20–50 ms of the main loop. Here a jump costs the rows that show.
 *
 * Put it in a GtkScrolledWindow (it is a GtkScrollable). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ET_TYPE_REPORT_TABLE (et_report_table_get_type ())
G_DECLARE_FINAL_TYPE (EtReportTable, et_report_table, ET, REPORT_TABLE, GtkWidget)

#define ET_REPORT_NONE G_MAXUINT

/* Appends row @row's text in @column to @out. */
typedef void (*EtReportCellFunc) (guint row, guint column, GString *out, gpointer data);

typedef struct
{
  const char *title;      /* translated; copied */
  guint       width_chars; /* the starting width, in average characters */
  gboolean    sortable;
  gboolean    numeric;    /* right-aligned */
  gboolean    expand;     /* takes the width the others leave */
} EtReportColumn;

GtkWidget *et_report_table_new          (void);
void       et_report_table_set_columns  (EtReportTable        *self,
                                         const EtReportColumn *columns,
                                         guint                 n_columns,
                                         EtReportCellFunc      cell,
                                         gpointer              data);
/* The rows are now @n_rows, and any of them may read differently: the
 * selection is cleared. */
void       et_report_table_set_n_rows   (EtReportTable *self,
                                         guint          n_rows);
guint      et_report_table_get_n_rows   (EtReportTable *self);
/* Selects @row (ET_REPORT_NONE: none) without "row-selected". */
void       et_report_table_set_selected (EtReportTable *self,
                                         guint          row);
guint      et_report_table_get_selected (EtReportTable *self);
/* Scrolls @row into sight: to the middle when it was out of sight. */
void       et_report_table_scroll_to    (EtReportTable *self,
                                         guint          row);
/* The header's arrow; -1: none. Does not emit "sort-changed". */
void       et_report_table_set_sort     (EtReportTable *self,
                                         int            column,
                                         gboolean       descending);
guint      et_report_table_get_n_columns (EtReportTable *self);
const char *et_report_table_get_column_title (EtReportTable *self,
                                             guint          column);
/* Appends the text the table shows in a cell (the owner's, as drawn). */
void       et_report_table_get_cell     (EtReportTable *self,
                                         guint          row,
                                         guint          column,
                                         GString       *out);
/* The first and one past the last row on screen (what a draw reads). */
void       et_report_table_get_visible  (EtReportTable *self,
                                         guint         *first,
                                         guint         *end);

/* Signals: "row-selected" (guint row) when a person chose a row; "sort-
 * changed" (guint column, gboolean descending) when a header was clicked
 * (the arrow has moved already). */

G_END_DECLS
