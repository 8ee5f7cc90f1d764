/* et-cli-render.h — "etlscope-cli render": the timeline, headless, to a
 * PNG, SVG or PDF file (the same picture the window shows). */
#pragma once

#include <glib.h>
#include "et-cli-options.h"
#include "et-layout.h"

G_BEGIN_DECLS

/* Shows in @layout only what @filter (resolved against @trace) selects:
 * its providers, kinds and minimum importance as the window's filters,
 * and only the channel rows of its processes and threads. */
void et_cli_render_apply_filter (EtLayout          *layout,
                                 EtTrace           *trace,
                                 const EtCliFilter *filter);

int et_cli_render_run (int    argc,
                       char **argv);

G_END_DECLS
