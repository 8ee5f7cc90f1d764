/* conformance-check.c — the case of one corpus file and the way the
 * conformance suite compares and reports.
 *
 * Compiled into test-conformance.c (#include), which is the one source
 * tests/meson.build builds for this test; nothing else includes it.
 *
 * A Case holds the loaded trace, the expected JSON and what the event scan
 * collects. Every comparison goes through expect_* / mismatch, which print
 * "file: key: expected …, actual …" and count, so a test reports every
 * difference of its file before it fails.
 */

/* Enough to read a broken run; the count still includes the rest. */
#define MAX_PRINTED 200

typedef struct
{
  guint64     event;        /* index in time order */
  guint32     pid;
  guint32     tid;
  guint16     provider;
  guint8      role;         /* EtMarkerRole, worked out by this suite */
  guint8      importance;   /* EtImportance */
  gint16      category;
  const char *series;       /* from the expected manifest; "" when none */
  const char *event_name;   /* for messages */
  guint       seen;         /* how many markers (or span ends) account for it */
} MarkerWant;

typedef struct
{
  char         *name;
  char         *etl_path;
  JsonParser   *parser;
  JsonObject   *expected;
  EtTrace      *trace;
  guint         n_failed;
  guint         n_checked;      /* comparisons made, for the log */
  guint         n_markers;      /* markers checked against the rules */

  /* Filled by scan_events (). */
  GHashTable   *wanted_times;   /* gint64* → TRUE: ts_raw of expected decoded_events */
  GHashTable   *found;          /* "ts pid tid guid" → GArray of guint64 event indices */
  guint8       *marker_source;  /* per provider: 1 when its events must become markers */
  GHashTable   *task_names;     /* "guid/id" → task name from the expected manifests */
  GArray       *marker_wants;   /* MarkerWant, in event order */
  GHashTable   *open_gc;        /* pid → Count + 1 of the GC/Start the runtime left open */
} Case;

static void G_GNUC_PRINTF (3, 4)
mismatch (Case *cs, const char *key, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  cs->n_failed++;
  if (cs->n_failed > MAX_PRINTED)
    return;
  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  print_error ("%s.etl: %s: %s\n", cs->name, key, text);
  if (cs->n_failed == MAX_PRINTED)
    print_error ("%s.etl: (further mismatches are counted, not printed)\n", cs->name);
}

static void
expect_i64 (Case *cs, const char *key, gint64 want, gint64 actual)
{
  cs->n_checked++;
  if (want != actual)
    mismatch (cs, key, "expected %" G_GINT64_FORMAT ", actual %" G_GINT64_FORMAT, want, actual);
}

/* Counts from the JSON arrive as gint64; a negative one never equals a count. */
static void
expect_u64 (Case *cs, const char *key, gint64 want, guint64 actual)
{
  cs->n_checked++;
  if (want < 0 || (guint64) want != actual)
    mismatch (cs, key, "expected %" G_GINT64_FORMAT ", actual %" G_GUINT64_FORMAT, want, actual);
}

static void
expect_str (Case *cs, const char *key, const char *want, const char *actual)
{
  cs->n_checked++;
  if (g_strcmp0 (want, actual) != 0)
    mismatch (cs, key, "expected \"%s\", actual %s%s%s", want, actual ? "\"" : "",
              actual ? actual : "NULL", actual ? "\"" : "");
}

/* ---- reading the expected JSON ------------------------------------------ */

static JsonNode *
want_member (Case *cs, JsonObject *obj, const char *where, const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node == NULL)
    mismatch (cs, where[0] ? where : "expected", "the expected JSON has no \"%s\"", key);
  return node;
}

static gboolean
node_is_int (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node)
         && json_node_get_value_type (node) == G_TYPE_INT64;
}

static gboolean
want_int (Case *cs, JsonObject *obj, const char *where, const char *key, gint64 *out)
{
  JsonNode *node = want_member (cs, obj, where, key);

  if (node == NULL)
    return FALSE;
  if (!node_is_int (node))
    {
      mismatch (cs, key, "the expected value is not an integer");
      return FALSE;
    }
  *out = json_node_get_int (node);
  return TRUE;
}

static gboolean
want_string (Case *cs, JsonObject *obj, const char *where, const char *key, const char **out)
{
  JsonNode *node = want_member (cs, obj, where, key);

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      mismatch (cs, key, "the expected value is not a string");
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

static JsonObject *
want_object (Case *cs, JsonObject *obj, const char *where, const char *key)
{
  JsonNode *node = want_member (cs, obj, where, key);

  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    {
      mismatch (cs, key, "the expected value is not an object");
      return NULL;
    }
  return node != NULL ? json_node_get_object (node) : NULL;
}

static JsonArray *
want_array (Case *cs, JsonObject *obj, const char *where, const char *key)
{
  JsonNode *node = want_member (cs, obj, where, key);

  if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
    {
      mismatch (cs, key, "the expected value is not an array");
      return NULL;
    }
  return node != NULL ? json_node_get_array (node) : NULL;
}

/* json-glib reads every integer literal into a gint64, so
 * 18446744073709551412 arrives as -204 and can no longer be told from a
 * real -204 — the very difference primitive-types.json points out. Before
 * parsing, literals above G_MAXINT64 are wrapped as {"$u64": "…"}, which
 * keeps their exact text (see big_unsigned ()). */
static char *
wrap_big_unsigned (const char *text, gsize len)
{
  GString *out = g_string_sized_new (len + 64);
  gboolean in_string = FALSE;
  gsize i = 0;

  while (i < len)
    {
      gsize j = i;

      if (in_string || (text[i] != '-' && !g_ascii_isdigit (text[i])))
        {
          if (in_string && text[i] == '\\' && i + 1 < len)
            {
              g_string_append_len (out, text + i, 2);   /* an escape, maybe \" */
              i += 2;
              continue;
            }
          if (text[i] == '"')
            in_string = !in_string;
          g_string_append_c (out, text[i++]);
          continue;
        }
      while (j < len && (g_ascii_isdigit (text[j]) || strchr ("+-.eE", text[j]) != NULL))
        j++;
      if (g_ascii_isdigit (text[i]) && strspn (text + i, "0123456789") == j - i
          && g_ascii_strtoull (text + i, NULL, 10) > (guint64) G_MAXINT64)
        {
          g_string_append (out, "{\"$u64\": \"");
          g_string_append_len (out, text + i, j - i);
          g_string_append (out, "\"}");
        }
      else
        g_string_append_len (out, text + i, j - i);
      i = j;
    }
  return g_string_free (out, FALSE);
}

/* TRUE and the value when @node is a wrapped literal above G_MAXINT64. */
static gboolean
big_unsigned (JsonNode *node, guint64 *value)
{
  JsonObject *obj;
  JsonNode *text;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  obj = json_node_get_object (node);
  text = json_object_get_member (obj, "$u64");
  if (json_object_get_size (obj) != 1 || text == NULL || !JSON_NODE_HOLDS_VALUE (text))
    return FALSE;
  *value = g_ascii_strtoull (json_node_get_string (text), NULL, 10);
  return TRUE;
}

/* The index of the provider with this GUID, or -1. */
static gint
find_provider (EtTrace *trace, const char *guid_text)
{
  EtGuid guid;

  if (!et_guid_parse (guid_text, &guid))
    return -1;
  for (guint i = 0; i < et_trace_get_n_providers (trace); i++)
    if (et_guid_equal (&et_trace_get_provider (trace, i)->guid, &guid))
      return (gint) i;
  return -1;
}

/* ---- opening a case ----------------------------------------------------- */

static void
case_free (Case *cs)
{
  g_free (cs->name);
  g_free (cs->etl_path);
  g_clear_object (&cs->parser);
  g_clear_object (&cs->trace);
  g_clear_pointer (&cs->wanted_times, g_hash_table_unref);
  g_clear_pointer (&cs->found, g_hash_table_unref);
  g_clear_pointer (&cs->marker_source, g_free);
  g_clear_pointer (&cs->task_names, g_hash_table_unref);
  g_clear_pointer (&cs->marker_wants, g_array_unref);
  g_clear_pointer (&cs->open_gc, g_hash_table_unref);
  g_free (cs);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Case, case_free)

static void
case_read_expected (Case *cs, const char *dir)
{
  g_autofree char *json_path = g_strdup_printf ("%s/expected/%s.json", dir, cs->name);
  g_autofree char *text = NULL;
  g_autofree char *wrapped = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  JsonNode *root;

  if (!g_file_get_contents (json_path, &text, &len, &error))
    {
      mismatch (cs, "expected JSON", "cannot read %s: %s", json_path, error->message);
      return;
    }
  wrapped = wrap_big_unsigned (text, len);
  cs->parser = json_parser_new ();
  if (!json_parser_load_from_data (cs->parser, wrapped, -1, &error))
    {
      mismatch (cs, "expected JSON", "cannot parse %s: %s", json_path, error->message);
      return;
    }
  root = json_parser_get_root (cs->parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    mismatch (cs, "expected JSON", "%s is not a JSON object", json_path);
  else
    cs->expected = json_node_get_object (root);
}

static Case *
case_open (const char *dir, const char *name)
{
  Case *cs = g_new0 (Case, 1);
  g_autoptr(GError) error = NULL;

  cs->name = g_strdup (name);
  cs->etl_path = g_strdup_printf ("%s/%s.etl", dir, name);
  case_read_expected (cs, dir);
  if (!g_file_test (cs->etl_path, G_FILE_TEST_IS_REGULAR))
    {
      mismatch (cs, "file", "expected %s in the corpus, actual: missing", cs->etl_path);
      return cs;
    }
  cs->trace = et_trace_load (cs->etl_path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  if (cs->trace == NULL)
    mismatch (cs, "et_trace_load", "expected a trace, actual error: %s", error->message);
  return cs;
}
