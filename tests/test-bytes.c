/* Tests for et-bytes' comparison of short keys (et_bytes_equal): what the
 * decoding threads' caches compare per event instead of calling memcmp. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "et-bytes.h"

/* For every length up to five words and a tail, at every alignment: the
 * same bytes are equal, and a change of any one byte (in a whole word or
 * in the tail) makes them differ, as memcmp says. */
static void
test_bytes_equal_agrees_with_memcmp (void **state)
{
  guint8 a[64] = { 0 }, b[64] = { 0 };

  for (gsize len = 0; len <= 43; len++)
    for (gsize shift = 0; shift < 8; shift++)
      {
        for (gsize i = 0; i < len; i++)
          a[i] = b[shift + i] = (guint8) (i * 31 + 7);
        assert_true (et_bytes_equal (a, b + shift, len));
        for (gsize at = 0; at < len; at++)
          {
            b[shift + at] ^= 0x40;
            assert_false (et_bytes_equal (a, b + shift, len));
            assert_int_not_equal (memcmp (a, b + shift, len), 0);
            b[shift + at] ^= 0x40;
          }
        /* bytes past the length are not looked at */
        b[shift + len] = (guint8) ~a[len];
        assert_true (et_bytes_equal (a, b + shift, len));
      }
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_bytes_equal_agrees_with_memcmp),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
