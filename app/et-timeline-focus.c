/* et-timeline-focus.c — see et-timeline-focus.h. */
#include "et-timeline-focus.h"

static gboolean
shown (EtLayout *layout, const EtChannel *ch, guint i)
{
  return et_layout_marker_visible (layout, &ch->markers[i]);
}

/* The next (@step 1) or previous (-1) shown marker after @index. */
static gboolean
step_in_channel (EtLayout *layout, const EtChannel *ch, guint index, int step, guint *to)
{
  for (gint64 i = (gint64) index + step; i >= 0 && i < ch->n_markers; i += step)
    if (shown (layout, ch, (guint) i))
      {
        *to = (guint) i;
        return TRUE;
      }
  return FALSE;
}

/* The shown marker of @ch starting nearest to @t_ns. */
static gboolean
nearest_in_channel (EtLayout *layout, const EtChannel *ch, gint64 t_ns, guint *to)
{
  guint lo = et_channel_first_at (ch, t_ns), before, after;
  gboolean has_before, has_after;

  if (lo < ch->n_markers && shown (layout, ch, lo))
    after = lo, has_after = TRUE;
  else
    has_after = lo < ch->n_markers && step_in_channel (layout, ch, lo, 1, &after);
  has_before = lo > 0 && step_in_channel (layout, ch, lo, -1, &before);
  if (!has_before && !has_after)
    return FALSE;
  if (has_before && has_after)
    *to = t_ns - ch->markers[before].start_ns <= ch->markers[after].start_ns - t_ns ? before : after;
  else
    *to = has_before ? before : after;
  return TRUE;
}

/* The layout row of @channel, or -1. */
static gint
row_of (EtLayout *layout, guint channel)
{
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      if (row->kind == ET_ROW_CHANNEL && row->index == channel)
        return (gint) r;
    }
  return -1;
}

static gboolean
across_rows (EtTrace *trace, EtLayout *layout, gint row, int step, gint64 t_ns, guint *to_channel,
             guint *to_index)
{
  for (gint r = row + step; r >= 0 && r < (gint) et_layout_n_rows (layout); r += step)
    {
      const EtRow *next = et_layout_row (layout, (guint) r);

      if (next->kind == ET_ROW_CHANNEL
          && nearest_in_channel (layout, et_trace_get_channel (trace, next->index), t_ns, to_index))
        {
          *to_channel = next->index;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
et_timeline_focus_move (EtTrace *trace, EtLayout *layout, guint channel, guint index,
                        EtFocusMove move, gint64 from_ns, guint *to_channel, guint *to_index)
{
  const EtChannel *ch;
  gint row;

  if (channel == G_MAXUINT)
    return across_rows (trace, layout, -1, 1, from_ns, to_channel, to_index);
  g_return_val_if_fail (channel < et_trace_get_n_channels (trace), FALSE);
  ch = et_trace_get_channel (trace, channel);
  g_return_val_if_fail (index < ch->n_markers, FALSE);
  if (move == ET_FOCUS_NEXT || move == ET_FOCUS_PREVIOUS)
    {
      *to_channel = channel;
      return step_in_channel (layout, ch, index, move == ET_FOCUS_NEXT ? 1 : -1, to_index);
    }
  row = row_of (layout, channel);
  return row >= 0 && across_rows (trace, layout, row, move == ET_FOCUS_DOWN ? 1 : -1,
                                  ch->markers[index].start_ns, to_channel, to_index);
}
