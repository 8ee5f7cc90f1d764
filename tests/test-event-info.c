/* test-event-info.c — providers known only from the trace's own event
 * metadata (KernelTraceControl MetaData/EventInfo and EventMapInfo,
 * model/et-event-info.c).
 *
 * The `event-info` fixture (tests/fixture/et-fixture-event-info.c) is a
 * provider of our own with no manifest anywhere: `events --format=jsonl`
 * must name its events as TraceEvent would and decode every field — one
 * of each in-type, a counted array, a fixed-count one, a length from a
 * field, an array of structs, a value map and a bit map — also for the
 * event written before its EventInfo. Bad metadata (a name past the blob,
 * a count from a later property, a map label out of range) is damage at
 * the MetaData record's byte offset with the payload byte in the message;
 * only the events it describes stay raw. The expected values are this
 * file's, written down from what the fixture writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cli-run.h"
#include "et-event-info.h"
#include "et-fixture.h"

typedef struct
{
  const char *name;
  const char *value;   /* the value as JSON text; NULL: past JSON-GLib's int64,
                          checked in the output's own text */
  const char *type;    /* field_types: in-type[/out-type] */
} Expected;

static const Expected types_fields[] = {
  { "Text", "\"grüße\"", "UnicodeString/string" },
  { "AnsiText", "\"plain\"", "AnsiString/string" },
  { "I8", "-8", "Int8" }, { "U8", "200", "UInt8" },
  { "I16", "-16000", "Int16" }, { "U16", "60000", "UInt16" },
  { "I32", "-2000000000", "Int32" }, { "U32", "4000000000", "UInt32" },
  { "I64", "-9000000000000000000", "Int64" }, { "U64", NULL, "UInt64" },
  { "F32", "1.5", "Float" }, { "F64", "-2.25", "Double" }, { "Flag", "true", "Boolean" },
  { "Blob", "\"deadbeef\"", "Binary/hexBinary" },
  { "Id", "\"01234567-89ab-cdef-0123-456789abcdef\"", "GUID" },
  { "Address", "\"0xfffff80012345678\"", "Pointer" },
  { "When", "\"2024-05-03T17:30:45.1234567Z\"", "FILETIME" },
  { "Date", "\"2024-05-03T17:30:45.123\"", "SYSTEMTIME" },
  { "Owner", "\"S-1-5-32-544\"", "SID" },
  { "H32", "\"0xcafe\"", "HexInt32" }, { "H64", "\"0x123456789abc\"", "HexInt64" },
};

static const Expected shapes_fields[] = {
  { "Count", "3", "UInt16" },
  { "Values", "[10,20,30]", "UInt32[]" },
  { "Fixed", "[7,8,9]", "UInt16[]" },
  { "Size", "5", "UInt32" },
  { "Bytes", "\"0102030405\"", "Binary/hexBinary" },
  { "NPoints", "2", "UInt8" },
  { "Points", "[{\"X\":100,\"Y\":-1},{\"X\":200,\"Y\":-2}]", "Struct[]" },
  { "Color", "\"Green\"", "UInt32" },
  { "Access", "\"Read|Delete\"", "UInt32" },
};

static const Expected reshape_fields[] = {
  { "Color", "\"Blue\"", "UInt8" },
};

static char *
write_trace (EtFixtureEventInfoDamage damage)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-event-info-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  EtFixtureOptions options;
  char *path;

  assert_non_null (dir);
  path = g_build_filename (dir, "event-info.etl", NULL);
  et_fixture_options_init (&options);
  assert_true (et_fixture_write_event_info_trace (path, &options, damage, &error));
  return path;
}

static void
remove_trace (char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  et_fixture_remove_dir (dir);
  g_free (path);
}

/* The @nth (from 0) event named @name, or NULL. */
static JsonObject *
find_event (GPtrArray *lines, const char *name, guint nth)
{
  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *o = g_ptr_array_index (lines, i);

      if (strcmp (json_object_get_string_member (o, "event"), name) == 0 && nth-- == 0)
        return o;
    }
  return NULL;
}

static char *
json_text (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

static void
assert_fields (JsonObject *event, const Expected *want, guint n)
{
  JsonObject *fields = json_object_get_object_member (event, "fields");
  JsonObject *types = json_object_get_object_member (event, "field_types");

  assert_int_equal (json_object_get_size (fields), n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *value = json_object_get_member (fields, want[i].name);
      g_autofree char *text = NULL;

      if (value == NULL)
        fail_msg ("%s: no field %s", json_object_get_string_member (event, "event"),
                  want[i].name);
      text = json_text (value);
      if (want[i].value != NULL && strcmp (text, want[i].value) != 0)
        fail_msg ("%s: %s is %s, not %s", json_object_get_string_member (event, "event"),
                  want[i].name, text, want[i].value);
      assert_string_equal (json_object_get_string_member (types, want[i].name), want[i].type);
    }
}

static void
assert_named (JsonObject *event, const char *task, const char *opcode_name)
{
  assert_non_null (event);
  assert_string_equal (json_object_get_string_member (event, "provider"),
                       ET_FIXTURE_EVENT_INFO_PROVIDER_NAME);
  assert_string_equal (json_object_get_string_member (event, "task_name"), task);
  assert_string_equal (json_object_get_string_member (event, "opcode_name"), opcode_name);
}

/* Every field of every event type, named as TraceEvent names them. */
static void
test_every_field_decodes (void **state)
{
  char *path = write_trace (ET_FIXTURE_EVENT_INFO_GOOD);
  Run run = run_cli ("events", "--format=jsonl", path);
  g_autoptr(GPtrArray) lines = NULL;
  JsonObject *e;

  assert_int_equal (run.status, 0);
  lines = parse_lines (run.out);
  e = find_event (lines, "Types", 0);
  assert_named (e, "Types", "win:Info");
  assert_fields (e, types_fields, G_N_ELEMENTS (types_fields));
  assert_non_null (strstr (run.out, "\"U64\":18000000000000000000,"));
  /* Once before its EventInfo (1 ms; the metadata comes at 3–5 ms), once after. */
  for (guint nth = 0; nth < 2; nth++)
    {
      e = find_event (lines, "Shapes/Start", nth);
      assert_named (e, "Shapes", "win:Start");
      assert_fields (e, shapes_fields, G_N_ELEMENTS (shapes_fields));
    }
  assert_int_equal (json_object_get_int_member (find_event (lines, "Shapes/Start", 0), "time_ns"),
                    1000000);
  e = find_event (lines, "Shapes/Reshape", 0);
  assert_named (e, "Shapes", "Reshape");
  assert_fields (e, reshape_fields, G_N_ELEMENTS (reshape_fields));
  assert_null (find_event (lines, "Event 1", 0));
  assert_null (find_event (lines, "Event 2", 0));
  run_clear (&run);
  remove_trace (path);
}

typedef struct
{
  EtFixtureEventInfoDamage damage;
  const char *record;      /* the MetaData event that is bad */
  guint       nth;         /* which of them */
  guint       payload_at;  /* the payload byte the message must name */
  const char *raw[2];      /* the event ids that stay raw ("Event N") */
  const char *decoded;     /* one that still decodes */
} DamageCase;

static const DamageCase damage_cases[] = {
  { ET_FIXTURE_EVENT_INFO_NAME_PAST_END, "MetaData/EventInfo", 0,
    ET_FIXTURE_EVENT_INFO_NAME_AT, { "Event 1" }, "Shapes/Start" },
  { ET_FIXTURE_EVENT_INFO_LATER_COUNT, "MetaData/EventInfo", 1,
    ET_FIXTURE_EVENT_INFO_COUNT_AT, { "Event 2" }, "Types" },
  /* The events whose fields use the broken map stay raw; Types does not use it. */
  { ET_FIXTURE_EVENT_INFO_MAP_OFFSET, "MetaData/EventMapInfo", 0,
    ET_FIXTURE_EVENT_INFO_MAP_AT, { "Event 2", "Event 3" }, "Types" },
};

static void
check_damage (const DamageCase *c)
{
  char *path = write_trace (c->damage);
  Run run = run_cli ("events", "--format=jsonl", path);
  g_autoptr(GPtrArray) lines = NULL;
  g_autofree char *want = NULL;
  JsonObject *record;

  assert_int_equal (run.status, 1);
  lines = parse_lines (run.out);
  record = find_event (lines, c->record, c->nth);
  assert_non_null (record);
  want = g_strdup_printf ("%s: byte offset %" G_GINT64_FORMAT ": event metadata (%s): payload "
                          "byte %u: ", path, json_object_get_int_member (record, "offset"),
                          c->record, c->payload_at);
  if (strstr (run.err, want) == NULL)
    fail_msg ("expected \"%s\" in:\n%s", want, run.err);
  for (guint i = 0; i < G_N_ELEMENTS (c->raw) && c->raw[i] != NULL; i++)
    {
      JsonObject *e = find_event (lines, c->raw[i], 0);

      assert_non_null (e);
      assert_true (json_object_has_member (json_object_get_object_member (e, "fields"),
                                           "payload"));
    }
  assert_non_null (find_event (lines, c->decoded, 0));
  run_clear (&run);
  remove_trace (path);
}

static void
test_bad_metadata_is_damage (void **state)
{
  for (guint i = 0; i < G_N_ELEMENTS (damage_cases); i++)
    check_damage (&damage_cases[i]);
}

/* ---- the reader on its own: struct shapes no walk may follow ---- */

static gboolean
add_one (const EtFixtureProperty *properties, guint n, guint n_top, GError **error)
{
  g_autoptr(EtEventInfoSet) set = et_event_info_set_new ();
  EtFixtureEventInfo info = { .id = 7, .task_name = "T", .properties = properties,
                              .n_properties = n, .n_top_level = n_top };
  g_autoptr(GBytes) b = et_fixture_event_info_bytes (&info);
  gsize len;
  const guint8 *data = g_bytes_get_data (b, &len);

  return et_event_info_set_add (set, ET_EVENT_INFO_OPCODE, data, len, error);
}

static void
assert_rejected_at (const EtFixtureProperty *properties, guint n, guint n_top, const char *at)
{
  g_autoptr(GError) error = NULL;

  assert_false (add_one (properties, n, n_top, &error));
  assert_non_null (error);
  if (!g_str_has_prefix (error->message, at))
    fail_msg ("\"%s\" does not start with \"%s\"", error->message, at);
}

static void
test_bad_structs_are_refused (void **state)
{
  /* Members past the property list (StructStartIndex at 112 + 8). */
  static const EtFixtureProperty past[] = { { "S", ET_FIXTURE_PROP_STRUCT, 1, 5 } };
  /* A struct that is its own member: walked again and again. */
  static const EtFixtureProperty self[] = { { "S", ET_FIXTURE_PROP_STRUCT, 0, 1 } };
  /* A length naming the property itself. */
  static const EtFixtureProperty own_length[] = {
    { "B", ET_FIXTURE_PROP_PARAM_LENGTH, 14, 0, NULL, 1, 0 },
  };
  static const EtFixtureProperty fine[] = {
    { "N", 0, 8 }, { "S", ET_FIXTURE_PROP_STRUCT | ET_FIXTURE_PROP_PARAM_COUNT, 2, 1, NULL, 0 },
    { "V", ET_FIXTURE_PROP_PARAM_COUNT, 8, 0, NULL, 0 },
  };
  g_autoptr(GError) error = NULL;

  assert_rejected_at (past, 1, 1, "payload byte 120: ");
  assert_rejected_at (self, 1, 1, "payload byte 112: ");
  assert_rejected_at (own_length, 1, 1, "payload byte 130: ");
  /* A member counted by a field of the level around it is fine. */
  assert_true (add_one (fine, 3, 2, &error));
  assert_null (error);
  /* Cut short: less than the header. */
  g_autoptr(EtEventInfoSet) set = et_event_info_set_new ();
  static const guint8 short_blob[40] = { 0 };
  assert_false (et_event_info_set_add (set, ET_EVENT_INFO_OPCODE, short_blob,
                                       sizeof short_blob, &error));
  assert_true (g_str_has_prefix (error->message, "payload byte 0: "));
}

/* Names are short; a run of 1,025 characters is refused (so that many
 * properties or map entries naming one long run cost no more than their
 * number), 1,024 are read. */
static void
test_long_names_are_refused (void **state)
{
  g_autofree char *longest = g_strnfill (1024, 'a');
  g_autofree char *too_long = g_strnfill (1025, 'a');
  EtFixtureProperty p[] = { { longest, 0, 8 } };
  g_autoptr(GError) error = NULL;

  assert_true (add_one (p, 1, 1, &error));
  p[0].name = too_long;
  assert_rejected_at (p, 1, 1, "payload byte 116: a property name at offset ");
  assert_false (add_one (p, 1, 1, &error));
  assert_non_null (strstr (error->message, "is longer than 1024 characters"));
}

/* ---- which schema stands ---- */

static GBytes *
one_event_info (const EtGuid *provider, const char *task_name, guint32 source)
{
  static const EtFixtureProperty p[] = { { "Value", 0, 8 } };
  EtFixtureEventInfo info = { .provider = *provider, .provider_name = "P", .id = 5,
                              .task = 9, .task_name = task_name, .properties = p,
                              .n_properties = 1, .n_top_level = 1 };
  GBytes *b = et_fixture_event_info_bytes (&info);
  gsize len;
  guint8 *data = g_bytes_unref_to_data (b, &len);

  memcpy (data + 48, &(guint32) { GUINT32_TO_LE (source) }, 4);   /* DecodingSource */
  return g_bytes_new_take (data, len);
}

static gboolean
add_bytes (EtEventInfoSet *set, GBytes *b)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (b, &len);

  return et_event_info_set_add (set, ET_EVENT_INFO_OPCODE, data, len, NULL);
}

/* The first EventInfo of an (id, version) stands; one of another
 * decoding source (MOF, WPP, TraceLogging) is no damage and no schema. */
static void
test_first_event_info_stands_and_others_are_ignored (void **state)
{
  g_autoptr(EtEventInfoSet) set = et_event_info_set_new ();
  g_autoptr(GBytes) first = NULL, second = NULL, classic = NULL;
  g_autoptr(EtManifest) manifest = NULL;
  EtGuid a, b;

  et_guid_parse ("11111111-2222-3333-4444-555555555555", &a);
  et_guid_parse ("66666666-7777-8888-9999-aaaaaaaaaaaa", &b);
  first = one_event_info (&a, "First", 0);
  second = one_event_info (&a, "Second", 0);
  classic = one_event_info (&b, "Classic", 1);
  assert_true (add_bytes (set, first));
  assert_true (add_bytes (set, second));
  assert_true (add_bytes (set, classic));
  assert_false (et_event_info_set_has (set, &b));
  assert_null (et_event_info_set_manifest_new (set, &b));
  manifest = et_event_info_set_manifest_new (set, &a);
  assert_non_null (manifest);
  assert_int_equal (et_manifest_get_n_events (manifest), 1);
  assert_string_equal (et_manifest_lookup (manifest, 5, 0)->name, "First");
  assert_string_equal (et_event_info_set_provider_name (set, &a), "P");
}

/* A provider whose manifest is in the trace keeps the manifest's names
 * and fields: the EventInfo records for it change nothing. */
static void
test_a_manifest_in_the_trace_wins (void **state)
{
  static const EtFixtureFieldDef fields[] = { { "Count", ET_FIXTURE_UINT32 } };
  static const EtFixtureEventDef def = { 5, 0, "Ping", 4, 0, 0, 0, NULL, fields, 1 };
  EtFixtureFile *file = et_fixture_file_new ("manifest-and-event-info.etl");
  g_autoptr(EtFixtureProvider) provider = et_fixture_provider_new ("Contoso-Pinger");
  g_autoptr(EtFixturePayload) payload = et_fixture_payload_new ();
  g_autoptr(GBytes) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  EtFixtureWhere where = { 0, 1000000, 100, 101 };
  EtFixtureEvent e;
  EtFixtureOptions options;
  EtFixtureWriter *w;
  Run run;

  et_fixture_options_init (&options);
  w = et_fixture_writer_new (file->path, &options, &error);
  assert_non_null (w);
  et_fixture_provider_add_event (provider, &def);
  et_fixture_write_manifest (w, provider, &where, 0, -1);
  info = one_event_info (et_fixture_provider_get_guid (provider), "FromMetadata", 0);
  et_fixture_write_metadata (w, &where, ET_EVENT_INFO_OPCODE, info);
  et_fixture_event_init (&e);
  e.time_ns = 2000000, e.pid = 100, e.tid = 101;
  et_fixture_payload_add_u32 (payload, "Count", 7);
  et_fixture_write_manifest_event (w, provider, &e, 5, payload);
  assert_true (et_fixture_writer_close (w, &error));
  et_fixture_writer_free (w);
  run = run_cli ("events", "--format=jsonl", file->path);
  assert_int_equal (run.status, 0);
  lines = parse_lines (run.out);
  assert_non_null (find_event (lines, "Ping", 0));
  assert_null (find_event (lines, "FromMetadata", 0));
  run_clear (&run);
  et_fixture_file_free (file);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_every_field_decodes),
    cmocka_unit_test (test_bad_metadata_is_damage),
    cmocka_unit_test (test_bad_structs_are_refused),
    cmocka_unit_test (test_long_names_are_refused),
    cmocka_unit_test (test_first_event_info_stands_and_others_are_ignored),
    cmocka_unit_test (test_a_manifest_in_the_trace_wins),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
