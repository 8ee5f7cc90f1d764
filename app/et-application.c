/* et-application.c — see et-application.h. Owns the accelerators of every
 * command, so menus, tooltips and the shortcuts window (gtk/help-overlay.ui
 * in the GResource, shown by win.show-help-overlay) agree. */
#include "et-application.h"
#include "et-app-resources.h"
#include "et-resources.h"
#include "et-window.h"

#include <glib/gi18n.h>

struct _EtApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (EtApplication, et_application, GTK_TYPE_APPLICATION)

void
et_app_resources_ensure (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      et_register_resource ();
      g_once_init_leave (&done, 1);
    }
}

static EtWindow *
window_for (GtkApplication *app, GFile *file)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      g_autoptr(GFile) open = NULL;

      if (!ET_IS_WINDOW (l->data) || et_window_get_path (l->data) == NULL)
        continue;
      open = g_file_new_for_path (et_window_get_path (l->data));
      if (g_file_equal (open, file))
        return l->data;
    }
  return NULL;
}

/* An empty window (started without files) takes the first file opened. */
static EtWindow *
empty_window (GtkApplication *app)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (ET_IS_WINDOW (l->data) && et_window_get_path (l->data) == NULL)
      return l->data;
  return NULL;
}

/* Named explicitly: GTK would otherwise want g_set_application_name (). */
static void
remember (const char *uri)
{
  GtkRecentData data = {
    .mime_type = (char *) "application/x-etl",
    .app_name = (char *) "etlscope",
    .app_exec = (char *) "etlscope %u",
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static void
et_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      g_autofree char *uri = g_file_get_uri (files[i]);
      EtWindow *window;

      if (path == NULL)
        {
          g_warning (_("%s is not a local file; Etlscope reads local files only"), uri);
          continue;
        }
      window = window_for (GTK_APPLICATION (app), files[i]);
      if (window == NULL)
        {
          window = empty_window (GTK_APPLICATION (app));
          if (window == NULL)
            window = et_window_new (GTK_APPLICATION (app));
          et_window_load (window, path);
          remember (uri);
        }
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
et_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (et_window_new (GTK_APPLICATION (app))));
}

static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_application_quit (data);
}

static void
et_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } keys[] = {
    { "win.open", { "<Control>o", NULL } },
    { "win.export-markers", { "<Control>e", NULL } },
    { "win.wall-clock", { "<Control>t", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-next", { "<Control>g", "F3", NULL } },
    { "win.find-previous", { "<Shift><Control>g", "<Shift>F3", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    /* Plain-key variants (W, S, A, D, Z, Home) are bound on the timeline
     * itself, so they never take a letter away from a text entry. */
    { "timeline.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "timeline.zoom-out", { "<Control>minus", NULL } },
    { "timeline.zoom-fit", { "<Control>0", NULL } },
  };
  const GActionEntry entries[] = {
    { "quit", quit_action },
  };

  G_APPLICATION_CLASS (et_application_parent_class)->startup (app);
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), keys[i].action, keys[i].accels);
}

static void
et_application_class_init (EtApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->open = et_application_open;
  app_class->activate = et_application_activate;
  app_class->startup = et_application_startup;
  et_app_resources_ensure ();
}

static void
et_application_init (EtApplication *self)
{
}

EtApplication *
et_application_new (void)
{
  return g_object_new (ET_TYPE_APPLICATION,
                       "application-id", "io.github.etlscope.Etlscope",
                       "resource-base-path", "/io/github/etlscope/Etlscope",
                       "flags", G_APPLICATION_HANDLES_OPEN, NULL);
}
