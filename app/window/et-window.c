/* et-window.c — the trace window.
 *
 *   path ─ EtLoader (GTask thread, progress on the main loop) ─ EtTrace
 *        ─ EtLayout (render/) ─ EtTimelineView ─ selection ─ EtDetailsPane
 *                                             └─ visible range ─ EtMarkersList
 *   EtFilterPopover ─ layout filters ─ timeline + list
 *
 * Commands live in et-window-actions.c; drawing lives in render/, hosted
 * by et-timeline-view.c.
 */
#include "et-window-private.h"
#include "et-app-resources.h"
#include "et-application.h"
#include "et-i18n.h"
#include "et-release.h"
#include "et-workers.h"

#include <glib/gstdio.h>

G_DEFINE_FINAL_TYPE (EtWindow, et_window, GTK_TYPE_APPLICATION_WINDOW)


/* ---- following the view ------------------------------------------------- */

static gboolean
update_list (gpointer data)
{
  EtWindow *self = data;
  EtViewport *v = et_timeline_view_get_viewport (self->timeline);
  gint64 from = v->from_ns, to = v->to_ns;

  self->list_idle = 0;
  /* A range selected on the ruler, else what is in view, within the trace
   * (the whole trace's view has a margin before its start). */
  et_timeline_view_get_range (self->timeline, &from, &to);
  from = MAX (from, 0);
  to = MIN (to, et_trace_get_duration_ns (self->trace));
  et_markers_list_set_range (self->markers, from, to);
  et_stats_pane_set_range (self->stats, from, to);
  et_call_tree_pane_set_range (self->call_tree, from, to);
  return G_SOURCE_REMOVE;
}

/* The list follows the visible range a moment after the view stops
 * changing (each change restarts the wait), so zooming and panning never
 * pay for it on the way. */
static void
queue_list_update (EtWindow *self)
{
  if (self->trace == NULL)
    return;
  g_clear_handle_id (&self->list_idle, g_source_remove);
  self->list_idle = g_timeout_add (150, update_list, self);
}

/* A new range dragged on the ruler brings up its statistics. */
static void
on_range_changed (EtTimelineView *timeline, gpointer data)
{
  EtWindow *self = data;
  gint64 from, to;

  if (et_timeline_view_get_range (timeline, &from, &to)
      && (from != self->range[0] || to != self->range[1]))
    {
      self->range[0] = from;
      self->range[1] = to;
      gtk_notebook_set_current_page (self->reports,
                                     gtk_notebook_page_num (self->reports, GTK_WIDGET (self->stats)));
    }
  /* The overview's box follows the view at once; the report a moment later. */
  gtk_widget_queue_draw (GTK_WIDGET (self->overview));
  queue_list_update (self);
}

/* Spans chosen on a duration histogram: listed in the Markers report
 * (Tracy's "find zone"), which comes to the front. */
static void
on_find_spans (EtStatsPane *stats, guint provider, guint series, gint64 min_ns, gint64 max_ns,
               gpointer data)
{
  EtWindow *self = data;
  EtMarkersZone zone = { TRUE, (guint16) provider, series, min_ns, max_ns };

  et_markers_list_set_zone (self->markers, &zone);
  gtk_notebook_set_current_page (self->reports,
                                 gtk_notebook_page_num (self->reports, GTK_WIDGET (self->markers)));
}

/* A Statistics span row's call tree: the samples of its spans' threads
 * during them, in the Call Tree, which comes to the front. */
static void
on_open_call_tree (EtStatsPane *stats, GArray *ranges, const char *scope, gpointer data)
{
  EtWindow *self = data;

  et_call_tree_pane_set_spans (self->call_tree, ranges, scope);
  gtk_notebook_set_current_page (self->reports,
                                 gtk_notebook_page_num (self->reports, GTK_WIDGET (self->call_tree)));
}

static void
on_overview_seek (EtOverviewStrip *overview, gint64 t_ns, gpointer data)
{
  et_timeline_view_center_on (ET_WINDOW (data)->timeline, t_ns);
}

/* A selected span's samples (its thread, its time) in the Call Tree; any
 * other selection gives it back the range (of the marker's thread only,
 * when the pane's check says so). */
static void
show_span_call_tree (EtWindow *self, const EtShape *shape)
{
  guint thread = shape != NULL && shape->kind != ET_SHAPE_AGGREGATE
                 ? et_trace_channel_thread (self->trace, shape->channel) : ET_NO_INDEX;

  et_call_tree_pane_set_marker_thread (self->call_tree, thread != ET_NO_INDEX ? (gint) thread : -1);
  if (thread != ET_NO_INDEX && shape->m->kind == ET_MARKER_SPAN
      && shape->m->end_ns > shape->m->start_ns)
    et_call_tree_pane_set_span (self->call_tree, thread, shape->m->start_ns, shape->m->end_ns);
  else
    et_call_tree_pane_clear_span (self->call_tree);
}

/* A frame chosen in the Call Tree: its samples marked on the CPU bands. */
static void
on_frame_chosen (EtCallTreePane *pane, guint symbol, gpointer data)
{
  EtWindow *self = data;

  if (self->sample_marks == NULL)
    return;                             /* (a view's first cursor, while the window is built) */
  et_sample_marks_set_frame (self->sample_marks,
                             symbol == G_MAXUINT ? ET_SAMPLE_MARKS_NONE : (guint32) symbol);
}

static void
on_selection_changed (EtTimelineView *timeline, gpointer data)
{
  EtWindow *self = data;
  EtShape shape;
  gboolean selected = et_timeline_view_get_selection (timeline, &shape);

  et_details_pane_show (self->details, self->trace, selected ? &shape : NULL);
  show_span_call_tree (self, selected ? &shape : NULL);
  /* One selection, shown the same everywhere: nothing (or a grey mark of
   * several) leaves no report row chosen. */
  if (selected && shape.kind != ET_SHAPE_AGGREGATE)
    et_markers_list_show_marker (self->markers, shape.channel, shape.marker);
  else
    et_markers_list_show_marker (self->markers, G_MAXUINT, 0);
  _et_window_update_actions (self);
}

/* Escape (no range on the ruler): the report's duration filter ends
 * before the selection does. */
static gboolean
on_timeline_escape (EtTimelineView *timeline, gpointer data)
{
  EtWindow *self = data;

  if (et_markers_list_get_zone (self->markers) == NULL)
    return FALSE;
  et_markers_list_set_zone (self->markers, NULL);
  return TRUE;
}

static void
on_list_marker_selected (EtMarkersList *list, guint channel, guint index, gpointer data)
{
  et_window_reveal_marker (data, channel, index);
}

/* Rows or filters changed: the list follows at once. */
static void
refresh_list_now (EtWindow *self)
{
  g_clear_handle_id (&self->list_idle, g_source_remove);
  update_list (self);
}

static void
on_filters_changed (EtFilterPopover *filters, gpointer data)
{
  EtWindow *self = data;

  et_layout_update (self->layout, et_timeline_view_get_viewport (self->timeline)->lane_height);
  et_timeline_view_layout_changed (self->timeline);
  et_overview_strip_refresh (self->overview);
  refresh_list_now (self);
}

static gulong
plural (guint64 n)
{
  return (gulong) MIN (n, G_MAXULONG);
}

/* From this many threads with markers, a trace opens with a bar that
 * offers compact rows and only threads active in view. */
#define MANY_THREADS 1000

/* The bar for a trace of many threads: shown while neither of what it
 * offers is on. */
void
_et_window_update_threads_bar (EtWindow *self)
{
  guint threads = self->threads_with_markers;
  gboolean wanted;

  wanted = threads >= MANY_THREADS && self->layout != NULL
           && !et_timeline_view_get_compact (self->timeline)
           && !et_layout_get_active_only (self->layout);
  if (wanted)
    {
      g_autoptr(GString) count = g_string_new (NULL);
      g_autofree char *text = NULL;

      et_i18n_count (threads, count);
      /* Translators: %s is a number already grouped for the locale. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "This trace has %s thread with markers. Compact rows "
                                           "fit three times as many on a screen; only the threads "
                                           "active in view are those of the time you look at.",
                                           "This trace has %s threads with markers. Compact rows "
                                           "fit three times as many on a screen; only the threads "
                                           "active in view are those of the time you look at.",
                                           plural (threads)),
                              count->str);
      gtk_label_set_text (self->threads_label, text);
    }
  if (!wanted || !self->threads_dismissed)
    gtk_info_bar_set_revealed (self->threads_bar, wanted);
}

static void
on_threads_bar_response (GtkInfoBar *bar, int response, gpointer data)
{
  EtWindow *self = data;

  self->threads_dismissed = TRUE;
  gtk_info_bar_set_revealed (bar, FALSE);
}

/* Rows changed: the overview and the list follow when the channels shown
 * did (not when rows only opened, closed or moved: a click on a thread of
 * 15,000 looked at every channel's markers again). */
static void
on_channels_changed (EtTimelineView *timeline, gpointer data)
{
  EtWindow *self = data;

  _et_window_update_threads_bar (self);
  if (self->layout != NULL && et_layout_get_shown_serial (self->layout) == self->shown_serial)
    return;
  self->shown_serial = self->layout != NULL ? et_layout_get_shown_serial (self->layout) : 0;
  et_overview_strip_refresh (self->overview);
  refresh_list_now (self);
}

static void
on_reload_needed (EtFilterPopover *filters, gpointer data)
{
  _et_window_reload_all_providers (data);
}

static void
on_damage_bar_response (GtkInfoBar *bar, int response, gpointer data)
{
  _et_window_damage_response (ET_WINDOW (data), response);
}

/* ---- loading -------------------------------------------------------------- */

static void
set_subtitle (EtWindow *self, const char *text)
{
  gtk_label_set_text (self->subtitle_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), text != NULL && *text != '\0');
}

static void
set_status (EtWindow *self, const char *text)
{
  g_free (self->status);
  self->status = g_strdup (text ? text : "");
}

static gboolean
showing_preview (EtWindow *self)
{
  return self->trace != NULL && et_trace_get_stats (self->trace)->preview_events > 0;
}

/* The subtitle of a first look: how much of the trace it shows, and how
 * far the complete load has come (@percent < 0: not loading). */
static void
set_preview_subtitle (EtWindow *self, int percent)
{
  const EtTraceStats *stats = et_trace_get_stats (self->trace);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) shown = g_string_new (NULL), all = g_string_new (NULL);

  /* Translators: a large trace opens with the markers of its first events,
   * "First look: markers of the first 1,000,000 of 10,000,075 events". */
  et_i18n_count (stats->preview_events, shown);
  et_i18n_count (stats->records, all);
  g_string_printf (text, _("First look: markers of the first %s of %s events"), shown->str,
                   all->str);
  if (percent >= 0)
    {
      g_string_append (text, " · ");
      /* Translators: the complete trace is loading behind the first look. */
      g_string_append_printf (text, _("loading the rest: %d %%"), percent);
    }
  set_subtitle (self, text->str);
}

/* The bar's words for @done of @total of the phase the loader is in. */
static char *
progress_text (EtLoadPhase phase, guint64 done, guint64 total)
{
  g_autoptr(GString) d = g_string_new (NULL), t = g_string_new (NULL);

  if (phase == ET_LOAD_PHASE_READING)
    {
      g_autofree char *done_text = g_format_size (done);
      g_autofree char *total_text = g_format_size (total);

      /* Translators: loading progress, "12.3 MB of 40.0 MB" */
      return g_strdup_printf (_("%s of %s"), done_text, total_text);
    }
  if (phase == ET_LOAD_PHASE_LAYOUT)
    /* Translators: the last loading phase, "laying out threads: 40 %" */
    return g_strdup_printf (_("laying out threads: %d %%"),
                            total ? (int) (100 * done / total) : 100);
  et_i18n_count (done, d);
  et_i18n_count (total, t);
  if (phase == ET_LOAD_PHASE_DECODING)
    /* Translators: a loading phase, "decoding events: 400,000 of 1,000,000" */
    return g_strdup_printf (_("decoding events: %s of %s"), d->str, t->str);
  /* Translators: a loading phase; a span's start and end are two events,
   * "pairing spans: 200,000 of 500,000 starts and ends" */
  return g_strdup_printf (_("pairing spans: %s of %s starts and ends"), d->str, t->str);
}

/* Each phase with its own progress, counted by the model where the work
 * is done: the file's bytes, the events decoded, the spans' starts and
 * ends paired, the markers laid out into the threads' channels. */
static void
on_progress (EtLoader *loader, guint64 done, guint64 total, gpointer data)
{
  EtWindow *self = data;
  EtLoadPhase phase = et_loader_get_phase (loader);
  g_autofree char *text = progress_text (phase, done, total);

  if (loader != self->loader)
    return;
  /* Nothing to do in a phase (no spans) is as good as done. */
  gtk_progress_bar_set_text (self->progress, text);
  gtk_progress_bar_set_fraction (self->progress, total ? (double) done / (double) total : 1.0);
  if (showing_preview (self) && phase == ET_LOAD_PHASE_READING)
    set_preview_subtitle (self, total ? (int) (100.0 * (double) done / (double) total) : 0);
}

/* Each phase of loading by its name, its bar from empty. */
static void
on_phase (EtLoader *loader, guint phase, gpointer data)
{
  EtWindow *self = data;
  g_autofree char *base = g_path_get_basename (self->path);
  g_autofree char *label = NULL;
  const char *words;

  /* A phase told after its load ended (the result may come first). */
  if (loader != self->loader)
    return;
  if (phase == ET_LOAD_PHASE_DECODING)
    {
      /* Translators: a loading phase, after the file's bytes are read. */
      words = _("decoding events");
      label = g_strdup_printf (_("Decoding the events of %s…"), base);
    }
  else if (phase == ET_LOAD_PHASE_PAIRING)
    {
      /* Translators: a loading phase: span starts matched with their ends. */
      words = _("pairing spans");
      label = g_strdup_printf (_("Pairing the spans of %s…"), base);
    }
  else
    {
      /* Translators: the last loading phase. */
      words = _("laying out threads");
      label = g_strdup_printf (_("Laying out the threads of %s…"), base);
    }
  gtk_label_set_text (self->loading_label, label);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_progress_bar_set_text (self->progress, words);
  if (showing_preview (self))
    {
      g_autofree char *subtitle = g_strdup_printf ("%s · %s", gtk_label_get_text (self->subtitle_label),
                                                   words);

      set_preview_subtitle (self, -1);
      set_subtitle (self, subtitle);
    }
}

/* A file that cannot be read: said once. An empty window says it on its
 * own page (no dialog on top), under its own name, not the file's; a
 * window that still shows a trace keeps it and says it in a dialog. */
static void
show_error (EtWindow *self, const GError *error)
{
  GtkWidget *dialog;
  g_autofree char *text = _et_window_open_error_text (self->path, error);

  set_status (self, text);
  if (self->trace == NULL)
    {
      gtk_label_set_text (self->error_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      gtk_window_set_title (GTK_WINDOW (self), "Etlscope");
      gtk_label_set_text (self->title_label, "Etlscope");
      set_subtitle (self, NULL);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "timeline");
  {
    g_autofree char *base = g_path_get_basename (et_trace_get_path (self->trace));

    gtk_window_set_title (GTK_WINDOW (self), base);
    gtk_label_set_text (self->title_label, base);
  }
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                   _("This file cannot be opened as a trace"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", text);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The providers whose events are not markers by default (@off, by
 * index, most events first) and their events. */
static guint64
providers_off (EtTrace *trace, GArray *off)
{
  guint64 n = 0;

  for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
    {
      const EtProvider *provider = et_trace_get_provider (trace, p);
      guint k = off->len;

      if (provider->default_on || provider->n_events == 0)
        continue;
      n += provider->n_events;
      while (k > 0 && et_trace_get_provider (trace, g_array_index (off, guint, k - 1))->n_events
                        < provider->n_events)
        k--;
      g_array_insert_val (off, k, p);
    }
  return n;
}

/* A trace without markers says so over the empty timeline, and offers
 * the events it has: the button reads it again with every provider on. */
static void
show_empty_state (EtWindow *self, EtTrace *trace)
{
  g_autoptr(GArray) off = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) count = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  guint64 n_off = providers_off (trace, off);
  gboolean offer = n_off > 0 && !(self->load_flags & ET_LOAD_ALL_PROVIDERS);

  gtk_widget_set_visible (self->empty_state, et_trace_get_stats (trace)->markers == 0);
  gtk_widget_set_visible (self->empty_button, offer);
  if (!offer)
    {
      gtk_label_set_text (self->empty_label, _("This trace has no events that make markers."));
      return;
    }
  et_i18n_count (n_off, count);
  /* Translators: %s is a number already grouped for the locale; these
   * events' providers are named next. */
  g_string_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                      "This trace has %s event and no EventSource markers.",
                                      "This trace has %s events and no EventSource markers.",
                                      plural (n_off)), count->str);
  g_string_append (text, "\n\n");
  for (guint i = 0; i < MIN (off->len, 3); i++)
    {
      const EtProvider *p = et_trace_get_provider (trace, g_array_index (off, guint, i));
      char guid[ET_GUID_STRING_LEN];

      et_guid_to_string (&p->guid, guid);
      g_string_truncate (count, 0);
      et_i18n_count (p->n_events, count);
      /* Translators: a provider and its events in the empty timeline's
       * list, "Microsoft-Windows-Kernel-Process: 69 events"; the second %s
       * is a number already grouped for the locale. */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s: %s event",
                                                 "%s: %s events", plural (p->n_events)),
                              *p->name ? p->name : guid, count->str);
      g_string_append_c (text, '\n');
    }
  if (off->len > 3)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "and %u other provider",
                                               "and %u other providers", off->len - 3),
                            off->len - 3);
  g_strchomp (text->str);
  gtk_label_set_text (self->empty_label, text->str);
}

/* @layout: the trace's first layout, made on the loading thread (taken). */
static void
show_trace (EtWindow *self, EtTrace *trace, EtLayout *layout)
{
  /* Every widget lets go of the trace shown so far; this reference is its
   * last, released on a thread at the end. */
  EtTrace *old = self->trace != NULL ? g_object_ref (self->trace) : NULL;
  const EtTraceStats *stats = et_trace_get_stats (trace);
  g_autoptr(GString) subtitle = g_string_new (NULL);
  g_autoptr(GString) records = g_string_new (NULL);
  g_autoptr(GString) markers = g_string_new (NULL);
  /* The complete trace replacing its first look keeps the view. */
  gboolean keep_view = showing_preview (self)
                       && g_strcmp0 (et_trace_get_path (self->trace), et_trace_get_path (trace)) == 0;
  EtViewport saved = *et_timeline_view_get_viewport (self->timeline);

  et_timeline_view_set_trace (self->timeline, NULL, NULL);
  et_overview_strip_set_trace (self->overview, NULL, NULL, NULL);
  et_markers_list_set_trace (self->markers, NULL, NULL);
  et_stats_pane_set_trace (self->stats, NULL, NULL);
  et_call_tree_pane_set_trace (self->call_tree, NULL);
  et_sample_marks_set_trace (self->sample_marks, NULL, NULL, NULL);
  g_clear_pointer (&self->layout, et_layout_free);
  g_clear_object (&self->trace);
  self->trace = trace;
  self->layout = layout;
  self->shown_serial = G_MAXUINT;       /* the list follows the new layout's first change */
  self->threads_dismissed = FALSE;
  self->threads_with_markers = 0;       /* counted once: the bar is asked at every layout change */
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    self->threads_with_markers += et_trace_get_thread (trace, t)->n_channels > 0;
  /* The filters and the remembered threads are restored before the
   * timeline lays the rows out for its lanes: once, not per switch. */
  et_layout_freeze (self->layout);
  et_filter_popover_set_trace (self->filters, trace, self->layout,
                               (const char * const *) self->shown_extra);
  et_markers_list_set_trace (self->markers, trace, self->layout);
  et_stats_pane_set_trace (self->stats, trace, self->layout);
  et_call_tree_pane_set_trace (self->call_tree, trace);
  et_sample_marks_set_trace (self->sample_marks, self->timeline, trace, self->layout);
  et_timeline_view_set_trace (self->timeline, trace, self->layout);
  et_layout_thaw (self->layout);
  et_overview_strip_set_trace (self->overview, trace, self->layout,
                               et_timeline_view_get_viewport (self->timeline));
  g_clear_pointer (&self->bookmarks, et_bookmarks_free);
  self->bookmarks = et_bookmarks_load (et_trace_get_path (trace));
  _et_window_refresh_bookmarks (self);
  if (keep_view)
    {
      EtViewport *view = et_timeline_view_get_viewport (self->timeline);
      view->from_ns = saved.from_ns;
      view->to_ns = saved.to_ns;
      view->scroll_y = saved.scroll_y;
      et_timeline_view_layout_changed (self->timeline);
    }
  et_i18n_count (stats->records, records);
  et_i18n_count (stats->markers, markers);
  /* Translators: the window subtitle, "120,345 events · 2,081 markers · 3 s";
   * %s is a number already grouped for the locale. */
  g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events",
                                                 plural (stats->records)), records->str);
  g_string_append (subtitle, " · ");
  g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, "%s marker", "%s markers",
                                                 plural (stats->markers)), markers->str);
  g_string_append (subtitle, " · ");
  et_format_duration_display (et_trace_get_duration_ns (trace), subtitle);
  set_subtitle (self, subtitle->str);
  if (stats->preview_events > 0)
    set_preview_subtitle (self, -1);
  _et_window_show_damage (self);
  show_empty_state (self, trace);
  _et_window_update_threads_bar (self);
  gtk_stack_set_visible_child_name (self->stack, "timeline");
  et_details_pane_show (self->details, trace, NULL);
  g_clear_handle_id (&self->list_idle, g_source_remove);
  update_list (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
  if (old != NULL)
    et_release_in_background (old, g_object_unref);   /* its file unmapped */
}

static void start_complete_load (EtWindow *self);

static void
loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtWindow) self = data;
  g_autoptr(GError) error = NULL;
  EtTrace *trace = et_loader_load_finish (ET_LOADER (source), result, &error);
  EtLayout *layout = et_loader_take_layout (ET_LOADER (source));

  if (ET_LOADER (source) != self->loader)
    {
      g_clear_object (&trace);     /* a load that was replaced by another */
      g_clear_pointer (&layout, et_layout_free);
      return;
    }
  g_clear_object (&self->loader);
  g_clear_object (&self->cancellable);
  _et_window_update_actions (self);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      set_status (self, _("Loading was cancelled."));
      gtk_stack_set_visible_child_name (self->stack, self->trace ? "timeline" : "empty");
      return;
    }
  if (trace == NULL)
    show_error (self, error);
  else
    show_trace (self, trace, layout);
  /* Again, now that the trace is there: Export and Find need it. */
  _et_window_update_actions (self);
  if (trace != NULL && et_trace_get_stats (trace)->preview_events > 0)
    start_complete_load (self);
}

/* Files at least this large open with a first look (ET_LOAD_PREVIEW) while
 * the complete trace loads; ETLSCOPE_PREVIEW_BYTES overrides it (tests). */
static gboolean
wants_preview (EtWindow *self)
{
  const char *forced = g_getenv ("ETLSCOPE_PREVIEW_BYTES");
  guint64 threshold = forced ? g_ascii_strtoull (forced, NULL, 10) : 256 * 1024 * 1024;
  GStatBuf st;

  return g_stat (self->path, &st) == 0 && (guint64) st.st_size >= threshold;
}

static void
run_loader (EtWindow *self, EtLoadFlags flags)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  self->cancellable = g_cancellable_new ();
  self->loader = et_loader_new (self->path, flags);
  g_signal_connect_object (self->loader, "progress", G_CALLBACK (on_progress), self, 0);
  g_signal_connect_object (self->loader, "phase", G_CALLBACK (on_phase), self, 0);
  et_loader_load_async (self->loader, self->cancellable, loaded, g_object_ref (self));
  _et_window_update_actions (self);
}

/* Behind a first look: the whole trace, shown in its place when ready. */
static void
start_complete_load (EtWindow *self)
{
  run_loader (self, self->load_flags);
  set_preview_subtitle (self, 0);
}

static void
start_load (EtWindow *self)
{
  g_autofree char *base = g_path_get_basename (self->path);
  g_autofree char *reading = g_strdup_printf (_("Reading %s…"), base);

  gtk_label_set_text (self->loading_label, reading);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_progress_bar_set_text (self->progress, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_info_bar_set_revealed (self->damage_bar, FALSE);
  gtk_info_bar_set_revealed (self->threads_bar, FALSE);
  set_status (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  run_loader (self, self->load_flags | (wants_preview (self) ? ET_LOAD_PREVIEW : 0));
}

void
et_window_load (EtWindow *self, const char *path)
{
  g_autofree char *base = NULL;

  g_return_if_fail (ET_IS_WINDOW (self));
  g_return_if_fail (path != NULL);
  base = g_path_get_basename (path);
  g_free (self->path);
  self->path = g_strdup (path);
  g_clear_pointer (&self->shown_extra, g_strfreev);
  self->load_flags = ET_LOAD_DEFAULT;
  gtk_window_set_title (GTK_WINDOW (self), base);
  gtk_label_set_text (self->title_label, base);
  set_subtitle (self, NULL);
  start_load (self);
}

/* A provider whose events are not markers by default was ticked: read the
 * file again with every provider's markers, keeping the ticks. */
void
_et_window_reload_all_providers (EtWindow *self)
{
  if (self->path == NULL || (self->load_flags & ET_LOAD_ALL_PROVIDERS))
    return;
  g_strfreev (self->shown_extra);
  self->shown_extra = et_filter_popover_dup_shown_extra (self->filters);
  self->load_flags |= ET_LOAD_ALL_PROVIDERS;
  start_load (self);
}

/* The empty timeline's button: every provider's events as markers, all
 * of them ticked in the filters. */
static void
on_empty_show_all (GtkButton *button, gpointer data)
{
  EtWindow *self = data;
  g_autoptr(GStrvBuilder) shown = g_strv_builder_new ();

  if (self->path == NULL || self->trace == NULL)
    return;
  for (guint p = 0; p < et_trace_get_n_providers (self->trace); p++)
    {
      const EtProvider *provider = et_trace_get_provider (self->trace, p);
      char guid[ET_GUID_STRING_LEN];

      et_guid_to_string (&provider->guid, guid);
      if (!provider->default_on)
        g_strv_builder_add (shown, guid);
    }
  g_strfreev (self->shown_extra);
  self->shown_extra = g_strv_builder_end (shown);
  self->load_flags |= ET_LOAD_ALL_PROVIDERS;
  start_load (self);
}

/* ---- construction ------------------------------------------------------- */

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer data)
{
  GdkFileList *list = g_value_get_boxed (value);
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (data)));

  for (GSList *l = gdk_file_list_get_files (list); l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  if (app == NULL || files->len == 0)
    return FALSE;
  g_application_open (app, (GFile **) files->pdata, (int) files->len, "");
  return TRUE;
}

/* A check item's action follows a preference changed elsewhere. */
static void
follow_preference (gpointer window, const char *action, gboolean on)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), action);

  if (state != NULL && g_variant_get_boolean (state) != on)
    g_action_group_change_action_state (G_ACTION_GROUP (window), action, g_variant_new_boolean (on));
}

static void
on_time_format_changed (GSettings *settings, const char *key, gpointer data)
{
  g_autofree char *format = g_settings_get_string (settings, key);

  follow_preference (data, "wall-clock", g_str_equal (format, "wall-clock"));
}

static void
on_compact_rows_changed (GSettings *settings, const char *key, gpointer data)
{
  follow_preference (data, "compact-rows", g_settings_get_boolean (settings, key));
}

static void
on_default_filters_changed (GSettings *settings, const char *key, gpointer data)
{
  et_filter_popover_apply_defaults (ET_WINDOW (data)->filters);
}

static void
restore_state (EtWindow *self)
{
  self->settings = et_application_settings_new ();
  if (self->settings == NULL)
    return;
  /* Preferences changed anywhere apply to every open window. */
  g_signal_connect_object (self->settings, "changed::time-format",
                           G_CALLBACK (on_time_format_changed), self, 0);
  g_signal_connect_object (self->settings, "changed::compact-rows",
                           G_CALLBACK (on_compact_rows_changed), self, 0);
  g_signal_connect_object (self->settings, "changed::min-importance",
                           G_CALLBACK (on_default_filters_changed), self, 0);
  g_signal_connect_object (self->settings, "changed::kinds",
                           G_CALLBACK (on_default_filters_changed), self, 0);
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static gboolean
on_close_request (GtkWindow *window, gpointer data)
{
  EtWindow *self = ET_WINDOW (window);
  int width, height;

  if (self->settings == NULL)
    return FALSE;
  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  return FALSE;
}

static void
et_window_init (EtWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->match = G_MAXUINT;
  self->status = g_strdup ("");
  restore_state (self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "timeline",
                                  et_timeline_view_get_actions (self->timeline));
  et_filter_popover_set_settings (self->filters, self->settings);
  et_legend_popover_set_viewport (self->legend, et_timeline_view_get_viewport (self->timeline));
  g_signal_connect (self->filters, "changed", G_CALLBACK (on_filters_changed), self);
  g_signal_connect (self->timeline, "escape", G_CALLBACK (on_timeline_escape), self);
  g_signal_connect (self->filters, "reload-needed", G_CALLBACK (on_reload_needed), self);
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  _et_window_add_actions (self);
  _et_window_add_plain_keys (self);
  _et_window_add_bookmark_actions (self);
  _et_window_refresh_recent (self);
  _et_window_refresh_bookmarks (self);
}

static void
et_window_dispose (GObject *object)
{
  EtWindow *self = ET_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  _et_window_search_clear (self);
  g_clear_handle_id (&self->list_idle, g_source_remove);
  if (self->timeline != NULL)
    et_timeline_view_set_trace (self->timeline, NULL, NULL);
  if (self->overview != NULL)
    et_overview_strip_set_trace (self->overview, NULL, NULL, NULL);
  if (self->markers != NULL)
    et_markers_list_set_trace (self->markers, NULL, NULL);
  if (self->stats != NULL)
    et_stats_pane_set_trace (self->stats, NULL, NULL);
  if (self->call_tree != NULL)
    et_call_tree_pane_set_trace (self->call_tree, NULL);
  if (self->sample_marks != NULL)
    et_sample_marks_set_trace (self->sample_marks, NULL, NULL, NULL);
  if (self->filters != NULL)
    et_filter_popover_set_trace (self->filters, NULL, NULL, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), ET_TYPE_WINDOW);
  g_clear_pointer (&self->layout, et_layout_free);
  g_clear_object (&self->trace);
  g_clear_object (&self->loader);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (et_window_parent_class)->dispose (object);
}

static void
et_window_finalize (GObject *object)
{
  EtWindow *self = ET_WINDOW (object);

  g_free (self->path);
  g_free (self->status);
  g_strfreev (self->shown_extra);
  g_clear_pointer (&self->bookmarks, et_bookmarks_free);
  G_OBJECT_CLASS (et_window_parent_class)->finalize (object);
}

static void
et_window_class_init (EtWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_window_dispose;
  G_OBJECT_CLASS (klass)->finalize = et_window_finalize;
  et_app_resources_ensure ();
  /* Windows live on the main thread: loading and searching, on every
   * core, leave it a core whenever its main loop has work. */
  et_workers_yield_to_this_thread ();
  g_type_ensure (ET_TYPE_TIMELINE_VIEW);
  g_type_ensure (ET_TYPE_MARKERS_LIST);
  g_type_ensure (ET_TYPE_STATS_PANE);
  g_type_ensure (ET_TYPE_CALL_TREE_PANE);
  g_type_ensure (ET_TYPE_SAMPLE_MARKS);
  g_type_ensure (ET_TYPE_DETAILS_PANE);
  g_type_ensure (ET_TYPE_FILTER_POPOVER);
  g_type_ensure (ET_TYPE_LEGEND_POPOVER);
  g_type_ensure (ET_TYPE_OVERVIEW_STRIP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-window.ui");
#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, EtWindow, name)
  CHILD (title_label); CHILD (subtitle_label); CHILD (stack); CHILD (loading_label);
  CHILD (progress); CHILD (damage_bar); CHILD (damage_label); CHILD (error_label);
  CHILD (threads_bar); CHILD (threads_label);
  CHILD (search_bar); CHILD (search_entry); CHILD (search_status); CHILD (search_button);
  CHILD (timeline); CHILD (markers); CHILD (reports); CHILD (stats); CHILD (details);
  CHILD (call_tree); CHILD (sample_marks);
  CHILD (empty_state); CHILD (empty_label); CHILD (empty_button);
  CHILD (filters); CHILD (recent_menu); CHILD (bookmarks_menu); CHILD (legend_button); CHILD (legend);
  CHILD (overview);
#undef CHILD
  gtk_widget_class_bind_template_callback (widget_class, on_damage_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, on_threads_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_frame_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_range_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_channels_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_list_marker_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_empty_show_all);
  gtk_widget_class_bind_template_callback (widget_class, on_overview_seek);
  gtk_widget_class_bind_template_callback (widget_class, on_find_spans);
  gtk_widget_class_bind_template_callback (widget_class, on_open_call_tree);
  _et_window_bind_search_callbacks (widget_class);
}

/* ---- public API ------------------------------------------------------------ */

EtWindow *
et_window_new (GtkApplication *app)
{
  return g_object_new (ET_TYPE_WINDOW, "application", app, NULL);
}

const char *
et_window_get_path (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->path;
}

EtTrace *
et_window_get_trace (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->trace;
}

gboolean
et_window_is_loading (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), FALSE);
  return self->loader != NULL;
}

gboolean
et_window_is_busy (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), FALSE);
  return self->loader != NULL || self->list_idle != 0 || self->search_cancellable != NULL
         || et_markers_list_is_busy (self->markers) || et_timeline_view_is_drawing (self->timeline)
         || et_stats_pane_is_busy (self->stats) || et_call_tree_pane_is_busy (self->call_tree)
         || et_details_pane_is_busy (self->details) || et_sample_marks_is_busy (self->sample_marks);
}

EtViewport *
et_window_get_viewport (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return et_timeline_view_get_viewport (self->timeline);
}

GtkInfoBar *
et_window_get_threads_bar (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->threads_bar;
}

EtLayout *
et_window_get_layout (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->layout;
}

gboolean
et_window_select_at (EtWindow *self, double x, double y)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), FALSE);
  return et_timeline_view_select_at (self->timeline, x, y);
}

void
et_window_set_provider_visible (EtWindow *self, guint provider, gboolean visible)
{
  g_return_if_fail (ET_IS_WINDOW (self));
  et_filter_popover_set_provider_visible (self->filters, provider, visible);
}

EtMarkersList *
et_window_get_markers_list (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->markers;
}

void
et_window_reveal_marker (EtWindow *self, guint channel, guint index)
{
  g_return_if_fail (ET_IS_WINDOW (self));
  et_timeline_view_reveal_marker (self->timeline, channel, index);
}

char *
et_window_get_details (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return et_details_pane_get_text (self->details);
}

const char *
et_window_get_status (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), NULL);
  return self->status;
}
