/* et-cli-markers.h — "etlscope-cli markers": the trace's markers in the
 * machine-readable contract of docs/markers.md, as text, JSON lines or CSV.
 */
#pragma once

#include <glib.h>
#include "et-cli-options.h"

G_BEGIN_DECLS

int et_cli_markers_run (int    argc,
                        char **argv);

/* The @n-th marker (1 = the first) "markers" writes with @filter, or NULL. */
const EtMarker *et_cli_markers_nth (EtTrace           *trace,
                                    const EtCliFilter *filter,
                                    guint64            n);

G_END_DECLS
