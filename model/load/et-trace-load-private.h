/* et-trace-load-private.h — what the loading pipeline's two files share:
 * et-trace-load.c (walk, sort, manifests, threads, entry point) and
 * et-trace-markers.c (decode in parallel, marker rules, span pairing,
 * channel layout) and et-trace-verdict.c (the payloads no marker reads). */
#pragma once

#include "et-trace-private.h"
#include "et-workers.h"
#include "et-trace-progress.h"
#include "et-memory.h"

G_BEGIN_DECLS

/* What the walk notes for the stacks (et-trace-stacks-scan.c). */
typedef struct _EtStacksScan EtStacksScan;

typedef struct
{
  guint32  pid;
  guint32  tid;
  gboolean has_ids;
  guint64  n_events;
  guint64  n_samples;
  guint    final;
} TempThread;

/* The providers looked up last: records come from a few providers at a
 * time, often taking turns. Zeroed means empty. */
#define PROVIDER_CACHE_SIZE 4

typedef struct
{
  EtGuid guid[PROVIDER_CACHE_SIZE];
  guint  index[PROVIDER_CACHE_SIZE];
  guint  n;          /* entries in use */
  guint  next;       /* the entry a miss replaces when all are in use */
} ProviderCache;

/* The threads looked up last, by (pid, tid) key: a direct-mapped cache in
 * front of Loader.thread_map, whose value (temp index + 1) it holds. */
#define THREAD_CACHE_SHIFT 8
#define THREAD_CACHE_SIZE  (1u << THREAD_CACHE_SHIFT)

typedef struct
{
  guint64 key[THREAD_CACHE_SIZE];
  guint   value[THREAD_CACHE_SIZE];   /* 0: empty */
} ThreadCache;

/* Events by thread id (samples among them) not yet in Loader.tid_samples:
 * a direct-mapped cache, as a CPU's samples come from a few threads at a
 * time. */
#define TID_CACHE_SIZE 64
typedef struct
{
  guint32  tid;
  gboolean used;
  guint64  samples;
} TidCount;

/* What one walking thread learnt of a provider in its buffers. */
typedef struct
{
  guint64    n_events;
  EtEventLoc first;          /* its first record (when n_events > 0) */
  gboolean   tracelogging;   /* a record carried TraceLogging metadata */
  char      *traits_name;    /* the first name in provider traits, or NULL */
  gboolean   learned;        /* both known: nothing more to learn */
  guint8     plain;          /* PLAIN_*: whether the walk's readers of the kernel's
                                and the runtime's events read its EVENT_HEADER records */
} SeenProvider;

/* A CPU's references in file order, as one walking thread met them: in
 * a mapped block, whose pages go on to the decoding's markers once the
 * runs are merged (Loader.spare). */
typedef struct
{
  EtMapped mem;     /* EtEventRef */
  guint    len;
} EtRun;

static inline EtEventRef *
_et_run_refs (const EtRun *run)
{
  return (EtEventRef *) (gpointer) run->mem.data;
}

/* The loading state. The walk runs one Loader per thread over a range of
 * buffers (the fields under "walking"), merged into the main one after. */
typedef struct
{
  EtTrace      *self;
  GPtrArray    *runs;            /* per CPU: EtRun* */
  GByteArray   *out_of_order;    /* per run: 1 when a record of it is before the one
                                    before it (the merge sorts it first) */
  EtSparePages *spare;           /* the runs' pages once merged, for the markers */
  EtRun        *run;             /* the run of the buffer being walked */
  guint         run_used;        /* its length: it has room for the buffer's records */
  guint         run_index;       /* its place in runs */
  GArray       *manifest_refs;   /* EtEventRef of manifest events */
  GHashTable   *thread_map;      /* guint64 key → TempThread index + 1 */
  GArray       *temp_threads;    /* TempThread */
  GHashTable   *process_names;   /* pid → char* */
  GHashTable   *thread_names;    /* guint64 key → char* */
  GHashTable   *command_lines;   /* pid → char* */
  GHashTable   *thread_roles;    /* guint64 key → static role name (et_runtime_thread_role) */
  GHashTable   *thread_pids;     /* tid → pid, from the payloads of Thread events */
  GHashTable   *tid_samples;     /* tid → CPU samples and other events naming the
                                    thread in their payload (count of samples) */
  TidCount      tid_cache[TID_CACHE_SIZE];   /* in front of tid_samples */
  GArray       *cpu_locs;        /* EtEventLoc of samples and switches (et-trace-cpu.c) */
  EtStacksScan *stacks_scan;     /* what the stacks need (et-trace-stacks-scan.c) */
  gboolean      header_seen;
  gboolean      image;         /* the file is an image (a .nettrace's): its
                                  header record is not an event */
  ProviderCache providers;     /* of the scanning pass */
  ThreadCache   threads;       /* of the scanning pass */

  /* walking */
  GArray       *seen;          /* SeenProvider by provider index */
  guint         from, to;      /* buffers [from, to) */
  EtEventLoc    header_loc;    /* the log-file header record, when header_seen */
  guint64       records;
  guint64       records_skipped;
  gint64        first_raw, last_raw;
  guint32       flagged_events_lost, flagged_buffer_lost;
  GCancellable *cancellable;
  gboolean      cancelled;
  volatile gint *buffers_done; /* all walkers' progress */
  EtTraceProgress *progress;   /* every phase's; told by the first walker only */
  guint64       bytes_before;  /* of the file's bytes, read before the walk */
} ET_WORKER_ITEM Loader;

guint    _et_loader_provider_of       (EtTrace             *self,
                                       ProviderCache       *cache,
                                       const EtRecord      *record);
gboolean _et_loader_is_manifest_event (const EtRecord      *record);
void     _et_loader_report_error      (EtTrace             *self,
                                       EtEventLoc           loc,
                                       const char          *what,
                                       const GError        *error);
guint    _et_loader_thread_of         (Loader              *loader,
                                       ThreadCache         *cache,
                                       const EtRecord      *record);
void     _et_loader_phase_done        (const char          *phase,
                                       gint64              *since);
/* FALSE (reported as damage at its offset) when @record's provider has a
 * schema its payload does not decode with: the events no marker reads are
 * checked at load too, so that every command gives one verdict. */
gboolean _et_trace_check_payload      (EtTrace             *self,
                                       const EtRecord      *record,
                                       guint                provider,
                                       EtEventLoc           loc,
                                       EtSchemaCache       *cache,
                                       EtFields            *scratch);
/* Keeps of the runs' pages (Loader.spare) as many as the markers are
 * likely to write, once it is known which providers make markers: the
 * rest would stay resident unwritten through the steps before decoding. */
void     _et_loader_trim_spare_pages  (Loader              *loader,
                                       EtLoadFlags          flags);
gboolean _et_loader_build_markers     (Loader              *loader,
                                       EtLoadFlags          flags,
                                       GCancellable        *cancellable,
                                       GError             **error);

/* Reports timestamps no recording can have and sets raw_lo / raw_hi, the
 * range event times are clamped to (et-trace-times.c). */
void            _et_trace_check_times    (EtTrace        *self);

/* et-trace-merge.c: the first @n references of the runs (EtRun* per
 * CPU, references in file order) merged into the time-ordered
 * index (ties in file order); newly allocated, @n slots. Sorts each run
 * whose @out_of_order byte is set (the walk noted it: a run's slots
 * follow file order, so only a time before the last can be out of order). */
EtEventLoc     *_et_merge_runs           (GPtrArray      *runs,
                                          const guint8   *out_of_order,
                                          gsize           n);
/* Orders EtEventRefs by time, then slot (file order). */
int             _et_compare_event_refs   (const void     *a,
                                          const void     *b);
/* Sorts @n references in that order (inline, not through a comparison
 * function: the loader's, the stacks' and the merge's one sort). */
void            _et_sort_event_refs      (EtEventRef     *refs,
                                          gsize           n);
/* et-trace-cpu.c: whether the walk keeps @record's slot for
 * _et_trace_cpu_build (CPU samples, context switches, sampling intervals),
 * which reads them again once the threads are built (takes @locs, an
 * array of EtEventLoc, or NULL) and appends each sample to @sample_refs
 * (EtSampleRef; may be NULL) for the stacks. */
typedef struct
{
  EtEventLoc loc;       /* (its time is read again from there: 8 bytes a sample, not 16) */
  guint32    thread;
} EtSampleRef;
gboolean        _et_cpu_record_wanted    (const EtRecord *record);
/* A CPU sample (of the kernel or the sample profiler), and its thread by
 * the loader's rule (ET_NO_INDEX: none). */
gboolean        _et_cpu_record_is_sample (const EtRecord *record);
guint           _et_trace_sample_thread  (EtTrace        *self,
                                          const EtRecord *record);
void            _et_trace_cpu_build      (EtTrace        *self,
                                          GArray         *locs,
                                          GArray         *sample_refs);
/* et-trace-stacks-scan.c: what the walk notes for the stacks (one scan
 * per walking thread, merged in file order): the times and slots
 * (EtEventRef) of method, module and image events (code) and of stack
 * records (walks), and each stack walk paired with the event before it on
 * its thread (EtStackPair). */
typedef struct
{
  EtEventLoc walk;
  EtEventLoc event;
} EtStackPair;
EtStacksScan   *_et_stacks_scan_new      (void);
void            _et_stacks_scan_free     (EtStacksScan   *scan);
void            _et_stacks_scan_record   (EtStacksScan   *scan,
                                          const EtRecord *record,
                                          EtEventLoc      loc);
/* Whether _et_stacks_scan_record reads EVENT_HEADER records of provider
 * @guid for more than their own stack item; for any other provider's,
 * _et_stacks_scan_plain_event does the same. */
gboolean        _et_stacks_reads_provider (const EtGuid  *guid);
void            _et_stacks_scan_plain_event (EtStacksScan   *scan,
                                             const EtRecord *record,
                                             EtEventLoc      loc);
void            _et_stacks_scan_merge    (EtStacksScan   *into,
                                          EtStacksScan   *from);
GArray         *_et_stacks_scan_code     (EtStacksScan   *scan);
/* The slots (EtEventLoc) of stack walks, keys and events with stacks of
 * their own, in the walk's order. */
GArray         *_et_stacks_scan_walks    (EtStacksScan   *scan);
GArray         *_et_stacks_scan_pairs    (EtStacksScan   *scan);
/* The thread a record belongs to: its header's, or for kernel records
 * whose header names none, its payload's (G_MAXUINT32: none). */
guint32         _et_stacks_record_tid    (const EtRecord *record);
/* Searches of the time-ordered index where the scan could not tell: the
 * event of @tid at raw time @ts (not a walk), the event before the
 * runtime's walk @walk on its thread; G_MAXUINT32 when none. */
EtEventLoc      _et_stacks_event_of      (EtTrace        *self,
                                          guint32         tid,
                                          gint64          ts);
EtEventLoc      _et_stacks_event_before  (EtTrace        *self,
                                          EtEventLoc      walk,
                                          const EtRecord *walk_record);
/* et-trace-stacks.c: building the stacks from what loading kept (takes
 * @samples, EtSampleRef from the CPU's build, and @scan; either may be
 * NULL); et_trace_get_stacks calls it once, on first use. */
void            _et_trace_stacks_build   (EtTrace        *self,
                                          GArray         *samples,
                                          EtStacksScan   *scan);

G_END_DECLS
