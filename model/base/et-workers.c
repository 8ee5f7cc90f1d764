/* et-workers.c — see et-workers.h. */
#include "et-workers.h"

#include <stdlib.h>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Nice 10 weighs about a tenth of nice 0 with Linux's scheduler: a
 * thread at nice 0 that wakes gets nine tenths of a busy core. Nice 5
 * weighs three times nice 10 and a third of nice 0: pictures come before
 * the rest of the background work, after the main loop. */
static const int nice_of[] = { [ET_WORK_BACKGROUND] = 10, [ET_WORK_PICTURE] = 5 };

static GThread *interactive;           /* set once, before any worker starts */

void
et_workers_yield_to_this_thread (void)
{
  g_return_if_fail (interactive == NULL || interactive == g_thread_self ());
  interactive = g_thread_self ();
}

void
et_worker_begin_as (EtWork work)
{
#ifdef __linux__
  static _Thread_local int lowered_to;   /* 0: not lowered */
  id_t tid;

  g_return_if_fail (work == ET_WORK_BACKGROUND || work == ET_WORK_PICTURE);
  if (interactive == NULL || interactive == g_thread_self () || lowered_to >= nice_of[work])
    return;
  lowered_to = nice_of[work];
  /* The nice value is per thread on Linux (setpriority(2), NOTES): the
   * thread's own id lowers this thread only. Raising it needs no
   * privilege; it is not lowered again (that would), so a pool thread that
   * once worked stays in the background, which is where it works. */
  tid = (id_t) syscall (SYS_gettid);
  setpriority (PRIO_PROCESS, tid, MAX (getpriority (PRIO_PROCESS, tid), lowered_to));
#endif
}

void
et_worker_begin (void)
{
  et_worker_begin_as (ET_WORK_BACKGROUND);
}

guint
et_workers_count (guint64 work, guint64 min_work)
{
  const char *forced = g_getenv ("ETLSCOPE_THREADS");

  if (forced != NULL)
    return (guint) CLAMP (atoi (forced), 1, 64);
  return work < min_work ? 1 : (guint) CLAMP (g_get_num_processors (), 1, 8);
}

void
et_workers_run (gpointer items, gsize size, guint n, GThreadFunc func, const char *name)
{
  g_autofree GThread **threads = g_new0 (GThread *, MAX (n, 1));

  for (guint j = 1; j < n; j++)
    threads[j] = g_thread_new (name, func, (guint8 *) items + j * size);
  if (n > 0)
    func (items);
  for (guint j = 1; j < n; j++)
    g_thread_join (threads[j]);
}

gpointer
et_workers_new (guint n, gsize size)
{
  return g_aligned_alloc0 (MAX (n, 1), size, 64);
}

void
et_workers_free (gpointer items)
{
  g_aligned_free (items);
}
