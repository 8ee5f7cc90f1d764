/* Tests for et-manifest: parsing an EventSource manifest laid out as .NET's
 * ManifestBuilder writes it, decoding payloads by template, and chunk
 * reassembly. The manifest below is written by hand for the test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "et-error.h"
#include "et-manifest.h"

static const char manifest_xml[] =
  "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
  " <instrumentation xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\r\n"
  "  <events xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
  "<provider name=\"Contoso-Test\" guid=\"{2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5}\" resourceFileName=\"x\" messageFileName=\"x\" symbol=\"ContosoTest\">\r\n"
  " <tasks>\r\n"
  "  <task name=\"Loop\" value=\"1\"/>\r\n"
  "  <task name=\"Fork\" value=\"2\"><opcodes><opcode name=\"Joined\" value=\"12\"/></opcodes></task>\r\n"
  " </tasks>\r\n"
  " <opcodes>\r\n"
  "  <opcode name=\"Scheduled\" value=\"11\" message=\"$(string.opcode_Scheduled)\"/>\r\n"
  " </opcodes>\r\n"
  " <keywords>\r\n"
  "  <keyword name=\"Tasks\" message=\"$(string.keyword_Tasks)\" mask=\"0x2\"/>\r\n"
  "  <keyword name=\"Loops\" message=\"$(string.keyword_Loops)\" mask=\"0x4\"/>\r\n"
  " </keywords>\r\n"
  " <maps>\r\n"
  "  <valueMap name=\"OpType\"><map value=\"0x1\" message=\"$(string.map_OpType.For)\"/><map value=\"0x2\" message=\"$(string.map_OpType.ForEach)\"/></valueMap>\r\n"
  "  <bitMap name=\"Flags\"><map value=\"0x1\" message=\"$(string.map_Flags.A)\"/><map value=\"0x4\" message=\"$(string.map_Flags.C)\"/></bitMap>\r\n"
  " </maps>\r\n"
  " <events>\r\n"
  "  <event value=\"1\" version=\"0\" level=\"win:Informational\" task=\"Loop\" opcode=\"win:Start\" keywords=\"Tasks Loops\" template=\"LoopArgs\" message=\"$(string.event_LoopBegin)\"/>\r\n"
  "  <event value=\"2\" version=\"1\" level=\"win:Verbose\" task=\"Loop\" opcode=\"win:Stop\" template=\"AllTypes\"/>\r\n"
  "  <event value=\"3\" version=\"0\" level=\"win:Warning\" task=\"Fork\" opcode=\"Joined\" template=\"Arrays\"/>\r\n"
  "  <event value=\"4\" version=\"0\" level=\"win:Error\" symbol=\"Failed\" opcode=\"Scheduled\"/>\r\n"
  " </events>\r\n"
  " <templates>\r\n"
  "  <template tid=\"LoopArgs\"><data name=\"Id\" inType=\"win:Int32\"/><data name=\"Kind\" inType=\"win:UInt32\" map=\"OpType\"/><data name=\"Bits\" inType=\"win:UInt32\" map=\"Flags\"/><data name=\"Name\" inType=\"win:UnicodeString\"/></template>\r\n"
  "  <template tid=\"AllTypes\"><data name=\"i8\" inType=\"win:Int8\"/><data name=\"u16\" inType=\"win:UInt16\"/><data name=\"i64\" inType=\"win:Int64\"/>"
  "<data name=\"f\" inType=\"win:Float\"/><data name=\"d\" inType=\"win:Double\"/><data name=\"b\" inType=\"win:Boolean\"/><data name=\"g\" inType=\"win:GUID\"/>"
  "<data name=\"p\" inType=\"win:Pointer\"/><data name=\"h\" inType=\"win:UInt32\" outType=\"win:HexInt32\"/><data name=\"a\" inType=\"win:AnsiString\"/>"
  "<data name=\"ft\" inType=\"win:FILETIME\"/><data name=\"blobSize\" inType=\"win:UInt32\"/><data name=\"blob\" inType=\"win:Binary\" length=\"blobSize\"/></template>\r\n"
  "  <template tid=\"Arrays\"><data name=\"n\" inType=\"win:UInt16\"/><data name=\"vals\" inType=\"win:Int32\" count=\"n\"/><data name=\"pair\" inType=\"win:UInt8\" count=\"2\"/></template>\r\n"
  " </templates>\r\n"
  "</provider>\r\n"
  "</events>\r\n"
  "</instrumentation>\r\n"
  "<localization>\r\n"
  " <resources culture=\"en-US\">\r\n"
  "  <stringTable>\r\n"
  "   <string id=\"event_LoopBegin\" value=\"Beginning %2 loop %1 (%4).\"/>\r\n"
  "   <string id=\"map_OpType.For\" value=\"ParallelFor\"/>\r\n"
  "   <string id=\"map_OpType.ForEach\" value=\"ParallelForEach\"/>\r\n"
  "   <string id=\"map_Flags.A\" value=\"A\"/>\r\n"
  "   <string id=\"map_Flags.C\" value=\"C\"/>\r\n"
  "   <string id=\"keyword_Tasks\" value=\"Tasks\"/>\r\n"
  "  </stringTable>\r\n"
  " </resources>\r\n"
  "</localization>\r\n"
  "</instrumentationManifest>\r\n";

static EtManifest *
parse (void)
{
  g_autoptr(GError) error = NULL;
  EtManifest *m = et_manifest_parse (manifest_xml, sizeof manifest_xml - 1, &error);

  g_assert_no_error (error);
  assert_non_null (m);
  return m;
}

static void
put (GByteArray *b, const void *data, gsize len)
{
  g_byte_array_append (b, data, (guint) len);
}

static void
put_u32 (GByteArray *b, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  put (b, &le, 4);
}

static void
put_utf16 (GByteArray *b, const char *ascii)
{
  for (const char *p = ascii; ; p++)
    {
      guint8 unit[2] = { (guint8) *p, 0 };
      put (b, unit, 2);
      if (*p == '\0')
        break;
    }
}

static char *
format_field (EtFields *f, const char *name)
{
  GString *s = g_string_new (NULL);
  gint i = et_fields_find (f, name);

  assert_true (i >= 0);
  et_fields_format_value (f, (guint) i, s);
  return g_string_free (s, FALSE);
}

#define assert_field(f, name, text) \
  G_STMT_START { g_autofree char *_v = format_field (f, name); assert_string_equal (_v, text); } G_STMT_END

static void
test_provider_tasks_opcodes_keywords (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  g_autoptr(GString) kw = g_string_new (NULL);
  char guid[ET_GUID_STRING_LEN];

  assert_string_equal (et_manifest_get_provider_name (m), "Contoso-Test");
  et_guid_to_string (et_manifest_get_provider_guid (m), guid);
  assert_string_equal (guid, "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5");
  assert_int_equal (et_manifest_get_n_events (m), 4);
  assert_string_equal (et_manifest_task_name (m, 1), "Loop");
  assert_null (et_manifest_task_name (m, 9));
  assert_string_equal (et_manifest_opcode_name (m, 2, 12), "Joined");   /* task-specific */
  assert_string_equal (et_manifest_opcode_name (m, 1, 11), "Scheduled"); /* global */
  assert_string_equal (et_manifest_opcode_name (m, 1, 1), "win:Start");
  et_manifest_keyword_names (m, 0x6, kw);
  assert_string_equal (kw->str, "Tasks|Loops");
}

static void
test_event_descriptors_and_names (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  const EtManifestEvent *e1 = et_manifest_lookup (m, 1, 0);
  const EtManifestEvent *e2 = et_manifest_lookup (m, 2, 0);   /* version 1 is the only one */
  const EtManifestEvent *e3 = et_manifest_lookup (m, 3, 0);
  const EtManifestEvent *e4 = et_manifest_lookup (m, 4, 0);

  assert_non_null (e1);
  assert_string_equal (e1->name, "LoopBegin");                /* from $(string.event_X) */
  assert_int_equal (e1->level, 4);
  assert_int_equal (e1->opcode, 1);
  assert_int_equal (e1->task, 1);
  assert_int_equal (e1->keywords, 0x6);
  assert_string_equal (e1->message, "Beginning %2 loop %1 (%4).");
  assert_non_null (e2);
  assert_int_equal (e2->version, 1);
  assert_string_equal (e2->name, "Loop/Stop");                 /* task/opcode */
  assert_int_equal (e2->level, 5);
  assert_string_equal (e3->name, "Fork/Joined");
  assert_int_equal (e3->opcode, 12);
  assert_string_equal (e4->name, "Failed");                    /* symbol= */
  assert_int_equal (e4->opcode, 11);
  assert_null (e4->template_);
  assert_null (et_manifest_lookup (m, 99, 0));
}

static void
test_decode_maps_and_strings (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  EtFields *f = et_fields_new ();
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;

  put_u32 (b, 42);
  put_u32 (b, 2);
  put_u32 (b, 0x1 | 0x4 | 0x10);
  put_utf16 (b, "alpha");
  assert_true (et_manifest_decode (m, et_manifest_lookup (m, 1, 0), b->data, b->len, 8, f,
                                   &consumed, &error));
  g_assert_no_error (error);
  assert_int_equal (consumed, b->len);
  assert_field (f, "Id", "42");
  assert_field (f, "Kind", "ParallelForEach");
  assert_field (f, "Bits", "A|C|0x10");
  assert_field (f, "Name", "alpha");
  et_fields_free (f);
}

static void
test_decode_every_scalar_type (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  EtFields *f = et_fields_new ();
  g_autoptr(GError) error = NULL;
  static const guint8 i8 = 0xFE, u16[2] = { 0x34, 0x12 };
  static const guint8 i64[8] = { 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
  static const guint8 guid[16] = { 0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
                                   0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 };
  float fl = 1.5f;
  double db = 0.25;
  guint64 ft = G_GUINT64_CONSTANT (132756731757990000);
  guint8 blob[3] = { 1, 2, 255 };
  gsize consumed;

  put (b, &i8, 1);
  put (b, u16, 2);
  put (b, i64, 8);
  put (b, &fl, 4);
  put (b, &db, 8);
  put_u32 (b, 1);
  put (b, guid, 16);
  put_u32 (b, 0xDEADBEEF);                      /* pointer, 4 bytes in a 32-bit event */
  put_u32 (b, 255);
  put (b, "ansi", 5);
  put (b, &ft, 8);
  put_u32 (b, 3);
  put (b, blob, 3);
  assert_true (et_manifest_decode (m, et_manifest_lookup (m, 2, 1), b->data, b->len, 4, f,
                                   &consumed, &error));
  g_assert_no_error (error);
  assert_int_equal (consumed, b->len);
  assert_field (f, "i8", "-2");
  assert_field (f, "u16", "4660");
  assert_field (f, "i64", "-2");
  assert_field (f, "f", "1.5");
  assert_field (f, "d", "0.25");
  assert_field (f, "b", "true");
  assert_field (f, "g", "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
  assert_field (f, "p", "0xdeadbeef");
  assert_field (f, "h", "0xff");
  assert_field (f, "a", "ansi");
  assert_field (f, "ft", "2021-09-09T14:59:35.799Z");
  assert_field (f, "blob", "0102ff");
  et_fields_free (f);
}

static void
test_decode_counted_and_constant_arrays (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  EtFields *f = et_fields_new ();
  g_autoptr(GError) error = NULL;
  guint8 n[2] = { 3, 0 }, pair[2] = { 7, 9 };

  put (b, n, 2);
  put_u32 (b, 10);
  put_u32 (b, (guint32) -20);
  put_u32 (b, 30);
  put (b, pair, 2);
  assert_true (et_manifest_decode (m, et_manifest_lookup (m, 3, 0), b->data, b->len, 8, f,
                                   NULL, &error));
  assert_field (f, "vals", "[10, -20, 30]");
  assert_field (f, "pair", "[7, 9]");
  et_fields_free (f);
}

static void
test_truncated_payload_fails_at_every_length (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  EtFields *f = et_fields_new ();

  put_u32 (b, 42);
  put_u32 (b, 2);
  put_u32 (b, 1);
  put_utf16 (b, "alpha");
  for (gsize len = 0; len < b->len; len++)
    {
      g_autoptr(GError) error = NULL;
      guint8 *copy = g_memdup2 (b->data, len);   /* exact size: ASan sees any overread */

      et_fields_clear (f);
      assert_false (et_manifest_decode (m, et_manifest_lookup (m, 1, 0), copy, len, 8, f,
                                        NULL, &error));
      assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED));
      assert_non_null (strstr (error->message, "payload offset"));
      g_free (copy);
    }
  et_fields_free (f);
}

static void
test_impossible_count_is_an_error_not_an_allocation (void **state)
{
  g_autoptr(EtManifest) m = parse ();
  guint8 payload[4] = { 0xFF, 0xFF, 1, 2 };   /* n = 65535 Int32s in 2 bytes */
  EtFields *f = et_fields_new ();
  g_autoptr(GError) error = NULL;

  assert_false (et_manifest_decode (m, et_manifest_lookup (m, 3, 0), payload, 4, 8, f,
                                    NULL, &error));
  assert_non_null (strstr (error->message, "vals"));
  et_fields_free (f);
}

static void
test_broken_xml_names_its_offset (void **state)
{
  g_autoptr(GError) error = NULL;
  static const char broken[] = "<instrumentationManifest>\n<provider name=\"x\">\n<tasks></provider>";

  assert_null (et_manifest_parse (broken, sizeof broken - 1, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_non_null (strstr (error->message, "byte offset"));
}

static GBytes *
chunk (guint16 total, guint16 number, const char *text)
{
  GByteArray *b = g_byte_array_new ();
  guint8 envelope[8] = { 1, 1, 0, 0x5B, total & 0xFF, total >> 8, number & 0xFF, number >> 8 };

  put (b, envelope, 8);
  put (b, text, strlen (text));
  return g_byte_array_free_to_bytes (b);
}

static char *
add (EtManifestAssembler *a, const EtGuid *g, guint32 tid, GBytes *c, GError **error)
{
  gsize len;
  char *xml = et_manifest_assembler_add (a, g, 1, tid, g_bytes_get_data (c, NULL),
                                         g_bytes_get_size (c), &len, error);
  g_bytes_unref (c);
  return xml;
}

static void
test_chunks_reassemble_in_order_per_provider (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  EtGuid g1 = { 1 }, g2 = { 2 };
  g_autofree char *first = NULL, *second = NULL;

  assert_null (add (a, &g1, 7, chunk (3, 0, "<a>"), NULL));
  assert_null (add (a, &g2, 7, chunk (2, 0, "<b>"), NULL));   /* interleaved provider */
  assert_null (add (a, &g1, 7, chunk (3, 1, "x"), NULL));
  first = add (a, &g1, 7, chunk (3, 2, "</a>"), NULL);
  assert_string_equal (first, "<a>x</a>");
  second = add (a, &g2, 7, chunk (2, 1, "</b>"), NULL);
  assert_string_equal (second, "<b></b>");
}

static void
test_chunk_out_of_order_duplicate_or_bad_envelope_is_error (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  EtGuid g = { 1 };
  GError *error = NULL;
  static const guint8 bad[8] = { 1, 1, 0, 0x00, 1, 0, 0, 0 };
  gsize len;

  assert_null (add (a, &g, 7, chunk (3, 1, "x"), &error));    /* no chunk 0 */
  assert_non_null (error);
  g_clear_error (&error);
  assert_null (add (a, &g, 7, chunk (3, 0, "a"), &error));
  assert_null (add (a, &g, 7, chunk (3, 0, "a"), &error));    /* chunk 0 again restarts */
  g_assert_no_error (error);
  assert_null (add (a, &g, 7, chunk (3, 2, "c"), &error));    /* chunk 1 missing */
  assert_non_null (error);
  g_clear_error (&error);
  assert_null (add (a, &g, 7, chunk (2, 5, "c"), &error));    /* number past total */
  assert_non_null (error);
  g_clear_error (&error);
  assert_null (et_manifest_assembler_add (a, &g, 1, 7, bad, 8, &len, &error));
  assert_non_null (error);
  g_clear_error (&error);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_provider_tasks_opcodes_keywords),
    cmocka_unit_test (test_event_descriptors_and_names),
    cmocka_unit_test (test_decode_maps_and_strings),
    cmocka_unit_test (test_decode_every_scalar_type),
    cmocka_unit_test (test_decode_counted_and_constant_arrays),
    cmocka_unit_test (test_truncated_payload_fails_at_every_length),
    cmocka_unit_test (test_impossible_count_is_an_error_not_an_allocation),
    cmocka_unit_test (test_broken_xml_names_its_offset),
    cmocka_unit_test (test_chunks_reassemble_in_order_per_provider),
    cmocka_unit_test (test_chunk_out_of_order_duplicate_or_bad_envelope_is_error),
  };
  return cmocka_run_group_tests_name ("manifest", tests, NULL, NULL);
}
