/* test-builtin-rules.c — the .NET runtime's activities on the timeline.
 *
 * Traces written by the fixture writer with the runtime's provider GUID
 * and no manifest: GCs, an execution-engine suspension, an exception, a
 * JIT, lock contention and a thread-pool adjustment must become exactly
 * the markers model/README.md describes ("The runtime on the timeline"),
 * on by default, with their texts, and every other runtime event none.
 * On the corpus, gcevents.etl and net.4.5.2.x64.etl must open with one GC
 * span per GC whose GC/Start and GC/Stop are both in the trace, counted
 * here from the decoded events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "et-builtin-rules.h"
#include "et-fixture.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#define RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define OTHER   "5e2c1c6a-3b0e-4a57-9d9e-0c4f7d1b2a30"
#define PID 50

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

static EtGuid
guid_of (const char *text)
{
  EtGuid guid;

  assert_true (et_guid_parse (text, &guid));
  return guid;
}

/* One runtime event; the task and opcode do not matter to the rules. */
static void
write_event (EtFixtureWriter *w, const char *provider, gint64 time_ns, guint32 tid, guint16 id,
             guint8 version, EtFixturePayload *p)
{
  EtFixtureEvent ev;
  gsize len = 0;
  const guint8 *data = et_fixture_payload_data (p, &len);

  et_fixture_event_init (&ev);
  ev.provider = guid_of (provider);
  ev.time_ns = time_ns;
  ev.pid = PID;
  ev.tid = tid;
  ev.id = id;
  ev.version = version;
  ev.task = id == 81 || id == 91 ? 8 : id == 143 || id == 145 ? 9 : 1;
  ev.keywords = 1;
  et_fixture_write_event (w, &ev, NULL, 0, data, len);
  et_fixture_payload_reset (p);
}

static void
gc_start (EtFixtureWriter *w, EtFixturePayload *p, gint64 t, guint32 tid, guint32 count,
          guint8 version)
{
  et_fixture_payload_add_u32 (p, "Count", count);
  et_fixture_payload_add_u32 (p, "Depth", 1);
  et_fixture_payload_add_u32 (p, "Reason", 0);    /* AllocSmall */
  et_fixture_payload_add_u32 (p, "Type", 0);      /* NonConcurrentGC */
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  if (version >= 2)
    et_fixture_payload_add_u64 (p, "ClientSequenceNumber", 0);
  write_event (w, RUNTIME, t, tid, 1, version, p);
}

static void
gc_stop (EtFixtureWriter *w, EtFixturePayload *p, gint64 t, guint32 tid, guint32 count)
{
  et_fixture_payload_add_u32 (p, "Count", count);
  et_fixture_payload_add_u32 (p, "Depth", 1);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, t, tid, 2, 1, p);
}

/* Method/JittingStarted (145) or Method/LoadVerbose (143), version 1. */
static void
method (EtFixtureWriter *w, EtFixturePayload *p, gint64 t, guint16 id, guint64 method_id,
        guint32 flags)
{
  et_fixture_payload_add_u64 (p, "MethodID", method_id);
  et_fixture_payload_add_u64 (p, "ModuleID", 0x5000);
  if (id == 143)
    {
      et_fixture_payload_add_hex64 (p, "MethodStartAddress", 0x7ff000);
      et_fixture_payload_add_u32 (p, "MethodSize", 64);
      et_fixture_payload_add_u32 (p, "MethodToken", 0x06000001);
      et_fixture_payload_add_u32 (p, "MethodFlags", flags);
    }
  else
    {
      et_fixture_payload_add_u32 (p, "MethodToken", 0x06000001);
      et_fixture_payload_add_u32 (p, "MethodILSize", 20);
    }
  et_fixture_payload_add_utf16 (p, "MethodNamespace", "MyApp.Worker");
  et_fixture_payload_add_utf16 (p, "MethodName", "Run");
  et_fixture_payload_add_utf16 (p, "MethodSignature", "void  ()");
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, t, 54, id, 1, p);
}

static void
write_others (EtFixtureWriter *w, EtFixturePayload *p)
{
  /* Suspension on thread 53: GC/SuspendEEStart (9) → GC/RestartEEStop (3). */
  et_fixture_payload_add_u32 (p, "Reason", 1);    /* SuspendForGC */
  et_fixture_payload_add_u32 (p, "Count", 0);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 7000, 53, 9, 1, p);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 8000, 53, 3, 1, p);
  /* Exception/Start (80) version 1. */
  et_fixture_payload_add_utf16 (p, "ExceptionType", "System.InvalidOperationException");
  et_fixture_payload_add_utf16 (p, "ExceptionMessage", "Sequence contains no elements");
  et_fixture_payload_add_pointer (p, "ExceptionEIP", 0x7ff123, 8);
  et_fixture_payload_add_hex32 (p, "ExceptionHRESULT", 0x80131509);
  et_fixture_payload_add_u16 (p, "ExceptionFlags", 16);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 9000, 53, 80, 1, p);
  /* JIT of MyApp.Worker.Run, and a load of precompiled code (no JIT). */
  method (w, p, 10000, 145, 0x1000, 0);
  method (w, p, 11000, 143, 0x1000, 8);
  method (w, p, 11500, 143, 0x2000, 0);
  /* Contention/Start (81) v1 → Contention/Stop (91) v0. */
  et_fixture_payload_add_u8 (p, "ContentionFlags", 0);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 12000, 55, 81, 1, p);
  et_fixture_payload_add_u8 (p, "ContentionFlags", 0);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 12500, 55, 91, 0, p);
  /* ThreadPoolWorkerThreadAdjustment/Adjustment (55). */
  et_fixture_payload_add_double (p, "AverageThroughput", 2.5);
  et_fixture_payload_add_u32 (p, "NewWorkerThreadCount", 12);
  et_fixture_payload_add_u32 (p, "Reason", 3);    /* ClimbingMove */
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 13000, 55, 55, 0, p);
  /* GC/AllocationTick (10) v1: no rule, no marker. */
  et_fixture_payload_add_u32 (p, "AllocationAmount", 100000);
  et_fixture_payload_add_u32 (p, "AllocationKind", 0);
  et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
  write_event (w, RUNTIME, 14000, 55, 10, 1, p);
  /* A provider without a manifest: off by default. */
  et_fixture_payload_add_u32 (p, "value", 1);
  write_event (w, OTHER, 15000, 55, 1, 0, p);
}

static char *
write_runtime_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-clr-XXXXXX", NULL);
  char *path = g_build_filename (dir, "clr.etl", NULL);
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (path, NULL, NULL);
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();

  assert_non_null (w);
  /* GC #7 on thread 51, its GC/Start written in version 1 and 2 (as the
   * .NET Framework 4.5 does); GC #8 starts on 51 and ends on 52. */
  gc_start (w, p, 2000, 51, 7, 1);
  gc_start (w, p, 2100, 51, 7, 2);
  gc_stop (w, p, 3000, 51, 7);
  gc_start (w, p, 4000, 51, 8, 2);
  gc_stop (w, p, 6000, 52, 8);
  write_others (w, p);
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

typedef struct
{
  const EtMarker *marker;
  guint32         tid;
  char           *series;
  char           *text;
} Found;

/* The marker whose text is @text, with its thread and series; asserts
 * there is exactly one. */
static Found
find_marker (EtTrace *trace, const char *text)
{
  Found found = { 0 };
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      for (guint i = 0; i < ch->n_markers; i++)
        {
          g_string_truncate (s, 0);
          et_trace_marker_text (trace, &ch->markers[i], s);
          if (strcmp (s->str, text) != 0)
            continue;
          assert_null (found.marker);
          found.marker = &ch->markers[i];
          found.tid = et_trace_get_thread (trace, et_trace_channel_thread (trace, c))->tid;
          found.series = (char *) et_trace_get_string (trace, ch->series);
          found.text = (char *) text;
        }
    }
  if (found.marker == NULL)
    fail_msg ("no marker with the text \"%s\"", text);
  return found;
}

static void
assert_span (EtTrace *trace, const char *text, const char *series, guint32 tid, gint64 start,
             gint64 end, EtSpanStatus status)
{
  Found f = find_marker (trace, text);

  assert_int_equal (f.marker->kind, ET_MARKER_SPAN);
  assert_string_equal (f.series, series);
  assert_int_equal (f.tid, tid);
  assert_int_equal (f.marker->start_ns, start);
  assert_int_equal (f.marker->end_ns, end);
  assert_int_equal (f.marker->status, status);
  assert_true (f.marker->end_event != ET_NO_INDEX);
}

static guint64
count_markers (EtTrace *trace)
{
  guint64 n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    n += et_trace_get_channel (trace, c)->n_markers;
  return n;
}

/* The runtime provider is on by default, the others (the manifest-less
 * one, the trace header's) off. */
static void
assert_defaults (EtTrace *trace)
{
  EtGuid runtime = guid_of (RUNTIME);
  guint n_runtime = 0;

  for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
    {
      const EtProvider *provider = et_trace_get_provider (trace, p);
      gboolean is_runtime = et_guid_equal (&provider->guid, &runtime);

      assert_int_equal (provider->default_on, is_runtime);
      n_runtime += is_runtime;
    }
  assert_int_equal (n_runtime, 1);
}

static guint64
count_markers_of (EtTrace *trace, const char *provider)
{
  EtGuid guid = guid_of (provider);
  guint64 n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (et_guid_equal (&et_trace_get_provider (trace, et_channel_provider (ch))->guid, &guid))
        n += ch->n_markers;
    }
  return n;
}

static void
test_runtime_activities_become_markers (void **state)
{
  g_autofree char *path = write_runtime_trace ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(EtTrace) trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  Found f;

  assert_non_null (trace);
  assert_defaults (trace);
  assert_int_equal (et_trace_get_stats (trace)->decode_failures, 0);
  /* GC #7: one span for both GC/Starts, paired by its Count. */
  assert_span (trace, "GC #7 gen 1 (AllocSmall, NonConcurrentGC)", "GC", 51, 2000, 3000,
               ET_SPAN_OK);
  assert_span (trace, "GC #8 gen 1 (AllocSmall, NonConcurrentGC)", "GC", 51, 4000, 6000,
               ET_SPAN_CROSS_THREAD);
  f = find_marker (trace, "GC #8 gen 1 (AllocSmall, NonConcurrentGC)");
  assert_int_equal (et_trace_get_thread (trace, et_trace_marker_end_thread (trace, f.marker))->tid,
                    52);
  assert_span (trace, "Execution engine suspended (SuspendForGC)", "Suspension", 53, 7000, 8000,
               ET_SPAN_OK);
  assert_span (trace, "MyApp.Worker.Run", "JIT", 54, 10000, 11000, ET_SPAN_OK);
  assert_span (trace, "Lock contention (Managed)", "Contention", 55, 12000, 12500, ET_SPAN_OK);
  f = find_marker (trace, "System.InvalidOperationException: Sequence contains no elements");
  assert_int_equal (f.marker->kind, ET_MARKER_FLAG);
  assert_int_equal (f.marker->importance, ET_IMPORTANCE_CRITICAL);
  assert_int_equal (f.marker->category, ET_CATEGORY_ALERT);
  assert_string_equal (f.series, "Exceptions");
  f = find_marker (trace, "Thread pool: 12 worker threads (ClimbingMove)");
  assert_int_equal (f.marker->kind, ET_MARKER_MESSAGE);
  assert_string_equal (f.series, "Thread pool");
  /* Nothing else: no repeated GC/Start, no load without JIT, no
   * allocation tick, nothing of the provider that is off. */
  assert_int_equal (count_markers (trace), 7);
  assert_int_equal (et_trace_get_stats (trace)->markers, 7);
  g_clear_object (&trace);
  et_fixture_remove_dir (dir);
}

/* With every provider on, the runtime still makes only its activities;
 * the other provider's event goes through the EventSource rules. */
static void
test_all_providers_add_only_the_others (void **state)
{
  g_autofree char *path = write_runtime_trace ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(EtTrace) trace = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, NULL);
  g_autoptr(EtFields) fields = et_fields_new ();
  EtRuleResult rules;
  EtEvent ev;
  Found f;

  assert_non_null (trace);
  assert_int_equal (count_markers_of (trace, RUNTIME), 7);
  assert_int_equal (count_markers_of (trace, OTHER), 1);
  /* The details' "why": every property from the built-in rule, and the
   * span id is the GC's Count. */
  f = find_marker (trace, "GC #7 gen 1 (AllocSmall, NonConcurrentGC)");
  et_rule_result_init (&rules);
  assert_true (et_trace_decode_event (trace, f.marker->event, &ev, fields, NULL));
  et_trace_explain_marker (trace, &ev, fields, &rules);
  assert_int_equal (rules.role_rule, ET_RULE_BUILTIN);
  assert_int_equal (rules.importance_rule, ET_RULE_BUILTIN);
  assert_int_equal (rules.series_rule, ET_RULE_BUILTIN);
  assert_int_equal (rules.text_rule, ET_RULE_BUILTIN);
  assert_true (rules.has_span_id);
  assert_int_equal (rules.span_id, 7);
  assert_string_equal (et_rule_source_to_string (ET_RULE_BUILTIN), "built-in runtime rule");
  et_rule_result_clear (&rules);
  g_clear_object (&trace);
  et_fixture_remove_dir (dir);
}

/* ---- the corpus --------------------------------------------------------- */

static guint32
count_field (const EtFields *fields)
{
  gint i = et_fields_find (fields, "Count");
  gint64 v = -1;

  assert_true (i >= 0 && et_fields_get_integer (fields, (guint) i, &v));
  return (guint32) v;
}

/* GCs whose GC/Start and GC/Stop are both in the trace (a Count written
 * twice in a process is one GC), from the decoded events. */
static guint
gcs_with_both_ends (EtTrace *trace)
{
  g_autoptr(GHashTable) starts = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) both = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autofree guint64 *keys = g_new (guint64, et_trace_get_n_events (trace));
  EtGuid runtime = guid_of (RUNTIME);
  EtEvent ev;

  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      if (!et_trace_decode_event (trace, i, &ev, fields, NULL)
          || !et_guid_equal (&et_trace_get_provider (trace, ev.provider)->guid, &runtime)
          || (ev.id != 1 && ev.id != 2))
        continue;
      /* Each process counts its own GCs. */
      keys[i] = (guint64) ev.pid << 32 | (guint64) count_field (fields);
      if (ev.id == 1)
        g_hash_table_add (starts, &keys[i]);
      else if (g_hash_table_contains (starts, &keys[i]))
        g_hash_table_add (both, &keys[i]);
    }
  return g_hash_table_size (both);
}

static guint
gc_spans (EtTrace *trace)
{
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (strcmp (et_trace_get_string (trace, ch->series), "GC") != 0)
        continue;
      for (guint i = 0; i < ch->n_markers; i++)
        {
          assert_int_equal (ch->markers[i].kind, ET_MARKER_SPAN);
          n += ch->markers[i].end_event != ET_NO_INDEX;
        }
    }
  return n;
}

static void
check_corpus_gcs (const char *name, guint at_least)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = dir ? g_build_filename (dir, name, NULL) : NULL;
  g_autoptr(EtTrace) trace = NULL;
  guint want;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      print_message ("# %s not found (ET_CORPUS_DIR=%s): not checked\n", name,
                     dir ? dir : "(not set)");
      skip ();
    }
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  want = gcs_with_both_ends (trace);
  print_message ("# %s: %u GCs with a GC/Start and a GC/Stop\n", name, want);
  assert_true (want >= at_least);
  assert_int_equal (gc_spans (trace), want);
}

static void
test_corpus_opens_with_gc_spans (void **state)
{
  check_corpus_gcs ("gcevents.etl", 1);
  check_corpus_gcs ("net.4.5.2.x64.etl", 1);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_runtime_activities_become_markers),
    cmocka_unit_test (test_all_providers_add_only_the_others),
    cmocka_unit_test (test_corpus_opens_with_gc_spans),
  };
  return cmocka_run_group_tests_name ("builtin-rules", tests, NULL, NULL);
}
