/* et-call-tree-pane-private.h — what et-call-tree-pane.c (the widget, its
 * worker) and et-call-tree-rows.c (the rows of its two tree views) share. */
#pragma once

#include "et-call-tree-pane.h"
#include "et-call-bottom-up.h"

G_BEGIN_DECLS

/* What the worker computed for one scope. */
typedef struct
{
  EtCallTree *tree;
  EtBottomUp *bottom_up;
  gint64      interval_ns;
  guint64     trace_samples;  /* of the whole trace: none says what collects them */
  gboolean    no_stacks;      /* ETLSCOPE_NO_STACKS */
} EtCallResult;

void     _et_call_result_free   (gpointer            result);

/* Columns, store and lazy filling of @view; @result points at the pane's
 * current result (read at each expansion). */
void     _et_call_view_init     (GtkTreeView        *view,
                                 gboolean            bottom_up,
                                 EtCallResult      **result);
/* The rows of @result's top level, the hot path opened (NULL: empty). */
void     _et_call_view_fill     (GtkTreeView        *view,
                                 const EtCallResult *result);
/* Opens the rows down to @node, selects it and scrolls to it. */
void     _et_call_view_reveal   (GtkTreeView        *view,
                                 const EtCallResult *result,
                                 guint               node);
/* The symbol of the frame chosen in @view (G_MAXUINT32: none, or not a
 * frame). */
guint32  _et_call_view_chosen_symbol (GtkTreeView       *view,
                                      const EtCallResult *result);
/* The frames of the tree whose name holds @text (case aside), most
 * inclusive first, into @matches (guint). */
void     _et_call_find_matches  (const EtCallResult *result,
                                 gboolean            bottom_up,
                                 const char         *text,
                                 GArray             *matches);

G_END_DECLS
