/* test-field-names.c — field names from the file in every output (issue 32,
 * item 4).
 *
 * A field's name is file data: a flipped bit in a metadata block can put a
 * '"', a '\' or a control character in it, and a schema can name two fields
 * alike. The same payload is written by the fixture writers as a .nettrace
 * EventSource event and as an .etl TraceLogging event; the built CLI
 * ($ET_CLI) must write valid JSON lines with every name escaped (in
 * "fields", "field_types" and "derived" alike) and keep two fields of one
 * name apart ("x", "x_2") in JSON, text and CSV.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "et-fixture-nettrace.h"

#define PID 4242
#define PROVIDER "Etlscope-Names-Test"

static const char *const names[] = { "q\"uote", "back\\slash", "ctl\001", "x", "x", "x_2" };
/* What they are written under, in order. */
static const char *const keys[] = { "q\"uote", "back\\slash", "ctl\001", "x", "x_3", "x_2" };

/* A trace file in a folder of its own, gone with it. */
typedef EtFixtureFile Fixture;

static int
setup (void **state)
{
  *state = et_fixture_file_new ("t.trace");
  return 0;
}

static int
teardown (void **state)
{
  et_fixture_file_free (*state);
  return 0;
}

static EtFixturePayload *
payload (void)
{
  EtFixturePayload *p = et_fixture_payload_new ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    et_fixture_payload_add_i32 (p, names[i], (gint32) i + 1);
  return p;
}

static void
event (EtFixtureEvent *ev, guint i)
{
  et_fixture_event_init (ev);
  ev->pid = PID;
  ev->tid = 100;
  ev->time_ns = 1000000 + 1000 * (gint64) i;
  ev->level = 4;
  ev->id = 1;
}

/* Three events of the payload, into @dir/t.nettrace and @dir/t.etl. */
static void
write_both (Fixture *f, char **nettrace, char **etl)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = payload ();

  *nettrace = g_build_filename (f->dir, "t.nettrace", NULL);
  *etl = g_build_filename (f->dir, "t.etl", NULL);
  nt = et_fixture_nettrace_new (*nettrace, NULL, &error);
  w = et_fixture_writer_new (*etl, NULL, &error);
  assert_non_null (nt);
  assert_non_null (w);
  for (guint i = 0; i < 3; i++)
    {
      EtFixtureEvent ev;

      event (&ev, i);
      et_fixture_nettrace_write_event (nt, &ev, PROVIDER, "Named", p);
      et_fixture_write_tl_event (w, &ev, PROVIDER, "Named", p, NULL);
    }
  assert_true (et_fixture_nettrace_close (nt, &error));
  assert_true (et_fixture_writer_close (w, &error));
}

/* @object's members are exactly @keys, in order, with the values 1, 2, …
 * (@values) or any (!@values). */
static void
assert_members (JsonObject *object, gboolean values)
{
  g_autoptr(GList) members = json_object_get_members (object);
  guint i = 0;

  assert_int_equal (g_list_length (members), G_N_ELEMENTS (keys));
  for (GList *m = members; m != NULL; m = m->next, i++)
    {
      assert_string_equal (m->data, keys[i]);
      if (values)
        assert_int_equal (json_object_get_int_member (object, keys[i]), (gint64) i + 1);
    }
}

static void
assert_jsonl (const char *path)
{
  Run run = run_cli ("events", "--format=jsonl", path);
  g_autoptr(GPtrArray) lines = NULL;
  guint named = 0;

  if (run.status != 0)
    fail_msg ("%s: exit %d: %s", path, run.status, run.err);
  lines = parse_lines (run.out);     /* fails on a line that is not JSON */
  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *o = g_ptr_array_index (lines, i);

      if (g_strcmp0 (json_object_get_string_member (o, "event"), "Named") != 0)
        continue;
      named++;
      assert_members (json_object_get_object_member (o, "fields"), TRUE);
      assert_members (json_object_get_object_member (o, "field_types"), FALSE);
    }
  assert_int_equal (named, 3);
  run_clear (&run);
}

static void
assert_text_and_csv (const char *path)
{
  Run text = run_cli ("events", path);
  Run csv = run_cli ("events", "--format=csv", path);

  assert_int_equal (text.status, 0);
  assert_int_equal (csv.status, 0);
  assert_non_null (strstr (text.out, "x=4, x_3=5, x_2=6"));
  assert_non_null (strstr (csv.out, "x=4, x_3=5, x_2=6"));
  run_clear (&text);
  run_clear (&csv);
}

static void
test_names_in_every_output (void **state)
{
  g_autofree char *nettrace = NULL;
  g_autofree char *etl = NULL;

  write_both (*state, &nettrace, &etl);
  assert_jsonl (nettrace);
  assert_text_and_csv (nettrace);
  assert_jsonl (etl);
  assert_text_and_csv (etl);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_names_in_every_output, setup, teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
