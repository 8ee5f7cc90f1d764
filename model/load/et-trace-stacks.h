/* et-trace-stacks.h — a loaded trace's call stacks: built from what
 * loading noted, on first use (load/et-trace-stacks.c), and an event's
 * stack in them.
 */
#pragma once

#include "et-trace.h"
#include "et-stacks.h"

G_BEGIN_DECLS

/* The trace's call stacks, symbols and CPU samples (stacks/et-stacks.h;
 * owned by the trace), or NULL (ETLSCOPE_NO_STACKS). */
EtStacks          *et_trace_get_stacks      (EtTrace *self);
/* The stack of event @index (a marker's event, a sample…): its node in
 * et_trace_get_stacks' tree, ET_STACK_NONE when it has none; *ns (may be
 * NULL) is its time, for naming its frames. */
guint32            et_trace_event_stack     (EtTrace *self,
                                             guint64  index,
                                             gint64  *ns);

G_END_DECLS
