/* et-nettrace-reader.c — the EventPipe stream (see et-nettrace-reader.h).
 *
 * The stream is a list of FastSerialization objects: each opens with two
 * BeginPrivateObject tags, a NullReference (the type's type), the type's
 * version, minimum reader version and name, an EndObject tag; then its
 * payload and an EndObject tag. Block objects give their payload size and
 * pad to a 4-byte file offset first (et-nettrace-framing.c checks where
 * each begins and ends). A NullReference as the file's last byte ends the
 * stream; one with bytes after it is damage, and reading goes on at the
 * next object.
 */
#include "et-nettrace-private.h"
#include "et-error.h"

#include <string.h>

#define TAG_NULL_REFERENCE 1
#define TAG_END_OBJECT     6
#define SERIALIZATION_ID   "!FastSerialization.1"
#define FLAG_HEADER_COMPRESSION 1

/* The previous event header of a block: compressed headers only say what
 * changed. */
typedef struct
{
  guint32 metadata_id;
  guint32 sequence;
  guint64 capture_thread_id;
  guint32 processor;
  guint64 thread_id;
  guint32 stack_id;
  gint64  timestamp;
  EtGuid  activity_id;
  EtGuid  related_activity_id;
  guint32 payload_size;
} HeaderState;

typedef struct
{
  const char                *path;
  const guint8              *data;
  gsize                      len;
  const EtNettraceCallbacks *cb;
  EtNettraceInfo            *info;
  EtNettraceStats           *stats;
  GHashTable                *metadata;      /* id → EtNettraceMeta* */
  GHashTable                *sequences;     /* capture thread → guint32*: last sequence + 1 */
  /* Direct-mapped caches in front of both (by id, by capture thread):
   * two lookups and an insert per event were a third of reading. */
  const EtNettraceMeta      *meta_cache[256];
  struct
  {
    guint64  thread;
    guint32 *next;                          /* NULL: empty */
  } seq_cache[64];
  /* The stacks of the StackBlocks since the last sequence point (where
   * the writer starts its ids again), by id: an event names its stack by
   * id, in a block before its own. */
  GHashTable                *stacks;        /* id → StackRef* */
} Stream;

typedef struct
{
  const guint8 *bytes;
  guint32       len;
} StackRef;

static void
damage (Stream *s, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
damage (Stream *s, guint64 offset, const char *format, ...)
{
  g_autofree char *what = NULL;
  g_autofree char *message = NULL;
  va_list args;

  if (s->cb->damage == NULL)
    return;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s", s->path, offset, what);
  s->cb->damage (offset, message, s->cb->damage_data);
}

gboolean
et_nettrace_sniff (const guint8 *data, gsize len)
{
  return len >= ET_NETTRACE_MAGIC_LEN && memcmp (data, ET_NETTRACE_MAGIC, ET_NETTRACE_MAGIC_LEN) == 0;
}

static void
meta_free (gpointer data)
{
  et_nettrace_meta_clear (data);
  g_free (data);
}

/* ---- primitives ------------------------------------------------------- */

/* A LEB128 number of at most @max_bits; the reader fails on a longer one. */
static guint64
read_varuint (EtReader *r, guint max_bits)
{
  guint64 value = 0;

  for (guint shift = 0; shift < max_bits; shift += 7)
    {
      guint8 b = et_reader_u8 (r);

      value |= (guint64) (b & 0x7F) << shift;
      if ((b & 0x80) == 0 || r->failed)
        return value;
    }
  r->failed = TRUE;
  return 0;
}

/* ---- event headers ---------------------------------------------------- */

static void
read_guid (EtReader *r, EtGuid *guid)
{
  const guint8 *p = et_reader_take (r, 16);

  if (p != NULL)
    et_guid_from_bytes (guid, p);
}

static void
read_uncompressed (EtReader *r, HeaderState *h, EtNettraceEvent *e, gsize *end)
{
  gsize start = r->pos;
  guint32 event_size = et_reader_u32 (r);
  guint32 id = et_reader_u32 (r);

  h->metadata_id = id & 0x7FFFFFFF;
  e->sorted = (id & 0x80000000u) != 0;
  h->sequence = et_reader_u32 (r);
  h->thread_id = et_reader_u64 (r);
  h->capture_thread_id = et_reader_u64 (r);
  h->processor = et_reader_u32 (r);
  h->stack_id = et_reader_u32 (r);
  h->timestamp = (gint64) et_reader_u64 (r);
  read_guid (r, &h->activity_id);
  read_guid (r, &h->related_activity_id);
  h->payload_size = et_reader_u32 (r);
  /* EventSize may take in padding to a 4-byte offset after the payload. */
  *end = MAX (start + 4 + (gsize) event_size, r->pos + (gsize) h->payload_size);
}

static void
read_compressed (EtReader *r, HeaderState *h, EtNettraceEvent *e)
{
  guint8 flags = et_reader_u8 (r);
  guint64 delta;

  if (flags & 0x01)
    h->metadata_id = (guint32) read_varuint (r, 32);
  if (flags & 0x02)
    {
      h->sequence += (guint32) read_varuint (r, 32) + 1;
      h->capture_thread_id = read_varuint (r, 64);
      h->processor = (guint32) read_varuint (r, 32);
    }
  else if (h->metadata_id != 0)
    h->sequence++;
  if (flags & 0x04)
    h->thread_id = read_varuint (r, 64);
  if (flags & 0x08)
    h->stack_id = (guint32) read_varuint (r, 32);
  /* The delta is two's complement: an event of another thread may be
   * earlier than the one before it. Summed as unsigned numbers, so that a
   * damaged one wraps instead of overflowing; the loader's time check
   * reports a time no recording can have. */
  delta = read_varuint (r, 64);
  h->timestamp = (gint64) ((guint64) h->timestamp + delta);
  if (flags & 0x10)
    read_guid (r, &h->activity_id);
  if (flags & 0x20)
    read_guid (r, &h->related_activity_id);
  e->sorted = (flags & 0x40) != 0;
  if (flags & 0x80)
    h->payload_size = (guint32) read_varuint (r, 32);
}

/* Reads the header at r->pos into @e; the payload follows and the next
 * header starts at *next. FALSE when the event does not fit. */
static gboolean
read_event_header (EtReader *r, gboolean compressed, HeaderState *h, EtNettraceEvent *e,
                   gsize *next)
{
  gsize end = 0;

  if (compressed)
    read_compressed (r, h, e);
  else
    read_uncompressed (r, h, e, &end);
  if (r->failed || h->payload_size > et_reader_remaining (r))
    return FALSE;
  e->metadata_id = h->metadata_id;
  e->sequence = h->sequence;
  e->thread_id = h->thread_id;
  e->capture_thread_id = h->capture_thread_id;
  e->processor = h->processor;
  e->stack_id = h->stack_id;
  e->timestamp = h->timestamp;
  e->activity_id = h->activity_id;
  e->related_activity_id = h->related_activity_id;
  e->payload = r->data + r->pos;
  e->payload_len = h->payload_size;
  *next = MAX (r->pos + h->payload_size, end);
  return *next <= r->len;
}

/* ---- sequence numbers ------------------------------------------------- */

/* Each capture thread numbers its events 1, 2, …: a gap is events lost. A
 * restart at 1 is a new thread with a reused id, not a loss. */
/* The next sequence of a capture thread (0: none seen yet). */
static guint32 *
sequence_of (Stream *s, guint64 thread)
{
  guint slot = (guint) ((thread * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 58);
  gpointer key = GSIZE_TO_POINTER ((gsize) thread);
  guint32 *next;

  if (s->seq_cache[slot].next != NULL && s->seq_cache[slot].thread == thread)
    return s->seq_cache[slot].next;
  next = g_hash_table_lookup (s->sequences, key);
  if (next == NULL)
    {
      next = g_new0 (guint32, 1);
      g_hash_table_insert (s->sequences, key, next);
    }
  s->seq_cache[slot].thread = thread;
  s->seq_cache[slot].next = next;
  return next;
}

static void
check_sequence (Stream *s, guint64 thread, guint32 sequence, gboolean lower_bound)
{
  guint32 *next = sequence_of (s, thread);
  guint32 expected = *next;

  if (expected != 0 && sequence > expected && (lower_bound || sequence != 1))
    s->stats->events_lost += sequence - expected + (lower_bound ? 1 : 0);
  if (!lower_bound || sequence >= expected)
    *next = sequence + 1;
}

/* ---- blocks ----------------------------------------------------------- */

static void
take_metadata (Stream *s, const EtNettraceEvent *e)
{
  EtNettraceMeta *meta = g_new0 (EtNettraceMeta, 1);
  guint64 offset = (guint64) (e->payload - s->data);

  gsize bad_at = 0;
  EtNtMetaStatus status = _et_nettrace_parse_metadata (e->payload, e->payload_len, offset,
                                                       meta, &bad_at);

  if (status == ET_NT_META_TAGGED || status == ET_NT_META_BAD_TAGS || meta->has_opcode)
    s->info->v5_metadata = TRUE;
  if (status == ET_NT_META_BAD_TAGS)
    damage (s, offset + bad_at, "metadata %u (%s): its tags run past its end", meta->id,
            meta->provider);
  if (status == ET_NT_META_BAD_FIELDS && meta->id != 0)
    damage (s, offset + bad_at, "metadata %u (%s/%s): a field description is cut short or "
            "of an unknown type; its events keep their name and the fields before it",
            meta->id, meta->provider, meta->name);
  if (status == ET_NT_META_BAD || meta->id == 0)
    {
      damage (s, offset, "a metadata record of %" G_GSIZE_FORMAT " bytes does not read; "
              "the events it describes will be skipped", e->payload_len);
      meta_free (meta);
      return;
    }
  if (s->cb->metadata != NULL)
    s->cb->metadata (meta, s->cb->user_data);
  s->meta_cache[meta->id % G_N_ELEMENTS (s->meta_cache)] = NULL;   /* it may free the old one */
  g_hash_table_replace (s->metadata, GUINT_TO_POINTER (meta->id), meta);
}

/* An event's stack, by its id; an id no block gave is damage (the event
 * is kept, without stack). */
static void
resolve_stack (Stream *s, EtNettraceEvent *e)
{
  const StackRef *ref = g_hash_table_lookup (s->stacks, GUINT_TO_POINTER (e->stack_id));

  if (ref == NULL)
    {
      s->stats->stacks_missing++;
      damage (s, e->offset, "event refers to stack %u, which no stack block since the "
              "last sequence point holds; it is kept without its stack", e->stack_id);
      return;
    }
  e->stack = ref->bytes;
  e->stack_len = ref->len;
}

static void
take_event (Stream *s, const EtNettraceEvent *e)
{
  const EtNettraceMeta **cached = &s->meta_cache[e->metadata_id % G_N_ELEMENTS (s->meta_cache)];
  const EtNettraceMeta *meta = *cached;

  if (meta == NULL || meta->id != e->metadata_id)
    {
      meta = g_hash_table_lookup (s->metadata, GUINT_TO_POINTER (e->metadata_id));
      if (meta != NULL)
        *cached = meta;
    }

  check_sequence (s, e->capture_thread_id, e->sequence, FALSE);
  if (meta == NULL)
    {
      s->stats->events_skipped++;
      damage (s, e->offset, "event of unknown metadata %u skipped", e->metadata_id);
      return;
    }
  s->stats->events++;
  if (e->stack_id != 0)
    resolve_stack (s, (EtNettraceEvent *) e);
  if (s->cb->event != NULL)
    s->cb->event (e, meta, s->cb->user_data);
}

/* How far ahead of the row being read its block is asked for, after a
 * row of PREFETCH_ROW bytes or more: rows are read once, front to back,
 * and the first byte of a large one was most of reading (a miss of the
 * cache and of the page tables at every new page). */
#define PREFETCH_AHEAD 4096
#define PREFETCH_ROW   128

/* Copied in to clear an event: `= { 0 }` compiles to a string store,
 * whose start-up cost was a third of reading the rows. */
static const EtNettraceEvent no_event;

/* EventBlock and MetadataBlock: a header (its own size first, then flags),
 * then event rows to the end of the block. */
static void
read_rows (Stream *s, guint64 start, gsize size, gboolean metadata)
{
  EtReader r;
  guint16 header_size, flags;
  HeaderState h = { 0 };

  et_reader_init (&r, s->data + start, size);
  header_size = et_reader_u16 (&r);
  flags = et_reader_u16 (&r);
  if (r.failed || header_size < 4 || header_size > size)
    {
      damage (s, start, "%s block header states %u bytes; the block (%" G_GSIZE_FORMAT
              " bytes) is skipped", metadata ? "metadata" : "event", header_size, size);
      return;
    }
  r.pos = header_size;
  while (et_reader_remaining (&r) > 0)
    {
      EtNettraceEvent e = no_event;
      gsize here = r.pos, next;

      e.offset = start + here;
      e.block_offset = start;
      if (!read_event_header (&r, (flags & FLAG_HEADER_COMPRESSION) != 0, &h, &e, &next))
        {
          damage (s, start + here, "%s row does not fit in its block; the rest of the block "
                  "(%" G_GSIZE_FORMAT " bytes) is skipped", metadata ? "metadata" : "event",
                  size - here);
          if (!metadata)
            s->stats->events_skipped++;
          return;
        }
      /* Rows of a few dozen bytes are read as fast as the memory brings
       * them; asking ahead for them only cost time. */
      if (next - here >= PREFETCH_ROW && next + PREFETCH_AHEAD < size)
        __builtin_prefetch (r.data + next + PREFETCH_AHEAD);
      if (metadata)
        take_metadata (s, &e);
      else
        take_event (s, &e);
      r.pos = next;
    }
}

static void
read_stack_block (Stream *s, guint64 start, gsize size)
{
  EtReader r;
  guint32 count;

  guint32 id;

  et_reader_init (&r, s->data + start, size);
  id = et_reader_u32 (&r);                 /* the first stack's id */
  count = et_reader_u32 (&r);
  for (guint32 i = 0; i < count && !r.failed; i++, id++)
    {
      guint32 bytes = et_reader_u32 (&r);
      const guint8 *p = et_reader_take (&r, bytes);
      StackRef *ref;

      if (p == NULL)
        break;
      s->stats->stacks++;
      ref = g_new (StackRef, 1);
      ref->bytes = p;
      ref->len = bytes;
      g_hash_table_replace (s->stacks, GUINT_TO_POINTER (id), ref);
    }
  if (r.failed)
    damage (s, start + MIN (r.pos, size), "stack block of %u stacks runs past its end "
            "after %" G_GUINT64_FORMAT, count, s->stats->stacks);
}

static void
read_sequence_point (Stream *s, guint64 start, gsize size)
{
  EtReader r;
  guint32 count;

  et_reader_init (&r, s->data + start, size);
  et_reader_u64 (&r);                      /* its time */
  count = et_reader_u32 (&r);
  for (guint32 i = 0; i < count && !r.failed; i++)
    {
      guint64 thread = et_reader_u64 (&r);
      guint32 sequence = et_reader_u32 (&r);

      if (!r.failed)
        check_sequence (s, thread, sequence, TRUE);
    }
  g_hash_table_remove_all (s->stacks);
  if (r.failed)
    damage (s, start, "sequence point of %u threads runs past its end", count);
}

/* ---- objects ---------------------------------------------------------- */

static void
read_block (Stream *s, EtNtObjectKind kind, gsize start, gsize size)
{
  s->stats->blocks++;
  switch (kind)
    {
    case ET_NT_OBJ_EVENT_BLOCK:
      s->stats->event_blocks++;
      read_rows (s, start, size, FALSE);
      break;
    case ET_NT_OBJ_METADATA_BLOCK:
      s->stats->metadata_blocks++;
      read_rows (s, start, size, TRUE);
      break;
    case ET_NT_OBJ_STACK_BLOCK:
      s->stats->stack_blocks++;
      read_stack_block (s, start, size);
      break;
    case ET_NT_OBJ_SP_BLOCK:
      s->stats->sequence_points++;
      read_sequence_point (s, start, size);
      break;
    case ET_NT_OBJ_TRACE:
    case ET_NT_OBJ_UNKNOWN:
      break;
    }
}

/* One block object at @pos (its opening read); returns where the next
 * object begins, the end of the file when the block runs to it, or 0 when
 * the framing is broken before its payload. */
static gsize
read_block_object (Stream *s, gsize pos, EtNtObjectKind kind, gsize body)
{
  guint32 size;
  gsize start, end;
  gboolean size_wrong;

  if (body + 4 > s->len)
    return 0;
  size = et_read_u32 (s->data + body);
  start = (body + 4 + 3) & ~(gsize) 3;     /* padded to a 4-byte file offset */
  if (start > s->len)
    return 0;
  end = _et_nettrace_block_end (s->data, s->len, start, size, &size_wrong);
  if (size_wrong)
    damage (s, body, "block states %u bytes, but it ends at byte offset %" G_GSIZE_FORMAT
            " (before the next object or the stream's end); %" G_GSIZE_FORMAT " bytes are read",
            size, end, end - start);
  read_block (s, kind, start, end - start);
  if (end < s->len && s->data[end] == TAG_END_OBJECT)
    return end + 1;
  damage (s, end, "block at byte offset %" G_GSIZE_FORMAT " lacks its end tag", pos);
  /* Only its end tag damaged: the next object (or the stream's end) is
   * right after it. */
  if (end < s->len && _et_nettrace_framed_after (s->data, s->len, end + 1))
    return end + 1;
  return end;                    /* the next object may still begin here */
}

/* The stream header and the Trace object: without them nothing else
 * can be read. Returns the offset after the Trace object, or 0. */
static gsize
read_trace (Stream *s, GError **error)
{
  EtReader r;
  EtNtObjectKind kind;
  guint32 version, id_len;
  const guint8 *id;
  gsize body;

  et_reader_init (&r, s->data, s->len);
  et_reader_take (&r, ET_NETTRACE_MAGIC_LEN);
  id_len = et_reader_u32 (&r);
  if (r.failed)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED,
                   "%s: byte offset %d: the file is cut short after its magic", s->path,
                   ET_NETTRACE_MAGIC_LEN);
      return 0;
    }
  if (id_len == 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_UNSUPPORTED,
                   "%s: byte offset %d: .nettrace format version 6 or later; Etlscope reads "
                   "versions 4 and 5", s->path, ET_NETTRACE_MAGIC_LEN);
      return 0;
    }
  id = id_len == strlen (SERIALIZATION_ID) ? et_reader_take (&r, id_len) : NULL;
  if (id == NULL || memcmp (id, SERIALIZATION_ID, id_len) != 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset %d: not a .nettrace stream (no \"%s\" header)", s->path,
                   ET_NETTRACE_MAGIC_LEN, SERIALIZATION_ID);
      return 0;
    }
  if (!_et_nettrace_opening (s->data, s->len, r.pos, FALSE, &kind, &version, &body, NULL) || kind != ET_NT_OBJ_TRACE)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset %" G_GSIZE_FORMAT ": the Trace object cannot be read",
                   s->path, r.pos);
      return 0;
    }
  if (version != 4)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_UNSUPPORTED,
                   "%s: byte offset %" G_GSIZE_FORMAT ": Trace object version %u; Etlscope "
                   "reads version 4 (.nettrace formats 4 and 5)", s->path, r.pos, version);
      return 0;
    }
  s->info->format_version = version;
  r.pos = body;
  for (guint i = 0; i < 8; i++)
    s->info->sync_time_utc[i] = et_reader_u16 (&r);
  s->info->sync_time_qpc = (gint64) et_reader_u64 (&r);
  s->info->qpc_frequency = (gint64) et_reader_u64 (&r);
  s->info->pointer_size = et_reader_u32 (&r);
  s->info->process_id = et_reader_u32 (&r);
  s->info->n_processors = et_reader_u32 (&r);
  s->info->expected_cpu_sampling_rate = et_reader_u32 (&r);
  if (r.failed || et_reader_u8 (&r) != TAG_END_OBJECT)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED,
                   "%s: byte offset %" G_GSIZE_FORMAT ": the Trace object is cut short or "
                   "lacks its end tag", s->path, body);
      return 0;
    }
  return r.pos;
}

/* A NullReference where an object would begin: the stream's end when it
 * is the file's last byte. Returns where reading goes on (s->len: done). */
static gsize
end_tag (Stream *s, gsize pos)
{
  gsize next;

  if (pos + 1 == s->len)
    {
      s->stats->end_seen = TRUE;
      return s->len;
    }
  next = _et_nettrace_next_opening (s->data, s->len, pos);
  if (next == s->len)
    s->stats->end_seen = TRUE;      /* bytes after the end, but no object in them */
  damage (s, pos, "an end tag with %" G_GSIZE_FORMAT " bytes after it; reading goes on "
          "at byte offset %" G_GSIZE_FORMAT, s->len - pos - 1, next);
  return next;
}

/* The object at @pos; returns where the next one begins, or 0 when none
 * reads here. */
static gsize
read_object (Stream *s, gsize pos)
{
  EtNtObjectKind kind;
  guint32 version;
  gsize body;
  gboolean tags_damaged;

  if (!_et_nettrace_opening (s->data, s->len, pos, TRUE, &kind, &version, &body,
                             &tags_damaged))
    return s->data[pos] == TAG_NULL_REFERENCE ? end_tag (s, pos) : 0;
  if (tags_damaged)
    damage (s, pos, "the opening tags of an object are damaged; it is read all the same");
  if (kind == ET_NT_OBJ_UNKNOWN || kind == ET_NT_OBJ_TRACE || version > 2)
    {
      damage (s, pos, "an object of a type or version (%u) Etlscope does not know "
              "is skipped", version);
      kind = ET_NT_OBJ_UNKNOWN;
    }
  return read_block_object (s, pos, kind, body);
}

static void
read_objects (Stream *s, gsize pos)
{
  while (pos < s->len)
    {
      gsize next = read_object (s, pos);

      if (next == 0)
        {
          next = _et_nettrace_next_opening (s->data, s->len, pos);
          damage (s, pos, "no object can be read here; %" G_GSIZE_FORMAT " bytes are skipped",
                  next - pos);
        }
      pos = next;
      if (s->cb->block != NULL && !s->cb->block (pos, s->cb->user_data))
        return;
    }
  if (!s->stats->end_seen)
    damage (s, s->len, "the stream ends without its end tag (the file is cut short)");
}

gboolean
et_nettrace_read (const char *path, const guint8 *data, gsize len,
                  const EtNettraceCallbacks *callbacks, EtNettraceInfo *info,
                  EtNettraceStats *stats, GError **error)
{
  Stream s = { path, data, len, callbacks, info, stats, NULL, NULL };
  gsize pos;

  g_return_val_if_fail (path != NULL && callbacks != NULL, FALSE);
  memset (info, 0, sizeof *info);
  memset (stats, 0, sizeof *stats);
  if (!et_nettrace_sniff (data, len))
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset 0: not a .nettrace file (no \"Nettrace\" magic)", path);
      return FALSE;
    }
  pos = read_trace (&s, error);
  if (pos == 0)
    return FALSE;
  s.metadata = g_hash_table_new_full (NULL, NULL, NULL, meta_free);
  s.sequences = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  s.stacks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  read_objects (&s, pos);
  g_hash_table_unref (s.stacks);
  g_hash_table_unref (s.metadata);
  g_hash_table_unref (s.sequences);
  return TRUE;
}
