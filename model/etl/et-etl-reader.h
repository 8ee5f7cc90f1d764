/* et-etl-reader.h — the first stage of the pipeline: bytes → buffers →
 * records (etl-format.md §1–§8).
 *
 *   mapped file ─ buffers (walked by BufferSize, decompressed once)
 *               ─ records (classified by marker byte and HeaderType)
 *
 * Knows nothing of providers' schemas or markers. Damage is reported through
 * a callback with the byte offset; the walk always goes on where it can.
 */
#pragma once

#include <glib.h>
#include "et-guid.h"

G_BEGIN_DECLS

#define ET_BUFFER_HEADER_SIZE 0x48

typedef enum
{
  ET_RECORD_SYSTEM,    /* SYSTEM_TRACE_HEADER and its compact form */
  ET_RECORD_PERFINFO,
  ET_RECORD_FULL,      /* EVENT_TRACE_HEADER */
  ET_RECORD_INSTANCE,  /* EVENT_INSTANCE_GUID_HEADER */
  ET_RECORD_EVENT,     /* EVENT_HEADER */
  ET_RECORD_MESSAGE,   /* MESSAGE_TRACE_HEADER */
  ET_RECORD_ERROR,     /* HeaderType 0x0D: an error while logging */
} EtRecordClass;

/* Extended-data item types we act on (etl-format.md §5.6). */
enum
{
  ET_EXT_RELATED_ACTIVITYID = 1,
  ET_EXT_EVENT_SCHEMA_TL = 11,
  ET_EXT_PROV_TRAITS = 12,
};

typedef struct
{
  guint8        klass;        /* EtRecordClass */
  guint8        header_type;  /* raw HeaderType; 0x0F for messages */
  guint8        pointer_size; /* 4 or 8, from the header type */
  guint8        has_ids;      /* pid/tid present */
  guint16       size;
  guint16       flags;        /* EVENT_HEADER Flags; message option flags */
  guint32       pid;
  guint32       tid;
  gint64        ts;
  guint16       hook;         /* SYSTEM/PERFINFO: type | group << 8 */
  EtGuid        guid;         /* FULL/INSTANCE/EVENT: class or provider GUID */
  guint16       id;
  guint8        version;
  guint8        channel;
  guint8        level;
  guint8        opcode;
  guint16       task;
  guint64       keywords;
  EtGuid        activity_id;
  const guint8 *ext;          /* extended items (EVENT), NULL when none */
  gsize         ext_len;
  gboolean      ext_bad;      /* the item chain does not fit the record: no items */
  guint8        ext_checked;  /* every item was checked as the record was parsed */
  const char   *ext_damage;   /* the first bad item's problem (static text), or NULL; in a
                               * kernel record: extension words it lacks */
  guint16       ext_damage_pos; /* where that item begins in the record */
  const guint8 *payload;
  gsize         payload_len;
} EtRecord;

/* Classifies and parses the record at @p with @avail bytes left in the
 * buffer. FALSE with a static reason when it cannot be a valid record. */
gboolean     et_record_parse        (const guint8 *p,
                                     gsize         avail,
                                     EtRecord     *record,
                                     const char  **reason);
const char  *et_record_header_name  (const EtRecord *record);  /* "EVENT_HEADER64"… */
/* Finds extended item @type; returns its data or NULL. Items that fail
 * their checks (sizes; the data size of the types with a known layout)
 * are never returned. */
const guint8*et_record_find_ext     (const EtRecord *record,
                                     guint           type,
                                     gsize          *len);
/* The same for the first item of either type, in one walk of the items. */
const guint8*et_record_find_ext_either (const EtRecord *record,
                                        guint           type,
                                        guint           other,
                                        gsize          *len);

typedef struct
{
  guint64 offset;       /* in the file */
  guint32 disk_size;    /* BufferSize */
  guint32 data_end;     /* Offset: end of event data (uncompressed) */
  guint16 flags;        /* BufferFlag */
  guint16 type;         /* BufferType */
  guint16 cpu;
  guint32 data_index;   /* where its (decompressed) bytes are: see et_etl_file_buffer */
  gboolean usable;      /* FALSE when decompression failed */
} EtBufferInfo;

typedef struct _EtEtlFile EtEtlFile;
typedef struct _EtImageTables EtImageTables;   /* et-image-record.h */

/* Called for every problem found; @offset is a file offset. */
typedef void (*EtDamageFunc) (guint64 offset, const char *message, gpointer user_data);

/* Maps @path and walks every buffer header, decompressing compressed
 * buffers. NULL with an error naming the file and offset when the file is
 * not readable as .etl at all. */
EtEtlFile   *et_etl_file_open       (const char   *path,
                                     EtDamageFunc  damage,
                                     gpointer      damage_data,
                                     GError      **error);
void         et_etl_file_free       (EtEtlFile    *file);
guint64      et_etl_file_size       (EtEtlFile    *file);
guint        et_etl_file_n_buffers  (EtEtlFile    *file);
const EtBufferInfo *et_etl_file_buffer_info (EtEtlFile *file, guint index);
/* The buffer's bytes from its header on (decompressed when needed); *len is
 * the end of event data. */
const guint8*et_etl_file_buffer     (EtEtlFile    *file,
                                     guint         index,
                                     gsize        *len);
/* File offset for a position inside buffer @index (the buffer's own offset
 * for compressed buffers, whose positions are not in the file). */
guint64      et_etl_file_offset_of  (EtEtlFile    *file,
                                     guint         index,
                                     gsize         pos);
guint        et_etl_file_n_compressed (EtEtlFile  *file);
/* Whether the file shrank since it was opened (another writer still
 * copying it: the pages gone read as zeros, et-mapping.h). Reported once
 * as damage, with the offset where it ends now; for the loader once its
 * walk of the records is done. */
gboolean     et_etl_file_check_shrinking (EtEtlFile *file);

/* Calls @func for every record of buffer @index in buffer order. A record
 * that does not fit is reported as damage and ends the buffer's walk;
 * returns the number of such bad records (0 or 1). */
typedef void (*EtRecordFunc) (const EtRecord *record,
                              guint           buffer,
                              gsize           pos,
                              gpointer        user_data);
guint        et_etl_file_walk_buffer (EtEtlFile   *file,
                                      guint        index,
                                      EtRecordFunc func,
                                      gpointer     user_data);

/* A file of another format read into memory as .etl buffers (see
 * et-nettrace-image): @chunks (taken; GBytes) hold the @n_buffers buffers
 * in order, back to back within each chunk, each a multiple of 8 bytes
 * starting with its 0x48-byte header; a chunk is one allocation, so that
 * an image of any size needs no block as large as itself. @offsets[i] is
 * the source file offset that damage in buffer i is reported at. Its
 * EVENT records may be compact (et-image-record.h) when @tables (taken,
 * may be NULL) gives what they name. */
EtEtlFile   *et_etl_file_new_from_image (const char    *path,
                                         guint64        file_size,
                                         GPtrArray     *chunks,
                                         const guint64 *offsets,
                                         guint          n_buffers,
                                         EtImageTables *tables);
/* The tables of an in-memory image's compact records (NULL for a file read
 * from disk); the caller may take what they hold (their stacks). */
EtImageTables *et_etl_file_image_tables  (EtEtlFile     *file);
/* The 8-byte slots the model can index events in (EtEventLoc is 32
 * bits): 2^32, 32 GiB of event data, or fewer when ETLSCOPE_SLOT_SPACE
 * says so (the tests reach the limit with small traces that way). The
 * loader, a .nettrace image and the compressed buffers' layout all stop
 * there. */
guint64      et_etl_slot_space          (void);

/* Parses the record at @pos of the buffer @buffer (@len bytes, header
 * included) of @file, as et_record_parse does; an image's compact
 * records too. */
gboolean     et_etl_file_parse_record   (EtEtlFile     *file,
                                         const guint8  *buffer,
                                         gsize          pos,
                                         gsize          len,
                                         EtRecord      *record,
                                         const char   **reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtEtlFile, et_etl_file_free)

G_END_DECLS
