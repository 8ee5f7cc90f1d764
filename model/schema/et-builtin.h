/* et-builtin.h — schemas Etlscope knows without a manifest in the trace.
 *
 * The .NET runtime's providers (Microsoft-Windows-DotNETRuntime, its
 * Rundown and Private providers) never write their manifest into a trace:
 * PerfView knows their events, and so do we. Their schemas are compact
 * static tables (et-builtin-clr*.c) turned into an ordinary EtManifest,
 * so that decoding, fixed layouts, value maps and damage reports are the
 * manifest decoder's own. Nothing here depends on the .etl format: a
 * reader of another format asks for (provider GUID, event id, version).
 */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-manifest.h"

G_BEGIN_DECLS

/* TRUE when Etlscope has a built-in schema for @provider. */
gboolean               et_builtin_has          (const EtGuid *provider);
/* A new manifest built from the tables of @provider (the caller frees
 * it), or NULL when there are none. Events are named as PerfView names
 * them ("GC/Start", "Loader/ModuleDCStop"). */
EtManifest            *et_builtin_manifest_new (const EtGuid *provider);
/* The built-in schema of event (@id, @version) of @provider, from one
 * copy shared by the whole process (built on first use, thread-safe), or
 * NULL. Lookup as et_manifest_lookup: the exact version, else the highest
 * one. @manifest (optional) is set to the manifest to decode it with. */
const EtManifestEvent *et_builtin_lookup       (const EtGuid       *provider,
                                                guint16             id,
                                                guint8              version,
                                                const EtManifest  **manifest);

G_END_DECLS
