/* et-trace-channels.c — what the model reads from a channel's markers
 * instead of walking them: per block of 64 markers a summary and lane runs
 * (_et_channel_build_blocks), and per channel its reach, depths and lanes
 * (_et_trace_channel_info). Loading builds them for the channels of more
 * than a block (load/et-trace-markers.c); the others get them here when
 * first asked for, by drawing or a layout.
 */
#include "et-trace-private.h"

static void
add_to_summary (EtBlockSummary *block, const EtMarker *m, guint i)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << (i & (ET_CHANNEL_BLOCK - 1));
  int k = m->kind;

  block->count[k]++;
  for (int level = ET_IMPORTANCE_NORMAL; level <= ET_IMPORTANCE_CRITICAL; level++)
    if (m->importance >= level)
      block->at_least[level - ET_IMPORTANCE_NORMAL] |= bit;
  if (m->kind == ET_MARKER_SPAN)
    return;
  block->members[k] |= bit;
  block->max_importance[k] = MAX (block->max_importance[k], m->importance);
}

/* The lane runs of the block being summarized: which run each lane has
 * (an index into the arrays' lane_runs, from the block's first; -1 for none),
 * which run the block's spans that are not simple have (-1 for none), and
 * the last span's start in each run. */
typedef struct
{
  gint8  run_of_lane[256];
  gint8  others;
  gint64 last_start[ET_CHANNEL_BLOCK];
  guint  first_run;
} LaneRunBuild;

static void
lane_runs_open_block (EtBlockArrays *arrays, LaneRunBuild *build)
{
  memset (build->run_of_lane, -1, sizeof build->run_of_lane);
  build->others = -1;
  build->first_run = arrays->lane_runs->len;
  g_array_append_val (arrays->block_lanes0, build->first_run);
}

/* Adds span @m, marker @i of its channel, to its run in the block: the run
 * of its lane when it is simple, else the block's run of the others. */
static void
lane_runs_add (EtBlockArrays *arrays, LaneRunBuild *build, const EtMarker *m, guint i, guint lane)
{
  gboolean simple = et_marker_is_simple_span (m) && lane < ET_LANE_RUN_OTHERS;
  gint8 *slot = simple ? &build->run_of_lane[lane] : &build->others;
  guint32 longest = m->status == ET_SPAN_UNMATCHED_END ? 0 : _et_micros_between (m->start_ns, m->end_ns);
  guint64 bit = G_GUINT64_CONSTANT (1) << (i & (ET_CHANNEL_BLOCK - 1));
  gint8 k = *slot;
  EtLaneRun *run;

  if (k < 0)
    {
      EtLaneRun fresh = { bit, longest, 0, m->category, simple ? lane : ET_LANE_RUN_OTHERS,
                          m->importance, simple ? ET_LANE_RUN_SIMPLE : 0 };

      k = *slot = (gint8) (arrays->lane_runs->len - build->first_run);
      g_array_append_val (arrays->lane_runs, fresh);
      build->last_start[k] = m->start_ns;
      return;
    }
  run = &g_array_index (arrays->lane_runs, EtLaneRun, build->first_run + (guint) k);
  run->members |= bit;
  run->importance = MAX (run->importance, m->importance);
  if (m->category != run->category)
    run->flags |= ET_LANE_RUN_MIXED;
  run->longest_us = MAX (run->longest_us, longest);
  run->step_us = MAX (run->step_us, _et_micros_between (build->last_start[k], m->start_ns));
  build->last_start[k] = m->start_ns;
}

/* The block arrays of @channel, appended to @arrays: per block its
 * running end, summary and lane runs, per stretch its runs, the loud
 * markers. */
void
_et_channel_build_blocks (EtTrace *self, guint channel, EtBlockArrays *arrays)
{
  const EtChannel *c = &g_array_index (self->channels, EtChannel, channel);
  guint64 used = _et_trace_channel_info (self, channel)->depths;
  LaneRunBuild run_build;
  EtStretchBuild stretch_build;
  gint64 running = G_MININT64;
  EtBlockSummary summary = { 0 };

  for (guint i = 0; i < c->n_markers; i++)
    {
      const EtMarker *m = &c->markers[i];

      if ((i & (ET_CHANNEL_BLOCK - 1)) == 0)
        lane_runs_open_block (arrays, &run_build);
      if ((i & (ET_CHANNEL_STRETCH - 1)) == 0)
        _et_stretch_build_open (arrays, &stretch_build);
      if (m->kind == ET_MARKER_SPAN)
        {
          guint lane = et_lane_of_depth (used, m->depth);

          lane_runs_add (arrays, &run_build, m, i, lane);
          _et_stretch_build_add (arrays, &stretch_build, m, i, lane);
        }
      running = MAX (running, m->end_ns);
      add_to_summary (&summary, m, i);
      if (et_marker_is_loud (m))
        g_array_append_val (arrays->loud, i);
      if (((i + 1) & ((1u << ET_BLOCK_SHIFT) - 1)) == 0 || i + 1 == c->n_markers)
        {
          g_array_append_val (arrays->blocks, running);
          g_array_append_val (arrays->block_summaries, summary);
          summary = (EtBlockSummary) { 0 };
        }
    }
}


/* One channel's info (EtChannelInfo), from its markers. */
static void
make_channel_info (EtTrace *self, guint channel)
{
  const EtChannel *c = &g_array_index (self->channels, EtChannel, channel);
  EtChannelInfo info = { c->n_markers > 0 ? c->markers[0].start_ns : G_MAXINT64, G_MININT64,
                         0, 0, 0 };
  guint deepest = 0;

  for (guint i = 0; i < c->n_markers; i++)
    deepest = MAX (deepest, _et_reach_marker (&c->markers[i], &info.last_ns, &info.depths));
  info.deepest = (guint8) MIN (deepest, G_MAXUINT8);
  info.lanes = et_lane_of_depth (info.depths, deepest) + 1;
  self->channel_info[channel] = info;
}

const EtChannelInfo *
_et_trace_channel_info (EtTrace *self, guint channel)
{
  guint thread = g_array_index (self->channel_thread, guint32, channel);

  if (!g_atomic_int_get (&self->thread_info_ready[thread]))
    {
      const EtThread *t = &g_array_index (self->threads, EtThread, thread);

      g_mutex_lock (&self->info_lock);
      if (!self->thread_info_ready[thread])
        {
          for (guint k = 0; k < t->n_channels; k++)
            make_channel_info (self, t->first_channel + k);
          g_atomic_int_inc (&self->n_threads_with_info);
          g_atomic_int_set (&self->thread_info_ready[thread], 1);
        }
      g_mutex_unlock (&self->info_lock);
    }
  return &self->channel_info[channel];
}

guint
_et_trace_n_threads_with_info (EtTrace *self)
{
  return (guint) g_atomic_int_get (&self->n_threads_with_info);
}
