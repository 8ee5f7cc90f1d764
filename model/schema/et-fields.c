/* et-fields.c — building, reading and formatting decoded payloads.
 *
 * The payload decoders append entries here; the marker rules, the CLI and
 * the details view read them. Formatting follows docs/markers.md ("Value
 * formatting everywhere") so that marker text, CLI output and the details
 * view agree on how a value looks.
 */
#include "et-fields.h"
#include "et-bytes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

EtFields *
et_fields_new (void)
{
  EtFields *fields = g_new0 (EtFields, 1);

  fields->entries_capacity = 16;
  fields->entries = g_new (EtField, fields->entries_capacity);
  fields->text = g_string_sized_new (256);
  fields->open_capacity = 4;
  fields->open = g_new (guint, fields->open_capacity);
  return fields;
}

void
et_fields_free (EtFields *fields)
{
  if (fields == NULL)
    return;
  g_free (fields->entries);
  g_string_free (fields->text, TRUE);
  g_free (fields->open);
  g_free (fields);
}

void
et_fixed_layout_add (EtFixedLayout *layout, const char *name, guint size, EtFixedClass klass)
{
  EtFixedField *f;

  layout->fields = g_renew (EtFixedField, layout->fields, layout->n_fields + 1);
  f = &layout->fields[layout->n_fields++];
  f->name = name;
  f->offset = layout->size;
  f->size = (guint8) size;
  f->klass = (guint8) klass;
  layout->size += size;
}

void
et_fixed_layout_free (EtFixedLayout *layout)
{
  if (layout == NULL)
    return;
  g_free (layout->fields);
  g_free (layout);
}

void
et_walk_layout_add (EtWalkLayout *layout, const char *name, EtWalkKind kind, guint size,
                    EtFixedClass klass)
{
  EtWalkField *f;

  layout->fields = g_renew (EtWalkField, layout->fields, layout->n_fields + 1);
  f = &layout->fields[layout->n_fields++];
  f->name = name;
  f->kind = (guint8) kind;
  f->size = (guint8) size;
  f->klass = (guint8) klass;
}

void
et_walk_layout_free (EtWalkLayout *layout)
{
  if (layout == NULL)
    return;
  g_free (layout->fields);
  g_free (layout);
}

void
et_fields_clear (EtFields *fields)
{
  fields->n_entries = 0;
  g_string_truncate (fields->text, 0);
  fields->n_open = 0;
}

guint
et_fields_add (EtFields *fields, const char *name, EtValueKind kind)
{
  guint index = fields->n_entries;
  EtField *f;

  if (index == fields->entries_capacity)
    {
      fields->entries_capacity *= 2;
      fields->entries = g_renew (EtField, fields->entries, fields->entries_capacity);
    }
  fields->n_entries++;
  f = et_fields_entry (fields, index);
  memset (f, 0, sizeof *f);
  f->name = name != NULL ? name : "";
  f->kind = kind;
  f->label = -1;

  /* Every open container gains a descendant; the innermost a member. */
  for (guint i = 0; i < fields->n_open; i++)
    et_fields_entry (fields, fields->open[i])->n_desc++;
  if (fields->n_open > 0)
    {
      guint parent = fields->open[fields->n_open - 1];
      et_fields_entry (fields, parent)->n_children++;
    }
  return index;
}

guint
et_fields_add_int (EtFields *fields, const char *name, gint64 value)
{
  guint i = et_fields_add (fields, name, ET_VALUE_INT);
  et_fields_entry (fields, i)->v.i = value;
  return i;
}

guint
et_fields_add_uint (EtFields *fields, const char *name, guint64 value)
{
  guint i = et_fields_add (fields, name, ET_VALUE_UINT);
  et_fields_entry (fields, i)->v.u = value;
  return i;
}

guint
et_fields_add_float (EtFields *fields, const char *name, double value)
{
  guint i = et_fields_add (fields, name, ET_VALUE_FLOAT);
  et_fields_entry (fields, i)->v.f = value;
  return i;
}

guint
et_fields_add_bool (EtFields *fields, const char *name, gboolean value)
{
  guint i = et_fields_add (fields, name, ET_VALUE_BOOL);
  et_fields_entry (fields, i)->v.b = value ? TRUE : FALSE;
  return i;
}

guint
et_fields_add_guid (EtFields *fields, const char *name, const EtGuid *value)
{
  guint i = et_fields_add (fields, name, ET_VALUE_GUID);
  et_fields_entry (fields, i)->v.guid = *value;
  return i;
}

/* Appends bytes plus a NUL (so text can be used as a C string) and records
 * where they are. */
static guint
add_text_entry (EtFields *fields, const char *name, EtValueKind kind,
                gsize start)
{
  guint i = et_fields_add (fields, name, kind);
  EtField *f = et_fields_entry (fields, i);

  f->v.bytes.off = (guint32) start;
  f->v.bytes.len = (guint32) (fields->text->len - start);
  g_string_append_c (fields->text, '\0');
  return i;
}

guint
et_fields_add_string (EtFields *fields, const char *name, const char *utf8, gsize len)
{
  gsize start = fields->text->len;

  et_utf8_append (fields->text, utf8, len);
  return add_text_entry (fields, name, ET_VALUE_STRING, start);
}

guint
et_fields_add_utf16 (EtFields *fields, const char *name, const guint8 *utf16le, gsize n_units)
{
  gsize start = fields->text->len;

  et_utf16_append (fields->text, utf16le, n_units);
  return add_text_entry (fields, name, ET_VALUE_STRING, start);
}

guint
et_fields_add_ansi (EtFields *fields, const char *name, const char *bytes, gsize len)
{
  gsize start = fields->text->len;

  et_ansi_append (fields->text, bytes, len);
  return add_text_entry (fields, name, ET_VALUE_STRING, start);
}

guint
et_fields_add_bytes (EtFields *fields, const char *name, EtValueKind kind,
                     const guint8 *bytes, gsize len)
{
  gsize start = fields->text->len;

  g_return_val_if_fail (kind == ET_VALUE_BINARY || kind == ET_VALUE_SID, 0);
  g_string_append_len (fields->text, (const char *) bytes, len);
  return add_text_entry (fields, name, kind, start);
}

guint
et_fields_begin (EtFields *fields, const char *name, EtValueKind kind)
{
  guint i;

  g_return_val_if_fail (kind == ET_VALUE_STRUCT || kind == ET_VALUE_ARRAY, 0);
  i = et_fields_add (fields, name, kind);
  if (fields->n_open == fields->open_capacity)
    {
      fields->open_capacity *= 2;
      fields->open = g_renew (guint, fields->open, fields->open_capacity);
    }
  fields->open[fields->n_open++] = i;
  return i;
}

void
et_fields_end (EtFields *fields)
{
  g_return_if_fail (fields->n_open > 0);
  fields->n_open--;
}

void
et_fields_set_label (EtFields *fields, guint index, const char *label)
{
  EtField *f;

  g_return_if_fail (index < fields->n_entries);
  f = et_fields_entry (fields, index);
  f->label = (gint32) fields->text->len;
  g_string_append (fields->text, label);
  g_string_append_c (fields->text, '\0');
}

const char *
et_fields_text (const EtFields *fields, guint index, gsize *len)
{
  const EtField *f = et_fields_get (fields, index);

  if (f->kind != ET_VALUE_STRING && f->kind != ET_VALUE_BINARY && f->kind != ET_VALUE_SID)
    {
      if (len)
        *len = 0;
      return NULL;
    }
  if (len)
    *len = f->v.bytes.len;
  return fields->text->str + f->v.bytes.off;
}

const char *
et_fields_label (const EtFields *fields, guint index)
{
  const EtField *f = et_fields_get (fields, index);
  return f->label >= 0 ? fields->text->str + f->label : NULL;
}

guint
et_fields_next (const EtFields *fields, guint index)
{
  const EtField *f = et_fields_get (fields, index);

  if (f->kind == ET_VALUE_STRUCT || f->kind == ET_VALUE_ARRAY)
    return index + 1 + f->n_desc;
  return index + 1;
}

gint
et_fields_find (const EtFields *fields, const char *name)
{
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    if (g_ascii_strcasecmp (et_fields_get (fields, i)->name, name) == 0)
      return (gint) i;
  return -1;
}

gboolean
et_fields_get_integer (const EtFields *fields, guint index, gint64 *value)
{
  const EtField *f = et_fields_get (fields, index);

  switch (f->kind)
    {
    case ET_VALUE_INT:
      *value = f->v.i;
      return TRUE;
    case ET_VALUE_UINT:
      *value = (gint64) f->v.u;
      return TRUE;
    case ET_VALUE_BOOL:
      *value = f->v.b;
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- formatting ------------------------------------------------------- */

/* Shortest text that reads back to the same value; a Float (in-type 11 in
 * both manifest and TraceLogging numbering) is judged at float precision.
 * Precision 17 always reads back for a double, 9 for a float: the last try
 * needs no check. A double that is a whole number under 10^15 is what
 * "%.15g" writes, its digits: written without printf. */
static void
append_double (GString *out, double v, gboolean is_float)
{
  int last = is_float ? 9 : 17, prec;

  static const char *const formats[] = {
    "%.6g", "%.7g", "%.8g", "%.9g", "%.10g", "%.11g", "%.12g", "%.13g", "%.14g", "%.15g",
    "%.16g", "%.17g",
  };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v))
    {
      g_string_append (out, "NaN");
      return;
    }
  if (isinf (v))
    {
      g_string_append (out, v > 0 ? "Infinity" : "-Infinity");
      return;
    }
  if (!is_float && fabs (v) < 1e15 && v == floor (v) && !(v == 0 && signbit (v)))
    {
      et_string_append_int (out, (gint64) v);
      return;
    }
  for (prec = is_float ? 6 : 15; prec < last; prec++)
    {
      double back;

      g_ascii_formatd (buf, sizeof buf, formats[prec - 6], v);
      back = g_ascii_strtod (buf, NULL);
      if (is_float ? (float) back == (float) v : back == v)
        break;
    }
  if (prec == last)
    g_ascii_formatd (buf, sizeof buf, formats[prec - 6], v);
  g_string_append (out, buf);
}

#define FILETIME_UNIX_EPOCH G_GINT64_CONSTANT (116444736000000000)

/* ISO 8601 UTC with as many fraction digits as the value needs (3, 6 or 7). */
void
et_format_filetime (gint64 filetime, GString *out)
{
  /* A negative FILETIME is garbage; subtracting the epoch could overflow. */
  gint64 since_unix = MAX (filetime, 0) - FILETIME_UNIX_EPOCH;
  gint64 seconds = since_unix / 10000000;
  gint64 ticks = since_unix % 10000000;
  g_autoptr(GDateTime) dt = NULL;

  if (ticks < 0)
    {
      ticks += 10000000;
      seconds--;
    }
  if (filetime < 0 || (dt = g_date_time_new_from_unix_utc (seconds)) == NULL)
    {
      g_string_append_printf (out, "%" G_GINT64_FORMAT, filetime);
      return;
    }
  g_string_append_printf (out, "%04d-%02d-%02dT%02d:%02d:%02d",
                          g_date_time_get_year (dt), g_date_time_get_month (dt),
                          g_date_time_get_day_of_month (dt), g_date_time_get_hour (dt),
                          g_date_time_get_minute (dt), g_date_time_get_second (dt));
  if (ticks % 10000 == 0)
    {
      if (ticks != 0)
        g_string_append_printf (out, ".%03d", (int) (ticks / 10000));
    }
  else if (ticks % 10 == 0)
    g_string_append_printf (out, ".%06d", (int) (ticks / 10));
  else
    g_string_append_printf (out, ".%07d", (int) ticks);
  g_string_append_c (out, 'Z');
}

static void
append_systemtime (GString *out, const guint16 st[8])
{
  /* SYSTEMTIME: year, month, day of week, day, hour, minute, second, ms. */
  g_string_append_printf (out, "%04u-%02u-%02uT%02u:%02u:%02u.%03u",
                          st[0], st[1], st[3], st[4], st[5], st[6], st[7]);
}

static void
append_hex_bytes (GString *out, const guint8 *bytes, gsize len)
{
  static const char digits[] = "0123456789abcdef";

  for (gsize i = 0; i < len; i++)
    {
      g_string_append_c (out, digits[bytes[i] >> 4]);
      g_string_append_c (out, digits[bytes[i] & 0xF]);
    }
}

/* S-R-A-S1-S2…: revision, 48-bit big-endian authority, u32 LE sub-authorities. */
static void
append_sid (GString *out, const guint8 *b, gsize len)
{
  guint64 authority = 0;
  guint n_sub;

  if (len < 8)
    {
      append_hex_bytes (out, b, len);
      return;
    }
  for (guint i = 2; i < 8; i++)
    authority = (authority << 8) | b[i];
  g_string_append_printf (out, "S-%u-%" G_GUINT64_FORMAT, b[0], authority);
  n_sub = MIN (b[1], (len - 8) / 4);
  for (guint i = 0; i < n_sub; i++)
    {
      const guint8 *s = b + 8 + 4 * i;
      g_string_append_printf (out, "-%u", (guint) (s[0] | s[1] << 8 | s[2] << 16 | (guint) s[3] << 24));
    }
}

/* A signed integer in hex shows the bits its writer sent: an Int32 of -2
 * is 0xfffffffe, not sixteen digits of sign extension. In-types 3, 5 and 7
 * are Int8, Int16 and Int32 in both manifest and TraceLogging numbering. */
static guint64
signed_wire_bits (const EtField *f)
{
  switch (f->in_type)
    {
    case 3:
      return (guint8) f->v.i;
    case 5:
      return (guint16) f->v.i;
    case 7:
      return (guint32) f->v.i;
    default:
      return (guint64) f->v.i;
    }
}

static void
append_scalar (const EtFields *fields, const EtField *f, GString *out)
{
  char guid[ET_GUID_STRING_LEN];

  switch ((EtValueKind) f->kind)
    {
    case ET_VALUE_NULL:
    case ET_VALUE_STRUCT:
    case ET_VALUE_ARRAY:
      break;
    case ET_VALUE_INT:
      if (f->hint == ET_HINT_HEX || f->hint == ET_HINT_POINTER)
        et_string_append_hex (out, signed_wire_bits (f));
      else
        et_string_append_int (out, f->v.i);
      break;
    case ET_VALUE_UINT:
      if (f->hint == ET_HINT_HEX || f->hint == ET_HINT_POINTER)
        et_string_append_hex (out, f->v.u);
      else
        et_string_append_uint (out, f->v.u);
      break;
    case ET_VALUE_FLOAT:
      append_double (out, f->v.f, f->in_type == 11);
      break;
    case ET_VALUE_BOOL:
      g_string_append (out, f->v.b ? "true" : "false");
      break;
    case ET_VALUE_STRING:
      g_string_append_len (out, fields->text->str + f->v.bytes.off, f->v.bytes.len);
      break;
    case ET_VALUE_GUID:
      et_guid_to_string (&f->v.guid, guid);
      g_string_append (out, guid);
      break;
    case ET_VALUE_FILETIME:
      et_format_filetime (f->v.i, out);
      break;
    case ET_VALUE_SYSTEMTIME:
      append_systemtime (out, f->v.st);
      break;
    case ET_VALUE_BINARY:
      append_hex_bytes (out, (const guint8 *) fields->text->str + f->v.bytes.off, f->v.bytes.len);
      break;
    case ET_VALUE_SID:
      append_sid (out, (const guint8 *) fields->text->str + f->v.bytes.off, f->v.bytes.len);
      break;
    }
}

void
et_fields_format_value (const EtFields *fields, guint index, GString *out)
{
  const EtField *f = et_fields_get (fields, index);
  const char *label = et_fields_label (fields, index);
  g_autoptr(GString) name = NULL;
  guint child, end;

  if (label != NULL)
    {
      g_string_append (out, label);
      return;
    }
  if (f->kind != ET_VALUE_STRUCT && f->kind != ET_VALUE_ARRAY)
    {
      append_scalar (fields, f, out);
      return;
    }

  g_string_append_c (out, f->kind == ET_VALUE_STRUCT ? '{' : '[');
  end = index + 1 + f->n_desc;
  for (child = index + 1; child < end; child = et_fields_next (fields, child))
    {
      if (child != index + 1)
        g_string_append (out, ", ");
      if (f->kind == ET_VALUE_STRUCT)
        {
          if (name == NULL)
            name = g_string_new (NULL);
          g_string_append (out, et_fields_unique_name (fields, (gint) index, child, name));
          g_string_append (out, ": ");
        }
      et_fields_format_value (fields, child, out);
    }
  g_string_append_c (out, f->kind == ET_VALUE_STRUCT ? '}' : ']');
}

static gboolean
is_json_number (const EtField *f)
{
  switch ((EtValueKind) f->kind)
    {
    case ET_VALUE_INT:
    case ET_VALUE_UINT:
      return TRUE;
    case ET_VALUE_FLOAT:
      return !isnan (f->v.f) && !isinf (f->v.f);
    default:
      return FALSE;
    }
}

void
et_fields_append_json (const EtFields *fields, guint index, GString *out)
{
  const EtField *f = et_fields_get (fields, index);
  const char *label = et_fields_label (fields, index);
  g_autoptr(GString) text = NULL;
  g_autoptr(GString) name = NULL;
  guint end;

  if (label != NULL)
    {
      et_json_append_string (out, label, -1);
      return;
    }
  if (f->kind == ET_VALUE_STRUCT || f->kind == ET_VALUE_ARRAY)
    {
      g_string_append_c (out, f->kind == ET_VALUE_STRUCT ? '{' : '[');
      end = index + 1 + f->n_desc;
      for (guint child = index + 1; child < end; child = et_fields_next (fields, child))
        {
          if (child != index + 1)
            g_string_append_c (out, ',');
          if (f->kind == ET_VALUE_STRUCT)
            {
              if (name == NULL)
                name = g_string_new (NULL);
              et_json_append_string (out, et_fields_unique_name (fields, (gint) index, child,
                                                                 name), -1);
              g_string_append_c (out, ':');
            }
          et_fields_append_json (fields, child, out);
        }
      g_string_append_c (out, f->kind == ET_VALUE_STRUCT ? '}' : ']');
      return;
    }
  if (f->kind == ET_VALUE_NULL)
    {
      g_string_append (out, "null");
      return;
    }
  if (f->kind == ET_VALUE_BOOL || (is_json_number (f) && f->hint != ET_HINT_HEX
                                   && f->hint != ET_HINT_POINTER))
    {
      append_scalar (fields, f, out);
      return;
    }
  text = g_string_new (NULL);
  append_scalar (fields, f, text);
  et_json_append_string (out, text->str, (gssize) text->len);
}

void
et_fields_append_json_object (const EtFields *fields, GString *out)
{
  g_autoptr(GString) name = g_string_new (NULL);

  g_string_append_c (out, '{');
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      if (i != 0)
        g_string_append_c (out, ',');
      et_json_append_string (out, et_fields_unique_name (fields, -1, i, name), -1);
      g_string_append_c (out, ':');
      et_fields_append_json (fields, i, out);
    }
  g_string_append_c (out, '}');
}
