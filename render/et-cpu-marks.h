/* et-cpu-marks.h — samples of a chosen frame marked on the thread
 * headers' CPU-use bands (et-cpu-strip.h): which threads ran the frame,
 * and when. Drawn over the timeline, in the band's place, a mark per
 * ET_CPU_COLUMN_PX column that holds such a sample.
 *
 *   per thread: sorted sample times ─┬─ EtLayout (thread header rows)
 *                                    └─ EtViewport (time → x, scroll) ─► marks
 */
#pragma once

#include <cairo.h>
#include "et-layout.h"
#include "et-viewport.h"

G_BEGIN_DECLS

/* The marks' colour in @viewport's theme (0–1 each): orange, apart from
 * the band's green and the lanes' category colours. */
void  et_cpu_marks_rgb     (const EtViewport *viewport,
                            double            rgb[3]);

/* Marks the samples of @times (a GArray of gint64, sorted, per thread
 * index; NULL entries for none) on the bands of the threads' header rows
 * that are in view. */
void  et_cpu_marks_draw    (cairo_t          *cr,
                            EtTrace          *trace,
                            EtLayout         *layout,
                            const EtViewport *viewport,
                            GPtrArray        *times);

/* The x of each column of thread @thread's band that gets a mark, left to
 * right, into @xs (double); for tests and the tooltip. */
void  et_cpu_marks_columns (const EtViewport *viewport,
                            const GArray     *times,
                            GArray           *xs);

G_END_DECLS
