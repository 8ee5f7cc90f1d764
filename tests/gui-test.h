/* gui-test.h — what every GUI test (under Xvfb) needs: fixture traces
 * written by the fixture tool, a main loop run until something holds, a
 * window opened and loaded, actions, widgets found, screenshots.
 *
 * Include after <cmocka.h>: RUN_UNTIL asserts.
 */
#pragma once

#include <gtk/gtk.h>
#include "et-window.h"
#include "et-stats-pane.h"
#include "et-report-table.h"
#include "et-timeline-view.h"

/* The usual group set-up: GTK, a temporary folder (gui_dir) and the demo
 * trace written there (gui_demo_path); the teardown removes them. */
extern char *gui_dir;
extern char *gui_demo_path;
int        setup_demo       (void             **state);
int        teardown_demo    (void             **state);

/* Writes a fixture trace with the fixture tool (ET_FIXTURE_TOOL), as a
 * person would: @args are its arguments. */
gboolean   run_fixture_tool (const char *const *args);

/* Iterates the main loop until @cond holds. No time limit: a slow
 * machine only waits longer (meson's test timeout ends a real hang); every
 * 30 s it says on stderr what it is still waiting for. */
#define RUN_UNTIL(cond)                                               \
  G_STMT_START {                                                      \
    guint timer_ = g_timeout_add_seconds (30, still_waiting, (gpointer) #cond); \
    while (!(cond))                                                   \
      g_main_context_iteration (NULL, TRUE);                          \
    g_source_remove (timer_);                                         \
  } G_STMT_END

gboolean   still_waiting    (gpointer           what);
/* Handles every event already pending, without waiting for more. */
void       drain_events     (void);
/* Queues a frame of @widget and iterates until its frame clock has
 * painted it. */
void       wait_for_frame   (GtkWidget         *widget);
/* Until the window is idle and its timeline shows the picture it asks for,
 * painted in a frame. */
void       wait_for_picture (EtWindow          *window);
/* Destroys @window and handles what that set going. */
void       close_window     (EtWindow          *window);

/* The demo's web server (Contoso.WebServer.exe): its threads hold the
 * alerts, the crowded flags and the runs of short spans. */
#define DEMO_WEB_SERVER 4120
/* Scrolls the rows to process @pid's header (processes come by first
 * activity: the demo's jobs first), drawn. */
void       scroll_to_process (EtWindow         *window,
                              guint             pid);
/* Chooses the Statistics table's first span row of more than 10 spans
 * (its histogram opens); its index. */
guint      select_span_row   (EtStatsPane      *pane);
/* Writes a trace of one thread (SAMPLED_TID), unnamed in an unnamed
 * process (SAMPLED_PID), that ran (a CPU sample at 4 ms) and has no
 * markers; the trace ends at 10 ms. */
#define SAMPLED_PID 4120
#define SAMPLED_TID 4122
void       write_sampled_thread (const char    *path);
/* A window of 1400 × 860 with @path loaded and drawn, idle. */
EtWindow  *open_window      (const char        *path);
void       activate         (EtWindow          *window,
                             const char        *action);
/* The first widget of @type under @widget, depth first, or NULL. */
GtkWidget *find_widget      (GtkWidget         *widget,
                             GType              type);
/* The first button (not a check button) under @widget labelled @label,
 * depth first, or NULL. */
GtkWidget *find_button      (GtkWidget         *widget,
                             const char        *label);
/* The window's timeline and its Markers report's table. */
EtTimelineView *window_timeline (EtWindow       *window);
EtReportTable  *window_report   (EtWindow       *window);
/* A key pressed in the window as GTK sends it: the focused widget's key
 * handlers and bindings, then each widget's it is in, up to the window's
 * own; TRUE when one took it. */
gboolean   press_in_window  (EtWindow          *window,
                             guint              keyval);
/* Selects the first flag drawn on its own in view, by a click at its
 * centre; its shape. */
EtShape    click_a_flag     (EtWindow          *window);
/* The first label under @widget whose text holds @part, or NULL. */
GtkLabel  *find_label       (GtkWidget         *widget,
                             const char        *part);
/* Fails, saying both, unless @text holds @part. */
void       assert_says      (const char        *text,
                             const char        *part);
/* The first toplevel window of @type, or NULL. */
GtkWindow *find_toplevel    (GType              type);
/* Emits what a drag gesture of @widget emits for a drag from (@x, @y) by
 * @dx (on the timeline's ruler: a range selection). */
void       drag_on          (GtkWidget         *widget,
                             double             x,
                             double             y,
                             double             dx);
/* @node drawn at @widget's size, as pixels (B, G, R, A; rows of width
 * × 4 bytes). */
GBytes    *node_pixels      (GtkWidget         *widget,
                             GskRenderNode     *node);
/* What @widget shows now (its last frame), as pixels. */
GBytes    *widget_pixels    (GtkWidget         *widget);
/* Writes the window's content as drawn to the PNG file @name, in the
 * build folder's tests/output (ET_TEST_OUTPUT_DIR). */
void       save_screenshot  (EtWindow          *window,
                             const char        *name);
