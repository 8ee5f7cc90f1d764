/* et-tracelogging.c — TraceLogging (self-describing) event schemas and payloads.
 *
 * Where it sits: the trace loader finds an EVENT_SCHEMA_TL extended item on
 * an EVENT_HEADER record and asks the trace's event-class table for the
 * schema of that metadata blob; on a miss the table calls et_tl_schema_parse
 * once and keeps the result. Every event of that class then goes through
 * et_tl_decode, which walks the parsed node array and the payload bytes and
 * appends EtFields entries. Metadata is never looked at again while decoding.
 *
 *   item 11 bytes ──parse──▶ EtTlSchema (flat pre-order node array)
 *   payload bytes ─────────▶ et_tl_decode ──▶ EtFields
 *
 * Grammar and numbers: docs/etl-format.md §10 ([TLD] TraceLoggingDynamic.h).
 * Everything read from the file is untrusted: metadata that lies about sizes,
 * counts or nesting is an ET_ETL_ERROR naming the metadata offset, and a short
 * payload is an ET_ETL_ERROR naming the field and payload offset.
 */
#include "et-tracelogging.h"

#include "et-bytes.h"
#include "et-error.h"

#include <string.h>

/* Real events nest a few levels and carry tens of fields; these bounds only
 * exist so that hostile metadata cannot recurse or allocate without end. */
#define TL_MAX_DEPTH  32
#define TL_MAX_NODES  1024

enum
{
  TL_IN_UNICODE_STRING = 1,
  TL_IN_ANSI_STRING,
  TL_IN_INT8,
  TL_IN_UINT8,
  TL_IN_INT16,
  TL_IN_UINT16,
  TL_IN_INT32,
  TL_IN_UINT32,
  TL_IN_INT64,
  TL_IN_UINT64,
  TL_IN_FLOAT,
  TL_IN_DOUBLE,
  TL_IN_BOOL32,
  TL_IN_BINARY,
  TL_IN_GUID,
  TL_IN_POINTER_UNSUPPORTED,
  TL_IN_FILETIME,
  TL_IN_SYSTEMTIME,
  TL_IN_SID,
  TL_IN_HEXINT32,
  TL_IN_HEXINT64,
  TL_IN_COUNTED_STRING,
  TL_IN_COUNTED_ANSI_STRING,
  TL_IN_STRUCT,
  TL_IN_COUNTED_BINARY,
  TL_IN_LAST = TL_IN_COUNTED_BINARY,
};

enum
{
  TL_OUT_STRING = 2,
  TL_OUT_BOOLEAN = 3,
  TL_OUT_HEX = 4,
  TL_OUT_PORT = 7,
  TL_OUT_XML = 11,
  TL_OUT_JSON = 12,
  TL_OUT_UTF8 = 35,
  TL_OUT_CODE_POINTER = 37,
};

enum
{
  TL_COUNT_SCALAR = 0x00,
  TL_COUNT_CONST = 0x20,
  TL_COUNT_VAR = 0x40,
  TL_COUNT_CUSTOM = 0x60,
};

typedef struct
{
  const char *name;
  guint8      in_type;
  guint8      out_type;    /* for a struct: 0 (its raw out-type is n_members) */
  guint8      count_kind;  /* TL_COUNT_* */
  guint16     const_count;
  guint16     n_members;   /* struct: direct members */
  guint16     n_desc;      /* struct: all nodes below this one */
  guint32     elem_min;    /* fewest payload bytes one element can take */
} EtTlNode;

struct _EtTlSchema
{
  char     *names;       /* event and field names, each NUL-terminated */
  char     *event_name;  /* points into names */
  guint32   tags;
  guint     n_top;
  guint     n_nodes;
  EtTlNode *nodes;
  EtFixedLayout *fixed;  /* NULL unless every field is a fixed-size scalar */
  EtWalkLayout  *walk;   /* without a fixed layout: NULL unless it can be walked */
};

/* ---- metadata ---------------------------------------------------------- */

typedef struct
{
  EtReader  r;
  GArray   *nodes;   /* EtTlNode; name holds an offset into names until done */
  GString  *names;
  GError  **error;
} TlParser;

static gboolean G_GNUC_PRINTF (4, 5)
meta_fail (TlParser *p, EtEtlError code, gsize offset, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (p->error, ET_ETL_ERROR, code,
               "TraceLogging metadata, offset %" G_GSIZE_FORMAT ": %s", offset, what);
  return FALSE;
}

/* Copies a NUL-terminated name into the names buffer (valid UTF-8 always,
 * since names end up in JSON and on screen) and returns its offset. */
static gboolean
meta_read_name (TlParser *p, const char *what, gsize *name_offset)
{
  gsize start = p->r.pos;
  const guint8 *here = p->r.data + start;
  const guint8 *nul = memchr (here, 0, et_reader_remaining (&p->r));
  g_autofree char *valid = NULL;

  if (nul == NULL)
    return meta_fail (p, ET_ETL_ERROR_TRUNCATED, start, "%s has no terminating NUL", what);
  et_reader_take (&p->r, (gsize) (nul - here) + 1);
  valid = g_utf8_make_valid ((const char *) here, nul - here);
  *name_offset = p->names->len;
  g_string_append_len (p->names, valid, strlen (valid) + 1);
  return TRUE;
}

/* Tags are 28 bits sent most significant first, 7 bits per byte, the high
 * bit of each byte saying that another byte follows (at most 4). */
static gboolean
meta_read_tags (TlParser *p, guint32 *tags)
{
  gsize start = p->r.pos;
  guint32 value = 0;

  for (int shift = 21; shift >= 0; shift -= 7)
    {
      guint8 b = et_reader_u8 (&p->r);

      if (p->r.failed)
        return meta_fail (p, ET_ETL_ERROR_TRUNCATED, start, "tags run past the end");
      value |= (guint32) (b & 0x7F) << shift;
      if ((b & 0x80) == 0)
        {
          *tags = value;
          return TRUE;
        }
    }
  return meta_fail (p, ET_ETL_ERROR_CORRUPT, start, "tags chain longer than 4 bytes");
}

static guint32
sat_add (guint32 a, guint32 b)
{
  return a > G_MAXUINT32 - b ? G_MAXUINT32 : a + b;
}

static guint32
sat_mul (guint32 a, guint32 b)
{
  return b != 0 && a > G_MAXUINT32 / b ? G_MAXUINT32 : a * b;
}

/* Payload bytes one element of a non-struct in-type needs at least; a
 * length-prefixed value needs its prefix, a NUL-terminated one its NUL. */
static guint32
in_type_min_size (guint in_type)
{
  static const guint8 sizes[TL_IN_LAST + 1] = {
    [TL_IN_UNICODE_STRING] = 2, [TL_IN_ANSI_STRING] = 1,
    [TL_IN_INT8] = 1, [TL_IN_UINT8] = 1, [TL_IN_INT16] = 2, [TL_IN_UINT16] = 2,
    [TL_IN_INT32] = 4, [TL_IN_UINT32] = 4, [TL_IN_INT64] = 8, [TL_IN_UINT64] = 8,
    [TL_IN_FLOAT] = 4, [TL_IN_DOUBLE] = 8, [TL_IN_BOOL32] = 4, [TL_IN_BINARY] = 2,
    [TL_IN_GUID] = 16, [TL_IN_FILETIME] = 8, [TL_IN_SYSTEMTIME] = 16, [TL_IN_SID] = 8,
    [TL_IN_HEXINT32] = 4, [TL_IN_HEXINT64] = 8, [TL_IN_COUNTED_STRING] = 2,
    [TL_IN_COUNTED_ANSI_STRING] = 2, [TL_IN_COUNTED_BINARY] = 2,
  };
  return in_type <= TL_IN_LAST ? sizes[in_type] : 0;
}

/* Fewest payload bytes a whole field (array included) can take. */
static guint32
node_min_size (const EtTlNode *node)
{
  switch (node->count_kind)
    {
    case TL_COUNT_CONST:
      return sat_mul (node->elem_min, node->const_count);
    case TL_COUNT_SCALAR:
      return node->elem_min;
    default:
      return 2;   /* a variable count or a custom field's byte count */
    }
}

static gboolean meta_parse_field (TlParser *p, guint depth);

/* Members of the struct at @index follow it; a nested struct counts as one
 * member and brings its own members along. */
static gboolean
meta_parse_members (TlParser *p, guint index, guint n_members, guint depth, gsize start)
{
  guint32 elem_min = 0;

  for (guint m = 0; m < n_members; m++)
    {
      if (et_reader_remaining (&p->r) == 0)
        return meta_fail (p, ET_ETL_ERROR_CORRUPT, start,
                          "struct claims %u members but the metadata ends after %u",
                          n_members, m);
      if (!meta_parse_field (p, depth + 1))
        return FALSE;
    }

  EtTlNode *node = &g_array_index (p->nodes, EtTlNode, index);
  node->n_members = n_members;
  node->n_desc = p->nodes->len - index - 1;
  for (guint j = index + 1; j < p->nodes->len;
       j += 1 + g_array_index (p->nodes, EtTlNode, j).n_desc)
    elem_min = sat_add (elem_min, node_min_size (&g_array_index (p->nodes, EtTlNode, j)));
  node->elem_min = elem_min;
  return TRUE;
}

/* InMeta, OutMeta, field tags, constant count and custom schema. */
static gboolean
meta_read_type (TlParser *p, EtTlNode *node, gsize start)
{
  guint8 in_meta, out_meta = 0;
  guint32 field_tags;

  in_meta = et_reader_u8 (&p->r);
  if (in_meta & 0x80)
    out_meta = et_reader_u8 (&p->r);
  if (p->r.failed)
    return meta_fail (p, ET_ETL_ERROR_TRUNCATED, start, "field type runs past the end");
  if ((out_meta & 0x80) && !meta_read_tags (p, &field_tags))
    return FALSE;

  node->in_type = in_meta & 0x1F;
  node->count_kind = in_meta & 0x60;
  node->out_type = out_meta & 0x7F;
  if (node->count_kind == TL_COUNT_CONST)
    node->const_count = et_reader_u16 (&p->r);
  else if (node->count_kind == TL_COUNT_CUSTOM)
    et_reader_take (&p->r, et_reader_u16 (&p->r));   /* the custom schema: not ours */
  if (p->r.failed)
    return meta_fail (p, ET_ETL_ERROR_TRUNCATED, start,
                      "field array count or custom schema runs past the end");

  /* A custom field is decoded as counted bytes whatever its in-type says. */
  if (node->count_kind != TL_COUNT_CUSTOM
      && (node->in_type == 0 || node->in_type == TL_IN_POINTER_UNSUPPORTED
          || node->in_type > TL_IN_LAST))
    return meta_fail (p, ET_ETL_ERROR_UNSUPPORTED, start, "field in-type %u is not decodable",
                      node->in_type);
  return TRUE;
}

static gboolean
meta_parse_field (TlParser *p, guint depth)
{
  gsize start = p->r.pos;
  EtTlNode node = { 0 };
  gsize name_offset;

  if (depth > TL_MAX_DEPTH)
    return meta_fail (p, ET_ETL_ERROR_CORRUPT, start,
                      "structs nested deeper than %d levels", TL_MAX_DEPTH);
  if (p->nodes->len >= TL_MAX_NODES)
    return meta_fail (p, ET_ETL_ERROR_CORRUPT, start,
                      "more than %d fields", TL_MAX_NODES);
  if (!meta_read_name (p, "field name", &name_offset) || !meta_read_type (p, &node, start))
    return FALSE;
  node.name = GSIZE_TO_POINTER (name_offset);

  if (node.in_type == TL_IN_STRUCT && node.count_kind != TL_COUNT_CUSTOM)
    {
      guint index = p->nodes->len;
      guint n_members = node.out_type;

      node.out_type = 0;
      g_array_append_val (p->nodes, node);
      return meta_parse_members (p, index, n_members, depth, start);
    }
  node.elem_min = node.count_kind == TL_COUNT_CUSTOM ? 2 : in_type_min_size (node.in_type);
  g_array_append_val (p->nodes, node);
  return TRUE;
}

static gboolean
meta_parse_all (TlParser *p, EtTlSchema *schema, gsize *event_name_offset)
{
  guint16 size = et_reader_u16 (&p->r);

  if (p->r.failed || size < 2)
    return meta_fail (p, ET_ETL_ERROR_TRUNCATED, 0, "no size");
  if (size > p->r.len)
    return meta_fail (p, ET_ETL_ERROR_TRUNCATED, 0,
                      "size %u is past the end of the %" G_GSIZE_FORMAT "-byte item",
                      size, p->r.len);
  p->r.len = size;   /* padding after the metadata is not ours */

  if (!meta_read_tags (p, &schema->tags) || !meta_read_name (p, "event name", event_name_offset))
    return FALSE;
  while (et_reader_remaining (&p->r) > 0)
    {
      if (!meta_parse_field (p, 1))
        return FALSE;
      schema->n_top++;
    }
  return TRUE;
}

static gboolean is_signed_in_type (guint in_type);
static gboolean is_utf8_out_type (guint out_type);

/* How decode_fixed reads a top-level node: -1 for one that is not a
 * fixed-size scalar (and for a 16-bit port, whose bytes are swapped). */
static gint
fixed_class (const EtTlNode *node)
{
  if (node->count_kind != TL_COUNT_SCALAR)
    return -1;
  switch (node->in_type)
    {
    case TL_IN_INT8: case TL_IN_INT16: case TL_IN_INT32: case TL_IN_INT64:
    case TL_IN_UINT8: case TL_IN_UINT16: case TL_IN_UINT32: case TL_IN_UINT64:
    case TL_IN_HEXINT32: case TL_IN_HEXINT64:
      if (node->out_type == TL_OUT_PORT && node->elem_min == 2)
        return -1;
      if (node->out_type == TL_OUT_BOOLEAN)
        return ET_FIXED_OTHER;
      return is_signed_in_type (node->in_type) ? ET_FIXED_SIGNED : ET_FIXED_UNSIGNED;
    case TL_IN_BOOL32: case TL_IN_FLOAT: case TL_IN_DOUBLE: case TL_IN_GUID:
    case TL_IN_FILETIME: case TL_IN_SYSTEMTIME:
      return ET_FIXED_OTHER;
    default:
      return -1;
    }
}

/* How the walk reads a top-level node that is not a fixed-size scalar:
 * strings and counted bytes as decode_string (or decode_field, for a
 * custom field) reads them; -1 for any other. */
static gint
walk_kind (const EtTlNode *node)
{
  gboolean utf8 = is_utf8_out_type (node->out_type);

  if (node->count_kind == TL_COUNT_CUSTOM)
    return ET_WALK_COUNTED_BINARY;
  if (node->count_kind != TL_COUNT_SCALAR)
    return -1;
  switch (node->in_type)
    {
    case TL_IN_UNICODE_STRING:       return ET_WALK_UTF16Z;
    case TL_IN_ANSI_STRING:          return utf8 ? ET_WALK_UTF8Z : ET_WALK_ANSIZ;
    case TL_IN_COUNTED_STRING:       return ET_WALK_COUNTED_UTF16;
    case TL_IN_COUNTED_ANSI_STRING:  return utf8 ? ET_WALK_COUNTED_UTF8 : ET_WALK_COUNTED_ANSI;
    case TL_IN_BINARY:
    case TL_IN_COUNTED_BINARY:       return ET_WALK_COUNTED_BINARY;
    default:                         return -1;
    }
}

/* The schema's fixed layout when every top-level field is a fixed-size
 * scalar, else its walk layout when every one can be walked, else neither. */
static void
layouts_of (EtTlSchema *schema)
{
  EtFixedLayout *fixed = g_new0 (EtFixedLayout, 1);
  EtWalkLayout *walk = g_new0 (EtWalkLayout, 1);

  for (guint f = 0, index = 0; f < schema->n_top && (fixed != NULL || walk != NULL); f++)
    {
      const EtTlNode *node = &schema->nodes[index];
      gint klass = fixed_class (node);
      gint kind = klass >= 0 ? ET_WALK_SCALAR : walk_kind (node);
      guint size = klass >= 0 ? node->elem_min : 0;

      if (klass < 0)
        g_clear_pointer (&fixed, et_fixed_layout_free);
      else if (fixed != NULL)
        et_fixed_layout_add (fixed, node->name, size, klass);
      if (kind < 0)
        g_clear_pointer (&walk, et_walk_layout_free);
      else if (walk != NULL)
        et_walk_layout_add (walk, node->name, kind, size, MAX (klass, 0));
      index += 1 + node->n_desc;
    }
  if (fixed != NULL)
    g_clear_pointer (&walk, et_walk_layout_free);
  schema->fixed = fixed;
  schema->walk = walk;
}

EtTlSchema *
et_tl_schema_parse (const guint8 *meta, gsize len, GError **error)
{
  g_autoptr(EtTlSchema) schema = g_new0 (EtTlSchema, 1);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (EtTlNode));
  g_autoptr(GString) names = g_string_new (NULL);
  TlParser p = { .nodes = nodes, .names = names, .error = error };
  gsize event_name_offset = 0;

  g_return_val_if_fail (meta != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  et_reader_init (&p.r, meta, len);
  if (!meta_parse_all (&p, schema, &event_name_offset))
    return NULL;

  /* The names buffer has stopped growing: offsets become pointers. */
  schema->n_nodes = nodes->len;
  schema->names = g_string_free (g_steal_pointer (&names), FALSE);
  schema->event_name = schema->names + event_name_offset;
  schema->nodes = (EtTlNode *) (gpointer) g_array_free (g_steal_pointer (&nodes), FALSE);
  for (guint i = 0; i < schema->n_nodes; i++)
    schema->nodes[i].name = schema->names + GPOINTER_TO_SIZE (schema->nodes[i].name);
  layouts_of (schema);
  return g_steal_pointer (&schema);
}

void
et_tl_schema_free (EtTlSchema *schema)
{
  if (schema == NULL)
    return;
  g_free (schema->names);
  g_free (schema->nodes);
  et_fixed_layout_free (schema->fixed);
  et_walk_layout_free (schema->walk);
  g_free (schema);
}

const char *
et_tl_schema_event_name (const EtTlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);
  return schema->event_name;
}

guint32
et_tl_schema_event_tags (const EtTlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);
  return schema->tags;
}

const EtFixedLayout *
et_tl_schema_fixed_layout (const EtTlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);
  return schema->fixed;
}

const EtWalkLayout *
et_tl_schema_walk_layout (const EtTlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);
  return schema->walk;
}

guint
et_tl_schema_n_fields (const EtTlSchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);
  return schema->n_top;
}

/* ---- payload ----------------------------------------------------------- */

typedef struct
{
  const EtTlSchema *schema;
  EtReader          r;
  EtFields         *fields;
  gsize             budget;   /* entries this payload may still produce */
  GError          **error;
} TlDecoder;

static gboolean
payload_fail (TlDecoder *d, const EtTlNode *node, gsize offset, EtEtlError code,
              const char *what)
{
  g_set_error (d->error, ET_ETL_ERROR, code,
               "payload offset %" G_GSIZE_FORMAT ": field “%s” of TraceLogging event “%s”: %s",
               offset, node->name, d->schema->event_name, what);
  return FALSE;
}

static gboolean
payload_short (TlDecoder *d, const EtTlNode *node, gsize offset)
{
  return payload_fail (d, node, offset, ET_ETL_ERROR_TRUNCATED, "the payload ends too soon");
}

/* Structs and constant-count arrays take no payload bytes of their own, so a
 * few of them nested could ask for billions of entries from nothing. A real
 * payload produces at most one entry per byte per nesting level. */
static gboolean
spend_entry (TlDecoder *d, const EtTlNode *node)
{
  if (d->budget == 0)
    return payload_fail (d, node, d->r.pos, ET_ETL_ERROR_CORRUPT,
                         "arrays and structs expand to more entries than the payload can hold");
  d->budget--;
  return TRUE;
}

static guint
add_typed (TlDecoder *d, guint index, const EtTlNode *node, EtValueHint hint)
{
  EtField *f = et_fields_entry (d->fields, index);

  f->in_type = node->in_type;
  f->out_type = node->out_type;
  f->hint = hint;
  return index;
}

static gboolean
is_utf8_out_type (guint out_type)
{
  return out_type == TL_OUT_UTF8 || out_type == TL_OUT_XML || out_type == TL_OUT_JSON;
}

static void
add_8bit_text (TlDecoder *d, const EtTlNode *node, const guint8 *bytes, gsize len)
{
  guint i;

  if (is_utf8_out_type (node->out_type))
    i = et_fields_add_string (d->fields, node->name, (const char *) bytes, len);
  else
    i = et_fields_add_ansi (d->fields, node->name, (const char *) bytes, len);
  add_typed (d, i, node, ET_HINT_NONE);
}

static gboolean
decode_string (TlDecoder *d, const EtTlNode *node, gsize start)
{
  const guint8 *here = d->r.data + d->r.pos;
  gsize left = et_reader_remaining (&d->r);
  gsize n;

  switch (node->in_type)
    {
    case TL_IN_UNICODE_STRING:
      for (n = 0; 2 * n + 1 < left; n++)
        if (here[2 * n] == 0 && here[2 * n + 1] == 0)
          break;
      if (2 * n + 1 >= left)
        return payload_short (d, node, start);
      et_reader_take (&d->r, 2 * n + 2);
      add_typed (d, et_fields_add_utf16 (d->fields, node->name, here, n), node, ET_HINT_NONE);
      return TRUE;
    case TL_IN_ANSI_STRING:
      {
        const guint8 *nul = memchr (here, 0, left);
        if (nul == NULL)
          return payload_short (d, node, start);
        et_reader_take (&d->r, (gsize) (nul - here) + 1);
        add_8bit_text (d, node, here, nul - here);
        return TRUE;
      }
    default:   /* counted: a u16 byte count, then the bytes */
      n = et_reader_u16 (&d->r);
      here = et_reader_take (&d->r, n);
      if (here == NULL)
        return payload_short (d, node, start);
      if (node->in_type == TL_IN_COUNTED_STRING)
        add_typed (d, et_fields_add_utf16 (d->fields, node->name, here, n / 2), node,
                   ET_HINT_NONE);
      else if (node->in_type == TL_IN_COUNTED_ANSI_STRING)
        add_8bit_text (d, node, here, n);
      else
        add_typed (d, et_fields_add_bytes (d->fields, node->name, ET_VALUE_BINARY, here, n),
                   node, ET_HINT_NONE);
      return TRUE;
    }
}

/* Integers: the out-type may turn one into a Boolean, a character or hex. */
static void
add_integer (TlDecoder *d, const EtTlNode *node, guint64 raw, guint width, gboolean is_signed)
{
  EtValueHint hint = ET_HINT_NONE;
  guint i;

  if (node->out_type == TL_OUT_PORT && width == 2)
    raw = GUINT16_SWAP_LE_BE ((guint16) raw);   /* ports are sent in network order */
  if (is_signed && width < 8)
    raw = (guint64) (((gint64) (raw << (64 - 8 * width))) >> (64 - 8 * width));

  if (node->out_type == TL_OUT_BOOLEAN || node->in_type == TL_IN_BOOL32)
    {
      add_typed (d, et_fields_add_bool (d->fields, node->name, raw != 0), node, ET_HINT_NONE);
      return;
    }
  if (node->out_type == TL_OUT_HEX || node->in_type == TL_IN_HEXINT32
      || node->in_type == TL_IN_HEXINT64)
    hint = ET_HINT_HEX;
  else if (node->out_type == TL_OUT_CODE_POINTER)
    hint = ET_HINT_POINTER;
  else if (node->out_type == TL_OUT_STRING && width <= 2)
    hint = ET_HINT_CHAR;
  if (is_signed)
    i = et_fields_add_int (d->fields, node->name, (gint64) raw);
  else
    i = et_fields_add_uint (d->fields, node->name, raw);
  add_typed (d, i, node, hint);
}

static gboolean
is_signed_in_type (guint in_type)
{
  return in_type == TL_IN_INT8 || in_type == TL_IN_INT16 || in_type == TL_IN_INT32
         || in_type == TL_IN_INT64;
}

/* Fixed-size values other than integers: floats, GUID, FILETIME, SYSTEMTIME. */
static guint
add_fixed_other (TlDecoder *d, const EtTlNode *node, const guint8 *p)
{
  guint i;

  switch (node->in_type)
    {
    case TL_IN_FLOAT:
      {
        guint32 bits = et_read_u32 (p);
        float value;
        memcpy (&value, &bits, sizeof value);
        return et_fields_add_float (d->fields, node->name, value);
      }
    case TL_IN_DOUBLE:
      {
        guint64 bits = et_read_u64 (p);
        double value;
        memcpy (&value, &bits, sizeof value);
        return et_fields_add_float (d->fields, node->name, value);
      }
    case TL_IN_GUID:
      {
        EtGuid guid;
        et_guid_from_bytes (&guid, p);
        return et_fields_add_guid (d->fields, node->name, &guid);
      }
    case TL_IN_FILETIME:
      i = et_fields_add (d->fields, node->name, ET_VALUE_FILETIME);
      et_fields_entry (d->fields, i)->v.i = (gint64) et_read_u64 (p);
      return i;
    default:   /* TL_IN_SYSTEMTIME: 8 × u16 */
      i = et_fields_add (d->fields, node->name, ET_VALUE_SYSTEMTIME);
      for (guint k = 0; k < 8; k++)
        et_fields_entry (d->fields, i)->v.st[k] = et_read_u16 (p + 2 * k);
      return i;
    }
}

static gboolean
decode_fixed (TlDecoder *d, const EtTlNode *node, gsize start)
{
  const guint8 *p = et_reader_take (&d->r, node->elem_min);

  if (p == NULL)
    return payload_short (d, node, start);
  switch (node->in_type)
    {
    case TL_IN_INT8: case TL_IN_INT16: case TL_IN_INT32: case TL_IN_INT64:
    case TL_IN_UINT8: case TL_IN_UINT16: case TL_IN_UINT32: case TL_IN_UINT64:
    case TL_IN_BOOL32: case TL_IN_HEXINT32: case TL_IN_HEXINT64:
      {
        guint64 raw = 0;
        for (guint b = node->elem_min; b > 0; b--)
          raw = (raw << 8) | p[b - 1];
        add_integer (d, node, raw, node->elem_min, is_signed_in_type (node->in_type));
        return TRUE;
      }
    default:
      add_typed (d, add_fixed_other (d, node, p), node, ET_HINT_NONE);
      return TRUE;
    }
}

static gboolean
decode_sid (TlDecoder *d, const EtTlNode *node, gsize start)
{
  const guint8 *here = d->r.data + d->r.pos;
  gsize size;

  /* The sub-authority count sits in byte 1; 8 bytes of header precede them. */
  if (et_reader_remaining (&d->r) < 8)
    return payload_short (d, node, start);
  size = 8 + 4 * (gsize) here[1];
  if (et_reader_take (&d->r, size) == NULL)
    return payload_short (d, node, start);
  add_typed (d, et_fields_add_bytes (d->fields, node->name, ET_VALUE_SID, here, size), node,
             ET_HINT_NONE);
  return TRUE;
}

static gboolean decode_field (TlDecoder *d, guint index);

/* One value of the node at @index (one element when the field is an array). */
static gboolean
decode_value (TlDecoder *d, guint index)
{
  const EtTlNode *node = &d->schema->nodes[index];
  gsize start = d->r.pos;

  if (!spend_entry (d, node))
    return FALSE;
  switch (node->in_type)
    {
    case TL_IN_STRUCT:
      add_typed (d, et_fields_begin (d->fields, node->name, ET_VALUE_STRUCT), node,
                 ET_HINT_NONE);
      for (guint m = 0, j = index + 1; m < node->n_members; m++)
        {
          if (!decode_field (d, j))
            return FALSE;
          j += 1 + d->schema->nodes[j].n_desc;
        }
      et_fields_end (d->fields);
      return TRUE;
    case TL_IN_UNICODE_STRING: case TL_IN_ANSI_STRING: case TL_IN_BINARY:
    case TL_IN_COUNTED_STRING: case TL_IN_COUNTED_ANSI_STRING: case TL_IN_COUNTED_BINARY:
      return decode_string (d, node, start);
    case TL_IN_SID:
      return decode_sid (d, node, start);
    default:
      return decode_fixed (d, node, start);
    }
}

/* An array of 8- or 16-bit integers with out-type String is text, not a
 * list of characters (AMSI's "Raw Script"); it ends at the first NUL. */
static gboolean
decode_char_array (TlDecoder *d, const EtTlNode *node, gsize count, gsize start)
{
  gsize width = node->in_type == TL_IN_UINT16 ? 2 : 1;
  const guint8 *p = et_reader_take (&d->r, count * width);
  gsize n = 0;
  guint i;

  if (p == NULL)
    return payload_short (d, node, start);
  if (!spend_entry (d, node))
    return FALSE;
  while (n < count && (p[n * width] != 0 || (width == 2 && p[n * width + 1] != 0)))
    n++;
  if (width == 2)
    i = et_fields_add_utf16 (d->fields, node->name, p, n);
  else
    i = et_fields_add_ansi (d->fields, node->name, (const char *) p, n);
  add_typed (d, i, node, ET_HINT_NONE);
  return TRUE;
}

static gboolean
is_char_text (const EtTlNode *node)
{
  return node->out_type == TL_OUT_STRING
         && (node->in_type == TL_IN_INT8 || node->in_type == TL_IN_UINT8
             || node->in_type == TL_IN_UINT16);
}

static gboolean
decode_array (TlDecoder *d, guint index, gsize count, gsize start)
{
  const EtTlNode *node = &d->schema->nodes[index];

  if (is_char_text (node))
    return decode_char_array (d, node, count, start);
  /* Refuse an element count the rest of the payload cannot hold before
   * producing any entries for it. */
  if ((guint64) count * node->elem_min > et_reader_remaining (&d->r))
    return payload_short (d, node, start);
  if (!spend_entry (d, node))
    return FALSE;
  add_typed (d, et_fields_begin (d->fields, node->name, ET_VALUE_ARRAY), node, ET_HINT_NONE);
  for (gsize e = 0; e < count; e++)
    if (!decode_value (d, index))
      return FALSE;
  et_fields_end (d->fields);
  return TRUE;
}

/* The whole field at @index: a scalar, an array of values or custom bytes. */
static gboolean
decode_field (TlDecoder *d, guint index)
{
  const EtTlNode *node = &d->schema->nodes[index];
  gsize start = d->r.pos;
  guint16 n;
  const guint8 *bytes;

  switch (node->count_kind)
    {
    case TL_COUNT_SCALAR:
      return decode_value (d, index);
    case TL_COUNT_CONST:
      return decode_array (d, index, node->const_count, start);
    case TL_COUNT_VAR:
      n = et_reader_u16 (&d->r);
      if (d->r.failed)
        return payload_short (d, node, start);
      return decode_array (d, index, n, start);
    default:   /* custom serializer: opaque counted bytes */
      n = et_reader_u16 (&d->r);
      bytes = et_reader_take (&d->r, n);
      if (bytes == NULL)
        return payload_short (d, node, start);
      if (!spend_entry (d, node))
        return FALSE;
      add_typed (d, et_fields_add_bytes (d->fields, node->name, ET_VALUE_BINARY, bytes, n),
                 node, ET_HINT_NONE);
      return TRUE;
    }
}

/* Removes what a failed decode appended, so the caller sees @fields as it
 * was (including the counts of containers the caller had open). */
static void
roll_back (EtFields *fields, guint first, gsize text_len, guint n_open)
{
  guint removed = fields->n_entries - first;
  guint top_level = 0;

  fields->n_open = n_open;
  for (guint i = first; i < fields->n_entries; i = et_fields_next (fields, i))
    top_level++;
  for (guint k = 0; k < n_open; k++)
    {
      EtField *open = et_fields_entry (fields, fields->open[k]);
      open->n_desc -= removed;
      if (k == n_open - 1)
        open->n_children -= top_level;
    }
  fields->n_entries = first;
  g_string_truncate (fields->text, text_len);
}

gboolean
et_tl_decode (const EtTlSchema *schema, const guint8 *payload, gsize len, EtFields *fields,
              gsize *consumed, GError **error)
{
  TlDecoder d = { .schema = schema, .fields = fields, .error = error };
  guint first, n_open;
  gsize text_len;

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (fields != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  et_reader_init (&d.r, payload, len);
  d.budget = ((gsize) len + 1) * (TL_MAX_DEPTH + 2) + schema->n_nodes;
  first = fields->n_entries;
  text_len = fields->text->len;
  n_open = fields->n_open;

  for (guint f = 0, index = 0; f < schema->n_top; f++)
    {
      if (!decode_field (&d, index))
        {
          roll_back (fields, first, text_len, n_open);
          if (consumed)
            *consumed = d.r.pos;
          return FALSE;
        }
      index += 1 + schema->nodes[index].n_desc;
    }
  if (consumed)
    *consumed = d.r.pos;
  return TRUE;
}

/* ---- provider traits --------------------------------------------------- */

/* The traits themselves (group GUID, …) are not used, but a chain that does
 * not add up means the item is not what it claims to be. */
static gboolean
traits_check_chain (EtReader *r, GError **error)
{
  while (et_reader_remaining (r) > 0)
    {
      gsize at = r->pos;
      guint16 trait_size = et_reader_u16 (r);

      if (r->failed || trait_size < 3 || et_reader_take (r, trait_size - 2) == NULL)
        {
          g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                       "TraceLogging provider traits, offset %" G_GSIZE_FORMAT
                       ": trait size %u does not fit", at, trait_size);
          return FALSE;
        }
    }
  return TRUE;
}

char *
et_tl_traits_provider_name (const guint8 *traits, gsize len, GError **error)
{
  EtReader r;
  guint16 size;
  const guint8 *name, *nul;

  g_return_val_if_fail (traits != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  et_reader_init (&r, traits, len);
  size = et_reader_u16 (&r);
  if (r.failed || size < 3 || size > len)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED,
                   "TraceLogging provider traits, offset 0: size %u does not fit the "
                   "%" G_GSIZE_FORMAT "-byte item", size, len);
      return NULL;
    }
  r.len = size;
  name = traits + 2;
  nul = memchr (name, 0, size - 2);
  if (nul == NULL)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED,
                   "TraceLogging provider traits, offset 2: provider name has no NUL");
      return NULL;
    }
  et_reader_take (&r, (gsize) (nul - name) + 1);
  if (!traits_check_chain (&r, error))
    return NULL;
  return g_utf8_make_valid ((const char *) name, nul - name);
}

/* ---- names ------------------------------------------------------------- */

/* Spelled as TDH and docs/etl-format.md §10 spell them (and as the expected
 * JSON of the corpus does). NULL for numbers without a name. */
const char *
et_tl_in_type_name (guint in_type)
{
  static const char *const names[TL_IN_LAST + 1] = {
    NULL, "UnicodeString", "AnsiString", "Int8", "UInt8", "Int16", "UInt16", "Int32",
    "UInt32", "Int64", "UInt64", "Float", "Double", "Bool32", "Binary", "Guid", "Pointer",
    "FileTime", "SystemTime", "Sid", "HexInt32", "HexInt64", "CountedString",
    "CountedAnsiString", "Struct", "CountedBinary",
  };
  return in_type <= TL_IN_LAST ? names[in_type] : NULL;
}

const char *
et_tl_out_type_name (guint out_type)
{
  static const char *const names[] = {
    "Default", "NoPrint", "String", "Boolean", "Hex", "Pid", "Tid", "Port", "IPv4", "IPv6",
    "SocketAddress", "Xml", "Json", "Win32Error", "NTStatus", "HResult", "DateTime",
    "Signed", "Unsigned",
  };

  if (out_type < G_N_ELEMENTS (names))
    return names[out_type];
  switch (out_type)
    {
    case 33: return "DateTimeCultureInsensitive";
    case 35: return "Utf8";
    case 36: return "Pkcs7";
    case 37: return "CodePointer";
    case 38: return "DateTimeUtc";
    default: return NULL;
    }
}
