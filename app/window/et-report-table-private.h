/* et-report-table-private.h — what et-report-table.c (geometry, drawing,
 * the object) and et-report-table-input.c (mouse, keys, tooltips) share. */
#pragma once

#include "et-report-table.h"

typedef struct
{
  char    *title;
  double   width;   /* px; the expanding column's is its least width */
  gboolean sortable, numeric, expand;
} Column;

struct _EtReportTable
{
  GtkWidget        parent_instance;
  GtkAdjustment   *hadj, *vadj;
  guint            hpolicy, vpolicy;
  Column          *columns;
  guint            n_columns;
  EtReportCellFunc cell;
  gpointer         cell_data;
  guint            n_rows;
  guint            selected;
  guint            hovered;
  int              sort_column;
  gboolean         descending;
  int              row_h, header_h;
  PangoLayout     *layout;       /* reused for every cell */
  GString         *text;
  int              resizing;     /* the column whose edge is dragged, or -1 */
  gboolean         fitted;       /* columns widened to the first rows' cells */
  guint            to_reveal;    /* a row to scroll to once there is a page, or ET_REPORT_NONE */
  double           resize_from;  /* its width when the drag began */
};

#define PAD_X 6       /* px of a cell's text from its column's edges */
#define EDGE_GRAB 4   /* px either side of a header edge that resize */
#define MIN_COLUMN 24 /* px */

/* Geometry: content x counts from the first column's left edge, widget x
 * from the widget's (they differ by the horizontal scroll). */
double _et_report_column_width (EtReportTable *self, guint c);
double _et_report_hvalue       (EtReportTable *self);
double _et_report_vvalue       (EtReportTable *self);
/* The column at content x @x, or -1. */
int    _et_report_column_at    (EtReportTable *self, double x);
/* The column whose right edge is near widget x @x, or -1. */
int    _et_report_edge_at      (EtReportTable *self, double x);
/* The row at widget y @y, or ET_REPORT_NONE. */
guint  _et_report_row_at       (EtReportTable *self, double y);
/* A row's cells joined by @sep, each after its title when @titles. */
char  *_et_report_row_text     (EtReportTable *self, guint row, const char *sep, gboolean titles);
/* A person chose @row: selected, in sight, "row-selected". */
void   _et_report_choose       (EtReportTable *self, guint row);
/* A person clicked a header: "sort-changed" with the new order. */
void   _et_report_sort_changed (EtReportTable *self);
void   _et_report_add_controllers (EtReportTable *self);
void   _et_report_copy_row     (GtkWidget *widget, const char *action, GVariant *parameter);
