/* Tests for et-marker-rules: every rule of seeds/000 and docs/markers.md,
 * one test per rule, named after it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "et-marker-rules.h"

#include <string.h>

typedef struct
{
  EtFields    *fields;
  EtRuleResult result;
} Ctx;

static int
setup (void **state)
{
  Ctx *c = g_new0 (Ctx, 1);
  c->fields = et_fields_new ();
  et_rule_result_init (&c->result);
  *state = c;
  return 0;
}

static int
teardown (void **state)
{
  Ctx *c = *state;
  et_fields_free (c->fields);
  et_rule_result_clear (&c->result);
  g_free (c);
  return 0;
}

/* Applies the rules to an event of @level/@opcode with the fields in c. */
static const EtRuleResult *
apply (Ctx *c, guint8 level, guint8 opcode, const char *task, const char *message)
{
  EtRuleInput in = { level, opcode, "Work", task, message, c->fields };
  et_marker_rules_apply (&in, &c->result);
  return &c->result;
}

/* ---- kind -------------------------------------------------------------- */

static void
test_kind_cvtype_table (void **state)
{
  Ctx *c = *state;
  static const struct { gint64 value; EtMarkerRole role; } rows[] = {
    { 0, ET_ROLE_MESSAGE }, { 1, ET_ROLE_SPAN_START }, { 2, ET_ROLE_SPAN_END },
    { 3, ET_ROLE_FLAG }, { 4, ET_ROLE_MESSAGE }, { 255, ET_ROLE_MESSAGE }, { -1, ET_ROLE_MESSAGE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      et_fields_clear (c->fields);
      et_fields_add_int (c->fields, "cvType", rows[i].value);
      /* Opcode 1 and Level 5 would say otherwise: cvType wins. */
      assert_int_equal (apply (c, 5, 1, NULL, NULL)->role, rows[i].role);
      assert_int_equal (c->result.role_rule, ET_RULE_CV_FIELD);
    }
}

static void
test_kind_opcode_start_is_span_start (void **state)
{
  Ctx *c = *state;
  assert_int_equal (apply (c, 4, 1, NULL, NULL)->role, ET_ROLE_SPAN_START);
  assert_int_equal (c->result.role_rule, ET_RULE_OPCODE);
  assert_int_equal (apply (c, 5, 1, NULL, NULL)->role, ET_ROLE_SPAN_START);
}

static void
test_kind_opcode_stop_is_span_end (void **state)
{
  Ctx *c = *state;
  assert_int_equal (apply (c, 4, 2, NULL, NULL)->role, ET_ROLE_SPAN_END);
  assert_int_equal (c->result.role_rule, ET_RULE_OPCODE);
}

static void
test_kind_level_0_to_4_is_flag (void **state)
{
  Ctx *c = *state;
  for (guint8 level = 0; level <= 4; level++)
    {
      assert_int_equal (apply (c, level, 0, NULL, NULL)->role, ET_ROLE_FLAG);
      assert_int_equal (c->result.role_rule, ET_RULE_LEVEL);
    }
  assert_int_equal (apply (c, 4, 9, NULL, NULL)->role, ET_ROLE_FLAG);   /* win:Send */
}

static void
test_kind_level_verbose_and_above_is_message (void **state)
{
  Ctx *c = *state;
  assert_int_equal (apply (c, 5, 0, NULL, NULL)->role, ET_ROLE_MESSAGE);
  assert_int_equal (apply (c, 6, 0, NULL, NULL)->role, ET_ROLE_MESSAGE);
  assert_int_equal (apply (c, 255, 0, NULL, NULL)->role, ET_ROLE_MESSAGE);
}

/* ---- importance ------------------------------------------------------- */

static void
test_importance_from_level_table (void **state)
{
  Ctx *c = *state;
  static const EtImportance expected[] = {
    ET_IMPORTANCE_NORMAL, ET_IMPORTANCE_CRITICAL, ET_IMPORTANCE_CRITICAL, ET_IMPORTANCE_HIGH,
    ET_IMPORTANCE_NORMAL, ET_IMPORTANCE_LOW, ET_IMPORTANCE_LOW,
  };

  for (guint level = 0; level < G_N_ELEMENTS (expected); level++)
    {
      assert_int_equal (apply (c, level, 0, NULL, NULL)->importance, expected[level]);
      assert_int_equal (c->result.importance_rule, ET_RULE_LEVEL);
    }
  assert_int_equal (apply (c, 200, 0, NULL, NULL)->importance, ET_IMPORTANCE_LOW);
}

static void
test_importance_cvimportance_table (void **state)
{
  Ctx *c = *state;
  static const struct { gint64 value; EtImportance importance; } rows[] = {
    { 0, ET_IMPORTANCE_NORMAL }, { 1, ET_IMPORTANCE_CRITICAL }, { 2, ET_IMPORTANCE_HIGH },
    { 3, ET_IMPORTANCE_HIGH }, { 4, ET_IMPORTANCE_NORMAL }, { 5, ET_IMPORTANCE_LOW },
    { 6, ET_IMPORTANCE_LOW }, { 99, ET_IMPORTANCE_LOW }, { -3, ET_IMPORTANCE_LOW },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      et_fields_clear (c->fields);
      et_fields_add_uint (c->fields, "cvImportance", (guint64) rows[i].value);
      if (rows[i].value < 0)
        {
          et_fields_clear (c->fields);
          et_fields_add_int (c->fields, "cvImportance", rows[i].value);
        }
      /* Level 1 would say Critical: cvImportance wins. */
      assert_int_equal (apply (c, 1, 0, NULL, NULL)->importance, rows[i].importance);
      assert_int_equal (c->result.importance_rule, ET_RULE_CV_FIELD);
    }
}

/* ---- category ------------------------------------------------------------ */

static void
test_category_alert_for_critical_and_error (void **state)
{
  Ctx *c = *state;
  assert_int_equal (apply (c, 1, 0, NULL, NULL)->category, ET_CATEGORY_ALERT);
  assert_int_equal (apply (c, 2, 0, NULL, NULL)->category, ET_CATEGORY_ALERT);
  assert_int_equal (c->result.category_rule, ET_RULE_LEVEL);
}

static void
test_category_default_zero_for_other_levels (void **state)
{
  Ctx *c = *state;
  static const guint8 levels[] = { 0, 3, 4, 5, 9 };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    assert_int_equal (apply (c, levels[i], 0, NULL, NULL)->category, 0);
}

static void
test_category_cvcategory_byte_value_wins (void **state)
{
  Ctx *c = *state;

  et_fields_add_uint (c->fields, "cvCategory", 3);
  assert_int_equal (apply (c, 1, 0, NULL, NULL)->category, 3);   /* not alert */
  assert_int_equal (c->result.category_rule, ET_RULE_CV_FIELD);
  et_fields_clear (c->fields);
  et_fields_add_uint (c->fields, "cvCategory", 200);
  assert_int_equal (apply (c, 4, 0, NULL, NULL)->category, 200);
  et_fields_clear (c->fields);
  et_fields_add_int (c->fields, "cvCategory", 0x1FF);   /* wider than a byte: its low byte */
  assert_int_equal (apply (c, 4, 0, NULL, NULL)->category, 0xFF);
}

/* ---- series ---------------------------------------------------------------- */

static void
test_series_is_task_name (void **state)
{
  Ctx *c = *state;
  assert_string_equal (apply (c, 4, 0, "Loop", NULL)->series->str, "Loop");
  assert_int_equal (c->result.series_rule, ET_RULE_TASK_NAME);
}

static void
test_series_empty_without_task_name (void **state)
{
  Ctx *c = *state;
  /* TraceLogging events and events without a task have no task name. */
  assert_string_equal (apply (c, 4, 0, NULL, NULL)->series->str, "");
  assert_int_equal (c->result.series_rule, ET_RULE_EMPTY);
}

static void
test_series_cvseries_wins (void **state)
{
  Ctx *c = *state;
  et_fields_add_string (c->fields, "cvSeries", "Backend", 7);
  assert_string_equal (apply (c, 4, 0, "Loop", NULL)->series->str, "Backend");
  assert_int_equal (c->result.series_rule, ET_RULE_CV_FIELD);
}

/* ---- text ---------------------------------------------------------------- */

static void
test_text_cvtextw_wins (void **state)
{
  Ctx *c = *state;
  et_fields_add_string (c->fields, "cvTextW", "custom", 6);
  assert_string_equal (apply (c, 4, 0, NULL, "Message %1")->text->str, "custom");
  assert_int_equal (c->result.text_rule, ET_RULE_CV_FIELD);
}

static void
test_text_message_string_expands_fields (void **state)
{
  Ctx *c = *state;
  et_fields_add_int (c->fields, "a", 42);
  et_fields_add_string (c->fields, "b", "alpha", 5);
  assert_string_equal (apply (c, 4, 0, NULL, "Item %1 is %2.")->text->str, "Item 42 is alpha.");
  assert_int_equal (c->result.text_rule, ET_RULE_MESSAGE_STRING);
}

static void
test_text_message_escapes_percent_newline_tab (void **state)
{
  Ctx *c = *state;
  et_fields_add_int (c->fields, "a", 7);
  assert_string_equal (apply (c, 4, 0, NULL, "100%% of %1%nnext%tcol")->text->str,
                       "100% of 7\nnext\tcol");
}

static void
test_text_message_percent_n_past_last_stays (void **state)
{
  Ctx *c = *state;
  et_fields_add_int (c->fields, "a", 7);
  assert_string_equal (apply (c, 4, 0, NULL, "%1 and %2 and %12 and % end%")->text->str,
                       "7 and %2 and %12 and % end%");
}

static void
test_text_message_uses_value_map_names (void **state)
{
  Ctx *c = *state;
  guint i = et_fields_add_uint (c->fields, "op", 2);
  et_fields_set_label (c->fields, i, "ParallelForEach");
  assert_string_equal (apply (c, 4, 0, NULL, "Begin %1")->text->str, "Begin ParallelForEach");
}

static void
test_text_event_name_and_fields (void **state)
{
  Ctx *c = *state;
  et_fields_add_int (c->fields, "item", 42);
  et_fields_add_string (c->fields, "label", "alpha", 5);
  et_fields_add_uint (c->fields, "cvCategory", 2);   /* cv fields are left out */
  assert_string_equal (apply (c, 4, 0, NULL, NULL)->text->str, "Work: item=42, label=alpha");
  assert_int_equal (c->result.text_rule, ET_RULE_EVENT_NAME);
}

static void
test_text_bare_event_name_without_fields (void **state)
{
  Ctx *c = *state;
  assert_string_equal (apply (c, 4, 0, NULL, NULL)->text->str, "Work");
  et_fields_add_uint (c->fields, "cvType", 3);       /* only cv fields: still bare */
  assert_string_equal (apply (c, 4, 0, NULL, NULL)->text->str, "Work");
}

/* ---- cv fields in general --------------------------------------------------- */

static void
test_cv_fields_match_case_insensitively (void **state)
{
  Ctx *c = *state;
  et_fields_add_uint (c->fields, "CVTYPE", 3);
  et_fields_add_uint (c->fields, "CvSpanID", 77);
  apply (c, 5, 0, NULL, NULL);
  assert_int_equal (c->result.role, ET_ROLE_FLAG);
  assert_true (c->result.has_span_id);
  assert_int_equal (c->result.span_id, 77);

  /* Only letters fold: a name one bit away from a letter, in a character
   * that is not one, is another field. */
  et_fields_clear (c->fields);
  et_fields_add_uint (c->fields, "cvSpan\x09\x04", 78);    /* 'I' ^ 0x40, 'D' ^ 0x40 */
  et_fields_add_uint (c->fields, "cvTyp@", 3);               /* '@' | 0x20 is '`' */
  apply (c, 5, 0, NULL, NULL);
  assert_int_equal (c->result.role, ET_ROLE_MESSAGE);
  assert_false (c->result.has_span_id);
}

static void
test_cv_fields_accept_any_integer_type (void **state)
{
  Ctx *c = *state;
  et_fields_add_int (c->fields, "cvType", 1);         /* Int32 instead of byte */
  et_fields_add_uint (c->fields, "cvSpanId", G_GUINT64_CONSTANT (5000000000));
  apply (c, 4, 0, NULL, NULL);
  assert_int_equal (c->result.role, ET_ROLE_SPAN_START);
  assert_int_equal (c->result.span_id, G_GINT64_CONSTANT (5000000000));
}

static void
test_cv_field_of_wrong_kind_is_ignored_and_reported (void **state)
{
  Ctx *c = *state;
  et_fields_add_string (c->fields, "cvType", "3", 1);
  et_fields_add_string (c->fields, "cvImportance", "1", 1);
  et_fields_add_string (c->fields, "cvCategory", "2", 1);
  et_fields_add_int (c->fields, "cvSeries", 4);
  et_fields_add_bool (c->fields, "cvTextW", TRUE);
  et_fields_add_string (c->fields, "cvSpanId", "9", 1);
  apply (c, 5, 0, "Loop", NULL);
  assert_int_equal (c->result.role, ET_ROLE_MESSAGE);          /* from Level 5 */
  assert_int_equal (c->result.importance, ET_IMPORTANCE_LOW);
  assert_int_equal (c->result.category, 0);
  assert_string_equal (c->result.series->str, "Loop");
  assert_false (c->result.has_span_id);
  assert_int_equal (c->result.ignored_cv, ET_CV_TYPE | ET_CV_IMPORTANCE | ET_CV_SERIES
                                          | ET_CV_CATEGORY | ET_CV_TEXT | ET_CV_SPAN_ID);
}

static void
test_cv_fields_in_structs_do_not_count (void **state)
{
  Ctx *c = *state;
  et_fields_begin (c->fields, "inner", ET_VALUE_STRUCT);
  et_fields_add_uint (c->fields, "cvType", 3);
  et_fields_end (c->fields);
  assert_int_equal (apply (c, 5, 0, NULL, NULL)->role, ET_ROLE_MESSAGE);
}

static void
test_importance_names_round_trip (void **state)
{
  EtImportance i;

  for (EtImportance v = ET_IMPORTANCE_LOW; v <= ET_IMPORTANCE_CRITICAL; v++)
    {
      assert_true (et_importance_from_string (et_importance_to_string (v), &i));
      assert_int_equal (i, v);
    }
  assert_false (et_importance_from_string ("urgent", &i));
}

/* A cv field is named exactly one of the six names, in any case: names
 * made of their pieces (prefixes, one letter more or changed, other
 * cases) are judged as a case-blind comparison with each name judges
 * them. */
static void
test_cv_field_names_in_any_case_and_nothing_else (void **state)
{
  static const char *const names[] = {
    "cvType", "cvImportance", "cvSeries", "cvCategory", "cvTextW", "cvSpanId",
  };
  static const char *const extra[] = { "", "x", "W", "s", "e", "@", "Y" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);

  for (guint round = 0; round < 20000; round++)
    {
      g_autofree char *name = g_strdup (names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))]);
      gboolean expected = FALSE;
      gsize len = strlen (name);

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0: name[g_rand_int_range (rand, 0, (gint32) len + 1)] = '\0'; break;  /* a prefix */
        case 1: name[g_rand_int_range (rand, 0, (gint32) len)] ^= 0x01; break;    /* one changed */
        case 2:
          {
            char *longer = g_strconcat (name, extra[g_rand_int_range (rand, 0, 7)], NULL);
            g_free (name);
            name = longer;
          }
          break;
        default: break;
        }
      for (char *c = name; *c != '\0'; c++)
        if (g_ascii_isalpha (*c) && g_rand_boolean (rand))
          *c ^= 0x20;                                                        /* other case */
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        expected |= g_ascii_strcasecmp (name, names[k]) == 0;
      assert_int_equal (et_marker_rules_is_cv_field (name), expected);
    }
  assert_true (et_marker_rules_is_cv_field ("CVSPANID"));
  assert_true (et_marker_rules_is_cv_field ("cvtextw"));
  assert_false (et_marker_rules_is_cv_field ("cvText"));
  assert_false (et_marker_rules_is_cv_field ("cvTypes"));
  assert_false (et_marker_rules_is_cv_field ("cv"));
  assert_false (et_marker_rules_is_cv_field (""));
}

#define T(name) cmocka_unit_test_setup_teardown (name, setup, teardown)

/* ---- walked payloads ----------------------------------------------------- */

/* A walk layout of cvType (i32) and a last string of @kind that no rule
 * reads; the payload is cvType 3 (a flag) and @tail's @len bytes. */
static gboolean
walk_flag_with_tail (Ctx *c, EtWalkKind kind, const char *tail, gsize len, gboolean *fits)
{
  EtWalkLayout *layout = g_new0 (EtWalkLayout, 1);
  EtRuleInput in = { 4, 0, "Work", NULL, NULL, NULL };
  guint8 payload[64];
  EtCvPlan plan;
  gboolean walked;

  g_assert (len + 4 <= sizeof payload);
  et_walk_layout_add (layout, "cvType", ET_WALK_SCALAR, 4, ET_FIXED_SIGNED);
  et_walk_layout_add (layout, "detail", kind, 0, ET_FIXED_OTHER);
  et_cv_plan_init_walk (&plan, layout);
  payload[0] = 3, payload[1] = payload[2] = payload[3] = 0;
  memcpy (payload + 4, tail, len);
  c->result.skip_text = TRUE;
  c->result.role = ET_ROLE_MESSAGE;
  *fits = et_walk_layout_fits (layout, payload, 4 + len, 8);
  walked = et_marker_rules_apply_walk (&in, layout, &plan, payload, 4 + len, 8, &c->result);
  et_walk_layout_free (layout);
  return walked;
}

/* A payload's last string that no rule reads is walked as far as knowing
 * it ends: wherever its terminator is (at the end, before bytes of no
 * terminator, in no whole unit), the walk succeeds or fails exactly as
 * reading it unit by unit does, and a failed walk leaves the result
 * alone (the event is decoded, and its failure said). */
static void
test_walk_of_a_last_string_fails_only_where_decoding_does (void **state)
{
  Ctx *c = *state;
  static const struct
  {
    EtWalkKind  kind;
    const char *tail;
    gsize       len;
    gboolean    ends;
  } rows[] = {
    { ET_WALK_UTF16Z, "a\0b\0\0\0", 6, TRUE },          /* "ab", ended at the end */
    { ET_WALK_UTF16Z, "a\0\0\0x\0y\0", 8, TRUE },      /* "a", then units of no NUL */
    { ET_WALK_UTF16Z, "a\0b\0", 4, FALSE },               /* no terminator */
    { ET_WALK_UTF16Z, "a\0b\0\0", 5, FALSE },            /* a lone zero byte, no whole unit */
    { ET_WALK_UTF16Z, "\0", 1, FALSE },
    { ET_WALK_UTF16Z, "", 0, FALSE },
    { ET_WALK_UTF8Z, "ab\0", 3, TRUE },
    { ET_WALK_UTF8Z, "a\0bc", 4, TRUE },
    { ET_WALK_ANSIZ, "abc", 3, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      gboolean fits = !rows[i].ends;

      assert_int_equal (walk_flag_with_tail (c, rows[i].kind, rows[i].tail, rows[i].len, &fits),
                        rows[i].ends);
      assert_int_equal (fits, rows[i].ends);
      /* (cvType 3 made it a flag; a failed walk left the message it was) */
      assert_int_equal (c->result.role, rows[i].ends ? ET_ROLE_FLAG : ET_ROLE_MESSAGE);
    }
}

/* A UTF-16 string before cvType is walked to its terminator, whatever its
 * length (the walk tests eight units at a time, then four, then one):
 * cvType is read right after it, at every length from 0 to 40 units, with
 * zero bytes inside units and across two units that are no terminator;
 * without a terminator the walk fails, as decoding does. */
static void
test_walk_finds_a_string_end_at_every_length (void **state)
{
  Ctx *c = *state;
  EtWalkLayout *layout = g_new0 (EtWalkLayout, 1);
  EtRuleInput in = { 4, 0, "Work", NULL, NULL, NULL };
  EtCvPlan plan;

  et_walk_layout_add (layout, "label", ET_WALK_UTF16Z, 0, ET_FIXED_OTHER);
  et_walk_layout_add (layout, "cvType", ET_WALK_SCALAR, 4, ET_FIXED_SIGNED);
  et_cv_plan_init_walk (&plan, layout);
  for (guint units = 0; units <= 40; units++)
    for (guint ended = 0; ended < 2; ended++)
      {
        guint8 payload[2 * 41 + 4 + 8];
        gsize len = 0;

        for (guint k = 0; k < units; k++)
          {
            /* 0x0041, 0x4100 (a zero byte each, two across them), 0x00E9 … */
            guint16 unit = k % 3 == 0 ? 0x0041 : k % 3 == 1 ? 0x4100 : (guint16) (0x00E9 + k);

            payload[len++] = unit & 0xFF;
            payload[len++] = unit >> 8;
          }
        if (ended)
          payload[len++] = 0, payload[len++] = 0;
        payload[len++] = 3, payload[len++] = 0, payload[len++] = 0, payload[len++] = 0;
        c->result.skip_text = TRUE;
        c->result.role = ET_ROLE_MESSAGE;
        assert_int_equal (et_walk_layout_fits (layout, payload, len, 8), ended);
        assert_int_equal (et_marker_rules_apply_walk (&in, layout, &plan, payload, len, 8,
                                                      &c->result), ended);
        /* (cvType 3, read right after the terminator, made it a flag) */
        assert_int_equal (c->result.role, ended ? ET_ROLE_FLAG : ET_ROLE_MESSAGE);
      }
  et_walk_layout_free (layout);
}

/* A last string the rules read (cvSeries) is still read whole. */
static void
test_walk_reads_a_last_series_whole (void **state)
{
  Ctx *c = *state;
  EtWalkLayout *layout = g_new0 (EtWalkLayout, 1);
  EtRuleInput in = { 4, 0, "Work", "Task", NULL, NULL };
  static const guint8 payload[] = { 3, 0, 0, 0, 'i', 0, 'o', 0, 0, 0, 'x', 0 };
  EtCvPlan plan;

  et_walk_layout_add (layout, "cvType", ET_WALK_SCALAR, 4, ET_FIXED_SIGNED);
  et_walk_layout_add (layout, "cvSeries", ET_WALK_UTF16Z, 0, ET_FIXED_OTHER);
  et_cv_plan_init_walk (&plan, layout);
  c->result.skip_text = TRUE;
  assert_true (et_marker_rules_apply_walk (&in, layout, &plan, payload, sizeof payload, 8,
                                           &c->result));
  assert_string_equal (c->result.series->str, "io");
  assert_int_equal (c->result.role, ET_ROLE_FLAG);
  et_walk_layout_free (layout);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_kind_cvtype_table),
    T (test_cv_field_names_in_any_case_and_nothing_else),
    T (test_kind_opcode_start_is_span_start),
    T (test_kind_opcode_stop_is_span_end),
    T (test_kind_level_0_to_4_is_flag),
    T (test_kind_level_verbose_and_above_is_message),
    T (test_importance_from_level_table),
    T (test_importance_cvimportance_table),
    T (test_category_alert_for_critical_and_error),
    T (test_category_default_zero_for_other_levels),
    T (test_category_cvcategory_byte_value_wins),
    T (test_series_is_task_name),
    T (test_series_empty_without_task_name),
    T (test_series_cvseries_wins),
    T (test_text_cvtextw_wins),
    T (test_text_message_string_expands_fields),
    T (test_text_message_escapes_percent_newline_tab),
    T (test_text_message_percent_n_past_last_stays),
    T (test_text_message_uses_value_map_names),
    T (test_text_event_name_and_fields),
    T (test_text_bare_event_name_without_fields),
    T (test_cv_fields_match_case_insensitively),
    T (test_cv_fields_accept_any_integer_type),
    T (test_cv_field_of_wrong_kind_is_ignored_and_reported),
    T (test_cv_fields_in_structs_do_not_count),
    T (test_importance_names_round_trip),
    T (test_walk_of_a_last_string_fails_only_where_decoding_does),
    T (test_walk_reads_a_last_series_whole),
    T (test_walk_finds_a_string_end_at_every_length),
  };
  return cmocka_run_group_tests_name ("marker-rules", tests, NULL, NULL);
}
