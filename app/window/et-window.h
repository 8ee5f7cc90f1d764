/* et-window.h — one window per trace: the timeline (et-timeline-view), the
 * Markers list under it, the details pane beside it, filters and search;
 * loading in the background (et-loader) with progress and Cancel. */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-viewport.h"
#include "et-layout.h"
#include "et-markers-list.h"

G_BEGIN_DECLS

#define ET_TYPE_WINDOW (et_window_get_type ())
G_DECLARE_FINAL_TYPE (EtWindow, et_window, ET, WINDOW, GtkApplicationWindow)

EtWindow   *et_window_new            (GtkApplication *app);
/* Starts loading @path (in a thread); the window shows progress. */
void        et_window_load           (EtWindow       *self,
                                      const char     *path);
const char *et_window_get_path       (EtWindow       *self);
/* NULL while loading or after a failure. */
EtTrace    *et_window_get_trace      (EtWindow       *self);
gboolean    et_window_is_loading     (EtWindow       *self);
/* TRUE while anything the window shows is still being brought up to date
 * (loading, the Markers report's refresh, a search, a timeline picture
 * drawn on a thread). */
gboolean    et_window_is_busy        (EtWindow       *self);
EtViewport *et_window_get_viewport   (EtWindow       *self);
EtLayout   *et_window_get_layout     (EtWindow       *self);
/* Selects what is at (x, y) of the timeline, as a click does. */
gboolean    et_window_select_at      (EtWindow       *self,
                                      double          x,
                                      double          y);
/* Ticks or unticks a provider in the filter popover, as a person would. */
void        et_window_set_provider_visible (EtWindow *self,
                                            guint     provider,
                                            gboolean  visible);
EtMarkersList *et_window_get_markers_list (EtWindow *self);
/* Brings a marker into view and selects it (what choosing it in the
 * Markers report does). */
void        et_window_reveal_marker  (EtWindow       *self,
                                      guint           channel,
                                      guint           index);
/* Searches marker texts and payload values (on a thread, as the search
 * bar does); the window then reveals the first match at or after the left
 * edge of the view and rings all of them. */
void        et_window_search         (EtWindow       *self,
                                      const char     *text);
gboolean    et_window_is_searching   (EtWindow       *self);
guint       et_window_get_n_matches  (EtWindow       *self);
/* The details pane's text (transfer full). */
char       *et_window_get_details    (EtWindow       *self);
/* The last load error or damage report, "" when none (transfer none). */
const char *et_window_get_status     (EtWindow       *self);
/* The bar a trace of many threads opens with (compact rows, only threads
 * active in view), revealed or not (for tests). */
GtkInfoBar *et_window_get_threads_bar (EtWindow      *self);
G_END_DECLS
