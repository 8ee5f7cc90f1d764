/* test-xpress-fast.c — the fast way through Plain LZ77 (model/etl/et-xpress.c,
 * decode_fast): streams long enough that items are decoded with one input
 * check per literal run and match, and copied 16 bytes at a time. Every
 * distance class (1–7, 8–15, 16 and more, overlapping or not), every
 * output capacity short of the data, and errors far into a stream give
 * what the careful path gives: the same bytes, the same status at the
 * same input offset, nothing written past the capacity. test-xpress.c
 * holds the format's own cases on short streams.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "et-xpress.h"
#include "et-xpress-compress.h"

#define GUARD 64

/* Decodes from an allocation of exactly @len bytes into one of @cap + GUARD
 * bytes filled with 0xa5, and checks that the guard is untouched: the
 * sanitizer build catches reads past the input, this any write past @cap. */
static EtXpressStatus
decode_guarded (const guint8 *in, gsize len, guint8 **out, gsize cap, gsize *out_len, gsize *bad)
{
  g_autofree guint8 *copy = g_memdup2 (in, len);
  EtXpressStatus status;

  *out = g_malloc (cap + GUARD);
  memset (*out, 0xa5, cap + GUARD);
  *bad = G_MAXSIZE;
  status = et_xpress_decompress (copy, len, *out, cap, out_len, bad);
  for (gsize i = cap; i < cap + GUARD; i++)
    assert_int_equal ((*out)[i], 0xa5);
  return status;
}

/* 64 KiB or so: random literals, then repeats of what came before at every
 * distance from 1 to 70 and some far ones, of lengths 3 to 600. */
static guint8 *
make_long (gsize *len)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (36);
  GByteArray *a = g_byte_array_new ();

  while (a->len < 65536)
    {
      guint literals = g_rand_int_range (rand, 0, 5);
      guint dist = g_rand_boolean (rand) ? g_rand_int_range (rand, 1, 71)
                                         : g_rand_int_range (rand, 71, 8000);
      guint length = g_rand_int_range (rand, 0, 8) == 0 ? g_rand_int_range (rand, 20, 600)
                                                          : g_rand_int_range (rand, 3, 20);

      for (guint i = 0; i < literals || a->len < 8; i++)
        {
          guint8 b = g_rand_int (rand);
          g_byte_array_append (a, &b, 1);
        }
      dist = MIN (dist, a->len);
      for (guint i = 0; i < length; i++)
        {
          /* (a copy: appending may move the array's bytes) */
          guint8 b = a->data[a->len - dist];
          g_byte_array_append (a, &b, 1);
        }
    }
  *len = a->len;
  return g_byte_array_free (a, FALSE);
}

static void
test_long_stream_round_trips (void **state)
{
  gsize len, clen, out_len, bad;
  g_autofree guint8 *data = make_long (&len);
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);
  g_autofree guint8 *exact = NULL;
  g_autofree guint8 *roomy = NULL;

  assert_int_equal (decode_guarded (packed, clen, &exact, len, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, len);
  assert_memory_equal (exact, data, len);
  assert_int_equal (decode_guarded (packed, clen, &roomy, len + 1000, &out_len, &bad),
                    ET_XPRESS_OK);
  assert_int_equal (out_len, len);
  assert_memory_equal (roomy, data, len);
}

/* Capacities all through the stream, and every one of the last 40 bytes:
 * OVERFLOW, what fits is right, nothing past the capacity. */
static void
test_long_stream_every_capacity_overflows_cleanly (void **state)
{
  gsize len, clen;
  g_autofree guint8 *data = make_long (&len);
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);

  for (gsize cap = 0; cap < len; cap += cap + 40 < len ? 331 : 1)
    {
      g_autofree guint8 *out = NULL;
      gsize out_len = 0, bad;

      assert_int_equal (decode_guarded (packed, clen, &out, cap, &out_len, &bad),
                        ET_XPRESS_OVERFLOW);
      assert_true (out_len <= cap);
      assert_true (bad < clen);
      assert_memory_equal (out, data, out_len);
    }
}

/* @groups flag words of 32 literals each ('a' + group), then a flag word
 * whose first item is a match with @token (and @extra bytes after it) and
 * whose 31 others are 'z', then TAIL_GROUPS groups of 32 'z': the match
 * lies far from the end, where items are decoded the fast way. */
#define TAIL_GROUPS 12

static GByteArray *
stream_with_match_after (guint groups, guint16 token, const guint8 *extra, gsize n_extra)
{
  GByteArray *a = g_byte_array_new ();
  static const guint8 all_literals[4] = { 0, 0, 0, 0 };
  static const guint8 match_first[4] = { 0, 0, 0, 0x80 };
  guint8 t[2] = { token & 0xff, token >> 8 };

  for (guint g = 0; g < groups; g++)
    {
      g_byte_array_append (a, all_literals, 4);
      for (guint i = 0; i < 32; i++)
        g_byte_array_append (a, &(guint8) { 'a' + g % 26 }, 1);
    }
  g_byte_array_append (a, match_first, 4);
  g_byte_array_append (a, t, 2);
  g_byte_array_append (a, extra, n_extra);
  for (guint i = 0; i < 31 + TAIL_GROUPS * 36; i++)
    g_byte_array_append (a, i >= 31 && (i - 31) % 36 < 4 ? all_literals : (const guint8 *) "z", 1);
  return a;
}

static void
test_errors_far_into_a_stream_name_their_token (void **state)
{
  /* 20 groups: 640 bytes out, the token at 20 × 36 + 4 = 724. */
  static const guint8 u16_of_five[] = { 0x0f, 0xff, 0x05, 0x00 };
  g_autoptr (GByteArray) far = stream_with_match_after (20, (640 << 3) | 0, NULL, 0);
  g_autoptr (GByteArray) near = stream_with_match_after (20, (639 << 3) | 0, NULL, 0);
  g_autoptr (GByteArray) bad_length = stream_with_match_after (20, 7, u16_of_five, 4);
  g_autofree guint8 *out = NULL;
  g_autofree guint8 *out2 = NULL;
  g_autofree guint8 *out3 = NULL;
  g_autofree guint8 *out4 = NULL;
  gsize out_len, bad;

  assert_int_equal (decode_guarded (far->data, far->len, &out, 4096, &out_len, &bad),
                    ET_XPRESS_BAD_DISTANCE);
  assert_int_equal (bad, 724);
  assert_int_equal (out_len, 640);
  assert_int_equal (decode_guarded (bad_length->data, bad_length->len, &out2, 4096, &out_len,
                                    &bad), ET_XPRESS_BAD_LENGTH);
  assert_int_equal (bad, 724);
  assert_int_equal (out_len, 640);
  /* Distance 640 reaches the first byte: a 3-byte match of "aaa". */
  assert_int_equal (decode_guarded (near->data, near->len, &out3, 4096, &out_len, &bad),
                    ET_XPRESS_OK);
  assert_int_equal (out_len, 640 + 3 + 31 + TAIL_GROUPS * 32);
  assert_memory_equal (out3 + 640, "aaazzz", 6);
  /* The same stream into 641 bytes: the match does not fit, at its token. */
  assert_int_equal (decode_guarded (near->data, near->len, &out4, 641, &out_len, &bad),
                    ET_XPRESS_OVERFLOW);
  assert_int_equal (bad, 724);
  assert_int_equal (out_len, 640);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_long_stream_round_trips),
    cmocka_unit_test (test_long_stream_every_capacity_overflows_cleanly),
    cmocka_unit_test (test_errors_far_into_a_stream_name_their_token),
  };

  return cmocka_run_group_tests_name ("xpress-fast", tests, NULL, NULL);
}
