/* Tests for et-memory's mapped blocks and spare pages: a block grows and
 * shrinks keeping what it holds, and pages passed on from a block done
 * with are written without a page fault where fresh ones take one each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/resource.h>

#include "et-memory.h"
#include "et-workers.h"

/* Page faults this process has taken so far (minor: no disk). */
static long
minor_faults (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/* Writes a byte in each page of [@data, @data + @len). */
static void
touch (guint8 *data, gsize len)
{
  for (gsize at = 0; at < len; at += et_memory_page_size ())
    ((volatile guint8 *) data)[at] = (guint8) (at / et_memory_page_size ());
}

/* A block keeps its bytes as it grows many times over (its pages move,
 * they are not copied) and as it shrinks; what it holds is whole pages. */
static void
test_mapped_block_keeps_its_bytes (void **state)
{
  EtMapped m = { NULL, 0 };
  guint32 *v = et_mapped_reserve (&m, 100 * sizeof (guint32));
  guint n = 100;

  assert_non_null (v);
  assert_int_equal (m.size % et_memory_page_size (), 0);
  for (guint i = 0; i < n; i++)
    v[i] = i * 7;
  for (guint round = 0; round < 6; round++)
    {
      n *= 10;
      v = et_mapped_reserve (&m, n * sizeof (guint32));
      assert_true (m.size >= n * sizeof (guint32));
      for (guint i = n / 10; i < n; i++)
        v[i] = i * 7;
    }
  for (guint i = 0; i < n; i++)
    assert_int_equal (v[i], i * 7);
  /* asking for less than it has changes nothing */
  assert_ptr_equal (et_mapped_reserve (&m, 16), v);
  et_mapped_shrink (&m, 5000 * sizeof (guint32));
  assert_int_equal (m.size, (5000 * sizeof (guint32) + et_memory_page_size () - 1)
                            / et_memory_page_size () * et_memory_page_size ());
  for (guint i = 0; i < 5000; i++)
    assert_int_equal (v[i], i * 7);
  et_mapped_clear (&m);
  assert_null (m.data);
  assert_int_equal (m.size, 0);
  et_mapped_clear (&m);          /* twice is fine */
}

/* Pages of blocks done with, placed at the front of a new block, are
 * written there without a page fault; the block's other pages, fresh,
 * take one each at their first write. The pages placed are counted out
 * of the spare ones, and no more are placed than there are. */
static void
test_spare_pages_are_written_without_faults (void **state)
{
  const gsize page = et_memory_page_size (), pages = 64;
  EtSparePages *spare = et_spare_pages_new ();
  EtMapped a = { NULL, 0 }, b = { NULL, 0 }, c = { NULL, 0 };
  guint8 *to;
  long before, placed_faults, fresh_faults;

  /* two blocks written whole, then given up */
  touch (et_mapped_reserve (&a, pages / 2 * page), pages / 2 * page);
  touch (et_mapped_reserve (&b, pages / 2 * page), pages / 2 * page);
  et_spare_pages_add (spare, &a);
  et_spare_pages_add (spare, &b);
  assert_null (a.data);
  assert_int_equal (et_spare_pages_size (spare), pages * page);

  to = et_mapped_reserve (&c, 3 * pages * page);
  /* asked for more than there is: all of them, across both blocks */
  assert_int_equal (et_spare_pages_place (spare, to, 2 * pages * page), pages * page);
  assert_int_equal (et_spare_pages_size (spare), 0);
  assert_int_equal (et_spare_pages_place (spare, to + pages * page, page), 0);

  before = minor_faults ();
  touch (to, pages * page);
  placed_faults = minor_faults () - before;
  before = minor_faults ();
  touch (to + pages * page, pages * page);
  fresh_faults = minor_faults () - before;
  /* (none at all but for a sanitizer's shadow of the new addresses: a
   * page of it per eight) */
  assert_true (fresh_faults >= (long) pages);
  assert_true (placed_faults * 4 <= fresh_faults);
  /* the placed pages are the block's own now */
  memset (to, 0xAB, pages * page);
  for (gsize at = 0; at < pages * page; at += page / 2)
    assert_int_equal (to[at], 0xAB);
  et_mapped_clear (&c);
  et_spare_pages_free (spare);
}

/* Trimming gives back all but the first bytes asked to keep, whole pages,
 * across blocks; nothing to keep leaves none. */
static void
test_spare_pages_trim (void **state)
{
  const gsize page = et_memory_page_size ();
  EtSparePages *spare = et_spare_pages_new ();

  for (guint k = 0; k < 3; k++)
    {
      EtMapped m = { NULL, 0 };

      touch (et_mapped_reserve (&m, 10 * page), 10 * page);
      et_spare_pages_add (spare, &m);
    }
  assert_int_equal (et_spare_pages_size (spare), 30 * page);
  et_spare_pages_trim (spare, 15 * page + page / 2);
  assert_int_equal (et_spare_pages_size (spare), 15 * page);
  et_spare_pages_trim (spare, 40 * page);
  assert_int_equal (et_spare_pages_size (spare), 15 * page);
  et_spare_pages_trim (spare, 0);
  assert_int_equal (et_spare_pages_size (spare), 0);
  et_spare_pages_free (spare);
  et_spare_pages_free (NULL);
}

/* An item of work its thread writes as it goes. */
typedef struct
{
  guint64 count;
  guint8  rest[20];
} ET_WORKER_ITEM Counter;

#define COUNTS 100000

static gpointer
count_up (gpointer data)
{
  volatile guint64 *count = &((Counter *) data)->count;

  for (guint i = 0; i < COUNTS; i++)
    (*count)++;
  return NULL;
}

/* Items of work (et_workers_new) begin on cache lines of their own and
 * fill them, so that no two threads write one line: in every array of
 * several (one aligned by chance would not tell), zeroed, each counted
 * by its own thread. */
static void
test_worker_items_have_lines_of_their_own (void **state)
{
  Counter *arrays[8];

  assert_int_equal (sizeof (Counter) % 64, 0);
  for (guint a = 0; a < G_N_ELEMENTS (arrays); a++)
    {
      arrays[a] = et_workers_new (3, sizeof (Counter));
      for (guint k = 0; k < 3; k++)
        {
          assert_int_equal ((guintptr) &arrays[a][k] % 64, 0);
          assert_int_equal (arrays[a][k].count, 0);
        }
    }
  et_workers_run (arrays[0], sizeof (Counter), 3, count_up, "etlscope-test");
  for (guint k = 0; k < 3; k++)
    assert_int_equal (arrays[0][k].count, COUNTS);
  for (guint a = 0; a < G_N_ELEMENTS (arrays); a++)
    et_workers_free (arrays[a]);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_mapped_block_keeps_its_bytes),
    cmocka_unit_test (test_spare_pages_are_written_without_faults),
    cmocka_unit_test (test_spare_pages_trim),
    cmocka_unit_test (test_worker_items_have_lines_of_their_own),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
