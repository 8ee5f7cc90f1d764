/* et-cli-render.h — "etlscope-cli render": the timeline, headless, to a
 * PNG, SVG or PDF file (the same picture the window shows). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_render_run (int    argc,
                       char **argv);

G_END_DECLS
