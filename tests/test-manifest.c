/* Tests for et-manifest: EventSource manifests parsed from XML written here
 * by hand (modelled on the TPL manifest of etl-format.md §9), payloads built
 * byte by byte, and the chunk envelope reassembly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "et-error.h"
#include "et-manifest.h"

static const char tpl_xml[] =
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
  "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
  " <instrumentation xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
  " xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">\r\n"
  "  <events xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\r\n"
  "<provider name=\"Contoso.Threading.Tasks\" guid=\"{2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5}\""
  " resourceFileName=\"Contoso\" messageFileName=\"Contoso\" symbol=\"ContosoTasks\">\r\n"
  " <channels><channel chid=\"c1\" name=\"Contoso/Admin\" type=\"Admin\"/></channels>\r\n"
  " <tasks>\r\n"
  "  <task name=\"Loop\" value=\"1\"/>\r\n"
  "  <task name=\"Invoke\" value=\"2\"/>\r\n"
  "  <task name=\"Transfer\" value=\"3\" eventGUID=\"{00000000-0000-0000-0000-000000000003}\">\r\n"
  "   <opcodes><opcode name=\"Hop\" value=\"20\"/></opcodes>\r\n"
  "  </task>\r\n"
  " </tasks>\r\n"
  " <maps>\r\n"
  "  <valueMap name=\"ForkJoinOperationType\">\r\n"
  "   <map value=\"0x1\" message=\"$(string.map_ForkJoinOperationType.ParallelInvoke)\"/>\r\n"
  "   <map value=\"0x2\" message=\"$(string.map_ForkJoinOperationType.ParallelFor)\"/>\r\n"
  "   <map value=\"3\" message=\"$(string.map_ForkJoinOperationType.ParallelForEach)\"/>\r\n"
  "  </valueMap>\r\n"
  "  <bitMap name=\"WaitFlags\">\r\n"
  "   <map value=\"0x4\" message=\"$(string.map_WaitFlags.Fast)\"/>\r\n"
  "   <map value=\"0x1\" message=\"$(string.map_WaitFlags.Ready)\"/>\r\n"
  "   <map value=\"0x2\" message=\"Plain\"/>\r\n"
  "  </bitMap>\r\n"
  " </maps>\r\n"
  " <opcodes>\r\n"
  "  <opcode name=\"Spin\" value=\"11\" message=\"$(string.opcode_Spin)\"/>\r\n"
  " </opcodes>\r\n"
  " <levels><level name=\"Chatty\" value=\"16\"/></levels>\r\n"
  " <keywords>\r\n"
  "  <keyword name=\"TaskTransfer\"  message=\"$(string.keyword_TaskTransfer)\" mask=\"0x1\"/>\r\n"
  "  <keyword name=\"Tasks\"  message=\"$(string.keyword_Tasks)\" mask=\"0x2\"/>\r\n"
  "  <keyword name=\"Parallel\"  message=\"$(string.keyword_Parallel)\" mask=\"0x4\"/>\r\n"
  " </keywords>\r\n"
  " <events>\r\n"
  "  <event value=\"1\" version=\"0\" level=\"win:Informational\" keywords=\"Parallel\""
  " message=\"$(string.event_ParallelLoopBegin)\" opcode=\"win:Start\" task=\"Loop\""
  " template=\"ParallelLoopBeginArgs\"/>\r\n"
  "  <event value=\"2\" version=\"0\" level=\"win:Informational\""
  " message=\"$(string.event_ParallelLoopEnd)\" opcode=\"win:Stop\" task=\"Loop\""
  " template=\"ParallelLoopEndArgs\"/>\r\n"
  "  <event value=\"2\" version=\"1\" level=\"win:Warning\""
  " message=\"$(string.event_ParallelLoopEnd)\" opcode=\"win:Stop\" task=\"Loop\""
  " template=\"ParallelLoopEndArgsV1\"/>\r\n"
  "  <event value=\"3\" version=\"0\" level=\"win:Informational\" symbol=\"InvokeBegin\""
  " message=\"$(string.event_ParallelInvokeBegin)\" opcode=\"win:Start\" task=\"Invoke\"/>\r\n"
  "  <event value=\"4\" version=\"0\" level=\"win:Informational\" opcode=\"win:Stop\""
  " task=\"Invoke\"/>\r\n"
  "  <event value=\"5\" version=\"0\" level=\"Chatty\" keywords=\"TaskTransfer Tasks\""
  " opcode=\"Hop\" task=\"Transfer\" template=\"WaitArgs\"/>\r\n"
  "  <event value=\"6\" version=\"0\" level=\"win:Verbose\" opcode=\"Spin\" task=\"Loop\"/>\r\n"
  "  <event value=\"7\" version=\"0\" level=\"win:Error\" task=\"Invoke\"/>\r\n"
  "  <event value=\"8\" version=\"0\" level=\"win:LogAlways\"/>\r\n"
  "  <event value=\"9\" version=\"0\" opcode=\"win:Receive\" task=\"Transfer\"/>\r\n"
  "  <event value=\"101\" template=\"T_UnicodeString\"/>\r\n"
  "  <event value=\"102\" template=\"T_AnsiString\"/>\r\n"
  "  <event value=\"103\" template=\"T_Int8\"/>\r\n"
  "  <event value=\"104\" template=\"T_UInt8\"/>\r\n"
  "  <event value=\"105\" template=\"T_Int16\"/>\r\n"
  "  <event value=\"106\" template=\"T_UInt16\"/>\r\n"
  "  <event value=\"107\" template=\"T_Int32\"/>\r\n"
  "  <event value=\"108\" template=\"T_UInt32\"/>\r\n"
  "  <event value=\"109\" template=\"T_Int64\"/>\r\n"
  "  <event value=\"110\" template=\"T_UInt64\"/>\r\n"
  "  <event value=\"111\" template=\"T_Float\"/>\r\n"
  "  <event value=\"112\" template=\"T_Double\"/>\r\n"
  "  <event value=\"113\" template=\"T_Boolean\"/>\r\n"
  "  <event value=\"114\" template=\"T_Binary\"/>\r\n"
  "  <event value=\"115\" template=\"T_GUID\"/>\r\n"
  "  <event value=\"116\" template=\"T_Pointer\"/>\r\n"
  "  <event value=\"117\" template=\"T_FILETIME\"/>\r\n"
  "  <event value=\"118\" template=\"T_SYSTEMTIME\"/>\r\n"
  "  <event value=\"119\" template=\"T_SID\"/>\r\n"
  "  <event value=\"120\" template=\"T_HexInt32\"/>\r\n"
  "  <event value=\"121\" template=\"T_HexInt64\"/>\r\n"
  "  <event value=\"200\" template=\"ArrayArgs\"/>\r\n"
  "  <event value=\"201\" template=\"FixedLengthArgs\"/>\r\n"
  "  <event value=\"202\" template=\"StructArgs\"/>\r\n"
  "  <event value=\"203\" template=\"HexOutArgs\"/>\r\n"
  "  <event value=\"204\" template=\"NoSuchFieldArgs\"/>\r\n"
  "  <event value=\"205\" template=\"SignedCountArgs\"/>\r\n"
  "  <event value=\"206\" template=\"UnknownTypeArgs\"/>\r\n"
  "  <event value=\"207\" template=\"OuterCountArgs\"/>\r\n"
  "  <event value=\"208\" template=\"NumberArraysArgs\"/>\r\n"
  " </events>\r\n"
  " <templates>\r\n"
  "  <template tid=\"ParallelLoopBeginArgs\">\r\n"
  "   <data name=\"OriginatingTaskSchedulerID\" inType=\"win:Int32\"/>\r\n"
  "   <data name=\"OriginatingTaskID\" inType=\"win:Int32\"/>\r\n"
  "   <data name=\"ForkJoinContextID\" inType=\"win:Int32\"/>\r\n"
  "   <data name=\"OperationType\" inType=\"win:UInt32\" map=\"ForkJoinOperationType\"/>\r\n"
  "   <data name=\"InclusiveFrom\" inType=\"win:Int64\"/>\r\n"
  "   <data name=\"ExclusiveTo\" inType=\"win:Int64\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"ParallelLoopEndArgs\">\r\n"
  "   <data name=\"ForkJoinContextID\" inType=\"win:Int32\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"ParallelLoopEndArgsV1\">\r\n"
  "   <data name=\"ForkJoinContextID\" inType=\"win:Int32\"/>\r\n"
  "   <data name=\"TotalIterations\" inType=\"win:Int64\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"WaitArgs\">\r\n"
  "   <data name=\"Behavior\" inType=\"win:UInt32\" map=\"WaitFlags\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"T_UnicodeString\"><data name=\"v\" inType=\"win:UnicodeString\"/></template>\r\n"
  "  <template tid=\"T_AnsiString\"><data name=\"v\" inType=\"win:AnsiString\"/></template>\r\n"
  "  <template tid=\"T_Int8\"><data name=\"v\" inType=\"win:Int8\"/></template>\r\n"
  "  <template tid=\"T_UInt8\"><data name=\"v\" inType=\"win:UInt8\"/></template>\r\n"
  "  <template tid=\"T_Int16\"><data name=\"v\" inType=\"win:Int16\"/></template>\r\n"
  "  <template tid=\"T_UInt16\"><data name=\"v\" inType=\"win:UInt16\"/></template>\r\n"
  "  <template tid=\"T_Int32\"><data name=\"v\" inType=\"win:Int32\"/></template>\r\n"
  "  <template tid=\"T_UInt32\"><data name=\"v\" inType=\"win:UInt32\"/></template>\r\n"
  "  <template tid=\"T_Int64\"><data name=\"v\" inType=\"win:Int64\"/></template>\r\n"
  "  <template tid=\"T_UInt64\"><data name=\"v\" inType=\"win:UInt64\"/></template>\r\n"
  "  <template tid=\"T_Float\"><data name=\"v\" inType=\"win:Float\"/></template>\r\n"
  "  <template tid=\"T_Double\"><data name=\"v\" inType=\"win:Double\"/></template>\r\n"
  "  <template tid=\"T_Boolean\"><data name=\"v\" inType=\"win:Boolean\"/></template>\r\n"
  "  <template tid=\"T_Binary\">\r\n"
  "   <data name=\"vSize\" inType=\"win:UInt32\"/>\r\n"
  "   <data name=\"v\" inType=\"win:Binary\" length=\"vSize\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"T_GUID\"><data name=\"v\" inType=\"win:GUID\"/></template>\r\n"
  "  <template tid=\"T_Pointer\"><data name=\"v\" inType=\"win:Pointer\"/></template>\r\n"
  "  <template tid=\"T_FILETIME\"><data name=\"v\" inType=\"win:FILETIME\"/></template>\r\n"
  "  <template tid=\"T_SYSTEMTIME\"><data name=\"v\" inType=\"win:SYSTEMTIME\"/></template>\r\n"
  "  <template tid=\"T_SID\"><data name=\"v\" inType=\"win:SID\"/></template>\r\n"
  "  <template tid=\"T_HexInt32\"><data name=\"v\" inType=\"win:HexInt32\"/></template>\r\n"
  "  <template tid=\"T_HexInt64\"><data name=\"v\" inType=\"win:HexInt64\"/></template>\r\n"
  "  <template tid=\"ArrayArgs\">\r\n"
  "   <data name=\"n\" inType=\"win:UInt16\"/>\r\n"
  "   <data name=\"ids\" inType=\"win:Int32\" count=\"n\"/>\r\n"
  "   <data name=\"pair\" inType=\"win:UInt8\" count=\"2\" map=\"ForkJoinOperationType\"/>\r\n"
  "   <data name=\"names\" inType=\"win:UnicodeString\" count=\"n\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"FixedLengthArgs\">\r\n"
  "   <data name=\"tag\" inType=\"win:Binary\" length=\"3\"/>\r\n"
  "   <data name=\"code\" inType=\"win:UnicodeString\" length=\"4\"/>\r\n"
  "   <data name=\"ansi\" inType=\"win:AnsiString\" length=\"0x3\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"StructArgs\">\r\n"
  "   <data name=\"n\" inType=\"win:UInt8\"/>\r\n"
  "   <struct name=\"pts\" count=\"n\">\r\n"
  "    <data name=\"x\" inType=\"win:Int32\"/>\r\n"
  "    <data name=\"label\" inType=\"win:AnsiString\"/>\r\n"
  "   </struct>\r\n"
  "   <data name=\"last\" inType=\"win:UInt8\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"HexOutArgs\">\r\n"
  "   <data name=\"h\" inType=\"win:UInt32\" outType=\"win:HexInt32\"/>\r\n"
  "   <data name=\"d\" inType=\"win:UInt32\" outType=\"xs:unsignedInt\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"NoSuchFieldArgs\">\r\n"
  "   <data name=\"x\" inType=\"win:UInt8\" count=\"nosuch\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"SignedCountArgs\">\r\n"
  "   <data name=\"n\" inType=\"win:Int32\"/>\r\n"
  "   <data name=\"v\" inType=\"win:UInt8\" count=\"n\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"OuterCountArgs\">\r\n"
  "   <data name=\"n\" inType=\"win:UInt8\"/>\r\n"
  "   <data name=\"size\" inType=\"win:UInt8\"/>\r\n"
  "   <struct name=\"s\">\r\n"
  "    <data name=\"size\" inType=\"win:UInt16\"/>\r\n"
  "    <data name=\"xs\" inType=\"win:UInt8\" count=\"n\"/>\r\n"
  "    <data name=\"blob\" inType=\"win:Binary\" length=\"size\"/>\r\n"
  "   </struct>\r\n"
  "  </template>\r\n"
  "  <template tid=\"NumberArraysArgs\">\r\n"
  "   <data name=\"count\" inType=\"win:UInt32\"/>\r\n"
  "   <data name=\"frames\" inType=\"win:Pointer\" count=\"count\"/>\r\n"
  "   <data name=\"ids\" inType=\"win:GUID\" count=\"2\"/>\r\n"
  "   <data name=\"times\" inType=\"win:FILETIME\" count=\"count\"/>\r\n"
  "   <data name=\"when\" inType=\"win:SYSTEMTIME\" count=\"1\"/>\r\n"
  "   <data name=\"flags\" inType=\"win:HexInt32\" count=\"count\"/>\r\n"
  "   <data name=\"last\" inType=\"win:Int8\"/>\r\n"
  "  </template>\r\n"
  "  <template tid=\"UnknownTypeArgs\">\r\n"
  "   <data name=\"q\" inType=\"win:Quaternion\"/>\r\n"
  "  </template>\r\n"
  " </templates>\r\n"
  "</provider>\r\n"
  "</events>\r\n"
  "</instrumentation>\r\n"
  "<localization>\r\n"
  " <resources culture=\"en-US\">\r\n"
  "  <stringTable>\r\n"
  "   <string id=\"event_ParallelInvokeBegin\" value=\"Beginning ParallelInvoke %3 from Task %2 for %5 actions.\"/>\r\n"
  "   <string id=\"event_ParallelLoopBegin\" value=\"Beginning %4 loop %3 from Task %2.\"/>\r\n"
  "   <string id=\"event_ParallelLoopEnd\" value=\"Ending loop %1 &amp; more.\"/>\r\n"
  "   <string id=\"keyword_Parallel\" value=\"Parallel\"/>\r\n"
  "   <string id=\"keyword_Tasks\" value=\"Tasks\"/>\r\n"
  "   <string id=\"keyword_TaskTransfer\" value=\"TaskTransfer\"/>\r\n"
  "   <string id=\"map_ForkJoinOperationType.ParallelFor\" value=\"ParallelFor\"/>\r\n"
  "   <string id=\"map_ForkJoinOperationType.ParallelForEach\" value=\"ParallelForEach\"/>\r\n"
  "   <string id=\"map_ForkJoinOperationType.ParallelInvoke\" value=\"ParallelInvoke\"/>\r\n"
  "   <string id=\"map_WaitFlags.Fast\" value=\"Fast\"/>\r\n"
  "   <string id=\"map_WaitFlags.Ready\" value=\"Ready\"/>\r\n"
  "   <string id=\"opcode_Spin\" value=\"Spin\"/>\r\n"
  "  </stringTable>\r\n"
  " </resources>\r\n"
  " <resources culture=\"de-DE\">\r\n"
  "  <stringTable>\r\n"
  "   <string id=\"event_ParallelLoopBegin\" value=\"Schleife %3 beginnt.\"/>\r\n"
  "  </stringTable>\r\n"
  " </resources>\r\n"
  "</localization>\r\n"
  "</instrumentationManifest>\r\n";

/* ─────────────────────────────── helpers ─────────────────────────────── */

static EtManifest *
parse_tpl (void)
{
  g_autoptr(GError) error = NULL;
  EtManifest *m = et_manifest_parse (tpl_xml, strlen (tpl_xml), &error);

  g_assert_no_error (error);
  assert_non_null (m);
  return m;
}

static void
put_u8 (GByteArray *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

static void
put_u16 (GByteArray *b, guint16 v)
{
  put_u8 (b, v & 0xFF);
  put_u8 (b, v >> 8);
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

/* @utf8 as UTF-16LE code units plus a NUL unit. */
static void
put_utf16 (GByteArray *b, const char *utf8)
{
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);

  for (glong i = 0; i <= n; i++)
    put_u16 (b, units[i]);
}

static void
put_zeros (GByteArray *b, guint n)
{
  for (guint i = 0; i < n; i++)
    put_u8 (b, 0);
}

static void
put_ansi (GByteArray *b, const char *text)
{
  g_byte_array_append (b, (const guint8 *) text, strlen (text) + 1);
}

typedef struct
{
  EtFields *fields;
  gboolean  ok;
  gsize     consumed;
  GError   *error;
} Decoded;

/* Decodes a copy of exactly @len bytes, so that ASan sees any overread. */
static Decoded
decode_with (const EtManifest *m, guint16 id, guint8 version, const guint8 *bytes, gsize len,
             guint pointer_size)
{
  const EtManifestEvent *ev = et_manifest_lookup (m, id, version);
  guint8 *copy = g_memdup2 (bytes, len);
  Decoded d = { et_fields_new (), FALSE, 0, NULL };

  assert_non_null (ev);
  d.ok = et_manifest_decode (m, ev, copy, len, pointer_size, d.fields, &d.consumed, &d.error);
  g_free (copy);
  return d;
}

static Decoded
decode (const EtManifest *m, guint16 id, GByteArray *b)
{
  return decode_with (m, id, 0, b->data, b->len, 8);
}

static void
decoded_clear (Decoded *d)
{
  et_fields_free (d->fields);
  g_clear_error (&d->error);
}

static const EtField *
field (const Decoded *d, const char *name)
{
  gint i = et_fields_find (d->fields, name);

  assert_true (i >= 0);
  return et_fields_get (d->fields, i);
}

/* The offset an error names: "payload offset N" for payloads and chunks,
 * "byte offset N" for the XML. */
static gsize
offset_in_message (const GError *error)
{
  const char *at = strstr (error->message, " offset ");

  assert_non_null (at);
  assert_true (g_str_has_prefix (error->message, "payload offset ")
               || g_str_has_prefix (error->message, "manifest XML: byte offset "));
  return strtoul (at + strlen (" offset "), NULL, 10);
}

/* ─────────────────────────── parsing and names ─────────────────────────── */

static void
test_provider_name_and_braced_guid (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  EtGuid want;

  assert_string_equal (et_manifest_get_provider_name (m), "Contoso.Threading.Tasks");
  assert_true (et_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", &want));
  assert_true (et_guid_equal (et_manifest_get_provider_guid (m), &want));
  /* 9 named events, 10 entries of (id, version) counting 2.1, 21 in-types, 7 more. */
  assert_int_equal (et_manifest_get_n_events (m), 10 + 21 + 9);
}

static void
test_lookup_exact_version_else_highest (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  const EtManifestEvent *v0 = et_manifest_lookup (m, 2, 0);
  const EtManifestEvent *v1 = et_manifest_lookup (m, 2, 1);

  assert_non_null (v0);
  assert_non_null (v1);
  assert_int_equal (v0->version, 0);
  assert_int_equal (v1->version, 1);
  assert_int_equal (v1->level, 3);
  assert_ptr_equal (et_manifest_lookup (m, 2, 7), v1);   /* unknown version: the highest */
  assert_null (et_manifest_lookup (m, 99, 0));
  assert_null (et_manifest_lookup (m, 0, 0));
}

static void
test_event_descriptor_fields_resolve (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  const EtManifestEvent *begin = et_manifest_lookup (m, 1, 0);
  const EtManifestEvent *hop = et_manifest_lookup (m, 5, 0);

  assert_int_equal (begin->task, 1);
  assert_int_equal (begin->opcode, 1);
  assert_int_equal (begin->level, 4);
  assert_true (begin->keywords == 0x4);
  assert_string_equal (begin->task_name, "Loop");
  assert_string_equal (begin->opcode_name, "win:Start");
  assert_string_equal (begin->level_name, "win:Informational");
  assert_non_null (begin->template_);
  /* A task's own opcode, a custom level, two keywords. */
  assert_int_equal (hop->task, 3);
  assert_int_equal (hop->opcode, 20);
  assert_int_equal (hop->level, 16);
  assert_true (hop->keywords == 0x3);
  assert_string_equal (hop->opcode_name, "Hop");
  assert_string_equal (hop->level_name, "Chatty");
  /* A provider-wide custom opcode; the standard ones by name. */
  assert_int_equal (et_manifest_lookup (m, 6, 0)->opcode, 11);
  assert_int_equal (et_manifest_lookup (m, 6, 0)->level, 5);
  assert_int_equal (et_manifest_lookup (m, 9, 0)->opcode, 240);
  assert_int_equal (et_manifest_lookup (m, 8, 0)->level, 0);
  assert_null (et_manifest_lookup (m, 3, 0)->template_);
}

static void
test_event_names_symbol_then_message_then_task_opcode (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();

  assert_string_equal (et_manifest_lookup (m, 1, 0)->name, "ParallelLoopBegin");
  assert_string_equal (et_manifest_lookup (m, 3, 0)->name, "InvokeBegin");
  assert_string_equal (et_manifest_lookup (m, 4, 0)->name, "Invoke/Stop");
  assert_string_equal (et_manifest_lookup (m, 5, 0)->name, "Transfer/Hop");
  assert_string_equal (et_manifest_lookup (m, 6, 0)->name, "Loop/Spin");
  assert_string_equal (et_manifest_lookup (m, 7, 0)->name, "Invoke");
  assert_string_equal (et_manifest_lookup (m, 8, 0)->name, "Event 8");
  assert_string_equal (et_manifest_lookup (m, 9, 0)->name, "Transfer/Receive");
  assert_null (et_manifest_lookup (m, 8, 0)->task_name);
  assert_null (et_manifest_lookup (m, 8, 0)->opcode_name);
}

static void
test_messages_come_from_the_first_string_table (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();

  assert_string_equal (et_manifest_lookup (m, 1, 0)->message, "Beginning %4 loop %3 from Task %2.");
  assert_string_equal (et_manifest_lookup (m, 2, 1)->message, "Ending loop %1 & more.");
  assert_string_equal (et_manifest_lookup (m, 3, 0)->message,
                       "Beginning ParallelInvoke %3 from Task %2 for %5 actions.");
  assert_null (et_manifest_lookup (m, 4, 0)->message);
}

static void
test_task_and_opcode_names_by_value (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();

  assert_string_equal (et_manifest_task_name (m, 1), "Loop");
  assert_string_equal (et_manifest_task_name (m, 2), "Invoke");
  assert_null (et_manifest_task_name (m, 0));
  assert_null (et_manifest_task_name (m, 42));
  assert_string_equal (et_manifest_opcode_name (m, 3, 20), "Hop");
  assert_null (et_manifest_opcode_name (m, 1, 20));        /* Hop belongs to Transfer */
  assert_string_equal (et_manifest_opcode_name (m, 1, 11), "Spin");
  assert_string_equal (et_manifest_opcode_name (m, 1, 1), "win:Start");
  assert_string_equal (et_manifest_opcode_name (m, 0, 2), "win:Stop");
  assert_string_equal (et_manifest_opcode_name (m, 0, 0), "win:Info");
  assert_string_equal (et_manifest_opcode_name (m, 0, 3), "win:DC_Start");
  assert_string_equal (et_manifest_opcode_name (m, 0, 9), "win:Send");
  assert_string_equal (et_manifest_opcode_name (m, 0, 240), "win:Receive");
  assert_null (et_manifest_opcode_name (m, 0, 77));
}

static void
test_keyword_names_of_set_bits_joined_by_bar (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GString) out = g_string_new (NULL);

  et_manifest_keyword_names (m, 0x3, out);
  assert_string_equal (out->str, "TaskTransfer|Tasks");
  g_string_truncate (out, 0);
  et_manifest_keyword_names (m, 0xFFFFFFFFFFFFFFFF, out);
  assert_string_equal (out->str, "TaskTransfer|Tasks|Parallel");
  g_string_truncate (out, 0);
  et_manifest_keyword_names (m, 0x8, out);
  assert_string_equal (out->str, "");
}

static void
test_prefixed_elements_and_unknown_elements (void **state)
{
  static const char xml[] =
    "<m:instrumentationManifest xmlns:m=\"urn:x\"><m:instrumentation><m:events>"
    "<m:provider name=\"P\" guid=\"{00000000-0000-0000-0000-00000000002a}\">"
    "<m:future><m:event value=\"9\"/></m:future>"
    "<m:tasks><m:task name=\"T\" value=\"5\"/></m:tasks>"
    "<m:events><m:event value=\"1\" task=\"T\" opcode=\"win:Start\" template=\"A\"/></m:events>"
    "<m:templates><m:template tid=\"A\"><m:data name=\"x\" inType=\"win:UInt16\"/>"
    "<m:note>ignored</m:note></m:template></m:templates>"
    "</m:provider></m:events></m:instrumentation></m:instrumentationManifest>";
  g_autoptr(GError) error = NULL;
  g_autoptr(EtManifest) m = et_manifest_parse (xml, sizeof xml - 1, &error);
  static const guint8 payload[] = { 0x34, 0x12 };
  Decoded d;

  g_assert_no_error (error);
  assert_int_equal (et_manifest_get_n_events (m), 1);
  assert_string_equal (et_manifest_lookup (m, 1, 0)->name, "T/Start");
  assert_int_equal (et_manifest_lookup (m, 1, 0)->task, 5);
  assert_null (et_manifest_lookup (m, 9, 0));
  d = decode_with (m, 1, 0, payload, sizeof payload, 8);
  assert_true (d.ok);
  assert_int_equal (field (&d, "x")->v.u, 0x1234);
  decoded_clear (&d);
}

/* ─────────────────────────────── decoding ─────────────────────────────── */

static void
test_decode_tpl_loop_begin_with_value_map (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  Decoded d;

  put_u32 (b, 1);
  put_u32 (b, (guint32) -7);
  put_u32 (b, 12);
  put_u32 (b, 2);               /* ParallelFor */
  put_u64 (b, 0);
  put_u64 (b, 1000);
  d = decode (m, 1, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, b->len);
  assert_int_equal (et_fields_len (d.fields), 6);
  assert_int_equal (field (&d, "OriginatingTaskID")->v.i, -7);
  assert_int_equal (field (&d, "OriginatingTaskID")->in_type, 7);
  assert_int_equal (field (&d, "OperationType")->v.u, 2);
  assert_int_equal (field (&d, "OperationType")->in_type, 8);
  assert_string_equal (et_fields_label (d.fields, et_fields_find (d.fields, "OperationType")),
                       "ParallelFor");
  assert_int_equal (field (&d, "ExclusiveTo")->v.i, 1000);
  assert_null (et_fields_label (d.fields, et_fields_find (d.fields, "ExclusiveTo")));
  decoded_clear (&d);
}

static void
test_value_map_without_match_has_no_label (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  Decoded d;

  for (int i = 0; i < 3; i++)
    put_u32 (b, 0);
  put_u32 (b, 9);
  put_u64 (b, 0);
  put_u64 (b, 0);
  d = decode (m, 1, b);
  assert_true (d.ok);
  assert_null (et_fields_label (d.fields, et_fields_find (d.fields, "OperationType")));
  decoded_clear (&d);
}

static void
test_bit_map_labels_set_bits_in_map_order (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const struct { guint32 value; const char *label; } cases[] = {
    { 0x1, "Ready" },
    { 0x5, "Fast|Ready" },      /* map order: Fast (0x4) is listed first */
    { 0x7, "Fast|Ready|Plain" },
    { 0x31, "Ready|0x30" },     /* bits no entry names */
    { 0x0, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      Decoded d;

      put_u32 (b, cases[i].value);
      d = decode (m, 5, b);
      assert_true (d.ok);
      if (cases[i].label == NULL)
        assert_null (et_fields_label (d.fields, 0));
      else
        assert_string_equal (et_fields_label (d.fields, 0), cases[i].label);
      decoded_clear (&d);
    }
}

/* Templates of fixed-size scalars have a fixed layout: the offsets add up,
 * a payload of that many bytes decodes, each field into the kind its class
 * says; an event without a template has an empty one. Strings, binary,
 * SIDs, pointers (their size is the record's), arrays and structs have
 * none. */
static void
test_fixed_layouts_of_templates (void **state)
{
  static const struct { guint16 id; guint size; guint8 klass; } one[] = {
    { 103, 1, ET_FIXED_SIGNED }, { 104, 1, ET_FIXED_UNSIGNED }, { 105, 2, ET_FIXED_SIGNED },
    { 106, 2, ET_FIXED_UNSIGNED }, { 107, 4, ET_FIXED_SIGNED }, { 108, 4, ET_FIXED_UNSIGNED },
    { 109, 8, ET_FIXED_SIGNED }, { 110, 8, ET_FIXED_UNSIGNED }, { 111, 4, ET_FIXED_OTHER },
    { 112, 8, ET_FIXED_OTHER }, { 113, 4, ET_FIXED_OTHER }, { 115, 16, ET_FIXED_OTHER },
    { 117, 8, ET_FIXED_OTHER }, { 118, 16, ET_FIXED_OTHER }, { 120, 4, ET_FIXED_UNSIGNED },
    { 121, 8, ET_FIXED_UNSIGNED },
  };
  static const guint16 none[] = { 101, 102, 114, 116, 119, 200, 201, 202, 206 };
  static const guint8 begin_classes[] = {
    ET_FIXED_SIGNED, ET_FIXED_SIGNED, ET_FIXED_SIGNED, ET_FIXED_UNSIGNED, ET_FIXED_SIGNED,
    ET_FIXED_SIGNED,
  };
  static const guint8 bytes[16] = { 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
                                    0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90 };
  g_autoptr(EtManifest) m = parse_tpl ();
  const EtFixedLayout *layout;

  for (guint i = 0; i < G_N_ELEMENTS (one); i++)
    {
      Decoded d;
      guint8 expected;

      layout = et_manifest_event_fixed_layout (et_manifest_lookup (m, one[i].id, 0));
      assert_non_null (layout);
      assert_int_equal (layout->n_fields, 1);
      assert_string_equal (layout->fields[0].name, "v");
      assert_int_equal (layout->fields[0].offset, 0);
      assert_int_equal (layout->fields[0].size, one[i].size);
      assert_int_equal (layout->fields[0].klass, one[i].klass);
      assert_int_equal (layout->size, one[i].size);
      d = decode_with (m, one[i].id, 0, bytes, layout->size, 8);
      assert_true (d.ok);
      expected = field (&d, "v")->kind == ET_VALUE_INT ? ET_FIXED_SIGNED
                 : field (&d, "v")->kind == ET_VALUE_UINT ? ET_FIXED_UNSIGNED : ET_FIXED_OTHER;
      assert_int_equal (expected, one[i].klass);
      decoded_clear (&d);
    }
  for (guint i = 0; i < G_N_ELEMENTS (none); i++)
    assert_null (et_manifest_event_fixed_layout (et_manifest_lookup (m, none[i], 0)));

  layout = et_manifest_event_fixed_layout (et_manifest_lookup (m, 1, 0));
  assert_non_null (layout);
  assert_int_equal (layout->n_fields, G_N_ELEMENTS (begin_classes));
  assert_int_equal (layout->size, 32);
  for (guint i = 0; i < layout->n_fields; i++)
    {
      static const guint offsets[] = { 0, 4, 8, 12, 16, 24 };

      assert_int_equal (layout->fields[i].offset, offsets[i]);
      assert_int_equal (layout->fields[i].klass, begin_classes[i]);
    }
  assert_string_equal (layout->fields[3].name, "OperationType");

  layout = et_manifest_event_fixed_layout (et_manifest_lookup (m, 3, 0));   /* no template */
  assert_non_null (layout);
  assert_int_equal (layout->n_fields, 0);
  assert_int_equal (layout->size, 0);
}

static void
test_decode_unicode_string_to_utf8 (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  gsize len;
  Decoded d;

  put_utf16 (b, "h\xC3\xA9llo \xF0\x9F\x98\x80");   /* é and a surrogate pair */
  put_u16 (b, 0xBEEF);                              /* trailing bytes are not ours */
  d = decode (m, 101, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, b->len - 2);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_STRING);
  assert_int_equal (field (&d, "v")->in_type, 1);
  assert_string_equal (et_fields_text (d.fields, 0, &len), "h\xC3\xA9llo \xF0\x9F\x98\x80");
  decoded_clear (&d);
}

static void
test_decode_ansi_string (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  Decoded d;

  put_ansi (b, "plain text");
  d = decode (m, 102, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 11);
  assert_string_equal (et_fields_text (d.fields, 0, NULL), "plain text");
  assert_int_equal (field (&d, "v")->in_type, 2);
  decoded_clear (&d);
}

/* A string whose NUL never comes ends with the payload (decode_with reads
 * an exactly sized copy, so ASan sees any byte read past it): an error
 * naming the field and its offset, not a read beyond the record. */
static void
test_unterminated_strings_stop_at_the_payload_end (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const guint16 events[] = { 101, 102 };   /* UnicodeString, AnsiString */

  for (guint k = 0; k < G_N_ELEMENTS (events); k++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      Decoded d;

      if (events[k] == 101)
        {
          put_utf16 (b, "abc");
          g_byte_array_set_size (b, b->len - 2);     /* without its NUL unit */
        }
      else
        g_byte_array_append (b, (const guint8 *) "abc", 3);
      d = decode (m, events[k], b);
      assert_false (d.ok);
      assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED)
                   || g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
      assert_int_equal (offset_in_message (d.error), 0);
      decoded_clear (&d);
    }
}

static void
test_decode_integers_by_width_and_sign (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const struct
  {
    guint16 id;
    guint   size;
    guint64 bytes;
    gboolean is_signed;
    gint64  value;
  } cases[] = {
    { 103, 1, 0xFE, TRUE, -2 },
    { 104, 1, 0xFE, FALSE, 254 },
    { 105, 2, 0x8000, TRUE, G_MININT16 },
    { 106, 2, 0x8000, FALSE, 32768 },
    { 107, 4, 0xFFFFFFFF, TRUE, -1 },
    { 108, 4, 0xFFFFFFFF, FALSE, 4294967295 },
    { 109, 8, 0x8000000000000001, TRUE, G_MININT64 + 1 },
    { 110, 8, 0x0123456789ABCDEF, FALSE, 0x0123456789ABCDEF },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      const EtField *f;
      Decoded d;

      for (guint k = 0; k < cases[i].size; k++)
        put_u8 (b, (cases[i].bytes >> (8 * k)) & 0xFF);
      d = decode (m, cases[i].id, b);
      assert_true (d.ok);
      assert_int_equal (d.consumed, cases[i].size);
      f = field (&d, "v");
      assert_int_equal (f->kind, cases[i].is_signed ? ET_VALUE_INT : ET_VALUE_UINT);
      assert_true (f->v.i == cases[i].value);
      assert_int_equal (f->in_type, cases[i].id - 100);
      assert_int_equal (f->hint, ET_HINT_NONE);
      decoded_clear (&d);
    }
}

static void
test_decode_float_double_and_four_byte_boolean (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) fb = g_byte_array_new ();
  g_autoptr(GByteArray) db = g_byte_array_new ();
  g_autoptr(GByteArray) bb = g_byte_array_new ();
  float fv = 1.5f;
  double dv = -2.25;
  guint32 fbits;
  guint64 dbits;
  Decoded d;

  memcpy (&fbits, &fv, 4);
  memcpy (&dbits, &dv, 8);
  put_u32 (fb, fbits);
  put_u64 (db, dbits);
  put_u32 (bb, 0x100);          /* any non-zero bit of the four bytes is true */

  d = decode (m, 111, fb);
  assert_true (d.ok && field (&d, "v")->kind == ET_VALUE_FLOAT && field (&d, "v")->v.f == 1.5);
  assert_int_equal (field (&d, "v")->in_type, 11);
  decoded_clear (&d);
  d = decode (m, 112, db);
  assert_true (d.ok && field (&d, "v")->v.f == -2.25);
  decoded_clear (&d);
  d = decode (m, 113, bb);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 4);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_BOOL);
  assert_true (field (&d, "v")->v.b);
  decoded_clear (&d);
}

static void
test_decode_guid_in_windows_layout (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const guint8 bytes[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
                                    0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
  EtGuid want;
  Decoded d = decode_with (m, 115, 0, bytes, sizeof bytes, 8);

  assert_true (et_guid_parse ("00112233-4455-6677-8899-aabbccddeeff", &want));
  assert_true (d.ok);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_GUID);
  assert_true (et_guid_equal (&field (&d, "v")->v.guid, &want));
  decoded_clear (&d);
}

static void
test_decode_filetime_and_systemtime (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) ft = g_byte_array_new ();
  g_autoptr(GByteArray) st = g_byte_array_new ();
  static const guint16 when[8] = { 2024, 2, 4, 29, 13, 45, 30, 799 };
  Decoded d;

  put_u64 (ft, G_GUINT64_CONSTANT (133534812000000000));
  for (int i = 0; i < 8; i++)
    put_u16 (st, when[i]);
  d = decode (m, 117, ft);
  assert_true (d.ok);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_FILETIME);
  assert_true (field (&d, "v")->v.i == 133534812000000000);
  decoded_clear (&d);
  d = decode (m, 118, st);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 16);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_SYSTEMTIME);
  assert_memory_equal (field (&d, "v")->v.st, when, sizeof when);
  decoded_clear (&d);
}

static void
test_decode_sid_sized_by_sub_authority_count (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  /* S-1-5-21-1-2: revision 1, 3 sub-authorities, authority 5, then 3 × u32. */
  static const guint8 sid[] = { 1, 3, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
                                0xAA, 0xBB };
  static const guint8 too_many[8 + 4 * 16] = { 1, 16, 0, 0, 0, 0, 0, 5 };
  gsize len;
  Decoded d = decode_with (m, 119, 0, sid, sizeof sid, 8);

  assert_true (d.ok);
  assert_int_equal (d.consumed, 20);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_SID);
  assert_memory_equal (et_fields_text (d.fields, 0, &len), sid, 20);
  assert_int_equal (len, 20);
  decoded_clear (&d);
  d = decode_with (m, 119, 0, too_many, sizeof too_many, 8);
  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  decoded_clear (&d);
}

static void
test_hex_in_types_and_hex_out_type_print_as_hex (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) h32 = g_byte_array_new ();
  g_autoptr(GByteArray) h64 = g_byte_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  Decoded d;

  put_u32 (h32, 0xBEEF);
  put_u64 (h64, G_GUINT64_CONSTANT (0x100000000));
  put_u32 (out, 255);
  put_u32 (out, 255);
  d = decode (m, 120, h32);
  assert_true (d.ok);
  assert_int_equal (field (&d, "v")->hint, ET_HINT_HEX);
  assert_int_equal (field (&d, "v")->in_type, 20);
  et_fields_format_value (d.fields, 0, text);
  assert_string_equal (text->str, "0xbeef");
  decoded_clear (&d);
  d = decode (m, 121, h64);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 8);
  assert_int_equal (field (&d, "v")->hint, ET_HINT_HEX);
  assert_true (field (&d, "v")->v.u == G_GUINT64_CONSTANT (0x100000000));
  decoded_clear (&d);
  d = decode (m, 203, out);
  assert_true (d.ok);
  assert_int_equal (field (&d, "h")->hint, ET_HINT_HEX);
  assert_int_equal (field (&d, "h")->out_type, 18);     /* TDH_OUTTYPE_HEXINT32 */
  assert_int_equal (field (&d, "d")->hint, ET_HINT_NONE);
  decoded_clear (&d);
}

static void
test_pointer_takes_the_record_pointer_size (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const guint8 bytes[8] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };
  Decoded d8 = decode_with (m, 116, 0, bytes, 8, 8);
  Decoded d4 = decode_with (m, 116, 0, bytes, 8, 4);
  Decoded short8 = decode_with (m, 116, 0, bytes, 4, 8);

  assert_true (d8.ok);
  assert_int_equal (d8.consumed, 8);
  assert_true (field (&d8, "v")->v.u == G_GUINT64_CONSTANT (0x1122334455667788));
  assert_int_equal (field (&d8, "v")->hint, ET_HINT_POINTER);
  assert_int_equal (field (&d8, "v")->in_type, 16);
  assert_true (d4.ok);
  assert_int_equal (d4.consumed, 4);
  assert_true (field (&d4, "v")->v.u == 0x55667788);
  assert_false (short8.ok);     /* four bytes are not a 64-bit pointer */
  decoded_clear (&d8);
  decoded_clear (&d4);
  decoded_clear (&short8);
}

static void
test_binary_length_names_an_earlier_field (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  static const guint8 blob[5] = { 0xDE, 0xAD, 0x00, 0xBE, 0xEF };
  gsize len;
  Decoded d;

  put_u32 (b, sizeof blob);
  g_byte_array_append (b, blob, sizeof blob);
  d = decode (m, 114, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 4 + sizeof blob);
  assert_int_equal (field (&d, "v")->kind, ET_VALUE_BINARY);
  assert_int_equal (field (&d, "v")->in_type, 14);
  assert_memory_equal (et_fields_text (d.fields, 1, &len), blob, sizeof blob);
  assert_int_equal (len, sizeof blob);
  decoded_clear (&d);
}

static void
test_constant_lengths_for_binary_and_strings (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  gsize len;
  Decoded d;

  put_u8 (b, 1);
  put_u8 (b, 2);
  put_u8 (b, 3);
  put_u16 (b, 'A');             /* four UTF-16 units, NUL-padded, no terminator */
  put_u16 (b, 'B');
  put_u16 (b, 0);
  put_u16 (b, 0);
  g_byte_array_append (b, (const guint8 *) "xyz", 3);
  d = decode (m, 201, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, 3 + 8 + 3);
  et_fields_text (d.fields, 0, &len);
  assert_int_equal (len, 3);
  assert_string_equal (et_fields_text (d.fields, 1, NULL), "AB");
  assert_string_equal (et_fields_text (d.fields, 2, NULL), "xyz");
  decoded_clear (&d);
}

static void
test_arrays_by_field_count_and_constant_count (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const EtField *ids, *pair;
  gint i;
  Decoded d;

  put_u16 (b, 3);
  put_u32 (b, 10);
  put_u32 (b, (guint32) -20);
  put_u32 (b, 30);
  put_u8 (b, 1);
  put_u8 (b, 3);
  put_utf16 (b, "a");
  put_utf16 (b, "");
  put_utf16 (b, "ccc");
  d = decode (m, 200, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, b->len);
  ids = field (&d, "ids");
  assert_int_equal (ids->kind, ET_VALUE_ARRAY);
  assert_int_equal (ids->n_children, 3);
  i = et_fields_find (d.fields, "ids");
  assert_int_equal (et_fields_get (d.fields, i + 2)->v.i, -20);
  pair = field (&d, "pair");
  assert_int_equal (pair->n_children, 2);
  i = et_fields_find (d.fields, "pair");
  assert_string_equal (et_fields_label (d.fields, i + 1), "ParallelInvoke");
  assert_string_equal (et_fields_label (d.fields, i + 2), "ParallelForEach");
  i = et_fields_find (d.fields, "names");
  assert_int_equal (et_fields_get (d.fields, i)->n_children, 3);
  assert_string_equal (et_fields_text (d.fields, i + 3, NULL), "ccc");
  decoded_clear (&d);
}

static void
test_array_of_structs_with_count_field (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const EtField *pts;
  gint i;
  Decoded d;

  put_u8 (b, 2);
  put_u32 (b, 7);
  put_ansi (b, "one");
  put_u32 (b, 8);
  put_ansi (b, "two");
  put_u8 (b, 99);
  d = decode (m, 202, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, b->len);
  pts = field (&d, "pts");
  assert_int_equal (pts->kind, ET_VALUE_ARRAY);
  assert_int_equal (pts->n_children, 2);
  assert_int_equal (pts->n_desc, 6);   /* two structs of two members */
  i = et_fields_find (d.fields, "pts");
  assert_int_equal (et_fields_get (d.fields, i + 1)->kind, ET_VALUE_STRUCT);
  assert_int_equal (et_fields_get (d.fields, i + 4)->kind, ET_VALUE_STRUCT);
  assert_int_equal (et_fields_get (d.fields, i + 5)->v.i, 8);
  assert_string_equal (et_fields_text (d.fields, i + 6, NULL), "two");
  assert_int_equal (field (&d, "last")->v.u, 99);
  decoded_clear (&d);
}

/* count= and length= look in the struct first, then the levels around it. */
static void
test_struct_members_find_counts_in_enclosing_levels (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  gsize len;
  gint i;
  Decoded d;

  put_u8 (b, 2);                /* n, outside the struct */
  put_u8 (b, 9);                /* the outer size, hidden by the struct's own */
  put_u16 (b, 1);               /* the struct's size */
  put_u8 (b, 0xA);
  put_u8 (b, 0xB);
  put_u8 (b, 0xC);              /* the one-byte blob */
  d = decode (m, 207, b);
  assert_true (d.ok);
  assert_int_equal (d.consumed, b->len);
  i = et_fields_find (d.fields, "s");
  assert_int_equal (et_fields_get (d.fields, i)->n_children, 3);
  assert_int_equal (et_fields_get (d.fields, i + 2)->n_children, 2);
  assert_int_equal (et_fields_get (d.fields, i + 4)->v.u, 0xB);
  et_fields_text (d.fields, i + 5, &len);
  assert_int_equal (len, 1);
  decoded_clear (&d);
}

static void
test_event_without_template_decodes_nothing (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const guint8 bytes[4] = { 1, 2, 3, 4 };
  Decoded d = decode_with (m, 3, 0, bytes, sizeof bytes, 8);

  assert_true (d.ok);
  assert_int_equal (d.consumed, 0);
  assert_int_equal (et_fields_len (d.fields), 0);
  decoded_clear (&d);
}

/* ──────────────────────────── hostile input ──────────────────────────── */

typedef struct
{
  guint16     id;
  GByteArray *bytes;
} Sample;

static GPtrArray *
well_formed_samples (void)
{
  GPtrArray *all = g_ptr_array_new ();
  Sample *s;

#define SAMPLE(event_id) \
  (s = g_new0 (Sample, 1), s->id = (event_id), s->bytes = g_byte_array_new (), \
   g_ptr_array_add (all, s), s->bytes)
  {
    GByteArray *b = SAMPLE (1);
    for (int i = 0; i < 4; i++)
      put_u32 (b, i);
    put_u64 (b, 5);
    put_u64 (b, 6);
  }
  put_utf16 (SAMPLE (101), "abc");
  put_ansi (SAMPLE (102), "abc");
  put_u16 (SAMPLE (106), 6);
  put_u64 (SAMPLE (112), 0);
  {
    GByteArray *b = SAMPLE (114);
    put_u32 (b, 3);
    put_ansi (b, "ab");
  }
  put_zeros (SAMPLE (115), 16);                         /* GUID */
  put_u64 (SAMPLE (116), 1);
  put_zeros (SAMPLE (118), 16);                         /* SYSTEMTIME */
  {
    GByteArray *b = SAMPLE (119);
    put_u8 (b, 1);
    put_u8 (b, 2);
    for (int i = 0; i < 14; i++)
      put_u8 (b, i);
  }
  {
    GByteArray *b = SAMPLE (200);
    put_u16 (b, 2);
    put_u32 (b, 1);
    put_u32 (b, 2);
    put_u8 (b, 1);
    put_u8 (b, 2);
    put_utf16 (b, "x");
    put_utf16 (b, "yz");
  }
  {
    GByteArray *b = SAMPLE (201);
    for (int i = 0; i < 14; i++)
      put_u8 (b, 'a' + i);
  }
  {
    GByteArray *b = SAMPLE (202);
    put_u8 (b, 2);
    put_u32 (b, 1);
    put_ansi (b, "p");
    put_u32 (b, 2);
    put_ansi (b, "q");
    put_u8 (b, 3);
  }
  {
    GByteArray *b = SAMPLE (207);
    put_u8 (b, 1);
    put_u8 (b, 0);
    put_u16 (b, 2);
    put_u8 (b, 1);
    put_u16 (b, 0xFFFF);
  }
  {
    GByteArray *b = SAMPLE (208);
    put_u32 (b, 3);
    for (int i = 0; i < 3; i++)
      put_u64 (b, 0x7ff000001000 + i);
    put_zeros (b, 2 * 16);
    for (int i = 0; i < 3; i++)
      put_u64 (b, 133000000000000000 + i);
    put_zeros (b, 16);
    for (int i = 0; i < 3; i++)
      put_u32 (b, 0x10 << i);
    put_u8 (b, 0x80);
  }
#undef SAMPLE
  return all;
}

static void
sample_free (gpointer data)
{
  Sample *s = data;
  g_byte_array_unref (s->bytes);
  g_free (s);
}

static void
test_truncated_payload_fails_at_every_byte (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GPtrArray) samples = well_formed_samples ();

  g_ptr_array_set_free_func (samples, sample_free);
  for (guint k = 0; k < samples->len; k++)
    {
      const Sample *s = g_ptr_array_index (samples, k);
      Decoded whole = decode (m, s->id, s->bytes);

      assert_true (whole.ok);
      assert_int_equal (whole.consumed, s->bytes->len);
      decoded_clear (&whole);
      for (gsize len = 0; len < s->bytes->len; len++)
        {
          Decoded d = decode_with (m, s->id, 0, s->bytes->data, len, 8);

          assert_false (d.ok);
          assert_non_null (d.error);
          assert_true (d.error->domain == ET_ETL_ERROR);
          assert_true (d.error->code == ET_ETL_ERROR_TRUNCATED
                       || d.error->code == ET_ETL_ERROR_CORRUPT);
          assert_true (offset_in_message (d.error) <= len);
          assert_non_null (strstr (d.error->message, "field “"));
          assert_true (d.consumed <= len);
          decoded_clear (&d);
        }
    }
}

/* et_manifest_check (arrays of numbers measured, not read) says of every
 * payload what decoding it says: each sample whole, cut at every byte,
 * and with each byte set to 0x00, 0x01, 0x7F and 0xFF in turn (counts
 * that lie, negative counts, strings that do not end), read with
 * pointers of 4 bytes and of 8. */
static void
test_check_agrees_with_decoding (void **state)
{
  static const guint8 values[] = { 0x00, 0x01, 0x7F, 0xFF };
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GPtrArray) samples = well_formed_samples ();
  EtFields *scratch = et_fields_new ();
  guint failed = 0, passed = 0;

  g_ptr_array_set_free_func (samples, sample_free);
  for (guint k = 0; k < samples->len; k++)
    {
      const Sample *s = g_ptr_array_index (samples, k);
      const EtManifestEvent *ev = et_manifest_lookup (m, s->id, 0);

      for (guint pointer_size = 4; pointer_size <= 8; pointer_size += 4)
        for (gsize cut = 0; cut <= s->bytes->len; cut++)
          for (gint at = -1; at < (gint) cut; at++)
            for (guint v = 0; v < (at < 0 ? 1 : G_N_ELEMENTS (values)); v++)
              {
                /* (a copy of exactly the bytes, so that ASan sees any overread) */
                guint8 *bytes = g_memdup2 (s->bytes->data, MAX (cut, 1));
                Decoded d;
                gboolean checked;

                if (at >= 0)
                  bytes[at] = values[v];
                d = decode_with (m, s->id, 0, bytes, cut, pointer_size);
                checked = et_manifest_check (m, ev, bytes, cut, pointer_size, scratch);
                assert_int_equal (checked, d.ok);
                if (d.ok)
                  passed++;
                else
                  failed++;
                decoded_clear (&d);
                g_free (bytes);
              }
    }
  /* both verdicts were met, many times */
  assert_true (passed > 1000);
  assert_true (failed > 1000);
  et_fields_free (scratch);
}

static void
test_truncated_payload_keeps_what_was_decoded (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  static const guint8 bytes[10] = { 1, 0, 0, 0, 2, 0, 0, 0, 3, 0 };
  Decoded d = decode_with (m, 1, 0, bytes, sizeof bytes, 8);

  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED));
  assert_non_null (strstr (d.error->message, "ForkJoinContextID"));
  assert_int_equal (offset_in_message (d.error), 8);
  assert_int_equal (et_fields_len (d.fields), 2);
  assert_int_equal (field (&d, "OriginatingTaskID")->v.i, 2);
  decoded_clear (&d);
}

static void
test_impossible_count_fails_before_building_entries (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  Decoded d;

  put_u16 (b, 0xFFFF);          /* 65535 Int32s announced, 8 bytes follow */
  put_u64 (b, 0);
  d = decode (m, 200, b);
  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_non_null (strstr (d.error->message, "“ids”"));
  assert_int_equal (offset_in_message (d.error), 2);
  assert_int_equal (et_fields_len (d.fields), 1);   /* only n */
  decoded_clear (&d);
}

static void
test_negative_or_unnamed_count_and_unknown_in_type_fail (void **state)
{
  g_autoptr(EtManifest) m = parse_tpl ();
  g_autoptr(GByteArray) neg = g_byte_array_new ();
  static const guint8 one[1] = { 1 };
  Decoded d;

  put_u32 (neg, (guint32) -1);
  put_u8 (neg, 0);
  d = decode (m, 205, neg);
  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_int_equal (offset_in_message (d.error), 4);
  decoded_clear (&d);
  d = decode_with (m, 204, 0, one, 1, 8);
  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_UNSUPPORTED));
  assert_non_null (strstr (d.error->message, "“x”"));
  decoded_clear (&d);
  d = decode_with (m, 206, 0, one, 1, 8);
  assert_false (d.ok);
  assert_true (g_error_matches (d.error, ET_ETL_ERROR, ET_ETL_ERROR_UNSUPPORTED));
  assert_non_null (strstr (d.error->message, "win:Quaternion"));
  decoded_clear (&d);
}

static void
test_broken_xml_reports_byte_offset (void **state)
{
  static const char mismatched[] =
    "<instrumentationManifest>\n <provider name=\"P\">\n  <events>\n </provider>\n";
  static const char bad_number[] =
    "<instrumentationManifest>\n<provider name=\"P\">\r\n<tasks><task name=\"T\" value=\"ten\"/>"
    "</tasks></provider></instrumentationManifest>";
  static const char not_xml[] = "\x01\x02 binary";
  g_autoptr(GError) error = NULL;
  const char *at;
  gsize offset;

  assert_null (et_manifest_parse (mismatched, sizeof mismatched - 1, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  offset = offset_in_message (error);
  at = strstr (mismatched, "</provider>");
  assert_true (offset >= (gsize) (at - mismatched) && offset <= sizeof mismatched - 1);
  g_clear_error (&error);

  assert_null (et_manifest_parse (bad_number, sizeof bad_number - 1, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  offset = offset_in_message (error);
  at = strstr (bad_number, "<task ");
  assert_true (offset >= (gsize) (at - bad_number));
  assert_true (offset <= (gsize) (strstr (bad_number, "</tasks>") - bad_number));
  assert_non_null (strstr (error->message, "ten"));
  g_clear_error (&error);

  assert_null (et_manifest_parse (not_xml, sizeof not_xml - 1, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_true (offset_in_message (error) < sizeof not_xml);
  g_clear_error (&error);
  assert_null (et_manifest_parse ("", 0, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
}

static void
test_deeply_nested_structs_are_refused (void **state)
{
  g_autoptr(GString) xml = g_string_new ("<m><provider name=\"P\"><templates><template tid=\"A\">");
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 10000; i++)
    g_string_append (xml, "<struct name=\"s\">");
  for (int i = 0; i < 10000; i++)
    g_string_append (xml, "</struct>");
  g_string_append (xml, "</template></templates></provider></m>");
  assert_null (et_manifest_parse (xml->str, xml->len, &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_non_null (strstr (error->message, "nested"));
}

static void
test_truncated_xml_fails_at_every_cut (void **state)
{
  gsize len = strlen (tpl_xml);

  /* Cut inside the document (not in the trailing close tags) so that a
   * prefix can never be complete; every cut must fail cleanly. */
  for (gsize cut = 0; cut < len - strlen ("</instrumentationManifest>\r\n"); cut += 7)
    {
      g_autoptr(GError) error = NULL;
      char *copy = g_memdup2 (tpl_xml, cut);
      EtManifest *m = et_manifest_parse (copy, cut, &error);

      assert_null (m);
      assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
      assert_true (offset_in_message (error) <= cut);
      g_free (copy);
    }
}

/* ─────────────────────────────── chunks ─────────────────────────────── */

static GBytes *
chunk (guint16 total, guint16 number, const char *text)
{
  GByteArray *b = g_byte_array_new ();

  put_u8 (b, 1);
  put_u8 (b, 1);
  put_u8 (b, 0);
  put_u8 (b, 0x5B);
  put_u16 (b, total);
  put_u16 (b, number);
  g_byte_array_append (b, (const guint8 *) text, strlen (text));
  return g_byte_array_free_to_bytes (b);
}

/* Feeds one chunk; returns the XML when complete (caller frees). */
static char *
feed (EtManifestAssembler *a, guint32 provider_tag, guint32 tid, GBytes *bytes, GError **error)
{
  EtGuid provider = { provider_tag };
  gsize n, len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &n);
  guint8 *copy = g_memdup2 (data, n);
  char *xml = et_manifest_assembler_add (a, &provider, 100, tid, copy, n, &len, error);

  if (xml != NULL)
    assert_int_equal (len, strlen (xml));
  g_free (copy);
  g_bytes_unref (bytes);
  return xml;
}

static void
test_chunks_in_order_make_the_manifest (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;
  g_autoptr(EtManifest) m = NULL;
  gsize len = strlen (tpl_xml), third = len / 3;
  g_autofree char *p0 = g_strndup (tpl_xml, third);
  g_autofree char *p1 = g_strndup (tpl_xml + third, third);

  assert_null (feed (a, 1, 7, chunk (3, 0, p0), &error));
  assert_null (feed (a, 1, 7, chunk (3, 1, p1), &error));
  xml = feed (a, 1, 7, chunk (3, 2, tpl_xml + 2 * third), &error);
  g_assert_no_error (error);
  assert_string_equal (xml, tpl_xml);
  m = et_manifest_parse (xml, strlen (xml), &error);
  g_assert_no_error (error);
  assert_string_equal (et_manifest_get_provider_name (m), "Contoso.Threading.Tasks");
}

static void
test_chunks_out_of_order_after_chunk_zero_are_reported_and_still_concatenate (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;

  assert_null (feed (a, 1, 7, chunk (4, 0, "<a>"), &error));
  assert_null (feed (a, 1, 7, chunk (4, 3, "</a>"), &error));
  /* Said at once (the gap may be a loss), but the chunk is kept. */
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_int_equal (offset_in_message (error), 6);
  g_clear_error (&error);
  assert_null (feed (a, 1, 7, chunk (4, 1, "x"), &error));
  xml = feed (a, 1, 7, chunk (4, 2, "y"), &error);
  g_assert_no_error (error);
  assert_string_equal (xml, "<a>xy</a>");
}

static void
test_chunk_before_chunk_zero_is_an_error (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;

  assert_null (feed (a, 1, 7, chunk (2, 1, "</a>"), &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_int_equal (offset_in_message (error), 6);
  g_clear_error (&error);
  /* The stray chunk left nothing behind: a full copy still assembles. */
  assert_null (feed (a, 1, 7, chunk (2, 0, "<a>"), &error));
  xml = feed (a, 1, 7, chunk (2, 1, "</a>"), &error);
  g_assert_no_error (error);
  assert_string_equal (xml, "<a></a>");
}

static void
test_duplicate_chunk_is_an_error_and_assembly_goes_on (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;

  assert_null (feed (a, 1, 7, chunk (3, 0, "<a>"), &error));
  assert_null (feed (a, 1, 7, chunk (3, 1, "x"), &error));
  assert_null (feed (a, 1, 7, chunk (3, 1, "DUP"), &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_non_null (strstr (error->message, "duplicate"));
  g_clear_error (&error);
  xml = feed (a, 1, 7, chunk (3, 2, "</a>"), &error);
  g_assert_no_error (error);
  assert_string_equal (xml, "<a>x</a>");
}

static void
test_missing_chunk_is_reported_and_a_new_copy_restarts (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *xml = NULL;

  assert_null (feed (a, 1, 7, chunk (3, 0, "<old>"), &error));
  g_assert_no_error (error);
  assert_null (feed (a, 1, 7, chunk (3, 2, "</old>"), &error));   /* chunk 1 lost */
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_non_null (strstr (error->message, "lost"));
  g_clear_error (&error);
  /* Rundown writes the manifest again; chunk 0 starts over. */
  assert_null (feed (a, 1, 7, chunk (2, 0, "<new>"), &error));
  xml = feed (a, 1, 7, chunk (2, 1, "</new>"), &error);
  g_assert_no_error (error);
  assert_string_equal (xml, "<new></new>");
}

static void
test_interleaved_providers_and_threads_assemble_apart (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL, *second = NULL, *third = NULL;

  assert_null (feed (a, 1, 7, chunk (2, 0, "<one>"), &error));
  assert_null (feed (a, 2, 7, chunk (2, 0, "<two>"), &error));
  assert_null (feed (a, 1, 8, chunk (2, 0, "<three>"), &error));
  second = feed (a, 2, 7, chunk (2, 1, "</two>"), &error);
  first = feed (a, 1, 7, chunk (2, 1, "</one>"), &error);
  third = feed (a, 1, 8, chunk (2, 1, "</three>"), &error);
  g_assert_no_error (error);
  assert_string_equal (first, "<one></one>");
  assert_string_equal (second, "<two></two>");
  assert_string_equal (third, "<three></three>");
}

static void
test_bad_envelopes_are_errors_with_offsets (void **state)
{
  static const struct { guint8 bytes[8]; gsize len; gsize offset; } cases[] = {
    { { 1, 1, 0, 0x5B, 1, 0 }, 5, 0 },              /* shorter than the envelope */
    { { 2, 1, 0, 0x5B, 1, 0, 0, 0 }, 8, 0 },        /* format 2 */
    { { 1, 1, 0, 0x5C, 1, 0, 0, 0 }, 8, 3 },        /* magic */
    { { 1, 1, 0, 0x5B, 0, 0, 0, 0 }, 8, 4 },        /* TotalChunks 0 */
    { { 1, 1, 0, 0x5B, 2, 0, 2, 0 }, 8, 6 },        /* ChunkNumber ≥ TotalChunks */
  };
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autofree guint8 *big = g_malloc0 (8 + 0xFF01);
  EtGuid provider = { 1 };
  gsize len;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint8 *copy = g_memdup2 (cases[i].bytes, cases[i].len);

      assert_null (et_manifest_assembler_add (a, &provider, 1, 2, copy, cases[i].len, &len,
                                              &error));
      assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
      assert_int_equal (offset_in_message (error), cases[i].offset);
      g_free (copy);
    }
  {
    g_autoptr(GError) error = NULL;
    static const guint8 head[8] = { 1, 1, 0, 0x5B, 1, 0, 0, 0 };

    memcpy (big, head, 8);      /* one byte over the 0xFF00 a chunk may hold */
    assert_null (et_manifest_assembler_add (a, &provider, 1, 2, big, 8 + 0xFF01, &len, &error));
    assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  }
}

static void
test_version_change_mid_manifest_is_an_error (void **state)
{
  g_autoptr(EtManifestAssembler) a = et_manifest_assembler_new ();
  g_autoptr(GError) error = NULL;
  GBytes *later = chunk (2, 1, "</a>");
  GByteArray *b = g_bytes_unref_to_array (later);

  b->data[1] = 2;               /* MajorVersion 2 after a chunk 0 of version 1 */
  assert_null (feed (a, 1, 7, chunk (2, 0, "<a>"), &error));
  assert_null (feed (a, 1, 7, g_byte_array_free_to_bytes (b), &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  g_clear_error (&error);
  b = g_bytes_unref_to_array (chunk (3, 1, "</a>"));   /* TotalChunks changes */
  assert_null (feed (a, 1, 7, g_byte_array_free_to_bytes (b), &error));
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT));
  assert_int_equal (offset_in_message (error), 4);
}

static void
test_unreadable_provider_guid_leaves_zero_guid (void **state)
{
  static const char xml[] = "<m><provider name=\"P\" guid=\"{nope}\"/></m>";
  g_autoptr(GError) error = NULL;
  g_autoptr(EtManifest) m = et_manifest_parse (xml, sizeof xml - 1, &error);

  g_assert_no_error (error);
  assert_string_equal (et_manifest_get_provider_name (m), "P");
  assert_true (et_guid_is_zero (et_manifest_get_provider_guid (m)));
  assert_int_equal (et_manifest_get_n_events (m), 0);
}

static void
test_trailing_nul_padding_is_ignored (void **state)
{
  g_autofree char *padded = g_malloc0 (sizeof tpl_xml + 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtManifest) m = NULL;

  memcpy (padded, tpl_xml, sizeof tpl_xml - 1);
  m = et_manifest_parse (padded, sizeof tpl_xml + 3, &error);
  g_assert_no_error (error);
  assert_non_null (m);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_provider_name_and_braced_guid),
    cmocka_unit_test (test_lookup_exact_version_else_highest),
    cmocka_unit_test (test_event_descriptor_fields_resolve),
    cmocka_unit_test (test_event_names_symbol_then_message_then_task_opcode),
    cmocka_unit_test (test_messages_come_from_the_first_string_table),
    cmocka_unit_test (test_task_and_opcode_names_by_value),
    cmocka_unit_test (test_keyword_names_of_set_bits_joined_by_bar),
    cmocka_unit_test (test_prefixed_elements_and_unknown_elements),
    cmocka_unit_test (test_decode_tpl_loop_begin_with_value_map),
    cmocka_unit_test (test_value_map_without_match_has_no_label),
    cmocka_unit_test (test_bit_map_labels_set_bits_in_map_order),
    cmocka_unit_test (test_fixed_layouts_of_templates),
    cmocka_unit_test (test_check_agrees_with_decoding),
    cmocka_unit_test (test_decode_unicode_string_to_utf8),
    cmocka_unit_test (test_decode_ansi_string),
    cmocka_unit_test (test_unterminated_strings_stop_at_the_payload_end),
    cmocka_unit_test (test_decode_integers_by_width_and_sign),
    cmocka_unit_test (test_decode_float_double_and_four_byte_boolean),
    cmocka_unit_test (test_decode_guid_in_windows_layout),
    cmocka_unit_test (test_decode_filetime_and_systemtime),
    cmocka_unit_test (test_decode_sid_sized_by_sub_authority_count),
    cmocka_unit_test (test_hex_in_types_and_hex_out_type_print_as_hex),
    cmocka_unit_test (test_pointer_takes_the_record_pointer_size),
    cmocka_unit_test (test_binary_length_names_an_earlier_field),
    cmocka_unit_test (test_constant_lengths_for_binary_and_strings),
    cmocka_unit_test (test_arrays_by_field_count_and_constant_count),
    cmocka_unit_test (test_array_of_structs_with_count_field),
    cmocka_unit_test (test_struct_members_find_counts_in_enclosing_levels),
    cmocka_unit_test (test_event_without_template_decodes_nothing),
    cmocka_unit_test (test_truncated_payload_fails_at_every_byte),
    cmocka_unit_test (test_truncated_payload_keeps_what_was_decoded),
    cmocka_unit_test (test_impossible_count_fails_before_building_entries),
    cmocka_unit_test (test_negative_or_unnamed_count_and_unknown_in_type_fail),
    cmocka_unit_test (test_broken_xml_reports_byte_offset),
    cmocka_unit_test (test_deeply_nested_structs_are_refused),
    cmocka_unit_test (test_truncated_xml_fails_at_every_cut),
    cmocka_unit_test (test_chunks_in_order_make_the_manifest),
    cmocka_unit_test (test_chunks_out_of_order_after_chunk_zero_are_reported_and_still_concatenate),
    cmocka_unit_test (test_chunk_before_chunk_zero_is_an_error),
    cmocka_unit_test (test_duplicate_chunk_is_an_error_and_assembly_goes_on),
    cmocka_unit_test (test_missing_chunk_is_reported_and_a_new_copy_restarts),
    cmocka_unit_test (test_interleaved_providers_and_threads_assemble_apart),
    cmocka_unit_test (test_bad_envelopes_are_errors_with_offsets),
    cmocka_unit_test (test_version_change_mid_manifest_is_an_error),
    cmocka_unit_test (test_unreadable_provider_guid_leaves_zero_guid),
    cmocka_unit_test (test_trailing_nul_padding_is_ignored),
  };
  return cmocka_run_group_tests_name ("manifest", tests, NULL, NULL);
}
