/* test-cli.c — etlscope-cli as a user runs it.
 *
 * Runs the built tool ($ET_CLI) with GSubprocess on traces written by the
 * fixture tool ($ET_FIXTURE_TOOL): "cases" (every marker rule, with the
 * markers the rules say in OUT.expected.jsonl, written from the fixture's
 * case table) and "demo". What the markers command writes is compared with
 * that expected file; filters are checked against the subset of the
 * expected markers that the filter's documented meaning selects.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "et-fixture.h"
#include "cli-run.h"

/* The contract's columns, in order (docs/markers.md). */
static const char *const contract_keys[] = {
  "kind", "start_ns", "end_ns", "pid", "tid", "end_tid", "importance", "category",
  "series", "text", "span_id", "status", "depth", "provider", "provider_guid",
  "event", "event_id", "level", "opcode", "task",
};

typedef struct
{
  char      *dir;
  char      *demo;
  char      *cases;
  GPtrArray *expected;   /* JsonObject *, the cases trace's markers */
} Fixture;

static void
run_tool (const char *command, const char *out)
{
  const char *argv[] = { g_getenv ("ET_FIXTURE_TOOL"), command, out, NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  assert_non_null (process);
  assert_true (g_subprocess_wait_check (process, NULL, &error));
}

static char *
node_text (JsonNode *node)
{
  return node == NULL ? g_strdup ("(missing)") : json_to_string (node, FALSE);
}

/* Our markers must carry exactly the contract keys in order, with the
 * expected values; the first difference is reported with its case name. */
static void
assert_markers_equal (GPtrArray *actual, GPtrArray *expected)
{
  for (guint i = 0; i < MIN (actual->len, expected->len); i++)
    {
      JsonObject *a = g_ptr_array_index (actual, i);
      JsonObject *e = g_ptr_array_index (expected, i);
      const char *what = json_object_has_member (e, "case")
                         ? json_object_get_string_member (e, "case") : "?";
      g_autoptr(GList) keys = json_object_get_members (a);
      GList *k = keys;

      for (guint c = 0; c < G_N_ELEMENTS (contract_keys); c++, k = k->next)
        {
          JsonNode *an, *en;

          if (k == NULL || strcmp (k->data, contract_keys[c]) != 0)
            fail_msg ("marker %u (case %s): key %u is '%s', the contract says '%s'", i, what,
                      c, k != NULL ? (char *) k->data : "(none)", contract_keys[c]);
          an = json_object_get_member (a, contract_keys[c]);
          en = json_object_get_member (e, contract_keys[c]);
          if (en == NULL || !json_node_equal (an, en))
            {
              g_autofree char *at = node_text (an);
              g_autofree char *et = node_text (en);
              fail_msg ("marker %u (case %s): '%s' is %s, expected %s", i, what,
                        contract_keys[c], at, et);
            }
        }
      if (k != NULL)
        fail_msg ("marker %u (case %s): extra key '%s'", i, what, (char *) k->data);
    }
  if (actual->len != expected->len)
    fail_msg ("%u markers written, %u expected", actual->len, expected->len);
}

typedef gboolean (*MarkerTest) (JsonObject *marker, gconstpointer data);

static GPtrArray *
select_expected (const Fixture *f, MarkerTest test, gconstpointer data)
{
  GPtrArray *subset = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  for (guint i = 0; i < f->expected->len; i++)
    if (test (g_ptr_array_index (f->expected, i), data))
      g_ptr_array_add (subset, json_object_ref (g_ptr_array_index (f->expected, i)));
  assert_true (subset->len > 0);                 /* the filter must select something… */
  assert_true (subset->len < f->expected->len);  /* …and leave something out */
  return subset;
}

/* Runs "markers --format=jsonl ARGS… cases.etl" and compares. */
static void
assert_markers_selected (const Fixture *f, const char *const *filter_args,
                         MarkerTest test, gconstpointer data)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GPtrArray) expected = select_expected (f, test, data);
  g_autoptr(GPtrArray) actual = NULL;
  Run run;

  g_ptr_array_add (args, (gpointer) "markers");
  g_ptr_array_add (args, (gpointer) "--format=jsonl");
  for (guint i = 0; filter_args[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) filter_args[i]);
  g_ptr_array_add (args, f->cases);
  g_ptr_array_add (args, NULL);
  run = run_cli_v ((const char *const *) args->pdata);
  if (run.status != 0)
    fail_msg ("exit status %d: %s", run.status, run.err);
  actual = parse_lines (run.out);
  assert_markers_equal (actual, expected);
  run_clear (&run);
}

/* ---- predicates: what each filter means (man page, docs/markers.md) ---- */

static gboolean
int_is (JsonObject *m, const char *key, gint64 *value)
{
  JsonNode *node = json_object_get_member (m, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
pid_is (JsonObject *m, gconstpointer data)
{
  return json_object_get_int_member (m, "pid") == GPOINTER_TO_INT (data);
}

static gboolean
tid_in (JsonObject *m, gconstpointer data)
{
  const gint64 *tids = data;
  gint64 tid = json_object_get_int_member (m, "tid");

  return tid == tids[0] || tid == tids[1];
}

static gboolean
kind_in (JsonObject *m, gconstpointer data)
{
  const char *const *kinds = data;
  const char *kind = json_object_get_string_member (m, "kind");

  return g_str_equal (kind, kinds[0]) || g_str_equal (kind, kinds[1]);
}

static gboolean
at_least_high (JsonObject *m, gconstpointer data)
{
  const char *importance = json_object_get_string_member (m, "importance");

  return g_str_equal (importance, "high") || g_str_equal (importance, "critical");
}

static gboolean
provider_is (JsonObject *m, gconstpointer data)
{
  return g_str_equal (json_object_get_string_member (m, "provider"), data);
}

static gboolean
provider_guid_is (JsonObject *m, gconstpointer data)
{
  return g_ascii_strcasecmp (json_object_get_string_member (m, "provider_guid"), data) == 0;
}

/* Visible in [from, to]: starts at or before to, ends at or after from; a
 * span that never ends lasts to the end of the trace. */
static gboolean
visible_in (JsonObject *m, gconstpointer data)
{
  const gint64 *range = data;
  gint64 start = 0, end = 0;
  gboolean has_start = int_is (m, "start_ns", &start);
  gboolean has_end = int_is (m, "end_ns", &end);

  if (!has_start)
    start = end;
  if (!has_end)
    end = g_str_equal (json_object_get_string_member (m, "status"), "unmatched_start")
          ? G_MAXINT64 : start;
  return start <= range[1] && end >= range[0];
}

/* ---- setup ------------------------------------------------------------ */

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *expected_path = NULL;
  g_autofree char *expected_text = NULL;
  Fixture *f = g_new0 (Fixture, 1);

  if (g_getenv ("ET_CLI") == NULL || g_getenv ("ET_FIXTURE_TOOL") == NULL)
    {
      print_error ("ET_CLI and ET_FIXTURE_TOOL must name the built tools\n");
      return -1;
    }
  f->dir = g_dir_make_tmp ("etlscope-test-cli-XXXXXX", &error);
  if (f->dir == NULL)
    return -1;
  f->demo = g_build_filename (f->dir, "demo.etl", NULL);
  f->cases = g_build_filename (f->dir, "cases.etl", NULL);
  run_tool ("demo", f->demo);
  run_tool ("cases", f->cases);

  expected_path = g_build_filename (f->dir, "cases.expected.jsonl", NULL);
  if (!g_file_get_contents (expected_path, &expected_text, NULL, &error))
    {
      print_error ("%s\n", error->message);
      return -1;
    }
  f->expected = parse_lines (expected_text);
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  if (f == NULL)
    return 0;
  et_fixture_remove_dir (f->dir);
  g_clear_pointer (&f->expected, g_ptr_array_unref);
  g_free (f->demo);
  g_free (f->cases);
  g_free (f->dir);
  g_free (f);
  return 0;
}

/* ---- usage and errors -------------------------------------------------- */

static void
test_help_lists_every_command (void **state)
{
  Run run = run_cli ("--help");

  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "info"));
  assert_non_null (strstr (run.out, "events"));
  assert_non_null (strstr (run.out, "markers"));
  run_clear (&run);
}

static void
test_command_help_lists_its_options (void **state)
{
  const char *const expected[][2] = {
    { "info", "--format" },
    { "events", "--provider" },
    { "markers", "--min-importance" },
    { "markers", "--all-providers" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      Run run = run_cli (expected[i][0], "--help");

      assert_int_equal (run.status, 0);
      if (strstr (run.out, expected[i][1]) == NULL)
        fail_msg ("'%s --help' does not mention %s:\n%s", expected[i][0], expected[i][1],
                  run.out);
      run_clear (&run);
    }
}

static void
test_missing_file_exits_2_naming_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "no-such-trace.etl", NULL);
  const char *commands[] = { "info", "events", "markers" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      Run run = run_cli (commands[i], path);

      assert_int_equal (run.status, 2);
      assert_string_equal (run.out, "");
      assert_non_null (strstr (run.err, path));
      run_clear (&run);
    }
}

static void
test_not_etl_file_exits_2_naming_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "notes.etl", NULL);
  g_autofree char *text = g_strnfill (20000, 'x');
  Run run;

  assert_true (g_file_set_contents (path, text, -1, NULL));
  run = run_cli ("info", path);
  assert_int_equal (run.status, 2);
  assert_non_null (strstr (run.err, path));
  run_clear (&run);
  g_remove (path);
}

static void
test_bad_usage_exits_2 (void **state)
{
  Fixture *f = *state;
  const char *const bad[][5] = {
    { "frobnicate", f->cases },
    { "markers", NULL },
    { "markers", f->cases, f->demo },
    { "markers", "--format=xml", f->cases },
    { "info", "--format=csv", f->cases },
    { "markers", "--kind", "blob", f->cases },
    { "markers", "--min-importance", "urgent", f->cases },
    { "markers", "--pid", "12x", f->cases },
    { "markers", "--from=2s", "--to=1s", f->cases },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      Run run = run_cli_v (bad[i]);

      if (run.status != 2)
        fail_msg ("case %u (%s …) exited %d", i, bad[i][1], run.status);
      assert_string_equal (run.out, "");
      assert_true (strlen (run.err) > 0);
      run_clear (&run);
    }
}

static void
test_bad_time_is_rejected_naming_it (void **state)
{
  Fixture *f = *state;
  const char *const bad[] = { "12parsecs", "1.5", "ms", "1..5ms", "0.5ns", "--3s", "" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *option = g_strconcat ("--from=", bad[i], NULL);
      Run run = run_cli ("markers", option, f->cases);

      /* "1.5" without a unit is 1.5 ns: finer than the clock, refused too. */
      if (run.status != 2)
        fail_msg ("--from='%s' exited %d", bad[i], run.status);
      if (*bad[i] != '\0' && strstr (run.err, bad[i]) == NULL)
        fail_msg ("the error does not quote '%s': %s", bad[i], run.err);
      run_clear (&run);
    }
}

static void
test_damaged_file_exits_1_naming_offset (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = damaged_copy (f->dir, f->cases);
  g_autoptr(GRegex) offset = g_regex_new ("offset [0-9]+", 0, 0, NULL);
  Run run;

  run = run_cli ("markers", path);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, path));
  if (!g_regex_match (offset, run.err, 0, NULL))
    fail_msg ("no byte offset in: %s", run.err);
  run_clear (&run);
  g_remove (path);
}

/* ---- info ------------------------------------------------------------- */

static void
assert_members (JsonObject *object, const char *what, const char *const *keys)
{
  for (guint i = 0; keys[i] != NULL; i++)
    if (!json_object_has_member (object, keys[i]))
      fail_msg ("%s has no '%s'", what, keys[i]);
}

static void
test_info_json_has_the_keys (void **state)
{
  static const char *const top[] = {
    "events", "providers", "threads", "first_raw", "last_raw", "pointer_size",
    "buffer_size", "buffers", "compressed_buffers", "events_lost", "buffers_lost",
    "damage", "start_time", "duration_ns", NULL };
  static const char *const provider_keys[] = { "guid", "name", "kind", "events", NULL };
  static const char *const thread_keys[] = { "pid", "tid", "events", NULL };
  static const char *const damage_keys[] = { "count", "messages", NULL };
  Fixture *f = *state;
  g_autoptr(JsonObject) info = NULL;
  JsonArray *providers, *threads;
  gint64 sum = 0;
  Run run = run_cli ("info", "--format=json", f->demo);

  assert_int_equal (run.status, 0);
  info = parse_object (run.out, -1);
  assert_members (info, "info", top);
  assert_members (json_object_get_object_member (info, "damage"), "damage", damage_keys);
  assert_int_equal (json_object_get_int_member (
                      json_object_get_object_member (info, "damage"), "count"), 0);

  providers = json_object_get_array_member (info, "providers");
  assert_true (json_array_get_length (providers) > 0);
  for (guint i = 0; i < json_array_get_length (providers); i++)
    {
      JsonObject *p = json_array_get_object_element (providers, i);
      EtGuid guid;

      assert_members (p, "a provider", provider_keys);
      assert_true (et_guid_parse (json_object_get_string_member (p, "guid"), &guid));
      sum += json_object_get_int_member (p, "events");
    }
  /* Every record is attributed to exactly one provider. */
  assert_int_equal (sum, json_object_get_int_member (info, "events"));

  threads = json_object_get_array_member (info, "threads");
  assert_true (json_array_get_length (threads) > 0);
  for (guint i = 0; i < json_array_get_length (threads); i++)
    assert_members (json_array_get_object_element (threads, i), "a thread", thread_keys);
  assert_int_equal (json_object_get_int_member (info, "pointer_size"), 8);
  assert_true (json_object_get_int_member (info, "last_raw")
               >= json_object_get_int_member (info, "first_raw"));
  run_clear (&run);
}

static void
test_info_text_names_file_and_providers (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("info", f->cases);

  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, f->cases));
  assert_non_null (strstr (run.out, "Etlscope-Cases"));
  assert_non_null (strstr (run.out, "b4d43fbb-ecb7-53c5-dc0a-a439c46d6f87"));
  run_clear (&run);
}

/* ---- markers ---------------------------------------------------------- */

static void
test_markers_jsonl_equals_expected (void **state)
{
  Fixture *f = *state;
  g_autoptr(GPtrArray) actual = NULL;
  Run run = run_cli ("markers", "--format=jsonl", f->cases);

  if (run.status != 0)
    fail_msg ("exit status %d: %s", run.status, run.err);
  actual = parse_lines (run.out);
  assert_markers_equal (actual, f->expected);
  run_clear (&run);
}

static void
test_markers_filter_pid (void **state)
{
  assert_markers_selected (*state, (const char *const[]) { "--pid", "2000", NULL },
                           pid_is, GINT_TO_POINTER (2000));
}

static void
test_markers_filter_tids_are_a_union (void **state)
{
  static const gint64 tids[] = { 1101, 1114 };

  assert_markers_selected (*state, (const char *const[]) { "--tid", "1101", "--tid", "1114",
                                                           NULL }, tid_in, tids);
}

static void
test_markers_filter_kinds_are_a_union (void **state)
{
  static const char *const kinds[] = { "message", "span" };

  assert_markers_selected (*state, (const char *const[]) { "--kind", "message",
                                                           "--kind", "span", NULL },
                           kind_in, kinds);
}

static void
test_markers_filter_min_importance (void **state)
{
  assert_markers_selected (*state, (const char *const[]) { "--min-importance", "high", NULL },
                           at_least_high, NULL);
}

static void
test_markers_filter_time_range_with_units (void **state)
{
  static const gint64 middle[] = { 391000500, 421500000 };
  static const gint64 late[] = { 465000000, 475000000 };

  assert_markers_selected (*state, (const char *const[]) { "--from", "391000.5us",
                                                           "--to", "0.4215s", NULL },
                           visible_in, middle);
  /* An open span stays visible; a lone end is seen at its time. */
  assert_markers_selected (*state, (const char *const[]) { "--from=465ms",
                                                           "--to=475000000ns", NULL },
                           visible_in, late);
}

static void
test_markers_filter_provider_by_name_or_guid (void **state)
{
  assert_markers_selected (*state, (const char *const[]) { "--provider", "Etlscope.Cases.Tl",
                                                           NULL },
                           provider_is, "Etlscope.Cases.Tl");
  assert_markers_selected (*state, (const char *const[]) {
                             "--provider", "{B4D43FBB-ECB7-53C5-DC0A-A439C46D6F87}", NULL },
                           provider_guid_is, "b4d43fbb-ecb7-53c5-dc0a-a439c46d6f87");
}

static void
test_markers_csv_has_the_contract_columns (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("markers", "--format=csv", f->cases);
  g_autoptr(GPtrArray) header = NULL;
  gsize pos = 0;

  assert_int_equal (run.status, 0);
  header = csv_record (run.out, &pos);
  assert_int_equal (header->len, G_N_ELEMENTS (contract_keys));
  for (guint c = 0; c < header->len; c++)
    assert_string_equal (g_ptr_array_index (header, c), contract_keys[c]);
  for (guint i = 0; i < f->expected->len; i++)
    {
      JsonObject *e = g_ptr_array_index (f->expected, i);
      g_autoptr(GPtrArray) row = csv_record (run.out, &pos);

      assert_int_equal (row->len, G_N_ELEMENTS (contract_keys));
      /* Text with commas, quotes and newlines survives the quoting. */
      assert_string_equal (g_ptr_array_index (row, 9), json_object_get_string_member (e, "text"));
      assert_string_equal (g_ptr_array_index (row, 0), json_object_get_string_member (e, "kind"));
    }
  assert_int_equal (run.out[pos], '\0');
  run_clear (&run);
}

/* Many markers are made into lines on several threads, a stretch of rows
 * each, and written in order: every format gives, byte for byte, what one
 * thread gives. */
static void
test_markers_on_threads_equal_one_thread (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "large.etl", NULL);
  const char *tool[] = { g_getenv ("ET_FIXTURE_TOOL"), "large", "40000", path, NULL };
  const char *formats[] = { "--format=jsonl", "--format=csv", "--format=text" };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  process = g_subprocess_newv (tool, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  assert_non_null (process);
  assert_true (g_subprocess_wait_check (process, NULL, &error));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      Run one, three;
      guint n_lines = 0;

      g_setenv ("ETLSCOPE_THREADS", "1", TRUE);
      one = run_cli ("markers", formats[i], path);
      g_setenv ("ETLSCOPE_THREADS", "3", TRUE);
      three = run_cli ("markers", formats[i], path);
      g_unsetenv ("ETLSCOPE_THREADS");
      assert_int_equal (one.status, 0);
      assert_int_equal (three.status, 0);
      for (const char *p = one.out; (p = strchr (p, '\n')) != NULL; p++)
        n_lines++;
      assert_true (n_lines > 3 * 8192);      /* more stretches than threads */
      assert_string_equal (three.out, one.out);
      run_clear (&one);
      run_clear (&three);
    }
}

static void
test_markers_text_is_one_line_per_marker (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("markers", "--kind", "span", f->cases);
  guint n_lines = 0, n_spans = 0;

  assert_int_equal (run.status, 0);
  for (const char *p = run.out; (p = strchr (p, '\n')) != NULL; p++)
    n_lines++;
  for (guint i = 0; i < f->expected->len; i++)
    {
      JsonObject *e = g_ptr_array_index (f->expected, i);

      if (g_str_equal (json_object_get_string_member (e, "kind"), "span"))
        n_spans++;
    }
  /* Span texts here hold no newline. */
  assert_int_equal (n_lines, n_spans);
  run_clear (&run);
}

/* ---- events ----------------------------------------------------------- */

/* Every decoded field comes with its declared type ("field_types": the
 * same names, a type each, none unknown; issue 20). */
static void
check_field_types (JsonObject *e)
{
  JsonObject *fields = json_object_get_object_member (e, "fields");
  JsonObject *types = json_object_get_object_member (e, "field_types");
  g_autoptr(GList) names = json_object_get_members (fields);

  assert_non_null (types);
  assert_int_equal (json_object_get_size (types), json_object_get_size (fields));
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *type = json_object_get_string_member_with_default (types, l->data, NULL);

      assert_non_null (type);
      assert_true (!g_str_has_prefix (type, "Unknown"));
    }
}

/* Declared types of the corpus: TraceLogging's (primitive-types.etl: the
 * int64_type field is declared UInt64 there), a manifest's (TPL) and the
 * built-in runtime schema's (GC/Start). */
static void
test_events_jsonl_field_types_of_the_corpus (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *primitive = corpus ? g_build_filename (corpus, "primitive-types.etl", NULL) : NULL;
  g_autofree char *net = corpus ? g_build_filename (corpus, "net.4.5.2.x64.etl", NULL) : NULL;
  Run p, n;
  g_autoptr(GPtrArray) events = NULL;
  guint gc = 0, tl = 0;

  if (primitive == NULL || !g_file_test (primitive, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus is absent: declared types not checked on it\n");
      skip ();
    }
  p = run_cli ("events", "--format=jsonl", primitive);
  n = run_cli ("events", "--format=jsonl", "--from", "3.2s", "--to", "3.3s", net);
  assert_int_equal (p.status, 0);
  events = parse_lines (p.out);
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *types = json_object_get_object_member (g_ptr_array_index (events, i), "field_types");

      if (!json_object_has_member (types, "int64_type"))
        continue;
      assert_string_equal (json_object_get_string_member (types, "int64_type"), "UInt64");
      assert_string_equal (json_object_get_string_member (types, "int16_type"), "Int16");
      assert_string_equal (json_object_get_string_member (types, "boolean_type"), "UInt8/Boolean");
      tl++;
    }
  g_ptr_array_unref (g_steal_pointer (&events));
  events = parse_lines (n.out);
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *e = g_ptr_array_index (events, i);
      JsonObject *types = json_object_get_object_member (e, "field_types");

      check_field_types (e);
      if (!g_str_equal (json_object_get_string_member (e, "event"), "GC/Start"))
        continue;
      assert_string_equal (json_object_get_string_member (types, "Count"), "UInt32");
      assert_string_equal (json_object_get_string_member (types, "ClrInstanceID"), "UInt16");
      gc++;
    }
  assert_true (tl > 0 && gc > 0);
  run_clear (&p);
  run_clear (&n);
}

static void
test_events_jsonl_every_event_in_time_order (void **state)
{
  Fixture *f = *state;
  Run info_run = run_cli ("info", "--format=json", f->cases);
  Run run = run_cli ("events", "--format=jsonl", f->cases);
  g_autoptr(JsonObject) info = NULL;
  g_autoptr(GPtrArray) events = NULL;
  gint64 last = G_MININT64;
  guint n_with_fields = 0;

  assert_int_equal (info_run.status, 0);
  assert_int_equal (run.status, 0);
  info = parse_object (info_run.out, -1);
  events = parse_lines (run.out);
  assert_int_equal (events->len, json_object_get_int_member (info, "events"));
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *e = g_ptr_array_index (events, i);
      gint64 t = json_object_get_int_member (e, "time_ns");

      assert_true (t >= last);
      last = t;
      assert_true (json_object_has_member (e, "provider_guid"));
      assert_true (json_object_has_member (e, "event"));
      if (json_object_get_size (json_object_get_object_member (e, "fields")) > 0)
        n_with_fields++;
      check_field_types (e);
    }
  assert_true (n_with_fields > 0);
  run_clear (&info_run);
  run_clear (&run);
}

static void
test_events_filter_tid_and_range (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("events", "--format=jsonl", "--tid", "1002",
                     "--from", "100ms", "--to", "0.2s", f->cases);
  g_autoptr(GPtrArray) events = NULL;

  assert_int_equal (run.status, 0);
  events = parse_lines (run.out);
  assert_true (events->len > 0);
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *e = g_ptr_array_index (events, i);
      gint64 t = json_object_get_int_member (e, "time_ns");

      assert_int_equal (json_object_get_int_member (e, "tid"), 1002);
      assert_true (t >= 100000000 && t <= 200000000);
    }
  run_clear (&run);
}

/* Negative integers of every width, through both decoders: a manifest
 * (win:Int8…Int64) and TraceLogging (the same in-types, then the same
 * values with out-type Hex). Text and JSON show the signed value; hex
 * shows the bits as wide as the field. */
static void
write_signed_trace (const char *path)
{
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (path, NULL, NULL);
  g_autoptr(EtFixtureProvider) provider = et_fixture_provider_new ("Etlscope-Signed");
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  static const EtFixtureFieldDef defs[] = {
    { "i8", ET_FIXTURE_INT8 }, { "i16", ET_FIXTURE_INT16 },
    { "i32", ET_FIXTURE_INT32 }, { "i64", ET_FIXTURE_INT64 },
  };
  EtFixtureEventDef def = { 1, 0, "Values", 4, 0, 0, 0, NULL, defs, G_N_ELEMENTS (defs) };
  EtFixtureWhere where = { 0, 1000, 40, 41 };
  EtFixtureEvent ev;

  assert_non_null (w);
  et_fixture_provider_add_event (provider, &def);
  et_fixture_write_manifest (w, provider, &where, 0, -1);
  et_fixture_event_init (&ev);
  ev.time_ns = 2000;
  ev.pid = 40;
  ev.tid = 41;
  et_fixture_payload_add_i8 (p, "i8", -5);
  et_fixture_payload_add_i16 (p, "i16", -300);
  et_fixture_payload_add_i32 (p, "i32", -70000);
  et_fixture_payload_add_i64 (p, "i64", -204);
  et_fixture_write_manifest_event (w, provider, &ev, 1, p);
  ev.time_ns = 3000;
  et_fixture_write_tl_event (w, &ev, "Signed.Tl", "Values", p, NULL);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_i8 (p, "h8", -5);
  et_fixture_payload_set_out_type (p, 4);
  et_fixture_payload_add_i16 (p, "h16", -300);
  et_fixture_payload_set_out_type (p, 4);
  et_fixture_payload_add_i32 (p, "h32", -70000);
  et_fixture_payload_set_out_type (p, 4);
  et_fixture_payload_add_i64 (p, "h64", -204);
  et_fixture_payload_set_out_type (p, 4);
  ev.time_ns = 4000;
  et_fixture_write_tl_event (w, &ev, "Signed.Tl", "Hex", p, NULL);
  assert_true (et_fixture_writer_close (w, NULL));
}

static void
test_events_negative_integers_keep_their_sign (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "signed.etl", NULL);
  g_autoptr(GPtrArray) events = NULL;
  Run text, jsonl;
  guint n_values = 0, n_hex = 0;

  write_signed_trace (path);
  text = run_cli ("events", path);
  jsonl = run_cli ("events", "--format=jsonl", path);
  assert_int_equal (text.status, 0);
  assert_int_equal (jsonl.status, 0);
  /* Once from the manifest, once from TraceLogging. */
  for (const char *p = text.out; (p = strstr (p, "i8=-5, i16=-300, i32=-70000, i64=-204")); p++)
    n_values++;
  assert_int_equal (n_values, 2);
  assert_non_null (strstr (text.out, "h8=0xfb, h16=0xfed4, h32=0xfffeee90, h64=0xffffffffffffff34"));
  events = parse_lines (jsonl.out);
  for (guint i = 0; i < events->len; i++)
    {
      JsonObject *e = g_ptr_array_index (events, i);
      JsonObject *fields = json_object_get_object_member (e, "fields");

      if (json_object_has_member (fields, "i64"))
        {
          assert_int_equal (json_object_get_int_member (fields, "i8"), -5);
          assert_int_equal (json_object_get_int_member (fields, "i16"), -300);
          assert_int_equal (json_object_get_int_member (fields, "i32"), -70000);
          assert_int_equal (json_object_get_int_member (fields, "i64"), -204);
          n_values++;
        }
      if (json_object_has_member (fields, "h32"))
        {
          assert_string_equal (json_object_get_string_member (fields, "h32"), "0xfffeee90");
          assert_string_equal (json_object_get_string_member (fields, "h8"), "0xfb");
          n_hex++;
        }
    }
  assert_int_equal (n_values, 4);
  assert_int_equal (n_hex, 1);
  run_clear (&text);
  run_clear (&jsonl);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_help_lists_every_command),
    cmocka_unit_test (test_command_help_lists_its_options),
    cmocka_unit_test (test_missing_file_exits_2_naming_it),
    cmocka_unit_test (test_not_etl_file_exits_2_naming_it),
    cmocka_unit_test (test_bad_usage_exits_2),
    cmocka_unit_test (test_bad_time_is_rejected_naming_it),
    cmocka_unit_test (test_damaged_file_exits_1_naming_offset),
    cmocka_unit_test (test_info_json_has_the_keys),
    cmocka_unit_test (test_info_text_names_file_and_providers),
    cmocka_unit_test (test_markers_jsonl_equals_expected),
    cmocka_unit_test (test_markers_filter_pid),
    cmocka_unit_test (test_markers_filter_tids_are_a_union),
    cmocka_unit_test (test_markers_filter_kinds_are_a_union),
    cmocka_unit_test (test_markers_filter_min_importance),
    cmocka_unit_test (test_markers_filter_time_range_with_units),
    cmocka_unit_test (test_markers_filter_provider_by_name_or_guid),
    cmocka_unit_test (test_markers_csv_has_the_contract_columns),
    cmocka_unit_test (test_markers_text_is_one_line_per_marker),
    cmocka_unit_test (test_markers_on_threads_equal_one_thread),
    cmocka_unit_test (test_events_jsonl_every_event_in_time_order),
    cmocka_unit_test (test_events_filter_tid_and_range),
    cmocka_unit_test (test_events_jsonl_field_types_of_the_corpus),
    cmocka_unit_test (test_events_negative_integers_keep_their_sign),
  };

  return cmocka_run_group_tests_name ("cli", tests, setup, teardown);
}
