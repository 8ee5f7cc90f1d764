/* et-trace-private.h — what et-trace.c (accessors, queries, on-demand
 * decoding) and et-trace-load.c (the loading pipeline) share. */
#pragma once

#include "et-trace.h"
#include "et-etl-reader.h"
#include "et-manifest.h"
#include "et-tracelogging.h"
#include "et-strpool.h"

G_BEGIN_DECLS

/* Where a record is: its slot, 4 bytes per event, kept for the life of
 * the trace (markers point at their events by index into these). Records
 * start on 8-byte boundaries, so the record at byte `pos` of buffer `b` has
 * slot b × slot_stride + pos / 8. Slots follow file order, and 2^32 of
 * them reach 32 GiB of event data (et_trace_load says what lies beyond). */
typedef guint32 EtEventLoc;

/* A record and its time while loading, until the sort; no per-event
 * allocation. */
typedef struct
{
  gint64     ts;
  EtEventLoc loc;
} EtEventRef;

/* The TraceLogging schemas one decoding thread met, two to a set chosen
 * by a hash of the metadata (the one met last first): a hit costs the
 * hash, a length check and a memcmp of the record's metadata instead of
 * the schema lock and the shared table. An .etl carries each event's
 * metadata in the event, and a server's mix of event types and payload
 * layouts runs to hundreds (issue 36's churn shape: 370, which missed
 * one lookup in four in a direct-mapped table of 512 and misses none in
 * this). Zeroed means empty. */
#define ET_SCHEMA_CACHE_SIZE 2048
/* In front of it, by the metadata's address: the records of an in-memory
 * image (et-image-record) share one copy per event type. */
#define ET_SCHEMA_ADDR_CACHE_SIZE 32

typedef struct
{
  const guint8     *bytes[ET_SCHEMA_CACHE_SIZE];
  gsize             len[ET_SCHEMA_CACHE_SIZE];
  const EtTlSchema *schema[ET_SCHEMA_CACHE_SIZE];
  const guint8     *addr[ET_SCHEMA_ADDR_CACHE_SIZE];        /* direct-mapped */
  const EtTlSchema *addr_schema[ET_SCHEMA_ADDR_CACHE_SIZE];
} EtSchemaCache;

/* A span that ends on another thread than it starts on: few, so kept
 * here rather than in every marker. */
typedef struct
{
  guint32 marker;     /* index into markers */
  guint32 thread;     /* where it ends */
} EtCrossEnd;

typedef struct
{
  EtProvider  pub;
  EtManifest *manifest;     /* EventSource manifest, or NULL */
  gboolean    builtin_rules; /* its markers come from et-builtin-rules (the .NET runtime) */
} EtProviderEntry;

/* Markers of a channel are grouped in blocks of this many; each block keeps
 * the largest end time of the channel up to its end, so a range query can
 * binary-search past everything that ends before the range. */
#define ET_BLOCK_SHIFT ET_CHANNEL_BLOCK_SHIFT

/* What a channel's walks at coarse zoom read, per block of its markers
 * and per stretch of 64 blocks (et-trace.h): the trace's own arrays hold
 * them for every channel of more than a block, built at load; a channel
 * of one block (ET_CHANNEL_BLOCK markers or fewer: a server's short-lived
 * threads have hundreds of thousands) gets arrays of its own when they
 * are first asked for (_et_trace_block_arrays). */
typedef struct
{
  GArray *blocks;           /* gint64 prefix max end per block */
  GArray *block_summaries;  /* EtBlockSummary per block, same order */
  GArray *block_lanes0;     /* guint32 per block: its first lane run, and the end */
  GArray *lane_runs;        /* EtLaneRun, block by block */
  GArray *stretch_runs0;    /* guint32 per stretch: its first run, and the end */
  GArray *stretch_runs;     /* EtStretchRun, stretch by stretch */
  GArray *loud;             /* guint32: loud markers, channel by channel */
} EtBlockArrays;

/* Whether a channel of @n markers gets its block arrays when first asked. */
static inline gboolean
_et_channel_is_lazy (guint n)
{
  return n <= ET_CHANNEL_BLOCK;
}

/* What a channel's markers reach, which depths its spans use, its lanes
 * (et_trace_channel_summary, et_trace_channel_depth_mask,
 * et_trace_channel_lanes): made for all of a thread's channels when one
 * is first asked for (_et_trace_channel_info). */
typedef struct
{
  gint64  first_ns, last_ns;
  guint64 depths;
  guint32 lanes;
  guint8  deepest;
} EtChannelInfo;

/* Where a channel with the trace's arrays starts in them. */
typedef struct
{
  guint32 block0, stretch0, loud0;
} EtArraysAt;

struct _EtTrace
{
  GObject          parent_instance;

  char            *path;
  EtEtlFile       *file;
  EtLogfileHeader  header;
  EtTraceStats     stats;
  GArray          *damage;          /* EtDamage, the first ET_MAX_DAMAGE */
  GStringChunk    *names;           /* stable names: providers, threads, events */
  EtStrPool       *strings;         /* marker texts and series, by id */

  GArray          *providers;       /* EtProviderEntry */
  GHashTable      *provider_index;  /* EtGuid* → index + 1 */
  GHashTable      *tl_schemas;      /* TlKey* → EtTlSchema* */

  EtEventLoc      *events;          /* time order */
  guint64          n_events;
  guint32          slot_stride;     /* slots per buffer (EtEventLoc) */

  GArray          *processes;       /* EtProcess */
  GHashTable      *thread_pids;     /* tid → pid (Thread events, then headers), for
                                       attributing kernel events by their thread */
  GArray          *threads;         /* EtThread */
  GArray          *channels;        /* EtChannel */
  EtBlockArrays    arrays;          /* of the channels of more than a block */
  EtBlockArrays  **lazy;            /* per channel: a small one's, once built (atomic) */
  GMutex           lazy_lock;       /* building them */
  GArray          *channel_at;      /* guint32 per channel: its place in arrays_at, or
                                       ET_NO_INDEX for a small one's arrays */
  GArray          *arrays_at;       /* EtArraysAt per channel with the trace's arrays,
                                       and one for their ends */
  GArray          *channel_thread;  /* guint32: thread of each channel */
  GArray          *series;          /* guint32: the channels' series, each once, by name
                                       (strcmp) */
  EtChannelInfo   *channel_info;    /* per channel (et_memory_zeroed: a page is resident
                                       once a thread of its channels was asked for) */
  gsize            channel_info_size;
  gint            *thread_info_ready; /* per thread (atomic): its channels' info made */
  guint            n_threads_with_info; /* atomic: how many (tests) */
  GMutex           info_lock;       /* making them */
  EtThreadSummary *thread_summaries; /* per thread, at load */
  guint            n_thread_summaries;
  guint64          categories[5];   /* bit category + 1: some marker has it */
  EtMarker        *markers;
  guint            n_markers;
  GArray          *cross_ends;      /* EtCrossEnd, by marker */
  struct _EtTraceCpu *cpu;          /* samples and switches per thread (et-trace-cpu.c) */
  struct _EtStacks *stacks;         /* call stacks (et-trace-stacks.c), built on first use */
  GMutex           stacks_lock;     /* guards building them */
  gboolean         stacks_built;
  GArray          *stacks_samples;  /* until built: EtSampleRef of the CPU's samples */
  /* until built: what the walk noted (load/et-trace-stacks-scan.c),
   * and how it goes */
  gpointer         stacks_scan;
  GDestroyNotify   stacks_scan_free;

  gint64           ticks_per_second;
  gint64           ns_per_tick;      /* when a tick is a whole number of ns, else 0 */
  gint64           raw_lo, raw_hi;   /* plausible raw times; others are clamped to them
                                        (et-trace-times.c) */

  GMutex           lock;            /* names, damage and strings while decoding in parallel */
  GRWLock          schema_lock;     /* tl_schemas and tl_failed */
  GHashTable      *tl_failed;       /* TlKey* of metadata that did not parse */

  /* query/et-derived's per-trace state, made on first use, and how it
   * goes: the model holds it without knowing it. */
  gpointer         derived;
  GDestroyNotify   derived_free;

  GMutex           scratch_lock;    /* guards the scratch below */
  EtFields        *scratch_fields;  /* for et_trace_marker_text */
  EtRuleResult     scratch_rules;
};

#define ET_MAX_DAMAGE 100

/* @channel's info, made with its thread's other channels' when first
 * asked for (any thread may ask; they are made once, under a lock). */
const EtChannelInfo *_et_trace_channel_info (EtTrace *self,
                                             guint    channel);
/* Depths are thread-wide (a span nested in another row's span is one
 * deeper); a row gives lanes only to the depths its own spans use. Adds
 * @m to what its thread or channel reaches and uses; returns its depth. */
static inline guint
_et_reach_marker (const EtMarker *m, gint64 *last_ns, guint64 *depths)
{
  if (m->kind == ET_MARKER_SPAN && m->depth < 64)
    *depths |= G_GUINT64_CONSTANT (1) << m->depth;
  *last_ns = MAX (*last_ns, m->status == ET_SPAN_UNMATCHED_START ? m->start_ns : m->end_ns);
  return m->depth;
}
/* How many threads' channel info was made so far (tests). */
guint           _et_trace_n_threads_with_info (EtTrace *self);

void            _et_trace_add_damage     (EtTrace        *self,
                                          guint64         offset,
                                          const char     *message);
guint           _et_trace_provider_for   (EtTrace        *self,
                                          const EtGuid   *guid,
                                          const char     *name,
                                          EtProviderKind  kind);
/* @cache: NULL, or the calling thread's own. */
const EtTlSchema *_et_trace_tl_schema    (EtTrace        *self,
                                          const EtRecord *record,
                                          guint64         offset,
                                          EtSchemaCache  *cache);
/* The provider GUID and name of a record, and its kind as far as the record
 * alone tells. */
void            _et_record_identity      (const EtRecord *record,
                                          EtGuid         *guid,
                                          const char    **name,
                                          EtProviderKind *kind);
/* Gives a kernel @event the process and thread its payload names
 * (et_kernel_ids), the process looked up by thread id where the payload
 * names only the thread (et-trace-load.c). */
void            _et_trace_attribute_kernel (EtTrace        *self,
                                            const EtRecord *record,
                                            EtEvent        *event);
/* A record's schema when it has a fixed layout or, failing that, a walk
 * layout (the other NULL), and the names the rules read. */
typedef struct
{
  const EtFixedLayout *layout;
  const EtWalkLayout  *walk;
  const char          *event_name;   /* may be NULL */
  const char          *task_name;
} EtFixedSchema;

gboolean        _et_trace_fixed_layout   (EtTrace        *self,
                                          const EtRecord *record,
                                          guint           provider,
                                          guint64         offset,
                                          EtSchemaCache  *cache,
                                          EtFixedSchema  *out);
/* Names, task name, message and fields of one record, as the rules see it. */
/* et_trace_decode_event with the calling thread's own schema cache (or
 * NULL); @index must be valid. */
gboolean        _et_trace_decode_event   (EtTrace        *self,
                                          guint64         index,
                                          EtSchemaCache  *cache,
                                          EtEvent        *event,
                                          EtFields       *fields,
                                          GError        **error);
gboolean        _et_trace_decode_record  (EtTrace        *self,
                                          const EtRecord *record,
                                          guint           provider,
                                          guint64         offset,
                                          EtSchemaCache  *cache,
                                          EtEvent        *event,
                                          EtFields       *fields,
                                          GError        **error);
/* The buffer and byte position of a slot, the record there (parsed once
 * while loading, so it parses again) and its file offset. */
guint           _et_loc_buffer           (const EtTrace  *self,
                                          EtEventLoc      loc);
gboolean        _et_trace_record_at      (EtTrace        *self,
                                          EtEventLoc      loc,
                                          EtRecord       *record);
guint64         _et_trace_offset_of      (EtTrace        *self,
                                          EtEventLoc      loc);
/* Asks for the first @lines cache lines of event @index's record (walks
 * that visit events out of file order call it some events ahead:
 * decoding in time order, searching a channel). */
void            _et_trace_prefetch_event (EtTrace        *self,
                                          guint64         index,
                                          guint           lines);
/* Lines asked for of a record: an EVENT_HEADER record's 80-byte header,
 * its items (a TraceLogging event's metadata) and its payload's start.
 * Decoding large 10 M in time order took 395-403 ms instead of 418-439
 * (one line: 423-442; the lines past these read from the record's size,
 * which then had to arrive first: 448-457). */
#define ET_RECORD_PREFETCH_LINES 3
/* Whether the trace is an image whose records name large payloads in
 * its source file (a .nettrace's: EtImageTables.far_payloads); and asks
 * for the end of the payload event @index's record names there, when it
 * names one (its record asked for before). */
gboolean        _et_trace_payloads_far   (EtTrace        *self);
void            _et_trace_prefetch_payload (EtTrace      *self,
                                            guint64       index);
gint64          _et_trace_raw_to_ns      (EtTrace        *self,
                                          gint64          raw);
typedef struct _EtTraceCpu EtTraceCpu;
/* et-trace-cpu-query.c */
void            _et_trace_cpu_free       (EtTraceCpu     *cpu);
/* Orders EtCrossEnd by marker. */
int             _et_compare_cross_ends   (gconstpointer   a,
                                          gconstpointer   b);

/* The microseconds from @from to @to, rounded up, for lane runs'
 * distances: never less than the distance, 0 when @to is not after @from,
 * G_MAXUINT32 for an hour and more (damaged files saturate times). */
static inline guint32
_et_micros_between (gint64 from, gint64 to)
{
  gint64 ns;

  if (to <= from)
    return 0;
  if (__builtin_sub_overflow (to, from, &ns) || ns > (gint64) G_MAXUINT32 * 1000)
    return G_MAXUINT32;
  return (guint32) MIN (((guint64) ns + 999) / 1000, G_MAXUINT32);
}

/* et-trace-stretches.c: the stretch lane runs of the channel being closed
 * (et_channel_stretch_runs): a stretch is opened at each of its first
 * markers, and every span added. */
typedef struct
{
  guint16 run_of_lane[256];    /* the lane's run, from the stretch's first; G_MAXUINT16: none */
  gint64  last_start[256];     /* the start of the lane's last span so far */
  guint   first_run;
} EtStretchBuild;

void            _et_stretch_build_open   (EtBlockArrays  *arrays,
                                          EtStretchBuild *build);
void            _et_stretch_build_add    (EtBlockArrays  *arrays,
                                          EtStretchBuild *build,
                                          const EtMarker *m,
                                          guint           i,
                                          guint           lane);

/* Empty block arrays, and the arrays freed (the struct is the caller's). */
void            _et_block_arrays_init    (EtBlockArrays  *arrays);
void            _et_block_arrays_clear   (EtBlockArrays  *arrays);
/* et-trace-channels.c: the block arrays of @channel (its markers, in
 * channel order), appended to @arrays. */
void            _et_channel_build_blocks (EtTrace        *self,
                                          guint           channel,
                                          EtBlockArrays  *arrays);
/* et-trace.c: the arrays holding @channel's blocks (built first for a
 * small channel), and where its first block, stretch and loud marker are
 * in them (@at); @n_loud, when not NULL: how many loud markers it has. */
const EtBlockArrays *_et_trace_block_arrays (EtTrace *self,
                                          guint           channel,
                                          EtArraysAt     *at,
                                          guint          *n_loud);
/* How many small channels have their block arrays built (tests). */
guint           _et_trace_n_built_block_arrays (EtTrace *self);

G_END_DECLS
