/* et-timeline-threads.c — see et-timeline-threads.h. */
#include "et-timeline-threads.h"
#include "et-i18n.h"

#include <glib/gi18n.h>
#include <string.h>

/* ---- actions ----------------------------------------------------------- */

static const char *const order_names[] = { "first-activity", "markers", "name", "cpu" };

static void
on_thread_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtTimelineView *view = data;
  EtLayout *layout = et_timeline_view_get_layout (view);
  const char *name = g_action_get_name (G_ACTION (action));
  guint t = g_variant_get_uint32 (parameter);

  if (layout == NULL || t >= et_trace_get_n_threads (et_timeline_view_get_trace (view)))
    return;
  if (g_str_equal (name, "collapse-thread"))
    et_layout_set_thread_collapsed (layout, t, !et_layout_get_thread_collapsed (layout, t));
  else if (g_str_equal (name, "hide-thread"))
    {
      const EtThread *thread = et_trace_get_thread (et_timeline_view_get_trace (view), t);

      for (guint k = 0; k < thread->n_channels; k++)
        et_layout_set_channel_visible (layout, thread->first_channel + k, FALSE);
    }
  else
    {
      et_layout_move_thread_to_top (layout, t);
      et_timeline_view_get_viewport (view)->scroll_y = 0;
    }
  et_timeline_view_rows_changed (view);
}

/* Collapse All Threads: a row per thread, as Concurrency Visualizer opens
 * a trace of thousands; Expand All Threads: every thread's series, every
 * process open. Remembered for the trace, as a click on one is. */
static void
on_all_threads (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtTimelineView *view = data;
  EtLayout *layout = et_timeline_view_get_layout (view);
  gboolean collapse = g_str_equal (g_action_get_name (G_ACTION (action)), "collapse-all-threads");

  if (layout == NULL)
    return;
  et_layout_freeze (layout);
  et_layout_set_all_threads_collapsed (layout, collapse);
  for (guint p = 0; !collapse && p < et_trace_get_n_processes (et_timeline_view_get_trace (view)); p++)
    et_layout_set_collapsed (layout, p, FALSE);
  et_layout_thaw (layout);
  et_timeline_view_rows_changed (view);
}

static void
on_order (GSimpleAction *action, GVariant *state, gpointer data)
{
  EtTimelineView *view = data;
  EtLayout *layout = et_timeline_view_get_layout (view);

  g_simple_action_set_state (action, state);
  for (guint k = 0; layout != NULL && k < G_N_ELEMENTS (order_names); k++)
    if (g_str_equal (g_variant_get_string (state, NULL), order_names[k])
        && et_layout_get_thread_order (layout) != (EtThreadOrder) k)
      {
        et_layout_set_thread_order (layout, (EtThreadOrder) k);
        et_timeline_view_rows_changed (view);
      }
}

static void
on_active_only (GSimpleAction *action, GVariant *state, gpointer data)
{
  g_simple_action_set_state (action, state);
  et_timeline_view_set_active_only (data, g_variant_get_boolean (state));
}

static void
on_show_empty (GSimpleAction *action, GVariant *state, gpointer data)
{
  EtTimelineView *view = data;
  EtLayout *layout = et_timeline_view_get_layout (view);

  g_simple_action_set_state (action, state);
  if (layout != NULL && et_layout_get_show_empty_threads (layout) != g_variant_get_boolean (state))
    {
      et_layout_set_show_empty_threads (layout, g_variant_get_boolean (state));
      et_timeline_view_rows_changed (view);
    }
}

void
et_timeline_threads_add_actions (GActionMap *actions, EtTimelineView *view)
{
  static const char *const on_thread[] = { "collapse-thread", "hide-thread", "move-thread-to-top" };
  g_autoptr(GSimpleAction) order = g_simple_action_new_stateful ("thread-order", G_VARIANT_TYPE_STRING,
                                                                  g_variant_new_string (order_names[0]));
  g_autoptr(GSimpleAction) empty = g_simple_action_new_stateful ("show-empty-threads", NULL,
                                                                  g_variant_new_boolean (FALSE));
  g_autoptr(GSimpleAction) active = g_simple_action_new_stateful ("active-threads", NULL,
                                                                   g_variant_new_boolean (FALSE));

  for (guint i = 0; i < G_N_ELEMENTS (on_thread); i++)
    {
      g_autoptr(GSimpleAction) action = g_simple_action_new (on_thread[i], G_VARIANT_TYPE_UINT32);

      g_signal_connect (action, "activate", G_CALLBACK (on_thread_action), view);
      g_action_map_add_action (actions, G_ACTION (action));
    }
  for (guint i = 0; i < 2; i++)
    {
      static const char *const all[] = { "collapse-all-threads", "expand-all-threads" };
      g_autoptr(GSimpleAction) action = g_simple_action_new (all[i], NULL);

      g_signal_connect (action, "activate", G_CALLBACK (on_all_threads), view);
      g_action_map_add_action (actions, G_ACTION (action));
    }
  g_signal_connect (order, "change-state", G_CALLBACK (on_order), view);
  g_signal_connect (empty, "change-state", G_CALLBACK (on_show_empty), view);
  g_signal_connect (active, "change-state", G_CALLBACK (on_active_only), view);
  g_action_map_add_action (actions, G_ACTION (order));
  g_action_map_add_action (actions, G_ACTION (empty));
  g_action_map_add_action (actions, G_ACTION (active));
}

void
et_timeline_threads_sync_actions (GActionMap *actions, EtLayout *layout)
{
  GAction *order = g_action_map_lookup_action (actions, "thread-order");
  GAction *empty = g_action_map_lookup_action (actions, "show-empty-threads");
  GAction *active = g_action_map_lookup_action (actions, "active-threads");

  if (layout == NULL)
    return;
  g_simple_action_set_state (G_SIMPLE_ACTION (active),
                             g_variant_new_boolean (et_layout_get_active_only (layout)));
  g_simple_action_set_state (G_SIMPLE_ACTION (order),
                             g_variant_new_string (order_names[et_layout_get_thread_order (layout)]));
  g_simple_action_set_state (G_SIMPLE_ACTION (empty),
                             g_variant_new_boolean (et_layout_get_show_empty_threads (layout)));
}

static void
append_thread_item (GMenu *menu, const char *label, const char *action, guint thread)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint32 (thread));
  g_menu_append_item (menu, item);
}

GMenu *
et_timeline_threads_menu (EtLayout *layout, guint thread)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) one = g_menu_new ();
  g_autoptr(GMenu) all = g_menu_new ();
  g_autoptr(GMenu) order = g_menu_new ();

  append_thread_item (one, et_layout_get_thread_collapsed (layout, thread)
                           ? _("Expand Thread") : _("Collapse Thread"),
                      "timeline.collapse-thread", thread);
  append_thread_item (one, _("Hide Thread"), "timeline.hide-thread", thread);
  append_thread_item (one, _("Move Thread to Top"), "timeline.move-thread-to-top", thread);
  g_menu_append (order, _("Threads by First Activity"), "timeline.thread-order::first-activity");
  g_menu_append (order, _("Threads by Marker Count"), "timeline.thread-order::markers");
  g_menu_append (order, _("Threads by Name"), "timeline.thread-order::name");
  g_menu_append (order, _("Threads by CPU Use"), "timeline.thread-order::cpu");
  g_menu_append (order, _("Show Empty Threads"), "timeline.show-empty-threads");
  g_menu_append (order, _("Only Threads Active in View"), "timeline.active-threads");
  g_menu_append (all, _("Collapse All Threads"), "timeline.collapse-all-threads");
  g_menu_append (all, _("Expand All Threads"), "timeline.expand-all-threads");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (one));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (all));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (order));
  return menu;
}

/* ---- remembered per trace ---------------------------------------------- */

#define MAX_TRACES_REMEMBERED 100

static char *
state_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "etlscope", "threads.ini", NULL);
}

static char *
thread_key (const EtThread *t)
{
  return g_strdup_printf ("%u:%u", t->pid, t->tid);
}

void
et_timeline_threads_restore (EtLayout *layout, EtTrace *trace)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *path = state_path ();
  g_auto(GStrv) collapsed = NULL, expanded = NULL;
  g_autofree char *order = NULL;
  g_autoptr(GHashTable) chosen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *group = et_trace_get_path (trace);

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, NULL)
      || !g_key_file_has_group (file, group))
    return;
  collapsed = g_key_file_get_string_list (file, group, "collapsed", NULL, NULL);
  expanded = g_key_file_get_string_list (file, group, "expanded", NULL, NULL);
  order = g_key_file_get_string (file, group, "order", NULL);
  /* Looked up per thread: a trace may have thousands of both. */
  for (guint k = 0; expanded != NULL && expanded[k] != NULL; k++)
    g_hash_table_insert (chosen, expanded[k], GINT_TO_POINTER (FALSE));
  for (guint k = 0; collapsed != NULL && collapsed[k] != NULL; k++)
    g_hash_table_insert (chosen, collapsed[k], GINT_TO_POINTER (TRUE));
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      g_autofree char *key = thread_key (et_trace_get_thread (trace, t));

      if (g_hash_table_contains (chosen, key))
        et_layout_set_thread_choice (layout, t, GPOINTER_TO_INT (g_hash_table_lookup (chosen, key)));
    }
  for (guint k = 0; order != NULL && k < G_N_ELEMENTS (order_names); k++)
    if (g_str_equal (order, order_names[k]))
      et_layout_set_thread_order (layout, (EtThreadOrder) k);
  et_layout_set_active_only (layout, g_key_file_get_boolean (file, group, "active-only", NULL));
}

/* Only what was chosen by hand is written: a trace left as it opened
 * takes no room in the file. */
void
et_timeline_threads_save (EtLayout *layout, EtTrace *trace)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *path = state_path ();
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GPtrArray) expanded = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) collapsed = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *lists[2] = { expanded, collapsed };
  const char *group = et_trace_get_path (trace);
  g_auto(GStrv) groups = NULL;
  gsize n_groups = 0;

  g_key_file_load_from_file (file, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  g_key_file_remove_group (file, group, NULL);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    if (et_layout_get_thread_choice (layout, t) >= 0)
      g_ptr_array_add (lists[et_layout_get_thread_choice (layout, t)],
                       thread_key (et_trace_get_thread (trace, t)));
  for (guint k = 0; k < 2; k++)
    if (lists[k]->len > 0)
      g_key_file_set_string_list (file, group, k ? "collapsed" : "expanded",
                                  (const char * const *) lists[k]->pdata, lists[k]->len);
  if (et_layout_get_thread_order (layout) != ET_THREAD_ORDER_FIRST_ACTIVITY)
    g_key_file_set_string (file, group, "order", order_names[et_layout_get_thread_order (layout)]);
  if (et_layout_get_active_only (layout))
    g_key_file_set_boolean (file, group, "active-only", TRUE);
  /* The oldest traces are forgotten first (groups stay in file order). */
  groups = g_key_file_get_groups (file, &n_groups);
  for (gsize k = 0; k + MAX_TRACES_REMEMBERED < n_groups; k++)
    g_key_file_remove_group (file, groups[k], NULL);
  g_mkdir_with_parents (folder, 0700);
  g_key_file_save_to_file (file, path, NULL);
}

/* ---- Go to Thread or Series -------------------------------------------- */

static gboolean
holds (const char *label, const char *folded_text)
{
  g_autofree char *folded = g_utf8_casefold (label, -1);

  return strstr (folded, folded_text) != NULL;
}

static void
add_match (GArray *matches, guint thread, guint channel, GString *label)
{
  EtTrackMatch m = { thread, channel, g_strdup (label->str) };

  g_array_append_val (matches, m);
}

static void
clear_match (gpointer data)
{
  g_free (((EtTrackMatch *) data)->label);
}

/* Threads with a row (or that would have one with their process open),
 * and their shown channels, in the order of the rows. A thread without
 * one (no shown markers, empty threads hidden) is not offered: Enter on
 * it could go nowhere. */
GArray *
et_timeline_threads_match (EtLayout *layout, EtTrace *trace, const char *text, guint max)
{
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (EtTrackMatch));
  g_autofree char *folded = g_utf8_casefold (text, -1);
  g_autoptr(GString) label = g_string_new (NULL);

  g_array_set_clear_func (matches, clear_match);
  for (guint t = 0; t < et_trace_get_n_threads (trace) && matches->len < max; t++)
    {
      const EtThread *thread = et_trace_get_thread (trace, t);
      EtRow row = { ET_ROW_THREAD, t };
      gsize thread_len;

      if (!et_layout_thread_listed (layout, t))
        continue;
      g_string_truncate (label, 0);
      et_layout_row_label (layout, &row, label);
      thread_len = label->len;
      if (holds (label->str, folded))
        add_match (matches, t, G_MAXUINT, label);
      for (guint k = 0; k < thread->n_channels && matches->len < max; k++)
        {
          EtRow channel = { ET_ROW_CHANNEL, thread->first_channel + k };

          if (!et_layout_channel_shown (layout, channel.index))
            continue;
          g_string_truncate (label, thread_len);
          g_string_append (label, " › ");
          et_layout_row_label (layout, &channel, label);
          if (holds (label->str + thread_len, folded))
            add_match (matches, t, channel.index, label);
        }
    }
  return matches;
}

void
et_timeline_threads_go_to (EtTimelineView *view, guint thread, guint channel)
{
  EtLayout *layout = et_timeline_view_get_layout (view);
  const EtRow *row;

  et_layout_reveal (layout, thread, channel);
  row = channel == G_MAXUINT ? et_layout_thread_row (layout, thread)
                             : et_layout_channel_row (layout, channel);
  if (row == NULL && et_layout_get_active_only (layout)
      && et_layout_get_thread (layout, thread)->n_markers > 0)
    {
      /* Only threads active in view: the view goes to the thread's time. */
      et_timeline_view_center_on (view, et_layout_get_thread (layout, thread)->first_ns);
      row = channel == G_MAXUINT ? et_layout_thread_row (layout, thread)
                                 : et_layout_channel_row (layout, channel);
    }
  if (row != NULL)
    et_timeline_view_get_viewport (view)->scroll_y = row->y;
  et_timeline_view_rows_changed (view);
}

typedef struct
{
  EtTimelineView *view;
  GtkPopover     *popover;
  GtkListBox     *list;
  GArray         *matches;   /* EtTrackMatch, in the list's order */
} FindTrack;

static void
find_track_free (gpointer data)
{
  FindTrack *f = data;

  g_clear_pointer (&f->matches, g_array_unref);
  g_free (f);
}

static void
choose (FindTrack *f, guint index)
{
  EtTrackMatch *m;

  if (f->matches == NULL || index >= f->matches->len)
    return;
  m = &g_array_index (f->matches, EtTrackMatch, index);
  gtk_popover_popdown (f->popover);
  et_timeline_threads_go_to (f->view, m->thread, m->channel);
}

static void
on_search_changed (GtkSearchEntry *entry, gpointer data)
{
  FindTrack *f = data;
  EtLayout *layout = et_timeline_view_get_layout (f->view);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (f->list))) != NULL)
    gtk_list_box_remove (f->list, child);
  g_clear_pointer (&f->matches, g_array_unref);
  if (layout == NULL)
    return;
  f->matches = et_timeline_threads_match (layout, et_timeline_view_get_trace (f->view),
                                          gtk_editable_get_text (GTK_EDITABLE (entry)), 50);
  for (guint k = 0; k < f->matches->len; k++)
    {
      GtkWidget *label = gtk_label_new (g_array_index (f->matches, EtTrackMatch, k).label);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_list_box_append (f->list, label);
    }
}

/* Enter takes the first match of what is typed now: the entry tells of
 * changes only after a pause. */
static void
on_activate (GtkSearchEntry *entry, gpointer data)
{
  on_search_changed (entry, data);
  choose (data, 0);
}

static void
on_row_activated (GtkListBox *list, GtkListBoxRow *row, gpointer data)
{
  choose (data, (guint) gtk_list_box_row_get_index (row));
}

GtkWidget *
et_timeline_threads_find_new (EtTimelineView *view, GtkPopover *popover)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *entry = gtk_search_entry_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  FindTrack *f = g_new0 (FindTrack, 1);

  f->view = view, f->popover = popover;
  f->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_set_name (entry, "find-track-entry");
  gtk_widget_set_name (GTK_WIDGET (f->list), "find-track-list");
  g_object_set (entry, "placeholder-text", _("Go to Thread or Series"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Go to Thread or Series"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (f->list));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), scrolled);
  g_object_set_data_full (G_OBJECT (box), "find-track", f, find_track_free);
  g_signal_connect (entry, "search-changed", G_CALLBACK (on_search_changed), f);
  g_signal_connect (entry, "activate", G_CALLBACK (on_activate), f);
  g_signal_connect (f->list, "row-activated", G_CALLBACK (on_row_activated), f);
  return box;
}
