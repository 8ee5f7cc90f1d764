/* et-trace-markers.c — the last loading stage: events → markers.
 *
 *   events (time order) ─ split in ranges, one thread each ─ decode payload
 *     ─ marker rules ─ markers (joined in time order)
 *                    + span records (24 bytes), kept per process
 *     ─ per process, one thread each: span pairing (et-span-pairing),
 *       ends folded into their starts
 *     ─ channels (thread × provider × series), laid out by a stable scatter
 */
#include "et-trace-load-private.h"
#include "et-builtin-rules.h"
#include "et-memory.h"
#include "et-sort.h"

#ifdef __GLIBC__
#include <malloc.h>
#include <stdlib.h>
#endif

/* ---- markers ---------------------------------------------------------- */

/* A span start or end while loading: what pairing needs beyond what its
 * marker holds (time, thread, provider), and the marker (numbered within
 * the decoding thread's range until the ranges are joined). 24 bytes,
 * where an EtSpanEvent and its marker's number take 44: there is one per
 * span start and end until pairing, at the loader's memory peak. */
typedef struct
{
  union
  {
    gint64 span_id;      /* when has_span_id */
    EtGuid activity_id;  /* otherwise */
  };
  guint32 marker;
  guint16 task;
  guint8  is_end;        /* SPAN_END, and SPAN_REPEATS for a start */
  guint8  has_span_id;
} SpanRecord;

enum
{
  SPAN_END = 1 << 0,
  /* A start whose repeat (same provider and span id, nothing closed in
   * between) is the same activity logged again (et_builtin_rules_repeats). */
  SPAN_REPEATS = 1 << 1,
};

G_STATIC_ASSERT (sizeof (SpanRecord) == 24);

/* The span records of one process that one decoding thread made, in time
 * order. Spans never pair across processes (markers.md "Spans"), so each
 * process pairs on its own. */
typedef struct
{
  SpanRecord *records;
  guint       n;
  guint       capacity;
} SpanList;

/* A marker while loading: where EtMarker has the end's time and event,
 * it has what the layout needs (thread and series) and, for a span start,
 * the index of its end's marker (fold_spans); finish_marker makes the
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
} PendingMarker;

G_STATIC_ASSERT (sizeof (PendingMarker) == sizeof (EtMarker));

/* The cv plans of the fixed and walk layouts a decoding thread met,
 * direct-mapped by layout (each layout is its own allocation, alive as
 * long as the trace, so its address tells which kind made the plan); a
 * slot another layout took is simply made again. */
#define PLAN_CACHE_SIZE 64

typedef struct
{
  gconstpointer layout[PLAN_CACHE_SIZE];
  EtCvPlan      plan[PLAN_CACHE_SIZE];
} PlanCache;

static guint
plan_slot (gconstpointer layout)
{
  return (guint) (GPOINTER_TO_SIZE (layout) >> 4) % PLAN_CACHE_SIZE;
}

static const EtCvPlan *
plan_for (PlanCache *cache, const EtFixedLayout *layout)
{
  guint slot = plan_slot (layout);

  if (cache->layout[slot] != layout)
    {
      cache->layout[slot] = layout;
      et_cv_plan_init (&cache->plan[slot], layout);
    }
  return &cache->plan[slot];
}

static const EtCvPlan *
walk_plan_for (PlanCache *cache, const EtWalkLayout *layout)
{
  guint slot = plan_slot (layout);

  if (cache->layout[slot] != layout)
    {
      cache->layout[slot] = layout;
      et_cv_plan_init_walk (&cache->plan[slot], layout);
    }
  return &cache->plan[slot];
}

/* The cvSeries a decoding thread interned lately, direct-mapped by their
 * text: a thread's markers take turns among its series (20–30 of them on
 * a server's request threads), and each new one takes the pool's lock. */
#define SERIES_CACHE_SIZE 64

typedef struct
{
  char    *text[SERIES_CACHE_SIZE];   /* NULL: empty */
  gsize    len[SERIES_CACHE_SIZE];
  guint32  id[SERIES_CACHE_SIZE];
} SeriesCache;

static guint
series_slot (const char *text, gsize len)
{
  guint32 h = 2166136261u;                 /* FNV-1a */

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guint8) text[i]) * 16777619u;
  return (h ^ (h >> 16)) % SERIES_CACHE_SIZE;
}

static void
series_cache_clear (SeriesCache *cache)
{
  for (guint i = 0; i < SERIES_CACHE_SIZE; i++)
    g_clear_pointer (&cache->text[i], g_free);
}

/* What one decoding thread makes of its range of events. Its markers go
 * into its slice of one array shared by all threads: an event makes at
 * most one marker, so the slice of events [from, to) starts at `from`; no
 * thread can run into the next, nothing grows, and the pages past what a
 * thread wrote are never touched (so never resident). */
typedef struct
{
  PendingMarker *markers;     /* time order */
  SpanList    *spans;         /* by process index */
  guint        n_processes;
  guint        n_markers;
  guint32      base;          /* where its markers start once joined */
  GArray      *cross_ends;    /* EtCrossEnd by marker of this build (pair_spans) */
  EtFields    *fields;
  EtRuleResult rules;
  ProviderCache providers;
  ThreadCache  threads;
  EtSchemaCache schemas;
  PlanCache    plans;
  SeriesCache  series;        /* cvSeries interned lately */
  const char  *task_name[64]; /* task names met (direct-mapped) and their string ids */
  guint32      task_series[64];
  guint64      failures;
  guint64      fixed;         /* markers made by add_fixed_marker from a fixed layout */
  guint64      walked;        /* … and from a walk layout */
  guint8       span_flags;    /* SPAN_REPEATS for the span start being added */
} MarkerBuild;

/* @out's markers are sized for every event; @b gets the part from event
 * @from to @to. Its span lists are sized for every event of
 * their process in that range (the first thread's for every event of the
 * process, so that the others' can join it in place): the space is
 * reserved, not used, until spans are written. */
static void
marker_build_init (MarkerBuild *b, EtTrace *self, const MarkerBuild *out, guint64 from,
                   guint64 to)
{
  memset (b, 0, sizeof *b);
  b->markers = out->markers + from;
  b->n_processes = self->processes->len;
  b->spans = g_new0 (SpanList, MAX (b->n_processes, 1));
  for (guint t = 0; t < self->threads->len; t++)
    {
      const EtThread *thread = &g_array_index (self->threads, EtThread, t);
      SpanList *list = &b->spans[thread->process];

      list->capacity = (guint) MIN (list->capacity + thread->n_events,
                                    from == 0 ? G_MAXUINT : to - from);
    }
  b->fields = et_fields_new ();
  et_rule_result_init (&b->rules);
  b->rules.skip_text = TRUE;     /* texts are made when shown (et_trace_marker_text) */
  b->rules.skip_task_series = TRUE;   /* series_id takes the task name itself */
}

static void
span_list_clear (SpanList *list)
{
  g_clear_pointer (&list->records, g_free);
  list->n = list->capacity = 0;
}

static void
marker_build_clear (MarkerBuild *b)
{
  g_clear_pointer (&b->fields, et_fields_free);
  series_cache_clear (&b->series);
  et_rule_result_clear (&b->rules);
}

/* What pairing did not take already (a cancelled or failed load). */
static void
marker_build_free_spans (MarkerBuild *b)
{
  for (guint p = 0; b->spans != NULL && p < b->n_processes; p++)
    span_list_clear (&b->spans[p]);
  g_clear_pointer (&b->spans, g_free);
}

/* The list's space is taken when its first span comes (and grows should
 * the reservation fall short, which it cannot). */
static void
span_list_add (SpanList *list, const SpanRecord *record)
{
  if (list->records == NULL || list->n == list->capacity)
    {
      if (list->records != NULL)
        list->capacity = MAX (1024, list->capacity * 2);
      list->records = g_renew (SpanRecord, list->records, MAX (list->capacity, 1));
    }
  list->records[list->n++] = *record;
}

/* The string id of a marker's series. A series from a task name is
 * found by the name's address (names live as long as the trace); a cvSeries
 * is found in the thread's SeriesCache. Only a new series takes the lock. */
static guint32
series_id (EtTrace *self, MarkerBuild *b, const char *task_name)
{
  const GString *series = b->rules.series;
  guint slot;

  switch (b->rules.series_rule)
    {
    case ET_RULE_EMPTY:
      return 0;
    case ET_RULE_TASK_NAME:
      slot = (guint) (GPOINTER_TO_SIZE (task_name) >> 3) % G_N_ELEMENTS (b->task_name);
      if (b->task_name[slot] != task_name)
        {
          g_mutex_lock (&self->lock);
          b->task_series[slot] = et_strpool_intern (self->strings, task_name, -1);
          g_mutex_unlock (&self->lock);
          b->task_name[slot] = task_name;
        }
      return b->task_series[slot];
    default:
      break;
    }
  if (series->len == 0)
    return 0;
  slot = series_slot (series->str, series->len);
  if (b->series.text[slot] != NULL && b->series.len[slot] == series->len
      && memcmp (b->series.text[slot], series->str, series->len) == 0)
    return b->series.id[slot];
  g_free (b->series.text[slot]);
  b->series.text[slot] = g_memdup2 (series->str, series->len);
  b->series.len[slot] = series->len;
  g_mutex_lock (&self->lock);
  b->series.id[slot] = et_strpool_intern (self->strings, series->str, (gssize) series->len);
  g_mutex_unlock (&self->lock);
  return b->series.id[slot];
}

static gboolean
wants_markers (EtTrace *self, guint provider, EtLoadFlags flags)
{
  const EtProvider *p = &g_array_index (self->providers, EtProviderEntry, provider).pub;
  return p->default_on || (flags & ET_LOAD_ALL_PROVIDERS);
}

/* The marker of event @index once the rules have run (b->rules). */
static void
add_marker (Loader *loader, MarkerBuild *b, const EtRecord *record, guint provider,
            gint64 time_ns, const char *task_name, guint64 index)
{
  EtTrace *self = loader->self;
  PendingMarker m = { 0 };
  guint32 thread = _et_loader_thread_of (loader, &b->threads, record);

  m.start_ns = time_ns;
  m.event = (guint32) index;
  m.end_marker = ET_NO_INDEX;
  m.thread = thread;
  m.provider = (guint16) provider;
  m.category = b->rules.category;
  m.importance = b->rules.importance;
  m.status = ET_SPAN_OK;
  switch (b->rules.role)
    {
    case ET_ROLE_FLAG:    m.kind = ET_MARKER_FLAG; break;
    case ET_ROLE_MESSAGE: m.kind = ET_MARKER_MESSAGE; break;
    case ET_ROLE_SPAN_START:
    case ET_ROLE_SPAN_END:
      {
        SpanRecord s = {
          .marker = b->n_markers, .task = record->task,
          .is_end = b->rules.role == ET_ROLE_SPAN_END ? SPAN_END : b->span_flags,
          .has_span_id = b->rules.has_span_id,
        };
        guint process = g_array_index (self->threads, EtThread, thread).process;

        if (s.has_span_id)
          s.span_id = b->rules.span_id;
        else
          s.activity_id = record->activity_id;
        m.kind = ET_MARKER_SPAN;
        span_list_add (&b->spans[process], &s);
      }
      break;
    }
  m.series = series_id (self, b, task_name);
  b->markers[b->n_markers++] = m;
}

/* The marker of a decoded event. */
static void
add_decoded_marker (Loader *loader, MarkerBuild *b, const EtRecord *record, guint provider,
                    const EtEvent *event, guint64 index)
{
  EtRuleInput input = {
    .level = event->level, .opcode = event->opcode, .event_name = event->name,
    .task_name = event->task_name, .message = event->message, .fields = b->fields,
  };

  et_marker_rules_apply (&input, &b->rules);
  add_marker (loader, b, record, provider, event->time_ns, event->task_name, index);
}

/* The marker of an event whose schema has a fixed or a walk layout, from
 * its cv fields alone: no payload decoding, no EtFields. Only a payload
 * that would decode without fail takes this way (one too short, or with a
 * string that does not end, is decoded, so that its failure is counted
 * and reported); the marker is the one add_decoded_marker would make.
 * FALSE when the event does not qualify. */
static gboolean
add_fixed_marker (Loader *loader, MarkerBuild *b, const EtRecord *record, guint provider,
                  EtEventLoc loc, guint64 index)
{
  EtTrace *self = loader->self;
  EtRuleInput input = { .level = record->level, .opcode = record->opcode };
  EtFixedSchema fs;

  if (!_et_trace_fixed_layout (self, record, provider, _et_trace_offset_of (self, loc),
                               &b->schemas, &fs))
    return FALSE;
  input.event_name = fs.event_name;
  input.task_name = fs.task_name;
  if (fs.layout != NULL)
    {
      if (record->payload_len < fs.layout->size)
        return FALSE;
      et_marker_rules_apply_fixed (&input, fs.layout, plan_for (&b->plans, fs.layout),
                                   record->payload, &b->rules);
      b->fixed++;
    }
  else if (et_marker_rules_apply_walk (&input, fs.walk, walk_plan_for (&b->plans, fs.walk),
                                       record->payload, record->payload_len,
                                       record->pointer_size, &b->rules))
    b->walked++;
  else
    return FALSE;
  add_marker (loader, b, record, provider, _et_trace_raw_to_ns (self, record->ts), fs.task_name,
              index);
  return TRUE;
}

/* The marker of an event of a provider with built-in rules (the .NET
 * runtime, et-builtin-rules): only the events a rule covers are decoded,
 * and a rule may still decide on no marker. */
static void
add_builtin_marker (Loader *loader, MarkerBuild *b, const EtRecord *record, guint provider,
                    EtEventLoc loc, guint64 index)
{
  EtTrace *self = loader->self;
  g_autoptr(GError) local = NULL;
  EtRuleInput input = { 0 };
  EtEvent event;

  if (!et_builtin_rules_covers (record->id))
    {
      if (!_et_trace_check_payload (self, record, provider, loc, &b->schemas, b->fields))
        b->failures++;
      return;
    }
  if (!_et_trace_decode_record (self, record, provider, _et_trace_offset_of (self, loc),
                                &b->schemas, &event, b->fields, &local))
    {
      b->failures++;
      _et_loader_report_error (self, loc, event.name ? event.name : "event payload", local);
    }
  input.level = event.level;
  input.opcode = event.opcode;
  input.event_name = event.name;
  input.task_name = event.task_name;
  input.fields = b->fields;
  if (!et_builtin_rules_apply (record->id, &input, &b->rules))
    return;
  b->span_flags = et_builtin_rules_repeats (record->id) ? SPAN_REPEATS : 0;
  add_marker (loader, b, record, provider, event.time_ns, NULL, index);
  b->span_flags = 0;
}

typedef struct
{
  Loader       *loader;
  MarkerBuild   b;
  EtLoadFlags   flags;
  guint64       from;
  guint64       to;
  GCancellable *cancellable;
  gboolean      cancelled;
  gboolean      full_decode;  /* tests: every payload decoded (ETLSCOPE_FULL_DECODE) */
} Worker;

/* Decodes events [from, to) of a worker's range into its own arrays. */
static gpointer
decode_range (gpointer data)
{
  Worker *w = data;
  EtTrace *self = w->loader->self;
  MarkerBuild *b = &w->b;
  EtEvent event;

  et_worker_begin ();
  for (guint64 i = w->from; i < w->to; i++)
    {
      EtEventLoc loc = self->events[i];
      g_autoptr(GError) local = NULL;
      EtRecord record;
      guint provider;

      if ((i & 0xFFFF) == 0 && g_cancellable_is_cancelled (w->cancellable))
        {
          w->cancelled = TRUE;
          break;
        }
      if (!_et_trace_record_at (self, loc, &record) || _et_loader_is_manifest_event (&record))
        continue;
      provider = _et_loader_provider_of (self, &b->providers, &record);
      if (!wants_markers (self, provider, w->flags))
        {
          if (!_et_trace_check_payload (self, &record, provider, loc, &b->schemas, b->fields))
            b->failures++;
          continue;
        }
      if (g_array_index (self->providers, EtProviderEntry, provider).builtin_rules)
        {
          add_builtin_marker (w->loader, b, &record, provider, loc, i);
          continue;
        }
      if (!w->full_decode && add_fixed_marker (w->loader, b, &record, provider, loc, i))
        continue;
      if (!_et_trace_decode_record (self, &record, provider,
                                    _et_trace_offset_of (self, loc), &b->schemas,
                                    &event, b->fields, &local))
        {
          b->failures++;
          /* Damaged extended items were reported, at the item, by the walk. */
          if (record.ext_damage == NULL)
            _et_loader_report_error (self, loc, event.name ? event.name : "event payload", local);
        }
      add_decoded_marker (w->loader, b, &record, provider, &event, i);
    }
  return NULL;
}

/* Moves @from's markers down to the end of @into's (in the same arrays);
 * its spans stay where they are, numbered from @from->base. */
static void
append_build (MarkerBuild *into, MarkerBuild *from)
{
  guint32 base = into->n_markers;

  memmove (into->markers + base, from->markers, from->n_markers * sizeof (PendingMarker));
  from->base = base;
  into->n_markers += from->n_markers;
  into->failures += from->failures;
  into->fixed += from->fixed;
  into->walked += from->walked;
}

/* Gives back the arrays' unused tails (large blocks are mapped, so this
 * returns their pages rather than copying). */
static void
marker_build_shrink (MarkerBuild *b)
{
  b->markers = g_realloc (b->markers, MAX (b->n_markers, 1) * sizeof (PendingMarker));
}

static void
marker_build_free_arrays (MarkerBuild *b)
{
  g_clear_pointer (&b->markers, g_free);
  g_clear_pointer (&b->cross_ends, g_array_unref);
}

/* Small traces decode on one thread; larger ones split the events into
 * equal ranges, one per core, and join the markers in time order. The
 * workers (*@workers, *@n_workers) keep their span events for pairing. */
static gboolean
decode_markers (Loader *loader, MarkerBuild *out, Worker **workers, guint *n_workers,
                EtLoadFlags flags, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  guint n = et_workers_count (self->n_events, 200000);
  Worker *w = *workers = g_new0 (Worker, n);
  guint64 n_events = self->n_events;    /* a preview's first events only */
  gsize capacity = MAX (n_events, 1);
  gboolean cancelled = FALSE;

  *n_workers = n;
  out->markers = g_new (PendingMarker, capacity);
  for (guint k = 0; k < n; k++)
    {
      w[k] = (Worker) { loader, { 0 }, flags, n_events * k / n, n_events * (k + 1) / n,
                        cancellable, FALSE, g_getenv ("ETLSCOPE_FULL_DECODE") != NULL };
      marker_build_init (&w[k].b, self, out, w[k].from, w[k].to);
    }
  et_workers_run (w, sizeof *w, n, decode_range, "etlscope-decode");
  for (guint k = 0; k < n; k++)
    {
      cancelled |= w[k].cancelled;
      append_build (out, &w[k].b);
      marker_build_clear (&w[k].b);
    }
  marker_build_shrink (out);
  self->stats.decode_failures += out->failures;
  self->stats.fixed_layout_events += out->fixed;
  self->stats.walked_events += out->walked;
  if (cancelled)
    return !g_cancellable_set_error_if_cancelled (cancellable, error);
  return TRUE;
}

/* Which markers stay: a bit each (a byte each was 1 B per event at the
 * loader's peak). Processes pair at once, and the markers of two of them
 * may share a word: dropping one is atomic. */
static inline gboolean
is_kept (const guint32 *keep, guint32 i)
{
  return (keep[i >> 5] >> (i & 31)) & 1;
}

static inline void
drop_marker (guint32 *keep, guint32 i)
{
  g_atomic_int_and (&keep[i >> 5], ~(1u << (i & 31)));
}

/* Pairing, one process at a time on every core. */
typedef struct
{
  EtTrace     *self;
  MarkerBuild *out;          /* the joined markers, folded in place */
  Worker      *workers;
  guint        n_workers;
  guint        n_processes;
  guint32     *keep;         /* a bit per marker (is_kept): 0 for ends folded into
                                their starts */
  GMutex       lock;         /* out->cross_ends */
  gint         next;         /* atomic: the next process to take */
  guint64      large;        /* a process with more spans pairs alone (pair_spans) */
} PairJob;

/* The span records of @process from every decoding thread, in thread
 * order (so in time order), with their markers numbered as joined. The
 * first list has room for all (marker_build_init); each other is freed
 * once copied. Returns how many. */
static guint
join_spans (PairJob *job, guint process, SpanRecord **records)
{
  guint total = 0, n = 0;

  *records = NULL;
  for (guint k = 0; k < job->n_workers; k++)
    total += job->workers[k].b.spans[process].n;
  for (guint k = 0; k < job->n_workers && total > 0; k++)
    {
      SpanList *list = &job->workers[k].b.spans[process];

      if (list->n > 0 && *records == NULL)
        {
          *records = g_steal_pointer (&list->records);
          if (list->capacity < total)
            *records = g_renew (SpanRecord, *records, total);
        }
      else if (list->n > 0)
        memcpy (*records + n, list->records, list->n * sizeof (SpanRecord));
      for (guint i = 0; i < list->n; i++)
        (*records)[n + i].marker += job->workers[k].b.base;
      n += list->n;
      span_list_clear (list);
    }
  return n;
}

/* How many span events ahead the walks over a process's markers ask for
 * them: the markers of one process are spread over the whole array. */
#define PREFETCH_AHEAD 8

/* The span events pairing takes: each record with its marker's time,
 * thread and provider; @span_marker gets each one's marker. The events
 * take the records' place (@records is taken), so that a process's
 * records and events are never both resident: written from the last one
 * back, event i (40 bytes from 40 i) covers only records from i on, and
 * record i is read before its event is written. */
static EtSpanEvent *
span_events_of (EtTrace *self, const MarkerBuild *b, SpanRecord *records, guint n,
                guint32 *span_marker)
{
  G_STATIC_ASSERT (sizeof (EtSpanEvent) >= sizeof (SpanRecord));
  guint8 *bytes = g_realloc (records, (gsize) MAX (n, 1) * sizeof (EtSpanEvent));

  for (guint i = n; i-- > 0;)
    {
      SpanRecord r;
      EtSpanEvent e = { 0 };
      const PendingMarker *m;
      const EtThread *thread;

      memcpy (&r, bytes + (gsize) i * sizeof r, sizeof r);
      if (i >= PREFETCH_AHEAD)
        __builtin_prefetch (&b->markers[((const SpanRecord *) (gpointer) bytes)[i - PREFETCH_AHEAD]
                                          .marker]);
      m = &b->markers[r.marker];
      thread = &g_array_index (self->threads, EtThread, m->thread);
      e.time = m->start_ns;
      if (r.has_span_id)
        e.span_id = r.span_id;
      else
        e.activity_id = r.activity_id;
      e.pid = thread->pid;
      e.tid = thread->tid;
      e.provider = m->provider;
      e.task = r.task;
      e.is_end = r.is_end & SPAN_END;
      e.has_span_id = r.has_span_id;
      span_marker[i] = r.marker;
      memcpy (bytes + (gsize) i * sizeof e, &e, sizeof e);
    }
  return (EtSpanEvent *) (gpointer) bytes;
}

/* Folds span ends into their starts (markers.md "Spans"): a start learns
 * its end's marker, an end that closed something is dropped. */
static void
fold_spans (PairJob *job, const EtSpanResult *results, const guint32 *span_marker, guint n,
            GArray *cross_ends)
{
  MarkerBuild *b = job->out;

  for (guint i = 0; i < n; i++)
    {
      guint partner = results[i].partner;
      gboolean is_end = results[i].status == ET_SPAN_UNMATCHED_END
                        || (partner != G_MAXUINT && partner < i);
      guint32 mi = span_marker[i];
      PendingMarker *m = &b->markers[mi];

      if (i + PREFETCH_AHEAD < n)     /* the markers are spread over the whole array */
        __builtin_prefetch (&b->markers[span_marker[i + PREFETCH_AHEAD]], 1);
      if (is_end && partner != G_MAXUINT)
        {
          drop_marker (job->keep, mi);    /* drawn as part of its start */
          continue;
        }
      m->status = results[i].status;
      m->depth = (guint8) MIN (results[i].depth, 255);
      if (is_end || partner == G_MAXUINT)
        continue;
      m->end_marker = span_marker[partner];
      /* Only a start paired through its process can end on another
       * thread: the others need not look at their end's marker. */
      if (results[i].status == ET_SPAN_CROSS_THREAD
          && b->markers[m->end_marker].thread != m->thread)
        {
          EtCrossEnd cross = { mi, b->markers[m->end_marker].thread };
          g_array_append_val (cross_ends, cross);
        }
    }
}

/* Drops the starts that repeat the open start before them (SPAN_REPEATS:
 * the runtime's GC/Start written twice for one GC): the first one stands
 * for the activity, the repeat makes no marker. Records are in time order;
 * returns how many stay. */
static guint
drop_repeated_starts (PairJob *job, SpanRecord *records, guint n)
{
  const PendingMarker *markers = job->out->markers;
  gboolean open = FALSE;
  gint64 open_id = 0;
  guint16 open_provider = 0;
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    {
      const SpanRecord *r = &records[i];

      if ((r->is_end & SPAN_REPEATS) && r->has_span_id)
        {
          if (open && r->span_id == open_id && markers[r->marker].provider == open_provider)
            {
              drop_marker (job->keep, r->marker);
              continue;
            }
          open = TRUE;
          open_id = r->span_id;
          open_provider = markers[r->marker].provider;
        }
      else if (open && (r->is_end & SPAN_END) && r->has_span_id && r->span_id == open_id
               && markers[r->marker].provider == open_provider)
        open = FALSE;
      if (kept != i)             /* most processes drop nothing: no copying */
        records[kept] = *r;
      kept++;
    }
  return kept;
}

/* The span starts and ends of @process, from every decoding thread. */
static guint64
process_spans (const PairJob *job, guint process)
{
  guint64 n = 0;

  for (guint k = 0; k < job->n_workers; k++)
    n += job->workers[k].b.spans[process].n;
  return n;
}

static void
pair_process (PairJob *job, guint process, GArray *cross_ends)
{
  g_autofree SpanRecord *records = NULL;
  g_autofree EtSpanEvent *events = NULL;
  g_autofree guint32 *span_marker = NULL;
  g_autofree EtSpanResult *results = NULL;
  guint n = join_spans (job, process, &records);

  n = drop_repeated_starts (job, records, n);
  if (n == 0)
    return;
  span_marker = g_new (guint32, n);
  events = span_events_of (job->self, job->out, g_steal_pointer (&records), n, span_marker);
  results = g_new (EtSpanResult, n);
  et_span_pair (events, n, results);
  g_clear_pointer (&events, g_free);      /* only the results are needed now */
  fold_spans (job, results, span_marker, n, cross_ends);
}

static void
add_cross_ends (PairJob *job, const GArray *cross_ends)
{
  g_mutex_lock (&job->lock);
  g_array_append_vals (job->out->cross_ends, cross_ends->data, cross_ends->len);
  g_mutex_unlock (&job->lock);
}

/* One pairing thread: the processes that are not large, one at a time. */
static gpointer
pair_processes (gpointer data)
{
  PairJob *job = data;
  g_autoptr(GArray) cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));
  guint process;

  et_worker_begin ();
  while ((process = (guint) g_atomic_int_add (&job->next, 1)) < job->n_processes)
    if (process_spans (job, process) <= job->large)
      pair_process (job, process, cross_ends);
  add_cross_ends (job, cross_ends);
  return NULL;
}

/* Pairs every process's spans and returns a mask of the markers that
 * stay. A process with more than an eighth of the spans pairs alone, one
 * after the other: pairing one takes 60 bytes per span, and two large ones
 * at once were the loader's peak (the threads shape: 250 MiB, 242 alone)
 * while they did not finish sooner on a shared 2-core machine (70 ms
 * either way: pairing waits on memory). The others pair a process per
 * task on every core, at most two eighths at once. */
static guint32 *
pair_spans (EtTrace *self, MarkerBuild *b, Worker *workers, guint n_workers)
{
  guint n_threads;
  gsize words = ((gsize) b->n_markers + 31) / 32;
  PairJob job = { self, b, workers, n_workers, self->processes->len,
                  g_new (guint32, MAX (words, 1)) };
  g_autofree GThread **threads = NULL;
  guint64 n_spans = 0;

  memset (job.keep, 0xFF, words * sizeof (guint32));
  b->cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));
  for (guint p = 0; p < job.n_processes; p++)
    n_spans += process_spans (&job, p);
  job.large = n_spans / 8;
  n_threads = MAX (MIN (et_workers_count (n_spans, 50000), job.n_processes), 1);
  g_mutex_init (&job.lock);
  {
    g_autoptr(GArray) cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));

    for (guint p = 0; p < job.n_processes; p++)
      if (process_spans (&job, p) > job.large)
        pair_process (&job, p, cross_ends);
    add_cross_ends (&job, cross_ends);
  }
  threads = g_new0 (GThread *, n_threads);
  for (guint k = 1; k < n_threads; k++)
    threads[k] = g_thread_new ("etlscope-pair", pair_processes, &job);
  pair_processes (&job);
  for (guint k = 1; k < n_threads; k++)
    g_thread_join (threads[k]);
  g_mutex_clear (&job.lock);
  /* The scatter (build_channels) takes them in marker order. */
  g_array_sort (b->cross_ends, _et_compare_cross_ends);
  return job.keep;
}

typedef struct
{
  guint32 thread;
  guint32 series;
  guint16 provider;
  guint32 count;
  guint32 first;     /* position of its first marker in the final array */
  guint32 rank;      /* its series' place among the series by name (rank_series) */
} ChannelDef;

/* The sorted definitions become the channels in their own memory
 * (channels_in_order). */
G_STATIC_ASSERT (sizeof (ChannelDef) == sizeof (EtChannel));

static guint
channel_def_hash (gconstpointer p)
{
  const ChannelDef *d = p;
  guint h = d->thread * 2654435761u ^ d->series * 40503u ^ d->provider;

  /* Mixed down: the table below takes its low bits. */
  h ^= h >> 16;
  h *= 0x45D9F3Bu;
  return h ^ (h >> 16);
}

static gboolean
channel_def_equal (gconstpointer a, gconstpointer b)
{
  const ChannelDef *x = a, *y = b;
  return x->thread == y->thread && x->series == y->series && x->provider == y->provider;
}

/* Channel definitions in first-seen order, found through an
 * open-addressed index of their positions: no allocation per channel (a
 * server's short-lived threads make hundreds of thousands of them). */
typedef struct
{
  GArray  *defs;     /* ChannelDef */
  guint32 *slots;    /* a definition's position + 1; 0: free */
  guint    mask;
} DefTable;

/* An empty table with room for @n definitions. */
static void
def_table_init (DefTable *t, guint n)
{
  t->defs = g_array_sized_new (FALSE, FALSE, sizeof (ChannelDef), n);
  t->mask = 1023;
  while (t->mask + 1 < (guint64) n * 2)
    t->mask = t->mask * 2 + 1;
  t->slots = g_new0 (guint32, t->mask + 1);
}

/* Frees @block of @len bytes, its pages given back first: the loader's
 * transient tables are made on worker threads, whose arenas would keep
 * them resident while the next table grows elsewhere. */
static void
release_free (gpointer block, gsize len)
{
  et_memory_release (block, len);
  g_free (block);
}

static void
def_table_clear (DefTable *t)
{
  if (t->defs != NULL)
    et_memory_release (t->defs->data, t->defs->len * sizeof (ChannelDef));
  g_clear_pointer (&t->defs, g_array_unref);
  if (t->slots != NULL)
    release_free (g_steal_pointer (&t->slots), (t->mask + 1) * sizeof (guint32));
}

static void
def_table_grow (DefTable *t)
{
  t->mask = t->mask * 2 + 1;
  g_free (t->slots);
  t->slots = g_new0 (guint32, t->mask + 1);
  for (guint k = 0; k < t->defs->len; k++)
    {
      guint h = channel_def_hash (&g_array_index (t->defs, ChannelDef, k)) & t->mask;

      while (t->slots[h] != 0)
        h = (h + 1) & t->mask;
      t->slots[h] = k + 1;
    }
}

/* The position of @key's definition; a new one is added as @key is. */
static guint
def_table_find (DefTable *t, const ChannelDef *key)
{
  guint h = channel_def_hash (key) & t->mask;

  for (; t->slots[h] != 0; h = (h + 1) & t->mask)
    if (channel_def_equal (&g_array_index (t->defs, ChannelDef, t->slots[h] - 1), key))
      return t->slots[h] - 1;
  if ((t->defs->len + 1) * 2 > t->mask + 1)
    {
      def_table_grow (t);
      return def_table_find (t, key);
    }
  g_array_append_val (t->defs, *key);
  t->slots[h] = t->defs->len;
  return t->defs->len - 1;
}

/* The bits that hold 0 … @n - 1. */
static guint
bits_for (guint n)
{
  guint bits = 0;

  while (bits < 32 && (n - 1) >> bits != 0)
    bits++;
  return n > 1 ? bits : 0;
}

/* @sorted (pointers into @defs) in layout order (compare_channel_defs) by
 * sorting numbers: thread, provider, series rank and the definition's
 * place, packed in 64 bits (a radix sort: hundreds of thousands of
 * channels, a server's, took 25 ms through qsort). FALSE when they do not
 * fit (then the caller compares). */
static gboolean
sort_defs_packed (EtTrace *self, GArray *defs, ChannelDef **sorted)
{
  guint b_at = bits_for (defs->len), b_rank = bits_for (self->series->len);
  guint b_provider = bits_for (self->providers->len), b_thread = bits_for (self->threads->len);
  g_autofree guint64 *keys = NULL;

  if (b_at + b_rank + b_provider + b_thread > 64)
    return FALSE;
  keys = g_new (guint64, MAX (defs->len, 1));
  for (guint c = 0; c < defs->len; c++)
    {
      const ChannelDef *d = &g_array_index (defs, ChannelDef, c);

      keys[c] = ((((((guint64) d->thread << b_provider) | d->provider) << b_rank) | d->rank) << b_at)
                | c;
    }
  et_sort_u64 (keys, defs->len);
  for (guint c = 0; c < defs->len; c++)
    sorted[c] = &g_array_index (defs, ChannelDef, keys[c] & ((G_GUINT64_CONSTANT (1) << b_at) - 1));
  return TRUE;
}

/* Channels by thread, provider, then series name (not its id: ids follow
 * the order strings were first seen, which parallel decoding varies), by
 * the name's rank among the series (rank_series). */
static int
compare_channel_defs (gconstpointer a, gconstpointer b)
{
  const ChannelDef *x = *(const ChannelDef * const *) a, *y = *(const ChannelDef * const *) b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->provider != y->provider)
    return x->provider < y->provider ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int
compare_names (gconstpointer a, gconstpointer b, gpointer strings)
{
  return strcmp (et_strpool_get (strings, GPOINTER_TO_UINT (*(gconstpointer *) a)),
                 et_strpool_get (strings, GPOINTER_TO_UINT (*(gconstpointer *) b)));
}

/* Gives each channel its series' rank by name: the series are sorted
 * once, so that sorting hundreds of thousands of channels (a server's
 * short-lived threads) compares numbers, not names through the pool.
 * The trace keeps them in that order (et_trace_get_series). */
static void
rank_series (GArray *defs, EtTrace *self)
{
  EtStrPool *strings = self->strings;
  g_autoptr(GHashTable) rank = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint c = 0; c < defs->len; c++)
    {
      gpointer id = GUINT_TO_POINTER (g_array_index (defs, ChannelDef, c).series);

      if (g_hash_table_insert (rank, id, NULL))
        g_ptr_array_add (names, id);
    }
  g_ptr_array_sort_with_data (names, compare_names, strings);
  for (guint k = 0; k < names->len; k++)
    {
      guint32 id = GPOINTER_TO_UINT (names->pdata[k]);

      g_hash_table_insert (rank, names->pdata[k], GUINT_TO_POINTER (k));
      g_array_append_val (self->series, id);
    }
  for (guint c = 0; c < defs->len; c++)
    {
      ChannelDef *def = &g_array_index (defs, ChannelDef, c);

      def->rank = GPOINTER_TO_UINT (g_hash_table_lookup (rank, GUINT_TO_POINTER (def->series)));
    }
}

/* A thread's summary (EtThreadSummary), read from its markers at load,
 * with the trace's categories and whether a span of it is open to the
 * end. Its channels' own info waits until one is asked for, unless one
 * has more than a block: their block arrays are built now. */
static void
summarise_thread (EtTrace *self, guint thread)
{
  EtThread *t = &g_array_index (self->threads, EtThread, thread);
  EtThreadSummary s = { G_MAXINT64, G_MININT64, 0, 0, 0 };
  guint deepest = 0;
  gboolean large = FALSE;

  for (guint k = 0; k < t->n_channels; k++)
    {
      const EtChannel *c = &g_array_index (self->channels, EtChannel, t->first_channel + k);

      large |= !_et_channel_is_lazy (c->n_markers);
      s.n_markers += c->n_markers;
      if (c->n_markers > 0)
        s.first_ns = MIN (s.first_ns, c->markers[0].start_ns);
      for (guint i = 0; i < c->n_markers; i++)
        {
          const EtMarker *m = &c->markers[i];

          deepest = MAX (deepest, _et_reach_marker (m, &s.last_ns, &s.depths));
          t->open_to_end |= m->status == ET_SPAN_UNMATCHED_START;
          if (m->category >= -1 && m->category <= 255)
            self->categories[(m->category + 1) / 64] |= G_GUINT64_CONSTANT (1) << ((m->category + 1) % 64);
        }
    }
  s.deepest = (guint8) MIN (deepest, G_MAXUINT8);
  self->thread_summaries[thread] = s;
  if (large)
    _et_trace_channel_info (self, t->first_channel);
}

/* A channel of more than a block gets its block arrays in the trace's;
 * a small one when first asked for. */
static void
close_channel (EtTrace *self, guint channel)
{
  guint32 none = ET_NO_INDEX;
  EtArraysAt at = { self->arrays.blocks->len, self->arrays.stretch_runs0->len,
                    self->arrays.loud->len };

  if (_et_channel_is_lazy (g_array_index (self->channels, EtChannel, channel).n_markers))
    {
      g_array_append_val (self->channel_at, none);
      return;
    }
  g_array_append_val (self->channel_at, self->arrays_at->len);
  g_array_append_val (self->arrays_at, at);
  _et_channel_build_blocks (self, channel, &self->arrays);
}

/* The marker a pending one becomes: a span start takes its end's time
 * and event, or lasts to the end of the trace when no end came; anything
 * else ends where it starts. */
static EtMarker
finish_marker (const MarkerBuild *b, const PendingMarker *p, gint64 end_of_trace)
{
  EtMarker m = { p->start_ns, p->start_ns, p->event, ET_NO_INDEX, p->provider, p->category,
                 p->kind, p->importance, p->status, p->depth };

  if (p->kind != ET_MARKER_SPAN || p->status == ET_SPAN_UNMATCHED_END)
    return m;
  if (p->end_marker == ET_NO_INDEX)
    m.end_ns = MAX (end_of_trace, p->start_ns);
  else
    {
      m.end_ns = b->markers[p->end_marker].start_ns;
      m.end_event = b->markers[p->end_marker].event;
    }
  return m;
}

/* One stretch of the markers in the channel layout (build_channels): its
 * own channels while counting (local ids, first-seen order), then each
 * local channel's first free place in the final array while scattering. */
typedef struct
{
  const MarkerBuild *b;
  const guint32     *keep;
  guint32           *channel_of;   /* shared: per marker, its local channel */
  guint32            from, to;     /* markers [from, to) */
  DefTable           table;        /* its channels, by local id; count within the part */
  guint              n_local;      /* its channels, once joined */
  guint32           *counts;       /* local id → its count within the part, once joined */
  guint32           *cursor;       /* local id → its global creation index once joined,
                                    * then its next place in the final array */
  EtTrace           *self;
  gint64             end_of_trace;
  GArray            *cross;        /* EtCrossEnd with final places */
} ChannelPart;

/* Counts the part's markers into its channels and makes each kept one the
 * EtMarker it becomes, in its own place (both are 32 bytes): the scatter
 * then reads each pending marker once, in order, so that what it has read
 * can go. A span start reads its end here; ends that closed a span are
 * not kept, so none is made over while another part may read it. */
static gpointer
count_part (gpointer data)
{
  ChannelPart *part = data;
  guint32 recent[256] = { 0 };    /* direct-mapped, in front of the table: local id + 1 */

  et_worker_begin ();
  def_table_init (&part->table, 0);
  for (guint i = part->from; i < part->to; i++)
    {
      const PendingMarker *m = &part->b->markers[i];
      ChannelDef key = { m->thread, m->series, m->provider, 0, 0 };
      guint slot, id;

      /* finish_marker reads a start's end, somewhere ahead: ask for it early. */
      if (i + PREFETCH_AHEAD < part->to && m[PREFETCH_AHEAD].end_marker != ET_NO_INDEX)
        __builtin_prefetch (&part->b->markers[m[PREFETCH_AHEAD].end_marker]);

      if (!is_kept (part->keep, i))
        continue;
      slot = channel_def_hash (&key) % G_N_ELEMENTS (recent);
      if (recent[slot] != 0
          && channel_def_equal (&g_array_index (part->table.defs, ChannelDef, recent[slot] - 1), &key))
        id = recent[slot] - 1;
      else
        recent[slot] = (id = def_table_find (&part->table, &key)) + 1;
      g_array_index (part->table.defs, ChannelDef, id).count++;
      part->channel_of[i] = id;
      {
        EtMarker done = finish_marker (part->b, m, part->end_of_trace);
        memcpy (&part->b->markers[i], &done, sizeof done);
      }
    }
  return NULL;
}

/* Markers the scatter moves before it gives their pending pages back
 * (2 MB): the pending and the final markers are never both resident in
 * full, which was the loader's peak on traces of few processes. */
#define SCATTER_SLICE (64u << 10)

/* Moves the part's markers (made by count_part) to their final places,
 * giving back the pages of what it has moved as it goes, so that the
 * pending and the final markers are not both resident in full. The
 * cross-thread ends come in marker order (pair_spans), as the scatter
 * goes: each gets its marker's final place. */
static gpointer
scatter_part (gpointer data)
{
  ChannelPart *part = data;
  const MarkerBuild *b = part->b;
  const EtCrossEnd *cross = (const EtCrossEnd *) (gpointer) b->cross_ends->data;
  guint k = 0, n_cross = b->cross_ends->len;
  guint32 moved_to = part->from;         /* pages before this are given back */

  et_worker_begin ();
  while (k < n_cross && cross[k].marker < part->from)
    k++;
  for (guint i = part->from; i < part->to; i++)
    {
      if (is_kept (part->keep, i))
        {
          guint32 at = part->cursor[part->channel_of[i]]++;

          memcpy (&part->self->markers[at], &b->markers[i], sizeof (EtMarker));
          if (k < n_cross && cross[k].marker == i)
            {
              EtCrossEnd moved = { at, cross[k++].thread };
              g_array_append_val (part->cross, moved);
            }
        }
      if (i + 1 - moved_to == SCATTER_SLICE)
        {
          et_memory_release (&b->markers[moved_to], SCATTER_SLICE * sizeof (PendingMarker));
          moved_to = i + 1;
        }
    }
  return NULL;
}

/* Makes room in the empty @array for @n elements at once: a trace can
 * have hundreds of thousands of channels, each appended to every
 * per-channel array. */
static void
presize (GArray **array, guint n)
{
  GArray *sized = g_array_sized_new (FALSE, TRUE, g_array_get_element_size (*array), n);

  g_return_if_fail ((*array)->len == 0);
  g_array_unref (*array);
  *array = sized;
}

/* Joins the parts' channels into @all (global ids in first-seen order).
 * Each part keeps only, per local channel, its global id (in cursor) and
 * its count, and its table goes at once. Returns the markers kept. */
static guint
join_parts (ChannelPart *parts, guint k, DefTable *all)
{
  guint n = 0, most = 0;

  /* Sized at once: growing it while the parts' tables are held was the
   * channel phase's peak. */
  for (guint j = 0; j < k; j++)
    most += parts[j].table.defs->len;
  def_table_init (all, most);
  for (guint j = 0; j < k; j++)
    {
      GArray *local = parts[j].table.defs;

      parts[j].n_local = local->len;
      parts[j].cursor = g_new (guint32, MAX (local->len, 1));
      parts[j].counts = g_new (guint32, MAX (local->len, 1));
      for (guint l = 0; l < local->len; l++)
        {
          const ChannelDef *def = &g_array_index (local, ChannelDef, l);
          guint before = all->defs->len, g = def_table_find (all, def);
          ChannelDef *joined = &g_array_index (all->defs, ChannelDef, g);

          if (all->defs->len > before)
            joined->count = 0;
          joined->count += def->count;
          parts[j].cursor[l] = g;
          parts[j].counts[l] = def->count;
          n += def->count;
        }
      def_table_clear (&parts[j].table);
    }
  g_clear_pointer (&all->slots, g_free);
  return n;
}

/* Gives every channel (@sorted: the definitions of @defs in layout order)
 * its slice of the final markers, and each part its places in every
 * channel, after the parts before it. */
static void
place_parts (GArray *defs, ChannelDef **sorted, ChannelPart *parts, guint k)
{
  const ChannelDef *base = (const ChannelDef *) (gconstpointer) defs->data;
  g_autofree guint32 *next = g_new (guint32, MAX (defs->len, 1));   /* by creation */

  for (guint c = 0, offset = 0; c < defs->len; c++)
    {
      sorted[c]->first = offset;
      next[sorted[c] - base] = offset;
      offset += sorted[c]->count;
    }
  for (guint j = 0; j < k; j++)
    {
      guint32 *cursor = parts[j].cursor;

      for (guint l = 0; l < parts[j].n_local; l++)
        {
          guint32 g = cursor[l];

          cursor[l] = next[g];
          next[g] += parts[j].counts[l];
        }
      g_clear_pointer (&parts[j].counts, g_free);
    }
}

/* The channel a definition becomes, at @channel of the layout. */
static void
make_channel (EtTrace *self, guint channel, const ChannelDef *def)
{
  EtChannel c = { def->provider, def->series, self->markers + def->first, def->count };

  memcpy (&self->channels->data[channel * sizeof c], &c, sizeof c);
  g_array_index (self->channel_thread, guint32, channel) = def->thread;
}

/* Turns @defs into the trace's channels in their own memory, in the order
 * of @sorted (pointers into @defs, cleared as they are used): each cycle
 * of the permutation is followed once, holding one definition aside, so
 * that the channels never exist beside their definitions (hundreds of
 * thousands of both on a server's trace). */
static void
channels_in_order (EtTrace *self, GArray *defs, ChannelDef **sorted)
{
  ChannelDef *base = (ChannelDef *) (gpointer) defs->data;
  guint n = defs->len;

  g_array_unref (self->channels);
  self->channels = defs;                 /* same element size */
  presize (&self->channel_thread, n + 1);
  g_array_set_size (self->channel_thread, n);
  for (guint c = 0; c < n; c++)
    {
      ChannelDef held;

      if (sorted[c] == NULL)
        continue;
      held = base[c];
      for (guint at = c;;)
        {
          guint from = (guint) (sorted[at] - base);
          ChannelDef def = from == c ? held : base[from];

          sorted[at] = NULL;
          make_channel (self, at, &def);
          if (from == c)
            break;
          at = from;
        }
    }
  for (guint c = 0; c < n; c++)
    {
      EtThread *t = &g_array_index (self->threads, EtThread,
                                    g_array_index (self->channel_thread, guint32, c));

      if (t->n_channels++ == 0)
        t->first_channel = c;
    }
}

/* Lays markers out channel by channel (thread, provider, series). Markers
 * were made in event time order, so a stable scatter leaves every channel
 * sorted by start time (ties in file order) without sorting the markers.
 * Many markers are cut into one stretch per core: each stretch counts its
 * channels, the counts give every stretch its places in every channel
 * (after the stretches before it), and the stretches scatter at once.
 * What only the layout needs goes as soon as it is used: a server's
 * short-lived threads make hundreds of thousands of channels, whose
 * tables were the loader's peak. */
static void
build_channels (EtTrace *self, MarkerBuild *b, const guint32 *keep)
{
  guint k = et_workers_count (b->n_markers, 1000000);
  DefTable all;
  guint32 *channel_of = g_new (guint32, MAX (b->n_markers, 1));
  g_autofree ChannelDef **sorted = NULL;
  g_autofree ChannelPart *parts = g_new0 (ChannelPart, k);
  guint n, n_channels;

  for (guint j = 0; j < k; j++)
    parts[j] = (ChannelPart) { b, keep, channel_of, (guint32) ((guint64) b->n_markers * j / k),
                               (guint32) ((guint64) b->n_markers * (j + 1) / k), { NULL },
                               0, NULL, NULL, self, et_trace_get_duration_ns (self),
                               g_array_new (FALSE, FALSE, sizeof (EtCrossEnd)) };
  et_workers_run (parts, sizeof *parts, k, count_part, "etlscope-layout");
  n = join_parts (parts, k, &all);
  n_channels = all.defs->len;

  /* Channels in (thread, provider, series) order; each gets its slice, and
   * each part its places in it after the parts before. */
  rank_series (all.defs, self);
  sorted = g_new (ChannelDef *, MAX (n_channels, 1));
  if (!sort_defs_packed (self, all.defs, sorted))
    {
      for (guint c = 0; c < n_channels; c++)
        sorted[c] = &g_array_index (all.defs, ChannelDef, c);
      qsort (sorted, n_channels, sizeof (gpointer), compare_channel_defs);
    }
  self->markers = g_new (EtMarker, MAX (n, 1));
  self->n_markers = n;
  place_parts (all.defs, sorted, parts, k);
  channels_in_order (self, g_steal_pointer (&all.defs), sorted);
  g_clear_pointer (&sorted, g_free);

  et_workers_run (parts, sizeof *parts, k, scatter_part, "etlscope-layout");
  g_free (channel_of);
  for (guint j = 0; j < k; j++)
    {
      g_array_append_vals (self->cross_ends, parts[j].cross->data, parts[j].cross->len);
      g_array_unref (parts[j].cross);
      g_free (parts[j].cursor);
    }
  g_array_sort (self->cross_ends, _et_compare_cross_ends);
  marker_build_free_arrays (b);
  presize (&self->channel_at, n_channels + 1);
  self->channel_info_size = MAX (n_channels, 1) * sizeof (EtChannelInfo);
  self->channel_info = et_memory_zeroed (self->channel_info_size);
  self->thread_info_ready = g_new0 (gint, MAX (self->threads->len, 1));
  self->thread_summaries = g_new (EtThreadSummary, MAX (self->threads->len, 1));
  self->n_thread_summaries = self->threads->len;
  for (guint t = 0; t < self->threads->len; t++)
    summarise_thread (self, t);
  for (guint c = 0; c < n_channels; c++)
    close_channel (self, c);
  g_array_append_val (self->arrays.block_lanes0, self->arrays.lane_runs->len);
  g_array_append_val (self->arrays.stretch_runs0, self->arrays.stretch_runs->len);
  {
    EtArraysAt end = { self->arrays.blocks->len, self->arrays.stretch_runs0->len,
                       self->arrays.loud->len };

    g_array_append_val (self->arrays_at, end);
  }
  self->lazy = g_new0 (EtBlockArrays *, MAX (self->channels->len, 1));
  self->stats.markers = n;
}

gboolean
_et_loader_build_markers (Loader *loader, EtLoadFlags flags, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  MarkerBuild b = { 0 };
  g_autofree Worker *workers = NULL;
  g_autofree guint32 *keep = NULL;
  guint n_workers = 0;
  gint64 clock = g_get_monotonic_time ();
  gboolean ok;

  ok = decode_markers (loader, &b, &workers, &n_workers, flags, cancellable, error);
  _et_loader_phase_done ("decode", &clock);
  if (ok)
    {
      keep = pair_spans (self, &b, workers, n_workers);
      _et_loader_phase_done ("pair", &clock);
      build_channels (self, &b, keep);
    }
  for (guint k = 0; k < n_workers; k++)
    marker_build_free_spans (&workers[k].b);
  marker_build_free_arrays (&b);
  g_clear_pointer (&keep, g_free);       /* before the trim, so that it goes too */
  g_clear_pointer (&workers, g_free);
#ifdef __GLIBC__
  /* The build's arrays went back to the allocator, partly to the arenas of
   * the threads that made them, which keep freed memory: give it back to
   * the system, so that what stays resident is the model. */
  malloc_trim (0);
#endif
  if (ok)
    _et_loader_phase_done ("channels", &clock);
  return ok;
}
