/* et-sample-marks.h — over the timeline (a child of its GtkOverlay that
 * takes no input): the CPU samples whose stack holds a chosen frame,
 * marked on each thread header's CPU-use band (render/et-cpu-marks.h).
 * Which samples is worked out on a thread, over the whole trace and every
 * thread (where else the frame ran is the point), from the stacks' prefix
 * tree: a node holds the frame when its caller does or its own frame is
 * it, so each node is judged once, not each sample.
 */
#pragma once

#include <gtk/gtk.h>
#include "et-timeline-view.h"

G_BEGIN_DECLS

#define ET_TYPE_SAMPLE_MARKS (et_sample_marks_get_type ())
G_DECLARE_FINAL_TYPE (EtSampleMarks, et_sample_marks, ET, SAMPLE_MARKS, GtkWidget)

#define ET_SAMPLE_MARKS_NONE G_MAXUINT32

GtkWidget    *et_sample_marks_new           (void);
/* The timeline the marks follow, its trace and layout (NULL: none). */
void          et_sample_marks_set_trace     (EtSampleMarks  *self,
                                             EtTimelineView *timeline,
                                             EtTrace        *trace,
                                             EtLayout       *layout);
/* The frame's symbol (et_stacks_name's id; ET_SAMPLE_MARKS_NONE: no marks). */
void          et_sample_marks_set_frame     (EtSampleMarks  *self,
                                             guint32         symbol);
gboolean      et_sample_marks_is_busy       (EtSampleMarks  *self);
/* The marked samples' times of thread @thread (NULL: none). */
const GArray *et_sample_marks_get_times     (EtSampleMarks  *self,
                                             guint           thread);
guint64       et_sample_marks_get_n_samples (EtSampleMarks  *self);

G_END_DECLS
