/* et-timeline-view.h — the timeline widget: hosts render/ on screen.
 *
 *   (trace, layout) + EtViewport ─ snapshot: et_timeline_draw (cached node)
 *                                  + selection ring (overlay)
 *   pointer, keys, actions ─ viewport changes ─ "range-changed"
 *   click ─ et_timeline_hit_test ─ selection ─ "selection-changed"
 *   Escape ─ the range, else "escape" (the owner's own), else the selection
 *
 * Its commands are the "timeline" action group (zoom-in, zoom-out,
 * pan-left, pan-right, zoom-fit, zoom-selection), which the window inserts
 * so they work from anywhere in it. The layout belongs to the caller.
 */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-layout.h"
#include "et-viewport.h"
#include "et-timeline-render.h"

G_BEGIN_DECLS

#define ET_TYPE_TIMELINE_VIEW (et_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (EtTimelineView, et_timeline_view, ET, TIMELINE_VIEW, GtkWidget)

GtkWidget    *et_timeline_view_new            (void);
void          et_timeline_view_set_trace      (EtTimelineView *self,
                                               EtTrace        *trace,
                                               EtLayout       *layout);
/* Whether a picture is being drawn on a thread (the last one is shown
 * meanwhile). */
gboolean      et_timeline_view_is_drawing     (EtTimelineView *self);
gboolean      et_timeline_view_is_settled     (EtTimelineView *self);
/* Marked times (ns), drawn as lines over the timeline; copied. */
void          et_timeline_view_set_bookmarks  (EtTimelineView *self,
                                               const gint64   *times,
                                               guint           n);
EtLayout     *et_timeline_view_get_layout     (EtTimelineView *self);
EtTrace      *et_timeline_view_get_trace      (EtTimelineView *self);
/* The layout's rows changed (a thread collapsed, reordered…): lays out
 * again, remembers the thread choices for the trace, redraws, and emits
 * "layout-changed". */
void          et_timeline_view_rows_changed   (EtTimelineView *self);
/* Opens "Go to Thread or Series" (Ctrl+P): a search over thread and series
 * names whose choice is scrolled to (et-timeline-threads.h). */
void          et_timeline_view_find_track     (EtTimelineView *self);
/* Its popover, once opened (for tests), else NULL. */
GtkWidget    *et_timeline_view_get_find_popover (EtTimelineView *self);
/* The "timeline" actions (transfer none). */
GActionGroup *et_timeline_view_get_actions    (EtTimelineView *self);
EtViewport   *et_timeline_view_get_viewport   (EtTimelineView *self);
/* Call after changing the layout's filters or collapsed processes. */
void          et_timeline_view_layout_changed (EtTimelineView *self);
/* Compact rows: lanes of ET_LANE_HEIGHT_COMPACT pixels, a collapsed
 * thread's markers in one lane (et_layout_set_compact); the row at the
 * top of the view stays there. */
/* Only the threads whose markers reach into the view have rows, found
 * again as the view moves (et_layout_set_active_only); remembered for
 * the trace. */
void          et_timeline_view_set_active_only (EtTimelineView *self,
                                                gboolean        active_only);
void          et_timeline_view_set_compact    (EtTimelineView *self,
                                               gboolean        compact);
gboolean      et_timeline_view_get_compact    (EtTimelineView *self);
void          et_timeline_view_set_wall_clock (EtTimelineView *self,
                                               gboolean        wall_clock);
/* Selects what is at (x, y), as a click does; TRUE when a shape is there. */
gboolean      et_timeline_view_select_at      (EtTimelineView *self,
                                               double          x,
                                               double          y);
/* Brings a marker into view (process expanded, row scrolled to, zoomed in
 * until it stands alone) and selects it. */
void          et_timeline_view_reveal_marker  (EtTimelineView *self,
                                               guint           channel,
                                               guint           index);
/* Opens the row menu (hide, collapse, move to top, show hidden channels)
 * of the channel at (@x, @y), as a right click does; FALSE when no channel
 * row is there. */
gboolean      et_timeline_view_popup_channel_menu (EtTimelineView *self,
                                                   double          x,
                                                   double          y);
/* The time range selected on the ruler (a drag there does this): drawn as
 * a band, listed by the Markers report, zoomed to by zoom-selection (Z);
 * Escape clears it. "range-changed" is emitted. */
void          et_timeline_view_select_range   (EtTimelineView *self,
                                               gint64          from_ns,
                                               gint64          to_ns);
void          et_timeline_view_clear_range    (EtTimelineView *self);
gboolean      et_timeline_view_get_range      (EtTimelineView *self,
                                               gint64         *from_ns,
                                               gint64         *to_ns);
/* Centres @t_ns, keeping the zoom (e.g. a span's end). */
void          et_timeline_view_center_on      (EtTimelineView *self,
                                               gint64          t_ns);
/* Where the selection is drawn in the current view: its ring. */
typedef enum
{
  ET_RING_NONE,     /* not drawn here: out of view, filtered or hidden */
  ET_RING_OWN,      /* the marker's own mark (a span in a merged run: its part) */
  ET_RING_MERGED,   /* merged into a grey mark at this zoom */
} EtRingKind;

typedef struct
{
  EtRingKind kind;
  double     x0, y0, x1, y1;   /* the ringed box, in viewport pixels */
  double     at;               /* MERGED: the marker's x, where a pointer shows its time */
} EtSelectionRing;

/* FALSE when nothing is selected; an aggregate is a selection too. The
 * selection stays (and so do the details) while it is out of view; the
 * shape's box is where it was last drawn. */
gboolean      et_timeline_view_get_selection  (EtTimelineView *self,
                                               EtShape        *shape);
void          et_timeline_view_clear_selection (EtTimelineView *self);
/* The selection's ring in the current view; FALSE when nothing is
 * selected. */
gboolean      et_timeline_view_get_selection_ring (EtTimelineView  *self,
                                                   EtSelectionRing *ring);
/* Rings every marker in @markers (a set of const EtMarker *, e.g. search
 * matches) that is drawn on its own; NULL for none. */
void          et_timeline_view_set_highlights (EtTimelineView *self,
                                               GHashTable     *markers);
/* The hover tooltip at (@x, @y): the marker (or merged markers) there, or
 * the CPU use of a thread header's band ("CPU 37 % (12 samples)"); NULL
 * for nothing (transfer full). */
char         *et_timeline_view_tooltip_at     (EtTimelineView *self,
                                               double          x,
                                               double          y);

G_END_DECLS
