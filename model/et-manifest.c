/* et-manifest.c — EventSource manifests carried in the trace: parsing.
 *
 * Second stage for EventSource providers (etl-format.md §9): the manifest
 * XML, reassembled from its chunks (et-manifest-assembler.c), is parsed once
 * with GMarkup into this provider's event-class table: tasks, opcodes,
 * keywords, maps, events and templates, with $(string.X) resolved. Payload
 * decoding by template is in et-manifest-decode.c.
 */
#include "et-manifest-private.h"
#include "et-error.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  char    *name;
  guint16  task;        /* the task whose <opcodes> defined it */
  gboolean global;      /* defined in the provider's <opcodes> */
  guint8   value;
} OpcodeDef;

/* Raw attributes kept until the string table (which comes last) is known. */
typedef struct
{
  guint16 id;
  guint8  version;
  char   *level, *task, *opcode, *keywords, *template_, *message, *symbol;
} EventDef;

typedef struct
{
  EtManifest *m;
  GArray     *opcodes;       /* OpcodeDef */
  GArray     *event_defs;    /* EventDef */
  GHashTable *strings;       /* id → value (owned by the chunk) */
  GHashTable *levels;        /* name → value */
  GHashTable *task_values;   /* name → task + 1 */
  EtMapDef   *current_map;
  EtManifestTemplate *current_template;
  char       *current_task;  /* task whose <opcodes> we are in */
} Parser;

static const struct { const char *name; guint8 value; } standard_opcodes[] = {
  { "win:Info", 0 }, { "win:Start", 1 }, { "win:Stop", 2 }, { "win:DC_Start", 3 },
  { "win:DC_Stop", 4 }, { "win:Extension", 5 }, { "win:Reply", 6 }, { "win:Resume", 7 },
  { "win:Suspend", 8 }, { "win:Send", 9 }, { "win:Receive", 240 },
};

static const struct { const char *name; guint8 value; } standard_levels[] = {
  { "win:LogAlways", 0 }, { "win:Critical", 1 }, { "win:Error", 2 }, { "win:Warning", 3 },
  { "win:Informational", 4 }, { "win:Verbose", 5 },
};

static const struct { const char *name; guint8 in_type; } in_types[] = {
  { "win:UnicodeString", ET_IN_UNICODE_STRING }, { "win:AnsiString", ET_IN_ANSI_STRING },
  { "win:Int8", ET_IN_INT8 }, { "win:UInt8", ET_IN_UINT8 }, { "win:Int16", ET_IN_INT16 },
  { "win:UInt16", ET_IN_UINT16 }, { "win:Int32", ET_IN_INT32 }, { "win:UInt32", ET_IN_UINT32 },
  { "win:Int64", ET_IN_INT64 }, { "win:UInt64", ET_IN_UINT64 }, { "win:Float", ET_IN_FLOAT },
  { "win:Double", ET_IN_DOUBLE }, { "win:Boolean", ET_IN_BOOLEAN },
  { "win:Binary", ET_IN_BINARY }, { "win:GUID", ET_IN_GUID }, { "win:Pointer", ET_IN_POINTER },
  { "win:FILETIME", ET_IN_FILETIME }, { "win:SYSTEMTIME", ET_IN_SYSTEMTIME },
  { "win:SID", ET_IN_SID }, { "win:HexInt32", ET_IN_HEXINT32 }, { "win:HexInt64", ET_IN_HEXINT64 },
};

static const char *
intern (EtManifest *m, const char *text)
{
  return text != NULL ? g_string_chunk_insert_const (m->chunk, text) : NULL;
}

static const char *
attr (const char **names, const char **values, const char *wanted)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], wanted) == 0)
      return values[i];
  return NULL;
}

/* Numbers in manifests are decimal or 0x-hex. */
static gboolean
parse_number (const char *text, guint64 *value)
{
  char *end = NULL;

  if (text == NULL || *text == '\0')
    return FALSE;
  *value = g_ascii_strtoull (text, &end, 0);
  return end != NULL && *end == '\0';
}

static const char *
local_name (const char *element)
{
  const char *colon = strrchr (element, ':');
  return colon ? colon + 1 : element;
}

static void
start_map (Parser *p, const char *element, const char **n, const char **v)
{
  EtMapDef *map = g_new0 (EtMapDef, 1);

  map->name = intern (p->m, attr (n, v, "name"));
  map->bitmap = strcmp (element, "bitMap") == 0;
  map->entries = g_array_new (FALSE, FALSE, sizeof (EtMapEntry));
  g_ptr_array_add (p->m->maps, map);
  p->current_map = map;
}

static void
start_data (Parser *p, const char **n, const char **v, GError **error)
{
  EtTemplateField f = { 0 };
  const char *in = attr (n, v, "inType");
  const char *out = attr (n, v, "outType");
  const char *count = attr (n, v, "count");
  const char *length = attr (n, v, "length");
  guint64 number;

  f.name = intern (p->m, attr (n, v, "name"));
  if (f.name == NULL)
    f.name = "";
  for (guint i = 0; in != NULL && i < G_N_ELEMENTS (in_types); i++)
    if (strcmp (in, in_types[i].name) == 0)
      f.in_type = in_types[i].in_type;
  if (f.in_type == 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_UNSUPPORTED,
                   "field “%s” has an unknown inType “%s”", f.name, in ? in : "");
      return;
    }
  f.hex = f.in_type == ET_IN_HEXINT32 || f.in_type == ET_IN_HEXINT64
          || (out != NULL && (strstr (out, "Hex") != NULL));
  f.map_name = intern (p->m, attr (n, v, "map"));
  f.count_field = f.length_field = -1;
  if (count != NULL && !parse_number (count, &number))
    f.count_ref = intern (p->m, count);
  else if (count != NULL)
    f.count_const = (guint32) MIN (number, G_MAXUINT32), f.has_count = TRUE;
  if (length != NULL && !parse_number (length, &number))
    f.length_ref = intern (p->m, length);
  else if (length != NULL)
    f.length_const = (guint32) MIN (number, G_MAXUINT32), f.has_length = TRUE;
  if (f.count_ref)
    f.has_count = TRUE;
  if (f.length_ref)
    f.has_length = TRUE;
  g_array_append_val (p->current_template->fields, f);
}

static void
start_event (Parser *p, const char **n, const char **v)
{
  EventDef e = { 0 };
  guint64 number = 0;

  parse_number (attr (n, v, "value"), &number);
  e.id = (guint16) number;
  number = 0;
  parse_number (attr (n, v, "version"), &number);
  e.version = (guint8) number;
  e.level = g_strdup (attr (n, v, "level"));
  e.task = g_strdup (attr (n, v, "task"));
  e.opcode = g_strdup (attr (n, v, "opcode"));
  e.keywords = g_strdup (attr (n, v, "keywords"));
  e.template_ = g_strdup (attr (n, v, "template"));
  e.message = g_strdup (attr (n, v, "message"));
  e.symbol = g_strdup (attr (n, v, "symbol"));
  g_array_append_val (p->event_defs, e);
}

static void
on_start (GMarkupParseContext *context, const char *element_full, const char **n,
          const char **v, gpointer user_data, GError **error)
{
  Parser *p = user_data;
  const char *element = local_name (element_full);
  guint64 number = 0;

  if (strcmp (element, "provider") == 0)
    {
      p->m->provider_name = intern (p->m, attr (n, v, "name"));
      if (attr (n, v, "guid") != NULL)
        et_guid_parse (attr (n, v, "guid"), &p->m->provider_guid);
    }
  else if (strcmp (element, "task") == 0)
    {
      EtTaskDef t = { intern (p->m, attr (n, v, "name")), 0 };
      parse_number (attr (n, v, "value"), &number);
      t.value = (guint16) number;
      if (t.name != NULL)
        {
          g_array_append_val (p->m->tasks, t);
          g_hash_table_insert (p->task_values, (gpointer) t.name, GUINT_TO_POINTER (t.value + 1u));
        }
      g_free (p->current_task);
      p->current_task = g_strdup (t.name);
    }
  else if (strcmp (element, "opcode") == 0)
    {
      OpcodeDef o = { g_strdup (attr (n, v, "name")), 0, p->current_task == NULL, 0 };
      parse_number (attr (n, v, "value"), &number);
      o.value = (guint8) number;
      if (p->current_task != NULL)
        o.task = GPOINTER_TO_UINT (g_hash_table_lookup (p->task_values, p->current_task)) - 1;
      g_array_append_val (p->opcodes, o);
    }
  else if (strcmp (element, "keyword") == 0)
    {
      EtKeywordDef k = { intern (p->m, attr (n, v, "name")), 0 };
      parse_number (attr (n, v, "mask"), &k.mask);
      if (k.name != NULL)
        g_array_append_val (p->m->keywords, k);
    }
  else if (strcmp (element, "level") == 0)
    {
      parse_number (attr (n, v, "value"), &number);
      if (attr (n, v, "name") != NULL)
        g_hash_table_insert (p->levels, g_strdup (attr (n, v, "name")), GUINT_TO_POINTER (number + 1));
    }
  else if (strcmp (element, "valueMap") == 0 || strcmp (element, "bitMap") == 0)
    start_map (p, element, n, v);
  else if (strcmp (element, "map") == 0 && p->current_map != NULL)
    {
      EtMapEntry e = { 0, g_strdup (attr (n, v, "message")) };
      parse_number (attr (n, v, "value"), &e.value);
      g_array_append_val (p->current_map->entries, e);
    }
  else if (strcmp (element, "event") == 0)
    start_event (p, n, v);
  else if (strcmp (element, "template") == 0)
    {
      EtManifestTemplate *t = g_new0 (EtManifestTemplate, 1);
      t->fields = g_array_new (FALSE, FALSE, sizeof (EtTemplateField));
      g_hash_table_insert (p->m->templates, (gpointer) intern (p->m, attr (n, v, "tid") ? attr (n, v, "tid") : ""), t);
      p->current_template = t;
    }
  else if (strcmp (element, "data") == 0 && p->current_template != NULL)
    start_data (p, n, v, error);
  else if (strcmp (element, "string") == 0 && attr (n, v, "id") != NULL)
    g_hash_table_insert (p->strings, (gpointer) intern (p->m, attr (n, v, "id")),
                         (gpointer) intern (p->m, attr (n, v, "value") ? attr (n, v, "value") : ""));
}

static void
on_end (GMarkupParseContext *context, const char *element_full, gpointer user_data,
        GError **error)
{
  Parser *p = user_data;
  const char *element = local_name (element_full);

  if (strcmp (element, "task") == 0)
    g_clear_pointer (&p->current_task, g_free);
  else if (strcmp (element, "valueMap") == 0 || strcmp (element, "bitMap") == 0)
    p->current_map = NULL;
  else if (strcmp (element, "template") == 0)
    p->current_template = NULL;
}

/* ---- after parsing: resolve names, strings, maps and field references -- */

/* "$(string.X)" → the string table's value, else the text itself. */
static const char *
resolve_string (Parser *p, const char *text)
{
  gsize len;
  g_autofree char *id = NULL;
  const char *value;

  if (text == NULL)
    return NULL;
  len = strlen (text);
  if (len < 11 || strncmp (text, "$(string.", 9) != 0 || text[len - 1] != ')')
    return intern (p->m, text);
  id = g_strndup (text + 9, len - 10);
  value = g_hash_table_lookup (p->strings, id);
  return value != NULL ? value : intern (p->m, text);
}

static gboolean
level_value (Parser *p, const char *name, guint8 *level)
{
  gpointer custom;

  for (guint i = 0; i < G_N_ELEMENTS (standard_levels); i++)
    if (strcmp (name, standard_levels[i].name) == 0)
      {
        *level = standard_levels[i].value;
        return TRUE;
      }
  custom = g_hash_table_lookup (p->levels, name);
  if (custom != NULL)
    *level = (guint8) (GPOINTER_TO_UINT (custom) - 1);
  return custom != NULL;
}

/* An opcode name: the task's own opcodes first, then global, then win:*. */
static gboolean
opcode_value (Parser *p, const char *name, guint16 task, guint8 *value)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < p->opcodes->len; i++)
      {
        OpcodeDef *o = &g_array_index (p->opcodes, OpcodeDef, i);
        if (o->name != NULL && strcmp (o->name, name) == 0
            && (pass == 0 ? (!o->global && o->task == task) : o->global))
          {
            *value = o->value;
            return TRUE;
          }
      }
  for (guint i = 0; i < G_N_ELEMENTS (standard_opcodes); i++)
    if (strcmp (name, standard_opcodes[i].name) == 0)
      {
        *value = standard_opcodes[i].value;
        return TRUE;
      }
  return FALSE;
}

static guint64
keyword_mask (EtManifest *m, const char *names)
{
  g_auto(GStrv) parts = names ? g_strsplit (names, " ", -1) : NULL;
  guint64 mask = 0;

  for (guint i = 0; parts != NULL && parts[i] != NULL; i++)
    for (guint k = 0; k < m->keywords->len; k++)
      if (strcmp (parts[i], g_array_index (m->keywords, EtKeywordDef, k).name) == 0)
        mask |= g_array_index (m->keywords, EtKeywordDef, k).mask;
  return mask;
}

/* symbol=, else X of $(string.event_X), else Task/Opcode, Task, Event <id>. */
static const char *
event_name (Parser *p, const EventDef *d, const EtManifestEvent *e)
{
  g_autofree char *made = NULL;

  if (d->symbol != NULL && *d->symbol != '\0')
    return intern (p->m, d->symbol);
  if (d->message != NULL && g_str_has_prefix (d->message, "$(string.event_")
      && g_str_has_suffix (d->message, ")") && strlen (d->message) > 16)
    {
      made = g_strndup (d->message + 15, strlen (d->message) - 16);
      return intern (p->m, made);
    }
  if (e->task_name != NULL && e->opcode_name != NULL)
    made = g_strdup_printf ("%s/%s", e->task_name,
                            g_str_has_prefix (e->opcode_name, "win:") ? e->opcode_name + 4
                                                                    : e->opcode_name);
  else if (e->task_name != NULL)
    made = g_strdup (e->task_name);
  else
    made = g_strdup_printf ("Event %u", e->id);
  return intern (p->m, made);
}

static void
resolve_event (Parser *p, const EventDef *d, GError **error)
{
  EtManifest *m = p->m;
  EtManifestEvent e = { 0 };
  gpointer task;
  guint index;

  e.id = d->id;
  e.version = d->version;
  if (d->level != NULL && level_value (p, d->level, &e.level))
    e.level_name = intern (m, d->level);
  task = d->task ? g_hash_table_lookup (p->task_values, d->task) : NULL;
  if (task != NULL)
    {
      e.task = (guint16) (GPOINTER_TO_UINT (task) - 1);
      e.task_name = intern (m, d->task);
    }
  if (d->opcode != NULL && opcode_value (p, d->opcode, e.task, &e.opcode))
    e.opcode_name = intern (m, d->opcode);
  e.keywords = keyword_mask (m, d->keywords);
  e.message = resolve_string (p, d->message);
  e.template_ = d->template_ ? g_hash_table_lookup (m->templates, d->template_) : NULL;
  e.name = event_name (p, d, &e);
  if (d->template_ != NULL && e.template_ == NULL && error != NULL && *error == NULL)
    g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                 "event %u names template “%s”, which the manifest does not define",
                 e.id, d->template_);

  g_array_append_val (m->events, e);
  index = m->events->len;
  g_hash_table_insert (m->by_id_version, GUINT_TO_POINTER ((guint) e.id << 8 | e.version),
                       GUINT_TO_POINTER (index));
  {
    guint old = GPOINTER_TO_UINT (g_hash_table_lookup (m->by_id, GUINT_TO_POINTER (e.id)));
    if (old == 0 || g_array_index (m->events, EtManifestEvent, old - 1).version < e.version)
      g_hash_table_insert (m->by_id, GUINT_TO_POINTER (e.id), GUINT_TO_POINTER (index));
  }
}

static gint
field_index (const EtManifestTemplate *t, guint before, const char *name)
{
  for (guint i = 0; i < before; i++)
    if (strcmp (g_array_index (t->fields, EtTemplateField, i).name, name) == 0)
      return (gint) i;
  return -1;
}

static const EtMapDef *
find_map (EtManifest *m, const char *name)
{
  for (guint i = 0; name != NULL && i < m->maps->len; i++)
    {
      const EtMapDef *map = g_ptr_array_index (m->maps, i);
      if (map->name != NULL && strcmp (map->name, name) == 0)
        return map;
    }
  return NULL;
}

static gboolean
resolve_template (Parser *p, const char *tid, EtManifestTemplate *t, GError **error)
{
  for (guint i = 0; i < t->fields->len; i++)
    {
      EtTemplateField *f = &g_array_index (t->fields, EtTemplateField, i);

      f->map = find_map (p->m, f->map_name);
      if (f->count_ref != NULL && (f->count_field = field_index (t, i, f->count_ref)) < 0)
        goto bad_ref;
      if (f->length_ref != NULL && (f->length_field = field_index (t, i, f->length_ref)) < 0)
        goto bad_ref;
      continue;
    bad_ref:
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "template “%s”, field “%s” refers to “%s”, which is not an earlier field",
                   tid, f->name, f->count_ref ? f->count_ref : f->length_ref);
      return FALSE;
    }
  return TRUE;
}

static void
resolve_opcode_names (Parser *p)
{
  for (guint i = 0; i < p->opcodes->len; i++)
    {
      OpcodeDef *o = &g_array_index (p->opcodes, OpcodeDef, i);
      guint key = (o->global ? 0xFFFFu : o->task) << 8 | o->value;
      if (o->name != NULL)
        g_hash_table_insert (p->m->opcode_names, GUINT_TO_POINTER (key),
                             (gpointer) intern (p->m, o->name));
    }
}

static gboolean
resolve_all (Parser *p, GError **error)
{
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < p->m->maps->len; i++)
    {
      EtMapDef *map = g_ptr_array_index (p->m->maps, i);
      for (guint k = 0; k < map->entries->len; k++)
        {
          EtMapEntry *e = &g_array_index (map->entries, EtMapEntry, k);
          const char *label = resolve_string (p, e->message);
          g_free (e->message);
          e->message = g_strdup (label ? label : "");
        }
    }
  g_hash_table_iter_init (&iter, p->m->templates);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!resolve_template (p, key, value, error))
      return FALSE;
  resolve_opcode_names (p);
  for (guint i = 0; i < p->event_defs->len; i++)
    resolve_event (p, &g_array_index (p->event_defs, EventDef, i), NULL);
  return TRUE;
}

/* ---- entry points ----------------------------------------------------- */

static void
template_free (gpointer data)
{
  EtManifestTemplate *t = data;
  g_array_unref (t->fields);
  g_free (t);
}

static void
map_free (gpointer data)
{
  EtMapDef *map = data;
  for (guint i = 0; i < map->entries->len; i++)
    g_free (g_array_index (map->entries, EtMapEntry, i).message);
  g_array_unref (map->entries);
  g_free (map);
}

void
et_manifest_free (EtManifest *m)
{
  if (m == NULL)
    return;
  g_string_chunk_free (m->chunk);
  g_array_unref (m->tasks);
  g_array_unref (m->keywords);
  g_ptr_array_unref (m->maps);
  g_hash_table_unref (m->templates);
  g_array_unref (m->events);
  g_hash_table_unref (m->by_id_version);
  g_hash_table_unref (m->by_id);
  g_hash_table_unref (m->opcode_names);
  g_free (m);
}

static EtManifest *
manifest_new (void)
{
  EtManifest *m = g_new0 (EtManifest, 1);

  m->chunk = g_string_chunk_new (4096);
  m->tasks = g_array_new (FALSE, FALSE, sizeof (EtTaskDef));
  m->keywords = g_array_new (FALSE, FALSE, sizeof (EtKeywordDef));
  m->maps = g_ptr_array_new_with_free_func (map_free);
  m->templates = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, template_free);
  m->events = g_array_new (FALSE, FALSE, sizeof (EtManifestEvent));
  m->by_id_version = g_hash_table_new (NULL, NULL);
  m->by_id = g_hash_table_new (NULL, NULL);
  m->opcode_names = g_hash_table_new (NULL, NULL);
  return m;
}

static void
parser_clear (Parser *p)
{
  for (guint i = 0; i < p->opcodes->len; i++)
    g_free (g_array_index (p->opcodes, OpcodeDef, i).name);
  for (guint i = 0; i < p->event_defs->len; i++)
    {
      EventDef *e = &g_array_index (p->event_defs, EventDef, i);
      g_free (e->level); g_free (e->task); g_free (e->opcode); g_free (e->keywords);
      g_free (e->template_); g_free (e->message); g_free (e->symbol);
    }
  g_array_unref (p->opcodes);
  g_array_unref (p->event_defs);
  g_hash_table_unref (p->strings);
  g_hash_table_unref (p->levels);
  g_hash_table_unref (p->task_values);
  g_free (p->current_task);
}

/* GMarkup reports line and column; the reader wants a byte offset. */
static gsize
byte_offset (const char *xml, gsize len, gint line, gint column)
{
  gsize pos = 0;

  for (gint l = 1; l < line && pos < len; pos++)
    if (xml[pos] == '\n')
      l++;
  return MIN (pos + (column > 0 ? (gsize) column - 1 : 0), len);
}

EtManifest *
et_manifest_parse (const char *xml, gsize len, GError **error)
{
  static const GMarkupParser callbacks = { on_start, on_end, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) local = NULL;
  Parser p = { 0 };
  gboolean ok;

  g_return_val_if_fail (xml != NULL, NULL);

  p.m = manifest_new ();
  p.opcodes = g_array_new (FALSE, FALSE, sizeof (OpcodeDef));
  p.event_defs = g_array_new (FALSE, FALSE, sizeof (EventDef));
  p.strings = g_hash_table_new (g_str_hash, g_str_equal);
  p.levels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.task_values = g_hash_table_new (g_str_hash, g_str_equal);

  context = g_markup_parse_context_new (&callbacks, G_MARKUP_PREFIX_ERROR_POSITION, &p, NULL);
  /* Manifests may carry a UTF-8 byte-order mark, which GMarkup rejects. */
  if (len >= 3 && memcmp (xml, "\xEF\xBB\xBF", 3) == 0)
    xml += 3, len -= 3;
  ok = g_markup_parse_context_parse (context, xml, (gssize) len, &local)
       && g_markup_parse_context_end_parse (context, &local);
  if (!ok)
    {
      gint line = 0, column = 0;
      g_markup_parse_context_get_position (context, &line, &column);
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "manifest XML byte offset %" G_GSIZE_FORMAT ": %s",
                   byte_offset (xml, len, line, column), local->message);
    }
  else if (!resolve_all (&p, &local))
    {
      ok = FALSE;
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT, "manifest: %s", local->message);
    }
  parser_clear (&p);
  if (!ok)
    {
      et_manifest_free (p.m);
      return NULL;
    }
  return p.m;
}

const char *
et_manifest_get_provider_name (const EtManifest *manifest)
{
  return manifest->provider_name;
}

const EtGuid *
et_manifest_get_provider_guid (const EtManifest *manifest)
{
  return &manifest->provider_guid;
}

guint
et_manifest_get_n_events (const EtManifest *manifest)
{
  return manifest->events->len;
}

const EtManifestEvent *
et_manifest_lookup (const EtManifest *manifest, guint16 id, guint8 version)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (manifest->by_id_version,
                                                       GUINT_TO_POINTER ((guint) id << 8 | version)));
  if (index == 0)
    index = GPOINTER_TO_UINT (g_hash_table_lookup (manifest->by_id, GUINT_TO_POINTER (id)));
  return index ? &g_array_index (manifest->events, EtManifestEvent, index - 1) : NULL;
}

const char *
et_manifest_task_name (const EtManifest *manifest, guint16 task)
{
  for (guint i = 0; i < manifest->tasks->len; i++)
    if (g_array_index (manifest->tasks, EtTaskDef, i).value == task)
      return g_array_index (manifest->tasks, EtTaskDef, i).name;
  return NULL;
}

const char *
et_manifest_opcode_name (const EtManifest *manifest, guint16 task, guint8 opcode)
{
  const char *name = g_hash_table_lookup (manifest->opcode_names,
                                          GUINT_TO_POINTER ((guint) task << 8 | opcode));
  if (name == NULL)
    name = g_hash_table_lookup (manifest->opcode_names, GUINT_TO_POINTER (0xFFFFu << 8 | opcode));
  for (guint i = 0; name == NULL && i < G_N_ELEMENTS (standard_opcodes); i++)
    if (standard_opcodes[i].value == opcode)
      name = standard_opcodes[i].name;
  return name;
}

void
et_manifest_keyword_names (const EtManifest *manifest, guint64 keywords, GString *out)
{
  gboolean first = TRUE;

  for (guint i = 0; i < manifest->keywords->len; i++)
    {
      const EtKeywordDef *k = &g_array_index (manifest->keywords, EtKeywordDef, i);
      if (k->mask != 0 && (keywords & k->mask) == k->mask)
        {
          if (!first)
            g_string_append_c (out, '|');
          g_string_append (out, k->name);
          first = FALSE;
        }
    }
}
