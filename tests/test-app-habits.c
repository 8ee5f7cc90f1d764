/* GUI tests (under Xvfb) of the window's habits (issue 34, items 1-8): a
 * selection that stays until something else is chosen or Escape, shown
 * the same in the timeline, the details and the Markers report; its ring
 * around exactly its marker; the timeline's keys from anywhere in the
 * window; the trace's edges (a margin, zooms that stay on it, markers
 * revealed whole); short spans as a density; the ruler while drawing is in
 * test-app.c. The wording is in test-app-wording.c, what the peers have
 * in test-app-peers.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "et-report-table.h"
#include "et-timeline-view.h"
#include "et-window.h"
#include "gui-test.h"
#include "et-trace-decode.h"

typedef struct
{
  EtShapeKind kind;
  guint       min_count;   /* spans: runs of at least this many */
  double      min_px;      /* at least this wide */
  EtShape     shape;
  gboolean    found;
} Find;

static void
find_shape (const EtShape *s, gpointer data)
{
  Find *f = data;

  if (!f->found && s->kind == f->kind && s->count >= f->min_count && s->x1 - s->x0 >= f->min_px)
    f->shape = *s, f->found = TRUE;
}

/* The report's chosen row's marker, or FALSE for none. */
static gboolean
report_choice (EtWindow *window, guint *channel, guint *index)
{
  guint row = et_report_table_get_selected (window_report (window));

  return row != ET_REPORT_NONE
         && et_markers_list_get_row (et_window_get_markers_list (window), row, channel, index);
}


static void
assert_details_name (EtWindow *window, const EtMarker *m)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *details = et_window_get_details (window);

  et_trace_marker_text (et_window_get_trace (window), m, text);
  if (strstr (details, text->str) == NULL)
    fail_msg ("the details do not name \"%s\": %s", text->str, details);
}

/* Item 1: the selection and its details stay while its marker is out of
 * view (panned away, rows scrolled), its ring comes back with it, and
 * Escape ends it. */
static void
test_selection_stays_out_of_view (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTimelineView *timeline = window_timeline (window);
  EtViewport *v = et_window_get_viewport (window);
  EtSelectionRing ring;
  EtShape chosen, now;
  gint64 from, width;

  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  wait_for_picture (window);
  chosen = click_a_flag (window);
  from = v->from_ns, width = v->to_ns - v->from_ns;
  for (int i = 0; i < 40 && v->from_ns <= chosen.m->start_ns; i++)
    activate (window, "timeline.pan-right");
  assert_true (v->from_ns > chosen.m->start_ns);
  wait_for_picture (window);
  assert_true (et_timeline_view_get_selection (timeline, &now));
  assert_ptr_equal (now.m, chosen.m);
  assert_details_name (window, chosen.m);
  assert_true (et_timeline_view_get_selection_ring (timeline, &ring));
  assert_int_equal (ring.kind, ET_RING_NONE);

  /* Back in view: ringed where it is drawn. */
  v->from_ns = from, v->to_ns = from + width;
  et_timeline_view_layout_changed (timeline);
  assert_true (et_timeline_view_get_selection_ring (timeline, &ring));
  assert_int_equal (ring.kind, ET_RING_OWN);
  assert_true (ring.x0 == chosen.x0 && ring.y0 == chosen.y0);

  /* Rows scrolled down past it: still selected. */
  v->scroll_y = (int) chosen.y1 + v->height;
  et_timeline_view_layout_changed (timeline);
  wait_for_picture (window);
  assert_true (et_timeline_view_get_selection (timeline, &now));
  assert_ptr_equal (now.m, chosen.m);
  assert_details_name (window, chosen.m);

  /* Escape ends it. */
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_false (et_timeline_view_get_selection (timeline, NULL));
  close_window (window);
}

/* Item 2: one selection, the same in the details and the report: a click
 * on a thread header keeps it in both, an empty part of a row or Escape
 * ends it in both. */
static void
test_details_and_report_agree (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTimelineView *timeline = window_timeline (window);
  EtLayout *layout = et_window_get_layout (window);
  EtViewport *v = et_window_get_viewport (window);
  EtShape chosen;
  const EtRow *row = NULL;
  g_autofree char *details = NULL;
  guint channel, index;
  EtHit hit;

  chosen = click_a_flag (window);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_true (report_choice (window, &channel, &index));
  assert_int_equal (channel, chosen.channel);
  assert_int_equal (index, chosen.marker);

  /* A thread's header: collapsed or expanded, the choice stays. */
  for (guint r = 0; r < et_layout_n_rows (layout) && row == NULL; r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_THREAD)
      row = et_layout_row (layout, r);
  assert_non_null (row);
  assert_false (et_window_select_at (window, v->label_width / 2,
                                     v->ruler_height + row->y - v->scroll_y + 4));
  RUN_UNTIL (!et_window_is_busy (window));
  assert_true (et_timeline_view_get_selection (timeline, NULL));
  assert_details_name (window, chosen.m);
  assert_true (report_choice (window, &channel, &index));
  assert_int_equal (index, chosen.marker);

  /* An empty part of a row: nothing, in both. */
  for (double y = v->ruler_height + 2; y < v->height; y += 3)
    {
      et_timeline_hit_test (et_window_get_trace (window), layout, v, v->width - 2, y, &hit);
      if (hit.kind == ET_HIT_EMPTY_ROW)
        {
          assert_false (et_window_select_at (window, v->width - 2, y));
          break;
        }
    }
  assert_int_equal (hit.kind, ET_HIT_EMPTY_ROW);
  details = et_window_get_details (window);
  assert_non_null (strstr (details, "Click a marker to see everything about it."));
  assert_false (report_choice (window, &channel, &index));

  /* Escape after a choice in the report: gone from both. */
  et_markers_list_select_row (et_window_get_markers_list (window), 0);
  assert_true (report_choice (window, &channel, &index));
  assert_true (et_timeline_view_get_selection (timeline, NULL));
  gtk_widget_grab_focus (GTK_WIDGET (window_report (window)));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_false (et_timeline_view_get_selection (timeline, NULL));
  assert_false (report_choice (window, &channel, &index));
  close_window (window);
}

/* Item 3: a span merged into a run of narrow spans is ringed alone, also
 * after the view moved; a flag merged into a grey mark rings that mark
 * with a pointer at its own time. */
static void
test_ring_marks_exactly_the_selection (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTimelineView *timeline = window_timeline (window);
  EtViewport *v = et_window_get_viewport (window);
  EtTrace *trace = et_window_get_trace (window);
  Find run = { ET_SHAPE_SPAN, 3 }, merged = { ET_SHAPE_AGGREGATE, 2 };
  EtSelectionRing ring;
  EtShape shape;
  double x0, x1;

  scroll_to_process (window, DEMO_WEB_SERVER);
  et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_shape, &run);
  assert_true (run.found);
  assert_true (et_window_select_at (window, run.shape.x1 - 1, (run.shape.y0 + run.shape.y1) / 2));
  et_timeline_view_layout_changed (timeline);     /* found again for the same view */
  assert_true (et_timeline_view_get_selection (timeline, &shape));
  x0 = et_viewport_x (v, shape.m->start_ns), x1 = et_viewport_x (v, shape.m->end_ns);
  assert_true (shape.x1 - shape.x0 < run.shape.x1 - run.shape.x0);
  assert_true (shape.x0 >= floor (x0) - 1 && shape.x1 <= MAX (ceil (x1), shape.x0 + 1) + 1);
  assert_true (et_timeline_view_get_selection_ring (timeline, &ring));
  assert_int_equal (ring.kind, ET_RING_OWN);
  assert_true (ring.x0 == shape.x0 && ring.x1 == shape.x1);

  /* The run's first span too (it names the run). */
  assert_true (et_window_select_at (window, run.shape.x0 + 0.5, (run.shape.y0 + run.shape.y1) / 2));
  et_timeline_view_layout_changed (timeline);
  assert_true (et_timeline_view_get_selection (timeline, &shape));
  assert_true (shape.x1 - shape.x0 < run.shape.x1 - run.shape.x0);

  /* A flag, chosen zoomed in, then seen merged at the whole trace. */
  et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_shape, &merged);
  assert_true (merged.found);
  et_timeline_view_reveal_marker (timeline, merged.shape.channel, merged.shape.marker);
  activate (window, "timeline.zoom-fit");
  assert_true (et_timeline_view_get_selection (timeline, &shape));
  assert_ptr_equal (shape.m, merged.shape.m);
  assert_true (et_timeline_view_get_selection_ring (timeline, &ring));
  assert_int_equal (ring.kind, ET_RING_MERGED);
  assert_true (ring.x0 == merged.shape.x0 && ring.x1 == merged.shape.x1);
  assert_true (fabs (ring.at - et_viewport_x (v, shape.m->start_ns)) < 0.01);
  wait_for_picture (window);
  save_screenshot (window, "app-habits-merged.png");
  close_window (window);
}

/* Item 4: after a report row was chosen (focus in the report), F, Z and
 * W/A/S/D act on the timeline; a search entry still gets its letters. */
static void
test_timeline_keys_work_from_the_report (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  gint64 width = v->to_ns - v->from_ns, from;
  guint channel, index;

  assert_true (et_markers_list_get_row (list, 0, &channel, &index));
  et_markers_list_select_row (list, 0);
  activate (window, "timeline.zoom-fit");
  gtk_widget_grab_focus (GTK_WIDGET (window_report (window)));
  assert_ptr_equal (gtk_root_get_focus (GTK_ROOT (window)), window_report (window));

  assert_true (press_in_window (window, GDK_KEY_w));
  assert_true (v->to_ns - v->from_ns < width);
  from = v->from_ns;
  assert_true (press_in_window (window, GDK_KEY_d));
  assert_true (v->from_ns > from);
  assert_true (press_in_window (window, GDK_KEY_a));
  assert_true (press_in_window (window, GDK_KEY_s));
  assert_true (press_in_window (window, GDK_KEY_f));
  {
    const EtMarker *m = &et_trace_get_channel (et_window_get_trace (window), channel)->markers[index];

    assert_true (v->from_ns <= m->start_ns && m->end_ns <= v->to_ns);
    assert_true (v->to_ns - v->from_ns < width / 2);
  }
  assert_ptr_equal (gtk_root_get_focus (GTK_ROOT (window)), window_report (window));
  close_window (window);
}

/* Every mark of the whole trace lies inside the plot: none half drawn at
 * its edges. */
static void
check_marks_inside (const EtShape *s, gpointer data)
{
  const EtViewport *v = data;

  if (s->x0 < v->label_width || s->x1 > v->width)
    fail_msg ("a mark at %.1f-%.1f px is cut by the plot's edges (%d-%d px)", s->x0, s->x1,
              v->label_width, v->width);
}

static void
count_shapes (const EtShape *s, gpointer data)
{
  (*(guint *) data)++;
}

static void
check_whole_trace (EtWindow *window)
{
  EtViewport *v = et_window_get_viewport (window);
  gint64 duration = et_trace_get_duration_ns (et_window_get_trace (window));
  guint shapes = 0;

  et_timeline_foreach_shape (et_window_get_trace (window), et_window_get_layout (window), v,
                             check_marks_inside, v);
  et_timeline_foreach_shape (et_window_get_trace (window), et_window_get_layout (window), v,
                             count_shapes, &shapes);
  assert_true (shapes > 0);
  /* The margin: the same at both ends, a few pixels' worth. */
  assert_true (v->from_ns < 0 && v->to_ns > duration);
  assert_true (v->to_ns - duration == -v->from_ns);
  assert_true (-v->from_ns < duration / 20);
}

/* Item 5: the whole trace has a margin, so marks at its very start and
 * end are whole. */
static void
test_markers_at_the_edges_are_whole (void **state)
{
  EtWindow *window = open_window (gui_demo_path);

  check_whole_trace (window);
  close_window (window);
}

/* Item 5: a marker chosen where the view cuts it (a report row, a search
 * hit) is brought whole into view, its ring too. */
static void
test_a_revealed_marker_is_whole (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  EtTrace *trace = et_window_get_trace (window);
  Find span = { ET_SHAPE_SPAN, 1, 40 };
  EtSelectionRing ring;
  gint64 width;

  for (int i = 0; i < 30 && !span.found; i++)
    {
      activate (window, "timeline.zoom-in");
      et_timeline_foreach_shape (trace, et_window_get_layout (window), v, find_shape, &span);
    }
  assert_true (span.found);
  /* The view's right edge cuts the span. */
  width = v->to_ns - v->from_ns;
  v->to_ns = span.shape.m->start_ns + width / 50;
  v->from_ns = v->to_ns - width;
  et_timeline_view_layout_changed (window_timeline (window));
  et_window_reveal_marker (window, span.shape.channel, span.shape.marker);
  assert_true (et_timeline_view_get_selection_ring (window_timeline (window), &ring));
  assert_int_equal (ring.kind, ET_RING_OWN);
  if (ring.x0 - 3 < v->label_width || ring.x1 + 3 > v->width)
    fail_msg ("the revealed span's ring is cut: %.1f-%.1f px of %d-%d", ring.x0, ring.x1,
              v->label_width, v->width);
  close_window (window);
}

/* gcevents.etl: its 4 markers lie in the last 1.5 ms of 11.6 s. */
static void
test_markers_at_the_trace_end_show (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = corpus ? g_build_filename (corpus, "gcevents.etl", NULL) : NULL;
  EtWindow *window;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/gcevents.etl is absent: skipped\n");
      skip ();
    }
  window = open_window (path);
  check_whole_trace (window);
  save_screenshot (window, "app-habits-trace-end.png");
  close_window (window);
}

/* Item 6: zooming out never leaves the trace (with its margin). */
static void
test_zoom_out_stays_on_the_trace (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtViewport *v = et_window_get_viewport (window);
  gint64 lo = v->from_ns, hi = v->to_ns;

  activate (window, "timeline.zoom-out");
  assert_int_equal (v->from_ns, lo);
  assert_int_equal (v->to_ns, hi);
  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  activate (window, "timeline.zoom-in");
  while (v->from_ns > hi / 20)
    activate (window, "timeline.pan-left");
  for (int i = 0; i < 6; i++)
    {
      activate (window, "timeline.zoom-out");
      assert_true (v->from_ns >= lo && v->to_ns <= hi);
    }
  assert_int_equal (v->from_ns, lo);
  assert_int_equal (v->to_ns, hi);
  close_window (window);
}

typedef struct
{
  EtLayout         *layout;
  const EtViewport *v;
  EtTrace          *trace;
  GBytes           *pixels;
  int               stride;
  guint             runs;       /* sparse runs checked */
} Density;

/* A pixel's red + green + blue: how light it is. */
static int
lightness (const Density *d, int x, int y)
{
  const guint8 *p = (const guint8 *) g_bytes_get_data (d->pixels, NULL) + (gsize) y * d->stride + x * 4;

  return p[0] + p[1] + p[2];
}

/* In a run at least 8 px wide, the column its spans fill most is darker
 * than the one they fill least (by their times, counted here). */
static void
check_run_density (const EtShape *s, gpointer data)
{
  Density *d = data;
  const EtChannel *ch;
  int first = (int) floor (s->x0), n = (int) ceil (s->x1) - first, lo = 0, hi = 0, y;
  g_autofree double *cover = NULL;

  if (s->kind != ET_SHAPE_SPAN || s->count < 3 || n < 8 || s->x0 < d->v->label_width
      || s->x1 > d->v->width)
    return;
  ch = et_trace_get_channel (d->trace, s->channel);
  cover = g_new0 (double, n);
  for (guint i = s->marker; i < s->marker + s->count; i++)
    {
      const EtMarker *m = &ch->markers[i];
      double sx = et_viewport_x (d->v, m->start_ns), ex = et_viewport_x (d->v, m->end_ns);

      if (m->kind != ET_MARKER_SPAN || et_layout_lane (d->layout, s->channel, m)
                                       != et_layout_lane (d->layout, s->channel, s->m))
        continue;
      for (int x = MAX ((int) floor (sx), first); x <= MIN ((int) floor (ex), first + n - 1); x++)
        cover[x - first] += MIN (ex, x + 1.0) - MAX (sx, (double) x);
    }
  for (int k = 1; k < n - 1; k++)     /* the edge columns are partly other pixels */
    {
      lo = cover[k] < cover[lo] || lo == 0 ? k : lo;
      hi = cover[k] > cover[hi] || hi == 0 ? k : hi;
    }
  if (MIN (cover[hi], 1) - cover[lo] < 0.5)
    return;
  d->runs++;
  /* The bar's top row of pixels: flags drawn over the lane leave it. */
  y = (int) ceil (s->y0);
  if (lightness (d, first + lo, y) <= lightness (d, first + hi, y) + 60)
    fail_msg ("a run at %.0f-%.0f px: its column %d (%.0f %% covered) is as dark as column %d "
              "(%.0f %%)", s->x0, s->x1, first + lo, cover[lo] * 100, first + hi,
              MIN (cover[hi], 1) * 100);
}

/* Item 7: at whole-trace zoom the short spans a lane merges into one bar
 * are drawn as a density: light where they take little of the time, full
 * where they fill it. */
static void
test_merged_short_spans_are_a_density (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkWidget *timeline = GTK_WIDGET (window_timeline (window));
  g_autoptr(GBytes) pixels = NULL;
  Density d = { et_window_get_layout (window), et_window_get_viewport (window),
                et_window_get_trace (window) };

  scroll_to_process (window, DEMO_WEB_SERVER);
  pixels = widget_pixels (timeline);
  d.pixels = pixels;
  d.stride = gtk_widget_get_width (timeline) * 4;

  et_timeline_foreach_shape (d.trace, d.layout, d.v, check_run_density, &d);
  assert_true (d.runs > 3);
  save_screenshot (window, "app-habits-density.png");
  close_window (window);
}

int
main (int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_selection_stays_out_of_view),
    cmocka_unit_test (test_details_and_report_agree),
    cmocka_unit_test (test_ring_marks_exactly_the_selection),
    cmocka_unit_test (test_timeline_keys_work_from_the_report),
    cmocka_unit_test (test_markers_at_the_edges_are_whole),
    cmocka_unit_test (test_a_revealed_marker_is_whole),
    cmocka_unit_test (test_markers_at_the_trace_end_show),
    cmocka_unit_test (test_zoom_out_stays_on_the_trace),
    cmocka_unit_test (test_merged_short_spans_are_a_density),
  };

  return cmocka_run_group_tests (tests, setup_demo, teardown_demo);
}
