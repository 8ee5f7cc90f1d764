/* test-damage.c — hostile and damaged files through the whole load
 * (et_trace_load): truncation, bit flips, impossible buffer and record
 * sizes, records crossing buffer ends, bad compressed streams, broken
 * manifests, lying TraceLogging metadata, and the limits that keep memory
 * and work bounded. Every damaged file is made by the fixture writer (and,
 * when present, cut from the real corpus). For each: no crash, work
 * bounded by the input's size (never a wall-clock limit), a damage message
 * naming a byte offset, and every record in a buffer the damage did not
 * touch still there.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "et-etl-reader.h"
#include "et-mapping.h"
#include "et-fixture.h"
#include "et-fixture-nettrace.h"
#include "et-trace.h"
#include "et-xpress-compress.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#define MS (G_GINT64_CONSTANT (1000000))

typedef struct
{
  char            *dir;
  char            *base;      /* the undamaged file */
  char            *path;      /* the damaged copy */
  EtFixtureLayout *layout;    /* of the undamaged file */
  GArray          *counts;    /* guint per buffer: records of the undamaged file */
  guint64          records;
} Fixture;

/* ---- the undamaged traces -------------------------------------------------- */

static void
add_manifest_provider (EtFixtureWriter *w, EtFixtureProvider **out, gsize chunk, gint drop)
{
  static const EtFixtureFieldDef fields[] = {
    { "Item", ET_FIXTURE_UINT32 }, { "Name", ET_FIXTURE_UNICODE_STRING },
  };
  EtFixtureEventDef def = { 1, 0, "Work", 4, 1, 0, 0, "Item %1 named %2", fields, 2 };
  EtFixtureWhere where = { 0, 1 * MS, 100, 101 };
  EtFixtureProvider *p = et_fixture_provider_new ("Damage-Test-Source");

  et_fixture_provider_add_event (p, &def);
  def.id = 2, def.name = "WorkStop", def.opcode = 2;
  et_fixture_provider_add_event (p, &def);
  et_fixture_write_manifest (w, p, &where, chunk, drop);
  *out = p;
}

/* Kernel names, a manifest provider, TraceLogging events with a struct,
 * on four CPUs in 4 KiB buffers: about twenty buffers of every record kind
 * the loader reads. */
static void
write_mixed (const char *path, gboolean compress, guint pointer_size, gsize chunk, gint drop)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixtureProvider) provider = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.buffer_size = 4096;
  o.compress = compress;
  o.pointer_size = pointer_size;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  et_fixture_write_process (w, 0, 1000, 3, 100, 4, "Server.exe", "Server.exe --port 80");
  et_fixture_write_thread_name (w, 0, 2000, 100, 101, "Request loop");
  add_manifest_provider (w, &provider, chunk, drop);
  for (guint i = 0; i < 240; i++)
    {
      EtFixtureEvent ev;
      et_fixture_event_init (&ev);
      ev.cpu = i % 4, ev.time_ns = 10 * MS + i * MS, ev.pid = 100, ev.tid = 101 + i % 3;
      et_fixture_payload_reset (p);
      et_fixture_payload_add_u32 (p, "Item", i);
      et_fixture_payload_add_utf16 (p, "Name", i % 2 ? "odd item" : "even");
      if (i % 3 == 0)
        et_fixture_write_manifest_event (w, provider, &ev, 1 + i % 2, p);
      else
        {
          et_fixture_payload_begin_struct (p, "Where");
          et_fixture_payload_add_i64 (p, "X", -(gint64) i);
          et_fixture_payload_add_ansi (p, "Host", "host");
          et_fixture_payload_end_struct (p);
          ev.opcode = i % 7 == 1 ? 1 : 0;
          et_fixture_write_tl_event (w, &ev, "Damage.Test", "Step", p, NULL);
        }
      if (i % 50 == 0)
        et_fixture_write_thread (w, i % 4, 10 * MS + i * MS, 1, 100, 200 + i, NULL);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

/* ---- loading and checking ------------------------------------------------- */

/* The work a load did, bounded by its input instead of by the clock (a
 * slow or shared machine must never fail a correct build): a record takes
 * 8 bytes at least, of the file or of what its compressed buffers expand
 * to (at most MAX_EXPANSION times the file, et-etl-reader.c), and each
 * problem is found at a record, a buffer or a skipped range of bytes. */
#define MAX_EXPANSION 16

static void
assert_work_bounded (EtTrace *t, const char *path)
{
  const EtTraceStats *s = et_trace_get_stats (t);
  guint64 bytes = s->file_size * (1 + MAX_EXPANSION);

  if (s->records > bytes / 8 || s->damage_count > s->records + s->buffers + s->file_size / 8 + 16)
    fail_msg ("%s (%" G_GUINT64_FORMAT " bytes): %" G_GUINT64_FORMAT " records and %"
              G_GUINT64_FORMAT " problems, more than its bytes can hold", path, s->file_size,
              s->records, s->damage_count);
}

static EtTrace *
checked_load (const char *path, GError **error)
{
  EtTrace *t = et_trace_load (path, ET_LOAD_ALL_PROVIDERS, NULL, NULL, NULL, error);

  if (t != NULL)
    assert_work_bounded (t, path);
  return t;
}

static guint
buffer_of (const EtFixtureLayout *layout, guint64 offset)
{
  guint lo = 0, hi = layout->buffers->len;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (et_fixture_layout_buffer_offset (layout, mid) <= offset)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* Records per buffer of @layout, from where each event says it is. */
static GArray *
count_per_buffer (EtTrace *t, const EtFixtureLayout *layout)
{
  GArray *counts = g_array_new (FALSE, TRUE, sizeof (guint));
  EtFields *fields = et_fields_new ();

  g_array_set_size (counts, layout->buffers->len);
  for (guint64 i = 0; i < et_trace_get_n_events (t); i++)
    {
      EtEvent ev;
      et_trace_decode_event (t, i, &ev, fields, NULL);
      g_array_index (counts, guint, buffer_of (layout, ev.file_offset))++;
    }
  et_fields_free (fields);
  return counts;
}

static void
use_base (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;

  g_clear_pointer (&f->layout, et_fixture_layout_free);
  g_clear_pointer (&f->counts, g_array_unref);
  f->layout = et_fixture_layout_read (f->base, &error);
  g_assert_no_error (error);
  t = checked_load (f->base, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_stats (t)->damage_count, 0);
  f->counts = count_per_buffer (t, f->layout);
  f->records = et_trace_get_stats (t)->records;
}

static void
fresh_copy (Fixture *f)
{
  g_autofree char *data = NULL;
  gsize len;

  assert_true (g_file_get_contents (f->base, &data, &len, NULL));
  assert_true (g_file_set_contents (f->path, data, len, NULL));
}

static void
assert_damage_named (EtTrace *t, const char *path)
{
  guint n = 0;
  const EtDamage *d = et_trace_get_damage (t, &n);

  assert_true (et_trace_get_stats (t)->damage_count >= 1);
  assert_true (n >= 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, d[i].offset);
      if (strstr (d[i].message, where) == NULL || strstr (d[i].message, path) == NULL)
        fail_msg ("damage message without its file and offset: %s", d[i].message);
    }
}

/* Loads the damaged copy: damage is reported with offsets, and every
 * buffer outside [@from, @to] keeps all its records. Returns the trace. */
static EtTrace *
load_damaged (Fixture *f, guint from, guint to)
{
  g_autoptr(GError) error = NULL;
  EtTrace *t = checked_load (f->path, &error);
  g_autoptr(GArray) counts = NULL;

  g_assert_no_error (error);
  assert_non_null (t);
  assert_damage_named (t, f->path);
  counts = count_per_buffer (t, f->layout);
  for (guint b = 0; b < counts->len; b++)
    if ((b < from || b > to)
        && g_array_index (counts, guint, b) != g_array_index (f->counts, guint, b))
      fail_msg ("buffer %u (untouched) has %u records, %u before the damage", b,
                g_array_index (counts, guint, b), g_array_index (f->counts, guint, b));
  return t;
}

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("et-damage-XXXXXX", NULL);
  f->base = g_build_filename (f->dir, "base.etl", NULL);
  f->path = g_build_filename (f->dir, "damaged.etl", NULL);
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  g_unlink (f->base);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_clear_pointer (&f->layout, et_fixture_layout_free);
  g_clear_pointer (&f->counts, g_array_unref);
  g_free (f->dir);
  g_free (f->base);
  g_free (f->path);
  g_free (f);
  return 0;
}

/* ---- truncation ----------------------------------------------------------- */

static void
test_truncation_at_every_buffer_boundary_keeps_earlier_buffers (void **state)
{
  Fixture *f = *state;
  guint n;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  n = f->layout->buffers->len;
  assert_true (n > 8);
  for (guint b = 1; b < n; b++)
    {
      g_autoptr(EtTrace) t = NULL;
      fresh_copy (f);
      assert_true (et_fixture_damage_truncate (f->path, et_fixture_layout_buffer_offset (f->layout, b), NULL));
      t = load_damaged (f, b, n - 1);
    }
}

static void
test_truncation_inside_records_keeps_everything_before_the_cut (void **state)
{
  Fixture *f = *state;
  guint n_records;

  write_mixed (f->base, FALSE, 4, 0, -1);
  use_base (f);
  n_records = f->layout->records->len;
  for (guint k = 3; k < n_records; k += n_records / 11)
    {
      const EtFixtureRecordInfo *r = &g_array_index (f->layout->records, EtFixtureRecordInfo, k);
      guint64 cuts[] = { r->offset + 1, r->offset + r->size / 2, r->offset + r->size - 1 };

      for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
        {
          g_autoptr(EtTrace) t = NULL;
          fresh_copy (f);
          assert_true (et_fixture_damage_truncate (f->path, cuts[c], NULL));
          t = load_damaged (f, r->buffer, f->layout->buffers->len - 1);
        }
    }
}

static void
test_truncation_inside_the_header_is_an_error_naming_the_offset (void **state)
{
  Fixture *f = *state;
  static const guint64 cuts[] = { 0, 1, 0x47, 0x48, 0x60, 0x100 };

  write_mixed (f->base, FALSE, 8, 0, -1);
  for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTrace) t = NULL;
      fresh_copy (f);
      assert_true (et_fixture_damage_truncate (f->path, cuts[c], NULL));
      t = checked_load (f->path, &error);
      if (t == NULL)
        {
          assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL));
          assert_non_null (strstr (error->message, "byte offset"));
        }
      else
        assert_damage_named (t, f->path);
    }
}

/* ---- files that shrink while they are read -------------------------------- */

typedef struct
{
  const char *path;
  guint64     cut;       /* the length the file is cut to at the first damage */
  gboolean    cut_done;
  guint64     shrank_at; /* G_MAXUINT64 until the reader says it shrank */
} Shrinking;

/* The first damage the reader reports (a deliberate one early in the file)
 * cuts the file while the reader still walks it, as another writer would. */
static void
cut_on_first_damage (guint64 offset, const char *message, gpointer data)
{
  Shrinking *s = data;

  if (strstr (message, "shrank while it was read") != NULL)
    {
      assert_non_null (strstr (message, s->path));
      s->shrank_at = offset;
    }
  if (!s->cut_done)
    {
      s->cut_done = TRUE;
      assert_true (et_fixture_damage_truncate (s->path, s->cut, NULL));
    }
}

static void
count_record (const EtRecord *record, guint buffer, gsize pos, gpointer data)
{
  (*(guint *) data)++;
}

/* Buffer @damaged states an impossible size (reported early, while the
 * buffer headers are walked); at that moment the file is cut inside buffer
 * @cut_in. The reader must not die of SIGBUS: it says from which byte on
 * the file is gone and keeps every buffer before the cut whole. */
static void
check_shrinking_while_opened (Fixture *f, guint damaged, guint cut_in, guint64 into)
{
  Shrinking s = { f->path, et_fixture_layout_buffer_offset (f->layout, cut_in) + into,
                  FALSE, G_MAXUINT64 };
  guint64 at = et_fixture_layout_buffer_offset (f->layout, damaged) + 0x30;
  guint32 zero;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtEtlFile) file = NULL;

  fresh_copy (f);
  zero = GUINT32_TO_LE (0x7FFFFFFF);
  assert_true (et_fixture_damage_write (f->path, at, &zero, 4, NULL));
  file = et_etl_file_open (f->path, cut_on_first_damage, &s, &error);
  g_assert_no_error (error);
  assert_true (s.cut_done);
  assert_int_equal (s.shrank_at, s.cut);
  assert_int_equal (et_etl_file_size (file), s.cut);
  assert_true (et_etl_file_n_buffers (file) <= cut_in + 1);
  assert_true (et_etl_file_n_buffers (file) >= cut_in);
  for (guint b = 0; b < cut_in; b++)
    {
      guint n = 0;
      if (b == damaged)
        continue;
      assert_int_equal (et_etl_file_walk_buffer (file, b, count_record, &n), 0);
      assert_int_equal (n, g_array_index (f->counts, guint, b));
    }
  /* what is left of the buffer the cut crosses walks without a signal */
  for (guint b = cut_in; b < et_etl_file_n_buffers (file); b++)
    {
      guint n = 0;
      et_etl_file_walk_buffer (file, b, count_record, &n);
      assert_true (n <= g_array_index (f->counts, guint, b));
    }
}

static void
test_a_file_cut_while_it_is_opened_keeps_what_came_before (void **state)
{
  Fixture *f = *state;
  guint n;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  n = f->layout->buffers->len;
  check_shrinking_while_opened (f, 1, n / 2, 1000);
  check_shrinking_while_opened (f, 1, n / 2, 0);
  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  n = f->layout->buffers->len;
  check_shrinking_while_opened (f, 1, n / 2, 100);
  check_shrinking_while_opened (f, 2, n - 1, 0);
  /* With two threads forced, the file's pages are mapped from its end
   * back while its buffers are walked (et_mapping_prefault_begin, which
   * only a large file gets otherwise): the same whoever finds the cut. */
  g_setenv ("ETLSCOPE_THREADS", "2", TRUE);
  check_shrinking_while_opened (f, 1, n / 2, 100);
  check_shrinking_while_opened (f, 2, n - 1, 0);
  g_unsetenv ("ETLSCOPE_THREADS");
}

typedef struct
{
  const char *path;
  guint64     cut;
  gboolean    done;
} CutOnProgress;

static void
cut_on_first_progress (EtTracePhase phase, guint64 done, guint64 total, gpointer data)
{
  CutOnProgress *c = data;

  if (!c->done)
    assert_true (et_fixture_damage_truncate (c->path, c->cut, NULL));
  c->done = TRUE;
}

/* Records are walked after the buffer headers: a file cut then (at the
 * first progress report) is said to have shrunk, where it now ends, and
 * the buffers before the cut keep their records. */
static void
test_a_file_cut_while_its_records_are_walked_says_so (void **state)
{
  Fixture *f = *state;
  CutOnProgress c = { f->path, 0, FALSE };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  g_autofree char *where = NULL;
  g_autoptr(GArray) counts = NULL;
  const EtDamage *d;
  guint n = 0, shrank = 0;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  fresh_copy (f);
  c.cut = et_fixture_layout_buffer_offset (f->layout, f->layout->buffers->len / 2) + 100;
  t = et_trace_load (f->path, ET_LOAD_ALL_PROVIDERS, cut_on_first_progress, &c, NULL, &error);
  g_assert_no_error (error);
  assert_true (c.done);
  d = et_trace_get_damage (t, &n);
  for (guint i = 0; i < n; i++)
    shrank += d[i].offset == c.cut && strstr (d[i].message, "shrank while it was read") != NULL;
  assert_int_equal (shrank, 1);
  counts = count_per_buffer (t, f->layout);
  for (guint b = 0; b < f->layout->buffers->len / 2; b++)
    assert_int_equal (g_array_index (counts, guint, b), g_array_index (f->counts, guint, b));
}

/* Mapping a file's pages from its end back (et_mapping_prefault_begin,
 * on a thread of its own) over a file cut since it was mapped: the
 * thread does not die of SIGBUS, the mapping says from which page on the
 * file is gone, and the bytes before it are the file's, those after
 * zeros. */
static void
test_mapping_a_cut_file_from_its_end_finds_the_cut (void **state)
{
  Fixture *f = *state;
  gsize len = 16 * 65536 + 1000, cut = 5 * 65536 + 123, page = (gsize) sysconf (_SC_PAGESIZE);
  g_autofree guint8 *bytes = g_malloc (len);
  g_autoptr(GMappedFile) mapped = NULL;
  const guint8 *data;
  EtMapping *watch;
  EtPrefault *prefault;

  for (gsize i = 0; i < len; i++)
    bytes[i] = (guint8) (i * 7 + 1) | 1;     /* never zero */
  assert_true (g_file_set_contents (f->path, (const char *) bytes, len, NULL));
  mapped = g_mapped_file_new (f->path, FALSE, NULL);
  assert_non_null (mapped);
  data = (const guint8 *) g_mapped_file_get_contents (mapped);
  watch = et_mapping_watch (data, len);
  assert_non_null (watch);
  assert_true (et_fixture_damage_truncate (f->path, cut, NULL));
  g_setenv ("ETLSCOPE_THREADS", "2", TRUE);
  prefault = et_mapping_prefault_begin (data, len);
  g_unsetenv ("ETLSCOPE_THREADS");
  assert_non_null (prefault);
  while (!et_mapping_prefault_done (prefault))
    g_thread_yield ();
  et_mapping_prefault_end (prefault);
  /* It reads a byte in every 64 KiB: the first it found gone is past the
   * cut by less than that, and every page from there on reads as zeros. */
  assert_true (et_mapping_lost_from (watch) > cut);
  assert_true (et_mapping_lost_from (watch) <= cut + 65536);
  for (gsize i = et_mapping_lost_from (watch); i < len; i += page)
    assert_int_equal (data[i], 0);
  /* The reader coming after it finds the page after the cut's gone (the
   * page the cut is in keeps the file's bytes before the cut). */
  assert_memory_equal (data, bytes, cut);
  assert_int_equal (data[(cut + page - 1) & ~(page - 1)], 0);
  assert_int_equal (et_mapping_lost_from (watch), (cut + page - 1) & ~(page - 1));
  et_mapping_unwatch (watch);
}

/* A .nettrace file is read whole while it is opened: cut then (at its
 * first progress report, after 4 MiB), it is said to have shrunk; the
 * same with two threads forced, its pages then mapped from its end back
 * while it is read (et_mapping_prefault_begin). */
static void
check_nettrace_cut_while_read (Fixture *f, const char *threads)
{
  CutOnProgress c = { f->path, 6u << 20, FALSE };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  const EtDamage *d;
  guint n = 0, shrank = 0;

  assert_true (et_fixture_write_nettrace_large (f->path, 400000, 7, &error));
  g_assert_no_error (error);
  if (threads != NULL)
    g_setenv ("ETLSCOPE_THREADS", threads, TRUE);
  t = et_trace_load (f->path, ET_LOAD_DEFAULT, cut_on_first_progress, &c, NULL, &error);
  g_unsetenv ("ETLSCOPE_THREADS");
  g_assert_no_error (error);
  assert_true (c.done);
  d = et_trace_get_damage (t, &n);
  for (guint i = 0; i < n; i++)
    shrank += d[i].offset >= c.cut && d[i].offset < c.cut + 65536
              && strstr (d[i].message, "shrank while it was read") != NULL;
  assert_int_equal (shrank, 1);
  assert_true (et_trace_get_stats (t)->records > 0);
}

static void
test_a_nettrace_file_cut_while_it_is_read_says_so (void **state)
{
  check_nettrace_cut_while_read (*state, NULL);
  check_nettrace_cut_while_read (*state, "2");
}

/* The window decodes events from the mapped file long after loading: a
 * file cut then gives errors for the events that are gone, never SIGBUS. */
static void
test_a_file_cut_after_loading_fails_only_the_events_that_are_gone (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  EtFields *fields = et_fields_new ();
  guint64 cut, ok = 0, gone = 0, before = 0;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  fresh_copy (f);
  t = checked_load (f->path, &error);
  g_assert_no_error (error);
  cut = et_fixture_layout_buffer_offset (f->layout, f->layout->buffers->len / 2);
  assert_true (et_fixture_damage_truncate (f->path, cut, NULL));
  for (guint64 i = 0; i < et_trace_get_n_events (t); i++)
    {
      g_autoptr(GError) decode_error = NULL;
      EtEvent ev;

      if (et_trace_decode_event (t, i, &ev, fields, &decode_error))
        {
          assert_true (ev.file_offset < cut);
          ok++;
          continue;
        }
      assert_true (ev.file_offset >= cut);
      assert_true (g_error_matches (decode_error, ET_ETL_ERROR, ET_ETL_ERROR_TRUNCATED));
      assert_non_null (strstr (decode_error->message, "shrank"));
      gone++;
    }
  et_fields_free (fields);
  for (guint b = 0; b < f->layout->buffers->len / 2; b++)
    before += g_array_index (f->counts, guint, b);
  assert_int_equal (ok, before);
  assert_int_equal (gone, f->records - before);
}

/* ---- files that are not files ---------------------------------------------- */

static void
assert_refused (const char *path, const char *kind)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = checked_load (path, &error);

  assert_null (t);
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_IO));
  if (strstr (error->message, path) == NULL || strstr (error->message, kind) == NULL
      || strstr (error->message, "byte offset 0") == NULL)
    fail_msg ("unclear refusal of %s: %s", path, error->message);
}

/* A FIFO without a writer used to block open() for ever; a directory or
 * a device is no trace either: each is refused at once, by name. */
static void
test_fifos_directories_and_devices_are_refused_without_blocking (void **state)
{
  Fixture *f = *state;
  g_autofree char *fifo = g_build_filename (f->dir, "pipe.etl", NULL);

  assert_int_equal (mkfifo (fifo, 0600), 0);
  assert_refused (fifo, "FIFO");
  assert_refused (f->dir, "directory");
  assert_refused ("/dev/null", "character device");
  g_unlink (fifo);
}

/* ---- bit flips ------------------------------------------------------------ */

/* One flipped bit anywhere: buffers before the flip keep every record, and
 * if any record is gone the loss is reported. */
static void
flip_sweep (Fixture *f, guint32 seed, guint n_flips)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint64 size = et_fixture_layout_buffer_offset (f->layout, f->layout->buffers->len - 1)
                 + g_array_index (f->layout->buffers, EtFixtureBufferInfo,
                                  f->layout->buffers->len - 1).size;

  for (guint i = 0; i < n_flips; i++)
    {
      guint64 offset = (guint64) g_rand_int_range (rand, 0, (gint32) size);
      guint8 mask = (guint8) (1u << g_rand_int_range (rand, 0, 8));
      guint at = buffer_of (f->layout, offset);
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTrace) t = NULL;
      g_autoptr(GArray) counts = NULL;

      fresh_copy (f);
      assert_true (et_fixture_damage_flip_bits (f->path, offset, mask, NULL));
      t = checked_load (f->path, &error);
      if (t == NULL)
        {
          assert_non_null (strstr (error->message, "byte offset"));
          assert_int_equal (at, 0);
          continue;
        }
      counts = count_per_buffer (t, f->layout);
      for (guint b = 0; b < at; b++)
        assert_int_equal (g_array_index (counts, guint, b), g_array_index (f->counts, guint, b));
      if (et_trace_get_stats (t)->records < f->records)
        {
          if (et_trace_get_stats (t)->damage_count == 0)
            fail_msg ("flip of 0x%02x at %" G_GUINT64_FORMAT " lost %" G_GUINT64_FORMAT
                      " records silently", mask, offset,
                      f->records - et_trace_get_stats (t)->records);
          assert_damage_named (t, f->path);
        }
    }
}

static void
test_bit_flip_sweep_never_loses_records_silently (void **state)
{
  Fixture *f = *state;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  flip_sweep (f, 20240301, 300);
}

static void
test_bit_flip_sweep_in_compressed_file_never_loses_records_silently (void **state)
{
  Fixture *f = *state;

  write_mixed (f->base, TRUE, 4, 0, -1);
  use_base (f);
  flip_sweep (f, 7, 300);
}

/* ---- sizes ---------------------------------------------------------------- */

static void
test_impossible_buffer_sizes_fall_back_to_the_session_size (void **state)
{
  Fixture *f = *state;
  static const guint32 sizes[] = { 0, 0x47, 4096 + 8, 2048, 1u << 20, G_MAXUINT32 };
  guint b;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  b = f->layout->buffers->len / 2;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(EtTrace) t = NULL;
      guint32 le = GUINT32_TO_LE (sizes[i]);
      guint n = 0;

      fresh_copy (f);
      assert_true (et_fixture_damage_write (f->path, et_fixture_layout_buffer_offset (f->layout, b),
                                            &le, 4, NULL));
      t = load_damaged (f, b, b);
      assert_int_equal (et_trace_get_damage (t, &n)[0].offset,
                        et_fixture_layout_buffer_offset (f->layout, b));
      /* The session size is right, so nothing at all is lost. */
      assert_int_equal (et_trace_get_stats (t)->records, f->records);
    }
}

static void
test_zero_and_huge_record_sizes_skip_only_the_rest_of_their_buffer (void **state)
{
  Fixture *f = *state;
  static const guint16 sizes[] = { 0, 7, 0x30, 0xFFFF };
  guint done_types = 0;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  for (guint k = 2; k < f->layout->records->len; k++)
    {
      const EtFixtureRecordInfo *r = &g_array_index (f->layout->records, EtFixtureRecordInfo, k);

      /* one record of every header type, not the log-file header */
      if (r->buffer == 0 || (done_types & (1u << (r->header_type & 31))))
        continue;
      done_types |= 1u << (r->header_type & 31);
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autoptr(EtTrace) t = NULL;
          guint n = 0;

          fresh_copy (f);
          assert_true (et_fixture_damage_record_size (f->path, k, sizes[i], NULL));
          t = load_damaged (f, r->buffer, r->buffer);
          /* at the record, or (when the size still covers its header) where
           * the next record would start */
          assert_in_range (et_trace_get_damage (t, &n)[0].offset, r->offset,
                           r->offset + MAX (sizes[i], r->size));
        }
    }
  assert_true (g_bit_storage (done_types) > 1);
}

/* Events are indexed by 4-byte slots (32 GiB of event data). A trace
 * beyond that keeps what fits, and says from which byte on buffers are
 * skipped: ETLSCOPE_SLOT_SPACE shrinks the slot space so that a small trace
 * runs into the limit after five of its 4 KiB buffers. */
static void
test_traces_beyond_the_index_keep_what_fits_and_say_where_it_ends (void **state)
{
  Fixture *f = *state;
  g_autoptr(EtTrace) t = NULL;
  g_autoptr(GArray) counts = NULL;
  const EtDamage *d;
  guint n, n_damage = 0;

  for (int compress = 0; compress <= 1; compress++)
    {
      write_mixed (f->base, compress, 8, 0, -1);
      use_base (f);
      n = f->layout->buffers->len;
      assert_true (n > 8);
      fresh_copy (f);
      g_setenv ("ETLSCOPE_SLOT_SPACE", "2560", TRUE);   /* 5 × 4096 / 8 */
      g_clear_object (&t);
      t = load_damaged (f, 5, n - 1);
      g_unsetenv ("ETLSCOPE_SLOT_SPACE");

      d = et_trace_get_damage (t, &n_damage);
      assert_int_equal (d[0].offset, et_fixture_layout_buffer_offset (f->layout, 5));
      assert_non_null (strstr (d[0].message, "more event data than Etlscope can index"));
      assert_int_equal (et_trace_get_stats (t)->buffers_skipped, n - 5);
      /* Compressed, the buffers past the index space are not even
       * decompressed (their places would wrap round onto the first
       * ones'): said once, at the first of them. */
      {
        guint said = 0;

        for (guint i = 0; i < n_damage; i++)
          said += strstr (d[i].message, "are not decompressed") != NULL;
        assert_int_equal (said, compress ? 1 : 0);
      }
      assert_int_equal (et_trace_get_stats (t)->buffers, n);
      g_clear_pointer (&counts, g_array_unref);
      counts = count_per_buffer (t, f->layout);
      for (guint b = 5; b < n; b++)
        assert_int_equal (g_array_index (counts, guint, b), 0);
      assert_true (et_trace_get_stats (t)->records < f->records);
    }
}

static void
test_records_crossing_the_buffer_end_are_reported (void **state)
{
  Fixture *f = *state;
  guint tested = 0;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  for (guint k = 0; k + 1 < f->layout->records->len; k++)
    {
      const EtFixtureRecordInfo *r = &g_array_index (f->layout->records, EtFixtureRecordInfo, k);
      const EtFixtureRecordInfo *next = r + 1;
      const EtFixtureBufferInfo *b = &g_array_index (f->layout->buffers, EtFixtureBufferInfo, r->buffer);
      g_autoptr(EtTrace) t = NULL;
      g_autoptr(GArray) counts = NULL;

      if (next->buffer == r->buffer || r->buffer == 0)
        continue;
      /* the last record of its buffer, made to reach 8 bytes past its end */
      fresh_copy (f);
      assert_true (et_fixture_damage_record_size (f->path, k, (guint16) (b->size - r->pos + 8), NULL));
      t = load_damaged (f, r->buffer, r->buffer);
      counts = count_per_buffer (t, f->layout);
      assert_int_equal (g_array_index (counts, guint, r->buffer),
                        g_array_index (f->counts, guint, r->buffer) - 1);
      tested++;
    }
  assert_true (tested > 4);
}

/* ---- compressed buffers --------------------------------------------------- */

static void
test_bad_compressed_streams_lose_only_their_buffer (void **state)
{
  Fixture *f = *state;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  for (guint b = 1; b < f->layout->buffers->len; b++)
    {
      g_autoptr(EtTrace) t = NULL;
      g_autofree char *name = g_strdup_printf ("compressed buffer %u", b);
      guint n = 0;

      if (!g_array_index (f->layout->buffers, EtFixtureBufferInfo, b).compressed)
        continue;
      fresh_copy (f);
      assert_true (et_fixture_damage_compressed (f->path, b, NULL));
      t = load_damaged (f, b, b);
      assert_non_null (strstr (et_trace_get_damage (t, &n)[0].message, name));
    }
}

static void
test_compressed_buffer_stating_a_huge_size_loses_nothing_else (void **state)
{
  Fixture *f = *state;
  guint32 huge = GUINT32_TO_LE (16u << 20);
  guint b;
  g_autoptr(EtTrace) t = NULL;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  b = f->layout->buffers->len / 2;
  fresh_copy (f);
  assert_true (et_fixture_damage_write (f->path, et_fixture_layout_buffer_offset (f->layout, b) + 0x30,
                                        &huge, 4, NULL));
  t = load_damaged (f, b, b);
  assert_int_equal (et_trace_get_stats (t)->records, f->records);
}

/* ---- resynchronisation ------------------------------------------------------ */

static guint64
load_records (const char *path, guint64 *damage)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = checked_load (path, &error);

  g_assert_no_error (error);
  *damage = et_trace_get_stats (t)->damage_count;
  return et_trace_get_stats (t)->records;
}

/* The damaged copy loads every record of the base file, with at least
 * one problem reported at @at (G_MAXUINT64: anywhere). */
static void
assert_nothing_lost (Fixture *f, guint64 at)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = checked_load (f->path, &error);
  const EtDamage *d;
  guint n = 0;
  gboolean found = at == G_MAXUINT64;

  g_assert_no_error (error);
  assert_damage_named (t, f->path);
  d = et_trace_get_damage (t, &n);
  for (guint i = 0; i < n; i++)
    found |= d[i].offset == at;
  if (!found || et_trace_get_stats (t)->records != f->records)
    fail_msg ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " records, damage %s at %"
              G_GUINT64_FORMAT " (first: %s)", et_trace_get_stats (t)->records, f->records,
              found ? "reported" : "not reported", at, n > 0 ? d[0].message : "none");
}

static void
insert_stray_bytes (Fixture *f, guint b, guint len)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (b * 31 + len);
  g_autofree guint8 *stray = g_malloc (len);

  for (guint i = 0; i < len; i++)
    stray[i] = (guint8) g_rand_int (rand);
  fresh_copy (f);
  assert_true (et_fixture_damage_insert (f->path, et_fixture_layout_buffer_offset (f->layout, b),
                                         stray, len, NULL));
}

/* Stray bytes between two buffers used to misalign every buffer after
 * them; the walk finds the next header and loses nothing. */
static void
test_stray_bytes_between_buffers_lose_nothing (void **state)
{
  Fixture *f = *state;

  for (guint compress = 0; compress < 2; compress++)
    {
      guint b;

      write_mixed (f->base, compress, 8, 0, -1);
      use_base (f);
      b = f->layout->buffers->len / 2;
      for (guint len = 1; len <= 256; len *= 4)
        {
          insert_stray_bytes (f, b, len);
          assert_nothing_lost (f, et_fixture_layout_buffer_offset (f->layout, b));
        }
    }
}

/* A compressed buffer's size is not the session's: one wrong BufferSize
 * (one byte off, only its header, 16 MiB, 0) used to end the walk. */
static void
test_compressed_buffers_with_a_wrong_size_lose_nothing (void **state)
{
  Fixture *f = *state;
  guint b;
  guint32 size;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  b = f->layout->buffers->len / 2;
  size = g_array_index (f->layout->buffers, EtFixtureBufferInfo, b).size;
  assert_true (g_array_index (f->layout->buffers, EtFixtureBufferInfo, b).compressed);
  {
    const guint32 sizes[] = { size + 1, size - 1, size + 8, 0x48, 16u << 20, 0 };
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        fresh_copy (f);
        assert_true (et_fixture_damage_buffer_size (f->path, b, sizes[i], NULL));
        assert_nothing_lost (f, et_fixture_layout_buffer_offset (f->layout, b));
      }
  }
}

/* Each buffer says whether it is compressed: a log-file header that says
 * otherwise (its compressed mode bit cleared) changes nothing. */
static void
test_compressed_buffers_are_read_whatever_the_log_file_mode_says (void **state)
{
  Fixture *f = *state;
  /* the top byte of LogFileMode: payload of the header record + 0x20 */
  guint64 at = 0x48 + 0x20 + 0x20 + 3, damage = 0;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  fresh_copy (f);
  assert_true (et_fixture_damage_flip_bits (f->path, at, 0x04, NULL));
  assert_int_equal (load_records (f->path, &damage), f->records);
}

/* A header that looks right but overlaps the next plausible one (16 bytes
 * on) must not become a buffer shorter than its own header: its size
 * would wrap around. Only that buffer is lost. */
static void
test_a_header_overlapping_the_next_one_is_skipped (void **state)
{
  Fixture *f = *state;
  g_autofree char *data = NULL;
  guint8 copy[0x48], zero[4] = { 0 };
  guint64 at;
  guint32 size;
  gsize len;
  g_autoptr(EtTrace) t = NULL;
  guint b;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  b = f->layout->buffers->len - 2;
  at = et_fixture_layout_buffer_offset (f->layout, b);
  size = g_array_index (f->layout->buffers, EtFixtureBufferInfo, b).size;
  assert_true (g_file_get_contents (f->base, &data, &len, NULL));
  /* a copy of the header 16 bytes on, ending where buffer b did; the first
   * header's own fields (ReferenceCount, State, compressed flag) still sane */
  memcpy (copy, data + at, 0x48);
  size = GUINT32_TO_LE (size - 0x10);
  memcpy (copy, &size, 4);
  copy[0x1C] = 3, copy[0x1D] = copy[0x1E] = copy[0x1F] = 0;   /* the first's State */
  copy[0x24] = 0x40, copy[0x25] = 0, copy[0x26] = copy[0x27] = 0; /* its flags, type */
  copy[0x20] = copy[0x21] = copy[0x22] = 0, copy[0x23] = 1;      /* its 16 MiB of data */
  fresh_copy (f);
  assert_true (et_fixture_damage_write (f->path, at + 0x10, copy, 0x48, NULL));
  assert_true (et_fixture_damage_write (f->path, at, zero, 4, NULL));
  t = load_damaged (f, b, b);
  {
    g_autoptr(EtEtlFile) file = et_etl_file_open (f->path, NULL, NULL, NULL);
    for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
      assert_true (et_etl_file_buffer_info (file, i)->disk_size >= 0x48);
  }
}

/* The checks that find buffers again are not damage themselves: buffers
 * of two sessions (LoggerIds) in one file walk as before. */
static void
test_buffers_of_two_sessions_in_one_file_are_all_read (void **state)
{
  Fixture *f = *state;
  guint8 other[2] = { 0x15, 0 };
  guint64 damage = 0;

  for (guint compress = 0; compress < 2; compress++)
    {
      write_mixed (f->base, compress, 8, 0, -1);
      use_base (f);
      fresh_copy (f);
      for (guint b = 1; b < f->layout->buffers->len; b += 2)
        assert_true (et_fixture_damage_write (f->path, et_fixture_layout_buffer_offset (f->layout, b)
                                              + 0x2A, other, 2, NULL));
      assert_int_equal (load_records (f->path, &damage), f->records);
      assert_int_equal (damage, 0);
    }
}

/* A run of garbage where headers should be (a header overwritten with
 * zeros, then with bytes of another buffer) costs only those buffers. */
static void
test_garbage_over_a_buffer_header_costs_only_that_buffer (void **state)
{
  Fixture *f = *state;
  g_autofree guint8 *zeros = g_malloc0 (0x48);

  for (guint compress = 0; compress < 2; compress++)
    {
      guint b;
      g_autoptr(EtTrace) t = NULL;

      write_mixed (f->base, compress, 8, 0, -1);
      use_base (f);
      b = f->layout->buffers->len / 3;
      fresh_copy (f);
      assert_true (et_fixture_damage_write (f->path, et_fixture_layout_buffer_offset (f->layout, b),
                                            zeros, 0x48, NULL));
      t = load_damaged (f, b, b);
    }
}

static char *
corpus_file (const char *name)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  char *path = dir ? g_build_filename (dir, name, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      print_message ("# corpus file %s not found (ET_CORPUS_DIR=%s): skipped\n", name,
                     dir ? dir : "unset");
      g_free (path);
      return NULL;
    }
  return path;
}

/* The cases on the real traces: one wrong BufferSize of a
 * compressed trace (which dropped 168,298 events to 24,162), its mode bit
 * cleared, and 256 stray bytes before buffer 10 of an uncompressed one. */
static void
test_real_traces_resynchronise_after_a_bad_buffer (void **state)
{
  Fixture *f = *state;
  g_autofree char *net = corpus_file ("net.4.5.2.x64.etl");
  g_autofree char *plain = corpus_file ("ShutdownPerfDiagLogger.etl");
  g_autofree char *data = NULL;
  guint64 damage = 0;
  gsize len;

  if (net == NULL || plain == NULL)
    skip ();
  assert_true (g_file_get_contents (net, &data, &len, NULL));
  assert_true (g_file_set_contents (f->base, data, len, NULL));
  use_base (f);
  for (guint b = 5; b < f->layout->buffers->len; b += f->layout->buffers->len / 3)
    {
      guint32 size = g_array_index (f->layout->buffers, EtFixtureBufferInfo, b).size;
      const guint32 sizes[] = { size + 1, size - 1, 0x48, 16u << 20 };

      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          fresh_copy (f);
          assert_true (et_fixture_damage_buffer_size (f->path, b, sizes[i], NULL));
          assert_nothing_lost (f, et_fixture_layout_buffer_offset (f->layout, b));
        }
    }
  fresh_copy (f);
  assert_true (et_fixture_damage_flip_bits (f->path, 0x48 + 0x20 + 0x20 + 3, 0x04, NULL));
  assert_int_equal (load_records (f->path, &damage), f->records);

  g_clear_pointer (&data, g_free);
  assert_true (g_file_get_contents (plain, &data, &len, NULL));
  assert_true (g_file_set_contents (f->base, data, len, NULL));
  use_base (f);
  insert_stray_bytes (f, 10, 256);
  assert_nothing_lost (f, et_fixture_layout_buffer_offset (f->layout, 10));
}

/* ---- the log-file header --------------------------------------------------- */

typedef struct
{
  guint64 records;
  gint64  t0_raw;
  guint64 ticks_per_second;
  guint   pointer_size;
} Clock;

static Clock
clock_of (const char *path, gboolean damaged)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = checked_load (path, &error);
  Clock c;

  g_assert_no_error (error);
  if (damaged)
    assert_damage_named (t, path);
  c.records = et_trace_get_stats (t)->records;
  c.t0_raw = et_trace_get_stats (t)->t0_raw;
  c.ticks_per_second = et_trace_get_stats (t)->ticks_per_second;
  c.pointer_size = et_trace_get_header (t)->pointer_size;
  return c;
}

/* One flipped byte in the header record's marker or header type used to
 * make the whole file "not an .etl file": the header is read all the
 * same, and only the rest of its buffer is lost. */
static void
test_a_damaged_header_marker_keeps_the_clock_and_the_other_buffers (void **state)
{
  Fixture *f = *state;
  Clock base, damaged;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  base = clock_of (f->base, FALSE);
  for (guint byte = 2; byte <= 3; byte++)
    {
      g_autoptr(EtTrace) t = NULL;

      fresh_copy (f);
      assert_true (et_fixture_damage_flip_bits (f->path, 0x48 + byte, 0x10, NULL));
      t = load_damaged (f, 0, 0);
      damaged = clock_of (f->path, TRUE);
      assert_int_equal (damaged.t0_raw, base.t0_raw);
      assert_int_equal (damaged.ticks_per_second, base.ticks_per_second);
      assert_int_equal (damaged.pointer_size, 8);
    }
}

/* The header buffer need not be first; without any header record the
 * common values are assumed and said: the events are all still there. */
static void
test_traces_without_their_header_first_or_at_all_are_read (void **state)
{
  Fixture *f = *state;
  g_autofree guint8 *zeros = g_malloc0 (0x20);
  Clock base, moved, headless;
  guint64 in_buffer_0 = 0;

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  base = clock_of (f->base, FALSE);
  fresh_copy (f);
  assert_true (et_fixture_damage_move_buffer (f->path, 0, 3, NULL));
  moved = clock_of (f->path, FALSE);
  assert_int_equal (moved.records, base.records);
  assert_int_equal (moved.t0_raw, base.t0_raw);

  fresh_copy (f);
  assert_true (et_fixture_damage_write (f->path, 0x48, zeros, 0x20, NULL));
  headless = clock_of (f->path, TRUE);
  in_buffer_0 = g_array_index (f->counts, guint, 0);
  assert_int_equal (headless.records, base.records - in_buffer_0);
  assert_int_equal (headless.ticks_per_second, 10000000);
  assert_int_equal (headless.pointer_size, 8);
}

/* Still not a trace: bytes with no buffer header anywhere. */
static void
test_files_without_any_buffer_are_not_etl (void **state)
{
  Fixture *f = *state;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (text, "line %u of a text file that is not a trace\n", i);
  assert_true (g_file_set_contents (f->path, text->str, (gssize) text->len, NULL));
  t = checked_load (f->path, &error);
  assert_null (t);
  assert_true (g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL));
  assert_non_null (strstr (error->message, f->path));
  assert_non_null (strstr (error->message, "not an .etl file"));
}

/* ---- limits --------------------------------------------------------------- */

/* Peak RSS in KiB of a child that loads @path (NULL: loads nothing). */
static long
child_peak_rss (const char *path)
{
  struct rusage ru;
  int status = 0;
  pid_t pid = fork ();

  if (pid == 0)
    {
      EtTrace *t = path ? et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL) : NULL;
      _exit (path == NULL || t != NULL ? 0 : 3);
    }
  assert_true (pid > 0);
  assert_int_equal (wait4 (pid, &status, 0, &ru), pid);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
  return ru.ru_maxrss;
}

/* @n compressed buffers (with the header of @base's buffer 1) that state
 * @data_end as their end of data and hold @stream. */
static void
append_bombs (GByteArray *bomb, Fixture *f, const char *base, const guint8 *stream, gsize clen,
              guint32 data_end, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      guint8 header[0x48];
      guint32 size = GUINT32_TO_LE ((guint32) (0x48 + clen)), end = GUINT32_TO_LE (data_end);

      memcpy (header, base + et_fixture_layout_buffer_offset (f->layout, 1), 0x48);
      memcpy (header, &size, 4);
      memcpy (header + 0x30, &end, 4);
      g_byte_array_append (bomb, header, 0x48);
      g_byte_array_append (bomb, stream, (guint) clen);
    }
}

/* Every buffer of a compressed file claims 16 MiB and holds a stream that
 * really expands to it: loading must stay within a small multiple of the
 * file's size (the reader's budget is 16 times). */
static void
test_decompression_bombs_keep_memory_bounded_by_the_file_size (void **state)
{
  Fixture *f = *state;
  const gsize out = (16u << 20) - 0x48;
  g_autofree guint8 *zeros = g_malloc0 (out);
  gsize clen = 0;
  g_autofree guint8 *stream = et_xpress_compress (zeros, out, &clen);
  g_autofree char *base = NULL;
  g_autoptr(GByteArray) bomb = g_byte_array_new ();
  gsize len;
  long baseline, peak, allowed;

  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  assert_true (g_file_get_contents (f->base, &base, &len, NULL));
  g_byte_array_append (bomb, (guint8 *) base, g_array_index (f->layout->buffers, EtFixtureBufferInfo, 0).size);
  append_bombs (bomb, f, base, stream, clen, 16u << 20, 200);
  assert_true (g_file_set_contents (f->path, (char *) bomb->data, bomb->len, NULL));

  baseline = child_peak_rss (NULL);
  peak = child_peak_rss (f->path);
  /* KiB: 64 times the file, 64 MiB for the program itself; the sanitizer
   * build keeps freed blocks in quarantine (256 MiB). */
  allowed = (long) (bomb->len / 1024) * 64 + 64 * 1024;
#if defined(__SANITIZE_ADDRESS__)
  allowed += 256 * 1024;
#endif
  print_message ("# %u-byte bomb (%u claimed MiB): peak RSS %ld KiB over %ld (allowed %ld)\n",
                 bomb->len, 200 * 16, peak - baseline, baseline, allowed);
  assert_true (peak - baseline <= allowed);
  {
    g_autoptr(EtTrace) t = checked_load (f->path, NULL);
    assert_non_null (t);
    assert_damage_named (t, f->path);
  }
}

/* A bomb of events: every buffer's stream expands to 64 KiB of one
 * 16-byte PERFINFO record repeated (a 9 MB file of such buffers made 17.8
 * million events, 845 MB and 50 s). A buffer expands at most 32 times its
 * compressed bytes and the file 16 times its size: at most about one
 * event per byte of input, and the bomb is reported. */
static void
test_event_bombs_give_at_most_one_event_per_input_byte (void **state)
{
  Fixture *f = *state;
  const gsize out = (64u << 10) - 0x48;
  g_autofree guint8 *records = g_malloc (out);
  g_autofree guint8 *stream = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GByteArray) bomb = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;
  gsize clen = 0, len;
  guint n = 0;
  long baseline, peak;

  for (gsize i = 0; i + 16 <= out; i += 16)
    {
      static const guint8 perfinfo[16] = { 2, 0, 0x11, 0xC0, 0x10, 0, 0x2E, 0x0F,
                                           0x40, 0x42, 0x0F, 0, 0, 0, 0, 0 };
      memcpy (records + i, perfinfo, 16);
    }
  stream = et_xpress_compress (records, out, &clen);
  write_mixed (f->base, TRUE, 8, 0, -1);
  use_base (f);
  assert_true (g_file_get_contents (f->base, &base, &len, NULL));
  g_byte_array_append (bomb, (guint8 *) base, (guint) len);
  append_bombs (bomb, f, base, stream, clen, 64u << 10, 400);
  assert_true (g_file_set_contents (f->path, (char *) bomb->data, bomb->len, NULL));
  t = checked_load (f->path, &error);
  g_assert_no_error (error);
  assert_damage_named (t, f->path);
  assert_non_null (strstr (et_trace_get_damage (t, &n)[0].message, "more than 32 times"));
  baseline = child_peak_rss (NULL);
  peak = child_peak_rss (f->path);
  print_message ("# %u-byte event bomb: %" G_GUINT64_FORMAT " records (%" G_GUINT64_FORMAT
                 " before it), peak RSS %ld KiB over %ld\n", bomb->len,
                 et_trace_get_stats (t)->records, f->records, peak - baseline, baseline);
  assert_true (et_trace_get_stats (t)->records > f->records);
  assert_true (et_trace_get_stats (t)->records <= f->records + bomb->len);
}

/* ---- manifests ------------------------------------------------------------ */

static void
replace_in_file (const char *path, const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len;
  const char *at;

  assert_true (g_file_get_contents (path, &data, &len, NULL));
  at = memmem (data, len, from, strlen (from));
  assert_non_null (at);
  assert_true (et_fixture_damage_write (path, (guint64) (at - data), to, strlen (to), NULL));
}

static guint64
provider_events (EtTrace *t, const char *name, EtProviderKind *kind)
{
  for (guint i = 0; i < et_trace_get_n_providers (t); i++)
    if (g_str_equal (et_trace_get_provider (t, i)->name, name))
      {
        *kind = et_trace_get_provider (t, i)->kind;
        return et_trace_get_provider (t, i)->n_events;
      }
  return 0;
}

static void
test_manifest_with_broken_xml_keeps_its_events (void **state)
{
  Fixture *f = *state;
  static const char *breaks[][2] = {
    { "</events>", "</evXnts>" }, { "<event ", "<event<" }, { "\"Work\"", "\"Wo\"k\"" },
  };

  write_mixed (f->base, FALSE, 8, 0, -1);
  use_base (f);
  for (guint i = 0; i < G_N_ELEMENTS (breaks); i++)
    {
      g_autoptr(EtTrace) t = NULL;

      fresh_copy (f);
      replace_in_file (f->path, breaks[i][0], breaks[i][1]);
      t = load_damaged (f, 1, 0);
      assert_int_equal (et_trace_get_stats (t)->manifests, 0);
      assert_int_equal (et_trace_get_stats (t)->records, f->records);
    }
}

static void
test_manifest_missing_a_chunk_keeps_its_events (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) t = NULL;

  write_mixed (f->base, FALSE, 8, 300, -1);
  use_base (f);
  write_mixed (f->path, FALSE, 8, 300, 1);
  t = checked_load (f->path, &error);
  g_assert_no_error (error);
  assert_damage_named (t, f->path);
  assert_int_equal (et_trace_get_stats (t)->manifests, 0);
  assert_int_equal (et_trace_get_stats (t)->records, f->records - 1);
}

/* ---- TraceLogging --------------------------------------------------------- */

/* 60 self-describing events; every third one uses @bad_meta (when given)
 * or lies about its lengths by @meta_delta / @traits_delta. */
static void
write_tl (const char *path, GBytes *bad_meta, gint meta_delta, gint traits_delta)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(GBytes) traits = et_fixture_tl_provider_traits ("Damage.Tl", NULL);
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.buffer_size = 2048;
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 60; i++)
    {
      EtFixtureEvent ev;
      EtFixtureTlOptions lie = { 0, meta_delta, traits_delta, FALSE };
      gboolean bad = i % 3 == 1;

      et_fixture_event_init (&ev);
      ev.cpu = i % 2, ev.time_ns = MS + i * MS, ev.pid = 7, ev.tid = 8;
      et_fixture_payload_reset (p);
      et_fixture_payload_add_u32 (p, "Count", i);
      et_fixture_payload_add_utf16 (p, "Text", "some text");
      if (bad && bad_meta != NULL)
        {
          g_autoptr(EtFixtureProvider) named = et_fixture_provider_new ("Damage.Tl");
          gsize len;
          ev.provider = *et_fixture_provider_get_guid (named);
          ev.channel = 11;
          const guint8 *data = et_fixture_payload_data (p, &len);
          et_fixture_write_tl_event_blobs (w, &ev, traits, bad_meta, data, len);
        }
      else
        et_fixture_write_tl_event (w, &ev, "Damage.Tl", "Tick", p, bad ? &lie : NULL);
    }
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
}

static void
check_tl_damage (Fixture *f, GBytes *bad_meta, gint meta_delta, gint traits_delta)
{
  g_autoptr(EtTrace) t = NULL;
  g_autoptr(GArray) counts = NULL;
  EtProviderKind kind;

  write_tl (f->base, NULL, 0, 0);
  use_base (f);
  write_tl (f->path, bad_meta, meta_delta, traits_delta);
  /* Other metadata makes other record sizes: compare totals, not buffers. */
  t = load_damaged (f, 0, G_MAXUINT);
  assert_int_equal (et_trace_get_stats (t)->records, f->records);
  assert_int_equal (provider_events (t, "Damage.Tl", &kind), 60);
  /* the events whose metadata was honest still decode and make markers */
  assert_true (et_trace_get_stats (t)->markers >= 40);
}

static void
test_tracelogging_metadata_lying_about_its_length_is_reported (void **state)
{
  check_tl_damage (*state, NULL, 40, 0);
  check_tl_damage (*state, NULL, -3, 0);
  check_tl_damage (*state, NULL, -2000, 0);
}

static void
test_tracelogging_structs_nested_without_end_are_reported (void **state)
{
  g_autoptr(GByteArray) deep = g_byte_array_new ();
  g_autoptr(GByteArray) open = g_byte_array_new ();
  static const guint8 head[] = { 0, 0, 0, 'E', 0 };
  static const guint8 level[] = { 's', 0, 0x98, 0x01 };          /* struct of 1 member */
  static const guint8 wide[] = { 'w', 0, 0x98, 0x7F, 'x', 0, 0x08 }; /* 127 members, 1 given */
  g_autoptr(GBytes) deep_bytes = NULL, open_bytes = NULL;

  g_byte_array_append (deep, head, sizeof head);
  for (guint i = 0; i < 60; i++)
    g_byte_array_append (deep, level, sizeof level);
  deep->data[0] = deep->len & 0xFF, deep->data[1] = deep->len >> 8;
  g_byte_array_append (open, head, sizeof head);
  g_byte_array_append (open, wide, sizeof wide);
  open->data[0] = open->len & 0xFF, open->data[1] = open->len >> 8;
  deep_bytes = g_bytes_new (deep->data, deep->len);
  open_bytes = g_bytes_new (open->data, open->len);
  check_tl_damage (*state, deep_bytes, 0, 0);
  check_tl_damage (*state, open_bytes, 0, 0);
}

/* ---- the real corpus ------------------------------------------------------ */

static void
damage_corpus_file (Fixture *f, const char *source)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) whole = NULL;

  assert_true (g_file_get_contents (source, &data, &len, NULL));
  assert_true (g_file_set_contents (f->base, data, len, NULL));
  whole = checked_load (f->base, &error);
  g_assert_no_error (error);
  g_clear_pointer (&f->layout, et_fixture_layout_free);
  g_clear_pointer (&f->counts, g_array_unref);
  f->layout = et_fixture_layout_read (f->base, &error);
  g_assert_no_error (error);
  f->counts = count_per_buffer (whole, f->layout);
  f->records = et_trace_get_stats (whole)->records;
  /* at up to eight buffer boundaries and inside the buffers before them */
  for (guint i = 1; i <= 8 && f->layout->buffers->len > 1; i++)
    {
      guint b = 1 + (i - 1) * (f->layout->buffers->len - 1) / 8;
      guint64 offsets[] = { et_fixture_layout_buffer_offset (f->layout, b),
                            et_fixture_layout_buffer_offset (f->layout, b) - 100 };
      if (b >= f->layout->buffers->len)
        break;
      for (guint c = 0; c < G_N_ELEMENTS (offsets); c++)
        {
          g_autoptr(EtTrace) t = NULL;
          g_autoptr(GError) cut_error = NULL;
          fresh_copy (f);
          assert_true (et_fixture_damage_truncate (f->path, offsets[c], NULL));
          if (c == 1 && b == 1)
            {
              /* a cut inside the header buffer may leave nothing readable */
              t = checked_load (f->path, &cut_error);
              if (t == NULL)
                assert_non_null (strstr (cut_error->message, "byte offset"));
              else
                assert_damage_named (t, f->path);
              continue;
            }
          t = load_damaged (f, c == 0 ? b : b - 1, f->layout->buffers->len);
        }
    }
  if (et_trace_get_stats (whole)->damage_count == 0 && len < (1u << 20))
    flip_sweep (f, (guint32) len, 40);
}

static void
test_real_corpus_survives_truncation_and_bit_flips (void **state)
{
  Fixture *f = *state;
  const char *dir_path = g_getenv ("ET_CORPUS_DIR");
  g_autoptr(GDir) dir = dir_path ? g_dir_open (dir_path, 0, NULL) : NULL;
  const char *name;
  guint n = 0;

  if (dir == NULL)
    {
      print_message ("# corpus not found at %s\n", dir_path ? dir_path : "(ET_CORPUS_DIR unset)");
      skip ();
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      if (!g_str_has_suffix (name, ".etl"))
        continue;
      damage_corpus_file (f, path);
      n++;
    }
  print_message ("# %u corpus files damaged\n", n);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown (name, setup, teardown)
    T (test_truncation_at_every_buffer_boundary_keeps_earlier_buffers),
    T (test_truncation_inside_records_keeps_everything_before_the_cut),
    T (test_truncation_inside_the_header_is_an_error_naming_the_offset),
    T (test_fifos_directories_and_devices_are_refused_without_blocking),
    T (test_a_file_cut_while_it_is_opened_keeps_what_came_before),
    T (test_a_file_cut_while_its_records_are_walked_says_so),
    T (test_a_nettrace_file_cut_while_it_is_read_says_so),
    T (test_mapping_a_cut_file_from_its_end_finds_the_cut),
    T (test_a_file_cut_after_loading_fails_only_the_events_that_are_gone),
    T (test_bit_flip_sweep_never_loses_records_silently),
    T (test_bit_flip_sweep_in_compressed_file_never_loses_records_silently),
    T (test_impossible_buffer_sizes_fall_back_to_the_session_size),
    T (test_zero_and_huge_record_sizes_skip_only_the_rest_of_their_buffer),
    T (test_records_crossing_the_buffer_end_are_reported),
    T (test_traces_beyond_the_index_keep_what_fits_and_say_where_it_ends),
    T (test_bad_compressed_streams_lose_only_their_buffer),
    T (test_compressed_buffer_stating_a_huge_size_loses_nothing_else),
    T (test_stray_bytes_between_buffers_lose_nothing),
    T (test_compressed_buffers_with_a_wrong_size_lose_nothing),
    T (test_compressed_buffers_are_read_whatever_the_log_file_mode_says),
    T (test_buffers_of_two_sessions_in_one_file_are_all_read),
    T (test_a_header_overlapping_the_next_one_is_skipped),
    T (test_garbage_over_a_buffer_header_costs_only_that_buffer),
    T (test_real_traces_resynchronise_after_a_bad_buffer),
    T (test_a_damaged_header_marker_keeps_the_clock_and_the_other_buffers),
    T (test_traces_without_their_header_first_or_at_all_are_read),
    T (test_files_without_any_buffer_are_not_etl),
    T (test_decompression_bombs_keep_memory_bounded_by_the_file_size),
    T (test_event_bombs_give_at_most_one_event_per_input_byte),
    T (test_manifest_with_broken_xml_keeps_its_events),
    T (test_manifest_missing_a_chunk_keeps_its_events),
    T (test_tracelogging_metadata_lying_about_its_length_is_reported),
    T (test_tracelogging_structs_nested_without_end_are_reported),
    T (test_real_corpus_survives_truncation_and_bit_flips),
#undef T
  };
  return cmocka_run_group_tests_name ("damage", tests, NULL, NULL);
}
