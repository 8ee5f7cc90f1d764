/* et-cli-markers.h — "etlscope-cli markers": the trace's markers in the
 * machine-readable contract of docs/markers.md, as text, JSON lines or CSV.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_markers_run (int    argc,
                        char **argv);

G_END_DECLS
