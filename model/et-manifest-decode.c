/* et-manifest-decode.c — payloads of manifest events, field by field.
 *
 * Third stage for EventSource providers: with the event's template from
 * et-manifest.c, each payload is read into EtFields (etl-format.md §9,
 * "Data types"). Every read is bounds-checked; a count or length can never
 * make the decoder allocate more than the payload could hold.
 */
#include "et-manifest-private.h"
#include "et-bytes.h"
#include "et-error.h"

typedef struct
{
  const EtManifest *manifest;
  EtReader          r;
  guint             pointer_size;
  EtFields         *fields;
  guint64          *values;       /* integer value of each template field so far */
} Decoder;

static gboolean
fail (Decoder *d, const EtTemplateField *f, gsize at, const char *why, GError **error)
{
  g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED,
               "field “%s” at payload offset %" G_GSIZE_FORMAT ": %s", f->name, at, why);
  return FALSE;
}

static void
apply_map (Decoder *d, const EtTemplateField *f, guint index, guint64 value)
{
  const EtMapDef *map = f->map;
  g_autoptr(GString) label = NULL;
  guint64 rest = value;

  if (map == NULL)
    return;
  if (!map->bitmap)
    {
      for (guint i = 0; i < map->entries->len; i++)
        if (g_array_index (map->entries, EtMapEntry, i).value == value)
          et_fields_set_label (d->fields, index, g_array_index (map->entries, EtMapEntry, i).message);
      return;
    }
  label = g_string_new (NULL);
  for (guint i = 0; i < map->entries->len; i++)
    {
      const EtMapEntry *e = &g_array_index (map->entries, EtMapEntry, i);
      if (e->value != 0 && (value & e->value) == e->value)
        {
          if (label->len)
            g_string_append_c (label, '|');
          g_string_append (label, e->message);
          rest &= ~e->value;
        }
    }
  if (rest != 0)
    g_string_append_printf (label, "%s0x%" G_GINT64_MODIFIER "x", label->len ? "|" : "", rest);
  et_fields_set_label (d->fields, index, label->str);
}

/* Text up to a NUL of @unit bytes (1 or 2), or @chars units when fixed. */
static gboolean
read_text (Decoder *d, const EtTemplateField *f, gsize unit, gssize chars, GError **error)
{
  gsize start = d->r.pos, n = 0;
  const guint8 *p = d->r.data + start;
  gsize left = et_reader_remaining (&d->r);

  if (chars >= 0)
    n = (gsize) chars;
  else
    {
      while ((n + 1) * unit <= left && (unit == 1 ? p[n] != 0 : et_read_u16 (p + 2 * n) != 0))
        n++;
      if ((n + 1) * unit > left)
        return fail (d, f, start, "string without its terminating NUL", error);
    }
  if (n * unit > left)
    return fail (d, f, start, "string runs past the end of the payload", error);
  if (unit == 2)
    et_fields_add_utf16 (d->fields, f->name, p, n);
  else
    et_fields_add_ansi (d->fields, f->name, (const char *) p, n);
  et_reader_take (&d->r, n * unit + (chars >= 0 ? 0 : unit));
  return TRUE;
}

static gsize
fixed_size (const Decoder *d, guint8 in_type)
{
  switch (in_type)
    {
    case ET_IN_INT8: case ET_IN_UINT8: return 1;
    case ET_IN_INT16: case ET_IN_UINT16: return 2;
    case ET_IN_INT32: case ET_IN_UINT32: case ET_IN_FLOAT: case ET_IN_BOOLEAN:
    case ET_IN_HEXINT32: return 4;
    case ET_IN_INT64: case ET_IN_UINT64: case ET_IN_DOUBLE: case ET_IN_FILETIME:
    case ET_IN_HEXINT64: return 8;
    case ET_IN_POINTER: return d->pointer_size;
    case ET_IN_GUID: case ET_IN_SYSTEMTIME: return 16;
    default: return 0;
    }
}

static guint
add_fixed (Decoder *d, const EtTemplateField *f, const guint8 *p, guint64 *value)
{
  guint i;
  EtGuid guid;
  gfloat fl;
  guint32 u32;

  switch (f->in_type)
    {
    case ET_IN_INT8:   return et_fields_add_int (d->fields, f->name, *value = (guint64) (gint8) p[0]);
    case ET_IN_UINT8:  return et_fields_add_uint (d->fields, f->name, *value = p[0]);
    case ET_IN_INT16:  return et_fields_add_int (d->fields, f->name, *value = (guint64) (gint16) et_read_u16 (p));
    case ET_IN_UINT16: return et_fields_add_uint (d->fields, f->name, *value = et_read_u16 (p));
    case ET_IN_INT32:  return et_fields_add_int (d->fields, f->name, *value = (guint64) (gint32) et_read_u32 (p));
    case ET_IN_UINT32: case ET_IN_HEXINT32:
      return et_fields_add_uint (d->fields, f->name, *value = et_read_u32 (p));
    case ET_IN_INT64:  return et_fields_add_int (d->fields, f->name, (gint64) (*value = et_read_u64 (p)));
    case ET_IN_UINT64: case ET_IN_HEXINT64:
      return et_fields_add_uint (d->fields, f->name, *value = et_read_u64 (p));
    case ET_IN_POINTER:
      *value = d->pointer_size == 4 ? et_read_u32 (p) : et_read_u64 (p);
      i = et_fields_add_uint (d->fields, f->name, *value);
      et_fields_entry (d->fields, i)->hint = ET_HINT_POINTER;
      return i;
    case ET_IN_FLOAT:
      u32 = et_read_u32 (p);
      memcpy (&fl, &u32, 4);
      return et_fields_add_float (d->fields, f->name, fl);
    case ET_IN_DOUBLE:
      {
        guint64 bits = et_read_u64 (p);
        double db;
        memcpy (&db, &bits, 8);
        return et_fields_add_float (d->fields, f->name, db);
      }
    case ET_IN_BOOLEAN:
      return et_fields_add_bool (d->fields, f->name, (*value = et_read_u32 (p)) != 0);
    case ET_IN_GUID:
      et_guid_from_bytes (&guid, p);
      return et_fields_add_guid (d->fields, f->name, &guid);
    case ET_IN_FILETIME:
      i = et_fields_add (d->fields, f->name, ET_VALUE_FILETIME);
      et_fields_entry (d->fields, i)->v.i = (gint64) et_read_u64 (p);
      return i;
    default: /* ET_IN_SYSTEMTIME */
      i = et_fields_add (d->fields, f->name, ET_VALUE_SYSTEMTIME);
      for (guint k = 0; k < 8; k++)
        et_fields_entry (d->fields, i)->v.st[k] = et_read_u16 (p + 2 * k);
      return i;
    }
}

static gboolean
length_of (Decoder *d, const EtTemplateField *f, gssize *length)
{
  *length = -1;
  if (!f->has_length)
    return TRUE;
  *length = f->length_field >= 0 ? (gssize) MIN (d->values[f->length_field], G_MAXSSIZE)
                                 : (gssize) f->length_const;
  return TRUE;
}

static gboolean
decode_one (Decoder *d, const EtTemplateField *f, guint64 *value, GError **error)
{
  gsize at = d->r.pos, size;
  gssize length;
  guint index;

  length_of (d, f, &length);
  switch (f->in_type)
    {
    case ET_IN_UNICODE_STRING:
      return read_text (d, f, 2, length, error);
    case ET_IN_ANSI_STRING:
      return read_text (d, f, 1, length, error);
    case ET_IN_BINARY:
      size = length >= 0 ? (gsize) length : et_reader_remaining (&d->r);
      if (size > et_reader_remaining (&d->r))
        return fail (d, f, at, "binary length runs past the end of the payload", error);
      et_fields_add_bytes (d->fields, f->name, ET_VALUE_BINARY, et_reader_take (&d->r, size), size);
      return TRUE;
    case ET_IN_SID:
      if (et_reader_remaining (&d->r) < 8
          || et_reader_remaining (&d->r) < 8 + 4 * (gsize) d->r.data[d->r.pos + 1])
        return fail (d, f, at, "SID runs past the end of the payload", error);
      size = 8 + 4 * (gsize) d->r.data[d->r.pos + 1];
      et_fields_add_bytes (d->fields, f->name, ET_VALUE_SID, et_reader_take (&d->r, size), size);
      return TRUE;
    default:
      size = fixed_size (d, f->in_type);
      if (size > et_reader_remaining (&d->r))
        return fail (d, f, at, "payload ends inside the field", error);
      index = add_fixed (d, f, et_reader_take (&d->r, size), value);
      et_fields_entry (d->fields, index)->in_type = f->in_type;
      if (f->hex)
        et_fields_entry (d->fields, index)->hint = ET_HINT_HEX;
      apply_map (d, f, index, *value);
      return TRUE;
    }
}

static gboolean
decode_field (Decoder *d, guint i, const EtTemplateField *f, GError **error)
{
  guint64 count;

  d->values[i] = 0;
  if (!f->has_count)
    return decode_one (d, f, &d->values[i], error);
  count = f->count_field >= 0 ? d->values[f->count_field] : f->count_const;
  /* Every element takes at least one byte: a count past the bytes left is a lie. */
  if (count > et_reader_remaining (&d->r))
    return fail (d, f, d->r.pos, "array count exceeds the payload", error);
  et_fields_begin (d->fields, f->name, ET_VALUE_ARRAY);
  for (guint64 k = 0; k < count; k++)
    {
      guint64 ignored;
      if (!decode_one (d, f, &ignored, error))
        {
          et_fields_end (d->fields);
          return FALSE;
        }
    }
  et_fields_end (d->fields);
  return TRUE;
}

gboolean
et_manifest_decode (const EtManifest *manifest, const EtManifestEvent *event,
                    const guint8 *payload, gsize len, guint pointer_size, EtFields *fields,
                    gsize *consumed, GError **error)
{
  const EtManifestTemplate *t = event->template_;
  guint64 stack_values[32];
  g_autofree guint64 *heap_values = NULL;
  Decoder d = { manifest, { 0 }, pointer_size == 4 ? 4 : 8, fields, stack_values };
  gboolean ok = TRUE;

  et_reader_init (&d.r, payload, len);
  if (t != NULL && t->fields->len > G_N_ELEMENTS (stack_values))
    d.values = heap_values = g_new0 (guint64, t->fields->len);
  for (guint i = 0; ok && t != NULL && i < t->fields->len; i++)
    ok = decode_field (&d, i, &g_array_index (t->fields, EtTemplateField, i), error);
  if (consumed != NULL)
    *consumed = d.r.pos;
  return ok;
}
