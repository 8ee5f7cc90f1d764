/* et-derived.h — values an event does not carry but a reader of it wants,
 * computed from its payload, its record's header or earlier events of the
 * trace, as PerfView's TraceEvent shows them: a GC's TotalHeapSize, an
 * image's build time, the file a disk read was for... (et-derived.c,
 * et-derived-kernel.c; the list is in model/README.md).
 *
 * et_trace_decode_event appends them after the payload's fields, each
 * marked `derived` (EtField) and declared with an in-type like a payload
 * field. Loading never computes them, and the marker rules do not read
 * them: markers are the payload's.
 */
#pragma once

#include "et-trace.h"
#include "et-fields.h"

G_BEGIN_DECLS

typedef struct _EtDerived EtDerived;

/* Appends the derived fields of event @index (decoded into @event and
 * @fields). The indexes over earlier events a value needs are built on
 * the first call that needs them, once per trace (thread-safe). */
void        _et_derived_append     (EtTrace        *trace,
                                    guint64         index,
                                    const EtEvent  *event,
                                    EtFields       *fields);
void        _et_derived_free       (EtDerived      *state);

G_END_DECLS
