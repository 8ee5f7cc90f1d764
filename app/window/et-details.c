/* et-details.c — the text of the details pane (see et-details.h). Shared by
 * the window and its tests; knows the model, not widgets. The labels are
 * translated; names and values from the trace are shown as they are. */
#include "et-details.h"
#include "et-i18n.h"
#include "et-timeline-render.h"
#include "et-trace-decode.h"

#include <string.h>

/* Every label of a row: the values start where the longest, translated,
 * leaves room for two spaces ("Schlüsselwörter" is longer than any English
 * label, and its value must not run into it). */
static const char *const row_labels[] = {
  N_("Activity"), N_("Category"), N_("Duration"), N_("End"), N_("Ends on"), N_("Event"),
  N_("Importance"), N_("Keywords"), N_("Kind"), N_("Level"), N_("Payload"), N_("Process"),
  N_("Provider"), N_("Record"), N_("Related"), N_("Series"), N_("Start"), N_("Text"),
  N_("Thread"),
};

static glong
label_width (void)
{
  glong width = 10;

  for (guint i = 0; i < G_N_ELEMENTS (row_labels); i++)
    width = MAX (width, g_utf8_strlen (_(row_labels[i]), -1));
  return width + 2;
}

/* "  Label       " on a new line: labels padded by characters, not bytes,
 * so that translated labels line up too. */
static void
row (GString *out, const char *label)
{
  glong n = g_utf8_strlen (label, -1), width = label_width ();

  g_string_append (out, "  ");
  g_string_append (out, label);
  for (glong i = n; i < width; i++)
    g_string_append_c (out, ' ');
  if (n >= width)
    g_string_append (out, "  ");
}

static void
describe_descriptor (const EtEvent *ev, GString *out)
{
  row (out, _("Level"));
  g_string_append_printf (out, "%u   ", ev->level);
  g_string_append_printf (out, _("Opcode %u"), ev->opcode);
  if (ev->opcode_name != NULL)
    g_string_append_printf (out, " (%s)", ev->opcode_name);
  g_string_append (out, "   ");
  g_string_append_printf (out, _("Task %u"), ev->task);
  if (ev->task_name != NULL)
    g_string_append_printf (out, " (%s)", ev->task_name);
  g_string_append_c (out, '\n');
  row (out, _("Keywords"));
  g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x   ", ev->keywords);
  g_string_append_printf (out, _("Channel %u"), ev->channel);
  g_string_append_c (out, '\n');
}

/* Where @ev's record is: its header kind, its byte offset and the CPU
 * that wrote it. A .nettrace's events are read into buffers of an image,
 * whose offset is the EventBlock where the buffer's first event is: at or
 * before the event's own; many of its events name no CPU. */
static void
describe_record (EtTrace *trace, const EtEvent *ev, GString *out)
{
  unsigned long long offset = ev->file_offset;

  if (!et_trace_is_nettrace (trace))
    /* Translators: the record's header kind, its byte offset in the file, the CPU. */
    g_string_append_printf (out, _("%s at byte offset %llu, CPU %u"), ev->header_kind, offset,
                            ev->cpu);
  else if (ev->cpu != ET_CPU_UNKNOWN)
    /* Translators: a .nettrace event's header kind, the byte offset of an
     * EventBlock at or before it, the CPU. */
    g_string_append_printf (out, _("%s at or after byte offset %llu, CPU %u"), ev->header_kind,
                            offset, ev->cpu);
  else
    /* Translators: a .nettrace event's header kind and the byte offset of
     * an EventBlock at or before it (the file names no CPU). */
    g_string_append_printf (out, _("%s at or after byte offset %llu"), ev->header_kind, offset);
  g_string_append_c (out, '\n');
}

static void
describe_event (EtTrace *trace, guint64 index, const char *title, GString *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) name = g_string_new (NULL);
  EtFields *fields = et_fields_new ();
  const EtProvider *provider;
  char guid[ET_GUID_STRING_LEN];
  EtEvent ev;

  et_trace_decode_event (trace, index, &ev, fields, &error);
  provider = et_trace_get_provider (trace, ev.provider);
  et_guid_to_string (&provider->guid, guid);
  g_string_append_printf (out, "\n%s\n", title);
  row (out, _("Event"));
  /* Translators: an event's name, then its id and version. */
  g_string_append_printf (out, _("%s (id %u, version %u)"), ev.name, ev.id, ev.version);
  g_string_append_c (out, '\n');
  row (out, _("Provider"));
  g_string_append_printf (out, "%s\n%*s%s\n", provider->name, (int) label_width () + 2, "", guid);
  describe_descriptor (&ev, out);
  et_guid_to_string (&ev.activity_id, guid);
  row (out, _("Activity"));
  g_string_append_printf (out, "%s\n", guid);
  if (ev.has_related_activity_id)
    {
      et_guid_to_string (&ev.related_activity_id, guid);
      /* Translators: the related activity id. */
      row (out, _("Related"));
      g_string_append_printf (out, "%s\n", guid);
    }
  row (out, _("Record"));
  describe_record (trace, &ev, out);
  if (error != NULL)
    {
      row (out, _("Payload"));
      g_string_append_printf (out, _("does not match its schema: %s"), error->message);
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      gboolean derived = et_fields_get (fields, i)->derived;

      g_string_append_printf (out, "  %s %s = ", derived ? "∘" : "·",
                              et_fields_unique_name (fields, -1, i, name));
      et_fields_format_value (fields, i, out);
      if (derived)
        /* Translators: after a value Etlscope computed (from the payload,
         * the record's header or earlier events) rather than read. */
        g_string_append_printf (out, "  %s", _("(derived)"));
      g_string_append_c (out, '\n');
    }
  et_fields_free (fields);
}

static void
rule_row (GString *out, const char *label, EtRuleSource source)
{
  row (out, label);
  /* Translators: where a marker property came from, e.g. "from cv field". */
  g_string_append_printf (out, _("from %s"), et_i18n_rule_source (source));
  g_string_append_c (out, '\n');
}

static void
describe_rules (EtTrace *trace, const EtMarker *m, GString *out)
{
  EtFields *fields = et_fields_new ();
  EtRuleResult rules;
  EtEvent ev;

  et_rule_result_init (&rules);
  et_trace_decode_event (trace, m->event, &ev, fields, NULL);
  et_trace_explain_marker (trace, &ev, fields, &rules);
  g_string_append_printf (out, "\n%s\n", _("Why it looks like this"));
  rule_row (out, _("Kind"), rules.role_rule);
  rule_row (out, _("Importance"), rules.importance_rule);
  rule_row (out, _("Category"), rules.category_rule);
  rule_row (out, _("Series"), rules.series_rule);
  rule_row (out, _("Text"), rules.text_rule);
  /* The runtime's spans pair by an id from their payload (a GC's Count, a
   * method's MethodID), not by a cvSpanId field. */
  if (rules.has_span_id && rules.role_rule == ET_RULE_BUILTIN)
    g_string_append_printf (out, "  %s    %" G_GINT64_FORMAT "\n", _("span id"), rules.span_id);
  else if (rules.has_span_id)
    g_string_append_printf (out, "  cvSpanId    %" G_GINT64_FORMAT "\n", rules.span_id);
  if (rules.ignored_cv)
    g_string_append_printf (out, "  %s\n", _("Some cv fields have the wrong type and were ignored."));
  if (et_trace_get_provider (trace, ev.provider)->event_metadata)
    g_string_append_printf (out, "  %s\n", _("Schema from the trace's own event metadata."));
  et_rule_result_clear (&rules);
  et_fields_free (fields);
}

static void
describe_times (const EtMarker *m, GString *out)
{
  row (out, _("Start"));
  et_format_duration_display (m->start_ns, out);
  if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
    {
      g_string_append_c (out, '\n');
      row (out, _("End"));
      et_format_duration_display (m->end_ns, out);
      if (m->status == ET_SPAN_UNMATCHED_START)
        g_string_append_printf (out, " (%s)", _("end of trace: still open"));
      g_string_append_c (out, '\n');
      row (out, _("Duration"));
      et_format_duration_display (m->end_ns - m->start_ns, out);
    }
  g_string_append_c (out, '\n');
}


/* An alert's category by its name, not -1. */
static void
append_category (const EtMarker *m, GString *out)
{
  if (m->category == ET_CATEGORY_ALERT)
    g_string_append (out, C_("legend", "alert"));
  else
    g_string_append_printf (out, "%d", m->category);
}

/* "Contoso.exe (4120)"; a process the trace does not name is "Process
 * 4120", not "Process 4120 (4120)". */
static void
append_process (const EtProcess *process, GString *out)
{
  g_autofree char *plain = g_strdup_printf ("Process %u", process->pid);

  g_string_append (out, process->name);
  if (process->has_ids && strcmp (process->name, plain) != 0)
    g_string_append_printf (out, " (%u)", process->pid);
}

void
et_details_describe (EtTrace *trace, guint channel, const EtMarker *m, GString *out)
{
  const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));
  const EtProcess *process = et_trace_get_process (trace, thread->process);
  const char *series = et_trace_get_string (trace, et_trace_get_channel (trace, channel)->series);
  guint32 end_thread = et_trace_marker_end_thread (trace, m);
  g_autoptr(GString) category = g_string_new (NULL);

  g_string_append (out, et_i18n_marker_kind (m->kind));
  if (m->kind == ET_MARKER_SPAN)
    g_string_append_printf (out, " (%s)", et_i18n_span_status (m->status));
  g_string_append (out, "\n");
  et_trace_marker_text (trace, m, out);
  g_string_append (out, "\n\n");
  describe_times (m, out);
  row (out, _("Importance"));
  append_category (m, category);
  /* Translators: importance, then category, series and lane of a marker. */
  g_string_append_printf (out, _("%s   Category %s   Series %s   Lane %u"),
                          et_i18n_importance (m->importance), category->str,
                          *series ? series : _("(none)"), m->depth);
  g_string_append_c (out, '\n');
  row (out, _("Process"));
  append_process (process, out);
  g_string_append_c (out, '\n');
  row (out, _("Thread"));
  et_thread_label (thread, out);
  g_string_append_c (out, '\n');
  if (end_thread != ET_NO_INDEX)
    {
      row (out, _("Ends on"));
      et_thread_label (et_trace_get_thread (trace, end_thread), out);
      g_string_append_c (out, '\n');
    }
  describe_event (trace, m->event, m->kind == ET_MARKER_SPAN ? _("Start event") : _("Event"), out);
  if (m->end_event != ET_NO_INDEX)
    describe_event (trace, m->end_event, _("End event"), out);
  describe_rules (trace, m, out);
}

void
et_details_summary (EtTrace *trace, guint channel, const EtMarker *m, GString *out)
{
  const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));
  const char *series = et_trace_get_string (trace, et_trace_get_channel (trace, channel)->series);
  g_autoptr(GString) category = g_string_new (NULL), label = g_string_new (NULL);

  et_trace_marker_text (trace, m, out);
  g_string_append_printf (out, "\n%s", et_i18n_marker_kind (m->kind));
  if (m->kind == ET_MARKER_SPAN)
    g_string_append_printf (out, " (%s)", et_i18n_span_status (m->status));
  /* Translators: "span (ok) at 1.5 ms, lasting 2 ms" in the tooltip. */
  g_string_append (out, _(" at "));
  et_format_duration_display (m->start_ns, out);
  if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
    {
      g_string_append (out, _(", lasting "));
      et_format_duration_display (m->end_ns - m->start_ns, out);
    }
  g_string_append_c (out, '\n');
  append_category (m, category);
  et_thread_label (thread, label);
  /* Translators: the tooltip's last lines; the thread is "name (tid)". */
  g_string_append_printf (out, _("importance %s, category %s, series %s\nthread %s"),
                          et_i18n_importance (m->importance), category->str,
                          *series ? series : _("(none)"), label->str);
}
