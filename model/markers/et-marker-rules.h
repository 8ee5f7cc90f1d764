/* et-marker-rules.h — one decoded event → one Concurrency Visualizer marker.
 *
 * The rules of seeds/000 as settled in docs/markers.md: kind, importance,
 * series, category, text, and the cv* overrides. Pure functions of the
 * event; the trace calls them while loading and the details view calls them
 * again to say which rule decided what.
 */
#pragma once

#include <glib.h>
#include "et-fields.h"

G_BEGIN_DECLS

/* What an event is on the timeline (a span is a start/end pair). */
typedef enum
{
  ET_ROLE_MESSAGE,
  ET_ROLE_SPAN_START,
  ET_ROLE_SPAN_END,
  ET_ROLE_FLAG,
} EtMarkerRole;

/* Ordered: a larger value is more important. */
typedef enum
{
  ET_IMPORTANCE_LOW,
  ET_IMPORTANCE_NORMAL,
  ET_IMPORTANCE_HIGH,
  ET_IMPORTANCE_CRITICAL,
} EtImportance;

#define ET_CATEGORY_ALERT (-1)

/* Which rule decided a property (for the details view). */
typedef enum
{
  ET_RULE_CV_FIELD,        /* a cv* field */
  ET_RULE_OPCODE,          /* kind from Opcode 1/2 */
  ET_RULE_LEVEL,           /* kind, importance or category from Level */
  ET_RULE_TASK_NAME,       /* series from the task name */
  ET_RULE_EMPTY,           /* series empty: no task name */
  ET_RULE_MESSAGE_STRING,  /* text from the manifest message */
  ET_RULE_EVENT_NAME,      /* text from event name and payload fields */
  ET_RULE_BUILTIN,         /* a built-in runtime rule (et-builtin-rules) */
} EtRuleSource;

/* Bits for cv fields that were present but of the wrong kind (ignored). */
typedef enum
{
  ET_CV_TYPE       = 1 << 0,
  ET_CV_IMPORTANCE = 1 << 1,
  ET_CV_SERIES     = 1 << 2,
  ET_CV_CATEGORY   = 1 << 3,
  ET_CV_TEXT       = 1 << 4,
  ET_CV_SPAN_ID    = 1 << 5,
} EtCvField;

typedef struct
{
  guint8          level;
  guint8          opcode;
  const char     *event_name;  /* never NULL */
  const char     *task_name;   /* NULL when unknown (TraceLogging, no manifest) */
  const char     *message;     /* manifest message with %N, or NULL */
  const EtFields *fields;      /* the decoded payload (may be empty) */
} EtRuleInput;

typedef struct
{
  EtMarkerRole role;
  EtImportance importance;
  gint16       category;       /* -1 alert, else 0…255 */
  gboolean     has_span_id;
  gint64       span_id;
  GString     *series;         /* caller-owned, overwritten */
  GString     *text;           /* caller-owned, overwritten */
  gboolean     skip_text;      /* set by the caller: leave text (and text_rule) alone;
                                  loading decides text lazily, when it is shown */
  gboolean     skip_task_series; /* set by the caller: a series from the task name
                                    (series_rule TASK_NAME) is not copied into series;
                                    the caller has the name */
  EtRuleSource role_rule;
  EtRuleSource importance_rule;
  EtRuleSource series_rule;
  EtRuleSource category_rule;
  EtRuleSource text_rule;
  guint        ignored_cv;     /* EtCvField bits */
} EtRuleResult;

void        et_rule_result_init       (EtRuleResult      *result);
void        et_rule_result_clear      (EtRuleResult      *result);
void        et_marker_rules_apply     (const EtRuleInput *input,
                                       EtRuleResult      *result);

/* Which field of a fixed layout (et-fields.h) holds each cv field, in
 * EtCvField bit order; -1 for none. Made once per schema. */
typedef struct
{
  gint   field[6];
  guint  n_present;
  guint8 present[6];   /* the cv fields the layout has, by EtCvField bit number */
} EtCvPlan;

void        et_cv_plan_init           (EtCvPlan            *plan,
                                       const EtFixedLayout *layout);
/* The rules for an event whose schema has a fixed layout, reading only its
 * cv fields from @payload (at least layout->size bytes): the result of
 * decoding the payload and calling et_marker_rules_apply, without the text
 * (@result->skip_text must be set; input->fields is not read). */
void        et_marker_rules_apply_fixed (const EtRuleInput   *input,
                                         const EtFixedLayout *layout,
                                         const EtCvPlan      *plan,
                                         const guint8        *payload,
                                         EtRuleResult        *result);

/* The same for a walk layout (et-fields.h): present[] in field order. */
void        et_cv_plan_init_walk      (EtCvPlan            *plan,
                                       const EtWalkLayout  *layout);
/* The rules for an event whose schema has a walk layout: its fields are
 * walked (only the cvSeries text is converted) and the result is that of
 * decoding the payload and calling et_marker_rules_apply, without the text
 * (@result->skip_text must be set). FALSE, and @result untouched, when
 * the payload is too short for the fields or a string has no terminator:
 * decoding it then fails and says why. */
gboolean    et_marker_rules_apply_walk (const EtRuleInput  *input,
                                        const EtWalkLayout *layout,
                                        const EtCvPlan     *plan,
                                        const guint8       *payload,
                                        gsize               len,
                                        guint               pointer_size,
                                        EtRuleResult       *result);
/* TRUE when a payload of @len bytes holds every field of @layout (each
 * string with its terminator): decoding it then cannot fail. What loading
 * checks the events that make no marker with (et-trace-verdict.c). */
gboolean    et_walk_layout_fits        (const EtWalkLayout *layout,
                                        const guint8       *payload,
                                        gsize               len,
                                        guint               pointer_size);

/* Whether a field of this name is a cv field (cvType, cvSpanId, …; any
 * case). Text rule 3 leaves exactly these fields out of the text. */
gboolean    et_marker_rules_is_cv_field (const char      *name);

/* Text rule 2: expand %1…%N, %%, %n, %t of a manifest message. */
void        et_format_message         (const char        *message,
                                       const EtFields    *fields,
                                       GString           *out);

const char *et_importance_to_string   (EtImportance       importance); /* "critical"… */
gboolean    et_importance_from_string (const char        *text,
                                       EtImportance      *importance);
const char *et_rule_source_to_string  (EtRuleSource       source);

G_END_DECLS
