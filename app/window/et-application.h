/* et-application.h — the GtkApplication: one window per trace; opening a
 * file that is already open focuses its window. Its actions: quit, about,
 * preferences; it applies the theme preference. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ET_TYPE_APPLICATION (et_application_get_type ())
G_DECLARE_FINAL_TYPE (EtApplication, et_application, ET, APPLICATION, GtkApplication)

EtApplication *et_application_new          (void);
/* The application's GSettings, or NULL when its schema is not installed
 * (a build folder without GSETTINGS_SCHEMA_DIR). Transfer full. */
GSettings     *et_application_settings_new (void);

G_END_DECLS
