/* et-trace.c — the trace model: accessors, range queries and on-demand
 * decoding of single events.
 *
 * Last stage of the model pipeline (see et-trace.h). Loading lives in
 * et-trace-load.c; this file answers questions about a loaded trace.
 */
#include "et-trace-private.h"
#include "et-image-record.h"
#include "et-stacks.h"

#include <stdlib.h>
#include "et-builtin-rules.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-kernel.h"
#include "et-memory.h"
#include "et-workers.h"
#include "et-time.h"

G_DEFINE_FINAL_TYPE (EtTrace, et_trace, G_TYPE_OBJECT)

typedef struct
{
  const guint8 *bytes;
  gsize         len;
} TlKey;

/* A fingerprint of TraceLogging metadata: its length and words from its
 * start (size, tags, event name), middle and end (the fields), read eight
 * bytes at a time. Equality compares every byte. */
static guint
tl_fingerprint (const guint8 *bytes, gsize len)
{
  guint64 h = 0x9E3779B97F4A7C15u ^ len, w = 0;

  if (len >= 8)
    {
      const gsize at[4] = { 0, MIN (8, len - 8), len / 2 - MIN (len / 2, 4), len - 8 };

      for (guint i = 0; i < G_N_ELEMENTS (at); i++)
        {
          memcpy (&w, bytes + at[i], 8);
          h = (h ^ w) * 0xFF51AFD7ED558CCDu;
          h ^= h >> 32;
        }
    }
  else
    for (gsize i = 0; i < len; i++)
      h = (h ^ bytes[i]) * 0x100000001B3u;
  return (guint) (h ^ (h >> 29));
}

static guint
tl_key_hash (gconstpointer key)
{
  const TlKey *k = key;
  return tl_fingerprint (k->bytes, k->len);
}

static gboolean
tl_key_equal (gconstpointer a, gconstpointer b)
{
  const TlKey *x = a, *y = b;
  return x->len == y->len && memcmp (x->bytes, y->bytes, x->len) == 0;
}

static void
provider_entry_clear (gpointer data)
{
  EtProviderEntry *entry = data;
  g_clear_pointer (&entry->manifest, et_manifest_free);
}

static void
damage_clear (gpointer data)
{
  g_free (((EtDamage *) data)->message);
}

void
_et_block_arrays_init (EtBlockArrays *a)
{
  a->blocks = g_array_new (FALSE, TRUE, sizeof (gint64));
  a->block_summaries = g_array_new (FALSE, TRUE, sizeof (EtBlockSummary));
  a->block_lanes0 = g_array_new (FALSE, FALSE, sizeof (guint32));
  a->lane_runs = g_array_new (FALSE, FALSE, sizeof (EtLaneRun));
  a->stretch_runs0 = g_array_new (FALSE, FALSE, sizeof (guint32));
  a->stretch_runs = g_array_new (FALSE, FALSE, sizeof (EtStretchRun));
  a->loud = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
_et_block_arrays_clear (EtBlockArrays *a)
{
  g_clear_pointer (&a->blocks, g_array_unref);
  g_clear_pointer (&a->block_summaries, g_array_unref);
  g_clear_pointer (&a->block_lanes0, g_array_unref);
  g_clear_pointer (&a->lane_runs, g_array_unref);
  g_clear_pointer (&a->stretch_runs0, g_array_unref);
  g_clear_pointer (&a->stretch_runs, g_array_unref);
  g_clear_pointer (&a->loud, g_array_unref);
}

/* A file from this size on is given back on a thread of its own while
 * the rest of the trace is freed (et_trace_finalize; any size when
 * ETLSCOPE_THREADS asks for more than one). */
#define FREE_BESIDE_MIN (64u << 20)

static gpointer
free_file (gpointer file)
{
  et_etl_file_free (file);
  return NULL;
}

static void
et_trace_finalize (GObject *object)
{
  EtTrace *self = ET_TRACE (object);
  EtEtlFile *file;
  GThread *beside = NULL;

  if (self->derived_free != NULL)
    g_clear_pointer (&self->derived, self->derived_free);
  /* Giving back a large file's pages (its mapping, its decompressed or
   * imaged buffers) takes the kernel as long as all the rest: 2 GB, some
   * 60 ms. Nothing freed below reads the file. */
  file = g_steal_pointer (&self->file);
  if (file != NULL && et_workers_count (et_etl_file_size (file), FREE_BESIDE_MIN) > 1)
    beside = g_thread_try_new ("etlscope-free", free_file, file, NULL);
  if (beside == NULL)
    g_clear_pointer (&file, et_etl_file_free);
  g_free (self->path);
  et_memory_drop_pages (self->markers, self->n_markers * sizeof (EtMarker));
  et_memory_drop_pages (self->events, self->n_events * sizeof (EtEventLoc));
  g_clear_pointer (&self->damage, g_array_unref);
  g_clear_pointer (&self->names, g_string_chunk_free);
  g_clear_pointer (&self->strings, et_strpool_free);
  g_clear_pointer (&self->providers, g_array_unref);
  g_clear_pointer (&self->provider_index, g_hash_table_unref);
  g_clear_pointer (&self->tl_schemas, g_hash_table_unref);
  g_clear_pointer (&self->tl_failed, g_hash_table_unref);
  g_mutex_clear (&self->lock);
  g_rw_lock_clear (&self->schema_lock);
  g_free (self->events);
  g_clear_pointer (&self->processes, g_array_unref);
  g_clear_pointer (&self->thread_pids, g_hash_table_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->channel_at, g_array_unref);
  g_clear_pointer (&self->arrays_at, g_array_unref);
  _et_block_arrays_clear (&self->arrays);
  for (guint c = 0; self->lazy != NULL && c < self->channels->len; c++)
    if (self->lazy[c] != NULL)
      {
        _et_block_arrays_clear (self->lazy[c]);
        g_free (self->lazy[c]);
      }
  g_clear_pointer (&self->lazy, g_free);
  g_clear_pointer (&self->channels, g_array_unref);
  g_mutex_clear (&self->lazy_lock);
  g_clear_pointer (&self->cross_ends, g_array_unref);
  g_clear_pointer (&self->cpu, _et_trace_cpu_free);
  g_clear_pointer (&self->stacks, et_stacks_free);
  g_clear_pointer (&self->stacks_samples, g_array_unref);
  if (self->stacks_scan_free != NULL)
    g_clear_pointer (&self->stacks_scan, self->stacks_scan_free);
  g_mutex_clear (&self->stacks_lock);
  g_clear_pointer (&self->series, g_array_unref);
  et_memory_unmap (self->channel_info, self->channel_info_size);
  g_free (self->thread_info_ready);
  g_free (self->thread_summaries);
  g_mutex_clear (&self->info_lock);
  g_clear_pointer (&self->channel_thread, g_array_unref);
  g_free (self->markers);
  g_clear_pointer (&self->scratch_fields, et_fields_free);
  et_rule_result_clear (&self->scratch_rules);
  g_mutex_clear (&self->scratch_lock);
  if (beside != NULL)
    g_thread_join (beside);
  G_OBJECT_CLASS (et_trace_parent_class)->finalize (object);
}

static void
et_trace_class_init (EtTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = et_trace_finalize;
}

static void
et_trace_init (EtTrace *self)
{
  self->damage = g_array_new (FALSE, TRUE, sizeof (EtDamage));
  g_array_set_clear_func (self->damage, damage_clear);
  self->raw_lo = G_MININT64;
  self->raw_hi = G_MAXINT64;
  self->names = g_string_chunk_new (4096);
  self->strings = et_strpool_new ();
  self->providers = g_array_new (FALSE, TRUE, sizeof (EtProviderEntry));
  g_array_set_clear_func (self->providers, provider_entry_clear);
  self->provider_index = g_hash_table_new_full ((GHashFunc) et_guid_hash,
                                                (GEqualFunc) et_guid_equal, g_free, NULL);
  self->tl_schemas = g_hash_table_new_full (tl_key_hash, tl_key_equal, g_free,
                                            (GDestroyNotify) et_tl_schema_free);
  self->tl_failed = g_hash_table_new_full (tl_key_hash, tl_key_equal, g_free, NULL);
  g_mutex_init (&self->lock);
  g_mutex_init (&self->stacks_lock);
  g_rw_lock_init (&self->schema_lock);
  self->processes = g_array_new (FALSE, TRUE, sizeof (EtProcess));
  self->threads = g_array_new (FALSE, TRUE, sizeof (EtThread));
  self->channels = g_array_new (FALSE, TRUE, sizeof (EtChannel));
  self->channel_at = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->arrays_at = g_array_new (FALSE, FALSE, sizeof (EtArraysAt));
  self->channel_thread = g_array_new (FALSE, TRUE, sizeof (guint32));
  _et_block_arrays_init (&self->arrays);
  g_mutex_init (&self->lazy_lock);
  self->cross_ends = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd));
  self->series = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_mutex_init (&self->info_lock);
  g_mutex_init (&self->scratch_lock);
  self->scratch_fields = et_fields_new ();
  et_rule_result_init (&self->scratch_rules);
}

/* ---- internals shared with loading ------------------------------------ */

void
_et_trace_add_damage (EtTrace *self, guint64 offset, const char *message)
{
  g_mutex_lock (&self->lock);
  self->stats.damage_count++;
  if (self->damage->len < ET_MAX_DAMAGE)
    {
      EtDamage d = { offset, et_message_dup_valid (message) };
      g_array_append_val (self->damage, d);
    }
  g_mutex_unlock (&self->lock);
}

guint
_et_trace_provider_for (EtTrace *self, const EtGuid *guid, const char *name, EtProviderKind kind)
{
  gpointer found = g_hash_table_lookup (self->provider_index, guid);
  EtProviderEntry entry = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  entry.pub.guid = *guid;
  if (name == NULL)
    name = et_known_provider_name (guid);
  entry.pub.name = g_string_chunk_insert_const (self->names, name ? name : "");
  entry.pub.kind = kind;
  g_array_append_val (self->providers, entry);
  g_hash_table_insert (self->provider_index, g_memdup2 (guid, sizeof *guid),
                       GUINT_TO_POINTER (self->providers->len));
  return self->providers->len - 1;
}

void
_et_record_identity (const EtRecord *record, EtGuid *guid, const char **name,
                     EtProviderKind *kind)
{
  *name = NULL;
  switch ((EtRecordClass) record->klass)
    {
    case ET_RECORD_SYSTEM:
    case ET_RECORD_PERFINFO:
      et_kernel_class_for_hook (record->hook, guid, name);
      *kind = ET_PROVIDER_KERNEL;
      return;
    case ET_RECORD_FULL:
    case ET_RECORD_INSTANCE:
      *guid = record->guid;
      *kind = ET_PROVIDER_CLASSIC;
      return;
    case ET_RECORD_EVENT:
      *guid = record->guid;
      *kind = ET_PROVIDER_MANIFEST;
      return;
    case ET_RECORD_MESSAGE:
    case ET_RECORD_ERROR:
      *guid = record->guid;
      *kind = ET_PROVIDER_MESSAGE;
      return;
    }
}

static guint
schema_addr_slot (const guint8 *bytes)
{
  return (guint) ((GPOINTER_TO_SIZE (bytes) >> 3) % ET_SCHEMA_ADDR_CACHE_SIZE);
}

static gboolean
schema_in_way (const EtSchemaCache *cache, guint k, const TlKey *key)
{
  return cache->schema[k] != NULL && cache->len[k] == key->len
         && et_bytes_equal (cache->bytes[k], key->bytes, key->len);
}

/* Puts @schema in way 0 of its set (@k), the one there moving to way 1. */
static void
schema_to_front (EtSchemaCache *cache, guint k, const guint8 *bytes, gsize len,
                 const EtTlSchema *schema)
{
  cache->bytes[k + 1] = cache->bytes[k];
  cache->len[k + 1] = cache->len[k];
  cache->schema[k + 1] = cache->schema[k];
  cache->bytes[k] = bytes;
  cache->len[k] = len;
  cache->schema[k] = schema;
}

static guint
schema_set (const TlKey *key)
{
  return tl_fingerprint (key->bytes, key->len) % (ET_SCHEMA_CACHE_SIZE / 2) * 2;
}

/* (The metadata lives as long as the trace: an address names one blob.) */
static const EtTlSchema *
cached_schema (EtSchemaCache *cache, const TlKey *key)
{
  guint slot = schema_addr_slot (key->bytes), k;
  const EtTlSchema *hit;

  if (cache->addr[slot] == key->bytes && cache->addr_schema[slot] != NULL)
    return cache->addr_schema[slot];
  k = schema_set (key);
  if (schema_in_way (cache, k, key))
    hit = cache->schema[k];
  else if (schema_in_way (cache, k + 1, key))
    {
      hit = cache->schema[k + 1];
      schema_to_front (cache, k, cache->bytes[k + 1], cache->len[k + 1], hit);
    }
  else
    return NULL;
  cache->addr[slot] = key->bytes;
  cache->addr_schema[slot] = hit;
  return hit;
}

static void
cache_schema (EtSchemaCache *cache, const TlKey *key, const EtTlSchema *schema)
{
  guint slot = schema_addr_slot (key->bytes);

  schema_to_front (cache, schema_set (key), key->bytes, key->len, schema);
  cache->addr[slot] = key->bytes;
  cache->addr_schema[slot] = schema;
}

/* The schema of a TraceLogging record, parsed once per distinct metadata
 * blob (the event-class table). Decoding threads share it: lookups take the
 * read lock; the first sight of a blob parses it under the write lock. A
 * blob that does not parse is remembered, so it is reported once. */
const EtTlSchema *
_et_trace_tl_schema (EtTrace *self, const EtRecord *record, guint64 offset, EtSchemaCache *cache)
{
  TlKey key;
  EtTlSchema *schema;
  const EtTlSchema *hit;
  g_autoptr(GError) error = NULL;
  gboolean failed;

  key.bytes = et_record_find_ext (record, ET_EXT_EVENT_SCHEMA_TL, &key.len);
  if (key.bytes == NULL)
    return NULL;
  if (cache != NULL && (hit = cached_schema (cache, &key)) != NULL)
    return hit;
  g_rw_lock_reader_lock (&self->schema_lock);
  schema = g_hash_table_lookup (self->tl_schemas, &key);
  failed = schema == NULL && g_hash_table_contains (self->tl_failed, &key);
  g_rw_lock_reader_unlock (&self->schema_lock);
  if (schema != NULL && cache != NULL)
    cache_schema (cache, &key, schema);
  if (schema != NULL || failed)
    return schema;

  g_rw_lock_writer_lock (&self->schema_lock);
  schema = g_hash_table_lookup (self->tl_schemas, &key);
  if (schema == NULL && !g_hash_table_contains (self->tl_failed, &key))
    {
      /* The key points into the mapped file or the decompressed buffers,
       * which live as long as the trace. */
      schema = et_tl_schema_parse (key.bytes, key.len, &error);
      g_hash_table_insert (schema ? self->tl_schemas : self->tl_failed,
                           g_memdup2 (&key, sizeof key), schema);
    }
  g_rw_lock_writer_unlock (&self->schema_lock);
  if (error != NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT
                                                  ": TraceLogging metadata: %s",
                                                  self->path, offset, error->message);
      _et_trace_add_damage (self, offset, message);
    }
  return schema;
}

guint
_et_loc_buffer (const EtTrace *self, EtEventLoc loc)
{
  return loc / self->slot_stride;
}

static gsize
loc_pos (const EtTrace *self, EtEventLoc loc)
{
  return (gsize) (loc % self->slot_stride) << 3;
}

gboolean
_et_trace_record_at (EtTrace *self, EtEventLoc loc, EtRecord *record)
{
  gsize len, pos = loc_pos (self, loc);
  const guint8 *bytes = et_etl_file_buffer (self->file, _et_loc_buffer (self, loc), &len);
  const char *reason;

  return et_etl_file_parse_record (self->file, bytes, pos, len, record, &reason);
}

void
_et_trace_prefetch_event (EtTrace *self, guint64 index, guint lines)
{
  EtEventLoc loc = self->events[index];
  gsize len;
  const guint8 *record = et_etl_file_buffer (self->file, _et_loc_buffer (self, loc), &len)
                         + loc_pos (self, loc);

  for (guint k = 0; k < lines; k++)
    __builtin_prefetch (record + 64 * k);
}

gboolean
_et_trace_payloads_far (EtTrace *self)
{
  EtImageTables *tables = et_etl_file_image_tables (self->file);

  return tables != NULL && tables->source != NULL && tables->far_payloads;
}

void
_et_trace_prefetch_payload (EtTrace *self, guint64 index)
{
  EtImageTables *tables = et_etl_file_image_tables (self->file);
  EtEventLoc loc = self->events[index];
  gsize len;
  const guint8 *bytes, *end;

  if (tables == NULL)
    return;
  bytes = et_etl_file_buffer (self->file, _et_loc_buffer (self, loc), &len);
  end = et_image_record_payload_end (bytes, loc_pos (self, loc), len, tables);
  if (end != NULL)
    __builtin_prefetch (end);
}

guint64
_et_trace_offset_of (EtTrace *self, EtEventLoc loc)
{
  return et_etl_file_offset_of (self->file, _et_loc_buffer (self, loc), loc_pos (self, loc));
}

gint64
_et_trace_raw_to_ns (EtTrace *self, gint64 raw)
{
  __int128 delta;
  __int128 ns;
  gint64 small;

  raw = et_time_clamp (raw, self->raw_lo, self->raw_hi);
  delta = (__int128) raw - self->stats.t0_raw;

  /* Sane timestamps take one 64-bit multiply. */
  if (self->ns_per_tick != 0 && !__builtin_sub_overflow (raw, self->stats.t0_raw, &small)
      && !__builtin_mul_overflow (small, self->ns_per_tick, &small))
    return small;
  if (self->ns_per_tick != 0)     /* a multiply (the 128 bits cannot overflow) */
    ns = delta * self->ns_per_tick;
  else
    ns = delta * 1000000000 / self->ticks_per_second;

  /* Garbage timestamps must saturate, not wrap: events are in raw order,
   * and markers must stay in the same order in nanoseconds. */
  return (gint64) CLAMP (ns, (__int128) G_MININT64, (__int128) G_MAXINT64);
}

/* "Event 12", "Task 3": names for what no schema names. */
static const char *
numbered_name (EtTrace *self, const char *word, guint value)
{
  char buf[64];
  const char *name;

  g_snprintf (buf, sizeof buf, "%s %u", word, value);
  g_mutex_lock (&self->lock);
  name = g_string_chunk_insert_const (self->names, buf);
  g_mutex_unlock (&self->lock);
  return name;
}

/* An EventSource manifest event (etl-format.md §9): the chunk envelope and
 * the XML it carries, named as EventSource names it. */
static gboolean
decode_manifest_chunk (const EtRecord *record, EtEvent *event, EtFields *fields)
{
  static const char *const names[] = { "Format", "MajorVersion", "MinorVersion", "Magic" };
  const guint8 *p = record->payload;

  if (record->klass != ET_RECORD_EVENT || record->id != 0xFFFE || record->opcode != 0xFE
      || record->payload_len < 8)
    return FALSE;
  event->name = "ManifestData";
  /* Declared as EventSource declares them (TDH in-types: UInt8 4,
   * UInt16 6, AnsiString 2), for events --format=jsonl's field_types. */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    et_fields_entry (fields, et_fields_add_uint (fields, names[i], p[i]))->in_type = 4;
  et_fields_entry (fields, et_fields_add_uint (fields, "TotalChunks", et_read_u16 (p + 4)))->in_type = 6;
  et_fields_entry (fields, et_fields_add_uint (fields, "ChunkNumber", et_read_u16 (p + 6)))->in_type = 6;
  et_fields_entry (fields, et_fields_add_string (fields, "Data", (const char *) p + 8,
                                                 record->payload_len - 8))->in_type = 2;
  return TRUE;
}

static gboolean
decode_fields (EtTrace *self, const EtRecord *record, const EtProviderEntry *p,
               EtSchemaCache *cache, EtEvent *event, EtFields *fields, GError **error)
{
  gsize consumed = 0;

  if (decode_manifest_chunk (record, event, fields))
    return TRUE;

  if (p->manifest != NULL)
    {
      /* Kernel and classic records are keyed by their event type
       * (event->id, set from the opcode). */
      const EtManifestEvent *me = et_manifest_lookup (p->manifest, event->id, record->version);

      if (me == NULL)
        {
          event->task_name = et_manifest_task_name (p->manifest, record->task);
          event->opcode_name = et_manifest_opcode_name (p->manifest, record->task,
                                                        record->opcode);
        }
      else
        {
          event->name = me->name;
          event->message = me->message;
          event->task_name = me->task_name;
          event->opcode_name = me->opcode_name;
          return et_manifest_decode (p->manifest, me, record->payload, record->payload_len,
                                     record->pointer_size, fields, &consumed, error);
        }
    }
  else if (record->klass == ET_RECORD_EVENT)
    {
      const EtTlSchema *schema = _et_trace_tl_schema (self, record, event->file_offset, cache);

      if (schema != NULL)
        {
          event->name = et_tl_schema_event_name (schema);
          return et_tl_decode (schema, record->payload, record->payload_len, fields,
                               &consumed, error);
        }
      if (record->flags & 0x0004)   /* STRING_ONLY: one UTF-16 string */
        {
          et_fields_add_utf16 (fields, "message", record->payload, record->payload_len / 2);
          return TRUE;
        }
      if (record->ext_damage != NULL)
        {
          /* Reported where the walk found it; here: what it cost. */
          if (record->payload_len > 0)
            et_fields_add_bytes (fields, "payload", ET_VALUE_BINARY, record->payload,
                                 record->payload_len);
          g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                       "the extended data items are damaged (%s): TraceLogging metadata "
                       "they held is lost, the payload is shown raw", record->ext_damage);
          return FALSE;
        }
    }
  if (record->payload_len > 0)
    et_fields_add_bytes (fields, "payload", ET_VALUE_BINARY, record->payload, record->payload_len);
  return TRUE;
}

/* The schema decode_fields would decode @record with, when it has a fixed
 * or a walk layout, with the event and task names the rules would be given (the
 * same as _et_trace_decode_record's, for every record this accepts). */
gboolean
_et_trace_fixed_layout (EtTrace *self, const EtRecord *record, guint provider, guint64 offset,
                        EtSchemaCache *cache, EtFixedSchema *out)
{
  const EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, provider);

  /* Manifest chunks are decoded as such (decode_manifest_chunk). */
  if (record->klass != ET_RECORD_EVENT || (record->id == 0xFFFE && record->opcode == 0xFE))
    return FALSE;
  if (p->manifest != NULL)
    {
      const EtManifestEvent *me = et_manifest_lookup (p->manifest, record->id, record->version);

      if (me == NULL)
        return FALSE;
      out->layout = et_manifest_event_fixed_layout (me);
      out->walk = out->layout == NULL ? et_manifest_event_walk_layout (me) : NULL;
      out->event_name = me->name;
      out->task_name = me->task_name;
      return out->layout != NULL || out->walk != NULL;
    }
  else
    {
      const EtTlSchema *schema;

      /* Such a provider's tasks get numbered names. */
      if (p->pub.kind != ET_PROVIDER_TRACELOGGING && record->task != 0)
        return FALSE;
      schema = _et_trace_tl_schema (self, record, offset, cache);
      if (schema == NULL)
        return FALSE;
      out->layout = et_tl_schema_fixed_layout (schema);
      out->walk = out->layout == NULL ? et_tl_schema_walk_layout (schema) : NULL;
      out->event_name = et_tl_schema_event_name (schema);
      out->task_name = NULL;
      return out->layout != NULL || out->walk != NULL;
    }
}

/* Copied in to clear an event: a memset of its size compiles to a string
 * store, slow to start, and this clears one per decoded event. */
static const EtEvent no_event;

gboolean
_et_trace_decode_record (EtTrace *self, const EtRecord *record, guint provider,
                         guint64 offset, EtSchemaCache *cache, EtEvent *event, EtFields *fields,
                         GError **error)
{
  const EtProviderEntry *p = &g_array_index (self->providers, EtProviderEntry, provider);
  gsize rel_len = 0;
  const guint8 *rel;
  gboolean ok;

  et_fields_clear (fields);
  *event = no_event;
  event->raw_time = record->ts;
  event->time_ns = _et_trace_raw_to_ns (self, record->ts);
  event->pid = record->pid;
  event->tid = record->tid;
  event->has_ids = record->has_ids;
  event->provider = (guint16) provider;
  event->id = record->klass == ET_RECORD_EVENT || record->klass == ET_RECORD_MESSAGE
              ? record->id : record->opcode;
  event->version = record->version;
  event->channel = record->channel;
  event->level = record->level;
  event->opcode = record->opcode;
  event->task = record->task;
  event->keywords = record->keywords;
  event->activity_id = record->activity_id;
  event->header_kind = et_record_header_name (record);
  event->file_offset = offset;
  rel = et_record_find_ext (record, ET_EXT_RELATED_ACTIVITYID, &rel_len);
  if (rel != NULL && rel_len >= 16)
    {
      et_guid_from_bytes (&event->related_activity_id, rel);
      event->has_related_activity_id = TRUE;
    }

  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    _et_trace_attribute_kernel (self, record, event);
  ok = decode_fields (self, record, p, cache, event, fields, error);
  event->decode_failed = !ok;
  if (event->name == NULL && (record->klass == ET_RECORD_SYSTEM
                              || record->klass == ET_RECORD_PERFINFO))
    event->name = et_kernel_event_name (record->hook);
  if (event->name == NULL)
    event->name = numbered_name (self, "Event", event->id);
  if (event->task_name == NULL && record->klass == ET_RECORD_EVENT && record->task != 0
      && p->manifest == NULL && p->pub.kind != ET_PROVIDER_TRACELOGGING)
    event->task_name = numbered_name (self, "Task", record->task);
  if (event->task_name == NULL && (record->klass == ET_RECORD_SYSTEM
                                   || record->klass == ET_RECORD_PERFINFO))
    event->task_name = p->pub.name[0] ? p->pub.name : NULL;
  return ok;
}

/* ---- public API ------------------------------------------------------- */

const char *
et_trace_get_path (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  return self->path;
}

const EtLogfileHeader *
et_trace_get_header (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  return &self->header;
}

const EtTraceStats *
et_trace_get_stats (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  return &self->stats;
}

gboolean
et_trace_is_nettrace (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), FALSE);
  return self->file != NULL && et_etl_file_image_tables (self->file) != NULL;
}

const EtDamage *
et_trace_get_damage (EtTrace *self, guint *n_damage)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  *n_damage = self->damage->len;
  return (const EtDamage *) (gpointer) self->damage->data;
}

gint64
et_trace_get_duration_ns (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->n_events ? _et_trace_raw_to_ns (self, self->stats.last_raw) : 0;
}

gint64
et_trace_raw_to_ns (EtTrace *self, gint64 raw)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return _et_trace_raw_to_ns (self, raw);
}

gint64
et_trace_ns_to_filetime (EtTrace *self, gint64 t_ns)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return et_time_add (self->header.start_time, t_ns / 100);
}

guint
et_trace_get_n_providers (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->providers->len;
}

const EtProvider *
et_trace_get_provider (EtTrace *self, guint index)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->providers->len, NULL);
  return &g_array_index (self->providers, EtProviderEntry, index).pub;
}

guint
et_trace_get_n_processes (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->processes->len;
}

const EtProcess *
et_trace_get_process (EtTrace *self, guint index)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);
  return &g_array_index (self->processes, EtProcess, index);
}

guint
et_trace_get_n_threads (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->threads->len;
}

const EtThread *
et_trace_get_thread (EtTrace *self, guint index)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->threads->len, NULL);
  return &g_array_index (self->threads, EtThread, index);
}

void
et_thread_label (const EtThread *thread, GString *out)
{
  char plain[32];

  g_snprintf (plain, sizeof plain, "Thread %u", thread->tid);
  g_string_append (out, thread->name);
  if (thread->has_ids && strcmp (thread->name, plain) != 0)
    g_string_append_printf (out, " (%u)", thread->tid);
}

guint
et_trace_get_n_channels (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->channels->len;
}

const EtChannel *
et_trace_get_channel (EtTrace *self, guint index)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->channels->len, NULL);
  return &g_array_index (self->channels, EtChannel, index);
}

const guint32 *
et_trace_get_series (EtTrace *self, guint *n)
{
  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  *n = self->series->len;
  return (const guint32 *) (gconstpointer) self->series->data;
}

guint
et_trace_channel_lanes (EtTrace *self, guint channel)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 1);
  g_return_val_if_fail (channel < self->channels->len, 1);
  return _et_trace_channel_info (self, channel)->lanes;
}

EtChannelSummary
et_trace_channel_summary (EtTrace *self, guint channel)
{
  EtChannelSummary none = { G_MAXINT64, G_MININT64, 0 };
  const EtChannelInfo *info;

  g_return_val_if_fail (ET_IS_TRACE (self), none);
  g_return_val_if_fail (channel < self->channels->len, none);
  info = _et_trace_channel_info (self, channel);
  return (EtChannelSummary) { info->first_ns, info->last_ns, info->deepest };
}

guint64
et_trace_channel_depth_mask (EtTrace *self, guint channel)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  g_return_val_if_fail (channel < self->channels->len, 0);
  return _et_trace_channel_info (self, channel)->depths;
}

EtThreadSummary
et_trace_thread_summary (EtTrace *self, guint thread)
{
  EtThreadSummary none = { G_MAXINT64, G_MININT64, 0, 0, 0 };

  g_return_val_if_fail (ET_IS_TRACE (self), none);
  g_return_val_if_fail (thread < self->threads->len, none);
  return thread < self->n_thread_summaries ? self->thread_summaries[thread] : none;
}

gboolean
et_trace_has_category (EtTrace *self, gint category)
{
  g_return_val_if_fail (ET_IS_TRACE (self), FALSE);
  if (category < -1 || category > 255)
    return FALSE;
  return (self->categories[(category + 1) / 64] >> ((category + 1) % 64)) & 1;
}

guint
et_trace_channel_thread (EtTrace *self, guint channel)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  g_return_val_if_fail (channel < self->channel_thread->len, 0);
  return g_array_index (self->channel_thread, guint32, channel);
}

const char *
et_trace_get_string (EtTrace *self, guint32 id)
{
  g_return_val_if_fail (ET_IS_TRACE (self), "");
  return et_strpool_get (self->strings, id);
}

const EtBlockArrays *
_et_trace_block_arrays (EtTrace *self, guint channel, EtArraysAt *at, guint *n_loud)
{
  guint32 shared = g_array_index (self->channel_at, guint32, channel);
  EtBlockArrays *lazy;

  if (shared != ET_NO_INDEX)
    {
      const EtArraysAt *here = &g_array_index (self->arrays_at, EtArraysAt, shared);

      *at = here[0];
      if (n_loud != NULL)
        *n_loud = here[1].loud0 - here[0].loud0;
      return &self->arrays;
    }
  /* A small channel's, built by the first to ask (drawing threads ask at
   * once), read by the others once published. */
  lazy = g_atomic_pointer_get (&self->lazy[channel]);
  if (lazy == NULL)
    {
      g_mutex_lock (&self->lazy_lock);
      lazy = self->lazy[channel];
      if (lazy == NULL)
        {
          lazy = g_new0 (EtBlockArrays, 1);
          _et_block_arrays_init (lazy);
          _et_channel_build_blocks (self, channel, lazy);
          g_array_append_val (lazy->block_lanes0, lazy->lane_runs->len);
          g_array_append_val (lazy->stretch_runs0, lazy->stretch_runs->len);
          g_atomic_pointer_set (&self->lazy[channel], lazy);
        }
      g_mutex_unlock (&self->lazy_lock);
    }
  *at = (EtArraysAt) { 0, 0, 0 };
  if (n_loud != NULL)
    *n_loud = lazy->loud->len;
  return lazy;
}

guint
_et_trace_n_built_block_arrays (EtTrace *self)
{
  guint n = 0;

  for (guint c = 0; self->lazy != NULL && c < self->channels->len; c++)
    n += g_atomic_pointer_get (&self->lazy[c]) != NULL;
  return n;
}

const EtBlockSummary *
et_channel_block_summaries (EtTrace *self, guint channel)
{
  const EtBlockArrays *a;
  EtArraysAt at;

  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (channel < self->channels->len, NULL);

  a = _et_trace_block_arrays (self, channel, &at, NULL);
  return &g_array_index (a->block_summaries, EtBlockSummary, at.block0);
}

const guint32 *
et_channel_lane_runs (EtTrace *self, guint channel, const EtLaneRun **runs)
{
  const EtBlockArrays *a;
  EtArraysAt at;

  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (channel < self->channels->len, NULL);
  g_return_val_if_fail (runs != NULL, NULL);

  a = _et_trace_block_arrays (self, channel, &at, NULL);
  *runs = (const EtLaneRun *) (gpointer) a->lane_runs->data;
  return &g_array_index (a->block_lanes0, guint32, at.block0);
}

const guint32 *
et_channel_stretch_runs (EtTrace *self, guint channel, const EtStretchRun **runs)
{
  const EtBlockArrays *a;
  EtArraysAt at;

  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (channel < self->channels->len, NULL);
  g_return_val_if_fail (runs != NULL, NULL);

  a = _et_trace_block_arrays (self, channel, &at, NULL);
  *runs = (const EtStretchRun *) (gpointer) a->stretch_runs->data;
  return &g_array_index (a->stretch_runs0, guint32, at.stretch0);
}

guint
et_trace_marker_channel (EtTrace *self, const EtMarker *m)
{
  guint lo = 0, hi;

  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  g_return_val_if_fail (m >= self->markers && m < self->markers + self->n_markers, 0);

  /* The last channel starting at or before m: channels lie in order. */
  hi = self->channels->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (self->channels, EtChannel, mid).markers <= m)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint32
et_trace_marker_series (EtTrace *self, const EtMarker *m)
{
  return g_array_index (self->channels, EtChannel, et_trace_marker_channel (self, m)).series;
}

int
_et_compare_cross_ends (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const EtCrossEnd *) a)->marker, y = ((const EtCrossEnd *) b)->marker;
  return x < y ? -1 : x > y;
}

guint32
et_trace_marker_end_thread (EtTrace *self, const EtMarker *m)
{
  EtCrossEnd key;
  const EtCrossEnd *found;

  g_return_val_if_fail (ET_IS_TRACE (self), ET_NO_INDEX);
  g_return_val_if_fail (m >= self->markers && m < self->markers + self->n_markers, ET_NO_INDEX);

  if (self->cross_ends->len == 0)
    return ET_NO_INDEX;
  key.marker = (guint32) (m - self->markers);
  found = bsearch (&key, self->cross_ends->data, self->cross_ends->len, sizeof (EtCrossEnd),
                   _et_compare_cross_ends);
  return found != NULL ? found->thread : ET_NO_INDEX;
}

const guint32 *
et_channel_loud_markers (EtTrace *self, guint channel, guint *n)
{
  const EtBlockArrays *a;
  EtArraysAt at;

  g_return_val_if_fail (ET_IS_TRACE (self), NULL);
  g_return_val_if_fail (channel < self->channels->len, NULL);
  g_return_val_if_fail (n != NULL, NULL);

  a = _et_trace_block_arrays (self, channel, &at, n);
  return (const guint32 *) (gpointer) a->loud->data + at.loud0;
}

guint
et_channel_query (EtTrace *self, guint channel, gint64 from_ns, gint64 to_ns, guint *end)
{
  const EtChannel *c;
  const gint64 *blocks;
  gint64 reach;
  guint n_blocks, lo, hi;

  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  g_return_val_if_fail (channel < self->channels->len, 0);

  c = &g_array_index (self->channels, EtChannel, channel);
  n_blocks = (c->n_markers + (1u << ET_BLOCK_SHIFT) - 1) >> ET_BLOCK_SHIFT;
  if (_et_channel_is_lazy (c->n_markers))
    {
      /* One block, whose arrays are not built for a query: its running end
       * is its markers' latest end. */
      reach = G_MININT64;
      for (guint i = 0; i < c->n_markers; i++)
        reach = MAX (reach, c->markers[i].end_ns);
      blocks = &reach;
    }
  else
    blocks = &g_array_index (self->arrays.blocks, gint64,
                             g_array_index (self->arrays_at, EtArraysAt,
                                            g_array_index (self->channel_at, guint32, channel)).block0);

  /* First block whose running maximum end reaches the range: every marker
   * before it ends before from_ns. */
  lo = 0, hi = n_blocks;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (blocks[mid] < from_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  lo <<= ET_BLOCK_SHIFT;
  lo = MIN (lo, c->n_markers);

  /* First marker that starts after to_ns. */
  {
    guint a = lo, b = c->n_markers;
    while (a < b)
      {
        guint mid = a + (b - a) / 2;
        if (c->markers[mid].start_ns <= to_ns)
          a = mid + 1;
        else
          b = mid;
      }
    *end = a;
  }
  return lo;
}

guint64
et_trace_get_n_events (EtTrace *self)
{
  g_return_val_if_fail (ET_IS_TRACE (self), 0);
  return self->n_events;
}

static gboolean
record_gone (EtTrace *self, EtEventLoc loc, EtEvent *event, EtFields *fields, GError **error)
{
  et_fields_clear (fields);
  memset (event, 0, sizeof *event);
  event->file_offset = _et_trace_offset_of (self, loc);
  event->name = "";
  event->header_kind = "UNKNOWN";
  event->decode_failed = TRUE;
  g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED, "%s: byte offset %"
               G_GUINT64_FORMAT ": the record can no longer be read: the file shrank after "
               "it was loaded", self->path, event->file_offset);
  return FALSE;
}

gboolean
_et_trace_decode_event (EtTrace *self, guint64 index, EtSchemaCache *cache, EtEvent *event,
                        EtFields *fields, GError **error)
{
  EtEventLoc loc = self->events[index];
  EtRecord record;
  EtGuid guid;
  const char *name;
  EtProviderKind kind;
  gboolean ok;

  /* The record parsed while loading; if it does not now, the file shrank
   * since and its pages read as zeros (et-mapping.h). */
  if (!_et_trace_record_at (self, loc, &record))
    return record_gone (self, loc, event, fields, error);
  _et_record_identity (&record, &guid, &name, &kind);
  ok = _et_trace_decode_record (self, &record,
                                GPOINTER_TO_UINT (g_hash_table_lookup (self->provider_index,
                                                                       &guid)) - 1,
                                _et_trace_offset_of (self, loc), cache, event, fields, error);
  event->cpu = et_etl_file_buffer_info (self->file, _et_loc_buffer (self, loc))->cpu;
  if (et_trace_is_nettrace (self))
    {
      /* (its record is the image's, the header the file's own) */
      event->header_kind = "EVENTPIPE";
      if (event->cpu == ET_IMAGE_CPU_UNKNOWN)
        event->cpu = ET_CPU_UNKNOWN;
    }
  return ok;
}

void
et_trace_explain_marker (EtTrace *self, const EtEvent *event, const EtFields *fields,
                         EtRuleResult *result)
{
  EtRuleInput input = {
    .level = event->level,
    .opcode = event->opcode,
    .event_name = event->name,
    .task_name = event->task_name,
    .message = event->message,
    .fields = fields,
  };

  g_return_if_fail (ET_IS_TRACE (self));
  if (event->provider < self->providers->len
      && g_array_index (self->providers, EtProviderEntry, event->provider).builtin_rules
      && et_builtin_rules_apply (event->id, &input, result))
    return;
  et_marker_rules_apply (&input, result);
}

const char *
et_marker_kind_to_string (EtMarkerKind kind)
{
  switch (kind)
    {
    case ET_MARKER_FLAG:    return "flag";
    case ET_MARKER_MESSAGE: return "message";
    case ET_MARKER_SPAN:    return "span";
    default:                return "unknown";
    }
}

const char *
et_provider_kind_to_string (EtProviderKind kind)
{
  switch (kind)
    {
    case ET_PROVIDER_KERNEL:       return "kernel";
    case ET_PROVIDER_CLASSIC:      return "classic";
    case ET_PROVIDER_MANIFEST:     return "manifest";
    case ET_PROVIDER_EVENTSOURCE:  return "eventsource";
    case ET_PROVIDER_TRACELOGGING: return "tracelogging";
    case ET_PROVIDER_CV_MARKERS:   return "cv-markers";
    case ET_PROVIDER_MESSAGE:      return "message";
    default:                       return "unknown";
    }
}

/* Decoding a kernel record reads the thread → process map that loading
 * made (resolve_payload_threads in load/et-trace-load.c) and left with the
 * trace. */
void
_et_trace_attribute_kernel (EtTrace *self, const EtRecord *record, EtEvent *event)
{
  guint32 pid, tid;
  gpointer found;

  if (et_kernel_ids (record, &pid, &tid) == ET_KERNEL_IDS_HEADER)
    return;
  if (pid == ET_KERNEL_NO_ID && tid != ET_KERNEL_NO_ID && self->thread_pids != NULL
      && g_hash_table_lookup_extended (self->thread_pids, GUINT_TO_POINTER (tid), NULL, &found))
    pid = GPOINTER_TO_UINT (found);
  event->has_ids = pid != ET_KERNEL_NO_ID || tid != ET_KERNEL_NO_ID;
  event->pid = event->has_ids ? pid : 0;
  event->tid = event->has_ids ? tid : 0;
}
