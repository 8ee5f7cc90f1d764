/* et-timeline-focus.h — where keyboard focus goes on the timeline.
 *
 *   Right / Left ─ next / previous shown marker in the row: the channel's,
 *                  or a collapsed thread's merged row (by start, then
 *                  channel, then index)
 *   Up / Down    ─ the shown marker nearest in time in the row above /
 *                  below (rows without shown markers, like the headers of
 *                  expanded threads, are passed)
 *
 * Pure functions of the trace and its layout (no widgets), so the walk is
 * tested on its own; the timeline view selects and reveals the result and
 * reads it out through its accessible description.
 */
#pragma once

#include "et-layout.h"

G_BEGIN_DECLS

typedef enum
{
  ET_FOCUS_NEXT,
  ET_FOCUS_PREVIOUS,
  ET_FOCUS_UP,
  ET_FOCUS_DOWN,
} EtFocusMove;

/* From marker @index of @channel, the marker @move reaches, in
 * *@to_channel / *@to_index; FALSE when there is none (focus stays). With
 * @channel G_MAXUINT (nothing focused yet): the shown marker nearest to
 * @from_ns in the first channel row that has one. */
gboolean et_timeline_focus_move (EtTrace     *trace,
                                 EtLayout    *layout,
                                 guint        channel,
                                 guint        index,
                                 EtFocusMove  move,
                                 gint64       from_ns,
                                 guint       *to_channel,
                                 guint       *to_index);

G_END_DECLS
