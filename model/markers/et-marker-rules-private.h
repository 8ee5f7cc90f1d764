/* et-marker-rules-private.h — what the rules see of an event's cv fields,
 * shared by the rules (et-marker-rules.c, from decoded fields) and the
 * readers that take cv fields straight from a payload (et-marker-cv.c:
 * fixed layouts and walks). Nothing outside these two files includes it. */
#pragma once

#include "et-marker-rules.h"

G_BEGIN_DECLS

/* The cv fields (cvType, cvImportance, cvSeries, cvCategory, cvTextW,
 * cvSpanId), in EtCvField bit order. */
enum { CV_TYPE, CV_IMPORTANCE, CV_SERIES, CV_CATEGORY, CV_TEXT, CV_SPAN_ID, N_CV };

/* What the rules see of each cv field: absent, an integer (its value), a
 * string (its field), or another kind (ignored when the rule reads it). */
enum { CV_ABSENT, CV_INTEGER, CV_STRING, CV_OTHER };

/* EtCvValues.index of a string the walk has already converted into the
 * result's series (the only string the rules read while loading). */
#define ET_CV_IN_SERIES G_MAXUINT

typedef struct
{
  guint8 state[N_CV];
  gint64 value[N_CV];  /* CV_INTEGER */
  guint  index[N_CV];  /* CV_STRING: the field in the input's fields */
} EtCvValues;

static inline void
_et_cv_set_integer (EtCvValues *cv, gint k, gint64 value)
{
  cv->state[k] = CV_INTEGER;
  cv->value[k] = value;
}

/* Unsigned values past G_MAXINT64 count as G_MAXINT64. */
static inline gint64
_et_cv_clamp_unsigned (guint64 u)
{
  return u > G_MAXINT64 ? G_MAXINT64 : (gint64) u;
}

/* Which cv field @name is (without regard to case), or -1. */
gint  _et_cv_field_of           (const char        *name);
/* Every rule, once the cv fields are known. */
void  _et_marker_rules_apply_cv (const EtRuleInput *input,
                                 const EtCvValues  *cv,
                                 EtRuleResult      *result);

G_END_DECLS
