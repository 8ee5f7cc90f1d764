/* et-nettrace-image.h — a .nettrace file as the trace model reads files.
 *
 *   .nettrace ─ et-nettrace-reader ─ metadata ─ TraceLogging schemas (once per type)
 *                                  ─ events   ─ EVENT_HEADER records ─┐
 *   log-file header record (clock, process, processors, losses) ──────┼→ EtEtlFile
 *                                                                     │  (in memory)
 * EventSource events become self-describing records: their EventPipe
 * metadata is written as the TraceLogging metadata that the .etl path
 * already decodes (et-tracelogging), with the provider's name as its
 * traits, so fields, marker rules and span pairing are the .etl ones.
 * EventPipe carries no tasks: EventSource's own rule gives them (event N
 * has task 0xFFFE − N, a …Stop the task of its …Start), so ends pair with
 * starts of their own kind; series stay empty (TraceLogging has no task
 * names). Format 4 has no opcodes either: …Start and …Stop names give
 * them, as TraceEvent does.
 * The runtime's own providers (Microsoft-Windows-DotNETRuntime and its
 * rundown, the sample profiler) carry no field descriptions in EventPipe
 * and get their well-known GUIDs, as in an .etl, and no schema: they are
 * listed, off by default. Damage is reported with .nettrace file offsets:
 * a record's position inside the image maps back to the EventBlock of its
 * buffer's first record (buffers are filled to about 256 KiB of full
 * records each). The records name their payloads where they lie in the
 * file, which the EtEtlFile keeps mapped: no second copy of the events.
 */
#pragma once

#include <gio/gio.h>
#include "et-etl-reader.h"

G_BEGIN_DECLS

/* TRUE when the file at @path starts with the .nettrace magic. */
gboolean   et_nettrace_file_sniff (const char   *path);

/* Reads the .nettrace file at @path into an in-memory EtEtlFile, telling
 * @damage (may be NULL: none told) what it finds damaged and @progress
 * (may be NULL) how far it got. NULL with an ET_ETL_ERROR naming
 * the file and offset when it cannot be read at all, or a G_IO_ERROR when
 * @cancellable was cancelled. */
EtEtlFile *et_nettrace_open       (const char    *path,
                                   EtDamageFunc   damage,
                                   gpointer       damage_data,
                                   void         (*progress) (guint64  done,
                                                             guint64  total,
                                                             gpointer user_data),
                                   gpointer       progress_data,
                                   GCancellable  *cancellable,
                                   GError       **error);

/* Items built on a thread beside reading (et-nettrace-image.c), by this
 * process so far: for tests, that opening a large trace used one. */
guint64    _et_nettrace_built_beside (void);

G_END_DECLS
