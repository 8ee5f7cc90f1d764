/* et-nettrace-metadata.c — EventPipe metadata records (NetTraceFormat_v5.md,
 * "Metadata event encoding"): the event's provider, id, name, keywords,
 * version and level, its V1 field descriptions, and the V5 tags after them
 * (an opcode; V2 descriptions, which may hold arrays, replacing V1's).
 *
 * Everything read is untrusted: field trees are bounded in depth and size,
 * and a description this reader cannot follow leaves the event without
 * decoded fields (as TraceEvent does) rather than failing the trace.
 */
#include "et-nettrace-private.h"
#include "et-text.h"

#include <string.h>

/* Field trees this deep or large are not real metadata: the bounds keep
 * hostile metadata from recursing or allocating without end. */
#define MAX_FIELD_DEPTH 16
#define MAX_FIELD_NODES 1024

static void
field_clear (gpointer data)
{
  g_free (((EtNtField *) data)->name);
}

void
et_nettrace_meta_clear (EtNettraceMeta *meta)
{
  g_clear_pointer (&meta->provider, g_free);
  g_clear_pointer (&meta->name, g_free);
  g_clear_pointer (&meta->fields, g_array_unref);
}

/* A NUL-terminated UTF-16 string as UTF-8 (transfer full); unpaired
 * surrogates become U+FFFD. */
char *
_et_nettrace_read_utf16z (EtReader *r)
{
  gsize start = r->pos, n = 0;
  g_autoptr(GString) s = NULL;

  while (et_reader_remaining (r) >= 2 && et_reader_u16 (r) != 0)
    n++;
  if (r->pos == start + 2 * n)      /* no terminator before the end */
    r->failed = TRUE;
  if (r->failed)
    return g_strdup ("");
  s = g_string_sized_new (3 * n);
  et_utf16_append (s, r->data + start, n);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
known_type (guint32 type)
{
  return type == ET_NT_OBJECT || (type >= ET_NT_BOOLEAN32 && type <= ET_NT_ARRAY
                                  && type != ET_NT_DECIMAL);
}

static guint
push_field (GArray *fields, char *name, guint32 type)
{
  EtNtField f = { name, (guint8) type, 0 };

  g_array_append_val (fields, f);
  return fields->len - 1;
}

/* V1 descriptions: a count, then per field its type code (an Object's own
 * description follows it) and its name. Returns the count, or -1. */
static gint
parse_v1_fields (EtReader *r, GArray *fields, guint depth)
{
  guint32 count = et_reader_u32 (r);

  if (r->failed || depth > MAX_FIELD_DEPTH || count > et_reader_remaining (r) / 6)
    return -1;
  for (guint32 i = 0; i < count; i++)
    {
      guint32 type = et_reader_u32 (r);
      guint at;

      if (r->failed || !known_type (type) || type == ET_NT_ARRAY || fields->len >= MAX_FIELD_NODES)
        return -1;
      at = push_field (fields, NULL, type);
      if (type == ET_NT_OBJECT)
        {
          gint n = parse_v1_fields (r, fields, depth + 1);

          if (n < 0)
            return -1;
          g_array_index (fields, EtNtField, at).n_children = (guint16) n;
        }
      g_array_index (fields, EtNtField, at).name = _et_nettrace_read_utf16z (r);
    }
  return r->failed ? -1 : (gint) count;
}

static gint parse_v2_fields (EtReader *r, GArray *fields, guint depth);

/* A V2 type: its code, an Array's element type, an Object's members. */
static gboolean
parse_v2_type (EtReader *r, GArray *fields, const char *name, guint depth)
{
  guint32 type = et_reader_u32 (r);
  guint at;
  gint n = 1;

  if (r->failed || !known_type (type) || depth > MAX_FIELD_DEPTH
      || fields->len >= MAX_FIELD_NODES)
    return FALSE;
  at = push_field (fields, g_strdup (name), type);
  if (type == ET_NT_ARRAY && !parse_v2_type (r, fields, name, depth + 1))
    return FALSE;
  if (type == ET_NT_OBJECT && (n = parse_v2_fields (r, fields, depth + 1)) < 0)
    return FALSE;
  if (type == ET_NT_ARRAY || type == ET_NT_OBJECT)
    g_array_index (fields, EtNtField, at).n_children = (guint16) n;
  return TRUE;
}

/* V2 descriptions (the V5 V2Params tag): a count, then per field its size
 * (these 4 bytes included), name and type. */
static gint
parse_v2_fields (EtReader *r, GArray *fields, guint depth)
{
  guint32 count = et_reader_u32 (r);

  if (r->failed || depth > MAX_FIELD_DEPTH || count > et_reader_remaining (r) / 10)
    return -1;
  for (guint32 i = 0; i < count; i++)
    {
      guint32 size = et_reader_u32 (r);
      const guint8 *bytes = size >= 4 ? et_reader_take (r, size - 4) : NULL;
      g_autofree char *name = NULL;
      EtReader sub;

      if (bytes == NULL)
        return -1;
      et_reader_init (&sub, bytes, size - 4);
      name = _et_nettrace_read_utf16z (&sub);
      if (sub.failed || !parse_v2_type (&sub, fields, name, depth + 1))
        return -1;
    }
  return (gint) count;
}

/* V5 tags after the V1 description: an opcode, or the V2 description that
 * replaces it. */
static gboolean
parse_tags (EtReader *r, EtNettraceMeta *meta)
{
  while (et_reader_remaining (r) > 0)
    {
      guint32 len = et_reader_u32 (r);
      guint8 kind = et_reader_u8 (r);
      const guint8 *bytes = et_reader_take (r, len);
      EtReader tag;

      if (bytes == NULL)
        return FALSE;
      et_reader_init (&tag, bytes, len);
      if (kind == 1)
        {
          meta->opcode = et_reader_u8 (&tag);
          meta->has_opcode = !tag.failed;
        }
      else if (kind == 2)
        {
          g_array_set_size (meta->fields, 0);
          meta->has_fields = parse_v2_fields (&tag, meta->fields, 0) >= 0;
          if (!meta->has_fields)
            g_array_set_size (meta->fields, 0);
        }
    }
  return TRUE;
}

EtNtMetaStatus
_et_nettrace_parse_metadata (const guint8 *p, gsize len, guint64 offset, EtNettraceMeta *meta,
                             gsize *bad_at)
{
  EtReader r;

  et_reader_init (&r, p, len);
  meta->offset = offset;
  meta->fields = g_array_new (FALSE, TRUE, sizeof (EtNtField));
  g_array_set_clear_func (meta->fields, field_clear);
  meta->id = et_reader_u32 (&r);
  meta->provider = _et_nettrace_read_utf16z (&r);
  meta->event_id = et_reader_u32 (&r);
  meta->name = _et_nettrace_read_utf16z (&r);
  meta->keywords = et_reader_u64 (&r);
  meta->version = (guint8) et_reader_u32 (&r);
  meta->level = (guint8) et_reader_u32 (&r);
  if (r.failed)
    return ET_NT_META_BAD;
  /* No description at all: an event without fields. A description this
   * reader cannot follow leaves the event without decoded fields, as
   * TraceEvent does. */
  if (et_reader_remaining (&r) == 0)
    meta->has_fields = TRUE;
  else
    meta->has_fields = parse_v1_fields (&r, meta->fields, 0) >= 0;
  if (!meta->has_fields)
    {
      g_array_set_size (meta->fields, 0);
      return ET_NT_META_OK;
    }
  if (et_reader_remaining (&r) == 0)
    return ET_NT_META_OK;
  *bad_at = r.pos;
  return parse_tags (&r, meta) ? ET_NT_META_TAGGED : ET_NT_META_BAD_TAGS;
}
