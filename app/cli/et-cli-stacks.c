/* et-cli-stacks.c — "etlscope-cli stacks FILE [--from --to --pid --tid
 * --marker N] --format=collapsed|speedscope|json".
 *
 *   EtTrace ─ threads (filters) × [from, to] ─ et_call_tree_new ─ collapsed | json
 *          └ each thread's samples in time order ────────────────── speedscope
 *
 * collapsed: Brendan Gregg's folded stacks, one line per distinct stack,
 * `Process (pid);Thread (tid);root;…;leaf COUNT` (flamegraph.pl, inferno,
 * speedscope read it); lines in the call tree's order (most samples
 * first). A frame name's ';' (the separator) is written as ':'.
 * speedscope: https://www.speedscope.app/file-format-schema.json, one
 * "sampled" profile per thread, a sample per CPU sample in time order
 * (weight 1, unit "none"), frames root first.
 * json: {"samples": N, "tree": node} where each node is {"name",
 * "inclusive", "exclusive", "children": […]}, children most inclusive first.
 * Samples count in [--from, --to], both ends included.
 */
#include "et-cli-stacks.h"
#include "et-cli-markers.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-call-tree.h"
#include "et-i18n.h"
#include "et-trace-stacks.h"

#include <string.h>

typedef enum
{
  FORMAT_COLLAPSED,
  FORMAT_SPEEDSCOPE,
  FORMAT_JSON,
} Format;

/* ---- which samples ---------------------------------------------------- */

/* The threads the filters (or the marker) leave. */
static GArray *
chosen_threads (EtTrace *trace, const EtCliFilter *filter, gint marker_thread)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EtCallThread));
  guint n = et_trace_get_n_threads (trace);

  for (guint i = 0; i < n; i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);
      EtCallThread c = { i, t->pid, t->tid };

      if (marker_thread >= 0 ? (guint) marker_thread == i
                             : et_cli_filter_thread (filter, t->pid, t->tid, t->has_ids))
        g_array_append_val (out, c);
    }
  return out;
}

/* ---- collapsed -------------------------------------------------------- */

static void
append_folded_name (const EtCallTree *tree, guint node, GString *s)
{
  gsize from = s->len;

  et_call_tree_append_name (tree, node, s);
  for (gsize i = from; i < s->len; i++)
    if (s->str[i] == ';' || s->str[i] == '\n' || s->str[i] == '\r')
      s->str[i] = s->str[i] == ';' ? ':' : ' ';
}

/* Depth first, without recursion (a damaged stack may be very deep): each
 * level keeps its children and where the path's text ended at it. */
typedef struct
{
  GArray *children;
  guint   next;
  gsize   path_len;
} Level;

static void
walk_start (const EtCallTree *tree, GArray *levels)
{
  Level root = { et_call_tree_children (tree, 0), 0, 0 };

  g_array_append_val (levels, root);
}

/* The walk's next node into *node, its level pushed (set its path_len);
 * *closed says how many levels were left before it (their ends). FALSE
 * at the end. */
static gboolean
walk_next (const EtCallTree *tree, GArray *levels, guint *node, guint *closed)
{
  Level down = { NULL, 0, 0 };

  *closed = 0;
  while (levels->len > 0)
    {
      Level *l = &g_array_index (levels, Level, levels->len - 1);

      if (l->next < l->children->len)
        {
          *node = g_array_index (l->children, guint, l->next++);
          down.children = et_call_tree_children (tree, *node);
          down.path_len = l->path_len;
          g_array_append_val (levels, down);
          return TRUE;
        }
      g_array_unref (l->children);
      g_array_set_size (levels, levels->len - 1);
      (*closed)++;
    }
  return FALSE;
}

static void
write_collapsed (EtCliOut *out, const EtCallTree *tree)
{
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (Level));
  g_autoptr(GString) path = g_string_new (NULL);
  guint node, closed;

  walk_start (tree, levels);
  while (walk_next (tree, levels, &node, &closed))
    {
      Level *l = &g_array_index (levels, Level, levels->len - 1);

      g_string_truncate (path, l->path_len);
      if (path->len > 0)
        g_string_append_c (path, ';');
      append_folded_name (tree, node, path);
      l->path_len = path->len;
      if (et_call_tree_node (tree, node)->exclusive > 0)
        {
          g_string_append_len (out->line, path->str, (gssize) path->len);
          g_string_append_c (out->line, ' ');
          et_string_append_uint (out->line, et_call_tree_node (tree, node)->exclusive);
          et_cli_out_end_line (out, NULL);
        }
    }
}

/* ---- json ------------------------------------------------------------- */

static void
open_json_node (GString *s, const EtCallTree *tree, guint node)
{
  const EtCallNode *n = et_call_tree_node (tree, node);
  g_autoptr(GString) name = g_string_new (NULL);

  et_call_tree_append_name (tree, node, name);
  g_string_append_c (s, '{');
  et_cli_json_string (s, "name", name->str);
  et_cli_json_uint (s, "inclusive", n->inclusive);
  et_cli_json_uint (s, "exclusive", n->exclusive);
  et_cli_json_key (s, "children");
  g_string_append_c (s, '[');
}

static void
write_json (EtCliOut *out, const EtCallTree *tree)
{
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (Level));
  GString *s = out->line;
  guint node, closed = 0;

  g_string_append_c (s, '{');
  et_cli_json_uint (s, "samples", et_call_tree_node (tree, 0)->inclusive);
  et_cli_json_key (s, "tree");
  open_json_node (s, tree, 0);
  walk_start (tree, levels);
  while (walk_next (tree, levels, &node, &closed))
    {
      /* a node closes its own level before its next sibling; nothing is
       * closed before a first child */
      for (guint i = 0; i < closed; i++)
        g_string_append (s, "]}");
      if (closed > 0)
        g_string_append_c (s, ',');
      et_cli_out_end_line (out, NULL);
      open_json_node (s, tree, node);
    }
  for (guint i = 0; i < closed; i++)
    g_string_append (s, "]}");
  g_string_append_c (s, '}');
  et_cli_out_end_line (out, NULL);
}

/* ---- speedscope ------------------------------------------------------- */

/* The speedscope frame index of @symbol, added to "shared.frames" once. */
static guint
speedscope_frame (GHashTable *index, GArray *order, guint32 symbol)
{
  gpointer at;

  if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (symbol), NULL, &at))
    return GPOINTER_TO_UINT (at);
  g_array_append_val (order, symbol);
  g_hash_table_insert (index, GUINT_TO_POINTER (symbol), GUINT_TO_POINTER (order->len - 1));
  return order->len - 1;
}

/* One thread's profile: its samples in [from, to], frames root first. */
static void
write_profile (EtCliOut *out, EtTrace *trace, const EtCallThread *t, gint64 from, gint64 to,
               GHashTable *index, GArray *order)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GArray) symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *name = g_strdup_printf ("Process (%u) Thread (%u)", t->pid, t->tid);
  GString *s = out->line;
  const gint64 *ns;
  const guint32 *nodes;
  guint n = et_stacks_thread_samples (stacks, t->thread, &ns, &nodes), k = 0;

  g_string_append_c (s, '{');
  et_cli_json_string (s, "type", "sampled");
  et_cli_json_string (s, "name", name);
  et_cli_json_string (s, "unit", "none");
  et_cli_json_int (s, "startValue", 0);
  et_cli_json_key (s, "samples");
  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      if (ns[i] < from || ns[i] > to)
        continue;
      g_array_set_size (symbols, 0);
      et_stacks_node_symbols (stacks, nodes[i], ns[i], symbols);
      g_string_append (s, k++ > 0 ? ",[" : "[");
      for (guint f = 0; f < symbols->len; f++)
        {
          if (f > 0)
            g_string_append_c (s, ',');
          et_string_append_uint (s, speedscope_frame (index, order,
                                                      g_array_index (symbols, guint32, f)));
        }
      g_string_append_c (s, ']');
      et_cli_out_end_line (out, NULL);
    }
  g_string_append (s, "],\"weights\":[");
  for (guint i = 0; i < k; i++)
    g_string_append (s, i > 0 ? ",1" : "1");
  g_string_append_c (s, ']');
  et_cli_json_int (s, "endValue", k);
  g_string_append_c (s, '}');
}

/* Whether thread @t has a sample in [from, to]. */
static gboolean
has_samples (EtStacks *stacks, const EtCallThread *t, gint64 from, gint64 to)
{
  const gint64 *ns;
  const guint32 *nodes;
  guint n = et_stacks_thread_samples (stacks, t->thread, &ns, &nodes);

  for (guint i = 0; i < n; i++)
    if (ns[i] >= from && ns[i] <= to)
      return TRUE;
  return FALSE;
}

static void
write_speedscope (EtCliOut *out, EtTrace *trace, GArray *threads, gint64 from, gint64 to)
{
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *base = g_path_get_basename (et_trace_get_path (trace));
  GString *s = out->line;

  g_string_append_c (s, '{');
  et_cli_json_string (s, "$schema", "https://www.speedscope.app/file-format-schema.json");
  et_cli_json_string (s, "exporter", "etlscope-cli");
  et_cli_json_string (s, "name", base);
  et_cli_json_int (s, "activeProfileIndex", 0);
  et_cli_json_key (s, "profiles");
  g_string_append_c (s, '[');
  for (guint i = 0, k = 0; i < threads->len; i++)
    {
      const EtCallThread *t = &g_array_index (threads, EtCallThread, i);

      if (!has_samples (et_trace_get_stacks (trace), t, from, to))
        continue;                         /* (a profile per thread that has samples) */
      if (k++ > 0)
        g_string_append_c (s, ',');
      et_cli_out_end_line (out, NULL);
      write_profile (out, trace, t, from, to, index, order);
    }
  g_string_append (s, "],\"shared\":{\"frames\":[");
  for (guint i = 0; i < order->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, '{');
      et_cli_json_string (s, "name", et_stacks_name (et_trace_get_stacks (trace),
                                                     g_array_index (order, guint32, i)));
      g_string_append_c (s, '}');
      et_cli_out_end_line (out, NULL);
    }
  g_string_append (s, "]}}");
  et_cli_out_end_line (out, NULL);
}

/* ---- the command ------------------------------------------------------ */

typedef struct
{
  Format   format;
  guint64  marker;     /* 0: none */
} Options;

static gboolean
parse_format (const char *text, Format *format)
{
  if (text == NULL || strcmp (text, "collapsed") == 0)
    *format = FORMAT_COLLAPSED;
  else if (strcmp (text, "speedscope") == 0)
    *format = FORMAT_SPEEDSCOPE;
  else if (strcmp (text, "json") == 0)
    *format = FORMAT_JSON;
  else
    return FALSE;
  return TRUE;
}

/* The marker's thread and time into @thread, @from and @to; FALSE (said
 * on stderr) when there is no such marker. */
static gboolean
marker_range (EtTrace *trace, guint64 n, gint *thread, gint64 *from, gint64 *to)
{
  EtCliFilter all;
  const EtMarker *m;

  et_cli_filter_init (&all);
  all.use = ET_CLI_FILTER_MARKERS;
  m = et_cli_markers_nth (trace, &all, n);
  et_cli_filter_clear (&all);
  if (m == NULL)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

      et_cli_error (_("stacks: --marker %s: the trace has fewer markers"), number);
      return FALSE;
    }
  *thread = (gint) et_trace_channel_thread (trace, et_trace_marker_channel (trace, m));
  *from = m->start_ns;
  *to = m->end_ns;
  return TRUE;
}

static int
write_stacks (EtTrace *trace, const Options *o, const EtCliFilter *filter)
{
  g_autoptr(GArray) threads = NULL;
  gint64 from = filter->from_ns, to = filter->to_ns;
  gint thread = -1;
  EtCliOut out;

  if (et_trace_get_stacks (trace) == NULL)
    {
      et_cli_error (_("stacks: %s: the stacks were not read (ETLSCOPE_NO_STACKS is set)"),
                    et_trace_get_path (trace));
      return ET_CLI_EXIT_FAILURE;
    }
  if (o->marker > 0 && !marker_range (trace, o->marker, &thread, &from, &to))
    return ET_CLI_EXIT_FAILURE;
  threads = chosen_threads (trace, filter, thread);
  et_cli_out_init (&out, stdout);
  if (o->format == FORMAT_SPEEDSCOPE)
    write_speedscope (&out, trace, threads, from, to);
  else
    {
      gint64 since = g_get_monotonic_time ();
      g_autoptr(EtCallTree) tree = et_call_tree_new (et_trace_get_stacks (trace),
                                                     (const EtCallThread *) (gconstpointer) threads->data,
                                                     threads->len, from, to, NULL);

      if (g_getenv ("ETLSCOPE_TIMING") != NULL)
        g_printerr ("etlscope: call tree %8.1f ms  %u nodes\n",
                    (g_get_monotonic_time () - since) / 1000.0, et_call_tree_n_nodes (tree));

      if (o->format == FORMAT_JSON)
        write_json (&out, tree);
      else
        write_collapsed (&out, tree);
    }
  return et_cli_finish (trace, &out);
}

int
et_cli_stacks_run (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *format_name = NULL;
  gint64 marker = 0;
  EtCliFilter filter;
  Options o = { FORMAT_COLLAPSED, 0 };
  const char *path = NULL;
  GOptionGroup *group;
  int status;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      /* Translators: collapsed, speedscope and json are option values; keep them. */
      N_("Output format: collapsed (default; folded stacks), speedscope or json (the call tree)"),
      N_("FORMAT") },
    { "marker", 0, 0, G_OPTION_ARG_INT64, &marker,
      N_("Only the samples of marker N's thread and time (N as 'markers' numbers its lines, "
         "1 = the first)"), "N" },
    { NULL }
  };

  et_cli_filter_init (&filter);
  context = g_option_context_new (N_("FILE"));
  group = et_cli_filter_group_new (&filter, "stacks", ET_CLI_FILTER_EVENTS);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                N_("Writes the call stacks of the CPU samples of FILE (from --from to\n"
                                   "--to, both included; of the threads --pid and --tid choose, or of\n"
                                   "marker N's thread and time), named from the trace's own method,\n"
                                   "module and image events."));
  status = et_cli_parse_command (context, "stacks", &argc, &argv, &path);
  if (status < 0 && (!parse_format (format_name, &o.format) || marker < 0))
    {
      et_cli_error (marker < 0 ? _("stacks: --marker takes a number from 1")
                               : _("stacks: unknown format '%s' (collapsed, speedscope or json)"),
                    format_name);
      status = ET_CLI_EXIT_FAILURE;
    }
  if (status < 0 && !et_cli_filter_check (&filter, "stacks"))
    status = ET_CLI_EXIT_FAILURE;
  if (status < 0)
    {
      g_autoptr(EtTrace) trace = et_cli_load (path, ET_LOAD_DEFAULT);

      o.marker = (guint64) marker;
      if (trace == NULL)
        status = ET_CLI_EXIT_FAILURE;
      else
        {
          et_cli_filter_resolve (&filter, trace);
          status = write_stacks (trace, &o, &filter);
        }
    }
  et_cli_filter_clear (&filter);
  return status;
}
