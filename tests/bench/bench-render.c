/* bench-render — times render/ on a loaded trace: a 1920×1080 viewport at
 * whole-trace, mid and deep zoom, and a hit-test; median of several runs.
 * With a needle, also one search of the whole trace for it (model/
 * et-search: every marker's text and values). Prints one JSON object.
 * Used by tests/bench/run. */
#include <stdio.h>
#include <stdlib.h>
#include "et-search.h"
#include "et-timeline-render.h"
#include "et-trace-load.h"

#define RUNS 7

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median_ms (double *samples)
{
  qsort (samples, RUNS, sizeof (double), compare_doubles);
  return samples[RUNS / 2];
}

static double
time_draw (EtTrace *trace, EtLayout *layout, const EtViewport *v, cairo_surface_t *surface)
{
  double samples[RUNS];

  for (int r = 0; r < RUNS; r++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 start = g_get_monotonic_time ();
      et_timeline_draw (cr, trace, layout, v);
      cairo_surface_flush (surface);
      samples[r] = (g_get_monotonic_time () - start) / 1000.0;
      cairo_destroy (cr);
    }
  return median_ms (samples);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtLayout) layout = NULL;
  cairo_surface_t *surface;
  EtViewport v;
  gint64 duration, t0;
  double load_ms, whole, mid, deep, hits[RUNS], search_ms = 0;
  guint search_hits = 0;
  EtHit hit;

  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "usage: bench-render FILE.etl [NEEDLE]\n");
      return 2;
    }
  t0 = g_get_monotonic_time ();
  trace = et_trace_load (argv[1], ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  layout = et_layout_new (trace);
  load_ms = (g_get_monotonic_time () - t0) / 1000.0;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1920, 1080);
  et_viewport_init (&v, 1920, 1080);
  et_layout_update (layout, v.lane_height);
  duration = et_trace_get_duration_ns (trace);

  v.from_ns = 0, v.to_ns = duration;
  whole = time_draw (trace, layout, &v, surface);
  v.from_ns = duration / 2, v.to_ns = duration / 2 + duration / 1000;
  mid = time_draw (trace, layout, &v, surface);
  v.from_ns = duration / 2, v.to_ns = duration / 2 + 20000;     /* 20 µs */
  deep = time_draw (trace, layout, &v, surface);

  v.from_ns = 0, v.to_ns = duration;
  for (int r = 0; r < RUNS; r++)
    {
      gint64 start = g_get_monotonic_time ();
      et_timeline_hit_test (trace, layout, &v, 900 + r, 300, &hit);
      hits[r] = (g_get_monotonic_time () - start) / 1000.0;
    }
  if (argc == 3)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(GArray) found = et_trace_search (trace, argv[2], NULL);

      search_ms = (g_get_monotonic_time () - start) / 1000.0;
      search_hits = found->len;
    }
  printf ("{\"markers\": %" G_GUINT64_FORMAT ", \"load_and_layout_ms\": %.1f, "
          "\"whole_ms\": %.2f, \"mid_ms\": %.2f, \"deep_ms\": %.2f, \"hit_ms\": %.3f, "
          "\"search_ms\": %.1f, \"search_hits\": %u}\n",
          et_trace_get_stats (trace)->markers, load_ms, whole, mid, deep, median_ms (hits),
          search_ms, search_hits);
  cairo_surface_destroy (surface);
  return 0;
}
