/* GUI test (under Xvfb) of the thread headers' CPU-use band: on a kernel
 * trace without markers whose worker thread is switched in for 2–6 ms,
 * the window shows the worker's header once empty threads are shown, with
 * the band, and its tooltip gives the use of the bar under the pointer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "et-cpu-strip.h"
#include "et-fixture.h"
#include "et-timeline-view.h"
#include "gui-test.h"

#define APP_PID    4120
#define WORKER_TID 4122
#define MS         1000000

static char *cpu_path;

static int
setup (void **state)
{
  g_autoptr(EtFixtureWriter) w = NULL;
  EtFixtureOptions o;

  if (setup_demo (state) != 0)
    return -1;
  cpu_path = g_build_filename (gui_dir, "cpu.etl", NULL);
  et_fixture_options_init (&o);
  w = et_fixture_writer_new (cpu_path, &o, NULL);
  et_fixture_write_thread (w, 0, 100, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  et_fixture_write_cswitch (w, 1, 2 * MS, WORKER_TID, 0);
  et_fixture_write_sample (w, 1, 4 * MS, WORKER_TID, 0x1000);
  et_fixture_write_cswitch (w, 1, 6 * MS, 0, WORKER_TID);
  et_fixture_write_sample (w, 2, 10 * MS, 0, 0x1000);           /* the end */
  return et_fixture_writer_close (w, NULL) ? 0 : -1;
}

static int
teardown (void **state)
{
  g_clear_pointer (&cpu_path, g_free);
  return teardown_demo (state);
}

static void
test_band_and_tooltip (void **state)
{
  EtWindow *window = open_window (cpu_path);
  EtTimelineView *timeline = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                            ET_TYPE_TIMELINE_VIEW));
  EtTrace *trace = et_window_get_trace (window);
  const EtViewport *v = et_window_get_viewport (window);
  const EtRow *row = NULL;
  double top, height, y;
  g_autofree char *on = NULL, *off = NULL;
  guint samples = 0;

  (void) state;
  activate (window, "timeline.show-empty-threads");
  wait_for_picture (window);
  for (guint t = 0; t < et_trace_get_n_threads (trace) && row == NULL; t++)
    if (et_trace_get_thread (trace, t)->tid == WORKER_TID)
      row = et_layout_thread_row (et_window_get_layout (window), t);
  assert_non_null (row);
  assert_true (et_cpu_strip_band (trace, row, v->ruler_height + row->y - v->scroll_y, &top,
                                  &height));
  y = top + height - 1;
  on = et_timeline_view_tooltip_at (timeline, et_viewport_x (v, 2500000), y);
  off = et_timeline_view_tooltip_at (timeline, et_viewport_x (v, 8 * MS), y);
  assert_non_null (on);
  assert_non_null (off);
  assert_string_equal (on, "CPU 100 % by context switches (0 samples)");
  assert_string_equal (off, "CPU 0 % by context switches (0 samples)");
  /* Of the bars around 4 ms, one holds the sample there. */
  for (double dx = -4; dx <= 4; dx++)
    {
      g_autofree char *tip = et_timeline_view_tooltip_at (timeline, et_viewport_x (v, 4 * MS) + dx,
                                                          y);

      samples += g_str_has_suffix (tip, "(1 sample)");
      assert_true (g_str_has_suffix (tip, "(1 sample)") || g_str_has_suffix (tip, "(0 samples)"));
    }
  assert_true (samples >= 1 && samples <= 2);     /* one bar, two pixels wide */
  save_screenshot (window, "app-cpu-strip.png");
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_band_and_tooltip),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
