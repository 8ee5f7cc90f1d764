/* et-timeline-render.c — shapes, drawing and hit-testing of the timeline.
 *
 * Pipeline (see et-timeline-render.h): for each row in view, the channel's
 * markers in the time range come from et_channel_query (so spans that
 * started before the range are included); spans become bars in their lane,
 * flags and messages that fall within a few pixels of each other merge into
 * one grey aggregate (its size from the most important member; critical and
 * alert members are drawn on top, never hidden).
 */
#include "et-timeline-render.h"

#include <locale.h>
#include "et-cpu-strip.h"
#include "et-stamps.h"
#include "et-timeline-private.h"
#include "et-time.h"
#include "et-trace-decode.h"

#include <math.h>
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#define MERGE_PX 3.0

typedef struct
{
  double r, g, b;
} Rgb;

#define RGB(hex) { ((hex) >> 16 & 0xFF) / 255.0, ((hex) >> 8 & 0xFF) / 255.0, ((hex) & 0xFF) / 255.0 }

/* Concurrency Visualizer's category colours (the palette). */
static const Rgb flag_colors[5] = { RGB (0x4040C2), RGB (0x30D030), RGB (0xFFE020),
                                    RGB (0x20F0F0), RGB (0xF020F0) };
static const Rgb span_colors[5] = { RGB (0x5B38ED), RGB (0x00D43A), RGB (0xFFE439),
                                    RGB (0x00F0EE), RGB (0xFF00EE) };
static const Rgb alert_color = RGB (0xE01B24);
/* On dark rows, category 0's deep blue stood out by 2:1 (flags) and 2.4:1
 * (bars): lighter blues, 4.5:1 and 3.5:1. The other colours keep CV's. */
static const Rgb flag_colors_dark[5] = { RGB (0x7B7BFF), RGB (0x30D030), RGB (0xFFE020),
                                         RGB (0x20F0F0), RGB (0xF020F0) };
static const Rgb span_colors_dark[5] = { RGB (0x7C5CFF), RGB (0x00D43A), RGB (0xFFE439),
                                         RGB (0x00F0EE), RGB (0xFF00EE) };

static const Rgb *
category_color (const Rgb *palette, gint16 category)
{
  return category < 0 ? &alert_color : &palette[category % 5];
}

void
et_timeline_category_rgb (gint16 category, double *r, double *g, double *b)
{
  const Rgb *c = category_color (flag_colors, category);

  *r = c->r, *g = c->g, *b = c->b;
}

static void
set_rgb (cairo_t *cr, const Rgb *c)
{
  cairo_set_source_rgb (cr, c->r, c->g, c->b);
}

/* Half the diamond's size: importance is shown by size, not only colour. */
static double
flag_radius (EtImportance importance)
{
  static const double radius[] = { 3.5, 4.5, 5.5, 7.0 };
  return radius[MIN (importance, ET_IMPORTANCE_CRITICAL)];
}

/* In lanes lower than the usual (compact rows), flags shrink with them,
 * keeping their sizes apart. */
static double
flag_scale (const EtViewport *v)
{
  return MIN (1.0, v->lane_height / (double) ET_LANE_HEIGHT);
}

static double
flag_radius_in (const EtViewport *v, EtImportance importance)
{
  return flag_radius (importance) * flag_scale (v);
}

/* ---- shapes ------------------------------------------------------------ */

static gboolean
row_visible (const EtViewport *v, const EtRow *row, double *top)
{
  *top = v->ruler_height + row->y - v->scroll_y;
  return *top + row->height > v->ruler_height && *top < v->height;
}

#define MAX_LANES 64

/* Only shapes that reach rows [lo, hi] of pixels are wanted (a hit-test's
 * point and its slack): generators skip the kinds and lanes that cannot
 * reach them. Skipping is exact: a lane's runs never depend on another
 * lane's spans, nor flags on messages. NULL when drawing (everything). */
typedef struct
{
  double lo, hi;
} Band;

static inline gboolean
band_reaches (const Band *band, double y0, double y1)
{
  return band == NULL || (y0 <= band->hi && y1 >= band->lo);
}

/* Per lane, the run of narrow spans being merged (see span_shapes). */
typedef struct
{
  gboolean active;
  EtShape  shape;
} SpanRun;

static void
flush_run (SpanRun *run, EtShapeFunc func, gpointer data)
{
  if (run->active)
    func (&run->shape, data);
  run->active = FALSE;
}

/* Whether markers [@i, @i + ET_CHANNEL_BLOCK) are one whole block of the
 * channel's summaries, all before @to. */
static inline gboolean
whole_block (guint i, guint to)
{
  return (i & (ET_CHANNEL_BLOCK - 1)) == 0 && i + ET_CHANNEL_BLOCK <= to;
}

/* The same for a whole stretch (et_channel_stretch_runs). */
static inline gboolean
whole_stretch (guint i, guint to)
{
  return (i & (ET_CHANNEL_STRETCH - 1)) == 0 && i + ET_CHANNEL_STRETCH <= to;
}

/* One channel's spans, as span_shapes walks them. */
typedef struct
{
  EtLayout         *layout;
  guint             channel;
  const EtChannel  *ch;
  const EtViewport *v;
  double            top;
  EtTimeToX         map;
  EtShapeFunc       func;
  gpointer          data;
  guint8            lane_of[MAX_LANES];   /* the row's lane of each channel lane
                                             (they differ in a merged row) */
  guint64           row_depths;           /* et_layout_row_depths */
  gboolean          one_lane;
  const Band       *band;
  SpanRun           runs[MAX_LANES];
  /* The stretch being walked (et_channel_stretch_runs): channel lanes whose
   * spans all join one sliver run there, and each one's stretch run. */
  guint64             stretch_lanes;
  const EtStretchRun *stretch_run[MAX_LANES];
} SpanScan;

/* Whether a span in @lane can reach the band at all. */
static inline gboolean
lane_in_band (const SpanScan *p, guint lane)
{
  double y0 = p->top + 1 + lane * p->v->lane_height;

  return band_reaches (p->band, y0, y0 + p->v->lane_height - 2);
}

/* A channel's lanes (as its lane runs count them) are its depths in order;
 * a merged row has lanes for its thread's, so channel lane k goes to the
 * row's lane of the channel's k-th depth. MAX_LANES where the row has no
 * run for it. */
static void
map_lanes (SpanScan *p, guint64 used)
{
  guint k = 0;

  for (guint d = 0; d < 64 + MAX_LANES && k < MAX_LANES; d++)
    if (d >= 64 || (used & (G_GUINT64_CONSTANT (1) << d)))
      {
        guint lane = p->one_lane ? 0 : et_lane_of_depth (p->row_depths, (guint) MIN (d, 255));

        p->lane_of[k++] = (guint8) MIN (lane, MAX_LANES);
      }
}

/* Span @i as a bar in its lane: alone, or grown into its lane's run. */
static void
span_shape (SpanScan *p, guint i)
{
  const EtMarker *m = &p->ch->markers[i];
  const EtViewport *v = p->v;
  guint lane = p->one_lane ? 0 : et_lane_of_depth (p->row_depths, m->depth);
  double x0 = MAX (et_time_to_x (&p->map, m->start_ns), v->label_width - 2);
  double x1 = MIN (et_time_to_x (&p->map, m->end_ns), v->width + 2);
  SpanRun *run = lane < MAX_LANES ? &p->runs[lane] : NULL;
  EtShape s = { ET_SHAPE_SPAN, p->channel, i, 1, m->importance, m };

  if (p->band != NULL && !lane_in_band (p, lane))
    return;
  if (m->status != ET_SPAN_UNMATCHED_END && x1 - x0 < 1)
    x1 = x0 + 1;
  /* A sliver in a run: the run grows, no shape is made. */
  if (run != NULL && run->active && et_marker_is_simple_span (m)
      && x1 - x0 < MERGE_PX && x0 <= run->shape.x1 + 0.5)
    {
      run->shape.x1 = MAX (run->shape.x1, x1);
      run->shape.count = i - run->shape.marker + 1;
      run->shape.importance = MAX (run->shape.importance, (EtImportance) m->importance);
      run->shape.mixed |= m->category != run->shape.m->category;
      return;
    }
  s.y0 = p->top + 1 + lane * v->lane_height;
  s.y1 = s.y0 + v->lane_height - 2;
  s.x0 = x0, s.x1 = x1;
  if (m->status == ET_SPAN_UNMATCHED_END)
    {
      s.kind = ET_SHAPE_LONE_END;
      s.x0 = et_time_to_x (&p->map, m->start_ns) - 4;
      s.x1 = s.x0 + 5;
    }
  if (s.kind != ET_SHAPE_SPAN || run == NULL || !et_marker_is_simple_span (m)
      || s.x1 - s.x0 >= MERGE_PX)
    {
      p->func (&s, p->data);
      return;
    }
  flush_run (run, p->func, p->data);
  run->active = TRUE;
  run->shape = s;
}

/* Whether @run's spans all become slivers of one run at this zoom: each
 * under a pixel wide, each start within 1.4 pixels of the one before, so
 * that every span after the first joins the run the first one is in
 * (span_shape: a sliver is one pixel wide and joins a run reaching within
 * half a pixel of it). The margins keep rounding out of the answer. */
static inline gboolean
slivers_join (const SpanScan *p, guint8 flags, guint8 lane, guint32 longest_us, guint32 step_us,
              double px_per_us)
{
  return (flags & ET_LANE_RUN_SIMPLE) && lane < MAX_LANES && p->lane_of[lane] < MAX_LANES
         && longest_us != G_MAXUINT32 && longest_us * px_per_us < 0.9
         && step_us * px_per_us < 1.4;
}

static inline gboolean
lane_run_joins (const SpanScan *p, const EtLaneRun *run, double px_per_us)
{
  return (run->members & (run->members - 1)) != 0
         && slivers_join (p, run->flags, run->lane, run->longest_us, run->step_us, px_per_us);
}

/* Joins the spans of a lane's run after its first (which span_shape has
 * placed) up to its @last to the run of their lane: the last reaches
 * furthest, since spans in a lane follow each other. */
static void
join_run (SpanScan *p, guint8 lane, guint last, guint8 importance, guint8 flags, gint16 category)
{
  const EtMarker *m = &p->ch->markers[last];
  SpanRun *into = &p->runs[p->lane_of[lane]];
  double x0 = et_time_to_x (&p->map, m->start_ns);
  double x1 = MIN (et_time_to_x (&p->map, m->end_ns), p->v->width + 2);

  if (x1 - x0 < 1)
    x1 = x0 + 1;
  into->shape.x1 = MAX (into->shape.x1, x1);
  into->shape.count = last - into->shape.marker + 1;
  into->shape.importance = MAX (into->shape.importance, (EtImportance) importance);
  into->shape.mixed |= (flags & ET_LANE_RUN_MIXED) || category != into->shape.m->category;
}

static void
join_lane_run (SpanScan *p, const EtLaneRun *run, guint i)
{
  join_run (p, run->lane, i + 63 - (guint) __builtin_clzll (run->members), run->importance,
            run->flags, run->category);
}

/* Whether a lane of @p's row lies outside the band (hit-tests): none of
 * its spans is wanted. */
static inline gboolean
lane_skipped (const SpanScan *p, guint8 flags, guint8 lane)
{
  return p->band != NULL && (flags & ET_LANE_RUN_SIMPLE) && lane < MAX_LANES
         && p->lane_of[lane] < MAX_LANES && !lane_in_band (p, p->lane_of[lane]);
}

/* Whether the lane of @run (simple spans) joins at the stretch level:
 * then only the stretch's first span of the lane is visited, in its block,
 * and the rest of the stretch's joined to it at once (its run is only
 * flushed by a span of the lane that starts a new run, and none does
 * inside the stretch, so the shapes come out as block by block). */
static inline gboolean
in_stretch_lane (const SpanScan *p, const EtLaneRun *run)
{
  return (run->flags & ET_LANE_RUN_SIMPLE) && run->lane < MAX_LANES
         && (p->stretch_lanes >> run->lane & 1);
}

/* The spans of the whole block at @i, from its lane runs: a run that
 * becomes one sliver run at this zoom (lane_run_joins) is its first span,
 * as span_shape makes it, and the others joined at once; the spans of the
 * other runs go one by one. Both in the block's order, so shapes come as
 * span_shape alone would make them, visiting only what is drawn apart.
 * FALSE, having done nothing, when the block starts before the range or
 * the plot (the first spans there are cut). */
static gboolean
block_of_lane_runs (SpanScan *p, const EtLaneRun *runs, guint n, guint i, double px_per_us)
{
  const EtMarker *first = &p->ch->markers[i];
  guint64 visit = 0, joined = 0, stretched = 0;
  guint8 run_at[ET_CHANNEL_BLOCK];

  if (first->start_ns < p->v->from_ns
      || et_time_to_x (&p->map, first->start_ns) < p->v->label_width - 2)
    return FALSE;
  for (guint k = 0; k < n; k++)
    if (lane_skipped (p, runs[k].flags, runs[k].lane))
      continue;
    else if (in_stretch_lane (p, &runs[k]))
      {
        guint at = p->stretch_run[runs[k].lane]->first - i;

        if (at < ET_CHANNEL_BLOCK)
          stretched |= G_GUINT64_CONSTANT (1) << at, run_at[at] = runs[k].lane;
      }
    else if (lane_run_joins (p, &runs[k], px_per_us))
      {
        guint at = (guint) __builtin_ctzll (runs[k].members);

        joined |= G_GUINT64_CONSTANT (1) << at;
        run_at[at] = (guint8) k;
      }
    else
      visit |= runs[k].members;
  for (visit |= joined | stretched; visit != 0; visit &= visit - 1)
    {
      guint at = (guint) __builtin_ctzll (visit);
      const EtStretchRun *whole;

      span_shape (p, i + at);
      if (joined & (G_GUINT64_CONSTANT (1) << at))
        join_lane_run (p, &runs[run_at[at]], i);
      else if (stretched & (G_GUINT64_CONSTANT (1) << at))
        {
          whole = p->stretch_run[run_at[at]];
          join_run (p, whole->lane, whole->last, whole->importance, whole->flags,
                    whole->category);
        }
    }
  return TRUE;
}

/* Opens a stretch (its runs: @runs, @n): which lanes' spans all join one
 * sliver run at this zoom, with more than one span. Only for a stretch
 * whose blocks block_of_lane_runs all takes (whole, none cut at the left). */
static void
open_stretch (SpanScan *p, const EtStretchRun *runs, guint n, double px_per_us)
{
  p->stretch_lanes = 0;
  for (guint k = 0; k < n; k++)
    if (runs[k].first != runs[k].last
        && slivers_join (p, runs[k].flags, runs[k].lane, runs[k].longest_us, runs[k].step_us,
                         px_per_us))
      {
        p->stretch_lanes |= G_GUINT64_CONSTANT (1) << runs[k].lane;
        p->stretch_run[runs[k].lane] = &runs[k];
      }
}

/* Spans as bars in their lanes. Narrow spans (under MERGE_PX wide) that
 * follow each other within half a pixel in one lane merge into one run, drawn
 * in their category's colour, or grey when their categories differ: at
 * whole-trace zoom most spans are such slivers, and drawing them one by
 * one would cost a fill per marker instead of per run of pixels. Whole
 * blocks of slivers are taken from their lane runs (block_of_lane_runs),
 * so at coarse zoom the cost follows blocks and lanes, not spans. */
static void
span_shapes (EtTrace *trace, EtLayout *layout, guint c, const EtChannel *ch, guint first,
             guint end, const EtViewport *v, double top, const Band *band, EtShapeFunc func,
             gpointer data)
{
  const EtBlockSummary *blocks = et_channel_block_summaries (trace, c);
  const EtLaneRun *lane_runs;
  const guint32 *block_runs = et_channel_lane_runs (trace, c, &lane_runs);
  const EtStretchRun *stretch_runs;
  const guint32 *stretches = et_channel_stretch_runs (trace, c, &stretch_runs);
  gboolean filtered = et_layout_filters_single_markers (layout);
  gboolean by_runs = !filtered && (et_layout_channel_merged (layout, c)
                                   || !et_layout_get_channel_collapsed (layout, c))
                     && g_getenv ("ETLSCOPE_SPAN_BY_SPAN") == NULL;
  SpanScan p = { layout, c, ch, v, top };
  double px_per_us;

  if (!et_layout_kind_visible (layout, ET_MARKER_SPAN)
      || !et_layout_get_provider_visible (layout, et_channel_provider (ch)))
    return;
  et_time_to_x_init (&p.map, v);
  px_per_us = 1000.0 * p.map.px_per_ns;
  p.func = func, p.data = data, p.band = band;
  if (band != NULL
      && !band_reaches (band, top, top + et_layout_channel_row (layout, c)->lanes * v->lane_height))
    return;
  p.row_depths = et_layout_row_depths (layout, c, &p.one_lane);
  if (by_runs)
    map_lanes (&p, et_trace_channel_depth_mask (trace, c));
  for (guint i = first; i < end; i++)
    {
      const EtMarker *m = &ch->markers[i];

      if ((i & (ET_CHANNEL_STRETCH - 1)) == 0)
        {
          guint s = i >> ET_CHANNEL_STRETCH_SHIFT;

          p.stretch_lanes = 0;
          if (by_runs && whole_stretch (i, end) && m->start_ns >= v->from_ns
              && et_time_to_x (&p.map, m->start_ns) >= v->label_width - 2)
            open_stretch (&p, stretch_runs + stretches[s], stretches[s + 1] - stretches[s],
                          px_per_us);
        }
      if (whole_block (i, end))
        {
          guint b = i >> ET_CHANNEL_BLOCK_SHIFT;

          if (blocks[b].count[ET_MARKER_SPAN] == 0
              || (by_runs && block_of_lane_runs (&p, lane_runs + block_runs[b],
                                                 block_runs[b + 1] - block_runs[b], i,
                                                 px_per_us)))
            {
              i += ET_CHANNEL_BLOCK - 1;
              continue;
            }
        }
      if (m->kind != ET_MARKER_SPAN || !et_marker_overlaps (m, v->from_ns, v->to_ns)
          || (filtered && !et_layout_marker_visible (layout, m)))
        continue;
      span_shape (&p, i);
    }
  for (guint k = 0; k < MAX_LANES; k++)
    flush_run (&p.runs[k], func, data);
}

/* One channel's flags or messages, as point_shapes walks them. */
typedef struct
{
  EtLayout             *layout;
  guint                 channel;
  const EtChannel      *ch;
  const EtBlockSummary *blocks;   /* the channel's summaries */
  gboolean              merge_blocks;   /* no filter on single markers */
  EtMarkerKind          kind;
  guint                 end;
  EtTimeToX             map;
  const guint32        *loud;     /* the channel's loud markers (et_channel_loud_markers) */
  guint                 n_loud;
  guint                 next_loud;   /* the first not before the current window */
  double                flag_scale;  /* flag_scale's, once */
} PointScan;

/* Without filters on single markers, the kind (and the channel's provider,
 * checked once) decide; et_layout_marker_visible is the rule otherwise. */
static inline gboolean
is_member (const PointScan *p, const EtMarker *m)
{
  return m->kind == p->kind && (p->merge_blocks || et_layout_marker_visible (p->layout, m));
}

/* The first marker after @i at or right of @limit pixels: the end of the
 * merge window that @i opens. Gallops, so a window of one marker costs one
 * step and a window of a million about forty. */
static guint
window_end (const PointScan *p, guint i, double limit)
{
  const EtMarker *markers = p->ch->markers;
  guint lo = i + 1, step = 1;

  /* Everything before lo is inside the window. */
  while (lo < p->end && et_time_to_x (&p->map, markers[lo].start_ns) < limit)
    {
      guint hi = MIN (lo + step, p->end);
      if (hi == p->end || et_time_to_x (&p->map, markers[hi].start_ns) >= limit)
        {
          for (lo++; lo < hi;)
            {
              guint mid = lo + (hi - lo) / 2;
              if (et_time_to_x (&p->map, markers[mid].start_ns) < limit)
                lo = mid + 1;
              else
                hi = mid;
            }
          return lo;
        }
      lo = hi + 1;
      step *= 2;
    }
  return lo;
}

/* The bits of a block's markers [@i, @end) that are members (@end within
 * the block, or past it for the whole rest). */
static inline guint64
members_between (const PointScan *p, guint i, guint end)
{
  guint first = i & (ET_CHANNEL_BLOCK - 1), block_start = i - first;
  guint64 from_first = ~G_GUINT64_CONSTANT (0) << first;
  guint64 before_end = end - block_start >= ET_CHANNEL_BLOCK
                       ? ~G_GUINT64_CONSTANT (0)
                       : (G_GUINT64_CONSTANT (1) << (end - block_start)) - 1;

  return p->blocks[i >> ET_CHANNEL_BLOCK_SHIFT].members[p->kind] & from_first & before_end;
}

/* Adds the members in [@from, @to) to the aggregate @s. Without filters on
 * single markers, block by block from the summaries' bit masks, so the cost
 * follows windows (pixels), not markers; otherwise marker by marker. */
static void
merge_members (const PointScan *p, guint from, guint to, EtShape *s)
{
  if (!p->merge_blocks)
    {
      for (guint i = from; i < to; i++)
        if (is_member (p, &p->ch->markers[i]))
          {
            s->count++;
            s->importance = MAX (s->importance, p->ch->markers[i].importance);
          }
      return;
    }
  for (guint i = from; i < to; i = (i | (ET_CHANNEL_BLOCK - 1)) + 1)
    {
      const EtBlockSummary *b = &p->blocks[i >> ET_CHANNEL_BLOCK_SHIFT];
      guint64 members = members_between (p, i, to);

      if (members == 0)
        continue;
      s->count += (guint) __builtin_popcountll (members);
      for (int level = ET_IMPORTANCE_CRITICAL; level > (int) s->importance; level--)
        if (members & b->at_least[level - ET_IMPORTANCE_NORMAL])
          {
            s->importance = (EtImportance) level;
            break;
          }
    }
}

/* The first member at or after @i (before @end), or @end: without filters
 * from the bit masks, a block at a time. */
static guint
next_member (const PointScan *p, guint i, guint end)
{
  if (!p->merge_blocks)
    {
      while (i < end && !is_member (p, &p->ch->markers[i]))
        i++;
      return i;
    }
  for (; i < end; i = (i | (ET_CHANNEL_BLOCK - 1)) + 1)
    {
      guint64 members = members_between (p, i, end);
      if (members != 0)
        return (i & ~(ET_CHANNEL_BLOCK - 1)) + (guint) __builtin_ctzll (members);
    }
  return end;
}

/* Critical and alert members are never hidden inside the grey mark (one
 * per pixel column and colour: more would cover each other). One channel's
 * window compares with the last one drawn. A crowded merged row's window,
 * whose loud members come channel after channel, draws one per colour and
 * size, where its first member of them is: the others are within 3 px of
 * it, the same mark but for a pixel's edge (a critical flag is 14 px
 * wide), and a whole-trace view has such flags in most columns of every
 * merged row, several channels' each. One channel's walk of such a row
 * (et_timeline_foreach_channel_shape) draws its own loud members apart
 * where colour, size or column differ: each one the row draws, and those
 * the row's stand for, where the selection finds them. */
#define SEEN_MAX 32

typedef enum
{
  DEDUP_COLUMN,     /* a channel's row: column and colour, the last one drawn */
  DEDUP_WINDOW,     /* a crowded merged row: colour and size, all the window drew */
  DEDUP_OWN,        /* one channel's in a crowded merged row: column, colour, size */
} DedupMode;

typedef struct
{
  DedupMode mode;
  guint     n;
  guint64   seen[SEEN_MAX];   /* column << 32 | importance << 16 | category + 1 */
} SingleDedup;

static gboolean
already_on_top (SingleDedup *dedup, guint column, const EtMarker *m)
{
  guint64 key = (guint64) (dedup->mode != DEDUP_WINDOW ? column : 0) << 32
                | (guint64) (dedup->mode != DEDUP_COLUMN ? m->importance : 0) << 16
                | (guint16) (m->category + 1);

  if (dedup->n > 0 && dedup->seen[(dedup->n - 1) % SEEN_MAX] == key)
    return TRUE;
  for (guint k = 0; dedup->mode == DEDUP_WINDOW && k < MIN (dedup->n, SEEN_MAX); k++)
    if (dedup->seen[k] == key)
      return TRUE;
  dedup->seen[dedup->n++ % SEEN_MAX] = key;
  return FALSE;
}

static void
single_on_top (const PointScan *p, const EtShape *s, guint k, SingleDedup *seen,
               EtShapeFunc func, gpointer data)
{
  const EtMarker *o = &p->ch->markers[k];
  double ox = et_time_to_x (&p->map, o->start_ns), r = flag_radius (o->importance) * p->flag_scale;
  EtShape single = *s;

  if (already_on_top (seen, (guint) MAX (ox, 0), o))
    return;
  single.kind = p->kind == ET_MARKER_FLAG ? ET_SHAPE_FLAG : ET_SHAPE_MESSAGE;
  single.channel = p->channel;
  single.marker = k, single.m = o, single.count = 1, single.importance = o->importance;
  if (p->kind == ET_MARKER_FLAG)
    single.x0 = ox - r, single.x1 = ox + r;
  func (&single, data);
}

/* The loud members of the window [@from, @to), from the channel's list of
 * loud markers: windows come left to right, so one cursor serves them all. */
static void
loud_members (PointScan *p, const EtShape *s, guint from, guint to, SingleDedup *seen,
              EtShapeFunc func, gpointer data)
{
  while (p->next_loud < p->n_loud && p->loud[p->next_loud] < from)
    p->next_loud++;
  for (guint n = p->next_loud; n < p->n_loud && p->loud[n] < to; n++)
    if (is_member (p, &p->ch->markers[p->loud[n]]))
      single_on_top (p, s, p->loud[n], seen, func, data);
}

/* Whether a row at @top shows points of @kind reaching @band. */
static gboolean
points_wanted (EtLayout *layout, const EtViewport *v, double top, EtMarkerKind kind,
               const Band *band)
{
  double flag_mid = top + 1 + v->lane_height / 2.0, reach = flag_radius_in (v, ET_IMPORTANCE_CRITICAL);

  return et_layout_kind_visible (layout, kind)
         && (kind == ET_MARKER_FLAG ? band_reaches (band, flag_mid - reach, flag_mid + reach)
                                    : band_reaches (band, top, top + 6));
}

static void
point_scan_init (PointScan *p, EtTrace *trace, EtLayout *layout, guint c, const EtChannel *ch,
                 guint end, const EtViewport *v, EtMarkerKind kind)
{
  *p = (PointScan) { layout, c, ch, et_channel_block_summaries (trace, c),
                     !et_layout_filters_single_markers (layout), kind, end };
  et_time_to_x_init (&p->map, v);
  p->loud = et_channel_loud_markers (trace, c, &p->n_loud);
  p->flag_scale = flag_scale (v);
}

/* The first member from @i on that is in view, or the scan's end. */
static guint
next_in_view (const PointScan *p, guint i, const EtViewport *v)
{
  while ((i = next_member (p, i, p->end)) < p->end
         && !et_marker_overlaps (&p->ch->markers[i], v->from_ns, v->to_ns))
    i++;
  return i;
}

/* A window's mark at @x: a flag, message or (more than one member) an
 * aggregate, sized by the loudest member. */
static void
place_point (EtShape *s, EtMarkerKind kind, double x, double top, const EtViewport *v)
{
  if (s->count > 1)
    s->kind = ET_SHAPE_AGGREGATE;
  if (kind == ET_MARKER_FLAG)
    {
      double r = flag_radius_in (v, s->importance);
      double mid = top + 1 + v->lane_height / 2.0;
      s->x0 = x - r, s->x1 = x + r, s->y0 = mid - r, s->y1 = mid + r;
    }
  else
    s->x0 = x - 4, s->x1 = x + 4, s->y0 = top, s->y1 = top + 6;
}

/* Flags and messages, merged where they crowd: O(windows) per row. */
static void
point_shapes (EtTrace *trace, EtLayout *layout, guint c, const EtChannel *ch, guint first,
              guint end, const EtViewport *v, double top, EtMarkerKind kind, const Band *band,
              EtShapeFunc func, gpointer data)
{
  PointScan p;
  guint i = first;

  if (!points_wanted (layout, v, top, kind, band)
      || !et_layout_get_provider_visible (layout, et_channel_provider (ch)))
    return;
  point_scan_init (&p, trace, layout, c, ch, end, v, kind);
  while ((i = next_in_view (&p, i, v)) < end)
    {
      const EtMarker *m = &ch->markers[i];
      EtShape s = { kind == ET_MARKER_FLAG ? ET_SHAPE_FLAG : ET_SHAPE_MESSAGE, c, i, 1,
                    m->importance, m };
      double x = et_time_to_x (&p.map, m->start_ns);
      guint j = window_end (&p, i, x + MERGE_PX);
      SingleDedup seen = { DEDUP_COLUMN };

      merge_members (&p, i + 1, j, &s);
      place_point (&s, kind, x, top, v);
      func (&s, data);
      if (s.count > 1)
        loud_members (&p, &s, i, j, &seen, func, data);
      i = j;
    }
}

/* Whether a window ([@at, @ends) of each of @scans) holds a member of
 * channel @only (any channel: G_MAXUINT). */
static gboolean
window_holds (const PointScan *scans, const guint *at, const guint *ends, guint n, guint only)
{
  for (guint k = 0; k < n; k++)
    if ((only == G_MAXUINT || scans[k].channel == only) && ends[k] > at[k])
      return TRUE;
  return FALSE;
}

/* A merged row's channels whose points are walked together, at most. */
#define MERGED_MAX 64

/* The points of @kind of a collapsed thread's shown channels (@scans, @n,
 * each at @at) merged across the channels: a window opens at the leftmost
 * next member of any of them and takes every channel's members within
 * MERGE_PX of it, so the row gets one mark per window, not one per
 * channel and window (drawn over each other). The mark stands for the
 * window's first member (its channel and marker; the lowest channel on a
 * tie); count is of all channels' members, importance the loudest's. */
static void
merged_points (PointScan *scans, guint *at, guint n, guint only, const EtViewport *v,
               double top, EtShapeFunc func, gpointer data)
{
  EtMarkerKind kind = scans[0].kind;
  guint ends[MERGED_MAX];

  for (guint k = 0; k < n; k++)
    at[k] = next_in_view (&scans[k], at[k], v);
  for (;;)
    {
      guint first = n;
      double x = G_MAXDOUBLE;
      EtShape s = { kind == ET_MARKER_FLAG ? ET_SHAPE_FLAG : ET_SHAPE_MESSAGE };
      SingleDedup seen = { only == G_MAXUINT ? DEDUP_WINDOW : DEDUP_OWN };

      for (guint k = 0; k < n; k++)
        if (at[k] < scans[k].end && et_time_to_x (&scans[k].map, scans[k].ch->markers[at[k]].start_ns) < x)
          first = k, x = et_time_to_x (&scans[k].map, scans[k].ch->markers[at[k]].start_ns);
      if (first == n)
        return;
      s.channel = scans[first].channel, s.marker = at[first];
      s.m = &scans[first].ch->markers[at[first]];
      s.importance = s.m->importance;
      for (guint k = 0; k < n; k++)
        {
          ends[k] = at[k] < scans[k].end ? window_end (&scans[k], at[k], x + MERGE_PX) : at[k];
          /* window_end takes the first member as in the window: only where it is. */
          if (ends[k] == at[k] + 1
              && et_time_to_x (&scans[k].map, scans[k].ch->markers[at[k]].start_ns) >= x + MERGE_PX)
            ends[k] = at[k];
          merge_members (&scans[k], at[k], ends[k], &s);
        }
      place_point (&s, kind, x, top, v);
      if (window_holds (scans, at, ends, n, only))
        func (&s, data);
      for (guint k = 0; k < n; k++)
        {
          if (s.count > 1 && (only == G_MAXUINT || only == scans[k].channel))
            loud_members (&scans[k], &s, at[k], ends[k], &seen, func, data);
          at[k] = next_in_view (&scans[k], ends[k], v);
        }
    }
}

/* Spans below, points over them. */
static const EtMarkerKind drawing_order[] = { ET_MARKER_SPAN, ET_MARKER_FLAG, ET_MARKER_MESSAGE };

/* The markers of @channel of a given @kind (spans when @kind is
 * ET_MARKER_SPAN) as shapes in the row whose lane 0 is at @top. */
static void
channel_shapes (EtTrace *trace, EtLayout *layout, const EtViewport *v, guint channel, double top,
                EtMarkerKind kind, const Band *band, EtShapeFunc func, gpointer data)
{
  const EtChannel *ch = et_trace_get_channel (trace, channel);
  guint end, first = et_channel_query (trace, channel, v->from_ns, v->to_ns, &end);

  if (kind == ET_MARKER_SPAN)
    span_shapes (trace, layout, channel, ch, first, end, v, top, band, func, data);
  else
    point_shapes (trace, layout, channel, ch, first, end, v, top, kind, band, func, data);
}

/* The points of @kind of a collapsed thread's (or process's) row, merged
 * across its shown channels (merged_points). */
static void
merged_point_shapes (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtRow *row,
                     double top, EtMarkerKind kind, guint only, const Band *band,
                     EtShapeFunc func, gpointer data)
{
  PointScan scans[MERGED_MAX];
  guint at[MERGED_MAX], n = 0, from, to;

  if (!points_wanted (layout, v, top, kind, band))
    return;
  et_layout_row_channels (layout, row, &from, &to);
  for (guint c = from; c < to; c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint end, first;

      if (et_layout_channel_row (layout, c) != row
          || !et_layout_get_provider_visible (layout, et_channel_provider (ch)))
        continue;
      if (n == MERGED_MAX)
        {
          /* More channels than merged at once (rare): the rest each alone. */
          if (only == G_MAXUINT || only == c)
            channel_shapes (trace, layout, v, c, top, kind, band, func, data);
          continue;
        }
      first = et_channel_query (trace, c, v->from_ns, v->to_ns, &end);
      point_scan_init (&scans[n], trace, layout, c, ch, end, v, kind);
      at[n++] = first;
    }
  if (n > 0)
    merged_points (scans, at, n, only, v, top, func, data);
}

/* Whether a collapsed thread's row is crowded at this zoom: more markers
 * in view than windows of MERGE_PX across the plot. Then its points are
 * merged across its channels (merged_points); else each channel's are
 * drawn as an expanded row draws them, marks apart staying as they were. */
static gboolean
row_crowded (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtRow *row)
{
  double windows = (v->width - v->label_width) / MERGE_PX;
  guint in_view = 0, from, to;

  et_layout_row_channels (layout, row, &from, &to);
  for (guint c = from; c < to; c++)
    if (et_layout_channel_row (layout, c) == row)
      {
        guint end, first = et_channel_query (trace, c, v->from_ns, v->to_ns, &end);

        in_view += end - first;
        if (in_view > windows)
          return TRUE;
      }
  return FALSE;
}

/* A collapsed thread's row, or a collapsed process's (its channel
 * @only's shapes, or all when G_MAXUINT): every shown channel's spans in
 * the merged lanes below the header strip, then all flags, then all
 * messages, so that points are drawn over (and hit before) the spans of
 * any channel. Crowded, a point mark merged across channels is the
 * channel's when it holds any of its markers. */
static void
merged_shapes (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtRow *row,
               double top, guint only, const Band *band, EtShapeFunc func, gpointer data)
{
  double lanes_top = top + (row->kind == ET_ROW_PROCESS ? et_process_strip_px (trace, row->index)
                                                        : et_thread_strip_px (trace, row->index));
  gboolean crowded = row_crowded (trace, layout, v, row);
  guint from, to;

  et_layout_row_channels (layout, row, &from, &to);
  for (guint k = 0; k < G_N_ELEMENTS (drawing_order); k++)
    if (drawing_order[k] != ET_MARKER_SPAN && crowded)
      merged_point_shapes (trace, layout, v, row, lanes_top, drawing_order[k], only, band, func,
                           data);
    else
      for (guint c = from; c < to; c++)
        if (et_layout_channel_row (layout, c) == row && (only == G_MAXUINT || only == c))
          channel_shapes (trace, layout, v, c, lanes_top, drawing_order[k], band, func, data);
}

/* The shapes of one row, when it is a channel or a merged thread in view
 * (those reaching @band, when not NULL). */
static void
row_shapes (EtTrace *trace, EtLayout *layout, const EtViewport *v, const EtRow *row,
            const Band *band, EtShapeFunc func, gpointer data)
{
  double top;

  if (!row_visible (v, row, &top))
    return;
  if (row->kind != ET_ROW_CHANNEL)
    {
      /* A thread's or process's header: collapsed, its markers merged. */
      if (row->lanes > 0)
        merged_shapes (trace, layout, v, row, top, G_MAXUINT, band, func, data);
      return;
    }
  for (guint k = 0; k < G_N_ELEMENTS (drawing_order); k++)
    channel_shapes (trace, layout, v, row->index, top, drawing_order[k], band, func, data);
}

void
et_timeline_foreach_shape (EtTrace *trace, EtLayout *layout, const EtViewport *v,
                           EtShapeFunc func, gpointer data)
{
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    row_shapes (trace, layout, v, et_layout_row (layout, r), NULL, func, data);
}

void
et_timeline_foreach_channel_shape (EtTrace *trace, EtLayout *layout, const EtViewport *v,
                                   guint channel, EtShapeFunc func, gpointer data)
{
  const EtRow *row = et_layout_channel_row (layout, channel);
  double top;

  if (row == NULL || row->kind == ET_ROW_CHANNEL)
    {
      if (row != NULL)
        row_shapes (trace, layout, v, row, NULL, func, data);
      return;
    }
  /* Merged: the channel's own shapes among its thread's, in their order. */
  if (row_visible (v, row, &top))
    merged_shapes (trace, layout, v, row, top, channel, NULL, func, data);
}

/* ---- drawing ----------------------------------------------------------- */

typedef struct
{
  Rgb        background, stripe, label_bg, text, grid, aggregate;
  gboolean   outlined;    /* every mark edged in the text colour */
  const Rgb *flags;       /* category colours of flags and messages */
  const Rgb *spans;       /* … and of bars */
} Theme;

static const Theme light = { RGB (0xFFFFFF), RGB (0xF4F5F7), RGB (0xEBECEF), RGB (0x1E1E24),
                             RGB (0xD5D7DC), RGB (0x8A8A8A), FALSE, flag_colors, span_colors };
static const Theme dark = { RGB (0x1D1D20), RGB (0x242428), RGB (0x2C2C31), RGB (0xE6E6EA),
                            RGB (0x3D3D44), RGB (0xA0A0A0), FALSE, flag_colors_dark,
                            span_colors_dark };
/* High contrast: black on white (white on black), greys at 4.5:1 or more
 * against the background, and an edge around every mark, since yellow and
 * cyan on white (or blue on black) stand out by barely 1.5:1 on their own. */
static const Theme light_hc = { RGB (0xFFFFFF), RGB (0xF0F0F0), RGB (0xE0E0E0), RGB (0x000000),
                                RGB (0x6E6E6E), RGB (0x595959), TRUE, flag_colors, span_colors };
static const Theme dark_hc = { RGB (0x000000), RGB (0x121212), RGB (0x242424), RGB (0xFFFFFF),
                               RGB (0x9A9A9A), RGB (0xB4B4B4), TRUE, flag_colors_dark,
                               span_colors_dark };

static const Theme *
theme_of (const EtViewport *v)
{
  if (v->high_contrast)
    return v->dark ? &dark_hc : &light_hc;
  return v->dark ? &dark : &light;
}

void
et_timeline_theme_rgb (const EtViewport *v, EtThemeColor what, gint16 category, double rgb[3])
{
  const Theme *t = theme_of (v);
  const Rgb *c = what == ET_THEME_ROW ? &t->background
                 : what == ET_THEME_STRIPE ? &t->stripe
                 : what == ET_THEME_TEXT ? &t->text
                 : category_color (what == ET_THEME_BAR ? t->spans : t->flags, category);

  rgb[0] = c->r, rgb[1] = c->g, rgb[2] = c->b;
}

/* Per pixel column, the last connector drawn there and the stretch of
 * the column dashed lines cover. */
typedef struct
{
  guint32 key;
  float   lo, hi;
} ConnectorColumn;

typedef struct
{
  cairo_t          *cr;
  EtTrace          *trace;
  EtLayout         *layout;
  const EtViewport *v;
  const Theme      *theme;
  PangoLayout      *text;
  GString          *scratch;
  GString          *label_key;       /* label_layout's scratch; NULL in the legend's */
  const EtRow      *label_row;       /* where the last aggregate count was written */
  double            label_end;
  EtStamps         *stamps;          /* raster targets only (et-stamps.h) */
  PangoLayout      *digits;          /* makes the digit stamps */
  int               digit_size[10][2];  /* width and height of each, once measured */
  ConnectorColumn  *connectors;      /* per pixel column (connector_column) */
  GArray           *due;             /* EtDueConnector: drawn after every mark, or
                                        NULL: at once (the legend) */
  double            own_from;        /* rows from this top on give their connectors
                                        to due (et-timeline-slices.c) */
} Painter;

/* Dark text on light colours, light text on dark ones. */
static void
set_text_on (cairo_t *cr, const Rgb *c)
{
  double luminance = 0.2126 * c->r + 0.7152 * c->g + 0.0722 * c->b;
  cairo_set_source_rgb (cr, luminance > 0.55 ? 0.08 : 1, luminance > 0.55 ? 0.08 : 1,
                        luminance > 0.55 ? 0.08 : 1);
}

/* Labels laid out, kept between pictures. Laying a label out (shaping
 * it) was a quarter of a picture's drawing time, and most labels come back
 * picture after picture: thread and series names, span names, ruler
 * times. Each thread keeps its own (a layout belongs to its thread's font
 * map), LABELS_KEPT at most, then starts afresh. Only pictures of pixels
 * use them: vector targets lay text out with other font options. */
#define LABELS_KEPT 1024

static GPrivate kept_labels = G_PRIVATE_INIT ((GDestroyNotify) g_hash_table_unref);

/* @text laid out in @p's font, ellipsized at @max_width (none if ≤ 0). */
static PangoLayout *
label_layout (Painter *p, const char *text, double max_width)
{
  int width = max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1;
  GHashTable *kept;
  PangoLayout *layout;

  if (p->stamps == NULL)
    {
      pango_layout_set_text (p->text, text, -1);
      pango_layout_set_width (p->text, width);
      return p->text;
    }
  kept = g_private_get (&kept_labels);
  if (kept == NULL)
    {
      kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      g_private_set (&kept_labels, kept);
    }
  /* The key: width, scale, then the text (a NUL ends it). */
  g_string_printf (p->label_key, "%d %g ", width, et_stamps_scale (p->stamps));
  g_string_append (p->label_key, text);
  layout = g_hash_table_lookup (kept, p->label_key->str);
  if (layout == NULL)
    {
      if (g_hash_table_size (kept) >= LABELS_KEPT)
        g_hash_table_remove_all (kept);
      layout = pango_layout_copy (p->text);
      pango_layout_set_text (layout, text, -1);
      pango_layout_set_width (layout, width);
      g_hash_table_insert (kept, g_strdup (p->label_key->str), layout);
    }
  return layout;
}

static void
draw_text (Painter *p, const char *text, double x, double y, double max_width, gboolean center)
{
  PangoLayout *layout = label_layout (p, text, max_width);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (p->cr, center ? x + (max_width - w) / 2 : x, y - h / 2.0);
  pango_cairo_show_layout (p->cr, layout);
}

static void
draw_open_end (cairo_t *cr, const EtShape *s, const Rgb *bar, gboolean high_contrast)
{
  /* A zigzag edge says "still open at the end of the trace": white, or in
   * high contrast whichever of black and white stands out on the bar. */
  double h = s->y1 - s->y0;
  if (high_contrast)
    set_text_on (cr, bar);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, s->x1 - 2, s->y0);
  for (int k = 1; k <= 4; k++)
    cairo_line_to (cr, s->x1 - (k % 2 ? 6 : 2), s->y0 + h * k / 4);
  cairo_stroke (cr);
}

/* Whether a connector from @from to @to at @x was drawn already: at coarse
 * zoom hundreds of cross-thread spans end in the same pixel column, and
 * their connectors would all be the same line. (From a collapsed thread's
 * row, @from is the row's top, not the span's lane: the lines from its
 * lanes to one row would lie on each other but for a few pixels.) */
static ConnectorColumn *
connector_column (Painter *p, double x, double from, double to, gboolean *drawn)
{
  guint32 key = ((guint32) from & 0xFFFF) << 16 | ((guint32) to & 0xFFFF);
  int column = (int) x;
  ConnectorColumn *c;

  *drawn = FALSE;
  if (column < 0 || column >= p->v->width)
    return NULL;
  if (p->connectors == NULL)
    p->connectors = g_new0 (ConnectorColumn, p->v->width);
  c = &p->connectors[column];
  *drawn = c->key == key + 1;
  c->key = key + 1;
  return c;
}

static void
dashed_line (Painter *p, double x, double y0, double y1)
{
  const Rgb *c = &p->theme->text;

  if (y1 - y0 < 0.5)
    return;
  if (p->stamps != NULL)
    {
      et_stamps_dashed_vline (p->stamps, p->cr, x, y0, y1, c->r, c->g, c->b, 0.7);
      return;
    }
  cairo_set_source_rgba (p->cr, c->r, c->g, c->b, 0.7);
  cairo_set_line_width (p->cr, 1);
  cairo_set_dash (p->cr, (double[]) { 3, 2 }, 2, 0);
  cairo_move_to (p->cr, x, y0);
  cairo_line_to (p->cr, x, y1);
  cairo_stroke (p->cr);
  cairo_set_dash (p->cr, NULL, 0, 0);
}

/* The line of a connector from a collapsed thread's row: only the part of
 * it no line of the column covers yet (a column's lines from a merged row
 * to the rows below it lie on each other, a whole view's worth of
 * pixels each). Lines from channel rows are drawn whole, as ever. */
static void
connector_line (Painter *p, ConnectorColumn *c, gboolean merged, double x, double from,
                double to)
{
  double lo = MIN (from, to), hi = MAX (from, to);
  gboolean touches = c != NULL && c->hi > c->lo && hi >= c->lo && lo <= c->hi;

  if (merged && touches)
    {
      dashed_line (p, x, lo, MIN (hi, c->lo));
      dashed_line (p, x, MAX (lo, c->hi), hi);
    }
  else
    dashed_line (p, x, from, to);
  if (c == NULL)
    return;
  c->lo = touches ? MIN (c->lo, (float) lo) : (float) lo;
  c->hi = touches ? MAX (c->hi, (float) hi) : (float) hi;
}

/* Stamp keys above every point mark's and digit's (see point_mark). */
#define CONNECTOR_DOT_KEY (2u << 24)

static void
draw_connector_dot (cairo_t *cr, gconstpointer data)
{
  const Theme *theme = data;

  cairo_set_source_rgba (cr, theme->text.r, theme->text.g, theme->text.b, 0.7);
  cairo_arc (cr, 0, 0, 2.5, 0, 2 * G_PI);
  cairo_fill (cr);
}

static void
draw_connector (Painter *p, const EtShape *s, guint32 end_thread)
{
  const EtThread *t = et_trace_get_thread (p->trace, end_thread);
  const EtRow *source = et_layout_channel_row (p->layout, s->channel);
  double from = (s->y0 + s->y1) / 2, x = et_viewport_x (p->v, s->m->end_ns);
  gboolean merged = source != NULL && source->kind != ET_ROW_CHANNEL, drawn;
  double from_key = merged ? p->v->ruler_height + source->y - p->v->scroll_y : from;

  for (guint k = 0; k < t->n_channels; k++)
    {
      const EtRow *row = et_layout_channel_row (p->layout, t->first_channel + k);
      ConnectorColumn *column;
      double top, to;

      if (row == source)
        break;       /* ends in a thread of the same collapsed process: no line to draw */
      if (row == NULL || !row_visible (p->v, row, &top))
        continue;
      to = top + row->height / 2.0;
      column = connector_column (p, x, from_key, to, &drawn);
      if (drawn)
        break;
      connector_line (p, column, merged, x, from, to);
      if (p->stamps != NULL)
        {
          et_stamps_paint (p->stamps, p->cr, CONNECTOR_DOT_KEY, 2.5, 2.5, x, to,
                           draw_connector_dot, p->theme);
          break;
        }
      cairo_save (p->cr);
      cairo_translate (p->cr, x, to);
      draw_connector_dot (p->cr, p->theme);
      cairo_restore (p->cr);
      break;
    }
}

static void
fill_box (Painter *p, double x0, double y0, double x1, double y1, const Rgb *c)
{
  if (p->stamps != NULL)
    et_stamps_fill_box (p->stamps, p->cr, x0, y0, x1, y1, c->r, c->g, c->b);
  else
    {
      set_rgb (p->cr, c);
      cairo_rectangle (p->cr, x0, y0, x1 - x0, y1 - y0);
      cairo_fill (p->cr);
    }
}

/* Whether @p's slice draws the connectors of @s: those of the rows that
 * begin in it (a row cut by two slices is walked by both). */
static gboolean
owns_connector (Painter *p, const EtShape *s)
{
  const EtRow *row = et_layout_channel_row (p->layout, s->channel);

  return row != NULL && p->v->ruler_height + row->y - p->v->scroll_y >= p->own_from;
}

/* A run of merged narrow spans as a density (et-run-density.c): each
 * pixel column as opaque as the part of its time the spans take, a
 * quarter at the least so the run still shows where it is sparse. FALSE
 * when the run is too dense to measure. */
static gboolean
paint_density (Painter *p, const EtShape *s, const Rgb *c)
{
  int first = (int) floor (s->x0), n = (int) ceil (s->x1) - first;
  double kept[256], *cover = n <= 256 ? kept : g_new (double, MAX (n, 1));
  gboolean measured = _et_run_density (p->trace, p->layout, p->v, s, first, n, cover);

  for (int k = 0; measured && k < n;)
    {
      double alpha = round ((0.25 + 0.75 * cover[k]) * 16) / 16;
      double x0 = MAX (first + k, s->x0), x1;
      int e = k + 1;

      /* Columns of one shade are one rectangle. */
      while (e < n && round ((0.25 + 0.75 * cover[e]) * 16) / 16 == alpha)
        e++;
      x1 = MIN (first + e, s->x1);
      cairo_set_source_rgba (p->cr, c->r, c->g, c->b, alpha);
      cairo_rectangle (p->cr, x0, s->y0, x1 - x0, s->y1 - s->y0);
      cairo_fill (p->cr);
      k = e;
    }
  if (cover != kept)
    g_free (cover);
  return measured;
}

static void
paint_span (Painter *p, const EtShape *s)
{
  const Rgb *c = s->mixed ? &p->theme->aggregate : category_color (p->theme->spans, s->m->category);
  cairo_t *cr = p->cr;

  /* High contrast keeps runs solid and outlined: a light run would fall
   * under the 3:1 its marks keep against the rows. */
  if (s->count > 1 && !p->theme->outlined && paint_density (p, s, c))
    ;
  else if (p->theme->outlined)
    {
      /* The edge, then the fill a pixel inside it (none when too thin). */
      fill_box (p, s->x0, s->y0, s->x1, s->y1, &p->theme->text);
      if (s->x1 - s->x0 > 2)
        fill_box (p, s->x0 + 1, s->y0 + 1, s->x1 - 1, s->y1 - 1, c);
    }
  else
    fill_box (p, s->x0, s->y0, s->x1, s->y1, c);
  if (s->m->status == ET_SPAN_UNMATCHED_START
      && et_viewport_x (p->v, s->m->end_ns) <= p->v->width)
    draw_open_end (cr, s, c, p->theme->outlined);
  if (s->m->status == ET_SPAN_CROSS_THREAD)
    {
      EtDueConnector due = { *s, et_trace_marker_end_thread (p->trace, s->m) };

      if (due.end_thread == ET_NO_INDEX)
        ;
      else if (p->due == NULL)
        draw_connector (p, s, due.end_thread);   /* the legend: no slices */
      else if (owns_connector (p, s))
        g_array_append_val (p->due, due);
    }
  if (s->x1 - s->x0 > 30 && s->count == 1 && p->v->lane_height >= ET_LANE_HEIGHT_TEXT)
    {
      g_string_truncate (p->scratch, 0);
      et_trace_marker_text (p->trace, s->m, p->scratch);
      set_text_on (cr, c);
      draw_text (p, p->scratch->str, s->x0 + 3, (s->y0 + s->y1) / 2, s->x1 - s->x0 - 6, TRUE);
    }
}

/* A flag, message or aggregate mark, centred on (0, 0): what a stamp holds. */
typedef struct
{
  guint32    key;          /* tells shape, colour and size apart (et-stamps.h) */
  gboolean   triangle;     /* messages, and aggregates too small for a diamond */
  gboolean   alert;
  const Rgb *fill;
  const Rgb *edge;         /* high contrast: the outline's colour, else NULL */
  double     half_width, half_height;
} PointMark;

/* The outline of a mark's path (which stays): a faint one normally, the
 * text colour in high contrast. */
static void
stroke_edge (cairo_t *cr, const PointMark *mark)
{
  if (mark->edge != NULL)
    {
      set_rgb (cr, mark->edge);
      cairo_set_line_width (cr, 1.5);
    }
  else
    {
      cairo_set_source_rgba (cr, 0, 0, 0, 0.35);
      cairo_set_line_width (cr, 0.75);
    }
  cairo_stroke (cr);
}

static void
draw_point_mark (cairo_t *cr, gconstpointer data)
{
  const PointMark *mark = data;
  double r = mark->half_width;

  set_rgb (cr, mark->fill);
  if (mark->triangle)
    {
      cairo_move_to (cr, -r, -mark->half_height);
      cairo_line_to (cr, r, -mark->half_height);
      cairo_line_to (cr, 0, mark->half_height);
      cairo_close_path (cr);
      if (mark->edge == NULL)
        {
          cairo_fill (cr);
          return;
        }
      cairo_fill_preserve (cr);
      stroke_edge (cr, mark);
      return;
    }
  cairo_move_to (cr, 0, -r);
  cairo_line_to (cr, r, 0);
  cairo_line_to (cr, 0, r);
  cairo_line_to (cr, -r, 0);
  cairo_close_path (cr);
  cairo_fill_preserve (cr);
  stroke_edge (cr, mark);
  if (mark->alert)
    {
      /* "!" in white: alerts are not told by colour alone. */
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_set_line_width (cr, 1.4);
      cairo_move_to (cr, 0, -r * 0.55);
      cairo_line_to (cr, 0, r * 0.15);
      cairo_stroke (cr);
      cairo_arc (cr, 0, r * 0.45, 0.8, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

/* A stamp's size as its key holds it (quarter pixels): the stamp is drawn
 * at that size, so that it is the same whichever mark of its key came
 * first (x1 - x0 of a mark far right is 8 less a rounding error), and a
 * picture drawn in slices, each with stamps of its own, is the same. */
static double
quarter_px (double v)
{
  return round (v * 4) / 4;
}

static void
point_mark (Painter *p, const EtShape *s, PointMark *mark)
{
  guint colour;

  mark->alert = s->kind != ET_SHAPE_AGGREGATE && s->m->category < 0;
  mark->triangle = s->kind == ET_SHAPE_MESSAGE
                   || (s->kind == ET_SHAPE_AGGREGATE && s->y1 - s->y0 <= 6);
  if (s->kind == ET_SHAPE_AGGREGATE)
    mark->fill = &p->theme->aggregate, colour = 6;
  else
    {
      mark->fill = category_color (p->theme->flags, s->m->category);
      colour = mark->alert ? 5 : (guint) s->m->category % 5;
    }
  mark->edge = p->theme->outlined ? &p->theme->text : NULL;
  mark->half_width = quarter_px ((s->x1 - s->x0) / 2);
  mark->half_height = quarter_px ((s->y1 - s->y0) / 2);
  mark->key = (guint32) mark->triangle | colour << 1 | (guint32) mark->alert << 4
              | (guint32) lround (mark->half_width * 4) << 5
              | (guint32) lround (mark->half_height * 4) << 12;
}

/* The digits of aggregate counts are stamps too: keys above every mark's. */
#define DIGIT_KEY (1u << 24)

typedef struct
{
  PangoLayout *layout;
  const Rgb   *colour;
  char         digit[2];
  int          width, height;
} Digit;

static void
draw_digit (cairo_t *cr, gconstpointer data)
{
  const Digit *d = data;

  pango_cairo_update_layout (cr, d->layout);
  set_rgb (cr, d->colour);
  cairo_move_to (cr, -d->width / 2.0, -d->height / 2.0);
  pango_cairo_show_layout (cr, d->layout);
}

/* Writes @count left-aligned at @x, centred on @y; returns its width. */
static double
draw_count (Painter *p, guint count, double x, double y)
{
  double start = x;
  char text[16];
  int w;

  g_snprintf (text, sizeof text, "%u", count);
  set_rgb (p->cr, &p->theme->text);
  if (p->stamps == NULL)
    {
      draw_text (p, text, x, y, -1, FALSE);
      pango_layout_get_pixel_size (p->text, &w, NULL);
      return w;
    }
  if (p->digits == NULL)
    {
      p->digits = pango_cairo_create_layout (p->cr);
      pango_layout_set_font_description (p->digits, pango_layout_get_font_description (p->text));
    }
  for (const char *c = text; *c; c++)
    {
      Digit d = { p->digits, &p->theme->text, { *c, 0 } };
      int *size = p->digit_size[*c - '0'];

      /* Laid out once per picture: shaping is dearer than the copy. */
      pango_layout_set_text (p->digits, d.digit, 1);
      if (size[0] == 0)
        pango_layout_get_pixel_size (p->digits, &size[0], &size[1]);
      d.width = size[0], d.height = size[1];
      et_stamps_paint (p->stamps, p->cr, DIGIT_KEY | (guint32) *c, d.width / 2.0,
                       d.height / 2.0, x + d.width / 2.0, y, draw_digit, &d);
      x += d.width;
    }
  return x - start;
}

static void
paint_point (Painter *p, const EtShape *s)
{
  const EtRow *row;
  PointMark mark;
  double cx = (s->x0 + s->x1) / 2, cy = (s->y0 + s->y1) / 2;

  point_mark (p, s, &mark);
  if (p->stamps != NULL)
    et_stamps_paint (p->stamps, p->cr, mark.key, mark.half_width, mark.half_height, cx, cy,
                     draw_point_mark, &mark);
  else
    {
      cairo_save (p->cr);
      cairo_translate (p->cr, cx, cy);
      draw_point_mark (p->cr, &mark);
      cairo_restore (p->cr);
    }
  /* A count that would run into the previous one in its row is left out:
   * unreadable anyway, and text is the dearest thing to draw. (A merged
   * row's aggregates name different channels but come left to right.) */
  row = s->kind == ET_SHAPE_AGGREGATE && p->layout != NULL
        ? et_layout_channel_row (p->layout, s->channel) : NULL;   /* the legend has none */
  if (s->kind == ET_SHAPE_AGGREGATE && s->count > 1
      && (row != p->label_row || s->x1 + 1 >= p->label_end))
    {
      p->label_row = row;
      p->label_end = s->x1 + 1 + draw_count (p, s->count, s->x1 + 1, cy) + 2;
    }
}

/* A "]" bracket: the end of something we never saw start. */
typedef struct
{
  const Rgb *colour;
  const Rgb *edge;           /* high contrast: the outline's colour, else NULL */
  double     half_width, half_height;   /* of the bracket's path */
} LoneEnd;

/* Room around a bracket's path for its outline (4 wide in high contrast). */
#define LONE_END_MARGIN 2.0

/* Keys of lone-end stamps: above the digits' (DIGIT_KEY). */
#define LONE_END_KEY (1u << 25)

static void
draw_lone_end (cairo_t *cr, gconstpointer data)
{
  const LoneEnd *end = data;

  cairo_move_to (cr, -end->half_width, -end->half_height);
  cairo_line_to (cr, end->half_width, -end->half_height);
  cairo_line_to (cr, end->half_width, end->half_height);
  cairo_line_to (cr, -end->half_width, end->half_height);
  if (end->edge != NULL)
    {
      set_rgb (cr, end->edge);
      cairo_set_line_width (cr, 4);
      cairo_stroke_preserve (cr);
    }
  set_rgb (cr, end->colour);
  cairo_set_line_width (cr, 2);
  cairo_stroke (cr);
}

/* Copied from a stamp where it can be, like flags: a stroke costs more
 * than the few pixels it makes, and a coarse view of a damaged trace can
 * hold hundreds of lone ends. */
static void
paint_lone_end (Painter *p, const EtShape *s)
{
  LoneEnd end = { category_color (p->theme->spans, s->m->category),
                  p->theme->outlined ? &p->theme->text : NULL,
                  quarter_px ((s->x1 - s->x0) / 2), quarter_px ((s->y1 - s->y0) / 2 - 1) };
  double cx = (s->x0 + s->x1) / 2, cy = (s->y0 + s->y1) / 2;
  guint32 colour = s->m->category < 0 ? 5 : (guint32) s->m->category % 5;

  if (p->stamps != NULL)
    {
      et_stamps_paint (p->stamps, p->cr,
                       LONE_END_KEY | colour | (guint32) lround (end.half_width * 4) << 3
                       | (guint32) lround (end.half_height * 4) << 10,
                       end.half_width + LONE_END_MARGIN, end.half_height + LONE_END_MARGIN,
                       cx, cy, draw_lone_end, &end);
      return;
    }
  cairo_save (p->cr);
  cairo_translate (p->cr, cx, cy);
  draw_lone_end (p->cr, &end);
  cairo_restore (p->cr);
}

static void
paint_shape (const EtShape *s, gpointer data)
{
  Painter *p = data;

  switch (s->kind)
    {
    case ET_SHAPE_SPAN:
      paint_span (p, s);
      break;
    case ET_SHAPE_LONE_END:
      paint_lone_end (p, s);
      break;
    default:
      paint_point (p, s);
      break;
    }
}

/* Pixels per bucket of a thread's density strip, and its height in an
 * expanded header. */
#define DENSITY_PX 3
#define STRIP_BAND_PX 6

/* The first marker of @ch from @at on that starts at or after @t_ns:
 * galloping from @at, so that the next bucket's edge, a few markers on,
 * costs a few steps, not a search of the whole channel. */
static guint
first_from (const EtChannel *ch, guint at, gint64 t_ns)
{
  guint lo = at, hi, step = 1;

  while (lo + step < ch->n_markers && ch->markers[lo + step].start_ns < t_ns)
    lo += step, step *= 2;
  hi = MIN (lo + step, ch->n_markers);
  if (lo < hi && ch->markers[lo].start_ns >= t_ns)
    return lo;
  while (lo + 1 < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ch->markers[mid].start_ns < t_ns)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* Adds the start of every marker of @channel in view to its bucket: one
 * by one when they are few, else by searching each bucket's edge, so a
 * channel costs what it has in view or what the strip has buckets,
 * whichever is less. */
static void
count_channel (Painter *p, guint channel, const EtTimeToX *map, guint *counts, guint n)
{
  const EtChannel *ch = et_trace_get_channel (p->trace, channel);
  guint end, first = et_channel_query (p->trace, channel, p->v->from_ns, p->v->to_ns, &end);
  double left = p->v->label_width;

  if (end - first <= 8 * n)
    {
      for (guint i = first; i < end; i++)
        {
          double x = et_time_to_x (map, ch->markers[i].start_ns) - left;
          if (x >= 0 && x < n * DENSITY_PX)
            counts[(guint) (x / DENSITY_PX)]++;
        }
      return;
    }
  for (guint b = 0, at = et_channel_first_at (ch, p->v->from_ns); b < n && at < ch->n_markers; b++)
    {
      guint next = first_from (ch, at, et_viewport_time (p->v, left + (b + 1) * DENSITY_PX));

      counts[b] += next - at;
      at = next;
    }
}

/* A header's lifetime (first to last marker) as a faint band, clipped to
 * the plot side of the row (the clip stays for the strip). */
static void
paint_life (Painter *p, const EtRow *row, double top, gint64 first_ns, gint64 last_ns)
{
  const EtViewport *v = p->v;
  const Rgb *c = &p->theme->text;

  cairo_rectangle (p->cr, v->label_width, top, v->width - v->label_width, row->height - 1);
  cairo_clip (p->cr);
  cairo_set_source_rgba (p->cr, c->r, c->g, c->b, 0.06);
  cairo_rectangle (p->cr, et_viewport_x (v, first_ns), top,
                   MAX (1, et_viewport_x (v, last_ns) - et_viewport_x (v, first_ns)),
                   row->height - 1);
  cairo_fill (p->cr);
}

/* How many markers start in each bucket: darker where more do. */
static void
paint_counts (Painter *p, const guint *counts, guint n, double strip_top, double strip_height)
{
  const Rgb *c = &p->theme->aggregate;
  guint max = 0;

  for (guint b = 0; b < n; b++)
    max = MAX (max, counts[b]);
  for (guint b = 0; b < n; b++)
    if (counts[b] > 0)
      {
        double shade = 0.3 + 0.7 * log1p (counts[b]) / log1p (max);
        cairo_set_source_rgba (p->cr, c->r, c->g, c->b, shade);
        cairo_rectangle (p->cr, p->v->label_width + b * DENSITY_PX, strip_top, DENSITY_PX,
                         strip_height);
        cairo_fill (p->cr);
      }
}

/* A collapsed process's header is not blank: its threads' lifetime as a
 * band and, in a strip at its top (over their merged markers), how many
 * of their shown markers start where, as a thread's header shows its own. A process of more than
 * PROCESS_STRIP_CHANNELS shown channels (a server's thousands of
 * threads) shows the band alone: the strip asks each channel of the view. */
#define PROCESS_STRIP_CHANNELS 4096

static void
draw_process_strip (Painter *p, const EtRow *row, double top)
{
  const EtProcess *process = et_trace_get_process (p->trace, row->index);
  guint n = (guint) MAX (1, (p->v->width - p->v->label_width) / DENSITY_PX), channels = 0;
  g_autofree guint *counts = g_new0 (guint, n);
  gint64 first = G_MAXINT64, last = G_MININT64;
  EtTimeToX map;

  for (guint k = 0; k < process->n_threads; k++)
    {
      const EtLayoutThread *t = et_layout_get_thread (p->layout, process->first_thread + k);
      const EtThread *thread = et_trace_get_thread (p->trace, process->first_thread + k);

      if (t->n_markers == 0 || !et_layout_thread_listed (p->layout, process->first_thread + k))
        continue;
      first = MIN (first, t->first_ns), last = MAX (last, t->last_ns);
      for (guint c = 0; c < thread->n_channels; c++)
        channels += et_layout_channel_shown (p->layout, thread->first_channel + c);
    }
  et_cpu_strip_draw_process (p->cr, p->trace, p->v, row, top);
  if (first > last)
    return;
  cairo_save (p->cr);
  paint_life (p, row, top, first, last);
  et_time_to_x_init (&map, p->v);
  for (guint k = 0; k < process->n_threads && channels <= PROCESS_STRIP_CHANNELS; k++)
    {
      const EtThread *thread = et_trace_get_thread (p->trace, process->first_thread + k);

      if (!et_layout_thread_listed (p->layout, process->first_thread + k))
        continue;
      for (guint c = 0; c < thread->n_channels; c++)
        if (et_layout_channel_shown (p->layout, thread->first_channel + c))
          count_channel (p, thread->first_channel + c, &map, counts, n);
    }
  /* Over merged lanes: at the top, above the CPU band, as in a collapsed
   * thread's header; alone (past ET_LAYOUT_MERGE_CHANNELS), across the
   * middle, above the CPU band at the bottom. */
  if (row->lanes > 0)
    paint_counts (p, counts, n, top + 1, ET_THREAD_STRIP_PX - 1);
  else
    paint_counts (p, counts, n,
                  top + (row->height - STRIP_BAND_PX
                         - (et_cpu_strip_process_threads (p->trace, row->index) ? ET_CPU_STRIP_PX : 0))
                        / 2.0, STRIP_BAND_PX);
  cairo_restore (p->cr);
}

/* A thread header's plot side: its lifetime (first to last marker) as a
 * band, and over the strip at its top how many of its shown channels'
 * markers start in each few pixels (darker where more do; the filters on
 * single markers are not applied here). */
static void
draw_thread_strip (Painter *p, const EtRow *row, double top)
{
  const EtViewport *v = p->v;
  const EtLayoutThread *t = et_layout_get_thread (p->layout, row->index);
  const EtThread *thread = et_trace_get_thread (p->trace, row->index);
  guint n = (guint) MAX (1, (v->width - v->label_width) / DENSITY_PX);
  g_autofree guint *counts = g_new0 (guint, n);
  double strip_top, strip_height;
  EtTimeToX map;

  if (t->n_markers == 0)
    return;
  cairo_save (p->cr);
  paint_life (p, row, top, t->first_ns, t->last_ns);
  et_time_to_x_init (&map, v);
  for (guint k = 0; k < thread->n_channels; k++)
    if (et_layout_channel_row (p->layout, thread->first_channel + k) != NULL)
      count_channel (p, thread->first_channel + k, &map, counts, n);
  /* Collapsed, the strip is the top of the row, above the lanes; expanded,
   * a band across the middle of the header (its upper half when the CPU-use
   * band takes the lower: et-cpu-strip.c). */
  strip_top = row->lanes > 0 ? top + 1 : top + (row->height - STRIP_BAND_PX) / 2.0;
  if (row->lanes == 0 && et_trace_thread_cpu_source (p->trace, row->index) != ET_CPU_NONE)
    strip_top = top + (row->height - ET_CPU_STRIP_PX - STRIP_BAND_PX) / 2.0;
  strip_height = row->lanes > 0 ? ET_THREAD_STRIP_PX - 1 : STRIP_BAND_PX;
  paint_counts (p, counts, n, strip_top, strip_height);
  cairo_restore (p->cr);
}

/* Where a row's label starts: indented by its depth in the tree. */
static double
label_x (const EtRow *row)
{
  return row->kind == ET_ROW_PROCESS ? 4 : row->kind == ET_ROW_THREAD ? 14 : 30;
}

static void
draw_rows (Painter *p, guint first, guint end)
{
  const EtViewport *v = p->v;
  cairo_t *cr = p->cr;

  for (guint r = first; r < end; r++)
    {
      const EtRow *row = et_layout_row (p->layout, r);
      double top;

      if (!row_visible (v, row, &top))
        continue;
      if (row->kind == ET_ROW_PROCESS)
        set_rgb (cr, &p->theme->label_bg);
      else if (row->kind == ET_ROW_THREAD)
        set_rgb (cr, &p->theme->stripe);
      else
        set_rgb (cr, r % 2 ? &p->theme->stripe : &p->theme->background);
      cairo_rectangle (cr, 0, top, v->width, row->height);
      cairo_fill (cr);
      set_rgb (cr, &p->theme->grid);
      cairo_rectangle (cr, 0, top + row->height - 1, v->width, 1);
      cairo_fill (cr);
      g_string_truncate (p->scratch, 0);
      if (row->kind == ET_ROW_PROCESS && et_layout_get_collapsed (p->layout, row->index))
        {
          g_string_append (p->scratch, "▸ ");
          draw_process_strip (p, row, top);
        }
      else if (row->kind == ET_ROW_PROCESS)
        g_string_append (p->scratch, "▾ ");
      else if (row->kind == ET_ROW_THREAD)
        {
          /* A thread that only ran has nothing to open: no arrow (an en
           * space keeps its name in line). */
          if (et_trace_get_thread (p->trace, row->index)->n_channels == 0)
            g_string_append (p->scratch, "\u2002 ");
          else
            g_string_append (p->scratch, row->lanes > 0 ? "▸ " : "▾ ");
          draw_thread_strip (p, row, top);
          et_cpu_strip_draw (cr, p->trace, v, row, top);
        }
      et_layout_row_label (p->layout, row, p->scratch);
      set_rgb (cr, &p->theme->text);
      draw_text (p, p->scratch->str, label_x (row),
                 top + MIN (row->height, v->lane_height + 6) / 2.0,
                 v->label_width - 4 - label_x (row), FALSE);
    }
}

gint64
et_ruler_step (gint64 span_ns, double width_px, double min_px)
{
  gint64 step = 1;

  for (;;)
    for (guint k = 0; k < 3; k++)
      {
        static const int mult[] = { 1, 2, 5 };
        gint64 candidate = step * mult[k];
        if ((double) candidate / MAX (span_ns, 1) * width_px >= min_px
            || candidate > G_MAXINT64 / 20)
          return candidate;
        if (k == 2)
          step *= 10;
      }
}

static void
format_duration (gint64 ns, gboolean localized, GString *out)
{
  static const struct { gint64 unit; const char *name; } units[] = {
    { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
  };
  gint64 a = ns < 0 ? -ns : ns;

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (a >= units[i].unit || units[i].unit == 1)
      {
        double value = (double) ns / (double) units[i].unit;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (localized)
          g_string_append_printf (out, "%.6g %s", value, units[i].name);
        else
          {
            g_ascii_formatd (buf, sizeof buf, "%.6g", value);
            g_string_append_printf (out, "%s %s", buf, units[i].name);
          }
        return;
      }
}

void
et_format_duration (gint64 ns, GString *out)
{
  format_duration (ns, FALSE, out);
}

void
et_format_duration_display (gint64 ns, GString *out)
{
  format_duration (ns, TRUE, out);
}

void
et_format_time_display (gint64 t_ns, GString *out)
{
  if (t_ns == 0)
    g_string_append (out, "0 s");
  else
    format_duration (t_ns, TRUE, out);
}

void
et_format_count_display (guint64 n, GString *out)
{
  g_string_append_printf (out, "%'" G_GUINT64_FORMAT, n);
}

guint
et_ruler_ticks (const EtViewport *v, double min_px, gint64 *ticks, guint max)
{
  return et_ruler_ticks_aligned (v, min_px, 0, ticks, max);
}

guint
et_ruler_ticks_aligned (const EtViewport *v, double min_px, gint64 phase_ns, gint64 *ticks,
                        guint max)
{
  double plot = MAX (1, v->width - v->label_width);
  gint64 span = MAX (et_time_sub (v->to_ns, v->from_ns), 1);
  gint64 step = et_ruler_step (span, plot, min_px);
  gint64 phase = ((phase_ns % step) + step) % step;
  gint64 shifted = et_time_add (v->from_ns, phase);
  gint64 first = et_time_sub (et_time_mul (shifted / step - (shifted % step < 0), step), phase);
  guint n = 0;

  /* Counted in ticks, never by adding steps to a time: a viewport near
   * the ends of the 64-bit range (a damaged file's timestamps saturate
   * there) would wrap around and never reach its right edge. At most one
   * tick per @min_px pixels, plus the two at the edges. */
  max = MIN (max, (guint) (plot / MAX (min_px, 1)) + 2);
  for (gint64 i = 0; n < max; i++)
    {
      gint64 t = et_time_add (first, et_time_mul (i, step));

      if (t > v->to_ns || (n > 0 && t <= ticks[n - 1]))
        break;
      if (t >= v->from_ns)
        ticks[n++] = t;
    }
  return n;
}

/* One unit and one precision for every label of a ruler: the unit of its
 * largest time, and the decimals its step needs in that unit ("9.8 s"
 * beside "10.0 s", never "9.9 s" beside "9.902 s"; the origin "0.0 s",
 * not "0 ns"). */
typedef struct
{
  gint64      unit;
  const char *name;
  int         decimals;
} RulerUnit;

static RulerUnit
ruler_unit (gint64 step, gint64 largest)
{
  static const struct { gint64 unit; const char *name; } units[] = {
    { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "µs" }, { 1, "ns" },
  };
  RulerUnit u = { 1, "ns", 0 };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (largest >= units[i].unit || units[i].unit == 1)
      {
        u.unit = units[i].unit, u.name = units[i].name;
        break;
      }
  for (gint64 s = u.unit; s > step && s > 1 && u.decimals < 9; s /= 10)
    u.decimals++;
  return u;
}

/* Wall-clock labels: hours to seconds (and the fraction the step needs),
 * in UTC; the date and zone are said once, at the ruler's left. */
static void
format_wall_clock (gint64 filetime, gint64 step, GString *out)
{
  gint64 in_day = filetime % (G_GINT64_CONSTANT (864000000000));
  gint64 seconds = in_day / 10000000, fraction = in_day % 10000000;
  int decimals = 0;

  for (gint64 s = 1000000000; s > step && decimals < 7; s /= 10)
    decimals++;
  g_string_append_printf (out, "%02d:%02d", (int) (seconds / 3600), (int) (seconds / 60 % 60));
  if (step < G_GINT64_CONSTANT (60000000000) || seconds % 60 != 0)
    g_string_append_printf (out, ":%02d", (int) (seconds % 60));
  if (decimals > 0)
    {
      char digits[8];

      g_snprintf (digits, sizeof digits, "%07d", (int) fraction);
      g_string_append_printf (out, "%s%.*s", localeconv ()->decimal_point, decimals, digits);
    }
}

/* "2019-06-15 UTC" for the ruler's left end (FILETIME: 100 ns since 1601). */
static void
format_wall_date (gint64 filetime, GString *out)
{
  g_autoptr(GDateTime) epoch = g_date_time_new_utc (1601, 1, 1, 0, 0, 0);
  g_autoptr(GDateTime) at = g_date_time_add_seconds (epoch, (double) (filetime / 10000000));

  if (at == NULL)
    return;
  g_string_append_printf (out, "%04d-%02d-%02d UTC", g_date_time_get_year (at),
                          g_date_time_get_month (at), g_date_time_get_day_of_month (at));
}

/* The step of @v's ruler, and the wall-clock phase its ticks keep. */
static gint64
ruler_step (const EtViewport *v)
{
  return et_ruler_step (MAX (et_time_sub (v->to_ns, v->from_ns), 1),
                        MAX (1, v->width - v->label_width), 90);
}

guint
et_ruler_layout (EtTrace *trace, const EtViewport *v, gint64 *ticks, guint max)
{
  gint64 step = ruler_step (v);
  gint64 origin_ft = v->wall_clock ? et_trace_ns_to_filetime (trace, 0) : 0;
  /* Wall-clock ticks fall on round times of day, not round offsets from
   * the trace's start (FILETIME counts 100 ns; steps under that have no
   * round times to fall on). */
  gint64 phase = v->wall_clock && step >= 100 ? (origin_ft % (step / 100)) * 100 : 0;

  return et_ruler_ticks_aligned (v, 90, phase, ticks, max);
}

void
et_ruler_label (EtTrace *trace, const EtViewport *v, const gint64 *ticks, guint n, guint i,
                GString *out)
{
  gint64 step = ruler_step (v);
  RulerUnit unit;

  if (v->wall_clock)
    {
      format_wall_clock (et_trace_ns_to_filetime (trace, ticks[i]), step, out);
      return;
    }
  unit = ruler_unit (step, MAX (ABS (ticks[0]), ABS (ticks[n - 1])));
  g_string_append_printf (out, "%.*f %s", unit.decimals, (double) ticks[i] / (double) unit.unit,
                          unit.name);
}

static void
draw_ruler (Painter *p)
{
  const EtViewport *v = p->v;
  cairo_t *cr = p->cr;
  guint max = (guint) (MAX (1, v->width - v->label_width) / 90) + 2;
  g_autofree gint64 *ticks = g_new (gint64, max);
  guint n = et_ruler_layout (p->trace, v, ticks, max);

  set_rgb (cr, &p->theme->label_bg);
  cairo_rectangle (cr, 0, 0, v->width, v->ruler_height);
  cairo_fill (cr);
  if (v->wall_clock && v->label_width > 0)
    {
      g_string_truncate (p->scratch, 0);
      format_wall_date (et_trace_ns_to_filetime (p->trace, 0), p->scratch);
      set_rgb (cr, &p->theme->text);
      draw_text (p, p->scratch->str, 6, v->ruler_height / 2.0 - 2, v->label_width - 12, FALSE);
    }
  for (guint i = 0; i < n; i++)
    {
      double x = et_viewport_x (v, ticks[i]);
      int w, h;

      if (x < v->label_width)
        continue;
      set_rgb (cr, &p->theme->grid);
      cairo_rectangle (cr, floor (x), v->ruler_height, 1, v->height - v->ruler_height);
      cairo_fill (cr);
      set_rgb (cr, &p->theme->text);
      cairo_rectangle (cr, floor (x), v->ruler_height - 6, 1, 6);
      cairo_fill (cr);
      g_string_truncate (p->scratch, 0);
      et_ruler_label (p->trace, v, ticks, n, i, p->scratch);
      /* A label the right edge would cut is left out; its tick stays. */
      pango_layout_get_pixel_size (label_layout (p, p->scratch->str, -1), &w, &h);
      if (x + 3 + w > v->width)
        continue;
      draw_text (p, p->scratch->str, x + 3, v->ruler_height / 2.0 - 2, -1, FALSE);
    }
  set_rgb (cr, &p->theme->grid);
  cairo_rectangle (cr, 0, v->ruler_height - 1, v->width, 1);
  cairo_fill (cr);
}

static void
painter_init (Painter *p, cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v)
{
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("DejaVu Sans 8");

  *p = (Painter) { cr, trace, layout, v, theme_of (v), NULL, g_string_new (NULL) };
  p->text = pango_cairo_create_layout (cr);
  pango_layout_set_font_description (p->text, font);
  pango_layout_set_ellipsize (p->text, PANGO_ELLIPSIZE_END);
  p->label_key = g_string_new (NULL);
  p->stamps = et_stamps_new (cr);
}

static void
painter_clear (Painter *p)
{
  g_object_unref (p->text);
  g_string_free (p->label_key, TRUE);
  g_clear_object (&p->digits);
  g_free (p->connectors);
  et_stamps_free (p->stamps);
  g_string_free (p->scratch, TRUE);
}

/* Plot area only: under the ruler and right of the labels. */
static void
clip_to_plot (Painter *p)
{
  const EtViewport *v = p->v;

  cairo_rectangle (p->cr, v->label_width, v->ruler_height, v->width - v->label_width,
                   v->height - v->ruler_height);
  cairo_clip (p->cr);
  if (p->stamps != NULL)
    et_stamps_clip (p->stamps, p->cr);
}

void
_et_timeline_draw_slice (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v,
                         const EtTimelineSlice *slice, GArray *due, EtSlicesMarked marked,
                         gpointer data)
{
  Painter p;
  const GArray *const *all;
  guint n_all;

  cairo_save (cr);
  cairo_rectangle (cr, 0, slice->top, v->width, slice->bottom - slice->top);
  cairo_clip (cr);
  painter_init (&p, cr, trace, layout, v);
  p.due = due;
  p.own_from = slice->first_row == 0 ? G_MININT : slice->top;
  set_rgb (cr, &p.theme->background);
  cairo_paint (cr);
  draw_rows (&p, slice->first_row, slice->end_row);

  /* The marks; then, once every slice has its marks, every slice's
   * connectors over them (each slice its own pixels of them), the label
   * column's edge and the ruler with its grid. */
  cairo_save (cr);
  clip_to_plot (&p);
  for (guint r = slice->first_row; r < slice->end_row; r++)
    row_shapes (trace, layout, v, et_layout_row (layout, r), NULL, paint_shape, &p);
  all = marked (data, &n_all);
  for (guint k = 0; k < n_all; k++)
    for (guint i = 0; i < all[k]->len; i++)
      {
        const EtDueConnector *c = &g_array_index (all[k], EtDueConnector, i);
        draw_connector (&p, &c->shape, c->end_thread);
      }
  cairo_restore (cr);
  if (p.stamps != NULL)
    et_stamps_clip (p.stamps, cr);
  set_rgb (cr, &p.theme->grid);
  cairo_rectangle (cr, v->label_width - 1, 0, 1, v->height);
  cairo_fill (cr);
  draw_ruler (&p);
  cairo_restore (cr);
  painter_clear (&p);
}

void
et_timeline_draw_ruler (cairo_t *cr, EtTrace *trace, const EtViewport *v)
{
  Painter p;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, v->width, v->ruler_height);
  cairo_clip (cr);
  painter_init (&p, cr, trace, NULL, v);
  draw_ruler (&p);
  cairo_restore (cr);
  painter_clear (&p);
}

void
et_timeline_draw (cairo_t *cr, EtTrace *trace, EtLayout *layout, const EtViewport *v)
{
  et_timeline_draw_in_slices (cr, trace, layout, v, 0);
}

void
et_timeline_draw_range (cairo_t *cr, const EtViewport *v, gint64 from_ns, gint64 to_ns)
{
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("DejaVu Sans Bold 8");
  g_autoptr(PangoLayout) text = pango_cairo_create_layout (cr);
  g_autoptr(GString) length = g_string_new (NULL);
  double x0 = MAX (et_viewport_x (v, MIN (from_ns, to_ns)), v->label_width);
  double x1 = MIN (et_viewport_x (v, MAX (from_ns, to_ns)), v->width);
  int w, h;

  if (x1 < x0)
    return;
  cairo_save (cr);
  /* Amber, as the search rings: a selection, not data. */
  cairo_set_source_rgba (cr, 1.0, 0.6, 0.0, 0.16);
  cairo_rectangle (cr, x0, 0, x1 - x0, v->height);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, 1.0, 0.6, 0.0, 0.9);
  cairo_rectangle (cr, floor (x0), 0, 1, v->height);
  cairo_rectangle (cr, floor (x1), 0, 1, v->height);
  cairo_fill (cr);
  et_format_duration_display (et_time_sub (MAX (from_ns, to_ns), MIN (from_ns, to_ns)), length);
  pango_layout_set_font_description (text, font);
  pango_layout_set_text (text, length->str, -1);
  pango_layout_get_pixel_size (text, &w, &h);
  /* Just under the ruler, where it covers no tick or label. */
  cairo_rectangle (cr, (x0 + x1 - w) / 2 - 4, v->ruler_height + 2, w + 8, h + 2);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_move_to (cr, (x0 + x1 - w) / 2, v->ruler_height + 3);
  pango_cairo_show_layout (cr, text);
  cairo_restore (cr);
}

/* ---- hit-testing and files -------------------------------------------- */

typedef struct
{
  double   x, y;
  gboolean found;
  EtShape  shape;
} HitSearch;

/* Pixels around a shape that still hit it: small marks stay easy to click. */
#define HIT_SLACK 2.0

static void
hit_shape (const EtShape *s, gpointer data)
{
  HitSearch *h = data;

  /* Later shapes are drawn over earlier ones: the last match is on top. */
  if (h->x >= s->x0 - HIT_SLACK && h->x <= s->x1 + HIT_SLACK && h->y >= s->y0 - HIT_SLACK
      && h->y <= s->y1 + HIT_SLACK)
    {
      h->found = TRUE;
      h->shape = *s;
    }
}

/* A run of merged spans stands for the member nearest to @x in its lane:
 * clicking a run selects a real span. */
static void
resolve_run (EtTrace *trace, EtLayout *layout, const EtViewport *v, double x, EtShape *run)
{
  const EtChannel *ch = et_trace_get_channel (trace, run->channel);
  guint best = run->marker;
  double best_distance = G_MAXDOUBLE;

  for (guint i = run->marker; i < run->marker + run->count; i++)
    {
      const EtMarker *m = &ch->markers[i];
      double x0, x1, distance;

      if (m->kind != ET_MARKER_SPAN
          || et_layout_lane (layout, run->channel, m) != et_layout_lane (layout, run->channel, run->m)
          || !et_marker_is_simple_span (m)
          || !et_layout_marker_visible (layout, m))
        continue;
      x0 = et_viewport_x (v, m->start_ns);
      x1 = MAX (et_viewport_x (v, m->end_ns), x0 + 1);
      distance = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
      if (distance < best_distance)
        best = i, best_distance = distance;
    }
  run->marker = best;
  run->m = &ch->markers[best];
  run->count = 1;
  run->mixed = FALSE;
  run->importance = run->m->importance;
  run->x0 = MAX (et_viewport_x (v, run->m->start_ns), v->label_width - 2);
  run->x1 = MAX (MIN (et_viewport_x (v, run->m->end_ns), v->width + 2), run->x0 + 1);
}

void
et_timeline_hit_test (EtTrace *trace, EtLayout *layout, const EtViewport *v, double x,
                      double y, EtHit *hit)
{
  HitSearch search = { x, y, FALSE };
  Band band = { y - HIT_SLACK, y + HIT_SLACK };

  memset (hit, 0, sizeof *hit);
  if (y < v->ruler_height)
    {
      hit->kind = y >= 0 && x >= v->label_width ? ET_HIT_RULER : ET_HIT_NONE;
      return;
    }
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    {
      const EtRow *row = et_layout_row (layout, r);
      double top;
      if (row_visible (v, row, &top) && y >= top && y < top + row->height)
        {
          hit->row = r;
          hit->kind = x < v->label_width ? ET_HIT_ROW_LABEL : ET_HIT_EMPTY_ROW;
          break;
        }
    }
  if (hit->kind != ET_HIT_EMPTY_ROW)
    return;
  /* Shapes stay inside their row: only the row under the pointer counts. */
  row_shapes (trace, layout, v, et_layout_row (layout, hit->row), &band, hit_shape, &search);
  if (search.found)
    {
      hit->kind = ET_HIT_SHAPE;
      hit->shape = search.shape;
      if (hit->shape.kind == ET_SHAPE_SPAN && hit->shape.count > 1)
        resolve_run (trace, layout, v, x, &hit->shape);
    }
}

guint
et_timeline_rows_below (EtLayout *layout, const EtViewport *v, int bottom)
{
  guint n = 0;

  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    n += v->ruler_height + et_layout_row (layout, r)->y - v->scroll_y >= (bottom > 0 ? bottom : v->height);
  return n;
}

static void
draw_note (cairo_t *cr, const EtViewport *v, const char *note)
{
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("DejaVu Sans Bold 8");
  g_autoptr(PangoLayout) text = pango_cairo_create_layout (cr);
  const Theme *theme = theme_of (v);
  double top = v->height - ET_TIMELINE_NOTE_HEIGHT;
  int h;

  set_rgb (cr, &theme->label_bg);
  cairo_rectangle (cr, 0, top, v->width, ET_TIMELINE_NOTE_HEIGHT);
  cairo_fill (cr);
  set_rgb (cr, &theme->grid);
  cairo_rectangle (cr, 0, top, v->width, 1);
  cairo_fill (cr);
  pango_layout_set_font_description (text, font);
  pango_layout_set_text (text, note, -1);
  pango_layout_get_pixel_size (text, NULL, &h);
  set_rgb (cr, &theme->text);
  cairo_move_to (cr, 6, top + (ET_TIMELINE_NOTE_HEIGHT - h) / 2.0);
  pango_cairo_show_layout (cr, text);
}

gboolean
et_timeline_render_file (EtTrace *trace, EtLayout *layout, const EtViewport *v,
                         const char *path, GError **error)
{
  return et_timeline_render_file_full (trace, layout, v, NULL, NULL, NULL, path, error);
}

gboolean
et_timeline_render_file_with_note (EtTrace *trace, EtLayout *layout, const EtViewport *v,
                                   const char *note, const char *path, GError **error)
{
  return et_timeline_render_file_full (trace, layout, v, note, NULL, NULL, path, error);
}

/* The caption and legend under a picture: their height, or drawn. */
static double
footer (cairo_t *cr, const EtViewport *v, const char *caption, const EtLegendLabels *legend,
        gboolean draw)
{
  double y = v->height;

  if (caption != NULL)
    {
      g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("DejaVu Sans Bold 9");
      g_autoptr(PangoLayout) text = pango_cairo_create_layout (cr);
      const Theme *theme = theme_of (v);
      int w, h;

      pango_layout_set_font_description (text, font);
      pango_layout_set_text (text, caption, -1);
      pango_layout_set_width (text, (v->width - 16) * PANGO_SCALE);
      pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_MIDDLE);
      pango_layout_get_pixel_size (text, &w, &h);
      if (draw)
        {
          set_rgb (cr, &theme->label_bg);
          cairo_rectangle (cr, 0, y, v->width, h + 8);
          cairo_fill (cr);
          set_rgb (cr, &theme->text);
          cairo_move_to (cr, 8, y + 4);
          pango_cairo_show_layout (cr, text);
        }
      y += h + 8;
    }
  if (legend != NULL)
    y = et_timeline_draw_legend (cr, v, legend, 0, y, v->width, draw);
  return y - v->height;
}

gboolean
et_timeline_render_file_full (EtTrace *trace, EtLayout *layout, const EtViewport *v,
                              const char *note, const char *caption, const EtLegendLabels *legend,
                              const char *path, GError **error)
{
  cairo_surface_t *surface, *scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_status_t status;
  cairo_t *cr = cairo_create (scratch);
  int height = v->height + (int) ceil (footer (cr, v, caption, legend, FALSE));

  cairo_destroy (cr);
  cairo_surface_destroy (scratch);
  if (g_str_has_suffix (path, ".svg"))
    surface = cairo_svg_surface_create (path, v->width, height);
  else if (g_str_has_suffix (path, ".pdf"))
    surface = cairo_pdf_surface_create (path, v->width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, v->width, height);
  cr = cairo_create (surface);
  et_timeline_draw (cr, trace, layout, v);
  if (note != NULL)
    draw_note (cr, v, note);
  footer (cr, v, caption, legend, TRUE);
  cairo_destroy (cr);
  if (cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot write: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* ---- legend --------------------------------------------------------------- */

/* What a legend sample shows: drawn by the timeline's own painters. */
typedef enum
{
  SAMPLE_FLAG, SAMPLE_MESSAGE, SAMPLE_SPAN, SAMPLE_NESTED, SAMPLE_OVERLAPPING,
  SAMPLE_CROSS_THREAD, SAMPLE_OPEN, SAMPLE_LONE_END, SAMPLE_MERGED, SAMPLE_CPU,
} Sample;

static void
paint_bar (Painter *p, const EtMarker *m, double x0, double y0, double x1, double y1)
{
  EtShape s = { ET_SHAPE_SPAN, 0, 0, 1, m->importance, m, x0, y0, x1, y1 };

  paint_shape (&s, p);
}

/* A thread header's CPU-use band (et-cpu-strip.c): bars of one use after
 * another, on the header's stripe. */
static void
paint_cpu_sample (Painter *p, double x, double cy)
{
  static const double use[] = { 0.15, 0.4, 1, 1, 0.7, 0.3, 0, 0, 0.55, 0.9, 0.25, 0.1, 0.6 };
  double rgb[3], h = ET_CPU_STRIP_PX - 1;

  set_rgb (p->cr, &p->theme->stripe);
  cairo_rectangle (p->cr, x, cy - h / 2 - 1, 26, h + 2);
  cairo_fill (p->cr);
  et_cpu_strip_rgb (p->v, rgb);
  cairo_set_source_rgba (p->cr, rgb[0], rgb[1], rgb[2], 0.12);
  cairo_rectangle (p->cr, x, cy - h / 2, 26, h);
  cairo_fill (p->cr);
  cairo_set_source_rgb (p->cr, rgb[0], rgb[1], rgb[2]);
  for (guint i = 0; i < G_N_ELEMENTS (use); i++)
    if (use[i] > 0)
      cairo_rectangle (p->cr, x + i * ET_CPU_COLUMN_PX, cy + h / 2 - MAX (1, round (use[i] * h)),
                       ET_CPU_COLUMN_PX, MAX (1, round (use[i] * h)));
  cairo_fill (p->cr);
}

/* Sample @what, of category @category and importance @importance, in the
 * box from @x (26 px wide) centred on @cy. */
static void
paint_sample (Painter *p, Sample what, gint16 category, EtImportance importance, double x,
              double cy)
{
  EtMarker m = { 0, 0, 0, 0, 0, category, ET_MARKER_FLAG, importance, ET_SPAN_OK, 0 };
  EtMarker inner = m;
  double r = flag_radius (importance);
  EtShape s = { ET_SHAPE_FLAG, 0, 0, 1, importance, &m, x + 13 - r, cy - r, x + 13 + r, cy + r };

  m.kind = inner.kind = what == SAMPLE_FLAG ? ET_MARKER_FLAG
                        : what == SAMPLE_MESSAGE ? ET_MARKER_MESSAGE : ET_MARKER_SPAN;
  switch (what)
    {
    case SAMPLE_FLAG:
      paint_shape (&s, p);
      break;
    case SAMPLE_MESSAGE:
      s.kind = ET_SHAPE_MESSAGE, s.x0 = x + 9, s.x1 = x + 17, s.y0 = cy - 3, s.y1 = cy + 3;
      paint_shape (&s, p);
      break;
    case SAMPLE_MERGED:
      s.kind = ET_SHAPE_AGGREGATE, s.count = 3, s.x0 = x + 2, s.x1 = x + 12;
      s.y0 = cy - 5, s.y1 = cy + 5;
      paint_shape (&s, p);        /* with its count */
      break;
    case SAMPLE_LONE_END:
      s.kind = ET_SHAPE_LONE_END, s.x0 = x + 10, s.x1 = x + 16, s.y0 = cy - 6, s.y1 = cy + 6;
      paint_shape (&s, p);
      break;
    case SAMPLE_SPAN:
      paint_bar (p, &m, x, cy - 6, x + 26, cy + 6);
      break;
    case SAMPLE_NESTED:
    case SAMPLE_OVERLAPPING:
      /* One lane deeper, inside the other or running past its end. */
      inner.status = what == SAMPLE_NESTED ? ET_SPAN_NESTED : ET_SPAN_OVERLAPPING;
      paint_bar (p, &m, x, cy - 7, x + 20, cy - 1);
      paint_bar (p, &inner, x + 6, cy + 1, x + (what == SAMPLE_NESTED ? 16 : 26), cy + 7);
      break;
    case SAMPLE_CROSS_THREAD:
      /* The bar on the start's thread, the dashed link down to the end's. */
      paint_bar (p, &m, x, cy - 7, x + 20, cy - 1);
      cairo_set_source_rgba (p->cr, p->theme->text.r, p->theme->text.g, p->theme->text.b, 0.7);
      cairo_set_line_width (p->cr, 1);
      cairo_set_dash (p->cr, (double[]) { 3, 2 }, 2, 0);
      cairo_move_to (p->cr, x + 20.5, cy - 4);
      cairo_line_to (p->cr, x + 20.5, cy + 6);
      cairo_stroke (p->cr);
      cairo_set_dash (p->cr, NULL, 0, 0);
      cairo_save (p->cr);
      cairo_translate (p->cr, x + 20.5, cy + 6);
      draw_connector_dot (p->cr, p->theme);
      cairo_restore (p->cr);
      break;
    case SAMPLE_CPU:
      paint_cpu_sample (p, x, cy);
      break;
    case SAMPLE_OPEN:
      {
        EtShape bar = { ET_SHAPE_SPAN, 0, 0, 1, importance, &m, x, cy - 6, x + 26, cy + 6 };

        paint_bar (p, &m, x, cy - 6, x + 26, cy + 6);
        draw_open_end (p->cr, &bar, category_color (p->theme->spans, category), p->theme->outlined);
      }
      break;
    }
}

/* A label's width in pixels. */
static int
text_width (Painter *p, const char *text)
{
  int w;

  pango_layout_set_width (p->text, -1);
  pango_layout_set_text (p->text, text, -1);
  pango_layout_get_pixel_size (p->text, &w, NULL);
  return w;
}

typedef struct
{
  Sample       sample;
  gint16       category;
  EtImportance importance;
  const char  *label;
} LegendItem;

/* One line of the legend: a heading, then its items, wrapped to @width.
 * Returns the y of the next line. */
static double
legend_line (Painter *p, const char *heading, const LegendItem *items, guint n, double x0,
             double y, double width, gboolean draw)
{
  const double line = 20, indent = MAX (96, text_width (p, heading) + 12);
  double x = x0 + indent, cy = y + line / 2;

  if (draw)
    {
      set_rgb (p->cr, &p->theme->text);
      draw_text (p, heading, x0, cy, -1, FALSE);
    }
  for (guint i = 0; i < n; i++)
    {
      double w = 26 + 5 + text_width (p, items[i].label) + 16;

      if (x + w > x0 + width && x > x0 + indent)
        x = x0 + indent, cy += line;
      if (draw)
        {
          paint_sample (p, items[i].sample, items[i].category, items[i].importance, x, cy);
          set_rgb (p->cr, &p->theme->text);
          draw_text (p, items[i].label, x + 31, cy, -1, FALSE);
        }
      x += w;
    }
  return cy + line / 2;
}

double
et_timeline_draw_legend (cairo_t *cr, const EtViewport *v, const EtLegendLabels *l, double x,
                         double y, double width, gboolean draw)
{
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string ("DejaVu Sans 8");
  Painter p = { cr, NULL, NULL, v, theme_of (v), NULL, g_string_new (NULL), NULL, NULL, 0 };
  const LegendItem kinds[] = {
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_NORMAL, l->flag },
    { SAMPLE_MESSAGE, 0, ET_IMPORTANCE_NORMAL, l->message },
    { SAMPLE_SPAN, 0, ET_IMPORTANCE_NORMAL, l->span },
    { SAMPLE_MERGED, 0, ET_IMPORTANCE_NORMAL, l->merged },
  };
  const LegendItem categories[] = {
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_NORMAL, "0" }, { SAMPLE_FLAG, 1, ET_IMPORTANCE_NORMAL, "1" },
    { SAMPLE_FLAG, 2, ET_IMPORTANCE_NORMAL, "2" }, { SAMPLE_FLAG, 3, ET_IMPORTANCE_NORMAL, "3" },
    { SAMPLE_FLAG, 4, ET_IMPORTANCE_NORMAL, "4" },
    { SAMPLE_FLAG, ET_CATEGORY_ALERT, ET_IMPORTANCE_NORMAL, l->alert },
  };
  const LegendItem importance[] = {
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_LOW, l->importance[ET_IMPORTANCE_LOW] },
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_NORMAL, l->importance[ET_IMPORTANCE_NORMAL] },
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_HIGH, l->importance[ET_IMPORTANCE_HIGH] },
    { SAMPLE_FLAG, 0, ET_IMPORTANCE_CRITICAL, l->importance[ET_IMPORTANCE_CRITICAL] },
  };
  const LegendItem statuses[] = {
    { SAMPLE_NESTED, 0, ET_IMPORTANCE_NORMAL, l->nested },
    { SAMPLE_OVERLAPPING, 0, ET_IMPORTANCE_NORMAL, l->overlapping },
    { SAMPLE_CROSS_THREAD, 0, ET_IMPORTANCE_NORMAL, l->cross_thread },
    { SAMPLE_OPEN, 0, ET_IMPORTANCE_NORMAL, l->open },
    { SAMPLE_LONE_END, 0, ET_IMPORTANCE_NORMAL, l->lone_end },
  };
  const LegendItem threads[] = { { SAMPLE_CPU, 0, ET_IMPORTANCE_NORMAL, l->cpu_use } };

  p.text = pango_cairo_create_layout (cr);
  pango_layout_set_font_description (p.text, font);
  if (draw)
    {
      set_rgb (cr, &p.theme->label_bg);
      cairo_rectangle (cr, x, y, width, et_timeline_draw_legend (cr, v, l, x, y, width, FALSE) - y);
      cairo_fill (cr);
    }
  y = legend_line (&p, l->kinds, kinds, G_N_ELEMENTS (kinds), x + 8, y + 4, width - 16, draw);
  y = legend_line (&p, l->categories, categories, G_N_ELEMENTS (categories), x + 8, y, width - 16, draw);
  y = legend_line (&p, l->importances, importance, G_N_ELEMENTS (importance), x + 8, y, width - 16, draw);
  y = legend_line (&p, l->statuses, statuses, G_N_ELEMENTS (statuses), x + 8, y, width - 16, draw);
  if (l->threads != NULL)
    y = legend_line (&p, l->threads, threads, 1, x + 8, y, width - 16, draw);
  g_object_unref (p.text);
  g_string_free (p.scratch, TRUE);
  return y + 4;
}
