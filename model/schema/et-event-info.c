/* et-event-info.c — TRACE_EVENT_INFO and EVENT_MAP_INFO read, checked
 * and turned into the manifest parser's state (see et-event-info.h; the
 * payloads kept per provider and the manifests built: et-event-info-set.c).
 *
 * Layouts (Windows SDK tdh.h; offsets in bytes, little-endian):
 *   TRACE_EVENT_INFO   ProviderGuid 0, EventGuid 16, EVENT_DESCRIPTOR 32
 *                      (Id u16, Version, Channel, Level, Opcode u8, Task
 *                      u16, Keyword u64), DecodingSource 48, then u32
 *                      offsets of the provider 52, level 56, channel 60,
 *                      keywords 64, task 68 and opcode 72 names, …,
 *                      PropertyCount 100, TopLevelPropertyCount 104,
 *                      Flags 108, EVENT_PROPERTY_INFO[PropertyCount] 112.
 *   EVENT_PROPERTY_INFO (24 bytes) Flags 0, NameOffset 4; InType u16 8,
 *                      OutType u16 10, MapNameOffset 12 — or, for a
 *                      struct, StructStartIndex u16 8, NumOfStructMembers
 *                      u16 10; count (or its property's index) u16 16,
 *                      length (or its property's index) u16 18.
 *   EVENT_MAP_INFO     NameOffset 0, Flag 4, EntryCount 8, ValueType 12,
 *                      EVENT_MAP_ENTRY { OutputOffset, Value }[] 16.
 * Every offset counts from the start of its own structure; names are
 * NUL-terminated UTF-16. An EventInfo without properties is cut short:
 * its strings may start at Flags, which is why Flags is never read.
 *
 * The same walk checks a payload when it arrives (no tables: nothing is
 * made) and, when the manifest is built, fills the tables: what was
 * accepted is exactly what is built.
 */
#include "et-event-info-private.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-fields.h"
#include "et-manifest-private.h"

#include <string.h>

enum
{
  TEI_DESCRIPTOR = 32, TEI_SOURCE = 48, TEI_PROVIDER_NAME = 52, TEI_TASK_NAME = 68,
  TEI_OPCODE_NAME = 72, TEI_PROPERTY_COUNT = 100, TEI_TOP_COUNT = 104,
  TEI_HEADER = 108,          /* the least an EventInfo holds (no properties) */
  TEI_PROPERTIES = 112,
  EPI_SIZE = 24,
  EMI_START = ET_EVENT_MAP_INFO_START,
  EMI_HEADER = 16, EME_SIZE = 8,
};

/* EVENT_PROPERTY_INFO.Flags */
enum
{
  PROP_STRUCT = 0x1, PROP_PARAM_LENGTH = 0x2, PROP_PARAM_COUNT = 0x4,
  PROP_FIXED_LENGTH = 0x10, PROP_FIXED_COUNT = 0x20,
};

/* EVENT_MAP_INFO.Flag: the manifest's maps and WBEM's of the same shape. */
enum { MAP_VALUE = 0x1, MAP_BITS = 0x2, MAP_WBEM_VALUE = 0x8, MAP_WBEM_BITS = 0x10 };

/* TDH in-types past the manifest's 1–21 that have a meaning here. */
enum { TDH_SIZET = 308, TDH_WBEMSID = 310 };

#define MAX_DEPTH 32
#define MAX_NAME 1024

/* A walk over one payload's properties. */
typedef struct
{
  const guint8     *b;
  gsize             len;
  guint             n_props;
  guint             work;       /* properties walked: at most n_props */
  EtManifestTables *tables;     /* NULL: only check */
  GHashTable       *bad_maps;   /* names a field may not use, or NULL */
  gboolean          bad_map;    /* a field used one */
} Walk;

/* The properties of one level, [first, first + n), and the one being
 * walked: counts and lengths may name those before it, here or in an
 * enclosing level. */
typedef struct Level
{
  guint               first, n, current;
  const struct Level *outer;
} Level;

void
_et_event_info_head_clear (EtEventInfoHead *h)
{
  g_free (h->provider_name);
  g_free (h->task_name);
  g_free (h->opcode_name);
}

static gboolean
bad (GError **error, gsize at, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
bad (GError **error, gsize at, const char *format, ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT, "payload byte %" G_GSIZE_FORMAT ": %s",
               at, what);
  return FALSE;
}

/* The NUL-terminated UTF-16 name at an offset from @base (the u32 that
 * gives it sits at @at; both count from @b, the payload); *@out is NULL
 * for offset 0 (no name). Names are short: one of more than MAX_NAME
 * characters is bad metadata, so that properties or map entries naming
 * one long run over and over cost no more than their number. */
static gboolean
read_name (const guint8 *b, gsize len, gsize base, gsize at, const char *what, char **out,
           GError **error)
{
  guint32 offset = et_read_u32 (b + at);
  gsize start = base + offset, i;
  GString *text;

  *out = NULL;
  if (offset == 0)
    return TRUE;
  for (i = start; i + 2 <= len && i - start <= 2 * MAX_NAME; i += 2)
    if (b[i] == 0 && b[i + 1] == 0)
      {
        text = g_string_new (NULL);
        et_utf16_append (text, b + start, (i - start) / 2);
        *out = g_string_free (text, FALSE);
        return TRUE;
      }
  if (i + 2 <= len)
    return bad (error, at, "%s at offset %u is longer than %d characters", what, offset,
                MAX_NAME);
  return bad (error, at, "%s at offset %u does not end inside the %" G_GSIZE_FORMAT " bytes",
              what, offset, len - base);
}

static gboolean
read_head (const guint8 *b, gsize len, EtEventInfoHead *h, GError **error)
{
  if (len < TEI_HEADER)
    return bad (error, 0, "an EventInfo of %" G_GSIZE_FORMAT " bytes is shorter than its "
                "%d-byte header", len, TEI_HEADER);
  et_guid_from_bytes (&h->provider, b);
  h->id = et_read_u16 (b + TEI_DESCRIPTOR);
  h->version = b[TEI_DESCRIPTOR + 2];
  h->level = b[TEI_DESCRIPTOR + 4];
  h->opcode = b[TEI_DESCRIPTOR + 5];
  h->task = et_read_u16 (b + TEI_DESCRIPTOR + 6);
  h->source = et_read_u32 (b + TEI_SOURCE);
  h->n_props = et_read_u32 (b + TEI_PROPERTY_COUNT);
  h->n_top = et_read_u32 (b + TEI_TOP_COUNT);
  if (h->n_props > (len - MIN (len, TEI_PROPERTIES)) / EPI_SIZE)
    return bad (error, TEI_PROPERTY_COUNT, "%u properties do not fit in %" G_GSIZE_FORMAT
                " bytes", h->n_props, len);
  if (h->n_top > h->n_props)
    return bad (error, TEI_TOP_COUNT, "%u top-level properties of %u", h->n_top, h->n_props);
  return read_name (b, len, 0, TEI_PROVIDER_NAME, "the provider name", &h->provider_name, error)
         && read_name (b, len, 0, TEI_TASK_NAME, "the task name", &h->task_name, error)
         && read_name (b, len, 0, TEI_OPCODE_NAME, "the opcode name", &h->opcode_name, error);
}

/* ───────────────────────────── properties ───────────────────────────── */

static const char *
keep (Walk *w, const char *text)
{
  return w->tables != NULL ? _et_manifest_tables_intern (w->tables, text, -1) : NULL;
}

static gboolean
visible (const Level *level, guint index)
{
  for (; level != NULL; level = level->outer)
    if (index >= level->first && index < level->current)
      return TRUE;
  return FALSE;
}

/* count= or length= naming property @index: it must come before this one. */
static gboolean
size_ref (Walk *w, const Level *level, guint index, const char *what, const char **out,
          GError **error)
{
  gsize at = TEI_PROPERTIES + (gsize) level->current * EPI_SIZE + (what[0] == 'c' ? 16 : 18);
  g_autofree char *name = NULL;

  if (!visible (level, index))
    return bad (error, at, "property %u takes its %s from property %u, which does not come "
                "before it", level->current, what, index);
  if (!read_name (w->b, w->len, 0, TEI_PROPERTIES + (gsize) index * EPI_SIZE + 4,
                  "a property name", &name, error))
    return FALSE;
  *out = keep (w, name != NULL ? name : "");
  return TRUE;
}

static const char *
in_type_text (Walk *w, guint16 in)
{
  g_autofree char *text = NULL;
  const char *name = NULL;

  if (w->tables == NULL)
    return NULL;
  if (in >= ET_MAN_IN_UNICODE_STRING && in <= ET_MAN_IN_HEXINT64)
    name = et_manifest_in_type_name (in);
  else if (in == TDH_WBEMSID)
    name = et_manifest_in_type_name (ET_MAN_IN_WBEM_SID);
  else if (in == TDH_SIZET)           /* pointer-sized, as TDH reads it */
    name = et_manifest_in_type_name (ET_MAN_IN_POINTER);
  /* Any other (TraceLogging's counted types…) is no manifest type: the
   * decoder stops at it and says so. */
  text = name != NULL ? g_strconcat ("win:", name, NULL) : g_strdup_printf ("tdh:InType%u", in);
  return keep (w, text);
}

static gboolean walk_level (Walk *w, Level *level, GArray *items, guint depth, GError **error);

static gboolean
walk_struct (Walk *w, Level *level, const guint8 *p, EtManifestParseData *d, guint depth,
             GError **error)
{
  guint start = et_read_u16 (p + 8), n = et_read_u16 (p + 10);
  gsize at = p + 8 - w->b;
  Level inner = { start, n, start, level };

  if (start + n > w->n_props)
    return bad (error, at, "struct property %u has members %u to %u of %u properties",
                level->current, start, start + n, w->n_props);
  if (depth >= MAX_DEPTH)
    return bad (error, at, "structs nested deeper than %d", MAX_DEPTH);
  d->members = w->tables != NULL ? _et_manifest_parse_data_new () : NULL;
  if (!walk_level (w, &inner, d->members, depth + 1, error))
    {
      g_clear_pointer (&d->members, g_array_unref);
      return FALSE;
    }
  return TRUE;
}

static gboolean
walk_scalar (Walk *w, const guint8 *p, EtManifestParseData *d, GError **error)
{
  g_autofree char *map = NULL;
  guint16 out = et_read_u16 (p + 10);
  const char *out_name = et_manifest_out_type_name (out);

  if (!read_name (w->b, w->len, 0, p + 12 - w->b, "a map name", &map, error))
    return FALSE;
  if (map != NULL && w->bad_maps != NULL && g_hash_table_contains (w->bad_maps, map))
    w->bad_map = TRUE;
  d->in_type = in_type_text (w, et_read_u16 (p + 8));
  if (out_name != NULL && w->tables != NULL)
    {
      g_autofree char *text = g_strconcat ("win:", out_name, NULL);
      d->out_type = keep (w, text);
    }
  d->map = map != NULL ? keep (w, map) : NULL;
  return TRUE;
}

/* Count and length: a property named, a fixed number, or none. Lengths
 * are the strings' and binaries' (a scalar's is its size). */
static gboolean
walk_sizes (Walk *w, const Level *level, const guint8 *p, EtManifestParseData *d, GError **error)
{
  guint32 flags = et_read_u32 (p);
  guint16 count = et_read_u16 (p + 16), length = et_read_u16 (p + 18), in = et_read_u16 (p + 8);
  gboolean sized = !(flags & PROP_STRUCT) && (in == ET_MAN_IN_UNICODE_STRING
                                              || in == ET_MAN_IN_ANSI_STRING
                                              || in == ET_MAN_IN_BINARY);
  char number[16];

  if (flags & PROP_PARAM_COUNT)
    {
      if (!size_ref (w, level, count, "count", &d->count, error))
        return FALSE;
    }
  else if ((flags & PROP_FIXED_COUNT) || count > 1)
    {
      g_snprintf (number, sizeof number, "%u", count);
      d->count = keep (w, number);
    }
  if (flags & PROP_PARAM_LENGTH)
    return size_ref (w, level, length, "length", &d->length, error);
  if (sized && ((flags & PROP_FIXED_LENGTH) || length > 0))
    {
      g_snprintf (number, sizeof number, "%u", length);
      d->length = keep (w, number);
    }
  return TRUE;
}

static gboolean
walk_level (Walk *w, Level *level, GArray *items, guint depth, GError **error)
{
  for (guint k = 0; k < level->n; k++)
    {
      const guint8 *p = w->b + TEI_PROPERTIES + (gsize) (level->first + k) * EPI_SIZE;
      EtManifestParseData d = { 0 };
      g_autofree char *name = NULL;

      level->current = level->first + k;
      /* Well-formed structs split the properties: each is walked once. */
      if (++w->work > w->n_props)
        return bad (error, p - w->b, "struct members overlap: more than the %u properties "
                    "walked", w->n_props);
      if (!read_name (w->b, w->len, 0, p + 4 - w->b, "a property name", &name, error))
        return FALSE;
      d.name = keep (w, name != NULL ? name : "");
      if (!((et_read_u32 (p) & PROP_STRUCT) ? walk_struct (w, level, p, &d, depth, error)
                                            : walk_scalar (w, p, &d, error))
          || !walk_sizes (w, level, p, &d, error))
        {
          g_clear_pointer (&d.members, g_array_unref);
          return FALSE;
        }
      if (items != NULL)
        g_array_append_val (items, d);
      else
        g_clear_pointer (&d.members, g_array_unref);
    }
  return TRUE;
}

/* ──────────────────────────────── maps ──────────────────────────────── */

/* One EventMapInfo payload (@b: the provider's GUID, then the
 * EVENT_MAP_INFO, whose offsets count from its own start): checked, and
 * added to @tables when given. *@name is its name; *@usable FALSE for a
 * kind of map we do not show (patterns, WBEM flags, string values). */
gboolean
_et_event_info_walk_map (const guint8 *b, gsize len, EtManifestTables *tables, char **name, gboolean *usable,
          GError **error)
{
  const guint8 *m = b + EMI_START;
  guint32 flag, n;

  *usable = FALSE;
  if (len < EMI_START + EMI_HEADER)
    return bad (error, 0, "an EventMapInfo of %" G_GSIZE_FORMAT " bytes is shorter than its "
                "%d-byte header", len, EMI_START + EMI_HEADER);
  if (!read_name (b, len, EMI_START, EMI_START, "the map name", name, error))
    return FALSE;
  flag = et_read_u32 (m + 4);
  n = et_read_u32 (m + 8);
  if (n > (len - EMI_START - EMI_HEADER) / EME_SIZE)
    return bad (error, EMI_START + 8, "%u map entries do not fit in %" G_GSIZE_FORMAT " bytes",
                n, len);
  *usable = *name != NULL && (flag & (MAP_VALUE | MAP_BITS | MAP_WBEM_VALUE | MAP_WBEM_BITS))
            && et_read_u32 (m + 12) == 0;
  for (guint32 i = 0; i < n; i++)
    {
      gsize at = EMI_START + EMI_HEADER + (gsize) i * EME_SIZE;
      g_autofree char *label = NULL;

      if (!read_name (b, len, EMI_START, at, "a map label", &label, error))
        return FALSE;
      /* TDH's labels end in a space; TraceEvent trims them too. */
      if (tables != NULL && *usable && label != NULL)
        _et_manifest_tables_map (tables, *name, (flag & (MAP_BITS | MAP_WBEM_BITS)) != 0,
                                 et_read_u32 (b + at + 4), g_strstrip (label));
    }
  return TRUE;
}

gboolean
_et_event_info_check_event (const guint8 *b, gsize len, EtEventInfoHead *h, GError **error)
{
  Walk w = { b, len };
  Level top = { 0 };

  if (!read_head (b, len, h, error))
    return FALSE;
  /* Only manifest-based providers (DecodingSource 0): classic ones are
   * keyed otherwise, and TraceLogging's carry their own metadata. */
  if (h->source != 0)
    return TRUE;
  w.n_props = h->n_props;
  top.n = h->n_top;
  return walk_level (&w, &top, NULL, 0, error);
}

/* ─────────────────────────── building a manifest ─────────────────────────── */

/* TraceEvent's names: spaces left out, '-' as '_' (its MakeLegalIdentifier). */
static char *
legal_name (const char *name)
{
  GString *out = g_string_new (NULL);

  for (const char *c = name; *c != '\0'; c++)
    if (*c != ' ')
      g_string_append_c (out, *c == '-' ? '_' : *c);
  return g_string_free (out, FALSE);
}

static char *
event_name (const EtEventInfoHead *h, const char *task)
{
  const char *opcode = h->opcode_name;

  if (task == NULL)
    return g_strdup_printf ("EventID(%u)", h->id);
  if (opcode != NULL && g_str_has_prefix (opcode, "win:"))
    opcode += 4;
  if (h->opcode == 0 || opcode == NULL || opcode[0] == '\0')
    return g_strdup (task);
  g_autofree char *legal = legal_name (opcode);
  return g_strdup_printf ("%s/%s", task, legal);
}

void
_et_event_info_build_event (const guint8 *b, gsize len, EtManifestTables *tables,
                            GHashTable *bad_maps, GHashTable *named)
{
  g_auto(EtEventInfoHead) h = { 0 };
  Walk w = { b, len, 0, 0, tables, bad_maps };
  Level top = { 0 };
  g_autoptr(GArray) items = _et_manifest_parse_data_new ();
  g_autofree char *task = NULL, *symbol = NULL, *tid = NULL;

  /* Checked when it came: only a map found bad since can stop it now. */
  if (!read_head (b, len, &h, NULL))
    return;
  w.n_props = h.n_props;
  top.n = h.n_top;
  if (!walk_level (&w, &top, items, 0, NULL) || w.bad_map)
    return;
  task = h.task_name != NULL ? legal_name (h.task_name) : NULL;
  symbol = event_name (&h, task);
  tid = g_strdup_printf ("eventinfo %u.%u", h.id, h.version);
  /* Tasks and opcodes once each; keys: task + 1, or a task's opcode. */
  if (task != NULL && g_hash_table_add (named, GUINT_TO_POINTER (h.task + 1)))
    _et_manifest_tables_task (tables, task, h.task);
  if (h.opcode_name != NULL
      && g_hash_table_add (named, GUINT_TO_POINTER (0x1000000u | (guint) h.task << 8 | h.opcode)))
    _et_manifest_tables_opcode (tables, h.task, h.opcode_name, h.opcode);
  if (h.n_top > 0)
    _et_manifest_tables_template (tables, tid, g_steal_pointer (&items));
  _et_manifest_tables_event (tables, h.id, h.version, h.level, task, h.opcode_name, symbol,
                             h.n_top > 0 ? tid : NULL);
}
