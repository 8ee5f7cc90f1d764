/* et-preferences.h — the Preferences window: time format, theme and the
 * default filters (minimum importance, kinds), each bound to its GSettings
 * key, so a change applies at once: windows and the application follow
 * their keys (et-window.c, et-application.c). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ET_TYPE_PREFERENCES (et_preferences_get_type ())
G_DECLARE_FINAL_TYPE (EtPreferences, et_preferences, ET, PREFERENCES, GtkWindow)

/* Preferences stored in @settings, over @parent (may be NULL). */
GtkWidget *et_preferences_new (GSettings *settings,
                               GtkWindow *parent);

G_END_DECLS
