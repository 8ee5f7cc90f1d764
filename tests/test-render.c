/* Tests for render/: viewport arithmetic, ruler steps, the density rule, and
 * hit-tests and pixels of a drawn demo trace checked against each other. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <glib/gstdio.h>
#include "et-fixture.h"
#include "et-timeline-render.h"

static EtTrace *demo;
static char *demo_dir;

static int
setup_demo (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  EtFixtureOptions o;

  demo_dir = g_dir_make_tmp ("et-render-XXXXXX", NULL);
  path = g_build_filename (demo_dir, "demo.etl", NULL);
  et_fixture_options_init (&o);
  if (!et_fixture_write_demo (path, &o, &error))
    return -1;
  demo = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  g_unlink (path);
  return demo ? 0 : -1;
}

static int
teardown_demo (void **state)
{
  g_clear_object (&demo);
  g_rmdir (demo_dir);
  g_free (demo_dir);
  return 0;
}

static void
whole_trace (EtViewport *v, int width, int height)
{
  et_viewport_init (v, width, height);
  v->from_ns = 0;
  v->to_ns = et_trace_get_duration_ns (demo);
}

static void
test_viewport_time_and_x_round_trip (void **state)
{
  EtViewport v;

  et_viewport_init (&v, 1250, 400);
  v.from_ns = 1000;
  v.to_ns = 1000 + 1000000;
  assert_int_equal ((int) et_viewport_x (&v, 1000), v.label_width);
  assert_int_equal ((int) et_viewport_x (&v, 1001000), 1250);
  for (int x = v.label_width; x <= 1250; x += 37)
    assert_int_equal ((int) llround (et_viewport_x (&v, et_viewport_time (&v, x))), x);
}

static void
test_zoom_keeps_time_under_pointer_and_reaches_nanoseconds (void **state)
{
  EtViewport v;
  gint64 anchor;

  et_viewport_init (&v, 1250, 400);
  v.to_ns = G_GINT64_CONSTANT (3600) * 1000000000;     /* an hour */
  anchor = et_viewport_time (&v, 700);
  for (int i = 0; i < 200; i++)
    et_viewport_zoom (&v, 700, 1.5, 10);
  assert_true (llabs (et_viewport_time (&v, 700) - anchor) <= 10);
  assert_int_equal (v.to_ns - v.from_ns, 10);           /* stops at the floor */
  for (int i = 0; i < 200; i++)
    et_viewport_zoom (&v, 700, 1 / 1.5, 10);
  assert_true (v.to_ns - v.from_ns > G_GINT64_CONSTANT (3600) * 1000000000);
}

static void
test_ruler_steps_are_1_2_5_and_at_least_min_pixels (void **state)
{
  static const gint64 spans[] = { 10, 999, 123456, 5000000, G_GINT64_CONSTANT (7200000000000) };

  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      gint64 step = et_ruler_step (spans[i], 1000, 90), lead = step;
      while (lead % 10 == 0)
        lead /= 10;
      assert_true (lead == 1 || lead == 2 || lead == 5);
      assert_true ((double) step / spans[i] * 1000 >= 90);
      /* the next smaller 1-2-5 step would be too dense */
      assert_true ((double) step / 2.5 / spans[i] * 1000 < 90 || step == 1);
    }
}

static void
test_duration_text_has_units (void **state)
{
  g_autoptr(GString) s = g_string_new (NULL);

  et_format_duration (250, s);
  g_string_append (s, "|");
  et_format_duration (1500000, s);
  g_string_append (s, "|");
  et_format_duration (2000000000, s);
  assert_string_equal (s->str, "250 ns|1.5 ms|2 s");
}

typedef struct
{
  GHashTable *singles;      /* marker pointers drawn on their own */
  guint       aggregates;
} Census;

static void
count_shape (const EtShape *s, gpointer data)
{
  Census *c = data;

  if (s->kind == ET_SHAPE_AGGREGATE)
    c->aggregates++;
  else
    g_hash_table_add (c->singles, (gpointer) s->m);
}

/* Whole-trace zoom merges crowded flags, but every critical or alert flag
 * in view is still drawn on its own. */
static void
test_critical_and_alert_never_hidden_in_aggregates (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (demo);
  Census census = { g_hash_table_new (NULL, NULL), 0 };
  EtViewport v;
  guint checked = 0;

  whole_trace (&v, 900, 20000);
  et_layout_update (layout, v.lane_height);
  et_timeline_foreach_shape (demo, layout, &v, count_shape, &census);
  assert_true (census.aggregates > 0);
  for (guint c = 0; c < et_trace_get_n_channels (demo); c++)
    {
      const EtChannel *ch = et_trace_get_channel (demo, c);
      for (guint i = 0; i < ch->n_markers; i++)
        {
          const EtMarker *m = &ch->markers[i];
          if (m->kind != ET_MARKER_SPAN
              && (m->importance == ET_IMPORTANCE_CRITICAL || m->category < 0))
            {
              assert_true (g_hash_table_contains (census.singles, m));
              checked++;
            }
        }
    }
  assert_true (checked > 10);
  g_hash_table_unref (census.singles);
}

typedef struct
{
  EtShape flag;
  gboolean found;
} FindFlag;

static void
find_alert_flag (const EtShape *s, gpointer data)
{
  FindFlag *f = data;

  if (!f->found && s->kind == ET_SHAPE_FLAG && s->m->category < 0 && s->x0 > 300)
    {
      f->flag = *s;
      f->found = TRUE;
    }
}

/* A shape found by geometry is what the hit-test returns at its centre, and
 * the drawn picture has the alert red there. */
static void
test_hit_test_and_pixels_agree (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (demo);
  cairo_surface_t *surface;
  cairo_t *cr;
  FindFlag f = { 0 };
  EtViewport v;
  EtHit hit;
  double cx, cy;
  guint8 *px;
  int stride;

  whole_trace (&v, 1400, 900);
  v.to_ns = v.from_ns + (v.to_ns - v.from_ns) / 8;     /* a mid zoom */
  et_layout_update (layout, v.lane_height);
  et_timeline_foreach_shape (demo, layout, &v, find_alert_flag, &f);
  assert_true (f.found);
  cx = (f.flag.x0 + f.flag.x1) / 2, cy = (f.flag.y0 + f.flag.y1) / 2;

  et_timeline_hit_test (demo, layout, &v, cx, cy, &hit);
  assert_int_equal (hit.kind, ET_HIT_SHAPE);
  assert_ptr_equal (hit.shape.m, f.flag.m);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, v.width, v.height);
  cr = cairo_create (surface);
  et_timeline_draw (cr, demo, layout, &v);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  px = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  {
    /* left of the "!", inside the red diamond: B, G, R in memory */
    const guint8 *p = px + (int) cy * stride + ((int) cx - 2) * 4;
    assert_true (p[2] > 180 && p[1] < 80 && p[0] < 80);
  }
  cairo_surface_destroy (surface);

  et_timeline_hit_test (demo, layout, &v, 500, 5, &hit);
  assert_int_equal (hit.kind, ET_HIT_RULER);
  et_timeline_hit_test (demo, layout, &v, 20, cy, &hit);
  assert_int_equal (hit.kind, ET_HIT_ROW_LABEL);
}

static void
test_render_files_png_svg_pdf (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (demo);
  static const char *const names[] = { "t.png", "t.svg", "t.pdf" };
  static const char *const magic[] = { "\x89PNG", "<?xm", "%PDF" };
  EtViewport v;

  whole_trace (&v, 800, 500);
  v.dark = TRUE;
  et_layout_update (layout, v.lane_height);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (demo_dir, names[i], NULL);
      g_autofree char *data = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      assert_true (et_timeline_render_file (demo, layout, &v, path, &error));
      g_assert_no_error (error);
      assert_true (g_file_get_contents (path, &data, &len, NULL));
      assert_true (len > 1000);
      assert_memory_equal (data, magic[i], 4);
      g_unlink (path);
    }
}

static void
test_collapsing_a_process_hides_its_rows (void **state)
{
  g_autoptr(EtLayout) layout = et_layout_new (demo);
  guint before = et_layout_n_rows (layout), process = et_layout_row (layout, 0)->index;
  g_autoptr(GString) label = g_string_new (NULL);

  for (guint r = 0; r < before; r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      const EtChannel *ch;
      g_autofree char *expected = NULL;

      if (row->kind != ET_ROW_CHANNEL)
        continue;
      ch = et_trace_get_channel (demo, row->index);
      g_string_truncate (label, 0);
      et_layout_row_label (layout, row, label);
      /* Concurrency Visualizer's "<tid> <series>: <provider>", provider alone
       * for the empty series */
      expected = *et_trace_get_string (demo, ch->series)
        ? g_strdup_printf ("%u %s: %s", et_trace_get_thread (demo, et_trace_channel_thread (demo, row->index))->tid,
                           et_trace_get_string (demo, ch->series), et_trace_get_provider (demo, ch->provider)->name)
        : g_strdup_printf ("%u %s", et_trace_get_thread (demo, et_trace_channel_thread (demo, row->index))->tid,
                           et_trace_get_provider (demo, ch->provider)->name);
      assert_string_equal (label->str, expected);
    }
  et_layout_set_collapsed (layout, process, TRUE);
  assert_true (et_layout_n_rows (layout) < before);
  et_layout_set_collapsed (layout, process, FALSE);
  assert_int_equal (et_layout_n_rows (layout), before);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_viewport_time_and_x_round_trip),
    cmocka_unit_test (test_zoom_keeps_time_under_pointer_and_reaches_nanoseconds),
    cmocka_unit_test (test_ruler_steps_are_1_2_5_and_at_least_min_pixels),
    cmocka_unit_test (test_duration_text_has_units),
    cmocka_unit_test (test_critical_and_alert_never_hidden_in_aggregates),
    cmocka_unit_test (test_hit_test_and_pixels_agree),
    cmocka_unit_test (test_render_files_png_svg_pdf),
    cmocka_unit_test (test_collapsing_a_process_hides_its_rows),
  };
  return cmocka_run_group_tests_name ("render", tests, setup_demo, teardown_demo);
}
