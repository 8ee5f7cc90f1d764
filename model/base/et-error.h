/* et-error.h — the error domain for bad or unreadable .etl content.
 *
 * Messages always name the file (or "payload" for in-memory decoding) and
 * the byte offset where reading failed.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ET_ETL_ERROR (et_etl_error_quark ())

typedef enum
{
  ET_ETL_ERROR_IO,         /* the file could not be opened or mapped */
  ET_ETL_ERROR_NOT_ETL,    /* no usable buffer / log-file header */
  ET_ETL_ERROR_TRUNCATED,  /* data ends before a structure does */
  ET_ETL_ERROR_CORRUPT,    /* a size, count or code that cannot be right */
  ET_ETL_ERROR_UNSUPPORTED,/* well formed, but a form we do not decode */
  ET_ETL_ERROR_CANCELLED,
} EtEtlError;

GQuark et_etl_error_quark (void);

/* Messages quote bytes of the file (GMarkup's errors quote the manifest),
 * and paths need not be UTF-8: every message the model hands out goes
 * through these, so JSON, CSV and the screen only ever get UTF-8. Invalid
 * bytes become U+FFFD. */
char  *et_message_dup_valid (const char *message);
void   et_error_make_valid  (GError     *error);

G_END_DECLS
