/* et-error.c — the ET_ETL_ERROR domain. */
#include "et-error.h"

G_DEFINE_QUARK (et-etl-error-quark, et_etl_error)

char *
et_message_dup_valid (const char *message)
{
  if (message == NULL)
    return NULL;
  if (g_utf8_validate (message, -1, NULL))
    return g_strdup (message);
  return g_utf8_make_valid (message, -1);
}

void
et_error_make_valid (GError *error)
{
  char *valid;

  if (error == NULL || g_utf8_validate (error->message, -1, NULL))
    return;
  valid = g_utf8_make_valid (error->message, -1);
  g_free (error->message);
  error->message = valid;
}
