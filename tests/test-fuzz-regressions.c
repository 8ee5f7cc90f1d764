/* test-fuzz-regressions.c — replays every input the fuzzers ever found
 * (tests/fuzz/regressions/<target>/) through the same target bodies the
 * libFuzzer wrappers call (tests/fuzz/et-fuzz-targets.c), so each crash,
 * hang or leak stays fixed in the plain and sanitizer builds without clang.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>
#include "et-fixture.h"
#include "et-fixture-nettrace.h"
#include "et-trace.h"
#include "fuzz/et-fuzz-targets.h"
#include "et-trace-load.h"

/* A hang the fuzzer reported ran past its 10 s timeout. What keeps it
 * fixed is a bound on work, not on time (a slow machine must not fail a
 * correct build): the model hands back at most this many things (records,
 * texts, field sets, damage reports) per input byte, plus a fixed
 * allowance for the smallest inputs. */
#define MAX_WORK_PER_BYTE 16
#define WORK_ALLOWANCE    4096

static void
replay_target (const char *target)
{
  const char *root = g_getenv ("ET_FUZZ_REGRESSIONS");
  g_autofree char *dir_path = NULL;
  g_autoptr(GDir) dir = NULL;
  EtFuzzTarget func = et_fuzz_target_lookup (target);
  const char *name;
  guint n = 0;

  assert_non_null (func);
  assert_non_null (root);
  dir_path = g_build_filename (root, target, NULL);
  dir = g_dir_open (dir_path, 0, NULL);
  if (dir == NULL)
    {
      print_message ("# no regression inputs for %s at %s\n", target, dir_path);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *data = NULL;
      gsize len = 0;
      guint64 before, done;

      if (name[0] == '.' || g_str_has_suffix (name, ".md"))
        continue;
      assert_true (g_file_get_contents (path, &data, &len, NULL));
      before = et_fuzz_work ();
      assert_int_equal (func ((const guint8 *) data, len), 0);
      done = et_fuzz_work () - before;
      print_message ("# %s: %" G_GSIZE_FORMAT " bytes, %" G_GUINT64_FORMAT " units of work\n",
                     name, len, done);
      if (done > (guint64) len * MAX_WORK_PER_BYTE + WORK_ALLOWANCE)
        fail_msg ("%s: %" G_GUINT64_FORMAT " units of work for %" G_GSIZE_FORMAT
                  " bytes, more than %d per byte", path, done, len, MAX_WORK_PER_BYTE);
      n++;
    }
  print_message ("# %s: %u regression inputs replayed\n", target, n);
}

static void
test_buffers_regressions_replay_cleanly (void **state)
{
  replay_target ("buffers");
}

static void
test_xpress_regressions_replay_cleanly (void **state)
{
  replay_target ("xpress");
}

static void
test_manifest_regressions_replay_cleanly (void **state)
{
  replay_target ("manifest");
}

static void
test_tracelogging_regressions_replay_cleanly (void **state)
{
  replay_target ("tracelogging");
}

static void
test_trace_regressions_replay_cleanly (void **state)
{
  replay_target ("trace");
}

static void
test_nettrace_regressions_replay_cleanly (void **state)
{
  replay_target ("nettrace");
}

/* The targets themselves must take any bytes, including none. */
static void
test_targets_accept_empty_and_tiny_inputs (void **state)
{
  static const char *targets[] = { "buffers", "xpress", "manifest", "tracelogging", "trace" };
  static const guint8 tiny[] = { 0xFF, 0x00, 0x80 };

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      EtFuzzTarget func = et_fuzz_target_lookup (targets[i]);
      assert_non_null (func);
      for (gsize n = 0; n <= sizeof tiny; n++)
        assert_int_equal (func (tiny, n), 0);
    }
}

/* Runs @data through the file targets, its work bounded by its size. */
static void
replay_file (const guint8 *data, gsize len, const char *what)
{
  static const char *targets[] = { "buffers", "trace" };

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      guint64 work = et_fuzz_work ();

      assert_int_equal (et_fuzz_target_lookup (targets[t]) (data, len), 0);
      work = et_fuzz_work () - work;
      if (work > (guint64) len * MAX_WORK_PER_BYTE + WORK_ALLOWANCE)
        fail_msg ("%s through %s: %" G_GUINT64_FORMAT " units of work for %" G_GSIZE_FORMAT
                  " bytes", what, targets[t], work, len);
    }
}

/* What the fuzzer's custom mutator does, as a short fixed run in every
 * build: 300 structure-aware mutants (et_fuzz_mutate_etl) of the demo
 * trace, plain and compressed, through the buffers and trace targets. */
static void
test_structure_aware_mutants_replay_cleanly (void **state)
{
  g_autofree char *dir = g_dir_make_tmp ("et-mutants-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "demo.etl", NULL);
  guint changed = 0;

  for (guint compress = 0; compress < 2; compress++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree guint8 *base = NULL;
      g_autofree guint8 *mutant = NULL;
      EtFixtureOptions o;
      gsize len = 0;

      et_fixture_options_init (&o);
      o.buffer_size = 4096;
      o.compress = compress;
      assert_true (et_fixture_write_demo (path, &o, &error));
      assert_true (g_file_get_contents (path, (char **) &base, &len, NULL));
      mutant = g_malloc (len + 512);
      for (guint32 seed = 0; seed < 150; seed++)
        {
          g_autofree char *what = g_strdup_printf ("mutant %u of the %s demo", seed,
                                                   compress ? "compressed" : "plain");
          gsize n;

          memcpy (mutant, base, len);
          n = et_fuzz_mutate_etl (mutant, len, len + 512, seed);
          assert_true (n <= len + 512);
          changed += n != len || memcmp (mutant, base, len) != 0;
          replay_file (mutant, n, what);
        }
    }
  print_message ("# %u of 300 mutants differ from their base\n", changed);
  assert_true (changed >= 250);
  et_fixture_remove_dir (dir);
}

/* A .nettrace of N_NT_EVENTS events, eight to an EventBlock, with a stack
 * before them and a sequence point after (the fixture's writer). */
#define N_NT_EVENTS 96

static GBytes *
nettrace_base (const char *dir, gboolean compressed)
{
  g_autofree char *path = g_build_filename (dir, "base.nettrace", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autofree char *bytes = NULL;
  EtFixtureNettraceOptions o;
  const guint64 ips[2] = { 0x7ff012340000, 0x7ff012340100 };
  gsize len;

  et_fixture_nettrace_options_init (&o);
  o.events_per_block = 8;
  o.compressed = compressed;
  nt = et_fixture_nettrace_new (path, &o, &error);
  assert_non_null (nt);
  et_fixture_nettrace_use_stack (nt, ips, 2);
  for (guint i = 0; i < N_NT_EVENTS; i++)
    {
      EtFixtureEvent ev;

      et_fixture_event_init (&ev);
      ev.pid = 4242, ev.tid = 100 + i % 3, ev.cpu = i % 2, ev.level = 4;
      ev.id = 1 + i % 2, ev.opcode = i % 2 ? 2 : 1;   /* spans: Start, Stop */
      ev.time_ns = 1000000 + 10000 * (gint64) i;
      et_fixture_payload_reset (p);
      et_fixture_payload_add_i32 (p, "item", (gint32) i);
      et_fixture_payload_add_utf16 (p, "label", i % 2 ? "WorkStop" : "WorkStart");
      et_fixture_nettrace_write_event (nt, &ev, "Etlscope-Fuzz", i % 2 ? "WorkStop" : "WorkStart", p);
    }
  et_fixture_nettrace_sequence_point (nt, 0);
  assert_true (et_fixture_nettrace_close (nt, &error));
  assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&bytes), len);
}

/* The events of a mutant's load, and its damage count; FALSE when it does
 * not load. */
static gboolean
load_counts (const char *dir, const guint8 *data, gsize len, guint64 *events, guint64 *damage)
{
  g_autofree char *path = g_build_filename (dir, "mutant.nettrace", NULL);
  g_autoptr(EtTrace) t = NULL;

  assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
  t = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  if (t == NULL)
    return FALSE;
  *events = et_trace_get_stats (t)->records;
  *damage = et_trace_get_stats (t)->damage_count;
  return TRUE;
}

/* 8 for each EventBlock of @data that ends before @cut. */
static guint64
events_before (const guint8 *data, gsize cut)
{
  guint64 n = 0;

  for (gsize at = 15; at + 10 + 1 + 4 <= cut; at++)
    if (memcmp (data + at, "EventBlock", 10) == 0 && data[at + 10] == 6)
      {
        gsize start = (at + 11 + 4 + 3) & ~(gsize) 3;

        n += start + et_fuzz_get_u32 (data + at + 11) < cut ? 8 : 0;
      }
  return n;
}

/* What a mutation must leave: damage reported for a broken framing, and
 * the events of every EventBlock it did not touch (eight to a block; a
 * cut keeps those of the blocks before it; a MetadataBlock touched may
 * take every event with it, reported as skipped). */
static void
check_mutant (const char *dir, const guint8 *base, const guint8 *data, gsize len,
              const EtFuzzNtMutation *what, guint64 base_events, guint32 seed)
{
  guint64 events = 0, damage = 0, floor = base_events;

  assert_int_equal (et_fuzz_nettrace (data, len), 0);     /* its own invariants */
  if (what->kind != ET_FUZZ_NT_FRAMING)
    return;
  assert_true (load_counts (dir, data, len, &events, &damage));
  if (damage == 0)
    fail_msg ("mutant %u: a framing mutation at byte offset %" G_GSIZE_FORMAT
              " read without damage", seed, what->object);
  if (what->cut > 0)
    floor = events_before (data, what->cut);
  else if (memcmp (base + what->object + 15, "MetadataBlock", 13) == 0)
    floor = 0;
  else if (what->events)
    floor -= 8;
  if (events < floor)
    fail_msg ("mutant %u: %" G_GUINT64_FORMAT " events of %" G_GUINT64_FORMAT " kept after "
              "damage at byte offset %" G_GSIZE_FORMAT ", fewer than the %" G_GUINT64_FORMAT
              " of the blocks it did not touch", seed, events, base_events, what->object, floor);
}

/* The .nettrace mutator as a short fixed run in every build: 300 mutants
 * of a fixture trace (headers compressed and not), each through the
 * nettrace target's own invariants, and the framing mutants checked for
 * their damage and for the events of the blocks they did not touch. */
static void
test_nettrace_mutants_keep_their_invariants (void **state)
{
  g_autofree char *dir = g_dir_make_tmp ("et-nt-mutants-XXXXXX", NULL);
  guint kinds[3] = { 0 };

  for (guint compressed = 0; compressed < 2; compressed++)
    {
      g_autoptr(GBytes) base = nettrace_base (dir, compressed);
      gsize len;
      const guint8 *bytes = g_bytes_get_data (base, &len);
      g_autofree guint8 *mutant = g_malloc (len + 64);
      guint64 base_events = 0, base_damage = 0;

      assert_true (load_counts (dir, bytes, len, &base_events, &base_damage));
      assert_int_equal (base_damage, 0);
      for (guint32 seed = 0; seed < 150; seed++)
        {
          EtFuzzNtMutation what;
          gsize n;

          memcpy (mutant, bytes, len);
          n = et_fuzz_mutate_nettrace (mutant, len, len + 64, seed, &what);
          assert_true (n <= len + 64);
          kinds[what.kind]++;
          check_mutant (dir, bytes, mutant, n, &what, base_events, seed);
        }
    }
  print_message ("# mutants: %u framing, %u content, %u unchanged\n",
                 kinds[ET_FUZZ_NT_FRAMING], kinds[ET_FUZZ_NT_CONTENT], kinds[ET_FUZZ_NT_NONE]);
  assert_true (kinds[ET_FUZZ_NT_FRAMING] >= 150);
  et_fixture_remove_dir (dir);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_targets_accept_empty_and_tiny_inputs),
    cmocka_unit_test (test_buffers_regressions_replay_cleanly),
    cmocka_unit_test (test_xpress_regressions_replay_cleanly),
    cmocka_unit_test (test_manifest_regressions_replay_cleanly),
    cmocka_unit_test (test_tracelogging_regressions_replay_cleanly),
    cmocka_unit_test (test_trace_regressions_replay_cleanly),
    cmocka_unit_test (test_nettrace_regressions_replay_cleanly),
    cmocka_unit_test (test_structure_aware_mutants_replay_cleanly),
    cmocka_unit_test (test_nettrace_mutants_keep_their_invariants),
  };
  return cmocka_run_group_tests_name ("fuzz-regressions", tests, NULL, NULL);
}
