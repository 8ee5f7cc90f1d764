/* et-call-tree-pane.c — the Call Tree report (see et-call-tree-pane.h).
 *
 *   range or span ─ GTask thread: et_trace_get_stacks (built on first use),
 *     et_call_tree_new, et_bottom_up_new ─ EtCallResult ─ two tree views
 *     (et-call-tree-rows.c: filled a level at a time as rows are opened)
 *
 * Counting runs on a thread, and only while the pane is shown, as the
 * Statistics report does: a scope set while it is hidden is computed when
 * it is mapped. A newer scope cancels the older one's work (the call
 * tree's build checks its cancellable), so dragging across the ruler does
 * not queue trees nobody will see.
 */
#include "et-call-tree-pane-private.h"
#include "et-flame-view.h"
#include "et-i18n.h"
#include "et-timeline-render.h"
#include "et-trace-cpu.h"
#include "et-trace-stacks.h"
#include "et-workers.h"

#include <string.h>

struct _EtCallTreePane
{
  GtkBox          parent_instance;
  GtkLabel       *heading;
  GtkLabel       *empty_label;
  GtkStack       *views;
  GtkTreeView    *top_down;
  GtkTreeView    *bottom_up;
  EtFlameView    *flame;
  GtkSearchEntry *search;
  GtkCheckButton *this_thread;       /* the range of the selected marker's thread only */
  gint            marker_thread;      /* the selected marker's thread, or -1 */
  EtTrace        *trace;
  gint64          from_ns, to_ns;     /* the range */
  gboolean        has_range;
  gint            span_thread;        /* -1: no span */
  gint64          span_from, span_to;
  GArray         *spans;              /* EtCallRange: a Statistics row's spans, or NULL */
  char           *spans_scope;        /* their words in the heading */
  gboolean        dirty;              /* the scope changed while hidden */
  GCancellable   *cancellable;        /* of the computation in progress */
  EtCallResult   *result;
  GArray         *matches;            /* guint: nodes whose name holds match_text */
  char           *match_text;
  guint           match;              /* the one shown */
};

G_DEFINE_FINAL_TYPE (EtCallTreePane, et_call_tree_pane, GTK_TYPE_BOX)

enum { SIGNAL_FRAME_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Stops the computation in progress, if any (its result is dropped). */
static void
cancel_work (EtCallTreePane *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

/* ---- the heading ---------------------------------------------------------- */

/* The thread of the range's tree: the selected marker's when "only its
 * thread" is ticked, else -1 (every thread). */
static gint
range_thread (EtCallTreePane *self)
{
  return gtk_check_button_get_active (self->this_thread) ? self->marker_thread : -1;
}

static void
append_scope (EtCallTreePane *self, GString *out)
{
  g_autoptr(GString) from = g_string_new (NULL), to = g_string_new (NULL);
  gboolean span = self->span_thread >= 0;

  if (self->spans != NULL)
    {
      g_string_append (out, self->spans_scope);
      return;
    }
  et_format_time_display (span ? self->span_from : self->from_ns, from);
  et_format_time_display (span ? self->span_to : self->to_ns, to);
  if (span)
    {
      const EtThread *t = et_trace_get_thread (self->trace, (guint) self->span_thread);

      /* Translators: the Call Tree's scope: a span's thread id and its times */
      g_string_append_printf (out, _("Thread %u, the span from %s to %s"), t->tid, from->str, to->str);
    }
  else if (range_thread (self) >= 0)
    /* Translators: the Call Tree's scope: one thread (its id) in a time range */
    g_string_append_printf (out, _("Thread %u from %s to %s"),
                            et_trace_get_thread (self->trace, (guint) range_thread (self))->tid,
                            from->str, to->str);
  else
    /* Translators: the Call Tree's scope: every thread in a time range */
    g_string_append_printf (out, _("All threads from %s to %s"), from->str, to->str);
}

static void
set_heading (EtCallTreePane *self)
{
  const EtCallResult *r = self->result;
  g_autoptr(GString) text = g_string_new (NULL), interval = g_string_new (NULL);
  guint64 n = r->tree != NULL ? et_call_tree_node (r->tree, 0)->inclusive : 0;
  g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
  g_autofree char *ms = g_strdup_printf ("%'.1f", n * (r->interval_ns / 1e6));
  g_autofree char *tip = NULL;

  append_scope (self, text);
  et_format_duration_display (r->interval_ns, interval);
  g_string_append (text, ": ");
  /* Translators: the Call Tree's heading after its scope: "1,234 CPU samples
   * ≈ 1,234.0 ms (1 ms each)" */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s CPU sample ≈ %s ms (%s each)",
                                             "%s CPU samples ≈ %s ms (%s each)", n),
                          count, ms, interval->str);
  gtk_label_set_text (self->heading, text->str);
  /* Translators: the tooltip of the Call Tree's heading; %s: a duration */
  tip = g_strdup_printf (_("%s\nTimes are estimated: samples × the sampling interval (%s: the "
                           "trace's own, 1 ms when it names none)."), text->str, interval->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->heading), tip);
}

/* What the empty pane says: no stacks read, none in the trace, none here. */
static void
set_empty_text (EtCallTreePane *self)
{
  const EtCallResult *r = self->result;
  gboolean empty = r->tree == NULL || et_call_tree_node (r->tree, 0)->inclusive == 0;

  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), empty);
  gtk_widget_set_visible (GTK_WIDGET (self->views), !empty);
  if (r->no_stacks)
    gtk_label_set_text (self->empty_label,
                        _("Call stacks were not read: ETLSCOPE_NO_STACKS is set."));
  else if (r->trace_samples == 0)
    gtk_label_set_text (self->empty_label,
                        _("This trace has no CPU samples. Collect them with PerfView's default "
                          "collection or WPR's CPU profile (.etl, with stacks), or with "
                          "dotnet-trace's cpu-sampling profile (.nettrace)."));
  else
    gtk_label_set_text (self->empty_label,
                        self->spans != NULL
                        ? _("No CPU samples of these spans' threads during them.")
                        : self->span_thread >= 0
                        ? _("No CPU samples of this thread during the span.")
                        : _("No CPU samples in this range."));
}

/* ---- computing on a thread ------------------------------------------------ */

typedef struct
{
  EtTrace *trace;
  GArray  *ranges;      /* EtCallRange */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_object_unref (job->trace);
  g_array_unref (job->ranges);
  g_free (job);
}

/* The scope as ranges: the row's spans, the span's thread and time, or
 * the range of every thread (or of the selected marker's). */
static GArray *
scope_ranges (EtCallTreePane *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EtCallRange));
  gint thread = self->span_thread >= 0 ? self->span_thread : range_thread (self);
  gint64 from = self->span_thread >= 0 ? self->span_from : self->from_ns;
  gint64 to = self->span_thread >= 0 ? self->span_to : self->to_ns;

  if (self->spans != NULL)
    {
      g_array_append_vals (out, self->spans->data, self->spans->len);
      return out;
    }
  for (guint i = 0; i < et_trace_get_n_threads (self->trace); i++)
    {
      const EtThread *t = et_trace_get_thread (self->trace, i);
      EtCallRange r = { { i, t->pid, t->tid }, from, to };

      if (thread < 0 || (guint) thread == i)
        g_array_append_val (out, r);
    }
  return out;
}

static void
compute_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  EtCallResult *r = g_new0 (EtCallResult, 1);
  EtStacks *stacks;
  gint64 t0 = g_get_monotonic_time (), t1, t2;

  et_worker_begin ();
  stacks = et_trace_get_stacks (job->trace);
  t1 = g_get_monotonic_time ();
  r->interval_ns = et_trace_sample_interval_ns (job->trace);
  r->no_stacks = stacks == NULL;
  if (stacks != NULL)
    {
      r->trace_samples = et_stacks_get_stats (stacks).samples;
      r->tree = et_call_tree_new_ranges (stacks, (const EtCallRange *) (gconstpointer) job->ranges->data,
                                         job->ranges->len, cancellable);
      t2 = g_get_monotonic_time ();
      if (r->tree != NULL)
        r->bottom_up = et_bottom_up_new (r->tree, cancellable);
      if (r->tree != NULL && r->bottom_up != NULL && g_getenv ("ETLSCOPE_TIMING") != NULL)
        /* (as loading's phases print theirs: for profiling, never translated) */
        g_printerr ("call tree: %" G_GUINT64_FORMAT " samples, %u nodes, %u bottom-up; stacks %.1f ms, "
                    "tree %.1f ms, bottom-up %.1f ms\n",
                    et_call_tree_node (r->tree, 0)->inclusive, et_call_tree_n_nodes (r->tree),
                    et_bottom_up_n_nodes (r->bottom_up), (t1 - t0) / 1e3, (t2 - t1) / 1e3,
                    (g_get_monotonic_time () - t2) / 1e3);
      if (r->tree == NULL || r->bottom_up == NULL)
        g_clear_pointer (&r, _et_call_result_free);     /* cancelled: a newer scope follows */
    }
  g_task_return_pointer (task, r, _et_call_result_free);
}

static void
clear_search (EtCallTreePane *self)
{
  g_clear_pointer (&self->match_text, g_free);
  g_array_set_size (self->matches, 0);
}

/* The three views of self->result (none: empty). */
static void
show_result (EtCallTreePane *self)
{
  _et_call_view_fill (self->top_down, self->result);
  _et_call_view_fill (self->bottom_up, self->result);
  et_flame_view_set_tree (self->flame, self->result != NULL ? self->result->tree : NULL);
}

static void
computed (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autoptr(EtCallTreePane) self = data;
  EtCallResult *r = g_task_propagate_pointer (G_TASK (res), NULL);
  gint64 t0 = g_get_monotonic_time ();

  if (r == NULL || g_task_get_cancellable (G_TASK (res)) != self->cancellable)
    {
      _et_call_result_free (r);
      return;
    }
  g_clear_object (&self->cancellable);
  /* The old rows go first, with no tree: clearing them moves the cursor,
   * whose node would be read against the new tree (out of its range) */
  g_clear_pointer (&self->result, _et_call_result_free);
  show_result (self);
  self->result = r;
  clear_search (self);
  show_result (self);
  set_heading (self);
  set_empty_text (self);
  if (g_getenv ("ETLSCOPE_TIMING") != NULL)
    g_printerr ("call tree: shown in %.1f ms (the main loop's part)\n",
                (g_get_monotonic_time () - t0) / 1e3);
}

static void
start (EtCallTreePane *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  self->dirty = FALSE;
  cancel_work (self);
  if (self->trace == NULL || (!self->has_range && self->span_thread < 0 && self->spans == NULL))
    return;
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->trace = g_object_ref (self->trace);
  job->ranges = scope_ranges (self);
  task = g_task_new (NULL, self->cancellable, computed, g_object_ref (self));
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, compute_in_thread);
}

/* The scope changed: now if shown, else when shown. */
static void
scope_changed (EtCallTreePane *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start (self);
  else
    self->dirty = TRUE;
}

static void
on_this_thread_toggled (GtkCheckButton *check, gpointer data)
{
  EtCallTreePane *self = data;

  if (self->span_thread < 0 && self->spans == NULL && self->marker_thread >= 0)
    scope_changed (self);
}

static void
on_map (GtkWidget *widget, gpointer data)
{
  EtCallTreePane *self = ET_CALL_TREE_PANE (widget);

  if (self->dirty)
    start (self);
}

/* ---- searching ------------------------------------------------------------ */

gboolean
et_call_tree_pane_find (EtCallTreePane *self, const char *text)
{
  GtkTreeView *view;

  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), FALSE);
  if (self->result == NULL || self->result->tree == NULL || text == NULL || *text == '\0')
    return FALSE;
  view = g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "bottom-up") == 0
         ? self->bottom_up : self->top_down;
  if (g_strcmp0 (text, self->match_text) != 0)
    {
      g_free (self->match_text);
      self->match_text = g_strdup (text);
      _et_call_find_matches (self->result, view == self->bottom_up, text, self->matches);
      self->match = G_MAXUINT;
    }
  if (self->matches->len == 0)
    return FALSE;
  self->match = self->match + 1 < self->matches->len ? self->match + 1 : 0;
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "flame") == 0)
    et_flame_view_zoom (self->flame, g_array_index (self->matches, guint, self->match));
  else
    _et_call_view_reveal (view, self->result, g_array_index (self->matches, guint, self->match));
  return TRUE;
}

static void
on_search_activate (GtkSearchEntry *entry, gpointer data)
{
  EtCallTreePane *self = data;
  gboolean found = et_call_tree_pane_find (self, gtk_editable_get_text (GTK_EDITABLE (entry)));

  if (found)
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
}

/* Another view: its own matches. */
static void
on_view_switched (GObject *stack, GParamSpec *pspec, gpointer data)
{
  clear_search (data);
}

/* ---- a chosen frame ------------------------------------------------------- */

static void
on_cursor_changed (GtkTreeView *view, gpointer data)
{
  EtCallTreePane *self = data;

  g_signal_emit (self, signals[SIGNAL_FRAME_CHOSEN], 0,
                 (guint) _et_call_view_chosen_symbol (view, self->result));
}

static void
on_flame_zoomed (EtFlameView *flame, guint node, gpointer data)
{
  EtCallTreePane *self = data;
  const EtCallNode *n = et_call_tree_node (self->result->tree, node);

  g_signal_emit (self, signals[SIGNAL_FRAME_CHOSEN], 0,
                 n->level == ET_CALL_FRAME && node != 0 ? (guint) n->id : G_MAXUINT);
}

/* ---- the rest ------------------------------------------------------------- */

static void
et_call_tree_pane_dispose (GObject *object)
{
  EtCallTreePane *self = ET_CALL_TREE_PANE (object);

  cancel_work (self);
  g_clear_pointer (&self->result, _et_call_result_free);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->match_text, g_free);
  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->spans_scope, g_free);
  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), ET_TYPE_CALL_TREE_PANE);
  G_OBJECT_CLASS (et_call_tree_pane_parent_class)->dispose (object);
}

static void
et_call_tree_pane_class_init (EtCallTreePaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_call_tree_pane_dispose;
  g_type_ensure (ET_TYPE_FLAME_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-call-tree-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, heading);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, empty_label);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, views);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, top_down);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, bottom_up);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, flame);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, search);
  gtk_widget_class_bind_template_child (widget_class, EtCallTreePane, this_thread);
  gtk_widget_class_bind_template_callback (widget_class, on_this_thread_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_view_switched);
  /* A frame chosen in a view (guint: its symbol, et_stacks_name's id;
   * G_MAXUINT: a row that is no frame, or a new tree). */
  signals[SIGNAL_FRAME_CHOSEN] =
    g_signal_new ("frame-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
et_call_tree_pane_init (EtCallTreePane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->span_thread = -1;
  self->marker_thread = -1;
  self->matches = g_array_new (FALSE, FALSE, sizeof (guint));
  _et_call_view_init (self->top_down, FALSE, &self->result);
  _et_call_view_init (self->bottom_up, TRUE, &self->result);
  g_signal_connect (self->top_down, "cursor-changed", G_CALLBACK (on_cursor_changed), self);
  g_signal_connect (self->bottom_up, "cursor-changed", G_CALLBACK (on_cursor_changed), self);
  g_signal_connect (self->flame, "zoomed", G_CALLBACK (on_flame_zoomed), self);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

GtkWidget *
et_call_tree_pane_new (void)
{
  return g_object_new (ET_TYPE_CALL_TREE_PANE, NULL);
}

void
et_call_tree_pane_set_trace (EtCallTreePane *self, EtTrace *trace)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self));
  cancel_work (self);
  g_set_object (&self->trace, trace);
  g_clear_pointer (&self->result, _et_call_result_free);
  clear_search (self);
  show_result (self);
  self->has_range = FALSE;
  self->span_thread = -1;
  self->marker_thread = -1;
  g_clear_pointer (&self->spans, g_array_unref);
  gtk_widget_set_sensitive (GTK_WIDGET (self->this_thread), FALSE);
  self->dirty = FALSE;
  gtk_label_set_text (self->heading, "");
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), FALSE);
}

void
et_call_tree_pane_set_range (EtCallTreePane *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self));
  if (self->has_range && self->from_ns == from_ns && self->to_ns == to_ns)
    return;
  self->from_ns = from_ns;
  self->to_ns = to_ns;
  self->has_range = TRUE;
  if (self->span_thread < 0 && self->spans == NULL)
    scope_changed (self);
}

void
et_call_tree_pane_set_span (EtCallTreePane *self, guint thread, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self));
  if (self->spans == NULL && self->span_thread == (gint) thread && self->span_from == from_ns
      && self->span_to == to_ns)
    return;
  g_clear_pointer (&self->spans, g_array_unref);
  self->span_thread = (gint) thread;
  self->span_from = from_ns;
  self->span_to = to_ns;
  scope_changed (self);
}

void
et_call_tree_pane_set_marker_thread (EtCallTreePane *self, gint thread)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self));
  gtk_widget_set_sensitive (GTK_WIDGET (self->this_thread), thread >= 0);
  if (self->marker_thread == thread)
    return;
  self->marker_thread = thread;
  if (self->span_thread < 0 && self->spans == NULL && gtk_check_button_get_active (self->this_thread))
    scope_changed (self);
}

void
et_call_tree_pane_clear_span (EtCallTreePane *self)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self));
  if (self->span_thread < 0 && self->spans == NULL)
    return;
  self->span_thread = -1;
  g_clear_pointer (&self->spans, g_array_unref);
  scope_changed (self);
}

void
et_call_tree_pane_set_spans (EtCallTreePane *self, GArray *ranges, const char *scope)
{
  g_return_if_fail (ET_IS_CALL_TREE_PANE (self) && ranges != NULL && scope != NULL);
  g_clear_pointer (&self->spans, g_array_unref);
  self->spans = g_array_ref (ranges);
  g_free (self->spans_scope);
  self->spans_scope = g_strdup (scope);
  self->span_thread = -1;
  scope_changed (self);
}

gboolean
et_call_tree_pane_is_busy (EtCallTreePane *self)
{
  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), FALSE);
  return self->cancellable != NULL || (self->dirty && gtk_widget_get_mapped (GTK_WIDGET (self)));
}

const EtCallTree *
et_call_tree_pane_get_tree (EtCallTreePane *self)
{
  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), NULL);
  return self->result != NULL ? self->result->tree : NULL;
}

const char *
et_call_tree_pane_get_heading (EtCallTreePane *self)
{
  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), NULL);
  return gtk_label_get_text (self->heading);
}

const char *
et_call_tree_pane_get_message (EtCallTreePane *self)
{
  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->empty_label))
         ? gtk_label_get_text (self->empty_label) : NULL;
}

GtkTreeView *
et_call_tree_pane_get_view (EtCallTreePane *self, gboolean bottom_up)
{
  g_return_val_if_fail (ET_IS_CALL_TREE_PANE (self), NULL);
  return bottom_up ? self->bottom_up : self->top_down;
}
