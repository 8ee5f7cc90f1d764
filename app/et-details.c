/* et-details.c — the text of the details pane (see et-details.h). Shared by
 * the window and its tests; knows the model, not widgets. The labels are
 * translated and padded to one column; translators keep the padding. */
#include "et-details.h"
#include "et-timeline-render.h"

#include <glib/gi18n.h>

static void
describe_event (EtTrace *trace, guint64 index, const char *title, GString *out)
{
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();
  const EtProvider *provider;
  char guid[ET_GUID_STRING_LEN];
  char number[32];
  EtEvent ev;

  et_trace_decode_event (trace, index, &ev, fields, &error);
  provider = et_trace_get_provider (trace, ev.provider);
  et_guid_to_string (&provider->guid, guid);
  g_string_append_printf (out, "\n%s\n", title);
  g_string_append_printf (out, _("  Event       %s (id %u, version %u)\n"), ev.name, ev.id, ev.version);
  g_string_append_printf (out, _("  Provider    %s\n              %s\n"), provider->name, guid);
  g_string_append_printf (out, _("  Level       %u   Opcode %u%s%s%s   Task %u%s%s%s\n"), ev.level,
                          ev.opcode, ev.opcode_name ? " (" : "", ev.opcode_name ? ev.opcode_name : "",
                          ev.opcode_name ? ")" : "", ev.task, ev.task_name ? " (" : "",
                          ev.task_name ? ev.task_name : "", ev.task_name ? ")" : "");
  /* 64-bit numbers are formatted first: gettext cannot see through
   * G_GUINT64_FORMAT inside a translatable string. */
  g_snprintf (number, sizeof number, "0x%" G_GINT64_MODIFIER "x", ev.keywords);
  g_string_append_printf (out, _("  Keywords    %s   Channel %u\n"), number, ev.channel);
  et_guid_to_string (&ev.activity_id, guid);
  g_string_append_printf (out, _("  Activity    %s\n"), guid);
  if (ev.has_related_activity_id)
    {
      et_guid_to_string (&ev.related_activity_id, guid);
      g_string_append_printf (out, _("  Related     %s\n"), guid);
    }
  g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, ev.file_offset);
  g_string_append_printf (out, _("  Record      %s at byte offset %s, CPU %u\n"),
                          ev.header_kind, number, ev.cpu);
  if (error != NULL)
    g_string_append_printf (out, _("  Payload     does not match its schema: %s\n"), error->message);
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      g_string_append_printf (out, "  · %s = ", et_fields_get (fields, i)->name);
      et_fields_format_value (fields, i, out);
      g_string_append_c (out, '\n');
    }
  et_fields_free (fields);
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
  g_string_append (out, _("\nWhy it looks like this\n"));
  g_string_append_printf (out, _("  Kind        from %s\n"), et_rule_source_to_string (rules.role_rule));
  g_string_append_printf (out, _("  Importance  from %s\n"), et_rule_source_to_string (rules.importance_rule));
  g_string_append_printf (out, _("  Category    from %s\n"), et_rule_source_to_string (rules.category_rule));
  g_string_append_printf (out, _("  Series      from %s\n"), et_rule_source_to_string (rules.series_rule));
  g_string_append_printf (out, _("  Text        from %s\n"), et_rule_source_to_string (rules.text_rule));
  if (rules.has_span_id)
    g_string_append_printf (out, "  cvSpanId    %" G_GINT64_FORMAT "\n", rules.span_id);
  if (rules.ignored_cv)
    g_string_append (out, _("  Some cv fields have the wrong type and were ignored.\n"));
  et_rule_result_clear (&rules);
  et_fields_free (fields);
}

void
et_details_describe (EtTrace *trace, guint channel, const EtMarker *m, GString *out)
{
  const EtThread *thread = et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));
  const EtProcess *process = et_trace_get_process (trace, thread->process);

  g_string_append_printf (out, "%s", et_marker_kind_to_string (m->kind));
  if (m->kind == ET_MARKER_SPAN)
    g_string_append_printf (out, " (%s)", et_span_status_to_string (m->status));
  g_string_append (out, "\n");
  et_trace_marker_text (trace, m, out);
  g_string_append (out, _("\n\n  Start       "));
  et_format_duration (m->start_ns, out);
  if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
    {
      g_string_append (out, _("\n  End         "));
      et_format_duration (m->end_ns, out);
      g_string_append (out, m->status == ET_SPAN_UNMATCHED_START ? _(" (end of trace: still open)") : "");
      g_string_append (out, _("\n  Duration    "));
      et_format_duration (m->end_ns - m->start_ns, out);
    }
  g_string_append_printf (out, _("\n  Importance  %s   Category %d   Series %s   Lane %u\n"),
                          et_importance_to_string (m->importance), m->category,
                          *et_trace_get_string (trace, m->series)
                            ? et_trace_get_string (trace, m->series) : _("(none)"), m->depth);
  g_string_append_printf (out, _("  Process     %s (%u)\n  Thread      %s (%u)\n"), process->name,
                          process->pid, thread->name, thread->tid);
  if (m->end_thread != ET_NO_INDEX)
    g_string_append_printf (out, _("  Ends on     thread %u\n"), et_trace_get_thread (trace, m->end_thread)->tid);
  describe_event (trace, m->event, m->kind == ET_MARKER_SPAN ? _("Start event") : _("Event"), out);
  if (m->end_event != ET_NO_INDEX)
    describe_event (trace, m->end_event, _("End event"), out);
  describe_rules (trace, m, out);
}
