/* et-manifest-decode.c — EventSource payloads decoded by their template.
 *
 * Last stage for manifest events: the parser (et-manifest.c) hands each
 * template's <data> items here once, where in- and out-types become numbers
 * and count=/length= become constants or references to earlier fields; then
 * every event of the provider is read field by field into EtFields
 * (etl-format.md §9, "Data types"). Payload bytes are untrusted: every read
 * is bounds-checked, and no count makes us build more entries than the
 * payload has bytes. Decoding allocates nothing but what EtFields grows.
 */
#include "et-manifest-private.h"
#include "et-bytes.h"
#include "et-error.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *name;
  guint8      value;
} TypeName;

/* Local names (the part after "win:"), TDH numbering. */
static const TypeName in_types[] = {
  { "UnicodeString", ET_MAN_IN_UNICODE_STRING }, { "AnsiString", ET_MAN_IN_ANSI_STRING },
  { "Int8", ET_MAN_IN_INT8 }, { "UInt8", ET_MAN_IN_UINT8 },
  { "Int16", ET_MAN_IN_INT16 }, { "UInt16", ET_MAN_IN_UINT16 },
  { "Int32", ET_MAN_IN_INT32 }, { "UInt32", ET_MAN_IN_UINT32 },
  { "Int64", ET_MAN_IN_INT64 }, { "UInt64", ET_MAN_IN_UINT64 },
  { "Float", ET_MAN_IN_FLOAT }, { "Double", ET_MAN_IN_DOUBLE },
  { "Boolean", ET_MAN_IN_BOOLEAN }, { "Binary", ET_MAN_IN_BINARY },
  { "GUID", ET_MAN_IN_GUID }, { "Pointer", ET_MAN_IN_POINTER },
  { "FILETIME", ET_MAN_IN_FILETIME }, { "SYSTEMTIME", ET_MAN_IN_SYSTEMTIME },
  { "SID", ET_MAN_IN_SID }, { "HexInt32", ET_MAN_IN_HEXINT32 },
  { "HexInt64", ET_MAN_IN_HEXINT64 }, { "WbemSID", ET_MAN_IN_WBEM_SID },
};

/* TDH_OUT_TYPE numbers; xs: and win: local names do not collide. */
static const TypeName out_types[] = {
  { "string", 1 }, { "dateTime", 2 }, { "byte", 3 }, { "unsignedByte", 4 },
  { "short", 5 }, { "unsignedShort", 6 }, { "int", 7 }, { "unsignedInt", 8 },
  { "long", 9 }, { "unsignedLong", 10 }, { "float", 11 }, { "double", 12 },
  { "boolean", 13 }, { "GUID", 14 }, { "hexBinary", 15 }, { "HexInt8", 16 },
  { "HexInt16", 17 }, { "HexInt32", 18 }, { "HexInt64", 19 }, { "PID", 20 },
  { "TID", 21 }, { "Port", 22 }, { "IPv4", 23 }, { "IPv6", 24 },
  { "SocketAddress", 25 }, { "CIMDateTime", 26 }, { "ETWTIME", 27 }, { "Xml", 28 },
  { "ErrorCode", 29 }, { "Win32Error", 30 }, { "NTSTATUS", 31 }, { "HResult", 32 },
  { "DateTimeCultureInsensitive", 33 }, { "Json", 34 }, { "Utf8", 35 },
  { "Pkcs7WithTypeInfo", 36 }, { "CodePointer", 37 }, { "DateTimeUtc", 38 },
};

/* The name of @value in @table (the "win:" / "xs:" local name), or NULL. */
static const char *
type_name (const TypeName *table, guint n, guint value)
{
  for (guint i = 0; i < n; i++)
    if (table[i].value == value)
      return table[i].name;
  return NULL;
}

const char *
et_manifest_in_type_name (guint in_type)
{
  if (in_type == ET_MAN_IN_STRUCT)
    return "Struct";
  return type_name (in_types, G_N_ELEMENTS (in_types), in_type);
}

const char *
et_manifest_out_type_name (guint out_type)
{
  return out_type == 0 ? NULL : type_name (out_types, G_N_ELEMENTS (out_types), out_type);
}

/* Wire bytes of the fixed-size in-types (pointers counted as 4 here). */
static const guint8 fixed_sizes[ET_MAN_IN_LAST + 1] = {
  [ET_MAN_IN_INT8] = 1, [ET_MAN_IN_UINT8] = 1, [ET_MAN_IN_INT16] = 2, [ET_MAN_IN_UINT16] = 2,
  [ET_MAN_IN_INT32] = 4, [ET_MAN_IN_UINT32] = 4, [ET_MAN_IN_INT64] = 8, [ET_MAN_IN_UINT64] = 8,
  [ET_MAN_IN_FLOAT] = 4, [ET_MAN_IN_DOUBLE] = 8, [ET_MAN_IN_BOOLEAN] = 4, [ET_MAN_IN_GUID] = 16,
  [ET_MAN_IN_POINTER] = 4, [ET_MAN_IN_FILETIME] = 8, [ET_MAN_IN_SYSTEMTIME] = 16,
  [ET_MAN_IN_SID] = 8, [ET_MAN_IN_HEXINT32] = 4, [ET_MAN_IN_HEXINT64] = 8,
  [ET_MAN_IN_WBEM_SID] = 4,
};

enum { OUT_HEXINT8 = 16, OUT_HEXINT64 = 19, OUT_PORT = 22, OUT_IPV4 = 23, OUT_IPV6 = 24,
       OUT_SOCKET_ADDRESS = 25,
       OUT_NTSTATUS = 31, OUT_HRESULT = 32, OUT_CODE_POINTER = 37 };

static guint8
type_number (const TypeName *table, guint n, const char *name, guint8 unknown)
{
  const char *colon;

  if (name == NULL)
    return 0;
  colon = strrchr (name, ':');
  name = colon != NULL ? colon + 1 : name;
  for (guint i = 0; i < n; i++)
    if (strcmp (table[i].name, name) == 0)
      return table[i].value;
  return unknown;
}

static guint8
hint_for (guint8 in_type, guint8 out_type)
{
  if (in_type == ET_MAN_IN_POINTER || out_type == OUT_CODE_POINTER)
    return ET_HINT_POINTER;
  if (in_type == ET_MAN_IN_HEXINT32 || in_type == ET_MAN_IN_HEXINT64
      || (out_type >= OUT_HEXINT8 && out_type <= OUT_HEXINT64)
      || out_type == OUT_NTSTATUS || out_type == OUT_HRESULT)
    return ET_HINT_HEX;
  return ET_HINT_NONE;
}

/* ───────────────────────── building templates ───────────────────────── */

/* The items of one level while it is being built, and the level around it,
 * so that count=/length= can name a field of an enclosing struct. */
typedef struct NameScope
{
  GArray                 *items;   /* EtManifestParseData */
  guint                   before;  /* only items before this one are visible */
  const struct NameScope *outer;
} NameScope;

static const EtManifestMap *
find_map (GPtrArray *maps, const char *name)
{
  for (guint i = 0; name != NULL && i < maps->len; i++)
    {
      const EtManifestMap *map = g_ptr_array_index (maps, i);
      if (map->name != NULL && strcmp (map->name, name) == 0)
        return map;
    }
  return NULL;
}

/* "12" or "0xC" is a constant; otherwise the nearest earlier field of that
 * name, in this level or an enclosing one. */
static EtManifestSize
size_from (const char *text, const NameScope *scope)
{
  EtManifestSize size = { ET_MAN_SIZE_NONE, 0, 0 };
  char *end = NULL;
  guint64 v;

  if (text == NULL)
    return size;
  if (strcmp (text, "*") == 0)
    {
      size.kind = ET_MAN_SIZE_REST;
      return size;
    }
  if (g_ascii_isdigit (text[0]))
    {
      gboolean hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
      v = g_ascii_strtoull (hex ? text + 2 : text, &end, hex ? 16 : 10);
      size.kind = *end == '\0' && v <= G_MAXUINT32 ? ET_MAN_SIZE_CONST : ET_MAN_SIZE_BAD;
      size.value = (guint32) v;
      return size;
    }
  size.kind = ET_MAN_SIZE_BAD;
  for (guint16 up = 0; scope != NULL; scope = scope->outer, up++)
    for (guint i = scope->before; i-- > 0;)
      {
        const EtManifestParseData *d = &g_array_index (scope->items, EtManifestParseData, i);
        if (d->name != NULL && strcmp (d->name, text) == 0)
          {
            size.kind = ET_MAN_SIZE_REF;
            size.up = up;
            size.value = i;
            return size;
          }
      }
  return size;
}

static guint32
saturating_mul (guint32 a, guint32 b)
{
  guint64 r = (guint64) a * b;
  return r > G_MAXUINT32 ? G_MAXUINT32 : (guint32) r;
}

/* The least bytes one element can take on the wire; bounds counts. */
static guint32
element_min_size (const EtManifestData *d)
{
  guint32 n = d->length.kind == ET_MAN_SIZE_CONST ? d->length.value : 0;
  guint64 sum = 0;

  switch (d->in_type)
    {
    case ET_MAN_IN_STRUCT:
      for (guint i = 0; i < d->n_members; i++)
        {
          const EtManifestData *m = &d->members[i];
          if (m->count.kind == ET_MAN_SIZE_NONE)
            sum += m->min_size;
          else if (m->count.kind == ET_MAN_SIZE_CONST)
            sum += saturating_mul (m->min_size, m->count.value);
        }
      return sum > G_MAXUINT32 ? G_MAXUINT32 : (guint32) sum;
    case ET_MAN_IN_UNICODE_STRING:
      return d->length.kind == ET_MAN_SIZE_NONE ? 2 : saturating_mul (n, 2);
    case ET_MAN_IN_ANSI_STRING:
      return d->length.kind == ET_MAN_SIZE_NONE ? 1 : n;
    case ET_MAN_IN_BINARY:
      return n;
    default:
      return d->in_type <= ET_MAN_IN_LAST ? fixed_sizes[d->in_type] : 0;
    }
}

static EtManifestData *build_level (GArray *items, GPtrArray *maps, const NameScope *outer,
                                    guint *n_out);

static void
build_item (EtManifestData *d, const EtManifestParseData *raw, GPtrArray *maps,
            const NameScope *scope)
{
  d->name = raw->name != NULL ? raw->name : "";
  d->in_type_name = raw->in_type != NULL ? raw->in_type : "(none)";
  if (raw->members != NULL)
    d->in_type = ET_MAN_IN_STRUCT;
  else
    d->in_type = type_number (in_types, G_N_ELEMENTS (in_types), raw->in_type, ET_MAN_IN_UNKNOWN);
  if (d->in_type == 0 && raw->members == NULL)
    d->in_type = ET_MAN_IN_UNKNOWN;  /* a <data> without inType */
  d->out_type = type_number (out_types, G_N_ELEMENTS (out_types), raw->out_type, 0);
  d->hint = hint_for (d->in_type, d->out_type);
  d->map = find_map (maps, raw->map);
  d->count = size_from (raw->count, scope);
  d->length = size_from (raw->length, scope);
  if (raw->members != NULL)
    d->members = build_level (raw->members, maps, scope, &d->n_members);
  d->min_size = element_min_size (d);
  d->optional = raw->optional;
}

static EtManifestData *
build_level (GArray *items, GPtrArray *maps, const NameScope *outer, guint *n_out)
{
  EtManifestData *level = g_new0 (EtManifestData, MAX (items->len, 1));

  for (guint i = 0; i < items->len; i++)
    {
      NameScope scope = { items, i, outer };
      build_item (&level[i], &g_array_index (items, EtManifestParseData, i), maps, &scope);
    }
  *n_out = items->len;
  return level;
}

/* How decode_fixed reads a scalar of a fixed size: -1 for an item that is
 * not one (strings, binary, SID, structs, arrays; pointers too, whose size
 * is the record's). */
static gint
fixed_class (const EtManifestData *d)
{
  if (d->count.kind != ET_MAN_SIZE_NONE || d->out_type == OUT_IPV4 || d->out_type == OUT_PORT)
    return -1;           /* read as text, or byte-swapped (decode_fixed) */
  switch (d->in_type)
    {
    case ET_MAN_IN_INT8: case ET_MAN_IN_INT16: case ET_MAN_IN_INT32: case ET_MAN_IN_INT64:
      return ET_FIXED_SIGNED;
    case ET_MAN_IN_UINT8: case ET_MAN_IN_UINT16: case ET_MAN_IN_UINT32: case ET_MAN_IN_UINT64:
    case ET_MAN_IN_HEXINT32: case ET_MAN_IN_HEXINT64:
      return ET_FIXED_UNSIGNED;
    case ET_MAN_IN_FLOAT: case ET_MAN_IN_DOUBLE: case ET_MAN_IN_BOOLEAN: case ET_MAN_IN_GUID:
    case ET_MAN_IN_FILETIME: case ET_MAN_IN_SYSTEMTIME:
      return ET_FIXED_OTHER;
    default:
      return -1;
    }
}

/* How the walk reads an item that is not a fixed-size scalar: pointers
 * and NUL-terminated strings; -1 for any other (counted, sized, binary,
 * SID, struct, read as text). */
static gint
walk_kind (const EtManifestData *d)
{
  if (d->count.kind != ET_MAN_SIZE_NONE || d->length.kind != ET_MAN_SIZE_NONE)
    return -1;
  switch (d->in_type)
    {
    case ET_MAN_IN_POINTER:
      return d->out_type == OUT_IPV4 || d->out_type == OUT_PORT ? -1 : ET_WALK_POINTER;
    case ET_MAN_IN_UNICODE_STRING:
      return ET_WALK_UTF16Z;
    case ET_MAN_IN_ANSI_STRING:
      return ET_WALK_ANSIZ;
    default:
      return -1;
    }
}

/* The template's fixed layout when every item is a fixed-size scalar,
 * else its walk layout when every item can be walked, else neither. */
static void
layouts_of (const EtManifestData *items, guint n, EtFixedLayout **fixed, EtWalkLayout **walk)
{
  *fixed = g_new0 (EtFixedLayout, 1);
  *walk = g_new0 (EtWalkLayout, 1);
  for (guint i = 0; i < n && (*fixed != NULL || *walk != NULL); i++)
    {
      gint klass = fixed_class (&items[i]);
      gint kind = klass >= 0 ? ET_WALK_SCALAR : walk_kind (&items[i]);
      guint size = klass >= 0 ? fixed_sizes[items[i].in_type] : 0;

      if (klass < 0)
        g_clear_pointer (fixed, et_fixed_layout_free);
      else if (*fixed != NULL)
        et_fixed_layout_add (*fixed, items[i].name, size, klass);
      if (kind < 0)
        g_clear_pointer (walk, et_walk_layout_free);
      else if (*walk != NULL)
        et_walk_layout_add (*walk, items[i].name, kind, size, MAX (klass, 0));
    }
  if (*fixed != NULL)
    g_clear_pointer (walk, et_walk_layout_free);
}

EtManifestTemplate *
_et_manifest_template_new (const char *tid, GArray *data, GPtrArray *maps)
{
  EtManifestTemplate *t = g_new0 (EtManifestTemplate, 1);

  t->tid = tid;
  t->data = build_level (data, maps, NULL, &t->n_data);
  layouts_of (t->data, t->n_data, &t->fixed, &t->walk);
  return t;
}

const EtFixedLayout *
et_manifest_event_fixed_layout (const EtManifestEvent *event)
{
  static const EtFixedLayout none = { 0, 0, NULL };   /* no template: no payload */

  g_return_val_if_fail (event != NULL, NULL);
  return event->template_ != NULL ? event->template_->fixed : &none;
}

const EtWalkLayout *
et_manifest_event_walk_layout (const EtManifestEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->template_ != NULL ? event->template_->walk : NULL;
}

static void
free_level (EtManifestData *level, guint n)
{
  for (guint i = 0; i < n; i++)
    if (level[i].members != NULL)
      free_level (level[i].members, level[i].n_members);
  g_free (level);
}

void
_et_manifest_template_free (EtManifestTemplate *tmpl)
{
  if (tmpl == NULL)
    return;
  free_level (tmpl->data, tmpl->n_data);
  et_fixed_layout_free (tmpl->fixed);
  et_walk_layout_free (tmpl->walk);
  g_free (tmpl);
}

/* ───────────────────────────── decoding ───────────────────────────── */

/* Where the entries of one level begin in the EtFields, so that count= and
 * length= can find the earlier field they name. */
typedef struct Scope
{
  guint               first;
  const struct Scope *outer;
} Scope;

typedef struct
{
  EtReader  r;
  guint     pointer_size;
  EtFields *fields;
  GError  **error;
  gboolean  check;         /* et_manifest_check: arrays of numbers measured */
} Decoder;

static gboolean fail (Decoder *d, EtEtlError code, gsize offset, const EtManifestData *item,
                      const char *format, ...) G_GNUC_PRINTF (5, 6);

static gboolean
fail (Decoder *d, EtEtlError code, gsize offset, const EtManifestData *item,
      const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (d->error, ET_ETL_ERROR, code,
               "payload offset %" G_GSIZE_FORMAT ": field “%s” (%s): %s",
               offset, item->name, item->in_type_name, what);
  return FALSE;
}

static const guint8 *
take (Decoder *d, const EtManifestData *item, gsize n)
{
  gsize left = et_reader_remaining (&d->r);

  if (n > left)
    {
      fail (d, ET_ETL_ERROR_TRUNCATED, d->r.pos, item,
            "needs %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " left", n, left);
      return NULL;
    }
  return et_reader_take (&d->r, n);
}

/* The value of a count= or length=: a constant, or the integer already
 * decoded into the earlier field it names. */
static gboolean
size_value (Decoder *d, const EtManifestData *item, const EtManifestSize *size,
            const Scope *scope, const char *what, guint64 *out)
{
  const EtField *f;
  guint index;

  if (size->kind == ET_MAN_SIZE_CONST)
    {
      *out = size->value;
      return TRUE;
    }
  if (size->kind == ET_MAN_SIZE_BAD)
    return fail (d, ET_ETL_ERROR_UNSUPPORTED, d->r.pos, item,
                 "%s= is neither a number nor an earlier field", what);
  if (size->kind == ET_MAN_SIZE_REST)
    {
      *out = et_reader_remaining (&d->r) / (item->in_type == ET_MAN_IN_POINTER
                                            ? d->pointer_size : MAX (item->min_size, 1));
      return TRUE;
    }
  for (guint up = 0; up < size->up && scope != NULL; up++)
    scope = scope->outer;
  g_assert (scope != NULL);
  index = scope->first;
  for (guint i = 0; i < size->value; i++)
    index = et_fields_next (d->fields, index);
  g_assert (index < et_fields_len (d->fields));
  f = et_fields_get (d->fields, index);
  if (f->kind == ET_VALUE_UINT || (f->kind == ET_VALUE_INT && f->v.i >= 0))
    {
      *out = f->v.u;
      return TRUE;
    }
  return fail (d, ET_ETL_ERROR_CORRUPT, d->r.pos, item,
               "%s= names “%s”, which holds no count (%s)", what, f->name,
               f->kind == ET_VALUE_INT ? "negative" : "not an integer");
}

static int
compare_value (const void *key, const void *entry)
{
  guint64 v = *(const guint64 *) key;
  const EtManifestMapEntry *e = entry;
  return v < e->value ? -1 : v > e->value;
}

static void
append_hex (GString *text, guint64 v)
{
  char digits[19];
  int i = sizeof digits;

  do
    digits[--i] = "0123456789abcdef"[v & 0xF];
  while ((v >>= 4) != 0);
  digits[--i] = 'x';
  digits[--i] = '0';
  g_string_append_len (text, digits + i, sizeof digits - i);
}

/* "A|B" straight into the text buffer (no temporary string per event):
 * the names of the entries whose bits are all set, in map order, then
 * any bits no entry names as 0x…. */
static void
set_bitmap_label (EtFields *fields, guint index, const EtManifestMap *map, guint64 v)
{
  GString *text = fields->text;
  gsize start = text->len;
  guint64 named = 0;

  for (guint i = 0; i < map->n_entries; i++)
    {
      const EtManifestMapEntry *e = &map->entries[i];

      if ((e->value == 0 && v != 0) || (v & e->value) != e->value)
        continue;
      if (text->len > start)
        g_string_append_c (text, '|');
      g_string_append (text, e->label);
      named |= e->value;
    }
  if ((v & ~named) != 0)
    {
      if (text->len > start)
        g_string_append_c (text, '|');
      append_hex (text, v & ~named);
    }
  if (text->len == start)
    return;             /* zero, and no entry names zero */
  g_string_append_c (text, '\0');
  et_fields_entry (fields, index)->label = (gint32) start;
}

static void
finish_entry (Decoder *d, guint index, const EtManifestData *item)
{
  EtField *f = et_fields_entry (d->fields, index);
  const EtManifestMapEntry *e;
  guint64 v;

  f->in_type = item->in_type;
  f->out_type = item->out_type;
  if (f->kind != ET_VALUE_INT && f->kind != ET_VALUE_UINT)
    return;
  f->hint = item->hint;
  if (item->map == NULL)
    return;
  v = f->v.u;
  if (f->kind == ET_VALUE_INT && item->in_type != ET_MAN_IN_INT64)
    v &= (G_GUINT64_CONSTANT (1) << (8 * fixed_sizes[item->in_type])) - 1;  /* wire width */
  if (item->map->bitmap)
    set_bitmap_label (d->fields, index, item->map, v);
  else if (item->map->n_entries > 0
           && (e = bsearch (&v, item->map->sorted, item->map->n_entries,
                            sizeof (EtManifestMapEntry), compare_value)) != NULL)
    et_fields_set_label (d->fields, index, e->label);
}

/* Length in characters from length=, else up to the NUL. */
static gboolean
decode_text (Decoder *d, const EtManifestData *item, const Scope *scope, guint *index)
{
  gsize unit = item->in_type == ET_MAN_IN_UNICODE_STRING ? 2 : 1;
  gsize left = et_reader_remaining (&d->r), n = 0;
  const guint8 *p = d->r.data + d->r.pos;
  guint64 length;

  if (item->length.kind != ET_MAN_SIZE_NONE)
    {
      if (!size_value (d, item, &item->length, scope, "length", &length))
        return FALSE;
      if (length > left / unit)
        return fail (d, ET_ETL_ERROR_TRUNCATED, d->r.pos, item,
                     "length %" G_GUINT64_FORMAT " needs %" G_GUINT64_FORMAT " bytes, %"
                     G_GSIZE_FORMAT " left", length, length * unit, left);
      et_reader_take (&d->r, length * unit);
      while (n < length && (p[n * unit] != 0 || (unit == 2 && p[n * unit + 1] != 0)))
        n++;            /* a fixed-length string ends at its first NUL */
    }
  else
    {
      while (n < left / unit && (p[n * unit] != 0 || (unit == 2 && p[n * unit + 1] != 0)))
        n++;
      if (n == left / unit)
        return fail (d, ET_ETL_ERROR_TRUNCATED, d->r.pos, item,
                     "no terminating NUL in the %" G_GSIZE_FORMAT " bytes left", left);
      et_reader_take (&d->r, (n + 1) * unit);
    }
  if (unit == 2)
    *index = et_fields_add_utf16 (d->fields, item->name, p, n);
  else
    *index = et_fields_add_ansi (d->fields, item->name, (const char *) p, n);
  return TRUE;
}

/* A Windows SOCKADDR as "address:port" ("[v6]:port"): AF_INET (2, the
 * address at 4) or AF_INET6 (23, the address at 8), the port in network
 * order at 2. NULL for any other family or size: the bytes stay. */
static char *
socket_address_text (const guint8 *p, gsize n)
{
  guint16 family = n >= 4 ? et_read_u16 (p) : 0;
  guint port = n >= 4 ? (guint) p[2] << 8 | p[3] : 0;
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *text = NULL;

  if (family == 2 && n >= 8)
    address = g_inet_address_new_from_bytes (p + 4, G_SOCKET_FAMILY_IPV4);
  else if (family == 23 && n >= 24)
    address = g_inet_address_new_from_bytes (p + 8, G_SOCKET_FAMILY_IPV6);
  else
    return NULL;
  text = g_inet_address_to_string (address);
  return family == 2 ? g_strdup_printf ("%s:%u", text, port)
                     : g_strdup_printf ("[%s]:%u", text, port);
}

static gboolean
decode_binary (Decoder *d, const EtManifestData *item, const Scope *scope, guint *index)
{
  g_autofree char *sockaddr = NULL;
  gsize start = d->r.pos, left = et_reader_remaining (&d->r);
  guint64 n = left;     /* without length= it runs to the end of the payload */
  const guint8 *p;

  if (item->length.kind != ET_MAN_SIZE_NONE
      && !size_value (d, item, &item->length, scope, "length", &n))
    return FALSE;
  if (n > left)
    return fail (d, ET_ETL_ERROR_TRUNCATED, start, item,
                 "length %" G_GUINT64_FORMAT " but %" G_GSIZE_FORMAT " bytes left", n, left);
  p = et_reader_take (&d->r, n);
  if (item->out_type == OUT_IPV6 && n == 16)
    {
      g_autoptr(GInetAddress) address = g_inet_address_new_from_bytes (p, G_SOCKET_FAMILY_IPV6);
      g_autofree char *text = g_inet_address_to_string (address);

      *index = et_fields_add_string (d->fields, item->name, text, strlen (text));
      return TRUE;
    }
  if (item->out_type == OUT_SOCKET_ADDRESS && (sockaddr = socket_address_text (p, n)) != NULL)
    {
      *index = et_fields_add_string (d->fields, item->name, sockaddr, strlen (sockaddr));
      return TRUE;
    }
  *index = et_fields_add_bytes (d->fields, item->name, ET_VALUE_BINARY, p, n);
  return TRUE;
}

static gboolean
decode_sid (Decoder *d, const EtManifestData *item, guint *index)
{
  gsize start = d->r.pos, left = et_reader_remaining (&d->r);
  const guint8 *p = d->r.data + d->r.pos;
  guint n_sub;

  if (left < 8)
    return take (d, item, 8) != NULL;
  n_sub = p[1];
  if (n_sub > 15)       /* SID_MAX_SUB_AUTHORITIES */
    return fail (d, ET_ETL_ERROR_CORRUPT, start, item,
                 "%u sub-authorities, at most 15 exist", n_sub);
  if ((p = take (d, item, 8 + 4 * n_sub)) == NULL)
    return FALSE;
  *index = et_fields_add_bytes (d->fields, item->name, ET_VALUE_SID, p, 8 + 4 * n_sub);
  return TRUE;
}

/* The kernel's SID (TDH's WBEMSID): a zero u32 when there is none, else a
 * TOKEN_USER (a pointer and a u32, padded to two pointers) and the SID. */
static gboolean
decode_wbem_sid (Decoder *d, const EtManifestData *item, guint *index)
{
  const guint8 *p = d->r.data + d->r.pos;
  gsize token = 2 * (gsize) d->pointer_size;

  if (et_reader_remaining (&d->r) >= 4 && et_read_u32 (p) == 0)
    {
      et_reader_take (&d->r, 4);
      *index = et_fields_add_bytes (d->fields, item->name, ET_VALUE_SID, p, 0);
      return TRUE;
    }
  if (take (d, item, token) == NULL)
    return FALSE;
  return decode_sid (d, item, index);
}

static gboolean
read_le (Decoder *d, const EtManifestData *item, guint size, guint64 *out)
{
  const guint8 *p = take (d, item, size);

  if (p == NULL)
    return FALSE;
  *out = size == 1 ? p[0] : size == 2 ? et_read_u16 (p) : size == 4 ? et_read_u32 (p)
                                                                    : et_read_u64 (p);
  return TRUE;
}

/* A fixed-size number, @v holding its wire bytes. */
static guint
add_number (EtFields *fields, const char *name, guint8 in_type, guint64 v)
{
  guint index;
  double g;
  float f;

  switch (in_type)
    {
    case ET_MAN_IN_INT8:
      return et_fields_add_int (fields, name, (gint8) v);
    case ET_MAN_IN_INT16:
      return et_fields_add_int (fields, name, (gint16) v);
    case ET_MAN_IN_INT32:
      return et_fields_add_int (fields, name, (gint32) v);
    case ET_MAN_IN_INT64:
      return et_fields_add_int (fields, name, (gint64) v);
    case ET_MAN_IN_FLOAT:
      {
        guint32 bits = (guint32) v;
        memcpy (&f, &bits, sizeof f);
        return et_fields_add_float (fields, name, f);
      }
    case ET_MAN_IN_DOUBLE:
      memcpy (&g, &v, sizeof g);
      return et_fields_add_float (fields, name, g);
    case ET_MAN_IN_BOOLEAN:
      return et_fields_add_bool (fields, name, v != 0);
    case ET_MAN_IN_FILETIME:
      index = et_fields_add (fields, name, ET_VALUE_FILETIME);
      et_fields_entry (fields, index)->v.i = (gint64) v;
      return index;
    default:            /* UInt8…UInt64, HexInt32/64, Pointer */
      return et_fields_add_uint (fields, name, v);
    }
}

/* The fixed-size in-types. */
static gboolean
decode_fixed (Decoder *d, const EtManifestData *item, guint *index)
{
  guint size = item->in_type == ET_MAN_IN_POINTER ? d->pointer_size : fixed_sizes[item->in_type];
  const guint8 *p;
  guint64 v = 0;
  EtGuid guid;

  if (item->in_type == ET_MAN_IN_GUID)
    {
      if ((p = take (d, item, 16)) == NULL)
        return FALSE;
      et_guid_from_bytes (&guid, p);
      *index = et_fields_add_guid (d->fields, item->name, &guid);
      return TRUE;
    }
  if (item->in_type == ET_MAN_IN_SYSTEMTIME)
    {
      if ((p = take (d, item, 16)) == NULL)
        return FALSE;
      *index = et_fields_add (d->fields, item->name, ET_VALUE_SYSTEMTIME);
      for (guint i = 0; i < 8; i++)
        et_fields_entry (d->fields, *index)->v.st[i] = et_read_u16 (p + 2 * i);
      return TRUE;
    }
  if (!read_le (d, item, size, &v))
    return FALSE;
  if (item->out_type == OUT_IPV4 && size == 4)
    {
      char text[16];

      g_snprintf (text, sizeof text, "%u.%u.%u.%u", (guint) (v & 0xFF), (guint) (v >> 8 & 0xFF),
                  (guint) (v >> 16 & 0xFF), (guint) (v >> 24));
      *index = et_fields_add_string (d->fields, item->name, text, strlen (text));
      return TRUE;
    }
  if (item->out_type == OUT_PORT && size == 2)
    v = GUINT16_SWAP_LE_BE ((guint16) v);      /* network byte order */
  *index = add_number (d->fields, item->name, item->in_type, v);
  return TRUE;
}

static gboolean
decode_scalar (Decoder *d, const EtManifestData *item, const Scope *scope)
{
  guint index = 0;
  gboolean ok;

  switch (item->in_type)
    {
    case ET_MAN_IN_UNICODE_STRING:
    case ET_MAN_IN_ANSI_STRING:
      ok = decode_text (d, item, scope, &index);
      break;
    case ET_MAN_IN_BINARY:
      ok = decode_binary (d, item, scope, &index);
      break;
    case ET_MAN_IN_SID:
      ok = decode_sid (d, item, &index);
      break;
    case ET_MAN_IN_WBEM_SID:
      ok = decode_wbem_sid (d, item, &index);
      break;
    case ET_MAN_IN_UNKNOWN:
      return fail (d, ET_ETL_ERROR_UNSUPPORTED, d->r.pos, item, "an in-type we cannot decode");
    default:
      ok = decode_fixed (d, item, &index);
      break;
    }
  if (ok)
    finish_entry (d, index, item);
  return ok;
}

static gboolean decode_items (Decoder *d, const EtManifestData *items, guint n,
                              const Scope *outer);

static gboolean
decode_element (Decoder *d, const EtManifestData *item, const Scope *scope)
{
  gboolean ok;

  if (item->in_type != ET_MAN_IN_STRUCT)
    return decode_scalar (d, item, scope);
  et_fields_begin (d->fields, item->name, ET_VALUE_STRUCT);
  ok = decode_items (d, item->members, item->n_members, scope);
  et_fields_end (d->fields);
  return ok;
}

/* The bytes decode_fixed takes for one @item, a number (an integer, a
 * float, a GUID, a time, a pointer) that reading cannot fail but by
 * running out of bytes; 0 for any other in-type. */
static guint
number_size (const Decoder *d, const EtManifestData *item)
{
  switch (item->in_type)
    {
    case ET_MAN_IN_POINTER:
      return d->pointer_size;
    case ET_MAN_IN_STRUCT:
    case ET_MAN_IN_UNICODE_STRING:
    case ET_MAN_IN_ANSI_STRING:
    case ET_MAN_IN_BINARY:
    case ET_MAN_IN_SID:
    case ET_MAN_IN_WBEM_SID:
      return 0;
    default:
      return item->in_type <= ET_MAN_IN_LAST ? fixed_sizes[item->in_type] : 0;
    }
}

static gboolean
decode_item (Decoder *d, const EtManifestData *item, const Scope *scope)
{
  gsize left = et_reader_remaining (&d->r), size;
  guint64 n;
  gboolean ok = TRUE;

  if (item->optional && left == 0)
    return TRUE;
  if (item->count.kind == ET_MAN_SIZE_NONE)
    return decode_element (d, item, scope);
  if (!size_value (d, item, &item->count, scope, "count", &n))
    return FALSE;
  /* Every element takes at least min_size bytes (at least one, for the
   * sake of the bound), so a lying count fails here, before any entry. */
  if (n > left / MAX (item->min_size, 1))
    return fail (d, ET_ETL_ERROR_CORRUPT, d->r.pos, item,
                 "count %" G_GUINT64_FORMAT " cannot fit: an element takes at least %u bytes, %"
                 G_GSIZE_FORMAT " left", n, MAX (item->min_size, 1), left);
  et_fields_entry (d->fields, et_fields_begin (d->fields, item->name, ET_VALUE_ARRAY))->in_type =
    item->in_type;
  /* (n × size cannot overflow: n is at most left / min_size, and a
   * pointer's min_size is 4) */
  if (d->check && (size = number_size (d, item)) != 0)
    ok = take (d, item, n * size) != NULL;
  else
    for (guint64 i = 0; ok && i < n; i++)
      ok = decode_element (d, item, scope);
  et_fields_end (d->fields);
  return ok;
}

static gboolean
decode_items (Decoder *d, const EtManifestData *items, guint n, const Scope *outer)
{
  Scope scope = { et_fields_len (d->fields), outer };

  for (guint i = 0; i < n; i++)
    if (!decode_item (d, &items[i], &scope))
      return FALSE;
  return TRUE;
}

static gboolean
arguments_sane (const EtManifest *manifest, const EtManifestEvent *event, const guint8 *payload,
                gsize len, guint pointer_size, const EtFields *fields)
{
  g_return_val_if_fail (manifest != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);
  g_return_val_if_fail (pointer_size == 4 || pointer_size == 8, FALSE);
  g_return_val_if_fail (fields != NULL, FALSE);
  return TRUE;
}

static gboolean
run (Decoder *d, const EtManifestEvent *event, const guint8 *payload, gsize len)
{
  static const guint8 empty[1];

  et_reader_init (&d->r, payload != NULL ? payload : empty, len);
  if (event->template_ == NULL)
    return TRUE;
  return decode_items (d, event->template_->data, event->template_->n_data, NULL);
}

gboolean
et_manifest_decode (const EtManifest      *manifest,
                    const EtManifestEvent *event,
                    const guint8          *payload,
                    gsize                  len,
                    guint                  pointer_size,
                    EtFields              *fields,
                    gsize                 *consumed,
                    GError               **error)
{
  Decoder d = { .pointer_size = pointer_size, .fields = fields, .error = error };
  gboolean ok;

  if (!arguments_sane (manifest, event, payload, len, pointer_size, fields))
    return FALSE;
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ok = run (&d, event, payload, len);
  if (consumed != NULL)
    *consumed = d.r.pos;
  return ok;
}

gboolean
et_manifest_check (const EtManifest      *manifest,
                   const EtManifestEvent *event,
                   const guint8          *payload,
                   gsize                  len,
                   guint                  pointer_size,
                   EtFields              *scratch)
{
  Decoder d = { .pointer_size = pointer_size, .fields = scratch, .check = TRUE };

  if (!arguments_sane (manifest, event, payload, len, pointer_size, scratch))
    return FALSE;
  et_fields_clear (scratch);
  return run (&d, event, payload, len);
}
