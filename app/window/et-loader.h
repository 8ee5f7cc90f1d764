/* et-loader.h — loads one trace off the main loop.
 *
 *   path ─ GTask thread: et_trace_load, et_layout_new ─ EtProgressFunc
 *        (loader thread: phase, done, total) ─ coalesced hop to the main
 *        context ─ "phase", "progress" signals (main loop) ─ callback ─
 *        et_loader_load_finish () → EtTrace, et_loader_take_layout () → its
 *        first EtLayout
 *
 * The window shows the progress and offers Cancel; nothing here touches a
 * widget, so tests and other front ends can load the same way.
 */
#pragma once

#include "et-trace.h"
#include "et-layout.h"

G_BEGIN_DECLS

/* What loading does now, in order: the model's phases (EtTracePhase),
 * the last of which the window calls laying out the threads (their
 * channels in the model, then their rows here, a few ms after it). */
typedef enum
{
  ET_LOAD_PHASE_READING = ET_TRACE_PHASE_READING,    /* "progress": bytes */
  ET_LOAD_PHASE_DECODING = ET_TRACE_PHASE_DECODING,  /* events */
  ET_LOAD_PHASE_PAIRING = ET_TRACE_PHASE_PAIRING,    /* span starts and ends */
  ET_LOAD_PHASE_LAYOUT = ET_TRACE_PHASE_CHANNELS,    /* two passes over the markers */
} EtLoadPhase;

#define ET_TYPE_LOADER (et_loader_get_type ())
G_DECLARE_FINAL_TYPE (EtLoader, et_loader, ET, LOADER, GObject)

EtLoader   *et_loader_new             (const char          *path,
                                       EtLoadFlags          flags);
const char *et_loader_get_path        (EtLoader            *self);
/* Starts loading in a worker thread; "phase" (guint phase: each once, in
 * order, after READING) and "progress" (guint64 done, guint64 total of
 * the phase et_loader_get_phase names; a phase left is first told at its
 * total) are emitted on the calling thread's main context. */
void        et_loader_load_async      (EtLoader            *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
/* Transfer full; NULL with @error when nothing could be read or the load
 * was cancelled (G_IO_ERROR_CANCELLED). */
EtTrace    *et_loader_load_finish     (EtLoader            *self,
                                       GAsyncResult        *result,
                                       GError             **error);
/* The layout made for that trace on the loading thread (transfer full),
 * once; NULL before a trace was loaded or once taken. */
EtLayout   *et_loader_take_layout     (EtLoader            *self);
/* The last phase told by "phase" (guint phase, on the main context, each
 * once, in order). */
EtLoadPhase et_loader_get_phase       (EtLoader            *self);
/* The latest numbers of the phase reached on the loading thread (any
 * thread may ask). */
guint64     et_loader_get_done        (EtLoader            *self);
guint64     et_loader_get_total       (EtLoader            *self);

G_END_DECLS
