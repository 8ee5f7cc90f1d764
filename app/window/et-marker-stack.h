/* et-marker-stack.h — the call stacks of a marker's events, as the details
 * pane shows them: for a span its start's and its stop's, else its
 * event's; frames leaf first (where the event was raised on top, as a
 * debugger's call stack reads), the unnamed `?!0x…` ones counted.
 *
 * The trace's stacks are built on first use (seconds on a large trace),
 * so the text is made on a thread: et_marker_stack_describe_async.
 */
#pragma once

#include <gio/gio.h>
#include "et-trace.h"

G_BEGIN_DECLS

typedef struct
{
  char   *text;     /* "\nCall stack at the start: 3 frames, 1 unnamed\n  frame\n…" ("" without stacks) */
  GArray *modules;  /* guint pairs: [from, to) character offsets in text of each frame's module */
} EtMarkerStack;

void           et_marker_stack_free            (EtMarkerStack       *stack);
/* The stacks of @m (copied: the marker may go) of @trace, on a thread. */
void           et_marker_stack_describe_async  (EtTrace             *trace,
                                                const EtMarker      *m,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             data);
/* NULL when cancelled. */
EtMarkerStack *et_marker_stack_describe_finish (GAsyncResult        *result);
/* The same, here and now (for the thread, and tests). */
EtMarkerStack *et_marker_stack_describe        (EtTrace             *trace,
                                                const EtMarker      *m);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtMarkerStack, et_marker_stack_free)

G_END_DECLS
