/* Tests for et-guid: Windows layout, text form, and EventSource's name hash. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "et-guid.h"

static void
test_guid_bytes_are_windows_layout (void **state)
{
  /* e13c0d23-ccbc-4e12-931b-d9cc2eee27e4 as it lies on disk */
  static const guint8 bytes[16] = { 0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
                                    0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 };
  char text[ET_GUID_STRING_LEN];
  EtGuid guid;

  et_guid_from_bytes (&guid, bytes);
  et_guid_to_string (&guid, text);
  assert_string_equal (text, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
}

static void
test_guid_parse_round_trips_with_and_without_braces (void **state)
{
  char text[ET_GUID_STRING_LEN];
  EtGuid a, b;

  assert_true (et_guid_parse ("{2E5DBA47-A3D2-4D16-8EE0-6671FFDCD7B5}", &a));
  assert_true (et_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", &b));
  assert_true (et_guid_equal (&a, &b));
  et_guid_to_string (&a, text);
  assert_string_equal (text, "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5");
}

static void
test_guid_parse_rejects_malformed_text (void **state)
{
  EtGuid g;

  assert_false (et_guid_parse ("", &g));
  assert_false (et_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b", &g));
  assert_false (et_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5x", &g));
  assert_false (et_guid_parse ("{2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", &g));
  assert_false (et_guid_parse ("2e5dba47a3d2-4d16-8ee0-6671ffdcd7b5", &g));
  assert_false (et_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7g5", &g));
}

static void
test_eventsource_guid_from_name (void **state)
{
  char text[ET_GUID_STRING_LEN];
  EtGuid g;

  /* The two checks etl-format.md §12 gives, from real traces. */
  et_guid_from_eventsource_name ("MySource", &g);
  et_guid_to_string (&g, text);
  assert_string_equal (text, "a61ea624-4944-55fc-c2a8-37838829438d");
  et_guid_from_eventsource_name ("PerfView", &g);
  et_guid_to_string (&g, text);
  assert_string_equal (text, "a8a71ac1-040f-54a2-07ca-00a89b5ab761");
  /* Case does not matter, a leading '*' is dropped. */
  et_guid_from_eventsource_name ("*perfview", &g);
  et_guid_to_string (&g, text);
  assert_string_equal (text, "a8a71ac1-040f-54a2-07ca-00a89b5ab761");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_guid_bytes_are_windows_layout),
    cmocka_unit_test (test_guid_parse_round_trips_with_and_without_braces),
    cmocka_unit_test (test_guid_parse_rejects_malformed_text),
    cmocka_unit_test (test_eventsource_guid_from_name),
  };
  return cmocka_run_group_tests_name ("guid", tests, NULL, NULL);
}
