/* et-nettrace-types.c — what every event of one EventPipe metadata
 * record shares, as the image's EtImageType (see et-nettrace-types.h). */
#include "et-nettrace-types.h"

#include <string.h>

#define EXT_SCHEMA_TL        11
#define EXT_PROV_TRAITS      12
#define TL_VARIABLE_COUNT    0x40
#define TL_HAS_OUT           0x80

/* TraceLogging in-types and out-types written (etl-format.md §10). */
enum
{
  TL_UNICODE_STRING = 1, TL_INT8 = 3, TL_UINT8, TL_INT16, TL_UINT16, TL_INT32, TL_UINT32,
  TL_INT64, TL_UINT64, TL_FLOAT, TL_DOUBLE, TL_BOOL32, TL_GUID = 15, TL_FILETIME = 17,
  TL_STRUCT = 24, TL_OUT_STRING = 2,
};

/* The runtime's providers: well-known GUIDs (not hashed from the name), and
 * no field descriptions in EventPipe. (EventPipe's own provider,
 * Microsoft-DotNETCore-EventPipe, describes its ProcessInfo event's fields
 * and has the GUID EventSource's rule gives its name: it is read as any
 * EventSource.) */
static const struct
{
  const char *name;
  const char *guid;
} runtime_providers[] = {
  { "Microsoft-Windows-DotNETRuntime", "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4" },
  { "Microsoft-Windows-DotNETRuntimeRundown", "a669021c-c450-4609-a035-5af59af4df18" },
  { "Microsoft-Windows-DotNETRuntimePrivate", "763fd754-7086-4dfe-95eb-c01a46faf4ca" },
  { "Microsoft-Windows-DotNETRuntimeStress", "cc2bcbba-16b6-4cf3-8990-d74c2e8af500" },
  { "Microsoft-DotNETCore-SampleProfiler", "3c530d44-97ae-513a-1e6d-783e8f8e03a9" },
};

static void
put_cstring (GByteArray *b, const char *s)
{
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s) + 1);
}

static void
put_ext (GByteArray *b, guint16 type, const guint8 *data, gsize len, gboolean more)
{
  guint16 item = (guint16) ((8 + len + 7) & ~(gsize) 7);

  _et_nt_put (b, item, 2);
  _et_nt_put (b, type, 2);
  _et_nt_put (b, more ? 1 : 0, 2);
  _et_nt_put (b, len, 2);
  g_byte_array_append (b, data, (guint) len);
  _et_nt_pad8 (b);
}

/* ---- metadata → TraceLogging ------------------------------------------- */

static guint8
tl_in_type (guint8 type, guint8 *out)
{
  static const guint8 map[] = {
    [ET_NT_BOOLEAN32] = TL_BOOL32, [ET_NT_UTF16_CODE_UNIT] = TL_UINT16,
    [ET_NT_SBYTE] = TL_INT8, [ET_NT_BYTE] = TL_UINT8, [ET_NT_INT16] = TL_INT16,
    [ET_NT_UINT16] = TL_UINT16, [ET_NT_INT32] = TL_INT32, [ET_NT_UINT32] = TL_UINT32,
    [ET_NT_INT64] = TL_INT64, [ET_NT_UINT64] = TL_UINT64, [ET_NT_SINGLE] = TL_FLOAT,
    [ET_NT_DOUBLE] = TL_DOUBLE, [ET_NT_DATETIME] = TL_FILETIME, [ET_NT_GUID] = TL_GUID,
    [ET_NT_UTF16_STRING] = TL_UNICODE_STRING,
  };

  /* A UTF-16 code unit is a character: TraceLogging says so with an
   * out-type on a 16-bit integer. EventSource writes a DateTime as an
   * 8-byte FILETIME (DateTime.ToFileTimeUtc; TraceEvent reads 8 bytes),
   * not as the 16-byte SYSTEMTIME its name suggests. */
  *out = type == ET_NT_UTF16_CODE_UNIT ? TL_OUT_STRING : 0;
  return type < G_N_ELEMENTS (map) ? map[type] : 0;
}

/* Writes the field at @i (and what belongs to it) as TraceLogging fields;
 * returns the index after it, or 0 when TraceLogging cannot say it. */
static guint
tl_field (GByteArray *b, const GArray *fields, guint i, guint8 count)
{
  const EtNtField *f = &g_array_index (fields, EtNtField, i);
  guint next = i + 1;
  guint8 in, out;

  if (f->type == ET_NT_ARRAY)
    {
      const EtNtField *element = &g_array_index (fields, EtNtField, i + 1);

      if (count != 0 || i + 1 >= fields->len)
        return 0;
      if (element->type != ET_NT_ARRAY)
        return tl_field (b, fields, i + 1, TL_VARIABLE_COUNT);
      /* An array of arrays: an array of structs of one array each lays out
       * the same bytes. */
      put_cstring (b, f->name ? f->name : "");
      _et_nt_put (b, TL_STRUCT | TL_VARIABLE_COUNT | TL_HAS_OUT, 1);
      _et_nt_put (b, 1, 1);
      return tl_field (b, fields, i + 1, 0);
    }
  put_cstring (b, f->name ? f->name : "");
  if (f->type == ET_NT_OBJECT)
    {
      if (f->n_children > 0x7F)
        return 0;
      _et_nt_put (b, TL_STRUCT | count | TL_HAS_OUT, 1);
      _et_nt_put (b, f->n_children, 1);
      for (guint k = 0; k < f->n_children && next != 0; k++)
        next = next < fields->len ? tl_field (b, fields, next, 0) : 0;
      return next;
    }
  in = tl_in_type (f->type, &out);
  if (in == 0)
    return 0;
  _et_nt_put (b, in | count | (out ? TL_HAS_OUT : 0), 1);
  if (out)
    _et_nt_put (b, out, 1);
  return next;
}

/* The TraceLogging metadata of @meta, or NULL when its fields cannot be
 * said in TraceLogging (or are not known). */
static GBytes *
tl_schema (const EtNettraceMeta *meta, const char *name)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  guint i = 0;

  if (!meta->has_fields)
    return NULL;
  _et_nt_put (b, 0, 2);
  _et_nt_put (b, 0, 1);                        /* no event tags */
  put_cstring (b, name);
  while (i < meta->fields->len)
    if ((i = tl_field (b, meta->fields, i, 0)) == 0)
      return NULL;
  if (b->len > G_MAXUINT16)
    return NULL;
  _et_nt_set (b->data, b->len, 2);
  return g_byte_array_free_to_bytes (g_steal_pointer (&b));
}

static GBytes *
tl_traits (const char *provider)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();

  _et_nt_put (b, 0, 2);
  put_cstring (b, provider);
  _et_nt_set (b->data, MIN (b->len, G_MAXUINT16), 2);
  return g_byte_array_free_to_bytes (g_steal_pointer (&b));
}

static gboolean
ends_with (const char *s, const char *suffix)
{
  gsize n = strlen (s), k = strlen (suffix);

  return n >= k && g_ascii_strcasecmp (s + n - k, suffix) == 0;
}

/* EventPipe metadata has no task. An EventSource that names none gives
 * event N the task 0xFFFE − N, and a …Stop event the task of the …Start
 * just before it (EventSource's own rule, so that its .etl and .nettrace
 * agree, and ends pair with their own kind of start). Events written
 * without an id (EventSource.Write) keep task 0. */
static guint16
eventsource_task (guint16 id, guint8 opcode, const char *name)
{
  if (id == 0)
    return 0;
  if (opcode == 2 && id > 1 && ends_with (name, "Stop"))
    return (guint16) (0xFFFE - (id - 1));
  return (guint16) (0xFFFE - id);
}

EtImageType *
_et_nettrace_type_new (const EtNettraceMeta *meta)
{
  EtImageType *t = g_new0 (EtImageType, 1);
  g_autoptr(GBytes) traits = NULL;
  g_autoptr(GBytes) schema = NULL;
  g_autofree char *name = meta->name[0] ? g_strdup (meta->name)
                                        : g_strdup_printf ("EventID(%u)", meta->event_id);
  gboolean runtime = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (runtime_providers); i++)
    if (strcmp (meta->provider, runtime_providers[i].name) == 0)
      {
        runtime = TRUE;
        if (runtime_providers[i].guid == NULL
            || !et_guid_parse (runtime_providers[i].guid, &t->provider))
          et_guid_from_eventsource_name (meta->provider, &t->provider);
      }
  if (!runtime)
    et_guid_from_eventsource_name (meta->provider, &t->provider);
  traits = tl_traits (meta->provider);
  schema = runtime ? NULL : tl_schema (meta, name);
  t->items = g_byte_array_new ();
  put_ext (t->items, EXT_PROV_TRAITS, g_bytes_get_data (traits, NULL), g_bytes_get_size (traits),
           schema != NULL);
  if (schema != NULL)
    put_ext (t->items, EXT_SCHEMA_TL, g_bytes_get_data (schema, NULL), g_bytes_get_size (schema),
             FALSE);
  t->id = (guint16) meta->event_id;
  t->version = meta->version;
  t->level = meta->level;
  t->keywords = meta->keywords;
  t->opcode = meta->opcode;
  /* Format 4 metadata has no opcodes: EventSource names its span events
   * …Start and …Stop, and TraceEvent takes the opcode from the name. */
  if (!meta->has_opcode && ends_with (name, "Start"))
    t->opcode = 1;
  else if (!meta->has_opcode && ends_with (name, "Stop"))
    t->opcode = 2;
  if (!runtime)
    t->task = eventsource_task (t->id, t->opcode, name);
  return t;
}

/* TraceEvent leaves out the stacks the runtime gives its rundown and its
 * method load and unload events (ids 140–144 and 190), which only tell
 * where the runtime was when it logged them. */
gboolean
_et_nettrace_type_stack_left_out (const EtImageType *t)
{
  static EtGuid runtime, rundown;
  static gsize parsed;

  if (g_once_init_enter (&parsed))
    {
      et_guid_parse (runtime_providers[0].guid, &runtime);
      et_guid_parse (runtime_providers[1].guid, &rundown);
      g_once_init_leave (&parsed, 1);
    }
  return et_guid_equal (&t->provider, &rundown)
         || (et_guid_equal (&t->provider, &runtime)
             && ((t->id >= 140 && t->id <= 144) || t->id == 190));
}

