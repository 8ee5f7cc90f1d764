/* et-i18n.c — the first thing both programs do: take the user's locale and
 * bind the message catalog. The catalogs are looked up in LOCALEDIR unless
 * ETLSCOPE_LOCALEDIR names another folder (the build tree's po/ for tests
 * and ./dev run; see po/README.md). */
#include <locale.h>

#include "et-i18n.h"

void
et_i18n_init (void)
{
  const char *dir = g_getenv ("ETLSCOPE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, dir != NULL && *dir ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

void
et_i18n_count (guint64 n, GString *out)
{
  const struct lconv *numeric = localeconv ();
  char digits[24];
  const char *separator;
  int len, lead;

  if (numeric->thousands_sep != NULL && *numeric->thousands_sep != '\0')
    {
      g_string_append_printf (out, "%'" G_GUINT64_FORMAT, n);
      return;
    }
  /* Translators: what groups thousands in counts ("108,451 events") where
   * the system's locale does not say (the C locale). */
  separator = C_("thousands separator", ",");
  len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, n);
  lead = len % 3 != 0 ? len % 3 : 3;
  g_string_append_len (out, digits, lead);
  for (int i = lead; i < len; i += 3)
    {
      g_string_append (out, separator);
      g_string_append_len (out, digits + i, 3);
    }
}

/* The English names are the model's strings, so that an untranslated GUI
 * reads as before; the contexts keep them apart from the same words used
 * elsewhere. */
const char *
et_i18n_marker_kind (EtMarkerKind kind)
{
  switch (kind)
    {
    case ET_MARKER_FLAG:    return C_("marker kind", "flag");
    case ET_MARKER_MESSAGE: return C_("marker kind", "message");
    case ET_MARKER_SPAN:    return C_("marker kind", "span");
    default:                return et_marker_kind_to_string (kind);
    }
}

const char *
et_i18n_importance (EtImportance importance)
{
  switch (importance)
    {
    case ET_IMPORTANCE_LOW:      return C_("importance", "low");
    case ET_IMPORTANCE_NORMAL:   return C_("importance", "normal");
    case ET_IMPORTANCE_HIGH:     return C_("importance", "high");
    case ET_IMPORTANCE_CRITICAL: return C_("importance", "critical");
    default:                     return et_importance_to_string (importance);
    }
}

const char *
et_i18n_span_status (EtSpanStatus status)
{
  switch (status)
    {
    case ET_SPAN_OK:              return C_("span status", "ok");
    case ET_SPAN_NESTED:          return C_("span status", "nested");
    case ET_SPAN_OVERLAPPING:     return C_("span status", "overlapping");
    case ET_SPAN_CROSS_THREAD:    return C_("span status", "cross_thread");
    /* Translators: a span whose end event is missing. */
    case ET_SPAN_UNMATCHED_START: return C_("span status", "unmatched_start");
    /* Translators: a span whose start event is missing. */
    case ET_SPAN_UNMATCHED_END:   return C_("span status", "unmatched_end");
    default:                      return et_span_status_to_string (status);
    }
}

/* Where a marker's kind, importance … came from ("Why it looks like this"). */
const char *
et_i18n_rule_source (EtRuleSource source)
{
  switch (source)
    {
    case ET_RULE_CV_FIELD:       return C_("rule", "cv field");
    case ET_RULE_OPCODE:         return C_("rule", "opcode");
    case ET_RULE_LEVEL:          return C_("rule", "level");
    case ET_RULE_TASK_NAME:      return C_("rule", "task name");
    case ET_RULE_EMPTY:          return C_("rule", "no task name");
    case ET_RULE_MESSAGE_STRING: return C_("rule", "manifest message");
    case ET_RULE_EVENT_NAME:     return C_("rule", "event name and fields");
    /* Translators: the .NET runtime's events become markers by rules
     * Etlscope has built in (GC, JIT, exceptions…). */
    case ET_RULE_BUILTIN:        return C_("rule", "built-in runtime rule");
    default:                     return et_rule_source_to_string (source);
    }
}

void
et_i18n_legend_labels (EtLegendLabels *l)
{
  /* Translators: headings and labels of the legend (window and pictures) */
  l->kinds = C_("legend", "Kinds");
  l->flag = et_i18n_marker_kind (ET_MARKER_FLAG);
  l->message = et_i18n_marker_kind (ET_MARKER_MESSAGE);
  l->span = et_i18n_marker_kind (ET_MARKER_SPAN);
  l->merged = C_("legend", "merged, with their count");
  l->categories = C_("legend", "Categories");
  l->alert = C_("legend", "alert");
  l->importances = C_("legend", "Importance");
  for (guint i = 0; i < G_N_ELEMENTS (l->importance); i++)
    l->importance[i] = et_i18n_importance ((EtImportance) i);
  l->statuses = C_("legend", "Spans");
  l->nested = C_("legend", "nested");
  l->overlapping = C_("legend", "overlapping");
  l->cross_thread = C_("legend", "ends on another thread");
  l->open = C_("legend", "still open at the end");
  l->lone_end = C_("legend", "end without a start");
  l->threads = C_("legend", "Threads");
  /* Translators: the band in a thread's header row: how much of each
   * moment it was running on a processor */
  l->cpu_use = C_("legend", "CPU use (from context switches, else CPU samples)");
}

char *
et_i18n_cpu_use (float fraction, guint samples, EtCpuSource source)
{
  int percent = (int) (fraction * 100 + 0.5f);

  if (source == ET_CPU_FROM_SWITCHES)
    /* Translators: a thread's use of a processor over the bar under the
     * pointer, measured from context switches, and its CPU samples there */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "CPU %d %% by context switches (%u sample)",
                                         "CPU %d %% by context switches (%u samples)", samples),
                            percent, samples);
  /* Translators: a thread's use of a processor over the bar under the
   * pointer, estimated from its CPU samples there */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU %d %% (%u sample)",
                                       "CPU %d %% (%u samples)", samples), percent, samples);
}
