/* et-layout-threads.c — the thread rows of the layout (see et-layout.h):
 * per-thread summaries, collapsed or expanded, order, empty threads.
 *
 * A thread's summary (lifetime, marker count) is the model's
 * (et_trace_thread_summary) when the layout is made; what depends on the
 * filters (which channels are shown, so the merged row's depths and
 * lanes, and the default of collapsed or not) again when they change:
 * from the thread's summary while all its channels are shown, else from
 * its channels' own (which the model then makes for that thread).
 */
#include "et-layout-private.h"
#include "et-trace-cpu.h"

#include <string.h>

void
et_layout_threads_init (EtLayout *l)
{
  guint n = et_trace_get_n_threads (l->trace), n_processes = et_trace_get_n_processes (l->trace);

  l->threads = g_new (EtLayoutThread, MAX (n, 1));
  l->thread_choice = g_new0 (gint8, MAX (n, 1));
  l->thread_merged = g_new0 (gboolean, MAX (n, 1));
  l->thread_depths = g_new0 (guint64, MAX (n, 1));
  l->thread_lanes = g_new0 (guint, MAX (n, 1));
  l->thread_rank = g_new0 (gint, MAX (n, 1));
  l->row_of_thread = g_new (gint, MAX (n, 1));
  l->ordered = g_new0 (guint, MAX (n, 1));
  l->ordered_at = g_new0 (guint, n_processes + 1);
  l->listed = g_new0 (gboolean, MAX (n, 1));
  l->shown_stale = l->order_stale = TRUE;
  for (guint t = 0; t < n; t++)
    {
      EtThreadSummary markers = et_trace_thread_summary (l->trace, t);

      l->threads[t] = (EtLayoutThread) { markers.first_ns, markers.last_ns, markers.n_markers,
                                         et_trace_thread_cpu_ns (l->trace, t) };
      l->row_of_thread[t] = -1;
    }
}

void
et_layout_threads_copy (EtLayout *c, EtLayout *l)
{
  guint n = MAX (et_trace_get_n_threads (l->trace), 1);

  c->threads = g_memdup2 (l->threads, n * sizeof (EtLayoutThread));
  c->thread_choice = g_memdup2 (l->thread_choice, n * sizeof (gint8));
  c->thread_merged = g_memdup2 (l->thread_merged, n * sizeof (gboolean));
  c->thread_depths = g_memdup2 (l->thread_depths, n * sizeof (guint64));
  c->thread_lanes = g_memdup2 (l->thread_lanes, n * sizeof (guint));
  c->thread_rank = g_memdup2 (l->thread_rank, n * sizeof (gint));
  c->row_of_thread = g_memdup2 (l->row_of_thread, n * sizeof (gint));
  c->ordered = g_memdup2 (l->ordered, n * sizeof (guint));
  c->listed = g_memdup2 (l->listed, MAX (n, 1) * sizeof (gboolean));
  c->ordered_at = g_memdup2 (l->ordered_at, (et_trace_get_n_processes (l->trace) + 1) * sizeof (guint));
}

void
et_layout_threads_free (EtLayout *l)
{
  g_free (l->threads);
  g_free (l->thread_choice);
  g_free (l->thread_merged);
  g_free (l->thread_depths);
  g_free (l->thread_lanes);
  g_free (l->thread_rank);
  g_free (l->row_of_thread);
  g_free (l->ordered);
  g_free (l->ordered_at);
  g_free (l->listed);
}

/* The depths @thread's shown channels' spans use, and the lanes of its
 * merged row: as many as the deepest of them needs for the depths of all
 * of them together. All shown (the usual): the thread's summary says;
 * else its channels' own. */
static void
merged_lanes (EtLayout *l, guint t, const EtThread *thread)
{
  guint64 used = 0;
  guint lanes = 1, shown = 0;

  for (guint k = 0; k < thread->n_channels; k++)
    shown += l->f.channel_shown[thread->first_channel + k] != FALSE;
  if (shown == thread->n_channels && shown > 0)
    {
      EtThreadSummary s = et_trace_thread_summary (l->trace, t);

      l->thread_depths[t] = s.depths;
      l->thread_lanes[t] = et_lane_of_depth (s.depths, s.deepest) + 1;
      return;
    }
  for (guint k = 0; k < thread->n_channels; k++)
    if (l->f.channel_shown[thread->first_channel + k])
      used |= et_trace_channel_depth_mask (l->trace, thread->first_channel + k);
  for (guint k = 0; k < thread->n_channels; k++)
    if (l->f.channel_shown[thread->first_channel + k])
      lanes = MAX (lanes, et_lane_of_depth (used, et_trace_channel_summary (
                                                    l->trace, thread->first_channel + k).deepest)
                          + 1);
  l->thread_depths[t] = used;
  l->thread_lanes[t] = lanes;
}

void
et_layout_threads_update (EtLayout *l)
{
  for (guint t = 0; t < et_trace_get_n_threads (l->trace); t++)
    {
      const EtThread *thread = et_trace_get_thread (l->trace, t);

      if (l->shown_stale)
        merged_lanes (l, t, thread);
      /* The default counts every channel, shown or not: hiding a series
       * should not open or close its thread. */
      l->thread_merged[t] = l->thread_choice[t] == 2
                            || (l->thread_choice[t] == 0
                                && thread->n_channels > ET_LAYOUT_OPEN_SERIES);
      l->row_of_thread[t] = -1;
    }
}

static gboolean
thread_has_shown_channel (EtLayout *l, const EtThread *thread)
{
  for (guint k = 0; k < thread->n_channels; k++)
    if (l->f.channel_shown[thread->first_channel + k])
      return TRUE;
  return FALSE;
}

/* Rank ("move to top") first, then the chosen order, then trace order. */
static int
compare_threads (gconstpointer a, gconstpointer b, gpointer data)
{
  EtLayout *l = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  const EtLayoutThread *sx = &l->threads[x], *sy = &l->threads[y];
  const EtThread *tx = et_trace_get_thread (l->trace, x), *ty = et_trace_get_thread (l->trace, y);
  int by_name;

  if (l->thread_rank[x] != l->thread_rank[y])
    return l->thread_rank[x] < l->thread_rank[y] ? -1 : 1;
  switch (l->order)
    {
    case ET_THREAD_ORDER_MARKERS:
      if (sx->n_markers != sy->n_markers)
        return sx->n_markers > sy->n_markers ? -1 : 1;
      break;
    case ET_THREAD_ORDER_CPU:
      if (sx->cpu_ns != sy->cpu_ns)
        return sx->cpu_ns > sy->cpu_ns ? -1 : 1;
      break;
    case ET_THREAD_ORDER_NAME:
      by_name = g_utf8_collate (tx->name, ty->name);
      if (by_name != 0)
        return by_name;
      if (tx->tid != ty->tid)
        return tx->tid < ty->tid ? -1 : 1;
      break;
    default:
      if (sx->first_ns != sy->first_ns)
        return sx->first_ns < sy->first_ns ? -1 : 1;
      break;
    }
  return x < y ? -1 : x > y;
}

int
et_layout_compare_processes (gconstpointer a, gconstpointer b, gpointer layout)
{
  EtLayout *l = layout;
  guint p = *(const guint *) a, q = *(const guint *) b;
  int by_thread;

  if (l->process_rank[p] != l->process_rank[q])
    return l->process_rank[p] < l->process_rank[q] ? -1 : 1;
  if (l->ordered_at[p] < l->ordered_at[p + 1] && l->ordered_at[q] < l->ordered_at[q + 1])
    {
      by_thread = compare_threads (&l->ordered[l->ordered_at[p]], &l->ordered[l->ordered_at[q]], l);
      if (by_thread != 0)
        return by_thread;
    }
  return p < q ? -1 : p > q;
}

/* A process some of whose threads have markers shown also shows its
 * threads that only ran (CPU samples or switches, no markers): where its
 * time went. Other processes' (a system-wide profile's) stay hidden. */
static gboolean
process_has_shown_channel (EtLayout *l, const EtProcess *process)
{
  for (guint k = 0; k < process->n_threads; k++)
    if (thread_has_shown_channel (l, et_trace_get_thread (l->trace, process->first_thread + k)))
      return TRUE;
  return FALSE;
}

GArray *
et_layout_process_threads (EtLayout *l, const EtProcess *process)
{
  GArray *threads = g_array_sized_new (FALSE, FALSE, sizeof (guint), process->n_threads);
  gboolean ran_shown = !l->show_empty && process_has_shown_channel (l, process);

  for (guint k = 0; k < process->n_threads; k++)
    {
      guint t = process->first_thread + k;

      if (l->show_empty || thread_has_shown_channel (l, et_trace_get_thread (l->trace, t))
          || (ran_shown && et_trace_thread_cpu_source (l->trace, t) != ET_CPU_NONE))
        g_array_append_val (threads, t);
    }
  g_array_sort_with_data (threads, compare_threads, l);
  return threads;
}

void
et_layout_order_threads (EtLayout *l)
{
  guint n_processes = et_trace_get_n_processes (l->trace), at = 0;

  for (guint p = 0; p < n_processes; p++)
    {
      g_autoptr(GArray) threads = et_layout_process_threads (l, et_trace_get_process (l->trace, p));

      l->ordered_at[p] = at;
      memcpy (l->ordered + at, threads->data, threads->len * sizeof (guint));
      at += threads->len;
    }
  memset (l->listed, 0, MAX (et_trace_get_n_threads (l->trace), 1) * sizeof (gboolean));
  for (guint k = 0; k < at; k++)
    l->listed[l->ordered[k]] = TRUE;
  l->ordered_at[n_processes] = at;
  l->order_stale = FALSE;
}

const EtLayoutThread *
et_layout_get_thread (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), NULL);
  return &l->threads[thread];
}

void
et_layout_set_thread_collapsed (EtLayout *l, guint thread, gboolean collapsed)
{
  g_return_if_fail (thread < et_trace_get_n_threads (l->trace));
  l->thread_choice[thread] = collapsed ? 2 : 1;
  _et_layout_relayout (l);
}

void
et_layout_set_thread_choice (EtLayout *l, guint thread, int choice)
{
  gint8 was = l->thread_choice[thread];

  g_return_if_fail (thread < et_trace_get_n_threads (l->trace));
  l->thread_choice[thread] = choice < 0 ? 0 : choice ? 2 : 1;
  /* Laid out by the caller, once for many (et_layout_set_lane_height
   * and et_layout_thaw know to). */
  l->stale |= l->thread_choice[thread] != was;
}

gboolean
et_layout_get_thread_collapsed (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), FALSE);
  return l->thread_merged[thread];
}

int
et_layout_get_thread_choice (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), -1);
  return l->thread_choice[thread] == 0 ? -1 : l->thread_choice[thread] == 2;
}

void
et_layout_set_all_threads_collapsed (EtLayout *l, int collapsed)
{
  memset (l->thread_choice, collapsed < 0 ? 0 : collapsed ? 2 : 1,
          et_trace_get_n_threads (l->trace));
  _et_layout_relayout (l);
}

const EtRow *
et_layout_thread_row (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), NULL);
  return l->row_of_thread[thread] < 0 ? NULL
         : et_layout_row (l, (guint) l->row_of_thread[thread]);
}

void
et_layout_set_thread_order (EtLayout *l, EtThreadOrder order)
{
  l->order = order;
  l->order_stale = TRUE;
  _et_layout_relayout (l);
}

EtThreadOrder
et_layout_get_thread_order (EtLayout *l)
{
  return l->order;
}

void
et_layout_set_show_empty_threads (EtLayout *l, gboolean show)
{
  l->show_empty = show;
  l->order_stale = TRUE;
  _et_layout_relayout (l);
}

gboolean
et_layout_get_show_empty_threads (EtLayout *l)
{
  return l->show_empty;
}

guint64
et_layout_thread_depths (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), 0);
  return l->thread_depths[thread];
}

gboolean
et_layout_thread_listed (EtLayout *l, guint thread)
{
  g_return_val_if_fail (thread < et_trace_get_n_threads (l->trace), FALSE);
  return l->listed[thread]
         && (!l->active_only || l->threads[thread].n_markers > 0);
}

void
et_layout_reveal (EtLayout *l, guint thread, guint channel)
{
  g_return_if_fail (thread < et_trace_get_n_threads (l->trace));
  l->collapsed[et_trace_get_thread (l->trace, thread)->process] = FALSE;
  if (channel != G_MAXUINT && l->thread_merged[thread])
    l->thread_choice[thread] = 1;
  _et_layout_relayout (l);
}

void
et_layout_move_thread_to_top (EtLayout *l, guint thread)
{
  g_return_if_fail (thread < et_trace_get_n_threads (l->trace));
  l->thread_rank[thread] = --l->next_rank;
  l->process_rank[et_trace_get_thread (l->trace, thread)->process] = l->next_rank;
  l->order_stale = TRUE;
  _et_layout_relayout (l);
}
