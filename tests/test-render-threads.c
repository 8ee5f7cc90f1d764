/* test-render-threads.c — process › thread › series rows on a generated
 * many-threads trace (etlscope-fixture threads: 300 short-lived threads,
 * 20–30 series each): which rows there are, that a collapsed thread's
 * merged lanes draw exactly what its expanded rows draw (shape for shape,
 * marker for marker, and hit-tests agree), a collapsed process's row
 * drawing what its collapsed threads draw, hit-tests that walk only what
 * can reach the pointer answer as the walk of the whole row, the thread
 * orders, empty
 * threads, and `etlscope-cli render` growing to every row or saying how
 * many it left out. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <string.h>
#include "cli-run.h"
#include "et-cpu-strip.h"
#include "et-layout-private.h"
#include "et-fixture.h"
#include "et-timeline-render.h"
#include "et-trace-load.h"

#define N_THREADS 300

static EtTrace *trace;
static char *dir;
static char *path;

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;

  dir = g_dir_make_tmp ("et-render-threads-XXXXXX", NULL);
  path = g_build_filename (dir, "threads.etl", NULL);
  et_fixture_options_init (&o);
  if (!et_fixture_write_threads (path, 20000, N_THREADS, 7, &o, &error))
    return -1;
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  return trace ? 0 : -1;
}

static int
teardown (void **state)
{
  g_clear_object (&trace);
  et_fixture_remove_dir (dir);
  g_free (dir);
  g_free (path);
  return 0;
}

static void
whole (EtViewport *v, int width, EtLayout *layout)
{
  et_viewport_init (v, width, 100);
  v->from_ns = 0;
  v->to_ns = et_trace_get_duration_ns (trace);
  et_layout_update (layout, v->lane_height);
  v->height = v->ruler_height + et_layout_height (layout) + 1;   /* every row in view */
}

static guint
threads_with_markers (void)
{
  guint n = 0;

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    n += et_trace_get_thread (trace, t)->n_channels > 0;
  return n;
}

/* Rows are process headers, one header per thread with markers, and the
 * rows of the expanded threads' series; labels of series rows leave the
 * tid to their thread's header. */
static void
test_rows_are_threads_and_expanded_series (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  g_autoptr(GString) label = g_string_new (NULL);
  guint processes = 0, threads = 0, channels = 0, expected_channels = 0, collapsed = 0;

  assert_true (threads_with_markers () >= N_THREADS - 5);
  for (guint pass = 0; pass < 2; pass++)
    {
      processes = threads = channels = expected_channels = collapsed = 0;
      for (guint r = 0; r < et_layout_n_rows (layout); r++)
        {
          const EtRow *row = et_layout_row (layout, r);

          processes += row->kind == ET_ROW_PROCESS;
          channels += row->kind == ET_ROW_CHANNEL;
          if (row->kind != ET_ROW_THREAD)
            continue;
          threads++;
          assert_ptr_equal (et_layout_thread_row (layout, row->index), row);
          collapsed += et_layout_get_thread_collapsed (layout, row->index);
          /* the default: more than three series collapsed */
          if (pass == 0)
            assert_int_equal (et_layout_get_thread_collapsed (layout, row->index),
                              et_trace_get_thread (trace, row->index)->n_channels > 3);
          if (!et_layout_get_thread_collapsed (layout, row->index))
            expected_channels += et_trace_get_thread (trace, row->index)->n_channels;
          else
            assert_true (row->lanes >= 1);
        }
      assert_int_equal (threads, threads_with_markers ());
      assert_int_equal (channels, expected_channels);
      assert_int_equal (et_layout_n_rows (layout), processes + threads + channels);
      if (pass == 0)
        {
          /* 20–30 series per thread: nearly all collapsed, few rows */
          assert_true (collapsed > threads * 9 / 10);
          assert_true (et_layout_n_rows (layout) < 2 * threads);
          et_layout_set_all_threads_collapsed (layout, FALSE);
        }
    }
  assert_int_equal (collapsed, 0);
  assert_int_equal (channels, et_trace_get_n_channels (trace));
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      const EtThread *t;
      g_autofree char *tid = NULL;

      if (row->kind != ET_ROW_CHANNEL)
        continue;
      t = et_trace_get_thread (trace, et_trace_channel_thread (trace, row->index));
      tid = g_strdup_printf ("%u", t->tid);
      g_string_truncate (label, 0);
      et_layout_row_label (layout, row, label);
      assert_true (g_str_has_prefix (label->str, "Series "));
      assert_null (strstr (label->str, tid));
    }
}

static void
gather (const EtShape *s, gpointer data)
{
  g_array_append_val ((GArray *) data, *s);
}

/* Shapes of one channel, as a list per channel. */
static GPtrArray *
shapes_by_channel (EtLayout *layout, const EtViewport *v)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));
  GPtrArray *by = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    g_ptr_array_add (by, g_array_new (FALSE, FALSE, sizeof (EtShape)));
  et_timeline_foreach_shape (trace, layout, v, gather, all);
  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);
      g_array_append_val (g_ptr_array_index (by, s->channel), *s);
    }
  return by;
}

/* Where an expanded row's shape goes in its thread's merged row: the same
 * x, moved from its channel's lane to the merged lane of its depth. */
static double
merged_y0 (EtLayout *merged, const EtShape *s, const EtViewport *v, double expanded_top)
{
  guint thread = et_trace_channel_thread (trace, s->channel);
  const EtRow *row = et_layout_thread_row (merged, thread);
  double offset = s->y0 - expanded_top;

  if (s->kind == ET_SHAPE_SPAN || s->kind == ET_SHAPE_LONE_END)
    {
      guint lane = et_lane_of_depth (et_trace_channel_depth_mask (trace, s->channel), s->m->depth);
      guint merged_lane = et_lane_of_depth (et_layout_thread_depths (merged, thread), s->m->depth);

      offset += ((double) merged_lane - lane) * v->lane_height;
    }
  return v->ruler_height + row->y + ET_THREAD_STRIP_PX + offset;
}

/* Whether a shape drawn after @i (in drawing order) covers (@x, @y), as
 * a hit-test sees shapes (2 pixels of slack). */
static gboolean
covered_later (GArray *all, guint i, double x, double y)
{
  for (guint j = i + 1; j < all->len; j++)
    {
      const EtShape *s = &g_array_index (all, EtShape, j);

      if (x >= s->x0 - 2 && x <= s->x1 + 2 && y >= s->y0 - 2 && y <= s->y1 + 2)
        return TRUE;
    }
  return FALSE;
}

/* A click on the centre of each single mark of the merged rows that
 * nothing drawn later covers selects that very marker; the count of them. */
static guint
clicks_select_their_marker (EtLayout *merged, const EtViewport *v, EtRowKind kind)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));
  guint checked = 0;

  et_timeline_foreach_shape (trace, merged, v, gather, all);
  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);
      double cx = (s->x0 + s->x1) / 2, cy = (s->y0 + s->y1) / 2;
      EtHit hit;

      if (s->count != 1 || s->kind == ET_SHAPE_AGGREGATE || cx < v->label_width
          || covered_later (all, i, cx, cy))
        continue;
      et_timeline_hit_test (trace, merged, v, cx, cy, &hit);
      assert_int_equal (hit.kind, ET_HIT_SHAPE);
      assert_int_equal (et_layout_row (merged, hit.row)->kind, kind);
      assert_ptr_equal (hit.shape.m, s->m);
      assert_int_equal (hit.shape.channel, s->channel);
      checked++;
    }
  return checked;
}

/* @y is the mark of @x drawn in another row: the same kind, marker,
 * count, importance and x. */
static void
assert_same_mark (const EtShape *x, const EtShape *y)
{
  assert_int_equal (x->kind, y->kind);
  assert_ptr_equal (x->m, y->m);
  assert_int_equal (x->count, y->count);
  assert_int_equal (x->importance, y->importance);
  assert_true (x->x0 == y->x0 && x->x1 == y->x1);
}

/* A collapsed thread draws exactly the shapes of its expanded rows, one
 * for one (kind, marker, count, x, importance), each in the merged lane
 * of its depth; and a click on a merged mark selects its marker. */
static void
test_merged_lanes_hold_exactly_the_threads_markers (void **state)
{
  g_autoptr(EtLayout) expanded = et_layout_new (trace);
  g_autoptr(EtLayout) merged = et_layout_new (trace);
  g_autoptr(GPtrArray) open = NULL, shut = NULL;
  guint compared = 0, hits = 0;
  EtViewport v, vm;

  et_layout_set_all_threads_collapsed (expanded, FALSE);
  et_layout_set_all_threads_collapsed (merged, TRUE);
  whole (&v, 30000, expanded);     /* wide: markers mostly apart */
  whole (&vm, 30000, merged);
  assert_true (vm.height < v.height / 5);
  open = shapes_by_channel (expanded, &v);
  shut = shapes_by_channel (merged, &vm);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      GArray *a = g_ptr_array_index (open, c), *b = g_ptr_array_index (shut, c);
      const EtRow *own = et_layout_channel_row (expanded, c);
      const EtRow *row = et_layout_channel_row (merged, c);

      assert_int_equal (row->kind, ET_ROW_THREAD);
      assert_int_equal (row->index, et_trace_channel_thread (trace, c));
      assert_int_equal (a->len, b->len);
      for (guint i = 0; i < a->len; i++)
        {
          const EtShape *x = &g_array_index (a, EtShape, i), *y = &g_array_index (b, EtShape, i);

          assert_same_mark (x, y);
          assert_true (y->y0 == merged_y0 (merged, x, &v, v.ruler_height + own->y));
          assert_true (y->y1 - y->y0 == x->y1 - x->y0);
          assert_true (y->y0 >= vm.ruler_height + row->y && y->y1 <= vm.ruler_height + row->y + row->height);
          compared++;
        }
    }
  assert_true (compared > 5000);
  hits = clicks_select_their_marker (merged, &vm, ET_ROW_THREAD);
  assert_true (hits > compared / 2);
}

/* Where a collapsed thread's shape goes in its collapsed process's row:
 * the same x, moved from the thread's merged lane to the process's lane
 * of its depth. */
static double
process_y0 (EtLayout *threads, EtLayout *processes, const EtShape *s, const EtViewport *v)
{
  guint thread = et_trace_channel_thread (trace, s->channel);
  guint process = et_trace_get_thread (trace, thread)->process;
  const EtRow *from = et_layout_thread_row (threads, thread);
  const EtRow *to = et_layout_channel_row (processes, s->channel);
  double offset = s->y0 - (v->ruler_height + from->y + et_thread_strip_px (trace, thread));
  gboolean one_lane;

  if (s->kind == ET_SHAPE_SPAN || s->kind == ET_SHAPE_LONE_END)
    {
      guint64 depths = et_layout_row_depths (processes, s->channel, &one_lane);
      guint lane = et_lane_of_depth (et_layout_thread_depths (threads, thread), s->m->depth);

      offset += ((double) et_lane_of_depth (depths, s->m->depth) - lane) * v->lane_height;
    }
  return v->ruler_height + to->y + et_process_strip_px (trace, process) + offset;
}

/* The channels of @process's threads (all shown here). */
static guint
process_channels (guint process)
{
  const EtProcess *p = et_trace_get_process (trace, process);
  guint n = 0;

  for (guint k = 0; k < p->n_threads; k++)
    n += et_trace_get_thread (trace, p->first_thread + k)->n_channels;
  return n;
}

/* Flag and message marks (aggregates among them) of @all. */
static guint
count_points (GArray *all)
{
  guint n = 0;

  for (guint i = 0; i < all->len; i++)
    n += g_array_index (all, EtShape, i).kind != ET_SHAPE_SPAN
         && g_array_index (all, EtShape, i).kind != ET_SHAPE_LONE_END;
  return n;
}

/* Item 16: a collapsed process draws its threads' markers merged in its
 * header, as their collapsed rows draw them: shape for shape (kind,
 * marker, count, x, importance), each in the process's lane of its depth;
 * a click on a mark there selects its marker; crowded, its flags and
 * messages merge across the threads into fewer marks. A process of more
 * than ET_LAYOUT_MERGE_CHANNELS channels keeps its strip alone. */
static void
test_collapsed_process_draws_its_threads_markers (void **state)
{
  g_autoptr(EtLayout) threads = et_layout_new (trace);
  g_autoptr(EtLayout) processes = et_layout_new (trace);
  g_autoptr(GPtrArray) each = NULL, together = NULL;
  g_autoptr(GArray) narrow_threads = g_array_new (FALSE, FALSE, sizeof (EtShape));
  g_autoptr(GArray) narrow_processes = g_array_new (FALSE, FALSE, sizeof (EtShape));
  guint compared = 0, skipped = 0;
  EtViewport v, vp;

  et_layout_set_all_threads_collapsed (threads, TRUE);
  et_layout_set_all_threads_collapsed (processes, TRUE);
  for (guint p = 0; p < et_trace_get_n_processes (trace); p++)
    et_layout_set_collapsed (processes, p, TRUE);
  /* Wide enough that no row is crowded: marks are each marker's own. */
  whole (&v, 100000, threads);
  whole (&vp, 100000, processes);
  assert_true (vp.height < v.height);
  each = shapes_by_channel (threads, &v);
  together = shapes_by_channel (processes, &vp);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      GArray *a = g_ptr_array_index (each, c), *b = g_ptr_array_index (together, c);
      const EtRow *row = et_layout_channel_row (processes, c);
      guint process = et_trace_get_thread (trace, et_trace_channel_thread (trace, c))->process;

      if (row == NULL)
        {
          /* Too many channels to merge: the header's strip alone. */
          assert_true (process_channels (process) > ET_LAYOUT_MERGE_CHANNELS);
          assert_int_equal (b->len, 0);
          skipped++;
          continue;
        }
      assert_int_equal (row->kind, ET_ROW_PROCESS);
      assert_int_equal (row->index, process);
      assert_true (process_channels (process) <= ET_LAYOUT_MERGE_CHANNELS);
      assert_int_equal (a->len, b->len);
      for (guint i = 0; i < a->len; i++)
        {
          const EtShape *x = &g_array_index (a, EtShape, i), *y = &g_array_index (b, EtShape, i);

          assert_same_mark (x, y);
          assert_true (y->y0 == process_y0 (threads, processes, x, &v));
          assert_true (y->y0 >= vp.ruler_height + row->y
                       && y->y1 <= vp.ruler_height + row->y + row->height);
          compared++;
        }
    }
  assert_true (compared > 5000);
  assert_true (skipped > 0);     /* and a process too large to merge */
  assert_true (clicks_select_their_marker (processes, &vp, ET_ROW_PROCESS) > compared / 2);

  /* At a screen's width the process's row is crowded: its points merge
   * across its threads, fewer marks than the threads' rows draw. */
  whole (&v, 1600, threads);
  whole (&vp, 1600, processes);
  et_timeline_foreach_shape (trace, threads, &v, gather, narrow_threads);
  et_timeline_foreach_shape (trace, processes, &vp, gather, narrow_processes);
  assert_true (count_points (narrow_processes) > 0);
  assert_true (count_points (narrow_processes) < count_points (narrow_threads));
}

/* What a hit-test answered before it skipped shapes out of the pointer's
 * reach: the last shape of the row under (@x, @y), in drawing order, whose
 * box with 2 pixels of slack holds the point. FALSE when none does. */
static gboolean
last_shape_under (EtLayout *layout, GArray *all, const EtRow *row, double x, double y,
                  EtShape *found)
{
  gboolean any = FALSE;

  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);

      if (et_layout_channel_row (layout, s->channel) == row && x >= s->x0 - 2 && x <= s->x1 + 2
          && y >= s->y0 - 2 && y <= s->y1 + 2)
        *found = *s, any = TRUE;
    }
  return any;
}

/* Hit-tests of a grid of points over every row of @v agree with the walk
 * of the row's shapes: the same shape, or for a run of narrow spans one of
 * the run's own spans; the number of points that hit a run, a span in a
 * lane below the first, and a flag or message, added to @seen. */
static void
hits_agree_with_the_shapes (EtTrace *t, EtLayout *layout, const EtViewport *v, guint seen[3])
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));

  et_timeline_foreach_shape (t, layout, v, gather, all);
  for (double y = v->ruler_height + 1; y < v->height; y += 3)
    for (double x = v->label_width + 1; x < v->width; x += 7)
      {
        EtShape expected;
        EtHit hit;
        gboolean any;

        et_timeline_hit_test (t, layout, v, x, y, &hit);
        if (hit.kind != ET_HIT_SHAPE && hit.kind != ET_HIT_EMPTY_ROW)
          continue;
        any = last_shape_under (layout, all, et_layout_row (layout, hit.row), x, y, &expected);
        assert_int_equal (hit.kind, any ? ET_HIT_SHAPE : ET_HIT_EMPTY_ROW);
        if (!any)
          continue;
        assert_int_equal (hit.shape.channel, expected.channel);
        if (expected.kind == ET_SHAPE_SPAN && expected.count > 1)
          {
            assert_true (hit.shape.marker >= expected.marker
                         && hit.shape.marker < expected.marker + expected.count);
            seen[0]++;
            continue;
          }
        assert_int_equal (hit.shape.kind, expected.kind);
        assert_ptr_equal (hit.shape.m, expected.m);
        assert_int_equal (hit.shape.count, expected.count);
        assert_true (hit.shape.x0 == expected.x0 && hit.shape.y0 == expected.y0
                     && hit.shape.x1 == expected.x1 && hit.shape.y1 == expected.y1);
        seen[1] += expected.kind == ET_SHAPE_SPAN
                   && expected.y0 > v->ruler_height + et_layout_row (layout, hit.row)->y
                                    + ET_THREAD_STRIP_PX + v->lane_height;
        seen[2] += expected.kind >= ET_SHAPE_FLAG;
      }
}

/* The large shape (nested, overlapping and cross-thread spans, lone ends,
 * alerts; six series a thread) of 40,000 events, written as @name. */
static EtTrace *
load_large (const char *name, guint32 seed)
{
  g_autofree char *large_path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  EtTrace *large;

  et_fixture_options_init (&o);
  assert_true (et_fixture_write_large (large_path, 40000, seed, &o, &error));
  large = et_trace_load (large_path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  assert_non_null (large);
  return large;
}

/* A hit-test walks only the shapes that can reach the pointer's row of
 * pixels (the kinds and lanes there): it must answer what the walk of all
 * the row's shapes answers, on merged and expanded threads, at whole-trace
 * and closer zoom, here and on the large shape (nested, overlapping and
 * cross-thread spans, lone ends, alerts). */
static void
test_hit_tests_agree_with_all_the_rows_shapes (void **state)
{
  g_autoptr(EtTrace) large = load_large ("large.etl", 3);
  guint seen[3] = { 0, 0, 0 };

  for (guint k = 0; k < 2; k++)
    for (int collapsed = 0; collapsed <= 1; collapsed++)
      for (guint zoom = 1; zoom <= 40; zoom *= 40)
        {
          EtTrace *t = k == 0 ? trace : large;
          g_autoptr(EtLayout) layout = et_layout_new (t);
          EtViewport v;
          gint64 duration = et_trace_get_duration_ns (t);

          et_layout_set_all_threads_collapsed (layout, collapsed);
          et_viewport_init (&v, 1200, 900);
          et_layout_update (layout, v.lane_height);
          v.from_ns = duration / 3, v.to_ns = duration / 3 + duration / zoom;
          hits_agree_with_the_shapes (t, layout, &v, seen);
        }
  /* Runs, deeper lanes of merged rows and points were all among them. */
  assert_true (seen[0] > 100);
  assert_true (seen[1] > 100);
  assert_true (seen[2] > 100);
}

/* How close (pixels) flags or messages merge into one mark. */
#define MERGE_PX 3.0

/* The point marks of @kind in @all that belong to @row (by their channel). */
static gboolean
point_of (EtLayout *layout, const EtShape *s, const EtRow *row, EtMarkerKind kind)
{
  return et_layout_channel_row (layout, s->channel) == row && s->kind >= ET_SHAPE_FLAG
         && s->m->kind == kind;
}

/* Whether the aggregates of @row and @kind in @all hold the marker at
 * @x: one whose window (MERGE_PX from its first member) it falls in. */
static gboolean
in_an_aggregate (EtLayout *layout, GArray *all, const EtRow *row, EtMarkerKind kind, double x)
{
  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);
      double first = (s->x0 + s->x1) / 2;

      if (s->kind == ET_SHAPE_AGGREGATE && point_of (layout, s, row, kind) && x >= first - 1e-6
          && x < first + MERGE_PX)
        return TRUE;
    }
  return FALSE;
}

/* One merged row's points of @kind at whole-trace zoom: its aggregates
 * are at most one per window of MERGE_PX (their first members that far
 * apart, whatever their channels), and every flag or message of the row's
 * channels in view is drawn alone or counted in the aggregate whose window
 * it falls in, each counted once. Returns the row's aggregates. */
static guint
check_merged_points (EtTrace *t, EtLayout *layout, const EtViewport *v, GArray *all,
                     const EtRow *row, EtMarkerKind kind)
{
  const EtThread *thread = et_trace_get_thread (t, row->index);
  EtTimeToX map;
  double last = -G_MAXDOUBLE;
  guint aggregates = 0, counted = 0, markers = 0;

  et_time_to_x_init (&map, v);
  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);

      if (!point_of (layout, s, row, kind))
        continue;
      if (s->kind == ET_SHAPE_AGGREGATE)
        {
          assert_true ((s->x0 + s->x1) / 2 >= last + MERGE_PX - 1e-6);
          last = (s->x0 + s->x1) / 2;
          aggregates++;
          counted += s->count;
        }
      else if (!in_an_aggregate (layout, all, row, kind, et_time_to_x (&map, s->m->start_ns)))
        counted++;
    }
  assert_true (aggregates <= (v->width - v->label_width) / MERGE_PX + 1);
  for (guint c = thread->first_channel; c < thread->first_channel + thread->n_channels; c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      guint end, first = et_channel_query (t, c, v->from_ns, v->to_ns, &end);

      for (guint i = first; i < end; i++)
        {
          const EtMarker *m = &ch->markers[i];
          gboolean alone = FALSE;

          if (m->kind != kind || !et_marker_overlaps (m, v->from_ns, v->to_ns))
            continue;
          markers++;
          for (guint k = 0; k < all->len && !alone; k++)
            alone = g_array_index (all, EtShape, k).m == m
                    && g_array_index (all, EtShape, k).kind != ET_SHAPE_AGGREGATE;
          assert_true (alone || in_an_aggregate (layout, all, row, kind,
                                                 et_time_to_x (&map, m->start_ns)));
        }
    }
  assert_int_equal (counted, markers);
  return aggregates;
}

/* Every span of the row's channels in view is drawn: alone, or in a run
 * of its channel's narrow spans. */
static void
check_merged_spans (EtTrace *t, EtLayout *layout, const EtViewport *v, GArray *all,
                    const EtRow *row)
{
  const EtThread *thread = et_trace_get_thread (t, row->index);
  g_autoptr(GHashTable) drawn = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < all->len; i++)
    {
      const EtShape *s = &g_array_index (all, EtShape, i);
      const EtChannel *ch = et_trace_get_channel (t, s->channel);

      if (et_layout_channel_row (layout, s->channel) == row && s->kind <= ET_SHAPE_LONE_END)
        for (guint k = s->marker; k < s->marker + s->count; k++)
          g_hash_table_add (drawn, (gpointer) &ch->markers[k]);
    }
  for (guint c = thread->first_channel; c < thread->first_channel + thread->n_channels; c++)
    {
      const EtChannel *ch = et_trace_get_channel (t, c);
      guint end, first = et_channel_query (t, c, v->from_ns, v->to_ns, &end);

      for (guint i = first; i < end; i++)
        if (ch->markers[i].kind == ET_MARKER_SPAN
            && et_marker_overlaps (&ch->markers[i], v->from_ns, v->to_ns))
          assert_true (g_hash_table_contains (drawn, &ch->markers[i]));
    }
}

/* Whether @row has more markers in view than windows of MERGE_PX across
 * the plot: crowded, it merges points across its channels (less crowded,
 * each channel's are as an expanded row's, checked above). */
static gboolean
crowded (EtTrace *t, EtLayout *layout, const EtViewport *v, const EtRow *row)
{
  const EtThread *thread = et_trace_get_thread (t, row->index);
  guint in_view = 0;

  for (guint c = thread->first_channel; c < thread->first_channel + thread->n_channels; c++)
    if (et_layout_channel_row (layout, c) == row)
      {
        guint end, first = et_channel_query (t, c, v->from_ns, v->to_ns, &end);
        in_view += end - first;
      }
  return in_view > (v->width - v->label_width) / MERGE_PX;
}

/* The point marks (flags, messages, aggregates) of the shapes in @all of
 * channels that @merged draws in collapsed threads' rows. */
static guint
merged_point_marks (EtLayout *merged, GArray *all)
{
  guint n = 0;

  for (guint i = 0; i < all->len; i++)
    n += g_array_index (all, EtShape, i).kind >= ET_SHAPE_FLAG
         && et_layout_channel_row (merged, g_array_index (all, EtShape, i).channel)->kind
            == ET_ROW_THREAD;
  return n;
}

/* The same marks when each channel has a row of its own. */
static guint
expanded_point_marks (EtTrace *t, EtLayout *merged)
{
  g_autoptr(EtLayout) layout = et_layout_new (t);
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));
  EtViewport v;

  et_layout_set_all_threads_collapsed (layout, FALSE);
  whole (&v, 500, layout);
  et_timeline_foreach_shape (t, layout, &v, gather, all);
  return merged_point_marks (merged, all);
}

/* A collapsed thread's row at whole-trace zoom costs per window of pixels,
 * not per channel and window: its flags and messages merge across its
 * channels (one aggregate per window, where each channel's own would lie
 * on each other), and nothing of the row is dropped, on the large shape
 * (six series a thread) and the many-threads one. */
static void
test_merged_rows_merge_across_channels (void **state)
{
  g_autoptr(EtTrace) large = load_large ("large-merge.etl", 5);
  guint rows[2] = { 0, 0 }, aggregates = 0, marks = 0, per_channel = 0;

  for (guint k = 0; k < 2; k++)
    {
      EtTrace *t = k == 0 ? large : trace;
      g_autoptr(EtLayout) layout = et_layout_new (t);
      g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (EtShape));
      EtViewport v;

      et_layout_set_all_threads_collapsed (layout, TRUE);
      whole (&v, k == 0 ? 500 : 310, layout);   /* narrow: crowded rows */
      et_timeline_foreach_shape (t, layout, &v, gather, all);
      for (guint r = 0; r < et_layout_n_rows (layout); r++)
        {
          const EtRow *row = et_layout_row (layout, r);

          if (row->kind != ET_ROW_THREAD || row->lanes == 0 || !crowded (t, layout, &v, row))
            continue;
          rows[k]++;
          aggregates += check_merged_points (t, layout, &v, all, row, ET_MARKER_FLAG);
          aggregates += check_merged_points (t, layout, &v, all, row, ET_MARKER_MESSAGE);
          check_merged_spans (t, layout, &v, all, row);
        }
      if (k == 0)
        marks = merged_point_marks (layout, all), per_channel = expanded_point_marks (t, layout);
    }
  assert_true (rows[0] > 5 && rows[1] > 5);
  assert_true (aggregates > 100);
  /* On the large shape, fewer flags, messages and grey marks than each
   * channel's own windows would make (critical and alert flags, drawn
   * over the grey marks, are most of both at this size). */
  assert_true (marks > 0 && marks < per_channel);
}

/* The rows under each process, threads in the order asked; first
 * activity from the markers, counted here by hand. */
static void
test_thread_orders (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  g_autoptr(GArray) firsts = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      const EtThread *thread = et_trace_get_thread (trace, t);
      gint64 first = G_MAXINT64;
      guint64 n = 0;

      for (guint k = 0; k < thread->n_channels; k++)
        {
          const EtChannel *ch = et_trace_get_channel (trace, thread->first_channel + k);
          first = MIN (first, ch->markers[0].start_ns);
          n += ch->n_markers;
        }
      g_array_append_val (firsts, first);
      assert_true (et_layout_get_thread (layout, t)->first_ns == first);
      assert_true (et_layout_get_thread (layout, t)->n_markers == n);
    }
  for (EtThreadOrder order = ET_THREAD_ORDER_FIRST_ACTIVITY; order <= ET_THREAD_ORDER_NAME; order++)
    {
      const EtRow *previous = NULL;
      guint seen = 0;

      et_layout_set_thread_order (layout, order);
      for (guint r = 0; r < et_layout_n_rows (layout); r++)
        {
          const EtRow *row = et_layout_row (layout, r);
          const EtThread *a, *b;

          if (row->kind == ET_ROW_PROCESS)
            previous = NULL;
          if (row->kind != ET_ROW_THREAD)
            continue;
          seen++;
          if (previous != NULL)
            {
              a = et_trace_get_thread (trace, previous->index);
              b = et_trace_get_thread (trace, row->index);
              if (order == ET_THREAD_ORDER_FIRST_ACTIVITY)
                assert_true (g_array_index (firsts, gint64, previous->index)
                             <= g_array_index (firsts, gint64, row->index));
              else if (order == ET_THREAD_ORDER_MARKERS)
                assert_true (et_layout_get_thread (layout, previous->index)->n_markers
                             >= et_layout_get_thread (layout, row->index)->n_markers);
              else
                assert_true (g_utf8_collate (a->name, b->name) < 0
                             || (g_utf8_collate (a->name, b->name) == 0 && a->tid < b->tid));
            }
          previous = row;
        }
      assert_int_equal (seen, threads_with_markers ());
    }
}

/* Threads without markers get a header only when asked. */
static void
test_empty_threads_hidden_unless_asked (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  guint empty = 0, threads = 0;

  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      empty += et_trace_get_thread (trace, t)->n_channels == 0;
      assert_true ((et_layout_thread_row (layout, t) != NULL)
                   == (et_trace_get_thread (trace, t)->n_channels > 0));
    }
  assert_true (empty > 0);     /* the kernel's own threads */
  et_layout_set_show_empty_threads (layout, TRUE);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    threads += et_layout_thread_row (layout, t) != NULL;
  assert_int_equal (threads, et_trace_get_n_threads (trace));
  et_layout_set_show_empty_threads (layout, FALSE);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_trace_get_thread (trace, t)->n_channels == 0)
      assert_null (et_layout_thread_row (layout, t));
}

/* PNG height from its IHDR. */
static guint
png_height (const char *file)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  assert_true (g_file_get_contents (file, &data, &len, NULL));
  assert_true (len > 24);
  return (guint) ((guint8) data[20] << 24 | (guint8) data[21] << 16 | (guint8) data[22] << 8
                  | (guint8) data[23]);
}

/* render grows the picture to every row by default, and a fixed height
 * writes how many rows it left out; --expand and --collapse lay out the
 * threads as the window's row menu does. */
static void
test_cli_render_fits_or_counts_rows (void **state)
{
  g_autofree char *tall = g_build_filename (dir, "tall.png", NULL);
  g_autofree char *open = g_build_filename (dir, "open.png", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.png", NULL);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  /* The timeline alone: the caption and legend under it are another test's. */
  Run r1 = run_cli ("render", "--collapse", "--no-legend", "-o", tall, path);
  Run r2 = run_cli ("render", "--expand", "--height", "auto", "--no-legend", "-o", open, path);
  Run r3 = run_cli ("render", "--height", "400", "--no-legend", "-o", cut, path);
  Run bad = run_cli ("render", "--expand", "--collapse", "-o", cut, path);
  EtViewport v;

  assert_int_equal (r1.status, 0);
  assert_int_equal (r2.status, 0);
  assert_int_equal (r3.status, 0);
  assert_int_equal (bad.status, 2);
  et_layout_set_all_threads_collapsed (layout, TRUE);
  whole (&v, 1600, layout);
  assert_int_equal (png_height (tall), (guint) v.height);
  et_layout_set_all_threads_collapsed (layout, FALSE);
  whole (&v, 1600, layout);
  assert_int_equal (png_height (open), (guint) MIN (v.height, 20000));
  assert_int_equal (png_height (cut), 400);
  run_clear (&r1);
  run_clear (&r2);
  run_clear (&r3);
  run_clear (&bad);
}

/* Compact rows: a collapsed thread's row is one lower lane under its
 * strip, every merged marker in lane 0; render --compact grows the
 * picture to those rows, a picture far lower than without. */
static void
test_compact_rows_merge_threads_in_one_lane (void **state)
{
  g_autofree char *normal = g_build_filename (dir, "normal.png", NULL);
  g_autofree char *compact = g_build_filename (dir, "compact.png", NULL);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  Run r1 = run_cli ("render", "--collapse", "--no-legend", "-o", normal, path);
  Run r2 = run_cli ("render", "--collapse", "--compact", "--no-legend", "-o", compact, path);
  guint merged = 0;
  EtViewport v;

  assert_int_equal (r1.status, 0);
  assert_int_equal (r2.status, 0);
  et_layout_set_all_threads_collapsed (layout, TRUE);
  et_layout_set_compact (layout, TRUE);
  et_viewport_init (&v, 1600, 100);
  v.lane_height = ET_LANE_HEIGHT_COMPACT;
  v.to_ns = et_trace_get_duration_ns (trace);
  et_layout_update (layout, v.lane_height);
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      const EtThread *t = et_trace_get_thread (trace, row->index);

      if (row->kind != ET_ROW_THREAD || t->n_channels == 0)
        continue;
      merged++;
      assert_int_equal (row->lanes, 1);
      assert_int_equal (row->height, et_thread_strip_px (trace, row->index) + ET_LANE_HEIGHT_COMPACT + 2);
      for (guint k = 0; k < t->n_channels; k++)
        {
          const EtChannel *ch = et_trace_get_channel (trace, t->first_channel + k);

          assert_ptr_equal (et_layout_channel_row (layout, t->first_channel + k), row);
          for (guint i = 0; i < ch->n_markers; i++)
            assert_int_equal (et_layout_lane (layout, t->first_channel + k, &ch->markers[i]), 0);
        }
    }
  assert_int_equal (merged, threads_with_markers ());
  assert_int_equal (png_height (compact), (guint) (v.ruler_height + et_layout_height (layout) + 1));
  assert_true (png_height (compact) * 2 < png_height (normal));
  run_clear (&r1);
  run_clear (&r2);
}

/* Whether @thread's life meets [from, to]: from its first marker's start
 * to the latest time its markers reach (a span never ended: the end of
 * the trace), read from every marker. */
static gboolean
thread_reaches (guint thread, gint64 from, gint64 to)
{
  const EtThread *t = et_trace_get_thread (trace, thread);
  gint64 first = G_MAXINT64, last = G_MININT64;

  for (guint k = 0; k < t->n_channels; k++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, t->first_channel + k);

      for (guint i = 0; i < ch->n_markers; i++)
        {
          first = MIN (first, ch->markers[i].start_ns);
          last = MAX (last, ch->markers[i].status == ET_SPAN_UNMATCHED_START
                            ? et_trace_get_duration_ns (trace) : ch->markers[i].end_ns);
        }
    }
  return first <= to && last >= from;
}

/* Only threads active in view: at several ranges, a thread with markers
 * has a row exactly when its life meets the range; the CLI's render
 * --active draws those rows only. */
static void
test_only_threads_active_in_the_range (void **state)
{
  g_autofree char *all = g_build_filename (dir, "all.png", NULL);
  g_autofree char *active = g_build_filename (dir, "active.png", NULL);
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  gint64 duration = et_trace_get_duration_ns (trace);
  g_autofree char *from = g_strdup_printf ("%" G_GINT64_FORMAT "ns", duration / 2);
  g_autofree char *to = g_strdup_printf ("%" G_GINT64_FORMAT "ns", duration / 2 + duration / 100);
  Run r1 = run_cli ("render", "--from", from, "--to", to, "--no-legend", "-o", all, path);
  Run r2 = run_cli ("render", "--active", "--from", from, "--to", to, "--no-legend", "-o", active, path);
  EtViewport v;

  et_layout_set_active_only (layout, TRUE);
  for (guint k = 0; k < 20; k++)
    {
      gint64 a = duration / 20 * k, b = a + duration / 200;
      guint rows = 0, hidden = 0;

      et_layout_set_active_range (layout, a, b);
      for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
        {
          if (et_trace_get_thread (trace, t)->n_channels == 0)
            continue;
          assert_int_equal (et_layout_thread_row (layout, t) != NULL, thread_reaches (t, a, b));
          rows += et_layout_thread_row (layout, t) != NULL;
          hidden += et_layout_thread_row (layout, t) == NULL;
        }
      assert_true (rows > 0);
      assert_true (hidden > 0);
    }
  et_layout_set_active_only (layout, FALSE);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    assert_int_equal (et_layout_thread_row (layout, t) != NULL,
                      et_trace_get_thread (trace, t)->n_channels > 0);

  assert_int_equal (r1.status, 0);
  assert_int_equal (r2.status, 0);
  et_viewport_init (&v, 1600, 100);
  et_layout_set_active_range (layout, duration / 2, duration / 2 + duration / 100);
  et_layout_set_active_only (layout, TRUE);
  assert_int_equal (png_height (active), (guint) (v.ruler_height + et_layout_height (layout) + 1));
  assert_true (png_height (active) * 2 < png_height (all));
  run_clear (&r1);
  run_clear (&r2);
}

/* The trace lists its channels' series once each, by name, as the
 * filters' Series list needs them (without visiting every channel). */
static void
test_trace_lists_its_series (void **state)
{
  g_autoptr(GHashTable) from_channels = g_hash_table_new (NULL, NULL);
  guint n;
  const guint32 *series = et_trace_get_series (trace, &n);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    g_hash_table_add (from_channels, GUINT_TO_POINTER (et_trace_get_channel (trace, c)->series));
  assert_true (n >= 20);
  assert_int_equal (n, g_hash_table_size (from_channels));
  for (guint k = 0; k < n; k++)
    {
      assert_true (g_hash_table_contains (from_channels, GUINT_TO_POINTER (series[k])));
      if (k > 0)
        assert_true (strcmp (et_trace_get_string (trace, series[k - 1]),
                             et_trace_get_string (trace, series[k])) < 0);
    }
}

/* @a's rows are the rows @b lays out when it recomputes everything. */
static void
assert_same_rows (EtLayout *a, EtLayout *b)
{
  assert_int_equal (et_layout_n_rows (a), et_layout_n_rows (b));
  assert_int_equal (et_layout_height (a), et_layout_height (b));
  for (guint r = 0; r < et_layout_n_rows (a); r++)
    assert_memory_equal (et_layout_row (a, r), et_layout_row (b, r), sizeof (EtRow));
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtRow *x = et_layout_channel_row (a, c), *y = et_layout_channel_row (b, c);
      gboolean one_x, one_y;

      assert_true ((x == NULL) == (y == NULL));
      if (x != NULL)
        assert_int_equal (et_layout_row_index (a, x), et_layout_row_index (b, y));
      assert_int_equal (et_layout_row_depths (a, c, &one_x), et_layout_row_depths (b, c, &one_y));
      assert_int_equal (one_x, one_y);
    }
}

/* A layout keeps which channels are shown and each process's threads in
 * order from one update to the next, unless a switch changed them: after
 * each of 300 random switches (filters, hidden and collapsed channels and
 * threads, order, empty threads, moves to the top, compact rows), its rows
 * are those of a copy made to recompute everything; its shown serial
 * stays when no switch of what is shown changed. */
static void
test_kept_layout_state_matches_a_full_layout (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);
  guint n_channels = et_trace_get_n_channels (trace), n_threads = et_trace_get_n_threads (trace);

  et_layout_update (layout, ET_LANE_HEIGHT);
  for (guint step = 0; step < 300; step++)
    {
      guint c = (guint) g_rand_int_range (rand, 0, (gint32) n_channels);
      guint t = (guint) g_rand_int_range (rand, 0, (gint32) n_threads);
      gboolean on = g_rand_boolean (rand);
      g_autoptr(EtLayout) full = NULL;
      guint serial = et_layout_get_shown_serial (layout);
      int what = g_rand_int_range (rand, 0, 15);
      gint64 at = g_rand_int_range (rand, 0, 1000) * (et_trace_get_duration_ns (trace) / 1000);

      switch (what)
        {
        case 0: et_layout_set_provider_visible (layout, et_channel_provider (et_trace_get_channel (trace, c)), on); break;
        case 1: et_layout_set_series_visible (layout, et_trace_get_channel (trace, c)->series, on); break;
        case 2: et_layout_set_channel_visible (layout, c, on); break;
        case 3: et_layout_show_all_channels (layout); break;
        case 4: et_layout_set_thread_order (layout, (EtThreadOrder) g_rand_int_range (rand, 0, 4)); break;
        case 5: et_layout_set_show_empty_threads (layout, on); break;
        case 6: et_layout_move_thread_to_top (layout, t); break;
        case 7: et_layout_move_channel_to_top (layout, c); break;
        case 8: et_layout_set_thread_collapsed (layout, t, on); break;
        case 9: et_layout_set_collapsed (layout, et_trace_get_thread (trace, t)->process, on); break;
        case 10: et_layout_set_channel_collapsed (layout, c, on); break;
        case 11: et_layout_set_compact (layout, on); break;
        case 12: et_layout_set_active_only (layout, on); break;
        case 13: et_layout_set_active_range (layout, at, at + et_trace_get_duration_ns (trace) / 50); break;
        default: et_layout_set_all_threads_collapsed (layout, g_rand_int_range (rand, -1, 2)); break;
        }
      et_layout_set_lane_height (layout, ET_LANE_HEIGHT);
      /* Only the first four change which channels are shown. */
      if (what > 3)
        assert_int_equal (et_layout_get_shown_serial (layout), serial);
      full = et_layout_copy (layout);
      full->shown_stale = full->order_stale = TRUE;
      et_layout_update (full, ET_LANE_HEIGHT);
      assert_same_rows (layout, full);
    }
}

/* The note itself: the rows a fixed height leaves out are counted from
 * where the band at the bottom begins. */
static void
test_rows_below_count_what_is_cut (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  EtViewport v;
  guint below, by_hand = 0;

  whole (&v, 1600, layout);
  assert_int_equal (et_timeline_rows_below (layout, &v, 0), 0);
  v.height = 400;
  below = et_timeline_rows_below (layout, &v, v.height - ET_TIMELINE_NOTE_HEIGHT);
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    by_hand += v.ruler_height + et_layout_row (layout, r)->y >= 400 - ET_TIMELINE_NOTE_HEIGHT;
  assert_int_equal (below, by_hand);
  assert_true (below > 100);
}

/* Whether @a and @b have the same rows. */
static gboolean
same_rows (EtLayout *a, EtLayout *b)
{
  if (et_layout_n_rows (a) != et_layout_n_rows (b) || et_layout_height (a) != et_layout_height (b))
    return FALSE;
  for (guint r = 0; r < et_layout_n_rows (a); r++)
    if (memcmp (et_layout_row (a, r), et_layout_row (b, r), sizeof (EtRow)) != 0)
      return FALSE;
  return TRUE;
}

/* Switches set while the layout is frozen lay the rows out once, at the
 * thaw, as they would one by one; until then the rows are those before. */
static void
test_frozen_layouts_lay_out_at_the_thaw (void **state)
{
  g_autoptr(EtLayout) frozen = et_layout_new (trace);
  g_autoptr(EtLayout) before = et_layout_new (trace);
  g_autoptr(EtLayout) direct = et_layout_new (trace);
  EtViewport v;

  whole (&v, 1200, before);
  whole (&v, 1200, frozen);
  whole (&v, 1200, direct);
  et_layout_freeze (frozen);
  et_layout_freeze (frozen);       /* nested: the outer thaw lays out */
  for (EtLayout *l = frozen; l != NULL; l = l == frozen ? direct : NULL)
    {
      et_layout_set_all_threads_collapsed (l, FALSE);
      et_layout_set_thread_collapsed (l, 3, TRUE);
      et_layout_set_provider_visible (l, 0, FALSE);
      et_layout_set_provider_visible (l, 0, TRUE);
      et_layout_set_thread_order (l, ET_THREAD_ORDER_NAME);
    }
  assert_false (same_rows (before, direct));
  assert_true (same_rows (frozen, before));
  et_layout_thaw (frozen);
  assert_true (same_rows (frozen, before));
  et_layout_thaw (frozen);
  assert_true (same_rows (frozen, direct));

  /* The lane height the rows have lays nothing out; a choice made since
   * (choices are laid out by their caller) or another height does. */
  et_layout_set_lane_height (frozen, v.lane_height);
  assert_true (same_rows (frozen, direct));
  et_layout_set_thread_choice (frozen, 5, 1);
  et_layout_set_lane_height (frozen, v.lane_height);
  assert_false (same_rows (frozen, direct));
  et_layout_set_thread_choice (direct, 5, 1);
  et_layout_update (direct, v.lane_height);
  assert_true (same_rows (frozen, direct));
  et_layout_set_lane_height (frozen, v.lane_height + 4);
  assert_false (same_rows (frozen, direct));
  et_layout_update (direct, v.lane_height + 4);
  assert_true (same_rows (frozen, direct));
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_rows_are_threads_and_expanded_series),
    cmocka_unit_test (test_merged_lanes_hold_exactly_the_threads_markers),
    cmocka_unit_test (test_collapsed_process_draws_its_threads_markers),
    cmocka_unit_test (test_hit_tests_agree_with_all_the_rows_shapes),
    cmocka_unit_test (test_merged_rows_merge_across_channels),
    cmocka_unit_test (test_thread_orders),
    cmocka_unit_test (test_empty_threads_hidden_unless_asked),
    cmocka_unit_test (test_rows_below_count_what_is_cut),
    cmocka_unit_test (test_cli_render_fits_or_counts_rows),
    cmocka_unit_test (test_compact_rows_merge_threads_in_one_lane),
    cmocka_unit_test (test_kept_layout_state_matches_a_full_layout),
    cmocka_unit_test (test_trace_lists_its_series),
    cmocka_unit_test (test_only_threads_active_in_the_range),
    cmocka_unit_test (test_frozen_layouts_lay_out_at_the_thaw),
  };

  return cmocka_run_group_tests_name ("render-threads", tests, setup, teardown);
}
