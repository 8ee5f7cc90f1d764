/* Translations of the command-line tool: under LANGUAGE=de the help and the
 * text formats are German, while the machine formats (JSON, JSON lines,
 * CSV) stay byte for byte what they are in English. Runs the built
 * etlscope-cli (ET_CLI) with the build tree's catalogs (ETLSCOPE_LOCALEDIR). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <locale.h>
#include "et-fixture.h"
#include "et-timeline-render.h"

static char *dir;
static char *demo_path;
/* When set, run_cli's programs with a LANGUAGE also get German number
 * formats (LC_ALL, in the build folder's own de_DE.UTF-8: ET_LOCALE_DIR);
 * the others stay in C. */
static gboolean german_numbers;

typedef struct
{
  char *out;
  char *err;
  int   status;
} Run;

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;

  dir = g_dir_make_tmp ("et-i18n-XXXXXX", NULL);
  demo_path = g_build_filename (dir, "demo.etl", NULL);
  et_fixture_options_init (&o);
  return et_fixture_write_demo (demo_path, &o, &error) ? 0 : -1;
}

static int
teardown (void **state)
{
  g_unlink (demo_path);
  g_rmdir (dir);
  g_free (demo_path);
  g_free (dir);
  return 0;
}

/* Runs etlscope-cli ARGS… (NULL-terminated) with LANGUAGE=@language, or
 * without LANGUAGE for NULL. */
static Run
run_cli (const char *language, ...)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Run run = { NULL, NULL, -1 };
  const char *arg;
  va_list args;

  assert_non_null (g_getenv ("ET_CLI"));
  assert_non_null (g_getenv ("ETLSCOPE_LOCALEDIR"));
  g_ptr_array_add (argv, (gpointer) g_getenv ("ET_CLI"));
  va_start (args, language);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "LANG", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LC_ALL");
  g_subprocess_launcher_unsetenv (launcher, "LC_MESSAGES");
  if (german_numbers && language != NULL)
    {
      g_subprocess_launcher_setenv (launcher, "LOCPATH", g_getenv ("ET_LOCALE_DIR"), TRUE);
      g_subprocess_launcher_setenv (launcher, "LC_ALL", "de_DE.UTF-8", TRUE);
    }
  if (language != NULL)
    g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  assert_non_null (process);
  assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &run.out, &run.err, &error));
  assert_true (g_subprocess_get_if_exited (process));
  run.status = g_subprocess_get_exit_status (process);
  return run;
}

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

static void
test_cli_help_is_german_under_language_de (void **state)
{
  Run en = run_cli (NULL, "--help", NULL);
  Run de = run_cli ("de", "--help", NULL);
  Run command = run_cli ("de", "markers", "--help", NULL);

  assert_int_equal (en.status, 0);
  assert_int_equal (de.status, 0);
  assert_non_null (strstr (en.out, "Usage:"));
  assert_non_null (strstr (de.out, "Aufruf:"));
  assert_non_null (strstr (de.out, "Befehle:"));
  assert_null (strstr (de.out, "Commands:"));
  /* The command names are what the user types: never translated. */
  assert_non_null (strstr (de.out, "  markers "));
  assert_int_equal (command.status, 0);
  assert_non_null (strstr (command.out, "Wichtigkeit"));
  assert_null (strstr (command.out, "Bedeutung"));
  assert_non_null (strstr (command.out, "--min-importance"));
  run_clear (&en);
  run_clear (&de);
  run_clear (&command);
}

static void
test_cli_errors_are_german_under_language_de (void **state)
{
  Run de = run_cli ("de", "markers", "--from", "soon", demo_path, NULL);

  assert_int_equal (de.status, 2);
  assert_non_null (strstr (de.err, "ist keine Zeit"));
  run_clear (&de);
}

static void
test_text_formats_are_german_under_language_de (void **state)
{
  Run en = run_cli (NULL, "info", demo_path, NULL);
  Run de = run_cli ("de", "info", demo_path, NULL);

  assert_int_equal (en.status, 0);
  assert_int_equal (de.status, 0);
  assert_non_null (strstr (en.out, "Processes and threads"));
  assert_non_null (strstr (de.out, "Prozesse und Threads"));
  assert_non_null (strstr (de.out, demo_path));
  run_clear (&en);
  run_clear (&de);
}

/* Every machine format, English and German: the same bytes. */
static void
test_machine_output_is_identical_under_language_de (void **state)
{
  static const char *const runs[][3] = {
    { "info", "--format=json", NULL },
    { "markers", "--format=jsonl", NULL },
    { "markers", "--format=csv", NULL },
    { "events", "--format=jsonl", NULL },
    { "events", "--format=csv", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      Run en = run_cli (NULL, runs[i][0], runs[i][1], demo_path, NULL);
      Run de = run_cli ("de", runs[i][0], runs[i][1], demo_path, NULL);

      assert_int_equal (en.status, 0);
      assert_int_equal (de.status, 0);
      assert_true (strlen (en.out) > 100);
      assert_string_equal (de.out, en.out);
      run_clear (&en);
      run_clear (&de);
    }
}

/* The GUI writes numbers for the user's locale (a decimal comma in German);
 * the machine formats never change with it. */
static void
test_decimal_comma_in_german_locale_not_in_machine_output (void **state)
{
  const char *locales = g_getenv ("ET_LOCALE_DIR");
  g_autofree char *compiled = locales ? g_build_filename (locales, "de_DE.UTF-8", NULL) : NULL;
  g_autoptr(GString) display = g_string_new (NULL);
  g_autoptr(GString) machine = g_string_new (NULL);
  g_autoptr(GString) count = g_string_new (NULL);

  if (compiled == NULL || !g_file_test (compiled, G_FILE_TEST_IS_DIR))
    fail_msg ("no de_DE.UTF-8 locale at %s: install the Debian package locales (./dev deps)",
              compiled ? compiled : "(ET_LOCALE_DIR unset)");
  g_setenv ("LOCPATH", locales, TRUE);
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    fail_msg ("setlocale (LC_NUMERIC, \"de_DE.UTF-8\") failed with LOCPATH=%s", locales);
  et_format_duration_display (1500000, display);
  et_format_duration (1500000, machine);
  et_format_count_display (179474, count);
  setlocale (LC_NUMERIC, "C");
  g_unsetenv ("LOCPATH");
  assert_string_equal (display->str, "1,5 ms");
  assert_string_equal (machine->str, "1.5 ms");
  /* Counts for people are grouped (the window's "179.474 Ereignisse"). */
  assert_string_equal (count->str, "179.474");

  german_numbers = TRUE;
  test_machine_output_is_identical_under_language_de (state);
  german_numbers = FALSE;
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_cli_help_is_german_under_language_de),
    cmocka_unit_test (test_cli_errors_are_german_under_language_de),
    cmocka_unit_test (test_text_formats_are_german_under_language_de),
    cmocka_unit_test (test_machine_output_is_identical_under_language_de),
    cmocka_unit_test (test_decimal_comma_in_german_locale_not_in_machine_output),
  };

  return cmocka_run_group_tests_name ("i18n", tests, setup, teardown);
}
