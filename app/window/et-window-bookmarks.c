/* et-window-bookmarks.c — the Bookmarks menu: each marked time (with its
 * name) a section headed by it, to go there, name it or remove it alone,
 * as WPA and Perfetto let their marks be named and dropped one by one.
 * (Sections, not submenus: a popover menu names a submenu's page by its
 * label, and two times can read alike.)
 *
 *   self->bookmarks (et-bookmarks) ─ _et_window_refresh_bookmarks ─ menu,
 *                                    the timeline's lines
 *   win.rename-bookmark (x) ─ a small window with the name ─ saved
 *   win.remove-bookmark (x) ─ saved
 */
#include "et-window-private.h"
#include "et-timeline-render.h"

#include <glib/gi18n.h>

/* The commands of the bookmark at @t: go there, name it, remove it. */
static GMenu *
bookmark_section (gint64 t)
{
  static const struct { const char *label, *action; } items[] = {
    { N_("Go There"), "win.go-to-bookmark" },
    { N_("Name…"), "win.rename-bookmark" },
    { N_("Remove"), "win.remove-bookmark" },
  };
  GMenu *one = g_menu_new ();

  for (guint k = 0; k < G_N_ELEMENTS (items); k++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(items[k].label), NULL);

      g_menu_item_set_action_and_target_value (item, items[k].action, g_variant_new_int64 (t));
      g_menu_append_item (one, item);
    }
  return one;
}

void
_et_window_refresh_bookmarks (EtWindow *self)
{
  g_autoptr(GMenu) commands = g_menu_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n = self->bookmarks != NULL ? et_bookmarks_n (self->bookmarks) : 0;
  GAction *clear;

  g_menu_remove_all (self->bookmarks_menu);
  for (guint i = 0; i < n; i++)
    {
      gint64 t = et_bookmarks_get (self->bookmarks, i);
      const char *name = et_bookmarks_get_name (self->bookmarks, i);
      g_autoptr(GString) label = g_string_new (NULL);
      g_autoptr(GMenu) one = bookmark_section (t);

      et_format_time_display (t, label);
      if (name != NULL)
        g_string_append_printf (label, " — %s", name);
      g_menu_append_section (self->bookmarks_menu, label->str, G_MENU_MODEL (one));
      g_array_append_val (values, t);
    }
  /* Translators: menu item; M is its key on the timeline */
  g_menu_append (commands, _("Mark This Time (M)"), "win.add-bookmark");
  g_menu_append (commands, _("Remove All Bookmarks"), "win.clear-bookmarks");
  g_menu_append_section (self->bookmarks_menu, NULL, G_MENU_MODEL (commands));
  et_timeline_view_set_bookmarks (self->timeline, (const gint64 *) (gpointer) values->data, n);
  clear = g_action_map_lookup_action (G_ACTION_MAP (self), "clear-bookmarks");
  if (clear != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (clear), n > 0);
}

static void
remove_bookmark_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  g_autoptr(GError) error = NULL;

  if (self->bookmarks != NULL
      && !et_bookmarks_remove (self->bookmarks, g_variant_get_int64 (parameter), &error))
    _et_window_bookmark_error (self, error);
  _et_window_refresh_bookmarks (self);
}

void
_et_window_name_bookmark (EtWindow *self, gint64 t_ns, const char *name)
{
  g_autoptr(GError) error = NULL;

  if (self->bookmarks != NULL && !et_bookmarks_set_name (self->bookmarks, t_ns, name, &error))
    _et_window_bookmark_error (self, error);
  _et_window_refresh_bookmarks (self);
}

static void
on_name_activate (GtkEntry *entry, gpointer data)
{
  EtWindow *self = data;
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (entry)));
  gint64 *t = g_object_get_data (G_OBJECT (entry), "time");

  _et_window_name_bookmark (self, *t, gtk_editable_get_text (GTK_EDITABLE (entry)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A small window with the bookmark's name: Enter keeps it, Escape or its
 * close button leaves it as it was. */
static void
rename_bookmark_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  gint64 t = g_variant_get_int64 (parameter);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *entry = gtk_entry_new ();
  g_autoptr(GString) when = g_string_new (NULL);
  g_autofree char *title = NULL;

  for (guint i = 0; self->bookmarks != NULL && i < et_bookmarks_n (self->bookmarks); i++)
    if (et_bookmarks_get (self->bookmarks, i) == t && et_bookmarks_get_name (self->bookmarks, i))
      gtk_editable_set_text (GTK_EDITABLE (entry), et_bookmarks_get_name (self->bookmarks, i));
  et_format_time_display (t, when);
  /* Translators: the title of the window that names a bookmark; %s is its time */
  title = g_strdup_printf (_("Name the Bookmark at %s"), when->str);
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Name (Enter keeps it)"));
  gtk_widget_set_margin_start (entry, 12), gtk_widget_set_margin_end (entry, 12);
  gtk_widget_set_margin_top (entry, 12), gtk_widget_set_margin_bottom (entry, 12);
  g_object_set_data_full (G_OBJECT (entry), "time", g_memdup2 (&t, sizeof t), g_free);
  g_signal_connect (entry, "activate", G_CALLBACK (on_name_activate), self);
  gtk_window_set_child (GTK_WINDOW (window), entry);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, -1);
  gtk_window_present (GTK_WINDOW (window));
}

void
_et_window_add_bookmark_actions (EtWindow *self)
{
  static const GActionEntry entries[] = {
    { "remove-bookmark", remove_bookmark_action, "x" },
    { "rename-bookmark", rename_bookmark_action, "x" },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}
