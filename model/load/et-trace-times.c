/* et-trace-times.c — timestamps no recording can have.
 *
 * Pipeline position: right after the events are merged into time order,
 * before markers are made. One flipped high bit in a timestamp puts an
 * event centuries after the rest; the timeline would then span centuries
 * with everything squeezed into its first pixel. Such a timestamp is
 * damage: it is reported with the record's offset, and the event is
 * clamped to the nearest plausible time (the first or last event inside
 * the window below). Clamping, not dropping: the event keeps its place in
 * every count (threads, providers, the index) and its payload stays
 * readable, and clamping keeps the time order the index was sorted in.
 *
 * The window: from the trace's start (t0, the header record) an event may
 * lie as far as the trace's span plus a margin of that span again and an
 * hour, and as far before t0 as the margin. The span is the header's
 * StartTime→EndTime, or twice the middle event's time when that is longer
 * (an EndTime can be stale or missing; one bad timestamp does not move the
 * middle event), and never more than ten years. Real files do not keep to
 * the header's span exactly — a relogged file copies a header whose
 * EndTime can come seconds before its last event, and a session's first
 * events can precede its header record — so the margin is generous: only
 * timestamps that no recording of that session can have are damage.
 */
#include "et-trace-load-private.h"
#include "et-time.h"

#define NS_PER_S   G_GINT64_CONSTANT (1000000000)
#define NS_PER_H   (3600 * NS_PER_S)
#define NS_PER_DAY (24 * NS_PER_H)

#define MAX_SPAN   (3653 * NS_PER_DAY)

/* The ns from raw @a to raw @b (b ≥ a), saturated. */
static gint64
ns_between (EtTrace *self, gint64 a, gint64 b)
{
  __int128 ns = ((__int128) b - a) * 1000000000 / self->ticks_per_second;

  return (gint64) MIN (ns, (__int128) G_MAXINT64);
}

/* The trace's span in ns (see the top): the header's, or twice the
 * events' own @spread when that is longer. Ten years at most: the header
 * is file data too, and with every event time within 2·10^18 ns of every
 * other no difference of two can overflow. */
static gint64
trace_span_ns (EtTrace *self, gint64 spread)
{
  const EtLogfileHeader *h = &self->header;
  gint64 span = 0;

  if (h->start_time > 0 && h->end_time > h->start_time)
    span = et_time_mul (h->end_time - h->start_time, 100);
  return MIN (MAX (span, et_time_mul (spread, 2)), MAX_SPAN);
}

/* The raw timestamp @ns after t0, saturated. */
static gint64
raw_of_ns (EtTrace *self, gint64 ns)
{
  __int128 raw = (__int128) ns * self->ticks_per_second / 1000000000 + self->stats.t0_raw;

  return (gint64) CLAMP (raw, (__int128) G_MININT64, (__int128) G_MAXINT64);
}

static gint64
event_raw (EtTrace *self, guint64 index)
{
  EtRecord record;

  if (!_et_trace_record_at (self, self->events[index], &record))
    return self->stats.t0_raw;       /* it parsed while walking */
  return record.ts;
}

static void
report_time (EtTrace *self, guint64 index, gint64 raw, const char *where, gint64 limit_ns)
{
  guint64 offset = _et_trace_offset_of (self, self->events[index]);
  __int128 ticks = (__int128) raw - self->stats.t0_raw;
  double seconds = (double) ticks / (double) self->ticks_per_second;
  g_autofree char *message = NULL;

  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": the event's timestamp "
                             "(%" G_GINT64_FORMAT ") lies %.6g s from the trace's start, "
                             "more than %.6g s %s it; the event is placed at the %s "
                             "plausible time", self->path, offset, raw, seconds,
                             (double) limit_ns / NS_PER_S, where,
                             g_str_equal (where, "after") ? "last" : "first");
  _et_trace_add_damage (self, offset, message);
  self->stats.time_damage++;
}

/* The log-file header's own timestamp is t0: when the middle event lies
 * further from it than any trace can last, it is t0 that is wrong (one
 * damaged timestamp, not half the trace's). The trace then starts from
 * its events: the middle one centres the window, and the first plausible
 * event becomes t0 (_et_trace_check_times). */
static gboolean
check_start (EtTrace *self, gint64 middle)
{
  gint64 far = et_time_add (2 * MAX_SPAN, NS_PER_H);
  g_autofree char *message = NULL;

  if (middle >= raw_of_ns (self, -far) && middle <= raw_of_ns (self, far))
    return TRUE;
  message = g_strdup_printf ("%s: byte offset %d: the log-file header's timestamp (%"
                             G_GINT64_FORMAT ") is far from its events' (the middle one: %"
                             G_GINT64_FORMAT "); times count from the first plausible event",
                             self->path, ET_BUFFER_HEADER_SIZE, self->stats.t0_raw, middle);
  _et_trace_add_damage (self, ET_BUFFER_HEADER_SIZE, message);
  self->stats.time_damage++;
  self->stats.t0_raw = middle;
  return FALSE;
}

/* How far the events themselves spread, robust to a few bad ones: the
 * middle event's time from t0, or (when t0 is the damaged one) the middle
 * half of the events. */
static gint64
events_spread (EtTrace *self, gboolean start_ok, gint64 middle)
{
  gint64 q1, q3;

  if (start_ok)
    return middle >= self->stats.t0_raw ? ns_between (self, self->stats.t0_raw, middle)
                                        : ns_between (self, middle, self->stats.t0_raw);
  q1 = event_raw (self, self->n_events / 4);
  q3 = event_raw (self, self->n_events * 3 / 4);
  return ns_between (self, q1, q3);
}

void
_et_trace_check_times (EtTrace *self)
{
  gint64 middle = self->n_events ? event_raw (self, self->n_events / 2) : self->stats.t0_raw;
  gboolean start_ok = check_start (self, middle);
  gint64 span = trace_span_ns (self, events_spread (self, start_ok, middle));
  gint64 margin = et_time_add (span, NS_PER_H);
  gint64 hi_ns = et_time_add (span, margin);
  gint64 lo_raw = raw_of_ns (self, start_ok ? -margin : -hi_ns);
  gint64 hi_raw = raw_of_ns (self, hi_ns);
  guint64 first = 0, end = self->n_events;
  gint64 raw;

  /* The index is in time order: absurd timestamps sit at its two ends. */
  while (end > first && (raw = event_raw (self, end - 1)) > hi_raw)
    report_time (self, --end, raw, "after", hi_ns);
  while (first < end && (raw = event_raw (self, first)) < lo_raw)
    report_time (self, first++, raw, "before", start_ok ? margin : hi_ns);
  self->raw_lo = first < end ? event_raw (self, first) : self->stats.t0_raw;
  self->raw_hi = first < end ? event_raw (self, end - 1) : self->stats.t0_raw;
  /* A preview indexes only the first events: the others are clamped to
   * the window, unreported until the whole trace is loaded. */
  if (self->n_events < self->stats.records)
    self->raw_hi = MAX (self->raw_hi, MIN (self->stats.last_raw, hi_raw));
  if (!start_ok)
    self->stats.t0_raw = self->raw_lo;
  self->raw_lo = MIN (self->raw_lo, self->stats.t0_raw);
  self->raw_hi = MAX (self->raw_hi, self->stats.t0_raw);
}
