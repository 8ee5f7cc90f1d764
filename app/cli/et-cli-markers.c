/* et-cli-markers.c — "etlscope-cli markers".
 *
 *   EtTrace channels ─ filter ─ rows (marker + thread) ─ sort ─ one line each
 *
 * The order and the columns are the contract in docs/markers.md
 * ("Machine-readable markers"): by time (start of a span, time of a flag or
 * message, end of a lone end), then pid, tid and file order. The model keeps
 * markers per channel and not the start event's descriptor, so each written
 * marker has its event decoded again; that costs in proportion to what is
 * written, never to the size of the trace. Many lines are made on every
 * core, a stretch of rows per thread, and written in order.
 */
#include "et-cli-markers.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-i18n.h"
#include "et-workers.h"
#include "et-trace-decode.h"

#include <stdlib.h>

typedef struct
{
  gint64          time;
  guint32         pid;
  guint32         tid;
  guint32         event;
  const EtMarker *marker;
} Row;

/* One marker with every column resolved, whatever the format. */
typedef struct
{
  const EtMarker *m;
  gboolean        has_start;
  gboolean        has_end;
  guint32         pid;
  guint32         tid;
  gboolean        has_end_tid;
  guint32         end_tid;
  const char     *series;
  const char     *text;
  gboolean        has_span_id;
  gint64          span_id;
  const char     *provider;
  const char     *provider_guid;
  const EtEvent  *event;
} Line;

typedef struct
{
  EtTrace      *trace;
  EtCliFormat   format;
  EtCliOut      out;
  EtEvent       event;
  EtFields     *fields;
  EtRuleResult  rules;
  char        (*guids)[ET_GUID_STRING_LEN];  /* per provider index */
} Writer;

static const char *const columns[] = {
  "kind", "start_ns", "end_ns", "pid", "tid", "end_tid", "importance", "category",
  "series", "text", "span_id", "status", "depth", "provider", "provider_guid",
  "event", "event_id", "level", "opcode", "task",
};

static int
compare_rows (gconstpointer pa, gconstpointer pb)
{
  const Row *a = pa, *b = pb;

  if (a->time != b->time)
    return a->time < b->time ? -1 : 1;
  if (a->pid != b->pid)
    return a->pid < b->pid ? -1 : 1;
  if (a->tid != b->tid)
    return a->tid < b->tid ? -1 : 1;
  if (a->event != b->event)
    return a->event < b->event ? -1 : 1;
  return 0;
}

static GArray *
gather_rows (EtTrace *trace, const EtCliFilter *filter)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Row));
  guint n_channels = et_trace_get_n_channels (trace);

  for (guint c = 0; c < n_channels; c++)
    {
      const EtChannel *channel = et_trace_get_channel (trace, c);
      const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, c));

      if (!et_cli_filter_channel (filter, trace, c))
        continue;
      for (guint i = 0; i < channel->n_markers; i++)
        {
          const EtMarker *m = &channel->markers[i];
          Row row = { m->start_ns, thread->pid, thread->tid, m->event, m };

          if (et_cli_filter_marker (filter, m)
              && et_marker_overlaps (m, filter->from_ns, filter->to_ns))
            g_array_append_val (rows, row);
        }
    }
  if (rows->len > 1)
    qsort (rows->data, rows->len, sizeof (Row), compare_rows);
  return rows;
}

/* The @n-th marker (1 = the first) that "markers" writes with @filter, or
 * NULL when there are fewer. */
const EtMarker *
et_cli_markers_nth (EtTrace *trace, const EtCliFilter *filter, guint64 n)
{
  g_autoptr(GArray) rows = gather_rows (trace, filter);

  return n >= 1 && n <= rows->len ? g_array_index (rows, Row, n - 1).marker : NULL;
}

/* ---- one marker ------------------------------------------------------- */

static void
resolve_line (Writer *w, const Row *row, Line *line)
{
  const EtMarker *m = row->marker;
  gboolean is_span = m->kind == ET_MARKER_SPAN;
  guint32 end_thread;

  line->m = m;
  line->has_start = m->status != ET_SPAN_UNMATCHED_END;
  line->has_end = is_span && m->status != ET_SPAN_UNMATCHED_START;
  line->pid = row->pid;
  line->tid = row->tid;
  end_thread = m->status == ET_SPAN_CROSS_THREAD ? et_trace_marker_end_thread (w->trace, m)
                                                 : ET_NO_INDEX;
  line->has_end_tid = end_thread != ET_NO_INDEX;
  line->end_tid = line->has_end_tid ? et_trace_get_thread (w->trace, end_thread)->tid : 0;
  line->series = et_trace_get_string (w->trace, et_trace_marker_series (w->trace, m));
  line->provider = et_trace_get_provider (w->trace, m->provider)->name;
  line->provider_guid = w->guids[m->provider];

  /* The model keeps no texts: the rules run again on the decoded event
   * (with whatever part of a damaged payload decoded, as when loading),
   * giving the text and the cvSpanId. */
  et_trace_decode_event (w->trace, m->event, &w->event, w->fields, NULL);
  et_trace_explain_marker (w->trace, &w->event, w->fields, &w->rules);
  line->text = w->rules.text->str;
  line->has_span_id = w->rules.has_span_id;
  line->span_id = w->rules.span_id;
  line->event = &w->event;
}

/* Unmatched ends carry their own time in start_ns (et-trace.h). */
static gint64
line_end_ns (const Line *line)
{
  return line->m->status == ET_SPAN_UNMATCHED_END ? line->m->start_ns : line->m->end_ns;
}

static void
write_json (GString *s, const Line *l)
{
  const EtMarker *m = l->m;

  g_string_append_c (s, '{');
  et_cli_json_string (s, "kind", et_marker_kind_to_string (m->kind));
  if (l->has_start)
    et_cli_json_int (s, "start_ns", m->start_ns);
  else
    et_cli_json_null (s, "start_ns");
  if (l->has_end)
    et_cli_json_int (s, "end_ns", line_end_ns (l));
  else
    et_cli_json_null (s, "end_ns");
  et_cli_json_uint (s, "pid", l->pid);
  et_cli_json_uint (s, "tid", l->tid);
  if (l->has_end_tid)
    et_cli_json_uint (s, "end_tid", l->end_tid);
  else
    et_cli_json_null (s, "end_tid");
  et_cli_json_string (s, "importance", et_importance_to_string (m->importance));
  et_cli_json_int (s, "category", m->category);
  et_cli_json_string (s, "series", l->series);
  et_cli_json_string (s, "text", l->text);
  if (l->has_span_id)
    et_cli_json_int (s, "span_id", l->span_id);
  else
    et_cli_json_null (s, "span_id");
  et_cli_json_string (s, "status", et_span_status_to_string (m->status));
  et_cli_json_uint (s, "depth", m->depth);
  et_cli_json_string (s, "provider", l->provider);
  et_cli_json_string (s, "provider_guid", l->provider_guid);
  et_cli_json_string (s, "event", l->event->name != NULL ? l->event->name : "");
  et_cli_json_uint (s, "event_id", l->event->id);
  et_cli_json_uint (s, "level", l->event->level);
  et_cli_json_uint (s, "opcode", l->event->opcode);
  et_cli_json_uint (s, "task", l->event->task);
  g_string_append_c (s, '}');
}

static void
csv_int (GString *s, gboolean present, gint64 value)
{
  g_string_append_c (s, ',');
  if (present)
    et_string_append_int (s, value);
}

static void
csv_text (GString *s, const char *value)
{
  g_string_append_c (s, ',');
  et_cli_csv_value (s, value, -1);
}

static void
write_csv (GString *s, const Line *l)
{
  const EtMarker *m = l->m;

  g_string_append (s, et_marker_kind_to_string (m->kind));
  csv_int (s, l->has_start, m->start_ns);
  csv_int (s, l->has_end, line_end_ns (l));
  csv_int (s, TRUE, l->pid);
  csv_int (s, TRUE, l->tid);
  csv_int (s, l->has_end_tid, l->end_tid);
  csv_text (s, et_importance_to_string (m->importance));
  csv_int (s, TRUE, m->category);
  csv_text (s, l->series);
  csv_text (s, l->text);
  csv_int (s, l->has_span_id, l->span_id);
  csv_text (s, et_span_status_to_string (m->status));
  csv_int (s, TRUE, m->depth);
  csv_text (s, l->provider);
  csv_text (s, l->provider_guid);
  csv_text (s, l->event->name);
  csv_int (s, TRUE, l->event->id);
  csv_int (s, TRUE, l->event->level);
  csv_int (s, TRUE, l->event->opcode);
  csv_int (s, TRUE, l->event->task);
}

/* For people: "0.001500000 - 0.002000000  100/200  span  high  Provider/Series  text  (nested)". */
static void
write_text (GString *s, const Line *l)
{
  const EtMarker *m = l->m;
  gsize start = s->len;

  if (l->has_start)
    et_cli_append_seconds (s, m->start_ns);
  else
    g_string_append (s, "?");
  if (m->kind == ET_MARKER_SPAN)
    {
      g_string_append (s, " - ");
      if (l->has_end)
        et_cli_append_seconds (s, line_end_ns (l));
      else
        /* Translators: a span without an end, in "etlscope-cli markers". */
        g_string_append (s, C_("span", "open"));
    }
  et_cli_pad_to (s, start, 30);
  et_string_append_uint (s, l->pid);
  g_string_append_c (s, '/');
  et_string_append_uint (s, l->tid);
  et_cli_pad_to (s, start, 44);
  g_string_append (s, et_marker_kind_to_string (m->kind));
  et_cli_pad_to (s, start, 52);
  g_string_append (s, et_importance_to_string (m->importance));
  et_cli_pad_to (s, start, 61);
  g_string_append (s, *l->provider != '\0' ? l->provider : l->provider_guid);
  if (*l->series != '\0')
    {
      g_string_append_c (s, '/');
      g_string_append (s, l->series);
    }
  g_string_append (s, "  ");
  g_string_append (s, l->text);
  if (m->status != ET_SPAN_OK || m->depth > 0 || l->has_span_id)
    {
      g_string_append (s, "  (");
      g_string_append (s, et_span_status_to_string (m->status));
      if (m->depth > 0)
        {
          g_string_append (s, _(", depth "));
          et_string_append_uint (s, m->depth);
        }
      if (l->has_end_tid)
        {
          g_string_append (s, _(", ends on tid "));
          et_string_append_uint (s, l->end_tid);
        }
      if (l->has_span_id)
        {
          g_string_append (s, _(", span id "));
          et_string_append_int (s, l->span_id);
        }
      g_string_append_c (s, ')');
    }
}

/* ---- the command ------------------------------------------------------ */

/* Rows per stretch: a few megabytes of lines. */
#define STRETCH 8192

/* A stretch of rows, made into lines by one thread. */
typedef struct
{
  Writer     *w;
  const Row  *rows;
  guint       from, to;
  GString    *lines;
} Stretch;

static gpointer
make_lines (gpointer data)
{
  Stretch *st = data;
  const char *eol = st->w->format == ET_CLI_FORMAT_CSV ? ET_CLI_CSV_EOL : "\n";
  Line line;

  et_worker_begin ();
  for (guint i = st->from; i < st->to; i++)
    {
      resolve_line (st->w, &st->rows[i], &line);
      if (st->w->format == ET_CLI_FORMAT_JSONL)
        write_json (st->lines, &line);
      else if (st->w->format == ET_CLI_FORMAT_CSV)
        write_csv (st->lines, &line);
      else
        write_text (st->lines, &line);
      g_string_append (st->lines, eol);
    }
  return NULL;
}

static void
writer_init (Writer *w, EtTrace *trace, EtCliFormat format, char (*guids)[ET_GUID_STRING_LEN])
{
  *w = (Writer) { trace, format };
  w->fields = et_fields_new ();
  et_rule_result_init (&w->rules);
  w->guids = guids;
}

static void
writer_clear (Writer *w)
{
  et_rule_result_clear (&w->rules);
  et_fields_free (w->fields);
}

/* The rows go out in stretches, as many at once as there are threads;
 * each thread decodes with its own Writer, and the lines are written in
 * row order. */
static void
write_rows (Writer *w, GArray *rows)
{
  guint k = et_workers_count (rows->len, 4 * STRETCH);
  g_autofree Writer *writers = g_new0 (Writer, k);
  g_autofree Stretch *stretches = g_new0 (Stretch, k);

  if (w->format == ET_CLI_FORMAT_CSV)
    {
      for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
        {
          if (i > 0)
            g_string_append_c (w->out.line, ',');
          g_string_append (w->out.line, columns[i]);
        }
      et_cli_out_end_line (&w->out, ET_CLI_CSV_EOL);
    }
  for (guint j = 0; j < k; j++)
    {
      if (j > 0)
        writer_init (&writers[j], w->trace, w->format, w->guids);
      stretches[j].w = j == 0 ? w : &writers[j];
      stretches[j].rows = (const Row *) (gpointer) rows->data;
      stretches[j].lines = g_string_sized_new (1 << 20);
    }
  for (guint base = 0; base < rows->len; base += k * STRETCH)
    {
      for (guint j = 0; j < k; j++)
        {
          stretches[j].from = MIN (rows->len, base + j * STRETCH);
          stretches[j].to = MIN (rows->len, base + (j + 1) * STRETCH);
        }
      et_workers_run (stretches, sizeof *stretches, k, make_lines, "etlscope-lines");
      for (guint j = 0; j < k; j++)
        {
          et_cli_out_write (&w->out, stretches[j].lines->str, stretches[j].lines->len);
          g_string_truncate (stretches[j].lines, 0);
        }
    }
  for (guint j = 0; j < k; j++)
    {
      if (j > 0)
        writer_clear (&writers[j]);
      g_string_free (stretches[j].lines, TRUE);
    }
}

static int
write_markers (EtTrace *trace, EtCliFormat format, const EtCliFilter *filter)
{
  g_autoptr(GArray) rows = gather_rows (trace, filter);
  guint n_providers = et_trace_get_n_providers (trace);
  char (*guids)[ET_GUID_STRING_LEN] = g_malloc0_n (MAX (n_providers, 1), ET_GUID_STRING_LEN);
  Writer w;
  int status;

  for (guint i = 0; i < n_providers; i++)
    et_guid_to_string (&et_trace_get_provider (trace, i)->guid, guids[i]);
  writer_init (&w, trace, format, guids);
  et_cli_out_init (&w.out, stdout);

  write_rows (&w, rows);

  status = et_cli_finish (trace, &w.out);
  writer_clear (&w);
  g_free (guids);
  return status;
}


int
et_cli_markers_run (int argc, char **argv)
{
  return et_cli_run_filtered (argc, argv, "markers",
                              N_("Writes the Concurrency Visualizer markers of FILE (flags, messages and\n"
                                 "spans) in time order, one per line."),
                              ET_CLI_FILTER_MARKERS, write_markers);
}
