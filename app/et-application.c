/* et-application.c — see et-application.h. */
#include "et-application.h"
#include "et-window.h"

struct _EtApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (EtApplication, et_application, GTK_TYPE_APPLICATION)

static EtWindow *
window_for (GtkApplication *app, const char *path)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (ET_IS_WINDOW (l->data) && g_strcmp0 (et_window_get_path (l->data), path) == 0)
      return l->data;
  return NULL;
}

static void
et_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      EtWindow *window;

      if (path == NULL)
        continue;
      window = window_for (GTK_APPLICATION (app), path);
      if (window == NULL)
        {
          window = et_window_new (GTK_APPLICATION (app));
          et_window_load (window, path);
          gtk_recent_manager_add_item (gtk_recent_manager_get_default (),
                                       g_file_get_uri (files[i]));
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
et_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } keys[] = {
    { "win.open", { "<Control>o", NULL } },
    { "win.zoom-in", { "w", "<Control>plus", NULL } },
    { "win.zoom-out", { "s", "<Control>minus", NULL } },
    { "win.zoom-fit", { "Home", "<Control>0", NULL } },
    { "win.pan-left", { "a", NULL } },
    { "win.pan-right", { "d", NULL } },
    { "win.wall-clock", { "<Control>t", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-next", { "<Control>g", "F3", NULL } },
    { "win.find-previous", { "<Shift><Control>g", "<Shift>F3", NULL } },
    { "app.quit", { "<Control>q", NULL } },
  };
  g_autoptr(GSimpleAction) quit = g_simple_action_new ("quit", NULL);

  G_APPLICATION_CLASS (et_application_parent_class)->startup (app);
  g_signal_connect_swapped (quit, "activate", G_CALLBACK (g_application_quit), app);
  g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (quit));
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
}

static void
et_application_init (EtApplication *self)
{
}

EtApplication *
et_application_new (void)
{
  return g_object_new (ET_TYPE_APPLICATION, "application-id", "io.github.etlscope.Etlscope",
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE, NULL);
}
