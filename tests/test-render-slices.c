/* test-render-slices.c — a large picture is drawn in horizontal slices at
 * once, one per core (render/et-timeline-slices.c): the slices together
 * must give the very pixels one thread gives, wherever the cuts fall
 * (inside rows too), with cross-thread connectors running across them,
 * collapsed and expanded threads, scrolled, zoomed, dark, at twice the
 * pixels; pictures that cannot be cut are drawn whole; a view with many
 * markers or pixels is cut on every core. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "et-fixture.h"
#include "et-timeline-private.h"
#include "et-trace-load.h"

static char *dir;

static int
setup (void **state)
{
  dir = g_dir_make_tmp ("et-render-slices-XXXXXX", NULL);
  return dir != NULL ? 0 : -1;
}

static int
teardown (void **state)
{
  et_fixture_remove_dir (dir);
  g_free (dir);
  return 0;
}

/* The large shape (nested, overlapping and cross-thread spans, lone ends,
 * alerts; six series a thread) of @n events, or the many-threads shape. */
static EtTrace *
load_fixture (const char *name, guint n, gboolean threads)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  EtFixtureOptions o;
  EtTrace *trace;

  et_fixture_options_init (&o);
  if (threads)
    assert_true (et_fixture_write_threads (path, n, 300, 7, &o, &error));
  else
    assert_true (et_fixture_write_large (path, n, 3, &o, &error));
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  assert_non_null (trace);
  return trace;
}

static cairo_surface_t *
draw_in (EtTrace *trace, EtLayout *layout, const EtViewport *v, int scale, const char *slices)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, v->width * scale,
                                                         v->height * scale);
  cairo_t *cr;

  g_setenv ("ETLSCOPE_DRAW_SLICES", slices, TRUE);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  et_timeline_draw (cr, trace, layout, v);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_unsetenv ("ETLSCOPE_DRAW_SLICES");
  return surface;
}

/* The pixels of @a and @b that differ (both the same size). */
static guint
pixels_differing (cairo_surface_t *a, cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a), width = cairo_image_surface_get_width (a);
  int stride = cairo_image_surface_get_stride (a);
  const guint8 *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  guint n = 0;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      n += memcmp (pa + (gsize) y * stride + 4 * x, pb + (gsize) y * stride + 4 * x, 4) != 0;
  return n;
}

/* How many slices @v is cut into when @n are asked for, and whether a cut
 * falls inside a row (a row both slices walk). */
static guint
slices_of (EtTrace *trace, EtLayout *layout, const EtViewport *v, int scale, const char *n,
           gboolean *inside_a_row)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, v->width * scale,
                                                         v->height * scale);
  cairo_t *cr;
  EtTimelineSlice slices[8];
  guint got;

  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  if (n != NULL)
    g_setenv ("ETLSCOPE_DRAW_SLICES", n, TRUE);
  got = _et_timeline_choose_slices (cr, trace, layout, v, slices, G_N_ELEMENTS (slices));
  g_unsetenv ("ETLSCOPE_DRAW_SLICES");
  for (guint k = 1; k < got; k++)
    {
      /* The slices tile the picture, top to bottom. */
      assert_int_equal (slices[k].top, slices[k - 1].bottom);
      assert_true (slices[k].top > slices[k - 1].top);
      *inside_a_row |= slices[k].first_row < slices[k - 1].end_row;
    }
  assert_int_equal (slices[0].top, 0);
  assert_int_equal (slices[got - 1].bottom, v->height);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return got;
}

static guint
cross_thread_spans (EtTrace *trace)
{
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      for (guint i = 0; i < ch->n_markers; i++)
        n += ch->markers[i].status == ET_SPAN_CROSS_THREAD;
    }
  return n;
}

/* Two, three and four slices give the pixels of one, on every view. */
static void
test_slices_draw_what_one_thread_draws (void **state)
{
  g_autoptr(EtTrace) large = load_fixture ("large.etl", 40000, FALSE);
  g_autoptr(EtTrace) threads = load_fixture ("threads.etl", 20000, TRUE);
  gboolean inside_a_row = FALSE;
  guint pictures = 0;

  /* Connectors cross the slices' edges: the fixture has them. */
  assert_true (cross_thread_spans (large) > 10);
  for (guint t = 0; t < 2; t++)
    for (int collapsed = 0; collapsed <= 1; collapsed++)
      for (guint view = 0; view < 4; view++)
        {
          EtTrace *trace = t == 0 ? large : threads;
          g_autoptr(EtLayout) layout = et_layout_new (trace);
          gint64 duration = et_trace_get_duration_ns (trace);
          int scale = view == 3 ? 2 : 1;
          EtViewport v;
          cairo_surface_t *one;

          et_layout_set_all_threads_collapsed (layout, collapsed);
          et_viewport_init (&v, 1000, 700);
          et_layout_update (layout, v.lane_height);
          v.from_ns = 0, v.to_ns = duration;
          if (view == 1)   /* closer, scrolled, dark */
            {
              v.from_ns = duration / 3, v.to_ns = duration / 3 + duration / 40;
              v.scroll_y = 137;
              v.dark = TRUE;
            }
          if (view == 3)   /* twice the pixels, high contrast */
            v.high_contrast = TRUE;
          if (view == 2)   /* tall, as `etlscope-cli render` grows to hold every row */
            v.height = MIN (v.ruler_height + et_layout_height (layout) + 1, 8000);
          one = draw_in (trace, layout, &v, scale, "1");
          for (guint n = 2; n <= 4; n++)
            {
              char asked[2] = { (char) ('0' + n), 0 };
              cairo_surface_t *cut;

              assert_int_equal (slices_of (trace, layout, &v, scale, asked, &inside_a_row), n);
              cut = draw_in (trace, layout, &v, scale, asked);
              assert_int_equal (pixels_differing (one, cut), 0);
              cairo_surface_destroy (cut);
              pictures++;
            }
          cairo_surface_destroy (one);
        }
  assert_int_equal (pictures, 2 * 2 * 4 * 3);
  assert_true (inside_a_row);
}

/* A target that is not an image's pixels as they are (a recording, a
 * translated or clipped context, a fractional scale) is drawn in one
 * slice, whatever is asked for; it still draws. So is a picture whose
 * caller caps the slices at one. */
static void
test_pictures_that_cannot_be_cut_are_drawn_whole (void **state)
{
  g_autoptr(EtTrace) large = load_fixture ("large-small.etl", 4000, FALSE);
  g_autoptr(EtLayout) layout = et_layout_new (large);
  EtTimelineSlice slices[4];
  EtViewport v;

  et_viewport_init (&v, 800, 600);
  et_layout_update (layout, v.lane_height);
  v.from_ns = 0, v.to_ns = et_trace_get_duration_ns (large);
  g_setenv ("ETLSCOPE_DRAW_SLICES", "4", TRUE);
  for (guint k = 0; k < 4; k++)
    {
      cairo_surface_t *surface = k == 0
        ? cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL)
        : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, v.width, v.height);
      cairo_t *cr = cairo_create (surface);
      double x0, y0, x1, y1;

      if (k == 1)
        cairo_translate (cr, 0, 10);
      if (k == 2)
        {
          cairo_rectangle (cr, 0, 0, 100, 100);
          cairo_clip (cr);
        }
      if (k == 3)
        cairo_surface_set_device_scale (surface, 1.5, 1.5);
      assert_int_equal (_et_timeline_choose_slices (cr, large, layout, &v, slices, 4), 1);
      assert_int_equal (slices[0].top, 0);
      assert_int_equal (slices[0].bottom, v.height);
      et_timeline_draw (cr, large, layout, &v);
      assert_int_equal (cairo_status (cr), CAIRO_STATUS_SUCCESS);
      if (k == 0)
        {
          cairo_recording_surface_ink_extents (surface, &x0, &y0, &x1, &y1);
          assert_true (x1 > 0 && y1 > 0);
        }
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  /* A caller that draws alone (the window's main loop) caps them at one. */
  {
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, v.width, v.height);
    cairo_t *cr = cairo_create (surface);

    assert_int_equal (_et_timeline_choose_slices (cr, large, layout, &v, slices, 4), 4);
    assert_int_equal (_et_timeline_choose_slices (cr, large, layout, &v, slices, 1), 1);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
  g_unsetenv ("ETLSCOPE_DRAW_SLICES");
}

/* Left to itself, a view of many markers, or a picture of many pixels,
 * is cut into one slice per core (at most four); a small view of few
 * markers is not. */
static void
test_a_large_view_is_cut_on_every_core (void **state)
{
  g_autoptr(EtTrace) large = load_fixture ("large-many.etl", 60000, FALSE);
  g_autoptr(EtLayout) layout = et_layout_new (large);
  guint cores = MAX (MIN (g_get_num_processors (), 4), 1);
  gboolean inside_a_row = FALSE;
  gint64 duration = et_trace_get_duration_ns (large);
  EtViewport v;

  assert_true (et_trace_get_stats (large)->markers >= 20000);
  g_unsetenv ("ETLSCOPE_DRAW_SLICES");
  /* Every marker, in a picture of all rows under a million pixels. */
  et_layout_set_all_threads_collapsed (layout, TRUE);
  et_viewport_init (&v, 900, 300);
  et_layout_update (layout, v.lane_height);
  v.height = v.ruler_height + et_layout_height (layout) + 1;
  v.width = MIN (900, 999999 / v.height);
  v.label_width = MIN (v.label_width, v.width / 3);
  v.from_ns = 0, v.to_ns = duration;
  assert_true ((double) v.width * v.height < 1000000);
  assert_int_equal (slices_of (large, layout, &v, 1, NULL, &inside_a_row), cores);
  /* A thousandth of the trace holds a few hundred markers: one slice in
   * that picture, one per core in 1920 × 1080 pixels. */
  v.from_ns = duration / 2, v.to_ns = duration / 2 + duration / 1000;
  assert_int_equal (slices_of (large, layout, &v, 1, NULL, &inside_a_row), 1);
  v.width = 1920, v.height = 1080;
  assert_int_equal (slices_of (large, layout, &v, 1, NULL, &inside_a_row), cores);
}

typedef struct
{
  EtTrace          *trace;
  EtLayout         *layout;
  const EtViewport *v;
} Draw;

static gpointer
draw_on_a_new_thread (gpointer data)
{
  Draw *d = data;

  return draw_in (d->trace, d->layout, d->v, 1, "1");
}

/* Labels are laid out once and kept between pictures, per thread: a
 * picture drawn with them kept (after a picture that cut the same names
 * shorter, and past the number kept, which starts them afresh) has the
 * pixels of one drawn on a thread that kept none: span names close up,
 * every series expanded, thread and series names. */
static void
test_kept_labels_draw_what_new_ones_draw (void **state)
{
  g_autoptr(EtTrace) large = load_fixture ("labels-large.etl", 20000, FALSE);
  g_autoptr(EtTrace) threads = load_fixture ("labels-threads.etl", 20000, TRUE);

  for (guint view = 0; view < 3; view++)
    {
      EtTrace *trace = view < 2 ? large : threads;
      g_autoptr(EtLayout) layout = et_layout_new (trace);
      gint64 duration = et_trace_get_duration_ns (trace);
      cairo_surface_t *kept, *fresh;
      EtViewport v, other;
      Draw d = { trace, layout, &v };

      et_layout_set_all_threads_collapsed (layout, FALSE);
      et_viewport_init (&v, 1200, 700);
      et_layout_update (layout, v.lane_height);
      v.from_ns = 0, v.to_ns = duration;
      if (view == 1)      /* close: spans wide enough for their names */
        v.from_ns = duration / 2, v.to_ns = duration / 2 + duration / 2000;
      if (view == 2)
        {
          /* Every row, in a tall picture: more labels than are kept. */
          guint labels = 0;

          v.height = MIN (v.ruler_height + et_layout_height (layout) + 1, 30000);
          for (guint r = 0; r < et_layout_n_rows (layout); r++)
            labels += et_layout_row (layout, r)->y < v.height - v.ruler_height;
          assert_true (labels > 1024);
        }
      other = v;
      other.to_ns = v.from_ns + (v.to_ns - v.from_ns) * 3 / 2;   /* names cut shorter */
      other.label_width = 90;                                   /* and the rows' */
      cairo_surface_destroy (draw_in (trace, layout, &v, 1, "1"));
      cairo_surface_destroy (draw_in (trace, layout, &other, 1, "1"));
      kept = draw_in (trace, layout, &v, 1, "1");
      fresh = g_thread_join (g_thread_new ("labels", draw_on_a_new_thread, &d));
      assert_int_equal (pixels_differing (kept, fresh), 0);
      cairo_surface_destroy (kept);
      cairo_surface_destroy (fresh);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_slices_draw_what_one_thread_draws),
    cmocka_unit_test (test_pictures_that_cannot_be_cut_are_drawn_whole),
    cmocka_unit_test (test_a_large_view_is_cut_on_every_core),
    cmocka_unit_test (test_kept_labels_draw_what_new_ones_draw),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
