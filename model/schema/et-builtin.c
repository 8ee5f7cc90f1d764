/* et-builtin.c — built-in schemas turned into manifests.
 *
 * The tables of et-builtin-clr*.c and et-builtin-kernel*.c say, per provider, its tasks, opcodes,
 * maps and events, each event's fields as one compact string (grammar in
 * et-builtin-private.h). Here they become the parse state of an EventSource
 * manifest (EtManifestTables) and are resolved by et-manifest.c exactly as
 * a manifest found in a trace: one decoder for both.
 */
#include "et-builtin.h"
#include "et-builtin-private.h"
#include "et-builtin-kernel.h"
#include "et-manifest-private.h"

#include <string.h>

static const EtBuiltinProvider *const providers[] = {
  &_et_builtin_clr_runtime,
  &_et_builtin_clr_rundown,
  &_et_builtin_clr_private,
  &_et_builtin_sample_profiler,
  /* The kernel's classes, by group GUID (et-builtin-kernel*.c). */
  &_et_builtin_kernel_header, &_et_builtin_kernel_process, &_et_builtin_kernel_thread,
  &_et_builtin_kernel_image, &_et_builtin_kernel_perfinfo, &_et_builtin_kernel_stack,
  &_et_builtin_kernel_config, &_et_builtin_kernel_disk, &_et_builtin_kernel_file,
  &_et_builtin_kernel_memory, &_et_builtin_kernel_tcp, &_et_builtin_kernel_udp,
  &_et_builtin_ktc_image_id, &_et_builtin_ktc_sysconfig, &_et_builtin_ktc_metadata,
};

typedef struct
{
  const char *code;
  const char *in_type;
  const char *out_type;
  const char *length;     /* a fixed length the type implies, or NULL */
} TypeCode;

static const TypeCode type_codes[] = {
  { "u8", "win:UInt8" }, { "u16", "win:UInt16" }, { "u32", "win:UInt32" },
  { "u64", "win:UInt64" }, { "i32", "win:Int32" }, { "i64", "win:Int64" },
  { "x32", "win:UInt32", "win:HexInt32" }, { "x64", "win:UInt64", "win:HexInt64" },
  { "ptr", "win:Pointer" }, { "str", "win:UnicodeString" }, { "ansi", "win:AnsiString" },
  { "bool", "win:Boolean" }, { "guid", "win:GUID" }, { "f32", "win:Float" },
  { "f64", "win:Double" }, { "i8", "win:Int8" }, { "i16", "win:Int16" },
  { "ft", "win:FILETIME" }, { "bin", "win:Binary" },
  /* The kernel's classic (MOF) types: a SID behind a TOKEN_USER, IP
   * addresses and ports in network byte order. */
  { "ksid", "et:WbemSID" }, { "ip4", "win:UInt32", "win:IPv4" },
  { "ip6", "win:Binary", "win:IPv6", "16" }, { "port", "win:UInt16", "win:Port" },
};

typedef struct
{
  EtManifestTables *tables;
  const char       *p;      /* the next character of the field string */
  const char       *spec;   /* the whole string, for messages */
} SpecReader;

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* A run of name characters, interned; NULL when there is none. */
static const char *
read_name (SpecReader *r)
{
  const char *start = r->p;

  while (is_name_char (*r->p))
    r->p++;
  if (r->p == start)
    return NULL;
  return _et_manifest_tables_intern (r->tables, start, r->p - start);
}

static gboolean
expect (SpecReader *r, char c)
{
  if (*r->p != c)
    {
      g_critical ("built-in schema “%s”: expected '%c' at offset %d", r->spec, c,
                  (int) (r->p - r->spec));
      return FALSE;
    }
  r->p++;
  return TRUE;
}

static gboolean
read_type (SpecReader *r, EtManifestParseData *d)
{
  const char *start = r->p;

  while (g_ascii_isalnum (*r->p))
    r->p++;
  for (guint i = 0; i < G_N_ELEMENTS (type_codes); i++)
    if (strlen (type_codes[i].code) == (gsize) (r->p - start)
        && strncmp (type_codes[i].code, start, r->p - start) == 0)
      {
        d->in_type = type_codes[i].in_type;
        d->out_type = type_codes[i].out_type;
        d->length = type_codes[i].length;
        return TRUE;
      }
  g_critical ("built-in schema “%s”: unknown type at offset %d", r->spec, (int) (start - r->spec));
  return FALSE;
}

static gboolean read_items (SpecReader *r, GArray *items, char end);

/* One item: a scalar (with its map and count) or an array of structs. */
static gboolean
read_item (SpecReader *r, GArray *items)
{
  EtManifestParseData d = { 0 };

  if ((d.name = read_name (r)) == NULL)
    {
      g_critical ("built-in schema “%s”: expected a field name at offset %d", r->spec,
                  (int) (r->p - r->spec));
      return FALSE;
    }
  if (*r->p == '{')
    {
      r->p++;
      d.members = _et_manifest_parse_data_new ();
      g_array_append_val (items, d);
      if (!read_items (r, d.members, '}'))
        return FALSE;
    }
  else
    {
      if (!expect (r, ':') || !read_type (r, &d))
        return FALSE;
      if (*r->p == '(')        /* a fixed length in characters or bytes */
        {
          r->p++;
          d.length = read_name (r);
          if (!expect (r, ')'))
            return FALSE;
        }
      if (*r->p == '=')
        {
          r->p++;
          d.map = read_name (r);
        }
      if (*r->p == '?')        /* absent when the payload ends before it */
        {
          r->p++;
          d.optional = TRUE;
        }
      g_array_append_val (items, d);
    }
  if (*r->p == '[')
    {
      r->p++;
      /* "*": as many elements as the rest of the payload holds. */
      g_array_index (items, EtManifestParseData, items->len - 1).count =
        *r->p == '*' ? (r->p++, "*") : read_name (r);
      return expect (r, ']');
    }
  return TRUE;
}

static gboolean
read_items (SpecReader *r, GArray *items, char end)
{
  while (*r->p != end)
    {
      while (*r->p == ' ')
        r->p++;
      if (*r->p == end)
        break;
      if (!read_item (r, items))
        return FALSE;
    }
  if (end != '\0')
    r->p++;
  return TRUE;
}

static const char *
task_name (const EtBuiltinProvider *b, guint16 task)
{
  for (guint i = 0; i < b->n_tasks; i++)
    if (b->tasks[i].value == task)
      return b->tasks[i].name;
  return NULL;
}

/* Start and Stop are the standard opcodes; the others the task's own. */
static const char *
opcode_name (const EtBuiltinProvider *b, guint16 task, guint8 opcode)
{
  if (opcode == 0)
    return NULL;
  if (opcode == 1)
    return "win:Start";
  if (opcode == 2)
    return "win:Stop";
  for (guint i = 0; i < b->n_opcodes; i++)
    if (b->opcodes[i].task == task && b->opcodes[i].value == opcode)
      return b->opcodes[i].name;
  return NULL;
}

static void
add_template (EtManifestTables *t, GHashTable *seen, const char *fields)
{
  SpecReader r = { t, fields, fields };
  GArray *items;

  if (fields == NULL || g_hash_table_contains (seen, fields))
    return;
  g_hash_table_add (seen, (gpointer) fields);
  items = _et_manifest_parse_data_new ();
  if (!read_items (&r, items, '\0'))
    g_array_set_size (items, 0);
  /* The field string is its own template id: equal strings share one. */
  _et_manifest_tables_template (t, fields, items);
}

static EtManifest *
build (const EtBuiltinProvider *b)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  EtManifestTables *t;
  EtGuid guid;

  et_guid_parse (b->guid, &guid);
  t = _et_manifest_tables_new (b->name, &guid);
  for (guint i = 0; i < b->n_tasks; i++)
    _et_manifest_tables_task (t, b->tasks[i].name, b->tasks[i].value);
  for (guint i = 0; i < b->n_opcodes; i++)
    _et_manifest_tables_opcode (t, b->opcodes[i].task, b->opcodes[i].name, b->opcodes[i].value);
  for (guint i = 0; i < *b->n_maps; i++)
    _et_manifest_tables_map (t, b->maps[i].map, b->maps[i].bitmap, b->maps[i].value,
                             b->maps[i].label);
  for (guint i = 0; i < b->n_events; i++)
    {
      const EtBuiltinEvent *e = &b->events[i];

      add_template (t, seen, e->fields);
      _et_manifest_tables_event (t, e->id, e->version, e->level, task_name (b, e->task),
                                 opcode_name (b, e->task, e->opcode), e->name, e->fields);
    }
  return _et_manifest_tables_finish (t);
}

/* The providers' GUIDs, parsed once: lookups come per kernel record. */
static const EtGuid *
provider_guids (void)
{
  static EtGuid *guids;

  if (g_once_init_enter (&guids))
    {
      EtGuid *parsed = g_new0 (EtGuid, G_N_ELEMENTS (providers));

      for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
        et_guid_parse (providers[i]->guid, &parsed[i]);
      g_once_init_leave (&guids, parsed);
    }
  return guids;
}

static gint
provider_index (const EtGuid *provider)
{
  const EtGuid *guids = provider_guids ();

  for (guint i = 0; i < G_N_ELEMENTS (providers); i++)
    if (et_guid_equal (&guids[i], provider))
      return (gint) i;
  return -1;
}

gboolean
et_builtin_has (const EtGuid *provider)
{
  g_return_val_if_fail (provider != NULL, FALSE);
  return provider_index (provider) >= 0;
}

EtManifest *
et_builtin_manifest_new (const EtGuid *provider)
{
  gint i;

  g_return_val_if_fail (provider != NULL, NULL);
  i = provider_index (provider);
  return i >= 0 ? build (providers[i]) : NULL;
}

const EtManifestEvent *
et_builtin_lookup (const EtGuid *provider, guint16 id, guint8 version,
                   const EtManifest **manifest)
{
  static EtManifest *shared[G_N_ELEMENTS (providers)];
  gint i;

  g_return_val_if_fail (provider != NULL, NULL);
  i = provider_index (provider);
  if (i < 0)
    return NULL;
  if (g_once_init_enter (&shared[i]))
    g_once_init_leave (&shared[i], build (providers[i]));
  if (manifest != NULL)
    *manifest = shared[i];
  return et_manifest_lookup (shared[i], id, version);
}
