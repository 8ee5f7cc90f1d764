/* test-conformance.c — every real .etl file of the corpus, opened through
 * the whole pipeline, against what an independent parser found.
 *
 * Sits after the last stage: et_trace_load () → the model (providers,
 * threads, header, stats, markers) and et_trace_decode_event (). The oracle
 * is $ET_CORPUS_DIR/expected/X.json, written by etlref, a reader that shares
 * no code with ours. Marker expectations are not taken from our program
 * either: they are worked out here from docs/markers.md.
 *
 * Each check that fails prints "file: key: expected …, actual …" and the
 * test goes on, so one run shows every difference of a file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "et-trace.h"
#include "et-trace-decode.h"
#include "et-trace-load.h"
#include "et-tracelogging.h"

/* tests/meson.build builds one source per test; the suite's parts are
 * compiled in here, in dependency order. */
#include "conformance-check.c"
#include "conformance-values.c"
#include "conformance-markers.c"
#include "conformance-events.c"

/* The corpus files this suite knows. A new file in the corpus folder makes
 * test_corpus_has_no_file_without_a_test fail until it gets a test here. */
static const char *const known_files[] = {
  "AMSITrace",
  "SelfDescribingSingleEvent",
  "ShutdownPerfDiagLogger",
  "gcevents",
  "lxcore_kernel",
  "net.4.5.2.x64",
  "primitive-types",
};

/* ---- counts per provider and per thread -------------------------------- */

static void
check_events_per_provider (Case *cs)
{
  JsonObject *want = want_object (cs, cs->expected, "", "events_per_provider");
  g_autoptr(GList) keys = want ? json_object_get_members (want) : NULL;
  guint n_with_events = 0;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *guid = l->data;
      g_autofree char *key = g_strdup_printf ("events_per_provider[%s]", guid);
      gint64 n = 0;
      gint index = find_provider (cs->trace, guid);

      if (!want_int (cs, want, "events_per_provider", guid, &n))
        continue;
      if (index < 0)
        mismatch (cs, key, "expected %" G_GINT64_FORMAT " events, actual: no such provider", n);
      else
        expect_u64 (cs, key, n, et_trace_get_provider (cs->trace, index)->n_events);
    }
  for (guint i = 0; i < et_trace_get_n_providers (cs->trace); i++)
    {
      const EtProvider *p = et_trace_get_provider (cs->trace, i);
      char guid[ET_GUID_STRING_LEN];

      if (p->n_events == 0)
        continue;
      n_with_events++;
      et_guid_to_string (&p->guid, guid);
      if (want != NULL && !json_object_has_member (want, guid))
        mismatch (cs, "events_per_provider",
                  "expected no provider %s, actual: %" G_GUINT64_FORMAT " events of it",
                  guid, p->n_events);
    }
  if (want != NULL)
    expect_u64 (cs, "number of providers with events", json_object_get_size (want),
                n_with_events);
}

/* Thread entries are keyed as the reference keys them: "pid/tid", and
 * "none" for records without thread ids (has_ids FALSE). */
static void
check_events_per_thread (Case *cs)
{
  JsonObject *want = want_object (cs, cs->expected, "", "events_per_pid_tid");
  g_autoptr(GHashTable) actual = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GList) keys = NULL;
  GHashTableIter iter;
  gpointer left, n_left;

  for (guint i = 0; i < et_trace_get_n_threads (cs->trace); i++)
    {
      const EtThread *t = et_trace_get_thread (cs->trace, i);
      char *id = t->has_ids ? g_strdup_printf ("%u/%u", t->pid, t->tid) : g_strdup ("none");

      if (g_hash_table_contains (actual, id))
        mismatch (cs, "threads", "expected one thread entry for %s, actual: several", id);
      g_hash_table_replace (actual, id, GSIZE_TO_POINTER (t->n_events));
    }
  if (want == NULL)
    return;
  keys = json_object_get_members (want);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      gpointer n_actual = NULL;
      g_autofree char *label = g_strdup_printf ("events_per_pid_tid[%s]", (char *) l->data);
      gint64 n = 0;

      if (!want_int (cs, want, "events_per_pid_tid", l->data, &n))
        continue;
      if (!g_hash_table_lookup_extended (actual, l->data, NULL, &n_actual))
        mismatch (cs, label, "expected %" G_GINT64_FORMAT " events, actual: no such thread", n);
      else
        expect_u64 (cs, label, n, GPOINTER_TO_SIZE (n_actual));
      g_hash_table_remove (actual, l->data);
    }
  g_hash_table_iter_init (&iter, actual);
  while (g_hash_table_iter_next (&iter, &left, &n_left))
    if (GPOINTER_TO_SIZE (n_left) > 0)
      mismatch (cs, "events_per_pid_tid", "expected no thread %s, actual: %" G_GSIZE_FORMAT
                " events on it", (char *) left, GPOINTER_TO_SIZE (n_left));
}

/* ---- header, buffers, timestamps --------------------------------------- */

typedef enum { HDR_U32, HDR_I32, HDR_I64, HDR_STR } HeaderType;

static const struct
{
  const char *key;
  HeaderType  type;
  gsize       offset;
} header_fields[] = {
  { "BufferSize",         HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, buffer_size) },
  { "ProviderVersion",    HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, provider_version) },
  { "NumberOfProcessors", HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, n_processors) },
  { "EndTime",            HDR_I64, G_STRUCT_OFFSET (EtLogfileHeader, end_time) },
  { "TimerResolution",    HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, timer_resolution) },
  { "MaximumFileSize",    HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, maximum_file_size) },
  { "LogFileMode",        HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, log_file_mode) },
  { "BuffersWritten",     HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, buffers_written) },
  { "PointerSize",        HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, pointer_size) },
  { "EventsLost",         HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, events_lost) },
  { "CpuSpeedInMHz",      HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, cpu_speed_mhz) },
  { "BootTime",           HDR_I64, G_STRUCT_OFFSET (EtLogfileHeader, boot_time) },
  { "PerfFreq",           HDR_I64, G_STRUCT_OFFSET (EtLogfileHeader, perf_freq) },
  { "StartTime",          HDR_I64, G_STRUCT_OFFSET (EtLogfileHeader, start_time) },
  { "ReservedFlags",      HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, clock_type) },
  { "BuffersLost",        HDR_U32, G_STRUCT_OFFSET (EtLogfileHeader, buffers_lost) },
  { "TimeZoneBias",       HDR_I32, G_STRUCT_OFFSET (EtLogfileHeader, time_zone_bias) },
  { "LoggerName",         HDR_STR, G_STRUCT_OFFSET (EtLogfileHeader, logger_name) },
  { "LogFileName",        HDR_STR, G_STRUCT_OFFSET (EtLogfileHeader, log_file_name) },
};

static void
check_logfile_header (Case *cs)
{
  const EtLogfileHeader *h = et_trace_get_header (cs->trace);
  JsonObject *want = want_object (cs, cs->expected, "", "logfile_header");
  const char *version = NULL;

  if (want == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
    {
      const guint8 *field = (const guint8 *) h + header_fields[i].offset;
      g_autofree char *key = g_strdup_printf ("logfile_header.%s", header_fields[i].key);
      const char *text = NULL;
      gint64 n = 0;

      if (header_fields[i].type == HDR_STR)
        {
          if (want_string (cs, want, "logfile_header", header_fields[i].key, &text))
            expect_str (cs, key, text, *(const char *const *) field);
          continue;
        }
      if (!want_int (cs, want, "logfile_header", header_fields[i].key, &n))
        continue;
      if (header_fields[i].type == HDR_U32)
        expect_i64 (cs, key, n, *(const guint32 *) field);
      else if (header_fields[i].type == HDR_I32)
        expect_i64 (cs, key, n, *(const gint32 *) field);
      else
        expect_i64 (cs, key, n, *(const gint64 *) field);
    }
  if (want_string (cs, want, "logfile_header", "VersionDetail", &version))
    {
      g_autofree char *actual = g_strdup_printf ("%u.%u.%u.%u", h->version[0], h->version[1],
                                                 h->version[2], h->version[3]);
      expect_str (cs, "logfile_header.VersionDetail", version, actual);
    }
}

static void
check_buffers_and_times (Case *cs)
{
  const EtLogfileHeader *h = et_trace_get_header (cs->trace);
  const EtTraceStats *s = et_trace_get_stats (cs->trace);
  JsonObject *lost = want_object (cs, cs->expected, "", "events_lost");
  JsonObject *ts = want_object (cs, cs->expected, "", "timestamps");
  gint64 n;

  if (want_int (cs, cs->expected, "", "total_events", &n))
    expect_u64 (cs, "total_events (stats.records)", n, s->records);
  if (want_int (cs, cs->expected, "", "file_size", &n))
    expect_u64 (cs, "file_size", n, s->file_size);
  if (want_int (cs, cs->expected, "", "pointer_size", &n))
    expect_u64 (cs, "pointer_size", n, h->pointer_size);
  if (want_int (cs, cs->expected, "", "buffer_size", &n))
    expect_u64 (cs, "buffer_size", n, h->buffer_size);
  if (want_int (cs, cs->expected, "", "buffers_in_file", &n))
    expect_u64 (cs, "buffers_in_file", n, s->buffers);
  if (want_int (cs, cs->expected, "", "compressed_buffers", &n))
    expect_u64 (cs, "compressed_buffers", n, s->compressed_buffers);
  if (want_int (cs, cs->expected, "", "ticks_per_second", &n))
    expect_u64 (cs, "ticks_per_second", n, s->ticks_per_second);
  if (lost != NULL && want_int (cs, lost, "events_lost", "header_EventsLost", &n))
    expect_u64 (cs, "events_lost.header_EventsLost", n, h->events_lost);
  if (lost != NULL && want_int (cs, lost, "events_lost", "header_BuffersLost", &n))
    expect_u64 (cs, "events_lost.header_BuffersLost", n, h->buffers_lost);
  if (lost != NULL && want_int (cs, lost, "events_lost", "buffers_with_EVENTS_LOST_flag", &n))
    expect_u64 (cs, "events_lost.buffers_with_EVENTS_LOST_flag", n,
                s->buffers_flagged_events_lost);
  if (lost != NULL && want_int (cs, lost, "events_lost", "buffers_with_BUFFER_LOST_flag", &n))
    expect_u64 (cs, "events_lost.buffers_with_BUFFER_LOST_flag", n,
                s->buffers_flagged_buffer_lost);
  if (ts != NULL && want_int (cs, ts, "timestamps", "t0_raw", &n))
    expect_i64 (cs, "timestamps.t0_raw", n, s->t0_raw);
  if (ts != NULL && want_int (cs, ts, "timestamps", "first_raw", &n))
    expect_i64 (cs, "timestamps.first_raw", n, s->first_raw);
  if (ts != NULL && want_int (cs, ts, "timestamps", "last_raw", &n))
    expect_i64 (cs, "timestamps.last_raw", n, s->last_raw);
}

/* A file the reference parser read without a problem must load without
 * damage; one with problems must report at least one. */
static void
check_damage (Case *cs)
{
  const EtTraceStats *s = et_trace_get_stats (cs->trace);
  JsonArray *problems = want_array (cs, cs->expected, "", "problems");
  guint n_damage = 0;
  const EtDamage *damage = et_trace_get_damage (cs->trace, &n_damage);

  if (problems == NULL)
    return;
  if (json_array_get_length (problems) == 0)
    {
      expect_u64 (cs, "damage_count (problems is empty)", 0, s->damage_count);
      expect_u64 (cs, "records_skipped (problems is empty)", 0, s->records_skipped);
      expect_u64 (cs, "buffers_skipped (problems is empty)", 0, s->buffers_skipped);
      for (guint i = 0; i < n_damage && i < 5; i++)
        mismatch (cs, "damage", "expected none, actual at byte %" G_GUINT64_FORMAT ": %s",
                  damage[i].offset, damage[i].message);
    }
  else if (s->damage_count == 0)
    mismatch (cs, "damage_count", "expected some (%u problems listed), actual 0",
              json_array_get_length (problems));
}

/* ---- provider names and kinds ------------------------------------------ */

static void
check_named_provider (Case *cs, const char *where, const char *guid, const char *name,
                      EtProviderKind kind)
{
  gint index = find_provider (cs->trace, guid);
  g_autofree char *key = g_strdup_printf ("%s[%s]", where, guid);
  const EtProvider *p;

  if (index < 0)
    {
      mismatch (cs, key, "expected provider \"%s\", actual: no such provider", name);
      return;
    }
  p = et_trace_get_provider (cs->trace, index);
  expect_str (cs, key, name, p->name);
  if (p->kind != kind)
    mismatch (cs, key, "expected kind %s, actual %s", et_provider_kind_to_string (kind),
              et_provider_kind_to_string (p->kind));
}

static void
check_tracelogging_providers (Case *cs)
{
  JsonObject *want = want_object (cs, cs->expected, "", "tracelogging_providers");
  g_autoptr(GList) keys = want ? json_object_get_members (want) : NULL;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      JsonObject *entry = want_object (cs, want, "tracelogging_providers", l->data);
      const char *name = NULL;

      if (entry != NULL && want_string (cs, entry, "tracelogging_providers", "name", &name))
        check_named_provider (cs, "tracelogging_providers", l->data, name,
                              ET_PROVIDER_TRACELOGGING);
    }
}

/* The reference lists one entry per complete manifest it met (PerfView
 * writes its manifest twice in net.4.5.2.x64.etl, and both are listed);
 * stats.manifests counts every manifest decoded, so the two must agree. */
static void
check_eventsource_manifests (Case *cs)
{
  JsonArray *want = want_array (cs, cs->expected, "", "eventsource_manifests");

  if (want == NULL)
    return;
  expect_u64 (cs, "eventsource_manifests (stats.manifests)", json_array_get_length (want),
              et_trace_get_stats (cs->trace)->manifests);
  for (guint i = 0; i < json_array_get_length (want); i++)
    {
      JsonObject *m = json_array_get_object_element (want, i);
      const char *guid = NULL, *name = NULL;

      if (m == NULL)
        continue;
      if (want_string (cs, m, "eventsource_manifests", "provider_guid", &guid)
          && want_string (cs, m, "eventsource_manifests", "provider_name", &name))
        check_named_provider (cs, "eventsource_manifests", guid, name,
                              ET_PROVIDER_EVENTSOURCE);
    }
}

/* ---- one corpus file ----------------------------------------------------- */

/* Checks a file needs beyond the common ones; run after check_markers (). */
typedef void (*ExtraCheck) (Case *cs);

static void
check_corpus_file (void **state, const char *name, ExtraCheck extra)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  char failures[256];
  guint n_failed;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      print_message ("# corpus not found at %s\n", dir ? dir : "(ET_CORPUS_DIR is not set)");
      skip ();
      return;
    }
  {
    g_autoptr(Case) cs = case_open (dir, name);

    if (cs->trace != NULL && cs->expected != NULL)
      {
        check_buffers_and_times (cs);
        check_logfile_header (cs);
        check_damage (cs);
        check_events_per_provider (cs);
        check_events_per_thread (cs);
        check_tracelogging_providers (cs);
        check_eventsource_manifests (cs);
        scan_events (cs);
        check_decoded_events (cs);
        check_markers (cs);
        if (extra != NULL)
          extra (cs);
      }
    n_failed = cs->n_failed;
    print_message ("# %s.etl: %u comparisons; markers checked against the rules: %u; "
                   "mismatches: %u\n", name, cs->n_checked, cs->n_markers, n_failed);
    g_snprintf (failures, sizeof failures,
                "%s.etl: %u mismatches with expected/%s.json (listed above)", name, n_failed,
                name);
  }
  /* fail_msg jumps out of the test: nothing allocated may be left by now. */
  if (n_failed > 0)
    fail_msg ("%s", failures);
}

static void
test_amsi_trace_matches_reference (void **state)
{
  check_corpus_file (state, "AMSITrace", NULL);
}

static void
test_self_describing_single_event_matches_reference (void **state)
{
  check_corpus_file (state, "SelfDescribingSingleEvent", NULL);
}

static void
test_shutdown_perf_diag_logger_matches_reference (void **state)
{
  check_corpus_file (state, "ShutdownPerfDiagLogger", NULL);
}

static void
test_gcevents_matches_reference (void **state)
{
  check_corpus_file (state, "gcevents", NULL);
}

static void
test_lxcore_kernel_matches_reference (void **state)
{
  check_corpus_file (state, "lxcore_kernel", NULL);
}

/* The three EventSources of net.4.5.2.x64.etl, named as their manifests
 * name them. The common checks already hold every provider of the expected
 * manifests to this; naming them here keeps the test from passing quietly
 * should the expected file ever list fewer. */
static const struct
{
  const char *guid;
  const char *name;
} net_eventsources[] = {
  { "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", "System.Threading.Tasks.TplEventSource" },
  { "a8a71ac1-040f-54a2-07ca-00a89b5ab761", "PerfView" },
  { "8e9f5090-2d75-4d03-8a81-e5afbf85daf1", "System.Diagnostics.Eventing.FrameworkEventSource" },
};

static void
require_net_eventsource_markers (Case *cs)
{
  for (guint i = 0; i < G_N_ELEMENTS (net_eventsources); i++)
    {
      gint index = find_provider (cs->trace, net_eventsources[i].guid);
      guint n_events = 0;

      check_named_provider (cs, "EventSource", net_eventsources[i].guid,
                            net_eventsources[i].name, ET_PROVIDER_EVENTSOURCE);
      for (guint k = 0; index >= 0 && k < cs->marker_wants->len; k++)
        n_events += g_array_index (cs->marker_wants, MarkerWant, k).provider == index;
      /* Each of those events was held to exactly one marker by check_markers (). */
      if (n_events == 0)
        mismatch (cs, net_eventsources[i].name,
                  "expected events that become markers, actual none");
    }
}

/* Besides the reference counts, the TPL, PerfView and FrameworkEventSource
 * events must decode with their manifests and each become one marker (or
 * one end of a span) by the rules. */
static void
test_net_452_matches_reference_and_marker_rules (void **state)
{
  check_corpus_file (state, "net.4.5.2.x64", require_net_eventsource_markers);
}

static void
test_primitive_types_matches_reference (void **state)
{
  check_corpus_file (state, "primitive-types", NULL);
}

/* The .etl files of @dir this suite has no test function or no expected
 * JSON for, as " name (why)" items; empty when there are none. */
static char *
list_untested_files (const char *dir)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *entry;

  if (d == NULL)
    return g_strdup_printf (" (cannot list %s)", dir);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *base = NULL;
      g_autofree char *json = NULL;
      gboolean known = FALSE;

      if (!g_str_has_suffix (entry, ".etl"))
        continue;
      base = g_strndup (entry, strlen (entry) - 4);
      for (guint i = 0; i < G_N_ELEMENTS (known_files); i++)
        known = known || g_strcmp0 (known_files[i], base) == 0;
      if (!known)
        g_string_append_printf (missing, " %s (no test function)", entry);
      json = g_strdup_printf ("%s/expected/%s.json", dir, base);
      if (!g_file_test (json, G_FILE_TEST_IS_REGULAR))
        g_string_append_printf (missing, " %s (no expected/%s.json)", entry, base);
    }
  return g_string_free (g_steal_pointer (&missing), FALSE);
}

static void
test_corpus_has_no_file_without_a_test (void **state)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  char message[1024];
  char *missing;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      print_message ("# corpus not found at %s\n", dir ? dir : "(ET_CORPUS_DIR is not set)");
      skip ();
      return;
    }
  missing = list_untested_files (dir);
  g_snprintf (message, sizeof message, "corpus files without a conformance test:%s", missing);
  /* fail_msg jumps out of the test: free first. */
  if (missing[0] == '\0')
    {
      g_free (missing);
      return;
    }
  g_free (missing);
  fail_msg ("%s", message);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_corpus_has_no_file_without_a_test),
    cmocka_unit_test (test_amsi_trace_matches_reference),
    cmocka_unit_test (test_self_describing_single_event_matches_reference),
    cmocka_unit_test (test_shutdown_perf_diag_logger_matches_reference),
    cmocka_unit_test (test_gcevents_matches_reference),
    cmocka_unit_test (test_lxcore_kernel_matches_reference),
    cmocka_unit_test (test_net_452_matches_reference_and_marker_rules),
    cmocka_unit_test (test_primitive_types_matches_reference),
  };
  return cmocka_run_group_tests_name ("conformance", tests, NULL, NULL);
}
