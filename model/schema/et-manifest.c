/* et-manifest.c — EventSource manifests: parsing and lookup.
 *
 * Pipeline: the manifest XML, reassembled from its chunks
 * (et-manifest-assembler.c), is parsed here once per provider with GMarkup
 * into an EtManifest — tasks, opcodes, keywords, levels, maps, templates and
 * events, with every $(string.X) resolved — so that each event of the
 * provider costs one hash lookup. Payloads are then decoded by template in
 * et-manifest-decode.c (etl-format.md §9).
 *
 * The string table comes last in the document, and templates, maps and
 * tasks may follow the events that name them, so the parser first keeps the
 * raw attributes and resolves everything in finish().
 */
#include "et-manifest-private.h"
#include "et-error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STRUCT_DEPTH 32

typedef struct
{
  guint64     mask;
  const char *name;
} Keyword;

struct _EtManifest
{
  GStringChunk *strings;        /* every string the manifest hands out */
  const char   *provider_name;
  EtGuid        guid;
  GArray       *events;         /* EtManifestEvent */
  GHashTable   *by_id_version;  /* id << 8 | version → index + 1 */
  guint32      *by_id;          /* id → index + 1 of its highest version, or 0 */
  guint         n_ids;          /* entries in by_id: the highest id + 1 */
  GHashTable   *task_names;     /* task value → name */
  GHashTable   *task_opcodes;   /* task << 8 | opcode → name (a task's own) */
  const char   *opcodes[256];   /* the provider's <opcodes> */
  GArray       *keywords;       /* Keyword, in manifest order */
  GPtrArray    *maps;           /* EtManifestMap */
  GPtrArray    *templates;      /* EtManifestTemplate */
};

/* ─────────────────────────── raw parse state ─────────────────────────── */

typedef struct
{
  const char *name;
  guint       value;
  gint        task;             /* -1: the provider's own opcode */
} NamedValue;

typedef EtManifestParseData ParseData;

typedef struct
{
  const char *tid;
  GArray     *data;             /* ParseData */
} ParseTemplate;

typedef struct
{
  guint64     value;
  const char *message;
} RawMapEntry;

typedef struct
{
  const char *name;
  gboolean    bitmap;
  GArray     *entries;          /* RawMapEntry */
} RawMap;

typedef struct
{
  guint16     id;
  guint8      version;
  const char *level, *task, *opcode, *keywords, *template_, *message, *symbol;
} RawEvent;

typedef struct
{
  EtManifest *m;
  guint       n_providers;
  gboolean    in_provider;      /* inside the first <provider> */
  gint        current_task;     /* value of the enclosing <task>, or -1 */
  RawMap     *current_map;
  GPtrArray  *data_stack;       /* GArray of ParseData being filled */
  GArray     *tasks;            /* NamedValue */
  GArray     *opcodes;          /* NamedValue */
  GArray     *levels;           /* NamedValue */
  GPtrArray  *maps;             /* RawMap */
  GPtrArray  *templates;        /* ParseTemplate */
  GArray     *events;           /* RawEvent */
  GHashTable *string_table;     /* id → value, both in m->strings */
} Parser;

static const NamedValue standard_opcodes[] = {
  { "win:Info", 0 }, { "win:Start", 1 }, { "win:Stop", 2 }, { "win:DC_Start", 3 },
  { "win:DC_Stop", 4 }, { "win:Extension", 5 }, { "win:Reply", 6 }, { "win:Resume", 7 },
  { "win:Suspend", 8 }, { "win:Send", 9 }, { "win:Receive", 240 },
};

static const NamedValue standard_levels[] = {
  { "win:LogAlways", 0 }, { "win:Critical", 1 }, { "win:Error", 2 },
  { "win:Warning", 3 }, { "win:Informational", 4 }, { "win:Verbose", 5 },
};

static void
parse_data_clear (gpointer data)
{
  ParseData *d = data;
  g_clear_pointer (&d->members, g_array_unref);
}

static GArray *
parse_data_array_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (ParseData));
  g_array_set_clear_func (a, parse_data_clear);
  return a;
}

static void
parse_template_free (gpointer data)
{
  ParseTemplate *t = data;
  g_array_unref (t->data);
  g_free (t);
}

static void
raw_map_free (gpointer data)
{
  RawMap *map = data;
  g_array_unref (map->entries);
  g_free (map);
}

/* "win:Int32" → "Int32": namespaces are plain prefixes to us. */
static const char *
local_name (const char *name)
{
  const char *colon = strrchr (name, ':');
  return colon != NULL ? colon + 1 : name;
}

static const char *
intern (Parser *p, const char *text)
{
  return text != NULL ? g_string_chunk_insert_const (p->m->strings, text) : NULL;
}

static const char *
attr (const char **names, const char **values, const char *want)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (names[i], want) == 0)
      return values[i];
  return NULL;
}

/* Decimal or 0x-hex, nothing else, at most @max. */
static gboolean
parse_number (const char *text, guint64 max, guint64 *out)
{
  gboolean hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char *digits = hex ? text + 2 : text;
  char *end = NULL;
  guint64 v;

  if (!g_ascii_isxdigit (digits[0]) || (!hex && !g_ascii_isdigit (digits[0])))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (digits, &end, hex ? 16 : 10);
  if (errno != 0 || *end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

/* A required numeric attribute; a GMarkup error (turned into an offset
 * later) when it is missing or not a number. */
static gboolean
number_attr (const char **names, const char **values, const char *element,
             const char *want, guint64 max, guint64 *out, GError **error)
{
  const char *text = attr (names, values, want);

  if (text != NULL && parse_number (text, max, out))
    return TRUE;
  g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
               "<%s> needs %s= as a number up to %" G_GUINT64_FORMAT ", found %s%s%s",
               element, want, max, text ? "\"" : "", text ? text : "none", text ? "\"" : "");
  return FALSE;
}

/* ───────────────────────────── elements ───────────────────────────── */

static void
on_provider (Parser *p, const char **names, const char **values, GError **error)
{
  const char *guid = attr (names, values, "guid");

  if (p->n_providers++ > 0)
    return;             /* EventSource writes one; later ones are not ours */
  p->in_provider = TRUE;
  p->m->provider_name = intern (p, attr (names, values, "name"));
  /* Records name their provider by the GUID in their own header; this one
   * only informs, so an unreadable guid= leaves the zero GUID rather than
   * costing the provider its whole manifest. */
  if (guid != NULL && !et_guid_parse (guid, &p->m->guid))
    memset (&p->m->guid, 0, sizeof p->m->guid);
}

static void
on_task (Parser *p, const char **names, const char **values, GError **error)
{
  NamedValue t = { intern (p, attr (names, values, "name")), 0, -1 };
  guint64 v;

  if (!number_attr (names, values, "task", "value", G_MAXUINT16, &v, error))
    return;
  t.value = (guint) v;
  if (t.name != NULL)
    g_array_append_val (p->tasks, t);
  p->current_task = (gint) v;
}

static void
on_opcode (Parser *p, const char **names, const char **values, GError **error)
{
  NamedValue o = { intern (p, attr (names, values, "name")), 0, p->current_task };
  guint64 v;

  if (!number_attr (names, values, "opcode", "value", G_MAXUINT8, &v, error))
    return;
  o.value = (guint) v;
  if (o.name != NULL)
    g_array_append_val (p->opcodes, o);
}

static void
on_keyword (Parser *p, const char **names, const char **values, GError **error)
{
  Keyword k = { 0, intern (p, attr (names, values, "name")) };

  if (!number_attr (names, values, "keyword", "mask", G_MAXUINT64, &k.mask, error))
    return;
  if (k.name != NULL)
    g_array_append_val (p->m->keywords, k);
}

static void
on_level (Parser *p, const char **names, const char **values, GError **error)
{
  NamedValue l = { intern (p, attr (names, values, "name")), 0, -1 };
  guint64 v;

  if (!number_attr (names, values, "level", "value", G_MAXUINT8, &v, error))
    return;
  l.value = (guint) v;
  if (l.name != NULL)
    g_array_append_val (p->levels, l);
}

static void
on_map (Parser *p, const char *self, const char **names, const char **values, GError **error)
{
  RawMap *map = g_new0 (RawMap, 1);

  map->name = intern (p, attr (names, values, "name"));
  map->bitmap = strcmp (self, "bitMap") == 0;
  map->entries = g_array_new (FALSE, FALSE, sizeof (RawMapEntry));
  g_ptr_array_add (p->maps, map);
  p->current_map = map;
}

static void
on_map_entry (Parser *p, const char **names, const char **values, GError **error)
{
  RawMapEntry e = { 0, intern (p, attr (names, values, "message")) };

  if (p->current_map == NULL
      || !number_attr (names, values, "map", "value", G_MAXUINT64, &e.value, error))
    return;
  g_array_append_val (p->current_map->entries, e);
}

static void
on_event (Parser *p, const char **names, const char **values, GError **error)
{
  RawEvent e = { 0 };
  guint64 id, version = 0;

  if (!number_attr (names, values, "event", "value", G_MAXUINT16, &id, error))
    return;
  if (attr (names, values, "version") != NULL
      && !number_attr (names, values, "event", "version", G_MAXUINT8, &version, error))
    return;
  e.id = (guint16) id;
  e.version = (guint8) version;
  e.level = intern (p, attr (names, values, "level"));
  e.task = intern (p, attr (names, values, "task"));
  e.opcode = intern (p, attr (names, values, "opcode"));
  e.keywords = intern (p, attr (names, values, "keywords"));
  e.template_ = intern (p, attr (names, values, "template"));
  e.message = intern (p, attr (names, values, "message"));
  e.symbol = intern (p, attr (names, values, "symbol"));
  g_array_append_val (p->events, e);
}

static void
on_template (Parser *p, const char **names, const char **values, GError **error)
{
  ParseTemplate *t = g_new0 (ParseTemplate, 1);

  t->tid = intern (p, attr (names, values, "tid"));
  t->data = parse_data_array_new ();
  g_ptr_array_add (p->templates, t);
  g_ptr_array_add (p->data_stack, t->data);
}

static void
on_data (Parser *p, const char *self, const char **names, const char **values,
         GError **error)
{
  GArray *level;
  ParseData d = { 0 };

  if (p->data_stack->len == 0)
    return;
  /* Building and decoding recurse once per level: a hostile manifest must
   * not nest deep enough to exhaust a decoding thread's stack. */
  if (strcmp (self, "struct") == 0 && p->data_stack->len > MAX_STRUCT_DEPTH)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                   "<struct> nested deeper than %d levels", MAX_STRUCT_DEPTH);
      return;
    }
  level = g_ptr_array_index (p->data_stack, p->data_stack->len - 1);
  d.name = intern (p, attr (names, values, "name"));
  d.in_type = intern (p, attr (names, values, "inType"));
  d.out_type = intern (p, attr (names, values, "outType"));
  d.map = intern (p, attr (names, values, "map"));
  d.count = intern (p, attr (names, values, "count"));
  d.length = intern (p, attr (names, values, "length"));
  if (strcmp (self, "struct") == 0)
    d.members = parse_data_array_new ();
  g_array_append_val (level, d);
  if (d.members != NULL)
    g_ptr_array_add (p->data_stack, d.members);
}

static void
on_string (Parser *p, const char **names, const char **values, GError **error)
{
  const char *id = attr (names, values, "id");
  const char *value = attr (names, values, "value");

  /* Several cultures may follow one another; the first one wins. */
  if (id != NULL && value != NULL && !g_hash_table_contains (p->string_table, id))
    g_hash_table_insert (p->string_table, (char *) intern (p, id), (char *) intern (p, value));
}

static const char *
stack_name (const GSList *stack, guint depth)
{
  for (; stack != NULL && depth > 0; depth--)
    stack = stack->next;
  return stack != NULL ? local_name (stack->data) : "";
}

static void
on_start (GMarkupParseContext *ctx, const char *element, const char **names,
          const char **values, gpointer user_data, GError **error)
{
  Parser *p = user_data;
  const GSList *stack = g_markup_parse_context_get_element_stack (ctx);
  const char *self = local_name (element);
  const char *parent = stack_name (stack, 1);

#define IS(a, b) (strcmp (self, a) == 0 && strcmp (parent, b) == 0)
  if (strcmp (self, "provider") == 0)
    on_provider (p, names, values, error);
  else if (IS ("string", "stringTable"))
    on_string (p, names, values, error);
  else if (!p->in_provider)
    return;
  else if (IS ("task", "tasks"))
    on_task (p, names, values, error);
  else if (IS ("opcode", "opcodes"))
    on_opcode (p, names, values, error);
  else if (IS ("keyword", "keywords"))
    on_keyword (p, names, values, error);
  else if (IS ("level", "levels"))
    on_level (p, names, values, error);
  else if (IS ("valueMap", "maps") || IS ("bitMap", "maps"))
    on_map (p, self, names, values, error);
  else if (IS ("map", "valueMap") || IS ("map", "bitMap"))
    on_map_entry (p, names, values, error);
  else if (IS ("event", "events"))
    on_event (p, names, values, error);
  else if (IS ("template", "templates"))
    on_template (p, names, values, error);
  else if (IS ("data", "template") || IS ("data", "struct")
           || IS ("struct", "template") || IS ("struct", "struct"))
    on_data (p, self, names, values, error);
#undef IS
}

static void
on_end (GMarkupParseContext *ctx, const char *element, gpointer user_data, GError **error)
{
  Parser *p = user_data;
  const char *self = local_name (element);
  const char *parent = stack_name (g_markup_parse_context_get_element_stack (ctx), 1);

  if (strcmp (self, "provider") == 0)
    p->in_provider = FALSE;
  else if (!p->in_provider)
    return;
  else if (strcmp (self, "task") == 0 && strcmp (parent, "tasks") == 0)
    p->current_task = -1;
  else if (strcmp (self, "valueMap") == 0 || strcmp (self, "bitMap") == 0)
    p->current_map = NULL;
  else if ((strcmp (self, "template") == 0 && strcmp (parent, "templates") == 0)
           || (strcmp (self, "struct") == 0
               && (strcmp (parent, "template") == 0 || strcmp (parent, "struct") == 0)))
    {
      if (p->data_stack->len > 0)
        g_ptr_array_set_size (p->data_stack, p->data_stack->len - 1);
    }
}

/* ───────────────────────────── finishing ───────────────────────────── */

/* "$(string.X)" → the string table's X; anything else stays as written. */
static const char *
resolve (Parser *p, const char *text)
{
  gsize len;
  const char *found;

  if (text == NULL)
    return NULL;
  len = strlen (text);
  if (len > 10 && g_str_has_prefix (text, "$(string.") && text[len - 1] == ')')
    {
      g_autofree char *id = g_strndup (text + 9, len - 10);
      found = g_hash_table_lookup (p->string_table, id);
      if (found != NULL)
        return found;
    }
  return text;
}

static int
compare_map_entries (gconstpointer a, gconstpointer b)
{
  const EtManifestMapEntry *x = a, *y = b;
  return x->value < y->value ? -1 : x->value > y->value;
}

static void
map_free (gpointer data)
{
  EtManifestMap *map = data;
  g_free (map->entries);
  g_free (map->sorted);
  g_free (map);
}

static void
finish_maps (Parser *p)
{
  for (guint i = 0; i < p->maps->len; i++)
    {
      RawMap *raw = g_ptr_array_index (p->maps, i);
      EtManifestMap *map = g_new0 (EtManifestMap, 1);

      map->name = raw->name;
      map->bitmap = raw->bitmap;
      map->entries = g_new0 (EtManifestMapEntry, raw->entries->len);
      for (guint j = 0; j < raw->entries->len; j++)
        {
          const RawMapEntry *e = &g_array_index (raw->entries, RawMapEntry, j);
          if (e->message == NULL)
            continue;   /* nothing to show for it */
          map->entries[map->n_entries].value = e->value;
          map->entries[map->n_entries++].label = resolve (p, e->message);
        }
      map->sorted = g_memdup2 (map->entries, map->n_entries * sizeof (EtManifestMapEntry));
      /* A map whose entries all lack messages has none (and no array). */
      if (map->n_entries > 1)
        qsort (map->sorted, map->n_entries, sizeof (EtManifestMapEntry), compare_map_entries);
      g_ptr_array_add (p->m->maps, map);
    }
}

static void
finish_templates (Parser *p, GHashTable *by_tid)
{
  for (guint i = 0; i < p->templates->len; i++)
    {
      ParseTemplate *raw = g_ptr_array_index (p->templates, i);
      EtManifestTemplate *t = _et_manifest_template_new (raw->tid, raw->data, p->m->maps);

      g_ptr_array_add (p->m->templates, t);
      if (t->tid != NULL && !g_hash_table_contains (by_tid, t->tid))
        g_hash_table_insert (by_tid, (char *) t->tid, t);
    }
}

static const NamedValue *
find_named (const NamedValue *values, guint n, const char *name, gint task)
{
  for (guint i = 0; i < n; i++)
    if (values[i].task == task && strcmp (values[i].name, name) == 0)
      return &values[i];
  return NULL;
}

static void
resolve_task (Parser *p, const RawEvent *raw, EtManifestEvent *ev)
{
  const NamedValue *t;

  if (raw->task == NULL)
    return;
  t = find_named ((NamedValue *) p->tasks->data, p->tasks->len, raw->task, -1);
  ev->task = t != NULL ? (guint16) t->value : 0;
  ev->task_name = raw->task;
}

static void
resolve_opcode (Parser *p, const RawEvent *raw, EtManifestEvent *ev)
{
  const NamedValue *o;

  if (raw->opcode == NULL)
    return;
  o = find_named (standard_opcodes, G_N_ELEMENTS (standard_opcodes), raw->opcode, 0);
  if (o == NULL)
    o = find_named ((NamedValue *) p->opcodes->data, p->opcodes->len, raw->opcode, ev->task);
  if (o == NULL)
    o = find_named ((NamedValue *) p->opcodes->data, p->opcodes->len, raw->opcode, -1);
  ev->opcode = o != NULL ? (guint8) o->value : 0;
  ev->opcode_name = raw->opcode;
}

static void
resolve_level (Parser *p, const RawEvent *raw, EtManifestEvent *ev)
{
  const NamedValue *l;

  if (raw->level == NULL)
    return;
  l = find_named ((NamedValue *) p->levels->data, p->levels->len, raw->level, -1);
  if (l == NULL)
    l = find_named (standard_levels, G_N_ELEMENTS (standard_levels), raw->level, 0);
  ev->level = l != NULL ? (guint8) l->value : 0;
  ev->level_name = raw->level;
}

static void
resolve_keywords (Parser *p, const RawEvent *raw, EtManifestEvent *ev)
{
  g_auto(GStrv) names = NULL;

  if (raw->keywords == NULL)
    return;
  names = g_strsplit_set (raw->keywords, " \t\r\n", -1);
  for (guint i = 0; names[i] != NULL; i++)
    for (guint k = 0; k < p->m->keywords->len; k++)
      {
        const Keyword *kw = &g_array_index (p->m->keywords, Keyword, k);
        if (names[i][0] != '\0' && strcmp (kw->name, names[i]) == 0)
          ev->keywords |= kw->mask;
      }
}

/* The name rule of et-manifest.h: symbol=, else X of $(string.event_X),
 * else Task/Opcode, else Task, else "Event <id>". */
static const char *
event_name (Parser *p, const RawEvent *raw, const EtManifestEvent *ev)
{
  static const char prefix[] = "$(string.event_";
  g_autofree char *made = NULL;

  if (raw->symbol != NULL && raw->symbol[0] != '\0')
    return raw->symbol;
  if (raw->message != NULL && g_str_has_prefix (raw->message, prefix)
      && g_str_has_suffix (raw->message, ")")
      && strlen (raw->message) > sizeof prefix)
    made = g_strndup (raw->message + sizeof prefix - 1, strlen (raw->message) - sizeof prefix);
  else if (ev->task_name != NULL && ev->opcode_name != NULL)
    made = g_strdup_printf ("%s/%s", ev->task_name, local_name (ev->opcode_name));
  else if (ev->task_name != NULL)
    return ev->task_name;
  else
    made = g_strdup_printf ("Event %u", ev->id);
  return intern (p, made);
}

static void
finish_events (Parser *p, GHashTable *by_tid)
{
  EtManifest *m = p->m;

  for (guint i = 0; i < p->events->len; i++)
    {
      const RawEvent *raw = &g_array_index (p->events, RawEvent, i);
      EtManifestEvent ev = { .id = raw->id, .version = raw->version };
      guint key = (guint) raw->id << 8 | raw->version;

      if (g_hash_table_contains (m->by_id_version, GUINT_TO_POINTER (key)))
        continue;       /* the first definition of an (id, version) stands */
      resolve_task (p, raw, &ev);
      resolve_opcode (p, raw, &ev);
      resolve_level (p, raw, &ev);
      resolve_keywords (p, raw, &ev);
      ev.message = resolve (p, raw->message);
      ev.name = event_name (p, raw, &ev);
      ev.template_ = raw->template_ ? g_hash_table_lookup (by_tid, raw->template_) : NULL;
      g_array_append_val (m->events, ev);
      g_hash_table_insert (m->by_id_version, GUINT_TO_POINTER (key),
                           GUINT_TO_POINTER (m->events->len));
    }
  /* By id, an array: ids are 16 bits and usually small and dense, and
   * decoding looks one up per event. */
  for (guint i = 0; i < m->events->len; i++)
    m->n_ids = MAX (m->n_ids, (guint) g_array_index (m->events, EtManifestEvent, i).id + 1);
  m->by_id = g_new0 (guint32, MAX (m->n_ids, 1));
  for (guint i = 0; i < m->events->len; i++)
    {
      const EtManifestEvent *ev = &g_array_index (m->events, EtManifestEvent, i);
      guint32 best = m->by_id[ev->id];

      if (best == 0 || g_array_index (m->events, EtManifestEvent, best - 1).version < ev->version)
        m->by_id[ev->id] = i + 1;
    }
}

static void
finish_names (Parser *p)
{
  for (guint i = 0; i < p->tasks->len; i++)
    {
      const NamedValue *t = &g_array_index (p->tasks, NamedValue, i);
      g_hash_table_insert (p->m->task_names, GUINT_TO_POINTER (t->value), (char *) t->name);
    }
  for (guint i = 0; i < p->opcodes->len; i++)
    {
      const NamedValue *o = &g_array_index (p->opcodes, NamedValue, i);

      if (o->task < 0)
        p->m->opcodes[o->value] = o->name;
      else
        g_hash_table_insert (p->m->task_opcodes, GUINT_TO_POINTER ((guint) o->task << 8 | o->value),
                             (char *) o->name);
    }
}

static void
finish (Parser *p)
{
  g_autoptr(GHashTable) by_tid = g_hash_table_new (g_str_hash, g_str_equal);

  finish_names (p);
  finish_maps (p);
  finish_templates (p, by_tid);
  finish_events (p, by_tid);
}

/* ───────────────────────────── public API ───────────────────────────── */

static EtManifest *
manifest_new (void)
{
  EtManifest *m = g_new0 (EtManifest, 1);

  m->strings = g_string_chunk_new (4096);
  m->events = g_array_new (FALSE, TRUE, sizeof (EtManifestEvent));
  m->by_id_version = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->task_names = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->task_opcodes = g_hash_table_new (g_direct_hash, g_direct_equal);
  m->keywords = g_array_new (FALSE, FALSE, sizeof (Keyword));
  m->maps = g_ptr_array_new_with_free_func (map_free);
  m->templates = g_ptr_array_new_with_free_func ((GDestroyNotify) _et_manifest_template_free);
  return m;
}

void
et_manifest_free (EtManifest *manifest)
{
  if (manifest == NULL)
    return;
  g_array_unref (manifest->events);
  g_hash_table_unref (manifest->by_id_version);
  g_free (manifest->by_id);
  g_hash_table_unref (manifest->task_names);
  g_hash_table_unref (manifest->task_opcodes);
  g_array_unref (manifest->keywords);
  g_ptr_array_unref (manifest->maps);
  g_ptr_array_unref (manifest->templates);
  g_string_chunk_free (manifest->strings);
  g_free (manifest);
}

static void
parser_init (Parser *p, EtManifest *m)
{
  memset (p, 0, sizeof *p);
  p->m = m;
  p->current_task = -1;
  p->data_stack = g_ptr_array_new ();
  p->tasks = g_array_new (FALSE, FALSE, sizeof (NamedValue));
  p->opcodes = g_array_new (FALSE, FALSE, sizeof (NamedValue));
  p->levels = g_array_new (FALSE, FALSE, sizeof (NamedValue));
  p->maps = g_ptr_array_new_with_free_func (raw_map_free);
  p->templates = g_ptr_array_new_with_free_func (parse_template_free);
  p->events = g_array_new (FALSE, FALSE, sizeof (RawEvent));
  p->string_table = g_hash_table_new (g_str_hash, g_str_equal);
}

static void
parser_clear (Parser *p)
{
  g_ptr_array_unref (p->data_stack);
  g_array_unref (p->tasks);
  g_array_unref (p->opcodes);
  g_array_unref (p->levels);
  g_ptr_array_unref (p->maps);
  g_ptr_array_unref (p->templates);
  g_array_unref (p->events);
  g_hash_table_unref (p->string_table);
}

/* GMarkup counts lines and bytes within a line (a '\n' is byte 1 of the
 * line it starts); turn that back into a byte offset of the document. */
static gsize
byte_offset_of (const char *xml, gsize len, gint line, gint col)
{
  gint l = 1, c = 1;

  for (gsize i = 0; i < len; i++)
    {
      if (l > line || (l == line && c >= col))
        return i;
      c++;
      if (i + 1 < len && xml[i + 1] == '\n')
        {
          l++;
          c = 1;
        }
    }
  return len;
}

static void
set_xml_error (GError **error, GMarkupParseContext *ctx, const char *xml, gsize len,
               gsize skipped, const GError *cause)
{
  gint line = 0, col = 0;
  gsize offset;

  g_markup_parse_context_get_position (ctx, &line, &col);
  offset = skipped + byte_offset_of (xml, len, line, col);
  g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
               "manifest XML: byte offset %" G_GSIZE_FORMAT ": %s", offset, cause->message);
}

static gboolean
run_markup (Parser *p, const char *xml, gsize len, gsize skipped, GError **error)
{
  static const GMarkupParser callbacks = { on_start, on_end, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) ctx = g_markup_parse_context_new (&callbacks, 0, p, NULL);
  g_autoptr(GError) local = NULL;

  if (!g_markup_parse_context_parse (ctx, xml, len, &local)
      || !g_markup_parse_context_end_parse (ctx, &local))
    {
      set_xml_error (error, ctx, xml, len, skipped, local);
      return FALSE;
    }
  return TRUE;
}

EtManifest *
et_manifest_parse (const char *xml, gsize len, GError **error)
{
  g_autoptr(EtManifest) m = NULL;
  gsize skipped = 0;
  Parser p;
  gboolean ok;

  g_return_val_if_fail (xml != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The last chunk may carry NUL padding; a UTF-8 BOM may lead. */
  while (len > 0 && xml[len - 1] == '\0')
    len--;
  if (len >= 3 && memcmp (xml, "\xEF\xBB\xBF", 3) == 0)
    {
      xml += 3;
      len -= 3;
      skipped = 3;
    }
  m = manifest_new ();
  parser_init (&p, m);
  ok = run_markup (&p, xml != NULL ? xml : "", len, skipped, error);
  if (ok && p.n_providers == 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "manifest XML: byte offset %" G_GSIZE_FORMAT ": no <provider> element",
                   skipped + len);
      ok = FALSE;
    }
  if (ok)
    finish (&p);
  parser_clear (&p);
  return ok ? g_steal_pointer (&m) : NULL;
}

const char *
et_manifest_get_provider_name (const EtManifest *manifest)
{
  g_return_val_if_fail (manifest != NULL, NULL);
  return manifest->provider_name;
}

const EtGuid *
et_manifest_get_provider_guid (const EtManifest *manifest)
{
  g_return_val_if_fail (manifest != NULL, NULL);
  return &manifest->guid;
}

guint
et_manifest_get_n_events (const EtManifest *manifest)
{
  g_return_val_if_fail (manifest != NULL, 0);
  return manifest->events->len;
}

const EtManifestEvent *
et_manifest_lookup (const EtManifest *manifest, guint16 id, guint8 version)
{
  guint32 highest;
  gpointer exact;

  g_return_val_if_fail (manifest != NULL, NULL);
  highest = id < manifest->n_ids ? manifest->by_id[id] : 0;
  if (highest == 0)
    return NULL;
  /* Mostly an id has one version, so the highest is the exact match. */
  if (g_array_index (manifest->events, EtManifestEvent, highest - 1).version != version
      && (exact = g_hash_table_lookup (manifest->by_id_version,
                                       GUINT_TO_POINTER ((guint) id << 8 | version))) != NULL)
    highest = GPOINTER_TO_UINT (exact);
  return &g_array_index (manifest->events, EtManifestEvent, highest - 1);
}

const char *
et_manifest_task_name (const EtManifest *manifest, guint16 task)
{
  g_return_val_if_fail (manifest != NULL, NULL);
  return g_hash_table_lookup (manifest->task_names, GUINT_TO_POINTER ((guint) task));
}

/* A task's own opcode, else the provider's, else a standard win: name. */
const char *
et_manifest_opcode_name (const EtManifest *manifest, guint16 task, guint8 opcode)
{
  const char *name;

  g_return_val_if_fail (manifest != NULL, NULL);
  name = g_hash_table_lookup (manifest->task_opcodes,
                              GUINT_TO_POINTER ((guint) task << 8 | opcode));
  if (name == NULL)
    name = manifest->opcodes[opcode];
  for (guint i = 0; name == NULL && i < G_N_ELEMENTS (standard_opcodes); i++)
    if (standard_opcodes[i].value == opcode)
      name = standard_opcodes[i].name;
  return name;
}

void
et_manifest_keyword_names (const EtManifest *manifest, guint64 keywords, GString *out)
{
  gboolean first = TRUE;

  g_return_if_fail (manifest != NULL);
  g_return_if_fail (out != NULL);
  for (guint i = 0; i < manifest->keywords->len; i++)
    {
      const Keyword *k = &g_array_index (manifest->keywords, Keyword, i);

      if (k->mask == 0 || (keywords & k->mask) != k->mask)
        continue;
      if (!first)
        g_string_append_c (out, '|');
      g_string_append (out, k->name);
      first = FALSE;
    }
}

/* ─────────────────────────── from tables ─────────────────────────── */

/* The parse state is the builder: each call does what the element of the
 * same name does in on_start, so that finish() resolves both alike. */
struct _EtManifestTables
{
  Parser parser;
};

GArray *
_et_manifest_parse_data_new (void)
{
  return parse_data_array_new ();
}

EtManifestTables *
_et_manifest_tables_new (const char *provider_name, const EtGuid *guid)
{
  EtManifestTables *t = g_new0 (EtManifestTables, 1);

  parser_init (&t->parser, manifest_new ());
  t->parser.n_providers = 1;
  t->parser.m->provider_name = intern (&t->parser, provider_name);
  t->parser.m->guid = *guid;
  return t;
}

const char *
_et_manifest_tables_intern (EtManifestTables *tables, const char *text, gssize len)
{
  if (text == NULL)
    return NULL;
  if (len < 0)
    return intern (&tables->parser, text);
  return g_string_chunk_insert_len (tables->parser.m->strings, text, len);
}

void
_et_manifest_tables_task (EtManifestTables *tables, const char *name, guint16 value)
{
  NamedValue t = { intern (&tables->parser, name), value, -1 };

  g_array_append_val (tables->parser.tasks, t);
}

void
_et_manifest_tables_opcode (EtManifestTables *tables, gint task, const char *name, guint8 value)
{
  NamedValue o = { intern (&tables->parser, name), value, task };

  g_array_append_val (tables->parser.opcodes, o);
}

void
_et_manifest_tables_map (EtManifestTables *tables, const char *map, gboolean bitmap,
                         guint64 value, const char *label)
{
  Parser *p = &tables->parser;
  RawMapEntry e = { value, intern (p, label) };
  RawMap *raw = NULL;

  for (guint i = 0; i < p->maps->len && raw == NULL; i++)
    if (strcmp (((RawMap *) g_ptr_array_index (p->maps, i))->name, map) == 0)
      raw = g_ptr_array_index (p->maps, i);
  if (raw == NULL)
    {
      raw = g_new0 (RawMap, 1);
      raw->name = intern (p, map);
      raw->bitmap = bitmap;
      raw->entries = g_array_new (FALSE, FALSE, sizeof (RawMapEntry));
      g_ptr_array_add (p->maps, raw);
    }
  g_array_append_val (raw->entries, e);
}

void
_et_manifest_tables_template (EtManifestTables *tables, const char *tid, GArray *data)
{
  ParseTemplate *t = g_new0 (ParseTemplate, 1);

  t->tid = intern (&tables->parser, tid);
  t->data = data;
  g_ptr_array_add (tables->parser.templates, t);
}

void
_et_manifest_tables_event (EtManifestTables *tables, guint16 id, guint8 version, guint8 level,
                           const char *task, const char *opcode, const char *symbol,
                           const char *tid)
{
  Parser *p = &tables->parser;
  RawEvent e = { id, version };

  e.level = level < G_N_ELEMENTS (standard_levels) ? standard_levels[level].name : NULL;
  e.task = intern (p, task);
  e.opcode = intern (p, opcode);
  e.symbol = intern (p, symbol);
  e.template_ = intern (p, tid);
  g_array_append_val (p->events, e);
}

EtManifest *
_et_manifest_tables_finish (EtManifestTables *tables)
{
  EtManifest *m = tables->parser.m;

  finish (&tables->parser);
  parser_clear (&tables->parser);
  g_free (tables);
  return m;
}
