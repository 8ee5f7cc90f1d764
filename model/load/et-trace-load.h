/* et-trace-load.h — opening a file as an EtTrace: the loading pipeline
 * (load/README.md) behind one call.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

/* Loads @path. Returns NULL and sets @error (ET_ETL_ERROR, naming the file
 * and byte offset) only when nothing can be read; damage that could be
 * skipped is in et_trace_get_damage (). */
EtTrace *et_trace_load (const char     *path,
                        EtLoadFlags     flags,
                        EtProgressFunc  progress,
                        gpointer        progress_data,
                        GCancellable   *cancellable,
                        GError        **error);

G_END_DECLS
