/* et-trace-load.c — the loading pipeline (see et-trace.h for the diagram).
 *
 *   1. walk every buffer (one range of buffers per core, merged in file
 *      order after): count records per provider and thread, find the
 *      log-file header, collect names and manifest events, and note where
 *      each record is (EtEventRef), one run per CPU;
 *   2. merge the runs by time (ties in file order) into the event index;
 *   3. reassemble and parse EventSource manifests in time order;
 *   4. decode the events of marker providers in time order, apply the
 *      marker rules, pair spans, and lay the markers out per channel
 *      (et-trace-markers.c).
 */
#include "et-trace-load.h"
#include "et-trace-load-private.h"
#include "et-builtin.h"
#include "et-builtin-rules.h"
#include "et-event-info.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-kernel.h"
#include "et-mapping.h"
#include "et-nettrace-image.h"
#include "et-image-record.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define CV_MARKERS_GUID "8d4925ab-505a-483b-a7e0-6f824a07a6f0"

/* TempThread, ProviderCache and Loader: et-trace-load-private.h */

static guint64
key_of (guint32 pid, guint32 tid, gboolean has_ids)
{
  /* Records without ids share one key that no (pid, tid) pair can have. */
  return has_ids ? ((guint64) pid << 32) | tid : G_MAXUINT64;
}

static guint64
thread_key (const EtRecord *record)
{
  return key_of (record->pid, record->tid, record->has_ids);
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

/* The provider index of a record. Only the walking threads add providers,
 * under the lock; a miss of the cache is rare enough to always take it. */
guint
_et_loader_provider_of (EtTrace *self, ProviderCache *cache, const EtRecord *record)
{
  EtGuid guid;
  const char *name;
  EtProviderKind kind;
  guint slot;

  /* Only kernel records make their GUID from the hook: the others carry it. */
  if (record->klass != ET_RECORD_SYSTEM && record->klass != ET_RECORD_PERFINFO)
    for (guint k = 0; k < cache->n; k++)
      if (et_guid_equal (&record->guid, &cache->guid[k]))
        return cache->index[k];
  _et_record_identity (record, &guid, &name, &kind);
  for (guint k = 0; k < cache->n; k++)
    if (et_guid_equal (&guid, &cache->guid[k]))
      return cache->index[k];
  if (cache->n < PROVIDER_CACHE_SIZE)
    slot = cache->n++;
  else
    slot = cache->next, cache->next = (cache->next + 1) % PROVIDER_CACHE_SIZE;
  cache->guid[slot] = guid;
  g_mutex_lock (&self->lock);
  cache->index[slot] = _et_trace_provider_for (self, &guid, name, kind);
  g_mutex_unlock (&self->lock);
  return cache->index[slot];
}

gboolean
_et_loader_is_manifest_event (const EtRecord *record)
{
  return record->klass == ET_RECORD_EVENT && record->id == 0xFFFE
         && record->opcode == 0xFE && record->task == 0xFFFE;
}

/* KernelTraceControl's MetaData/EventInfo and EventMapInfo: other
 * providers' schemas (et-event-info), read with the manifests. */
static gboolean
is_event_metadata (const EtRecord *record)
{
  return (record->klass == ET_RECORD_FULL || record->klass == ET_RECORD_INSTANCE)
         && et_event_info_is_metadata (&record->guid, record->opcode);
}

/* What an EVENT_HEADER record tells about its provider's kind and name
 * (merged into the provider when the walk is done: merge_walkers). */
static void
learn_provider (SeenProvider *seen, const EtRecord *record)
{
  const guint8 *traits;
  gsize len;

  if (seen->learned || record->klass != ET_RECORD_EVENT)
    return;
  if (et_record_find_ext (record, ET_EXT_EVENT_SCHEMA_TL, &len) != NULL)
    seen->tracelogging = TRUE;
  traits = et_record_find_ext (record, ET_EXT_PROV_TRAITS, &len);
  if (traits != NULL && seen->traits_name == NULL)
    seen->traits_name = et_tl_traits_provider_name (traits, len, NULL);
  seen->learned = seen->tracelogging && seen->traits_name != NULL;
}

enum { PLAIN_UNKNOWN, PLAIN_YES, PLAIN_NO };

/* Whether @record (of @seen's provider) is an EVENT_HEADER record of a
 * provider no reader below knows (an application's EventSource): its
 * thread is counted and its own stack noted, nothing else. Most of a
 * server's records are such, and asking each reader about each of them
 * (a GUID compare or two apiece) was a fifth of the walk. */
static gboolean
plain_event (SeenProvider *seen, const EtRecord *record)
{
  if (record->klass != ET_RECORD_EVENT)
    return FALSE;
  /* Its EVENT_HEADER records all carry the provider's GUID. */
  if (seen->plain == PLAIN_UNKNOWN)
    seen->plain = et_kernel_reads_provider (&record->guid)
                  || _et_stacks_reads_provider (&record->guid) ? PLAIN_NO : PLAIN_YES;
  return seen->plain == PLAIN_YES;
}

static SeenProvider *
seen_provider (Loader *walker, guint provider)
{
  if (provider >= walker->seen->len)
    g_array_set_size (walker->seen, provider + 1);
  return &g_array_index (walker->seen, SeenProvider, provider);
}

/* Temp index + 1 of the record's thread, 0 when it has none yet. The
 * cache is two-way: a key may sit in either slot of its pair, the one
 * used last in the first, so two busy threads whose keys share a pair do
 * not keep pushing each other out. */
static guint
cached_thread (Loader *loader, ThreadCache *cache, guint64 key)
{
  /* The product's top bits: they depend on every bit of the key (the low
   * ones only on the key's low bits, which many threads share). */
  guint slot = (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> (64 - THREAD_CACHE_SHIFT))
               & ~1u;
  guint value;

  if (cache->value[slot] != 0 && cache->key[slot] == key)
    return cache->value[slot];
  if (cache->value[slot + 1] != 0 && cache->key[slot + 1] == key)
    value = cache->value[slot + 1];
  else
    value = GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key));
  if (value != 0)
    {
      cache->key[slot + 1] = cache->key[slot], cache->value[slot + 1] = cache->value[slot];
      cache->key[slot] = key, cache->value[slot] = value;
    }
  return value;
}

/* Adds @n events to the thread, whose temp index + 1 is @index or, when
 * @index is 0, a new one. */
static void
add_thread_events (Loader *loader, guint index, guint32 pid, guint32 tid, gboolean has_ids,
                   guint64 n)
{
  if (index == 0)
    {
      TempThread t = { pid, tid, has_ids, 0, 0 };
      guint64 key = key_of (pid, tid, has_ids);

      g_array_append_val (loader->temp_threads, t);
      index = loader->temp_threads->len;
      g_hash_table_insert (loader->thread_map, g_memdup2 (&key, sizeof key),
                           GUINT_TO_POINTER (index));
    }
  g_array_index (loader->temp_threads, TempThread, index - 1).n_events += n;
}

static void
count_thread (Loader *loader, const EtRecord *record)
{
  add_thread_events (loader, cached_thread (loader, &loader->threads, thread_key (record)),
                     record->pid, record->tid, record->has_ids, 1);
}

static void
collect_names (Loader *loader, const EtRecord *record)
{
  EtKernelName name;

  if (et_kernel_process_name (record, &name) || et_eventpipe_process_name (record, &name))
    {
      g_hash_table_replace (loader->process_names, GUINT_TO_POINTER (name.pid), name.name);
      if (name.command_line != NULL)
        g_hash_table_replace (loader->command_lines, GUINT_TO_POINTER (name.pid),
                              name.command_line);
    }
  else if (et_kernel_thread_name (record, &name))
    {
      guint64 key = ((guint64) name.pid << 32) | name.tid;
      g_hash_table_replace (loader->thread_names, g_memdup2 (&key, sizeof key), name.name);
    }
}

/* A thread that logs what only the runtime's finalizer, thread-pool
 * workers... log is named so, unless the kernel names it. */
static void
collect_thread_role (Loader *walker, const EtRecord *record)
{
  const char *role;

  if (record->klass == ET_RECORD_EVENT && record->id <= 151
      && (role = et_runtime_thread_role (record)) != NULL)
    {
      guint64 key = thread_key (record);

      g_hash_table_replace (walker->thread_roles, g_memdup2 (&key, sizeof key), (gpointer) role);
    }
}

static void
flush_tid (Loader *walker, TidCount *c)
{
  gpointer old = NULL;

  g_hash_table_lookup_extended (walker->tid_samples, GUINT_TO_POINTER (c->tid), NULL, &old);
  g_hash_table_insert (walker->tid_samples, GUINT_TO_POINTER (c->tid),
                       GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + c->samples));
  c->used = FALSE;
  c->samples = 0;
}

static void
count_tid (Loader *walker, guint32 tid, guint samples)
{
  TidCount *c = &walker->tid_cache[(tid >> 2) % TID_CACHE_SIZE];   /* ids are multiples of 4 */

  if (c->used && c->tid != tid)
    flush_tid (walker, c);
  c->used = TRUE;
  c->tid = tid;
  c->samples += samples;
}

/* Kernel events whose payload names their thread (et_kernel_ids): Thread
 * events tell which process a thread is in; samples and the others whose
 * header names no thread are kept by thread id until every Thread event is
 * known (resolve_payload_threads). */
static void
attribute_kernel (Loader *walker, const EtRecord *record)
{
  guint32 pid, tid;
  EtKernelIdsFrom from = et_kernel_ids (record, &pid, &tid);

  if (from == ET_KERNEL_IDS_THREAD && pid != ET_KERNEL_NO_ID && tid != ET_KERNEL_NO_ID)
    g_hash_table_replace (walker->thread_pids, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (pid));
  if ((from != ET_KERNEL_IDS_SAMPLE && from != ET_KERNEL_IDS_TID) || tid == ET_KERNEL_NO_ID)
    return;
  if (from == ET_KERNEL_IDS_SAMPLE && pid != ET_KERNEL_NO_ID)
    {
      guint64 key = key_of (pid, tid, TRUE);

      add_thread_events (walker, cached_thread (walker, &walker->threads, key), pid, tid, TRUE, 0);
      g_array_index (walker->temp_threads, TempThread,
                     cached_thread (walker, &walker->threads, key) - 1).n_samples++;
      return;
    }
  count_tid (walker, tid, from == ET_KERNEL_IDS_SAMPLE);
}

static void
scan_record (const EtRecord *record, guint buffer, gsize pos, gpointer user_data)
{
  Loader *walker = user_data;
  EtTrace *self = walker->self;
  EtEventRef ref = { record->ts, buffer * self->slot_stride + (EtEventLoc) (pos >> 3) };
  SeenProvider *seen;

  if (!walker->header_seen && record->klass == ET_RECORD_SYSTEM && record->hook == 0)
    {
      walker->header_seen = TRUE;
      walker->header_loc = ref.loc;
      /* A .nettrace's header record is its image's (et-nettrace-image.c,
       * made from the Trace object), not an event of the file: it is read
       * as the header, but not listed, counted or given a thread. */
      if (walker->image)
        return;
    }
  if (walker->records == 0 || record->ts < walker->first_raw)
    walker->first_raw = record->ts;
  if (walker->records == 0 || record->ts > walker->last_raw)
    walker->last_raw = record->ts;
  walker->records++;
  /* (a later slot before its run's last time: the merge sorts the run) */
  if (walker->run_used > 0 && ref.ts < _et_run_refs (walker->run)[walker->run_used - 1].ts)
    walker->out_of_order->data[walker->run_index] = 1;
  _et_run_refs (walker->run)[walker->run_used++] = ref;

  seen = seen_provider (walker, _et_loader_provider_of (self, &walker->providers, record));
  if (seen->n_events++ == 0)
    seen->first = ref.loc;
  learn_provider (seen, record);
  if (_et_loader_is_manifest_event (record) || is_event_metadata (record))
    g_array_append_val (walker->manifest_refs, ref);
  count_thread (walker, record);
  if (plain_event (seen, record))
    {
      if (walker->stacks_scan != NULL)
        _et_stacks_scan_plain_event (walker->stacks_scan, record, ref.loc);
      return;
    }
  if (et_is_thread_sample (record))
    g_array_index (walker->temp_threads, TempThread,
                   cached_thread (walker, &walker->threads, thread_key (record)) - 1).n_samples++;
  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    {
      collect_names (walker, record);
      attribute_kernel (walker, record);
    }
  else
    {
      /* A .nettrace's ProcessInfo is event 1 of EventPipe's provider; the
       * runtime's event 1 (GC/Start) still counts for thread roles. */
      if (record->id == 1 && record->klass == ET_RECORD_EVENT)
        collect_names (walker, record);
      collect_thread_role (walker, record);
    }
  if (_et_cpu_record_wanted (record))
    g_array_append_val (walker->cpu_locs, ref.loc);
  if (walker->stacks_scan != NULL)
    _et_stacks_scan_record (walker->stacks_scan, record, ref.loc);
}

/* The log-file header: the first record of the trace-header hook. */
static void
read_header (EtTrace *self, EtEventLoc loc)
{
  EtRecord record;

  /* it parsed while walking (unless the file shrank since: et-mapping.h) */
  if (!_et_trace_record_at (self, loc, &record))
    return;
  self->stats.t0_raw = record.ts;
  read_logfile_header (self, &record);
}

static void
header_damage (EtTrace *self, const char *what)
{
  g_autofree char *message = g_strdup_printf ("%s: byte offset %d: %s", self->path,
                                              ET_BUFFER_HEADER_SIZE, what);
  _et_trace_add_damage (self, ET_BUFFER_HEADER_SIZE, message);
}

/* No record parsed as the log-file header: the first record of the first
 * buffer may still be it, with its marker or header-type byte damaged
 * (etl-format.md §6: a SYSTEM record of hook 0 whose payload says its
 * pointer size). Read it from a copy with those two bytes set right. */
static gboolean
repair_header (EtTrace *self)
{
  gsize len = 0, size;
  const guint8 *buffer = et_etl_file_n_buffers (self->file) > 0
                         ? et_etl_file_buffer (self->file, 0, &len) : NULL;
  const guint8 *p = buffer + ET_BUFFER_HEADER_SIZE;
  g_autofree guint8 *copy = NULL;
  const char *reason;
  EtRecord record;

  guint32 pointer_size;

  /* (a record that parses is not a damaged header) */
  if (buffer == NULL || len < ET_BUFFER_HEADER_SIZE + 0x20 + 0x30
      || et_record_parse (p, len - ET_BUFFER_HEADER_SIZE, &record, &reason)
      || et_read_u16 (p + 6) != 0)
    return FALSE;
  size = MIN ((gsize) et_read_u16 (p + 4), len - ET_BUFFER_HEADER_SIZE);
  pointer_size = size >= 0x20 + 0x30 ? et_read_u32 (p + 0x20 + 0x2C) : 0;
  if (pointer_size != 4 && pointer_size != 8)
    return FALSE;
  copy = g_memdup2 (p, size);
  copy[3] = 0xC0;
  copy[2] = pointer_size == 8 ? 0x02 : 0x01;
  if (!et_record_parse (copy, size, &record, &reason))
    return FALSE;
  header_damage (self, "the log-file header record's marker is damaged; it is read as "
                 "the header all the same");
  self->stats.t0_raw = record.ts;
  read_logfile_header (self, &record);
  return TRUE;
}

/* Neither: the common values (all known traces use them, etl-format.md
 * §7), said as damage. Events keep their order and relative times. */
static void
assume_header (EtTrace *self)
{
  self->header.clock_type = ET_CLOCK_QPC;
  self->header.perf_freq = 10000000;
  self->stats.t0_raw = self->stats.first_raw;
  header_damage (self, "no trace log-file header record found: assuming a QPC clock of "
                 "10 MHz (100 ns ticks) and the trace starting at its first event; its "
                 "start date, buffer size and losses are unknown");
}

/* A header that was assumed or damaged: the pointer size the records say. */
static void
pointer_size_from_records (EtTrace *self)
{
  EtRecord record;

  if (_et_trace_record_at (self, self->events[0], &record))
    self->header.pointer_size = record.pointer_size;
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

/* Slots are 4 bytes (EtEventLoc): a trace whose buffers hold more than
 * 32 GiB of event data is read up to there, and the rest is reported. */
static guint
indexable_buffers (EtTrace *self, guint n)
{
  guint64 slots = et_etl_slot_space ();
  guint64 fit = slots / self->slot_stride;
  g_autofree char *message = NULL;
  const EtBufferInfo *first;

  if (fit >= n)
    return n;
  first = et_etl_file_buffer_info (self->file, (guint) fit);
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": the trace holds more "
                             "event data than Etlscope can index (%" G_GUINT64_FORMAT
                             " MiB); its last %u buffers, from here on, are skipped",
                             self->path, first->offset, slots * 8 / (1024 * 1024),
                             n - (guint) fit);
  _et_trace_add_damage (self, first->offset, message);
  self->stats.buffers_skipped = n - (guint) fit;
  return (guint) fit;
}

static void
run_free (gpointer data)
{
  EtRun *run = data;

  et_mapped_clear (&run->mem);
  g_free (run);
}

/* The run of records of @cpu. */
static EtRun *
run_of (Loader *loader, guint cpu)
{
  static const guint8 in_order = 0;

  while (loader->runs->len <= cpu)
    {
      g_ptr_array_add (loader->runs, g_new0 (EtRun, 1));
      g_byte_array_append (loader->out_of_order, &in_order, 1);
    }
  loader->run_index = cpu;
  return g_ptr_array_index (loader->runs, cpu);
}

static void
loader_init (Loader *loader, EtTrace *self)
{
  memset (loader, 0, sizeof *loader);
  loader->self = self;
  loader->image = et_etl_file_image_tables (self->file) != NULL;
  loader->runs = g_ptr_array_new_with_free_func (run_free);
  loader->out_of_order = g_byte_array_new ();
  loader->manifest_refs = g_array_new (FALSE, FALSE, sizeof (EtEventRef));
  loader->thread_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  loader->temp_threads = g_array_new (FALSE, FALSE, sizeof (TempThread));
  loader->process_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  loader->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  loader->command_lines = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  loader->thread_roles = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  loader->thread_pids = g_hash_table_new (NULL, NULL);
  loader->tid_samples = g_hash_table_new (NULL, NULL);
  loader->cpu_locs = g_array_new (FALSE, FALSE, sizeof (EtEventLoc));
  /* ETLSCOPE_NO_STACKS=1: neither noted nor built (to measure their cost) */
  loader->stacks_scan = g_getenv ("ETLSCOPE_NO_STACKS") == NULL ? _et_stacks_scan_new () : NULL;
  loader->seen = g_array_new (FALSE, TRUE, sizeof (SeenProvider));
}

static void
loader_clear (Loader *loader)
{
  g_clear_pointer (&loader->runs, g_ptr_array_unref);
  g_clear_pointer (&loader->out_of_order, g_byte_array_unref);
  g_clear_pointer (&loader->spare, et_spare_pages_free);
  g_clear_pointer (&loader->manifest_refs, g_array_unref);
  g_clear_pointer (&loader->thread_map, g_hash_table_unref);
  g_clear_pointer (&loader->temp_threads, g_array_unref);
  g_clear_pointer (&loader->process_names, g_hash_table_unref);
  g_clear_pointer (&loader->thread_names, g_hash_table_unref);
  g_clear_pointer (&loader->command_lines, g_hash_table_unref);
  g_clear_pointer (&loader->thread_roles, g_hash_table_unref);
  g_clear_pointer (&loader->thread_pids, g_hash_table_unref);
  g_clear_pointer (&loader->tid_samples, g_hash_table_unref);
  g_clear_pointer (&loader->cpu_locs, g_array_unref);
  g_clear_pointer (&loader->stacks_scan, _et_stacks_scan_free);
  for (guint i = 0; loader->seen != NULL && i < loader->seen->len; i++)
    g_free (g_array_index (loader->seen, SeenProvider, i).traits_name);
  g_clear_pointer (&loader->seen, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Loader, loader_clear)

/* One walking thread: buffers [from, to) in file order. */
static gpointer
walk_range (gpointer data)
{
  Loader *w = data;
  EtEtlFile *file = w->self->file;
  guint n = et_etl_file_n_buffers (file);
  guint64 size = et_etl_file_size (file);

  et_worker_begin ();
  for (guint i = w->from; i < w->to; i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (file, i);
      gsize len = 0;
      guint done;

      if (g_cancellable_is_cancelled (w->cancellable))
        {
          w->cancelled = TRUE;
          break;
        }
      if (info->flags & 0x0002)
        w->flagged_events_lost++;
      if (info->flags & 0x0004)
        w->flagged_buffer_lost++;
      /* Records start 8 bytes apart at least: room for them all first,
       * so that each is one store (scan_record). */
      et_etl_file_buffer (file, i, &len);
      w->run = run_of (w, info->cpu);
      w->run_used = w->run->len;
      et_mapped_reserve (&w->run->mem, (w->run_used + len / 8 + 1) * sizeof (EtEventRef));
      w->records_skipped += et_etl_file_walk_buffer (file, i, scan_record, w);
      w->run->len = w->run_used;
      done = (guint) g_atomic_int_add (w->buffers_done, 1) + 1;
      if (w->progress != NULL && i % 64 == 0)
        _et_trace_progress_set (w->progress, w->bytes_before
                                             + (size - w->bytes_before) * done / n);
    }
  return NULL;
}

static int
compare_first_records (gconstpointer a, gconstpointer b, gpointer first)
{
  EtEventLoc x = ((const EtEventLoc *) first)[*(const guint *) a];
  EtEventLoc y = ((const EtEventLoc *) first)[*(const guint *) b];

  return x < y ? -1 : x > y;
}

/* Providers in the order of their first record in the file, as one thread
 * walking the whole file would have found them. */
static void
number_providers_in_file_order (EtTrace *self, const EtEventLoc *first)
{
  guint n = self->providers->len;
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, TRUE, sizeof (EtProviderEntry), n);

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof (guint), compare_first_records, (gpointer) first);
  for (guint i = 0; i < n; i++)
    {
      EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, order[i]);
      g_array_append_val (sorted, *p);
      g_hash_table_insert (self->provider_index, g_memdup2 (&p->pub.guid, sizeof (EtGuid)),
                           GUINT_TO_POINTER (i + 1));
    }
  g_array_set_size (self->providers, 0);
  g_array_append_vals (self->providers, sorted->data, n);
}

/* What one walker learnt from kernel payloads (attribute_kernel, command
 * lines), into @loader: later Thread events win, as in one walk. */
static void
merge_payload_ids (Loader *loader, Loader *w)
{
  GHashTableIter iter;
  gpointer key, value, old;

  for (guint i = 0; i < TID_CACHE_SIZE; i++)
    if (w->tid_cache[i].used)
      flush_tid (w, &w->tid_cache[i]);
  g_hash_table_iter_init (&iter, w->thread_pids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (loader->thread_pids, key, value);
  g_hash_table_iter_init (&iter, w->tid_samples);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      old = g_hash_table_lookup (loader->tid_samples, key);
      g_hash_table_replace (loader->tid_samples, key,
                            GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + GPOINTER_TO_SIZE (value)));
    }
  g_hash_table_iter_init (&iter, w->command_lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_hash_table_iter_steal (&iter);
      g_hash_table_replace (loader->command_lines, key, value);
    }
  g_hash_table_iter_init (&iter, w->thread_roles);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_hash_table_iter_steal (&iter);
      g_hash_table_replace (loader->thread_roles, key, value);
    }
}

/* What the walkers found, in file order, into @loader and the trace. */
static void
merge_walkers (Loader *loader, Loader *walkers, guint k)
{
  EtTrace *self = loader->self;
  guint n_providers = self->providers->len;
  g_autofree EtEventLoc *first = g_new (EtEventLoc, MAX (n_providers, 1));

  for (guint p = 0; p < n_providers; p++)
    first[p] = G_MAXUINT32;
  for (guint i = 0; i < k; i++)
    {
      Loader *w = &walkers[i];
      GHashTableIter iter;
      gpointer key, value;

      if (w->records > 0)
        {
          if (self->stats.records == 0 || w->first_raw < self->stats.first_raw)
            self->stats.first_raw = w->first_raw;
          if (self->stats.records == 0 || w->last_raw > self->stats.last_raw)
            self->stats.last_raw = w->last_raw;
        }
      self->stats.records += w->records;
      self->stats.records_skipped += w->records_skipped;
      self->stats.buffers_flagged_events_lost += w->flagged_events_lost;
      self->stats.buffers_flagged_buffer_lost += w->flagged_buffer_lost;
      if (w->header_seen && !loader->header_seen)
        loader->header_seen = TRUE, loader->header_loc = w->header_loc;
      /* (the runs move: the walker's array lets them go without freeing them) */
      g_ptr_array_set_free_func (w->runs, NULL);
      for (guint r = 0; r < w->runs->len; r++)
        g_ptr_array_add (loader->runs, g_ptr_array_index (w->runs, r));
      g_byte_array_append (loader->out_of_order, w->out_of_order->data, w->out_of_order->len);
      g_array_append_vals (loader->manifest_refs, w->manifest_refs->data, w->manifest_refs->len);
      g_array_append_vals (loader->cpu_locs, w->cpu_locs->data, w->cpu_locs->len);
      if (w->stacks_scan != NULL)
        _et_stacks_scan_merge (loader->stacks_scan, w->stacks_scan);

      for (guint t = 0; t < w->temp_threads->len; t++)
        {
          const TempThread *from = &g_array_index (w->temp_threads, TempThread, t);
          guint64 tkey = key_of (from->pid, from->tid, from->has_ids);

          add_thread_events (loader,
                             GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &tkey)),
                             from->pid, from->tid, from->has_ids, from->n_events);
          g_array_index (loader->temp_threads, TempThread,
                         GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &tkey)) - 1)
            .n_samples += from->n_samples;
        }
      merge_payload_ids (loader, w);
      /* Later names replace earlier ones, as in one walk. */
      g_hash_table_iter_init (&iter, w->process_names);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_hash_table_iter_steal (&iter);
          g_hash_table_replace (loader->process_names, key, value);
        }
      g_hash_table_iter_init (&iter, w->thread_names);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_hash_table_iter_steal (&iter);
          g_hash_table_replace (loader->thread_names, key, value);
        }

      for (guint p = 0; p < w->seen->len; p++)
        {
          const SeenProvider *seen = &g_array_index (w->seen, SeenProvider, p);
          EtProvider *provider = &g_array_index (self->providers, EtProviderEntry, p).pub;

          if (seen->n_events == 0)
            continue;
          provider->n_events += seen->n_events;
          first[p] = MIN (first[p], seen->first);
          if (seen->tracelogging)
            provider->kind = ET_PROVIDER_TRACELOGGING;
          if (seen->traits_name != NULL && provider->name[0] == '\0')
            provider->name = g_string_chunk_insert_const (self->names, seen->traits_name);
        }
    }
  g_hash_table_remove_all (self->provider_index);
  number_providers_in_file_order (self, first);
}

/* Buffers that hold this many records or more (a guess from their bytes:
 * an image's compact records take 16 or more, a file's EVENT_HEADER
 * records 80 or more) are walked on every core. A .nettrace of 114,000
 * events (PerfView's HeartRateMonitor, its image 2.8 MB) walked in 5.0
 * ms instead of 7.4; the corpus's 3.2 MB ShutdownPerfDiagLogger.etl
 * (17,000 events) took 2.5 ms on two cores instead of 2.0. Below this,
 * the second core also costs more memory than it saves time: PerfView's
 * SampleProfiler traces (38,000 events, 0.5 MB) peaked 0.5 MB higher
 * (the second thread's allocator arena) to load 0.5 ms sooner. */
#define WALK_PARALLEL_RECORDS 75000
#define EVENT_RECORD_GUESS    80

/* Walks the buffers on every core, each thread a range of them in file
 * order (small files on one), then merges what they found. */
static gboolean
walk_buffers (Loader *loader, GCancellable *cancellable, GError **error)
{
  EtTrace *self = loader->self;
  guint n = et_etl_file_n_buffers (self->file), walked, k;
  guint64 bytes = 0, records;
  Loader *walkers;
  volatile gint done = 0;
  gboolean cancelled = FALSE;

  for (guint i = 0; i < n; i++)
    self->slot_stride = MAX (self->slot_stride,
                             (et_etl_file_buffer_info (self->file, i)->data_end + 7) / 8);
  self->slot_stride = MAX (self->slot_stride, 1);
  walked = indexable_buffers (self, n);
  for (guint i = 0; i < walked; i++)
    bytes += et_etl_file_buffer_info (self->file, i)->data_end;
  records = bytes / (et_etl_file_image_tables (self->file) != NULL ? ET_IMAGE_RECORD_HEADER
                                                                   : EVENT_RECORD_GUESS);
  k = MAX (MIN (et_workers_count (records, WALK_PARALLEL_RECORDS), walked), 1);
  walkers = et_workers_new (k, sizeof *walkers);
  for (guint i = 0; i < k; i++)
    {
      loader_init (&walkers[i], self);
      walkers[i].from = (guint) ((guint64) walked * i / k);
      walkers[i].to = (guint) ((guint64) walked * (i + 1) / k);
      walkers[i].cancellable = cancellable;
      walkers[i].buffers_done = &done;
      if (i == 0)
        walkers[i].progress = loader->progress, walkers[i].bytes_before = loader->bytes_before;
    }
  if (g_getenv ("ETLSCOPE_WALK_REVERSED") != NULL)   /* tests: the last range first */
    for (guint i = k; i-- > 0;)
      walk_range (&walkers[i]);
  else
    et_workers_run (walkers, sizeof *walkers, k, walk_range, "etlscope-walk");
  for (guint i = 0; i < k; i++)
    cancelled |= walkers[i].cancelled;
  if (!cancelled)
    merge_walkers (loader, walkers, k);
  for (guint i = 0; i < k; i++)
    loader_clear (&walkers[i]);
  et_workers_free (walkers);
  if (cancelled)
    return !g_cancellable_set_error_if_cancelled (cancellable, error);
  _et_trace_progress_end (loader->progress);
  self->stats.buffers = n;
  self->stats.compressed_buffers = et_etl_file_n_compressed (self->file);
  return TRUE;
}

void
_et_loader_report_error (EtTrace *self, EtEventLoc loc, const char *what, const GError *error)
{
  guint64 offset = _et_trace_offset_of (self, loc);
  g_autofree char *message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s: %s",
                                              self->path, offset, what, error->message);
  _et_trace_add_damage (self, offset, message);
}

static void
install_manifest (Loader *loader, const EtRecord *record, const char *xml, gsize len,
                  EtEventLoc loc)
{
  EtTrace *self = loader->self;
  g_autoptr(GError) error = NULL;
  EtManifest *manifest = et_manifest_parse (xml, len, &error);
  EtProviderEntry *p;
  guint index;

  if (manifest == NULL)
    {
      _et_loader_report_error (self, loc, "EventSource manifest", error);
      return;
    }
  index = _et_loader_provider_of (self, &loader->providers, record);
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

/* Providers without a manifest in the trace and without a built-in
 * schema decode with the schemas the trace's own event metadata gives
 * (the built-in ones are PerfView's names and fields, so they win, as
 * TraceEvent's own parsers win over its metadata). The provider stays a
 * "manifest" provider, off by default: its events become named and
 * decoded, and markers only when asked for. */
static void
install_event_info_schemas (EtTrace *self, const EtEventInfoSet *set)
{
  for (guint i = 0; i < self->providers->len; i++)
    {
      EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, i);
      const char *name;

      if (p->manifest != NULL || p->pub.kind != ET_PROVIDER_MANIFEST
          || et_builtin_has (&p->pub.guid) || !et_event_info_set_has (set, &p->pub.guid))
        continue;
      p->manifest = et_event_info_set_manifest_new (set, &p->pub.guid);
      p->pub.event_metadata = TRUE;
      name = et_event_info_set_provider_name (set, &p->pub.guid);
      if (name != NULL && p->pub.name[0] == '\0')
        p->pub.name = g_string_chunk_insert_const (self->names, name);
    }
}

static void
load_manifests (Loader *loader)
{
  EtTrace *self = loader->self;
  g_autoptr(EtManifestAssembler) assembler = et_manifest_assembler_new ();
  g_autoptr(EtEventInfoSet) event_info = et_event_info_set_new ();

  _et_sort_event_refs ((EtEventRef *) (gpointer) loader->manifest_refs->data,
                       loader->manifest_refs->len);
  for (guint i = 0; i < loader->manifest_refs->len; i++)
    {
      const EtEventRef *ref = &g_array_index (loader->manifest_refs, EtEventRef, i);
      g_autoptr(GError) error = NULL;
      g_autofree char *xml = NULL;
      EtRecord record;
      gsize len = 0;

      if (!_et_trace_record_at (self, ref->loc, &record))
        continue;
      if (is_event_metadata (&record))
        {
          if (!et_event_info_set_add (event_info, record.opcode, record.payload,
                                      record.payload_len, &error))
            _et_loader_report_error (self, ref->loc, record.opcode == ET_EVENT_INFO_OPCODE
                                     ? "event metadata (MetaData/EventInfo)"
                                     : "event metadata (MetaData/EventMapInfo)", error);
          continue;
        }
      xml = et_manifest_assembler_add (assembler, &record.guid, record.pid, record.tid,
                                       record.payload, record.payload_len, &len, &error);
      if (error != NULL)
        _et_loader_report_error (self, ref->loc, "EventSource manifest chunk", error);
      else if (xml != NULL)
        install_manifest (loader, &record, xml, len, ref->loc);
    }
  install_event_info_schemas (self, event_info);
}

/* Providers whose manifest never travels in the trace (the .NET
 * runtime's, the kernel's classes) decode with their built-in schema, as
 * PerfView does; a manifest found in the trace still wins. The provider
 * keeps its kind; the runtime's own markers come from its built-in rules
 * (et-builtin-rules), on by default; the kernel's events are not markers. */
static void
install_builtin_schemas (EtTrace *self)
{
  for (guint i = 0; i < self->providers->len; i++)
    {
      EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, i);

      if (p->manifest == NULL && (p->pub.kind == ET_PROVIDER_MANIFEST
                                  || p->pub.kind == ET_PROVIDER_KERNEL
                                  || p->pub.kind == ET_PROVIDER_CLASSIC))
        {
          p->manifest = et_builtin_manifest_new (&p->pub.guid);
          p->builtin_rules = p->manifest != NULL && et_builtin_rules_has (&p->pub.guid);
        }
    }
}

/* EventPipe's own provider logs the .nettrace's bookkeeping (ProcessInfo):
 * an EventSource, but nobody's markers. */
#define EVENTPIPE_PROVIDER "Microsoft-DotNETCore-EventPipe"

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
      p->default_on = (p->kind == ET_PROVIDER_EVENTSOURCE
                       || p->kind == ET_PROVIDER_TRACELOGGING
                       || p->kind == ET_PROVIDER_CV_MARKERS
                       || g_array_index (self->providers, EtProviderEntry, i).builtin_rules)
                      && strcmp (p->name, EVENTPIPE_PROVIDER) != 0;
    }
}

/* The temp thread of (@pid, @tid), made (without events) when the trace
 * has none yet. */
static TempThread *
ensure_thread (Loader *loader, guint32 pid, guint32 tid, gboolean has_ids)
{
  guint64 key = key_of (pid, tid, has_ids);

  add_thread_events (loader, GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key)),
                     pid, tid, has_ids, 0);
  return &g_array_index (loader->temp_threads, TempThread,
                         GPOINTER_TO_UINT (g_hash_table_lookup (loader->thread_map, &key)) - 1);
}

/* Which process each thread id is in: Thread events say, and where a
 * thread had none, the headers of its own records. Every thread a Thread
 * event names becomes a thread of the model, and samples found by thread
 * id go to their thread (those of an unknown thread to the records without
 * one). The map stays with the trace for decoding (_et_trace_attribute_kernel). */
static void
resolve_payload_threads (Loader *loader)
{
  GHashTable *pids = g_steal_pointer (&loader->thread_pids);
  guint n_header = loader->temp_threads->len;
  GHashTableIter iter;
  gpointer key, value, pid;

  g_hash_table_iter_init (&iter, pids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    ensure_thread (loader, GPOINTER_TO_UINT (value), GPOINTER_TO_UINT (key), TRUE);
  for (guint i = 0; i < n_header; i++)
    {
      const TempThread *t = &g_array_index (loader->temp_threads, TempThread, i);

      if (t->has_ids && t->tid != ET_KERNEL_NO_ID && t->pid != ET_KERNEL_NO_ID
          && !g_hash_table_contains (pids, GUINT_TO_POINTER (t->tid)))
        g_hash_table_insert (pids, GUINT_TO_POINTER (t->tid), GUINT_TO_POINTER (t->pid));
    }
  g_hash_table_iter_init (&iter, loader->tid_samples);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gboolean known = g_hash_table_lookup_extended (pids, key, NULL, &pid);
      TempThread *t = known ? ensure_thread (loader, GPOINTER_TO_UINT (pid),
                                             GPOINTER_TO_UINT (key), TRUE)
                            : ensure_thread (loader, 0, 0, FALSE);

      t->n_samples += GPOINTER_TO_SIZE (value);
    }
  loader->self->thread_pids = pids;
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

  /* (a trace of buffers without records has no threads: no qsort of NULL) */
  if (sorted->len > 0)
    qsort (sorted->data, sorted->len, sizeof (TempThread), compare_temp_threads);
  for (guint i = 0; i < sorted->len; i++)
    {
      TempThread *t = &g_array_index (sorted, TempThread, i);
      guint64 key = key_of (t->pid, t->tid, t->has_ids);
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
          EtProcess p = { t->pid, t->has_ids, NULL, NULL, i, 0 };
          name = t->has_ids ? g_hash_table_lookup (loader->process_names, GUINT_TO_POINTER (t->pid))
                            : "Unattributed";
          if (name == NULL)
            g_snprintf (buf, sizeof buf, "Process %u", t->pid);
          p.name = g_string_chunk_insert_const (self->names, name ? name : buf);
          name = t->has_ids ? g_hash_table_lookup (loader->command_lines,
                                                   GUINT_TO_POINTER (t->pid)) : NULL;
          p.command_line = name ? g_string_chunk_insert_const (self->names, name) : NULL;
          g_array_append_val (self->processes, p);
          process = &g_array_index (self->processes, EtProcess, self->processes->len - 1);
        }
      process->n_threads++;
      thread.pid = t->pid;
      thread.tid = t->tid;
      thread.has_ids = t->has_ids;
      thread.process = self->processes->len - 1;
      thread.n_events = t->n_events;
      thread.n_samples = t->n_samples;
      name = t->has_ids ? g_hash_table_lookup (loader->thread_names, &key)
                        : "Records without a thread";
      if (name == NULL && t->has_ids)
        name = g_hash_table_lookup (loader->thread_roles, &key);
      if (name == NULL)
        g_snprintf (buf, sizeof buf, "Thread %u", t->tid);
      thread.name = g_string_chunk_insert_const (self->names, name ? name : buf);
      g_array_append_val (self->threads, thread);
    }
  for (guint i = 0; i < temp->len; i++)
    g_array_index (temp, TempThread, i).final = order[i];
}

guint
_et_loader_thread_of (Loader *loader, ThreadCache *cache, const EtRecord *record)
{
  guint index = cached_thread (loader, cache, thread_key (record)) - 1;

  return g_array_index (loader->temp_threads, TempThread, index).final;
}

/* ETLSCOPE_TIMING=1 prints how long each loading phase took, for profiling
 * and the benchmarks. */
void
_et_loader_phase_done (const char *phase, gint64 *since)
{
  static int enabled = -1;
  /* (a sub-phase, "- name", counts from the phase before; a phase from
   * the phase before it, its sub-phases included) */
  static gint64 cpu_phase = 0, cpu_sub = 0;   /* since the process began */
  gint64 now = g_get_monotonic_time ();

  if (enabled < 0)
    enabled = g_getenv ("ETLSCOPE_TIMING") != NULL;
  if (enabled)
    {
      /* Resident and peak memory from /proc (Linux), and the process's
       * CPU time (the cores a phase used), for the benchmarks. */
      g_autofree char *status = NULL;
      const char *rss, *hwm;
      struct rusage use;
      gint64 cpu;

      getrusage (RUSAGE_SELF, &use);
      cpu = (gint64) (use.ru_utime.tv_sec + use.ru_stime.tv_sec) * G_USEC_PER_SEC
            + use.ru_utime.tv_usec + use.ru_stime.tv_usec;
      g_file_get_contents ("/proc/self/status", &status, NULL, NULL);
      rss = status ? strstr (status, "VmRSS:") : NULL;
      hwm = status ? strstr (status, "VmHWM:") : NULL;
      g_printerr ("etlscope: %-10s %8.1f ms  rss %6ld MB  peak %6ld MB  cpu %8.1f ms\n", phase,
                  (now - *since) / 1000.0, rss ? atol (rss + 6) / 1024 : -1L,
                  hwm ? atol (hwm + 6) / 1024 : -1L,
                  (cpu - (phase[0] == '-' ? cpu_sub : cpu_phase)) / 1000.0);
      cpu_sub = cpu;
      if (phase[0] != '-')
        cpu_phase = cpu;
    }
  *since = now;
}

/* ---- entry point ------------------------------------------------------ */

/* Damage is found in file order while walking and in time order (and on
 * several threads) while decoding: give it back in file order. */
static void
sort_damage (EtTrace *self)
{
  EtDamage *d = (EtDamage *) (gpointer) self->damage->data;

  for (guint i = 1; i < self->damage->len; i++)
    for (guint j = i; j > 0 && d[j - 1].offset > d[j].offset; j--)
      {
        EtDamage t = d[j];
        d[j] = d[j - 1];
        d[j - 1] = t;
      }
}

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
  if (1000000000 % self->ticks_per_second == 0)
    self->ns_per_tick = 1000000000 / self->ticks_per_second;
}



static gboolean
only_regular (const char *path, GError **error)
{
  int fd = et_mapping_open_regular (path, error);

  if (fd < 0)
    return FALSE;
  close (fd);
  return TRUE;
}

static EtTrace *
load (const char *path, EtLoadFlags flags, EtProgressFunc progress,
      gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr(EtTrace) self = NULL;
  g_auto(Loader) loader = { 0 };
  g_auto(EtTraceProgress) told = { 0 };
  gint64 clock = g_get_monotonic_time ();
  gboolean nettrace;

  g_return_val_if_fail (path != NULL, NULL);
  _et_trace_progress_init (&told, progress, progress_data);

  self = g_object_new (ET_TYPE_TRACE, NULL);
  self->path = g_strdup (path);
  /* Only regular files, refused before anything opens them for reading: a
   * FIFO without a writer would block the sniffing for ever. */
  if (!only_regular (path, error))
    return NULL;
  /* Chosen by content: a .nettrace stream is read into .etl-style buffers
   * in memory (et-nettrace-image), and everything after is the same. */
  nettrace = et_nettrace_file_sniff (path);
  if (nettrace)
    self->file = et_nettrace_open (path, on_damage, self, _et_trace_progress_bytes, &told,
                                   cancellable, error);
  else
    self->file = et_etl_file_open (path, on_damage, self, error);
  if (self->file == NULL)
    return NULL;
  self->stats.file_size = et_etl_file_size (self->file);

  loader_init (&loader, self);
  loader.progress = &told;
  /* A .nettrace's opening read it into buffers, told as 90 % of its bytes
   * (et-nettrace-image.c): the walk of those tells the rest. */
  if (nettrace)
    loader.bytes_before = self->stats.file_size * 9 / 10;
  _et_trace_progress_bytes (loader.bytes_before, self->stats.file_size, &told);

  _et_loader_phase_done ("open", &clock);
  if (!walk_buffers (&loader, cancellable, error))
    return NULL;
  et_etl_file_check_shrinking (self->file);
  _et_loader_phase_done ("walk", &clock);
  if (loader.header_seen)
    read_header (self, loader.header_loc);
  else if (!repair_header (self))
    assume_header (self);
  report_missing_buffers (self, self->stats.buffers);
  choose_clock (self);

  /* A first look indexes only the events it makes markers of: the merge
   * stops there. */
  self->n_events = self->stats.records;
  if (flags & ET_LOAD_PREVIEW)
    {
      const char *preview = g_getenv ("ETLSCOPE_PREVIEW_EVENTS");
      guint64 limit = preview ? g_ascii_strtoull (preview, NULL, 10) : ET_PREVIEW_EVENTS;

      if (limit < self->n_events)
        self->n_events = self->stats.preview_events = limit;
    }
  self->events = _et_merge_runs (loader.runs, loader.out_of_order->data, self->n_events);
  /* Their pages go on to the markers (et-trace-markers.c decode_markers). */
  loader.spare = et_spare_pages_new ();
  for (guint r = 0; r < loader.runs->len; r++)
    et_spare_pages_add (loader.spare, &((EtRun *) g_ptr_array_index (loader.runs, r))->mem);
  g_clear_pointer (&loader.runs, g_ptr_array_unref);
  if (self->header.pointer_size == 0 && self->n_events > 0)
    pointer_size_from_records (self);
  _et_trace_check_times (self);
  _et_loader_phase_done ("sort", &clock);

  load_manifests (&loader);
  install_builtin_schemas (self);
  decide_defaults (self);
  _et_loader_trim_spare_pages (&loader, flags);
  resolve_payload_threads (&loader);
  build_threads (&loader);
  _et_loader_phase_done ("manifests", &clock);
  /* The CPU's build hands the stacks each sample it reads; they are kept,
   * with what the walk noted, for the stacks' first use (et-trace-stacks.c). */
  self->stacks_samples = loader.stacks_scan != NULL
                         ? g_array_new (FALSE, FALSE, sizeof (EtSampleRef)) : NULL;
  _et_trace_cpu_build (self, g_steal_pointer (&loader.cpu_locs), self->stacks_samples);
  self->stacks_scan = g_steal_pointer (&loader.stacks_scan);
  self->stacks_scan_free = (GDestroyNotify) _et_stacks_scan_free;
  _et_loader_phase_done ("cpu", &clock);
  if (!_et_loader_build_markers (&loader, flags, cancellable, error))
    return NULL;
  /* A .nettrace's pages are read no more until a record is shown or the
   * stacks are built: they leave the process. */
  if (et_etl_file_image_tables (self->file) != NULL)
    et_image_tables_forget_source (et_etl_file_image_tables (self->file));
  sort_damage (self);
  return g_steal_pointer (&self);
}

EtTrace *
et_trace_load (const char *path, EtLoadFlags flags, EtProgressFunc progress,
               gpointer progress_data, GCancellable *cancellable, GError **error)
{
  EtTrace *trace = load (path, flags, progress, progress_data, cancellable, error);

  /* The messages name the path, which need not be UTF-8. */
  if (trace == NULL && error != NULL)
    et_error_make_valid (*error);
  return trace;
}
