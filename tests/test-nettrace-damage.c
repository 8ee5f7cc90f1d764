/* test-nettrace-damage.c — hostile .nettrace files (issue 32): nothing
 * lost in silence, one verdict per file.
 *
 * Each case writes a trace with the project's own .nettrace writer
 * (tests/fixture/et-fixture-nettrace), damages it where a mutation
 * campaign found data lost or damage hidden, and runs the built CLI
 * ($ET_CLI) as a user would: the exit status, the damage line naming the
 * file and the byte offset, and the events of the undamaged blocks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "et-fixture-nettrace.h"

#define PID 4242
#define PROVIDER "Etlscope-Damage-Test"
#define N_EVENTS 48

/* A trace file in a folder of its own, gone with it. */
typedef EtFixtureFile Fixture;

static int
setup (void **state)
{
  *state = et_fixture_file_new ("t.nettrace");
  return 0;
}

static int
teardown (void **state)
{
  et_fixture_file_free (*state);
  return 0;
}

static void
event_at (EtFixtureEvent *ev, guint i)
{
  et_fixture_event_init (ev);
  ev->pid = PID;
  ev->tid = 100 + i % 4;
  ev->cpu = i % 2;
  ev->time_ns = 1000000 + 10000 * (gint64) i;
  ev->level = 4;
  ev->id = 1;
}

/* Adds event @i's fields after its item. */
typedef void (*MoreFields) (EtFixturePayload *p, guint i);

/* N_EVENTS "Work" events (item = their number, then a label or @more's
 * fields), eight to an EventBlock, a stack before them and a sequence
 * point after, in .nettrace format @format; the last @shift_ns away from
 * its place. */
static void
write_trace_shifted (Fixture *f, guint format, MoreFields more, gint64 shift_ns)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureNettraceOptions o;
  const guint64 ips[2] = { 0x7ff012340000, 0x7ff012340100 };

  et_fixture_nettrace_options_init (&o);
  o.events_per_block = 8;
  o.format = format;
  nt = et_fixture_nettrace_new (f->path, &o, &error);
  assert_non_null (nt);
  et_fixture_nettrace_use_stack (nt, ips, 2);
  for (guint i = 0; i < N_EVENTS; i++)
    {
      EtFixtureEvent ev;

      event_at (&ev, i);
      if (i == N_EVENTS - 1)
        ev.time_ns += shift_ns;
      et_fixture_payload_reset (p);
      et_fixture_payload_add_i32 (p, "item", (gint32) i);
      if (more != NULL)
        more (p, i);
      else
        et_fixture_payload_add_utf16 (p, "label", "work");
      et_fixture_nettrace_write_event (nt, &ev, PROVIDER, "Work", p);
    }
  et_fixture_nettrace_sequence_point (nt, 0);
  assert_true (et_fixture_nettrace_close (nt, &error));
}

static void
write_trace_with (Fixture *f, guint format, MoreFields more)
{
  write_trace_shifted (f, format, more, 0);
}

static void
write_trace (Fixture *f)
{
  write_trace_with (f, 5, NULL);
}

/* The offset of the first @text (ASCII) written as UTF-16 with its NUL. */
static guint64
utf16_at (Fixture *f, const char *text)
{
  g_autofree char *bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) u = g_byte_array_new ();
  gsize len;

  for (const char *c = text; ; c++)
    {
      const guint8 unit[2] = { (guint8) *c, 0 };

      g_byte_array_append (u, unit, 2);
      if (*c == 0)
        break;
    }
  assert_true (g_file_get_contents (f->path, &bytes, &len, &error));
  for (gsize i = 0; i + u->len <= len; i++)
    if (memcmp (bytes + i, u->data, u->len) == 0)
      return i;
  fail_msg ("no \"%s\" in %s", text, f->path);
  return 0;
}

/* The file offset of the @n-th (from 0) object named @type's opening. */
static guint64
object_at (Fixture *f, const char *type, guint n)
{
  g_autofree char *bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize len, k = strlen (type);

  assert_true (g_file_get_contents (f->path, &bytes, &len, &error));
  for (gsize i = 15; i + k + 1 <= len; i++)
    if (memcmp (bytes + i, type, k) == 0 && bytes[i + k] == 6 && bytes[i - 4] == (char) k
        && n-- == 0)
      return i - 15;
  fail_msg ("no %s in %s", type, f->path);
  return 0;
}

/* Where the block at @opening states its size. */
static guint64
size_field (const char *type, guint64 opening)
{
  return opening + 15 + strlen (type) + 1;
}

static void
put_u32 (Fixture *f, guint64 offset, guint32 v)
{
  g_autoptr(GError) error = NULL;
  guint32 le = GUINT32_TO_LE (v);

  assert_true (et_fixture_damage_write (f->path, offset, &le, 4, &error));
}

/* The items of the provider's events, as events --format=jsonl gives them,
 * after checking the exit status. */
static GArray *
items_of (Fixture *f, int status, Run *run)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr(GRegex) re = g_regex_new ("\"provider\":\"" PROVIDER "\".*\"item\":(-?[0-9]+)",
                                      0, 0, NULL);
  g_auto(GStrv) lines = NULL;

  *run = run_cli ("events", "--format=jsonl", f->path);
  if (run->status != status)
    fail_msg ("exit %d, not %d: %s", run->status, status, run->err);
  lines = g_strsplit (run->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) m = NULL;

      if (g_regex_match (re, lines[i], 0, &m))
        {
          g_autofree char *n = g_match_info_fetch (m, 1);
          gint v = atoi (n);

          g_array_append_val (items, v);
        }
    }
  return items;
}

static gint
compare_ints (gconstpointer a, gconstpointer b)
{
  return *(const gint *) a - *(const gint *) b;
}

/* Every event written is there, once, and @err names the file
 * and says "byte offset @offset". Each of them holds @with (and not
 * @without) when given. */
static void
assert_kept_with (Fixture *f, guint64 offset, const char *with, const char *without)
{
  Run run;
  g_autoptr(GArray) items = items_of (f, 1, &run);
  g_autofree char *where = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ":", f->path,
                                            offset);
  g_auto(GStrv) lines = g_strsplit (run.out, "\n", -1);

  if (strstr (run.err, where) == NULL)
    fail_msg ("no \"%s\" in: %s", where, run.err);
  /* In any order: an event with a damaged time is placed elsewhere. */
  g_array_sort (items, compare_ints);
  assert_int_equal (items->len, N_EVENTS);
  for (guint i = 0; i < items->len; i++)
    assert_int_equal (g_array_index (items, gint, i), (gint) i);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "\"provider\":\"" PROVIDER "\"") != NULL)
      {
        if (with != NULL && strstr (lines[i], with) == NULL)
          fail_msg ("no %s in %s", with, lines[i]);
        if (without != NULL && strstr (lines[i], without) != NULL)
          fail_msg ("%s in %s", without, lines[i]);
      }
  run_clear (&run);
}

static void
assert_all_kept (Fixture *f, guint64 offset)
{
  assert_kept_with (f, offset, NULL, NULL);
}

/* ---- 1: a NullReference where an object would begin -------------------- */

static void
test_end_tag_between_objects (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  const guint8 stray[4] = { 1, 0, 0, 0 };
  guint64 at;

  write_trace (f);
  at = object_at (f, "EventBlock", 2);
  /* Four bytes keep the blocks after them on their 4-byte offsets. */
  assert_true (et_fixture_damage_insert (f->path, at, stray, sizeof stray, &error));
  assert_all_kept (f, at);
}

static void
test_end_tag_in_an_opening (void **state)
{
  Fixture *f = *state;
  const guint8 null_reference = 1;
  g_autoptr(GError) error = NULL;
  guint64 at;

  write_trace (f);
  at = object_at (f, "EventBlock", 3);
  assert_true (et_fixture_damage_write (f->path, at, &null_reference, 1, &error));
  assert_all_kept (f, at);
}

/* The end tag of the last block damaged: the stream's own end follows. */
static void
test_last_end_tag_damaged (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) file = NULL;
  const guint8 junk = 0xEE;
  guint64 len;

  write_trace (f);
  file = g_mapped_file_new (f->path, FALSE, &error);
  len = g_mapped_file_get_length (file);
  assert_true (et_fixture_damage_write (f->path, len - 2, &junk, 1, &error));
  assert_all_kept (f, len - 2);
}

/* ---- 2: one bad block size loses no other block ------------------------- */

/* The @n-th block of @type states @size bytes, or (@to_event_block) a size
 * that runs into the fifth EventBlock; every event is kept all the same. */
static void
assert_size_damage_kept (Fixture *f, const char *type, guint n, guint32 size,
                         gboolean to_event_block)
{
  guint64 at;

  write_trace (f);
  at = size_field (type, object_at (f, type, n));
  /* A size whose end lands in a later block's rows: from the block's
   * payload (padded to 4 bytes) 100 bytes into the fifth EventBlock. */
  if (to_event_block)
    size = (guint32) (object_at (f, "EventBlock", 4) + 100 - ((at + 4 + 3) & ~(guint64) 3));
  put_u32 (f, at, size);
  assert_all_kept (f, at);
}

static void
test_stack_block_size_too_small (void **state)
{
  assert_size_damage_kept (*state, "StackBlock", 0, 4, FALSE);
}

static void
test_block_size_past_the_file (void **state)
{
  assert_size_damage_kept (*state, "EventBlock", 1, 0x7FFFFFF0, FALSE);
}

static void
test_block_size_into_later_blocks (void **state)
{
  assert_size_damage_kept (*state, "MetadataBlock", 0, 0, TRUE);
}

/* ---- 5: metadata field descriptions cut short or of unknown types ------- */

static void
test_metadata_unknown_type_code (void **state)
{
  Fixture *f = *state;
  guint64 type;

  write_trace (f);
  type = utf16_at (f, "label") - 4;
  put_u32 (f, type, 99);
  assert_kept_with (f, type, "\"event\":\"Work\"", "\"label\"");
}

/* Format 4 (no tags after the fields): one field more is counted than
 * described, so the description is cut short at the metadata's end; the
 * two it holds are kept. */
static void
test_metadata_fields_cut_short (void **state)
{
  Fixture *f = *state;
  guint64 count, end;

  write_trace_with (f, 4, NULL);
  count = utf16_at (f, "item") - 8;
  end = utf16_at (f, "label") + 12;
  put_u32 (f, count, 3);
  assert_kept_with (f, end, "\"label\":\"work\"}", NULL);
}

/* An array makes the writer describe the fields in a V2 tag (format 5). */
static void
add_numbers_and_label (EtFixturePayload *p, guint i)
{
  const gint32 numbers[2] = { (gint32) i, -(gint32) i };

  et_fixture_payload_add_array (p, "numbers", ET_FIXTURE_INT32, numbers, 2, FALSE);
  et_fixture_payload_add_utf16 (p, "label", "work");
}

static void
test_v2_metadata_unknown_type_code (void **state)
{
  Fixture *f = *state;
  guint64 name;

  write_trace_with (f, 5, add_numbers_and_label);
  name = utf16_at (f, "label");
  /* The V2 description: its size, its name, its type code. */
  put_u32 (f, name + 12, 99);
  assert_kept_with (f, name - 4, "\"numbers\":[", "\"label\"");
}

/* ---- 6: DateTime is an 8-byte FILETIME --------------------------------- */

/* 2024-03-05 20:00:00 UTC and @i seconds, then a field after it. */
static void
add_date_time (EtFixturePayload *p, guint i)
{
  et_fixture_payload_add_filetime (p, "when", G_GINT64_CONSTANT (133541424000000000)
                                   + (gint64) i * 10000000);
  et_fixture_payload_add_i32 (p, "after", -(gint32) i);
}

static void
test_date_time_fields (void **state)
{
  Fixture *f = *state;
  Run run;
  g_autoptr(GArray) items = NULL;

  write_trace_with (f, 5, add_date_time);
  items = items_of (f, 0, &run);
  assert_int_equal (items->len, N_EVENTS);
  assert_string_equal (run.err, "");
  assert_non_null (strstr (run.out, "\"item\":0,\"when\":\"2024-03-05T20:00:00Z\",\"after\":0}"));
  assert_non_null (strstr (run.out, "\"item\":47,\"when\":\"2024-03-05T20:00:47Z\",\"after\":-47}"));
  assert_non_null (strstr (run.out, "\"when\":\"FileTime\""));
  run_clear (&run);
}

/* ---- 3: implausible times --------------------------------------------- */

#define THREE_YEARS_NS (G_GINT64_CONSTANT (3) * 365 * 24 * 3600 * 1000000000)

/* Reported (at the EventBlock where its buffer begins: the image's
 * records keep no offset of their own), kept, placed at the nearest
 * plausible time; the trace lasts as long as its other events. */
static void
assert_time_damage (Fixture *f, gint64 shift_ns)
{
  guint64 block;
  Run run;

  write_trace_shifted (f, 5, NULL, shift_ns);
  /* Event 47 is on CPU 1, whose first event (1) is in the first block. */
  block = (size_field ("EventBlock", object_at (f, "EventBlock", 0)) + 4 + 3) & ~(guint64) 3;
  assert_kept_with (f, block, NULL, NULL);
  run = run_cli ("info", "--format=json", f->path);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, "timestamp"));
  {
    g_autoptr(JsonObject) info = parse_object (run.out, -1);

    assert_true (json_object_get_int_member (info, "duration_ns") < 1000000000);
  }
  run_clear (&run);
}

static void
test_event_years_ahead (void **state)
{
  assert_time_damage (*state, THREE_YEARS_NS);
}

static void
test_event_years_before (void **state)
{
  assert_time_damage (*state, -THREE_YEARS_NS);
}

/* ---- 7: one verdict per file, whatever the command ---------------------- */

/* The trace, and a runtime event whose payload is shorter than its layout
 * (ThreadPoolWorkerThreadStart, version 0: two UInt32 and a UInt16), or
 * (@unterminated) whose string has no terminator. It makes no marker, so
 * no command decodes it at load unless asked to. */
static guint64
write_short_runtime_payload (Fixture *f, gboolean unterminated)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureNettraceOptions o;
  EtFixtureEvent ev;

  et_fixture_nettrace_options_init (&o);
  o.events_per_block = 8;
  nt = et_fixture_nettrace_new (f->path, &o, &error);
  for (guint i = 0; i < N_EVENTS; i++)
    {
      event_at (&ev, i);
      et_fixture_payload_reset (p);
      et_fixture_payload_add_i32 (p, "item", (gint32) i);
      et_fixture_nettrace_write_event (nt, &ev, PROVIDER, "Work", p);
    }
  event_at (&ev, N_EVENTS);
  et_fixture_payload_reset (p);
  if (!unterminated)
    {
      ev.id = 50;
      et_fixture_payload_add_u16 (p, "ActiveWorkerThreadCount", 3);
    }
  else
    {
      /* AppDomainLoad, version 0: a u64, a u32 and a UTF-16 name, here
       * without its terminator (a walk layout: checked field by field). */
      ev.id = 156;
      et_fixture_payload_add_u64 (p, "AppDomainID", 1);
      et_fixture_payload_add_u32 (p, "AppDomainFlags", 1);
      et_fixture_payload_add_u16 (p, "D", 'D');
      et_fixture_payload_add_u16 (p, "o", 'o');
    }
  et_fixture_nettrace_write_event (nt, &ev, "Microsoft-Windows-DotNETRuntime",
                                   unterminated ? "AppDomainLoad" : "ThreadPoolWorkerThreadStart",
                                   p);
  assert_true (et_fixture_nettrace_close (nt, &error));
  /* Reported where its buffer begins: CPU 0's first event is in the
   * first EventBlock. */
  return (size_field ("EventBlock", object_at (f, "EventBlock", 0)) + 4 + 3) & ~(guint64) 3;
}

static void
test_one_verdict_per_file (void **state)
{
  Fixture *f = *state;
  g_autofree char *png = g_build_filename (f->dir, "t.png", NULL);
  const char *const commands[][4] = {
    { "info", NULL }, { "events", "--format=jsonl", NULL }, { "markers", NULL },
    { "markers", "--all-providers", NULL }, { "stats", NULL }, { "render", "-o", png, NULL },
  };
  guint64 block = write_short_runtime_payload (f, FALSE);
  g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, block);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[6] = { commands[i][0], f->path, commands[i][1], commands[i][2],
                              commands[i][1] ? commands[i][3] : NULL, NULL };
      Run run = run_cli_v (args);

      if (run.status != 1 || strstr (run.err, where) == NULL)
        fail_msg ("%s: exit %d, not 1 with \"%s\": %s", args[0], run.status, where, run.err);
      run_clear (&run);
    }
}

static void
test_unterminated_runtime_string (void **state)
{
  Fixture *f = *state;
  guint64 block = write_short_runtime_payload (f, TRUE);
  g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT ": Loader/AppDomainLoad",
                                            block);
  Run run = run_cli ("info", f->path);

  if (run.status != 1 || strstr (run.err, where) == NULL)
    fail_msg ("exit %d, not 1 with \"%s\": %s", run.status, where, run.err);
  run_clear (&run);
}

/* ---- 9: only the magic --------------------------------------------------- */

static void
test_only_the_magic (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  Run run;

  assert_true (g_file_set_contents (f->path, "Nettrace", 8, &error));
  run = run_cli ("info", f->path);
  assert_int_equal (run.status, 2);
  assert_non_null (strstr (run.err, "byte offset 8"));
  assert_non_null (strstr (run.err, "cut short"));
  assert_null (strstr (run.err, "version 6"));
  run_clear (&run);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_end_tag_between_objects, setup, teardown),
    cmocka_unit_test_setup_teardown (test_end_tag_in_an_opening, setup, teardown),
    cmocka_unit_test_setup_teardown (test_last_end_tag_damaged, setup, teardown),
    cmocka_unit_test_setup_teardown (test_stack_block_size_too_small, setup, teardown),
    cmocka_unit_test_setup_teardown (test_block_size_past_the_file, setup, teardown),
    cmocka_unit_test_setup_teardown (test_block_size_into_later_blocks, setup, teardown),
    cmocka_unit_test_setup_teardown (test_metadata_unknown_type_code, setup, teardown),
    cmocka_unit_test_setup_teardown (test_metadata_fields_cut_short, setup, teardown),
    cmocka_unit_test_setup_teardown (test_v2_metadata_unknown_type_code, setup, teardown),
    cmocka_unit_test_setup_teardown (test_date_time_fields, setup, teardown),
    cmocka_unit_test_setup_teardown (test_event_years_ahead, setup, teardown),
    cmocka_unit_test_setup_teardown (test_event_years_before, setup, teardown),
    cmocka_unit_test_setup_teardown (test_one_verdict_per_file, setup, teardown),
    cmocka_unit_test_setup_teardown (test_unterminated_runtime_string, setup, teardown),
    cmocka_unit_test_setup_teardown (test_only_the_magic, setup, teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
