/* et-trace-markers-private.h — what the markers' stage of loading hands
 * on: decoding (et-trace-markers.c) to pairing (et-trace-pairing.c), and
 * both to the last step, the channel layout (et-trace-channel-layout.c).
 */
#pragma once

#include "et-trace-load-private.h"

G_BEGIN_DECLS

/* A marker while loading: where EtMarker has the end's time and event,
 * it has what the layout needs (thread and series) and, for a span start,
 * the index of its end's marker (fold_spans); the layout makes the
 * EtMarker. Its event is not in it but in EtMarkerEvents. 28 bytes,
 * packed: there is one per event at the loader's memory peak (the end of
 * decoding), where each of its 4 bytes per event counts. */
typedef struct __attribute__ ((packed, aligned (4)))
{
  gint64  start_ns;
  guint32 end_marker;  /* a span start's end, or ET_NO_INDEX */
  guint32 thread;      /* until the layout's count: then the marker's channel
                          in its part, or an end's own event (count_part) */
  guint32 series;      /* string id */
  guint16 provider;
  gint16  category;
  guint8  kind;
  guint8  importance;
  guint8  status;
  guint8  depth;
} EtPendingMarker;

G_STATIC_ASSERT (sizeof (EtPendingMarker) == 28);

/* Which events made a pending marker: marker i's event is the event of
 * the i-th bit set. Markers are made in event order, at most one per
 * event, so a bit per event (and the event of every
 * ET_MARKER_EVENTS_STEP-th marker, to find one at once) tells them all.
 * The layout reads them in order (EtMarkerEventIter), a start's end by
 * its index (_et_marker_event). */
#define ET_MARKER_EVENTS_STEP 256

typedef struct
{
  guint64 *bits;      /* a bit per event; decoding threads own whole words */
  gsize    n_words;
  guint32 *every;     /* the event of marker k × ET_MARKER_EVENTS_STEP */
  guint32  n_markers;
} EtMarkerEvents;

void     _et_marker_events_init  (EtMarkerEvents       *events,
                                  guint64               n_events);
/* Once every marker is made: the index of every STEP-th. */
void     _et_marker_events_index (EtMarkerEvents       *events,
                                  guint32               n_markers);
void     _et_marker_events_clear (EtMarkerEvents       *events);
/* The event of @marker (< n_markers). */
guint32  _et_marker_event        (const EtMarkerEvents *events,
                                  guint32               marker);

/* The events of markers in order, from a given one (< n_markers). */
typedef struct
{
  const guint64 *bits;
  gsize          word;
  guint64        left;   /* the bits of bits[word] not yet given */
} EtMarkerEventIter;

void     _et_marker_event_iter_init (EtMarkerEventIter    *iter,
                                     const EtMarkerEvents *events,
                                     guint32               marker);

static inline guint32
_et_marker_event_next (EtMarkerEventIter *iter)
{
  guint32 event;

  while (iter->left == 0)
    iter->left = iter->bits[++iter->word];
  event = (guint32) (iter->word * 64 + (guint) __builtin_ctzll (iter->left));
  iter->left &= iter->left - 1;
  return event;
}

/* Which markers stay: a bit each (a byte each was 1 B per event at the
 * loader's peak). */
static inline gboolean
_et_marker_is_kept (const guint32 *keep, guint32 i)
{
  return (keep[i >> 5] >> (i & 31)) & 1;
}

/* A span start or end while loading: what pairing needs beyond what its
 * marker holds (time, thread, provider), and the marker as its owner
 * (numbered within the decoding thread's range until the ranges are
 * joined): an EtSpanKey (et-span-pairing.h), whose is_end also holds
 * ET_SPAN_RECORD_REPEATS. 24 bytes: there is one per span start and end
 * until pairing, at the loader's memory peak, and pairing takes them as
 * they are, their thread and provider in the record when it has a span id
 * or no activity (ET_SPAN_KEY_CARRIES_OWNER), else read from the markers,
 * as their times are (the 40-byte EtSpanEvent
 * and the marker's number beside it were 20 bytes more per span) and
 * writing each one's result in place of its id (et_span_key_result). */
typedef EtSpanKey EtSpanRecord;

enum
{
  ET_SPAN_RECORD_END = 1 << 0,
  /* A start whose repeat (same provider and span id, nothing closed in
   * between) is the same activity logged again (et_builtin_rules_repeats). */
  ET_SPAN_RECORD_REPEATS = 1 << 1,
};

G_STATIC_ASSERT (sizeof (EtSpanRecord) == 24);

/* The span records of one process that one decoding thread made, in time
 * order. Spans never pair across processes (markers.md "Spans"), so each
 * process pairs on its own. */
typedef struct
{
  EtSpanRecord *records;
  guint         n;
  guint         capacity;
} EtSpanList;


/* One decoding thread's span lists, by process, and where its markers
 * start once the threads' markers are joined. */
typedef struct
{
  EtSpanList *spans;
  guint32     base;
} EtSpanPart;

void      _et_span_list_clear (EtSpanList *list);

/* Pairs every process's spans (et-trace-pairing.c) from the decoding
 * threads' @parts (their lists are taken and emptied) over the joined
 * @markers (@n_markers), folding ends into their starts; appends the
 * starts that end on another thread to @cross_ends (sorted in marker
 * order) and returns a mask of the markers that stay (_et_marker_is_kept). */
guint32  *_et_pair_spans      (EtTrace          *self,
                               EtPendingMarker  *markers,
                               guint             n_markers,
                               const EtSpanPart *parts,
                               guint             n_parts,
                               GArray           *cross_ends,
                               EtTraceProgress  *progress);

/* Lays the kept markers of @markers (time order; @n of them, their
 * events in @events) out channel by channel into the trace's markers and
 * channels, with @cross_ends (EtCrossEnd by pending marker, in marker
 * order) moved to the markers' final places. Takes both arrays: they go
 * as soon as they are read. Tells @progress its two passes over the
 * markers (ET_TRACE_PHASE_CHANNELS). */
void _et_layout_channels (EtTrace              *self,
                          EtMapped             *markers,
                          const EtMarkerEvents *events,
                          guint                 n,
                          GArray              **cross_ends,
                          const guint32        *keep,
                          EtTraceProgress      *progress);

/* Makes room in the empty @array for @n elements at once. */
void _et_presize_array    (GArray          **array,
                           guint             n);

/* What the model keeps per thread and channel besides the markers, once
 * they are laid out in @n_channels channels (et-trace-summary.c). */
void _et_layout_summarise (EtTrace          *self,
                           guint             n_channels);

G_END_DECLS
