/* test-etl-inflate.c — an .etl file's compressed buffers decompressed
 * after the walk, on every core (model/etl/et-etl-inflate.c): the bytes
 * and the problems do not depend on how many threads decompress, several
 * damaged buffers are each reported at their own offset in buffer order,
 * and every other buffer keeps its bytes. Files are the fixture writer's;
 * the corpus's relogged trace when it is present.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "et-etl-reader.h"
#include "et-xpress.h"
#include "et-fixture.h"

typedef struct
{
  guint64 offset;
  char   *message;
} Problem;

static void
problem_clear (gpointer data)
{
  g_free (((Problem *) data)->message);
}

static void
collect (guint64 offset, const char *message, gpointer data)
{
  Problem p = { offset, g_strdup (message) };

  g_array_append_val ((GArray *) data, p);
}

/* Opens @path with @threads decompressing; its problems go to @problems
 * (may be NULL: none expected). */
static EtEtlFile *
open_with (const char *path, const char *threads, GArray *problems)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (Problem));
  EtEtlFile *file;

  g_array_set_clear_func (none, problem_clear);
  g_setenv ("ETLSCOPE_THREADS", threads, TRUE);
  file = et_etl_file_open (path, collect, problems != NULL ? problems : none, &error);
  g_unsetenv ("ETLSCOPE_THREADS");
  g_assert_no_error (error);
  assert_non_null (file);
  if (problems == NULL && none->len > 0)
    fail_msg ("%s: %s", path, g_array_index (none, Problem, 0).message);
  return file;
}

/* Buffer @i of @a and @b holds the same data (past the header, which a
 * damaged size field may change). */
static gboolean
same_data (EtEtlFile *a, EtEtlFile *b, guint i)
{
  gsize len_a, len_b;
  const guint8 *da = et_etl_file_buffer (a, i, &len_a);
  const guint8 *db = et_etl_file_buffer (b, i, &len_b);

  return len_a == len_b && memcmp (da + ET_BUFFER_HEADER_SIZE, db + ET_BUFFER_HEADER_SIZE,
                                   len_a - ET_BUFFER_HEADER_SIZE) == 0;
}

/* The demo trace in 4 KiB compressed buffers: some seventy of them. */
static EtFixtureFile *
write_compressed (void)
{
  g_autoptr(GError) error = NULL;
  EtFixtureFile *f = et_fixture_file_new ("compressed.etl");
  EtFixtureOptions o;

  et_fixture_options_init (&o);
  o.buffer_size = 4096;
  o.compress = TRUE;
  assert_true (et_fixture_write_demo (f->path, &o, &error));
  g_assert_no_error (error);
  return f;
}

static void
assert_same_file (EtEtlFile *a, EtEtlFile *b)
{
  assert_int_equal (et_etl_file_n_buffers (a), et_etl_file_n_buffers (b));
  assert_int_equal (et_etl_file_n_compressed (a), et_etl_file_n_compressed (b));
  for (guint i = 0; i < et_etl_file_n_buffers (a); i++)
    assert_true (same_data (a, b, i));
}

/* Each compressed buffer of @file holds what its stream in @path's bytes
 * decodes to on its own, read apart from the reader's mapping (whose
 * pages of compressed bytes it gives back once decoded). */
static void
assert_decoded_from_file (EtEtlFile *file, const char *path)
{
  g_autofree guint8 *bytes = NULL;
  gsize size;

  assert_true (g_file_get_contents (path, (char **) &bytes, &size, NULL));
  for (guint i = 0; i < et_etl_file_n_buffers (file); i++)
    {
      const EtBufferInfo *info = et_etl_file_buffer_info (file, i);
      gsize len, out_len = 0, cap = info->data_end - ET_BUFFER_HEADER_SIZE;
      const guint8 *data = et_etl_file_buffer (file, i, &len);
      g_autofree guint8 *out = g_malloc (cap + 1);

      if (info->data_index == G_MAXUINT32)
        continue;
      assert_true (info->offset + info->disk_size <= size);
      assert_int_equal (et_xpress_decompress (bytes + info->offset + ET_BUFFER_HEADER_SIZE,
                                              info->disk_size - ET_BUFFER_HEADER_SIZE, out,
                                              cap, &out_len, NULL), ET_XPRESS_OK);
      assert_int_equal (out_len, cap);
      assert_memory_equal (data, bytes + info->offset, ET_BUFFER_HEADER_SIZE);
      assert_memory_equal (data + ET_BUFFER_HEADER_SIZE, out, cap);
    }
}

/* One thread or four: the same buffers, byte for byte, each what its
 * stream decodes to, and no problem. */
static void
test_thread_count_changes_no_byte (void **state)
{
  EtFixtureFile *f = write_compressed ();
  g_autoptr(EtEtlFile) one = open_with (f->path, "1", NULL);
  g_autoptr(EtEtlFile) four = open_with (f->path, "4", NULL);

  assert_true (et_etl_file_n_compressed (one) > 40);
  assert_int_equal (et_etl_file_n_compressed (one), et_etl_file_n_buffers (one) - 1);
  assert_same_file (one, four);
  assert_decoded_from_file (four, f->path);
  et_fixture_file_free (f);
}

/* The first problem of @problems whose message holds @text, else fails. */
static const Problem *
find_problem (GArray *problems, const char *text)
{
  for (guint i = 0; i < problems->len; i++)
    if (strstr (g_array_index (problems, Problem, i).message, text) != NULL)
      return &g_array_index (problems, Problem, i);
  fail_msg ("no problem says \"%s\" (%u problems)", text, problems->len);
  return NULL;
}

/* The buffer a problem's message names ("… buffer 12…"). */
static guint
buffer_named (const Problem *p)
{
  const char *at = strstr (p->message, "buffer ");

  assert_non_null (at);
  return (guint) g_ascii_strtoull (at + strlen ("buffer "), NULL, 10);
}

/* Damages compressed buffers @b[0…3] of @path: a stream no decoder can
 * follow, a BufferSize 8 bytes too large, a stream that fails half-way,
 * and a header stating 64 bytes more data than its stream gives. */
static void
damage_four (const char *path, const EtFixtureLayout *layout, const guint b[4])
{
  const EtFixtureBufferInfo *info = &g_array_index (layout->buffers, EtFixtureBufferInfo, 0);
  const guint8 bad_match[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xF8, 0xFF };
  guint32 end = GUINT32_TO_LE (info[b[3]].data_end + 64);
  guint64 middle = info[b[2]].offset + ET_BUFFER_HEADER_SIZE
                   + (info[b[2]].size - ET_BUFFER_HEADER_SIZE) / 2;

  assert_true (et_fixture_damage_compressed (path, b[0], NULL));
  assert_true (et_fixture_damage_buffer_size (path, b[1], info[b[1]].size + 8, NULL));
  assert_true (et_fixture_damage_write (path, middle, bad_match, sizeof bad_match, NULL));
  assert_true (et_fixture_damage_write (path, info[b[3]].offset + 0x30, &end, 4, NULL));
}

/* Several damaged buffers: each problem at its own offset, in buffer order
 * (as the walk met them), the same with one thread as with four; every
 * buffer whose stream is whole keeps its data. */
static void
test_damaged_buffers_reported_in_order_others_kept (void **state)
{
  EtFixtureFile *f = write_compressed ();
  g_autoptr(EtFixtureLayout) layout = et_fixture_layout_read (f->path, NULL);
  g_autoptr(GArray) p1 = g_array_new (FALSE, FALSE, sizeof (Problem));
  g_autoptr(GArray) p4 = g_array_new (FALSE, FALSE, sizeof (Problem));
  const guint b[4] = { 3, 11, 20, 29 };
  g_autoptr(EtEtlFile) base = NULL, one = NULL, four = NULL;
  const EtFixtureBufferInfo *info;
  const Problem *p;

  assert_non_null (layout);
  info = &g_array_index (layout->buffers, EtFixtureBufferInfo, 0);
  for (guint k = 0; k < 4; k++)
    assert_true (info[b[k]].compressed);
  base = open_with (f->path, "1", NULL);
  damage_four (f->path, layout, b);
  g_array_set_clear_func (p1, problem_clear);
  g_array_set_clear_func (p4, problem_clear);
  one = open_with (f->path, "1", p1);
  four = open_with (f->path, "4", p4);

  /* the same problems, in the same order, from either */
  assert_int_equal (p1->len, p4->len);
  for (guint i = 0; i < p1->len; i++)
    {
      const Problem *a = &g_array_index (p1, Problem, i), *other = &g_array_index (p4, Problem, i);

      assert_int_equal (a->offset, other->offset);
      assert_string_equal (a->message, other->message);
      if (i > 0)
        assert_true (buffer_named (a) >= buffer_named (a - 1));
    }
  assert_same_file (one, four);

  /* each where it is: the first match token after the flag word; the
   * header; the stream's middle or later; the header */
  p = find_problem (p1, "compressed buffer 3: match refers to data before the start");
  assert_int_equal (p->offset, info[3].offset + ET_BUFFER_HEADER_SIZE + 4);
  assert_non_null (strstr (p->message, f->path));
  p = find_problem (p1, "buffer 11 states a size of");
  assert_int_equal (p->offset, info[11].offset);
  p = find_problem (p1, "compressed buffer 20: ");
  assert_true (p->offset >= info[20].offset + ET_BUFFER_HEADER_SIZE
                                + (info[20].size - ET_BUFFER_HEADER_SIZE) / 2);
  assert_true (p->offset < info[20].offset + info[20].size);
  p = find_problem (p1, "compressed buffer 29 decompresses to");
  assert_int_equal (p->offset, info[29].offset);

  /* the others keep every byte; buffer 11's stream and 29's are whole */
  assert_int_equal (et_etl_file_n_buffers (one), et_etl_file_n_buffers (base));
  for (guint i = 0; i < et_etl_file_n_buffers (base); i++)
    if (i != 3 && i != 20)
      assert_true (same_data (one, base, i));
  assert_false (same_data (one, base, 20));
  et_fixture_file_free (f);
}

/* The corpus's relogged trace (359 compressed buffers of up to 64 KiB):
 * the same bytes from one thread and from two, and no problem. */
static void
test_corpus_relogged_trace_same_on_every_core (void **state)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "net.4.5.2.x64.etl", NULL) : NULL;
  g_autoptr(EtEtlFile) one = NULL, two = NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      print_message ("# corpus not found at %s\n", path != NULL ? path : "(ET_CORPUS_DIR unset)");
      skip ();
      return;
    }
  one = open_with (path, "1", NULL);
  two = open_with (path, "2", NULL);
  assert_true (et_etl_file_n_compressed (one) > 300);
  assert_same_file (one, two);
  assert_decoded_from_file (two, path);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_thread_count_changes_no_byte),
    cmocka_unit_test (test_damaged_buffers_reported_in_order_others_kept),
    cmocka_unit_test (test_corpus_relogged_trace_same_on_every_core),
  };

  return cmocka_run_group_tests_name ("etl-inflate", tests, NULL, NULL);
}
