/* test-flows.c — work that hops threads (model/query/et-flows): a scheduled task
 * to its execution and back, queued work to its dequeue and back, on the
 * corpus trace net.4.5.2.x64.etl (PerfView's own TPL and thread-pool
 * events); skipped, saying so, without ../shared/corpus.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "et-flows.h"
#include "et-fixture.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

static EtTrace *trace;

static void
text_of (guint channel, guint index, GString *out)
{
  g_string_truncate (out, 0);
  et_trace_marker_text (trace, &et_trace_get_channel (trace, channel)->markers[index], out);
}

static guint32
tid_of (guint channel)
{
  return et_trace_get_thread (trace, et_trace_channel_thread (trace, channel))->tid;
}

/* From a cause to its effect on another thread, and back to the same
 * cause; an effect has no forward partner, a cause no backward one. */
static void
check_hop (const char *cause, const char *effect, guint32 effect_tid)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint c, i, to_c, to_i, back_c, back_i;

  assert_true (et_fixture_find_marker (trace, cause, &c, &i));
  assert_true (et_trace_flow_partner (trace, c, i, TRUE, &to_c, &to_i));
  text_of (to_c, to_i, text);
  assert_string_equal (text->str, effect);
  assert_int_equal (tid_of (to_c), effect_tid);
  assert_true (tid_of (to_c) != tid_of (c));
  assert_true (et_trace_get_channel (trace, to_c)->markers[to_i].start_ns
               >= et_trace_get_channel (trace, c)->markers[i].start_ns);
  assert_true (et_trace_flow_partner (trace, to_c, to_i, FALSE, &back_c, &back_i));
  assert_int_equal (back_c, c);
  assert_int_equal (back_i, i);
  assert_false (et_trace_flow_partner (trace, c, i, FALSE, &back_c, &back_i));
  assert_false (et_trace_flow_partner (trace, to_c, to_i, TRUE, &back_c, &back_i));
}

static void
test_task_scheduled_to_executing_and_back (void **state)
{
  if (trace == NULL)
    skip ();       /* the corpus trace is absent (setup said so) */
  check_hop ("Task 6 scheduled to TaskScheduler 1.", "Task 6 executing.", 3784);
  check_hop ("Task 7 scheduled to TaskScheduler 1.", "Task 7 executing.", 3672);
}

static void
test_work_queued_to_dequeued_and_back (void **state)
{
  if (trace == NULL)
    skip ();       /* the corpus trace is absent (setup said so) */
  check_hop ("ThreadPoolEnqueueWork: workID=278775272", "ThreadPoolDequeueWork: workID=278775272",
             3784);
}

/* A marker of no flow has no partner either way. */
static void
test_other_markers_have_no_partner (void **state)
{
  guint c, i, to_c, to_i;

  if (trace == NULL)
    skip ();       /* the corpus trace is absent (setup said so) */
  assert_true (et_fixture_find_marker (trace, "Tracing/Start", &c, &i));
  assert_false (et_trace_flow_partner (trace, c, i, TRUE, &to_c, &to_i));
  assert_false (et_trace_flow_partner (trace, c, i, FALSE, &to_c, &to_i));
}

static int
setup (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "net.4.5.2.x64.etl", NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/net.4.5.2.x64.etl is absent: flows not checked\n");
      return 0;
    }
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  return trace != NULL ? 0 : -1;
}

static int
teardown (void **state)
{
  g_clear_object (&trace);
  return 0;
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_task_scheduled_to_executing_and_back),
    cmocka_unit_test (test_work_queued_to_dequeued_and_back),
    cmocka_unit_test (test_other_markers_have_no_partner),
  };
  return cmocka_run_group_tests_name ("flows", tests, setup, teardown);
}
