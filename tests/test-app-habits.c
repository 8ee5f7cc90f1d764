/* GUI tests (under Xvfb) of the window's habits (issue 34): a selection
 * that stays until something else is chosen or Escape, shown the same in
 * the timeline, the details and the Markers report; its ring around
 * exactly its marker; the timeline's keys from anywhere in the window;
 * the trace's edges (a margin, zooms that stay on it, markers revealed
 * whole). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include "et-bookmarks.h"
#include "et-cpu-strip.h"
#include "et-details.h"
#include "et-fixture.h"
#include "et-report-table.h"
#include "et-report-table-private.h"
#include "et-histogram-view.h"
#include "et-stats-pane.h"
#include "et-timeline-threads.h"
#include "et-timeline-view.h"
#include "et-window.h"
#include "gui-test.h"

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

static EtTimelineView *
timeline_of (EtWindow *window)
{
  return ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window), ET_TYPE_TIMELINE_VIEW));
}

static EtReportTable *
report_of (EtWindow *window)
{
  return ET_REPORT_TABLE (find_widget (GTK_WIDGET (et_window_get_markers_list (window)),
                                       ET_TYPE_REPORT_TABLE));
}

/* The report's chosen row's marker, or FALSE for none. */
static gboolean
report_choice (EtWindow *window, guint *channel, guint *index)
{
  guint row = et_report_table_get_selected (report_of (window));

  return row != ET_REPORT_NONE
         && et_markers_list_get_row (et_window_get_markers_list (window), row, channel, index);
}

/* Selects the first flag drawn on its own, by a click at its centre. */
static EtShape
click_a_flag (EtWindow *window)
{
  Find f = { ET_SHAPE_FLAG, 1 };

  et_timeline_foreach_shape (et_window_get_trace (window), et_window_get_layout (window),
                             et_window_get_viewport (window), find_shape, &f);
  assert_true (f.found);
  assert_true (et_window_select_at (window, (f.shape.x0 + f.shape.x1) / 2,
                                    (f.shape.y0 + f.shape.y1) / 2));
  return f.shape;
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

/* A key pressed in the window goes where GTK sends it: the focused
 * widget's key handlers and bindings, then those of each widget it is in,
 * up to the window's own. TRUE when one of them took it. */
static gboolean
press_in_window (EtWindow *window, guint keyval)
{
  g_autofree char *name = gtk_accelerator_name (keyval, 0);

  for (GtkWidget *w = gtk_root_get_focus (GTK_ROOT (window)); w != NULL; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
          gboolean handled = FALSE;

          if (gtk_event_controller_get_propagation_phase (c) == GTK_PHASE_NONE)
            continue;
          if (GTK_IS_EVENT_CONTROLLER_KEY (c))
            g_signal_emit_by_name (c, "key-pressed", keyval, 0, 0, &handled);
          for (guint k = 0; GTK_IS_SHORTCUT_CONTROLLER (c) && !handled
                            && k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
            {
              g_autoptr(GtkShortcut) s = g_list_model_get_item (G_LIST_MODEL (c), k);
              g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (s));

              if (g_str_equal (trigger, name))
                handled = gtk_shortcut_action_activate (gtk_shortcut_get_action (s), 0, w,
                                                        gtk_shortcut_get_arguments (s));
            }
          if (handled)
            return TRUE;
        }
    }
  return FALSE;
}

/* Item 1: the selection and its details stay while its marker is out of
 * view (panned away, rows scrolled), its ring comes back with it, and
 * Escape ends it. */
static void
test_selection_stays_out_of_view (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTimelineView *timeline = timeline_of (window);
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
  EtTimelineView *timeline = timeline_of (window);
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
  gtk_widget_grab_focus (GTK_WIDGET (report_of (window)));
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
  EtTimelineView *timeline = timeline_of (window);
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
  gtk_widget_grab_focus (GTK_WIDGET (report_of (window)));
  assert_ptr_equal (gtk_root_get_focus (GTK_ROOT (window)), report_of (window));

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
  assert_ptr_equal (gtk_root_get_focus (GTK_ROOT (window)), report_of (window));
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
  et_timeline_view_layout_changed (timeline_of (window));
  et_window_reveal_marker (window, span.shape.channel, span.shape.marker);
  assert_true (et_timeline_view_get_selection_ring (timeline_of (window), &ring));
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
  GtkWidget *timeline = GTK_WIDGET (timeline_of (window));
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

/* The first GtkLabel under @widget whose text holds @part, or NULL. */
static GtkLabel *
find_label (GtkWidget *widget, const char *part)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), part) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = find_label (c, part);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
assert_says (const char *text, const char *part)
{
  if (strstr (text, part) == NULL)
    fail_msg ("\"%s\" does not say \"%s\"", text, part);
}

/* Item 13: a missing file and a folder are said as such (no byte offset:
 * nothing was read); the empty window names both formats. */
static void
test_files_that_cannot_open_are_said_in_words (void **state)
{
  g_autofree char *missing = g_build_filename (gui_dir, "missing.etl", NULL);
  EtWindow *window = open_window (missing);
  const char *status = et_window_get_status (window);

  assert_says (status, "missing.etl” cannot be opened: ");
  assert_null (strstr (status, "byte offset"));
  close_window (window);
  window = open_window (gui_dir);
  status = et_window_get_status (window);
  assert_says (status, "is a folder. Etlscope opens trace files: Windows ETW traces (.etl) and "
                       ".NET EventPipe traces (.nettrace).");
  assert_null (strstr (status, "byte offset"));
  assert_non_null (find_label (GTK_WIDGET (window), "(.nettrace) with Ctrl+O"));
  close_window (window);
}

/* Item 13: the damage banner says what the first problem is, in words;
 * Show Problems lists every one. */
static void
test_damage_banner_names_the_problems (void **state)
{
  g_autofree char *bad = g_build_filename (gui_dir, "damaged.etl", NULL);
  g_autofree char *bytes = NULL, *list = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  const EtDamage *damage;
  GtkWindow *problems = NULL;
  GtkWidget *button;
  EtWindow *window;
  GtkLabel *banner;
  gsize len;
  guint n;

  assert_true (g_file_get_contents (gui_demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (bad, bytes, (gssize) len, NULL));
  assert_true (et_fixture_damage_record_size (bad, 40, 0, NULL));
  assert_true (et_fixture_damage_record_size (bad, 900, 0, NULL));
  window = open_window (bad);
  damage = et_trace_get_damage (et_window_get_trace (window), &n);
  assert_true (n >= 2);
  banner = find_label (GTK_WIDGET (window), "Read with damage: ");
  assert_non_null (banner);
  /* The first problem's words, after its offset, in the banner itself. */
  assert_says (gtk_label_get_text (banner), strstr (damage[0].message, ": byte offset ") + 2);
  button = find_button (GTK_WIDGET (window), "Show Problems");
  assert_non_null (button);
  assert_true (gtk_widget_is_visible (button));
  g_signal_emit_by_name (button, "clicked");
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && problems == NULL; i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!ET_IS_WINDOW (w) && g_str_has_prefix (gtk_window_get_title (w), "Problems in "))
        problems = w;
    }
  assert_non_null (problems);
  list = g_strdup (gtk_label_get_text (find_label (GTK_WIDGET (problems), "byte offset")));
  for (guint i = 0; i < n; i++)
    assert_says (list, strstr (damage[i].message, ": byte offset ") + 2);
  gtk_window_destroy (problems);
  close_window (window);
  g_unlink (bad);
}

/* Item 13: counts grouped in English too (the tests' C locale groups
 * nothing); an alert's tooltip says "category alert", not "-1". */
static void
test_counts_and_categories_read_well (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(GString) count = g_string_new (NULL);
  g_autoptr(GString) tip = g_string_new (NULL), details = g_string_new (NULL);

  g_string_printf (count, "%" G_GUINT64_FORMAT, et_trace_get_stats (trace)->records);
  assert_true (count->len > 3 && count->len < 7);
  g_string_insert_c (count, count->len - 3, ',');
  g_string_append (count, " events");
  assert_non_null (find_label (GTK_WIDGET (window), count->str));
  for (guint c = 0; c < et_trace_get_n_channels (trace) && tip->len == 0; c++)
    for (guint i = 0; i < et_trace_get_channel (trace, c)->n_markers && tip->len == 0; i++)
      if (et_trace_get_channel (trace, c)->markers[i].category == ET_CATEGORY_ALERT)
        {
          et_details_summary (trace, c, &et_trace_get_channel (trace, c)->markers[i], tip);
          et_details_describe (trace, c, &et_trace_get_channel (trace, c)->markers[i], details);
        }
  assert_says (tip->str, "category alert");
  assert_says (details->str, "Category alert");
  close_window (window);
}

#define APP_PID    4120
#define WORKER_TID 4122
#define MS         1000000

/* A trace of one thread, unnamed in an unnamed process, that ran (a CPU
 * sample at 4 ms) and has no markers. */
static void
write_sampled_thread (const char *path)
{
  EtFixtureOptions o;
  EtFixtureWriter *w;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
  et_fixture_write_thread (w, 0, 100, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  et_fixture_write_sample (w, 1, 4 * MS, WORKER_TID, 0x1000);
  et_fixture_write_sample (w, 2, 10 * MS, 0, 0x1000);           /* the end */
  assert_true (et_fixture_writer_close (w, NULL));
}

/* Item 13: a process the trace does not name is "Process 4120", not
 * "Process 4120 (4120)"; a CPU band from samples says nothing where it
 * has none (no data is not 0 %). */
static void
test_nameless_processes_and_cpu_without_data (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "nameless.etl", NULL);
  g_autofree char *there = NULL, *none = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  EtWindow *window;
  EtLayout *layout;
  const EtRow *row = NULL;
  const EtViewport *v;
  double top, height;

  write_sampled_thread (path);
  window = open_window (path);
  layout = et_window_get_layout (window);
  v = et_window_get_viewport (window);
  activate (window, "timeline.show-empty-threads");
  wait_for_picture (window);
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS
        && et_trace_get_process (et_window_get_trace (window),
                                 et_layout_row (layout, r)->index)->pid == APP_PID)
      et_layout_row_label (layout, et_layout_row (layout, r), label);
    else if (et_layout_row (layout, r)->kind == ET_ROW_THREAD
             && et_trace_get_thread (et_window_get_trace (window),
                                     et_layout_row (layout, r)->index)->tid == WORKER_TID)
      row = et_layout_row (layout, r);
  assert_string_equal (label->str, "Process 4120");
  assert_non_null (row);
  assert_true (et_cpu_strip_band (et_window_get_trace (window), row,
                                  v->ruler_height + row->y - v->scroll_y, &top, &height));
  for (double dx = -3; dx <= 3 && there == NULL; dx++)
    there = et_timeline_view_tooltip_at (timeline_of (window), et_viewport_x (v, 4 * MS) + dx,
                                         top + height - 1);
  none = et_timeline_view_tooltip_at (timeline_of (window), et_viewport_x (v, 8 * MS),
                                      top + height - 1);
  assert_non_null (there);
  assert_says (there, "(1 sample)");
  assert_null (none);
  close_window (window);
  g_unlink (path);
}

/* Whether a line may break after @c: a space, a zero-width space or
 * punctuation. */
static gboolean
break_chance (gunichar c)
{
  return g_unichar_isspace (c) || c == 0x200B || (c < 0x80 && g_unichar_ispunct (c));
}

/* Checks how buffer line @line of @view wraps: no display line but the
 * last holds fewer than 3 characters, and each breaks after a space or
 * punctuation unless it holds no chance to break at all. Returns the
 * display lines past the first. */
static guint
check_wraps (GtkTextView *view, int line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, next;
  guint wraps = 0;

  gtk_text_buffer_get_iter_at_line (buffer, &start, line);
  next = start;
  while (gtk_text_view_forward_display_line (view, &next) && gtk_text_iter_get_line (&next) == line
         && !gtk_text_iter_is_end (&next))
    {
      g_autofree char *piece = gtk_text_buffer_get_text (buffer, &start, &next, FALSE);
      GtkTextIter before = next;
      gboolean chance = FALSE;
      glong n = g_utf8_strlen (piece, -1);

      wraps++;
      gtk_text_iter_backward_char (&before);
      for (const char *p = piece, *q; *(q = g_utf8_next_char (p)) != '\0'; p = q)
        chance |= p != piece && break_chance (g_utf8_get_char (p));
      if (n < 3)
        fail_msg ("details line %d wraps after %ld characters: \"%s\"", line, n, piece);
      if (chance && !break_chance (gtk_text_iter_get_char (&before)))
        fail_msg ("details line %d breaks inside a word: \"%s\"", line, piece);
      start = next;
    }
  return wraps;
}

/* Item 14: in a narrow details pane long values wrap under themselves at
 * spaces and punctuation, never a character or two per line; what is
 * copied or read has no break chances in it. */
static void
test_details_values_wrap_at_punctuation (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkPaned *paned = GTK_PANED (find_widget (GTK_WIDGET (window), GTK_TYPE_PANED));
  GtkTextView *view = GTK_TEXT_VIEW (find_widget (GTK_WIDGET (window), GTK_TYPE_TEXT_VIEW));
  g_autofree char *details = NULL;
  guint wraps = 0;

  scroll_to_process (window, DEMO_WEB_SERVER);
  click_a_flag (window);
  /* As narrow as the pane goes. */
  gtk_paned_set_position (paned, gtk_widget_get_width (GTK_WIDGET (paned)));
  wait_for_picture (window);
  drain_events ();
  wait_for_frame (GTK_WIDGET (view));
  g_printerr ("# details %d px wide\n", gtk_widget_get_width (GTK_WIDGET (view)));
  for (int line = 0; line < gtk_text_buffer_get_line_count (gtk_text_view_get_buffer (view)); line++)
    wraps += check_wraps (view, line);
  g_printerr ("# %u wrapped display lines\n", wraps);
  assert_true (wraps > 0);
  details = et_window_get_details (window);
  assert_null (strstr (details, "\xe2\x80\x8b"));
  assert_says (details, "Contoso.WebServer.exe");
  save_screenshot (window, "app-habits-details-narrow.png");
  close_window (window);
}

/* The first activity of process row @r's threads. */
static gint64
process_first_ns (EtLayout *layout, EtTrace *trace, guint r)
{
  const EtProcess *p = et_trace_get_process (trace, et_layout_row (layout, r)->index);
  gint64 first = G_MAXINT64;

  for (guint k = 0; k < p->n_threads; k++)
    if (et_layout_get_thread (layout, p->first_thread + k)->n_markers > 0)
      first = MIN (first, et_layout_get_thread (layout, p->first_thread + k)->first_ns);
  return first;
}

/* Item 15: processes are ordered as their threads are, by first
 * activity (the demo's Contoso.Jobs.exe, pid 6044, begins before
 * csc.exe, pid 5312). */
static void
test_processes_follow_first_activity (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  gint64 last = G_MININT64;
  guint processes = 0, out_of_pid_order = 0, last_pid = 0;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS)
      {
        gint64 first = process_first_ns (layout, trace, r);
        guint pid = et_trace_get_process (trace, et_layout_row (layout, r)->index)->pid;

        if (first < last)
          fail_msg ("process %u (first activity %" G_GINT64_FORMAT " ns) is under one that "
                    "began at %" G_GINT64_FORMAT " ns", pid, first, last);
        out_of_pid_order += pid < last_pid;
        last = first, last_pid = pid, processes++;
      }
  assert_true (processes >= 3);
  assert_true (out_of_pid_order > 0);       /* the demo's order is not the pids' */
  close_window (window);
}

/* Item 11: Go to Thread or Series (Ctrl+P) offers only threads it can
 * show: one without markers only once empty threads are shown, and then
 * Enter goes to its row. */
static void
test_go_to_offers_only_what_it_can_show (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "sampled.etl", NULL);
  g_autoptr(GArray) hidden = NULL, shown = NULL;
  EtWindow *window;
  EtLayout *layout;
  EtTrace *trace;

  write_sampled_thread (path);
  window = open_window (path);
  layout = et_window_get_layout (window);
  trace = et_window_get_trace (window);
  hidden = et_timeline_threads_match (layout, trace, "4122", 50);
  assert_int_equal (hidden->len, 0);
  activate (window, "timeline.show-empty-threads");
  shown = et_timeline_threads_match (layout, trace, "4122", 50);
  assert_int_equal (shown->len, 1);
  et_timeline_threads_go_to (timeline_of (window), g_array_index (shown, EtTrackMatch, 0).thread,
                             G_MAXUINT);
  assert_non_null (et_layout_thread_row (layout, g_array_index (shown, EtTrackMatch, 0).thread));
  close_window (window);
  g_unlink (path);
}

/* Item 12: spans chosen on a duration histogram show as a chip over the
 * Markers report; Escape ends the filter (before the selection), and so
 * does a new search. */
static void
test_duration_filter_is_a_chip_escape_ends (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTrace *trace = et_window_get_trace (window);
  EtMarkersList *list = et_window_get_markers_list (window);
  GtkWidget *stats = find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE);
  const EtChannel *ch = NULL;
  GtkLabel *chip;

  for (guint c = 0; c < et_trace_get_n_channels (trace) && ch == NULL; c++)
    if (g_str_equal (et_trace_get_string (trace, et_trace_get_channel (trace, c)->series), "Request"))
      ch = et_trace_get_channel (trace, c);
  assert_non_null (ch);
  g_signal_emit_by_name (stats, "find-spans", (guint) ch->provider, (guint) ch->series,
                         (gint64) 1000000, (gint64) 3000000);
  RUN_UNTIL (!et_window_is_busy (window));
  assert_non_null (et_markers_list_get_zone (list));
  chip = find_label (GTK_WIDGET (list), "Request: ");
  assert_non_null (chip);
  assert_true (gtk_widget_is_visible (GTK_WIDGET (chip)));
  assert_says (gtk_label_get_text (chip), "1 ms to 3 ms");
  save_screenshot (window, "app-habits-chip.png");

  /* Escape from the report: the filter goes, the selection stays. */
  et_markers_list_select_row (list, 0);
  gtk_widget_grab_focus (GTK_WIDGET (report_of (window)));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_null (et_markers_list_get_zone (list));
  assert_false (gtk_widget_is_visible (GTK_WIDGET (chip)));
  assert_true (et_timeline_view_get_selection (timeline_of (window), NULL));
  assert_true (press_in_window (window, GDK_KEY_Escape));
  assert_false (et_timeline_view_get_selection (timeline_of (window), NULL));

  /* A new search lists its hits wherever they are. */
  g_signal_emit_by_name (stats, "find-spans", (guint) ch->provider, (guint) ch->series,
                         (gint64) 1000000, (gint64) 3000000);
  assert_non_null (et_markers_list_get_zone (list));
  et_window_search (window, "GET");
  assert_null (et_markers_list_get_zone (list));
  RUN_UNTIL (!et_window_is_busy (window));
  close_window (window);
}

/* Item 10: by duration, markers without one come last either way; a sort
 * on a thread says so while it runs; the sorted header's arrow is never
 * cut (its column fits the bold title and the arrow). */
static void
test_duration_sort_sign_and_arrow (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtMarkersList *list = et_window_get_markers_list (window);
  EtTrace *trace = et_window_get_trace (window);
  EtReportTable *table = report_of (window);
  GtkWidget *busy = GTK_WIDGET (find_label (GTK_WIDGET (list), "Sorting…"));
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (table), "Duration ▾");
  PangoAttrList *bold = pango_attr_list_new ();
  int title_w;

  assert_non_null (busy);
  assert_false (gtk_widget_is_visible (busy));
  for (int descending = 0; descending <= 1; descending++)
    {
      guint n = et_markers_list_get_n_rows (list), spans = 0;
      gboolean flags_seen = FALSE;

      et_markers_list_set_async_threshold (list, 0);
      et_markers_list_set_sort (list, ET_SORT_DURATION, descending);
      assert_true (et_markers_list_is_busy (list));
      assert_true (gtk_widget_is_visible (busy));
      RUN_UNTIL (!et_window_is_busy (window));
      assert_false (gtk_widget_is_visible (busy));
      for (guint r = 0; r < n; r++)
        {
          guint c, i;
          const EtMarker *m;

          assert_true (et_markers_list_get_row (list, r, &c, &i));
          m = &et_trace_get_channel (trace, c)->markers[i];
          if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
            {
              if (flags_seen)
                fail_msg ("row %u: a span after markers without a duration", r);
              spans++;
            }
          else
            flags_seen = TRUE;
        }
      assert_true (spans > 0 && flags_seen);
    }
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, bold);
  pango_attr_list_unref (bold);
  pango_layout_get_pixel_size (layout, &title_w, NULL);
  assert_true (_et_report_column_width (table, 1) >= title_w);
  save_screenshot (window, "app-habits-sorted.png");
  close_window (window);
}

static void
note_label (GtkLabel *label, GParamSpec *pspec, gpointer data)
{
  g_ptr_array_add (data, g_strdup (gtk_label_get_text (label)));
}

/* Item 9: loading names its phases, each once and in order: reading the
 * file (bytes), decoding events and pairing spans, laying out threads
 * (those two pulse: the model does not count them). */
static void
test_loading_names_its_phases (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "large.etl", NULL);
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  const char *const phases[] = { "Reading large.etl…", "Decoding the events of large.etl and "
                                 "pairing its spans…", "Laying out the threads of large.etl…" };
  EtWindow *window;
  GtkLabel *loading;
  guint next = 0;

  assert_true (run_fixture_tool ((const char *[]) { "large", "40000", path, "--seed", "1", NULL }));
  window = et_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  et_window_load (window, path);
  loading = find_label (GTK_WIDGET (window), "Reading large.etl");
  assert_non_null (loading);
  g_ptr_array_add (seen, g_strdup (gtk_label_get_text (loading)));
  g_signal_connect (loading, "notify::label", G_CALLBACK (note_label), seen);
  gtk_window_present (GTK_WINDOW (window));
  RUN_UNTIL (!et_window_is_loading (window));
  for (guint i = 0; i < seen->len && next < G_N_ELEMENTS (phases); i++)
    next += g_str_equal (g_ptr_array_index (seen, i), phases[next]);
  if (next < G_N_ELEMENTS (phases))
    fail_msg ("loading never said \"%s\" (%u labels)", phases[next], seen->len);
  g_signal_handlers_disconnect_by_data (loading, seen);
  close_window (window);
  g_unlink (path);
}

/* Item 16: Collapse All Threads gives one row per thread; Expand All
 * Threads opens every thread and process. */
static void
test_collapse_and_expand_all_threads (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtTrace *trace = et_window_get_trace (window);
  guint threads = 0, channels = 0;

  activate (window, "timeline.collapse-all-threads");
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);

      threads += row->kind == ET_ROW_THREAD;
      channels += row->kind == ET_ROW_CHANNEL;
      if (row->kind == ET_ROW_THREAD)
        assert_true (et_layout_get_thread_collapsed (layout, row->index));
    }
  assert_true (threads > 3);
  assert_int_equal (channels, 0);
  activate (window, "timeline.expand-all-threads");
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_layout_thread_row (layout, t) != NULL)
      assert_false (et_layout_get_thread_collapsed (layout, t));
  for (guint p = 0; p < et_trace_get_n_processes (trace); p++)
    assert_false (et_layout_get_collapsed (layout, p));
  close_window (window);
}

/* Item 16: a span row's histogram opens beside the Statistics table,
 * which keeps its rows; each bar's tooltip gives its spans and their
 * durations. */
static void
test_histogram_keeps_the_table_and_tells_its_bars (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkNotebook *reports = GTK_NOTEBOOK (find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));
  EtStatsPane *pane = ET_STATS_PANE (find_widget (GTK_WIDGET (window), ET_TYPE_STATS_PANE));
  EtReportTable *table = ET_REPORT_TABLE (find_widget (GTK_WIDGET (pane), ET_TYPE_REPORT_TABLE));
  EtHistogramView *view;
  const EtStatsHistogram *h;
  g_autofree char *tip = NULL;
  guint first, end, b = 0;

  gtk_notebook_set_current_page (reports, gtk_notebook_page_num (reports, GTK_WIDGET (pane)));
  RUN_UNTIL (!et_window_is_busy (window) && et_stats_pane_get_n_rows (pane) > 5);
  select_span_row (pane);
  view = et_stats_pane_get_histogram (pane);
  wait_for_picture (window);
  wait_for_frame (GTK_WIDGET (view));
  et_report_table_get_visible (table, &first, &end);
  if (end - first < 5)
    fail_msg ("with the histogram open the table shows %u rows", end - first);
  h = et_histogram_view_get_histogram (view);
  while (h->counts[b] == 0)
    b++;
  tip = et_histogram_view_tooltip_at (view, (b + 0.5) * gtk_widget_get_width (GTK_WIDGET (view))
                                            / h->n_bins);
  assert_non_null (tip);
  assert_says (tip, " lasting ");
  assert_true (g_str_has_prefix (tip, h->counts[b] == 1 ? "1 span" : ""));
  save_screenshot (window, "app-habits-histogram.png");
  close_window (window);
}

/* The bookmark window's name entry, once the rename action opened it. */
static GtkEditable *
bookmark_name_entry (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!ET_IS_WINDOW (w) && g_str_has_prefix (gtk_window_get_title (w), "Name the Bookmark"))
        return GTK_EDITABLE (find_widget (GTK_WIDGET (w), GTK_TYPE_ENTRY));
    }
  return NULL;
}

/* Item 16: a bookmark can be named and removed alone; both are kept
 * beside the trace. */
static void
test_bookmarks_are_named_and_removed_alone (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "named.etl", NULL);
  g_autofree char *sidecar = g_strconcat (path, ".bookmarks", NULL);
  g_autofree char *bytes = NULL;
  g_autoptr(EtBookmarks) kept = NULL;
  EtTimelineView *timeline;
  GtkEditable *entry;
  EtWindow *window;
  gsize len;

  assert_true (g_file_get_contents (gui_demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  window = open_window (path);
  timeline = timeline_of (window);
  et_timeline_view_select_range (timeline, 1000000000, 1500000000);
  activate (window, "win.add-bookmark");
  et_timeline_view_select_range (timeline, 2000000000, 2500000000);
  activate (window, "win.add-bookmark");
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.rename-bookmark", "x",
                                           (gint64) 2000000000));
  entry = bookmark_name_entry ();
  assert_non_null (entry);
  gtk_editable_set_text (entry, "  slow checkout ");
  g_signal_emit_by_name (entry, "activate");
  drain_events ();
  assert_null (bookmark_name_entry ());
  assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-bookmark", "x",
                                           (gint64) 1000000000));
  close_window (window);

  kept = et_bookmarks_load (path);
  assert_int_equal (et_bookmarks_n (kept), 1);
  assert_int_equal (et_bookmarks_get (kept, 0), 2000000000);
  assert_string_equal (et_bookmarks_get_name (kept, 0), "slow checkout");
  g_unlink (sidecar);
  g_unlink (path);
}

/* Pixels of the plot side of a row (@top, @height) that differ in @a and
 * @b. */
static guint
row_pixels_apart (GBytes *a, GBytes *b, const EtViewport *v, int width, double top, int height)
{
  const guint8 *pa = g_bytes_get_data (a, NULL), *pb = g_bytes_get_data (b, NULL);
  guint n = 0;

  for (int y = (int) top + 1; y < (int) top + height - 1; y++)
    for (int x = v->label_width + 1; x < width; x++)
      n += memcmp (pa + ((gsize) y * width + x) * 4, pb + ((gsize) y * width + x) * 4, 3) != 0;
  return n;
}

/* Item 16: a collapsed process's header is not blank: its threads'
 * lifetime and where their markers start, as a thread's header shows. */
static void
test_collapsed_process_shows_its_markers (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtLayout *layout = et_window_get_layout (window);
  EtViewport *v = et_window_get_viewport (window);
  GtkWidget *timeline = GTK_WIDGET (timeline_of (window));
  g_autoptr(GBytes) open = NULL, collapsed = NULL;
  const EtRow *row = et_layout_row (layout, 0);
  double top = v->ruler_height + row->y - v->scroll_y;
  int height = row->height;
  guint apart;

  assert_int_equal (row->kind, ET_ROW_PROCESS);
  v->scroll_y = 0;
  et_timeline_view_layout_changed (timeline_of (window));
  wait_for_picture (window);
  open = widget_pixels (timeline);
  et_window_select_at (window, v->label_width / 2, top + height / 2.0);
  assert_true (et_layout_get_collapsed (layout, et_layout_row (layout, 0)->index));
  wait_for_picture (window);
  collapsed = widget_pixels (timeline);
  apart = row_pixels_apart (open, collapsed, v, gtk_widget_get_width (timeline), top, height);
  if (apart < 200)
    fail_msg ("the collapsed process's header differs from the open one's in %u pixels", apart);
  save_screenshot (window, "app-habits-process-collapsed.png");
  et_window_select_at (window, v->label_width / 2, top + height / 2.0);
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
    cmocka_unit_test (test_files_that_cannot_open_are_said_in_words),
    cmocka_unit_test (test_damage_banner_names_the_problems),
    cmocka_unit_test (test_counts_and_categories_read_well),
    cmocka_unit_test (test_nameless_processes_and_cpu_without_data),
    cmocka_unit_test (test_details_values_wrap_at_punctuation),
    cmocka_unit_test (test_processes_follow_first_activity),
    cmocka_unit_test (test_go_to_offers_only_what_it_can_show),
    cmocka_unit_test (test_duration_filter_is_a_chip_escape_ends),
    cmocka_unit_test (test_duration_sort_sign_and_arrow),
    cmocka_unit_test (test_loading_names_its_phases),
    cmocka_unit_test (test_collapse_and_expand_all_threads),
    cmocka_unit_test (test_histogram_keeps_the_table_and_tells_its_bars),
    cmocka_unit_test (test_bookmarks_are_named_and_removed_alone),
    cmocka_unit_test (test_collapsed_process_shows_its_markers),
  };

  return cmocka_run_group_tests (tests, setup_demo, teardown_demo);
}
