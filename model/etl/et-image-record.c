/* et-image-record.c — compact EVENT records (see et-image-record.h). */
#include "et-image-record.h"
#include "et-bytes.h"
#include "et-memory.h"
#include "et-time.h"

#include <string.h>

/* The EVENT_HEADER Flags an image's full records carry: extended items,
 * and the pointer size. */
#define FLAG_EXTENDED_INFO 0x0001
#define FLAG_32_BIT        0x0020
#define FLAG_64_BIT        0x0040

void
et_image_type_free (gpointer data)
{
  EtImageType *t = data;

  g_clear_pointer (&t->items, g_byte_array_unref);
  g_free (t);
}

static void
new_stacks (EtImageTables *tables)
{
  tables->stack_entries = g_array_new (FALSE, FALSE, sizeof (EtImageStackEntry));
  tables->stack_refs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  tables->stack_ref_buffers = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
free_stacks (EtImageTables *tables)
{
  g_array_unref (tables->stack_entries);
  g_ptr_array_unref (tables->stack_refs);
  g_array_unref (tables->stack_ref_buffers);
}

EtImageTables *
et_image_tables_new (void)
{
  EtImageTables *tables = g_new0 (EtImageTables, 1);

  tables->types = g_ptr_array_new_with_free_func (et_image_type_free);
  tables->threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  new_stacks (tables);
  return tables;
}

void
et_image_tables_forget_source (EtImageTables *tables)
{
  et_memory_release (tables->source, tables->source_len);
}

void
et_image_tables_drop_stacks (EtImageTables *tables)
{
  free_stacks (tables);
  new_stacks (tables);
  et_image_tables_forget_source (tables);
}

void
et_image_tables_set_source (EtImageTables *tables, GMappedFile *file, EtMapping *watch)
{
  g_return_if_fail (tables->source_file == NULL);

  tables->source_file = file;
  tables->source_watch = watch;
  tables->source = (const guint8 *) g_mapped_file_get_contents (file);
  tables->source_len = g_mapped_file_get_length (file);
}

void
et_image_tables_free (EtImageTables *tables)
{
  if (tables == NULL)
    return;
  /* unwatched before it is unmapped (et-mapping.h) */
  et_mapping_unwatch (tables->source_watch);
  g_clear_pointer (&tables->source_file, g_mapped_file_unref);
  g_ptr_array_unref (tables->types);
  g_array_unref (tables->threads);
  free_stacks (tables);
  g_free (tables);
}

static void
put_le (guint8 *p, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static gboolean
is_wide (guint32 type, guint32 thread)
{
  return type > ET_IMAGE_NARROW_MAX || thread > ET_IMAGE_NARROW_MAX;
}

void
et_image_buffer_set_bases (guint8 *header, const EtImageBases *bases)
{
  put_le (header + ET_IMAGE_BUFFER_BASES, (guint64) bases->time, 8);
  put_le (header + ET_IMAGE_BUFFER_BASES + 8, bases->source, 8);
}

/* The form of @e's record in a buffer of @bases: ET_IMAGE_NEAR,
 * ET_IMAGE_SHORT_TIME or 0 (the long form). */
static guint8
form_of (const EtImageEvent *e, const EtImageBases *bases)
{
  gint64 dt;

  if (bases == NULL || e->head_len + e->tail_len > 0)
    return 0;
  dt = et_time_sub (e->ts, bases->time);     /* (saturated: then out of range) */
  if (dt < G_MININT32 || dt > G_MAXINT32)
    return 0;
  if (e->payload_at != ET_IMAGE_INLINE && e->activity == NULL && !is_wide (e->type, e->thread)
      && e->payload_at >= bases->source && e->payload_at - bases->source <= G_MAXUINT32)
    return ET_IMAGE_NEAR;
  return ET_IMAGE_SHORT_TIME;
}

gsize
et_image_record_size (const EtImageEvent *e, const EtImageBases *bases)
{
  gsize own = e->head_len + e->tail_len;
  guint8 form = form_of (e, bases);

  if (form == ET_IMAGE_NEAR)
    return ET_IMAGE_NEAR_SIZE;
  return (form == ET_IMAGE_SHORT_TIME ? ET_IMAGE_SHORT_HEADER : ET_IMAGE_RECORD_HEADER)
         + (is_wide (e->type, e->thread) ? 8 : 0) + (e->activity != NULL ? sizeof (EtGuid) : 0)
         + (own > 0 ? 8 + own : 0)
         + (e->payload_at != ET_IMAGE_INLINE ? ET_IMAGE_PAYLOAD_PLACE : e->payload_len);
}

void
et_image_record_write (guint8 *at, gsize size, const EtImageEvent *e, const EtImageBases *bases)
{
  gsize own = e->head_len + e->tail_len, pos;
  gboolean wide = is_wide (e->type, e->thread), inline_ = e->payload_at == ET_IMAGE_INLINE;
  guint8 form = form_of (e, bases);

  g_assert (size <= G_MAXUINT16 && own <= G_MAXUINT32 && size == et_image_record_size (e, bases)
            && (inline_ || (e->payload_at <= ET_IMAGE_SOURCE_MAX
                            && e->payload_len <= G_MAXUINT16)));
  put_le (at, form == ET_IMAGE_NEAR ? e->payload_len : size, 2);
  at[2] = form | (wide ? ET_IMAGE_WIDE : 0) | (e->activity != NULL ? ET_IMAGE_ACTIVITY : 0)
          | (own > 0 ? ET_IMAGE_OWN_ITEMS : 0)
          | (inline_ || form == ET_IMAGE_NEAR ? 0 : ET_IMAGE_PAYLOAD_AT);
  at[3] = ET_IMAGE_RECORD_MARK;
  put_le (at + 4, wide ? G_MAXUINT16 : e->type, 2);
  put_le (at + 6, wide ? G_MAXUINT16 : e->thread, 2);
  if (form == 0)
    {
      put_le (at + 8, (guint64) e->ts, 8);
      pos = ET_IMAGE_RECORD_HEADER;
    }
  else
    {
      put_le (at + 8, (guint64) (e->ts - bases->time), 4);
      pos = ET_IMAGE_SHORT_HEADER;
    }
  if (form == ET_IMAGE_NEAR)
    {
      put_le (at + pos, e->payload_at - bases->source, 4);
      return;
    }
  if (wide)
    {
      put_le (at + pos, e->type, 4);
      put_le (at + pos + 4, e->tid, 4);
      pos += 8;
    }
  if (e->activity != NULL)
    {
      memcpy (at + pos, e->activity, sizeof *e->activity);
      pos += sizeof *e->activity;
    }
  if (own > 0)
    {
      put_le (at + pos, own, 8);
      memcpy (at + pos + 8, e->head, e->head_len);
      if (e->tail_len > 0)
        memcpy (at + pos + 8 + e->head_len, e->tail, e->tail_len);
      pos += 8 + own;
    }
  if (!inline_)
    {
      put_le (at + pos, e->payload_at | (guint64) e->payload_len << 48, ET_IMAGE_PAYLOAD_PLACE);
      pos += ET_IMAGE_PAYLOAD_PLACE;
    }
  else if (e->payload_len > 0)
    {
      memcpy (at + pos, e->payload, e->payload_len);
      pos += e->payload_len;
    }
  memset (at + pos, 0, ((size + 7) & ~(gsize) 7) - pos);
}

/* The fields of the EVENT_HEADER record the compact one stands for. */
static void
fill_from_type (EtRecord *r, const EtImageType *t)
{
  r->klass = ET_RECORD_EVENT;
  r->header_type = t->pointer_size == 4 ? 0x12 : 0x13;
  r->pointer_size = t->pointer_size == 4 ? 4 : 8;
  r->flags = FLAG_EXTENDED_INFO | (t->pointer_size == 4 ? FLAG_32_BIT : FLAG_64_BIT);
  r->has_ids = TRUE;
  r->pid = t->pid;
  r->guid = t->provider;
  r->id = t->id;
  r->version = t->version;
  r->level = t->level;
  r->opcode = t->opcode;
  r->task = t->task;
  r->keywords = t->keywords;
}

/* A payload named in the source file: @n bytes at @at. A file that
 * shrank since it was read has pages that read as zeros (et-mapping.h):
 * a payload among them can no longer be read. With @touch its last byte
 * is read first: a page that vanished is found then, and the payload
 * refused, instead of read as zeros by whoever decodes it. What is left,
 * owned here: the bytes past the new end in the page it now ends in read
 * as zeros without a fault, as the tail of an .etl record crossing the
 * cut does. */
static gboolean
payload_in_source (guint64 at, guint64 n, const EtImageTables *tables, gboolean touch,
                   EtRecord *r, const char **reason)
{
  *reason = "payload lies past the end of the file";
  if (tables->source == NULL || at > tables->source_len || n > tables->source_len - at)
    return FALSE;
  *reason = "payload lies where the file shrank since it was read";
  if (touch && n > 0)
    (void) *(volatile const guint8 *) (tables->source + at + n - 1);
  if (at + n > et_mapping_lost_from (tables->source_watch))
    return FALSE;
  r->payload = tables->source + at;
  r->payload_len = n;
  return TRUE;
}

/* The same for a long record's place (@len bytes of the record left for
 * it). */
static gboolean
payload_at_place (const guint8 *place, gsize len, const EtImageTables *tables, gboolean touch,
                  EtRecord *r, const char **reason)
{
  guint64 v;

  *reason = "record size does not match its payload's place";
  if (len != ET_IMAGE_PAYLOAD_PLACE)
    return FALSE;
  v = et_read_u64 (place);
  return payload_in_source (v & ET_IMAGE_SOURCE_MAX, v >> 48, tables, touch, r, reason);
}

/* Copied in to clear a record: a memset of its size compiles to a string
 * store, whose start-up cost was a third of parsing a record. */
static const EtRecord no_record;

static gboolean
parse (const guint8 *buffer, gsize at, gsize len, const EtImageTables *tables, gboolean touch,
       EtRecord *r, const char **reason)
{
  const guint8 *p = buffer + at;
  gsize size, pos, own = 0, avail = len - at;
  guint32 type, thread, tid;
  const EtImageType *t;
  guint8 flags, form;

  *r = no_record;
  *reason = "record header does not fit in the buffer";
  if (at < ET_BUFFER_HEADER_SIZE || at > len || avail < ET_IMAGE_SHORT_HEADER)
    return FALSE;
  flags = p[2];
  form = flags & (ET_IMAGE_SHORT_TIME | ET_IMAGE_NEAR);
  *reason = "record flags do not go together";
  if (form == (ET_IMAGE_SHORT_TIME | ET_IMAGE_NEAR)
      || (form == ET_IMAGE_NEAR && flags != ET_IMAGE_NEAR)
      || (form == ET_IMAGE_SHORT_TIME && (flags & ET_IMAGE_OWN_ITEMS)))
    return FALSE;
  size = form == ET_IMAGE_NEAR ? ET_IMAGE_NEAR_SIZE : et_read_u16 (p);
  pos = form != 0 ? ET_IMAGE_SHORT_HEADER : ET_IMAGE_RECORD_HEADER;
  *reason = "record size runs past the end of the buffer";
  if (size > avail)
    return FALSE;
  *reason = "record size is smaller than its header";
  if (size < pos + ((flags & ET_IMAGE_WIDE) ? 8 : 0) + ((flags & ET_IMAGE_ACTIVITY) ? 16 : 0)
             + ((flags & ET_IMAGE_OWN_ITEMS) ? 8 : 0) + (form == ET_IMAGE_NEAR ? 4 : 0))
    return FALSE;
  type = et_read_u16 (p + 4);
  thread = et_read_u16 (p + 6);
  if (flags & ET_IMAGE_WIDE)
    {
      type = et_read_u32 (p + pos);
      tid = et_read_u32 (p + pos + 4);
      pos += 8;
    }
  *reason = "unknown record type or thread";
  if (type >= tables->types->len
      || (!(flags & ET_IMAGE_WIDE) && thread >= tables->threads->len))
    return FALSE;
  if (!(flags & ET_IMAGE_WIDE))
    tid = g_array_index (tables->threads, guint32, thread);
  t = g_ptr_array_index (tables->types, type);
  fill_from_type (r, t);
  r->size = (guint16) size;
  if (form == 0)
    r->ts = (gint64) et_read_u64 (p + 8);
  else
    r->ts = (gint64) et_read_u64 (buffer + ET_IMAGE_BUFFER_BASES)
            + (gint32) et_read_u32 (p + 8);
  r->tid = tid;
  r->ext = t->items->len > 0 ? t->items->data : NULL;
  r->ext_len = t->items->len;
  if (form == ET_IMAGE_NEAR)
    return payload_in_source (et_read_u64 (buffer + ET_IMAGE_BUFFER_BASES + 8)
                              + et_read_u32 (p + pos), et_read_u16 (p), tables, touch, r,
                              reason);
  if (flags & ET_IMAGE_ACTIVITY)
    {
      memcpy (&r->activity_id, p + pos, sizeof r->activity_id);
      pos += sizeof r->activity_id;
    }
  if (flags & ET_IMAGE_OWN_ITEMS)
    {
      own = et_read_u32 (p + pos);
      pos += 8;
      *reason = "record size is smaller than its items";
      if (own > size - pos)
        return FALSE;
      r->ext = p + pos;
      r->ext_len = own;
      pos += own;
    }
  if (flags & ET_IMAGE_PAYLOAD_AT)
    return payload_at_place (p + pos, size - pos, tables, touch, r, reason);
  r->payload = p + pos;
  r->payload_len = size - pos;
  return TRUE;
}

const guint8 *
et_image_record_payload_end (const guint8 *buffer, gsize pos, gsize len,
                             const EtImageTables *tables)
{
  const guint8 *p = buffer + pos;
  guint64 at, n;

  if (tables->source == NULL || pos < ET_BUFFER_HEADER_SIZE || pos > len
      || len - pos < ET_IMAGE_NEAR_SIZE || p[3] != ET_IMAGE_RECORD_MARK)
    return NULL;
  if (p[2] == ET_IMAGE_NEAR)
    {
      at = et_read_u64 (buffer + ET_IMAGE_BUFFER_BASES + 8) + et_read_u32 (p + 12);
      n = et_read_u16 (p);
    }
  else if ((p[2] & ~ET_IMAGE_SHORT_TIME) == ET_IMAGE_PAYLOAD_AT)
    {
      gsize header = (p[2] & ET_IMAGE_SHORT_TIME) ? ET_IMAGE_SHORT_HEADER
                                                  : ET_IMAGE_RECORD_HEADER;
      guint64 v;

      if (et_read_u16 (p) != header + ET_IMAGE_PAYLOAD_PLACE
          || len - pos < header + ET_IMAGE_PAYLOAD_PLACE)
        return NULL;
      v = et_read_u64 (p + header);

      at = v & ET_IMAGE_SOURCE_MAX;
      n = v >> 48;
    }
  else
    return NULL;
  if (n == 0 || at > tables->source_len || n > tables->source_len - at)
    return NULL;
  return tables->source + at + n - 1;
}

gboolean
et_image_record_parse (const guint8 *buffer, gsize pos, gsize len, const EtImageTables *tables,
                       EtRecord *r, const char **reason)
{
  return parse (buffer, pos, len, tables, TRUE, r, reason);
}

gboolean
et_image_record_parse_walked (const guint8 *buffer, gsize pos, gsize len,
                              const EtImageTables *tables, EtRecord *r, const char **reason)
{
  return parse (buffer, pos, len, tables, FALSE, r, reason);
}
