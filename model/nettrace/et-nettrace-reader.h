/* et-nettrace-reader.h — the EventPipe stream of a .nettrace file
 * (NetTraceFormat_v5.md in microsoft/perfview: format versions 4 and 5).
 *
 *   bytes ─ "Nettrace" + "!FastSerialization.1"
 *         ─ Trace object (clock, pointer size, process, processors)
 *         ─ objects: MetadataBlock → EtNettraceMeta (one per event type)
 *                    EventBlock    → EtNettraceEvent (headers compressed or not)
 *                    StackBlock, SPBlock (counted; sequence points find losses)
 *         ─ NullReference: the end
 *
 * Knows nothing of ETL records, schemas or markers: et-nettrace-image turns
 * what this reads into the trace model's records. Damage is reported through
 * the callback with the byte offset, and reading goes on at the next object
 * it can find.
 */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-etl-reader.h"

G_BEGIN_DECLS

#define ET_NETTRACE_MAGIC     "Nettrace"
#define ET_NETTRACE_MAGIC_LEN 8

/* EventPipe type codes of metadata fields (NetTraceFormat.md, "TypeCode"). */
typedef enum
{
  ET_NT_OBJECT = 1,
  ET_NT_BOOLEAN32 = 3,
  ET_NT_UTF16_CODE_UNIT = 4,
  ET_NT_SBYTE = 5,
  ET_NT_BYTE = 6,
  ET_NT_INT16 = 7,
  ET_NT_UINT16 = 8,
  ET_NT_INT32 = 9,
  ET_NT_UINT32 = 10,
  ET_NT_INT64 = 11,
  ET_NT_UINT64 = 12,
  ET_NT_SINGLE = 13,
  ET_NT_DOUBLE = 14,
  ET_NT_DECIMAL = 15,
  ET_NT_DATETIME = 16,
  ET_NT_GUID = 17,
  ET_NT_UTF16_STRING = 18,
  ET_NT_ARRAY = 19,
} EtNtTypeCode;

/* One node of a metadata field tree, in pre-order: an OBJECT is followed by
 * its n_children members, an ARRAY by its one element type (named as the
 * array). */
typedef struct
{
  char   *name;
  guint8  type;        /* EtNtTypeCode */
  guint16 n_children;
} EtNtField;

typedef struct
{
  guint32     id;
  char       *provider;      /* UTF-8 */
  guint32     event_id;
  char       *name;          /* UTF-8, may be empty */
  guint64     keywords;
  guint8      version;
  guint8      level;
  guint8      opcode;
  gboolean    has_opcode;    /* a V5 opcode tag */
  gboolean    has_fields;    /* the metadata describes its payload */
  GArray     *fields;        /* EtNtField, pre-order */
  guint64     offset;        /* file offset of the metadata payload */
} EtNettraceMeta;

typedef struct
{
  guint32       metadata_id;
  guint32       sequence;
  guint64       thread_id;
  guint64       capture_thread_id;
  guint32       processor;
  guint32       stack_id;
  gint64        timestamp;
  EtGuid        activity_id;
  EtGuid        related_activity_id;
  gboolean      sorted;
  const guint8 *payload;
  gsize         payload_len;
  guint64       offset;       /* file offset of the event's header */
  guint64       block_offset; /* file offset of its EventBlock */
  const guint8 *stack;        /* its stack_id's addresses (pointer_size each, leaf
                               * first), from the StackBlocks since the last
                               * sequence point; NULL when it has none */
  gsize         stack_len;    /* bytes */
} EtNettraceEvent;

typedef struct
{
  guint   format_version;     /* the Trace object's version: 4 (nettrace) */
  guint16 sync_time_utc[8];   /* SYSTEMTIME: year, month, dow, day, h, m, s, ms */
  gint64  sync_time_qpc;
  gint64  qpc_frequency;
  guint32 pointer_size;
  guint32 process_id;
  guint32 n_processors;
  guint32 expected_cpu_sampling_rate;
  gboolean v5_metadata;       /* some metadata carried V5 tags */
} EtNettraceInfo;

typedef struct
{
  guint64  blocks;
  guint64  event_blocks;
  guint64  metadata_blocks;
  guint64  stack_blocks;
  guint64  stacks;
  guint64  stacks_missing;   /* events whose stack id no StackBlock gave (damage) */
  guint64  sequence_points;
  guint64  events;
  guint64  events_skipped;   /* unreadable or without metadata */
  guint64  events_lost;      /* gaps in the capture threads' sequence numbers */
  gboolean end_seen;         /* the closing NullReference tag */
} EtNettraceStats;

typedef void (*EtNettraceMetaFunc)  (const EtNettraceMeta  *meta,
                                     gpointer               user_data);
/* @meta is the event's metadata (never NULL: events without are damage). */
typedef void (*EtNettraceEventFunc) (const EtNettraceEvent *event,
                                     const EtNettraceMeta  *meta,
                                     gpointer               user_data);

/* Called after each object with the offset reading goes on at; FALSE stops
 * the reading (cancelled). */
typedef gboolean (*EtNettraceBlockFunc) (guint64 next, gpointer user_data);

typedef struct
{
  EtNettraceMetaFunc  metadata;
  EtNettraceEventFunc event;
  EtNettraceBlockFunc block;         /* may be NULL */
  gpointer            user_data;     /* for metadata, event and block */
  EtDamageFunc        damage;
  gpointer            damage_data;
} EtNettraceCallbacks;

/* TRUE when @data starts like a .nettrace file (its magic). */
gboolean     et_nettrace_sniff      (const guint8              *data,
                                     gsize                      len);

/* Reads the whole stream in file order, calling @callbacks (until a block
 * callback returns FALSE). FALSE with an
 * ET_ETL_ERROR naming @path and the offset when the stream cannot be read at
 * all (no magic, no Trace object, an unsupported version); damage after the
 * Trace object is reported through callbacks->damage and reading goes on. */
gboolean     et_nettrace_read       (const char                *path,
                                     const guint8              *data,
                                     gsize                      len,
                                     const EtNettraceCallbacks *callbacks,
                                     EtNettraceInfo            *info,
                                     EtNettraceStats           *stats,
                                     GError                   **error);

void         et_nettrace_meta_clear (EtNettraceMeta            *meta);

G_END_DECLS
