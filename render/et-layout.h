/* et-layout.h — the rows of a trace's timeline.
 *
 * Process › thread › series, as Concurrency Visualizer and Perfetto show
 * them: one header row per process (collapsible), then per thread a header
 * row (name and tid, its lifetime shaded, a strip of its markers'
 * density), collapsible too. An expanded thread has one row per channel
 * (provider × series) under its header, as tall as its deepest span lane;
 * a collapsed (merged) thread draws all its markers in its header row, in
 * lanes by their thread-wide depth, and a collapsed process its threads'
 * in its own (et-layout-process.c). Built once per trace; rows are laid
 * out again (cheaply) when something is collapsed or the lane height
 * changes.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

typedef enum
{
  ET_ROW_PROCESS,
  ET_ROW_CHANNEL,
  ET_ROW_THREAD,        /* a thread's header; collapsed, its markers merged */
} EtRowKind;

typedef struct
{
  EtRowKind kind;
  guint     index;      /* process, channel or thread index */
  int       y;          /* top, from the top of the rows (before scrolling) */
  int       height;
  guint     lanes;      /* channel rows: 1 + the deepest span lane; thread rows:
                           the lanes of the merged markers (0 when expanded) */
} EtRow;

/* A thread header's strip (lifetime and density) above its merged lanes. */
#define ET_THREAD_STRIP_PX 5

/* What a thread header shows, from all its markers (whatever the filters). */
typedef struct
{
  gint64  first_ns;     /* its first marker's start (G_MAXINT64 without markers) */
  gint64  last_ns;      /* its last marker's end (a span open to the end counts
                           by its start) */
  guint64 n_markers;
  gint64  cpu_ns;       /* its CPU time (et_trace_thread_cpu_ns) */
} EtLayoutThread;

typedef enum
{
  ET_THREAD_ORDER_FIRST_ACTIVITY,   /* the default */
  ET_THREAD_ORDER_MARKERS,          /* most markers first */
  ET_THREAD_ORDER_NAME,             /* by name, then tid */
  ET_THREAD_ORDER_CPU,              /* most CPU time first (et_trace_thread_cpu_ns):
                                       Concurrency Visualizer's "Execution" */
} EtThreadOrder;

typedef struct _EtLayout EtLayout;

EtLayout    *et_layout_new           (EtTrace  *trace);
void         et_layout_free          (EtLayout *layout);
/* Everything @layout decides, in a layout of its own: drawing can go on
 * from the copy on another thread while @layout changes. */
EtLayout    *et_layout_copy          (EtLayout *layout);
/* Lays rows out for @lane_height pixels per lane. */
void         et_layout_update        (EtLayout *layout,
                                      int       lane_height);
/* Lays rows out for @lane_height pixels per lane, unless they already
 * are and no switch or filter changed since (frozen: at the thaw). A
 * window taking a layout made on the loading thread lays out nothing. */
void         et_layout_set_lane_height (EtLayout *layout,
                                        int       lane_height);
/* Compact rows: a collapsed thread draws all its markers in one lane
 * (spans of every depth over each other, as a collapsed channel), for
 * traces of thousands of threads; the caller lays out at a smaller lane
 * height too (ET_LANE_HEIGHT_COMPACT). */
void         et_layout_set_compact   (EtLayout *layout,
                                      gboolean  compact);
gboolean     et_layout_get_compact   (EtLayout *layout);
/* Only the threads whose life meets [@from_ns, @to_ns] (the view) have
 * rows: from their first marker's start to the latest time their markers
 * reach, a span never ended reaching the end of the trace (threads
 * without markers follow their own rule). For traces of thousands of
 * short-lived threads: zoomed in, the threads of that time. The range
 * lays out again only while active_only is on. */
void         et_layout_set_active_only  (EtLayout *layout,
                                         gboolean  active_only);
gboolean     et_layout_get_active_only  (EtLayout *layout);
/* TRUE when the rows were laid out again (or will be, at the thaw). */
gboolean     et_layout_set_active_range (EtLayout *layout,
                                         gint64    from_ns,
                                         gint64    to_ns);
/* Changes when a layout finds again which channels have rows (a provider,
 * series, channel or thread hidden or shown): rows that only moved,
 * opened or closed (a thread expanded, compact rows) leave it as it was,
 * and what lists the shown markers need not look again. */
guint        et_layout_get_shown_serial (EtLayout *layout);
/* Between these, the switches (processes, providers, series, channels,
 * threads, order) lay the rows out once, at the last thaw, not each time
 * one changes: a window restoring its filters on a trace of 15,000
 * threads laid out a few times, 15 ms each. Reading rows in between gives
 * the layout before the freeze. */
void         et_layout_freeze        (EtLayout *layout);
void         et_layout_thaw          (EtLayout *layout);
void         et_layout_set_collapsed (EtLayout *layout,
                                      guint     process,
                                      gboolean  collapsed);
gboolean     et_layout_get_collapsed (EtLayout *layout,
                                      guint     process);
guint        et_layout_n_rows        (EtLayout *layout);
const EtRow *et_layout_row           (EtLayout *layout,
                                      guint     index);
int          et_layout_height        (EtLayout *layout);
/* The row a channel's markers are drawn in: its own, its thread's when the
 * thread is collapsed, its process's when the process is collapsed (its
 * threads' markers merged in its header), or NULL when it is hidden or
 * has no row. */
const EtRow *et_layout_channel_row   (EtLayout *layout,
                                      guint     channel);
/* A collapsed process draws its threads' markers merged in its header
 * (et_layout_channel_row is its row) when it has at most this many shown
 * channels; past them its header keeps its strip alone. Drawing a merged
 * row asks each of its channels (a query each, per kind): a server's
 * process of 75,000 channels took 0.5-1 s a picture. */
#define ET_LAYOUT_MERGE_CHANNELS 2048

/* The channels whose markers @row may draw: [*@first, *@end), of which
 * those whose et_layout_channel_row is @row do (a channel row: itself; a
 * collapsed thread's: its channels; a collapsed process's: its threads'). */
void         et_layout_row_channels  (EtLayout    *layout,
                                      const EtRow *row,
                                      guint       *first,
                                      guint       *end);
/* Filters, applied at once (no reload): a hidden provider's rows go away;
 * markers below the minimum importance or of an unchosen kind are not
 * drawn. By default everything loaded is shown. */
void         et_layout_set_provider_visible (EtLayout    *layout,
                                             guint        provider,
                                             gboolean     visible);
gboolean     et_layout_get_provider_visible (EtLayout    *layout,
                                             guint        provider);
void         et_layout_set_min_importance   (EtLayout    *layout,
                                             EtImportance importance);
EtImportance et_layout_get_min_importance   (EtLayout    *layout);
guint        et_layout_get_kinds            (EtLayout    *layout);
/* Bits (1 << EtMarkerKind); 0 means every kind. */
void         et_layout_set_kinds            (EtLayout    *layout,
                                             guint        kinds);
gboolean     et_layout_marker_visible       (EtLayout       *layout,
                                             const EtMarker *marker);
/* Categories (-1 is the alert category) and series (string ids) shown;
 * a hidden series' channel rows go away like a hidden provider's. */
void         et_layout_set_category_visible (EtLayout       *layout,
                                             gint16          category,
                                             gboolean        visible);
gboolean     et_layout_get_category_visible (EtLayout       *layout,
                                             gint16          category);
void         et_layout_set_series_visible   (EtLayout       *layout,
                                             guint32         series,
                                             gboolean        visible);
gboolean     et_layout_get_series_visible   (EtLayout       *layout,
                                             guint32         series);
/* One channel's row hidden or shown; all shown again. */
void         et_layout_set_channel_visible  (EtLayout       *layout,
                                             guint           channel,
                                             gboolean        visible);
gboolean     et_layout_get_channel_visible  (EtLayout       *layout,
                                             guint           channel);
guint        et_layout_n_hidden_channels    (EtLayout       *layout);
void         et_layout_show_all_channels    (EtLayout       *layout);
/* Whether @channel has a row: not hidden itself, nor by provider or series. */
gboolean     et_layout_channel_shown        (EtLayout       *layout,
                                             guint           channel);
/* A collapsed channel draws its spans in one lane, whatever their depth. */
void         et_layout_set_channel_collapsed (EtLayout      *layout,
                                              guint          channel,
                                              gboolean       collapsed);
gboolean     et_layout_get_channel_collapsed (EtLayout      *layout,
                                              guint          channel);
/* The depths the lanes of the row @channel is drawn in stand for (its
 * own, or its collapsed thread's), for et_lane_of_depth; *@one_lane is
 * TRUE when all its spans share lane 0 instead (a collapsed channel). Once
 * per channel, where et_layout_lane would be asked per marker. */
guint64      et_layout_row_depths           (EtLayout       *layout,
                                             guint           channel,
                                             gboolean       *one_lane);
/* The lane @m (a marker of @channel) is drawn in. */
guint        et_layout_lane                 (EtLayout       *layout,
                                             guint           channel,
                                             const EtMarker *m);
/* The channel's row first in its process, and its process first of all. */
void         et_layout_move_channel_to_top  (EtLayout       *layout,
                                             guint           channel);
gboolean     et_layout_kind_visible         (EtLayout       *layout,
                                             EtMarkerKind    kind);
/* Whether a filter hides some markers of a channel whose provider and kind
 * are shown (then the channel's block summaries cannot stand for their
 * markers). */
gboolean     et_layout_filters_single_markers (EtLayout     *layout);

/* A copy of the filters above (and of which channels have rows), for
 * testing markers on another thread while the layout changes. */
typedef struct _EtLayoutFilter EtLayoutFilter;

EtLayoutFilter *et_layout_filter_copy    (EtLayout             *layout);
void            et_layout_filter_free    (EtLayoutFilter       *filter);
/* Whether the channel has a row (not hidden itself, nor its provider or
 * series). */
gboolean        et_layout_filter_channel (const EtLayoutFilter *filter,
                                          guint                 channel);
gboolean        et_layout_filter_marker  (const EtLayoutFilter *filter,
                                          const EtMarker       *marker);

/* "<series>: <provider>" (provider alone for the empty series; the thread
 * header above says which thread), "<thread name> (<tid>)" for a thread row
 * (the name alone when it is "Thread <tid>"), or "<process name> (<pid>)"
 * for a process row. */
void         et_layout_row_label     (EtLayout    *layout,
                                      const EtRow *row,
                                      GString     *out);

/* ---- threads (et-layout-threads.c) ---- */

const EtLayoutThread *et_layout_get_thread (EtLayout *layout,
                                            guint     thread);
/* Collapsed, a thread's markers are merged into its header row. Unless
 * chosen, a thread with at most ET_LAYOUT_OPEN_SERIES channels is expanded
 * and the others collapsed. */
#define ET_LAYOUT_OPEN_SERIES 3
void         et_layout_set_thread_collapsed (EtLayout *layout,
                                             guint     thread,
                                             gboolean  collapsed);
gboolean     et_layout_get_thread_collapsed (EtLayout *layout,
                                             guint     thread);
/* -1 when the default decides, else the choice (TRUE: collapsed): what is
 * worth remembering. */
int          et_layout_get_thread_choice    (EtLayout *layout,
                                             guint     thread);
/* Sets the choice (-1, FALSE or TRUE as above) without laying out: for
 * many threads at once (remembered choices), then et_layout_update. */
void         et_layout_set_thread_choice    (EtLayout *layout,
                                             guint     thread,
                                             int       choice);
/* Every thread expanded or collapsed (a choice each), or back to the
 * default with @collapsed -1. */
void         et_layout_set_all_threads_collapsed (EtLayout *layout,
                                                  int       collapsed);
/* The header row of @thread, or NULL when it has none (its process is
 * collapsed, or it is empty and empty threads are hidden). */
const EtRow *et_layout_thread_row          (EtLayout *layout,
                                            guint     thread);
void         et_layout_set_thread_order    (EtLayout     *layout,
                                            EtThreadOrder order);
EtThreadOrder et_layout_get_thread_order   (EtLayout     *layout);
/* Threads without shown markers get a header too (default: hidden). */
void         et_layout_set_show_empty_threads (EtLayout *layout,
                                               gboolean  show);
gboolean     et_layout_get_show_empty_threads (EtLayout *layout);
/* The depths (as et_trace_channel_depth_mask) of the merged row of @thread:
 * its shown channels' together. */
guint64      et_layout_thread_depths       (EtLayout *layout,
                                            guint     thread);
/* Whether @channel's markers are drawn merged in its thread's row. */
gboolean     et_layout_channel_merged      (EtLayout *layout,
                                            guint     channel);
/* Expands what hides @channel's own row (its process and its thread), or
 * with @channel G_MAXUINT only @thread's process; lays out again. */
/* Whether @thread gets a row once its process is open (it has shown
 * markers, or it ran in a process that has, or empty threads are shown;
 * with only threads active in view: it has markers, whose time the view
 * can go to). A thread that does not cannot be gone to. */
gboolean     et_layout_thread_listed       (EtLayout *layout,
                                            guint     thread);
void         et_layout_reveal              (EtLayout *layout,
                                            guint     thread,
                                            guint     channel);
/* The thread's rows first in its process, and its process first of all. */
void         et_layout_move_thread_to_top  (EtLayout *layout,
                                            guint     thread);
/* The index of @row (a pointer et_layout_row gave) in the rows. */
guint        et_layout_row_index           (EtLayout    *layout,
                                            const EtRow *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtLayout, et_layout_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtLayoutFilter, et_layout_filter_free)

G_END_DECLS
