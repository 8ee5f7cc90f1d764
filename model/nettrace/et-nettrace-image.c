/* et-nettrace-image.c — .nettrace events as the model's records (see
 * et-nettrace-image.h).
 *
 * The image is a list of .etl-style buffers in memory: the first holds the
 * log-file header record made from the Trace object; then, per EventBlock
 * and processor, buffers of compact records (et-image-record.h: what each
 * event's EVENT_HEADER record would hold, its type's header fields and
 * items kept once) in file order. The model sorts them by time as it
 * sorts the CPUs' buffers of an .etl.
 *
 * A payload longer than its place in a record is not copied: the record
 * names where it lies in the file, which stays mapped (and watched, for a
 * file that shrinks) with the image's tables for as long as the trace is
 * open. Closed buffers go into chunks (et-nettrace-chunks.h), so no
 * block is as large as the image; the model's slot space is the only limit.
 */
#include "et-nettrace-image.h"
#include "et-image-record.h"
#include "et-mapping.h"
#include "et-nettrace-reader.h"
#include "et-nettrace-chunks.h"
#include "et-nettrace-types.h"
#include "et-nettrace-pipe.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-workers.h"

#include <stdio.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string.h>

#define BUFFER_DATA_LIMIT  (256u << 10) /* a buffer is closed past this */
/* Payloads of at most this many bytes are copied into their record; the
 * others are named where they lie in the file. A reference saves at most
 * 56 bytes of a small payload, but decoding the event brings back the
 * file's page it lies in (4 KiB, resident again until the trace is
 * closed), and a page holds many small events. Measured for issue 36
 * (peak RSS of info beyond the file; copying up to 8, 32, 64, 128, 256
 * bytes): the bench's nettrace shape (1 M events of 12–24 byte payloads)
 * 83, 67, 66, 66, 66 MB; the corpus SampleProfiler trace 1.33, 1.38,
 * 1.32, 1.84, 1.86 times its size; PerfView's HeartRateMonitor 0.20,
 * 0.21, 0.19, 0.20, 0.54; a trace of 1 KB payloads 0.09 throughout. The
 * images themselves grow little (HeartRateMonitor 2.76 → 2.78 MB, the
 * corpus trace 2.54 → 2.75 MB at 64; the nettrace shape 24 → 33 MB). */
#define COPY_MAX           64
/* Payloads named in the file of this many bytes an event on average, or
 * more, are asked for ahead of decoding them (EtImageTables.far_payloads):
 * the bench's 6 GB shape of kilobyte payloads decoded in 353 ms instead
 * of 544. Where they are fewer or smaller, looking for them only cost
 * time: 6 of the 65 ms of CPU decoding the bench's 1 M-event shape took
 * (its payloads copied into their records), 1.3 of PerfView's
 * HeartRateMonitor's 9.7. */
#define FAR_PAYLOADS       512
#define EVENT_HEADER_SIZE  0x50
#define LOGFILE_HEADER_SIZE 280         /* TRACE_LOGFILE_HEADER, 64-bit, no strings */
#define MAX_CPUS           (ET_IMAGE_CPU_UNKNOWN + 1)   /* the last: unknown (or past it) */
#define NO_ENTRY           G_MAXUINT32   /* a stack of no whole frame */
#define EXT_RELATED_ACTIVITY 1
#define FILETIME_UNIX_EPOCH  G_GINT64_CONSTANT (116444736000000000)

/* What every event of one metadata record shares is an EtImageType: its
 * items are the PROV_TRAITS item and, when known, the EVENT_SCHEMA_TL
 * item, as every full record would carry them. Records are compact
 * (et-image-record.h); buffers and limits still go by the size their
 * full EVENT_HEADER records would have, so that an image has the buffers
 * (and damage the offsets) it had with them. */
typedef EtImageType EventType;

typedef struct
{
  GByteArray *bytes;       /* records of the open buffer (none: n_events 0; kept for
                            * the next), NULL until the processor's first */
  gsize       full_len;    /* what they would take as full records */
  guint64     offset;      /* the EventBlock its first record came from */
  guint64     first_event; /* the file offset of its first event */
  EtImageBases bases;      /* its first event's time and file offset */
  guint32     n_events;
  GArray     *stacks;      /* EtImageStackRef of its records (its buffer noted at close) */
} OpenBuffer;

typedef struct
{
  const char    *path;
  EtDamageFunc   damage;
  gpointer       damage_data;
  EtNettraceInfo info;
  /* Building's (and, before and after, the caller's): */
  EtImageTables *tables;       /* every type and thread id records name */
  GHashTable    *threads;      /* thread id → index + 1 in tables->threads */
  guint32        cached_tid[64];    /* direct-mapped by thread id: its index + 1 */
  guint          cached_thread[64]; /* (0: empty) */
  const guint8  *data;         /* the mapped file: payloads are named in it */
  gsize          len;
  EtNettraceChunks image;      /* closed event buffers */
  GArray        *offsets;      /* guint64 per closed buffer */
  OpenBuffer     open[MAX_CPUS];
  void         (*progress) (guint64, guint64, gpointer);
  gpointer       progress_data;
  GCancellable  *cancellable;
  guint64        file_size;
  guint64        reported;     /* offset told to progress last */
  EtPrefault    *prefault;     /* the file's pages mapped from its end back */
  GHashTable    *stack_entries; /* a StackBlock entry's bytes → its index + 1 in
                                  tables->stack_entries */
  const guint8  *last_stack;   /* the last entry asked for, and its index: a run of */
  guint32        last_entry;   /* samples in one loop names one stack */
  const EtImageType *last_type;   /* the last type asked stack_left_out, and */
  gboolean       last_left_out;   /* its answer (events come in runs of a type) */
  guint64        named_bytes;  /* of payloads records name in the file */
  /* Reading's own (the reading thread's, when there is one), in cache
   * lines of their own: building's writes near them would move the lines
   * reading reads at every event from one core to the other. */
  struct
  {
    GHashTable  *types;           /* metadata id → index + 1 in tables->types */
    guint        n_types;         /* types made (building adds them to tables in turn) */
    guint32      cached_id[64];   /* direct-mapped by metadata id: its type + 1 */
    guint        cached_type[64]; /* (0: empty) */
    EtNtPipe    *pipe;            /* to building, on another thread (NULL: none) */
    GThread     *building;        /* that thread */
    gboolean     single;          /* one thread does both, always */
    EtNettraceStats stats;        /* counted at every event */
  } __attribute__ ((aligned (64))) r;
} Builder;

/* What reading hands building, in file order (et-nettrace-pipe.h): an
 * event of a type, a type, or damage found in reading. An item is half a
 * cache line: an event is what building reads of it, with what most
 * events lack (a stack, activity ids, a payload far from its header) in
 * the items after it. Moving whole EtNettraceEvents (three lines) from
 * one core's cache to the other's took more than building their records
 * (issue 36). */
typedef enum
{
  ITEM_EVENT,
  ITEM_TYPE,
  ITEM_DAMAGE,
  ITEM_MORE,        /* what the event before holds beyond its item */
} ItemKind;

/* ITEM_EVENT's more: the items after it, in this order */
enum
{
  MORE_PAYLOAD = 1 << 0,    /* u.payload: its payload's place and length */
  MORE_STACK = 1 << 1,      /* u.stack */
  MORE_ACTIVITY = 1 << 2,   /* u.id: its activity id */
  MORE_RELATED = 1 << 3,    /* u.id: its related activity id */
};

#define AT_OFFSET_BITS 48   /* event.at: the header's offset, then its cpu and how far */
#define AT_CPU_SHIFT   48   /* after it the payload begins (8 bits each) */
#define AT_AFTER_SHIFT 56

typedef struct
{
  union
  {
    struct
    {
      gint64  ts;
      guint64 at;               /* offset | cpu << 48 | payload after header << 56 */
      guint32 block_before;     /* how far its EventBlock begins before it */
      guint32 tid;
    } event;
    EventType *new_type;
    struct
    {
      guint64 offset;
      char   *message;
    } damage;
    struct
    {
      const guint8 *bytes;
      guint64       len;
    } payload, stack;
    EtGuid id;
  } u;
  guint32 type;                 /* ITEM_EVENT: index + 1 in tables->types */
  guint16 payload_len;          /* ITEM_EVENT without MORE_PAYLOAD */
  guint8  kind;                 /* ItemKind */
  guint8  more;                 /* ITEM_EVENT: MORE_… */
} Item;

#define ITEM_SIZE 32
G_STATIC_ASSERT (sizeof (Item) == ITEM_SIZE);   /* (item[1] is the next) */

static guint build (Builder *bld, const Item *item);
static void  maybe_build_beside (Builder *bld, guint64 next);

/* Where reading puts its next item: the pipe's next place, or @local
 * (built at once by item_made when there is no building thread). */
static Item *
item_place (Builder *bld, Item *local)
{
  return bld->r.pipe != NULL ? _et_nt_pipe_slot (bld->r.pipe, 1) : local;
}

static void
item_made (Builder *bld, Item *item)
{
  if (bld->r.pipe == NULL)
    build (bld, item);
}

static void
on_metadata (const EtNettraceMeta *meta, gpointer user_data)
{
  Builder *bld = user_data;
  Item local, *item = item_place (bld, &local);

  /* A redefined id names the new type from here on; records before keep
   * the old one. */
  bld->r.cached_type[meta->id % G_N_ELEMENTS (bld->r.cached_type)] = 0;
  item->kind = ITEM_TYPE;
  item->u.new_type = _et_nettrace_type_new (meta);
  g_hash_table_replace (bld->r.types, GUINT_TO_POINTER (meta->id),
                        GUINT_TO_POINTER (++bld->r.n_types));
  item_made (bld, item);
}

static void
on_read_damage (guint64 offset, const char *message, gpointer user_data)
{
  Builder *bld = user_data;
  Item local, *item = item_place (bld, &local);

  item->kind = ITEM_DAMAGE;
  item->u.damage.offset = offset;
  item->u.damage.message = g_strdup (message);
  item_made (bld, item);
}

static void
put_guid_at (guint8 *p, const EtGuid *g)
{
  _et_nt_set (p, g->data1, 4);
  _et_nt_set (p + 4, g->data2, 2);
  _et_nt_set (p + 6, g->data3, 2);
  memcpy (p + 8, g->data4, 8);
}

/* ---- records and buffers ---------------------------------------------- */

static void
write_buffer_header (guint8 *at, guint32 size, guint32 data_end, guint cpu,
                     const EtImageBases *bases)
{
  memset (at, 0, ET_BUFFER_HEADER_SIZE);
  _et_nt_set (at, size, 4);
  at[0x28] = (guint8) cpu;
  _et_nt_set (at + 0x30, data_end, 4);
  if (bases != NULL)
    et_image_buffer_set_bases (at, bases);
}

static void
close_buffer (Builder *bld, guint cpu)
{
  OpenBuffer *o = &bld->open[cpu];
  guint32 size;
  guint8 *at;

  if (o->bytes == NULL || o->n_events == 0)
    return;
  size = ET_BUFFER_HEADER_SIZE + o->bytes->len;
  /* the header buffer is 0: this one is the offsets' count + 1 */
  if (!_et_nettrace_chunks_have_slots (&bld->image, bld->offsets->len + 1, size))
    {
      _et_nettrace_chunks_count_beyond (&bld->image, o->n_events, o->first_event);
      g_clear_pointer (&o->stacks, g_array_unref);
      g_byte_array_set_size (o->bytes, 0);
      o->n_events = 0;
      return;
    }
  at = _et_nettrace_chunks_reserve (&bld->image, size);
  bld->image.kept_bytes += size;
  write_buffer_header (at, size, size, cpu, &o->bases);
  memcpy (at + ET_BUFFER_HEADER_SIZE, o->bytes->data, o->bytes->len);
  g_array_append_val (bld->offsets, o->offset);
  g_byte_array_set_size (o->bytes, 0);
  o->n_events = 0;
  if (o->stacks != NULL)
    {
      guint32 buffer = bld->offsets->len;

      g_array_append_val (bld->tables->stack_ref_buffers, buffer);
      g_ptr_array_add (bld->tables->stack_refs, g_steal_pointer (&o->stacks));
    }
}

static void
close_all (Builder *bld)
{
  for (guint cpu = 0; cpu < MAX_CPUS; cpu++)
    {
      close_buffer (bld, cpu);
      g_clear_pointer (&bld->open[cpu].bytes, g_byte_array_unref);
    }
}

/* The record's size: header, items, payload (before the padding to 8). */
static gsize
record_size (const EtNettraceEvent *e, const EventType *t)
{
  gsize size = EVENT_HEADER_SIZE + t->items->len + e->payload_len;

  if (!et_guid_is_zero (&e->related_activity_id))
    size += 8 + 16;
  return size;
}

/* The index of thread @tid in the image's thread ids. */
static guint32
thread_index (Builder *bld, guint32 tid)
{
  guint slot = tid % G_N_ELEMENTS (bld->cached_thread);
  guint index;

  if (bld->cached_thread[slot] != 0 && bld->cached_tid[slot] == tid)
    return bld->cached_thread[slot] - 1;
  index = GPOINTER_TO_UINT (g_hash_table_lookup (bld->threads, GUINT_TO_POINTER (tid)));
  if (index == 0)
    {
      g_array_append_val (bld->tables->threads, tid);
      index = bld->tables->threads->len;
      g_hash_table_insert (bld->threads, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (index));
    }
  bld->cached_tid[slot] = tid;
  bld->cached_thread[slot] = index;
  return index - 1;
}

/* The entry of @e's stack in tables->stack_entries (NO_ENTRY: a stack
 * of no whole frame): each StackBlock entry named once, however many
 * events name it. The trace interns them on first use (et-image-record.h);
 * the same stack in entries of later blocks (the writer starts its stacks
 * again at each sequence point) is interned once then. */
static guint32
stack_entry (Builder *bld, const EtNettraceEvent *e)
{
  EtImageTables *tables = bld->tables;
  guint ps = bld->info.pointer_size == 4 ? 4 : 8;
  EtImageStackEntry entry = { (guint64) (e->stack - bld->data), e->stack_len / ps,
                              bld->info.process_id, ps };
  gpointer index;

  if (e->stack == bld->last_stack)
    return bld->last_entry;
  bld->last_stack = e->stack;
  if ((index = g_hash_table_lookup (bld->stack_entries, e->stack)) != NULL)
    return bld->last_entry = GPOINTER_TO_UINT (index) - 1;
  /* (the reader's stacks are in the mapped file: anything else has none) */
  if (entry.n_frames == 0 || e->stack < bld->data || entry.offset > bld->len
      || entry.n_frames * ps > bld->len - entry.offset)
    return bld->last_entry = NO_ENTRY;
  g_array_append_val (tables->stack_entries, entry);
  g_hash_table_insert (bld->stack_entries, (gpointer) e->stack,
                       GUINT_TO_POINTER (tables->stack_entries->len));
  return bld->last_entry = tables->stack_entries->len - 1;
}

static void
note_stack (Builder *bld, OpenBuffer *o, const EtNettraceEvent *e, const EventType *t,
            guint start)
{
  EtImageStackRef ref = { ET_BUFFER_HEADER_SIZE + start, 0 };

  if (e->stack == NULL || e->stack_len < 4 || bld->stack_entries == NULL)
    return;
  if (t != bld->last_type)
    {
      bld->last_type = t;
      bld->last_left_out = _et_nettrace_type_stack_left_out (t);
    }
  if (bld->last_left_out)
    return;
  ref.node = stack_entry (bld, e);
  if (ref.node == NO_ENTRY)
    return;
  if (o->stacks == NULL)
    o->stacks = g_array_sized_new (FALSE, FALSE, sizeof (EtImageStackRef), 1024);
  g_array_append_val (o->stacks, ref);
}

/* Where @e's payload lies in the file, or ET_IMAGE_INLINE when it is to
 * be copied: one no longer than its place in a record, or not in the
 * mapped file (the reader hands out pointers into it; anything else is
 * copied, to be safe). */
static guint64
payload_at (const Builder *bld, const EtNettraceEvent *e)
{
  if (e->payload_len <= COPY_MAX || e->payload < bld->data
      || e->payload_len > bld->len || (gsize) (e->payload - bld->data) > bld->len - e->payload_len
      || (guint64) (e->payload - bld->data) > ET_IMAGE_SOURCE_MAX)
    return ET_IMAGE_INLINE;
  return (guint64) (e->payload - bld->data);
}

/* The compact record (et-image-record.h) of @e, of type @type (index + 1):
 * what its EVENT_HEADER record (etl-format.md §5.6) would hold, with the
 * related activity item, when there is one, before the type's items in
 * the record's own chain, and its payload named where it lies in the
 * file. Written in place: a trace holds millions. */
static void
put_record (Builder *bld, OpenBuffer *o, const EtNettraceEvent *e, guint type)
{
  const EventType *t = g_ptr_array_index (bld->tables->types, type - 1);
  gboolean related = !et_guid_is_zero (&e->related_activity_id);
  gboolean activity = !et_guid_is_zero (&e->activity_id);
  guint8 item[8 + 16] = { 0 };
  guint32 tid = (guint32) e->thread_id;
  EtImageEvent r = {
    .type = type - 1, .thread = thread_index (bld, tid), .tid = tid, .ts = e->timestamp,
    .activity = activity ? &e->activity_id : NULL,
    .head = related ? item : NULL, .head_len = related ? sizeof item : 0,
    .tail = related ? t->items->data : NULL, .tail_len = related ? t->items->len : 0,
    .payload = e->payload, .payload_len = e->payload_len, .payload_at = payload_at (bld, e),
  };
  gsize size;
  guint start = o->bytes->len;

  if (r.payload_at != ET_IMAGE_INLINE)
    bld->named_bytes += e->payload_len;
  if (related)
    {
      _et_nt_set (item, sizeof item, 2);
      _et_nt_set (item + 2, EXT_RELATED_ACTIVITY, 2);
      _et_nt_set (item + 4, 1, 2);                    /* more items follow */
      _et_nt_set (item + 6, 16, 2);
      put_guid_at (item + 8, &e->related_activity_id);
    }
  size = et_image_record_size (&r, &o->bases);
  g_byte_array_set_size (o->bytes, start + ((size + 7) & ~(gsize) 7));
  et_image_record_write (o->bytes->data + start, size, &r, &o->bases);
  o->full_len += (record_size (e, t) + 7) & ~(gsize) 7;
  o->n_events++;
  note_stack (bld, o, e, t, start);
}

static void
report (Builder *bld, guint64 offset, const char *what)
{
  g_autofree char *message = NULL;

  if (bld->damage == NULL)
    return;                 /* (the caller wants none told) */
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s", bld->path, offset,
                             what);
  bld->damage (offset, message, bld->damage_data);
}

/* Building: event @e of @type (index + 1) into its processor's buffer. */
static void
build_event (Builder *bld, const EtNettraceEvent *e, guint type)
{
  guint cpu = MIN (e->processor, MAX_CPUS - 1);
  const EventType *t = g_ptr_array_index (bld->tables->types, type - 1);
  OpenBuffer *o;

  if (bld->image.beyond_events > 0)
    {
      /* past the slot space: counted, reported once at the end */
      _et_nettrace_chunks_count_beyond (&bld->image, 1, e->offset);
      return;
    }
  if (record_size (e, t) > G_MAXUINT16)
    {
      g_autofree char *what = g_strdup_printf ("an event of %" G_GSIZE_FORMAT " payload bytes "
                                               "is larger than Etlscope's records; skipped",
                                               e->payload_len);
      report (bld, e->offset, what);
      return;
    }
  /* Buffers are filled to about the same size whatever the blocks: the
   * model's event slots are spaced by the largest buffer, so many small
   * buffers beside one large one would use up their 2^32. Damage found in
   * a record is reported at the EventBlock of its buffer's first record. */
  o = &bld->open[cpu];
  if (o->n_events > 0 && o->full_len > BUFFER_DATA_LIMIT)
    close_buffer (bld, cpu);
  if (o->bytes == NULL)
    o->bytes = g_byte_array_sized_new (BUFFER_DATA_LIMIT + G_MAXUINT16 + 8);
  if (o->n_events == 0)
    {
      o->full_len = 0;
      o->offset = e->block_offset;
      o->first_event = e->offset;
      o->bases = (EtImageBases) { e->timestamp, e->offset };
    }
  put_record (bld, o, e, type);
}

/* The event an ITEM_EVENT and its ITEM_MOREs were made of, from the
 * mapped file @data: the fields building reads (the others are left
 * unset). Returns how many items that took. */
static guint
event_of_item (const Item *item, const guint8 *data, EtNettraceEvent *e)
{
  static const EtGuid none;
  guint64 at = item->u.event.at;
  const Item *more = item + 1;

  e->timestamp = item->u.event.ts;
  e->offset = at & ((G_GUINT64_CONSTANT (1) << AT_OFFSET_BITS) - 1);
  e->block_offset = e->offset - item->u.event.block_before;
  e->thread_id = item->u.event.tid;
  e->processor = (guint32) (at >> AT_CPU_SHIFT) & 0xFF;
  e->payload = data + e->offset + (at >> AT_AFTER_SHIFT);
  e->payload_len = item->payload_len;
  e->stack = NULL;
  e->stack_len = 0;
  e->activity_id = none;
  e->related_activity_id = none;
  if (item->more & MORE_PAYLOAD)
    e->payload = more->u.payload.bytes, e->payload_len = more->u.payload.len, more++;
  if (item->more & MORE_STACK)
    e->stack = more->u.stack.bytes, e->stack_len = more->u.stack.len, more++;
  if (item->more & MORE_ACTIVITY)
    e->activity_id = more++->u.id;
  if (item->more & MORE_RELATED)
    e->related_activity_id = more++->u.id;
  return (guint) (more - item);
}

/* Builds @item; returns how many items it took (an event: it and its
 * ITEM_MOREs). */
static guint
build (Builder *bld, const Item *item)
{
  EtNettraceEvent e;
  guint n;

  switch ((ItemKind) item->kind)
    {
    case ITEM_EVENT:
      n = event_of_item (item, bld->data, &e);
      build_event (bld, &e, item->type);
      return n;
    case ITEM_TYPE:
      g_ptr_array_add (bld->tables->types, item->u.new_type);
      break;
    case ITEM_DAMAGE:
      bld->damage (item->u.damage.offset, item->u.damage.message, bld->damage_data);
      g_free (item->u.damage.message);
      break;
    case ITEM_MORE:
      break;                /* (taken with its event) */
    }
  return 1;
}

/* Copies @n items into the pipe's places past the caches: the builder
 * reads them next on the other core, and a store into a line its cache
 * holds would first have to take the line back from there. */
static void
stream_items (Item *to, const Item *from, guint n)
{
#if defined(__SSE2__)
  for (guint i = 0; i < n * (ITEM_SIZE / 16); i++)
    _mm_stream_si128 ((__m128i *) to + i, _mm_loadu_si128 ((const __m128i *) from + i));
#else
  memcpy (to, from, n * ITEM_SIZE);
#endif
}

/* Reading: event @e of @type as an ITEM_EVENT and what it has beyond. */
static void
put_event_item (EtNtPipe *pipe, const guint8 *data, const EtNettraceEvent *e, guint type)
{
  Item items[5];
  guint n = 1;
  guint64 after = (guint64) (e->payload - (data + e->offset));

  items[0] = (Item) { .kind = ITEM_EVENT, .type = type };
  items[0].u.event.ts = e->timestamp;
  items[0].u.event.block_before = (guint32) (e->offset - e->block_offset);
  items[0].u.event.tid = (guint32) e->thread_id;
  items[0].u.event.at = e->offset | (guint64) MIN (e->processor, MAX_CPUS - 1) << AT_CPU_SHIFT;
  /* (the reader's payloads lie right after their headers, in the file;
   * a mapped file's offsets are below 2^47, the process's address space) */
  if (e->payload >= data + e->offset && after <= 0xFF && e->payload_len <= G_MAXUINT16)
    {
      items[0].u.event.at |= after << AT_AFTER_SHIFT;
      items[0].payload_len = (guint16) e->payload_len;
    }
  else
    {
      items[0].more |= MORE_PAYLOAD;
      items[n++] = (Item) { .kind = ITEM_MORE, .u.payload = { e->payload, e->payload_len } };
    }
  if (e->stack != NULL)
    {
      items[0].more |= MORE_STACK;
      items[n++] = (Item) { .kind = ITEM_MORE, .u.stack = { e->stack, e->stack_len } };
    }
  if (!et_guid_is_zero (&e->activity_id))
    {
      items[0].more |= MORE_ACTIVITY;
      items[n++] = (Item) { .kind = ITEM_MORE, .u.id = e->activity_id };
    }
  if (!et_guid_is_zero (&e->related_activity_id))
    {
      items[0].more |= MORE_RELATED;
      items[n++] = (Item) { .kind = ITEM_MORE, .u.id = e->related_activity_id };
    }
  stream_items (_et_nt_pipe_slot (pipe, n), items, n);
}

/* Reading: an event, of its type (looked up here, where types are made). */
static void
on_event (const EtNettraceEvent *e, const EtNettraceMeta *meta, gpointer user_data)
{
  Builder *bld = user_data;
  guint slot = meta->id % G_N_ELEMENTS (bld->r.cached_type);
  guint type = bld->r.cached_type[slot];

  if (type == 0 || meta->id != bld->r.cached_id[slot])
    {
      type = GPOINTER_TO_UINT (g_hash_table_lookup (bld->r.types, GUINT_TO_POINTER (meta->id)));
      bld->r.cached_type[slot] = type;
      bld->r.cached_id[slot] = meta->id;
    }
  if (type == 0)
    return;                 /* its metadata did not read: reported there */
  if (bld->r.pipe == NULL)
    {
      build_event (bld, e, type);
      return;
    }
  put_event_item (bld->r.pipe, bld->data, e, type);
}

/* Opening is most of loading a .nettrace: it tells its progress (as 90 %
 * of the file, the walk of the image does the rest) and can be cancelled. */
static gboolean
on_block (guint64 next, gpointer user_data)
{
  Builder *bld = user_data;

  et_mapping_prefault_reached (bld->prefault, next);
  maybe_build_beside (bld, next);
  if (bld->progress != NULL && next - bld->reported >= (4u << 20))
    {
      bld->reported = next;
      bld->progress (next * 9 / 10, bld->file_size, bld->progress_data);
    }
  return !g_cancellable_is_cancelled (bld->cancellable);
}

/* ---- the log-file header ---------------------------------------------- */

static gint64
filetime_of (const guint16 st[8])
{
  g_autoptr(GDateTime) dt = g_date_time_new_utc (st[0], st[1], st[3], st[4], st[5],
                                                 st[6] + st[7] / 1000.0);

  if (dt == NULL)
    return 0;
  return g_date_time_to_unix (dt) * 10000000 + g_date_time_get_microsecond (dt) * 10
         + FILETIME_UNIX_EPOCH;
}

static void
put_utf16z (GByteArray *b, const char *utf8)
{
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);

  for (glong i = 0; units != NULL && i < n; i++)
    _et_nt_put (b, units[i], 2);
  _et_nt_put (b, 0, 2);
}

/* TRACE_LOGFILE_HEADER (etl-format.md §6), 64-bit layout, made from the
 * Trace object: t0 is the trace's sync time, its clock QPC ticks. A
 * .nettrace has no end time: EndTime stays 0 (unknown). Taking the last
 * event's time instead made one damaged timestamp years ahead widen the
 * span it is checked against (et-trace-times.c), so it went unreported. */
static void
put_logfile_header (Builder *bld, GByteArray *b, guint n_buffers, guint32 events_lost)
{
  const EtNettraceInfo *info = &bld->info;
  gint64 start = filetime_of (info->sync_time_utc);
  guint p = b->len;

  g_byte_array_set_size (b, p + LOGFILE_HEADER_SIZE);
  memset (b->data + p, 0, LOGFILE_HEADER_SIZE);
  _et_nt_set (b->data + p + 12, info->n_processors, 4);
  _et_nt_set (b->data + p + 36, n_buffers, 4);                     /* BuffersWritten */
  _et_nt_set (b->data + p + 44, info->pointer_size, 4);
  _et_nt_set (b->data + p + 48, events_lost, 4);
  _et_nt_set (b->data + p + 256, (guint64) info->qpc_frequency, 8);
  _et_nt_set (b->data + p + 264, (guint64) start, 8);
  _et_nt_set (b->data + p + 272, 1, 4);                            /* clock: QPC */
  put_utf16z (b, "EventPipe (.nettrace)");
  put_utf16z (b, bld->path);
}

/* The first buffer: one SYSTEM64 record of the trace-header hook at the
 * sync time, on the traced process. */
static GByteArray *
header_buffer (Builder *bld, guint n_buffers, guint32 events_lost)
{
  g_autoptr(GByteArray) rec = g_byte_array_new ();
  GByteArray *b = g_byte_array_new ();

  _et_nt_put (rec, 2, 2);                     /* version */
  _et_nt_put (rec, 0x02, 1);                  /* SYSTEM64 */
  _et_nt_put (rec, 0xC0, 1);
  _et_nt_put (rec, 0, 2);                     /* size, set below */
  _et_nt_put (rec, 0, 2);                     /* hook: group 0, type 0 */
  _et_nt_put (rec, 0, 4);
  _et_nt_put (rec, bld->info.process_id, 4);
  _et_nt_put (rec, (guint64) bld->info.sync_time_qpc, 8);
  _et_nt_put (rec, 0, 8);
  put_logfile_header (bld, rec, n_buffers, events_lost);
  _et_nt_set (rec->data + 4, rec->len, 2);
  _et_nt_pad8 (rec);
  g_byte_array_set_size (b, ET_BUFFER_HEADER_SIZE);
  write_buffer_header (b->data, ET_BUFFER_HEADER_SIZE + rec->len,
                       ET_BUFFER_HEADER_SIZE + rec->len, 0, NULL);
  g_byte_array_append (b, rec->data, rec->len);
  return b;
}

/* ---- entry points ------------------------------------------------------ */

gboolean
et_nettrace_file_sniff (const char *path)
{
  FILE *f = fopen (path, "rb");
  guint8 head[ET_NETTRACE_MAGIC_LEN];
  gsize n;

  if (f == NULL)
    return FALSE;
  n = fread (head, 1, sizeof head, f);
  fclose (f);
  return et_nettrace_sniff (head, n);
}

/* The events past the model's slot space (_et_nettrace_chunks_have_slots): said once,
 * with where the first of them is and how many they are. */
static void
report_beyond (Builder *bld)
{
  const EtNettraceChunks *c = &bld->image;
  g_autofree char *what = NULL;

  if (c->beyond_events == 0)
    return;
  what = g_strdup_printf ("the trace holds more events than Etlscope can index (%"
                          G_GUINT64_FORMAT " MiB of records): %" G_GUINT64_FORMAT
                          " events, the first here, are not read", c->slot_space * 8 / (1 << 20),
                          c->beyond_events);
  report (bld, c->beyond_at, what);
}

/* The image: the header buffer (made now that the buffers are counted)
 * in a chunk of its own before the others; the records' payloads are
 * read from @mapped, which the image keeps with @watch (both taken). */
static EtEtlFile *
assemble (Builder *bld, GMappedFile *mapped, EtMapping *watch, guint32 events_lost)
{
  guint n = bld->offsets->len + 1;
  GByteArray *head = header_buffer (bld, n, events_lost);
  g_autofree guint64 *offsets = g_new (guint64, n);
  guint64 file_size = g_mapped_file_get_length (mapped);

  offsets[0] = 0;
  if (bld->offsets->len > 0)
    memcpy (offsets + 1, bld->offsets->data, bld->offsets->len * sizeof (guint64));
  _et_nettrace_chunks_finish (&bld->image);
  g_debug ("%s: image of %u buffers in %u chunks, %" G_GUINT64_FORMAT " bytes of records; "
           "%u stacks", bld->path, n, bld->image.chunks->len + 1, bld->image.kept_bytes,
           bld->tables->stack_entries->len);
  g_ptr_array_insert (bld->image.chunks, 0, g_byte_array_free_to_bytes (head));
  report_beyond (bld);
  for (guint i = 0; i < bld->tables->types->len; i++)
    {
      EventType *t = g_ptr_array_index (bld->tables->types, i);

      t->pid = bld->info.process_id;
      t->pointer_size = bld->info.pointer_size == 4 ? 4 : 8;
    }
  et_image_tables_set_source (bld->tables, mapped, watch);
  /* The file's pages leave the process now unless records name most of
   * it: loading decodes every payload, and giving back the pages it reads
   * again only made it fault each one back in (a fifth of opening
   * PerfView's VoiceMemo trace, whose payloads are 270 bytes on average);
   * the loader gives them back once it has decoded (et-trace-load.c). */
  if (bld->named_bytes < file_size / 2)
    et_image_tables_forget_source (bld->tables);
  bld->tables->far_payloads = bld->r.stats.events > 0
                              && bld->named_bytes >= FAR_PAYLOADS * bld->r.stats.events;
  return et_etl_file_new_from_image (bld->path, file_size, g_steal_pointer (&bld->image.chunks),
                                     offsets, n, g_steal_pointer (&bld->tables));
}

static void
builder_init (Builder *bld, GMappedFile *mapped, void (*progress) (guint64, guint64, gpointer),
              gpointer progress_data, GCancellable *cancellable)
{
  g_autoptr(GByteArray) head = NULL;

  bld->progress = progress;
  bld->progress_data = progress_data;
  bld->cancellable = cancellable;
  bld->data = (const guint8 *) g_mapped_file_get_contents (mapped);
  bld->len = g_mapped_file_get_length (mapped);
  bld->file_size = bld->len;
  bld->r.types = g_hash_table_new (NULL, NULL);
  bld->tables = et_image_tables_new ();
  bld->threads = g_hash_table_new (NULL, NULL);
  /* (ETLSCOPE_NO_STACKS=1: no stacks at all, to measure what they cost) */
  bld->stack_entries = g_getenv ("ETLSCOPE_NO_STACKS") == NULL ? g_hash_table_new (NULL, NULL)
                                                                : NULL;
  /* the header buffer's length does not depend on what it counts */
  head = header_buffer (bld, 0, 0);
  _et_nettrace_chunks_init (&bld->image, head->len);
  bld->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static void
builder_clear (Builder *bld)
{
  _et_nettrace_chunks_clear (&bld->image);
  g_array_unref (bld->offsets);
  g_hash_table_unref (bld->r.types);
  g_clear_pointer (&bld->tables, et_image_tables_free);
  g_hash_table_unref (bld->threads);
  g_clear_pointer (&bld->stack_entries, g_hash_table_unref);
}

static void
report_shrinking (const char *path, EtMapping *watch, EtDamageFunc damage, gpointer data)
{
  guint64 lost = et_mapping_lost_from (watch);
  g_autofree char *message = NULL;

  if (lost == G_MAXUINT64 || damage == NULL)
    return;
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": the file shrank while "
                             "it was read: the bytes from here on are gone", path, lost);
  damage (lost, message, data);
}

/* Building on a thread of its own once reading has made enough events
 * that this pays (maybe_build_beside): decoding the EventBlocks' rows and
 * writing their records each took about half of opening (issue 36: 17
 * and 23 ms of the bench's 1 M-event .nettrace), and the items between
 * the two keep the one thread's order, so the image is the same byte for
 * byte. Handing an event over costs about as much whatever the trace,
 * so it pays where events are many and small (paired runs of `info` on
 * this 2-core machine, opening before → after: the bench's 1 M-event
 * shape, 25 bytes an event, 47.9 → 30.5 ms, 10 of 10 faster, the whole
 * load 162 → 144 ms; 4 M events 161 → 117 ms). Not where they are few:
 * from the start, 100,000 events of 1 KB opened in 11.4 ms instead of
 * 9.9, PerfView's HeartRateMonitor in 16.8 instead of 12.2. Nor where
 * they are large: the file's pages are mapped on the second core then
 * (et_mapping_prefault_begin), and the bench's 6 GB shape, 937 bytes an
 * event, opened in 685 ms instead of 642. */
#define BESIDE_AFTER   (1u << 17)   /* events read before it may begin */
#define BESIDE_LEFT    (1u << 18)   /* events (estimated) still to read for it to begin */
#define BESIDE_BYTES   512          /* bytes of file an event, at most */

static gpointer
build_beside (gpointer data)
{
  Builder *bld = data;
  gconstpointer batch;
  gsize n;

  et_worker_begin ();
  while ((batch = _et_nt_pipe_take (bld->r.pipe, &n)) != NULL)
    for (gsize i = 0; i < n;)
      i += build (bld, (const Item *) ((const guint8 *) batch + i * ITEM_SIZE));
  return NULL;
}

/* At the end of a block (@next: where reading goes on): whether building
 * moves to a thread of its own from here on. */
static void
maybe_build_beside (Builder *bld, guint64 next)
{
  guint64 events = bld->r.stats.events;

  if (bld->r.pipe != NULL || bld->r.single || events < BESIDE_AFTER || next >= bld->len
      || next / events > BESIDE_BYTES
      || (double) events * (double) (bld->len - next) / (double) next < BESIDE_LEFT)
    return;
  bld->r.pipe = _et_nt_pipe_new (ITEM_SIZE);
  bld->r.building = g_thread_new ("etlscope-build", build_beside, bld);
}

static guint64 built_beside;

guint64
_et_nettrace_built_beside (void)
{
  return __atomic_load_n (&built_beside, __ATOMIC_RELAXED);
}

static gboolean
read_and_build (Builder *bld, const EtNettraceCallbacks *cb, GError **error)
{
  gboolean read;

  /* (one core, or ETLSCOPE_THREADS=1: on this thread alone) */
  bld->r.single = et_workers_count (bld->len, 0) < 2;
  read = et_nettrace_read (bld->path, bld->data, bld->len, cb, &bld->info, &bld->r.stats,
                           error);
  if (bld->r.pipe != NULL)
    {
      _et_nt_pipe_close (bld->r.pipe);
      g_thread_join (bld->r.building);
      g_debug ("%s: %" G_GUINT64_FORMAT " items built beside reading", bld->path,
               _et_nt_pipe_items (bld->r.pipe));
      __atomic_add_fetch (&built_beside, _et_nt_pipe_items (bld->r.pipe), __ATOMIC_RELAXED);
      g_clear_pointer (&bld->r.pipe, _et_nt_pipe_free);
    }
  return read;
}

EtEtlFile *
et_nettrace_open (const char *path, EtDamageFunc damage, gpointer damage_data,
                  void (*progress) (guint64, guint64, gpointer), gpointer progress_data,
                  GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &local);
  Builder bld = { path, damage, damage_data };
  EtNettraceCallbacks cb = { on_metadata, on_event, on_block, &bld,
                             damage != NULL ? on_read_damage : NULL, &bld };
  EtEtlFile *file = NULL;
  EtMapping *watch;
  gboolean read;

  if (mapped == NULL)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: cannot open: %s",
                   path, local->message);
      return NULL;
    }
  builder_init (&bld, mapped, progress, progress_data, cancellable);
  /* A file cut while it is read: pages gone read as zeros (et-mapping.h);
   * watched for as long as the image names payloads in it. */
  watch = et_mapping_watch (bld.data, bld.len);
  bld.prefault = et_mapping_prefault_begin (bld.data, bld.len);
  read = read_and_build (&bld, &cb, error);
  et_mapping_prefault_end (g_steal_pointer (&bld.prefault));
  if (read && !g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      close_all (&bld);
      report_shrinking (path, watch, damage, damage_data);
      file = assemble (&bld, g_steal_pointer (&mapped), watch,
                       (guint32) MIN (bld.r.stats.events_lost, G_MAXUINT32));
    }
  else
    {
      close_all (&bld);
      report_shrinking (path, watch, damage, damage_data);
      et_mapping_unwatch (watch);
    }
  builder_clear (&bld);
  return file;
}
