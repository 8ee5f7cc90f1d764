/* et-call-tree-pane.h — the Call Tree report: the CPU samples of the
 * selected range (else the visible one) of every thread, of a selected
 * span's thread and time, or of a Statistics row's spans, as a top-down
 * tree (root › process › thread › frames, inclusive and exclusive
 * samples, % of the samples, estimated ms) and a bottom-up one (the functions samples ended in, with their
 * callers), and a flame graph of the top-down one (et-flame-view.h). A
 * frame chosen in any of them is said by "frame-chosen" (guint symbol,
 * G_MAXUINT for none), for the timeline to mark its samples. Computed on a thread, only while the pane is shown; a newer
 * range cancels the older one's work.
 */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-call-tree.h"

G_BEGIN_DECLS

#define ET_TYPE_CALL_TREE_PANE (et_call_tree_pane_get_type ())
G_DECLARE_FINAL_TYPE (EtCallTreePane, et_call_tree_pane, ET, CALL_TREE_PANE, GtkBox)

/* The columns of both trees' GtkTreeStore. */
typedef enum
{
  ET_CALL_COL_NAME,        /* string */
  ET_CALL_COL_INCLUSIVE,   /* guint64 */
  ET_CALL_COL_EXCLUSIVE,   /* guint64 (bottom-up: the function's own, at the top) */
  ET_CALL_COL_PERCENT,     /* string: inclusive of all samples shown */
  ET_CALL_COL_MS,          /* string: inclusive × the sampling interval */
  ET_CALL_COL_NODE,        /* guint: the node in its tree */
  ET_CALL_COL_LOADED,      /* gboolean: its children are in the store */
  ET_CALL_N_COLUMNS,
} EtCallColumn;

GtkWidget        *et_call_tree_pane_new        (void);
void              et_call_tree_pane_set_trace  (EtCallTreePane *self,
                                                EtTrace        *trace);
/* Every thread's samples in [@from_ns, @to_ns] (unless a span is set). */
void              et_call_tree_pane_set_range  (EtCallTreePane *self,
                                                gint64          from_ns,
                                                gint64          to_ns);
/* The samples of thread @thread in [@from_ns, @to_ns] (a span's), over
 * the range, until et_call_tree_pane_clear_span. */
void              et_call_tree_pane_set_span   (EtCallTreePane *self,
                                                guint           thread,
                                                gint64          from_ns,
                                                gint64          to_ns);
/* Back to the range, from a span or a row's spans. */
void              et_call_tree_pane_clear_span (EtCallTreePane *self);
/* The samples of @ranges (EtCallRange; a Statistics row's spans, their
 * threads during them), over the range, until another span is set or
 * et_call_tree_pane_clear_span; @scope heads the tree. */
void              et_call_tree_pane_set_spans  (EtCallTreePane *self,
                                                GArray         *ranges,
                                                const char     *scope);
/* The selected marker's thread (-1: none): with "Only the selected
 * marker's thread" ticked, the range's tree is that thread's. */
void              et_call_tree_pane_set_marker_thread (EtCallTreePane *self,
                                                       gint            thread);
/* TRUE while a tree is computed (or waits for the pane to be shown). */
gboolean          et_call_tree_pane_is_busy    (EtCallTreePane *self);
/* The tree shown (NULL: none yet). */
const EtCallTree *et_call_tree_pane_get_tree   (EtCallTreePane *self);
/* The heading's text (transfer none). */
const char       *et_call_tree_pane_get_heading (EtCallTreePane *self);
/* What the pane says instead of a tree (no samples, and why), or NULL. */
const char       *et_call_tree_pane_get_message (EtCallTreePane *self);
/* The tree views: top-down (@bottom_up FALSE) or bottom-up. */
GtkTreeView      *et_call_tree_pane_get_view   (EtCallTreePane *self,
                                                gboolean        bottom_up);
/* As typing @text in the search entry and pressing Enter @n times: the
 * n-th frame whose name holds @text (most inclusive first) is revealed
 * and selected in the view shown. FALSE when none. */
gboolean          et_call_tree_pane_find       (EtCallTreePane *self,
                                                const char     *text);

G_END_DECLS
