/* et-mapping.h — memory-mapped files that may shrink while they are read.
 *
 * A trace still being copied, or rewritten by its logger, can get shorter
 * while Etlscope has it mapped; touching a page past the new end raises
 * SIGBUS, which would kill the program. A watched mapping survives that:
 * the pages that vanished read as zeros from then on, and the mapping
 * remembers the first offset found gone, so that its reader can report it
 * as damage and keep what it had read.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtMapping EtMapping;

/* Opens @path to be mapped; only a regular file (a FIFO, directory or
 * device is refused at once, in an ET_ETL_ERROR_IO naming the file and
 * what it is). The descriptor, or -1. */
int        et_mapping_open_regular (const char *path,
                                    GError    **error);

/* Watches the mapped bytes [@data, @data + @len) (@data page-aligned, as
 * mmap returns it). NULL when @len is 0 or all watch slots are taken (then
 * a vanished page still raises SIGBUS as before). */
EtMapping *et_mapping_watch     (const void *data,
                                 gsize       len);
/* Before the bytes are unmapped. Accepts NULL. */
void       et_mapping_unwatch   (EtMapping  *mapping);
/* Offset from @data of the first page found gone, or G_MAXUINT64 while
 * every page read was there. Accepts NULL (G_MAXUINT64). */
guint64    et_mapping_lost_from (EtMapping  *mapping);

/* A reader going through a large mapped file from its start on faults
 * its pages in one at a time on one core (half of opening a 2 GB trace).
 * A prefault maps them from the file's end back on a thread of its own,
 * until it meets the reader: NULL when the file is too small to gain from
 * it, or the machine has one core (ETLSCOPE_THREADS=1 too). Pages of a
 * watched mapping that vanished read as zeros on that thread too. */
typedef struct _EtPrefault EtPrefault;

EtPrefault *et_mapping_prefault_begin   (const void *data,
                                         gsize       len);
/* The reader is at @offset: the thread stops when it gets there. Accepts
 * NULL. */
void        et_mapping_prefault_reached (EtPrefault *prefault,
                                         gsize       offset);
/* Whether the thread has finished: met the reader, or mapped every page.
 * Accepts NULL (TRUE). */
gboolean    et_mapping_prefault_done    (EtPrefault *prefault);
/* Stops the thread wherever it is, and frees @prefault. Accepts NULL. */
void        et_mapping_prefault_end     (EtPrefault *prefault);

G_END_DECLS
