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
#include "fuzz/et-fuzz-targets.h"

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
  };
  return cmocka_run_group_tests_name ("fuzz-regressions", tests, NULL, NULL);
}
