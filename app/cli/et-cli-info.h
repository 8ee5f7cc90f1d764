/* et-cli-info.h — "etlscope-cli info": what a trace file holds (header,
 * providers, processes and threads, losses, damage), as text or one JSON
 * object.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_info_run (int    argc,
                     char **argv);

G_END_DECLS
