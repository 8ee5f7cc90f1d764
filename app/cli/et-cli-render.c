/* et-cli-render.c — "etlscope-cli render FILE -o OUT.png|svg|pdf".
 *
 *   EtTrace ─ EtLayout (+ the marker filters) ─ EtViewport (from the options)
 *           ─ render/ ─ file
 *
 * The filters go into the layout exactly as the window's filter popover
 * puts them there (hidden providers, kinds, minimum importance), plus
 * hidden channel rows for --pid and --tid; so the picture is what the
 * window shows with the same filters.
 */
#include "et-cli-render.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-timeline-render.h"
#include "et-i18n.h"
#include "et-trace-cpu.h"

typedef struct
{
  char    *output;
  char    *from;
  char    *to;
  char    *theme;
  int      width;
  char    *height;       /* "auto" (NULL) or pixels */
  gboolean wall_clock;
  gboolean legend;
  gboolean expand;
  gboolean collapse;
  gboolean compact;
  gboolean active;
} RenderOptions;

/* The tallest picture --height auto makes (cairo's images stop at 32767). */
#define MAX_HEIGHT 20000

/* "net.4.5.2.x64.etl · 9.800 s – 10.300 s": what the picture shows. */
static char *
caption_of (const char *path, const EtViewport *v)
{
  g_autofree char *name = g_filename_display_basename (path);
  g_autoptr(GString) from = g_string_new (NULL);
  g_autoptr(GString) to = g_string_new (NULL);

  et_format_time_display (v->from_ns, from);
  et_format_time_display (v->to_ns, to);
  /* Translators: a rendered picture's caption: the file, then the time
     range it shows */
  return g_strdup_printf (_("%s · %s – %s"), name, from->str, to->str);
}

void
et_cli_render_apply_filter (EtLayout *layout, EtTrace *trace, const EtCliFilter *filter)
{
  guint n_providers = et_trace_get_n_providers (trace);
  guint n_channels = et_trace_get_n_channels (trace);

  for (guint p = 0; p < n_providers; p++)
    if (!et_cli_filter_provider (filter, p))
      et_layout_set_provider_visible (layout, p, FALSE);
  et_layout_set_kinds (layout, filter->kinds);
  et_layout_set_min_importance (layout, filter->min_importance);
  for (guint c = 0; c < n_channels; c++)
    {
      const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, c));

      if (!et_cli_filter_thread (filter, thread->pid, thread->tid, thread->has_ids))
        et_layout_set_channel_visible (layout, c, FALSE);
    }
}

/* "auto" (or nothing): 0; else the pixels, or -1 when it is neither. */
static int
parse_height (const char *text)
{
  guint64 px;

  if (text == NULL || g_str_equal (text, "auto"))
    return 0;
  if (!g_ascii_string_to_unsigned (text, 10, 100, 20000, &px, NULL))
    return -1;
  return (int) px;
}

/* Lays out threads as asked, sizes an automatic height to every row, and
 * returns what the picture says about the rows a fixed one leaves out (or
 * NULL). */
static char *
fit_rows (EtLayout *layout, EtViewport *v, const RenderOptions *o)
{
  guint below;

  if (o->expand || o->collapse)
    et_layout_set_all_threads_collapsed (layout, o->collapse);
  if (o->compact)
    v->lane_height = ET_LANE_HEIGHT_COMPACT;
  et_layout_set_compact (layout, o->compact);
  et_layout_set_active_range (layout, v->from_ns, v->to_ns);
  et_layout_set_active_only (layout, o->active);
  et_layout_update (layout, v->lane_height);
  if (parse_height (o->height) == 0)
    v->height = CLAMP (v->ruler_height + et_layout_height (layout) + 1, 100, MAX_HEIGHT);
  if (et_timeline_rows_below (layout, v, 0) == 0)
    return NULL;
  below = et_timeline_rows_below (layout, v, v->height - ET_TIMELINE_NOTE_HEIGHT);
  /* Translators: written at the bottom of a picture too short for its
     rows; --height auto and --collapse are options, keep them. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u more row below: --height auto or --collapse shows it",
                                       "%u more rows below: --height auto or --collapse shows them",
                                       below), below);
}

static gboolean
any_cpu_data (EtTrace *trace)
{
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_trace_thread_cpu_source (trace, t) != ET_CPU_NONE)
      return TRUE;
  return FALSE;
}

static int
render (const char *path, RenderOptions *o, EtCliFilter *filter)
{
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtLayout) layout = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *note = NULL;
  g_autofree char *caption = NULL;
  EtLegendLabels labels;
  EtViewport v;

  et_viewport_init (&v, o->width, MAX (parse_height (o->height), 100));
  v.wall_clock = o->wall_clock;
  if (!et_viewport_set_theme (&v, o->theme != NULL ? o->theme : "light"))
    {
      /* Translators: light, dark, high-contrast and high-contrast-dark
         are option values; keep them. */
      et_cli_error (_("render: --theme must be light, dark, high-contrast or "
                      "high-contrast-dark, not '%s'"), o->theme);
      return ET_CLI_EXIT_FAILURE;
    }
  trace = et_cli_load (path, filter->all_providers ? ET_LOAD_ALL_PROVIDERS : ET_LOAD_DEFAULT);
  if (trace == NULL)
    return ET_CLI_EXIT_FAILURE;
  et_cli_filter_resolve (filter, trace);
  v.from_ns = 0;
  v.to_ns = MAX (et_trace_get_duration_ns (trace), 1);
  if ((o->from && !et_cli_parse_time (o->from, &v.from_ns, &error))
      || (o->to && !et_cli_parse_time (o->to, &v.to_ns, &error)))
    {
      et_cli_error ("render: %s", error->message);
      return ET_CLI_EXIT_FAILURE;
    }
  if (v.to_ns <= v.from_ns)
    {
      et_cli_error (_("render: --to must come after --from"));
      return ET_CLI_EXIT_FAILURE;
    }
  layout = et_layout_new (trace);
  et_cli_render_apply_filter (layout, trace, filter);
  note = fit_rows (layout, &v, o);
  if (o->legend)
    {
      caption = caption_of (path, &v);
      et_i18n_legend_labels (&labels);
      /* A picture explains the CPU-use band only when it can show one. */
      if (!any_cpu_data (trace))
        labels.threads = NULL;
    }
  if (!et_timeline_render_file_full (trace, layout, &v, note, caption, o->legend ? &labels : NULL,
                                     o->output, &error))
    {
      et_cli_error ("render: %s", error->message);
      return ET_CLI_EXIT_FAILURE;
    }
  return et_cli_finish (trace, NULL);
}

int
et_cli_render_run (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  RenderOptions o = { NULL, NULL, NULL, NULL, 1600, NULL, FALSE, TRUE, FALSE, FALSE };
  EtCliFilter filter;
  GOptionGroup *group;
  const char *path = NULL;
  int status;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
      N_("Picture to write: .png, .svg or .pdf"), N_("OUT") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o.from, N_("Left edge (default: start of trace)"), N_("TIME") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, N_("Right edge (default: end of trace)"), N_("TIME") },
    { "width", 0, 0, G_OPTION_ARG_INT, &o.width, N_("Width in pixels (default 1600)"), N_("PX") },
    { "height", 0, 0, G_OPTION_ARG_STRING, &o.height,
      N_("Height in pixels, or auto (default): tall enough for every row"), N_("PX|auto") },
    { "expand", 0, 0, G_OPTION_ARG_NONE, &o.expand, N_("Every thread expanded: a row per series"),
      NULL },
    { "collapse", 0, 0, G_OPTION_ARG_NONE, &o.collapse,
      N_("Every thread collapsed: its markers merged in one row"), NULL },
    { "compact", 0, 0, G_OPTION_ARG_NONE, &o.compact,
      N_("Compact rows: lower lanes, a collapsed thread's markers in one lane"), NULL },
    { "active", 0, 0, G_OPTION_ARG_NONE, &o.active,
      N_("Only the threads alive in the range (from their first marker to the latest end)"), NULL },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &o.theme,
      /* Translators: light, dark, high-contrast and high-contrast-dark
         are option values; keep them. */
      N_("light (default), dark, high-contrast or high-contrast-dark"), N_("THEME") },
    { "wall-clock", 0, 0, G_OPTION_ARG_NONE, &o.wall_clock, N_("Ruler in wall-clock time"), NULL },
    { "no-legend", 0, G_OPTION_FLAG_REVERSE, G_OPTION_ARG_NONE, &o.legend,
      N_("No caption and legend under the timeline (they are drawn by default)"), NULL },
    { NULL }
  };

  et_cli_filter_init (&filter);
  context = g_option_context_new (N_("FILE"));
  group = et_cli_filter_group_new (&filter, "render", ET_CLI_FILTER_VIEW);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Draws the timeline of FILE (rows per process, thread and series; spans,\n"
       "flags and messages; threads with more than three series collapsed) into\n"
       "a PNG, SVG or PDF file, tall enough for every row unless --height says."));
  status = et_cli_parse_command (context, "render", &argc, &argv, &path);
  if (status < 0 && o.output == NULL)
    {
      et_cli_error (_("render: say where to write the picture with -o OUT.png|svg|pdf"));
      status = ET_CLI_EXIT_FAILURE;
    }
  else if (status < 0 && (o.width < 300 || o.width > 20000 || parse_height (o.height) < 0))
    {
      et_cli_error (_("render: the picture must be 300–20000 × 100–20000 pixels"));
      status = ET_CLI_EXIT_FAILURE;
    }
  else if (status < 0 && o.expand && o.collapse)
    {
      et_cli_error (_("render: --expand and --collapse contradict each other"));
      status = ET_CLI_EXIT_FAILURE;
    }
  else if (status < 0)
    status = render (path, &o, &filter);
  g_free (o.output);
  g_free (o.from);
  g_free (o.to);
  g_free (o.theme);
  g_free (o.height);
  et_cli_filter_clear (&filter);
  return status;
}
