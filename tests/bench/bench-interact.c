/* bench-interact — how long the main loop stays busy while a person opens
 * a trace and explores it: the real window (libetapp) under Xvfb, driven
 * through its actions. Prints one JSON object. Used by tests/bench/run.
 *
 * The main loop's poll function is wrapped: the time from one poll's
 * return to the next poll is one busy stretch (every source dispatched in
 * that iteration, GTK's layout and drawing included). A stretch longer
 * than a frame (16.7 ms) is a stall a person can see.
 *
 * ETLSCOPE_BENCH_VERBOSE=1 says on stderr which steps had such stretches
 * and how much of it the frame clock's update (tick callbacks), layout
 * (measuring and allocating) and paint (snapshot and rendering) phases
 * took; "other" is everything else that iteration dispatched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gui-test.h"
#include "et-timeline-view.h"

#define FRAME_US 16667

/* The frame clock's phases within one iteration (ETLSCOPE_BENCH_VERBOSE):
 * what an over-frame stretch was spent on. */
enum { PHASE_UPDATE, PHASE_LAYOUT, PHASE_PAINT, N_PHASES };

typedef struct
{
  GArray *busy;            /* gint64 µs per main-loop iteration */
  gint64  woke;            /* when the last poll returned, 0 before */
  gint64  mark;            /* when the running phase began */
  gint64  phase[N_PHASES]; /* µs per phase in this iteration */
  GArray *phases;          /* gint64[N_PHASES] per iteration */
} Probe;

static Probe probe;
static GPollFunc default_poll;

static gint
probing_poll (GPollFD *fds, guint n_fds, gint timeout)
{
  gint64 now = g_get_monotonic_time ();
  gint result;

  if (probe.woke != 0)
    {
      gint64 busy = now - probe.woke;
      g_array_append_vals (probe.phases, probe.phase, 1);
      g_array_append_val (probe.busy, busy);
    }
  memset (probe.phase, 0, sizeof probe.phase);
  result = default_poll (fds, n_fds, timeout);
  probe.woke = g_get_monotonic_time ();
  return result;
}

static int
compare_gint64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

/* Writes the stretches since the last report as a JSON object, and starts
 * counting afresh. */
static void
report (GString *out, const char *phase)
{
  GArray *b = probe.busy;
  guint over = 0;

  qsort (b->data, b->len, sizeof (gint64), compare_gint64);
  for (guint i = 0; i < b->len; i++)
    over += g_array_index (b, gint64, i) > FRAME_US;
  g_string_append_printf (out, "%s\"%s\": {\"iterations\": %u, \"longest_ms\": %.1f, "
                          "\"p99_ms\": %.1f, \"median_ms\": %.2f, \"over_frame\": %u}",
                          out->len > 1 ? ", " : "", phase, b->len,
                          b->len ? g_array_index (b, gint64, b->len - 1) / 1000.0 : 0,
                          b->len ? g_array_index (b, gint64, b->len * 99 / 100) / 1000.0 : 0,
                          b->len ? g_array_index (b, gint64, b->len / 2) / 1000.0 : 0, over);
  g_array_set_size (b, 0);
  g_array_set_size (probe.phases, 0);
}

/* Each phase of a frame clock ends where the next one's signal is
 * emitted; the hooks see every frame clock (the window's, popovers'). */
static gboolean
on_phase (GSignalInvocationHint *hint, guint n_values, const GValue *values, gpointer data)
{
  static int running = -1;
  gint64 now = g_get_monotonic_time ();

  if (running >= 0)
    probe.phase[running] += now - probe.mark;
  running = GPOINTER_TO_INT (data);
  probe.mark = now;
  return TRUE;
}

static void
watch_phases (void)
{
  static const char *const signals[] = { "update", "layout", "paint", "after-paint" };
  static const int phases[] = { PHASE_UPDATE, PHASE_LAYOUT, PHASE_PAINT, -1 };
  GTypeClass *klass = g_type_class_ref (GDK_TYPE_FRAME_CLOCK);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_signal_add_emission_hook (g_signal_lookup (signals[i], GDK_TYPE_FRAME_CLOCK), 0, on_phase,
                                GINT_TO_POINTER (phases[i]), NULL);
  g_type_class_unref (klass);
}

/* Says which part of the script stalled, to find out why
 * (ETLSCOPE_BENCH_VERBOSE): every stretch over a frame since stretch
 * @from, split into the frame clock's phases. */
static void
blame (const char *what, guint k, guint from)
{
  if (g_getenv ("ETLSCOPE_BENCH_VERBOSE") == NULL)
    return;
  for (guint i = from; i < probe.busy->len; i++)
    {
      gint64 busy = g_array_index (probe.busy, gint64, i);
      const gint64 *phase = &g_array_index (probe.phases, gint64, i * N_PHASES);

      if (busy <= FRAME_US)
        continue;
      fprintf (stderr, "%s #%u, stretch %u: %.1f ms (update %.1f, layout %.1f, paint %.1f, "
               "other %.1f)\n", what, k, i - from, busy / 1000.0, phase[PHASE_UPDATE] / 1000.0,
               phase[PHASE_LAYOUT] / 1000.0, phase[PHASE_PAINT] / 1000.0,
               (busy - phase[PHASE_UPDATE] - phase[PHASE_LAYOUT] - phase[PHASE_PAINT]) / 1000.0);
    }
}

static gboolean
stop_waiting (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A person's pace: the main loop for @ms milliseconds. A benchmark may
 * wait by the clock; the tests wait for conditions (gui-test.h). */
static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, stop_waiting, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* An action of @widget (or of a widget above it), with @target (taken;
 * NULL for none) for its parameter, then the frames it causes: the bench
 * measures how long each of them keeps the main loop, over a window of
 * 40 ms (a benchmark, not a test). */
static void
step_on (gpointer widget, const char *action, GVariant *target, guint times)
{
  if (target != NULL)
    g_variant_ref_sink (target);
  for (guint k = 0; k < times; k++)
    {
      guint from = probe.busy->len;

      if (!gtk_widget_activate_action_variant (GTK_WIDGET (widget), action, target))
        {
          fprintf (stderr, "bench-interact: no action %s\n", action);
          exit (2);
        }
      run_for (40);
      blame (action, k + 1, from);
    }
  if (target != NULL)
    g_variant_unref (target);
}

static void
step (gpointer widget, const char *action, guint times)
{
  step_on (widget, action, NULL, times);
}

static void
explore (EtWindow *window, const char *needle)
{
  EtTimelineView *view = ET_TIMELINE_VIEW (find_widget (GTK_WIDGET (window),
                                                        ET_TYPE_TIMELINE_VIEW));
  const EtViewport *v = et_window_get_viewport (window);
  gint64 span;

  guint from = probe.busy->len;

  /* A look at the whole trace first. */
  run_for (1000);
  blame ("looking", 1, from);
  /* From the whole trace down to microseconds, across, and back out. */
  step (view, "timeline.zoom-in", 24);
  step (view, "timeline.pan-right", 10);
  step (view, "timeline.zoom-out", 24);
  step (view, "timeline.zoom-fit", 1);
  /* Marker to marker with the keyboard. */
  gtk_widget_grab_focus (GTK_WIDGET (view));
  step (view, "timeline.next-marker", 10);
  step (view, "timeline.marker-down", 5);
  /* A range on the ruler, zoomed to, cleared. */
  span = v->to_ns - v->from_ns;
  from = probe.busy->len;
  et_timeline_view_select_range (view, v->from_ns + span / 3, v->from_ns + span / 3 + span / 50);
  run_for (100);
  blame ("range", 1, from);
  step (view, "timeline.zoom-selection", 1);
  step (view, "timeline.clear-range", 1);
  step (view, "timeline.zoom-fit", 1);
  /* Search over every marker's text and payload (on a thread), then steps. */
  from = probe.busy->len;
  et_window_search (window, needle);
  RUN_UNTIL (!et_window_is_searching (window));
  blame ("search", 1, from);
  if (et_window_get_n_matches (window) == 0)
    {
      fprintf (stderr, "bench-interact: nothing matches \"%s\": the steps through the "
               "matches would measure nothing\n", needle);
      exit (2);
    }
  step (window, "win.find-next", 5);
  /* Channels hidden and shown again. */
  step (view, "timeline.show-all-channels", 1);
  /* The first thread opened into its series and closed again (the whole
   * layout of 15,000 threads on the many-threads trace), then compact rows
   * on and off. */
  for (guint r = 0; r < et_layout_n_rows (et_window_get_layout (window)); r++)
    if (et_layout_row (et_window_get_layout (window), r)->kind == ET_ROW_THREAD)
      {
        step_on (view, "timeline.collapse-thread",
                 g_variant_new_uint32 (et_layout_row (et_window_get_layout (window), r)->index), 2);
        break;
      }
  step (window, "win.compact-rows", 2);
  from = probe.busy->len;
  RUN_UNTIL (!et_window_is_busy (window));
  run_for (200);
  blame ("settling", 1, from);
}

int
main (int argc, char **argv)
{
  g_autoptr(GString) out = g_string_new ("{");
  EtWindow *window;

  if (argc != 2 && argc != 3)
    {
      fprintf (stderr, "usage: bench-interact FILE.etl [SEARCH]\n");
      return 2;
    }
  gtk_init ();
  probe.busy = g_array_new (FALSE, FALSE, sizeof (gint64));
  probe.phases = g_array_new (FALSE, FALSE, N_PHASES * sizeof (gint64));
  default_poll = g_main_context_get_poll_func (NULL);
  g_main_context_set_poll_func (NULL, probing_poll);
  if (g_getenv ("ETLSCOPE_BENCH_VERBOSE") != NULL)
    watch_phases ();

  window = open_window (argv[1]);
  /* Opening ends with the window painted as it will stay: a frame more,
   * so the full paint after the first one (the report's rows and the
   * window's settled size come then) is counted as opening, not as the
   * first look. */
  wait_for_frame (GTK_WIDGET (window));
  blame ("opening", 1, 0);
  report (out, "open");
  explore (window, argc == 3 ? argv[2] : "GET");
  report (out, "explore");
  g_string_append (out, "}");
  printf ("%s\n", out->str);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
