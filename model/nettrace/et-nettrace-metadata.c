/* et-nettrace-metadata.c — EventPipe metadata records (NetTraceFormat_v5.md,
 * "Metadata event encoding"): the event's provider, id, name, keywords,
 * version and level, its V1 field descriptions, and the V5 tags after them
 * (an opcode; V2 descriptions, which may hold arrays, replacing V1's).
 *
 * Everything read is untrusted: field trees are bounded in depth and size,
 * and a description this reader cannot follow keeps the fields before it
 * and is reported where it breaks, rather than failing the trace.
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

static gint parse_v1_fields (EtReader *r, GArray *fields, guint depth);

/* One V1 description: its type code (an Object's own description follows
 * it) and its name. */
static gboolean
parse_v1_field (EtReader *r, GArray *fields, guint depth)
{
  guint32 type = et_reader_u32 (r);
  guint at;

  if (r->failed || !known_type (type) || type == ET_NT_ARRAY || fields->len >= MAX_FIELD_NODES)
    return FALSE;
  at = push_field (fields, NULL, type);
  if (type == ET_NT_OBJECT)
    {
      gint n = parse_v1_fields (r, fields, depth + 1);

      if (n < 0)
        return FALSE;
      g_array_index (fields, EtNtField, at).n_children = (guint16) n;
    }
  g_array_index (fields, EtNtField, at).name = _et_nettrace_read_utf16z (r);
  return !r->failed;
}

/* V1 descriptions: a count, then the fields. Returns the count, or -1. */
static gint
parse_v1_fields (EtReader *r, GArray *fields, guint depth)
{
  guint32 count = et_reader_u32 (r);

  if (r->failed || depth > MAX_FIELD_DEPTH || count > et_reader_remaining (r) / 6)
    return -1;
  for (guint32 i = 0; i < count; i++)
    if (!parse_v1_field (r, fields, depth))
      return -1;
  return (gint) count;
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

/* One V2 description: its size (these 4 bytes included), name and type. */
static gboolean
parse_v2_field (EtReader *r, GArray *fields, guint depth)
{
  guint32 size = et_reader_u32 (r);
  const guint8 *bytes = size >= 4 ? et_reader_take (r, size - 4) : NULL;
  g_autofree char *name = NULL;
  EtReader sub;

  if (bytes == NULL)
    return FALSE;
  et_reader_init (&sub, bytes, size - 4);
  name = _et_nettrace_read_utf16z (&sub);
  return !sub.failed && parse_v2_type (&sub, fields, name, depth + 1);
}

/* V2 descriptions (the V5 V2Params tag): a count, then the fields. */
static gint
parse_v2_fields (EtReader *r, GArray *fields, guint depth)
{
  guint32 count = et_reader_u32 (r);

  if (r->failed || depth > MAX_FIELD_DEPTH || count > et_reader_remaining (r) / 10)
    return -1;
  for (guint32 i = 0; i < count; i++)
    if (!parse_v2_field (r, fields, depth))
      return -1;
  return (gint) count;
}

/* The top level of a field list: the fields that read in full are kept
 * (an event keeps its name and the fields before the damage, as the
 * payload is laid out in their order). FALSE, with *cut_at where the
 * damage begins in @r, when not all of them read. */
static gboolean
parse_top_fields (EtReader *r, GArray *fields, gboolean v2, gsize *cut_at)
{
  gsize here = r->pos;
  guint32 count = et_reader_u32 (r);

  if (r->failed || count > et_reader_remaining (r) / (v2 ? 10 : 6))
    {
      *cut_at = here;
      return FALSE;
    }
  for (guint32 i = 0; i < count; i++)
    {
      guint keep = fields->len;

      here = r->pos;
      if (!(v2 ? parse_v2_field (r, fields, 0) : parse_v1_field (r, fields, 0)))
        {
          g_array_set_size (fields, keep);
          *cut_at = here;
          return FALSE;
        }
    }
  return TRUE;
}

/* V5 tags after the V1 description: an opcode, or the V2 description that
 * replaces it. */
static EtNtMetaStatus
parse_tags (EtReader *r, EtNettraceMeta *meta, gsize *bad_at)
{
  EtNtMetaStatus status = ET_NT_META_TAGGED;

  while (et_reader_remaining (r) > 0)
    {
      gsize here = r->pos;
      guint32 len = et_reader_u32 (r);
      guint8 kind = et_reader_u8 (r);
      const guint8 *bytes = et_reader_take (r, len);
      EtReader tag;
      gsize cut_at;

      if (bytes == NULL)
        {
          *bad_at = here;
          return ET_NT_META_BAD_TAGS;
        }
      et_reader_init (&tag, bytes, len);
      if (kind == 1)
        {
          meta->opcode = et_reader_u8 (&tag);
          meta->has_opcode = !tag.failed;
        }
      else if (kind == 2)
        {
          g_array_set_size (meta->fields, 0);
          if (!parse_top_fields (&tag, meta->fields, TRUE, &cut_at))
            {
              *bad_at = here + 5 + cut_at;
              status = ET_NT_META_BAD_FIELDS;
            }
        }
    }
  return status;
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
  /* No description at all: an event without fields. A description cut
   * short or of a type this reader does not know keeps the fields before
   * it (TraceEvent keeps none): the damage is reported, not hidden. */
  meta->has_fields = TRUE;
  if (et_reader_remaining (&r) == 0)
    return ET_NT_META_OK;
  if (!parse_top_fields (&r, meta->fields, FALSE, bad_at))
    return ET_NT_META_BAD_FIELDS;
  if (et_reader_remaining (&r) == 0)
    return ET_NT_META_OK;
  return parse_tags (&r, meta, bad_at);
}
