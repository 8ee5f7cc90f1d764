/* test-nettrace-image.c — the in-memory image a .nettrace is read into
 * (model/nettrace/et-nettrace-image.c), as a user would see it:
 *
 *   - it holds no second copy of the events' payloads: a trace of large
 *     payloads takes a few bytes of image per event, and each event still
 *     decodes to its own payload, read from the mapped file;
 *   - it is kept in chunks, so that it needs no block as large as itself
 *     (no size limit): chunks of one buffer each give the same buffers,
 *     byte for byte, as the default chunks do;
 *   - the only limit left, the model's slot space, is said once with the
 *     byte offset of the first event not read and how many were not;
 *   - once loaded, the file's pages have left the process;
 *   - a file cut after loading fails the events whose payloads are gone;
 *   - a large trace is built on a second thread beside its reading, into
 *     the same image, byte for byte, with the same damage in the same
 *     order, as one thread makes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>

#include "et-fixture.h"
#include "et-fixture-nettrace.h"
#include "et-fields.h"
#include "et-nettrace-image.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

#define PAYLOAD 2000    /* bytes of `detail` in each large payload */

static void
no_damage (guint64 offset, const char *message, gpointer user_data)
{
  fail_msg ("unexpected damage: %s", message);
}

/* The bytes of @file's buffers, header buffer and all. */
static guint64
image_bytes (EtEtlFile *file)
{
  guint64 sum = 0;

  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    sum += et_etl_file_buffer_info (file, i)->disk_size;
  return sum;
}

/* Whether @text is (the first @len characters of) what the fixture writes
 * as `detail`: the alphabet over and over, from one of its first ten
 * letters on, about PAYLOAD bytes. */
static gboolean
is_detail_start (const char *text, gsize len)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz";

  if (len == 0)
    return TRUE;
  if (text[0] < 'a' || text[0] > 'j')
    return FALSE;
  for (gsize c = 0; c < len; c++)
    if (text[c] != alphabet[(text[0] - 'a' + c) % 26])
      return FALSE;
  return TRUE;
}

static gboolean
is_detail (const char *text, gsize len)
{
  return len >= PAYLOAD / 2 && is_detail_start (text, len);
}

/* Events of 2,000-byte payloads: the image takes less than 40 bytes an
 * event (a compact record and its payload's place), not the payload's
 * size; and every event's `detail` decodes whole, from the file. */
static void
test_image_holds_no_copy_of_the_payloads (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("large-payloads.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtEtlFile) file = NULL;
  g_autoptr(EtTrace) trace = NULL;
  EtFields *fields = et_fields_new ();
  guint64 n, with_detail = 0;

  assert_true (et_fixture_write_nettrace_large_with (fx->path, 5000, 3, PAYLOAD, &error));
  file = et_nettrace_open (fx->path, no_damage, NULL, NULL, NULL, NULL, &error);
  assert_non_null (file);
  trace = et_trace_load (fx->path, 0, NULL, NULL, NULL, &error);
  assert_non_null (trace);
  n = et_trace_get_n_events (trace);
  assert_true (n >= 5000);
  print_message ("# %" G_GUINT64_FORMAT " image bytes for %" G_GUINT64_FORMAT " events of a "
                 "%" G_GUINT64_FORMAT "-byte file\n", image_bytes (file), n,
                 et_etl_file_size (file));
  assert_true (image_bytes (file) < 40 * n);
  assert_true (image_bytes (file) * 20 < et_etl_file_size (file));
  for (guint64 i = 0; i < n; i++)
    {
      EtEvent ev;
      const char *text;
      gsize len;
      gint k;

      et_fields_clear (fields);
      if (!et_trace_decode_event (trace, i, &ev, fields, NULL)
          || (k = et_fields_find (fields, "detail")) < 0)
        continue;
      with_detail++;
      text = et_fields_text (fields, (guint) k, &len);
      assert_true (is_detail (text, len));
    }
  assert_true (with_detail > 5000 / 2);
  et_fields_free (fields);
  et_fixture_file_free (fx);
}

/* The resident bytes of this process's mappings of @path (Linux's
 * /proc/self/smaps), or -1 when it cannot tell. */
static gint64
resident_of (const char *path)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in_file = FALSE;
  gint64 kb = 0;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return -1;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];

      if (g_ascii_isxdigit (l[0]) && strchr (l, '-') != NULL && strchr (l, ' ') != NULL)
        in_file = g_str_has_suffix (l, path);
      else if (in_file && g_str_has_prefix (l, "Rss:"))
        kb += g_ascii_strtoll (l + 4, NULL, 10);
    }
  return kb * 1024;
}

/* Once a trace is loaded, its file's pages have left the process, whether
 * its payloads lie in the file (read again while loading) or were copied
 * into the image: what the window keeps resident is the model, and a
 * record's page comes back from the page cache when it is shown. */
static void
test_file_pages_leave_once_loaded (void **state)
{
  for (guint payload = 16; payload <= PAYLOAD; payload += PAYLOAD - 16)
    {
      EtFixtureFile *fx = et_fixture_file_new ("resident.nettrace");
      g_autoptr(GError) error = NULL;
      g_autoptr(EtTrace) trace = NULL;
      g_autofree char *full = NULL;
      GStatBuf st;
      gint64 resident;

      assert_true (et_fixture_write_nettrace_large_with (fx->path, 5000, 3, payload, &error));
      trace = et_trace_load (fx->path, 0, NULL, NULL, NULL, &error);
      assert_non_null (trace);
      assert_int_equal (g_stat (fx->path, &st), 0);
      full = g_canonicalize_filename (fx->path, NULL);
      resident = resident_of (full);
      if (resident < 0)
        skip ();
      print_message ("# payloads of %u bytes: %" G_GINT64_FORMAT " of the file's %" G_GINT64_FORMAT
                     " bytes resident after loading\n", payload, resident, (gint64) st.st_size);
      assert_true (resident * 20 < (gint64) st.st_size);
      et_fixture_file_free (fx);
    }
}

/* The window decodes events from the mapped file long after loading, and
 * an image's payloads stay there: a file cut then fails the events whose
 * payloads are gone, never SIGBUS. The compromise (et-image-record.c):
 * the bytes past the cut in the page the file now ends in read as zeros,
 * as the tail of an .etl record crossing the cut does: the payloads there
 * (a page's worth) end early, with no other value. */
static void
test_payloads_cut_after_loading_fail_never_crash (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("cut.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  EtFields *fields = et_fields_new ();
  GStatBuf st;
  guint64 ok = 0, gone = 0, zeros = 0, size;

  assert_true (et_fixture_write_nettrace_large_with (fx->path, 5000, 3, PAYLOAD, &error));
  trace = et_trace_load (fx->path, 0, NULL, NULL, NULL, &error);
  assert_non_null (trace);
  assert_int_equal (g_stat (fx->path, &st), 0);
  size = (guint64) st.st_size;
  assert_true (et_fixture_damage_truncate (fx->path, size / 2, NULL));
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      g_autoptr(GError) decode_error = NULL;
      const char *text;
      EtEvent ev;
      gsize len;
      gint k;

      et_fields_clear (fields);
      if (!et_trace_decode_event (trace, i, &ev, fields, &decode_error))
        {
          gone += decode_error != NULL && strstr (decode_error->message, "shrank") != NULL;
          continue;
        }
      if ((k = et_fields_find (fields, "detail")) < 0)
        continue;
      text = et_fields_text (fields, (guint) k, &len);
      if (is_detail (text, len))
        ok++;
      else
        {
          /* in the page the file now ends in: zeros from the cut on */
          assert_true (is_detail_start (text, len));
          zeros++;
        }
    }
  print_message ("# cut at %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " details read, %"
                 G_GUINT64_FORMAT " gone, %" G_GUINT64_FORMAT " read as zeros\n", size / 2, ok,
                 gone, zeros);
  assert_true (ok > 1000 && gone > 1000);
  assert_true (zeros <= 4096 / PAYLOAD + 1);
  et_fields_free (fields);
  et_fixture_file_free (fx);
}

static EtEtlFile *
open_with_chunks (const char *path, const char *chunk)
{
  g_autoptr(GError) error = NULL;
  EtEtlFile *file;

  if (chunk != NULL)
    g_setenv ("ETLSCOPE_IMAGE_CHUNK", chunk, TRUE);
  file = et_nettrace_open (path, no_damage, NULL, NULL, NULL, NULL, &error);
  g_unsetenv ("ETLSCOPE_IMAGE_CHUNK");
  assert_non_null (file);
  return file;
}

/* @a and @b hold the same buffers, byte for byte, each from the same
 * EventBlock; returns how many (more than 8). */
static guint
assert_same_buffers (EtEtlFile *a, EtEtlFile *b)
{
  guint n = et_etl_file_n_buffers (a);

  assert_true (n > 8);
  assert_int_equal (et_etl_file_n_buffers (b), n);
  for (guint i = 0; i < n; i++)
    {
      gsize len_a, len_b;
      const guint8 *bytes_a = et_etl_file_buffer (a, i, &len_a);
      const guint8 *bytes_b = et_etl_file_buffer (b, i, &len_b);

      assert_int_equal (len_a, len_b);
      assert_memory_equal (bytes_a, bytes_b, len_a);
      assert_int_equal (et_etl_file_buffer_info (a, i)->offset,
                        et_etl_file_buffer_info (b, i)->offset);
    }
  return n;
}

/* A chunk of one byte holds one buffer each: the image is in as many
 * allocations as it has buffers (no buffer follows the one before in
 * memory), and every buffer is what the default chunks hold. */
static void
test_image_in_chunks_past_one (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("chunks.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtEtlFile) whole = NULL;
  g_autoptr(EtEtlFile) chunked = NULL;
  guint n, apart = 0;

  assert_true (et_fixture_write_nettrace_large (fx->path, 30000, 1, &error));
  whole = open_with_chunks (fx->path, NULL);
  chunked = open_with_chunks (fx->path, "1");
  n = assert_same_buffers (whole, chunked);
  for (guint i = 2; i < n; i++)
    {
      gsize len, prev_len;
      const guint8 *a = et_etl_file_buffer (whole, i, &len);
      const guint8 *b = et_etl_file_buffer (chunked, i, &len);
      const guint8 *prev = et_etl_file_buffer (chunked, i - 1, &prev_len);

      apart += b != prev + et_etl_file_buffer_info (chunked, i - 1)->disk_size;
      /* in the default chunks, buffers lie back to back (the header
       * buffer, 0, is made last, in a chunk of its own) */
      assert_ptr_equal (a, et_etl_file_buffer (whole, i - 1, &prev_len)
                             + et_etl_file_buffer_info (whole, i - 1)->disk_size);
    }
  assert_int_equal (apart, n - 2);
  et_fixture_file_free (fx);
}

static void
note_damage (guint64 offset, const char *message, gpointer user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("%" G_GUINT64_FORMAT " %s", offset, message));
}

/* ETLSCOPE_SLOT_SPACE shrinks the model's slot space (as for an .etl,
 * test-damage.c): the image keeps the buffers that fit and says, once,
 * where the first event it did not read is and how many it did not read;
 * the loaded trace has the others, and the loader has nothing beyond to
 * report. */
static void
test_events_past_the_slot_space_are_counted_and_said (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("slots.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) all = NULL;
  g_autoptr(EtTrace) part = NULL;
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(EtEtlFile) file = NULL;
  g_autofree char *count = NULL;
  const EtDamage *d;
  guint n_damage = 0;
  guint64 missing, at;

  assert_true (et_fixture_write_nettrace_large (fx->path, 30000, 1, &error));
  all = et_trace_load (fx->path, 0, NULL, NULL, NULL, &error);
  assert_non_null (all);
  g_setenv ("ETLSCOPE_SLOT_SPACE", "30000", TRUE);
  part = et_trace_load (fx->path, 0, NULL, NULL, NULL, &error);
  file = et_nettrace_open (fx->path, note_damage, said, NULL, NULL, NULL, &error);
  g_unsetenv ("ETLSCOPE_SLOT_SPACE");
  assert_non_null (part);
  assert_non_null (file);
  missing = et_trace_get_n_events (all) - et_trace_get_n_events (part);
  assert_true (missing > 0 && et_trace_get_n_events (part) > 1000);
  d = et_trace_get_damage (part, &n_damage);
  assert_int_equal (n_damage, 1);
  assert_int_equal (said->len, 1);
  count = g_strdup_printf (": %" G_GUINT64_FORMAT " events, the first here, are not read",
                           missing);
  assert_non_null (strstr (d[0].message, count));
  assert_non_null (strstr (d[0].message, fx->path));
  assert_non_null (strstr (d[0].message, "more events than Etlscope can index"));
  at = g_ascii_strtoull (said->pdata[0], NULL, 10);
  assert_int_equal (d[0].offset, at);
  assert_true (at > 0 && at < et_etl_file_size (file));
  et_fixture_file_free (fx);
}

/* Writes @n events on seven threads and three processors: every fifth
 * with an activity id, every eleventh a related one, a new stack every
 * thousand (a sequence point every 50,000), a 300-character label every
 * 997th (named in the file), and every 100,003rd too large for a record.
 * Returns the file's size. */
static guint64
write_mixed (const char *path, guint n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureNettrace) nt = NULL;
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autofree char *label = g_strnfill (300, 'w');
  g_autofree char *huge = g_strnfill (40000, 'h');
  EtFixtureNettraceOptions o;
  GStatBuf st;

  et_fixture_nettrace_options_init (&o);
  nt = et_fixture_nettrace_new (path, &o, &error);
  assert_non_null (nt);
  for (guint i = 0; i < n; i++)
    {
      EtFixtureEvent ev;

      if (i % 50000 == 49999)
        et_fixture_nettrace_sequence_point (nt, 0);
      if (i % 1000 == 0)
        {
          const guint64 ips[3] = { 0x7ff012340000 + i, 0x7ff012340100, 0x7ff012340200 };

          et_fixture_nettrace_use_stack (nt, ips, 1 + i / 1000 % 3);
        }
      et_fixture_event_init (&ev);
      ev.pid = 4242;
      ev.tid = 100 + i % 7;
      ev.cpu = i % 3;
      ev.time_ns = 1000000 + 1000 * (gint64) i;
      ev.id = 1;
      if (i % 5 == 0)
        ev.activity_id.data1 = i + 1;
      if (i % 11 == 0)
        ev.related_activity_id.data1 = i + 7;
      et_fixture_payload_reset (p);
      et_fixture_payload_add_i32 (p, "item", (gint32) i);
      et_fixture_payload_add_utf16 (p, "label", i % 100003 == 50000 ? huge
                                                : i % 997 == 0 ? label : "work");
      et_fixture_nettrace_write_event (nt, &ev, "Etlscope-Beside", "Work", p);
    }
  et_fixture_nettrace_sequence_point (nt, 0);
  assert_true (et_fixture_nettrace_close (nt, &error));
  assert_int_equal (g_stat (path, &st), 0);
  return (guint64) st.st_size;
}

/* Opens @path on @threads threads ("1": one), noting its damage in
 * @said; returns how many items were built beside reading. */
static guint64
open_on (const char *path, const char *threads, GPtrArray *said, EtEtlFile **file)
{
  g_autoptr(GError) error = NULL;
  guint64 before = _et_nettrace_built_beside ();

  g_setenv ("ETLSCOPE_THREADS", threads, TRUE);
  *file = et_nettrace_open (path, note_damage, said, NULL, NULL, NULL, &error);
  g_unsetenv ("ETLSCOPE_THREADS");
  assert_non_null (*file);
  return _et_nettrace_built_beside () - before;
}

/* 600,000 events, damaged in three EventBlocks (early, before building
 * moves beside reading, and twice after): opened on one thread and on
 * two, the images hold the same buffers byte for byte, from the same
 * EventBlocks, and the damage is said alike and in the same order. */
static void
test_building_beside_reading_makes_the_same_image (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("beside.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(EtEtlFile) one = NULL;
  g_autoptr(EtEtlFile) two = NULL;
  g_autoptr(GPtrArray) said_one = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) said_two = g_ptr_array_new_with_free_func (g_free);
  guint64 size, beside;
  guint n, too_large = 0;

  size = write_mixed (fx->path, 600000);
  for (guint k = 0; k < 3; k++)
    assert_true (et_fixture_damage_flip_bits (fx->path, size / 20 + k * (size / 3),
                                              0xFF, &error));
  assert_int_equal (open_on (fx->path, "1", said_one, &one), 0);
  beside = open_on (fx->path, "2", said_two, &two);
  assert_true (beside > 100000);
  n = assert_same_buffers (one, two);
  assert_true (said_one->len >= 4);
  assert_int_equal (said_two->len, said_one->len);
  for (guint i = 0; i < said_one->len; i++)
    {
      assert_string_equal (said_two->pdata[i], said_one->pdata[i]);
      too_large += strstr (said_one->pdata[i], "larger than Etlscope's records") != NULL;
    }
  assert_int_equal (too_large, 6);
  print_message ("# %u buffers, %u damage reports, %" G_GUINT64_FORMAT " items built beside "
                 "reading\n", n, said_one->len, beside);
  et_fixture_file_free (fx);
}

typedef struct
{
  GCancellable *cancellable;
  guint64       at;        /* cancels once told this many bytes */
  guint64       told;      /* the most it was told */
} CancelAt;

static void
cancel_past (guint64 done, guint64 total, gpointer user_data)
{
  CancelAt *c = user_data;

  c->told = MAX (c->told, done);
  if (done >= c->at)
    g_cancellable_cancel (c->cancellable);
}

/* Cancelled while building beside reading (past two thirds of the
 * file): opening stops with G_IO_ERROR_CANCELLED, both threads done and
 * everything given back (the sanitizer build checks that nothing
 * leaked). Asked to tell no damage, the events too large for a record
 * before it are not told (telling them crashed opening). */
static void
test_cancelled_while_building_beside (void **state)
{
  EtFixtureFile *fx = et_fixture_file_new ("beside-cancel.nettrace");
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint64 before, size;
  CancelAt c = { cancellable, 0, 0 };

  size = write_mixed (fx->path, 600000);
  c.at = size * 2 / 3;
  before = _et_nettrace_built_beside ();
  g_setenv ("ETLSCOPE_THREADS", "2", TRUE);
  assert_null (et_nettrace_open (fx->path, NULL, NULL, cancel_past, &c, cancellable, &error));
  g_unsetenv ("ETLSCOPE_THREADS");
  assert_true (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  assert_true (_et_nettrace_built_beside () > before);
  assert_true (c.told >= c.at && c.told < size);
  et_fixture_file_free (fx);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_image_holds_no_copy_of_the_payloads),
    cmocka_unit_test (test_file_pages_leave_once_loaded),
    cmocka_unit_test (test_payloads_cut_after_loading_fail_never_crash),
    cmocka_unit_test (test_image_in_chunks_past_one),
    cmocka_unit_test (test_events_past_the_slot_space_are_counted_and_said),
    cmocka_unit_test (test_building_beside_reading_makes_the_same_image),
    cmocka_unit_test (test_cancelled_while_building_beside),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
