/* et-cli-stacks.h — "etlscope-cli stacks": the CPU samples' call stacks of
 * a range × threads (or of one marker's thread and time) as folded stacks,
 * speedscope's JSON file format, or the call tree as JSON. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int et_cli_stacks_run (int    argc,
                       char **argv);

G_END_DECLS
