/* et-cli-events.c — "etlscope-cli events".
 *
 *   EtTrace event index (time order) ─ et_trace_decode_event ─ filter ─ line
 *
 * Every record of the file, decoded again from the mapped file one at a
 * time into one reused EtEvent and EtFields, so memory stays flat however
 * many millions of events are written.
 */
#include "et-cli-events.h"
#include "et-manifest.h"
#include "et-tracelogging.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-i18n.h"
#include "et-trace-decode.h"
#include "et-trace-stacks.h"

/* Payloads that fail to decode are reported one by one up to this many. */
#define MAX_DECODE_NOTES 5

typedef struct
{
  EtTrace      *trace;
  EtCliFormat   format;
  EtCliOut      out;
  char        (*guids)[ET_GUID_STRING_LEN];
  guint64       decode_failures;
  GArray       *symbols;      /* --stacks: a stack's names (guint32), reused; else NULL */
} Writer;

static const char csv_header[] =
  "index,time_ns,pid,tid,cpu,provider,provider_guid,event,id,version,level,opcode,"
  "opcode_name,task,task_name,keywords,activity_id,related_activity_id,fields";

/* "name=value, name=value" with the formatting of markers.md; the
 * derived fields (et-derived.h) after @derived ("; derived: "). */
static void
append_field_pairs (GString *s, const EtFields *fields, const char *derived)
{
  g_autoptr(GString) name = g_string_new (NULL);
  gboolean in_derived = FALSE;

  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      if (et_fields_get (fields, i)->derived && !in_derived)
        {
          in_derived = TRUE;
          g_string_append (s, i == 0 && g_str_has_prefix (derived, "; ") ? derived + 2 : derived);
        }
      else if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, et_fields_unique_name (fields, -1, i, name));
      g_string_append_c (s, '=');
      et_fields_format_value (fields, i, s);
    }
}

static void
json_guid (GString *s, const char *key, gboolean present, const EtGuid *guid)
{
  et_cli_json_key (s, key);
  if (!present || et_guid_is_zero (guid))
    {
      g_string_append (s, "null");
      return;
    }
  g_string_append_c (s, '"');
  et_cli_append_guid (s, guid);
  g_string_append_c (s, '"');
}

/* "field_types": each top-level field's declared type, as its schema
 * spells it: "UInt32", "UInt32/HexInt32" with an out-type, "Struct",
 * "UnicodeString[]" for an array. TraceLogging numbers its types its own
 * way past the types they share with manifests. */
static void
append_field_types (GString *s, const EtFields *fields, EtProviderKind kind)
{
  g_autoptr(GString) name = g_string_new (NULL);
  gboolean tl = kind == ET_PROVIDER_TRACELOGGING;

  et_cli_json_key (s, "field_types");
  g_string_append_c (s, '{');
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      const EtField *f = et_fields_get (fields, i);
      const char *in = tl ? et_tl_in_type_name (f->in_type) : et_manifest_in_type_name (f->in_type);
      const char *out = tl ? et_tl_out_type_name (f->out_type) : et_manifest_out_type_name (f->out_type);
      g_autoptr(GString) type = NULL;

      /* In-type 0 is a manifest's struct, but also the raw payload of an
       * event no schema decoded. */
      if (f->in_type == 0 && f->kind != ET_VALUE_STRUCT)
        in = f->kind == ET_VALUE_BINARY ? "Binary" : f->kind == ET_VALUE_ARRAY && !tl ? "Struct" : NULL;
      type = g_string_new (in != NULL ? in : "Unknown");
      if (f->kind == ET_VALUE_STRUCT && in == NULL)
        g_string_assign (type, "Struct");
      if (out != NULL && f->out_type != 0 && f->kind != ET_VALUE_STRUCT)
        g_string_append_printf (type, "/%s", out);
      if (f->kind == ET_VALUE_ARRAY)
        g_string_append (type, "[]");
      /* The key escaped as "fields" escapes it: a name is file data. */
      et_cli_json_sep (s);
      et_json_append_string (s, et_fields_unique_name (fields, -1, i, name), -1);
      g_string_append_c (s, ':');
      et_json_append_string (s, type->str, (gssize) type->len);
    }
  g_string_append_c (s, '}');
}

/* "derived": {"Name": true, …} for the fields computed rather than read
 * from the payload (et-derived.h); absent when there are none. */
static void
append_derived (GString *s, const EtFields *fields)
{
  g_autoptr(GString) name = g_string_new (NULL);
  gboolean any = FALSE;

  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      if (!et_fields_get (fields, i)->derived)
        continue;
      if (!any)
        {
          et_cli_json_key (s, "derived");
          g_string_append_c (s, '{');
        }
      else
        g_string_append_c (s, ',');
      any = TRUE;
      et_json_append_string (s, et_fields_unique_name (fields, -1, i, name), -1);
      g_string_append (s, ":true");
    }
  if (any)
    g_string_append_c (s, '}');
}

/* "stack": the event's frames, root first (null without one). */
static void
append_stack (Writer *w, GString *s, guint64 index)
{
  EtStacks *stacks = et_trace_get_stacks (w->trace);
  gint64 ns = 0;
  guint32 node = stacks != NULL ? et_trace_event_stack (w->trace, index, &ns) : ET_STACK_NONE;

  et_cli_json_key (s, "stack");
  if (node == ET_STACK_NONE)
    {
      g_string_append (s, "null");
      return;
    }
  g_array_set_size (w->symbols, 0);
  et_stacks_node_symbols (stacks, node, ns, w->symbols);
  g_string_append_c (s, '[');
  for (guint i = 0; i < w->symbols->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      et_json_append_string (s, et_stacks_name (stacks, g_array_index (w->symbols, guint32, i)), -1);
    }
  g_string_append_c (s, ']');
}

static void
write_json (Writer *w, GString *s, guint64 index, const EtEvent *e, const EtFields *fields)
{
  const EtProvider *provider = et_trace_get_provider (w->trace, e->provider);

  g_string_append_c (s, '{');
  et_cli_json_uint (s, "index", index);
  et_cli_json_int (s, "time_ns", e->time_ns);
  if (e->has_ids)
    {
      et_cli_json_uint (s, "pid", e->pid);
      et_cli_json_uint (s, "tid", e->tid);
    }
  else
    {
      et_cli_json_null (s, "pid");
      et_cli_json_null (s, "tid");
    }
  if (e->cpu == ET_CPU_UNKNOWN)
    et_cli_json_null (s, "cpu");
  else
    et_cli_json_uint (s, "cpu", e->cpu);
  et_cli_json_string (s, "provider", provider->name);
  et_cli_json_string (s, "provider_guid", w->guids[e->provider]);
  et_cli_json_string (s, "event", e->name != NULL ? e->name : "");
  et_cli_json_uint (s, "id", e->id);
  et_cli_json_uint (s, "version", e->version);
  et_cli_json_uint (s, "level", e->level);
  et_cli_json_uint (s, "opcode", e->opcode);
  et_cli_json_string (s, "opcode_name", e->opcode_name);
  et_cli_json_uint (s, "task", e->task);
  et_cli_json_string (s, "task_name", e->task_name);
  /* A string: keyword masks use the top bits, past what JSON doubles hold. */
  et_cli_json_key (s, "keywords");
  g_string_append_c (s, '"');
  et_string_append_hex (s, e->keywords);
  g_string_append_c (s, '"');
  json_guid (s, "activity_id", TRUE, &e->activity_id);
  json_guid (s, "related_activity_id", e->has_related_activity_id, &e->related_activity_id);
  et_cli_json_string (s, "header_kind", e->header_kind);
  et_cli_json_uint (s, "offset", e->file_offset);
  if (e->decode_failed)
    et_cli_json_string (s, "decode", "failed");
  et_cli_json_key (s, "fields");
  et_fields_append_json_object (fields, s);
  append_field_types (s, fields, et_trace_get_provider (w->trace, e->provider)->kind);
  append_derived (s, fields);
  if (w->symbols != NULL)
    append_stack (w, s, index);
  g_string_append_c (s, '}');
}

static void
csv_guid (GString *s, gboolean present, const EtGuid *guid)
{
  g_string_append_c (s, ',');
  if (present && !et_guid_is_zero (guid))
    et_cli_append_guid (s, guid);
}

static void
write_csv (Writer *w, GString *s, guint64 index, const EtEvent *e, const EtFields *fields,
           GString *scratch)
{
  const guint values[] = { e->id, e->version, e->level, e->opcode };

  et_string_append_uint (s, index);
  g_string_append_c (s, ',');
  et_string_append_int (s, e->time_ns);
  g_string_append_c (s, ',');
  if (e->has_ids)
    {
      et_string_append_uint (s, e->pid);
      g_string_append_c (s, ',');
      et_string_append_uint (s, e->tid);
    }
  else
    g_string_append_c (s, ',');
  g_string_append_c (s, ',');
  if (e->cpu != ET_CPU_UNKNOWN)
    et_string_append_uint (s, e->cpu);
  g_string_append_c (s, ',');
  et_cli_csv_value (s, et_trace_get_provider (w->trace, e->provider)->name, -1);
  g_string_append_c (s, ',');
  g_string_append (s, w->guids[e->provider]);
  g_string_append_c (s, ',');
  et_cli_csv_value (s, e->name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_string_append_c (s, ',');
      et_string_append_uint (s, values[i]);
    }
  g_string_append_c (s, ',');
  et_cli_csv_value (s, e->opcode_name, -1);
  g_string_append_c (s, ',');
  et_string_append_uint (s, e->task);
  g_string_append_c (s, ',');
  et_cli_csv_value (s, e->task_name, -1);
  g_string_append_c (s, ',');
  et_string_append_hex (s, e->keywords);
  csv_guid (s, TRUE, &e->activity_id);
  csv_guid (s, e->has_related_activity_id, &e->related_activity_id);
  g_string_append_c (s, ',');
  g_string_truncate (scratch, 0);
  append_field_pairs (scratch, fields, "; derived: ");
  et_cli_csv_value (s, scratch->str, (gssize) scratch->len);
}

static void
text_number (GString *s, const char *label, guint64 value, const char *name)
{
  g_string_append (s, label);
  et_string_append_uint (s, value);
  if (name != NULL)
    {
      g_string_append_c (s, '(');
      g_string_append (s, name);
      g_string_append_c (s, ')');
    }
}

/* "  0.000150000  100/200  Provider/Event  id 1 level 4 opcode 1(Start) …  a=1, b=x" */
static void
write_text (Writer *w, GString *s, const EtEvent *e, const EtFields *fields)
{
  const EtProvider *provider = et_trace_get_provider (w->trace, e->provider);
  gsize start = s->len;

  et_cli_append_seconds (s, e->time_ns);
  et_cli_pad_to (s, start, 18);
  if (e->has_ids)
    {
      et_string_append_uint (s, e->pid);
      g_string_append_c (s, '/');
      et_string_append_uint (s, e->tid);
    }
  else
    g_string_append (s, "-");
  et_cli_pad_to (s, start, 34);
  g_string_append (s, *provider->name != '\0' ? provider->name : w->guids[e->provider]);
  g_string_append_c (s, '/');
  g_string_append (s, e->name != NULL ? e->name : "");
  /* Translators: labels of the event descriptor in "etlscope-cli events";
   * keep the spaces around each word. */
  text_number (s, _("  id "), e->id, NULL);
  text_number (s, _(" level "), e->level, NULL);
  text_number (s, _(" opcode "), e->opcode, e->opcode_name);
  text_number (s, _(" task "), e->task, e->task_name);
  g_string_append (s, _(" keywords "));
  et_string_append_hex (s, e->keywords);
  if (!et_guid_is_zero (&e->activity_id))
    {
      g_string_append (s, _(" activity "));
      et_cli_append_guid (s, &e->activity_id);
    }
  if (e->has_related_activity_id)
    {
      g_string_append (s, _(" related "));
      et_cli_append_guid (s, &e->related_activity_id);
    }
  if (e->decode_failed)
    g_string_append (s, _(" [payload not decoded]"));
  if (et_fields_len (fields) > 0)
    {
      g_string_append (s, "  ");
      /* Translators: before the values "etlscope-cli events" computes
       * rather than reads from the payload; keep "; " and ": ". */
      append_field_pairs (s, fields, _("; derived: "));
    }
}

/* ---- the command ------------------------------------------------------ */

static void
note_failure (Writer *w, guint64 index, const GError *error)
{
  if (++w->decode_failures <= MAX_DECODE_NOTES)
    et_cli_error (_("note: event %llu: %s"), (unsigned long long) index,
                  error != NULL ? error->message : _("could not be decoded"));
}

static void
write_events (Writer *w, const EtCliFilter *filter)
{
  const char *eol = w->format == ET_CLI_FORMAT_CSV ? ET_CLI_CSV_EOL : NULL;
  guint64 n = et_trace_get_n_events (w->trace);
  g_autoptr(GString) scratch = g_string_new (NULL);
  EtFields *fields = et_fields_new ();
  GString *s = w->out.line;
  EtEvent e;

  if (w->format == ET_CLI_FORMAT_CSV)
    {
      g_string_append (s, csv_header);
      et_cli_out_end_line (&w->out, eol);
    }
  for (guint64 i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!et_trace_decode_event (w->trace, i, &e, fields, &error))
        note_failure (w, i, error);
      /* Time order: nothing after this one can be inside --to. */
      if (e.time_ns > filter->to_ns)
        break;
      if (e.time_ns < filter->from_ns || !et_cli_filter_provider (filter, e.provider)
          || !et_cli_filter_thread (filter, e.pid, e.tid, e.has_ids))
        continue;
      if (w->format == ET_CLI_FORMAT_JSONL)
        write_json (w, s, i, &e, fields);
      else if (w->format == ET_CLI_FORMAT_CSV)
        write_csv (w, s, i, &e, fields, scratch);
      else
        write_text (w, s, &e, fields);
      et_cli_out_end_line (&w->out, eol);
    }
  et_fields_free (fields);
  if (w->decode_failures > MAX_DECODE_NOTES)
    et_cli_error (g_dngettext (GETTEXT_PACKAGE, "note: %llu event could not be decoded",
                               "note: %llu events could not be decoded", (gulong) w->decode_failures),
                  (unsigned long long) w->decode_failures);
}

static int
run_on_trace (EtTrace *trace, EtCliFormat format, const EtCliFilter *filter)
{
  guint n_providers = et_trace_get_n_providers (trace);
  Writer w = { trace, format };
  int status;

  if (filter->stacks && format != ET_CLI_FORMAT_JSONL)
    {
      et_cli_error (_("events: --stacks needs --format=jsonl"));
      return ET_CLI_EXIT_FAILURE;
    }
  if (filter->stacks)
    w.symbols = g_array_new (FALSE, FALSE, sizeof (guint32));

  w.guids = g_malloc0_n (MAX (n_providers, 1), ET_GUID_STRING_LEN);
  for (guint i = 0; i < n_providers; i++)
    et_guid_to_string (&et_trace_get_provider (trace, i)->guid, w.guids[i]);
  et_cli_out_init (&w.out, stdout);
  write_events (&w, filter);
  status = et_cli_finish (trace, &w.out);
  g_free (w.guids);
  g_clear_pointer (&w.symbols, g_array_unref);
  return status;
}


int
et_cli_events_run (int argc, char **argv)
{
  return et_cli_run_filtered (argc, argv, "events",
                              N_("Writes every event of FILE in time order, decoded: time, thread,\n"
                                 "provider, event descriptor, activity ids and payload fields."),
                              ET_CLI_FILTER_EVENTS, run_on_trace);
}
