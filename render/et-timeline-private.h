/* et-timeline-private.h — how et_timeline_draw (et-timeline-render.c) and
 * its slices (et-timeline-slices.c) share a picture. Not for app/.
 */
#pragma once

#include "et-timeline-render.h"

G_BEGIN_DECLS

/* A band of the picture, pixels from @top to @bottom (user units), that
 * one thread draws alone: rows [first_row, end_row) reach into it. Every
 * shape stays in its row, so the slice draws what the whole picture
 * would in its pixels; what crosses rows (connectors) is drawn after every
 * slice has its marks. A row that two slices cut is walked by both. */
typedef struct
{
  guint first_row, end_row;
  int   top, bottom;
} EtTimelineSlice;

/* A cross-thread span's connector, found while its row was drawn and
 * drawn after every row's marks (over them), in the order found; by the
 * slice its row begins in. */
typedef struct
{
  EtShape shape;
  guint32 end_thread;
} EtDueConnector;

/* Called by a slice once its marks are drawn: waits until every slice's
 * are, and gives every slice's connectors (@n lists, top slice first). */
typedef const GArray *const *(*EtSlicesMarked) (gpointer data, guint *n);

/* Draws @slice into @cr (whose target holds the slice's pixels): the
 * background, the rows' labels and strips and marks, appending the
 * connectors found to @due; then, after @marked, every connector, the
 * label column's edge and the ruler with its grid lines, in its pixels. */
void _et_timeline_draw_slice  (cairo_t                 *cr,
                               EtTrace                 *trace,
                               EtLayout                *layout,
                               const EtViewport        *viewport,
                               const EtTimelineSlice   *slice,
                               GArray                  *due,
                               EtSlicesMarked           marked,
                               gpointer                 data);

/* The slices the picture would be drawn in (at most @max): their number.
 * ETLSCOPE_DRAW_SLICES=N asks for N (tests), else the view's markers and
 * the cores decide. 1 when @cr cannot be cut into slices. */
guint _et_timeline_choose_slices (cairo_t               *cr,
                                  EtTrace               *trace,
                                  EtLayout              *layout,
                                  const EtViewport      *viewport,
                                  EtTimelineSlice       *slices,
                                  guint                  max);

/* et-run-density.c: the part of each pixel column @first … @first + @n - 1
 * that the spans of @run (a span shape of count > 1) cover, 0 to 1, into
 * @cover; FALSE (and @cover untouched) when the run has too many members
 * per pixel to walk them: it is drawn solid. */
gboolean _et_run_density     (EtTrace                 *trace,
                              EtLayout                *layout,
                              const EtViewport        *viewport,
                              const EtShape           *run,
                              int                      first,
                              int                      n,
                              double                  *cover);

G_END_DECLS
