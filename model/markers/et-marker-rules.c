/* et-marker-rules.c — one decoded event → one marker's properties.
 *
 * Applies the Concurrency Visualizer rules of seeds/000 as docs/markers.md
 * settles them: kind, importance, category, series and text from Opcode,
 * Level, the task name and the manifest message, each overridden by its cv*
 * field when the event has one of the right kind. Called by the loader for
 * every marker event and by the details view to explain a marker.
 */
#include "et-marker-rules-private.h"
#include "et-bytes.h"

#include <string.h>

void
et_rule_result_init (EtRuleResult *result)
{
  memset (result, 0, sizeof *result);
  result->series = g_string_new (NULL);
  result->text = g_string_new (NULL);
}

void
et_rule_result_clear (EtRuleResult *result)
{
  if (result->series)
    g_string_free (result->series, TRUE);
  if (result->text)
    g_string_free (result->text, TRUE);
  result->series = result->text = NULL;
}

/* Their names after "cv", in lower case, with their whole lengths. */
static const struct
{
  const char *tail;
  guint8      len;
} cv_tails[N_CV] = {
  { "type", 6 }, { "importance", 12 }, { "series", 8 }, { "category", 10 }, { "textw", 7 },
  { "spanid", 8 },
};

/* Which cv field @name is (without regard to case), or -1. Most names do
 * not start with "cv", and the names' lengths tell all but two apart, so
 * this costs a few character tests per field. All cv names are letters:
 * for a lower-case letter t, (c | 0x20) == t holds exactly when c is t in
 * either case. */
gint
_et_cv_field_of (const char *name)
{
  gsize len;

  if ((name[0] | 0x20) != 'c' || (name[1] | 0x20) != 'v')
    return -1;
  len = strlen (name);
  for (guint k = 0; k < N_CV; k++)
    {
      gsize i = 0;

      if (len != cv_tails[k].len)
        continue;
      while (i + 2 < len && ((guchar) name[i + 2] | 0x20) == (guchar) cv_tails[k].tail[i])
        i++;
      if (i + 2 == len)
        return (gint) k;
    }
  return -1;
}

/* One pass over the top-level fields finds every cv field; the first of
 * each name counts. */
static void
find_cv_fields (const EtFields *fields, EtCvValues *cv)
{
  memset (cv->state, CV_ABSENT, sizeof cv->state);
  if (fields == NULL)
    return;
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      const EtField *f = et_fields_get (fields, i);
      gint k = _et_cv_field_of (f->name);

      /* Rules read the payload; derived values (et-derived) come after it. */
      if (f->derived)
        break;
      if (k < 0 || cv->state[k] != CV_ABSENT)
        continue;
      if (f->kind == ET_VALUE_INT)
        _et_cv_set_integer (cv, k, f->v.i);
      else if (f->kind == ET_VALUE_UINT)
        _et_cv_set_integer (cv, k, _et_cv_clamp_unsigned (f->v.u));
      else if (f->kind == ET_VALUE_STRING)
        cv->state[k] = CV_STRING, cv->index[k] = i;
      else
        cv->state[k] = CV_OTHER;
    }
}

gboolean
et_marker_rules_is_cv_field (const char *name)
{
  return _et_cv_field_of (name) >= 0;
}

/* An integer cv field (any integer type; markers.md "cv fields"). Booleans
 * are not integers here: a bool cvType would be a schema mistake, so it is
 * ignored like any other wrong kind. */
static gboolean
cv_integer (const EtCvValues *cv, gint k, EtCvField bit, EtRuleResult *out, gint64 *value)
{
  if (cv->state[k] == CV_ABSENT)
    return FALSE;
  if (cv->state[k] != CV_INTEGER)
    {
      out->ignored_cv |= bit;
      return FALSE;
    }
  *value = cv->value[k];
  return TRUE;
}

static gboolean
cv_string (const EtRuleInput *in, const EtCvValues *cv, gint k, EtCvField bit, EtRuleResult *out,
           GString *dest)
{
  const char *text;
  gsize len;

  if (cv->state[k] == CV_ABSENT)
    return FALSE;
  if (cv->state[k] != CV_STRING)
    {
      out->ignored_cv |= bit;
      return FALSE;
    }
  if (cv->index[k] == ET_CV_IN_SERIES)
    {
      g_assert (dest == out->series);   /* the walk converted it there */
      return TRUE;
    }
  text = et_fields_text (in->fields, cv->index[k], &len);
  g_string_truncate (dest, 0);
  g_string_append_len (dest, text, (gssize) len);
  return TRUE;
}

static void
decide_role (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  gint64 type;

  if (cv_integer (cv, CV_TYPE, ET_CV_TYPE, out, &type))
    {
      out->role_rule = ET_RULE_CV_FIELD;
      switch (type)
        {
        case 1:  out->role = ET_ROLE_SPAN_START; break;
        case 2:  out->role = ET_ROLE_SPAN_END; break;
        case 3:  out->role = ET_ROLE_FLAG; break;
        default: out->role = ET_ROLE_MESSAGE; break;   /* 0 and every other value */
        }
      return;
    }
  if (in->opcode == 1 || in->opcode == 2)
    {
      out->role_rule = ET_RULE_OPCODE;
      out->role = in->opcode == 1 ? ET_ROLE_SPAN_START : ET_ROLE_SPAN_END;
      return;
    }
  out->role_rule = ET_RULE_LEVEL;
  out->role = in->level >= 5 ? ET_ROLE_MESSAGE : ET_ROLE_FLAG;
}

static void
decide_importance (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  gint64 value;

  if (cv_integer (cv, CV_IMPORTANCE, ET_CV_IMPORTANCE, out, &value))
    {
      static const EtImportance table[] = {
        ET_IMPORTANCE_NORMAL, ET_IMPORTANCE_CRITICAL, ET_IMPORTANCE_HIGH,
        ET_IMPORTANCE_HIGH, ET_IMPORTANCE_NORMAL, ET_IMPORTANCE_LOW,
      };
      out->importance_rule = ET_RULE_CV_FIELD;
      out->importance = value >= 0 && value < (gint64) G_N_ELEMENTS (table)
                        ? table[value] : ET_IMPORTANCE_LOW;
      return;
    }
  out->importance_rule = ET_RULE_LEVEL;
  switch (in->level)
    {
    case 0:  out->importance = ET_IMPORTANCE_NORMAL; break;   /* LogAlways */
    case 1:
    case 2:  out->importance = ET_IMPORTANCE_CRITICAL; break; /* Critical, Error */
    case 3:  out->importance = ET_IMPORTANCE_HIGH; break;     /* Warning */
    case 4:  out->importance = ET_IMPORTANCE_NORMAL; break;   /* Informational */
    default: out->importance = ET_IMPORTANCE_LOW; break;      /* Verbose and above */
    }
}

static void
decide_category (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  gint64 value;

  if (cv_integer (cv, CV_CATEGORY, ET_CV_CATEGORY, out, &value))
    {
      /* The document calls cvCategory a byte: its unsigned byte value. A
       * wider integer contributes its low byte, as a byte field would have
       * carried it. */
      out->category_rule = ET_RULE_CV_FIELD;
      out->category = (gint16) (guint8) (value & 0xFF);
      return;
    }
  out->category_rule = ET_RULE_LEVEL;
  out->category = (in->level == 1 || in->level == 2) ? ET_CATEGORY_ALERT : 0;
}

static void
decide_series (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  if (cv_string (in, cv, CV_SERIES, ET_CV_SERIES, out, out->series))
    {
      out->series_rule = ET_RULE_CV_FIELD;
      return;
    }
  if (in->task_name != NULL && in->task_name[0] != '\0')
    {
      if (!out->skip_task_series)
        g_string_assign (out->series, in->task_name);
      out->series_rule = ET_RULE_TASK_NAME;
    }
  else
    {
      g_string_truncate (out->series, 0);
      out->series_rule = ET_RULE_EMPTY;
    }
}

/* Text rule 3: the event name, then ": name=value, …" over the payload
 * fields other than the cv* ones. */
static void
text_from_fields (const EtRuleInput *in, GString *out)
{
  gboolean first = TRUE;

  et_string_append_len (out, in->event_name, strlen (in->event_name));
  if (in->fields == NULL)
    return;
  for (guint i = 0; i < et_fields_len (in->fields); i = et_fields_next (in->fields, i))
    {
      const EtField *f = et_fields_get (in->fields, i);

      if (f->derived)
        break;
      if (et_marker_rules_is_cv_field (f->name))
        continue;
      et_string_append_len (out, first ? ": " : ", ", 2);
      first = FALSE;
      et_string_append_len (out, f->name, strlen (f->name));
      g_string_append_c (out, '=');
      et_fields_format_value (in->fields, i, out);
    }
}

static void
decide_text (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  if (cv_string (in, cv, CV_TEXT, ET_CV_TEXT, out, out->text))
    {
      out->text_rule = ET_RULE_CV_FIELD;
      return;
    }
  g_string_truncate (out->text, 0);
  if (in->message != NULL)
    {
      out->text_rule = ET_RULE_MESSAGE_STRING;
      et_format_message (in->message, in->fields, out->text);
      return;
    }
  out->text_rule = ET_RULE_EVENT_NAME;
  text_from_fields (in, out->text);
}

static void
decide_span_id (const EtRuleInput *in, const EtCvValues *cv, EtRuleResult *out)
{
  out->has_span_id = cv_integer (cv, CV_SPAN_ID, ET_CV_SPAN_ID, out, &out->span_id);
  if (!out->has_span_id)
    out->span_id = 0;
}

void
_et_marker_rules_apply_cv (const EtRuleInput *input, const EtCvValues *cv,
                           EtRuleResult *result)
{
  result->ignored_cv = 0;
  decide_role (input, cv, result);
  decide_importance (input, cv, result);
  decide_category (input, cv, result);
  decide_series (input, cv, result);
  if (!result->skip_text)
    decide_text (input, cv, result);
  decide_span_id (input, cv, result);
}

void
et_marker_rules_apply (const EtRuleInput *input, EtRuleResult *result)
{
  EtCvValues cv;

  g_return_if_fail (input != NULL && input->event_name != NULL);
  g_return_if_fail (result != NULL && result->series != NULL && result->text != NULL);

  find_cv_fields (input->fields, &cv);
  _et_marker_rules_apply_cv (input, &cv, result);
}

/* The N-th top-level field (1-based), or -1. */
static gint
nth_field (const EtFields *fields, guint64 n)
{
  guint i = 0;

  if (fields == NULL || n == 0)
    return -1;
  for (guint64 k = 1; i < et_fields_len (fields) && !et_fields_get (fields, i)->derived;
       k++, i = et_fields_next (fields, i))
    if (k == n)
      return (gint) i;
  return -1;
}

void
et_format_message (const char *message, const EtFields *fields, GString *out)
{
  const char *p = message;

  while (*p != '\0')
    {
      const char *digits;
      guint64 n = 0;
      gint field;

      if (*p != '%')
        {
          g_string_append_c (out, *p++);
          continue;
        }
      switch (p[1])
        {
        case '%': g_string_append_c (out, '%'); p += 2; continue;
        case 'n': g_string_append_c (out, '\n'); p += 2; continue;
        case 't': g_string_append_c (out, '\t'); p += 2; continue;
        default: break;
        }
      digits = p + 1;
      while (g_ascii_isdigit (*digits) && n < G_MAXUINT32)
        n = n * 10 + (guint64) (*digits++ - '0');
      field = digits > p + 1 ? nth_field (fields, n) : -1;
      if (field < 0)
        {
          /* Not a reference, or past the last field: stays as written. */
          g_string_append_len (out, p, digits > p + 1 ? digits - p : 1);
          p = digits > p + 1 ? digits : p + 1;
          continue;
        }
      et_fields_format_value (fields, (guint) field, out);
      p = digits;
    }
}

const char *
et_importance_to_string (EtImportance importance)
{
  switch (importance)
    {
    case ET_IMPORTANCE_LOW:      return "low";
    case ET_IMPORTANCE_NORMAL:   return "normal";
    case ET_IMPORTANCE_HIGH:     return "high";
    case ET_IMPORTANCE_CRITICAL: return "critical";
    default:                     return "unknown";
    }
}

gboolean
et_importance_from_string (const char *text, EtImportance *importance)
{
  for (guint i = ET_IMPORTANCE_LOW; i <= ET_IMPORTANCE_CRITICAL; i++)
    if (g_ascii_strcasecmp (text, et_importance_to_string (i)) == 0)
      {
        *importance = i;
        return TRUE;
      }
  return FALSE;
}

const char *
et_rule_source_to_string (EtRuleSource source)
{
  switch (source)
    {
    case ET_RULE_CV_FIELD:       return "cv field";
    case ET_RULE_OPCODE:         return "opcode";
    case ET_RULE_LEVEL:          return "level";
    case ET_RULE_TASK_NAME:      return "task name";
    case ET_RULE_EMPTY:          return "no task name";
    case ET_RULE_MESSAGE_STRING: return "manifest message";
    case ET_RULE_EVENT_NAME:     return "event name and fields";
    case ET_RULE_BUILTIN:        return "built-in runtime rule";
    default:                     return "unknown";
    }
}
