/* test-kernel.c — the kernel's classic events: built-in schemas and
 * attribution.
 *
 * On traces written by the fixture writer (kernel records with 4- and
 * 8-byte pointers): Process/Start names its process and command line and
 * belongs to the new process, not the logger; Thread events belong to
 * their thread; CPU samples and CSwitch, whose PERFINFO header names no
 * thread, belong to the thread in their payload and its process; each
 * thread keeps its sample count; SetName names threads; etlscope-cli info
 * lists command lines and samples per thread (text and JSON); a payload
 * too short for its layout is damage with its byte offset. On the corpus: every
 * kernel payload fits its built-in layout, PerfView.exe (3988) is named
 * with its command line, the model's sample counts agree with the decoded
 * samples, and a trace with only the log-file header (lxcore_kernel.etl)
 * decodes it; no reader of the kernel's or the runtime's events takes an
 * EVENT_HEADER record of a provider it does not name (the walk passes
 * those by). Lines compared with PerfView are in test-peer.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "cli-run.h"
#include "et-builtin.h"
#include "et-etl-reader.h"
#include "et-fixture.h"
#include "et-kernel.h"
#include "et-stack-records.h"
#include "et-stack-walks.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

#define LOGGER_PID 900
#define LOGGER_TID 901
#define APP_PID    4120
#define MAIN_TID   4121
#define WORKER_TID 4122
#define STRAY_TID  7777

/* ThreadPoolWorkerThread/Start of the runtime (no payload needed): only a
 * thread-pool worker logs it. */
static void
write_worker_start (EtFixtureWriter *w, gint64 time_ns, guint32 tid)
{
  EtFixtureEvent ev;
  static const guint8 counts[10] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

  et_fixture_event_init (&ev);
  ev.time_ns = time_ns;
  ev.pid = APP_PID;
  ev.tid = tid;
  assert_true (et_guid_parse ("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", &ev.provider));
  ev.id = 50;
  ev.opcode = 1;
  ev.task = 16;
  et_fixture_write_event (w, &ev, NULL, 0, counts, sizeof counts);
}

/* A trace of one process started while tracing: its start, two threads
 * (one named by SetName, both thread-pool workers to the runtime),
 * samples, a context switch, and samples of a thread no event
 * introduces. */
static char *
write_process_trace (guint pointer_size)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-kernel-XXXXXX", NULL);
  char *path = g_build_filename (dir, "kernel.etl", NULL);
  g_autoptr(EtFixtureWriter) w = NULL;
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.pointer_size = pointer_size;
  o.logger_pid = LOGGER_PID;
  o.logger_tid = LOGGER_TID;
  w = et_fixture_writer_new (path, &o, NULL);
  assert_non_null (w);
  et_fixture_write_process (w, 0, 1000, ET_FIXTURE_KERNEL_START, APP_PID, LOGGER_PID,
                            "Contoso.exe", "Contoso.exe --serve");
  et_fixture_write_thread (w, 0, 2000, ET_FIXTURE_KERNEL_START, APP_PID, MAIN_TID, NULL);
  et_fixture_write_thread (w, 1, 3000, ET_FIXTURE_KERNEL_START, APP_PID, WORKER_TID, NULL);
  et_fixture_write_thread_name (w, 1, 3500, APP_PID, WORKER_TID, "Kestrel IO");
  write_worker_start (w, 3600, MAIN_TID);
  write_worker_start (w, 3700, WORKER_TID);
  for (guint i = 0; i < 3; i++)
    et_fixture_write_sample (w, 0, 4000 + 100 * i, MAIN_TID, 0x7FF6A1B21000 + i);
  et_fixture_write_cswitch (w, 1, 4500, WORKER_TID, 0);
  for (guint i = 0; i < 2; i++)
    et_fixture_write_sample (w, 1, 5000 + 100 * i, WORKER_TID, 0x7FF6A1B22000);
  et_fixture_write_sample (w, 1, 6000, STRAY_TID, 0x1000);
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

static const EtThread *
find_thread (EtTrace *trace, guint32 pid, guint32 tid)
{
  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);

      if (t->has_ids && t->pid == pid && t->tid == tid)
        return t;
    }
  return NULL;
}

static const EtProcess *
find_process (EtTrace *trace, guint32 pid)
{
  for (guint i = 0; i < et_trace_get_n_processes (trace); i++)
    {
      const EtProcess *p = et_trace_get_process (trace, i);

      if (p->has_ids && p->pid == pid)
        return p;
    }
  return NULL;
}

/* The first event named @name from @from on, decoded into @e. */
static guint64
find_event (EtTrace *trace, guint64 from, const char *name, EtEvent *e, EtFields *fields)
{
  for (guint64 i = from; i < et_trace_get_n_events (trace); i++)
    if (et_trace_decode_event (trace, i, e, fields, NULL) && strcmp (e->name, name) == 0)
      return i;
  fail_msg ("no event %s", name);
  return 0;
}

static void
check_process_trace (EtTrace *trace)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  const EtProcess *app = find_process (trace, APP_PID);
  const EtThread *main_thread = find_thread (trace, APP_PID, MAIN_TID);
  const EtThread *worker = find_thread (trace, APP_PID, WORKER_TID);
  guint64 i;
  EtEvent e;

  /* Names and command line from Process/Start; SetName's thread name. */
  assert_non_null (app);
  assert_string_equal (app->name, "Contoso.exe");
  assert_string_equal (app->command_line, "Contoso.exe --serve");
  assert_non_null (main_thread);
  assert_non_null (worker);
  assert_string_equal (worker->name, "Kestrel IO");              /* the kernel's name wins */
  assert_string_equal (main_thread->name, ".NET ThreadPool Worker");
  assert_int_equal (main_thread->n_samples, 3);
  assert_int_equal (worker->n_samples, 2);

  /* The process's own start belongs to it, with no thread. */
  find_event (trace, 0, "Process/Start", &e, fields);
  assert_true (e.has_ids);
  assert_int_equal (e.pid, APP_PID);
  assert_int_equal (e.tid, ET_KERNEL_NO_ID);
  assert_string_equal (et_fields_text (fields, et_fields_find (fields, "ImageFileName"), NULL),
                       "Contoso.exe");
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "ParentID"))->v.u, LOGGER_PID);
  /* A thread's start is the thread's, not the logger's. */
  find_event (trace, 0, "Thread/Start", &e, fields);
  assert_int_equal (e.pid, APP_PID);
  assert_int_equal (e.tid, MAIN_TID);
  /* Samples: the payload's thread, and its process from Thread/Start. */
  i = find_event (trace, 0, "PerfInfo/Sample", &e, fields);
  assert_true (e.has_ids);
  assert_int_equal (e.pid, APP_PID);
  assert_int_equal (e.tid, MAIN_TID);
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "ThreadId"))->v.u, MAIN_TID);
  find_event (trace, i, "Thread/CSwitch", &e, fields);
  assert_int_equal (e.pid, APP_PID);
  assert_int_equal (e.tid, WORKER_TID);
  assert_string_equal (et_fields_label (fields, et_fields_find (fields, "OldThreadState")),
                       "Waiting");
  /* A thread no event introduces: its id, no process. */
  i = find_event (trace, i, "PerfInfo/Sample", &e, fields);
  while (e.tid != STRAY_TID)
    i = find_event (trace, i + 1, "PerfInfo/Sample", &e, fields);
  assert_int_equal (e.pid, ET_KERNEL_NO_ID);
  assert_null (find_thread (trace, LOGGER_PID, MAIN_TID));
}

static void
test_process_thread_and_sample_attribution (void **state)
{
  for (guint ps = 4; ps <= 8; ps += 4)
    {
      g_autofree char *path = write_process_trace (ps);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTrace) trace = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL,
                                                &error);
      guint64 samples = 0;

      assert_non_null (trace);
      check_process_trace (trace);
      /* Every sample is some thread's: the stray one the records' without ids. */
      for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
        samples += et_trace_get_thread (trace, t)->n_samples;
      assert_int_equal (samples, 6);
      assert_int_equal (et_trace_get_stats (trace)->damage_count, 0);
      et_fixture_remove_dir (dir);
    }
}

static JsonObject *
json_entry (JsonObject *info, const char *list, const char *key, gint64 value)
{
  JsonArray *a = json_object_get_array_member (info, list);

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);

      if (!json_object_get_null_member (o, key) && json_object_get_int_member (o, key) == value)
        return o;
    }
  fail_msg ("no %s with %s %" G_GINT64_FORMAT, list, key, value);
  return NULL;
}

/* What etlscope-cli info says of the same trace. */
static void
test_cli_info_lists_command_lines_and_samples (void **state)
{
  g_autofree char *path = write_process_trace (8);
  g_autofree char *dir = g_path_get_dirname (path);
  Run text = run_cli ("info", path);
  Run json = run_cli ("info", "--format=json", path);
  g_autoptr(JsonObject) info = NULL;
  JsonObject *o;

  assert_int_equal (text.status, 0);
  assert_non_null (strstr (text.out, "Contoso.exe  Contoso.exe --serve\n"));
  assert_non_null (strstr (text.out, "3 CPU samples\n"));
  assert_non_null (strstr (text.out, "Kestrel IO"));
  assert_int_equal (json.status, 0);
  info = parse_object (json.out, -1);
  o = json_entry (info, "processes", "pid", APP_PID);
  assert_string_equal (json_object_get_string_member (o, "command_line"), "Contoso.exe --serve");
  o = json_entry (info, "threads", "tid", MAIN_TID);
  assert_int_equal (json_object_get_int_member (o, "samples"), 3);
  assert_int_equal (json_object_get_int_member (o, "pid"), APP_PID);
  assert_int_equal (json_object_get_int_member (json_entry (info, "threads", "tid", WORKER_TID),
                                                "samples"), 2);
  run_clear (&text);
  run_clear (&json);
  et_fixture_remove_dir (dir);
}

/* A Process/Start cut inside its UserSID: decoding fails with the field
 * and payload offset, the load counts it as damage at the record's byte
 * offset, and attribution still reads only what is there. */
static void
test_short_kernel_payload_is_damage (void **state)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-kernel-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "short.etl", NULL);
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GError) error = NULL;
  static const guint8 cut[] = { 0, 0x80, 0x4A, 0x2C, 0x0F, 0x8B, 0xFF, 0xFF,   /* key */
                                0x18, 0x10, 0, 0, 0x84, 0x03, 0, 0,             /* pid, parent */
                                1, 0, 0, 0, 3, 1, 0, 0,                         /* session, exit */
                                0, 0xD0, 0x1A, 0, 0, 0, 0, 0, 0, 0, 0, 0,       /* table, flags */
                                0x20, 0x7C };                                   /* SID, cut */
  EtFixtureWhere where = { 0, 1000, LOGGER_PID, LOGGER_TID };
  EtFixtureOptions o;
  const EtDamage *damage;
  guint n_damage = 0;
  EtEvent e;

  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, NULL);
  et_fixture_write_system (w, &where, 8, FALSE, ET_KERNEL_GROUP_PROCESS, 1, 4, cut, sizeof cut);
  assert_true (et_fixture_writer_close (w, NULL));
  trace = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      g_clear_error (&error);
      if (!et_trace_decode_event (trace, i, &e, fields, &error) && e.id == 1)
        break;
    }
  assert_non_null (error);
  assert_string_equal (e.name, "Process/Start");
  assert_true (e.decode_failed);
  assert_non_null (strstr (error->message, "UserSID"));
  assert_int_equal (e.pid, 0x1018);              /* the payload's, read before the cut */
  damage = et_trace_get_damage (trace, &n_damage);
  assert_int_equal (n_damage, 1);
  assert_non_null (strstr (damage[0].message, "byte offset"));
  assert_non_null (strstr (damage[0].message, "UserSID"));
  et_fixture_remove_dir (dir);
}

/* ---- the corpus -------------------------------------------------------- */

static char *
corpus_path (const char *name)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      print_message ("# corpus not found at %s: %s not checked\n",
                     dir ? dir : "(ET_CORPUS_DIR is not set)", name);
      return NULL;
    }
  return g_build_filename (dir, name, NULL);
}

/* Calls @func for every record of the corpus traces @traces, in file
 * order; FALSE (nothing walked) without the corpus. */
static gboolean
walk_corpus (const char *const *traces, guint n, EtRecordFunc func, gpointer data)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = corpus_path (traces[i]);
      g_autoptr(EtEtlFile) file = NULL;

      if (path == NULL)
        return FALSE;
      file = et_etl_file_open (path, NULL, NULL, NULL);
      assert_non_null (file);
      for (guint b = 0; b < et_etl_file_n_buffers (file); b++)
        et_etl_file_walk_buffer (file, b, func, data);
    }
  return TRUE;
}

typedef struct
{
  EtFields *fields;
  guint     n_decoded, n_exact, n_partial, n_failed, n_unknown;
} CorpusTally;

/* Kernel types of the corpus with no documented layout (no schema):
 * EventTrace 80, SystemConfig 18 and 28, KernelTraceControl SysConfig 37. */
static gboolean
is_undocumented (const EtGuid *klass, guint type)
{
  char text[ET_GUID_STRING_LEN];

  et_guid_to_string (klass, text);
  return (g_str_has_prefix (text, "68fdd900") && type == 80)
         || (g_str_has_prefix (text, "01853a65") && (type == 18 || type == 28))
         || (g_str_has_prefix (text, "9b79ee91") && type == 37);
}

/* Layouts that stop before their payload does: PnP version 4 records of
 * newer Windows carry 16-18 bytes after ServiceName that no public
 * document describes. */
static gboolean
is_partial (const EtManifestEvent *e)
{
  return strcmp (e->name, "SystemConfig/PnP") == 0 && e->version == 4;
}

typedef enum { FIT_WHOLE, FIT_PREFIX, FIT_NONE } Fit;

/* How @record's payload fits layout @e: all of it (records are padded to
 * 8 bytes at most), a prefix (said, unless the layout is a known partial
 * one), or not at all (said, with the decoder's reason). */
static Fit
fit_of (const EtManifest *manifest, const EtManifestEvent *e, const EtRecord *record,
        EtFields *fields)
{
  g_autoptr(GError) error = NULL;
  gsize used = 0;

  et_fields_clear (fields);
  if (!et_manifest_decode (manifest, e, record->payload, record->payload_len,
                           record->pointer_size, fields, &used, &error))
    {
      print_message ("# %s: %s\n", e->name, error->message);
      return FIT_NONE;
    }
  if (used + 8 > record->payload_len)
    return FIT_WHOLE;
  if (!is_partial (e))
    print_message ("# %s version %u: %zu of %zu payload bytes laid out\n", e->name,
                   record->version, used, record->payload_len);
  return FIT_PREFIX;
}

static void
decode_kernel_record (const EtRecord *record, guint buffer, gsize pos, gpointer data)
{
  CorpusTally *t = data;
  const EtManifest *manifest = NULL;
  const EtManifestEvent *e;
  EtGuid guid = record->guid;
  const char *name;

  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    et_kernel_class_for_hook (record->hook, &guid, &name);
  else if (record->klass != ET_RECORD_FULL || !et_builtin_has (&guid))
    return;
  e = et_builtin_lookup (&guid, record->opcode, record->version, &manifest);
  if (e == NULL)
    {
      if (is_undocumented (&guid, record->opcode))
        return;
      t->n_unknown++;
      print_message ("# no layout for hook 0x%04x (class %08x) type %u version %u\n", record->hook,
                     guid.data1, record->opcode, record->version);
      return;
    }
  t->n_decoded++;
  switch (fit_of (manifest, e, record, t->fields))
    {
    case FIT_WHOLE:
      t->n_exact++;
      break;
    case FIT_PREFIX:
      t->n_partial += is_partial (e);
      t->n_failed += !is_partial (e);
      break;
    case FIT_NONE:
      t->n_failed++;
      break;
    }
}

static void
test_corpus_kernel_payloads_fit_their_layouts (void **state)
{
  static const char *const traces[] = {
    "net.4.5.2.x64.etl", "ShutdownPerfDiagLogger.etl", "SelfDescribingSingleEvent.etl",
    "lxcore_kernel.etl", "gcevents.etl",
  };
  CorpusTally t = { 0 };

  t.fields = et_fields_new ();
  if (!walk_corpus (traces, G_N_ELEMENTS (traces), decode_kernel_record, &t))
    {
      et_fields_free (t.fields);
      skip ();
      return;
    }
  et_fields_free (t.fields);
  print_message ("# kernel events of the corpus: %u decoded, %u their whole payload, "
                 "%u by a partial layout, %u failed, %u without a layout\n", t.n_decoded,
                 t.n_exact, t.n_partial, t.n_failed, t.n_unknown);
  assert_true (t.n_decoded > 100000);
  assert_int_equal (t.n_failed, 0);
  assert_int_equal (t.n_unknown, 0);
  assert_true (t.n_partial < 10);
}

/* What the walk's readers of the kernel's and the runtime's events make of
 * the corpus's EVENT_HEADER records, by whether their provider is one of
 * theirs (the walk passes by the others' records, et-trace-load.c). */
typedef struct
{
  guint read, plain;          /* records of providers read, of others */
  guint found;                /* records of providers read that one of them took */
  guint own_stacks;           /* others' records with a stack of their own */
} PlainTally;

static void
tally_plain_record (const EtRecord *record, guint buffer, gsize pos, gpointer data)
{
  PlainTally *t = data;
  EtKernelName name = { 0 };
  EtStackWalkKind walk;
  gboolean taken;

  (void) buffer, (void) pos;
  if (record->klass != ET_RECORD_EVENT)
    return;
  walk = et_stack_walk_kind (record);
  taken = et_is_thread_sample (record) || et_runtime_thread_role (record) != NULL
          || et_eventpipe_process_name (record, &name) || et_stack_is_clr_event (record)
          || et_stack_record_kind (record) != ET_STACK_RECORD_NONE
          || (walk != ET_STACK_WALK_NONE && walk != ET_STACK_WALK_ITEM);
  g_free (name.name);
  g_free (name.command_line);
  if (et_kernel_reads_provider (&record->guid) || et_stack_walks_read_provider (&record->guid)
      || et_stack_records_read_provider (&record->guid))
    {
      t->read++;
      t->found += taken;
      return;
    }
  /* none of them takes another provider's record: passing it by loses nothing */
  assert_false (taken);
  assert_int_equal (walk == ET_STACK_WALK_ITEM, et_stack_has_own_stack (record));
  t->plain++;
  t->own_stacks += walk == ET_STACK_WALK_ITEM;
}

static void
test_corpus_plain_providers_pass_by_every_reader (void **state)
{
  static const char *const traces[] = {
    "net.4.5.2.x64.etl", "ShutdownPerfDiagLogger.etl", "SelfDescribingSingleEvent.etl",
    "gcevents.etl", "AMSITrace.etl", "primitive-types.etl",
  };
  static const char *const read[] = {
    "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4",   /* the runtime */
    "a669021c-c450-4609-a035-5af59af4df18",   /* its rundown */
    "763fd754-7086-4dfe-95eb-c01a46faf4ca",   /* its private provider */
    "8e9f5090-2d75-4d03-8a81-e5afbf85daf1",   /* FrameworkEventSource */
    "92f528a6-f5b8-5160-a7ee-b33da7739e29",   /* EventPipe (ProcessInfo) */
    "3c530d44-97ae-513a-1e6d-783e8f8e03a9",   /* EventPipe's sample profiler */
    "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3",   /* the kernel's StackWalk */
    "2cb15d1d-5fc1-11d2-abe1-00a0c911f518",   /* the kernel's Image */
  };
  PlainTally t = { 0 };
  EtGuid guid;

  (void) state;
  for (guint i = 0; i < G_N_ELEMENTS (read); i++)
    {
      assert_true (et_guid_parse (read[i], &guid));
      assert_true (et_kernel_reads_provider (&guid) || et_stack_walks_read_provider (&guid)
                   || et_stack_records_read_provider (&guid));
    }
  if (!walk_corpus (traces, G_N_ELEMENTS (traces), tally_plain_record, &t))
    {
      skip ();
      return;
    }
  print_message ("# EVENT_HEADER records of the corpus: %u of providers read (%u taken), "
                 "%u of others (%u with a stack of their own)\n", t.read, t.found, t.plain,
                 t.own_stacks);
  /* both kinds are there, and the readers did find theirs */
  assert_true (t.read > 1000 && t.found > 1000);
  assert_true (t.plain > 100);
}

/* PerfView's own process, named with its command line; the model's
 * samples per thread are the decoded samples of that thread. */
static void
test_corpus_perfview_trace (void **state)
{
  g_autofree char *path = corpus_path ("net.4.5.2.x64.etl");
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(GHashTable) by_thread = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
  const EtProcess *perfview;
  guint64 n_samples = 0, n_in_model = 0;

  if (path == NULL)
    {
      skip ();
      return;
    }
  trace = et_trace_load (path, 0, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  perfview = find_process (trace, 3988);
  assert_non_null (perfview);
  assert_string_equal (perfview->name, "PerfView.exe");
  assert_non_null (perfview->command_line);
  assert_non_null (strstr (perfview->command_line, "\\PerfView.exe"));
  assert_string_equal (find_process (trace, 3676)->name, "Test.x64.exe");

  g_array_set_size (keys, et_trace_get_n_events (trace));
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      EtEvent e;
      guint64 *key = &g_array_index (keys, guint64, i);

      if (!et_trace_decode_event (trace, i, &e, fields, NULL)
          || strcmp (e.name, "PerfInfo/Sample") != 0 || e.pid == ET_KERNEL_NO_ID)
        continue;
      *key = (guint64) e.pid << 32 | e.tid;
      g_hash_table_insert (by_thread, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (
        g_hash_table_lookup (by_thread, key)) + 1));
      n_samples++;
    }
  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    {
      const EtThread *t = et_trace_get_thread (trace, i);
      guint64 key = (guint64) t->pid << 32 | t->tid;

      if (!t->has_ids)
        continue;
      assert_int_equal (t->n_samples, GPOINTER_TO_SIZE (g_hash_table_lookup (by_thread, &key)));
      n_in_model += t->n_samples;
    }
  print_message ("# net.4.5.2.x64: %" G_GUINT64_FORMAT " samples of known threads\n", n_samples);
  assert_true (n_samples > 70000);
  assert_int_equal (n_in_model, n_samples);
  assert_true (find_thread (trace, 3676, 3680)->n_samples > 5000);
}

/* A trace whose only kernel record is the log-file header. */
static void
test_corpus_header_only_trace (void **state)
{
  g_autofree char *path = corpus_path ("lxcore_kernel.etl");
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(EtFields) fields = et_fields_new ();
  EtEvent e;

  if (path == NULL)
    {
      skip ();
      return;
    }
  trace = et_trace_load (path, 0, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  assert_true (et_trace_decode_event (trace, 0, &e, fields, NULL));
  assert_string_equal (e.name, "EventTrace");
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "PointerSize"))->v.u,
                    et_trace_get_header (trace)->pointer_size);
  assert_int_equal (et_fields_get (fields, et_fields_find (fields, "BufferSize"))->v.u,
                    et_trace_get_header (trace)->buffer_size);
  assert_string_equal (et_fields_text (fields, et_fields_find (fields, "SessionName"), NULL),
                       et_trace_get_header (trace)->logger_name);
  assert_int_equal (et_trace_get_stats (trace)->damage_count, 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_process_thread_and_sample_attribution),
    cmocka_unit_test (test_cli_info_lists_command_lines_and_samples),
    cmocka_unit_test (test_short_kernel_payload_is_damage),
    cmocka_unit_test (test_corpus_kernel_payloads_fit_their_layouts),
    cmocka_unit_test (test_corpus_plain_providers_pass_by_every_reader),
    cmocka_unit_test (test_corpus_perfview_trace),
    cmocka_unit_test (test_corpus_header_only_trace),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
