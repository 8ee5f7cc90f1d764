/* Tests for et-fields: building nested payloads and formatting values as
 * docs/markers.md ("Value formatting everywhere") says. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "et-fields.h"

static char *
format (EtFields *f, guint index)
{
  GString *s = g_string_new (NULL);
  et_fields_format_value (f, index, s);
  return g_string_free (s, FALSE);
}

#define assert_formats(f, i, text) \
  G_STMT_START { g_autofree char *_s = format (f, i); assert_string_equal (_s, text); } G_STMT_END

static void
test_integers_decimal_and_hex (void **state)
{
  EtFields *f = et_fields_new ();
  guint a = et_fields_add_int (f, "a", -204);
  guint b = et_fields_add_uint (f, "b", G_GUINT64_CONSTANT (18446744073709551412));
  guint c = et_fields_add_uint (f, "c", 0xBEEF);

  et_fields_entry (f, c)->hint = ET_HINT_HEX;
  assert_formats (f, a, "-204");
  assert_formats (f, b, "18446744073709551412");
  assert_formats (f, c, "0xbeef");
  et_fields_free (f);
}

static void
test_booleans_true_false (void **state)
{
  EtFields *f = et_fields_new ();
  guint t = et_fields_add_bool (f, "t", 7);
  guint n = et_fields_add_bool (f, "n", FALSE);

  assert_formats (f, t, "true");
  assert_formats (f, n, "false");
  et_fields_free (f);
}

static void
test_floats_shortest_round_trip (void **state)
{
  EtFields *f = et_fields_new ();
  guint d = et_fields_add_float (f, "d", 0.1);
  guint s = et_fields_add_float (f, "s", (double) 0.1f);
  guint w = et_fields_add_float (f, "w", 1e21);

  et_fields_entry (f, s)->in_type = 11;   /* Float: judged at float precision */
  assert_formats (f, d, "0.1");
  assert_formats (f, s, "0.1");
  assert_formats (f, w, "1e+21");
  et_fields_free (f);
}

static void
test_guid_lowercase (void **state)
{
  EtFields *f = et_fields_new ();
  EtGuid g = { 0x0AD614C4, 0x0EF4, 0x4225, { 0x80, 0x13, 0xF4, 0x4F, 0x37, 0xCB, 0x03, 0x97 } };
  guint i = et_fields_add_guid (f, "g", &g);

  assert_formats (f, i, "0ad614c4-0ef4-4225-8013-f44f37cb0397");
  et_fields_free (f);
}

static void
test_times_iso8601 (void **state)
{
  EtFields *f = et_fields_new ();
  guint ft = et_fields_add (f, "ft", ET_VALUE_FILETIME);
  guint st = et_fields_add (f, "st", ET_VALUE_SYSTEMTIME);
  static const guint16 sys[8] = { 2021, 9, 4, 9, 14, 59, 35, 799 };

  /* 2021-09-09T14:59:35.799Z in 100 ns ticks since 1601 */
  et_fields_entry (f, ft)->v.i = G_GINT64_CONSTANT (132756731757990000);
  memcpy (et_fields_entry (f, st)->v.st, sys, sizeof sys);
  assert_formats (f, ft, "2021-09-09T14:59:35.799Z");
  assert_formats (f, st, "2021-09-09T14:59:35.799");
  et_fields_free (f);
}

static void
test_strings_utf16_ansi_and_binary (void **state)
{
  EtFields *f = et_fields_new ();
  static const guint8 utf16[] = { 'H', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE };  /* "Hé😀" */
  static const guint8 bin[] = { 0xDE, 0xAD, 0x01 };
  guint u = et_fields_add_utf16 (f, "u", utf16, 4);
  guint a = et_fields_add_ansi (f, "a", "caf\xE9", 4);   /* Latin-1 */
  guint b = et_fields_add_bytes (f, "b", ET_VALUE_BINARY, bin, 3);

  assert_formats (f, u, "H\xC3\xA9\xF0\x9F\x98\x80");
  assert_formats (f, a, "caf\xC3\xA9");
  assert_formats (f, b, "dead01");
  et_fields_free (f);
}

/* The conversion as it was done before the bulk path: one code unit at a
 * time, unpaired surrogates U+FFFD. */
static void
utf16_one_by_one (GString *out, const guint8 *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      gunichar c = p[2 * i] | (p[2 * i + 1] << 8);

      if (c >= 0xD800 && c < 0xDC00 && i + 1 < n)
        {
          gunichar lo = p[2 * i + 2] | (p[2 * i + 3] << 8);
          if (lo >= 0xDC00 && lo < 0xE000)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
              i++;
            }
          else
            c = 0xFFFD;
        }
      else if (c >= 0xD800 && c < 0xE000)
        c = 0xFFFD;
      g_string_append_unichar (out, c);
    }
}

/* A code unit of a kind picked at random: ASCII (most often, so that runs
 * of four and more occur), NUL, two- and three-byte characters, high and
 * low surrogates, and the edges of each range. */
static guint16
random_unit (GRand *rand)
{
  static const guint16 edges[] = { 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00,
                                   0xDFFF, 0xE000, 0xFFFD, 0xFFFF, 0x00FF, 0xFF7F };

  switch (g_rand_int_range (rand, 0, 10))
    {
    case 0:  return (guint16) g_rand_int_range (rand, 0x80, 0x800);
    case 1:  return (guint16) g_rand_int_range (rand, 0x800, 0x10000);
    case 2:  return (guint16) g_rand_int_range (rand, 0xD800, 0xDC00);
    case 3:  return (guint16) g_rand_int_range (rand, 0xDC00, 0xE000);
    case 4:  return edges[g_rand_int_range (rand, 0, G_N_ELEMENTS (edges))];
    case 5:  return 0;
    default: return (guint16) g_rand_int_range (rand, 1, 0x80);
    }
}

static void
assert_utf16_as_before (const guint8 *p, gsize n)
{
  g_autoptr(GString) expected = g_string_new ("x");
  g_autoptr(GString) got = g_string_new ("x");   /* appended after what is there */

  utf16_one_by_one (expected, p, n);
  et_utf16_append (got, p, n);
  assert_int_equal (got->len, expected->len);
  assert_memory_equal (got->str, expected->str, expected->len + 1);
}

/* The bulk conversion (ASCII four units at a time) writes what the unit
 * by unit one did, for every mix of units, at any alignment and length. */
static void
test_utf16_bulk_equals_one_by_one (void **state)
{
  static const guint16 cases[][6] = {
    { 'a', 'b', 'c', 'd', 0xD83D, 0xDE00 },  /* a pair right after a run */
    { 'a', 'b', 'c', 0xD83D, 0xDE00, 'e' },  /* a pair across a group of four */
    { 0xD83D, 'a', 'b', 'c', 'd', 'e' },     /* a high surrogate before ASCII */
    { 'a', 'b', 'c', 'd', 'e', 0xD83D },     /* a high surrogate last */
    { 0xDE00, 0xD83D, 0xD83D, 0xDE00, 0xDC00, 0 },
    { 0x7F, 0x80, 0x100, 0xFF, 0x7FF, 0x800 },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);
  guint8 bytes[2 * 64 + 1];

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (gsize n = 0; n <= 6; n++)
      {
        for (gsize i = 0; i < n; i++)
          bytes[1 + 2 * i] = cases[c][i] & 0xFF, bytes[2 + 2 * i] = cases[c][i] >> 8;
        assert_utf16_as_before (bytes + 1, n);  /* odd address: unaligned */
      }
  for (guint round = 0; round < 20000; round++)
    {
      gsize n = (gsize) g_rand_int_range (rand, 0, 65);
      guint offset = round & 1;

      for (gsize i = 0; i < n; i++)
        {
          guint16 u = random_unit (rand);

          bytes[offset + 2 * i] = u & 0xFF;
          bytes[offset + 2 * i + 1] = u >> 8;
        }
      assert_utf16_as_before (bytes + offset, n);
    }
}

/* JSON escaping as the rule says, byte by byte. */
static void
json_one_by_one (GString *out, const guint8 *p, gsize n)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < n; i++)
    switch (p[i])
      {
      case '"':  g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (p[i] < 0x20)
          g_string_append_printf (out, "\\u%04x", p[i]);
        else
          g_string_append_c (out, (char) p[i]);
        break;
      }
  g_string_append_c (out, '"');
}

/* Strings are escaped eight bytes at a time while none needs it: the
 * same text as byte by byte, for every byte next to every other, at any
 * alignment (bytes from 0x80 stand for UTF-8; escaping does not judge
 * them). */
static void
test_json_strings_in_bulk_equal_byte_by_byte (void **state)
{
  static const guint8 special[] = { 0, 1, 0x1F, 0x20, '"', '\\', '\n', '\r', '\t', 0x7F,
                                    0x80, 0xA2, 0xDC, 0xFF, '!', '#', '[', ']', 0x21, 0x5D };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint8 bytes[70];

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GString) expected = g_string_new ("x");
      g_autoptr(GString) got = g_string_new ("x");
      gsize n = (gsize) g_rand_int_range (rand, 0, 64);
      guint offset = round % 7;

      for (gsize i = 0; i < n; i++)
        bytes[offset + i] = g_rand_int_range (rand, 0, 4) == 0
                            ? special[g_rand_int_range (rand, 0, G_N_ELEMENTS (special))]
                            : (guint8) g_rand_int_range (rand, 0x20, 0x7F);
      json_one_by_one (expected, bytes + offset, n);
      et_json_append_string (got, (const char *) bytes + offset, (gssize) n);
      assert_int_equal (got->len, expected->len);
      assert_memory_equal (got->str, expected->str, expected->len);
    }
}

static void
test_sid_text_form (void **state)
{
  EtFields *f = et_fields_new ();
  static const guint8 sid[] = { 1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 0x02, 0, 0 };
  guint s = et_fields_add_bytes (f, "s", ET_VALUE_SID, sid, sizeof sid);

  assert_formats (f, s, "S-1-5-32-544");
  et_fields_free (f);
}

static void
test_value_map_label_wins (void **state)
{
  EtFields *f = et_fields_new ();
  guint i = et_fields_add_uint (f, "op", 1);

  et_fields_set_label (f, i, "ParallelFor");
  assert_formats (f, i, "ParallelFor");
  et_fields_free (f);
}

static void
test_struct_and_array_nesting (void **state)
{
  EtFields *f = et_fields_new ();
  g_autoptr(GString) json = g_string_new (NULL);
  guint s, arr, after;

  s = et_fields_begin (f, "a", ET_VALUE_STRUCT);
  et_fields_add_string (f, "b", "Hello", 5);
  et_fields_add_string (f, "c", "World!", 6);
  et_fields_end (f);
  arr = et_fields_begin (f, "n", ET_VALUE_ARRAY);
  et_fields_add_int (f, "n", 1);
  et_fields_add_int (f, "n", 2);
  et_fields_end (f);
  after = et_fields_add_bool (f, "z", TRUE);

  assert_int_equal (et_fields_get (f, s)->n_children, 2);
  assert_int_equal (et_fields_next (f, s), arr);
  assert_int_equal (et_fields_next (f, arr), after);
  assert_formats (f, s, "{b: Hello, c: World!}");
  assert_formats (f, arr, "[1, 2]");
  assert_int_equal (et_fields_find (f, "Z"), after);
  assert_int_equal (et_fields_find (f, "b"), -1);   /* members are not top level */
  et_fields_append_json_object (f, json);
  assert_string_equal (json->str, "{\"a\":{\"b\":\"Hello\",\"c\":\"World!\"},\"n\":[1,2],\"z\":true}");
  et_fields_free (f);
}

static void
test_json_escapes_control_characters (void **state)
{
  g_autoptr(GString) out = g_string_new (NULL);

  et_json_append_string (out, "a\"b\\c\nd\x01", -1);
  assert_string_equal (out->str, "\"a\\\"b\\\\c\\nd\\u0001\"");
}

static void
test_clear_reuses_without_leftovers (void **state)
{
  EtFields *f = et_fields_new ();

  et_fields_begin (f, "s", ET_VALUE_STRUCT);
  et_fields_add_int (f, "x", 1);
  et_fields_clear (f);
  assert_int_equal (et_fields_len (f), 0);
  et_fields_add_int (f, "y", 2);
  assert_int_equal (et_fields_get (f, 0)->n_desc, 0);
  assert_int_equal (f->n_open, 0);
  et_fields_free (f);
}

/* The number writers give what printf gives, at the ends of the ranges
 * too, and append (a GString grown past its first space on the way). */
static void
test_numbers_as_printf_writes_them (void **state)
{
  static const gint64 ints[] = { 0, 1, -1, 9, 10, -10, 4217, G_MAXINT64, G_MININT64 };
  static const guint64 uints[] = { 0, 1, 15, 16, 255, 4096, G_MAXUINT32, G_MAXUINT64 };
  g_autoptr(GString) ours = g_string_sized_new (1);
  g_autoptr(GString) theirs = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      et_string_append_int (ours, ints[i]);
      g_string_append_printf (theirs, "%" G_GINT64_FORMAT, ints[i]);
      et_string_append_len (ours, " ", 1);
      g_string_append_c (theirs, ' ');
    }
  for (guint i = 0; i < G_N_ELEMENTS (uints); i++)
    {
      et_string_append_uint (ours, uints[i]);
      et_string_append_hex (ours, uints[i]);
      g_string_append_printf (theirs, "%" G_GUINT64_FORMAT "0x%" G_GINT64_MODIFIER "x", uints[i],
                              uints[i]);
    }
  assert_string_equal (ours->str, theirs->str);
  assert_int_equal (ours->len, strlen (ours->str));
}

/* The rule: the fewest significant digits, from 15 for a double and 6
 * for a float, whose "%g" text reads back to the value at its precision;
 * every precision tried and checked. */
static void
shortest_by_the_rule (double v, gboolean is_float, GString *out)
{
  char format[8], buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (int prec = is_float ? 6 : 15; prec <= 17; prec++)
    {
      double back;

      g_snprintf (format, sizeof format, "%%.%dg", prec);
      g_ascii_formatd (buf, sizeof buf, format, v);
      back = g_ascii_strtod (buf, NULL);
      if (is_float ? (float) back == (float) v : back == v)
        break;
    }
  g_string_assign (out, buf);
}

/* Doubles and floats of every sort (whole numbers up to and past 10^15,
 * negative zero, tiny, huge, random bits) are written by the rule, which
 * the formatting takes short cuts to (whole numbers without printf, no
 * check of the last precision). */
static void
test_floats_follow_the_shortest_rule (void **state)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  g_autoptr(GString) ours = g_string_new (NULL), expected = g_string_new (NULL);
  EtFields *f = et_fields_new ();
  guint whole = 0;

  for (guint n = 0; n < 20000; n++)
    {
      gboolean is_float = n % 3 == 0;
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      double v;
      guint i;

      switch (n % 8)
        {
        case 0:  memcpy (&v, &bits, sizeof v); break;                    /* any bits */
        case 1:  v = (double) g_rand_int_range (rand, -1000000, 1000000); break;
        case 2:  v = floor (g_rand_double_range (rand, -2e15, 2e15)); break;
        case 3:  v = g_rand_int_range (rand, 0, 2) ? 0.0 : -0.0; break;
        case 4:  v = g_rand_double_range (rand, -1, 1) * 1e-300; break;
        case 5:  v = g_rand_int_range (rand, -99999, 99999) / 100.0; break;
        default: v = g_rand_double_range (rand, -1e6, 1e6); break;
        }
      if (is_float)
        v = (double) (float) v;
      if (isnan (v) || isinf (v))
        continue;
      whole += v == floor (v);
      et_fields_clear (f);
      i = et_fields_add_float (f, "v", v);
      if (is_float)
        et_fields_entry (f, i)->in_type = 11;
      g_string_truncate (ours, 0);
      et_fields_format_value (f, i, ours);
      shortest_by_the_rule (v, is_float, expected);
      assert_string_equal (ours->str, expected->str);
    }
  assert_true (whole > 5000);
  et_fields_free (f);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_integers_decimal_and_hex),
    cmocka_unit_test (test_booleans_true_false),
    cmocka_unit_test (test_floats_shortest_round_trip),
    cmocka_unit_test (test_guid_lowercase),
    cmocka_unit_test (test_times_iso8601),
    cmocka_unit_test (test_strings_utf16_ansi_and_binary),
    cmocka_unit_test (test_utf16_bulk_equals_one_by_one),
    cmocka_unit_test (test_json_strings_in_bulk_equal_byte_by_byte),
    cmocka_unit_test (test_sid_text_form),
    cmocka_unit_test (test_value_map_label_wins),
    cmocka_unit_test (test_struct_and_array_nesting),
    cmocka_unit_test (test_json_escapes_control_characters),
    cmocka_unit_test (test_clear_reuses_without_leftovers),
    cmocka_unit_test (test_numbers_as_printf_writes_them),
    cmocka_unit_test (test_floats_follow_the_shortest_rule),
  };
  return cmocka_run_group_tests_name ("fields", tests, NULL, NULL);
}
