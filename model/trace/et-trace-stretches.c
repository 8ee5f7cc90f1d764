/* et-trace-stretches.c — lane runs of stretches of a channel's markers
 * (et_channel_stretch_runs, et-trace.h): built with the block lane runs
 * while a channel is closed, read by drawing at coarse zoom.
 *
 * A stretch is ET_CHANNEL_STRETCH markers (64 blocks). Per lane, its run
 * goes from the lane's first simple span in the stretch to its last, with
 * the largest step from one span's start to the next counted across
 * blocks too. The spans that are not simple are in no stretch run (their
 * blocks' runs have them).
 */
#include "et-trace-private.h"

#include <string.h>

void
_et_stretch_build_open (EtBlockArrays *arrays, EtStretchBuild *build)
{
  memset (build->run_of_lane, 0xFF, sizeof build->run_of_lane);
  build->first_run = arrays->stretch_runs->len;
  g_array_append_val (arrays->stretch_runs0, build->first_run);
}

/* Span @m, marker @i of its channel in @lane, into the open stretch. */
void
_et_stretch_build_add (EtBlockArrays *arrays, EtStretchBuild *build, const EtMarker *m, guint i,
                       guint lane)
{
  guint32 longest = m->status == ET_SPAN_UNMATCHED_END ? 0 : _et_micros_between (m->start_ns, m->end_ns);
  EtStretchRun *run;
  guint16 k;

  if (!et_marker_is_simple_span (m) || lane >= ET_LANE_RUN_OTHERS)
    return;
  k = build->run_of_lane[lane];
  if (k == G_MAXUINT16)
    {
      EtStretchRun fresh = { i, i, longest, 0, m->category, (guint8) lane, m->importance,
                             ET_LANE_RUN_SIMPLE };

      build->run_of_lane[lane] = (guint16) (arrays->stretch_runs->len - build->first_run);
      build->last_start[lane] = m->start_ns;
      g_array_append_val (arrays->stretch_runs, fresh);
      return;
    }
  run = &g_array_index (arrays->stretch_runs, EtStretchRun, build->first_run + k);
  run->step_us = MAX (run->step_us, _et_micros_between (build->last_start[lane], m->start_ns));
  run->last = i;
  run->importance = MAX (run->importance, m->importance);
  if (m->category != run->category)
    run->flags |= ET_LANE_RUN_MIXED;
  run->longest_us = MAX (run->longest_us, longest);
  build->last_start[lane] = m->start_ns;
}
