/* et-cli-info.c — "etlscope-cli info".
 *
 *   EtTrace header, stats, providers, processes/threads, damage ─ text | JSON
 *
 * Everything here is already in the loaded model; nothing is decoded again.
 */
#include "et-cli-info.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-i18n.h"
#include "et-timeline-render.h"
#include "et-trace-cpu.h"

#include <string.h>

/* The text form lists this many damage messages; JSON lists all kept. */
#define TEXT_DAMAGE_MESSAGES 10

static const char *
clock_name (guint32 clock_type)
{
  switch (clock_type)
    {
    case ET_CLOCK_QPC: return "qpc";
    case ET_CLOCK_SYSTEM_TIME: return "system_time";
    case ET_CLOCK_CPU_CYCLES: return "cpu_cycles";
    default: return "raw";
    }
}

/* VersionDetail is major.minor of Windows then the log format's sub
 * versions; ProviderVersion is the Windows build number. Translated only
 * for the text format (JSON keeps the English words). */
static void
append_os_version (GString *s, const EtLogfileHeader *h, gboolean translated)
{
  et_string_append_uint (s, h->version[0]);
  g_string_append_c (s, '.');
  et_string_append_uint (s, h->version[1]);
  /* Translators: "10.0 build 19045 (log format 1.5)" in "etlscope-cli info". */
  g_string_append (s, translated ? _(" build ") : " build ");
  et_string_append_uint (s, h->provider_version);
  g_string_append (s, translated ? _(" (log format ") : " (log format ");
  et_string_append_uint (s, h->version[2]);
  g_string_append_c (s, '.');
  et_string_append_uint (s, h->version[3]);
  g_string_append_c (s, ')');
}

static void
append_filetime (GString *s, gint64 filetime)
{
  if (filetime == 0)
    /* Translators: a time the trace header does not give. */
    g_string_append (s, C_("time", "unknown"));
  else
    et_format_filetime (filetime, s);
}

/* ---- text ------------------------------------------------------------- */

static void
text_row (GString *s, const char *label, gsize *line_start)
{
  if (*line_start != s->len)
    g_string_append_c (s, '\n');
  *line_start = s->len;
  g_string_append (s, "  ");
  g_string_append (s, label);
  et_cli_pad_to (s, *line_start, 24);
}

static void
text_header (GString *s, EtTrace *trace)
{
  const EtLogfileHeader *h = et_trace_get_header (trace);
  const EtTraceStats *st = et_trace_get_stats (trace);
  gboolean nettrace = et_trace_is_nettrace (trace);
  gsize line = s->len;

  g_autofree char *name = g_filename_display_name (et_trace_get_path (trace));

  g_string_append_printf (s, _("File: %s\n"), name);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Size: %llu byte\n", "Size: %llu bytes\n",
                                          (gulong) st->file_size),
                          (unsigned long long) st->file_size);
  g_string_append (s, _("\nHeader\n"));
  line = s->len;
  text_row (s, _("Format"), &line);
  g_string_append (s, nettrace ? _(".NET EventPipe (.nettrace)") : _("Windows ETW (.etl)"));
  /* (a .nettrace's header is made from its Trace object: what ETW's
   * header has beyond it is not the file's, and is left out) */
  if (!nettrace)
    {
      text_row (s, _("OS version"), &line);
      append_os_version (s, h, TRUE);
    }
  text_row (s, _("Processors"), &line);
  et_string_append_uint (s, h->n_processors);
  text_row (s, _("Clock"), &line);
  g_string_append (s, clock_name (h->clock_type));
  g_string_append (s, ", ");
  et_string_append_uint (s, st->ticks_per_second);
  g_string_append (s, _(" ticks/s"));
  text_row (s, _("Start"), &line);
  append_filetime (s, h->start_time);
  /* The header's EndTime is the logger's word (a relogged file copies it
   * from its first input): it need not match the last event, which is
   * where Duration ends. Both are shown, each named. */
  if (!nettrace)
    {
      text_row (s, _("End (header)"), &line);
      append_filetime (s, h->end_time);
    }
  text_row (s, _("Last event"), &line);
  append_filetime (s, h->start_time == 0 ? 0
                      : et_trace_ns_to_filetime (trace, et_trace_get_duration_ns (trace)));
  text_row (s, _("Duration"), &line);
  et_cli_append_seconds (s, et_trace_get_duration_ns (trace));
  g_string_append (s, " s");
  if (!nettrace)
    {
      text_row (s, _("Logger"), &line);
      g_string_append (s, h->logger_name != NULL ? h->logger_name : "");
      text_row (s, _("Log file name"), &line);
      g_string_append (s, h->log_file_name != NULL ? h->log_file_name : "");
    }
  text_row (s, _("Pointer size"), &line);
  et_string_append_uint (s, h->pointer_size);
  if (!nettrace)
    {
      text_row (s, _("Buffer size"), &line);
      et_string_append_uint (s, h->buffer_size);
      text_row (s, _("Buffers"), &line);
      et_string_append_uint (s, st->buffers);
      g_string_append (s, " (");
      et_string_append_uint (s, st->compressed_buffers);
      g_string_append (s, _(" compressed)"));
    }
  text_row (s, _("Events"), &line);
  et_string_append_uint (s, st->records);
  text_row (s, _("Markers"), &line);
  et_string_append_uint (s, st->markers);
  if (!nettrace)
    {
      text_row (s, _("Manifests"), &line);
      et_string_append_uint (s, st->manifests);
    }
  g_string_append (s, "\n\n");
}

static void
text_providers (GString *s, EtTrace *trace)
{
  guint n = et_trace_get_n_providers (trace);

  g_string_append_printf (s, _("Providers (%u)\n"), n);
  /* Translators: a table heading; keep each word where it is (columns at
   * 2, 40, 54, 66 and 75). */
  g_string_append (s, _("  GUID                                  KIND          EVENTS      MARKERS  NAME\n"));
  for (guint i = 0; i < n; i++)
    {
      const EtProvider *p = et_trace_get_provider (trace, i);
      gsize line = s->len;

      g_string_append (s, "  ");
      et_cli_append_guid (s, &p->guid);
      et_cli_pad_to (s, line, 40);
      g_string_append (s, et_provider_kind_to_string (p->kind));
      et_cli_pad_to (s, line, 54);
      et_string_append_uint (s, p->n_events);
      et_cli_pad_to (s, line, 66);
      /* Translators: whether a provider makes markers. */
      g_string_append (s, p->default_on ? C_("markers", "on") : C_("markers", "off"));
      et_cli_pad_to (s, line, 75);
      g_string_append (s, p->name);
      g_string_append_c (s, '\n');
    }
  g_string_append_c (s, '\n');
}

/* A thread's time on a processor, where the trace's context switches say. */
static void
text_on_cpu (GString *s, EtTrace *trace, guint thread)
{
  gint64 on_cpu = et_trace_thread_on_cpu_ns (trace, thread);
  g_autoptr(GString) d = NULL;

  if (!et_trace_has_cswitches (trace) || on_cpu <= 0)
    return;
  d = g_string_new (NULL);
  et_format_duration_display (on_cpu, d);
  /* Translators: after "12 events, 3 CPU samples": the thread's time on a
   * processor from the trace's context switches, e.g. "1.5 ms on CPU" */
  g_string_append (s, ", ");
  g_string_append_printf (s, _("%s on CPU"), d->str);
}

static void
text_threads (GString *s, EtTrace *trace)
{
  guint n = et_trace_get_n_processes (trace);
  guint n_threads = et_trace_get_n_threads (trace);
  g_autofree char *processes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process",
                                                             "%u processes", n), n);
  g_autofree char *threads = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread",
                                                           "%u threads", n_threads), n_threads);

  /* Translators: "Processes and threads (2 processes, 5 threads)". */
  g_string_append_printf (s, _("Processes and threads (%s, %s)\n"),
                          processes, threads);
  for (guint i = 0; i < n; i++)
    {
      const EtProcess *p = et_trace_get_process (trace, i);

      g_string_append (s, "  pid ");
      if (p->has_ids)
        et_string_append_uint (s, p->pid);
      else
        g_string_append (s, "-");
      g_string_append (s, "  ");
      g_string_append (s, p->name);
      if (p->command_line != NULL && strcmp (p->command_line, p->name) != 0)
        {
          g_string_append (s, "  ");
          g_string_append (s, p->command_line);
        }
      g_string_append_c (s, '\n');
      for (guint t = p->first_thread; t < p->first_thread + p->n_threads; t++)
        {
          const EtThread *th = et_trace_get_thread (trace, t);
          gsize line = s->len;

          g_string_append (s, "    tid ");
          if (th->has_ids)
            et_string_append_uint (s, th->tid);
          else
            g_string_append (s, "-");
          et_cli_pad_to (s, line, 20);
          g_string_append (s, th->name);
          et_cli_pad_to (s, line, 44);
          et_string_append_uint (s, th->n_events);
          g_string_append_printf (s, " %s", g_dngettext (GETTEXT_PACKAGE, "event", "events", th->n_events));
          if (th->n_samples > 0)
            {
              g_string_append (s, ", ");
              et_string_append_uint (s, th->n_samples);
              /* Translators: after "12 events, 3": CPU samples of the thread. */
              g_string_append_printf (s, " %s", g_dngettext (GETTEXT_PACKAGE, "CPU sample",
                                                             "CPU samples", th->n_samples));
            }
          text_on_cpu (s, trace, t);
          g_string_append_c (s, '\n');
        }
    }
  g_string_append_c (s, '\n');
}

static void
text_losses (GString *s, EtTrace *trace)
{
  const EtLogfileHeader *h = et_trace_get_header (trace);
  const EtTraceStats *st = et_trace_get_stats (trace);
  const EtDamage *damage;
  guint n_damage = 0;
  gsize line;

  g_string_append (s, _("Lost\n"));
  line = s->len;
  if (et_trace_is_nettrace (trace))
    {
      /* (counted from the gaps in each writing thread's sequence numbers) */
      text_row (s, _("Events"), &line);
      et_string_append_uint (s, h->events_lost);
      g_string_append (s, "\n\n");
      /* Translators: followed by "none" or the number of problems. */
      g_string_append (s, _("Damage: "));
    }
  else
    {
      text_row (s, _("Events (header)"), &line);
      et_string_append_uint (s, h->events_lost);
      text_row (s, _("Buffers (header)"), &line);
      et_string_append_uint (s, h->buffers_lost);
      text_row (s, _("Buffers flagged"), &line);
      et_string_append_uint (s, st->buffers_flagged_events_lost);
      /* Translators: "Buffers flagged   3 events lost, 0 buffer lost": the
       * numbers count buffers whose header says so. */
      g_string_append (s, _(" events lost, "));
      et_string_append_uint (s, st->buffers_flagged_buffer_lost);
      g_string_append (s, _(" buffer lost\n\nDamage: "));
    }

  damage = et_trace_get_damage (trace, &n_damage);
  if (st->damage_count == 0)
    {
      /* Translators: no damage. */
      g_string_append (s, C_("damage", "none\n"));
      return;
    }
  et_string_append_uint (s, st->damage_count);
  g_string_append_printf (s, " %s; ", g_dngettext (GETTEXT_PACKAGE, "problem", "problems", (gulong) st->damage_count));
  et_string_append_uint (s, st->records_skipped);
  g_string_append (s, _(" records and "));
  et_string_append_uint (s, st->buffers_skipped);
  g_string_append (s, _(" buffers skipped\n"));
  for (guint i = 0; i < MIN (n_damage, TEXT_DAMAGE_MESSAGES); i++)
    {
      /* Messages name the file and offset themselves. */
      g_string_append (s, "  ");
      g_string_append (s, damage[i].message);
      g_string_append_c (s, '\n');
    }
  if (st->damage_count > MIN (n_damage, TEXT_DAMAGE_MESSAGES))
    {
      g_string_append (s, _("  … and "));
      et_string_append_uint (s, st->damage_count - MIN (n_damage, TEXT_DAMAGE_MESSAGES));
      g_string_append (s, _(" more\n"));
    }
}

/* ---- JSON ------------------------------------------------------------- */

/* @value under @key, or null when @absent (the file's format has no such
 * thing). */
static void
json_uint_unless (GString *s, const char *key, guint64 value, gboolean absent)
{
  if (absent)
    et_cli_json_null (s, key);
  else
    et_cli_json_uint (s, key, value);
}

static void
json_header (GString *s, EtTrace *trace)
{
  const EtLogfileHeader *h = et_trace_get_header (trace);
  const EtTraceStats *st = et_trace_get_stats (trace);
  gboolean nettrace = et_trace_is_nettrace (trace);

  g_autofree char *name = g_filename_display_name (et_trace_get_path (trace));

  et_cli_json_string (s, "file", name);
  et_cli_json_uint (s, "file_size", st->file_size);
  et_cli_json_uint (s, "events", st->records);
  et_cli_json_uint (s, "markers", st->markers);
  et_cli_json_int (s, "t0_raw", st->t0_raw);
  et_cli_json_int (s, "first_raw", st->first_raw);
  et_cli_json_int (s, "last_raw", st->last_raw);
  et_cli_json_string (s, "clock", clock_name (h->clock_type));
  et_cli_json_uint (s, "ticks_per_second", st->ticks_per_second);
  et_cli_json_int (s, "duration_ns", et_trace_get_duration_ns (trace));
  et_cli_json_key (s, "start_time");
  if (h->start_time == 0)
    g_string_append (s, "null");
  else
    {
      g_string_append_c (s, '"');
      et_format_filetime (h->start_time, s);
      g_string_append_c (s, '"');
    }
  /* (a .nettrace has no ETW buffers nor OS version: null, its format
   * said; its events lost are its sequence numbers' gaps) */
  et_cli_json_string (s, "format", nettrace ? "nettrace" : "etl");
  et_cli_json_key (s, "os_version");
  if (nettrace)
    g_string_append (s, "null");
  else
    {
      g_string_append_c (s, '"');
      append_os_version (s, h, FALSE);
      g_string_append_c (s, '"');
    }
  et_cli_json_uint (s, "processors", h->n_processors);
  et_cli_json_string (s, "logger_name", h->logger_name);
  et_cli_json_string (s, "log_file_name", h->log_file_name);
  et_cli_json_uint (s, "pointer_size", h->pointer_size);
  json_uint_unless (s, "buffer_size", h->buffer_size, nettrace);
  json_uint_unless (s, "buffers", st->buffers, nettrace);
  json_uint_unless (s, "compressed_buffers", st->compressed_buffers, nettrace);
  et_cli_json_uint (s, "events_lost", h->events_lost);
  json_uint_unless (s, "buffers_lost", h->buffers_lost, nettrace);
  json_uint_unless (s, "buffers_flagged_events_lost", st->buffers_flagged_events_lost, nettrace);
  json_uint_unless (s, "buffers_flagged_buffer_lost", st->buffers_flagged_buffer_lost, nettrace);
  et_cli_json_uint (s, "records_skipped", st->records_skipped);
  et_cli_json_uint (s, "buffers_skipped", st->buffers_skipped);
  et_cli_json_uint (s, "manifests", st->manifests);
  et_cli_json_uint (s, "decode_failures", st->decode_failures);
}

static void
json_providers (GString *s, EtTrace *trace)
{
  guint n = et_trace_get_n_providers (trace);

  et_cli_json_key (s, "providers");
  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      const EtProvider *p = et_trace_get_provider (trace, i);

      et_cli_json_sep (s);
      g_string_append (s, "{\"guid\":\"");
      et_cli_append_guid (s, &p->guid);
      g_string_append_c (s, '"');
      et_cli_json_string (s, "name", p->name);
      et_cli_json_string (s, "kind", et_provider_kind_to_string (p->kind));
      et_cli_json_uint (s, "events", p->n_events);
      et_cli_json_key (s, "markers");
      g_string_append (s, p->default_on ? "true}" : "false}");
    }
  g_string_append_c (s, ']');
}

static void
json_id (GString *s, const char *key, gboolean has_ids, guint32 id)
{
  if (has_ids)
    et_cli_json_uint (s, key, id);
  else
    et_cli_json_null (s, key);
}

static void
json_threads (GString *s, EtTrace *trace)
{
  guint n_processes = et_trace_get_n_processes (trace);
  guint n_threads = et_trace_get_n_threads (trace);

  et_cli_json_key (s, "processes");
  g_string_append_c (s, '[');
  for (guint i = 0; i < n_processes; i++)
    {
      const EtProcess *p = et_trace_get_process (trace, i);

      et_cli_json_sep (s);
      g_string_append_c (s, '{');
      json_id (s, "pid", p->has_ids, p->pid);
      et_cli_json_string (s, "name", p->name);
      et_cli_json_string (s, "command_line", p->command_line);
      et_cli_json_uint (s, "threads", p->n_threads);
      g_string_append_c (s, '}');
    }
  g_string_append_c (s, ']');

  et_cli_json_key (s, "threads");
  g_string_append_c (s, '[');
  for (guint i = 0; i < n_threads; i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);

      et_cli_json_sep (s);
      g_string_append_c (s, '{');
      json_id (s, "pid", t->has_ids, t->pid);
      json_id (s, "tid", t->has_ids, t->tid);
      et_cli_json_string (s, "name", t->name);
      et_cli_json_uint (s, "events", t->n_events);
      et_cli_json_uint (s, "samples", t->n_samples);
      if (et_trace_has_cswitches (trace))
        et_cli_json_int (s, "on_cpu_ns", et_trace_thread_on_cpu_ns (trace, i));
      g_string_append_c (s, '}');
    }
  g_string_append_c (s, ']');
}

static void
json_damage (GString *s, EtTrace *trace)
{
  const EtDamage *damage;
  guint n_damage = 0;

  damage = et_trace_get_damage (trace, &n_damage);
  et_cli_json_key (s, "damage");
  g_string_append_c (s, '{');
  et_cli_json_uint (s, "count", et_trace_get_stats (trace)->damage_count);
  et_cli_json_key (s, "messages");
  g_string_append_c (s, '[');
  for (guint i = 0; i < n_damage; i++)
    {
      et_cli_json_sep (s);
      g_string_append_c (s, '{');
      et_cli_json_uint (s, "offset", damage[i].offset);
      et_cli_json_string (s, "message", damage[i].message);
      g_string_append_c (s, '}');
    }
  g_string_append (s, "]}");
}

/* ---- the command ------------------------------------------------------ */

static int
run_parsed (const char *path, const char *format_name)
{
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  EtCliFormat format;
  EtCliOut out;

  if (!et_cli_parse_format (format_name, ET_CLI_FORMAT_TEXT | ET_CLI_FORMAT_JSON,
                            &format, &error))
    {
      et_cli_error ("info: %s", error->message);
      return ET_CLI_EXIT_FAILURE;
    }
  trace = et_cli_load (path, ET_LOAD_DEFAULT);
  if (trace == NULL)
    return ET_CLI_EXIT_FAILURE;

  et_cli_out_init (&out, stdout);
  if (format == ET_CLI_FORMAT_JSON)
    {
      g_string_append_c (out.line, '{');
      json_header (out.line, trace);
      json_providers (out.line, trace);
      json_threads (out.line, trace);
      json_damage (out.line, trace);
      g_string_append_c (out.line, '}');
      et_cli_out_end_line (&out, NULL);
    }
  else
    {
      text_header (out.line, trace);
      text_providers (out.line, trace);
      text_threads (out.line, trace);
      text_losses (out.line, trace);
    }
  return et_cli_finish (trace, &out);
}

int
et_cli_info_run (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *format_name = NULL;
  const char *path = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      /* Translators: text and json are option values; keep them. */
      N_("Output format: text (default) or json"), N_("FORMAT") },
    { NULL }
  };

  context = g_option_context_new (N_("FILE"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Describes FILE: its header, providers, processes and threads, lost\n"
       "events and buffers, and any damage found while reading it."));

  status = et_cli_parse_command (context, "info", &argc, &argv, &path);
  if (status < 0)
    status = run_parsed (path, format_name);
  return status;
}
