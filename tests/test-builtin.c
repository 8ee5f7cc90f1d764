/* test-builtin.c — the .NET runtime's events without a manifest in the trace.
 *
 * The built-in tables (model/schema/et-builtin-clr*.c) become manifests; these
 * tests check that every table builds (a mistake in a layout string is a
 * fatal g_critical here), that events are named as PerfView names them,
 * and, on traces written by the fixture writer with the runtime's
 * provider GUIDs and no manifest, that payloads decode by version and that
 * a payload too short is damage with its byte offset, never a read past it.
 * Real traces are compared with PerfView in test-peer.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "et-builtin.h"
#include "et-etl-reader.h"
#include "et-nettrace-image.h"
#include "et-fixture.h"
#include "et-manifest.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

#define RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define RUNDOWN "a669021c-c450-4609-a035-5af59af4df18"
#define PRIVATE "763fd754-7086-4dfe-95eb-c01a46faf4ca"

static EtGuid
guid_of (const char *text)
{
  EtGuid guid;

  assert_true (et_guid_parse (text, &guid));
  return guid;
}

static const char *
name_of (const char *provider, guint16 id, guint8 version)
{
  EtGuid guid = guid_of (provider);
  const EtManifestEvent *e = et_builtin_lookup (&guid, id, version, NULL);

  assert_non_null (e);
  return e->name;
}

static void
test_tables_build_for_the_three_providers (void **state)
{
  static const char *const guids[] = { RUNTIME, RUNDOWN, PRIVATE };
  EtGuid other = guid_of ("d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615");

  for (guint i = 0; i < G_N_ELEMENTS (guids); i++)
    {
      EtGuid guid = guid_of (guids[i]);
      g_autoptr(EtManifest) m = et_builtin_manifest_new (&guid);

      assert_true (et_builtin_has (&guid));
      assert_non_null (m);
      assert_true (et_manifest_get_n_events (m) >= 20);
      assert_true (et_guid_equal (et_manifest_get_provider_guid (m), &guid));
    }
  assert_false (et_builtin_has (&other));
  assert_null (et_builtin_manifest_new (&other));
  assert_null (et_builtin_lookup (&other, 1, 0, NULL));
}

static void
test_events_are_named_as_perfview_names_them (void **state)
{
  assert_string_equal (name_of (RUNTIME, 1, 2), "GC/Start");
  assert_string_equal (name_of (RUNTIME, 3, 1), "GC/RestartEEStop");
  assert_string_equal (name_of (RUNTIME, 145, 1), "Method/JittingStarted");
  assert_string_equal (name_of (RUNTIME, 143, 2), "Method/LoadVerbose");
  assert_string_equal (name_of (RUNTIME, 80, 1), "Exception/Start");
  assert_string_equal (name_of (RUNTIME, 81, 1), "Contention/Start");
  assert_string_equal (name_of (RUNTIME, 91, 0), "Contention/Stop");
  assert_string_equal (name_of (RUNTIME, 55, 0), "ThreadPoolWorkerThreadAdjustment/Adjustment");
  assert_string_equal (name_of (RUNTIME, 187, 0), "Runtime/Start");
  assert_string_equal (name_of (RUNDOWN, 154, 2), "Loader/ModuleDCStop");
  assert_string_equal (name_of (RUNDOWN, 146, 1), "Method/DCStopComplete");
  assert_string_equal (name_of (PRIVATE, 173, 0), "Binding/LoaderMappingPhaseStart");
  assert_string_equal (name_of (PRIVATE, 19, 0), "GC/BGCSweepStop");
  assert_string_equal (name_of (PRIVATE, 80, 1), "Startup/EEStartupStart");
  assert_string_equal (name_of (PRIVATE, 81, 0), "Startup/EEStartupStop");
  assert_string_equal (name_of (PRIVATE, 123, 1), "Startup/SecurityCatchCallStop");
  assert_string_equal (name_of (PRIVATE, 191, 0), "FailFast");
  assert_string_equal (name_of (PRIVATE, 192, 0), "GC/FinalizeObject");
  assert_string_equal (name_of (PRIVATE, 310, 0), "LoaderHeap/AllocRequest");
  assert_string_equal (name_of (PRIVATE, 413, 0),
                       "ClrDynamicTypeUsage/ObjectVariantMarshallingToManaged");
  /* .NET Core 3–8: the runtime's newer tasks, as PerfView names them where
   * it knows them, else task and opcode of the manifest. */
  assert_string_equal (name_of (RUNTIME, 281, 0), "TieredCompilation/Pause");
  assert_string_equal (name_of (RUNTIME, 283, 0), "TieredCompilation/BackgroundJitStart");
  assert_string_equal (name_of (RUNTIME, 290, 0), "AssemblyLoader/Start");
  assert_string_equal (name_of (RUNTIME, 296, 0), "AssemblyLoader/KnownPathProbed");
  assert_string_equal (name_of (RUNTIME, 72, 0), "Method/MethodDetails");
  assert_string_equal (name_of (RUNTIME, 74, 0), "TypeLoad/Stop");
  assert_string_equal (name_of (RUNTIME, 186, 0), "Method/InliningFailedAnsi");
  assert_string_equal (name_of (RUNTIME, 192, 0), "Method/InliningFailed");
  assert_string_equal (name_of (RUNTIME, 189, 0), "Method/TailCallFailed");
  assert_string_equal (name_of (RUNTIME, 160, 0), "Method/R2RGetEntryPointStart");
  assert_string_equal (name_of (RUNTIME, 58, 0), "YieldProcessorMeasurement");
  assert_string_equal (name_of (RUNTIME, 203, 2), "GC/Join");
  assert_string_equal (name_of (RUNTIME, 270, 0), "EventSourceEvent");
  assert_string_equal (name_of (RUNTIME, 300, 0), "ExecutionCheckpoint/ExecutionCheckpoint");
  assert_string_equal (name_of (RUNDOWN, 280, 0), "TieredCompilationRundown/SettingsDCStart");
  assert_string_equal (name_of (RUNDOWN, 150, 1), "Method/ILToNativeMapDCStop");
  assert_string_equal (name_of (RUNDOWN, 10, 0), "GC/SettingsRundown");
  assert_string_equal (name_of (PRIVATE, 200, 0), "GC/CCWRefCountChange");
  assert_string_equal (name_of (PRIVATE, 26, 0), "GC/BGC1stSweepEnd");
  /* A version the tables do not know decodes with the highest one. */
  assert_string_equal (name_of (RUNTIME, 1, 9), "GC/Start");
}

/* GC/Start version 2: Count, Depth, Reason, Type, ClrInstanceID,
 * ClientSequenceNumber (26 bytes); version 1 stops after ClrInstanceID. */
static void
add_gc_start (EtFixturePayload *p, guint32 count, gboolean v2)
{
  et_fixture_payload_add_u32 (p, "Count", count);
  et_fixture_payload_add_u32 (p, "Depth", 2);
  et_fixture_payload_add_u32 (p, "Reason", 1);
  et_fixture_payload_add_u32 (p, "Type", 1);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  if (v2)
    et_fixture_payload_add_u64 (p, "ClientSequenceNumber", 77);
}

static void
write_runtime_event (EtFixtureWriter *w, gint64 time_ns, guint16 id, guint8 version,
                     guint8 opcode, const EtFixturePayload *p, gsize cut)
{
  EtFixtureEvent ev;
  gsize len = 0;
  const guint8 *data = et_fixture_payload_data (p, &len);

  et_fixture_event_init (&ev);
  ev.provider = guid_of (RUNTIME);
  ev.time_ns = time_ns;
  ev.pid = 50;
  ev.tid = 51;
  ev.id = id;
  ev.version = version;
  ev.task = 1;
  ev.opcode = opcode;
  ev.keywords = 1;
  et_fixture_write_event (w, &ev, NULL, 0, data, len - cut);
}

static char *
write_gc_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-builtin-XXXXXX", NULL);
  char *path = g_build_filename (dir, "gc.etl", NULL);
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (path, NULL, NULL);
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();

  assert_non_null (w);
  add_gc_start (p, 7, TRUE);
  write_runtime_event (w, 1000, 1, 2, 1, p, 0);
  et_fixture_payload_reset (p);
  add_gc_start (p, 8, FALSE);
  write_runtime_event (w, 2000, 1, 1, 1, p, 0);
  et_fixture_payload_reset (p);
  add_gc_start (p, 9, TRUE);
  write_runtime_event (w, 3000, 1, 2, 1, p, 7);   /* ClientSequenceNumber cut short */
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

static gint64
integer (const EtFields *fields, const char *name)
{
  gint index = et_fields_find (fields, name);
  gint64 v = -1;

  assert_true (index >= 0);
  assert_true (et_fields_get_integer (fields, index, &v));
  return v;
}

static void
test_fixture_trace_decodes_by_version (void **state)
{
  g_autofree char *path = write_gc_trace ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(EtTrace) trace = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, NULL);
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GError) error = NULL;
  guint64 first = G_MAXUINT64;
  const EtDamage *damage;
  guint n_damage = 0;
  EtEvent e;

  assert_non_null (trace);
  for (guint64 i = 0; i < et_trace_get_n_events (trace) && first == G_MAXUINT64; i++)
    if (et_trace_decode_event (trace, i, &e, fields, NULL) && e.id == 1)
      first = i;
  assert_true (first != G_MAXUINT64);
  assert_string_equal (e.name, "GC/Start");
  assert_string_equal (et_trace_get_provider (trace, e.provider)->name,
                       "Microsoft-Windows-DotNETRuntime");
  assert_int_equal (e.version, 2);
  assert_int_equal (integer (fields, "Count"), 7);
  assert_int_equal (integer (fields, "ClientSequenceNumber"), 77);
  assert_string_equal (et_fields_label (fields, et_fields_find (fields, "Reason")), "Induced");
  assert_string_equal (et_fields_label (fields, et_fields_find (fields, "Type")), "BackgroundGC");

  assert_true (et_trace_decode_event (trace, first + 1, &e, fields, NULL));
  assert_int_equal (e.version, 1);
  assert_int_equal (integer (fields, "Count"), 8);
  assert_int_equal (et_fields_find (fields, "ClientSequenceNumber"), -1);

  /* Too short: an error naming the field and payload offset, and the
   * load counted it as damage at the record's byte offset. */
  assert_false (et_trace_decode_event (trace, first + 2, &e, fields, &error));
  assert_true (e.decode_failed);
  assert_non_null (strstr (error->message, "ClientSequenceNumber"));
  assert_non_null (strstr (error->message, "payload offset 18"));
  assert_int_equal (et_trace_get_stats (trace)->decode_failures, 1);
  damage = et_trace_get_damage (trace, &n_damage);
  assert_int_equal (n_damage, 1);
  assert_non_null (strstr (damage[0].message, "byte offset"));
  assert_non_null (strstr (damage[0].message, "ClientSequenceNumber"));
  et_fixture_remove_dir (dir);
}

/* ---- struct arrays, by pointer size ----------------------------------- */

/* @payload decoded as (@id, @version) of the runtime with @pointer_size:
 * it must take the whole payload. */
static void
decode_exactly (guint16 id, guint8 version, const GByteArray *payload, guint pointer_size,
                EtFields *fields)
{
  EtGuid guid = guid_of (RUNTIME);
  const EtManifest *manifest = NULL;
  const EtManifestEvent *e = et_builtin_lookup (&guid, id, version, &manifest);
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;

  assert_non_null (e);
  et_fields_clear (fields);
  assert_true (et_manifest_decode (manifest, e, payload->data, payload->len, pointer_size,
                                   fields, &consumed, &error));
  assert_int_equal (consumed, payload->len);
}

static void
put (GByteArray *b, guint64 v, guint size)
{
  for (guint i = 0; i < size; i++)
    g_byte_array_append (b, (guint8[]) { (guint8) (v >> (8 * i)) }, 1);
}

/* Member @member of element @k of the top-level array @array. */
static const EtField *
element_member (const EtFields *fields, const char *array, guint k, const char *member)
{
  gint a = et_fields_find (fields, array);
  guint e;

  assert_true (a >= 0);
  assert_true (k < et_fields_get (fields, a)->n_children);
  e = (guint) a + 1;
  for (guint j = 0; j < k; j++)
    e = et_fields_next (fields, e);
  for (guint i = e + 1; i < e + 1 + et_fields_get (fields, e)->n_desc; i = et_fields_next (fields, i))
    if (strcmp (et_fields_get (fields, i)->name, member) == 0)
      return et_fields_get (fields, i);
  fail_msg ("no member %s in %s[%u]", member, array, k);
  return NULL;
}

/* GC/PerHeapHistory version 3: the heap's figures (pointer-sized sizes),
 * Count, then Count generation records of ten pointer-sized sizes; the
 * mechanisms named as the GC records them (bit 31 and the reason's bit). */
static void
test_per_heap_history_by_pointer_size (void **state)
{
  g_autoptr(EtFields) fields = et_fields_new ();

  for (guint ptr = 4; ptr <= 8; ptr += 4)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();

      put (b, 3, 2);                                     /* ClrInstanceID */
      for (guint i = 0; i < 6; i++)
        put (b, 100 + i, ptr);                           /* FreeListAllocated… */
      put (b, 7, 4), put (b, 5, 4), put (b, 0, 4);       /* efficiency, reasons */
      put (b, 0x80000008, 4), put (b, 0, 4);             /* compact, expand */
      put (b, 1, 4), put (b, 3005960, ptr), put (b, 2, 4);  /* heap, commit, Count */
      for (guint g = 0; g < 2; g++)
        for (guint i = 0; i < 10; i++)
          put (b, 1000 * (g + 1) + i, ptr);
      decode_exactly (204, 3, b, ptr, fields);
      assert_int_equal (et_fields_get (fields, et_fields_find (fields, "PinnedAllocatedAdvance"))->v.u,
                        105);
      assert_string_equal (et_fields_label (fields, et_fields_find (fields, "CompactMechanisms")),
                           "compact_loh_forced");
      assert_string_equal (et_fields_label (fields, et_fields_find (fields, "ExpandMechanisms")),
                           "not_specified");
      assert_int_equal (et_fields_get (fields, et_fields_find (fields, "ExtraGen0Commit"))->v.u,
                        3005960);
      assert_int_equal (element_member (fields, "Values", 1, "SizeBefore")->v.u, 2000);
      assert_int_equal (element_member (fields, "Values", 1, "NewAllocation")->v.u, 2009);
    }
}

/* The heap dump's bulk events: a head, then Count structs each. */
static void
test_heap_dump_bulk_events (void **state)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GByteArray) nodes = g_byte_array_new ();
  g_autoptr(GByteArray) roots = g_byte_array_new ();
  g_autoptr(GByteArray) statics = g_byte_array_new ();

  put (nodes, 4, 4), put (nodes, 2, 4), put (nodes, 9, 2);  /* Index, Count, ClrInstanceID */
  for (guint i = 0; i < 2; i++)
    put (nodes, 0x1000 + i, 4), put (nodes, 24, 8), put (nodes, 0x77, 8), put (nodes, i, 8);
  decode_exactly (18, 0, nodes, 4, fields);
  assert_string_equal (name_of (RUNTIME, 18, 0), "GC/BulkNode");
  assert_int_equal (element_member (fields, "Values", 1, "Address")->v.u, 0x1001);
  assert_int_equal (element_member (fields, "Values", 1, "EdgeCount")->v.u, 1);

  put (roots, 0, 4), put (roots, 1, 4), put (roots, 9, 2);
  put (roots, 0xAB, 8), put (roots, 2, 1), put (roots, 5, 4), put (roots, 0xCD, 8);
  decode_exactly (16, 0, roots, 8, fields);
  assert_string_equal (name_of (RUNTIME, 16, 0), "GC/BulkRootEdge");
  assert_int_equal (element_member (fields, "Values", 0, "GCRootID")->v.u, 0xCD);

  put (statics, 1, 4), put (statics, 0x55, 8), put (statics, 9, 2);
  put (statics, 1, 8), put (statics, 2, 8), put (statics, 3, 8), put (statics, 1, 4);
  g_byte_array_append (statics, (const guint8 *) "s\0_\0\0\0", 6);   /* "s_" */
  decode_exactly (38, 0, statics, 8, fields);
  assert_string_equal (name_of (RUNTIME, 38, 0), "GC/BulkRootStaticVar");
  assert_int_equal (element_member (fields, "Values", 0, "TypeID")->v.u, 3);
}

/* ---- .NET Core 3+ layouts ---------------------------------------------- */

static void
put_utf16 (GByteArray *b, const char *ascii)
{
  for (const char *c = ascii; ; c++)
    {
      put (b, (guint8) *c, 2);
      if (*c == '\0')
        break;
    }
}

static const char *
text_of (const EtFields *fields, const char *name)
{
  gint index = et_fields_find (fields, name);

  assert_true (index >= 0);
  return et_fields_text (fields, index, NULL);
}

/* AssemblyLoader/ResolutionAttempted: strings around two 16-bit codes,
 * each with its value map. */
static void
test_assembly_loader_resolution (void **state)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GByteArray) b = g_byte_array_new ();

  put (b, 7, 2);                                        /* ClrInstanceID */
  put_utf16 (b, "Lib, Version=1.0.0.0");
  put (b, 2, 2);                                        /* Stage */
  put_utf16 (b, "Default");
  put (b, 1, 2);                                        /* Result */
  put_utf16 (b, ""), put_utf16 (b, "");
  put_utf16 (b, "Could not locate assembly");
  decode_exactly (292, 0, b, 8, fields);
  assert_string_equal (text_of (fields, "AssemblyName"), "Lib, Version=1.0.0.0");
  assert_string_equal (et_fields_label (fields, et_fields_find (fields, "Stage")),
                       "ApplicationAssemblies");
  assert_string_equal (et_fields_label (fields, et_fields_find (fields, "Result")),
                       "AssemblyNotFound");
  assert_string_equal (text_of (fields, "AssemblyLoadContext"), "Default");
  assert_string_equal (text_of (fields, "ErrorMessage"), "Could not locate assembly");
}

/* Method/MethodDetails: an array whose count comes before another field;
 * JitInstrumentationData: bytes whose length an earlier field gives. */
static void
test_method_details_and_instrumentation_data (void **state)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GByteArray) details = g_byte_array_new ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  EtGuid guid = guid_of (RUNTIME);
  const EtManifest *manifest = NULL;
  const EtManifestEvent *e;
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;
  gint array;

  put (details, 0x7ff0001000, 8), put (details, 0x7ff0002000, 8);   /* MethodID, TypeID */
  put (details, 0x06000012, 4), put (details, 2, 4);                 /* token, count */
  put (details, 0x7ff0003000, 8);                                    /* LoaderModuleID */
  put (details, 0x7ff0004000, 8), put (details, 0x7ff0005000, 8);
  decode_exactly (72, 0, details, 8, fields);
  assert_int_equal (integer (fields, "MethodToken"), 0x06000012);
  assert_int_equal (integer (fields, "LoaderModuleID"), 0x7ff0003000);
  array = et_fields_find (fields, "TypeParameters");
  assert_int_equal (et_fields_get (fields, array)->n_children, 2);
  assert_int_equal (et_fields_get (fields, array + 2)->v.u, 0x7ff0005000);

  put (data, 1, 2), put (data, 0x10, 4), put (data, 3, 4);          /* ClrInstanceID… */
  put (data, 0x7ff0001000, 8);                                       /* MethodID */
  g_byte_array_append (data, (const guint8 *) "\x01\x02\x03", 3);
  decode_exactly (297, 0, data, 8, fields);
  assert_int_equal (integer (fields, "MethodID"), 0x7ff0001000);
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "Data"))->v.bytes.len, 3);

  /* A DataSize beyond the payload: an error naming the field, no read past it. */
  e = et_builtin_lookup (&guid, 297, 0, &manifest);
  g_byte_array_set_size (data, data->len - 1);
  assert_false (et_manifest_decode (manifest, e, data->data, data->len, 8, fields, &consumed,
                                    &error));
  assert_non_null (strstr (error->message, "payload offset 18: field “Data”"));
  assert_non_null (strstr (error->message, "length 3 but 2 bytes left"));
}

/* GC/FitBucketInfo: the GC's bucket structs, two bytes of padding after
 * the index, the size pointer-sized. */
static void
test_fit_bucket_info_by_pointer_size (void **state)
{
  g_autoptr(EtFields) fields = et_fields_new ();

  for (guint ptr = 4; ptr <= 8; ptr += 4)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();

      put (b, 5, 2), put (b, 1, 2), put (b, 4096, 8), put (b, 2, 2);
      for (guint i = 0; i < 2; i++)
        put (b, i, 2), put (b, 0, 2), put (b, 10 + i, 4), put (b, 0x2000 + i, ptr);
      assert_int_equal (b->len, 14 + 2 * (8 + ptr));
      decode_exactly (209, 0, b, ptr, fields);
      assert_string_equal (et_fields_label (fields, et_fields_find (fields, "BucketKind")),
                           "PlugsInCondemned");
      assert_int_equal (element_member (fields, "Values", 1, "Count")->v.u, 11);
      assert_int_equal (element_member (fields, "Values", 1, "Size")->v.u, 0x2001);
    }
}

/* ---- the corpus: every layout against real payloads ------------------- */

/* Layouts that stop before their payload does, and why. */
static const struct
{
  const char *provider;
  const char *event;
  const char *reason;
} partial_layouts[] = {
  { "Microsoft-Windows-DotNETRuntime", "GC/HeapStats",
    "version 0: the runtime pads the payload to 96 bytes" },
  { "Microsoft-Windows-DotNETRuntime", "GC/LOHCompact",
    "its records are padded to the pointer size in 64-bit processes only" },
};

typedef struct
{
  guint n_decoded, n_exact, n_failed, n_partial, n_unknown;
  EtFields *fields;
} CorpusTally;

static gboolean
is_partial (const EtManifest *manifest, const EtManifestEvent *e)
{
  for (guint i = 0; i < G_N_ELEMENTS (partial_layouts); i++)
    if (strcmp (partial_layouts[i].provider, et_manifest_get_provider_name (manifest)) == 0
        && strcmp (partial_layouts[i].event, e->name) == 0)
      return TRUE;
  return FALSE;
}

static void
decode_record (const EtRecord *record, guint buffer, gsize pos, gpointer data)
{
  CorpusTally *t = data;
  const EtManifest *manifest = NULL;
  const EtManifestEvent *e;
  g_autoptr(GError) error = NULL;
  gsize consumed = 0;

  if (record->klass != ET_RECORD_EVENT || !et_builtin_has (&record->guid))
    return;
  e = et_builtin_lookup (&record->guid, record->id, record->version, &manifest);
  if (e == NULL || e->version != record->version)
    {
      t->n_unknown++;
      print_message ("# no layout for event %u version %u\n", record->id, record->version);
      return;
    }
  et_fields_clear (t->fields);
  t->n_decoded++;
  if (!et_manifest_decode (manifest, e, record->payload, record->payload_len,
                           record->pointer_size, t->fields, &consumed, &error))
    {
      t->n_failed++;
      print_message ("# %s: %s\n", e->name, error->message);
    }
  else if (consumed == record->payload_len)
    t->n_exact++;
  else if (is_partial (manifest, e))
    t->n_partial++;
  else
    {
      t->n_failed++;
      print_message ("# %s version %u: %zu of %zu payload bytes laid out\n", e->name,
                     record->version, consumed, record->payload_len);
    }
}

static void
test_corpus_payloads_fit_their_layouts (void **state)
{
  /* The .nettrace files are read into the same buffers (et-nettrace-image). */
  static const char *const traces[] = {
    "gcevents.etl", "net.4.5.2.x64.etl",
    "nettrace/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
    "nettrace/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace",
  };
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  CorpusTally t = { 0 };

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      print_message ("# corpus not found at %s: real payloads not checked\n",
                     dir ? dir : "(ET_CORPUS_DIR is not set)");
      skip ();
      return;
    }
  t.fields = et_fields_new ();
  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *path = g_build_filename (dir, traces[i], NULL);

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        fail_msg ("%s is missing from the corpus", path);
      g_autoptr(EtEtlFile) file = g_str_has_suffix (path, ".nettrace")
                                  ? et_nettrace_open (path, NULL, NULL, NULL, NULL, NULL, NULL)
                                  : et_etl_file_open (path, NULL, NULL, NULL);

      assert_non_null (file);
      for (guint b = 0; b < et_etl_file_n_buffers (file); b++)
        et_etl_file_walk_buffer (file, b, decode_record, &t);
    }
  et_fields_free (t.fields);
  print_message ("# runtime events of the corpus: %u decoded, %u exactly their payload, "
                 "%u by a partial layout, %u failed, %u without a layout\n",
                 t.n_decoded, t.n_exact, t.n_partial, t.n_failed, t.n_unknown);
  assert_true (t.n_decoded > 60000);
  assert_int_equal (t.n_failed, 0);
  assert_int_equal (t.n_unknown, 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_tables_build_for_the_three_providers),
    cmocka_unit_test (test_events_are_named_as_perfview_names_them),
    cmocka_unit_test (test_fixture_trace_decodes_by_version),
    cmocka_unit_test (test_per_heap_history_by_pointer_size),
    cmocka_unit_test (test_heap_dump_bulk_events),
    cmocka_unit_test (test_assembly_loader_resolution),
    cmocka_unit_test (test_method_details_and_instrumentation_data),
    cmocka_unit_test (test_fit_bucket_info_by_pointer_size),
    cmocka_unit_test (test_corpus_payloads_fit_their_layouts),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
