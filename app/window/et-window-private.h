/* et-window-private.h — what et-window.c and et-window-actions.c share. */
#pragma once

#include "et-window.h"
#include "et-loader.h"
#include "et-search.h"
#include "et-timeline-view.h"
#include "et-details-pane.h"
#include "et-filter-popover.h"
#include "et-legend-popover.h"
#include "et-bookmarks.h"
#include "et-overview-strip.h"
#include "et-stats-pane.h"
#include "et-call-tree-pane.h"
#include "et-sample-marks.h"

struct _EtWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkLabel          *title_label;
  GtkLabel          *subtitle_label;
  GtkStack          *stack;
  GtkLabel          *loading_label;
  GtkProgressBar    *progress;
  GtkInfoBar        *damage_bar;
  GtkWidget         *damage_button; /* Show Problems, once made */
  GtkLabel          *damage_label;
  GtkInfoBar        *threads_bar;  /* a trace of many threads: what helps with them */
  GtkLabel          *threads_label;
  GtkLabel          *error_label;
  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkLabel          *search_status;
  GtkToggleButton   *search_button;
  EtTimelineView    *timeline;
  GtkWidget         *empty_state;  /* over the timeline when the trace has no markers */
  GtkLabel          *empty_label;
  GtkWidget         *empty_button;
  EtMarkersList     *markers;
  GtkNotebook       *reports;      /* the Markers and Statistics reports */
  EtStatsPane       *stats;
  EtCallTreePane    *call_tree;    /* the CPU samples' call tree of the range or span */
  EtSampleMarks     *sample_marks; /* its chosen frame's samples, over the timeline */
  EtDetailsPane     *details;
  EtFilterPopover   *filters;
  GtkMenuButton     *legend_button;
  EtLegendPopover   *legend;
  EtOverviewStrip   *overview;     /* the whole trace over the timeline */
  GMenu             *recent_menu;
  GMenu             *bookmarks_menu;
  EtBookmarks       *bookmarks;    /* the trace's marked times */

  GSettings         *settings;     /* NULL when the schema is not installed */
  char              *path;
  EtLoadFlags        load_flags;
  EtLoader          *loader;
  GCancellable      *cancellable;  /* of the load in progress */
  EtTrace           *trace;
  EtLayout          *layout;
  guint              shown_serial;  /* the layout's when the list last followed it */
  gboolean           threads_dismissed; /* the threads bar closed for this trace */
  guint              threads_with_markers; /* of the trace shown */
  GStrv              shown_extra;  /* non-default providers ticked (kept over reloads) */
  char              *status;       /* the last error or damage message */
  guint              list_idle;
  gint64             range[2];     /* the last range selected on the ruler */

  GCancellable      *search_cancellable;
  GArray            *matches;      /* EtMarkerRef, time order; NULL: no search */
  guint              match;        /* the current one, or G_MAXUINT */
};

/* et-window-actions.c */
void _et_window_add_actions          (EtWindow *self);
void _et_window_update_actions       (EtWindow *self);
void _et_window_refresh_bookmarks (EtWindow *self);
void _et_window_refresh_recent       (EtWindow *self);
/* The Bookmarks menu and the timeline's lines, from self->bookmarks. */
void _et_window_refresh_bookmarks    (EtWindow *self);
void _et_window_search_clear         (EtWindow *self);
void _et_window_bind_search_callbacks (GtkWidgetClass *widget_class);
/* et-window-messages.c: a file that cannot be opened, said in words
 * (transfer full); the damage banner and its list of problems. */
char *_et_window_open_error_text    (const char   *path,
                                     const GError *error);
void  _et_window_show_damage        (EtWindow     *self);
void  _et_window_damage_response    (EtWindow     *self,
                                     int           response);
/* Every kept problem of @trace's damage, one a line (transfer full). */
char *_et_window_damage_list        (EtTrace      *trace);

/* et-window-bookmarks.c: the Bookmarks menu (a submenu per time: go
 * there, name it, remove it), win.remove-bookmark and win.rename-bookmark. */
void _et_window_add_bookmark_actions (EtWindow *self);
/* Names the bookmark at @t_ns (empty: no name), saves, refreshes. */
void _et_window_name_bookmark       (EtWindow   *self,
                                     gint64      t_ns,
                                     const char *name);
/* et-window-actions.c: a bookmark that could not be saved, said. */
void _et_window_bookmark_error      (EtWindow     *self,
                                     const GError *error);

/* et-window-keys.c: the timeline's plain keys from anywhere in the window. */
void _et_window_add_plain_keys      (EtWindow *self);

/* et-window.c */
void _et_window_reload_all_providers (EtWindow *self);
void _et_window_update_threads_bar  (EtWindow *self);
