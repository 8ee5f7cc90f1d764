/* et-sample-marks.c — see et-sample-marks.h.
 *
 *   frame symbol ─ GTask thread: per prefix-tree node "holds it?" (callers
 *     first: node ids grow from caller to callee), then each thread's
 *     samples ─ times per thread ─ et_cpu_marks_draw over the timeline
 *
 * A frame whose name depends on when it ran (code unloaded and other code
 * loaded at its address) cannot be judged once per node: the nodes under
 * it are judged again at each sample's time.
 */
#include "et-sample-marks.h"
#include "et-cpu-marks.h"
#include "et-trace-stacks.h"
#include "et-workers.h"

struct _EtSampleMarks
{
  GtkWidget       parent_instance;
  EtTimelineView *timeline;     /* not owned: the window's, which outlives this */
  EtTrace        *trace;
  EtLayout       *layout;
  GPtrArray      *times;        /* GArray of gint64 per thread, or NULL */
  guint64         n_samples;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (EtSampleMarks, et_sample_marks, GTK_TYPE_WIDGET)

enum { NO, YES, AT_ITS_TIME };

/* ---- which samples (on a thread) ---------------------------------------- */

static gboolean
holds_at (const EtStacks *stacks, guint32 node, gint64 ns, guint32 symbol, GArray *scratch)
{
  g_array_set_size (scratch, 0);
  et_stacks_node_symbols (stacks, node, ns, scratch);
  for (guint i = 0; i < scratch->len; i++)
    if (g_array_index (scratch, guint32, i) == symbol)
      return TRUE;
  return FALSE;
}

/* Per node: whether its stack holds @symbol, or that it depends. */
static guint8 *
judge_nodes (EtStacks *stacks, guint32 symbol)
{
  EtStackTree *tree = et_stacks_tree (stacks);
  guint32 n = et_stack_tree_n_nodes (tree);
  guint8 *state = g_new0 (guint8, MAX (n, 1));

  for (guint32 i = 1; i < n; i++)
    {
      guint32 caller = et_stack_tree_caller (tree, i), frame = et_stack_tree_frame (tree, i);

      if (state[caller] == YES)
        state[i] = YES;
      else if (et_stacks_frame_timed (stacks, frame))
        state[i] = AT_ITS_TIME;
      else if (et_stacks_frame_symbol (stacks, frame, 0) == symbol)
        state[i] = YES;
      else
        state[i] = state[caller];
    }
  return state;
}

/* (threads without marks hold NULL) */
static void
times_free (gpointer times)
{
  if (times != NULL)
    g_array_unref (times);
}

static GPtrArray *
frame_samples (EtTrace *trace, guint32 symbol, GCancellable *cancellable)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  GPtrArray *out = g_ptr_array_new_with_free_func (times_free);
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint8 *state = stacks != NULL ? judge_nodes (stacks, symbol) : NULL;

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      const gint64 *ns;
      const guint32 *nodes;
      guint n = stacks != NULL ? et_stacks_thread_samples (stacks, t, &ns, &nodes) : 0;
      GArray *times = NULL;

      for (guint k = 0; k < n && !g_cancellable_is_cancelled (cancellable); k++)
        if (state[nodes[k]] == YES
            || (state[nodes[k]] == AT_ITS_TIME && holds_at (stacks, nodes[k], ns[k], symbol, scratch)))
          {
            if (times == NULL)
              times = g_array_new (FALSE, FALSE, sizeof (gint64));
            g_array_append_val (times, ns[k]);
          }
      g_ptr_array_add (out, times);
    }
  return out;
}

static void
find_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  et_worker_begin ();
  g_task_return_pointer (task, frame_samples (source, GPOINTER_TO_UINT (data), cancellable),
                         (GDestroyNotify) g_ptr_array_unref);
}

static void
set_times (EtSampleMarks *self, GPtrArray *times)
{
  g_clear_pointer (&self->times, g_ptr_array_unref);
  self->times = times;
  self->n_samples = 0;
  for (guint t = 0; times != NULL && t < times->len; t++)
    if (g_ptr_array_index (times, t) != NULL)
      self->n_samples += ((GArray *) g_ptr_array_index (times, t))->len;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
found (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtSampleMarks) self = data;
  GPtrArray *times = g_task_propagate_pointer (G_TASK (result), NULL);

  if (times == NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&times, g_ptr_array_unref);
      return;                                 /* another frame was chosen */
    }
  g_clear_object (&self->cancellable);
  set_times (self, times);
}

/* ---- the widget ----------------------------------------------------------- */

static void
et_sample_marks_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  EtSampleMarks *self = ET_SAMPLE_MARKS (widget);
  cairo_t *cr;

  if (self->times == NULL || self->timeline == NULL || self->trace == NULL)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                 gtk_widget_get_height (widget)));
  et_cpu_marks_draw (cr, self->trace, self->layout, et_timeline_view_get_viewport (self->timeline),
                     self->times);
  cairo_destroy (cr);
}

static void
cancel_work (EtSampleMarks *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

static void
et_sample_marks_dispose (GObject *object)
{
  EtSampleMarks *self = ET_SAMPLE_MARKS (object);

  cancel_work (self);
  et_sample_marks_set_trace (self, NULL, NULL, NULL);
  G_OBJECT_CLASS (et_sample_marks_parent_class)->dispose (object);
}

static void
et_sample_marks_class_init (EtSampleMarksClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = et_sample_marks_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = et_sample_marks_snapshot;
}

static void
et_sample_marks_init (EtSampleMarks *self)
{
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}

GtkWidget *
et_sample_marks_new (void)
{
  return g_object_new (ET_TYPE_SAMPLE_MARKS, NULL);
}

/* The view moved or its rows changed: the marks follow. */
static void
on_timeline_changed (EtTimelineView *timeline, gpointer data)
{
  gtk_widget_queue_draw (GTK_WIDGET (data));
}

void
et_sample_marks_set_trace (EtSampleMarks *self, EtTimelineView *timeline, EtTrace *trace,
                           EtLayout *layout)
{
  g_return_if_fail (ET_IS_SAMPLE_MARKS (self));
  cancel_work (self);
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  self->timeline = timeline;
  if (timeline != NULL)
    {
      g_signal_connect (timeline, "range-changed", G_CALLBACK (on_timeline_changed), self);
      g_signal_connect (timeline, "layout-changed", G_CALLBACK (on_timeline_changed), self);
    }
  g_set_object (&self->trace, trace);
  self->layout = layout;
  set_times (self, NULL);
}

void
et_sample_marks_set_frame (EtSampleMarks *self, guint32 symbol)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ET_IS_SAMPLE_MARKS (self));
  cancel_work (self);
  set_times (self, NULL);
  if (self->trace == NULL || symbol == ET_SAMPLE_MARKS_NONE)
    return;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self->trace, self->cancellable, found, g_object_ref (self));
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, GUINT_TO_POINTER (symbol), NULL);
  g_task_run_in_thread (task, find_in_thread);
}

gboolean
et_sample_marks_is_busy (EtSampleMarks *self)
{
  g_return_val_if_fail (ET_IS_SAMPLE_MARKS (self), FALSE);
  return self->cancellable != NULL;
}

const GArray *
et_sample_marks_get_times (EtSampleMarks *self, guint thread)
{
  g_return_val_if_fail (ET_IS_SAMPLE_MARKS (self), NULL);
  if (self->times == NULL || thread >= self->times->len)
    return NULL;
  return g_ptr_array_index (self->times, thread);
}

guint64
et_sample_marks_get_n_samples (EtSampleMarks *self)
{
  g_return_val_if_fail (ET_IS_SAMPLE_MARKS (self), 0);
  return self->n_samples;
}
