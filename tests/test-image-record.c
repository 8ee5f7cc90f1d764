/* Tests for et-image-record: a compact record parses to the EtRecord its
 * full EVENT_HEADER form gives (every field, the same items and payload),
 * with and without an ActivityId, with a related activity item of its
 * own, for both pointer sizes, with type and thread indexes in its header
 * and past what it holds, in a buffer with and without bases (its time
 * then counted from the buffer's when it can be); a payload named where
 * it lies in the source file, in 16 bytes near the buffer's source base
 * (and the last byte of it that decoding asks for ahead, none for a
 * payload in the record or past the file); and one that does not fit is
 * refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "et-image-record.h"

static void
put (GByteArray *b, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      guint8 x = (guint8) (v >> (8 * i));
      g_byte_array_append (b, &x, 1);
    }
}

static void
put_guid (GByteArray *b, const EtGuid *g)
{
  put (b, g->data1, 4);
  put (b, g->data2, 2);
  put (b, g->data3, 2);
  g_byte_array_append (b, g->data4, 8);
}

/* One extended item: header, data, padding to 8. */
static void
put_item (GByteArray *b, guint16 type, const guint8 *data, guint16 len, gboolean more)
{
  put (b, (8 + len + 7) & ~7u, 2);
  put (b, type, 2);
  put (b, more, 2);
  put (b, len, 2);
  g_byte_array_append (b, data, len);
  while (b->len % 8 != 0)
    put (b, 0, 1);
}

static EtImageType *
make_type (guint8 pointer_size)
{
  static const guint8 traits[] = { 14, 0, 'C', 'o', 'n', 't', 'o', 's', 'o', 0, 0, 0, 0, 0 };
  static const guint8 schema[] = { 9, 0, 0, 'E', 'v', 0, 'x', 0, 7 };
  EtImageType *t = g_new0 (EtImageType, 1);

  t->provider = (EtGuid) { 0x12345678, 0x9ABC, 0xDEF0, { 1, 2, 3, 4, 5, 6, 7, 8 } };
  t->items = g_byte_array_new ();
  put_item (t->items, ET_EXT_PROV_TRAITS, traits, sizeof traits, TRUE);
  put_item (t->items, ET_EXT_EVENT_SCHEMA_TL, schema, sizeof schema, FALSE);
  t->keywords = G_GUINT64_CONSTANT (0x8000F00000000001);
  t->pid = 4242;
  t->id = 7;
  t->task = 0xFFF1;
  t->version = 2;
  t->level = 4;
  t->opcode = 1;
  t->pointer_size = pointer_size;
  return t;
}

typedef struct
{
  gint64  ts;
  guint32 tid;
  EtGuid  activity;   /* zero: none */
  EtGuid  related;    /* zero: none */
  guint8  payload[13];
} Event;

/* The EVENT_HEADER record an image held before compact records. */
static GByteArray *
full_record (const EtImageType *t, const Event *e)
{
  GByteArray *b = g_byte_array_new ();
  gboolean related = !et_guid_is_zero (&e->related);

  put (b, 0, 2);                                  /* size, set below */
  put (b, t->pointer_size == 4 ? 0x12 : 0x13, 1);
  put (b, 0xC0, 1);
  put (b, 0x0001 | (t->pointer_size == 4 ? 0x0020 : 0x0040), 2);
  put (b, 0, 2);
  put (b, e->tid, 4);
  put (b, t->pid, 4);
  put (b, (guint64) e->ts, 8);
  put_guid (b, &t->provider);
  put (b, t->id, 2);
  put (b, t->version, 1);
  put (b, 0, 1);
  put (b, t->level, 1);
  put (b, t->opcode, 1);
  put (b, t->task, 2);
  put (b, t->keywords, 8);
  put (b, 0, 8);
  put_guid (b, &e->activity);
  if (related)
    {
      GByteArray *g = g_byte_array_new ();

      put_guid (g, &e->related);
      put_item (b, ET_EXT_RELATED_ACTIVITYID, g->data, 16, TRUE);
      g_byte_array_unref (g);
    }
  g_byte_array_append (b, t->items->data, t->items->len);
  g_byte_array_append (b, e->payload, sizeof e->payload);
  b->data[0] = (guint8) b->len;
  b->data[1] = (guint8) (b->len >> 8);
  return b;
}

static GByteArray *
compact_record (const EtImageType *t, guint32 index, guint32 thread, const Event *e,
                const EtImageBases *bases)
{
  GByteArray *b = g_byte_array_new ();
  gboolean related = !et_guid_is_zero (&e->related);
  gboolean activity = !et_guid_is_zero (&e->activity);
  GByteArray *item = g_byte_array_new ();
  EtImageEvent r = {
    .type = index, .thread = thread, .tid = e->tid, .ts = e->ts,
    .activity = activity ? &e->activity : NULL,
    .payload = e->payload, .payload_len = sizeof e->payload, .payload_at = ET_IMAGE_INLINE,
  };
  gsize size;

  if (related)
    {
      GByteArray *g = g_byte_array_new ();

      put_guid (g, &e->related);
      put_item (item, ET_EXT_RELATED_ACTIVITYID, g->data, 16, TRUE);
      g_byte_array_unref (g);
      r.head = item->data;
      r.head_len = item->len;
      r.tail = t->items->data;
      r.tail_len = t->items->len;
    }
  size = et_image_record_size (&r, bases);
  g_byte_array_set_size (b, (guint) ((size + 7) & ~(gsize) 7));
  et_image_record_write (b->data, size, &r, bases);
  g_byte_array_unref (item);
  return b;
}

/* A buffer with @bases (NULL: a header of zeros) whose first record is
 * @record (one buffer, reused: the last one laid out). */
static const guint8 *
lay_out (const GByteArray *record, const EtImageBases *bases)
{
  static guint8 buffer[ET_BUFFER_HEADER_SIZE + 4096];

  g_assert (record->len <= sizeof buffer - ET_BUFFER_HEADER_SIZE);
  memset (buffer, 0, sizeof buffer);
  if (bases != NULL)
    et_image_buffer_set_bases (buffer, bases);
  memcpy (buffer + ET_BUFFER_HEADER_SIZE, record->data, record->len);
  return buffer;
}

/* Parses @record as the first of a buffer with @bases, @avail of its
 * bytes in the buffer. */
static gboolean
parse_in_buffer (const GByteArray *record, gsize avail, const EtImageBases *bases,
                 const EtImageTables *tables, EtRecord *r, const char **reason)
{
  g_assert (avail <= record->len);
  return et_image_record_parse (lay_out (record, bases), ET_BUFFER_HEADER_SIZE,
                                ET_BUFFER_HEADER_SIZE + avail, tables, r, reason);
}

/* The payload end et_image_record_payload_end finds for @record, laid
 * out as parse_in_buffer lays it out. */
static const guint8 *
payload_end_in_buffer (const GByteArray *record, gsize avail, const EtImageBases *bases,
                       const EtImageTables *tables)
{
  g_assert (avail <= record->len);
  return et_image_record_payload_end (lay_out (record, bases), ET_BUFFER_HEADER_SIZE,
                                      ET_BUFFER_HEADER_SIZE + avail, tables);
}

static void
assert_same_record (const EtRecord *a, const EtRecord *b)
{
  assert_int_equal (a->klass, b->klass);
  assert_int_equal (a->header_type, b->header_type);
  assert_int_equal (a->pointer_size, b->pointer_size);
  assert_int_equal (a->has_ids, b->has_ids);
  assert_int_equal (a->flags, b->flags);
  assert_int_equal (a->pid, b->pid);
  assert_int_equal (a->tid, b->tid);
  assert_true (a->ts == b->ts);
  assert_true (et_guid_equal (&a->guid, &b->guid));
  assert_int_equal (a->id, b->id);
  assert_int_equal (a->version, b->version);
  assert_int_equal (a->channel, b->channel);
  assert_int_equal (a->level, b->level);
  assert_int_equal (a->opcode, b->opcode);
  assert_int_equal (a->task, b->task);
  assert_true (a->keywords == b->keywords);
  assert_true (et_guid_equal (&a->activity_id, &b->activity_id));
  assert_int_equal (a->ext_len, b->ext_len);
  assert_memory_equal (a->ext, b->ext, a->ext_len);
  assert_int_equal (a->ext_bad, b->ext_bad);
  assert_null (b->ext_damage);
  assert_int_equal (a->payload_len, b->payload_len);
  assert_memory_equal (a->payload, b->payload, a->payload_len);
}

/* @thread: the index of the event's thread in the image (the tables hold
 * it there when it fits in a narrow header); @bases: the buffer's, or
 * NULL. Returns the compact record's size with its padding. */
static gsize
check_event_in (guint8 pointer_size, const Event *e, guint32 thread, const EtImageBases *bases)
{
  EtImageTables *tables = et_image_tables_new ();
  guint32 other = e->tid + 1;
  EtImageType *t;
  g_autoptr(GByteArray) full = NULL;
  g_autoptr(GByteArray) compact = NULL;
  EtRecord a, b;
  const char *reason = NULL;
  const guint8 *schema_a, *schema_b;
  gsize len, len_b;

  g_ptr_array_add (tables->types, make_type (8));             /* another type before */
  g_ptr_array_add (tables->types, t = make_type (pointer_size));
  g_array_append_val (tables->threads, other);
  if (thread == 1)
    g_array_append_val (tables->threads, e->tid);
  full = full_record (t, e);
  compact = compact_record (t, 1, thread, e, bases);
  assert_true (et_record_parse (full->data, full->len, &a, &reason));
  assert_true (parse_in_buffer (compact, compact->len, bases, tables, &b, &reason));
  assert_same_record (&a, &b);
  assert_null (payload_end_in_buffer (compact, compact->len, bases, tables));  /* inline */
  assert_true (compact->len < full->len);
  /* What record lookups by item type find is the same too. */
  schema_a = et_record_find_ext (&a, ET_EXT_EVENT_SCHEMA_TL, &len);
  schema_b = et_record_find_ext (&b, ET_EXT_EVENT_SCHEMA_TL, &len_b);
  assert_non_null (schema_a);
  assert_int_equal (len, len_b);
  assert_memory_equal (schema_a, schema_b, len);
  et_image_tables_free (tables);
  return compact->len;
}

/* The same in a buffer without bases, and in one whose time is near. */
static void
check_event (guint8 pointer_size, const Event *e, guint32 thread)
{
  EtImageBases near = { e->ts - 1000, 0 };

  check_event_in (pointer_size, e, thread, NULL);
  check_event_in (pointer_size, e, thread, &near);
}

static const Event plain = {
  1234567890123, 77, { 0 }, { 0 }, { 'p', 'a', 'y', 'l', 'o', 'a', 'd', 1, 2, 3, 4, 5, 6 },
};

static void
test_plain_event (void **state)
{
  check_event (8, &plain, 1);
  check_event (4, &plain, 1);
  /* An index a narrow header cannot hold: type and thread id follow it. */
  check_event (8, &plain, 70000);
}

static void
test_activity_and_related (void **state)
{
  Event e = plain;

  e.activity = (EtGuid) { 0xA1, 2, 3, { 9, 8, 7, 6, 5, 4, 3, 2 } };
  check_event (8, &e, 1);
  e.related = (EtGuid) { 0xB2, 4, 5, { 1, 1, 2, 3, 5, 8, 13, 21 } };
  check_event (8, &e, 1);
  check_event (8, &e, 70000);
  e.activity = (EtGuid) { 0 };
  check_event (4, &e, 1);
}

static void
test_bad_compact_records_are_refused (void **state)
{
  EtImageTables *tables = et_image_tables_new ();
  g_autoptr(GByteArray) compact = NULL;
  guint32 tid = plain.tid;
  EtRecord r;
  const char *reason = NULL;

  g_ptr_array_add (tables->types, make_type (8));
  g_array_append_val (tables->threads, tid);
  compact = compact_record (g_ptr_array_index (tables->types, 0), 0, 0, &plain, NULL);
  assert_true (parse_in_buffer (compact, compact->len, NULL, tables, &r, &reason));
  assert_false (parse_in_buffer (compact, 8, NULL, tables, &r, &reason));
  assert_non_null (reason);
  assert_false (parse_in_buffer (compact, compact->len - 8, NULL, tables, &r, &reason));
  compact->data[6] = 1;                       /* a thread the image does not have */
  assert_false (parse_in_buffer (compact, compact->len, NULL, tables, &r, &reason));
  compact->data[6] = 0;
  compact->data[4] = 1;                       /* nor a type */
  assert_false (parse_in_buffer (compact, compact->len, NULL, tables, &r, &reason));
  assert_string_equal (reason, "unknown record type or thread");
  compact->data[4] = 0;
  /* Flags no writer sets together. */
  compact->data[2] = ET_IMAGE_NEAR | ET_IMAGE_ACTIVITY;
  assert_false (parse_in_buffer (compact, compact->len, NULL, tables, &r, &reason));
  assert_string_equal (reason, "record flags do not go together");
  compact->data[2] = ET_IMAGE_NEAR | ET_IMAGE_SHORT_TIME;
  assert_false (parse_in_buffer (compact, compact->len, NULL, tables, &r, &reason));
  et_image_tables_free (tables);
}

/* A source file holding @e's payload at an odd offset (payloads in a
 * .nettrace are packed, not aligned), mapped; the file itself is gone. */
static GMappedFile *
source_with_payload (const Event *e, guint64 at)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autofree char *path = NULL;
  GMappedFile *mapped;
  int fd = g_file_open_tmp ("et-image-record-XXXXXX", &path, NULL);

  assert_true (fd >= 0);
  close (fd);
  g_byte_array_set_size (bytes, at + sizeof e->payload + 3);
  memset (bytes->data, 0xAB, bytes->len);
  memcpy (bytes->data + at, e->payload, sizeof e->payload);
  assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
  mapped = g_mapped_file_new (path, FALSE, NULL);
  assert_non_null (mapped);
  g_unlink (path);
  return mapped;
}

/* A compact record of @e whose payload is named at @at in the source,
 * in a buffer of @bases (NULL: none). */
static GByteArray *
record_at (guint32 index, const Event *e, guint64 at, const EtImageBases *bases)
{
  GByteArray *b = g_byte_array_new ();
  EtImageEvent r = {
    .type = index, .tid = e->tid, .ts = e->ts, .payload_len = sizeof e->payload,
    .payload_at = at,
  };
  gsize size = et_image_record_size (&r, bases);

  g_byte_array_set_size (b, (guint) ((size + 7) & ~(gsize) 7));
  et_image_record_write (b->data, size, &r, bases);
  return b;
}

/* A payload named where it lies in the source file parses as the one
 * the full record holds, pointing into the mapping, and the record keeps
 * 8 bytes for it whatever its length; one that would run past the file's
 * end, or an image without a source, is refused. */
static void
test_payload_in_the_source_file (void **state)
{
  EtImageTables *tables = et_image_tables_new ();
  guint32 tid = plain.tid;
  g_autoptr(GByteArray) full = NULL;
  g_autoptr(GByteArray) compact = NULL;
  g_autoptr(GByteArray) past = NULL;
  EtRecord a, b;
  const char *reason = NULL;
  guint64 at = 13;

  g_ptr_array_add (tables->types, make_type (8));
  g_array_append_val (tables->threads, tid);
  full = full_record (g_ptr_array_index (tables->types, 0), &plain);
  compact = record_at (0, &plain, at, NULL);
  assert_int_equal (compact->len, ET_IMAGE_RECORD_HEADER + ET_IMAGE_PAYLOAD_PLACE);
  assert_false (parse_in_buffer (compact, compact->len, NULL, tables, &b, &reason));
  assert_string_equal (reason, "payload lies past the end of the file");
  assert_null (payload_end_in_buffer (compact, compact->len, NULL, tables));
  et_image_tables_set_source (tables, source_with_payload (&plain, at), NULL);
  assert_true (et_record_parse (full->data, full->len, &a, &reason));
  assert_true (parse_in_buffer (compact, compact->len, NULL, tables, &b, &reason));
  assert_same_record (&a, &b);
  assert_ptr_equal (b.payload, tables->source + at);
  /* what decoding asks for ahead: the payload's last byte */
  assert_ptr_equal (payload_end_in_buffer (compact, compact->len, NULL, tables),
                    b.payload + b.payload_len - 1);
  past = record_at (0, &plain, tables->source_len - sizeof plain.payload + 1, NULL);
  assert_false (parse_in_buffer (past, past->len, NULL, tables, &b, &reason));
  assert_string_equal (reason, "payload lies past the end of the file");
  assert_null (payload_end_in_buffer (past, past->len, NULL, tables));
  et_image_tables_free (tables);
}

/* In a buffer whose time and source base are near, a record with its
 * payload in the source file takes 16 bytes and parses as the full one;
 * a time more than 2^31 ticks from the buffer's (either way), a payload
 * before the source base or 4 GiB past it, an ActivityId or a wide index
 * keep the longer forms, which parse the same; a 16-byte record whose
 * payload would run past the file's end is refused. */
static void
test_records_near_their_buffer (void **state)
{
  EtImageTables *tables = et_image_tables_new ();
  guint32 tid = plain.tid;
  g_autoptr(GByteArray) full = NULL;
  EtRecord a, b;
  const char *reason = NULL;
  guint64 at = 13;
  struct
  {
    EtImageBases bases;
    guint64      at;
    gsize        len;
  } cases[] = {
    { { plain.ts, at }, at, ET_IMAGE_NEAR_SIZE },
    { { plain.ts - G_MAXINT32, 0 }, at, ET_IMAGE_NEAR_SIZE },
    { { plain.ts - G_MAXINT32 - 1, 0 }, at, ET_IMAGE_RECORD_HEADER + ET_IMAGE_PAYLOAD_PLACE },
    { { plain.ts + 1 - G_MININT32, 0 }, at, ET_IMAGE_RECORD_HEADER + ET_IMAGE_PAYLOAD_PLACE },
    { { plain.ts - G_MININT32, 0 }, at, ET_IMAGE_NEAR_SIZE },
    /* the payload before the base: its 8-byte place after a short time */
    { { plain.ts, at + 1 }, at, ET_IMAGE_SHORT_HEADER + ET_IMAGE_PAYLOAD_PLACE + 4 },
  };

  g_ptr_array_add (tables->types, make_type (8));
  g_array_append_val (tables->threads, tid);
  et_image_tables_set_source (tables, source_with_payload (&plain, at), NULL);
  full = full_record (g_ptr_array_index (tables->types, 0), &plain);
  assert_true (et_record_parse (full->data, full->len, &a, &reason));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) compact = record_at (0, &plain, cases[i].at, &cases[i].bases);

      assert_int_equal (compact->len, cases[i].len);
      assert_true (parse_in_buffer (compact, compact->len, &cases[i].bases, tables, &b, &reason));
      assert_same_record (&a, &b);
      assert_ptr_equal (b.payload, tables->source + at);
      assert_ptr_equal (payload_end_in_buffer (compact, compact->len, &cases[i].bases, tables),
                        b.payload + b.payload_len - 1);
    }
  /* 4 GiB past the base is too far (the source is not that long: the
   * long form names it, and is refused for it) */
  {
    EtImageBases base = { plain.ts, 0 };
    g_autoptr(GByteArray) far = record_at (0, &plain, G_GUINT64_CONSTANT (1) << 32, &base);
    g_autoptr(GByteArray) past = record_at (0, &plain, tables->source_len - 1, &base);

    assert_int_equal (far->len, ET_IMAGE_SHORT_HEADER + ET_IMAGE_PAYLOAD_PLACE + 4);
    assert_int_equal (past->len, ET_IMAGE_NEAR_SIZE);
    assert_false (parse_in_buffer (past, past->len, &base, tables, &b, &reason));
    assert_string_equal (reason, "payload lies past the end of the file");
    assert_null (payload_end_in_buffer (past, past->len, &base, tables));
    /* a 16-byte record cut short by its buffer's end */
    assert_false (parse_in_buffer (past, 12, &base, tables, &b, &reason));
    assert_null (payload_end_in_buffer (past, 12, &base, tables));
  }
  et_image_tables_free (tables);
}

/* A record counting its time from its buffer's has a 12-byte header, 4
 * bytes less than one holding its time whole: an inline payload of 1 to
 * 4 bytes past a multiple of 8 then takes 8 bytes less with its padding
 * (one of 12 bytes: 32 → 24). A time too far from the buffer's keeps the
 * long header. */
static void
test_short_time_saves_its_bytes (void **state)
{
  EtImageBases near = { plain.ts, 0 };
  EtImageEvent r = {
    .tid = plain.tid, .payload = plain.payload, .payload_at = ET_IMAGE_INLINE,
  };

  for (gsize len = 0; len <= sizeof plain.payload; len++)
    {
      r.payload_len = len;
      r.ts = plain.ts + 5;
      assert_int_equal (et_image_record_size (&r, NULL), ET_IMAGE_RECORD_HEADER + len);
      assert_int_equal (et_image_record_size (&r, &near), ET_IMAGE_SHORT_HEADER + len);
      r.ts = plain.ts + G_MAXINT32 + 1;
      assert_int_equal (et_image_record_size (&r, &near), ET_IMAGE_RECORD_HEADER + len);
    }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_plain_event),
    cmocka_unit_test (test_activity_and_related),
    cmocka_unit_test (test_bad_compact_records_are_refused),
    cmocka_unit_test (test_payload_in_the_source_file),
    cmocka_unit_test (test_records_near_their_buffer),
    cmocka_unit_test (test_short_time_saves_its_bytes),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
