/* et-trace-markers-private.h — what the markers' stage of loading
 * (et-trace-markers.c: decoding, pairing) hands to its last step, the
 * channel layout (et-trace-channel-layout.c).
 */
#pragma once

#include "et-trace-load-private.h"

G_BEGIN_DECLS

/* A marker while loading: where EtMarker has the end's time and event,
 * it has what the layout needs (thread and series) and, for a span start,
 * the index of its end's marker (fold_spans); the layout makes the
 * EtMarker. Both are 32 bytes. */
typedef struct
{
  gint64  start_ns;
  guint32 event;
  guint32 end_marker;  /* a span start's end, or ET_NO_INDEX */
  guint32 thread;
  guint32 series;      /* string id */
  guint16 provider;
  gint16  category;
  guint8  kind;
  guint8  importance;
  guint8  status;
  guint8  depth;
} EtPendingMarker;

G_STATIC_ASSERT (sizeof (EtPendingMarker) == sizeof (EtMarker));

/* Which markers stay: a bit each (a byte each was 1 B per event at the
 * loader's peak). */
static inline gboolean
_et_marker_is_kept (const guint32 *keep, guint32 i)
{
  return (keep[i >> 5] >> (i & 31)) & 1;
}

/* Lays the kept markers of @markers (time order; @n of them) out channel
 * by channel into the trace's markers and channels, with @cross_ends
 * (EtCrossEnd by pending marker, in marker order) moved to the markers'
 * final places. Takes both arrays: they go as soon as they are read.
 * Tells @progress its two passes over the markers (ET_TRACE_PHASE_CHANNELS). */
void _et_layout_channels (EtTrace          *self,
                          EtPendingMarker **markers,
                          guint             n,
                          GArray          **cross_ends,
                          const guint32    *keep,
                          EtTraceProgress  *progress);

G_END_DECLS
