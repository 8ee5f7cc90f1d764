/* etlscope-cli.c — the command-line face of the trace model.
 *
 *   argv[1] ─ command table ─ et_cli_{info,events,markers,stats,render,stacks}_run (argv[1..])
 *
 * Each command parses its own options (GOption) and loads the file through
 * et-cli-output, which also owns the exit statuses: 0 for a clean file, 1
 * when it was read with damage, 2 when it could not be read or the command
 * line was wrong.
 */
#include <string.h>
#include <glib.h>

#include "et-cli-events.h"
#include "et-cli-info.h"
#include "et-cli-markers.h"
#include "et-cli-render.h"
#include "et-cli-stats.h"
#include "et-cli-stacks.h"
#include "et-cli-output.h"
#include "et-i18n.h"

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

static const Command commands[] = {
  { "info", N_("What FILE holds: header, providers, threads, losses, damage"), et_cli_info_run },
  { "events", N_("Every event of FILE in time order, decoded"), et_cli_events_run },
  { "markers", N_("The Concurrency Visualizer markers of FILE"), et_cli_markers_run },
  { "stats", N_("Counts and span durations of FILE per provider and series"), et_cli_stats_run },
  { "render", N_("The timeline of FILE as a PNG, SVG or PDF picture"), et_cli_render_run },
  { "stacks", N_("The call stacks of FILE's CPU samples: folded, speedscope or a call tree"),
    et_cli_stacks_run },
};

static void
print_usage (FILE *stream)
{
  /* Translators: COMMAND, OPTION and FILE are placeholders; translate them. */
  fputs (_("Usage:\n"
           "  etlscope-cli COMMAND [OPTION…] FILE\n"
           "\n"
           "Reads a Windows ETW trace (.etl) and writes what it holds.\n"
           "\n"
           "Commands:\n"), stream);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
  fputs (_("\n"
           "Options:\n"
           "  -h, --help  Show this help; 'etlscope-cli COMMAND --help' shows a command's\n"
           "  --version   Show the version\n"
           "\n"
           "Exit status: 0 read cleanly, 1 read with damage, 2 not read or bad usage.\n"),
         stream);
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

int
main (int argc, char **argv)
{
  const Command *command;
  g_autofree char *prgname = NULL;

  et_i18n_init ();

  if (argc < 2)
    {
      print_usage (stderr);
      return ET_CLI_EXIT_FAILURE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      /* "help COMMAND" is the same as "COMMAND --help". */
      if (argc > 2 && strcmp (argv[1], "help") == 0 && (command = find_command (argv[2])))
        {
          char *help_argv[] = { argv[2], (char *) "--help", NULL };
          prgname = g_strconcat ("etlscope-cli ", command->name, NULL);
          g_set_prgname (prgname);
          return command->run (2, help_argv);
        }
      print_usage (stdout);
      return ET_CLI_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("etlscope-cli %s\n", ETLSCOPE_VERSION);
      return ET_CLI_EXIT_OK;
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      et_cli_error (_("unknown command '%s'"), argv[1]);
      fputs (_("Try 'etlscope-cli --help'.\n"), stderr);
      return ET_CLI_EXIT_FAILURE;
    }
  /* GOption's usage line reads "Usage: PRGNAME [OPTION…] FILE". */
  prgname = g_strconcat ("etlscope-cli ", command->name, NULL);
  g_set_prgname (prgname);
  return command->run (argc - 1, argv + 1);
}
