/* et-trace-progress.h — loading's progress, phase by phase (EtProgressFunc).
 *
 * Sits inside load/: the walk, the decoding, the pairing and the channel
 * layout count their work here, in chunks, from any number of threads;
 * the caller's function hears of it at most ET_TRACE_PROGRESS_STEPS times
 * a phase (besides its 0 and its total), in order, one call at a time.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

#define ET_TRACE_PROGRESS_STEPS 200

typedef struct
{
  EtProgressFunc func;       /* NULL: every call below returns at once */
  gpointer       data;
  GMutex         lock;       /* one call of func at a time; guards told */
  EtTracePhase   phase;
  guint64        total;
  guint64        step;       /* told again once done passes told + step */
  guint64        done;       /* atomic */
  guint64        told;
} EtTraceProgress;

void _et_trace_progress_init  (EtTraceProgress *p,
                               EtProgressFunc   func,
                               gpointer         data);
void _et_trace_progress_clear (EtTraceProgress *p);
/* Tells @phase's 0 of @total. */
void _et_trace_progress_begin (EtTraceProgress *p,
                               EtTracePhase     phase,
                               guint64          total);
/* @n more units done (any thread). */
void _et_trace_progress_add   (EtTraceProgress *p,
                               guint64          n);
/* @done units done in all (any thread; smaller than told before: ignored). */
void _et_trace_progress_set   (EtTraceProgress *p,
                               guint64          done);
/* Tells the phase's total: it is over. */
void _et_trace_progress_end   (EtTraceProgress *p);
/* The reading's @done of @total bytes, as a plain callback with @p for its
 * data (a .nettrace's opening): the first call begins the phase. */
void _et_trace_progress_bytes (guint64          done,
                               guint64          total,
                               gpointer         p);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EtTraceProgress, _et_trace_progress_clear)

G_END_DECLS
