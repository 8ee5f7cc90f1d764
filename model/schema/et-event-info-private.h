/* et-event-info-private.h — what et-event-info-set.c (the payloads kept
 * per provider, the manifests built) asks of et-event-info.c (reading and
 * checking TRACE_EVENT_INFO and EVENT_MAP_INFO, filling manifest tables).
 * Nothing outside the et-event-info*.c files includes this. */
#pragma once

#include "et-event-info.h"
#include "et-manifest-private.h"

G_BEGIN_DECLS

/* An EventMapInfo payload begins with its provider's GUID. */
#define ET_EVENT_MAP_INFO_START 16

/* One EventInfo's fixed part, its names in UTF-8. */
typedef struct
{
  EtGuid  provider;
  guint16 id, task;
  guint8  version, level, opcode;
  guint32 source;          /* DecodingSource: 0 for a manifest-based provider */
  guint   n_props, n_top;
  char   *provider_name, *task_name, *opcode_name;
} EtEventInfoHead;

void     _et_event_info_head_clear  (EtEventInfoHead *head);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EtEventInfoHead, _et_event_info_head_clear)

/* Reads @head and, for a manifest-based provider, checks every property:
 * FALSE with an ET_ETL_ERROR naming the payload byte when bad. */
gboolean _et_event_info_check_event (const guint8    *payload,
                                     gsize            len,
                                     EtEventInfoHead *head,
                                     GError         **error);
/* One checked EventInfo into @tables (its task, opcode, template and
 * event); nothing when a field uses a map named in @bad_maps. @named
 * keeps which tasks and opcodes were added already. */
void     _et_event_info_build_event (const guint8     *payload,
                                     gsize             len,
                                     EtManifestTables *tables,
                                     GHashTable       *bad_maps,
                                     GHashTable       *named);
/* One EventMapInfo payload: checked, and its entries added to @tables
 * when given. *@name (transfer full) is its name, or NULL; *@usable FALSE
 * for a kind of map we do not show (patterns, WBEM flags, string values). */
gboolean _et_event_info_walk_map    (const guint8     *payload,
                                     gsize             len,
                                     EtManifestTables *tables,
                                     char            **name,
                                     gboolean         *usable,
                                     GError          **error);

G_END_DECLS
