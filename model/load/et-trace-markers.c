/* et-trace-markers.c — the last loading stage: events → markers.
 *
 *   events (time order) ─ split in ranges, one thread each ─ decode payload
 *     ─ marker rules ─ markers (joined in time order)
 *                    + span records (24 bytes), kept per process
 *     ─ per process, on every core: span pairing (et-trace-pairing.c,
 *       et-span-pairing), ends folded into their starts
 *     ─ channels (thread × provider × series), laid out per thread by
 *       et-trace-channel-layout.c
 */
#include "et-trace-markers-private.h"
#include "et-builtin-rules.h"
#include "et-bytes.h"
#include "et-memory.h"

#ifdef __GLIBC__
#include <malloc.h>
#include <stdlib.h>
#endif

/* ---- markers ---------------------------------------------------------- */

/* The decoding threads' caches below are two-way: a key's set is chosen
 * by a hash and holds the last two keys met there, the later first. A
 * server's mix of event types, layouts and series runs to hundreds (issue
 * 36's churn shape: 370 layouts, 154 series), and direct-mapped tables
 * four times as large missed one lookup in seven: keys that share a slot
 * took it in turns. */

/* The cv plans of the fixed and walk layouts a decoding thread met, by
 * layout (each layout is its own allocation, alive as long as the trace,
 * so its address tells which kind made the plan); a plan that fell out
 * is simply made again. */
#define PLAN_CACHE_SIZE 1024

typedef struct
{
  gconstpointer layout[PLAN_CACHE_SIZE];
  EtCvPlan      plan[PLAN_CACHE_SIZE];
} PlanCache;

/* The first slot of a layout's set. */
static guint
plan_set (gconstpointer layout)
{
  guint64 h = (guint64) GPOINTER_TO_SIZE (layout) * 0x9E3779B97F4A7C15u;

  /* Layouts are allocations of a few sizes: their addresses share their
   * low bits, so the set comes from the product's high ones. */
  return (guint) (h >> 40) % (PLAN_CACHE_SIZE / 2) * 2;
}

/* The slot of @layout's plan, at the front of its set; *@made is FALSE
 * when the plan is there already, TRUE when the slot is the caller's to
 * fill. */
static guint
plan_slot (PlanCache *cache, gconstpointer layout, gboolean *made)
{
  guint k = plan_set (layout);
  EtCvPlan plan;

  *made = FALSE;
  if (cache->layout[k] == layout)
    return k;
  *made = cache->layout[k + 1] != layout;
  plan = cache->plan[k + 1];
  cache->layout[k + 1] = cache->layout[k];
  cache->plan[k + 1] = cache->plan[k];
  cache->layout[k] = layout;
  cache->plan[k] = plan;
  return k;
}

static const EtCvPlan *
plan_for (PlanCache *cache, const EtFixedLayout *layout)
{
  gboolean made;
  guint k = plan_slot (cache, layout, &made);

  if (made)
    et_cv_plan_init (&cache->plan[k], layout);
  return &cache->plan[k];
}

static const EtCvPlan *
walk_plan_for (PlanCache *cache, const EtWalkLayout *layout)
{
  gboolean made;
  guint k = plan_slot (cache, layout, &made);

  if (made)
    et_cv_plan_init_walk (&cache->plan[k], layout);
  return &cache->plan[k];
}

/* The cvSeries a decoding thread interned lately, by their text: a
 * thread's markers take turns among its series (20–30 of them on a
 * server's request threads), and each new one takes the pool's lock. */
#define SERIES_CACHE_SIZE 512

typedef struct
{
  char    *text[SERIES_CACHE_SIZE];   /* NULL: empty */
  gsize    len[SERIES_CACHE_SIZE];
  guint32  id[SERIES_CACHE_SIZE];
} SeriesCache;

/* The first slot of a text's set: its words mixed eight bytes at a time
 * (a byte at a time, each step waiting for the last multiply, was a fifth
 * of add_marker's time). */
static guint
series_set (const char *text, gsize len)
{
  guint64 h = 0x9E3779B97F4A7C15u ^ len, w;
  gsize i = 0;

  for (; i < len; i += 8)
    {
      w = 0;
      memcpy (&w, text + i, MIN (8, len - i));
      h = (h ^ w) * 0xFF51AFD7ED558CCDu;
      h ^= h >> 32;
    }
  return (guint) (h >> 16) % (SERIES_CACHE_SIZE / 2) * 2;
}

static gboolean
series_in (const SeriesCache *cache, guint k, const GString *series)
{
  return cache->text[k] != NULL && cache->len[k] == series->len
         && et_bytes_equal (cache->text[k], series->str, series->len);
}

/* Moves the slot at @k + 1 to @k and the one at @k to @k + 1. */
static void
series_swap (SeriesCache *cache, guint k)
{
  char *text = cache->text[k];
  gsize len = cache->len[k];
  guint32 id = cache->id[k];

  cache->text[k] = cache->text[k + 1];
  cache->len[k] = cache->len[k + 1];
  cache->id[k] = cache->id[k + 1];
  cache->text[k + 1] = text;
  cache->len[k + 1] = len;
  cache->id[k + 1] = id;
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
  EtPendingMarker *markers;     /* time order */
  EtMapped     mapped;        /* the joined build's: the markers' pages */
  guint64     *event_bits;    /* EtMarkerEvents.bits: a bit per event that made one */
  EtSpanList  *spans;         /* by process index */
  guint        n_processes;
  guint        n_markers;
  guint32      base;          /* where its markers start once joined */
  GArray      *cross_ends;    /* EtCrossEnd by marker of this build (_et_pair_spans) */
  EtFields    *fields;
  EtRuleResult rules;
  ProviderCache providers;
  ThreadCache  threads;
  EtSchemaCache schemas;
  PlanCache    plans;
  SeriesCache  series;        /* cvSeries interned lately */
  const char  *task_name[512]; /* task names met (two-way) and their string ids */
  guint32      task_series[512];
  guint64      failures;
  guint64      fixed;         /* markers made by add_fixed_marker from a fixed layout */
  guint64      walked;        /* … and from a walk layout */
  guint8       span_flags;    /* ET_SPAN_RECORD_REPEATS for the span start being added */
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
  b->event_bits = out->event_bits;
  b->n_processes = self->processes->len;
  b->spans = g_new0 (EtSpanList, MAX (b->n_processes, 1));
  for (guint t = 0; t < self->threads->len; t++)
    {
      const EtThread *thread = &g_array_index (self->threads, EtThread, t);
      EtSpanList *list = &b->spans[thread->process];

      list->capacity = (guint) MIN (list->capacity + thread->n_events,
                                    from == 0 ? G_MAXUINT : to - from);
    }
  b->fields = et_fields_new ();
  et_rule_result_init (&b->rules);
  b->rules.skip_text = TRUE;     /* texts are made when shown (et_trace_marker_text) */
  b->rules.skip_task_series = TRUE;   /* series_id takes the task name itself */
}

void
_et_span_list_clear (EtSpanList *list)
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
    _et_span_list_clear (&b->spans[p]);
  g_clear_pointer (&b->spans, g_free);
}

/* The list's space is taken when its first span comes (and grows should
 * the reservation fall short, which it cannot). */
static void
span_list_add (EtSpanList *list, const EtSpanRecord *record)
{
  if (list->records == NULL || list->n == list->capacity)
    {
      if (list->records != NULL)
        list->capacity = MAX (1024, list->capacity * 2);
      list->records = g_renew (EtSpanRecord, list->records, MAX (list->capacity, 1));
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
  guint32 id;

  switch (b->rules.series_rule)
    {
    case ET_RULE_EMPTY:
      return 0;
    case ET_RULE_TASK_NAME:
      /* Two-way by the name's address, as the caches above. */
      slot = (guint) (((guint64) GPOINTER_TO_SIZE (task_name) * 0x9E3779B97F4A7C15u) >> 40)
             % (G_N_ELEMENTS (b->task_name) / 2) * 2;
      if (b->task_name[slot] == task_name)
        return b->task_series[slot];
      if (b->task_name[slot + 1] == task_name)
        id = b->task_series[slot + 1];
      else
        {
          g_mutex_lock (&self->lock);
          id = et_strpool_intern (self->strings, task_name, -1);
          g_mutex_unlock (&self->lock);
        }
      b->task_name[slot + 1] = b->task_name[slot];
      b->task_series[slot + 1] = b->task_series[slot];
      b->task_name[slot] = task_name;
      b->task_series[slot] = id;
      return id;
    default:
      break;
    }
  if (series->len == 0)
    return 0;
  slot = series_set (series->str, series->len);
  if (series_in (&b->series, slot, series))
    return b->series.id[slot];
  series_swap (&b->series, slot);      /* way 1 to the front, or out */
  if (series_in (&b->series, slot, series))
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
  EtPendingMarker m = { 0 };
  guint32 thread = _et_loader_thread_of (loader, &b->threads, record);

  m.start_ns = time_ns;
  b->event_bits[index >> 6] |= G_GUINT64_CONSTANT (1) << (index & 63);
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
        EtSpanRecord s = {
          .owner = b->n_markers, .task = record->task,
          .is_end = b->rules.role == ET_ROLE_SPAN_END ? ET_SPAN_RECORD_END : b->span_flags,
          .has_span_id = b->rules.has_span_id,
        };
        guint process = g_array_index (self->threads, EtThread, thread).process;

        if (s.has_span_id)
          {
            s.span_id = b->rules.span_id;
            s.thread = thread;        /* (pairing reads no marker for it) */
            s.provider = (guint16) provider;
          }
        else if (!et_guid_is_zero (&record->activity_id))
          s.activity_id = record->activity_id;
        else
          {
            /* (no activity: its bytes carry thread and provider instead) */
            s.is_end |= ET_SPAN_KEY_CARRIES_OWNER;
            s.thread = thread;
            s.provider = (guint16) provider;
          }
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
  b->span_flags = et_builtin_rules_repeats (record->id) ? ET_SPAN_RECORD_REPEATS : 0;
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
} ET_WORKER_ITEM Worker;

/* Decodes events [from, to) of a worker's range into its own arrays. */
#define DECODE_AHEAD 8
/* Records are asked for ahead (ET_RECORD_PREFETCH_LINES) when the
 * buffers hold more than this, more than the processor's cache keeps
 * from the walk: large 1 M (125 MB) decoded in 82.9 ms of CPU instead of
 * 89.5, 10 of 11 paired runs; net.4.5.2.x64.etl (23 MB) in 12.2 instead
 * of 11.8, 1 of 11 faster. */
#define DECODE_PREFETCH_MIN_BYTES (64u << 20)

static gpointer
decode_range (gpointer data)
{
  Worker *w = data;
  EtTrace *self = w->loader->self;
  MarkerBuild *b = &w->b;
  EtEvent event;
  guint64 told = w->from;
  gboolean ahead = _et_trace_payloads_far (self);   /* (see below) */
  /* (the buffers' room: as many slots each as the largest holds) */
  gboolean large = (guint64) self->slot_stride * 8 * et_etl_file_n_buffers (self->file)
                   > DECODE_PREFETCH_MIN_BYTES;

  et_worker_begin ();
  for (guint64 i = w->from; i < w->to; i++)
    {
      EtEventLoc loc = self->events[i];
      g_autoptr(GError) local = NULL;
      EtRecord record;
      guint provider;

      /* Events in time order hop between the processors' buffers: in a
       * large trace, their records are asked for some events ahead.
       * Payloads in a .nettrace are read where they lie in the file, a
       * cache line (and often a page) of their own each, which decoding
       * then waited for: asked for some events ahead, their records
       * further ahead still. */
      if (ahead && i + 2 * DECODE_AHEAD < w->to)
        _et_trace_prefetch_event (self, i + 2 * DECODE_AHEAD, 1);
      else if (large && i + DECODE_AHEAD < w->to)
        _et_trace_prefetch_event (self, i + DECODE_AHEAD, ET_RECORD_PREFETCH_LINES);
      if (ahead && i + DECODE_AHEAD < w->to)
        _et_trace_prefetch_payload (self, i + DECODE_AHEAD);

      if ((i & 0x3FFF) == 0)
        {
          _et_trace_progress_add (w->loader->progress, i - told);
          told = i;
        }
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
  if (!w->cancelled)
    _et_trace_progress_add (w->loader->progress, w->to - told);
  return NULL;
}

/* Moves @from's markers down to the end of @into's (in the same arrays);
 * its spans stay where they are, numbered from @from->base. */
static void
append_build (MarkerBuild *into, MarkerBuild *from)
{
  guint32 base = into->n_markers;

  memmove (into->markers + base, from->markers, from->n_markers * sizeof (EtPendingMarker));
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
  et_mapped_shrink (&b->mapped, b->n_markers * sizeof (EtPendingMarker));
}

static void
marker_build_free_arrays (MarkerBuild *b)
{
  et_mapped_clear (&b->mapped);
  b->markers = NULL;
  g_clear_pointer (&b->cross_ends, g_array_unref);
}

/* @bits without its @r lowest set bits (it has more): whole bytes while
 * all of a byte's go, then bit by bit (at most seven). */
static guint64
drop_lowest_set (guint64 bits, guint r)
{
  for (guint shift = 0; shift < 64; shift += 8)
    {
      guint64 byte = bits & (G_GUINT64_CONSTANT (0xFF) << shift);
      guint ones = (guint) __builtin_popcountll (byte);

      if (r < ones)
        break;
      bits &= ~byte;
      r -= ones;
    }
  for (; r > 0; r--)
    bits &= bits - 1;
  return bits;
}

void
_et_marker_events_init (EtMarkerEvents *events, guint64 n_events)
{
  /* One word more than the events fill: the iterator may look one past. */
  events->n_words = (gsize) (n_events / 64) + 2;
  events->bits = g_new0 (guint64, events->n_words);
  events->every = NULL;
  events->n_markers = 0;
}

void
_et_marker_events_index (EtMarkerEvents *events, guint32 n_markers)
{
  guint32 seen = 0;

  events->n_markers = n_markers;
  events->every = g_new (guint32, n_markers / ET_MARKER_EVENTS_STEP + 1);
  for (gsize w = 0; w < events->n_words && seen < n_markers; w++)
    {
      guint64 bits = events->bits[w];
      guint ones = (guint) __builtin_popcountll (bits);
      /* The next marker to note, counted from this word's first. */
      guint32 next = (seen + ET_MARKER_EVENTS_STEP - 1) / ET_MARKER_EVENTS_STEP
                     * ET_MARKER_EVENTS_STEP;

      for (; next < seen + ones; next += ET_MARKER_EVENTS_STEP)
        {
          guint64 left = drop_lowest_set (bits, next - seen);

          events->every[next / ET_MARKER_EVENTS_STEP]
            = (guint32) (w * 64 + (guint) __builtin_ctzll (left));
        }
      seen += ones;
    }
}

void
_et_marker_events_clear (EtMarkerEvents *events)
{
  g_clear_pointer (&events->bits, g_free);
  g_clear_pointer (&events->every, g_free);
  events->n_words = 0;
  events->n_markers = 0;
}

/* Positions @iter so that _et_marker_event_next gives @marker's event
 * first: from the nearest noted marker before it, a word at a time. */
void
_et_marker_event_iter_init (EtMarkerEventIter *iter, const EtMarkerEvents *events,
                            guint32 marker)
{
  guint32 event = events->every[marker / ET_MARKER_EVENTS_STEP];
  guint32 skip = marker % ET_MARKER_EVENTS_STEP;    /* markers from the noted one's */

  iter->bits = events->bits;
  iter->word = event / 64;
  iter->left = events->bits[iter->word] & (~G_GUINT64_CONSTANT (0) << (event % 64));
  for (guint ones; skip > 0 && skip >= (ones = (guint) __builtin_popcountll (iter->left));)
    {
      skip -= ones;
      iter->left = events->bits[++iter->word];
    }
  iter->left = drop_lowest_set (iter->left, skip);
}

guint32
_et_marker_event (const EtMarkerEvents *events, guint32 marker)
{
  EtMarkerEventIter iter;

  _et_marker_event_iter_init (&iter, events, marker);
  return _et_marker_event_next (&iter);
}

/* How many markers the events are likely to make: an event of a
 * provider that makes markers by its contract makes one, nearly always;
 * the runtime's rules make few. */
static guint64
likely_markers (EtTrace *self, EtLoadFlags flags)
{
  guint64 making = 0;

  for (guint p = 0; p < self->providers->len; p++)
    {
      const EtProviderEntry *entry = &g_array_index (self->providers, EtProviderEntry, p);

      /* (the runtime's events make markers of a few of theirs only) */
      if (wants_markers (self, p, flags) && !entry->builtin_rules)
        making += entry->pub.n_events;
    }
  return making;
}

void
_et_loader_trim_spare_pages (Loader *loader, EtLoadFlags flags)
{
  EtTrace *self = loader->self;
  guint64 likely = MIN (likely_markers (self, flags), self->n_events);

  et_spare_pages_trim (loader->spare, (gsize) (likely * sizeof (EtPendingMarker) * 9 / 10));
}

/* The pages the walk's runs no longer need (Loader.spare) go where the
 * decoding threads will write first: the front of each one's slice of
 * the markers, as much as it is likely to write (a tenth is left to
 * fresh pages, so that no spare page stays unwritten and resident). The
 * rest go back to the system. The markers then cost a third of a million
 * page faults fewer per 10 M events. */
static void
place_spare_pages (Loader *loader, EtLoadFlags flags, const Worker *w, guint n)
{
  EtTrace *self = loader->self;
  guint64 making = likely_markers (self, flags);

  for (guint k = 0; k < n && self->stats.records > 0; k++)
    {
      guint8 *from = (guint8 *) (w[k].b.markers);
      guintptr size = et_memory_page_size ();
      guint8 *page = (guint8 *) (((guintptr) from + size - 1) & ~(size - 1));
      gsize likely = (gsize) ((double) (w[k].to - w[k].from) * ((double) making / self->stats.records)
                              * 0.9 * sizeof (EtPendingMarker));
      gsize share = et_spare_pages_size (loader->spare) / (n - k);

      if (page < from + likely)
        et_spare_pages_place (loader->spare, page, MIN (share, (gsize) (from + likely - page)));
    }
  g_clear_pointer (&loader->spare, et_spare_pages_free);
}

/* Traces of fewer events than this decode on one thread. At 200,000,
 * PerfView's HeartRateMonitor and VoiceMemo .nettrace files (110,000
 * events) and the corpus's net.4.5.2.x64.etl (179,000) decoded on one
 * core; on two, loading them took 2.4–3.8 ms less (of 35–55). The
 * SampleProfiler traces of 32,000–38,000 events took 0.3 ms more on two
 * (a split at 25,000). */
#define DECODE_PARALLEL_EVENTS 50000

/* Small traces decode on one thread; larger ones split the events into
 * equal ranges, one per core, and join the markers in time order. The
 * workers (*@workers, *@n_workers) keep their span events for pairing. */
static gboolean
decode_markers (Loader *loader, MarkerBuild *out, EtMarkerEvents *events, Worker **workers,
                guint *n_workers, EtLoadFlags flags, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  guint n = et_workers_count (self->n_events, DECODE_PARALLEL_EVENTS);
  Worker *w = *workers = et_workers_new (n, sizeof (Worker));
  guint64 n_events = self->n_events;    /* a preview's first events only */
  gsize capacity = MAX (n_events, 1);
  gboolean cancelled = FALSE;

  *n_workers = n;
  _et_trace_progress_begin (loader->progress, ET_TRACE_PHASE_DECODING, n_events);
  out->markers = et_mapped_reserve (&out->mapped, capacity * sizeof (EtPendingMarker));
  _et_marker_events_init (events, n_events);
  out->event_bits = events->bits;
  for (guint k = 0; k < n; k++)
    {
      /* (ranges of whole words of the events' bits: each thread its own) */
      guint64 from = k == 0 ? 0 : n_events * k / n & ~G_GUINT64_CONSTANT (63);
      guint64 to = k + 1 == n ? n_events : n_events * (k + 1) / n & ~G_GUINT64_CONSTANT (63);

      w[k] = (Worker) { loader, { 0 }, flags, from, MAX (from, to), cancellable, FALSE,
                        g_getenv ("ETLSCOPE_FULL_DECODE") != NULL };
      marker_build_init (&w[k].b, self, out, w[k].from, w[k].to);
    }
  place_spare_pages (loader, flags, w, n);
  et_workers_run (w, sizeof *w, n, decode_range, "etlscope-decode");
  for (guint k = 0; k < n; k++)
    {
      cancelled |= w[k].cancelled;
      append_build (out, &w[k].b);
      marker_build_clear (&w[k].b);
    }
  marker_build_shrink (out);
  _et_marker_events_index (events, out->n_markers);
  self->stats.decode_failures += out->failures;
  self->stats.fixed_layout_events += out->fixed;
  self->stats.walked_events += out->walked;
  if (cancelled)
    return !g_cancellable_set_error_if_cancelled (cancellable, error);
  _et_trace_progress_end (loader->progress);
  return TRUE;
}

gboolean
_et_loader_build_markers (Loader *loader, EtLoadFlags flags, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  MarkerBuild b = { 0 };
  EtMarkerEvents events = { 0 };
  Worker *workers = NULL;
  g_autofree guint32 *keep = NULL;
  guint n_workers = 0;
  gint64 clock = g_get_monotonic_time ();
  gboolean ok;

  ok = decode_markers (loader, &b, &events, &workers, &n_workers, flags, cancellable, error);
  _et_loader_phase_done ("decode", &clock);
  if (ok)
    {
      g_autofree EtSpanPart *parts = g_new (EtSpanPart, MAX (n_workers, 1));

      for (guint k = 0; k < n_workers; k++)
        parts[k] = (EtSpanPart) { workers[k].b.spans, workers[k].b.base };
      b.cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));
      keep = _et_pair_spans (self, b.markers, b.n_markers, parts, n_workers, b.cross_ends,
                             loader->progress);
      _et_loader_phase_done ("pair", &clock);
      _et_layout_channels (self, &b.mapped, &events, b.n_markers, &b.cross_ends, keep,
                           loader->progress);
      b.markers = NULL;
    }
  for (guint k = 0; k < n_workers; k++)
    marker_build_free_spans (&workers[k].b);
  marker_build_free_arrays (&b);
  _et_marker_events_clear (&events);
  g_clear_pointer (&keep, g_free);       /* before the trim, so that it goes too */
  g_clear_pointer (&workers, et_workers_free);
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
