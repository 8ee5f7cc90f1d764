/* et-marker-cv.c — an event's cv fields read straight from its payload.
 *
 * Loading needs only the cv fields of an event (cvType, cvImportance,
 * cvSeries, cvCategory, cvSpanId; the text is made when shown), not the
 * whole decoded payload. Two schema shapes allow reading them without
 * et-manifest / et-tracelogging decoding every field into EtFields:
 *
 *   fixed layout (only fixed-size scalars) ─ each field at its offset
 *   walk layout (scalars, pointers, strings) ─ field after field, a
 *     string skipped by its terminator or its byte count; only the
 *     cvSeries text is converted
 *
 * Either way the rules get what decoding would have given them
 * (et_marker_rules_apply's result). A payload the walk cannot finish (too
 * short, a string without terminator) is the caller's to decode in full,
 * so that its failure is reported as decoding reports it.
 */
#include "et-marker-rules-private.h"
#include "et-bytes.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

G_STATIC_ASSERT (G_N_ELEMENTS (((EtCvPlan *) NULL)->field) == N_CV);

static void
plan_reset (EtCvPlan *plan)
{
  plan->n_present = 0;
  for (guint k = 0; k < N_CV; k++)
    plan->field[k] = -1;
}

/* Field @i, named @name: the first of each cv name counts, as when the
 * rules look through decoded fields. present[] stays in field order. */
static void
plan_add (EtCvPlan *plan, guint i, const char *name)
{
  gint k = _et_cv_field_of (name);

  if (k >= 0 && plan->field[k] < 0)
    {
      plan->field[k] = (gint) i;
      plan->present[plan->n_present++] = (guint8) k;
    }
}

void
et_cv_plan_init (EtCvPlan *plan, const EtFixedLayout *layout)
{
  plan_reset (plan);
  for (guint i = 0; i < layout->n_fields; i++)
    plan_add (plan, i, layout->fields[i].name);
}

void
et_cv_plan_init_walk (EtCvPlan *plan, const EtWalkLayout *layout)
{
  plan_reset (plan);
  for (guint i = 0; i < layout->n_fields; i++)
    plan_add (plan, i, layout->fields[i].name);
}

/* An integer of @size little-endian bytes, as the decoders read it:
 * unsigned (clamped to G_MAXINT64) or sign-extended. */
static void
read_integer (EtCvValues *cv, guint k, const guint8 *p, guint size, EtFixedClass klass)
{
  guint64 raw = 0;

  switch (size)
    {
    case 1: raw = p[0]; break;
    case 2: raw = et_read_u16 (p); break;
    case 4: raw = et_read_u32 (p); break;
    case 8: raw = et_read_u64 (p); break;
    default:
      for (guint b = size; b > 0; b--)
        raw = (raw << 8) | p[b - 1];
      break;
    }
  if (klass == ET_FIXED_UNSIGNED)
    _et_cv_set_integer (cv, k, _et_cv_clamp_unsigned (raw));
  else
    _et_cv_set_integer (cv, k, (gint64) (raw << (64 - 8 * size)) >> (64 - 8 * size));
}

/* The cv fields read straight from a payload with a fixed layout. */
static void
read_cv_fields (const EtFixedLayout *layout, const EtCvPlan *plan, const guint8 *payload,
                EtCvValues *cv)
{
  memset (cv->state, CV_ABSENT, sizeof cv->state);
  for (guint j = 0; j < plan->n_present; j++)
    {
      guint k = plan->present[j];
      const EtFixedField *f = &layout->fields[plan->field[k]];

      if (f->klass == ET_FIXED_OTHER)
        cv->state[k] = CV_OTHER;
      else
        read_integer (cv, k, payload + f->offset, f->size, f->klass);
    }
}

void
et_marker_rules_apply_fixed (const EtRuleInput *input, const EtFixedLayout *layout,
                             const EtCvPlan *plan, const guint8 *payload, EtRuleResult *result)
{
  EtCvValues cv;

  g_return_if_fail (input != NULL && layout != NULL && plan != NULL);
  g_return_if_fail (payload != NULL || layout->size == 0);
  g_return_if_fail (result != NULL && result->series != NULL && result->skip_text);

  read_cv_fields (layout, plan, payload, &cv);
  _et_marker_rules_apply_cv (input, &cv, result);
}

/* ---- walks ------------------------------------------------------------ */

/* The code units before the first NUL unit among the whole units of
 * @left bytes, or G_MAXSIZE when there is none. Eight units are tested
 * at once where the processor compares 16-bit lanes (SSE2), four
 * elsewhere (a zero 16-bit lane borrows into its own top bit); the units
 * after a block with a NUL are taken one by one. Strings of the runtime's
 * method events were most of checking PerfView's HeartRateMonitor
 * .nettrace at four units a step. */
static gsize
utf16_length (const guint8 *p, gsize left)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0001000100010001);
  const guint64 tops = G_GUINT64_CONSTANT (0x8000800080008000);
  gsize n_units = left / 2, i = 0;

#if defined(__SSE2__)
  for (; i + 8 <= n_units; i += 8)
    if (_mm_movemask_epi8 (_mm_cmpeq_epi16 (_mm_loadu_si128 ((const __m128i *) (gconstpointer) (p + 2 * i)),
                                            _mm_setzero_si128 ())) != 0)
      break;
#endif
  for (; i + 4 <= n_units; i += 4)
    {
      guint64 v;

      memcpy (&v, p + 2 * i, sizeof v);
      v = GUINT64_FROM_LE (v);
      if (((v - ones) & ~v & tops) != 0)
        break;
    }
  for (; i < n_units; i++)
    if (et_read_u16 (p + 2 * i) == 0)
      return i;
  return G_MAXSIZE;
}

/* Where one field's value is: *size bytes from @p in all, its text (for
 * strings and counted bytes) *text_len bytes or units from @p + *text_at.
 * FALSE when the @left bytes cannot hold it, as decoding would fail.
 * (Inline in each walk: called, it made walking churn's events 4 % slower.) */
static G_ALWAYS_INLINE inline gboolean
walk_field (const EtWalkField *f, guint pointer_size, const guint8 *p, gsize left,
            gsize *size, gsize *text_at, gsize *text_len)
{
  const guint8 *nul;

  *text_at = 0;
  switch (f->kind)
    {
    case ET_WALK_SCALAR:
      *size = f->size;
      break;
    case ET_WALK_POINTER:
      *size = pointer_size;
      break;
    case ET_WALK_UTF16Z:
      if ((*text_len = utf16_length (p, left)) == G_MAXSIZE)
        return FALSE;
      *size = 2 * *text_len + 2;
      break;
    case ET_WALK_ANSIZ:
    case ET_WALK_UTF8Z:
      if ((nul = memchr (p, 0, left)) == NULL)
        return FALSE;
      *text_len = (gsize) (nul - p);
      *size = *text_len + 1;
      break;
    default:            /* a u16 byte count, then the bytes */
      if (left < 2)
        return FALSE;
      *text_len = et_read_u16 (p);
      *text_at = 2;
      *size = 2 + *text_len;
      if (f->kind == ET_WALK_COUNTED_UTF16)
        *text_len /= 2;                     /* whole units; an odd byte is skipped */
      break;
    }
  return *size <= left;
}

/* Whether walk_field reads the payload's last field @f from its @left
 * bytes, when nothing needs its size or its text: only that a string's
 * terminator is there, looked for at the end first (where a payload's
 * last string ends, when it ends), then along it. A kilobyte string at
 * the end of every event was half of walking them (the bench's
 * nettrace-huge shape). */
static gboolean
last_field_fits (const EtWalkField *f, guint pointer_size, const guint8 *p, gsize left)
{
  gsize size, text_at, text_len;

  if (f->kind == ET_WALK_UTF16Z && left >= 2 && et_read_u16 (p + (left / 2 - 1) * 2) == 0)
    return TRUE;
  if ((f->kind == ET_WALK_ANSIZ || f->kind == ET_WALK_UTF8Z) && left >= 1 && p[left - 1] == 0)
    return TRUE;
  return walk_field (f, pointer_size, p, left, &size, &text_at, &text_len);
}

gboolean
et_walk_layout_fits (const EtWalkLayout *layout, const guint8 *payload, gsize len,
                     guint pointer_size)
{
  gsize pos = 0;

  g_return_val_if_fail (layout != NULL && (payload != NULL || len == 0), FALSE);
  for (guint i = 0; i < layout->n_fields; i++)
    {
      gsize size, text_at, text_len;

      if (i + 1 == layout->n_fields)
        return last_field_fits (&layout->fields[i], pointer_size, payload + pos, len - pos);
      if (!walk_field (&layout->fields[i], pointer_size, payload + pos, len - pos, &size,
                       &text_at, &text_len))
        return FALSE;
      pos += size;
    }
  return TRUE;
}

/* The cvSeries text as decoding would have made it. */
static void
convert_series (GString *out, EtWalkKind kind, const guint8 *text, gsize len)
{
  g_string_truncate (out, 0);
  switch (kind)
    {
    case ET_WALK_UTF16Z:
    case ET_WALK_COUNTED_UTF16:
      et_utf16_append (out, text, len);
      break;
    case ET_WALK_UTF8Z:
    case ET_WALK_COUNTED_UTF8:
      et_utf8_append (out, (const char *) text, len);
      break;
    default:
      et_ansi_append (out, (const char *) text, len);
      break;
    }
}

/* What the rules see of walked field @f, cv field @k, whose value is at
 * @p: series text is converted once the whole payload has been walked. */
static void
read_walked (EtCvValues *cv, guint k, const EtWalkField *f, guint pointer_size,
             const guint8 *p)
{
  switch (f->kind)
    {
    case ET_WALK_SCALAR:
      if (f->klass == ET_FIXED_OTHER)
        cv->state[k] = CV_OTHER;
      else
        read_integer (cv, k, p, f->size, f->klass);
      break;
    case ET_WALK_POINTER:
      read_integer (cv, k, p, pointer_size, ET_FIXED_UNSIGNED);
      break;
    case ET_WALK_COUNTED_BINARY:
      cv->state[k] = CV_OTHER;
      break;
    default:
      cv->state[k] = CV_STRING;
      cv->index[k] = ET_CV_IN_SERIES;   /* only read when k is the series */
      break;
    }
}

gboolean
et_marker_rules_apply_walk (const EtRuleInput *input, const EtWalkLayout *layout,
                            const EtCvPlan *plan, const guint8 *payload, gsize len,
                            guint pointer_size, EtRuleResult *result)
{
  static const guint8 empty[1];
  const EtWalkField *series = NULL;
  const guint8 *series_text = NULL;
  gsize pos = 0, series_len = 0;
  EtCvValues cv;
  guint j = 0;

  g_return_val_if_fail (input != NULL && layout != NULL && plan != NULL, FALSE);
  g_return_val_if_fail (result != NULL && result->series != NULL && result->skip_text, FALSE);

  if (payload == NULL)
    payload = empty, len = 0;
  memset (cv.state, CV_ABSENT, sizeof cv.state);
  for (guint i = 0; i < layout->n_fields; i++)
    {
      const EtWalkField *f = &layout->fields[i];
      gboolean wanted = j < plan->n_present && plan->field[plan->present[j]] == (gint) i;
      gsize size, text_at, text_len = 0;

      if (!wanted && i + 1 == layout->n_fields)
        {
          if (!last_field_fits (f, pointer_size, payload + pos, len - pos))
            return FALSE;
          break;
        }
      if (!walk_field (f, pointer_size, payload + pos, len - pos, &size, &text_at, &text_len))
        return FALSE;
      if (wanted)
        {
          guint k = plan->present[j++];

          read_walked (&cv, k, f, pointer_size, payload + pos);
          if (k == CV_SERIES && cv.state[k] == CV_STRING)
            series = f, series_text = payload + pos + text_at, series_len = text_len;
        }
      pos += size;
    }
  if (series != NULL)
    convert_series (result->series, series->kind, series_text, series_len);
  _et_marker_rules_apply_cv (input, &cv, result);
  return TRUE;
}
