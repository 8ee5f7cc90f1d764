/* et-cli-options.h — command-line parsing shared by the etlscope-cli
 * commands: output formats, times with units, and the event/marker filters.
 *
 *   argv ─ GOptionContext (+ EtCliFilter group) ─ FILE
 *   EtCliFilter ─ et_cli_filter_resolve (trace) ─ per-provider/thread tests
 */
#pragma once

#include <glib.h>
#include "et-trace.h"

G_BEGIN_DECLS

typedef enum
{
  ET_CLI_FORMAT_TEXT  = 1 << 0,
  ET_CLI_FORMAT_JSON  = 1 << 1,
  ET_CLI_FORMAT_JSONL = 1 << 2,
  ET_CLI_FORMAT_CSV   = 1 << 3,
} EtCliFormat;

/* NULL means text. @allowed is a mask of EtCliFormat. */
gboolean et_cli_parse_format (const char   *text,
                              guint         allowed,
                              EtCliFormat  *format,
                              GError      **error);

/* "1500", "1500ns", "1.5us", "1.5ms", "2s", "-3ms": nanoseconds. */
gboolean et_cli_parse_time   (const char   *text,
                              gint64       *ns,
                              GError      **error);

typedef enum
{
  ET_CLI_FILTER_EVENTS  = 0,
  ET_CLI_FILTER_MARKERS = 1,   /* adds --kind, --min-importance, --all-providers */
  ET_CLI_FILTER_STATS   = 2,   /* the markers' filters; --from/--to bound starts, [from, to),
                                  and --format is text, json or csv */
  ET_CLI_FILTER_VIEW    = 3,   /* the markers' filters without --from/--to (render: the
                                  command's own --from/--to are the picture's edges) */
} EtCliFilterUse;

typedef struct
{
  GPtrArray   *providers;      /* char *: names or GUIDs as given */
  GArray      *pids;           /* guint32 */
  GArray      *tids;           /* guint32 */
  gint64       from_ns;
  gint64       to_ns;
  guint        kinds;          /* 1 << EtMarkerKind; 0 selects every kind */
  EtImportance min_importance;
  gboolean     all_providers;
  gboolean     stacks;         /* events: each event's call stack (--stacks) */
  EtCliFilterUse use;
  guint8      *provider_on;    /* after resolve: per provider index; NULL = all */
  guint        n_provider_on;
} EtCliFilter;

void          et_cli_filter_init      (EtCliFilter    *filter);
void          et_cli_filter_clear     (EtCliFilter    *filter);
/* A group whose user data is @filter, holding the filter options; add the
 * command's own entries to it and make it the context's main group. */
GOptionGroup *et_cli_filter_group_new (EtCliFilter    *filter,
                                       const char     *command,
                                       EtCliFilterUse  use);
/* FALSE (after saying why on stderr) when the options contradict. */
gboolean      et_cli_filter_check     (const EtCliFilter *filter,
                                       const char     *command);
/* Matches --provider against the trace's providers; warns on stderr about
 * names that match nothing or that are off without --all-providers. */
void          et_cli_filter_resolve   (EtCliFilter    *filter,
                                       EtTrace        *trace);
gboolean      et_cli_filter_thread    (const EtCliFilter *filter,
                                       guint32         pid,
                                       guint32         tid,
                                       gboolean        has_ids);

/* Whether the markers of @channel may pass: its provider and thread. */
gboolean      et_cli_filter_channel   (const EtCliFilter *filter,
                                       EtTrace        *trace,
                                       guint           channel);
/* Whether one marker passes --kind and --min-importance (not the times:
 * each command reads --from and --to its own way). */
static inline gboolean
et_cli_filter_marker (const EtCliFilter *filter,
                      const EtMarker    *m)
{
  return (filter->kinds == 0 || (filter->kinds & (1u << m->kind)) != 0)
         && m->importance >= filter->min_importance;
}

static inline gboolean
et_cli_filter_provider (const EtCliFilter *filter,
                        guint              provider)
{
  return filter->provider_on == NULL
         || (provider < filter->n_provider_on && filter->provider_on[provider]);
}

/* Parses @argv (GOption strips what it knows) and expects exactly one FILE.
 * Returns -1 and sets @path on success, else the exit status (after
 * printing the problem). */
/* Runs a command that takes FILE, --format (text, jsonl or csv; for
 * ET_CLI_FILTER_STATS text, json or csv) and the filters of @use: parses and checks the command line, loads FILE and calls
 * @run with the trace. */
typedef int (*EtCliFilteredRun) (EtTrace           *trace,
                                 EtCliFormat        format,
                                 const EtCliFilter *filter);
int           et_cli_run_filtered     (int             argc,
                                       char          **argv,
                                       const char     *command,
                                       const char     *summary,
                                       EtCliFilterUse  use,
                                       EtCliFilteredRun run);

int           et_cli_parse_command    (GOptionContext *context,
                                       const char     *command,
                                       int            *argc,
                                       char         ***argv,
                                       const char    **path);

G_END_DECLS
