/* et-timeline-render.h — draws a viewport of a trace and answers
 * hit-tests from the same geometry.
 *
 *   (trace, layout, viewport) ─► shapes ─┬─► cairo (screen, PNG, SVG, PDF)
 *                                        └─► hit-test
 *
 * Every mark on the timeline is first computed as an EtShape by one
 * function; drawing paints the shapes and hit-testing looks them up, so the
 * two can never disagree. render/ knows Cairo and Pango, not widgets.
 */
#pragma once

#include <cairo.h>
#include "et-trace.h"
#include "et-layout.h"
#include "et-viewport.h"

G_BEGIN_DECLS

typedef enum
{
  ET_SHAPE_SPAN,        /* a span bar (any status), or a run of narrow spans in a
                           lane merged where they touch (count > 1) */
  ET_SHAPE_LONE_END,    /* an unmatched span end */
  ET_SHAPE_FLAG,
  ET_SHAPE_MESSAGE,
  ET_SHAPE_AGGREGATE,   /* flags/messages closer than a few pixels, merged (in
                           a crowded collapsed thread's row, across its channels) */
} EtShapeKind;

typedef struct
{
  EtShapeKind     kind;
  guint           channel;     /* the marker's (aggregate: its first member's) */
  guint           marker;      /* index within the channel (aggregate: the first
                                  member, leftmost of any channel of its row) */
  guint           count;       /* aggregate: markers merged, of all the channels it
                                  merges; span run: the channel's markers
                                  [marker, marker + count) it covers; else 1 */
  EtImportance    importance;  /* aggregate: of its most important member */
  const EtMarker *m;           /* the marker (aggregate: the first) */
  double          x0, y0, x1, y1;   /* bounding box in viewport pixels */
  gboolean        mixed;       /* span run whose members differ in category: grey */
} EtShape;

typedef void (*EtShapeFunc) (const EtShape *shape, gpointer user_data);

/* Calls @func for every shape of the visible rows, in drawing order. */
void     et_timeline_foreach_shape (EtTrace          *trace,
                                    EtLayout         *layout,
                                    const EtViewport *viewport,
                                    EtShapeFunc       func,
                                    gpointer          user_data);

/* The same for one channel's shapes alone (shapes never leave their row;
 * in a collapsed thread's merged row, only this channel's among the
 * thread's, and the aggregates merged across channels that hold any of its
 * markers, whichever channel they name; its critical and alert markers
 * each on its own even where the row draws one mark for several of a
 * colour and size within 3 px): nothing when the channel has no row or it
 * is out of view. */
void     et_timeline_foreach_channel_shape (EtTrace          *trace,
                                            EtLayout         *layout,
                                            const EtViewport *viewport,
                                            guint             channel,
                                            EtShapeFunc       func,
                                            gpointer          user_data);

/* Markers of @row in the viewport's time range (a collapsed thread's
 * row: those of every channel it shows; none for a process): what
 * drawing the row costs. */
guint64  et_timeline_row_markers   (EtTrace          *trace,
                                    EtLayout         *layout,
                                    const EtViewport *viewport,
                                    const EtRow      *row);

/* Draws the whole picture: background, rows, labels, markers, ruler. The
 * layout must have been updated for the viewport's lane height. A large
 * picture drawn into an image surface is drawn in slices at once, one per
 * core (et_timeline_draw_in_slices): the same pixels, sooner. */
void     et_timeline_draw          (cairo_t          *cr,
                                    EtTrace          *trace,
                                    EtLayout         *layout,
                                    const EtViewport *viewport);

/* et_timeline_draw in at most @max_slices slices drawn at once (0: as
 * many as the view is worth, one per core; 1: on the caller's thread
 * alone, which then never waits for another). A picture is cut only when
 * the view holds 20,000 markers or a million pixels and @cr draws into an
 * image surface as it is (et-timeline-slices.c). */
void     et_timeline_draw_in_slices (cairo_t          *cr,
                                     EtTrace          *trace,
                                     EtLayout         *layout,
                                     const EtViewport *viewport,
                                     guint             max_slices);

/* The ruler band alone (the corner over the label column too, no grid
 * lines below it), as et_timeline_draw draws it: over a picture drawn for
 * another view, the ruler of this one. */
void     et_timeline_draw_ruler    (cairo_t          *cr,
                                    EtTrace          *trace,
                                    const EtViewport *viewport);

/* A selected time range over a picture drawn by et_timeline_draw: a
 * translucent band across the rows, its edges, and its length on the
 * ruler. Drawn as an overlay, so dragging it never redraws the markers. */
void     et_timeline_draw_range    (cairo_t          *cr,
                                    const EtViewport *viewport,
                                    gint64            from_ns,
                                    gint64            to_ns);

typedef enum
{
  ET_HIT_NONE,
  ET_HIT_RULER,
  ET_HIT_ROW_LABEL,
  ET_HIT_SHAPE,
  ET_HIT_EMPTY_ROW,
} EtHitKind;

typedef struct
{
  EtHitKind kind;
  guint     row;      /* ROW_LABEL, SHAPE, EMPTY_ROW */
  EtShape   shape;    /* SHAPE: the topmost shape under the point */
} EtHit;

void     et_timeline_hit_test      (EtTrace          *trace,
                                    EtLayout         *layout,
                                    const EtViewport *viewport,
                                    double            x,
                                    double            y,
                                    EtHit            *hit);

/* Writes the viewport to @path as PNG, SVG or PDF (by extension). */
gboolean et_timeline_render_file   (EtTrace          *trace,
                                    EtLayout         *layout,
                                    const EtViewport *viewport,
                                    const char       *path,
                                    GError          **error);
/* The same with @note in the timeline's bottom band (see
 * et_timeline_render_file_with_note) and, under the timeline, @caption (a
 * line naming the file and range) and the legend drawn with @legend's
 * words; any may be NULL. */
struct _EtLegendLabels;
gboolean et_timeline_render_file_full (EtTrace                      *trace,
                                       EtLayout                     *layout,
                                       const EtViewport             *viewport,
                                       const char                   *note,
                                       const char                   *caption,
                                       const struct _EtLegendLabels *legend,
                                       const char                   *path,
                                       GError                      **error);

/* The same with @note (or nothing when NULL) written in a band across the
 * bottom of the picture, ET_TIMELINE_NOTE_HEIGHT pixels tall: what a
 * picture of a fixed size says about the rows it could not hold. */
#define ET_TIMELINE_NOTE_HEIGHT 22
gboolean et_timeline_render_file_with_note (EtTrace          *trace,
                                            EtLayout         *layout,
                                            const EtViewport *viewport,
                                            const char       *note,
                                            const char       *path,
                                            GError          **error);
/* How many rows start at or below @bottom pixels of the picture (0 for
 * its whole height): the rows it leaves out. */
guint    et_timeline_rows_below    (EtLayout         *layout,
                                    const EtViewport *viewport,
                                    int               bottom);

/* The colour flags of @category are drawn in (alert red for -1), 0–1 each:
 * for legends and filter swatches. */
void     et_timeline_category_rgb  (gint16            category,
                                    double           *r,
                                    double           *g,
                                    double           *b);

/* Tick step (ns) for a ruler showing @span_ns over @width_px pixels: the
 * smallest 1-2-5 step at least @min_px pixels apart. */
gint64   et_ruler_step             (gint64            span_ns,
                                    double            width_px,
                                    double            min_px);
/* The ruler's tick times over @viewport, at least @min_px pixels apart,
 * into @ticks (at most @max of them, and never more than one per @min_px
 * pixels plus two, whatever the times): returns how many. */
guint    et_ruler_ticks            (const EtViewport *viewport,
                                    double            min_px,
                                    gint64           *ticks,
                                    guint             max);
/* The same, with ticks where (t + @phase_ns) is a whole number of steps
 * (the wall-clock ruler: round times of day). */
guint    et_ruler_ticks_aligned    (const EtViewport *viewport,
                                    double            min_px,
                                    gint64            phase_ns,
                                    gint64           *ticks,
                                    guint             max);
/* The ticks of @viewport's ruler as drawn (wall-clock ones on round times
 * of day), and the label of tick @i of the @n: one unit and precision for
 * all of them, or the time of day (UTC). */
guint    et_ruler_layout           (EtTrace          *trace,
                                    const EtViewport *viewport,
                                    gint64           *ticks,
                                    guint             max);
void     et_ruler_label            (EtTrace          *trace,
                                    const EtViewport *viewport,
                                    const gint64     *ticks,
                                    guint             n,
                                    guint             i,
                                    GString          *out);
/* The colours a viewport's theme draws with: row backgrounds (plain and
 * striped), and a category's flag or bar colour (for checks of contrast). */
typedef enum
{
  ET_THEME_ROW,
  ET_THEME_STRIPE,
  ET_THEME_FLAG,
  ET_THEME_BAR,
  ET_THEME_TEXT,
} EtThemeColor;
void     et_timeline_theme_rgb     (const EtViewport *viewport,
                                    EtThemeColor      what,
                                    gint16            category,
                                    double            rgb[3]);

/* The words of a legend, translated by the caller (render/ knows no
 * translations): headings, then one label per sample. */
typedef struct _EtLegendLabels
{
  const char *kinds, *flag, *message, *span, *merged;
  const char *categories, *alert;
  const char *importances, *importance[4];   /* by EtImportance */
  const char *statuses, *nested, *overlapping, *cross_thread, *open, *lone_end;
  const char *threads, *cpu_use;             /* the thread headers' CPU-use band; no
                                                line when threads is NULL */
} EtLegendLabels;

/* Draws the legend of @viewport's theme (kinds, category colours,
 * importance sizes, span statuses, the CPU-use band), each sample drawn as the timeline
 * draws it, at (@x, @y) in @width, wrapping lines as needed; with @draw
 * FALSE only measures. Returns the y below it. */
double   et_timeline_draw_legend   (cairo_t              *cr,
                                    const EtViewport     *viewport,
                                    const EtLegendLabels *labels,
                                    double                x,
                                    double                y,
                                    double                width,
                                    gboolean              draw);

/* "1.5 ms", "250 ns", "2 s"…, always with a decimal point (machine
 * formats use it). */
void     et_format_duration        (gint64            ns,
                                    GString          *out);
/* The same for people: the decimal separator of the user's LC_NUMERIC
 * ("1,5 ms" in German). For the GUI and pictures, never machine output. */
void     et_format_duration_display (gint64           ns,
                                     GString         *out);
/* A time since the trace's start for people: as a duration, but the start
 * itself is "0 s" (a duration's "0 ns" would read as a nanosecond view). */
void     et_format_time_display     (gint64           t_ns,
                                     GString         *out);
/* A count for people: grouped as the locale's LC_NUMERIC groups thousands
 * ("179.474" in German, "179,474" in English, "179474" under C). */
void     et_format_count_display    (guint64          n,
                                     GString         *out);

G_END_DECLS
