/* et-layout-process.c — a collapsed process's row (see et-layout.h).
 *
 * A collapsed process's header holds its threads' markers merged, as a
 * collapsed thread's header holds its channels': every shown channel of
 * its threads that have rows maps to the header row, lanes by the union
 * of those threads' depths (et_layout_row_depths), so the render's merged
 * rows — spans in lanes, points over them, crowded marks merged across
 * channels — and the hit-tests, focus and selection that read the same
 * shapes serve it unchanged. Spans of two threads at one depth may
 * overlap in time there (threads run at once): they share a lane, drawn
 * over each other, as Concurrency Visualizer's collapsed process does.
 */
#include "et-layout-private.h"
#include "et-cpu-strip.h"

/* Lanes a thread's merged row needs past its depths' count: only depths
 * of 64 and more (et_lane_of_depth) add any. */
static guint
lanes_past_depths (EtLayout *l, guint t)
{
  guint counted = (guint) __builtin_popcountll (l->thread_depths[t]);

  return l->thread_depths[t] == 0 || l->thread_lanes[t] <= counted
         ? 0 : l->thread_lanes[t] - counted;
}

/* The shown channels of @p's threads that have rows, up to @limit + 1. */
static guint
shown_channels (EtLayout *l, guint p, guint limit)
{
  guint n = 0;

  for (guint k = l->ordered_at[p]; k < l->ordered_at[p + 1] && n <= limit; k++)
    {
      const EtThread *thread = et_trace_get_thread (l->trace, l->ordered[k]);

      if (!_et_layout_thread_active (l, l->ordered[k]))
        continue;
      for (guint c = thread->first_channel; c < thread->first_channel + thread->n_channels; c++)
        n += l->f.channel_shown[c] != FALSE;
    }
  return n;
}

void
_et_layout_merge_process (EtLayout *l, guint p, EtRow *header)
{
  gint index = (gint) l->rows->len;
  guint64 used = 0;
  guint past = 0;

  if (shown_channels (l, p, ET_LAYOUT_MERGE_CHANNELS) > ET_LAYOUT_MERGE_CHANNELS)
    return;             /* its header as it was: the strip alone */
  for (guint k = l->ordered_at[p]; k < l->ordered_at[p + 1]; k++)
    {
      guint t = l->ordered[k];
      const EtThread *thread = et_trace_get_thread (l->trace, t);
      gboolean any = FALSE;

      if (!_et_layout_thread_active (l, t))
        continue;
      for (guint c = thread->first_channel; c < thread->first_channel + thread->n_channels; c++)
        if (l->f.channel_shown[c])
          l->row_of_channel[c] = index, any = TRUE;
      if (!any)
        continue;
      used |= l->thread_depths[t];
      past = MAX (past, lanes_past_depths (l, t));
    }
  l->process_depths[p] = used;
  header->lanes = l->compact ? 1 : MAX (1, (guint) __builtin_popcountll (used) + past);
  header->height = et_process_strip_px (l->trace, p) + (int) header->lanes * l->lane_height + 2;
}

void
et_layout_row_channels (EtLayout *l, const EtRow *row, guint *first, guint *end)
{
  if (row->kind == ET_ROW_CHANNEL)
    {
      *first = row->index, *end = row->index + 1;
      return;
    }
  if (row->kind == ET_ROW_THREAD)
    {
      const EtThread *t = et_trace_get_thread (l->trace, row->index);

      *first = t->first_channel, *end = t->first_channel + t->n_channels;
      return;
    }
  /* A process's threads follow each other, and so do their channels; a
   * thread without channels may say any first channel. */
  *first = G_MAXUINT, *end = 0;
  {
    const EtProcess *process = et_trace_get_process (l->trace, row->index);

    for (guint k = 0; k < process->n_threads; k++)
      {
        const EtThread *t = et_trace_get_thread (l->trace, process->first_thread + k);

        if (t->n_channels == 0)
          continue;
        *first = MIN (*first, t->first_channel);
        *end = MAX (*end, t->first_channel + t->n_channels);
      }
  }
  if (*first > *end)
    *first = *end = 0;
}
