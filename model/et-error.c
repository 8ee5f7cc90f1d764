/* et-error.c — the ET_ETL_ERROR domain. */
#include "et-error.h"

G_DEFINE_QUARK (et-etl-error-quark, et_etl_error)
