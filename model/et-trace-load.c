/* et-trace-load.c — the loading pipeline (see et-trace.h for the diagram).
 *
 *   1. walk every buffer in file order: count records per provider and
 *      thread, read the log-file header, collect names and manifest events,
 *      and note where each record is (EtEventRef);
 *   2. sort the references by time (ties in file order);
 *   3. reassemble and parse EventSource manifests in time order;
 *   4. decode the events of marker providers in time order, apply the
 *      marker rules, pair spans, and lay the markers out per channel.
 */
#include "et-trace-private.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-kernel.h"

#include <stdlib.h>

#define CV_MARKERS_GUID "8d4925ab-505a-483b-a7e0-6f824a07a6f0"

typedef struct
{
  guint32  pid;
  guint32  tid;
  gboolean has_ids;
  guint64  n_events;
  guint    final;
} TempThread;

typedef struct
{
  EtTrace      *self;
  GArray       *refs;            /* EtEventRef, file order, then time order */
  GArray       *manifest_refs;   /* EtEventRef of manifest events */
  GHashTable   *thread_map;      /* guint64 key → TempThread index + 1 */
  GArray       *temp_threads;    /* TempThread */
  GHashTable   *process_names;   /* pid → char* */
  GHashTable   *thread_names;    /* guint64 key → char* */
  gboolean      header_seen;
  EtGuid        last_guid;
  guint         last_provider;
  gboolean      have_last;
} Loader;

static guint64
thread_key (const EtRecord *record)
{
  /* Records without ids share one key that no (pid, tid) pair can have. */
  if (!record->has_ids)
    return G_MAXUINT64;
  return ((guint64) record->pid << 32) | record->tid;
}

static gsize
utf16_units (const guint8 *p, gsize len)
{
  gsize n = 0;

  while (2 * n + 1 < len && et_read_u16 (p + 2 * n) != 0)
    n++;
  return n;
}

static const char *
read_header_string (EtTrace *self, EtReader *r)
{
  gsize n = utf16_units (r->data + MIN (r->pos, r->len), et_reader_remaining (r));
  g_autofree gunichar2 *units = g_new (gunichar2, n + 1);
  g_autofree char *utf8 = NULL;

  for (gsize i = 0; i < n; i++)
    units[i] = et_reader_u16 (r);
  et_reader_u16 (r);
  utf8 = g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
  return g_string_chunk_insert_const (self->names, utf8 ? utf8 : "");
}

/* TRACE_LOGFILE_HEADER (etl-format.md §6): the pointer fields take the
 * size the record's header type says, and 4 bytes pad BootTime. */
static void
read_logfile_header (EtTrace *self, const EtRecord *record)
{
  EtLogfileHeader *h = &self->header;
  guint ps = record->pointer_size;
  EtReader r;

  et_reader_init (&r, record->payload, record->payload_len);
  h->buffer_size = et_reader_u32 (&r);
  for (guint i = 0; i < 4; i++)
    h->version[i] = et_reader_u8 (&r);
  h->provider_version = et_reader_u32 (&r);
  h->n_processors = et_reader_u32 (&r);
  h->end_time = (gint64) et_reader_u64 (&r);
  h->timer_resolution = et_reader_u32 (&r);
  h->maximum_file_size = et_reader_u32 (&r);
  h->log_file_mode = et_reader_u32 (&r);
  h->buffers_written = et_reader_u32 (&r);
  et_reader_u32 (&r);                            /* StartBuffers */
  h->pointer_size = et_reader_u32 (&r);
  h->events_lost = et_reader_u32 (&r);
  h->cpu_speed_mhz = et_reader_u32 (&r);
  et_reader_pointer (&r, ps);                    /* LoggerName pointer */
  et_reader_pointer (&r, ps);                    /* LogFileName pointer */
  h->time_zone_bias = (gint32) et_reader_u32 (&r);
  et_reader_take (&r, 0xAC - 4 + 4);             /* rest of TIME_ZONE_INFORMATION, padding */
  h->boot_time = (gint64) et_reader_u64 (&r);
  h->perf_freq = (gint64) et_reader_u64 (&r);
  h->start_time = (gint64) et_reader_u64 (&r);
  h->clock_type = et_reader_u32 (&r);
  h->buffers_lost = et_reader_u32 (&r);
  if (r.failed)
    {
      g_autofree char *message = g_strdup_printf ("%s: byte offset %d: the log-file header "
                                                  "record is cut short (%" G_GSIZE_FORMAT
                                                  " bytes)", self->path, ET_BUFFER_HEADER_SIZE,
                                                  record->payload_len);
      _et_trace_add_damage (self, ET_BUFFER_HEADER_SIZE, message);
    }
  h->logger_name = read_header_string (self, &r);
  h->log_file_name = read_header_string (self, &r);
}

static guint
provider_of (Loader *loader, const EtRecord *record)
{
  EtGuid guid;
  const char *name;
  EtProviderKind kind;

  _et_record_identity (record, &guid, &name, &kind);
  if (loader->have_last && et_guid_equal (&guid, &loader->last_guid))
    return loader->last_provider;
  loader->last_guid = guid;
  loader->have_last = TRUE;
  loader->last_provider = _et_trace_provider_for (loader->self, &guid, name, kind);
  return loader->last_provider;
}

static gboolean
is_manifest_event (const EtRecord *record)
{
  return record->klass == ET_RECORD_EVENT && record->id == 0xFFFE
         && record->opcode == 0xFE && record->task == 0xFFFE;
}

/* What an EVENT_HEADER record tells about its provider's kind and name. */
static void
refine_provider (Loader *loader, guint index, const EtRecord *record)
{
  EtProviderEntry *p = &g_array_index (loader->self->providers, EtProviderEntry, index);
  const guint8 *traits;
  gsize len;

  if (record->klass != ET_RECORD_EVENT || p->pub.kind == ET_PROVIDER_EVENTSOURCE)
    return;
  if (et_record_find_ext (record, ET_EXT_EVENT_SCHEMA_TL, &len) != NULL)
    p->pub.kind = ET_PROVIDER_TRACELOGGING;
  traits = et_record_find_ext (record, ET_EXT_PROV_TRAITS, &len);
  if (traits != NULL && p->pub.name[0] == '\0')
    {
      g_autofree char *name = et_tl_traits_provider_name (traits, len, NULL);
      if (name != NULL)
        p->pub.name = g_string_chunk_insert_const (loader->self->names, name);
    }
}

static void
count_thread (Loader *loader, const EtRecord *record)
{
  guint64 key = thread_key (record);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key));

  if (index == 0)
    {
      TempThread t = { record->pid, record->tid, record->has_ids, 0, 0 };
      g_array_append_val (loader->temp_threads, t);
      index = loader->temp_threads->len;
      g_hash_table_insert (loader->thread_map, g_memdup2 (&key, sizeof key),
                           GUINT_TO_POINTER (index));
    }
  g_array_index (loader->temp_threads, TempThread, index - 1).n_events++;
}

static void
collect_names (Loader *loader, const EtRecord *record)
{
  EtKernelName name;

  if (et_kernel_process_name (record, &name))
    g_hash_table_replace (loader->process_names, GUINT_TO_POINTER (name.pid), name.name);
  else if (et_kernel_thread_name (record, &name))
    {
      guint64 key = ((guint64) name.pid << 32) | name.tid;
      g_hash_table_replace (loader->thread_names, g_memdup2 (&key, sizeof key), name.name);
    }
}

static void
scan_record (const EtRecord *record, guint buffer, gsize pos, gpointer user_data)
{
  Loader *loader = user_data;
  EtTrace *self = loader->self;
  EtEventRef ref = { record->ts, buffer, (guint32) pos };
  guint provider;

  if (!loader->header_seen && record->klass == ET_RECORD_SYSTEM && record->hook == 0)
    {
      loader->header_seen = TRUE;
      self->stats.t0_raw = record->ts;
      read_logfile_header (self, record);
    }
  if (self->stats.records == 0 || record->ts < self->stats.first_raw)
    self->stats.first_raw = record->ts;
  if (self->stats.records == 0 || record->ts > self->stats.last_raw)
    self->stats.last_raw = record->ts;
  self->stats.records++;
  g_array_append_val (loader->refs, ref);

  provider = provider_of (loader, record);
  g_array_index (self->providers, EtProviderEntry, provider).pub.n_events++;
  refine_provider (loader, provider, record);
  if (is_manifest_event (record))
    g_array_append_val (loader->manifest_refs, ref);
  count_thread (loader, record);
  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    collect_names (loader, record);
}

/* A file cut at a buffer boundary still walks cleanly; only the header's
 * BuffersWritten tells that buffers are missing. */
static void
report_missing_buffers (EtTrace *self, guint n)
{
  g_autofree char *message = NULL;
  guint64 size = et_etl_file_size (self->file);

  if (self->header.buffers_written <= n)
    return;
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": the file ends after "
                             "%u buffers; its header lists %u, the rest are missing",
                             self->path, size, n, self->header.buffers_written);
  _et_trace_add_damage (self, size, message);
}

static gboolean
walk_buffers (Loader *loader, EtProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  guint n = et_etl_file_n_buffers (self->file);

  for (guint i = 0; i < n; i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (self->file, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (info->flags & 0x0002)
        self->stats.buffers_flagged_events_lost++;
      if (info->flags & 0x0004)
        self->stats.buffers_flagged_buffer_lost++;
      self->stats.records_skipped += et_etl_file_walk_buffer (self->file, i, scan_record, loader);
      if (progress != NULL && (i % 64 == 0 || i + 1 == n))
        progress (info->offset + info->disk_size, et_etl_file_size (self->file), progress_data);
    }
  self->stats.buffers = n;
  self->stats.compressed_buffers = et_etl_file_n_compressed (self->file);
  report_missing_buffers (self, n);
  return TRUE;
}

static int
compare_refs (const void *a, const void *b)
{
  const EtEventRef *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  if (x->buffer != y->buffer)
    return x->buffer < y->buffer ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static gboolean
parse_ref (EtTrace *self, const EtEventRef *ref, EtRecord *record)
{
  gsize len;
  const guint8 *bytes = et_etl_file_buffer (self->file, ref->buffer, &len);
  const char *reason;

  return et_record_parse (bytes + ref->pos, len - ref->pos, record, &reason);
}

static void
report_error (EtTrace *self, const EtEventRef *ref, const char *what, const GError *error)
{
  guint64 offset = et_etl_file_offset_of (self->file, ref->buffer, ref->pos);
  g_autofree char *message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s: %s",
                                              self->path, offset, what, error->message);
  _et_trace_add_damage (self, offset, message);
}

static void
install_manifest (Loader *loader, const EtRecord *record, const char *xml, gsize len,
                  const EtEventRef *ref)
{
  EtTrace *self = loader->self;
  g_autoptr(GError) error = NULL;
  EtManifest *manifest = et_manifest_parse (xml, len, &error);
  EtProviderEntry *p;
  guint index;

  if (manifest == NULL)
    {
      report_error (self, ref, "EventSource manifest", error);
      return;
    }
  index = provider_of (loader, record);
  p = &g_array_index (self->providers, EtProviderEntry, index);
  /* Later copies (rundown) replace earlier ones, as PerfView does. */
  g_clear_pointer (&p->manifest, et_manifest_free);
  p->manifest = manifest;
  p->pub.kind = ET_PROVIDER_EVENTSOURCE;
  if (et_manifest_get_provider_name (manifest) != NULL)
    p->pub.name = g_string_chunk_insert_const (self->names,
                                               et_manifest_get_provider_name (manifest));
  self->stats.manifests++;
}

static void
load_manifests (Loader *loader)
{
  EtTrace *self = loader->self;
  g_autoptr(EtManifestAssembler) assembler = et_manifest_assembler_new ();

  if (loader->manifest_refs->len > 1)
    qsort (loader->manifest_refs->data, loader->manifest_refs->len, sizeof (EtEventRef),
           compare_refs);
  for (guint i = 0; i < loader->manifest_refs->len; i++)
    {
      const EtEventRef *ref = &g_array_index (loader->manifest_refs, EtEventRef, i);
      g_autoptr(GError) error = NULL;
      g_autofree char *xml = NULL;
      EtRecord record;
      gsize len = 0;

      if (!parse_ref (self, ref, &record))
        continue;
      xml = et_manifest_assembler_add (assembler, &record.guid, record.pid, record.tid,
                                       record.payload, record.payload_len, &len, &error);
      if (error != NULL)
        report_error (self, ref, "EventSource manifest chunk", error);
      else if (xml != NULL)
        install_manifest (loader, &record, xml, len, ref);
    }
}

static void
decide_defaults (EtTrace *self)
{
  EtGuid cv;

  et_guid_parse (CV_MARKERS_GUID, &cv);
  for (guint i = 0; i < self->providers->len; i++)
    {
      EtProvider *p = &g_array_index (self->providers, EtProviderEntry, i).pub;

      if (et_guid_equal (&p->guid, &cv))
        p->kind = ET_PROVIDER_CV_MARKERS;
      p->default_on = p->kind == ET_PROVIDER_EVENTSOURCE
                      || p->kind == ET_PROVIDER_TRACELOGGING
                      || p->kind == ET_PROVIDER_CV_MARKERS;
    }
}

static int
compare_temp_threads (const void *a, const void *b)
{
  const TempThread *x = a, *y = b;

  if (x->has_ids != y->has_ids)
    return x->has_ids ? -1 : 1;      /* records without ids last */
  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Sorts threads by (pid, tid), groups them into processes and gives both
 * their names. */
static void
build_threads (Loader *loader)
{
  EtTrace *self = loader->self;
  GArray *temp = loader->temp_threads;
  g_autofree guint *order = g_new (guint, temp->len);
  g_autoptr(GArray) sorted = g_array_copy (temp);

  qsort (sorted->data, sorted->len, sizeof (TempThread), compare_temp_threads);
  for (guint i = 0; i < sorted->len; i++)
    {
      TempThread *t = &g_array_index (sorted, TempThread, i);
      guint64 key = t->has_ids ? ((guint64) t->pid << 32) | t->tid : G_MAXUINT64;
      guint temp_index = GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key)) - 1;
      EtThread thread = { 0 };
      EtProcess *process = self->processes->len
                           ? &g_array_index (self->processes, EtProcess, self->processes->len - 1)
                           : NULL;
      const char *name;
      char buf[64];

      order[temp_index] = i;
      if (process == NULL || process->pid != t->pid || process->has_ids != t->has_ids)
        {
          EtProcess p = { t->pid, t->has_ids, NULL, i, 0 };
          name = t->has_ids ? g_hash_table_lookup (loader->process_names, GUINT_TO_POINTER (t->pid))
                            : "Unattributed";
          if (name == NULL)
            g_snprintf (buf, sizeof buf, "Process %u", t->pid);
          p.name = g_string_chunk_insert_const (self->names, name ? name : buf);
          g_array_append_val (self->processes, p);
          process = &g_array_index (self->processes, EtProcess, self->processes->len - 1);
        }
      process->n_threads++;
      thread.pid = t->pid;
      thread.tid = t->tid;
      thread.has_ids = t->has_ids;
      thread.process = self->processes->len - 1;
      thread.n_events = t->n_events;
      name = t->has_ids ? g_hash_table_lookup (loader->thread_names, &key)
                        : "Records without a thread";
      if (name == NULL)
        g_snprintf (buf, sizeof buf, "Thread %u", t->tid);
      thread.name = g_string_chunk_insert_const (self->names, name ? name : buf);
      g_array_append_val (self->threads, thread);
    }
  for (guint i = 0; i < temp->len; i++)
    g_array_index (temp, TempThread, i).final = order[i];
}

static guint
thread_of (Loader *loader, const EtRecord *record)
{
  guint64 key = thread_key (record);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key)) - 1;

  return g_array_index (loader->temp_threads, TempThread, index).final;
}

/* ---- markers ---------------------------------------------------------- */

typedef struct
{
  GArray      *markers;       /* EtMarker, time order */
  GArray      *marker_thread; /* guint32 per marker */
  GArray      *spans;         /* EtSpanEvent */
  GArray      *span_marker;   /* guint32: marker of each span event */
  EtFields    *fields;
  EtRuleResult rules;
} MarkerBuild;

static gboolean
wants_markers (EtTrace *self, guint provider, EtLoadFlags flags)
{
  const EtProvider *p = &g_array_index (self->providers, EtProviderEntry, provider).pub;
  return p->default_on || (flags & ET_LOAD_ALL_PROVIDERS);
}

static void
add_marker (Loader *loader, MarkerBuild *b, const EtRecord *record, guint provider,
            const EtEvent *event, guint64 index)
{
  EtTrace *self = loader->self;
  EtRuleInput input = {
    .level = event->level, .opcode = event->opcode, .event_name = event->name,
    .task_name = event->task_name, .message = event->message, .fields = b->fields,
  };
  EtMarker m = { 0 };
  guint32 thread = thread_of (loader, record);

  et_marker_rules_apply (&input, &b->rules);
  m.start_ns = m.end_ns = event->time_ns;
  m.text = et_strpool_intern (self->strings, b->rules.text->str, (gssize) b->rules.text->len);
  m.series = et_strpool_intern (self->strings, b->rules.series->str,
                                (gssize) b->rules.series->len);
  m.event = (guint32) index;
  m.end_event = ET_NO_INDEX;
  m.end_thread = ET_NO_INDEX;
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
        EtSpanEvent s = {
          .time = event->time_ns, .pid = record->pid, .tid = record->tid,
          .provider = provider, .task = record->task,
          .is_end = b->rules.role == ET_ROLE_SPAN_END,
          .has_span_id = b->rules.has_span_id, .span_id = b->rules.span_id,
          .activity_id = record->activity_id,
        };
        guint32 marker_index = b->markers->len;

        m.kind = ET_MARKER_SPAN;
        g_array_append_val (b->spans, s);
        g_array_append_val (b->span_marker, marker_index);
      }
      break;
    }
  g_array_append_val (b->markers, m);
  g_array_append_val (b->marker_thread, thread);
}

static gboolean
decode_markers (Loader *loader, MarkerBuild *b, EtLoadFlags flags,
                GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  EtEvent event;

  for (guint64 i = 0; i < self->n_events; i++)
    {
      const EtEventRef *ref = &self->events[i];
      g_autoptr(GError) local = NULL;
      EtRecord record;
      guint provider;

      if ((i & 0xFFFF) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!parse_ref (self, ref, &record) || is_manifest_event (&record))
        continue;
      provider = provider_of (loader, &record);
      if (!wants_markers (self, provider, flags))
        continue;
      if (!_et_trace_decode_record (self, &record, provider,
                                    et_etl_file_offset_of (self->file, ref->buffer, ref->pos),
                                    &event, b->fields, &local))
        {
          self->stats.decode_failures++;
          report_error (self, ref, event.name ? event.name : "event payload", local);
        }
      add_marker (loader, b, &record, provider, &event, i);
    }
  return TRUE;
}

/* Folds span ends into their starts (markers.md "Spans"); returns a mask of
 * the markers that stay. */
static guint8 *
pair_spans (EtTrace *self, MarkerBuild *b)
{
  guint n = b->spans->len;
  g_autofree EtSpanResult *results = g_new0 (EtSpanResult, MAX (n, 1));
  guint8 *keep = g_malloc (MAX (b->markers->len, 1));
  gint64 end_of_trace = et_trace_get_duration_ns (self);

  memset (keep, 1, b->markers->len);
  et_span_pair ((const EtSpanEvent *) (gpointer) b->spans->data, n, results);
  for (guint i = 0; i < n; i++)
    {
      const EtSpanEvent *s = &g_array_index (b->spans, EtSpanEvent, i);
      guint32 mi = g_array_index (b->span_marker, guint32, i);
      EtMarker *m = &g_array_index (b->markers, EtMarker, mi);

      m->status = results[i].status;
      m->depth = (guint8) MIN (results[i].depth, 255);
      if (s->is_end)
        {
          if (results[i].partner != G_MAXUINT)
            keep[mi] = 0;              /* drawn as part of its start */
          continue;
        }
      if (results[i].partner == G_MAXUINT)
        {
          m->end_ns = MAX (end_of_trace, m->start_ns);
          continue;
        }
      {
        guint32 ei = g_array_index (b->span_marker, guint32, results[i].partner);
        const EtMarker *end = &g_array_index (b->markers, EtMarker, ei);
        guint32 end_thread = g_array_index (b->marker_thread, guint32, ei);

        m->end_ns = end->start_ns;
        m->end_event = end->event;
        if (end_thread != g_array_index (b->marker_thread, guint32, mi))
          m->end_thread = end_thread;
      }
    }
  return keep;
}

typedef struct
{
  guint32 thread;
  guint32 series;
  guint16 provider;
  gint64  start;
  guint32 event;
  guint32 marker;
} ChannelKey;

static int
compare_channel_keys (const void *a, const void *b)
{
  const ChannelKey *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->provider != y->provider)
    return x->provider < y->provider ? -1 : 1;
  if (x->series != y->series)
    return x->series < y->series ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->event < y->event ? -1 : x->event > y->event;
}

static void
close_channel (EtTrace *self, guint first_marker)
{
  EtChannel *c = &g_array_index (self->channels, EtChannel, self->channels->len - 1);
  guint32 block0 = self->blocks->len;
  gint64 running = G_MININT64;

  c->markers = self->markers + first_marker;
  g_array_append_val (self->channel_block0, block0);
  for (guint i = 0; i < c->n_markers; i++)
    {
      running = MAX (running, c->markers[i].end_ns);
      if (((i + 1) & ((1u << ET_BLOCK_SHIFT) - 1)) == 0 || i + 1 == c->n_markers)
        g_array_append_val (self->blocks, running);
    }
}

/* Lays markers out channel by channel (thread, provider, series), each
 * channel sorted by start time. */
static void
build_channels (EtTrace *self, MarkerBuild *b, const guint8 *keep)
{
  g_autofree ChannelKey *keys = g_new (ChannelKey, MAX (b->markers->len, 1));
  guint n = 0, first = 0;

  for (guint i = 0; i < b->markers->len; i++)
    {
      const EtMarker *m = &g_array_index (b->markers, EtMarker, i);
      if (!keep[i])
        continue;
      keys[n++] = (ChannelKey) { g_array_index (b->marker_thread, guint32, i), m->series,
                                 m->provider, m->start_ns, m->event, i };
    }
  qsort (keys, n, sizeof *keys, compare_channel_keys);

  self->markers = g_new (EtMarker, MAX (n, 1));
  self->n_markers = n;
  for (guint i = 0; i < n; i++)
    {
      gboolean fresh = i == 0 || keys[i].thread != keys[i - 1].thread
                       || keys[i].provider != keys[i - 1].provider
                       || keys[i].series != keys[i - 1].series;

      self->markers[i] = g_array_index (b->markers, EtMarker, keys[i].marker);
      if (fresh)
        {
          EtChannel c = { keys[i].provider, keys[i].series, NULL, 0 };
          EtThread *t = &g_array_index (self->threads, EtThread, keys[i].thread);

          if (i > 0)
            close_channel (self, first);
          first = i;
          if (t->n_channels == 0)
            t->first_channel = self->channels->len;
          t->n_channels++;
          g_array_append_val (self->channels, c);
          g_array_append_val (self->channel_thread, keys[i].thread);
        }
      g_array_index (self->channels, EtChannel, self->channels->len - 1).n_markers++;
    }
  if (n > 0)
    close_channel (self, first);
  self->stats.markers = n;
}

static gboolean
build_markers (Loader *loader, EtLoadFlags flags, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  MarkerBuild b;
  g_autofree guint8 *keep = NULL;
  gboolean ok;

  b.markers = g_array_new (FALSE, FALSE, sizeof (EtMarker));
  b.marker_thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.spans = g_array_new (FALSE, FALSE, sizeof (EtSpanEvent));
  b.span_marker = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.fields = et_fields_new ();
  et_rule_result_init (&b.rules);

  ok = decode_markers (loader, &b, flags, cancellable, error);
  if (ok)
    {
      keep = pair_spans (self, &b);
      build_channels (self, &b, keep);
    }
  g_array_unref (b.markers);
  g_array_unref (b.marker_thread);
  g_array_unref (b.spans);
  g_array_unref (b.span_marker);
  et_fields_free (b.fields);
  et_rule_result_clear (&b.rules);
  return ok;
}

/* ---- entry point ------------------------------------------------------ */

static void
on_damage (guint64 offset, const char *message, gpointer user_data)
{
  _et_trace_add_damage (user_data, offset, message);
}

static void
choose_clock (EtTrace *self)
{
  const EtLogfileHeader *h = &self->header;

  switch (h->clock_type)
    {
    case ET_CLOCK_SYSTEM_TIME:
      self->ticks_per_second = 10000000;
      break;
    case ET_CLOCK_CPU_CYCLES:
      self->ticks_per_second = (gint64) h->cpu_speed_mhz * 1000000;
      break;
    default:
      self->ticks_per_second = h->perf_freq;
      break;
    }
  if (self->ticks_per_second <= 0)
    {
      g_autofree char *message = g_strdup_printf ("%s: byte offset %d: the log-file header "
                                                  "gives no clock frequency; assuming 100 ns "
                                                  "ticks", self->path, ET_BUFFER_HEADER_SIZE);
      _et_trace_add_damage (self, ET_BUFFER_HEADER_SIZE, message);
      self->ticks_per_second = 10000000;
    }
  self->stats.ticks_per_second = (guint64) self->ticks_per_second;
}

static void
loader_clear (Loader *loader)
{
  g_clear_pointer (&loader->refs, g_array_unref);
  g_clear_pointer (&loader->manifest_refs, g_array_unref);
  g_clear_pointer (&loader->thread_map, g_hash_table_unref);
  g_clear_pointer (&loader->temp_threads, g_array_unref);
  g_clear_pointer (&loader->process_names, g_hash_table_unref);
  g_clear_pointer (&loader->thread_names, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Loader, loader_clear)

EtTrace *
et_trace_load (const char *path, EtLoadFlags flags, EtProgressFunc progress,
               gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr(EtTrace) self = NULL;
  g_auto(Loader) loader = { 0 };

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (ET_TYPE_TRACE, NULL);
  self->path = g_strdup (path);
  self->file = et_etl_file_open (path, on_damage, self, error);
  if (self->file == NULL)
    return NULL;
  self->stats.file_size = et_etl_file_size (self->file);

  loader.self = self;
  loader.refs = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  loader.manifest_refs = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  loader.thread_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  loader.temp_threads = g_array_new (FALSE, FALSE, sizeof (TempThread));
  loader.process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  loader.thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  if (!walk_buffers (&loader, progress, progress_data, cancellable, error))
    return NULL;
  if (!loader.header_seen)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset %d: the trace log-file header record cannot be read",
                   path, ET_BUFFER_HEADER_SIZE);
      return NULL;
    }
  choose_clock (self);

  qsort (loader.refs->data, loader.refs->len, sizeof (EtEventRef), compare_refs);
  self->n_events = loader.refs->len;
  self->events = (EtEventRef *) (gpointer) g_array_free (g_steal_pointer (&loader.refs), FALSE);

  load_manifests (&loader);
  decide_defaults (self);
  build_threads (&loader);
  if (!build_markers (&loader, flags, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}
