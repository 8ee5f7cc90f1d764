/* test-nettrace.c — .nettrace (EventPipe) files through the whole program.
 *
 * One list of EventSource events is written twice by the fixture writer:
 * as TraceLogging events in an .etl, and as EventSource events in a
 * .nettrace (formats 4 and 5, headers compressed or not, several threads
 * and processors, fields with structs and arrays, stacks, sequence
 * points). The built CLI ($ET_CLI) must give the same markers and the same
 * decoded fields for both. Damaged .nettrace files must open with what can
 * be read, name the byte offset and exit with 1. The real traces of
 * ../shared/corpus/nettrace are compared with TraceEvent's baselines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "cli-run.h"
#include "et-fixture.h"
#include "nettrace-fields.h"
#include "et-fixture-nettrace.h"
#include "et-fields.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#define PID 4242
#define PROVIDER "Etlscope-Nettrace-Test"

typedef struct
{
  char *dir;
  char *etl;
  char *nettrace;
} Fixture;


static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("et-nettrace-XXXXXX", NULL);
  f->etl = g_build_filename (f->dir, "t.etl", NULL);
  f->nettrace = g_build_filename (f->dir, "t.nettrace", NULL);
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  et_fixture_remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->etl);
  g_free (f->nettrace);
  g_free (f);
  return 0;
}

/* ---- one list of events, written both ways ---------------------------- */

typedef struct
{
  EtFixtureWriter   *etl;
  EtFixtureNettrace *nt;
} Both;

static void
emit (Both *b, const EtFixtureEvent *ev, const char *name, const EtFixturePayload *p)
{
  et_fixture_write_tl_event (b->etl, ev, PROVIDER, name, p, NULL);
  et_fixture_nettrace_write_event (b->nt, ev, PROVIDER, name, p);
}

static void
at (EtFixtureEvent *ev, guint32 tid, gint64 us, guint8 level, guint8 opcode, guint16 id)
{
  et_fixture_event_init (ev);
  ev->pid = PID;
  ev->tid = tid;
  ev->cpu = tid % 3;
  ev->time_ns = us * 1000;
  ev->level = level;
  ev->opcode = opcode;
  ev->id = id;
  /* As EventSource gives them: 0xFFFE − id, a Stop the task of its Start. */
  ev->task = (guint16) (0xFFFE - (opcode == 2 ? id - 1 : id));
}

/* Flags, messages, spans by opcode (nested, unmatched, lone end), cv
 * fields, a cross-thread span by cvSpanId, structs, and (with @arrays)
 * arrays of numbers and of structs. */
static void
write_events (Both *b, gboolean arrays)
{
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureEvent ev;
  const gint32 numbers[3] = { 7, -8, 9 };

  for (guint i = 0; i < 40; i++)
    {
      guint32 tid = 100 + i % 4;

      et_fixture_payload_reset (p);
      et_fixture_payload_add_i32 (p, "item", (gint32) i);
      et_fixture_payload_add_utf16 (p, "label", i % 2 ? "odd" : "even");
      at (&ev, tid, 1000 + 50 * i, i % 7 == 0 ? 2 : 4, 0, 1);
      emit (b, &ev, "Work", p);
      at (&ev, tid, 1010 + 50 * i, 4, 1, 2);
      emit (b, &ev, "StepStart", p);
      if (i % 5 != 4)                         /* some spans stay open */
        {
          at (&ev, tid, 1030 + 50 * i, 4, 2, 3);
          emit (b, &ev, "StepStop", p);
        }
    }
  et_fixture_payload_reset (p);
  et_fixture_payload_add_u8 (p, "cvType", 1);
  et_fixture_payload_add_i32 (p, "cvSpanId", 77);
  et_fixture_payload_add_utf16 (p, "cvTextW", "handed over");
  et_fixture_payload_add_u8 (p, "cvCategory", 3);
  et_fixture_payload_add_u8 (p, "cvImportance", 1);
  et_fixture_payload_add_utf16 (p, "cvSeries", "Pipeline");
  at (&ev, 100, 5000, 4, 0, 10);
  emit (b, &ev, "CvBegin", p);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_u8 (p, "cvType", 2);
  et_fixture_payload_add_i32 (p, "cvSpanId", 77);
  at (&ev, 103, 5600, 4, 0, 11);
  emit (b, &ev, "CvFinish", p);
  at (&ev, 104, 5700, 4, 2, 3);               /* an end with nothing open */
  et_fixture_payload_reset (p);
  et_fixture_payload_add_i32 (p, "item", -1);
  et_fixture_payload_add_utf16 (p, "label", "lone");
  emit (b, &ev, "StepStop", p);

  /* Two kinds of span overlapping on one thread: an end closes a start of
   * its own task. */
  et_fixture_payload_reset (p);
  et_fixture_payload_add_i32 (p, "item", 500);
  et_fixture_payload_add_utf16 (p, "label", "phase");
  at (&ev, 105, 7000, 4, 1, 30);
  emit (b, &ev, "PhaseStart", p);
  at (&ev, 105, 7100, 4, 1, 2);
  emit (b, &ev, "StepStart", p);
  at (&ev, 105, 7200, 4, 2, 31);
  emit (b, &ev, "PhaseStop", p);
  at (&ev, 105, 7300, 4, 2, 3);
  emit (b, &ev, "StepStop", p);

  et_fixture_payload_reset (p);
  et_fixture_payload_add_double (p, "ratio", 0.25);
  et_fixture_payload_add_bool32 (p, "ok", TRUE);
  et_fixture_payload_begin_struct (p, "point");
  et_fixture_payload_add_i64 (p, "x", -3);
  et_fixture_payload_add_u16 (p, "y", 4);
  et_fixture_payload_end_struct (p);
  if (arrays)
    {
      et_fixture_payload_add_array (p, "numbers", ET_FIXTURE_INT32, numbers, 3, FALSE);
      et_fixture_payload_begin_struct_array (p, "pairs", 2);
      et_fixture_payload_add_u32 (p, "k", 1);
      et_fixture_payload_add_utf16 (p, "v", "one");
      et_fixture_payload_next_element (p);
      et_fixture_payload_add_u32 (p, "k", 2);
      et_fixture_payload_add_utf16 (p, "v", "two");
      et_fixture_payload_end_struct (p);
    }
  at (&ev, 102, 6000, 5, 0, 20);
  /* A name beyond ASCII and the BMP: UTF-16 with a surrogate pair in the
   * .nettrace, UTF-8 in the .etl. */
  emit (b, &ev, "Shape\u00df\U0001D11E", p);
}

/* Writes t.etl and t.nettrace from the same events. */
static void
write_both (Fixture *f, const EtFixtureNettraceOptions *nto, gboolean arrays,
            gboolean stacks_and_points)
{
  g_autoptr(GError) error = NULL;
  EtFixtureOptions eo;
  Both b;
  const guint64 ips[3] = { 0x7ff012340000, 0x7ff012340100, 0x7ff012340200 };

  et_fixture_options_init (&eo);
  b.etl = et_fixture_writer_new (f->etl, &eo, &error);
  b.nt = et_fixture_nettrace_new (f->nettrace, nto, &error);
  assert_non_null (b.etl);
  assert_non_null (b.nt);
  if (stacks_and_points)
    et_fixture_nettrace_use_stack (b.nt, ips, 3);
  write_events (&b, arrays);
  if (stacks_and_points)
    et_fixture_nettrace_sequence_point (b.nt, 0);
  assert_true (et_fixture_writer_close (b.etl, &error));
  assert_true (et_fixture_nettrace_close (b.nt, &error));
  et_fixture_writer_free (b.etl);
  et_fixture_nettrace_free (b.nt);
}

/* ---- comparisons ------------------------------------------------------- */

static guint
count_of (const char *text, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The provider's events as `events --format=jsonl` gives them, without
 * what depends on the file's layout and format (index, offset, the
 * header's kind: EVENT_HEADER64 or EVENTPIPE). */
static char *
provider_events (const char *path)
{
  Run run = run_cli ("events", "--format=jsonl", path);
  g_autoptr(GRegex) layout =
    g_regex_new ("\"((index|offset)\":[0-9]+|header_kind\":\"[A-Z0-9_]+\"),", 0, 0, NULL);
  g_auto(GStrv) lines = NULL;
  GString *out = g_string_new (NULL);

  assert_int_equal (run.status, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "\"provider\":\"" PROVIDER "\"") != NULL)
      {
        g_autofree char *kept = g_regex_replace_literal (layout, lines[i], -1, 0, "", 0, NULL);
        g_string_append_printf (out, "%s\n", kept);
      }
  run_clear (&run);
  return g_string_free (out, FALSE);
}

/* Markers and decoded events of t.nettrace equal those of t.etl. */
static void
assert_same_as_etl (Fixture *f, gboolean arrays)
{
  Run etl = run_cli ("markers", "--format=jsonl", f->etl);
  Run nt = run_cli ("markers", "--format=jsonl", f->nettrace);
  g_autofree char *etl_events = provider_events (f->etl);
  g_autofree char *nt_events = provider_events (f->nettrace);

  assert_int_equal (etl.status, 0);
  if (nt.status != 0)
    fail_msg ("exit %d: %s", nt.status, nt.err);
  /* What the event list must give, so that equal outputs mean something. */
  assert_int_equal (count_of (etl.out, "\n"), 40 + 40 + 1 + 1 + 2 + 1);
  assert_int_equal (count_of (etl.out, "\"status\":\"overlapping\""), 1);
  assert_int_equal (count_of (etl.out, "\"status\":\"unmatched_start\""), 8);
  assert_int_equal (count_of (etl.out, "\"status\":\"unmatched_end\""), 1);
  assert_int_equal (count_of (etl.out, "\"status\":\"cross_thread\""), 1);
  assert_int_equal (count_of (etl_events, "\n"), 40 * 3 - 8 + 4 + 4);
  assert_true (strstr (etl_events, arrays ? "\"numbers\":[7,-8,9]" : "\"point\":{\"x\":-3,\"y\":4}"));
  assert_string_equal (nt.out, etl.out);
  assert_string_equal (nt_events, etl_events);
  run_clear (&etl);
  run_clear (&nt);
}

static void
test_format5_compressed_round_trip (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;

  et_fixture_nettrace_options_init (&o);
  write_both (f, &o, TRUE, TRUE);
  assert_same_as_etl (f, TRUE);
}

static void
test_format5_uncompressed_round_trip (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;

  et_fixture_nettrace_options_init (&o);
  o.compressed = FALSE;
  o.events_per_block = 7;
  write_both (f, &o, TRUE, FALSE);
  assert_same_as_etl (f, TRUE);
}

/* Format 4 has no opcodes in its metadata: …Start and …Stop names give
 * them, as TraceEvent does. */
static void
test_format4_round_trip (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;

  et_fixture_nettrace_options_init (&o);
  o.format = 4;
  o.events_per_block = 1000;
  write_both (f, &o, FALSE, TRUE);
  assert_same_as_etl (f, FALSE);
}

/* ---- damage, losses, dispatch ------------------------------------------ */

static guint64
write_for_damage (Fixture *f)
{
  EtFixtureNettraceOptions o;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixtureWriter) etl = NULL;
  EtFixtureOptions eo;
  Both b;
  guint64 second_block;

  et_fixture_nettrace_options_init (&o);
  o.events_per_block = 16;
  et_fixture_options_init (&eo);
  etl = et_fixture_writer_new (f->etl, &eo, &error);
  nt = et_fixture_nettrace_new (f->nettrace, &o, &error);
  b = (Both) { etl, nt };
  write_events (&b, TRUE);
  assert_true (et_fixture_nettrace_close (nt, &error));
  assert_true (et_fixture_nettrace_event_blocks (nt)->len > 4);
  second_block = g_array_index (et_fixture_nettrace_event_blocks (nt), guint64, 1);
  return second_block;
}

/* A block whose opening is overwritten: reported at its offset, skipped,
 * and the blocks after it are read. */
static void
test_damaged_block_is_skipped (void **state)
{
  Fixture *f = *state;
  guint64 block = write_for_damage (f);
  g_autoptr(GError) error = NULL;
  const guint8 junk[8] = { 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE };
  Run run;

  g_autofree char *bytes = NULL;
  gsize len;
  const char *name = NULL;

  /* The block's opening (two BeginPrivateObject tags, a NullReference,
   * versions, "EventBlock") ends 5 to 8 bytes before its body. */
  assert_true (g_file_get_contents (f->nettrace, &bytes, &len, &error));
  for (gsize i = 0; i + 10 <= block; i++)
    if (memcmp (bytes + i, "EventBlock", 10) == 0)
      name = bytes + i;
  assert_non_null (name);
  assert_true (et_fixture_damage_write (f->nettrace, (guint64) (name - bytes) - 15, junk,
                                        sizeof junk, &error));
  run = run_cli ("markers", "--format=jsonl", f->nettrace);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, "byte offset"));
  assert_non_null (strstr (run.err, f->nettrace));
  /* The first block's 16 events and the ones after the lost block remain. */
  assert_true (count_of (run.out, "\n") > 40);
  assert_true (count_of (run.out, "\n") < 85);
  assert_non_null (strstr (run.out, "\"event\":\"Shape\u00df\U0001D11E\""));
  run_clear (&run);
}

static void
test_cut_file_keeps_what_it_holds (void **state)
{
  Fixture *f = *state;
  guint64 block = write_for_damage (f);
  g_autoptr(GError) error = NULL;
  Run run;

  assert_true (et_fixture_damage_truncate (f->nettrace, block + 40, &error));
  run = run_cli ("markers", "--format=jsonl", f->nettrace);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, "byte offset"));
  /* The first block: events 0–4 (the fifth without its Stop) and the Work
   * and StepStart of event 5: six flags, four spans and two open ones. */
  assert_int_equal (count_of (run.out, "\n"), 12);
  run_clear (&run);
  run = run_cli ("info", f->nettrace);
  assert_int_equal (run.status, 1);
  run_clear (&run);
}

static void
test_sequence_gaps_are_lost_events (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;

  et_fixture_nettrace_options_init (&o);
  {
    g_autoptr(EtFixtureNettrace) nt = et_fixture_nettrace_new (f->nettrace, &o, &error);
    g_autoptr(EtFixtureWriter) etl = et_fixture_writer_new (f->etl, NULL, &error);
    Both b = { etl, nt };

    write_events (&b, FALSE);
    et_fixture_nettrace_sequence_point (nt, 5);
    assert_true (et_fixture_nettrace_close (nt, &error));
  }
  trace = et_trace_load (f->nettrace, 0, NULL, NULL, NULL, &error);
  assert_non_null (trace);
  /* Six threads wrote events; the sequence point says each lost five. */
  assert_int_equal (et_trace_get_header (trace)->events_lost, 6 * 5);
  assert_int_equal (et_trace_get_header (trace)->perf_freq, 10000000);
  assert_int_equal (et_trace_get_stats (trace)->damage_count, 0);
}

/* Writes f->nettrace holding @n events, each @name of @provider with
 * payload @p, at @evs, and loads it. */
static EtTrace *
load_events (Fixture *f, const EtFixtureEvent *evs, guint n, const char *provider,
             const char *name, EtFixturePayload *p)
{
  EtFixtureNettraceOptions o;
  g_autoptr(GError) error = NULL;
  EtFixtureNettrace *nt;
  EtTrace *trace;

  et_fixture_nettrace_options_init (&o);
  nt = et_fixture_nettrace_new (f->nettrace, &o, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    et_fixture_nettrace_write_event (nt, &evs[i], provider, name, p);
  assert_true (et_fixture_nettrace_close (nt, &error));
  et_fixture_nettrace_free (nt);
  trace = et_trace_load (f->nettrace, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* EventPipe's own ProcessInfo event (written by every runtime since .NET
 * Core 3.1) names the process as PerfView does: its command line's first
 * word without folder and ".exe"; the command line is kept whole. Its
 * provider is bookkeeping, off by default. */
static void
test_process_named_by_process_info (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(EtTrace) trace = NULL;
  EtFixtureEvent ev;
  const EtProcess *proc;
  const char *line = "\"C:\\Program Files\\dotnet\\dotnet.exe\" exec C:\\apps\\Shop.dll --port 80";
  Run run;

  et_fixture_payload_add_utf16 (p, "CommandLine", line);
  et_fixture_payload_add_utf16 (p, "OSInformation", "Windows");
  et_fixture_payload_add_utf16 (p, "ArchInformation", "x64");
  at (&ev, 100, 10, 0, 0, 1);
  trace = load_events (f, &ev, 1, "Microsoft-DotNETCore-EventPipe", "ProcessInfo", p);
  assert_int_equal (et_trace_get_n_processes (trace), 1);
  proc = et_trace_get_process (trace, 0);
  assert_int_equal (proc->pid, PID);
  assert_string_equal (proc->name, "dotnet");
  assert_string_equal (proc->command_line, line);
  /* EventPipe's bookkeeping is nobody's marker (and the only provider:
   * the header is not an event, test_only_the_files_events). */
  assert_int_equal (et_trace_get_n_providers (trace), 1);
  for (guint i = 0; i < et_trace_get_n_providers (trace); i++)
    if (strcmp (et_trace_get_provider (trace, i)->name, "Microsoft-DotNETCore-EventPipe") == 0)
      assert_false (et_trace_get_provider (trace, i)->default_on);
  /* The event itself is decoded from its EventPipe metadata. */
  run = run_cli ("events", "--provider", "Microsoft-DotNETCore-EventPipe", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "Microsoft-DotNETCore-EventPipe/ProcessInfo"));
  assert_non_null (strstr (run.out, "ArchInformation=x64"));
  run_clear (&run);
}

/* A .nettrace lists the events it holds and no other: the ETW header its
 * image is given (made from the Trace object) is read as the header, not
 * listed as an event, a provider or a thread; `info` says what the file
 * is and leaves out what only an .etl has (OS version, buffers, logger). */
static void
test_only_the_files_events (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(EtTrace) trace = NULL;
  EtFixtureEvent ev;
  EtEvent decoded;
  EtFields *fields = et_fields_new ();
  Run run;

  et_fixture_payload_add_u32 (p, "item", 7);
  at (&ev, 104, 2500, 4, 0, 9);
  trace = load_events (f, &ev, 1, PROVIDER, "Picked", p);
  assert_true (et_trace_is_nettrace (trace));
  assert_int_equal (et_trace_get_n_events (trace), 1);
  assert_int_equal (et_trace_get_stats (trace)->records, 1);
  assert_int_equal (et_trace_get_n_providers (trace), 1);
  assert_string_equal (et_trace_get_provider (trace, 0)->name, PROVIDER);
  assert_int_equal (et_trace_get_n_threads (trace), 1);
  assert_int_equal (et_trace_get_thread (trace, 0)->tid, 104);
  /* The header still gives the clock and the time the trace starts at. */
  assert_int_equal (et_trace_get_header (trace)->perf_freq, 10000000);
  et_trace_decode_event (trace, 0, &decoded, fields, NULL);
  assert_string_equal (decoded.name, "Picked");
  assert_int_equal (decoded.time_ns, 2500 * 1000);
  et_fields_free (fields);

  run = run_cli ("info", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "  Format                .NET EventPipe (.nettrace)\n"));
  assert_non_null (strstr (run.out, "  Events                1\n"));
  assert_null (strstr (run.out, "OS version"));
  assert_null (strstr (run.out, "Buffer"));
  assert_null (strstr (run.out, "EventTrace"));
  assert_null (strstr (run.out, "tid 0 "));
  run_clear (&run);
  run = run_cli ("info", "--format=json", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "\"events\":1,"));
  assert_non_null (strstr (run.out, "\"format\":\"nettrace\",\"os_version\":null,"));
  assert_non_null (strstr (run.out, "\"buffers\":null,"));
  run_clear (&run);
  run = run_cli ("events", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_int_equal (count_of (run.out, "\n"), 1);
  assert_non_null (strstr (run.out, PROVIDER "/Picked"));
  run_clear (&run);

  /* An .etl says so, and keeps its header's rows. */
  et_fixture_nettrace_options_init (&o);
  write_both (f, &o, FALSE, FALSE);
  run = run_cli ("info", f->etl);
  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "  Format                Windows ETW (.etl)\n  OS version"));
  assert_non_null (strstr (run.out, "  Buffers  "));
  run_clear (&run);
  run = run_cli ("info", "--format=json", f->etl);
  assert_non_null (strstr (run.out, "\"format\":\"etl\",\"os_version\":\""));
  run_clear (&run);
}

/* An event written without a processor number (-1: every event of
 * PerfView's test inputs but those of .NET Core 3.0) has no CPU: null in
 * JSON, empty in CSV, not "255"; one with a number keeps it. */
static void
test_unknown_processor (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(EtTrace) trace = NULL;
  EtFields *fields = et_fields_new ();
  EtFixtureEvent ev[2];
  EtEvent decoded;
  Run run;

  et_fixture_payload_add_u32 (p, "item", 7);
  at (&ev[0], 104, 100, 4, 0, 9);
  ev[0].cpu = 2;
  at (&ev[1], 104, 200, 4, 0, 9);
  ev[1].cpu = G_MAXUINT32;
  trace = load_events (f, ev, 2, PROVIDER, "Picked", p);
  assert_int_equal (et_trace_get_n_events (trace), 2);
  et_trace_decode_event (trace, 0, &decoded, fields, NULL);
  assert_int_equal (decoded.cpu, 2);
  et_trace_decode_event (trace, 1, &decoded, fields, NULL);
  assert_int_equal (decoded.cpu, ET_CPU_UNKNOWN);
  et_fields_free (fields);
  run = run_cli ("events", "--format=jsonl", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_int_equal (count_of (run.out, "\"cpu\":2,"), 1);
  assert_int_equal (count_of (run.out, "\"cpu\":null,"), 1);
  run_clear (&run);
  run = run_cli ("events", "--format=csv", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_int_equal (count_of (run.out, ",4242,104,2," PROVIDER ","), 1);
  assert_int_equal (count_of (run.out, ",4242,104,," PROVIDER ","), 1);
  run_clear (&run);
}

/* The reader is chosen by the file's first bytes, not its name. */
static void
test_chosen_by_content (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autofree char *renamed = g_build_filename (f->dir, "renamed.etl", NULL);
  g_autofree char *fake = g_build_filename (f->dir, "fake.nettrace", NULL);
  Run a, b, c;

  et_fixture_nettrace_options_init (&o);
  write_both (f, &o, FALSE, FALSE);
  assert_int_equal (g_rename (f->nettrace, renamed), 0);
  assert_int_equal (g_rename (f->etl, fake), 0);
  a = run_cli ("markers", "--format=jsonl", renamed);
  b = run_cli ("markers", "--format=jsonl", fake);
  assert_int_equal (a.status, 0);
  assert_int_equal (b.status, 0);
  assert_string_equal (a.out, b.out);
  assert_true (g_file_set_contents (fake, "Nettrace but nothing else", -1, NULL));
  c = run_cli ("info", fake);
  assert_int_equal (c.status, 2);
  assert_non_null (strstr (c.err, "byte offset"));
  run_clear (&c);
  /* Format 6 (a new header: reserved 0, major, minor) is refused by name. */
  assert_true (g_file_set_contents (fake, "Nettrace\0\0\0\0\6\0\0\0\0\0\0\0", 20, NULL));
  c = run_cli ("markers", fake);
  assert_int_equal (c.status, 2);
  assert_non_null (strstr (c.err, "version 6"));
  run_clear (&a);
  run_clear (&b);
  run_clear (&c);
}

/* Every command of the CLI reads a .nettrace as it reads an .etl. */
static void
test_every_cli_command (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autofree char *png = g_build_filename (f->dir, "t.png", NULL);
  g_autofree char *head = NULL;
  gsize len = 0;
  Run run;

  et_fixture_nettrace_options_init (&o);
  o.n_processors = 6;
  write_both (f, &o, TRUE, TRUE);
  run = run_cli ("info", "--format=json", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_non_null (strstr (run.out, "\"processors\":6"));
  assert_non_null (strstr (run.out, "\"logger_name\":\"EventPipe (.nettrace)\""));
  assert_non_null (strstr (run.out, "\"ticks_per_second\":10000000"));
  assert_non_null (strstr (run.out, "\"start_time\":\"2024-03-01T20:00:00Z\""));
  assert_non_null (strstr (run.out, "\"name\":\"" PROVIDER "\",\"kind\":\"tracelogging\""));
  run_clear (&run);
  run = run_cli ("markers", "--format=csv", "--kind", "span", "--provider", PROVIDER,
                 f->nettrace);
  assert_int_equal (run.status, 0);
  /* The header, the spans and the lone end. */
  assert_int_equal (count_of (run.out, "\n"), 1 + 40 + 1 + 2 + 1);
  run_clear (&run);
  run = run_cli ("events", "--format=jsonl", "--from", "5ms", "--to", "5.65ms", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_int_equal (count_of (run.out, "\n"), 2);                 /* the cv pair */
  run_clear (&run);
  run = run_cli ("render", "-o", png, "--width", "400", "--height", "300", f->nettrace);
  assert_int_equal (run.status, 0);
  assert_true (g_file_get_contents (png, &head, &len, NULL));
  assert_true (len > 8 && memcmp (head, "\x89PNG", 4) == 0);
  run_clear (&run);
}

/* Damage anywhere: a few hundred mutated copies of a small trace (bytes
 * changed, runs overwritten, cuts) each load with what can be read or fail
 * with an error naming a byte offset; none may crash or hang. Bounded by
 * work: a fixed number of copies of a fixed file. */
static void
test_mutated_files_never_crash (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autofree char *orig = NULL;
  g_autofree char *copy = g_build_filename (f->dir, "m.nettrace", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (22);
  EtFields *fields = et_fields_new ();
  gsize len;
  guint loaded = 0, failed = 0;

  et_fixture_nettrace_options_init (&o);
  o.events_per_block = 10;
  write_both (f, &o, TRUE, TRUE);
  assert_true (g_file_get_contents (f->nettrace, &orig, &len, NULL));
  for (guint k = 0; k < 300; k++)
    {
      g_autofree char *bytes = g_memdup2 (orig, len);
      gsize n = len, at = (gsize) g_rand_int_range (rand, 8, (gint32) len);
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTrace) trace = NULL;

      switch (k % 3)
        {
        case 0:
          for (guint i = 0; i < 4; i++)
            bytes[g_rand_int_range (rand, 8, (gint32) len)] = (char) g_rand_int (rand);
          break;
        case 1:
          memset (bytes + at, 0xFF, MIN (len - at, 12));
          break;
        default:
          n = at;
          break;
        }
      assert_true (g_file_set_contents (copy, bytes, (gssize) n, NULL));
      trace = et_trace_load (copy, 0, NULL, NULL, NULL, &error);
      if (trace == NULL)
        {
          assert_non_null (strstr (error->message, "byte offset"));
          failed++;
          continue;
        }
      loaded++;
      for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
        {
          EtEvent ev;

          et_fields_clear (fields);
          et_trace_decode_event (trace, i, &ev, fields, NULL);
        }
    }
  et_fields_free (fields);
  /* Damage after the Trace object never makes the file unreadable. */
  assert_true (loaded > 250);
  print_message ("# mutated copies: %u loaded, %u refused\n", loaded, failed);
}

static void
on_progress (EtTracePhase phase, guint64 done, guint64 total, gpointer data)
{
  guint64 *last = data;

  assert_true (done <= total);
  if (phase != ET_TRACE_PHASE_READING)
    return;
  /* The opening's 90 % and the walk's rest are one reading, forward. */
  assert_true (done >= last[0]);
  last[0] = done, last[1] = total;
}

/* Loading a .nettrace tells its reading (its bytes) and stops when
 * cancelled. */
static void
test_progress_and_cancel (void **state)
{
  Fixture *f = *state;
  EtFixtureNettraceOptions o;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  guint64 last[2] = { 0, 0 };
  GStatBuf st;

  et_fixture_nettrace_options_init (&o);
  write_both (f, &o, TRUE, FALSE);
  assert_int_equal (g_stat (f->nettrace, &st), 0);
  trace = et_trace_load (f->nettrace, 0, on_progress, last, cancellable, &error);
  assert_non_null (trace);
  assert_int_equal (last[0], st.st_size);
  assert_int_equal (last[1], st.st_size);
  g_cancellable_cancel (cancellable);
  assert_null (et_trace_load (f->nettrace, 0, NULL, NULL, cancellable, &error));
  assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
}

/* ---- conformance with TraceEvent's baselines --------------------------- */

/* How many of the baselines' 230 first-event fields must print as
 * TraceEvent's: the figure reached (160 before the per-heap history, the
 * nested elements and the renamed memory-pressure line); it may only
 * rise. */
#define FIRST_FIELDS_MATCHED 209

typedef struct
{
  guint64 count;
  double  first_ms;
  guint32 pid, tid;
} Seen;

static Seen *
seen_for (GHashTable *table, const char *key)
{
  Seen *s = g_hash_table_lookup (table, key);

  if (s == NULL)
    {
      s = g_new0 (Seen, 1);
      s->first_ms = G_MAXDOUBLE;
      g_hash_table_insert (table, g_strdup (key), s);
    }
  return s;
}

static void
note (Seen *s, guint64 count, double ms, guint32 pid, guint32 tid)
{
  s->count += count;
  if (ms < s->first_ms)
    s->first_ms = ms, s->pid = pid, s->tid = tid;
}

/* One baseline line: "Provider/Event, count, <Event MSec= "t" PID="p" … TID="t" …". */
static gboolean
parse_baseline (const char *line, char **name, guint64 *count, double *ms, guint32 *pid,
                guint32 *tid)
{
  g_autoptr(GRegex) re = g_regex_new ("^(?:\xEF\xBB\xBF)?([^,]+), ([0-9]+), <Event MSec= *\"([0-9.]+)\" "
                                      "PID=\"([0-9]+)\".* TID=\"([0-9]+)\"", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  g_autofree char *c = NULL, *t = NULL, *p = NULL, *th = NULL;

  if (!g_regex_match (re, line, 0, &m))
    return FALSE;
  *name = g_match_info_fetch (m, 1);
  c = g_match_info_fetch (m, 2), t = g_match_info_fetch (m, 3);
  p = g_match_info_fetch (m, 4), th = g_match_info_fetch (m, 5);
  *count = g_ascii_strtoull (c, NULL, 10);
  *ms = g_ascii_strtod (t, NULL);
  *pid = (guint32) g_ascii_strtoull (p, NULL, 10);
  *tid = (guint32) g_ascii_strtoull (th, NULL, 10);
  return TRUE;
}

static gboolean
same (const Seen *a, const Seen *b)
{
  return a != NULL && b != NULL && a->count == b->count && a->pid == b->pid && a->tid == b->tid
         && fabs (a->first_ms - b->first_ms) < 0.0005;
}

/* A baseline line matches the events of our name for it, or else (runtime
 * events, unnamed until their built-in schemas come) the events of one
 * event id of its provider: the same count, and the same first event's
 * pid, tid and time. */
static gboolean
match_line (GHashTable *ours, GHashTable *used, const char *name, const Seen *line)
{
  g_autofree char *provider = g_strndup (name, strcspn (name, "/"));
  g_autofree char *prefix = g_strconcat (provider, "#", NULL);
  GHashTableIter iter;
  gpointer key, value;

  if (same (g_hash_table_lookup (ours, name), line))
    return TRUE;
  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_has_prefix (key, prefix) && !g_hash_table_contains (used, key)
        && same (value, line))
      {
        g_hash_table_add (used, key);
        return TRUE;
      }
  return FALSE;
}

/* A line not matched must be one TraceEvent names otherwise: our events
 * of the names listed for it together are its events (count, first
 * event's pid, tid and time). */
static void
check_renamed_line (GHashTable *ours, const char *name, const Seen *line)
{
  const char *reason = NULL;
  const char *const *names = nettrace_renamed_line (name, &reason);
  Seen sum = { 0, G_MAXDOUBLE, 0, 0 };

  if (names == NULL)
    fail_msg ("baseline line %s (%" G_GUINT64_FORMAT " events) not matched", name, line->count);
  for (guint i = 0; names[i] != NULL; i++)
    {
      const Seen *s = g_hash_table_lookup (ours, names[i]);

      if (s != NULL)
        note (&sum, s->count, s->first_ms, s->pid, s->tid);
    }
  if (!same (&sum, line))
    fail_msg ("baseline line %s: our %s… do not hold its events", name, names[0]);
  print_message ("# not matched by name: %s (%" G_GUINT64_FORMAT " events): %s\n", name,
                 line->count, reason);
}

/* Providers: the first event must be TraceEvent's, and every event it
 * lists must be there (it leaves out event ids its parsers do not know). */
static void
check_lines (const char *trace_path, GHashTable *ours, GHashTable *theirs, guint *lines_ok)
{
  g_autoptr(GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, theirs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const Seen *line = value, *mine = g_hash_table_lookup (ours, key);

      if (strchr (key, '/') != NULL)
        {
          if (match_line (ours, used, key, line))
            (*lines_ok)++;
          else
            check_renamed_line (ours, key, line);
          continue;
        }
      if (mine == NULL || mine->count < line->count || mine->pid != line->pid
          || mine->tid != line->tid || fabs (mine->first_ms - line->first_ms) >= 0.0005)
        fail_msg ("%s: provider %s: %" G_GUINT64_FORMAT " events, first at %.4f ms on "
                  "%u/%u; TraceEvent: %" G_GUINT64_FORMAT " at %.4f ms on %u/%u",
                  trace_path, (char *) key, mine ? mine->count : 0, mine ? mine->first_ms : 0,
                  mine ? mine->pid : 0, mine ? mine->tid : 0, line->count, line->first_ms,
                  line->pid, line->tid);
      if (mine->count > line->count)
        print_message ("# %s: %" G_GUINT64_FORMAT " events of ids TraceEvent does not list\n",
                       (char *) key, mine->count - line->count);
    }
}

/* Every line of the baseline, by its name (provider/event), and every
 * provider's total and first event. Runtime events have no names in the
 * trace's metadata (their built-in schemas are another part's work): their
 * lines cannot match by name yet and are listed; their providers' totals
 * and first events must match. */
static void
check_corpus_file (const char *trace_path, const char *baseline_path, guint *lines_ok,
                   guint *lines)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = et_trace_load (trace_path, 0, NULL, NULL, NULL, &error);
  g_autoptr(GHashTable) ours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) theirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  EtFields *fields = et_fields_new ();
  g_autofree char *text = NULL;
  g_auto(GStrv) baseline = NULL;

  assert_non_null (trace);
  assert_int_equal (et_trace_get_stats (trace)->damage_count, 0);
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      EtEvent ev;
      const char *provider;
      g_autofree char *key = NULL;

      et_fields_clear (fields);
      et_trace_decode_event (trace, i, &ev, fields, NULL);
      provider = et_trace_get_provider (trace, ev.provider)->name;
      key = g_strdup_printf ("%s/%s", provider, ev.name ? ev.name : "");
      note (seen_for (ours, key), 1, ev.time_ns / 1e6, ev.pid, ev.tid);
      note (seen_for (ours, provider), 1, ev.time_ns / 1e6, ev.pid, ev.tid);
      g_free (key);
      key = g_strdup_printf ("%s#%u", provider, ev.id);
      note (seen_for (ours, key), 1, ev.time_ns / 1e6, ev.pid, ev.tid);
    }
  et_fields_free (fields);
  assert_true (g_file_get_contents (baseline_path, &text, NULL, NULL));
  baseline = g_strsplit (text, "\n", -1);
  for (guint i = 0; baseline[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      guint64 count;
      double ms;
      guint32 pid, tid;

      if (!parse_baseline (baseline[i], &name, &count, &ms, &pid, &tid))
        continue;
      (*lines)++;
      note (seen_for (theirs, name), count, ms, pid, tid);
      *strchr (name, '/') = '\0';
      note (seen_for (theirs, name), count, ms, pid, tid);
    }
  check_lines (trace_path, ours, theirs, lines_ok);
}

/* The sample profiler's Thread/Sample events are named as TraceEvent names
 * them and counted per thread as CPU samples: as many as the baseline
 * lists (issue 22: the CPU strip's data). */
static void
test_corpus_samples_per_thread (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *trace_path = corpus ? g_build_filename (corpus, "nettrace",
                                                           "eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
                                                           NULL) : NULL;
  g_autofree char *baseline_path = trace_path ? g_strconcat (trace_path, ".baseline.txt", NULL) : NULL;
  g_autofree char *text = NULL;
  g_autoptr(EtTrace) trace = NULL;
  const char *line;
  guint64 expected, samples = 0;

  if (trace_path == NULL || !g_file_test (trace_path, G_FILE_TEST_EXISTS))
    {
      print_message ("# ../shared/corpus/nettrace is absent: samples per thread not checked\n");
      skip ();
    }
  assert_true (g_file_get_contents (baseline_path, &text, NULL, NULL));
  line = strstr (text, "Microsoft-DotNETCore-SampleProfiler/Thread/Sample, ");
  assert_non_null (line);
  expected = g_ascii_strtoull (strchr (line, ',') + 1, NULL, 10);
  trace = et_trace_load (trace_path, 0, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    samples += et_trace_get_thread (trace, t)->n_samples;
  assert_true (expected > 1000);
  assert_int_equal (samples, expected);
}

/* Our first event of each Provider/Name: its index. */
static GHashTable *
first_events (EtTrace *trace)
{
  GHashTable *firsts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  EtFields *fields = et_fields_new ();

  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      EtEvent ev;
      char *key;

      et_fields_clear (fields);
      et_trace_decode_event (trace, i, &ev, fields, NULL);
      key = g_strdup_printf ("%s/%s", et_trace_get_provider (trace, ev.provider)->name,
                             ev.name ? ev.name : "");
      if (!g_hash_table_contains (firsts, key))
        g_hash_table_insert (firsts, key, GSIZE_TO_POINTER ((gsize) i + 1));
      else
        g_free (key);
    }
  et_fields_free (fields);
  return firsts;
}

/* Our first event (index + 1) of a baseline's name, or of the names we
 * give its events when TraceEvent names them otherwise; 0: none. */
static gsize
first_of (GHashTable *firsts, const char *name)
{
  const char *reason;
  gsize index = GPOINTER_TO_SIZE (g_hash_table_lookup (firsts, name));
  const char *const *names = index == 0 ? nettrace_renamed_line (name, &reason) : NULL;

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      gsize other = GPOINTER_TO_SIZE (g_hash_table_lookup (firsts, names[i]));

      if (other > 0 && (index == 0 || other < index))
        index = other;
    }
  return index;
}

/* Every payload field TraceEvent prints for the first event of each
 * Provider/Event line, nested elements included, against our first event
 * of that name, printed as the baseline prints values (peer-values.c,
 * nettrace-fields.c). */
static void
check_first_fields (const char *trace_path, const char *baseline_path, NettraceTally *tally)
{
  g_autoptr(EtTrace) trace = et_trace_load (trace_path, 0, NULL, NULL, NULL, NULL);
  g_autoptr(GHashTable) firsts = first_events (trace);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  EtFields *fields = et_fields_new ();

  assert_true (g_file_get_contents (baseline_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_autofree char *name = NULL;
      const char *event = strstr (lines[l], "<Event");
      guint64 count;
      double ms;
      guint32 pid, tid;
      gsize index;
      EtEvent ev;

      if (event == NULL || !parse_baseline (lines[l], &name, &count, &ms, &pid, &tid))
        continue;
      index = first_of (firsts, name);
      et_fields_clear (fields);
      if (index > 0)
        et_trace_decode_event (trace, index - 1, &ev, fields, NULL);
      nettrace_compare_fields (name, event, index > 0 ? fields : NULL, tally);
    }
  et_fields_free (fields);
}

static void
test_corpus_conformance (void **state)
{
  const char *corpus = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *dir = corpus ? g_build_filename (corpus, "nettrace", NULL) : NULL;
  g_autoptr(GDir) d = dir ? g_dir_open (dir, 0, NULL) : NULL;
  guint ok = 0, lines = 0, files = 0;
  NettraceTally tally = { 0 };
  const char *name;

  if (d == NULL)
    {
      print_message ("# ../shared/corpus/nettrace not found (ET_CORPUS_DIR=%s): "
                     "corpus conformance not checked\n", corpus ? corpus : "unset");
      skip ();
    }
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".nettrace"))
      {
        g_autofree char *trace = g_build_filename (dir, name, NULL);
        g_autofree char *baseline = g_strconcat (trace, ".baseline.txt", NULL);

        check_corpus_file (trace, baseline, &ok, &lines);
        check_first_fields (trace, baseline, &tally);
        files++;
      }
  assert_int_equal (files, 2);
  print_message ("# nettrace conformance: %u of %u baseline lines match (%.0f %%: count, "
                 "pid, tid, time); every provider's first event matches\n", ok, lines,
                 100.0 * ok / MAX (lines, 1));
  print_message ("# nettrace conformance: %u of %u first-event fields print as TraceEvent's; "
                 "%u differ for a listed reason, %u for none\n", tally.ok, tally.n_fields,
                 tally.documented, tally.unexplained);
  /* Every difference has its reason in nettrace-fields.c (fields a
   * payload's version lacks, values TraceEvent computes), and the number
   * that matches may only rise. */
  assert_int_equal (tally.unexplained, 0);
  if (tally.ok < FIRST_FIELDS_MATCHED)
    fail_msg ("only %u of %u first-event fields match", tally.ok, tally.n_fields);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_format5_compressed_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown (test_format5_uncompressed_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown (test_format4_round_trip, setup, teardown),
    cmocka_unit_test_setup_teardown (test_damaged_block_is_skipped, setup, teardown),
    cmocka_unit_test_setup_teardown (test_cut_file_keeps_what_it_holds, setup, teardown),
    cmocka_unit_test_setup_teardown (test_sequence_gaps_are_lost_events, setup, teardown),
    cmocka_unit_test_setup_teardown (test_chosen_by_content, setup, teardown),
    cmocka_unit_test_setup_teardown (test_process_named_by_process_info, setup, teardown),
    cmocka_unit_test_setup_teardown (test_only_the_files_events, setup, teardown),
    cmocka_unit_test_setup_teardown (test_unknown_processor, setup, teardown),
    cmocka_unit_test_setup_teardown (test_every_cli_command, setup, teardown),
    cmocka_unit_test_setup_teardown (test_mutated_files_never_crash, setup, teardown),
    cmocka_unit_test_setup_teardown (test_progress_and_cancel, setup, teardown),
    cmocka_unit_test (test_corpus_conformance),
    cmocka_unit_test (test_corpus_samples_per_thread),
  };

  if (g_getenv ("ET_CLI") == NULL)
    {
      print_error ("ET_CLI must name the built etlscope-cli\n");
      return 1;
    }
  return cmocka_run_group_tests (tests, NULL, NULL);
}
