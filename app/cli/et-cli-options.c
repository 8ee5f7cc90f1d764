/* et-cli-options.c — formats, times and filters for the etlscope-cli
 * commands (see et-cli-options.h).
 */
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-i18n.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

gboolean
et_cli_parse_format (const char *text, guint allowed, EtCliFormat *format, GError **error)
{
  static const struct { const char *name; EtCliFormat format; } names[] = {
    { "text", ET_CLI_FORMAT_TEXT },
    { "json", ET_CLI_FORMAT_JSON },
    { "jsonl", ET_CLI_FORMAT_JSONL },
    { "csv", ET_CLI_FORMAT_CSV },
  };
  g_autoptr(GString) valid = g_string_new (NULL);

  if (text == NULL)
    text = "text";
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if ((allowed & names[i].format) == 0)
        continue;
      if (strcmp (text, names[i].name) == 0)
        {
          *format = names[i].format;
          return TRUE;
        }
      g_string_append_printf (valid, "%s%s", valid->len > 0 ? ", " : "", names[i].name);
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("unknown format '%s' (use %s)"), text, valid->str);
  return FALSE;
}

/* ---- times ------------------------------------------------------------ */

static gboolean
time_unit_scale (const char *unit, guint64 *scale)
{
  static const struct { const char *unit; guint64 scale; } units[] = {
    { "", 1 }, { "ns", 1 }, { "us", 1000 }, { "\302\265s", 1000 },
    { "ms", 1000000 }, { "s", 1000000000 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (unit, units[i].unit) == 0)
      {
        *scale = units[i].scale;
        return TRUE;
      }
  return FALSE;
}

/* Exact decimal arithmetic: "1.5ms" must be 1500000, not 1499999. */
gboolean
et_cli_parse_time (const char *text, gint64 *ns, GError **error)
{
  const char *p = text;
  gboolean negative = FALSE;
  guint64 whole = 0, fraction = 0, scale, value;
  guint n_whole = 0, n_fraction = 0;

  if (*p == '-' || *p == '+')
    negative = *p++ == '-';
  for (; g_ascii_isdigit (*p); p++, n_whole++)
    {
      if (whole > (G_MAXUINT64 - 9) / 10)
        goto too_large;
      whole = whole * 10 + (guint64) (*p - '0');
    }
  if (*p == '.')
    {
      for (p++; g_ascii_isdigit (*p); p++, n_fraction++)
        {
          if (n_fraction < 9)
            fraction = fraction * 10 + (guint64) (*p - '0');
          else if (*p != '0')
            goto too_fine;
        }
    }
  if (n_whole + n_fraction == 0 || !time_unit_scale (p, &scale))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: the units and "1.5ms" are what the user types; keep them. */
                   _("'%s' is not a time: write a number with an optional unit "
                     "ns, us, ms or s (nanoseconds by default), like 1.5ms"), text);
      return FALSE;
    }
  /* The fraction in billionths of the unit; digits past a nanosecond must
   * be zeros. */
  for (guint i = n_fraction; i < 9; i++)
    fraction *= 10;
  if (whole > (guint64) G_MAXINT64 / scale)
    goto too_large;
  value = whole * scale;
  if (fraction * scale % 1000000000 != 0)
    goto too_fine;
  value += fraction * scale / 1000000000;
  if (value > (guint64) G_MAXINT64)
    goto too_large;
  *ns = negative ? -(gint64) value : (gint64) value;
  return TRUE;

too_fine:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("'%s' is finer than a nanosecond"), text);
  return FALSE;
too_large:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("'%s' is too large a time"), text);
  return FALSE;
}

/* ---- filters ---------------------------------------------------------- */

void
et_cli_filter_init (EtCliFilter *filter)
{
  memset (filter, 0, sizeof *filter);
  filter->providers = g_ptr_array_new_with_free_func (g_free);
  filter->pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  filter->tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  filter->from_ns = G_MININT64;
  filter->to_ns = G_MAXINT64;
  filter->min_importance = ET_IMPORTANCE_LOW;
}

void
et_cli_filter_clear (EtCliFilter *filter)
{
  g_clear_pointer (&filter->providers, g_ptr_array_unref);
  g_clear_pointer (&filter->pids, g_array_unref);
  g_clear_pointer (&filter->tids, g_array_unref);
  g_clear_pointer (&filter->provider_on, g_free);
}

static gboolean
parse_id (const char *value, guint32 *id, GError **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT32, &v, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("'%s' is not a process or thread id (a decimal number)"), value);
      return FALSE;
    }
  *id = (guint32) v;
  return TRUE;
}

static gboolean
on_option (const char *name, const char *value, gpointer data, GError **error)
{
  EtCliFilter *filter = data;
  guint32 id;

  if (strcmp (name, "--provider") == 0)
    g_ptr_array_add (filter->providers, g_strdup (value));
  else if (strcmp (name, "--pid") == 0 || strcmp (name, "--tid") == 0)
    {
      if (!parse_id (value, &id, error))
        return FALSE;
      g_array_append_val (name[2] == 'p' ? filter->pids : filter->tids, id);
    }
  else if (strcmp (name, "--from") == 0)
    return et_cli_parse_time (value, &filter->from_ns, error);
  else if (strcmp (name, "--to") == 0)
    return et_cli_parse_time (value, &filter->to_ns, error);
  else if (strcmp (name, "--kind") == 0)
    {
      guint kind;

      for (kind = ET_MARKER_FLAG; kind <= ET_MARKER_SPAN; kind++)
        if (strcmp (value, et_marker_kind_to_string (kind)) == 0)
          break;
      if (kind > ET_MARKER_SPAN)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       /* Translators: flag, message and span are option values; keep them. */
                       _("unknown marker kind '%s' (use flag, message or span)"), value);
          return FALSE;
        }
      filter->kinds |= 1u << kind;
    }
  else if (strcmp (name, "--min-importance") == 0
           && !et_importance_from_string (value, &filter->min_importance))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: low … critical are option values; keep them. */
                   _("unknown importance '%s' (use low, normal, high or critical)"), value);
      return FALSE;
    }
  return TRUE;
}

GOptionGroup *
et_cli_filter_group_new (EtCliFilter *filter, const char *command, EtCliFilterUse use)
{
  const GOptionEntry common[] = {
    { "provider", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Only this provider (name or GUID; repeatable)"), N_("NAME|GUID") },
    { "pid", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Only this process id (repeatable)"), "N" },
    { "tid", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Only this thread id (repeatable)"), "N" },
    { NULL }
  };
  const GOptionEntry overlaps[] = {
    { "from", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Nothing that ends before T (units ns, us, ms, s; default ns)"), "T" },
    { "to", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Nothing that starts after T"), "T" },
    { NULL }
  };
  /* Statistics count what starts in [from, to): a span belongs to the
   * range it starts in, so adjacent ranges add up. */
  const GOptionEntry starts[] = {
    { "from", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Count what starts at or after T (units ns, us, ms, s; default ns)"), "T" },
    { "to", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      N_("Count what starts before T"), "T" },
    { NULL }
  };
  const GOptionEntry markers[] = {
    { "kind", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      /* Translators: flag, message and span are option values; keep them. */
      N_("Only this kind: flag, message or span (repeatable)"), N_("KIND") },
    { "min-importance", 0, 0, G_OPTION_ARG_CALLBACK, on_option,
      /* Translators: low … critical are option values; keep them. */
      N_("Only markers at least this important: low, normal, high or critical"), N_("LEVEL") },
    { "all-providers", 0, 0, G_OPTION_ARG_NONE, &filter->all_providers,
      N_("Make markers of every provider, not only the EventSource ones"), NULL },
    { NULL }
  };
  const GOptionEntry events[] = {
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &filter->stacks,
      N_("With --format=jsonl: each event's call stack, root first"), NULL },
    { NULL }
  };
  GOptionGroup *group;

  filter->use = use;
  group = g_option_group_new (command, N_("Filters"), N_("Show the filter options"), filter, NULL);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_group_add_entries (group, common);
  if (use != ET_CLI_FILTER_VIEW)
    g_option_group_add_entries (group, use == ET_CLI_FILTER_STATS ? starts : overlaps);
  if (use != ET_CLI_FILTER_EVENTS)
    g_option_group_add_entries (group, markers);
  if (g_strcmp0 (command, "events") == 0)
    g_option_group_add_entries (group, events);
  return group;
}

gboolean
et_cli_filter_check (const EtCliFilter *filter, const char *command)
{
  if (filter->from_ns <= filter->to_ns)
    return TRUE;
  et_cli_error (_("%s: --from is after --to"), command);
  return FALSE;
}

static gboolean
provider_matches (const EtProvider *provider, const char *wanted)
{
  EtGuid guid;

  if (et_guid_parse (wanted, &guid))
    return et_guid_equal (&guid, &provider->guid);
  return g_ascii_strcasecmp (wanted, provider->name) == 0;
}

void
et_cli_filter_resolve (EtCliFilter *filter, EtTrace *trace)
{
  guint n = et_trace_get_n_providers (trace);

  g_clear_pointer (&filter->provider_on, g_free);
  if (filter->providers->len == 0)
    return;
  filter->provider_on = g_new0 (guint8, MAX (n, 1));
  filter->n_provider_on = n;
  for (guint w = 0; w < filter->providers->len; w++)
    {
      const char *wanted = g_ptr_array_index (filter->providers, w);
      gboolean found = FALSE;

      for (guint i = 0; i < n; i++)
        {
          const EtProvider *provider = et_trace_get_provider (trace, i);

          if (!provider_matches (provider, wanted))
            continue;
          found = TRUE;
          filter->provider_on[i] = TRUE;
          if (filter->use != ET_CLI_FILTER_EVENTS && !provider->default_on
              && !filter->all_providers)
            et_cli_error (_("note: provider '%s' makes no markers unless --all-providers is given"),
                          wanted);
        }
      if (!found)
        et_cli_error (_("note: no provider in %s matches '%s'"), et_trace_get_path (trace), wanted);
    }
}

static gboolean
id_listed (GArray *ids, guint32 id)
{
  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, guint32, i) == id)
      return TRUE;
  return FALSE;
}

gboolean
et_cli_filter_channel (const EtCliFilter *filter, EtTrace *trace, guint channel)
{
  const EtChannel *ch = et_trace_get_channel (trace, channel);
  const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));

  return et_cli_filter_provider (filter, et_channel_provider (ch))
         && et_cli_filter_thread (filter, thread->pid, thread->tid, thread->has_ids);
}

gboolean
et_cli_filter_thread (const EtCliFilter *filter, guint32 pid, guint32 tid, gboolean has_ids)
{
  if (filter->pids->len == 0 && filter->tids->len == 0)
    return TRUE;
  if (!has_ids)
    return FALSE;
  return (filter->pids->len == 0 || id_listed (filter->pids, pid))
         && (filter->tids->len == 0 || id_listed (filter->tids, tid));
}

/* ---- parsing ---------------------------------------------------------- */

int
et_cli_parse_command (GOptionContext *context, const char *command, int *argc,
                      char ***argv, const char **path)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      et_cli_error ("%s: %s", command, error->message);
      fprintf (stderr, _("Try 'etlscope-cli %s --help'.\n"), command);
      return ET_CLI_EXIT_FAILURE;
    }
  if (*argc != 2)
    {
      et_cli_error ("%s: %s", command, *argc < 2 ? _("no FILE given") : _("give exactly one FILE"));
      fprintf (stderr, _("Try 'etlscope-cli %s --help'.\n"), command);
      return ET_CLI_EXIT_FAILURE;
    }
  *path = (*argv)[1];
  return -1;
}

static int
load_and_run (const char *command, const char *path, const char *format_name,
              EtCliFilter *filter, EtCliFilteredRun run)
{
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  EtCliFormat format;

  if (!et_cli_filter_check (filter, command))
    return ET_CLI_EXIT_FAILURE;
  if (!et_cli_parse_format (format_name, ET_CLI_FORMAT_TEXT | ET_CLI_FORMAT_CSV
                            | (filter->use == ET_CLI_FILTER_STATS ? ET_CLI_FORMAT_JSON
                                                                  : ET_CLI_FORMAT_JSONL),
                            &format, &error))
    {
      et_cli_error ("%s: %s", command, error->message);
      return ET_CLI_EXIT_FAILURE;
    }
  trace = et_cli_load (path, filter->all_providers ? ET_LOAD_ALL_PROVIDERS : ET_LOAD_DEFAULT);
  if (trace == NULL)
    return ET_CLI_EXIT_FAILURE;
  et_cli_filter_resolve (filter, trace);
  return run (trace, format, filter);
}

int
et_cli_run_filtered (int argc, char **argv, const char *command, const char *summary,
                     EtCliFilterUse use, EtCliFilteredRun run)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *format_name = NULL;
  EtCliFilter filter;
  const char *path = NULL;
  GOptionGroup *group;
  int status;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      /* Translators: text, jsonl and csv are option values; keep them. */
      N_("Output format: text (default), jsonl or csv"), N_("FORMAT") },
    { NULL }
  };

  if (use == ET_CLI_FILTER_STATS)
    /* Translators: text, json and csv are option values; keep them. */
    entries[0].description = N_("Output format: text (default), json or csv");

  et_cli_filter_init (&filter);
  context = g_option_context_new (N_("FILE"));
  group = et_cli_filter_group_new (&filter, command, use);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);

  status = et_cli_parse_command (context, command, &argc, &argv, &path);
  if (status < 0)
    status = load_and_run (command, path, format_name, &filter, run);
  et_cli_filter_clear (&filter);
  return status;
}
