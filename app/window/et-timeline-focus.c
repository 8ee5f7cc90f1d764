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

/* The layout row @channel's markers are drawn in (its own, or its
 * collapsed thread's), or -1. */
static gint
row_of (EtLayout *layout, guint channel)
{
  const EtRow *row = et_layout_channel_row (layout, channel);

  return row == NULL ? -1 : (gint) et_layout_row_index (layout, row);
}

/* Markers in a row are ordered by start, then channel, then index: the
 * order Right and Left walk a merged row in. */
static int
compare_keys (const EtChannel *a_ch, guint a_c, guint a, const EtChannel *b_ch, guint b_c, guint b)
{
  gint64 ta = a_ch->markers[a].start_ns, tb = b_ch->markers[b].start_ns;

  if (ta != tb)
    return ta < tb ? -1 : 1;
  if (a_c != b_c)
    return a_c < b_c ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* The first shown marker of @ch from @at on (@step 1) or back (-1),
 * @at included. */
static gboolean
shown_from (EtLayout *layout, const EtChannel *ch, guint at, int step, guint *to)
{
  if (at < ch->n_markers && shown (layout, ch, at))
    {
      *to = at;
      return TRUE;
    }
  return at < ch->n_markers && step_in_channel (layout, ch, at, step, to);
}

/* In @c (of the same row as @channel), the shown marker that comes right
 * after (@step 1) or before (-1) marker @index of @channel in row order. */
static gboolean
step_in_other (EtLayout *layout, const EtChannel *ch, guint c, const EtChannel *from,
               guint channel, guint index, int step, guint *to)
{
  gint64 t = from->markers[index].start_ns;
  /* At the same start, markers of lower channels come first. */
  guint at = et_channel_first_at (ch, c < channel ? t + 1 : t);

  if (step > 0)
    return shown_from (layout, ch, at, 1, to);
  return at > 0 && shown_from (layout, ch, at - 1, -1, to);
}

/* Next or previous in the row of @channel: in its channel alone, or in a
 * collapsed thread's (or process's) merged row, among all its channels
 * there. */
static gboolean
step_in_row (EtTrace *trace, EtLayout *layout, guint channel, guint index, int step,
             guint *to_channel, guint *to_index)
{
  const EtRow *row = et_layout_channel_row (layout, channel);
  const EtChannel *from = et_trace_get_channel (trace, channel), *best_ch = NULL;
  guint first = channel, end = channel + 1, best_c = 0, best = 0;

  if (row != NULL)
    et_layout_row_channels (layout, row, &first, &end);
  for (guint c = first; c < end; c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint i;

      if (et_layout_channel_row (layout, c) != row
          || !(c == channel ? step_in_channel (layout, ch, index, step, &i)
                            : step_in_other (layout, ch, c, from, channel, index, step, &i)))
        continue;
      if (best_ch == NULL || compare_keys (ch, c, i, best_ch, best_c, best) * step < 0)
        best_ch = ch, best_c = c, best = i;
    }
  *to_channel = best_c, *to_index = best;
  return best_ch != NULL;
}

/* The shown marker nearest to @t_ns in row @r (a channel's, or a merged
 * thread's), if it has one. */
static gboolean
nearest_in_row (EtTrace *trace, EtLayout *layout, guint r, gint64 t_ns, guint *to_channel,
                guint *to_index)
{
  const EtRow *row = et_layout_row (layout, r);
  gint64 best_distance = G_MAXINT64;
  guint first, end;

  /* A header holds markers only collapsed (merged). */
  if (row->kind != ET_ROW_CHANNEL && row->lanes == 0)
    return FALSE;
  et_layout_row_channels (layout, row, &first, &end);
  for (guint c = first; c < end; c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint i;
      gint64 distance;

      if (et_layout_channel_row (layout, c) != row || !nearest_in_channel (layout, ch, t_ns, &i))
        continue;
      distance = ABS (ch->markers[i].start_ns - t_ns);
      if (distance < best_distance)
        best_distance = distance, *to_channel = c, *to_index = i;
    }
  return best_distance != G_MAXINT64;
}

static gboolean
across_rows (EtTrace *trace, EtLayout *layout, gint row, int step, gint64 t_ns, guint *to_channel,
             guint *to_index)
{
  for (gint r = row + step; r >= 0 && r < (gint) et_layout_n_rows (layout); r += step)
    if (nearest_in_row (trace, layout, (guint) r, t_ns, to_channel, to_index))
      return TRUE;
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
      return step_in_row (trace, layout, channel, index, move == ET_FOCUS_NEXT ? 1 : -1,
                          to_channel, to_index);
    }
  row = row_of (layout, channel);
  return row >= 0 && across_rows (trace, layout, row, move == ET_FOCUS_DOWN ? 1 : -1,
                                  ch->markers[index].start_ns, to_channel, to_index);
}
