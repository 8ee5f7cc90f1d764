/* et-trace.h — the trace model: what a loaded .etl file is to the rest of
 * the program.
 *
 * Pipeline: file → et-etl-reader (buffers, records, header) → time-ordered
 * record index → manifests and TraceLogging schemas (event classes per
 * provider) → marker rules → span pairing → this model:
 *
 *   EtTrace ─ providers[]          (GUID, name, kind, event count)
 *           ─ processes[] ─ threads[] ─ channels[] ─ markers[] (sorted by start)
 *
 * A channel is one provider × series on one thread, as Concurrency
 * Visualizer draws it. Markers are small flat structs (40 bytes); series
 * names live in the trace's string pool and are looked up by id. Payloads
 * and marker texts are not kept: an event's details and a marker's text are
 * decoded again from the mapped file when they are shown.
 */
#pragma once

#include <gio/gio.h>
#include "et-error.h"
#include "et-guid.h"
#include "et-fields.h"
#include "et-marker-rules.h"
#include "et-span-pairing.h"

G_BEGIN_DECLS

#define ET_TYPE_TRACE (et_trace_get_type ())
G_DECLARE_FINAL_TYPE (EtTrace, et_trace, ET, TRACE, GObject)

#define ET_NO_INDEX G_MAXUINT32

typedef enum
{
  ET_MARKER_FLAG,
  ET_MARKER_MESSAGE,
  ET_MARKER_SPAN,
} EtMarkerKind;

typedef enum
{
  ET_PROVIDER_KERNEL,        /* system/perfinfo records, by group */
  ET_PROVIDER_CLASSIC,       /* EVENT_TRACE_HEADER / instance records (MOF) */
  ET_PROVIDER_MANIFEST,      /* EVENT_HEADER records without a manifest in the trace */
  ET_PROVIDER_EVENTSOURCE,   /* an EventSource manifest is in the trace */
  ET_PROVIDER_TRACELOGGING,  /* self-describing events */
  ET_PROVIDER_CV_MARKERS,    /* Concurrency Visualizer markers provider */
  ET_PROVIDER_MESSAGE,       /* TraceMessage / WPP (not decodable without TMF) */
} EtProviderKind;

typedef struct
{
  EtGuid         guid;
  const char    *name;          /* never NULL; may be empty */
  EtProviderKind kind;
  guint64        n_events;      /* every record attributed to it */
  gboolean       default_on;    /* its events become markers by default */
  gboolean       event_metadata; /* its schema is the trace's own MetaData/EventInfo */
} EtProvider;

/* 32 bytes: a trace holds millions. The series is the channel's
 * (et_trace_marker_series), and the few cross-thread ends are kept aside
 * (et_trace_marker_end_thread). */
typedef struct
{
  gint64  start_ns;    /* ns from t0; for unmatched ends, the end's time */
  gint64  end_ns;      /* spans: end time; unmatched starts: end of trace; else = start */
  guint32 event;       /* event index of the (start) event */
  guint32 end_event;   /* event index of the end event, or ET_NO_INDEX */
  guint16 provider;    /* provider index */
  gint16  category;
  guint8  kind;        /* EtMarkerKind */
  guint8  importance;  /* EtImportance */
  guint8  status;      /* EtSpanStatus; OK for flags and messages */
  guint8  depth;
} EtMarker;

G_STATIC_ASSERT (sizeof (EtMarker) == 32);

/* A thread's markers of one provider and series. 16 bytes: a server's
 * trace has hundreds of thousands; its provider is its markers'
 * (et_channel_provider). */
typedef struct
{
  const EtMarker *markers;    /* sorted by start_ns, then event index */
  guint32         series;     /* string id */
  guint           n_markers;
} EtChannel;

G_STATIC_ASSERT (sizeof (EtChannel) == 16 || sizeof (gpointer) != 8);

/* A channel's provider: its markers' (it has one at least). */
static inline guint16
et_channel_provider (const EtChannel *channel)
{
  return channel->markers[0].provider;
}

typedef struct
{
  guint32     pid;
  guint32     tid;
  gboolean    has_ids;     /* FALSE for records without thread ids (PERFINFO) */
  const char *name;        /* "Thread <tid>" unless the trace names it */
  guint       process;     /* index */
  guint64     n_events;    /* every record whose header names this thread */
  guint64     n_samples;   /* CPU samples (PerfInfo/SampledProfile; in a .nettrace the
                            * sample profiler's Thread/Sample) of this thread,
                              attributed by the thread id in their payload */
  guint       first_channel;
  guint       n_channels;
  gboolean    open_to_end; /* a span of its never ended: its markers reach the end of
                              the trace (drawn to it) */
} EtThread;

typedef struct
{
  guint32     pid;
  gboolean    has_ids;
  const char *name;        /* image name from kernel events, else "Process <pid>" */
  const char *command_line; /* from Process/Start or DCStart, or NULL */
  guint       first_thread;
  guint       n_threads;
} EtProcess;

typedef enum
{
  ET_CLOCK_RAW = 0,
  ET_CLOCK_QPC = 1,
  ET_CLOCK_SYSTEM_TIME = 2,
  ET_CLOCK_CPU_CYCLES = 3,
} EtClockType;

typedef struct
{
  guint32     buffer_size;
  guint8      version[4];
  guint32     provider_version;
  guint32     n_processors;
  gint64      end_time;          /* FILETIME */
  guint32     timer_resolution;
  guint32     maximum_file_size;
  guint32     log_file_mode;
  guint32     buffers_written;
  guint32     pointer_size;
  guint32     events_lost;
  guint32     cpu_speed_mhz;
  gint64      boot_time;         /* FILETIME */
  gint64      perf_freq;
  gint64      start_time;        /* FILETIME */
  guint32     clock_type;        /* EtClockType (ReservedFlags) */
  guint32     buffers_lost;
  gint32      time_zone_bias;    /* minutes */
  const char *logger_name;
  const char *log_file_name;
} EtLogfileHeader;

typedef struct
{
  guint64 offset;                /* byte offset in the file */
  char   *message;               /* names the file and offset */
} EtDamage;

typedef struct
{
  guint64 file_size;
  guint32 buffers;
  guint32 compressed_buffers;
  guint32 buffers_flagged_events_lost;
  guint32 buffers_flagged_buffer_lost;
  guint64 records;               /* every record counted (= expected total_events) */
  guint64 records_skipped;       /* bad records, and records in skipped buffer tails */
  guint32 buffers_skipped;
  guint64 damage_count;          /* all problems; only the first few keep a message */
  guint64 time_damage;           /* events whose timestamp no recording can have
                                    (clamped to the plausible range) */
  gint64  t0_raw;
  gint64  first_raw;
  gint64  last_raw;
  guint64 ticks_per_second;
  guint64 markers;
  guint64 manifests;             /* EventSource manifests decoded */
  guint64 decode_failures;       /* payloads that did not match their schema */
  guint64 fixed_layout_events;   /* events made into markers from their cv fields,
                                    read at fixed payload offsets (no full decoding) */
  guint64 walked_events;         /* events made into markers from their cv fields,
                                    found by walking the payload (no full decoding) */
  guint64 preview_events;        /* ET_LOAD_PREVIEW: markers come from only the first
                                    this many events (time order); 0 when complete */
} EtTraceStats;

typedef enum
{
  ET_LOAD_DEFAULT = 0,
  ET_LOAD_ALL_PROVIDERS = 1 << 0,  /* markers from every provider, not just the default-on ones */
  /* A quick first look at a large trace: everything is read and counted,
   * but markers are made from only the first ET_PREVIEW_EVENTS events in
   * time order (ETLSCOPE_PREVIEW_EVENTS overrides it, for tests), and only
   * these are indexed (et_trace_get_n_events); a span still open where the
   * preview stops shows as unmatched. */
  ET_LOAD_PREVIEW = 1 << 1,
} EtLoadFlags;

#define ET_PREVIEW_EVENTS 1000000

/* What loading does, in order. Each phase counts its own work: the bytes
 * of the file read, the events decoded into markers, the span starts and
 * ends paired, the markers laid out into their channels (two passes over
 * them: counted into channels, then moved there). */
typedef enum
{
  ET_TRACE_PHASE_READING,
  ET_TRACE_PHASE_DECODING,
  ET_TRACE_PHASE_PAIRING,
  ET_TRACE_PHASE_CHANNELS,
} EtTracePhase;

#define ET_TRACE_N_PHASES (ET_TRACE_PHASE_CHANNELS + 1)

/* Progress: @done of @total units of @phase. The phases come in order,
 * each told first with 0 and last with its total (unless loading fails or
 * is cancelled), @done never going back within a phase; a few hundred
 * calls a phase at most, whatever the trace's size. Called from loading
 * threads, one call at a time. */
typedef void (*EtProgressFunc) (EtTracePhase phase,
                                guint64      done,
                                guint64      total,
                                gpointer     user_data);

const char            *et_trace_get_path        (EtTrace *self);
const EtLogfileHeader *et_trace_get_header      (EtTrace *self);
const EtTraceStats    *et_trace_get_stats       (EtTrace *self);
/* TRUE for a .NET EventPipe trace (.nettrace): its header is made from
 * the file's Trace object (processors, pointer size, clock, start), and
 * the ETW header's other fields (OS version, buffers, logger) are not
 * the file's. */
gboolean               et_trace_is_nettrace     (EtTrace *self);
/* The first damage messages (up to 100), in file order. */
const EtDamage        *et_trace_get_damage      (EtTrace *self,
                                                 guint   *n_damage);
/* From t0 to the last plausible event. Event times are clamped to the
 * plausible range (et-trace-times.c): any two lie within 2·10^18 ns, so
 * their differences never overflow. */
gint64                 et_trace_get_duration_ns (EtTrace *self);
/* Wall-clock time of @t_ns as a FILETIME (StartTime + t). */
gint64                 et_trace_ns_to_filetime  (EtTrace *self,
                                                 gint64   t_ns);
/* A raw timestamp in ns from t0, clamped to the plausible range. */
gint64                 et_trace_raw_to_ns       (EtTrace *self,
                                                 gint64   raw);

guint              et_trace_get_n_providers (EtTrace *self);
const EtProvider  *et_trace_get_provider    (EtTrace *self, guint index);
guint              et_trace_get_n_processes (EtTrace *self);
const EtProcess   *et_trace_get_process     (EtTrace *self, guint index);
guint              et_trace_get_n_threads   (EtTrace *self);
const EtThread    *et_trace_get_thread      (EtTrace *self, guint index);
/* A thread as every view names it: its name, and its tid unless the name
 * is made of it already ("Thread 3780", ".NET ThreadPool Worker (3780)"). */
void               et_thread_label          (const EtThread *thread,
                                             GString        *out);
guint              et_trace_get_n_channels  (EtTrace *self);
const EtChannel   *et_trace_get_channel     (EtTrace *self, guint index);
/* The series of the channels (string ids), each once, ordered by name
 * byte-wise: without visiting hundreds of thousands of channels. */
const guint32     *et_trace_get_series      (EtTrace *self,
                                             guint   *n);
/* Lanes the spans of @channel need: its deepest span's depth + 1. */
guint              et_trace_channel_lanes   (EtTrace *self, guint channel);
/* What a channel's markers reach: the first one's start, the latest time
 * any of them reaches (a span's end; an unmatched start's own start, not
 * the trace's end; G_MAXINT64 / G_MININT64 for no markers) and the
 * deepest depth. Made, with the lanes and depths below, for all of a
 * thread's channels when one of them is first asked for: a collapsed
 * thread of a server's trace needs only its thread's summary. */
typedef struct
{
  gint64 first_ns, last_ns;
  guint8 deepest;
} EtChannelSummary;
EtChannelSummary   et_trace_channel_summary (EtTrace *self, guint channel);
/* Which thread-wide depths (EtMarker.depth, bit d for d < 64) the spans
 * of @channel use: a channel's row gives lanes to those alone (see
 * et_lane_of_depth). */
guint64            et_trace_channel_depth_mask (EtTrace *self, guint channel);
/* The same of all a thread's markers together, read at load: its
 * channels' reach (first start, latest reach), depths used, deepest
 * depth, and its marker count. */
typedef struct
{
  gint64  first_ns, last_ns;
  guint64 depths;
  guint64 n_markers;
  guint8  deepest;
} EtThreadSummary;
EtThreadSummary    et_trace_thread_summary  (EtTrace *self, guint thread);

/* The lane of a row whose spans use the depths @used that a span of depth
 * @depth is drawn in: depths no span of the row uses take no lane (a row's
 * only span, nested in another row's span, is in its lane 0). */
static inline guint
et_lane_of_depth (guint64 used, guint depth)
{
  if (depth < 64)
    return (guint) __builtin_popcountll (used & ((G_GUINT64_CONSTANT (1) << depth) - 1));
  return (guint) __builtin_popcountll (used) + (depth - 64);
}
/* Whether any marker has @category (-1: none, 0-255), without visiting
 * the markers. */
gboolean           et_trace_has_category    (EtTrace *self, gint category);
const char        *et_trace_get_string      (EtTrace *self, guint32 id);

/* Markers of @channel that are visible in [@from_ns, @to_ns]: everything
 * that starts at or before @to_ns and ends at or after @from_ns, including
 * long spans that started before the range. Returns the index of the first
 * candidate; markers from there up to *@end (exclusive) must still be tested
 * with et_marker_overlaps (a few may end before @from_ns). */
guint              et_channel_query         (EtTrace *self,
                                             guint    channel,
                                             gint64   from_ns,
                                             gint64   to_ns,
                                             guint   *end);
/* The first marker of @ch that starts at or after @t_ns (n_markers when
 * none): markers are sorted by start. Lone ends sort by their own time. */
static inline guint
et_channel_first_at (const EtChannel *ch, gint64 t_ns)
{
  guint lo = 0, hi = ch->n_markers;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ch->markers[mid].start_ns < t_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Per block of ET_CHANNEL_BLOCK markers of a channel (in channel order; the
 * last block may be shorter), what it holds: drawing at coarse zoom skips
 * blocks without the kind it draws and merges flags or messages, whole
 * blocks or any part of one (from the bit masks), without visiting their
 * markers. */
#define ET_CHANNEL_BLOCK_SHIFT 6
#define ET_CHANNEL_BLOCK       (1u << ET_CHANNEL_BLOCK_SHIFT)

typedef struct
{
  guint64 members[2];         /* flags, messages: bit i for the block's marker i */
  guint64 at_least[3];        /* bit i when marker i's importance is at least
                                 normal, high, critical */
  guint8  count[3];           /* by EtMarkerKind */
  guint8  max_importance[2];  /* flags, messages: EtImportance (0 when none) */
} EtBlockSummary;

const EtBlockSummary *et_channel_block_summaries (EtTrace *self,
                                                  guint    channel);

/* The spans of one block of a channel that share a lane (their depth), so
 * that drawing at coarse zoom can take them as one run of slivers without
 * visiting each: where they are in the block, the highest importance,
 * whether their categories differ, and how far apart they lie. Within a
 * lane spans never overlap (lanes sit below every span still open), so
 * they follow each other in start and end order alike. Only simple spans
 * (et_marker_is_simple_span) go into lane runs: the others of a block,
 * drawn one by one anyway, make one run of their own (lane
 * ET_LANE_RUN_OTHERS, flag ET_LANE_RUN_SIMPLE not set). */
typedef enum
{
  ET_LANE_RUN_MIXED  = 1 << 0,   /* some span's category differs from the first's */
  ET_LANE_RUN_SIMPLE = 1 << 1,   /* a lane's simple spans (else the block's others) */
} EtLaneRunFlags;

#define ET_LANE_RUN_OTHERS 255

typedef struct
{
  guint64 members;      /* bit i for the block's marker i, when it is one of them */
  guint32 longest_us;   /* the longest span, in µs rounded up; G_MAXUINT32 for
                           that much or more */
  guint32 step_us;      /* the largest step from one span's start to the next
                           one's, in µs rounded up (0 for one span) */
  gint16  category;     /* the first span's */
  guint8  lane;         /* the row's lane (et_trace_channel_lane), or ET_LANE_RUN_OTHERS */
  guint8  importance;   /* highest */
  guint8  flags;        /* EtLaneRunFlags */
} EtLaneRun;

/* The lane runs of @channel's blocks: those of its block b are
 * (*@runs)[index[b]] up to (*@runs)[index[b + 1]], in the order of their
 * first spans. Every span of a block is in one of its runs. */
const guint32        *et_channel_lane_runs       (EtTrace          *self,
                                                  guint             channel,
                                                  const EtLaneRun **runs);

/* The lane runs of stretches of ET_CHANNEL_STRETCH markers (64 blocks),
 * so that a coarse view of a long channel can take a lane's spans of a
 * whole stretch at once, not block by block. Per lane, a run goes from its
 * first simple span in the stretch to its last, with the largest step
 * between spans' starts counted across blocks too; the spans that are not
 * simple are in no stretch run. Those of stretch s are (*@runs)[index[s]]
 * up to (*@runs)[index[s + 1]], in the order of their first spans. */
#define ET_CHANNEL_STRETCH_SHIFT (ET_CHANNEL_BLOCK_SHIFT + 6)
#define ET_CHANNEL_STRETCH       (1u << ET_CHANNEL_STRETCH_SHIFT)

typedef struct
{
  guint32 first, last;  /* marker indices in the channel of the lane's first and last span */
  guint32 longest_us;   /* as EtLaneRun */
  guint32 step_us;
  gint16  category;
  guint8  lane;
  guint8  importance;
  guint8  flags;        /* EtLaneRunFlags (always ET_LANE_RUN_SIMPLE) */
} EtStretchRun;

const guint32        *et_channel_stretch_runs    (EtTrace             *self,
                                                  guint                channel,
                                                  const EtStretchRun **runs);

/* A flag or message that is critical or an alert: never merged out of
 * sight when drawn. */
static inline gboolean
et_marker_is_loud (const EtMarker *m)
{
  return m->kind != ET_MARKER_SPAN
         && (m->importance == ET_IMPORTANCE_CRITICAL || m->category < 0);
}

/* A span that starts and ends on its thread, paired: ok, nested or
 * overlapping (not cross-thread, not unmatched). */
static inline gboolean
et_marker_is_simple_span (const EtMarker *m)
{
  return m->status == ET_SPAN_OK || m->status == ET_SPAN_NESTED
         || m->status == ET_SPAN_OVERLAPPING;
}

/* The loud markers of a channel (et_marker_is_loud), as ascending indices
 * into its markers; @n gets their number. Drawing finds a window's loud
 * members here instead of visiting every marker of the window. */
const guint32        *et_channel_loud_markers    (EtTrace *self,
                                                  guint    channel,
                                                  guint   *n);

static inline gboolean
et_marker_overlaps (const EtMarker *m, gint64 from_ns, gint64 to_ns)
{
  return m->start_ns <= to_ns && m->end_ns >= from_ns;
}

/* The thread index of a channel. */
guint              et_trace_channel_thread  (EtTrace *self, guint channel);

/* Of a marker of this trace (a pointer into one of its channels): the
 * channel it is in, its series (the channel's, a string id), and the thread
 * index a cross-thread span ends on (ET_NO_INDEX for every other marker). */
guint              et_trace_marker_channel    (EtTrace *self, const EtMarker *m);
guint32            et_trace_marker_series     (EtTrace *self, const EtMarker *m);
guint32            et_trace_marker_end_thread (EtTrace *self, const EtMarker *m);

/* EtEvent.cpu of an event whose file does not say which processor wrote
 * it (a .nettrace event's processor number -1, or one past 254). */
#define ET_CPU_UNKNOWN G_MAXUINT

/* One event, decoded again from the file. */
typedef struct
{
  gint64       raw_time;
  gint64       time_ns;
  guint32      pid;
  guint32      tid;
  gboolean     has_ids;
  guint        cpu;            /* ET_CPU_UNKNOWN: the file does not say */
  guint16      provider;       /* index */
  guint16      id;
  guint8       version;
  guint8       channel;
  guint8       level;
  guint8       opcode;
  guint16      task;
  guint64      keywords;
  EtGuid       activity_id;
  EtGuid       related_activity_id;
  gboolean     has_related_activity_id;
  const char  *name;           /* event name */
  const char  *task_name;      /* NULL when unknown */
  const char  *opcode_name;    /* NULL when unknown */
  const char  *message;        /* manifest message, or NULL */
  const char  *header_kind;    /* "EVENT_HEADER64", "SYSTEM64", …; "EVENTPIPE" for a
                                  .nettrace's events */
  guint64      file_offset;    /* of the record (of the buffer for compressed buffers;
                                  for a .nettrace, of the EventBlock of its image
                                  buffer's first event) */
  gboolean     decode_failed;  /* the payload did not match its schema */
} EtEvent;

/* Number of events in time order (every record of the file). */
guint64            et_trace_get_n_events    (EtTrace *self);
/* Applies the marker rules to an event again (for "which rule decided"). */
void               et_trace_explain_marker  (EtTrace            *self,
                                             const EtEvent      *event,
                                             const EtFields     *fields,
                                             EtRuleResult       *result);

const char *et_marker_kind_to_string   (EtMarkerKind   kind);   /* "flag", "message", "span" */
const char *et_provider_kind_to_string (EtProviderKind kind);   /* "kernel", "eventsource", … */

G_END_DECLS
