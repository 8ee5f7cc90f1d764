/* main.c — etlscope, the GTK application: `etlscope [FILE…]` opens each
 * trace in its own window. */
#include <locale.h>
#include <glib/gi18n.h>

#include "et-application.h"

int
main (int argc, char **argv)
{
  g_autoptr(EtApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Etlscope"));
  app = et_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
