/* et-timeline-threads.h — the timeline's thread rows, as the window offers
 * them: the thread part of the row menu, the order of threads, empty
 * threads shown or not, which threads are collapsed (remembered per trace),
 * and "Go to Thread or Series" (Ctrl+P, Perfetto's find track).
 *
 *   row menu / find popover ─ "timeline" actions ─ EtLayout (render/)
 *                                                ─ et_timeline_view_rows_changed
 *   EtLayout's thread choices ⇄ a key file in the user's state folder,
 *                               one group per trace path
 */
#pragma once

#include <gtk/gtk.h>
#include "et-timeline-view.h"

G_BEGIN_DECLS

/* Adds collapse-thread, hide-thread, move-thread-to-top (each on a thread
 * index), thread-order ("first-activity", "markers", "name") and
 * show-empty-threads (boolean) to @actions. */
void       et_timeline_threads_add_actions (GActionMap     *actions,
                                            EtTimelineView *view);
/* The thread section of the row menu of @thread's rows. */
GMenu     *et_timeline_threads_menu        (EtLayout       *layout,
                                            guint           thread);
/* The actions' states follow @layout (a new trace). */
void       et_timeline_threads_sync_actions (GActionMap    *actions,
                                             EtLayout      *layout);
/* Which threads of @trace were collapsed or expanded by hand last time,
 * and the thread order, into @layout (the caller lays it out again); and
 * back. */
void       et_timeline_threads_restore     (EtLayout       *layout,
                                            EtTrace        *trace);
void       et_timeline_threads_save        (EtLayout       *layout,
                                            EtTrace        *trace);
/* The "Go to Thread or Series" popover's content: a search entry over a
 * list of matching threads and series; choosing one reveals its row. */
GtkWidget *et_timeline_threads_find_new    (EtTimelineView *view,
                                            GtkPopover     *popover);
/* Threads and series whose name holds @text (case folded), as row labels
 * ("<thread>" or "<thread> › <series>: <provider>"), at most @max; for
 * each, the thread and the channel (G_MAXUINT for a thread). */
typedef struct
{
  guint  thread;
  guint  channel;
  char  *label;
} EtTrackMatch;

GArray    *et_timeline_threads_match       (EtLayout       *layout,
                                            EtTrace        *trace,
                                            const char     *text,
                                            guint           max);
/* Reveals a match's row and scrolls it to the top of the view. */
void       et_timeline_threads_go_to       (EtTimelineView *view,
                                            guint           thread,
                                            guint           channel);

G_END_DECLS
