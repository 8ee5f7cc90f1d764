/* et-application.h — the GtkApplication: one window per trace; opening a
 * file that is already open focuses its window. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ET_TYPE_APPLICATION (et_application_get_type ())
G_DECLARE_FINAL_TYPE (EtApplication, et_application, ET, APPLICATION, GtkApplication)

EtApplication *et_application_new (void);

G_END_DECLS
