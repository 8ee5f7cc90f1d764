/* et-workers.h — the model's background threads and an interactive one. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Called once by a program with a window, on its main thread: from then
 * on every other thread that does the model's heavy work (walking,
 * decoding, pairing, searching) runs at a lower priority. Loading and
 * searching use every core; without this, the main loop waits its turn
 * for a core behind them and a frame's work takes two or three frames. */
void et_workers_yield_to_this_thread (void);

/* Called by a thread as it begins heavy work: lowers its priority (once)
 * when et_workers_yield_to_this_thread was called and this is not that
 * thread; does nothing otherwise. */
void et_worker_begin (void);

/* The same for work of a kind: a picture the window waits for runs ahead
 * of the rest (loading, lists, statistics), still behind the main loop.
 * A thread never rises again (that needs privileges): work of both kinds
 * needs threads of its own. */
typedef enum
{
  ET_WORK_BACKGROUND,
  ET_WORK_PICTURE,
} EtWork;

void et_worker_begin_as (EtWork work);

/* How many threads share work of size @work: one below @min_work (a
 * thread costs more than it saves), else one per core, at most 8. The
 * environment variable ETLSCOPE_THREADS (1…64) decides instead, for tests
 * and benchmarks. */
guint et_workers_count (guint64 work,
                        guint64 min_work);

/* Runs @func on each of the @n items of @size bytes at @items, the first
 * on this thread and each other on a thread named @name; returns when all
 * are done. */
void  et_workers_run   (gpointer     items,
                        gsize        size,
                        guint        n,
                        GThreadFunc  func,
                        const char  *name);

/* The type of the items of et_workers_run whose threads write them as
 * they go (counts, positions): no cache line is shared by two, which
 * would pass between the cores at every write. Their arrays come from
 * et_workers_new, aligned to match. Laying out large 1 M, its channels
 * were counted in 13.2-13.5 ms of CPU or, in three runs of ten, 14.3-19.2:
 * the same code, its two parts' counts sharing a line or not. */
#define ET_WORKER_ITEM __attribute__ ((aligned (64)))

/* @n zeroed items of @size bytes (of an ET_WORKER_ITEM type), for
 * et_workers_run; freed with et_workers_free. */
gpointer et_workers_new  (guint     n,
                          gsize     size);
void     et_workers_free (gpointer  items);

G_END_DECLS
