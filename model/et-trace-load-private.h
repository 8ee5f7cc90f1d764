/* et-trace-load-private.h — what the loading pipeline's two files share:
 * et-trace-load.c (walk, sort, manifests, threads, entry point) and
 * et-trace-markers.c (decode in parallel, marker rules, span pairing,
 * channel layout). */
#pragma once

#include "et-trace-private.h"

G_BEGIN_DECLS

typedef struct
{
  guint32  pid;
  guint32  tid;
  gboolean has_ids;
  guint64  n_events;
  guint    final;
} TempThread;

/* The last provider looked up: records of one provider come in runs. */
typedef struct
{
  EtGuid   guid;
  guint    index;
  gboolean valid;
} ProviderCache;

typedef struct
{
  EtTrace      *self;
  GArray       *refs;            /* EtEventRef, file order, then time order */
  GArray       *manifest_refs;   /* EtEventRef of manifest events */
  GHashTable   *thread_map;      /* guint64 key → TempThread index + 1 */
  GArray       *temp_threads;    /* TempThread */
  GHashTable   *process_names;   /* pid → char* */
  GHashTable   *thread_names;    /* guint64 key → char* */
  gboolean      header_seen;
  ProviderCache providers;     /* of the scanning pass */
} Loader;

guint    _et_loader_provider_of       (EtTrace             *self,
                                       ProviderCache       *cache,
                                       const EtRecord      *record);
gboolean _et_loader_is_manifest_event (const EtRecord      *record);
gboolean _et_loader_parse_ref         (EtTrace             *self,
                                       const EtEventLoc    *ref,
                                       EtRecord            *record);
void     _et_loader_report_error      (EtTrace             *self,
                                       const EtEventLoc    *ref,
                                       const char          *what,
                                       const GError        *error);
guint    _et_loader_thread_of         (Loader              *loader,
                                       const EtRecord      *record);
void     _et_loader_phase_done        (const char          *phase,
                                       gint64              *since);
gboolean _et_loader_build_markers     (Loader              *loader,
                                       EtLoadFlags          flags,
                                       GCancellable        *cancellable,
                                       GError             **error);

G_END_DECLS
