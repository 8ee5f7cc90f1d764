/* et-flows.h — work that hops threads: a task scheduled on one thread and
 * run on another (TPL's TaskScheduled → TaskExecute/TaskStart, by TaskID),
 * work queued to the thread pool and taken from it (the framework's
 * ThreadPoolEnqueueWork → ThreadPoolDequeueWork, by workID). From one
 * marker, the other end of its hop.
 *
 *   a marker ─ its event decoded ─ its role and key (by event name and
 *   field) ─ the nearest marker of the partner role with the same key, on
 *   another thread, later (forward) or earlier (back)
 *
 * Cross-thread spans need none of this: their end is the marker's own
 * (et_trace_marker_end_thread), drawn as a connector.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

/* Whether @channel's marker @index has a flow partner in direction
 * @forward (its cause's effect) or back (the effect's cause); the
 * partner's channel and index. Decodes the marker's event and the
 * candidates' (channels of the same provider whose series names the
 * partner role): on demand, for one selection. */
gboolean et_trace_flow_partner (EtTrace *trace,
                                guint    channel,
                                guint    index,
                                gboolean forward,
                                guint   *to_channel,
                                guint   *to_index);

G_END_DECLS
