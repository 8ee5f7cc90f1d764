/* et-application.c — see et-application.h. Owns the accelerators of every
 * command, so menus, tooltips and the shortcuts window (gtk/help-overlay.ui
 * in the GResource, shown by win.show-help-overlay) agree. */
#include "et-application.h"
#include "et-app-resources.h"
#include "et-preferences.h"
#include "et-resources.h"
#include "et-window.h"

#include <glib/gi18n.h>

struct _EtApplication
{
  GtkApplication parent_instance;

  GSettings     *settings;     /* NULL when the schema is not installed */
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
about_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  static const char *const authors[] = { "The Etlscope developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (data),
                         "program-name", "Etlscope",
                         "version", ETLSCOPE_VERSION,
                         "logo-icon-name", "io.github.etlscope.Etlscope",
                         "comments", _("Concurrency Visualizer markers of Windows ETW traces, "
                                       "thread by thread, on Linux"),
                         "website", "https://github.com/etlscope/etlscope",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* Translators: your names, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

#define SCHEMA_ID "io.github.etlscope.Etlscope"

static void
preferences_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtApplication *self = data;

  if (self->settings == NULL)
    {
      GtkWidget *dialog = gtk_message_dialog_new (gtk_application_get_active_window (data),
                                                  GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("Preferences are not available"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                                /* Translators: %s is a settings schema's id */
                                                _("The settings schema %s is not installed, and "
                                                  "no build folder beside the program has it. "
                                                  "Install Etlscope, or run it with ./dev run."),
                                                SCHEMA_ID);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  gtk_window_present (GTK_WINDOW (et_preferences_new (self->settings,
                                                      gtk_application_get_active_window (data))));
}

/* Light, dark, high contrast (GTK's HighContrast and HighContrastInverse
 * themes), or whatever the desktop says; the timelines follow the same
 * GtkSettings properties. */
static void
apply_theme (GSettings *settings, const char *key, gpointer data)
{
  GtkSettings *gtk = gtk_settings_get_default ();
  g_autofree char *theme = g_settings_get_string (settings, "theme");

  if (gtk == NULL)
    return;
  /* GTK 4.8 draws its HighContrast theme dark when dark is preferred; it
   * does not know HighContrastInverse by that name (the header bar, the
   * report and the details stayed light), so high contrast dark is
   * HighContrast with dark preferred. */
  if (g_str_has_prefix (theme, "high-contrast"))
    g_object_set (gtk, "gtk-theme-name", "HighContrast", NULL);
  else
    gtk_settings_reset_property (gtk, "gtk-theme-name");
  if (g_str_equal (theme, "light") || g_str_equal (theme, "dark")
      || g_str_has_prefix (theme, "high-contrast"))
    g_object_set (gtk, "gtk-application-prefer-dark-theme",
                  g_str_equal (theme, "dark") || g_str_equal (theme, "high-contrast-dark"), NULL);
  else
    gtk_settings_reset_property (gtk, "gtk-application-prefer-dark-theme");
}

/* The schema compiled into an uninstalled build's data/ folder, beside the
 * app/ folder the program runs from (_build/app/etlscope → _build/data). */
static GSettingsSchema *
build_folder_schema (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *app_dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  g_autofree char *data_dir = app_dir != NULL ? g_build_filename (app_dir, "..", "data", NULL) : NULL;
  g_autofree char *compiled = data_dir != NULL ? g_build_filename (data_dir, "gschemas.compiled", NULL) : NULL;
  g_autoptr(GSettingsSchemaSource) source = NULL;

  if (compiled == NULL || !g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
    return NULL;
  source = g_settings_schema_source_new_from_directory (data_dir, g_settings_schema_source_get_default (),
                                                        FALSE, NULL);
  return source != NULL ? g_settings_schema_source_lookup (source, SCHEMA_ID, FALSE) : NULL;
}

/* The installed schema (or GSETTINGS_SCHEMA_DIR's), else the build
 * folder's; NULL only when neither is there (the Preferences say so). */
GSettings *
et_application_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  if (schema == NULL)
    schema = build_folder_schema ();
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

static void
et_application_startup (GApplication *app)
{
  static const struct { const char *action; const char *accels[3]; } keys[] = {
    { "win.open", { "<Control>o", NULL } },
    { "win.export-markers", { "<Control>e", NULL } },
    { "win.wall-clock", { "<Control>t", NULL } },
    { "win.compact-rows", { "<Shift><Control>r", NULL } },
    { "win.show-legend", { "<Control>l", NULL } },
    { "win.show-call-tree", { "<Control>k", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.find-track", { "<Control>p", NULL } },
    { "win.find-next", { "<Control>g", "F3", NULL } },
    { "win.find-previous", { "<Shift><Control>g", "<Shift>F3", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    /* Plain-key variants (W, S, A, D, Z, Home) are bound on the timeline
     * itself, so they never take a letter away from a text entry. */
    { "timeline.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "timeline.zoom-out", { "<Control>minus", NULL } },
    { "timeline.zoom-fit", { "<Control>0", NULL } },
    { "timeline.follow-flow", { "<Control>bracketright", NULL } },
    { "timeline.follow-flow-back", { "<Control>bracketleft", NULL } },
  };
  const GActionEntry entries[] = {
    { "quit", quit_action },
    { "about", about_action },
    { "preferences", preferences_action },
  };
  EtApplication *self = ET_APPLICATION (app);

  G_APPLICATION_CLASS (et_application_parent_class)->startup (app);
  self->settings = et_application_settings_new ();
  if (self->settings != NULL)
    {
      g_signal_connect (self->settings, "changed::theme", G_CALLBACK (apply_theme), NULL);
      apply_theme (self->settings, "theme", NULL);
    }
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), keys[i].action, keys[i].accels);
}

static void
et_application_dispose (GObject *object)
{
  g_clear_object (&ET_APPLICATION (object)->settings);
  G_OBJECT_CLASS (et_application_parent_class)->dispose (object);
}

static void
et_application_class_init (EtApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_application_dispose;
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
