/* et-cli-events.h — "etlscope-cli events": every event of the trace in time
 * order, decoded, as text, JSON lines or CSV.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_events_run (int    argc,
                       char **argv);

G_END_DECLS
