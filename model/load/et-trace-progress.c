/* et-trace-progress.c — see et-trace-progress.h.
 *
 * Counting must cost loading nothing: the loops add a chunk of thousands
 * of units at a time with one atomic add, and only a chunk that passes the
 * next step (a 200th of the phase) takes the lock and calls out. The lock
 * also keeps the calls in order: a thread that lost the race to a later
 * count tells nothing rather than a smaller number.
 */
#include "et-trace-progress.h"

void
_et_trace_progress_init (EtTraceProgress *p, EtProgressFunc func, gpointer data)
{
  *p = (EtTraceProgress) { .func = func, .data = data };
  g_mutex_init (&p->lock);
}

void
_et_trace_progress_clear (EtTraceProgress *p)
{
  g_mutex_clear (&p->lock);
}

/* Under the lock. */
static void
tell (EtTraceProgress *p, guint64 done)
{
  __atomic_store_n (&p->told, done, __ATOMIC_RELAXED);
  p->func (p->phase, done, p->total, p->data);
}

void
_et_trace_progress_begin (EtTraceProgress *p, EtTracePhase phase, guint64 total)
{
  if (p->func == NULL)
    return;
  g_mutex_lock (&p->lock);
  p->phase = phase;
  p->total = total;
  p->step = MAX (total / ET_TRACE_PROGRESS_STEPS, 1);
  __atomic_store_n (&p->done, 0, __ATOMIC_RELAXED);
  tell (p, 0);
  g_mutex_unlock (&p->lock);
}

/* Any thread: tells @done if it passed the next step and nobody told more. */
static void
tell_if_due (EtTraceProgress *p, guint64 done)
{
  /* told is read without the lock first: a stale value only sends this
   * thread to the lock, where it is read again. */
  if (done < p->total && done < __atomic_load_n (&p->told, __ATOMIC_RELAXED) + p->step)
    return;
  g_mutex_lock (&p->lock);
  done = MIN (done, p->total);
  if (done > p->told && (done == p->total || done >= p->told + p->step))
    tell (p, done);
  g_mutex_unlock (&p->lock);
}

void
_et_trace_progress_add (EtTraceProgress *p, guint64 n)
{
  if (p->func == NULL || n == 0)
    return;
  /* GLib's atomics stop at 32 bits (and pointers): a phase may count
   * more than 2^32 units (bytes). */
  tell_if_due (p, __atomic_add_fetch (&p->done, n, __ATOMIC_RELAXED));
}

void
_et_trace_progress_set (EtTraceProgress *p, guint64 done)
{
  if (p->func == NULL)
    return;
  tell_if_due (p, done);
}

void
_et_trace_progress_end (EtTraceProgress *p)
{
  if (p->func == NULL)
    return;
  g_mutex_lock (&p->lock);
  if (p->told < p->total)
    tell (p, p->total);
  g_mutex_unlock (&p->lock);
}

void
_et_trace_progress_bytes (guint64 done, guint64 total, gpointer data)
{
  EtTraceProgress *p = data;

  /* Only the opening thread calls this: total is read without the lock. */
  if (p->func != NULL && (p->phase != ET_TRACE_PHASE_READING || p->total != total))
    _et_trace_progress_begin (p, ET_TRACE_PHASE_READING, total);
  _et_trace_progress_set (p, done);
}
