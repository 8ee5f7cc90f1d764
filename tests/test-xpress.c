/* test-xpress.c — Plain LZ77 ([MS-XCA] 2.3/2.4): the decoder in
 * model/etl/et-xpress.c against the spec's own examples, hand-built streams,
 * hostile input and the real compressed buffers of the corpus; the fixture
 * encoder (tests/fixture/et-xpress-compress.c) through round trips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "et-xpress.h"
#include "et-xpress-compress.h"

/* Decodes @len bytes copied into an allocation of exactly that size, so the
 * sanitizer build catches any read past the input. */
static EtXpressStatus
decode (const guint8 *in, gsize len, guint8 *out, gsize cap, gsize *out_len, gsize *bad)
{
  g_autofree guint8 *copy = len > 0 ? g_memdup2 (in, len) : NULL;

  *bad = G_MAXSIZE;
  return et_xpress_decompress (copy, len, out, cap, out_len, bad);
}

static void
assert_round_trip (const guint8 *data, gsize len)
{
  gsize clen = 0, out_len = 0, bad;
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);
  g_autofree guint8 *out = g_malloc (len + 64);

  /* Decoding into exactly len bytes must succeed (the reader sizes the
   * output from the buffer header), and extra room must not be used. */
  assert_int_equal (decode (packed, clen, out, len, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, len);
  assert_memory_equal (out, data, len);
  assert_int_equal (decode (packed, clen, out, len + 64, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, len);
}

/* Mixed content that makes the encoder use literals, short matches, the
 * shared nibble, the byte, the u16 and the u32 length forms. */
static guint8 *
make_mixed (gsize *len)
{
  GByteArray *a = g_byte_array_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  static const char *words[] = { "Start", "Stop", "Marker", "EventSource", "Flag" };

  for (guint i = 0; i < 400; i++)
    {
      const char *w = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];
      guint8 noise = g_rand_int (rand);

      g_byte_array_append (a, (const guint8 *) w, strlen (w));
      g_byte_array_append (a, &noise, 1);
    }
  g_byte_array_set_size (a, a->len + 300);        /* byte form */
  memset (a->data + a->len - 300, 'z', 300);
  g_byte_array_set_size (a, a->len + 70000);      /* u32 form */
  memset (a->data + a->len - 70000, 0, 70000);
  g_byte_array_append (a, (const guint8 *) "tail-end", 8);
  *len = a->len;
  return g_byte_array_free (a, FALSE);
}

/* [MS-XCA] 3.1, first example: 26 literals; the unused flag bits are ones. */
static void
test_spec_example_literals_decode (void **state)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz";
  guint8 stream[30] = { 0x3f, 0x00, 0x00, 0x00 };
  guint8 out[64];
  gsize out_len, bad;

  memcpy (stream + 4, alphabet, 26);
  assert_int_equal (decode (stream, sizeof stream, out, sizeof out, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 26);
  assert_memory_equal (out, alphabet, 26);
}

static char *
abc_times_100 (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < 100; i++)
    g_string_append (s, "abc");
  return g_string_free (s, FALSE);
}

/* [MS-XCA] 3.1, second example: "abc" then one match of distance 3 and
 * length 297, which takes the nibble 15, the byte 255 and the u16 294. */
static void
test_spec_example_long_match_decode (void **state)
{
  static const guint8 stream[] = { 0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63,
                                   0x17, 0x00, 0x0f, 0xff, 0x26, 0x01 };
  g_autofree char *expected = abc_times_100 ();
  guint8 out[400];
  gsize out_len, bad;

  assert_int_equal (decode (stream, sizeof stream, out, sizeof out, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 300);
  assert_memory_equal (out, expected, 300);
}

/* The fixture encoder writes exactly the spec's bytes for both examples. */
static void
test_compress_reproduces_spec_examples (void **state)
{
  static const guint8 long_match[] = { 0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63,
                                       0x17, 0x00, 0x0f, 0xff, 0x26, 0x01 };
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz";
  g_autofree char *abc = abc_times_100 ();
  g_autofree guint8 *packed1 = NULL;
  g_autofree guint8 *packed2 = NULL;
  gsize len1, len2;

  packed1 = et_xpress_compress ((const guint8 *) alphabet, 26, &len1);
  assert_int_equal (len1, 30);
  assert_memory_equal (packed1, "\x3f\0\0\0", 4);
  assert_memory_equal (packed1 + 4, alphabet, 26);

  packed2 = et_xpress_compress ((const guint8 *) abc, 300, &len2);
  assert_int_equal (len2, sizeof long_match);
  assert_memory_equal (packed2, long_match, sizeof long_match);
}

/* Hand-built from the [MS-XCA] 2.4 rules (the spec has no example of it):
 * two long matches share one byte, low nibble first. "abc", then distance 3
 * length 12 (7 + 2 + 3, low nibble 2), then distance 3 length 20 (7 + 10 +
 * 3, high nibble 10 of the same byte 0xa2). */
static void
test_shared_nibble_low_then_high (void **state)
{
  static const guint8 stream[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c',
                                   0x17, 0x00, 0xa2, 0x17, 0x00 };
  g_autofree char *expected = abc_times_100 ();
  guint8 out[64];
  gsize out_len, bad;

  assert_int_equal (decode (stream, sizeof stream, out, sizeof out, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 3 + 12 + 20);
  assert_memory_equal (out, expected, out_len);
}

/* Hand-built: the nibble byte sits right after the first long match's token
 * and before that match's extension byte; the second long match reads only
 * the high nibble. Lengths 3 + 7 + 15 + 5 = 30 and 3 + 7 + 4 = 14. */
static void
test_nibble_byte_precedes_extension_byte (void **state)
{
  static const guint8 stream[] = { 0xff, 0xff, 0xff, 0x1f, 'x', 'y', 'z',
                                   0x17, 0x00, 0x4f, 0x05, 0x17, 0x00 };
  guint8 out[64];
  gsize out_len, bad;

  assert_int_equal (decode (stream, sizeof stream, out, sizeof out, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 3 + 30 + 14);
  for (gsize i = 0; i < out_len; i++)
    assert_int_equal (out[i], "xyz"[i % 3]);
}

/* Hand-built: "a" then distance 1 with the u16 form (length 1000, stored as
 * 997) and the u32 form (u16 0, then 70000 − 3). */
static void
test_u16_and_u32_length_forms_decode (void **state)
{
  static const guint8 stream[] = { 0xff, 0xff, 0xff, 0x7f, 'a',
                                   0x07, 0x00, 0xff, 0xff, 0xe5, 0x03,
                                   0x07, 0x00, 0xff, 0x00, 0x00, 0x6d, 0x11, 0x01, 0x00 };
  g_autofree guint8 *out = g_malloc (80000);
  gsize out_len, bad;

  assert_int_equal (decode (stream, sizeof stream, out, 80000, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 1 + 1000 + 70000);
  for (gsize i = 0; i < out_len; i++)
    assert_int_equal (out[i], 'a');
}

/* The u16/u32 forms hold length − 3 and the spec rejects values below 22
 * (they would have fitted the nibble or the byte). */
static void
test_long_form_below_22_is_bad_length (void **state)
{
  static const guint8 u16_form[] = { 0xff, 0xff, 0xff, 0x7f, 'a',
                                     0x07, 0x00, 0xff, 0xff, 0x15, 0x00 };
  static const guint8 u32_form[] = { 0xff, 0xff, 0xff, 0x7f, 'a',
                                     0x07, 0x00, 0xff, 0xff, 0x00, 0x00, 0x05, 0, 0, 0 };
  guint8 out[64];
  gsize out_len, bad;

  assert_int_equal (decode (u16_form, sizeof u16_form, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_BAD_LENGTH);
  assert_int_equal (bad, 5);
  assert_int_equal (out_len, 1);
  assert_int_equal (decode (u32_form, sizeof u32_form, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_BAD_LENGTH);
  assert_int_equal (bad, 5);
}

/* The encoder's u32 form, derived by hand from [MS-XCA] 2.3: one literal,
 * then distance 1 length 100000 = nibble 15, byte 255, u16 0, u32 99997. */
static void
test_compress_long_run_uses_u32_form (void **state)
{
  static const guint8 expected[] = { 0xff, 0xff, 0xff, 0x7f, 0x00,
                                     0x07, 0x00, 0x0f, 0xff, 0x00, 0x00,
                                     0x9d, 0x86, 0x01, 0x00 };
  g_autofree guint8 *zeros = g_malloc0 (100001);
  g_autofree guint8 *packed = NULL;
  gsize len;

  packed = et_xpress_compress (zeros, 100001, &len);
  assert_int_equal (len, sizeof expected);
  assert_memory_equal (packed, expected, sizeof expected);
  assert_round_trip (zeros, 100001);
}

/* Same for the u16 form: length 1000 is stored as 997 after the byte 255. */
static void
test_compress_run_uses_u16_form (void **state)
{
  static const guint8 expected[] = { 0xff, 0xff, 0xff, 0x7f, 0x00,
                                     0x07, 0x00, 0x0f, 0xff, 0xe5, 0x03 };
  g_autofree guint8 *zeros = g_malloc0 (1001);
  g_autofree guint8 *packed = NULL;
  gsize len;

  packed = et_xpress_compress (zeros, 1001, &len);
  assert_int_equal (len, sizeof expected);
  assert_memory_equal (packed, expected, sizeof expected);
}

static void
test_round_trip_edge_sizes (void **state)
{
  static const gsize sizes[] = { 0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 65536 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (1);
  g_autofree guint8 *data = g_malloc (65536);

  for (gsize i = 0; i < 65536; i++)
    data[i] = g_rand_int_range (rand, 0, 4);      /* small alphabet: matches too */
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    assert_round_trip (data, sizes[i]);
}

static void
test_round_trip_random (void **state)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  g_autofree guint8 *data = g_malloc (200000);

  for (gsize i = 0; i < 200000; i++)
    data[i] = g_rand_int (rand);
  assert_round_trip (data, 200000);
  assert_round_trip (data, 65536);
}

static void
test_round_trip_redundant (void **state)
{
  gsize len, clen;
  g_autofree guint8 *data = make_mixed (&len);
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);

  assert_true (clen < len / 10);                   /* matches were really used */
  assert_round_trip (data, len);
}

/* Runs at every distance from 1 up, overlapping copies included, and matches
 * at the 8192-byte window's far edge. */
static void
test_round_trip_overlapping_and_far_matches (void **state)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  GByteArray *a = g_byte_array_new ();
  g_autofree guint8 *data = NULL;
  guint8 block[8192];
  gsize len;

  for (guint period = 1; period <= 40; period++)
    for (guint i = 0; i < period * 7 + 5; i++)
      {
        guint8 b = (i % period) * 13 + period;
        g_byte_array_append (a, &b, 1);
      }
  for (gsize i = 0; i < sizeof block; i++)
    block[i] = g_rand_int (rand);
  g_byte_array_append (a, block, sizeof block);
  g_byte_array_append (a, block, sizeof block);
  len = a->len;
  data = g_byte_array_free (a, FALSE);
  assert_round_trip (data, len);
}

/* Cutting a valid stream anywhere never crashes or reads past the cut: the
 * result is either a clean stop (the cut fell between items) or TRUNCATED at
 * an item before the cut, and the output is always a prefix of the input. */
static void
test_truncated_stream_at_every_byte (void **state)
{
  gsize len, clen;
  g_autofree guint8 *data = make_mixed (&len);
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);
  g_autofree guint8 *out = g_malloc (len);
  guint truncated = 0;

  for (gsize cut = 0; cut < clen; cut++)
    {
      gsize out_len = 0, bad;
      EtXpressStatus status = decode (packed, cut, out, len, &out_len, &bad);

      assert_true (status == ET_XPRESS_OK || status == ET_XPRESS_TRUNCATED);
      if (status == ET_XPRESS_TRUNCATED)
        {
          assert_true (bad < cut);
          truncated++;
        }
      assert_true (out_len <= len);
      assert_memory_equal (out, data, out_len);
    }
  assert_true (truncated > 0);
}

static void
test_truncated_flag_word_and_token (void **state)
{
  static const guint8 half_flags[] = { 0x00, 0x00 };
  static const guint8 half_token[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x00 };
  static const guint8 no_nibble[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00 };
  guint8 out[16];
  gsize out_len, bad;

  assert_int_equal (decode (half_flags, 2, out, sizeof out, &out_len, &bad), ET_XPRESS_TRUNCATED);
  assert_int_equal (bad, 0);
  assert_int_equal (out_len, 0);
  assert_int_equal (decode (half_token, sizeof half_token, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_TRUNCATED);
  assert_int_equal (bad, 5);
  assert_int_equal (out_len, 1);
  assert_int_equal (decode (no_nibble, sizeof no_nibble, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_TRUNCATED);
  assert_int_equal (bad, 5);
}

/* A match may not reach before the first output byte: distance 2 after one
 * literal, and any match as the very first item. */
static void
test_distance_before_start_is_bad_distance (void **state)
{
  static const guint8 after_one[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x08, 0x00 };
  static const guint8 first_item[] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00 };
  guint8 out[16];
  gsize out_len, bad;

  assert_int_equal (decode (after_one, sizeof after_one, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_BAD_DISTANCE);
  assert_int_equal (bad, 5);
  assert_int_equal (out_len, 1);
  assert_int_equal (decode (first_item, sizeof first_item, out, sizeof out, &out_len, &bad),
                    ET_XPRESS_BAD_DISTANCE);
  assert_int_equal (bad, 4);
  assert_int_equal (out_len, 0);
}

/* Every capacity short of the real size gives OVERFLOW, writes nothing past
 * the capacity (guard bytes stay intact) and keeps what fits correct. */
static void
test_output_cap_exceeded_is_overflow (void **state)
{
  gsize len, clen;
  g_autofree guint8 *data = make_mixed (&len);
  g_autofree guint8 *packed = et_xpress_compress (data, len, &clen);
  g_autofree guint8 *out = g_malloc (len + 16);
  static const gsize caps[] = { 0, 1, 2, 5, 17, 100, 1000, 2400, 2401, 2402 };

  for (gsize c = 0; c < G_N_ELEMENTS (caps) + 2; c++)
    {
      gsize cap = c < G_N_ELEMENTS (caps) ? caps[c] : len - (c - G_N_ELEMENTS (caps) + 1);
      gsize out_len = 0, bad;

      memset (out, 0xa5, len + 16);
      assert_int_equal (decode (packed, clen, out, cap, &out_len, &bad), ET_XPRESS_OVERFLOW);
      assert_true (out_len <= cap);
      assert_true (bad < clen);
      assert_memory_equal (out, data, out_len);
      for (gsize i = cap; i < cap + 16; i++)
        assert_int_equal (out[i], 0xa5);
    }
}

/* An empty stream and a lone padding flag word both decode to nothing. */
static void
test_empty_input_is_empty_output (void **state)
{
  static const guint8 padding[] = { 0xff, 0xff, 0xff, 0xff };
  guint8 out[4];
  gsize out_len = 99, bad;

  assert_int_equal (et_xpress_decompress (NULL, 0, NULL, 0, &out_len, NULL), ET_XPRESS_OK);
  assert_int_equal (out_len, 0);
  assert_int_equal (decode (padding, 4, out, sizeof out, &out_len, &bad), ET_XPRESS_OK);
  assert_int_equal (out_len, 0);
}

static void
test_status_to_string_names_every_status (void **state)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (int s = ET_XPRESS_OK; s <= ET_XPRESS_BAD_LENGTH; s++)
    {
      const char *text = et_xpress_status_to_string (s);

      assert_non_null (text);
      assert_true (text[0] != '\0');
      assert_false (g_hash_table_contains (seen, text));
      g_hash_table_add (seen, (gpointer) text);
    }
}

/* Walks an .etl file's buffers (u32 BufferSize at +0, u32 Offset at +0x30 =
 * uncompressed size with the 0x48-byte header, u16 BufferFlag at +0x34) and
 * decompresses each one flagged 0x40 into exactly Offset − 0x48 bytes, as
 * the reader does; the result also round-trips through the fixture encoder.
 * Returns the number of compressed buffers. */
static guint
check_compressed_buffers (const char *name)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = NULL;
  g_autofree guint8 *file = NULL;
  gsize size, pos = 0;
  guint compressed = 0;

  path = g_build_filename (dir, name, NULL);
  assert_true (g_file_get_contents (path, (char **) &file, &size, NULL));

  while (size - pos >= 0x48)
    {
      const guint8 *buf = file + pos;
      guint32 buffer_size = buf[0] | buf[1] << 8 | buf[2] << 16 | (guint32) buf[3] << 24;
      guint32 offset = buf[0x30] | buf[0x31] << 8 | buf[0x32] << 16 | (guint32) buf[0x33] << 24;
      guint16 flag = buf[0x34] | buf[0x35] << 8;

      assert_true (buffer_size >= 0x48 && buffer_size <= size - pos);
      if (flag & 0x40)
        {
          g_autofree guint8 *out = g_malloc (offset - 0x48);
          gsize out_len = 0, bad;

          assert_true (offset > 0x48);
          assert_int_equal (decode (buf + 0x48, buffer_size - 0x48, out, offset - 0x48,
                                    &out_len, &bad), ET_XPRESS_OK);
          assert_int_equal (out_len, offset - 0x48);
          assert_true (out[3] & 0x80);            /* a record marker opens the data */
          assert_round_trip (out, out_len);       /* real data through our encoder */
          compressed++;
        }
      pos += buffer_size;
    }
  assert_int_equal (pos, size);
  return compressed;
}

static gboolean
corpus_present (const char *name)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = dir ? g_build_filename (dir, name, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_print ("# corpus not found at %s\n", path ? path : "(ET_CORPUS_DIR unset)");
      return FALSE;
    }
  return TRUE;
}

static void
test_corpus_compressed_buffers_decompress (void **state)
{
  if (!corpus_present ("SelfDescribingSingleEvent.etl"))
    {
      skip ();
      return;
    }
  assert_int_equal (check_compressed_buffers ("SelfDescribingSingleEvent.etl"), 2);
}

/* The larger relogged sample: hundreds of 64 KiB buffers, the hot path. */
static void
test_corpus_many_large_buffers_decompress (void **state)
{
  if (!corpus_present ("net.4.5.2.x64.etl"))
    {
      skip ();
      return;
    }
  assert_true (check_compressed_buffers ("net.4.5.2.x64.etl") > 300);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_spec_example_literals_decode),
    cmocka_unit_test (test_spec_example_long_match_decode),
    cmocka_unit_test (test_compress_reproduces_spec_examples),
    cmocka_unit_test (test_shared_nibble_low_then_high),
    cmocka_unit_test (test_nibble_byte_precedes_extension_byte),
    cmocka_unit_test (test_u16_and_u32_length_forms_decode),
    cmocka_unit_test (test_long_form_below_22_is_bad_length),
    cmocka_unit_test (test_compress_long_run_uses_u32_form),
    cmocka_unit_test (test_compress_run_uses_u16_form),
    cmocka_unit_test (test_round_trip_edge_sizes),
    cmocka_unit_test (test_round_trip_random),
    cmocka_unit_test (test_round_trip_redundant),
    cmocka_unit_test (test_round_trip_overlapping_and_far_matches),
    cmocka_unit_test (test_truncated_stream_at_every_byte),
    cmocka_unit_test (test_truncated_flag_word_and_token),
    cmocka_unit_test (test_distance_before_start_is_bad_distance),
    cmocka_unit_test (test_output_cap_exceeded_is_overflow),
    cmocka_unit_test (test_empty_input_is_empty_output),
    cmocka_unit_test (test_status_to_string_names_every_status),
    cmocka_unit_test (test_corpus_compressed_buffers_decompress),
    cmocka_unit_test (test_corpus_many_large_buffers_decompress),
  };

  return cmocka_run_group_tests_name ("xpress", tests, NULL, NULL);
}
