/* et-layout-private.h — what et-layout.c and et-layout-threads.c share:
 * the layout's state. */
#pragma once

#include "et-layout.h"

/* Categories are a byte (cvCategory's low byte) or -1 for alerts. */
#define N_CATEGORIES 257

/* Everything that decides whether a marker is shown, in one copyable piece
 * (et_layout_filter_copy). */
struct _EtLayoutFilter
{
  EtImportance min_importance;
  guint        kinds;
  gboolean     category_hidden[N_CATEGORIES];   /* by category + 1 (alert is -1) */
  guint        n_hidden_categories;
  guint        n_providers;
  gboolean    *provider_hidden;
  guint        n_channels;
  gboolean    *channel_shown;                   /* has a row, collapsed or not */
};

struct _EtLayout
{
  EtTrace  *trace;
  gboolean *collapsed;   /* per process */
  guint64  *process_depths;   /* per process, after update: collapsed, its merged row's
                                 depths (et-layout-process.c) */
  GArray   *rows;        /* EtRow */
  gint     *row_of_channel;
  int       lane_height;
  int       height;
  EtLayoutFilter f;
  GHashTable *series_hidden;  /* series string ids */
  gboolean *provider_rows;    /* per provider: it has a channel */
  gboolean *channel_hidden;   /* per channel */
  gboolean *channel_collapsed;
  gint     *channel_rank;     /* "move to top": lower first, 0 in trace order */
  gint     *process_rank;
  gint      next_rank;
  /* Threads (et-layout-threads.c). */
  EtLayoutThread *threads;     /* per thread: lifetime and counts, from the markers */
  gint8    *thread_choice;     /* 0: the default, 1: expanded, 2: collapsed */
  gboolean *thread_merged;     /* per thread, after update: collapsed (the choice or
                                  the default) */
  guint64  *thread_depths;     /* per thread, after update: its shown channels' depths */
  guint    *thread_lanes;      /* per thread, after update: lanes of its merged row */
  gint     *thread_rank;
  gint     *row_of_thread;
  EtThreadOrder order;
  gboolean  show_empty;
  gboolean  compact;           /* merged threads in one lane (et_layout_set_compact) */
  /* What et_layout_update keeps from the last time unless these say it
   * changed: which channels are shown (and so the threads' merged depths
   * and lanes), and each process's threads in order. A click on a thread
   * of 15,000 then lays out only the rows. */
  gboolean  shown_stale;
  gboolean  order_stale;
  guint     shown_serial;      /* et_layout_get_shown_serial */
  gboolean  active_only;       /* et_layout_set_active_only */
  gint64    active_from, active_to;
  guint    *ordered;           /* thread indices, each process's in order */
  gboolean *listed;            /* per thread: in ordered (it gets a row) */
  guint    *ordered_at;        /* per process, where its threads begin in ordered;
                                  and the end */
  guint     frozen;            /* et_layout_freeze, not yet thawed */
  gboolean  stale;             /* a switch changed while frozen */
};

/* Lays the rows out again after a switch changed (at et_layout_thaw when
 * frozen). */
void     _et_layout_relayout      (EtLayout *l);
/* Whether thread @t has a row for the active range (et_layout_set_active_only). */
gboolean _et_layout_thread_active (EtLayout *l,
                                   guint     t);
/* Collapsed process @p's @header (the next row): its threads' shown
 * channels drawn in it, its lanes and height (et-layout-process.c). */
void     _et_layout_merge_process (EtLayout *l,
                                   guint     p,
                                   EtRow    *header);

/* The thread summaries and per-thread state (et-layout-threads.c). */
void     et_layout_threads_init   (EtLayout *l);
void     et_layout_threads_copy   (EtLayout *c,
                                   EtLayout *l);
void     et_layout_threads_free   (EtLayout *l);
/* Computes the per-thread state that depends on the filters: shown
 * channels' depths, lanes, and whether each is merged. */
void     et_layout_threads_update (EtLayout *l);
/* The threads of @process to lay out, in order (guint indices). */
GArray  *et_layout_process_threads (EtLayout        *l,
                                    const EtProcess *process);
/* Each process's threads in order into ordered (when order_stale). */
void     et_layout_order_threads   (EtLayout        *l);
/* Processes in the threads' order: a moved one first, then by their first
 * thread in that order (by first activity: the process that began first),
 * then in trace order. After et_layout_order_threads. */
int      et_layout_compare_processes (gconstpointer  a,
                                      gconstpointer  b,
                                      gpointer       layout);


