/* main.c — etlscope, the GTK application: `etlscope [FILE…]` opens each
 * trace in its own window. */
#include "et-application.h"
#include "et-i18n.h"

int
main (int argc, char **argv)
{
  g_autoptr(EtApplication) app = NULL;

  et_i18n_init ();
  g_set_application_name (_("Etlscope"));
  app = et_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
