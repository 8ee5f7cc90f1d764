/* test-tracelogging.c — TraceLogging metadata, payloads and provider traits.
 *
 * Metadata and payloads are built by hand here from the grammar in
 * docs/etl-format.md §10, then decoded; hostile variants check that bad
 * bytes become ET_ETL_ERROR and never a crash. When the corpus is present,
 * the real TraceLogging events are decoded and compared with the
 * "decoded_events" of the expected JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "et-bytes.h"
#include "et-error.h"
#include "et-fields.h"
#include "et-tracelogging.h"

/* TraceLogging numbers, spelled out so the tests read like the spec. */
enum
{
  IN_USTR = 1, IN_ASTR, IN_I8, IN_U8, IN_I16, IN_U16, IN_I32, IN_U32, IN_I64, IN_U64,
  IN_FLOAT, IN_DOUBLE, IN_BOOL32, IN_BINARY, IN_GUID, IN_POINTER, IN_FILETIME,
  IN_SYSTEMTIME, IN_SID, IN_HEX32, IN_HEX64, IN_CSTR, IN_CASTR, IN_STRUCT, IN_CBINARY,
};
#define CONST_COUNT 0x20
#define VAR_COUNT   0x40
#define CUSTOM      0x60
#define HAS_OUT     0x80
#define NO_OUT      (-1)

/* ---- byte builders ------------------------------------------------------ */

static void
put_u8 (GByteArray *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

static void
put_u16 (GByteArray *b, guint16 v)
{
  guint8 le[2] = { v & 0xFF, v >> 8 };
  g_byte_array_append (b, le, 2);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  put_u16 (b, v & 0xFFFF);
  put_u16 (b, v >> 16);
}

static void
put_u64 (GByteArray *b, guint64 v)
{
  put_u32 (b, v & 0xFFFFFFFF);
  put_u32 (b, v >> 32);
}

static void
put_bytes (GByteArray *b, const void *bytes, gsize len)
{
  g_byte_array_append (b, bytes, len);
}

/* 8-bit text plus its NUL. */
static void
put_cstr (GByteArray *b, const char *s)
{
  put_bytes (b, s, strlen (s) + 1);
}

/* ASCII as UTF-16LE, with a NUL unit when @nul. */
static void
put_utf16 (GByteArray *b, const char *ascii, gboolean nul)
{
  for (const char *p = ascii; *p; p++)
    put_u16 (b, (guchar) *p);
  if (nul)
    put_u16 (b, 0);
}

/* Event metadata: u16 size (patched by meta_finish), tags, event name. */
static GByteArray *
meta_new (const guint8 *tags, gsize n_tags, const char *event_name)
{
  static const guint8 no_tags[] = { 0x00 };
  GByteArray *b = g_byte_array_new ();

  put_u16 (b, 0);
  if (tags == NULL)
    put_bytes (b, no_tags, 1);
  else
    put_bytes (b, tags, n_tags);
  put_cstr (b, event_name);
  return b;
}

/* A field: name, InMeta, OutMeta when @out_meta is not NO_OUT. Array counts
 * and custom schemas are appended by the caller. */
static void
meta_field (GByteArray *b, const char *name, guint8 in_meta, int out_meta)
{
  put_cstr (b, name);
  if (out_meta != NO_OUT)
    in_meta |= HAS_OUT;
  put_u8 (b, in_meta);
  if (out_meta != NO_OUT)
    put_u8 (b, (guint8) out_meta);
}

static void
meta_finish (GByteArray *b)
{
  b->data[0] = b->len & 0xFF;
  b->data[1] = b->len >> 8;
}

static EtTlSchema *
parse_ok (GByteArray *meta)
{
  g_autoptr(GError) error = NULL;
  EtTlSchema *schema = et_tl_schema_parse (meta->data, meta->len, &error);

  if (error != NULL)
    fail_msg ("metadata did not parse: %s", error->message);
  assert_non_null (schema);
  return schema;
}

/* Decodes and checks that the whole payload was consumed. */
static EtFields *
decode_ok (const EtTlSchema *schema, GByteArray *payload)
{
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();
  gsize consumed = 0;

  if (!et_tl_decode (schema, payload->data, payload->len, fields, &consumed, &error))
    fail_msg ("payload did not decode: %s", error ? error->message : "(no error)");
  assert_int_equal (consumed, payload->len);
  return fields;
}

static const EtField *
field_named (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);

  if (i < 0)
    fail_msg ("no field %s", name);
  return et_fields_get (fields, (guint) i);
}

static void
assert_text (const EtFields *fields, const EtField *f, const char *expected)
{
  gsize len;
  const char *text;

  assert_int_equal (f->kind, ET_VALUE_STRING);
  text = et_fields_text (fields, (guint) (f - et_fields_get (fields, 0)), &len);
  assert_int_equal (len, strlen (expected));
  assert_memory_equal (text, expected, len);
}

static void
assert_etl_error (const GError *error, gint code, const char *needle)
{
  assert_non_null (error);
  assert_true (error->domain == ET_ETL_ERROR);
  if (code >= 0)
    assert_int_equal (error->code, code);
  if (strstr (error->message, needle) == NULL)
    fail_msg ("error “%s” does not mention “%s”", error->message, needle);
}

/* ---- every in-type ------------------------------------------------------ */

static const guint8 guid_bytes[16] = {
  0xc4, 0x14, 0xd6, 0x0a, 0xf4, 0x0e, 0x25, 0x42,
  0x80, 0x13, 0xf4, 0x4f, 0x37, 0xcb, 0x03, 0x97,
};
static const guint8 sid_bytes[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };   /* S-1-5-18 */
static const guint16 systime[8] = { 2021, 9, 4, 9, 14, 59, 35, 799 };

static GByteArray *
all_types_meta (void)
{
  GByteArray *m = meta_new (NULL, 0, "AllTypes");

  meta_field (m, "ustr", IN_USTR, NO_OUT);
  meta_field (m, "astr", IN_ASTR, NO_OUT);
  meta_field (m, "i8", IN_I8, NO_OUT);
  meta_field (m, "u8", IN_U8, NO_OUT);
  meta_field (m, "i16", IN_I16, NO_OUT);
  meta_field (m, "u16", IN_U16, NO_OUT);
  meta_field (m, "i32", IN_I32, NO_OUT);
  meta_field (m, "u32", IN_U32, NO_OUT);
  meta_field (m, "i64", IN_I64, NO_OUT);
  meta_field (m, "u64", IN_U64, NO_OUT);
  meta_field (m, "f", IN_FLOAT, NO_OUT);
  meta_field (m, "d", IN_DOUBLE, NO_OUT);
  meta_field (m, "b32", IN_BOOL32, NO_OUT);
  meta_field (m, "bin", IN_BINARY, NO_OUT);
  meta_field (m, "guid", IN_GUID, NO_OUT);
  meta_field (m, "ft", IN_FILETIME, NO_OUT);
  meta_field (m, "st", IN_SYSTEMTIME, NO_OUT);
  meta_field (m, "sid", IN_SID, NO_OUT);
  meta_field (m, "h32", IN_HEX32, NO_OUT);
  meta_field (m, "h64", IN_HEX64, NO_OUT);
  meta_field (m, "cstr", IN_CSTR, NO_OUT);
  meta_field (m, "castr", IN_CASTR, NO_OUT);
  meta_field (m, "s", IN_STRUCT, 1);
  meta_field (m, "m", IN_U8, NO_OUT);
  meta_field (m, "cbin", IN_CBINARY, NO_OUT);
  meta_finish (m);
  return m;
}

static GByteArray *
all_types_payload (void)
{
  GByteArray *p = g_byte_array_new ();
  float f = 1.5f;
  double d = -2.25;
  guint32 fbits;
  guint64 dbits;

  memcpy (&fbits, &f, 4);
  memcpy (&dbits, &d, 8);
  put_utf16 (p, "Hi", TRUE);
  put_cstr (p, "caf\xe9");                  /* Latin-1, not UTF-8 */
  put_u8 (p, (guint8) -5);
  put_u8 (p, 200);
  put_u16 (p, (guint16) -300);
  put_u16 (p, 60000);
  put_u32 (p, (guint32) -70000);
  put_u32 (p, 4000000000u);
  put_u64 (p, (guint64) G_GINT64_CONSTANT (-5000000000));
  put_u64 (p, G_MAXUINT64);
  put_u32 (p, fbits);
  put_u64 (p, dbits);
  put_u32 (p, 1);
  put_u16 (p, 3);
  put_bytes (p, "\x01\x02\x03", 3);
  put_bytes (p, guid_bytes, 16);
  put_u64 (p, G_GUINT64_CONSTANT (132757271757990000));
  for (guint i = 0; i < 8; i++)
    put_u16 (p, systime[i]);
  put_bytes (p, sid_bytes, sizeof sid_bytes);
  put_u32 (p, 0xdeadbeef);
  put_u64 (p, G_GUINT64_CONSTANT (0x0123456789abcdef));
  put_u16 (p, 4);
  put_utf16 (p, "Ok", FALSE);
  put_u16 (p, 3);
  put_bytes (p, "yes", 3);
  put_u8 (p, 7);
  put_u16 (p, 2);
  put_bytes (p, "\xaa\xbb", 2);
  return p;
}

static void
assert_int_field (const EtFields *fields, const char *name, guint in_type, gint64 value)
{
  const EtField *f = field_named (fields, name);

  assert_int_equal (f->kind, ET_VALUE_INT);
  assert_int_equal (f->in_type, in_type);
  assert_true (f->v.i == value);
}

static void
assert_uint_field (const EtFields *fields, const char *name, guint in_type, guint64 value,
                   EtValueHint hint)
{
  const EtField *f = field_named (fields, name);

  assert_int_equal (f->kind, ET_VALUE_UINT);
  assert_int_equal (f->in_type, in_type);
  assert_int_equal (f->hint, hint);
  assert_true (f->v.u == value);
}

static void
assert_bytes_field (const EtFields *fields, const char *name, EtValueKind kind,
                    const void *bytes, gsize len)
{
  const EtField *f = field_named (fields, name);
  gsize got_len;
  const char *got = et_fields_text (fields, (guint) et_fields_find (fields, name), &got_len);

  assert_int_equal (f->kind, kind);
  assert_int_equal (got_len, len);
  assert_memory_equal (got, bytes, len);
}

static void
test_every_in_type_round_trips (void **state)
{
  g_autoptr(GByteArray) meta = all_types_meta ();
  g_autoptr(GByteArray) payload = all_types_payload ();
  g_autoptr(EtTlSchema) schema = parse_ok (meta);
  EtFields *fields = decode_ok (schema, payload);
  const EtField *f;
  char guid[ET_GUID_STRING_LEN];

  assert_string_equal (et_tl_schema_event_name (schema), "AllTypes");
  assert_int_equal (et_tl_schema_n_fields (schema), 24);
  assert_text (fields, field_named (fields, "ustr"), "Hi");
  assert_int_equal (field_named (fields, "ustr")->in_type, IN_USTR);
  assert_text (fields, field_named (fields, "astr"), "caf\xc3\xa9");
  assert_int_field (fields, "i8", IN_I8, -5);
  assert_uint_field (fields, "u8", IN_U8, 200, ET_HINT_NONE);
  assert_int_field (fields, "i16", IN_I16, -300);
  assert_uint_field (fields, "u16", IN_U16, 60000, ET_HINT_NONE);
  assert_int_field (fields, "i32", IN_I32, -70000);
  assert_uint_field (fields, "u32", IN_U32, 4000000000u, ET_HINT_NONE);
  assert_int_field (fields, "i64", IN_I64, G_GINT64_CONSTANT (-5000000000));
  assert_uint_field (fields, "u64", IN_U64, G_MAXUINT64, ET_HINT_NONE);
  f = field_named (fields, "f");
  assert_int_equal (f->kind, ET_VALUE_FLOAT);
  assert_true (f->v.f == 1.5);
  f = field_named (fields, "d");
  assert_int_equal (f->kind, ET_VALUE_FLOAT);
  assert_true (f->v.f == -2.25);
  f = field_named (fields, "b32");
  assert_int_equal (f->kind, ET_VALUE_BOOL);
  assert_true (f->v.b);
  assert_bytes_field (fields, "bin", ET_VALUE_BINARY, "\x01\x02\x03", 3);
  f = field_named (fields, "guid");
  assert_int_equal (f->kind, ET_VALUE_GUID);
  et_guid_to_string (&f->v.guid, guid);
  assert_string_equal (guid, "0ad614c4-0ef4-4225-8013-f44f37cb0397");
  f = field_named (fields, "ft");
  assert_int_equal (f->kind, ET_VALUE_FILETIME);
  assert_true (f->v.i == G_GINT64_CONSTANT (132757271757990000));
  f = field_named (fields, "st");
  assert_int_equal (f->kind, ET_VALUE_SYSTEMTIME);
  assert_memory_equal (f->v.st, systime, sizeof systime);
  assert_bytes_field (fields, "sid", ET_VALUE_SID, sid_bytes, sizeof sid_bytes);
  assert_uint_field (fields, "h32", IN_HEX32, 0xdeadbeef, ET_HINT_HEX);
  assert_uint_field (fields, "h64", IN_HEX64, G_GUINT64_CONSTANT (0x0123456789abcdef),
                     ET_HINT_HEX);
  assert_text (fields, field_named (fields, "cstr"), "Ok");
  assert_text (fields, field_named (fields, "castr"), "yes");
  f = field_named (fields, "s");
  assert_int_equal (f->kind, ET_VALUE_STRUCT);
  assert_int_equal (f->in_type, IN_STRUCT);
  assert_int_equal (f->n_children, 1);
  assert_string_equal (f[1].name, "m");
  assert_true (f[1].v.u == 7);
  assert_bytes_field (fields, "cbin", ET_VALUE_BINARY, "\xaa\xbb", 2);
  et_fields_free (fields);
}

static void
test_in_and_out_type_names (void **state)
{
  static const char *const in_names[] = {
    NULL, "UnicodeString", "AnsiString", "Int8", "UInt8", "Int16", "UInt16", "Int32",
    "UInt32", "Int64", "UInt64", "Float", "Double", "Bool32", "Binary", "Guid", NULL,
    "FileTime", "SystemTime", "Sid", "HexInt32", "HexInt64", "CountedString",
    "CountedAnsiString", "Struct", "CountedBinary",
  };
  static const struct { guint n; const char *name; } out_names[] = {
    { 0, "Default" }, { 1, "NoPrint" }, { 2, "String" }, { 3, "Boolean" }, { 4, "Hex" },
    { 5, "Pid" }, { 6, "Tid" }, { 7, "Port" }, { 8, "IPv4" }, { 9, "IPv6" },
    { 10, "SocketAddress" }, { 11, "Xml" }, { 12, "Json" }, { 13, "Win32Error" },
    { 14, "NTStatus" }, { 15, "HResult" }, { 16, "DateTime" }, { 17, "Signed" },
    { 18, "Unsigned" }, { 35, "Utf8" }, { 36, "Pkcs7" }, { 37, "CodePointer" },
    { 38, "DateTimeUtc" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (in_names); i++)
    if (in_names[i] != NULL)
      assert_string_equal (et_tl_in_type_name (i), in_names[i]);
  assert_null (et_tl_in_type_name (0));
  assert_null (et_tl_in_type_name (26));
  for (guint i = 0; i < G_N_ELEMENTS (out_names); i++)
    assert_string_equal (et_tl_out_type_name (out_names[i].n), out_names[i].name);
  assert_null (et_tl_out_type_name (100));
}

/* ---- tags --------------------------------------------------------------- */

static guint32
tags_of (const guint8 *tags, gsize n)
{
  g_autoptr(GByteArray) m = meta_new (tags, n, "Tagged");
  g_autoptr(EtTlSchema) schema = NULL;

  meta_field (m, "x", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_string_equal (et_tl_schema_event_name (schema), "Tagged");
  assert_int_equal (et_tl_schema_n_fields (schema), 1);
  return et_tl_schema_event_tags (schema);
}

static void
test_event_tag_single_zero_byte_is_no_tags (void **state)
{
  static const guint8 t[] = { 0x00 };
  assert_int_equal (tags_of (t, sizeof t), 0);
}

static void
test_event_tag_chained_zero_is_no_tags (void **state)
{
  static const guint8 t[] = { 0x80, 0x00 };
  assert_int_equal (tags_of (t, sizeof t), 0);
}

static void
test_event_tag_multi_byte_is_most_significant_first (void **state)
{
  static const guint8 one[] = { 0x01 };
  static const guint8 three[] = { 0x81, 0x82, 0x03 };
  static const guint8 four[] = { 0xFF, 0xFF, 0xFF, 0x7F };

  assert_int_equal (tags_of (one, sizeof one), 0x00200000);
  assert_int_equal (tags_of (three, sizeof three), (1 << 21) | (2 << 14) | (3 << 7));
  assert_int_equal (tags_of (four, sizeof four), 0x0FFFFFFF);
}

static void
test_event_tag_chain_longer_than_four_bytes_is_error (void **state)
{
  static const guint8 t[] = { 0x80, 0x80, 0x80, 0x80, 0x00 };
  g_autoptr(GByteArray) m = meta_new (t, sizeof t, "E");
  g_autoptr(GError) error = NULL;

  meta_field (m, "x", IN_U8, NO_OUT);
  meta_finish (m);
  assert_null (et_tl_schema_parse (m->data, m->len, &error));
  assert_etl_error (error, ET_ETL_ERROR_CORRUPT, "offset 2");
}

static void
test_field_tags_are_skipped (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;

  meta_field (m, "tagged", IN_U32, 0x80 | 4);   /* hex, tags follow */
  put_u8 (m, 0x85);
  put_u8 (m, 0x01);
  meta_field (m, "after", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_int_equal (et_tl_schema_n_fields (schema), 2);
  put_u32 (p, 0x1234);
  put_u8 (p, 9);
  fields = decode_ok (schema, p);
  assert_uint_field (fields, "tagged", IN_U32, 0x1234, ET_HINT_HEX);
  assert_int_equal (field_named (fields, "tagged")->out_type, 4);
  assert_uint_field (fields, "after", IN_U8, 9, ET_HINT_NONE);
  et_fields_free (fields);
}

/* ---- arrays and structs ------------------------------------------------- */

static void
test_constant_count_array_has_elements_named_after_field (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *f;

  meta_field (m, "vals", IN_U32 | CONST_COUNT, NO_OUT);
  put_u16 (m, 3);
  meta_field (m, "tail", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  put_u32 (p, 10);
  put_u32 (p, 20);
  put_u32 (p, 30);
  put_u8 (p, 1);
  fields = decode_ok (schema, p);
  f = field_named (fields, "vals");
  assert_int_equal (f->kind, ET_VALUE_ARRAY);
  assert_int_equal (f->in_type, IN_U32);
  assert_int_equal (f->n_children, 3);
  for (guint i = 0; i < 3; i++)
    {
      assert_string_equal (f[1 + i].name, "vals");
      assert_int_equal (f[1 + i].kind, ET_VALUE_UINT);
      assert_true (f[1 + i].v.u == 10 * (i + 1));
    }
  assert_uint_field (fields, "tail", IN_U8, 1, ET_HINT_NONE);
  et_fields_free (fields);
}

static void
test_variable_count_array_reads_u16_count (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *f;

  meta_field (m, "vals", IN_I16 | VAR_COUNT, NO_OUT);
  meta_field (m, "none", IN_USTR | VAR_COUNT, NO_OUT);
  meta_field (m, "names", IN_USTR | VAR_COUNT, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  put_u16 (p, 2);
  put_u16 (p, (guint16) -1);
  put_u16 (p, 5);
  put_u16 (p, 0);
  put_u16 (p, 2);
  put_utf16 (p, "ab", TRUE);
  put_utf16 (p, "", TRUE);
  fields = decode_ok (schema, p);
  f = field_named (fields, "vals");
  assert_int_equal (f->kind, ET_VALUE_ARRAY);
  assert_int_equal (f->n_children, 2);
  assert_true (f[1].v.i == -1 && f[2].v.i == 5);
  f = field_named (fields, "none");
  assert_int_equal (f->kind, ET_VALUE_ARRAY);
  assert_int_equal (f->n_children, 0);
  f = field_named (fields, "names");
  assert_int_equal (f->n_children, 2);
  assert_text (fields, f + 1, "ab");
  assert_text (fields, f + 2, "");
  et_fields_free (fields);
}

static void
test_array_of_structs_repeats_members (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *f;

  meta_field (m, "pts", IN_STRUCT | VAR_COUNT, 2);
  meta_field (m, "x", IN_U8, NO_OUT);
  meta_field (m, "label", IN_ASTR, NO_OUT);
  meta_field (m, "after", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_int_equal (et_tl_schema_n_fields (schema), 2);
  put_u16 (p, 2);
  put_u8 (p, 1);
  put_cstr (p, "one");
  put_u8 (p, 2);
  put_cstr (p, "two");
  put_u8 (p, 99);
  fields = decode_ok (schema, p);
  f = field_named (fields, "pts");
  assert_int_equal (f->kind, ET_VALUE_ARRAY);
  assert_int_equal (f->n_children, 2);
  assert_int_equal (f->n_desc, 6);
  for (guint e = 0; e < 2; e++)
    {
      const EtField *s = f + 1 + 3 * e;
      assert_int_equal (s->kind, ET_VALUE_STRUCT);
      assert_string_equal (s->name, "pts");
      assert_int_equal (s->n_children, 2);
      assert_string_equal (s[1].name, "x");
      assert_true (s[1].v.u == e + 1);
      assert_text (fields, s + 2, e == 0 ? "one" : "two");
    }
  assert_uint_field (fields, "after", IN_U8, 99, ET_HINT_NONE);
  et_fields_free (fields);
}

static void
test_nested_struct_counts_as_one_member (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *outer, *inner;

  meta_field (m, "outer", IN_STRUCT, 2);
  meta_field (m, "inner", IN_STRUCT, 2);
  meta_field (m, "p", IN_U8, NO_OUT);
  meta_field (m, "q", IN_U8, NO_OUT);
  meta_field (m, "r", IN_U8, NO_OUT);
  meta_field (m, "top", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_int_equal (et_tl_schema_n_fields (schema), 2);
  put_bytes (p, "\x01\x02\x03\x04", 4);
  fields = decode_ok (schema, p);
  outer = field_named (fields, "outer");
  assert_int_equal (outer->kind, ET_VALUE_STRUCT);
  assert_int_equal (outer->n_children, 2);
  inner = outer + 1;
  assert_string_equal (inner->name, "inner");
  assert_int_equal (inner->n_children, 2);
  assert_string_equal (inner[1].name, "p");
  assert_string_equal (inner[2].name, "q");
  assert_string_equal (outer[4].name, "r");
  assert_true (outer[4].v.u == 3);
  assert_uint_field (fields, "top", IN_U8, 4, ET_HINT_NONE);
  et_fields_free (fields);
}

static void
test_self_describing_single_event_shape (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "TestEvent");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  g_autoptr(GString) shown = g_string_new (NULL);
  EtFields *fields;
  const EtField *a;

  put_cstr (m, "a");
  put_bytes (m, "\x98\x02", 2);   /* struct of 2, as EventSource writes it */
  meta_field (m, "b", IN_USTR, NO_OUT);
  meta_field (m, "c", IN_USTR, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_string_equal (et_tl_schema_event_name (schema), "TestEvent");
  assert_int_equal (et_tl_schema_n_fields (schema), 1);
  put_utf16 (p, "Hello", TRUE);
  put_utf16 (p, "World!", TRUE);
  assert_int_equal (p->len, 26);
  fields = decode_ok (schema, p);
  assert_int_equal (et_fields_len (fields), 3);
  a = field_named (fields, "a");
  assert_int_equal (a->kind, ET_VALUE_STRUCT);
  assert_int_equal (a->n_children, 2);
  assert_string_equal (a[1].name, "b");
  assert_text (fields, a + 1, "Hello");
  assert_string_equal (a[2].name, "c");
  assert_text (fields, a + 2, "World!");
  et_fields_format_value (fields, 0, shown);
  assert_string_equal (shown->str, "{b: Hello, c: World!}");
  et_fields_free (fields);
}

/* ---- out-type conventions ------------------------------------------------ */

static void
test_out_types_shape_integer_values (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *f;

  meta_field (m, "flag", IN_U8, 3);         /* Boolean */
  meta_field (m, "ch", IN_U8, 2);           /* String: a character */
  meta_field (m, "wch", IN_U16, 2);
  meta_field (m, "mask", IN_U32, 4);        /* Hex */
  meta_field (m, "neg", IN_U64, NO_OUT);    /* declared unsigned, holds -204 */
  meta_field (m, "port", IN_U16, 7);        /* Port: network order */
  meta_finish (m);
  schema = parse_ok (m);
  put_u8 (p, 1);
  put_u8 (p, 77);
  put_u16 (p, 0x263A);
  put_u32 (p, 0xff);
  put_u64 (p, (guint64) -204);
  put_bytes (p, "\x01\xbb", 2);             /* 443 */
  fields = decode_ok (schema, p);
  f = field_named (fields, "flag");
  assert_int_equal (f->kind, ET_VALUE_BOOL);
  assert_true (f->v.b);
  assert_int_equal (f->out_type, 3);
  assert_uint_field (fields, "ch", IN_U8, 77, ET_HINT_CHAR);
  assert_int_equal (field_named (fields, "ch")->out_type, 2);
  assert_uint_field (fields, "wch", IN_U16, 0x263A, ET_HINT_CHAR);
  assert_uint_field (fields, "mask", IN_U32, 0xff, ET_HINT_HEX);
  assert_uint_field (fields, "neg", IN_U64, G_GUINT64_CONSTANT (18446744073709551412),
                     ET_HINT_NONE);
  assert_uint_field (fields, "port", IN_U16, 443, ET_HINT_NONE);
  et_fields_free (fields);
}

/* A schema of fixed-size scalars has a fixed layout: offsets add up, and
 * each field's class is how et_tl_decode reads it. */
static void
test_fixed_layout_of_scalar_fields (void **state)
{
  static const struct { const char *name; guint8 in; int out; guint size; guint8 klass; } f[] = {
    { "a", IN_I8, NO_OUT, 1, ET_FIXED_SIGNED },
    { "b", IN_U16, 4, 2, ET_FIXED_UNSIGNED },          /* Hex */
    { "c", IN_DOUBLE, NO_OUT, 8, ET_FIXED_OTHER },
    { "d", IN_U8, 3, 1, ET_FIXED_OTHER },              /* Boolean */
    { "e", IN_I64, NO_OUT, 8, ET_FIXED_SIGNED },
    { "f", IN_GUID, NO_OUT, 16, ET_FIXED_OTHER },
    { "g", IN_HEX32, NO_OUT, 4, ET_FIXED_UNSIGNED },
    { "h", IN_BOOL32, NO_OUT, 4, ET_FIXED_OTHER },
  };
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  const EtFixedLayout *layout;
  EtFields *fields;
  guint offset = 0;

  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    meta_field (m, f[i].name, f[i].in, f[i].out);
  meta_finish (m);
  schema = parse_ok (m);
  layout = et_tl_schema_fixed_layout (schema);
  assert_non_null (layout);
  assert_int_equal (layout->n_fields, G_N_ELEMENTS (f));
  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    {
      assert_string_equal (layout->fields[i].name, f[i].name);
      assert_int_equal (layout->fields[i].offset, offset);
      assert_int_equal (layout->fields[i].size, f[i].size);
      assert_int_equal (layout->fields[i].klass, f[i].klass);
      offset += f[i].size;
    }
  assert_int_equal (layout->size, offset);

  /* A payload of exactly that size decodes, into the kinds the classes say. */
  for (guint i = 0; i < offset; i++)
    put_u8 (p, 0x80 + i);
  fields = decode_ok (schema, p);
  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    {
      const EtField *x = field_named (fields, f[i].name);
      guint8 expected = x->kind == ET_VALUE_INT ? ET_FIXED_SIGNED
                        : x->kind == ET_VALUE_UINT ? ET_FIXED_UNSIGNED : ET_FIXED_OTHER;

      assert_int_equal (expected, f[i].klass);
    }
  et_fields_free (fields);
}

/* Strings, arrays, structs and 16-bit ports (their bytes are swapped)
 * leave a schema without a fixed layout. */
static void
test_no_fixed_layout_for_other_fields (void **state)
{
  static const struct { guint8 in; int out; } f[] = {
    { IN_USTR, NO_OUT }, { IN_U16, 7 }, { IN_U32 | VAR_COUNT, NO_OUT }, { IN_CBINARY, NO_OUT },
    { IN_SID, NO_OUT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    {
      g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
      g_autoptr(EtTlSchema) schema = NULL;

      meta_field (m, "n", IN_U32, NO_OUT);
      meta_field (m, "x", f[i].in, f[i].out);
      meta_finish (m);
      schema = parse_ok (m);
      assert_null (et_tl_schema_fixed_layout (schema));
    }
  {
    g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
    g_autoptr(EtTlSchema) schema = NULL;

    meta_field (m, "s", IN_STRUCT, 1);         /* one member */
    meta_field (m, "inner", IN_U32, NO_OUT);
    meta_finish (m);
    schema = parse_ok (m);
    assert_null (et_tl_schema_fixed_layout (schema));
  }
}

static void
test_character_arrays_are_text (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;
  const EtField *f;

  meta_field (m, "Raw Script", IN_U16 | VAR_COUNT, 2);
  meta_field (m, "fixed", IN_U8 | CONST_COUNT, 2);
  put_u16 (m, 4);
  meta_finish (m);
  schema = parse_ok (m);
  put_u16 (p, 5);
  put_utf16 (p, "$x=1", FALSE);
  put_u16 (p, 0x00e9);                      /* é */
  put_bytes (p, "ab\0\0", 4);               /* padded with NULs */
  fields = decode_ok (schema, p);
  assert_int_equal (et_fields_len (fields), 2);
  f = field_named (fields, "Raw Script");
  assert_text (fields, f, "$x=1\xc3\xa9");
  assert_int_equal (f->in_type, IN_U16);
  assert_int_equal (f->out_type, 2);
  assert_text (fields, field_named (fields, "fixed"), "ab");
  et_fields_free (fields);
}

static void
test_text_out_types_mark_8bit_strings_as_utf8 (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;

  meta_field (m, "utf8", IN_ASTR, 35);
  meta_field (m, "json", IN_CASTR, 12);
  meta_finish (m);
  schema = parse_ok (m);
  put_cstr (p, "\xe2\x82\xac");             /* € */
  put_u16 (p, 2);
  put_bytes (p, "{}", 2);
  fields = decode_ok (schema, p);
  assert_text (fields, field_named (fields, "utf8"), "\xe2\x82\xac");
  assert_text (fields, field_named (fields, "json"), "{}");
  et_fields_free (fields);
}

static void
test_custom_field_is_counted_binary (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields;

  meta_field (m, "blob", IN_BINARY | CUSTOM, NO_OUT);
  put_u16 (m, 3);
  put_bytes (m, "xyz", 3);                  /* the custom schema */
  meta_field (m, "after", IN_U8, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  assert_int_equal (et_tl_schema_n_fields (schema), 2);
  put_u16 (p, 2);
  put_bytes (p, "\x10\x20", 2);
  put_u8 (p, 5);
  fields = decode_ok (schema, p);
  assert_bytes_field (fields, "blob", ET_VALUE_BINARY, "\x10\x20", 2);
  assert_uint_field (fields, "after", IN_U8, 5, ET_HINT_NONE);
  et_fields_free (fields);
}

/* ---- provider traits ---------------------------------------------------- */

static GByteArray *
lxcore_traits (void)
{
  static const guint8 group[16] = {
    0x1a, 0x73, 0x50, 0x4f, 0xcf, 0x89, 0x82, 0x47,
    0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x04, 0x76, 0xba,
  };
  GByteArray *t = g_byte_array_new ();

  put_u16 (t, 0);
  put_cstr (t, "Microsoft.Windows.Subsystem.LxCore");
  put_u16 (t, 19);
  put_u8 (t, 1);                            /* provider group */
  put_bytes (t, group, 16);
  meta_finish (t);
  return t;
}

static void
test_provider_traits_give_name_with_group_trait (void **state)
{
  g_autoptr(GByteArray) t = lxcore_traits ();
  g_autoptr(GByteArray) plain = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *name = et_tl_traits_provider_name (t->data, t->len, &error);
  g_autofree char *plain_name = NULL;

  g_assert_no_error (error);
  assert_string_equal (name, "Microsoft.Windows.Subsystem.LxCore");
  put_u16 (plain, 0);
  put_cstr (plain, "AmsiTrace");
  meta_finish (plain);
  put_u16 (plain, 0xFFFF);                  /* padding past the item's size */
  plain_name = et_tl_traits_provider_name (plain->data, plain->len, &error);
  g_assert_no_error (error);
  assert_string_equal (plain_name, "AmsiTrace");
}

static void
test_provider_traits_hostile_sizes_are_errors (void **state)
{
  g_autoptr(GByteArray) t = lxcore_traits ();
  guint8 no_nul[] = { 5, 0, 'a', 'b', 'c' };

  for (gsize cut = 0; cut < t->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (t->data, cut);
      g_autoptr(GError) error = NULL;
      g_autofree char *name = et_tl_traits_provider_name (copy, cut, &error);

      assert_null (name);
      assert_etl_error (error, -1, "offset");
    }
  {
    g_autoptr(GError) error = NULL;
    assert_null (et_tl_traits_provider_name (no_nul, sizeof no_nul, &error));
    assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "offset 2");
  }
  {
    g_autoptr(GError) error = NULL;
    t->data[t->len - 19] = 2;               /* trait size smaller than its header */
    assert_null (et_tl_traits_provider_name (t->data, t->len, &error));
    assert_etl_error (error, ET_ETL_ERROR_CORRUPT, "offset 37");
  }
}

/* ---- hostile metadata ---------------------------------------------------- */

static void
assert_parse_fails (GByteArray *m, gint code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  EtTlSchema *schema = et_tl_schema_parse (m->data, m->len, &error);

  assert_null (schema);
  assert_etl_error (error, code, needle);
}

static void
test_metadata_size_past_end_is_error (void **state)
{
  g_autoptr(GByteArray) m = all_types_meta ();

  m->data[0] += 1;
  assert_parse_fails (m, ET_ETL_ERROR_TRUNCATED, "offset 0");
  m->data[0] = 1;
  m->data[1] = 0;
  assert_parse_fails (m, ET_ETL_ERROR_TRUNCATED, "offset 0");
}

static void
test_struct_member_count_past_end_is_error (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");

  meta_field (m, "s", IN_STRUCT, 5);
  meta_field (m, "only", IN_U8, NO_OUT);
  meta_finish (m);
  assert_parse_fails (m, ET_ETL_ERROR_CORRUPT, "offset 5");
}

static GByteArray *
nested_structs_meta (guint levels)
{
  GByteArray *m = meta_new (NULL, 0, "Deep");

  for (guint i = 0; i < levels; i++)
    meta_field (m, "s", IN_STRUCT, 1);
  meta_field (m, "leaf", IN_U8, NO_OUT);
  meta_finish (m);
  return m;
}

static void
test_nesting_at_the_bound_decodes (void **state)
{
  g_autoptr(GByteArray) m = nested_structs_meta (31);
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = parse_ok (m);
  EtFields *fields;

  put_u8 (p, 42);
  fields = decode_ok (schema, p);
  assert_int_equal (et_fields_len (fields), 32);
  assert_string_equal (et_fields_get (fields, 31)->name, "leaf");
  assert_true (et_fields_get (fields, 31)->v.u == 42);
  et_fields_free (fields);
}

static void
test_nesting_deeper_than_bound_is_error (void **state)
{
  g_autoptr(GByteArray) m = nested_structs_meta (32);
  g_autoptr(GByteArray) deeper = nested_structs_meta (5000);

  assert_parse_fails (m, ET_ETL_ERROR_CORRUPT, "nested");
  assert_parse_fails (deeper, ET_ETL_ERROR_CORRUPT, "nested");
}

static void
test_field_count_bound (void **state)
{
  g_autoptr(GByteArray) ok = meta_new (NULL, 0, "Wide");
  g_autoptr(GByteArray) too_many = meta_new (NULL, 0, "Wide");
  g_autoptr(EtTlSchema) schema = NULL;

  for (guint i = 0; i < 1024; i++)
    {
      meta_field (ok, "f", IN_U8, NO_OUT);
      meta_field (too_many, "f", IN_U8, NO_OUT);
    }
  meta_field (too_many, "f", IN_U8, NO_OUT);
  meta_finish (ok);
  meta_finish (too_many);
  schema = parse_ok (ok);
  assert_int_equal (et_tl_schema_n_fields (schema), 1024);
  assert_parse_fails (too_many, ET_ETL_ERROR_CORRUPT, "more than 1024 fields");
}

static void
test_undecodable_in_types_are_unsupported (void **state)
{
  static const guint8 in_types[] = { 0, IN_POINTER, 26, 31 };

  for (guint i = 0; i < G_N_ELEMENTS (in_types); i++)
    {
      g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
      meta_field (m, "x", in_types[i], NO_OUT);
      meta_finish (m);
      assert_parse_fails (m, ET_ETL_ERROR_UNSUPPORTED, "offset 5");
    }
}

/* Cutting the item anywhere: with the original size the size lies, and with
 * the size rewritten the blob either still parses or fails cleanly. */
static void
test_every_truncation_of_valid_metadata (void **state)
{
  g_autoptr(GByteArray) m = all_types_meta ();

  for (gsize cut = 0; cut < m->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (m->data, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTlSchema) lying = et_tl_schema_parse (copy, cut, &error);
      g_autoptr(EtTlSchema) cut_short = NULL;

      assert_null (lying);
      assert_etl_error (error, -1, "offset");
      g_clear_error (&error);
      if (cut < 2)
        continue;
      copy[0] = cut & 0xFF;
      copy[1] = cut >> 8;
      cut_short = et_tl_schema_parse (copy, cut, &error);
      if (cut_short == NULL)
        assert_etl_error (error, -1, "offset");
      else
        assert_true (et_tl_schema_n_fields (cut_short) < 24);
    }
}

/* ---- hostile payloads ----------------------------------------------------- */

static void
test_every_truncation_of_payload_fails_with_offset (void **state)
{
  g_autoptr(GByteArray) m = all_types_meta ();
  g_autoptr(GByteArray) p = all_types_payload ();
  g_autoptr(EtTlSchema) schema = parse_ok (m);
  EtFields *fields = et_fields_new ();

  for (gsize cut = 0; cut < p->len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (p->data, cut);
      g_autoptr(GError) error = NULL;
      gsize consumed = G_MAXSIZE;

      assert_false (et_tl_decode (schema, copy, cut, fields, &consumed, &error));
      assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "payload offset");
      assert_true (consumed <= cut);
      assert_int_equal (et_fields_len (fields), 0);
      assert_int_equal (fields->text->len, 0);
    }
  et_fields_free (fields);
}

static void
test_truncated_payload_error_names_field_and_offset (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();

  meta_field (m, "first", IN_U32, NO_OUT);
  meta_field (m, "second", IN_U64, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  put_u32 (p, 1);
  put_u32 (p, 2);
  assert_false (et_tl_decode (schema, p->data, p->len, fields, NULL, &error));
  assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "payload offset 4");
  assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "second");
  et_fields_free (fields);
}

static void
test_array_count_larger_than_payload_fails_at_once (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GByteArray) p = g_byte_array_new ();
  g_autoptr(EtTlSchema) schema = NULL;
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();

  meta_field (m, "many", IN_U32 | VAR_COUNT, NO_OUT);
  meta_finish (m);
  schema = parse_ok (m);
  put_u16 (p, 0xFFFF);
  put_u32 (p, 1);
  assert_false (et_tl_decode (schema, p->data, p->len, fields, NULL, &error));
  assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "payload offset 0");
  assert_int_equal (et_fields_len (fields), 0);
  et_fields_free (fields);
}

/* A string whose NUL never comes ends with the payload: read through an
 * exactly sized copy (ASan would see one byte more), it is an error naming
 * the field and offset, and nothing past the end is read. */
static void
test_unterminated_strings_stop_at_the_payload_end (void **state)
{
  static const guint8 kinds[] = { IN_ASTR, IN_USTR };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
      g_autoptr(GByteArray) p = g_byte_array_new ();
      g_autoptr(EtTlSchema) schema = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree guint8 *exact = NULL;
      EtFields *fields = et_fields_new ();

      meta_field (m, "text", kinds[k], NO_OUT);
      meta_finish (m);
      schema = parse_ok (m);
      if (kinds[k] == IN_ASTR)
        put_bytes (p, "abc", 3);
      else
        put_utf16 (p, "abc", FALSE);
      exact = g_memdup2 (p->data, p->len);
      assert_false (et_tl_decode (schema, exact, p->len, fields, NULL, &error));
      assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "text");
      assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "payload offset 0");
      et_fields_free (fields);
    }
}

/* Constant-count arrays of structs take no payload bytes, so nesting them
 * could ask for 65535² entries from an empty payload. */
static void
test_arrays_of_empty_structs_cannot_explode (void **state)
{
  g_autoptr(GByteArray) m = meta_new (NULL, 0, "E");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTlSchema) schema = NULL;
  EtFields *fields = et_fields_new ();

  meta_field (m, "outer", IN_STRUCT | CONST_COUNT, 1);
  put_u16 (m, 0xFFFF);
  meta_field (m, "inner", IN_STRUCT | CONST_COUNT, 1);
  put_u16 (m, 0xFFFF);
  meta_field (m, "none", IN_U8 | CONST_COUNT, NO_OUT);
  put_u16 (m, 0);
  meta_finish (m);
  schema = parse_ok (m);
  assert_false (et_tl_decode (schema, (const guint8 *) "", 0, fields, NULL, &error));
  assert_etl_error (error, ET_ETL_ERROR_CORRUPT, "payload offset 0");
  assert_int_equal (et_fields_len (fields), 0);
  et_fields_free (fields);
}

static void
test_failed_decode_leaves_open_container_intact (void **state)
{
  g_autoptr(GByteArray) m = nested_structs_meta (2);
  g_autoptr(EtTlSchema) schema = parse_ok (m);
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();
  guint outer;

  outer = et_fields_begin (fields, "caller", ET_VALUE_STRUCT);
  et_fields_add_uint (fields, "kept", 1);
  assert_false (et_tl_decode (schema, (const guint8 *) "", 0, fields, NULL, &error));
  assert_etl_error (error, ET_ETL_ERROR_TRUNCATED, "leaf");
  assert_int_equal (et_fields_len (fields), 2);
  assert_int_equal (et_fields_get (fields, outer)->n_children, 1);
  assert_int_equal (et_fields_get (fields, outer)->n_desc, 1);
  assert_int_equal (fields->n_open, 1);
  et_fields_free (fields);
}

/* ---- the real corpus ------------------------------------------------------ */

typedef struct
{
  guint         index;     /* record number in file order */
  const guint8 *meta;
  gsize         meta_len;
  const guint8 *traits;
  gsize         traits_len;
  const guint8 *payload;
  gsize         payload_len;
} TlRecord;

/* Just enough of the reader to find EVENT_HEADER64 records with a
 * TraceLogging schema item in an uncompressed file (etl-format.md §1–5). */
static void
collect_event_header (const guint8 *rec, gsize size, guint index, GArray *out)
{
  TlRecord tl = { .index = index };
  gsize pos = 0x50;

  if (size < 0x50 || (et_read_u16 (rec + 4) & 1) == 0)
    return;
  for (;;)
    {
      guint16 item_size, type, linkage, data_size;

      assert_true (pos + 8 <= size);
      item_size = et_read_u16 (rec + pos);
      type = et_read_u16 (rec + pos + 2);
      linkage = et_read_u16 (rec + pos + 4);
      data_size = et_read_u16 (rec + pos + 6);
      assert_true (item_size >= 8 && pos + 8 + data_size <= size);
      if (type == 11)
        {
          tl.meta = rec + pos + 8;
          tl.meta_len = data_size;
        }
      else if (type == 12)
        {
          tl.traits = rec + pos + 8;
          tl.traits_len = data_size;
        }
      pos += item_size;
      if ((linkage & 1) == 0)
        break;
    }
  if (tl.meta == NULL)
    return;
  tl.payload = rec + pos;
  tl.payload_len = size - pos;
  g_array_append_val (out, tl);
}

static GArray *
collect_tl_records (GBytes *file)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TlRecord));
  gsize file_len;
  const guint8 *data = g_bytes_get_data (file, &file_len);
  guint index = 0;

  for (gsize off = 0; off + 0x48 <= file_len; )
    {
      guint32 buffer_size = et_read_u32 (data + off);
      gsize end = MIN (et_read_u32 (data + off + 0x30), buffer_size);

      assert_true (buffer_size >= 0x48 && off + buffer_size <= file_len);
      assert_int_equal (et_read_u16 (data + off + 0x34) & 0x40, 0);
      for (gsize pos = 0x48; pos + 4 <= end; )
        {
          const guint8 *rec = data + off + pos;
          guint8 type = rec[2];
          gsize size;

          if (et_read_u32 (rec) == 0xFFFFFFFF)
            break;
          assert_int_equal (rec[3], 0xC0);
          size = (type <= 0x04 || type == 0x10 || type == 0x11)
                 ? et_read_u16 (rec + 4) : et_read_u16 (rec);
          assert_true (size >= 4 && pos + size <= end);
          if (type == 0x13)
            collect_event_header (rec, size, index, out);
          index++;
          pos += (size + 7) & ~(gsize) 7;
        }
      off += buffer_size;
    }
  return out;
}

static void assert_matches_json (const EtFields *fields, guint index, JsonNode *expected);

static void
assert_container_matches (const EtFields *fields, guint index, JsonNode *expected)
{
  const EtField *f = et_fields_get (fields, index);
  guint child = index + 1;

  if (f->kind == ET_VALUE_STRUCT)
    {
      JsonObject *o = json_node_get_object (expected);
      assert_int_equal (f->n_children, json_object_get_size (o));
      for (guint c = 0; c < f->n_children; c++, child = et_fields_next (fields, child))
        {
          const char *name = et_fields_get (fields, child)->name;
          assert_true (json_object_has_member (o, name));
          assert_matches_json (fields, child, json_object_get_member (o, name));
        }
      return;
    }
  assert_int_equal (json_array_get_length (json_node_get_array (expected)), f->n_children);
  for (guint c = 0; c < f->n_children; c++, child = et_fields_next (fields, child))
    assert_matches_json (fields, child,
                         json_array_get_element (json_node_get_array (expected), c));
}

/* The expected files print FILETIMEs as ISO 8601 UTC and SYSTEMTIMEs as
 * local ISO 8601 with milliseconds. */
static void
assert_time_matches (const EtField *f, const char *expected)
{
  if (f->kind == ET_VALUE_FILETIME)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (expected, NULL);
      gint64 ticks;

      assert_non_null (dt);
      ticks = (g_date_time_to_unix (dt) + G_GINT64_CONSTANT (11644473600)) * 10000000
              + g_date_time_get_microsecond (dt) * 10;
      assert_true (f->v.i / 10 == ticks / 10);
    }
  else
    {
      guint y, mo, d, h, mi, s, ms;
      assert_int_equal (sscanf (expected, "%u-%u-%uT%u:%u:%u.%u", &y, &mo, &d, &h, &mi, &s,
                                &ms), 7);
      assert_true (f->v.st[0] == y && f->v.st[1] == mo && f->v.st[3] == d && f->v.st[4] == h
                   && f->v.st[5] == mi && f->v.st[6] == s && f->v.st[7] == ms);
    }
}

static void
assert_matches_json (const EtFields *fields, guint index, JsonNode *expected)
{
  const EtField *f = et_fields_get (fields, index);
  char guid[ET_GUID_STRING_LEN];
  gsize len;
  const char *text;

  switch (f->kind)
    {
    case ET_VALUE_STRUCT:
    case ET_VALUE_ARRAY:
      assert_container_matches (fields, index, expected);
      break;
    case ET_VALUE_INT:
      assert_true (json_node_get_value_type (expected) == G_TYPE_INT64);
      assert_true (json_node_get_int (expected) == f->v.i);
      break;
    case ET_VALUE_UINT:
      /* json-glib keeps integers as gint64: above G_MAXINT64 they wrap. */
      assert_true (json_node_get_value_type (expected) == G_TYPE_INT64);
      assert_true ((guint64) json_node_get_int (expected) == f->v.u);
      break;
    case ET_VALUE_BOOL:
      assert_true (json_node_get_value_type (expected) == G_TYPE_BOOLEAN);
      assert_int_equal (json_node_get_boolean (expected), f->v.b);
      break;
    case ET_VALUE_STRING:
      text = et_fields_text (fields, index, &len);
      assert_string_equal (text, json_node_get_string (expected));
      assert_int_equal (len, strlen (json_node_get_string (expected)));
      break;
    case ET_VALUE_GUID:
      et_guid_to_string (&f->v.guid, guid);
      assert_string_equal (guid, json_node_get_string (expected));
      break;
    case ET_VALUE_FILETIME:
    case ET_VALUE_SYSTEMTIME:
      assert_time_matches (f, json_node_get_string (expected));
      break;
    default:
      fail_msg ("field %s: kind %u does not occur in the corpus", f->name, f->kind);
    }
}

/* json-glib keeps every integer as a gint64, so 18446744073709551412 and
 * -204 read back alike; the declared in-type tells which one is meant. */
static void
assert_signedness_matches (const EtField *f, const char *in_type)
{
  if (f->kind != ET_VALUE_INT && f->kind != ET_VALUE_UINT)
    return;
  if (g_str_has_prefix (in_type, "Int"))
    assert_int_equal (f->kind, ET_VALUE_INT);
  else
    assert_int_equal (f->kind, ET_VALUE_UINT);
}

/* field_types lists top-level fields and struct members in order, but not
 * array elements. */
static void
assert_field_types_match (const EtFields *fields, JsonArray *types)
{
  guint t = 0;

  for (guint i = 0; i < et_fields_len (fields); )
    {
      const EtField *f = et_fields_get (fields, i);
      JsonObject *type = json_array_get_object_element (types, t++);

      assert_string_equal (f->name, json_object_get_string_member (type, "name"));
      assert_string_equal (et_tl_in_type_name (f->in_type),
                           json_object_get_string_member (type, "intype"));
      if (json_object_has_member (type, "outtype"))
        assert_string_equal (et_tl_out_type_name (f->out_type),
                             json_object_get_string_member (type, "outtype"));
      assert_signedness_matches (f, json_object_get_string_member (type, "intype"));
      i = f->kind == ET_VALUE_STRUCT ? i + 1 : et_fields_next (fields, i);
    }
  assert_int_equal (t, json_array_get_length (types));
}

static void
check_decoded_event (const TlRecord *rec, JsonObject *expected, EtFields *fields)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTlSchema) schema = et_tl_schema_parse (rec->meta, rec->meta_len, &error);
  g_autofree char *provider = NULL;
  JsonObject *values = json_object_get_object_member (expected, "fields");
  gsize consumed = 0;

  g_assert_no_error (error);
  assert_int_equal (rec->index, json_object_get_int_member (expected, "index"));
  assert_string_equal (et_tl_schema_event_name (schema),
                       json_object_get_string_member (expected, "event"));
  assert_non_null (rec->traits);
  provider = et_tl_traits_provider_name (rec->traits, rec->traits_len, &error);
  g_assert_no_error (error);
  assert_string_equal (provider, json_object_get_string_member (expected, "provider_name"));

  et_fields_clear (fields);
  if (!et_tl_decode (schema, rec->payload, rec->payload_len, fields, &consumed, &error))
    fail_msg ("event %u: %s", rec->index, error->message);
  assert_int_equal (consumed, json_object_get_int_member (expected, "payload_bytes_consumed"));
  assert_int_equal (et_tl_schema_n_fields (schema), json_object_get_size (values));
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      const char *name = et_fields_get (fields, i)->name;
      assert_true (json_object_has_member (values, name));
      assert_matches_json (fields, i, json_object_get_member (values, name));
    }
  assert_field_types_match (fields, json_object_get_array_member (expected, "field_types"));
}

static void
check_corpus_file (const char *base)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *etl_path = NULL, *json_path = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) records = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *decoded;
  EtFields *fields;

  etl_path = g_strdup_printf ("%s/%s.etl", dir ? dir : "(unset)", base);
  json_path = g_strdup_printf ("%s/expected/%s.json", dir ? dir : "(unset)", base);
  if (dir == NULL || !g_file_test (etl_path, G_FILE_TEST_EXISTS)
      || !g_file_test (json_path, G_FILE_TEST_EXISTS))
    {
      print_message ("corpus not found at %s\n", dir ? dir : "$ET_CORPUS_DIR (unset)");
      skip ();
      return;
    }
  mapped = g_mapped_file_new (etl_path, FALSE, &error);
  g_assert_no_error (error);
  bytes = g_mapped_file_get_bytes (mapped);
  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  decoded = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                          "decoded_events");
  records = collect_tl_records (bytes);
  assert_int_equal (records->len, json_array_get_length (decoded));

  fields = et_fields_new ();
  for (guint i = 0; i < records->len; i++)
    check_decoded_event (&g_array_index (records, TlRecord, i),
                         json_array_get_object_element (decoded, i), fields);
  et_fields_free (fields);
}

static void
test_corpus_primitive_types_match_expected (void **state)
{
  check_corpus_file ("primitive-types");
}

static void
test_corpus_amsi_raw_script_matches_expected (void **state)
{
  check_corpus_file ("AMSITrace");
}

static void
test_corpus_lxcore_matches_expected (void **state)
{
  check_corpus_file ("lxcore_kernel");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_every_in_type_round_trips),
    cmocka_unit_test (test_in_and_out_type_names),
    cmocka_unit_test (test_event_tag_single_zero_byte_is_no_tags),
    cmocka_unit_test (test_event_tag_chained_zero_is_no_tags),
    cmocka_unit_test (test_event_tag_multi_byte_is_most_significant_first),
    cmocka_unit_test (test_event_tag_chain_longer_than_four_bytes_is_error),
    cmocka_unit_test (test_field_tags_are_skipped),
    cmocka_unit_test (test_constant_count_array_has_elements_named_after_field),
    cmocka_unit_test (test_variable_count_array_reads_u16_count),
    cmocka_unit_test (test_array_of_structs_repeats_members),
    cmocka_unit_test (test_nested_struct_counts_as_one_member),
    cmocka_unit_test (test_self_describing_single_event_shape),
    cmocka_unit_test (test_out_types_shape_integer_values),
    cmocka_unit_test (test_fixed_layout_of_scalar_fields),
    cmocka_unit_test (test_no_fixed_layout_for_other_fields),
    cmocka_unit_test (test_character_arrays_are_text),
    cmocka_unit_test (test_text_out_types_mark_8bit_strings_as_utf8),
    cmocka_unit_test (test_custom_field_is_counted_binary),
    cmocka_unit_test (test_provider_traits_give_name_with_group_trait),
    cmocka_unit_test (test_provider_traits_hostile_sizes_are_errors),
    cmocka_unit_test (test_metadata_size_past_end_is_error),
    cmocka_unit_test (test_struct_member_count_past_end_is_error),
    cmocka_unit_test (test_nesting_at_the_bound_decodes),
    cmocka_unit_test (test_nesting_deeper_than_bound_is_error),
    cmocka_unit_test (test_field_count_bound),
    cmocka_unit_test (test_undecodable_in_types_are_unsupported),
    cmocka_unit_test (test_every_truncation_of_valid_metadata),
    cmocka_unit_test (test_every_truncation_of_payload_fails_with_offset),
    cmocka_unit_test (test_truncated_payload_error_names_field_and_offset),
    cmocka_unit_test (test_array_count_larger_than_payload_fails_at_once),
    cmocka_unit_test (test_unterminated_strings_stop_at_the_payload_end),
    cmocka_unit_test (test_arrays_of_empty_structs_cannot_explode),
    cmocka_unit_test (test_failed_decode_leaves_open_container_intact),
    cmocka_unit_test (test_corpus_primitive_types_match_expected),
    cmocka_unit_test (test_corpus_amsi_raw_script_matches_expected),
    cmocka_unit_test (test_corpus_lxcore_matches_expected),
  };

  return cmocka_run_group_tests_name ("tracelogging", tests, NULL, NULL);
}
