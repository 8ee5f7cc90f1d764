/* et-window-actions.c — the window's commands ("win." actions) and the
 * search bar. The view commands are the "timeline." actions of
 * et-timeline-view.c; accelerators are set in et-application.c.
 *
 *   win.open ─ GtkFileChooserNative ─ g_application_open (one window per file)
 *   win.find ─ search bar ─ et_trace_search (GTask thread) ─ matches[]
 *            ─ find-next / find-previous ─ et_timeline_view_reveal_marker
 */
#include "et-window-private.h"

#include <string.h>
#include <glib/gi18n.h>

static GtkWindow *
as_window (EtWindow *self)
{
  return GTK_WINDOW (self);
}

/* ---- opening ------------------------------------------------------------- */

static void
open_files (EtWindow *self, GFile **files, int n_files)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (as_window (self)));

  if (app != NULL)
    g_application_open (app, files, n_files, "");
  else if (n_files > 0)
    {
      /* A window without an application (tests): load here. */
      g_autofree char *path = g_file_get_path (files[0]);
      if (path != NULL)
        et_window_load (self, path);
    }
}

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  EtWindow *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GFile) folder = g_file_get_parent (file);
      g_autofree char *folder_path = folder ? g_file_get_path (folder) : NULL;

      if (self->settings != NULL && folder_path != NULL)
        g_settings_set_string (self->settings, "last-folder", folder_path);
      open_files (self, &file, 1);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) etl = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) nettrace = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  g_autofree char *last = self->settings ? g_settings_get_string (self->settings, "last-folder") : NULL;

  dialog = gtk_file_chooser_native_new (_("Open Trace"), as_window (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (etl, _("ETW traces (*.etl)"));
  gtk_file_filter_add_pattern (etl, "*.[eE][tT][lL]");
  gtk_file_filter_add_mime_type (etl, "application/x-etl");
  /* .NET's EventPipe traces, as dotnet-trace writes them on Linux and macOS */
  gtk_file_filter_set_name (nettrace, _("EventPipe traces (*.nettrace)"));
  gtk_file_filter_add_pattern (nettrace, "*.[nN][eE][tT][tT][rR][aA][cC][eE]");
  gtk_file_filter_add_mime_type (nettrace, "application/x-nettrace");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), etl);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), nettrace);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  if (last != NULL && *last != '\0')
    {
      g_autoptr(GFile) folder = g_file_new_for_path (last);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_recent_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  open_files (data, &file, 1);
}

static int
compare_recent (gconstpointer a, gconstpointer b)
{
  GDateTime *x = gtk_recent_info_get_modified (*(GtkRecentInfo **) a);
  GDateTime *y = gtk_recent_info_get_modified (*(GtkRecentInfo **) b);

  return g_date_time_compare (y, x);   /* newest first */
}

/* The "Open Recent" submenu: the ten newest .etl and .nettrace files GTK
 * remembers. */
void
_et_window_refresh_recent (EtWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GMenu) section = g_menu_new ();

  for (GList *l = items; l != NULL; l = l->next)
    if ((g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".etl")
         || g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".nettrace"))
        && gtk_recent_info_exists (l->data))
      g_ptr_array_add (traces, l->data);
  g_ptr_array_sort (traces, compare_recent);
  for (guint i = 0; i < MIN (traces->len, 10); i++)
    {
      g_autoptr(GMenuItem) item = NULL;

      item = g_menu_item_new (gtk_recent_info_get_display_name (traces->pdata[i]), NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s",
                                         gtk_recent_info_get_uri (traces->pdata[i]));
      g_menu_append_item (section, item);
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_menu_remove_all (self->recent_menu);
  if (traces->len == 0)
    g_menu_append (self->recent_menu, _("No recent traces"), "win.no-recent");
  else
    g_menu_append_section (self->recent_menu, NULL, G_MENU_MODEL (section));
}

/* ---- export ---------------------------------------------------------------- */

static void
on_export_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  EtWindow *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path != NULL && !et_markers_list_write_csv (self->markers, path, &error))
        {
          GtkWidget *message = gtk_message_dialog_new (as_window (self),
                                                       GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                       GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                       _("The markers could not be saved"));
          gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s",
                                                    error->message);
          g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
          gtk_window_present (GTK_WINDOW (message));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
export_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  GtkFileChooserNative *dialog;
  g_autofree char *base = g_path_get_basename (self->path);
  /* Only the extension goes: net.4.5.2.x64.etl and net.4.5.2.x86.etl
   * must not both export to net-markers.csv. */
  const char *dot = strrchr (base, '.');
  g_autofree char *stem = g_strndup (base, dot != NULL && dot != base ? (gsize) (dot - base)
                                                                      : strlen (base));
  /* Translators: default file name of a markers export; %s is the trace's name */
  g_autofree char *name = g_strdup_printf (_("%s-markers.csv"), stem);

  dialog = gtk_file_chooser_native_new (_("Export Markers"), as_window (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
set_enabled (EtWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/* ---- bookmarks ------------------------------------------------------------- */

/* The time M marks: the selected marker's, else the start of the range
 * selected on the ruler, else the middle of the view. */
static gint64
time_to_mark (EtWindow *self)
{
  EtShape shape;
  gint64 from, to;
  const EtViewport *v = et_timeline_view_get_viewport (self->timeline);

  if (et_timeline_view_get_selection (self->timeline, &shape) && shape.kind != ET_SHAPE_AGGREGATE)
    return shape.m->start_ns;
  if (et_timeline_view_get_range (self->timeline, &from, &to))
    return MIN (from, to);
  return v->from_ns + (v->to_ns - v->from_ns) / 2;
}

void
_et_window_bookmark_error (EtWindow *self, const GError *error)
{
  g_autofree char *text = g_strdup_printf (_("The bookmark could not be saved: %s"), error->message);

  /* Rare (neither beside the trace nor in the state folder): the status
   * line says it, the bookmark stays for this session. */
  g_free (self->status);
  self->status = g_steal_pointer (&text);
  gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
add_bookmark_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  g_autoptr(GError) error = NULL;

  if (self->bookmarks == NULL)
    return;
  if (!et_bookmarks_add (self->bookmarks, time_to_mark (self), &error))
    _et_window_bookmark_error (self, error);
  _et_window_refresh_bookmarks (self);
}

static void
clear_bookmarks_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  g_autoptr(GError) error = NULL;

  if (self->bookmarks != NULL && !et_bookmarks_clear (self->bookmarks, &error))
    _et_window_bookmark_error (self, error);
  _et_window_refresh_bookmarks (self);
}

static void
go_to_bookmark_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;

  if (self->trace != NULL)
    et_timeline_view_center_on (self->timeline, g_variant_get_int64 (parameter));
}

/* ---- view ------------------------------------------------------------------ */

/* Ctrl+L: the legend, or away with it. */
static void
show_legend_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;

  if (gtk_widget_get_visible (GTK_WIDGET (self->legend)))
    gtk_menu_button_popdown (self->legend_button);
  else
    gtk_menu_button_popup (self->legend_button);
}

/* Ctrl+K: the Call Tree of the range or the selected span, its tree focused. */
static void
show_call_tree_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;

  gtk_notebook_set_current_page (self->reports,
                                 gtk_notebook_page_num (self->reports, GTK_WIDGET (self->call_tree)));
  gtk_widget_grab_focus (GTK_WIDGET (et_call_tree_pane_get_view (self->call_tree, FALSE)));
}

static void
go_to_end_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  EtShape shape;

  if (et_timeline_view_get_selection (self->timeline, &shape)
      && shape.kind != ET_SHAPE_AGGREGATE && shape.m->kind == ET_MARKER_SPAN)
    et_timeline_view_center_on (self->timeline, shape.m->end_ns);
}

static void
wall_clock_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  EtWindow *self = data;
  gboolean wall_clock = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  et_timeline_view_set_wall_clock (self->timeline, wall_clock);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "time-format", wall_clock ? "wall-clock" : "relative");
}

static void
compact_rows_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  EtWindow *self = data;
  gboolean compact = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  et_timeline_view_set_compact (self->timeline, compact);
  _et_window_update_threads_bar (self);
  if (self->settings != NULL && g_settings_get_boolean (self->settings, "compact-rows") != compact)
    g_settings_set_boolean (self->settings, "compact-rows", compact);
}

static void
cancel_load_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* ---- search ------------------------------------------------------------------ */

void
_et_window_search_clear (EtWindow *self)
{
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->matches, g_array_unref);
  self->match = G_MAXUINT;
  if (self->timeline != NULL)
    et_timeline_view_set_highlights (self->timeline, NULL);
}

static gboolean
match_visible (EtWindow *self, const EtMarkerRef *ref)
{
  const EtMarker *m = &et_trace_get_channel (self->trace, ref->channel)->markers[ref->index];

  return et_layout_channel_shown (self->layout, ref->channel)
         && et_layout_marker_visible (self->layout, m);
}

static void
show_match_status (EtWindow *self)
{
  g_autofree char *text = NULL;

  if (self->matches == NULL)
    text = g_strdup ("");
  else if (self->matches->len == 0)
    text = g_strdup (_("No matches"));
  else if (self->match == G_MAXUINT)
    text = g_strdup_printf (ngettext ("%u match", "%u matches", self->matches->len),
                            self->matches->len);
  else
    /* Translators: search position, "3 of 120" */
    text = g_strdup_printf (_("%u of %u"), self->match + 1, self->matches->len);
  gtk_label_set_text (self->search_status, text);
}

/* Steps to the next (@step 1) or previous (-1) match that the filters let
 * through, wrapping around. */
static void
step_match (EtWindow *self, int step)
{
  guint n;

  if (self->matches == NULL || self->matches->len == 0)
    return;
  n = self->matches->len;
  for (guint tries = 0; tries < n; tries++)
    {
      if (self->match == G_MAXUINT)
        self->match = step > 0 ? 0 : n - 1;
      else
        self->match = (self->match + n + step) % n;
      if (match_visible (self, &g_array_index (self->matches, EtMarkerRef, self->match)))
        {
          const EtMarkerRef *ref = &g_array_index (self->matches, EtMarkerRef, self->match);
          et_timeline_view_reveal_marker (self->timeline, ref->channel, ref->index);
          break;
        }
    }
  show_match_status (self);
}

/* What a search found: the matches in time order, and the set of their
 * markers the timeline rings. Both are made on the searching thread: a
 * common word finds millions of markers. */
typedef struct
{
  GArray     *found;     /* EtMarkerRef */
  GHashTable *markers;   /* const EtMarker * */
} Found;

static void
found_free (Found *f)
{
  g_clear_pointer (&f->found, g_array_unref);
  g_clear_pointer (&f->markers, g_hash_table_unref);
  g_free (f);
}

static void
search_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  EtTrace *trace = g_task_get_task_data (task);
  const char *needle = g_object_get_data (G_OBJECT (task), "needle");
  GArray *found = et_trace_search (trace, needle, cancellable);
  Found *f;

  if (found == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return;
    }
  f = g_new0 (Found, 1);
  f->found = found;
  f->markers = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < found->len; i++)
    {
      const EtMarkerRef *r = &g_array_index (found, EtMarkerRef, i);
      g_hash_table_add (f->markers, (gpointer) &et_trace_get_channel (trace, r->channel)->markers[r->index]);
    }
  g_task_return_pointer (task, f, (GDestroyNotify) found_free);
}

static gint64
match_start (EtWindow *self, guint i)
{
  const EtMarkerRef *r = &g_array_index (self->matches, EtMarkerRef, i);
  return et_trace_get_channel (self->trace, r->channel)->markers[r->index].start_ns;
}

/* The first match at or after the left edge of the view (or the last):
 * matches are in time order. */
static guint
first_match_in_view (EtWindow *self)
{
  gint64 from = et_timeline_view_get_viewport (self->timeline)->from_ns;
  guint lo = 0, hi = self->matches->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (match_start (self, mid) < from)
        lo = mid + 1;
      else
        hi = mid;
    }
  return MIN (lo, self->matches->len - 1);
}

static void
searched (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtWindow) self = data;
  Found *f = g_task_propagate_pointer (G_TASK (result), NULL);

  if (f == NULL)
    return;                /* cancelled: a newer search is running */
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->matches, g_array_unref);
  self->matches = g_steal_pointer (&f->found);
  self->match = G_MAXUINT;
  et_timeline_view_set_highlights (self->timeline, f->markers);
  found_free (f);
  if (self->matches->len > 0)
    {
      /* step_match moves one on from the match before this one. */
      guint first = first_match_in_view (self);
      self->match = first == 0 ? G_MAXUINT : first - 1;
      step_match (self, 1);
    }
  show_match_status (self);
  _et_window_update_actions (self);
}

void
et_window_search (EtWindow *self, const char *text)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ET_IS_WINDOW (self));
  _et_window_search_clear (self);
  show_match_status (self);
  _et_window_update_actions (self);
  if (self->trace == NULL || text == NULL || *text == '\0')
    return;
  /* A search lists its hits wherever they are: not only the spans of a
   * duration histogram's filter. */
  et_markers_list_set_zone (self->markers, NULL);
  self->search_cancellable = g_cancellable_new ();
  /* Not the task's source object: a task may be finalized on its thread,
   * and a window must be let go on the main loop (in searched). */
  task = g_task_new (NULL, self->search_cancellable, searched, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (self->trace), g_object_unref);
  g_object_set_data_full (G_OBJECT (task), "needle", g_strdup (text), g_free);
  g_task_run_in_thread (task, (GTaskThreadFunc) search_in_thread);
  gtk_label_set_text (self->search_status, _("Searching…"));
}

guint
et_window_get_n_matches (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), 0);
  return self->matches ? self->matches->len : 0;
}

gboolean
et_window_is_searching (EtWindow *self)
{
  g_return_val_if_fail (ET_IS_WINDOW (self), FALSE);
  return self->search_cancellable != NULL;
}

static void
on_search_changed (GtkSearchEntry *entry, gpointer data)
{
  et_window_search (data, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_search_activate (GtkSearchEntry *entry, gpointer data)
{
  step_match (data, 1);
}

static void
on_search_next (GtkSearchEntry *entry, gpointer data)
{
  step_match (data, 1);
}

static void
on_search_previous (GtkSearchEntry *entry, gpointer data)
{
  step_match (data, -1);
}

static void
find_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Ctrl+P: Perfetto's "find track", over thread and series names. */
static void
find_track_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  et_timeline_view_find_track (((EtWindow *) data)->timeline);
}

static void
find_step_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  step_match (data, g_str_equal (g_action_get_name (G_ACTION (action)), "find-next") ? 1 : -1);
}

void
_et_window_bind_search_callbacks (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
}

/* ---- the action table ---------------------------------------------------------- */

void
_et_window_update_actions (EtWindow *self)
{
  gboolean has_trace = self->trace != NULL && self->loader == NULL;
  gboolean has_matches = self->matches != NULL && self->matches->len > 0;
  EtShape shape;
  gboolean span = et_timeline_view_get_selection (self->timeline, &shape)
                  && shape.kind != ET_SHAPE_AGGREGATE && shape.m->kind == ET_MARKER_SPAN;

  set_enabled (self, "export-markers", has_trace);
  set_enabled (self, "find", has_trace);
  set_enabled (self, "find-track", has_trace);
  set_enabled (self, "find-next", has_matches);
  set_enabled (self, "find-previous", has_matches);
  set_enabled (self, "go-to-end", has_trace && span);
  set_enabled (self, "cancel-load", self->loader != NULL);
}

void
_et_window_add_actions (EtWindow *self)
{
  const GActionEntry entries[] = {
    { "open", open_action },
    { "open-recent", open_recent_action, "s" },
    { "no-recent", NULL },
    { "export-markers", export_action },
    { "find", find_action },
    { "find-track", find_track_action },
    { "find-next", find_step_action },
    { "find-previous", find_step_action },
    { "go-to-end", go_to_end_action },
    { "wall-clock", NULL, NULL, "false", wall_clock_changed },
    { "compact-rows", NULL, NULL, "false", compact_rows_changed },
    { "cancel-load", cancel_load_action },
    { "show-legend", show_legend_action },
    { "show-call-tree", show_call_tree_action },
    { "add-bookmark", add_bookmark_action },
    { "clear-bookmarks", clear_bookmarks_action },
    { "go-to-bookmark", go_to_bookmark_action, "x" },
  };
  gboolean wall_clock = FALSE;

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  set_enabled (self, "no-recent", FALSE);
  if (self->settings != NULL)
    {
      g_autofree char *format = g_settings_get_string (self->settings, "time-format");
      wall_clock = g_str_equal (format, "wall-clock");
    }
  g_action_group_change_action_state (G_ACTION_GROUP (self), "wall-clock",
                                      g_variant_new_boolean (wall_clock));
  g_action_group_change_action_state (G_ACTION_GROUP (self), "compact-rows",
                                      g_variant_new_boolean (self->settings != NULL
                                                             && g_settings_get_boolean (self->settings,
                                                                                        "compact-rows")));
  g_object_bind_property (self->search_button, "active", self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  _et_window_update_actions (self);
}
