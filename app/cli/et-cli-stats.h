/* et-cli-stats.h — "etlscope-cli stats": range statistics per provider ×
 * series × kind (model/query/et-stats.h), as a table, JSON or CSV. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_stats_run (int    argc,
                      char **argv);

G_END_DECLS
