/* et-loader.c — see et-loader.h.
 *
 * The model calls the progress function from the loading thread, possibly
 * thousands of times. Each call only stores the numbers under a lock; at
 * most one hop to the main context is queued at a time, so the main loop
 * sees the latest numbers without a flood of idle sources.
 *
 * The phases (reading, decoding, pairing, laying out threads) hop the
 * same way; each one reached is told once, in order, even when several
 * are reached between two hops, and each one left is told at its total
 * first: a bar shows every phase end full, however fast it went.
 */
#include "et-loader.h"
#include "et-trace-load.h"

#include <string.h>

struct _EtLoader
{
  GObject       parent_instance;

  char         *path;
  EtLoadFlags   flags;
  GMainContext *context;       /* where "progress" is emitted */
  GMutex        lock;          /* guards the five fields below */
  guint64       done;
  guint64       total;
  gboolean      hop_pending;   /* a main-context callback is queued */
  EtLoadPhase   phase;         /* reached on the thread */
  guint64       totals[ET_TRACE_N_PHASES];   /* each phase's total */
  EtLoadPhase   told;          /* last "phase" emitted */
  guint64       told_done, told_total; /* last "progress" emitted */
  EtLayout     *layout;        /* made beside the trace, until taken */
};

/* What the thread makes: the trace and its first layout. */
typedef struct
{
  EtTrace  *trace;
  EtLayout *layout;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_object (&loaded->trace);
  g_clear_pointer (&loaded->layout, et_layout_free);
  g_free (loaded);
}

G_DEFINE_FINAL_TYPE (EtLoader, et_loader, G_TYPE_OBJECT)

enum { SIGNAL_PROGRESS, SIGNAL_PHASE, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Main context: "progress" for the phase told, unless it repeats. */
static void
tell_numbers (EtLoader *self, guint64 done, guint64 total)
{
  if (done != self->told_done || total != self->told_total)
    {
      self->told_done = done, self->told_total = total;
      g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, done, total);
    }
}

/* Main context. */
static gboolean
emit_progress (gpointer data)
{
  EtLoader *self = data;
  guint64 done, total, totals[ET_TRACE_N_PHASES];
  EtLoadPhase phase;

  g_mutex_lock (&self->lock);
  self->hop_pending = FALSE;
  done = self->done;
  total = self->total;
  phase = self->phase;
  memcpy (totals, self->totals, sizeof totals);
  g_mutex_unlock (&self->lock);
  while (self->told < phase)
    {
      tell_numbers (self, totals[self->told], totals[self->told]);
      self->told++;
      g_signal_emit (self, signals[SIGNAL_PHASE], 0, (guint) self->told);
    }
  tell_numbers (self, done, total);
  return G_SOURCE_REMOVE;
}

/* Loader thread: what the main context is told next; @phase only
 * advances. */
static void
report (EtLoader *self, guint64 done, guint64 total, EtLoadPhase phase)
{
  gboolean hop;

  g_mutex_lock (&self->lock);
  self->done = done;
  self->total = total;
  self->phase = MAX (self->phase, phase);
  self->totals[phase] = total;
  hop = !self->hop_pending;
  self->hop_pending = TRUE;
  g_mutex_unlock (&self->lock);
  if (hop)
    {
      /* An attached source, not g_main_context_invoke: that runs the
       * function right here, on the loading thread, whenever the context
       * is between iterations (nobody owns it), and "progress" handlers
       * touch widgets. */
      GSource *source = g_idle_source_new ();

      /* The task's result comes at the default priority: a hop queued
       * before it (the last phase is reported before the result) is told
       * before it, not after the load has ended. One hop at a time never
       * crowds the main loop. */
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, emit_progress, g_object_ref (self), g_object_unref);
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

/* Loader thread (the model's calls come one at a time, in order). */
static void
on_progress (EtTracePhase phase, guint64 done, guint64 total, gpointer data)
{
  report (data, done, total, (EtLoadPhase) phase);
}

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  EtLoader *self = source;
  GError *error = NULL;
  EtTrace *trace;

  trace = et_trace_load (self->path, self->flags, on_progress, self, cancellable, &error);
  if (trace == NULL)
    g_task_return_error (task, error);
  else if (g_task_return_error_if_cancelled (task))
    g_object_unref (trace);
  else
    {
      /* The first layout of a server's short-lived threads (15,000 threads,
       * 304,000 channels) took 23 ms the window's main loop would stall
       * for (7 ms since threads carry their own summaries). It is not
       * counted: the bar stands full at the end of the channels' layout
       * meanwhile, under the same name. */
      Loaded *loaded = g_new0 (Loaded, 1);

      loaded->trace = trace;
      loaded->layout = et_layout_new (trace);
      g_task_return_pointer (task, loaded, loaded_free);
    }
}

void
et_loader_load_async (EtLoader *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ET_IS_LOADER (self));
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, et_loader_load_async);
  /* Cancelling must not wait for the model to notice: the caller gets
   * G_IO_ERROR_CANCELLED at once and the thread's result is dropped. */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, load_in_thread);
}

EtTrace *
et_loader_load_finish (EtLoader *self, GAsyncResult *result, GError **error)
{
  Loaded *loaded;
  EtTrace *trace;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;
  trace = g_steal_pointer (&loaded->trace);
  g_clear_pointer (&self->layout, et_layout_free);
  self->layout = g_steal_pointer (&loaded->layout);
  loaded_free (loaded);
  return trace;
}

EtLayout *
et_loader_take_layout (EtLoader *self)
{
  g_return_val_if_fail (ET_IS_LOADER (self), NULL);
  return g_steal_pointer (&self->layout);
}

static void
et_loader_finalize (GObject *object)
{
  EtLoader *self = ET_LOADER (object);

  g_free (self->path);
  g_clear_pointer (&self->layout, et_layout_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (et_loader_parent_class)->finalize (object);
}

static void
et_loader_class_init (EtLoaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = et_loader_finalize;
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);
  signals[SIGNAL_PHASE] =
    g_signal_new ("phase", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
et_loader_init (EtLoader *self)
{
  g_mutex_init (&self->lock);
}

EtLoader *
et_loader_new (const char *path, EtLoadFlags flags)
{
  EtLoader *self;

  g_return_val_if_fail (path != NULL, NULL);
  self = g_object_new (ET_TYPE_LOADER, NULL);
  self->path = g_strdup (path);
  self->flags = flags;
  return self;
}

const char *
et_loader_get_path (EtLoader *self)
{
  g_return_val_if_fail (ET_IS_LOADER (self), NULL);
  return self->path;
}

EtLoadPhase
et_loader_get_phase (EtLoader *self)
{
  g_return_val_if_fail (ET_IS_LOADER (self), ET_LOAD_PHASE_READING);
  return self->told;
}

guint64
et_loader_get_done (EtLoader *self)
{
  guint64 done;

  g_return_val_if_fail (ET_IS_LOADER (self), 0);
  g_mutex_lock (&self->lock);
  done = self->done;
  g_mutex_unlock (&self->lock);
  return done;
}

guint64
et_loader_get_total (EtLoader *self)
{
  guint64 total;

  g_return_val_if_fail (ET_IS_LOADER (self), 0);
  g_mutex_lock (&self->lock);
  total = self->total;
  g_mutex_unlock (&self->lock);
  return total;
}
