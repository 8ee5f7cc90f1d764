/* et-markers-list.h — the Markers report: every marker of the visible range
 * (after filters) in a column view, sortable by clicking a header, with CSV
 * export. Rows are
 * plain (channel, index) pairs; a row object is made only when GTK shows
 * that row, so there is no row limit. */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-layout.h"

G_BEGIN_DECLS

#define ET_TYPE_MARKERS_LIST (et_markers_list_get_type ())
G_DECLARE_FINAL_TYPE (EtMarkersList, et_markers_list, ET, MARKERS_LIST, GtkBox)

/* The orders a column's header gives (the text's header gives none: it
 * would decode every row's event). */
typedef enum
{
  ET_SORT_START,
  ET_SORT_DURATION,
  ET_SORT_THREAD,
  ET_SORT_PROVIDER,
  ET_SORT_SERIES,
  ET_SORT_CATEGORY,
  ET_SORT_IMPORTANCE,
  ET_SORT_KIND,
} EtMarkerSort;

GtkWidget *et_markers_list_new        (void);
void       et_markers_list_set_trace  (EtMarkersList *self,
                                       EtTrace       *trace,
                                       EtLayout      *layout);
/* Shows the markers visible in [from, to] (and passing the layout's
 * filters). */
void       et_markers_list_set_range  (EtMarkersList *self,
                                       gint64         from_ns,
                                       gint64         to_ns);
/* TRUE while a refresh of a large range runs on a thread. */
gboolean   et_markers_list_is_busy    (EtMarkersList *self);
/* Tracy's "find zone": the report lists only the spans of @provider ×
 * @series that start in its range and last min_ns ≤ d < max_ns (a range
 * dragged on a duration histogram), until set again to NULL ("Show All
 * Markers"). */
typedef struct
{
  gboolean on;
  guint16  provider;
  guint32  series;
  gint64   min_ns, max_ns;
} EtMarkersZone;
void       et_markers_list_set_zone   (EtMarkersList       *self,
                                       const EtMarkersZone *zone);
const EtMarkersZone *et_markers_list_get_zone (EtMarkersList *self);
/* Ranges with at least this many candidate markers are collected and
 * sorted on a thread (default 50000). */
void       et_markers_list_set_async_threshold (EtMarkersList *self,
                                                guint          markers);
/* As clicking a column header: @descending reverses the order. */
void       et_markers_list_set_sort   (EtMarkersList *self,
                                       EtMarkerSort   sort,
                                       gboolean       descending);
guint      et_markers_list_get_n_rows (EtMarkersList *self);
/* The marker of row @row (channel and index within it). */
gboolean   et_markers_list_get_row    (EtMarkersList *self,
                                       guint          row,
                                       guint         *channel,
                                       guint         *index);
void       et_markers_list_select_row (EtMarkersList *self,
                                       guint          row);
/* Selects and scrolls to the row of a marker chosen elsewhere (the
 * timeline), without "marker-selected"; no row is selected and FALSE is
 * returned when the marker is not in the list (@channel G_MAXUINT: none). */
gboolean   et_markers_list_show_marker (EtMarkersList *self,
                                        guint          channel,
                                        guint          index);
gboolean   et_markers_list_write_csv  (EtMarkersList *self,
                                       const char    *path,
                                       GError       **error);

G_END_DECLS
