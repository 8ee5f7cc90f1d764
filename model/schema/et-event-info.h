/* et-event-info.h — schemas from the trace's own event metadata.
 *
 * A merged trace (PerfView's merge, xperf -merge, WPR) carries, for each
 * event type of each provider registered on the recording machine, a
 * KernelTraceControl MetaData/EventInfo record (opcode 32: its
 * TRACE_EVENT_INFO, as TdhGetEventInformation returns it) and
 * MetaData/EventMapInfo records (opcode 33: the provider's GUID, then an
 * EVENT_MAP_INFO: one value map or bit map).
 *
 * Pipeline: loading (et-trace-load) hands each such payload to an
 * EtEventInfoSet, which checks it whole; a provider without a manifest
 * in the trace and without a built-in schema then gets an EtManifest
 * built from them through the manifest parser's own state
 * (_et_manifest_tables_*, as et-builtin does), so decoding, maps and
 * damage are the manifest decoder's: one mechanism, no second decoder.
 */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-manifest.h"

G_BEGIN_DECLS

/* KernelTraceControl's MetaData class and its two event types. */
#define ET_EVENT_INFO_CLASS "bbccf6c1-6cd1-48c4-80ff-839482e37671"
#define ET_EVENT_INFO_OPCODE     32
#define ET_EVENT_MAP_INFO_OPCODE 33

typedef struct _EtEventInfoSet EtEventInfoSet;

EtEventInfoSet *et_event_info_set_new      (void);
void            et_event_info_set_free     (EtEventInfoSet *set);

/* TRUE for a MetaData/EventInfo or /EventMapInfo record's class and type. */
gboolean        et_event_info_is_metadata  (const EtGuid   *class_guid,
                                            guint8          opcode);

/* Adds one EventInfo (@opcode 32) or EventMapInfo (33) payload. The
 * payload is checked whole first: every name, map name and label inside
 * it, every struct's members and every count or length that names
 * another property (an earlier one, in the same or an enclosing struct).
 * Bad metadata returns FALSE with an ET_ETL_ERROR naming the payload's
 * byte offset and is not kept: events of that type then stay raw (a
 * bad map: the events whose fields use it). A copy of a good payload is
 * kept. A second EventInfo of the same (provider, id, version), or a
 * second map of the same name, is ignored: the first stands. */
gboolean        et_event_info_set_add      (EtEventInfoSet *set,
                                            guint8          opcode,
                                            const guint8   *payload,
                                            gsize           len,
                                            GError        **error);

/* TRUE when some EventInfo described an event of @provider. */
gboolean        et_event_info_set_has      (const EtEventInfoSet *set,
                                            const EtGuid         *provider);
/* The provider's name as its metadata gives it, or NULL. */
const char     *et_event_info_set_provider_name (const EtEventInfoSet *set,
                                                 const EtGuid         *provider);
/* A new manifest of @provider's described events (the caller frees it),
 * or NULL when there are none. Events are named as TraceEvent names them:
 * Task, or Task/Opcode ("ETW_TASK_PROVIDER/ETW_OPCODE_ENABLE"), spaces
 * left out and '-' as '_'; "EventID(N)" without a task name. */
EtManifest     *et_event_info_set_manifest_new (const EtEventInfoSet *set,
                                                const EtGuid         *provider);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtEventInfoSet, et_event_info_set_free)

G_END_DECLS
