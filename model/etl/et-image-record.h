/* et-image-record.h — compact EVENT records for in-memory images.
 *
 * An image made from another format (et-nettrace-image) holds millions of
 * events that share a few event types. Written as EVENT_HEADER records,
 * each would repeat its 80-byte header and its type's extended items (the
 * provider traits and TraceLogging metadata, often longer than the
 * payload). A compact record holds only what differs from event to event
 * and names its type; parsing it gives the EtRecord its full form would
 * give (same fields, same items, same payload), the items pointing at the
 * type's one copy.
 *
 *   0  u16  size, before the padding to 8 (ET_IMAGE_NEAR: the payload's
 *           length)
 *   2  u8   flags: ET_IMAGE_WIDE (type and thread id follow the header),
 *           ET_IMAGE_ACTIVITY (an ActivityId follows), ET_IMAGE_OWN_ITEMS
 *           (the record's own item chain follows, after its u32 length
 *           and 4 bytes of padding), ET_IMAGE_PAYLOAD_AT (the payload is
 *           not in the record but in the image's source file: a u64 in
 *           its place, the low 48 bits its offset, the high 16 its
 *           length), ET_IMAGE_SHORT_TIME (the time is an i32 counted
 *           from the buffer's, see below: the header is 12 bytes),
 *           ET_IMAGE_NEAR (the whole record is 16 bytes, below)
 *   3  u8   ET_IMAGE_RECORD_MARK
 *   4  u16  type: index into the image's types (ET_IMAGE_WIDE: 0xFFFF)
 *   6  u16  thread: index into the image's thread ids (ET_IMAGE_WIDE: 0xFFFF)
 *   8  u64  timestamp (ET_IMAGE_SHORT_TIME, ET_IMAGE_NEAR: i32)
 *  16  [u32 type, u32 thread id] [ActivityId, 16 bytes]
 *      [u32 length, 4 bytes padding, own items] payload | payload's place
 *      (ET_IMAGE_SHORT_TIME: from 12 on; never with own items)
 *
 * Sixteen bytes a record where an EVENT_HEADER record takes 80 and its
 * items. A payload may be named where it lies in the mapped source file
 * instead of copied (the image's writer chooses: et-nettrace-image names
 * those longer than 64 bytes): the image then holds no second copy of
 * the events' data, and a .nettrace's image is a fraction of the file.
 * Such a payload is not 8-byte aligned (the file packs them); every
 * decoder reads payloads through et-bytes.h, which does not care.
 *
 * A buffer's header tells what its records' times and payloads count
 * from (EtImageBases, at ET_IMAGE_BUFFER_BASES): a record whose time is
 * within 2^31 ticks of the buffer's holds it in 4 bytes, and one of a
 * narrow header, no ActivityId, no items of its own and a payload in the
 * source file within 4 GiB past the buffer's source base is
 * ET_IMAGE_NEAR, 16 bytes in all:
 *
 *   0  u16  the payload's length
 *   2  u8   ET_IMAGE_NEAR
 *   3  u8   ET_IMAGE_RECORD_MARK
 *   4  u16  type, 6 u16 thread (as above)
 *   8  i32  time, counted from the buffer's
 *  12  u32  the payload's offset, counted from the buffer's source base
 *
 * (A .nettrace of kilobyte payloads: 16 bytes an event where the long
 * form took 24, a third of its peak beyond the file; issue 36.)
 * Only files made in memory have compact records (et_etl_file_new_from_image
 * with types): a file read from disk is never parsed this way.
 */
#pragma once

#include "et-etl-reader.h"
#include "et-mapping.h"

G_BEGIN_DECLS

#define ET_IMAGE_RECORD_MARK   0xE7
#define ET_IMAGE_RECORD_HEADER 16
#define ET_IMAGE_SHORT_HEADER  12   /* ET_IMAGE_SHORT_TIME */
#define ET_IMAGE_NEAR_SIZE     16   /* ET_IMAGE_NEAR, the whole record */
/* Where a buffer's header holds its EtImageBases: its time (i64), then
 * its source base (u64), in the header's TimeStamp and SequenceNumber
 * fields, which nothing reads in an image. */
#define ET_IMAGE_BUFFER_BASES  0x10
#define ET_IMAGE_NARROW_MAX    0xFFFE   /* the largest index the header holds */
/* The processor of an image buffer whose events' source does not say on
 * which processor they were written (a .nettrace event's number -1: every
 * one in PerfView's test inputs but those of .NET Core 3.0), or gives one
 * past 254. */
#define ET_IMAGE_CPU_UNKNOWN   255
/* A payload's place when it is in the source file. */
#define ET_IMAGE_PAYLOAD_PLACE 8
#define ET_IMAGE_SOURCE_MAX    ((G_GUINT64_CONSTANT (1) << 48) - 1) /* largest offset */
#define ET_IMAGE_INLINE        G_MAXUINT64   /* "the payload is in the record" */

enum
{
  ET_IMAGE_ACTIVITY = 1 << 0,
  ET_IMAGE_OWN_ITEMS = 1 << 1,
  ET_IMAGE_WIDE = 1 << 2,
  ET_IMAGE_PAYLOAD_AT = 1 << 3,
  ET_IMAGE_SHORT_TIME = 1 << 4,
  ET_IMAGE_NEAR = 1 << 5,
};

/* What a buffer's short records count from: a time, and an offset in the
 * source file. */
typedef struct
{
  gint64  time;
  guint64 source;
} EtImageBases;

/* The event a compact record is written for: of @type, on thread
 * @thread (an index into the thread ids, which holds @tid). @activity
 * may be NULL (none); the record's own item chain, when it has one, is
 * @head followed by @tail. @payload_at is the payload's offset in the
 * source file (at most ET_IMAGE_SOURCE_MAX, and @payload_len at most
 * G_MAXUINT16), or ET_IMAGE_INLINE to copy @payload in. */
typedef struct
{
  guint32       type;
  guint32       thread;
  guint32       tid;
  gint64        ts;
  const EtGuid *activity;
  const guint8 *head;
  gsize         head_len;
  const guint8 *tail;
  gsize         tail_len;
  const guint8 *payload;
  gsize         payload_len;
  guint64       payload_at;
} EtImageEvent;

/* What every record of one event type shares: its EVENT_HEADER fields
 * and extended items. */
typedef struct
{
  EtGuid      provider;
  GByteArray *items;        /* the item chain every record of the type carries */
  guint64     keywords;
  guint32     pid;
  guint16     id;
  guint16     task;
  guint8      version;
  guint8      level;
  guint8      opcode;
  guint8      pointer_size; /* 4 or 8 */
} EtImageType;

void      et_image_type_free     (gpointer            type);

/* Where a record with a stack is (byte position in its buffer) and its
 * stack: the index of its entry in stack_entries until the trace interns
 * them (et_image_tables' note), then its node. */
typedef struct
{
  guint32 pos;
  guint32 node;
} EtImageStackRef;

/* A StackBlock entry an event named: its frames where they lie in the
 * source file (et_image_stack_frames: @ps bytes each, leaf first, not
 * aligned), of process @pid. */
typedef struct
{
  guint64 offset;
  guint32 n_frames;
  guint32 pid;
  guint32 ps;
} EtImageStackEntry;

/* What an image's compact records name by index. */
struct _EtImageTables
{
  GPtrArray *types;     /* EtImageType* */
  GArray    *threads;   /* guint32 thread ids */
  /* The stacks its events carry (a .nettrace's StackBlocks): each entry
   * an event names, once however many events name it, its frames left
   * in the file (copied, they took 9 MB of a 1 M-sample trace's 21 MB:
   * issue 36). The trace model interns them into its stack tree on first
   * use (model/load/et-trace-stacks.c), so that loading does not pay for
   * it: interning a stack is a walk of hash tables as large as the
   * trace's stacks, 40 ms of a 1 M-sample trace's 120 ms image. */
  GArray     *stack_entries;         /* EtImageStackEntry, in the order first named */
  /* EtImageStackRef arrays, one a closed buffer with stacks, in buffer
   * order (kept as the buffers closed them, not copied into one: 8 bytes
   * an event), and the index of each one's buffer */
  GPtrArray  *stack_refs;
  GArray     *stack_ref_buffers;     /* guint32 */
  /* The file ET_IMAGE_PAYLOAD_AT records name (NULL: none), mapped and
   * watched (et-mapping.h) for as long as the image lives. */
  GMappedFile *source_file;
  EtMapping   *source_watch;
  const guint8 *source;
  guint64      source_len;
  /* The records name large payloads in it (FAR_PAYLOADS bytes an event
   * on average or more, et-nettrace-image.c): decoding asks for them some
   * events ahead (et-trace-markers.c). */
  gboolean     far_payloads;
};

EtImageTables *et_image_tables_new  (void);
void      et_image_tables_free   (EtImageTables      *tables);
/* Frees the stacks' arrays (once interned), leaving them empty; the
 * source file's pages read leave the process (they come back from the
 * page cache as records are decoded). */
void      et_image_tables_drop_stacks (EtImageTables *tables);
/* The source file's pages leave the process: those a record names come
 * back from the page cache when it is decoded. */
void      et_image_tables_forget_source (EtImageTables *tables);
/* The mapped file (taken) that records' payloads may lie in, and its watch
 * (taken, may be NULL). */
void      et_image_tables_set_source  (EtImageTables *tables,
                                       GMappedFile   *file,
                                       EtMapping     *watch);

/* The frames of stack entry @e (of @tables->stack_entries), in the
 * mapped source file. A file that shrank since it was read gives zeros
 * for the pages that vanished (et-mapping.h): addresses of no module. */
static inline const guint8 *
et_image_stack_frames (const EtImageTables     *tables,
                       const EtImageStackEntry *e)
{
  return tables->source + e->offset;
}

/* Writes @bases into the buffer header at @header. */
void      et_image_buffer_set_bases (guint8             *header,
                                     const EtImageBases *bases);

/* The size of @e's compact record before its padding to 8, in a buffer
 * of @bases (NULL: the long forms only, as in a buffer whose header has
 * none). */
gsize     et_image_record_size   (const EtImageEvent *e,
                                  const EtImageBases *bases);

/* Writes @e's compact record of @size (et_image_record_size with the
 * same @bases) and its padding at @at. */
void      et_image_record_write  (guint8             *at,
                                  gsize               size,
                                  const EtImageEvent *e,
                                  const EtImageBases *bases);

/* Parses the compact record at @pos of the buffer @buffer (@len bytes,
 * header included) of an image with @tables (a payload in the source
 * file: record->payload points into its mapping). FALSE with a static
 * reason when it does not fit, or names bytes the source does not have
 * (or no longer has: the file shrank, et-mapping.h). */
gboolean  et_image_record_parse  (const guint8       *buffer,
                                  gsize               pos,
                                  gsize               len,
                                  const EtImageTables *tables,
                                  EtRecord           *record,
                                  const char        **reason);
/* The same for a walk over every record (loading, right after the image
 * is made): a payload in the source file is not read to see that it is
 * still there, so that the walk brings back none of the file's pages. */
gboolean  et_image_record_parse_walked (const guint8       *buffer,
                                        gsize               pos,
                                        gsize               len,
                                        const EtImageTables *tables,
                                        EtRecord           *record,
                                        const char        **reason);

/* The last byte of the payload the record at @pos names in the source
 * file, or NULL (none, or a record that does not parse so far): for a
 * walk that asks for payloads some records ahead of reading them. */
const guint8 *et_image_record_payload_end (const guint8        *buffer,
                                           gsize                pos,
                                           gsize                len,
                                           const EtImageTables *tables);

G_END_DECLS
