/* test-derived.c — derived fields (et-derived.h): values a user of
 * PerfView expects beside an event's payload, computed from it, from its
 * record's header or from earlier events.
 *
 * A trace written by the fixture writer holds what a user would check
 * by hand: a volume mapping and a FileIO/Name event, a FileIO/Read of
 * that file (named by its FileKey), then disk reads of
 * that file (their FileName is the FileIO/Name's, with the drive letter;
 * their elapsed and service times follow from HighResResponseTime and the
 * previous completion on the disk), a GC and its HeapStats (the totals
 * are the sums of the generations; the depth is the GC's), a finalized
 * object whose type a BulkType names just after it, and a disk read whose
 * payload is cut short (no derived values from what did not decode).
 * The CLI's jsonl marks the derived fields and keeps their types.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

#define APP_PID 4120
#define APP_TID 4121
#define KTC_SYSCONFIG "9b79ee91-b5fd-41c0-a243-4248e266e9d0"
#define CLR_RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define FILE_KEY G_GUINT64_CONSTANT (0xFFFFA00012340000)
#define UNNAMED_KEY G_GUINT64_CONSTANT (0xFFFFA00099990000)
#define TYPE_ID G_GUINT64_CONSTANT (0x7FF612345678)
#define MS 1000000   /* ns */

static void
write_volume_mapping (EtFixtureWriter *w, EtFixturePayload *p)
{
  EtFixtureWhere where = { 0, 1000, 0, 0 };
  EtGuid guid;
  gsize len;
  const guint8 *data;

  assert_true (et_guid_parse (KTC_SYSCONFIG, &guid));
  et_fixture_payload_reset (p);
  et_fixture_payload_add_utf16 (p, "NtPath", "\\Device\\HarddiskVolume2\\");
  et_fixture_payload_add_utf16 (p, "DosPath", "C:\\");
  data = et_fixture_payload_data (p, &len);
  et_fixture_write_classic (w, &where, 0, &guid, 35, 0, 2, data, len);
}

static void
write_file_name (EtFixtureWriter *w, EtFixturePayload *p)
{
  EtFixtureWhere where = { 0, 2000, APP_PID, APP_TID };
  gsize len;
  const guint8 *data;

  et_fixture_payload_reset (p);
  et_fixture_payload_add_pointer (p, "FileObject", FILE_KEY, 8);
  et_fixture_payload_add_utf16 (p, "FileName", "\\Device\\HarddiskVolume2\\data\\trace.log");
  data = et_fixture_payload_data (p, &len);
  et_fixture_write_system (w, &where, 0, FALSE, 0x04, 0, 2, data, len);
}

/* A FileIO/Read (version 3) of the named file's key through another
 * file object. */
static void
write_file_read (EtFixtureWriter *w, EtFixturePayload *p)
{
  EtFixtureWhere where = { 0, 3 * MS, APP_PID, APP_TID };
  gsize len;
  const guint8 *data;

  et_fixture_payload_reset (p);
  et_fixture_payload_add_u64 (p, "Offset", 0);
  et_fixture_payload_add_pointer (p, "IrpPtr", 0xFFFFB00000002000, 8);
  et_fixture_payload_add_pointer (p, "FileObject", UNNAMED_KEY, 8);
  et_fixture_payload_add_pointer (p, "FileKey", FILE_KEY, 8);
  et_fixture_payload_add_u32 (p, "TTID", APP_TID);
  et_fixture_payload_add_u32 (p, "IoSize", 4096);
  et_fixture_payload_add_u32 (p, "IoFlags", 0);
  data = et_fixture_payload_data (p, &len);
  et_fixture_write_system (w, &where, 0, FALSE, 0x04, 67, 3, data, len);
}

/* A DiskIO/Read (version 3) completed at @time_ns after @response_ticks
 * (100 ns each); @cut writes only its first 8 bytes. */
static void
write_disk_read (EtFixtureWriter *w, EtFixturePayload *p, gint64 time_ns, guint64 file_key,
                 guint64 response_ticks, gboolean cut)
{
  gsize len;
  const guint8 *data;

  et_fixture_payload_reset (p);
  et_fixture_payload_add_u32 (p, "DiskNumber", 0);
  et_fixture_payload_add_u32 (p, "IrpFlags", 0x60043);   /* priority 3, 3 flag bits */
  et_fixture_payload_add_u32 (p, "TransferSize", 4096);
  et_fixture_payload_add_u32 (p, "Reserved", 0);
  et_fixture_payload_add_i64 (p, "ByteOffset", 8192);
  et_fixture_payload_add_pointer (p, "FileObject", file_key, 8);
  et_fixture_payload_add_pointer (p, "Irp", 0xFFFFB00000001000, 8);
  et_fixture_payload_add_u64 (p, "HighResResponseTime", response_ticks);
  et_fixture_payload_add_u32 (p, "IssuingThreadId", APP_TID);
  data = et_fixture_payload_data (p, &len);
  et_fixture_write_perfinfo (w, 1, time_ns, 0, 0x01, 10, 3, data, cut ? 8 : len);
}

static void
write_runtime (EtFixtureWriter *w, EtFixturePayload *p, gint64 time_ns, guint16 id,
               guint8 version)
{
  EtFixtureEvent ev;
  gsize len;
  const guint8 *data = et_fixture_payload_data (p, &len);

  et_fixture_event_init (&ev);
  ev.time_ns = time_ns;
  ev.pid = APP_PID;
  ev.tid = APP_TID;
  assert_true (et_guid_parse (CLR_RUNTIME, &ev.provider));
  ev.id = id;
  ev.version = version;
  et_fixture_write_event (w, &ev, NULL, 0, data, len);
}

/* GC #7 of generation 2, then its HeapStats: generations 100, 200, 300,
 * 400 bytes, promoted 10, 20, 30, 40. */
static void
write_gc (EtFixtureWriter *w, EtFixturePayload *p)
{
  et_fixture_payload_reset (p);
  et_fixture_payload_add_u32 (p, "Count", 7);
  et_fixture_payload_add_u32 (p, "Depth", 2);
  et_fixture_payload_add_u32 (p, "Reason", 0);
  et_fixture_payload_add_u32 (p, "Type", 0);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 9);
  write_runtime (w, p, 20 * MS, 1, 1);
  et_fixture_payload_reset (p);
  for (guint g = 0; g < 4; g++)
    {
      et_fixture_payload_add_u64 (p, "GenerationSize", 100 * (g + 1));
      et_fixture_payload_add_u64 (p, "TotalPromotedSize", 10 * (g + 1));
    }
  et_fixture_payload_add_u64 (p, "FinalizationPromotedSize", 0);
  et_fixture_payload_add_u64 (p, "FinalizationPromotedCount", 0);
  for (guint i = 0; i < 3; i++)
    et_fixture_payload_add_u32 (p, "Count", 1);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 9);
  write_runtime (w, p, 21 * MS, 4, 1);
}

/* Two methods loaded (MethodLoadVerbose, version 1): one jitted at tier
 * 3 (QuickJitted, in bits 7-9 of MethodFlags), one precompiled. */
static void
write_methods (EtFixtureWriter *w, EtFixturePayload *p)
{
  static const guint32 flags[] = { 0x8 | 3 << 7, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      et_fixture_payload_reset (p);
      et_fixture_payload_add_u64 (p, "MethodID", 0x7000 + i);
      et_fixture_payload_add_u64 (p, "ModuleID", 0x6000);
      et_fixture_payload_add_u64 (p, "MethodStartAddress", 0x5000 + 0x100 * i);
      et_fixture_payload_add_u32 (p, "MethodSize", 64);
      et_fixture_payload_add_u32 (p, "MethodToken", 0x06000001 + i);
      et_fixture_payload_add_u32 (p, "MethodFlags", flags[i]);
      et_fixture_payload_add_utf16 (p, "MethodNamespace", "Contoso.Shop");
      et_fixture_payload_add_utf16 (p, "MethodName", i ? "Precompiled" : "Checkout");
      et_fixture_payload_add_utf16 (p, "MethodSignature", "void  ()");
      et_fixture_payload_add_u16 (p, "ClrInstanceID", 9);
      write_runtime (w, p, (22 + i) * MS, 143, 1);
    }
}

/* A FinalizeObject, and right after it the BulkType naming its type. */
static void
write_finalizer (EtFixtureWriter *w, EtFixturePayload *p)
{
  et_fixture_payload_reset (p);
  et_fixture_payload_add_pointer (p, "TypeID", TYPE_ID, 8);
  et_fixture_payload_add_pointer (p, "ObjectID", 0x2000, 8);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 9);
  write_runtime (w, p, 30 * MS, 29, 0);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_u32 (p, "Count", 1);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 9);
  et_fixture_payload_add_u64 (p, "TypeID", TYPE_ID);
  et_fixture_payload_add_u64 (p, "ModuleID", 0x3000);
  et_fixture_payload_add_u32 (p, "TypeNameID", 1);
  et_fixture_payload_add_u32 (p, "Flags", 0);
  et_fixture_payload_add_u8 (p, "CorElementType", 18);
  et_fixture_payload_add_utf16 (p, "Name", "Contoso.Widget");
  et_fixture_payload_add_u32 (p, "TypeParameterCount", 0);
  write_runtime (w, p, 30 * MS + 10000, 15, 0);
}

static char *
write_trace (char **dir)
{
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureOptions o;
  char *path;

  *dir = g_dir_make_tmp ("etlscope-derived-XXXXXX", NULL);
  path = g_build_filename (*dir, "derived.etl", NULL);
  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
  assert_non_null (w);
  write_volume_mapping (w, p);
  write_file_name (w, p);
  write_file_read (w, p);
  /* Read 1 completes at 5 ms after 2.5 ms; read 2 was issued at 3 ms,
   * while read 1 had the disk, and completes at 11 ms: the disk served
   * it for the 6 ms since read 1 completed. */
  write_disk_read (w, p, 5 * MS, FILE_KEY, 25000, FALSE);
  write_disk_read (w, p, 11 * MS, UNNAMED_KEY, 80000, FALSE);
  write_disk_read (w, p, 12 * MS, FILE_KEY, 1000, TRUE);
  write_gc (w, p);
  write_methods (w, p);
  write_finalizer (w, p);
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

/* The @nth event named @name (0-based), decoded. */
static gboolean
find_event (EtTrace *trace, const char *name, guint nth, EtEvent *e, EtFields *fields)
{
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      et_trace_decode_event (trace, i, e, fields, NULL);
      if (strcmp (e->name, name) == 0 && nth-- == 0)
        return TRUE;
    }
  return FALSE;
}

/* The payload's fields come first, the derived ones after, flagged. */
static void
assert_derived_after_payload (const EtFields *fields, const char *first_derived)
{
  gint first = et_fields_find (fields, first_derived);

  assert_true (first > 0);
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    assert_int_equal (et_fields_get (fields, i)->derived, i >= (guint) first);
}

static guint64
uint_of (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);
  gint64 v = 0;

  assert_true (i >= 0);
  assert_true (et_fields_get_integer (fields, (guint) i, &v));
  return (guint64) v;
}

static double
double_of (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);

  assert_true (i >= 0);
  assert_int_equal (et_fields_get (fields, i)->kind, ET_VALUE_FLOAT);
  return et_fields_get (fields, i)->v.f;
}

static const char *
text_of (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);

  assert_true (i >= 0);
  return et_fields_get (fields, i)->label >= 0 ? et_fields_label (fields, i)
                                               : et_fields_text (fields, i, NULL);
}

static void
check_disk_reads (EtTrace *trace, EtFields *fields)
{
  EtEvent e;

  /* FileIO names its file by FileKey (its FileObject is unnamed). */
  assert_true (find_event (trace, "FileIO/Read", 0, &e, fields));
  assert_derived_after_payload (fields, "FileName");
  assert_string_equal (text_of (fields, "FileName"), "C:\\data\\trace.log");

  assert_true (find_event (trace, "DiskIO/Read", 0, &e, fields));
  assert_derived_after_payload (fields, "IrpFlagNames");
  assert_string_equal (text_of (fields, "FileName"), "C:\\data\\trace.log");
  assert_string_equal (text_of (fields, "IrpFlagNames"),
                       "Nocache|MountCompletion|SynchronousPagingIO");
  assert_int_equal (uint_of (fields, "IrpFlagNames"), 0x43);
  assert_string_equal (text_of (fields, "Priority"), "Normal");
  assert_true (double_of (fields, "ElapsedTimeMSec") == 2.5);
  assert_true (double_of (fields, "DiskServiceTimeMSec") == 2.5);

  /* No FileIO event names its file: no FileName, rather than a guess. */
  assert_true (find_event (trace, "DiskIO/Read", 1, &e, fields));
  assert_true (double_of (fields, "ElapsedTimeMSec") == 8.0);
  assert_true (double_of (fields, "DiskServiceTimeMSec") == 6.0);
  assert_int_equal (et_fields_find (fields, "FileName"), -1);

  /* The cut payload does not decode: nothing is derived from it. */
  assert_true (find_event (trace, "DiskIO/Read", 2, &e, fields));
  assert_true (e.decode_failed);
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    assert_false (et_fields_get (fields, i)->derived);
}

static void
check_runtime (EtTrace *trace, EtFields *fields)
{
  EtEvent e;

  assert_true (find_event (trace, "GC/HeapStats", 0, &e, fields));
  assert_derived_after_payload (fields, "TotalHeapSize");
  assert_int_equal (uint_of (fields, "TotalHeapSize"), 100 + 200 + 300 + 400);
  assert_int_equal (uint_of (fields, "TotalPromoted"), 10 + 20 + 30 + 40);
  assert_int_equal (uint_of (fields, "Depth"), 2);
  assert_true (find_event (trace, "Method/LoadVerbose", 0, &e, fields));
  assert_derived_after_payload (fields, "OptimizationTier");
  assert_string_equal (text_of (fields, "OptimizationTier"), "QuickJitted");
  assert_true (find_event (trace, "Method/LoadVerbose", 1, &e, fields));
  assert_string_equal (text_of (fields, "OptimizationTier"), "Unknown");
  assert_true (find_event (trace, "GC/FinalizeObject", 0, &e, fields));
  assert_string_equal (text_of (fields, "TypeName"), "Contoso.Widget");
}

static void
test_derived_values (void **state)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = write_trace (&dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = et_trace_load (path, 0, NULL, NULL, NULL, &error);
  g_autoptr(EtFields) fields = et_fields_new ();

  assert_non_null (trace);
  check_disk_reads (trace, fields);
  check_runtime (trace, fields);
  g_unlink (path);
  g_rmdir (dir);
}

/* jsonl: the values under "fields", their declared types under
 * "field_types", and "derived" naming exactly the derived ones. */
static void
test_cli_marks_derived_fields (void **state)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = write_trace (&dir);
  Run run = run_cli ("events", "--format=jsonl", path);
  g_autoptr(GPtrArray) lines = parse_lines (run.out);
  Run text = run_cli ("events", path);
  guint found = 0;

  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *e = g_ptr_array_index (lines, i);
      JsonObject *fields = json_object_get_object_member (e, "fields");
      JsonObject *types = json_object_get_object_member (e, "field_types");
      JsonObject *derived;

      if (strcmp (json_object_get_string_member (e, "event"), "DiskIO/Read") != 0
          || !json_object_has_member (fields, "FileName"))
        continue;
      found++;
      derived = json_object_get_object_member (e, "derived");
      assert_string_equal (json_object_get_string_member (fields, "FileName"),
                           "C:\\data\\trace.log");
      assert_string_equal (json_object_get_string_member (types, "FileName"), "UnicodeString");
      assert_string_equal (json_object_get_string_member (types, "ElapsedTimeMSec"), "Double");
      assert_true (json_object_get_boolean_member (derived, "FileName"));
      assert_true (json_object_get_boolean_member (derived, "DiskServiceTimeMSec"));
      assert_false (json_object_has_member (derived, "FileObject"));
      assert_int_equal (json_object_get_size (derived), 5);
    }
  assert_int_equal (found, 1);
  assert_non_null (strstr (text.out, "; derived: IrpFlagNames=Nocache|MountCompletion|"));
  run_clear (&run);
  run_clear (&text);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_derived_values),
    cmocka_unit_test (test_cli_marks_derived_fields),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
