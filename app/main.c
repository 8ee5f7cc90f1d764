/* main.c — etlscope, the GTK application. */
#include "et-application.h"
#include "et-i18n.h"

int
main (int argc, char **argv)
{
  g_autoptr(EtApplication) app = NULL;

  et_i18n_init ();
  app = et_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
