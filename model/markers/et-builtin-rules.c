/* et-builtin-rules.c — the runtime's activities as markers of the "CLR"
 * group: which events, what kind, and the text a .NET developer reads.
 *
 * One table row per event id the rules know (model/README.md says why
 * each looks as it does); a row's text function writes the marker text
 * from the decoded payload, naming value maps ("AllocSmall") rather than
 * numbers. Spans pair through the common pairing (et-span-pairing): GCs
 * and JIT by a span id taken from the payload, suspensions and contention
 * by task on their thread.
 */
#include "et-builtin-rules.h"

#include <string.h>

#define RUNTIME_GUID "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"

/* MethodFlags bit of a method the JIT compiled (the runtime's manifest). */
#define METHOD_FLAG_JITTED 0x8

typedef void (*TextFunc) (const EtFields *fields, GString *out);

typedef struct
{
  guint16       id;
  EtMarkerRole  role;
  EtImportance  importance;
  gint16        category;
  const char   *series;
  const char   *span_id_field;   /* the payload field that pairs start and end, or NULL */
  gboolean      repeats;         /* a repeated start is the same activity (GC/Start) */
  TextFunc      text;
} Rule;

/* ---- reading the payload ---------------------------------------------- */

static gboolean
uint_of (const EtFields *fields, const char *name, gint64 *value)
{
  gint i = fields != NULL ? et_fields_find (fields, name) : -1;

  return i >= 0 && et_fields_get_integer (fields, (guint) i, value);
}

/* A field as the details show it (a value map's name, a string as
 * written); FALSE when the payload lacks it. */
static gboolean
append_field (const EtFields *fields, const char *name, GString *out)
{
  gint i = fields != NULL ? et_fields_find (fields, name) : -1;

  if (i < 0 || et_fields_get (fields, (guint) i)->kind == ET_VALUE_NULL)
    return FALSE;
  et_fields_format_value (fields, (guint) i, out);
  return TRUE;
}

/* The field, or @fallback when the payload lacks it. */
static void
append_or (const EtFields *fields, const char *name, const char *fallback, GString *out)
{
  if (!append_field (fields, name, out))
    g_string_append (out, fallback);
}

/* ---- texts ------------------------------------------------------------- */

/* "GC #12 gen 1 (AllocSmall, NonConcurrentGC)"; version 0 has no
 * generation or type. */
static void
text_gc_start (const EtFields *fields, GString *out)
{
  gint64 v;

  g_string_append (out, "GC");
  if (uint_of (fields, "Count", &v))
    g_string_append_printf (out, " #%" G_GINT64_FORMAT, v);
  if (uint_of (fields, "Depth", &v))
    g_string_append_printf (out, " gen %" G_GINT64_FORMAT, v);
  g_string_append (out, " (");
  append_or (fields, "Reason", "reason unknown", out);
  if (et_fields_find (fields, "Type") >= 0)
    {
      g_string_append (out, ", ");
      append_field (fields, "Type", out);
    }
  g_string_append_c (out, ')');
}

static void
text_gc_stop (const EtFields *fields, GString *out)
{
  gint64 v;

  g_string_append (out, "GC end");
  if (uint_of (fields, "Count", &v))
    g_string_append_printf (out, " #%" G_GINT64_FORMAT, v);
}

/* "Execution engine suspended (SuspendForGC)" */
static void
text_suspend (const EtFields *fields, GString *out)
{
  g_string_append (out, "Execution engine suspended (");
  append_or (fields, "Reason", "reason unknown", out);
  g_string_append_c (out, ')');
}

static void
text_restart (const EtFields *fields G_GNUC_UNUSED, GString *out)
{
  g_string_append (out, "Execution engine restarted");
}

/* "System.InvalidOperationException: Sequence contains no elements" */
static void
text_exception (const EtFields *fields, GString *out)
{
  gsize before;

  if (!append_field (fields, "ExceptionType", out))
    g_string_append (out, "Exception");
  before = out->len;
  g_string_append (out, ": ");
  if (!append_field (fields, "ExceptionMessage", out) || out->len == before + 2)
    g_string_truncate (out, before);
}

/* The method as "Namespace.Name" (the runtime writes the type's full
 * name as the namespace). */
static void
text_method (const EtFields *fields, GString *out)
{
  gsize before = out->len;

  if (append_field (fields, "MethodNamespace", out) && out->len > before)
    g_string_append_c (out, '.');
  append_or (fields, "MethodName", "method", out);
}

static void
text_contention_start (const EtFields *fields, GString *out)
{
  g_string_append (out, "Lock contention");
  if (et_fields_find (fields, "ContentionFlags") >= 0)
    {
      g_string_append (out, " (");
      append_field (fields, "ContentionFlags", out);
      g_string_append_c (out, ')');
    }
}

static void
text_contention_stop (const EtFields *fields G_GNUC_UNUSED, GString *out)
{
  g_string_append (out, "Lock contention end");
}

static void
text_tp_sample (const EtFields *fields, GString *out)
{
  g_string_append (out, "Thread pool throughput ");
  append_or (fields, "Throughput", "unknown", out);
}

/* "Thread pool: 12 worker threads (ClimbingMove)" */
static void
text_tp_adjustment (const EtFields *fields, GString *out)
{
  g_string_append (out, "Thread pool: ");
  append_or (fields, "NewWorkerThreadCount", "?", out);
  g_string_append (out, " worker threads (");
  append_or (fields, "Reason", "reason unknown", out);
  g_string_append_c (out, ')');
}

static void
text_tp_stats (const EtFields *fields, GString *out)
{
  g_string_append (out, "Thread pool adjustment statistics: throughput ");
  append_or (fields, "Throughput", "unknown", out);
  g_string_append (out, ", control setting ");
  append_or (fields, "NewControlSetting", "unknown", out);
}

/* ---- the rules --------------------------------------------------------- */

/* By event id of Microsoft-Windows-DotNETRuntime. */
static const Rule rules[] = {
  { 1, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "GC", "Count", TRUE, text_gc_start },
  { 2, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "GC", "Count", FALSE, text_gc_stop },
  { 3, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "Suspension", NULL, FALSE, text_restart },
  { 9, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "Suspension", NULL, FALSE, text_suspend },
  { 54, ET_ROLE_MESSAGE, ET_IMPORTANCE_LOW, 0, "Thread pool", NULL, FALSE, text_tp_sample },
  { 55, ET_ROLE_MESSAGE, ET_IMPORTANCE_NORMAL, 0, "Thread pool", NULL, FALSE,
    text_tp_adjustment },
  { 56, ET_ROLE_MESSAGE, ET_IMPORTANCE_LOW, 0, "Thread pool", NULL, FALSE, text_tp_stats },
  { 80, ET_ROLE_FLAG, ET_IMPORTANCE_CRITICAL, ET_CATEGORY_ALERT, "Exceptions", NULL, FALSE,
    text_exception },
  { 81, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "Contention", NULL, FALSE,
    text_contention_start },
  { 91, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "Contention", NULL, FALSE,
    text_contention_stop },
  { 143, ET_ROLE_SPAN_END, ET_IMPORTANCE_LOW, 0, "JIT", "MethodID", FALSE, text_method },
  { 145, ET_ROLE_SPAN_START, ET_IMPORTANCE_LOW, 0, "JIT", "MethodID", FALSE, text_method },
};

static const Rule *
rule_of (guint16 id)
{
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    if (rules[i].id == id)
      return &rules[i];
  return NULL;
}

gboolean
et_builtin_rules_has (const EtGuid *provider)
{
  static EtGuid runtime;
  static gsize parsed = 0;

  if (g_once_init_enter (&parsed))
    {
      et_guid_parse (RUNTIME_GUID, &runtime);
      g_once_init_leave (&parsed, 1);
    }
  return et_guid_equal (provider, &runtime);
}

gboolean
et_builtin_rules_covers (guint16 id)
{
  return rule_of (id) != NULL;
}

gboolean
et_builtin_rules_repeats (guint16 id)
{
  const Rule *rule = rule_of (id);

  return rule != NULL && rule->repeats;
}

static void
set_sources (EtRuleResult *result)
{
  result->role_rule = result->importance_rule = result->category_rule = ET_RULE_BUILTIN;
  result->series_rule = ET_RULE_BUILTIN;
  if (!result->skip_text)
    result->text_rule = ET_RULE_BUILTIN;
}

gboolean
et_builtin_rules_apply (guint16 id, const EtRuleInput *input, EtRuleResult *result)
{
  const Rule *rule = rule_of (id);
  gint64 flags;

  g_return_val_if_fail (input != NULL && result != NULL && result->series != NULL, FALSE);
  if (rule == NULL)
    return FALSE;
  /* A method loaded from precompiled code was never jitted: its load
   * closes no JIT span, and would only make a lone end. */
  if (id == 143 && (!uint_of (input->fields, "MethodFlags", &flags)
                    || (flags & METHOD_FLAG_JITTED) == 0))
    return FALSE;
  result->ignored_cv = 0;
  result->role = rule->role;
  result->importance = rule->importance;
  result->category = rule->category;
  g_string_assign (result->series, rule->series);
  result->has_span_id = rule->span_id_field != NULL
                        && uint_of (input->fields, rule->span_id_field, &result->span_id);
  if (!result->has_span_id)
    result->span_id = 0;
  if (!result->skip_text)
    {
      g_string_truncate (result->text, 0);
      rule->text (input->fields, result->text);
    }
  set_sources (result);
  return TRUE;
}
