/* et-text.c — text conversions and appends every layer writes with.
 *
 * At the bottom of the model: the readers convert a file's UTF-16 and
 * 8-bit text with it, the payload decoders fill fields with it, and the
 * output writers (JSON lines, CSV, the details) append numbers and escaped
 * strings by the million, so each is written to copy rather than format.
 */
#include "et-text.h"
#include "et-bytes.h"

#include <string.h>

void
et_utf8_append (GString *out, const char *utf8, gsize len)
{
  if (g_utf8_validate_len (utf8, len, NULL))
    g_string_append_len (out, utf8, len);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (utf8, len);
      g_string_append (out, valid);
    }
}

static void
append_unichar (GString *out, gunichar c)
{
  if (c < 0x80)
    g_string_append_c (out, (char) c);
  else
    g_string_append_unichar (out, c);
}

/* Most text in traces is ASCII: four code units are taken at once while
 * all of them are below 0x80 (every high byte zero, no low byte's top bit
 * set); any other unit is converted alone. The string is sized for the
 * worst case first (three bytes per unit: a surrogate pair takes four for
 * two units, U+FFFD three), so nothing grows per character. */
void
et_utf16_append (GString *out, const guint8 *utf16le, gsize n_units)
{
  gsize start = out->len, i = 0;
  guint8 *o;

  g_string_set_size (out, start + 3 * n_units);
  o = (guint8 *) out->str + start;
  while (i < n_units)
    {
      gunichar c;

      for (guint64 v; i + 4 <= n_units; i += 4, o += 4)
        {
          memcpy (&v, utf16le + 2 * i, sizeof v);
          v = GUINT64_FROM_LE (v);
          if ((v & G_GUINT64_CONSTANT (0xFF80FF80FF80FF80)) != 0)
            break;
          o[0] = (guint8) v;
          o[1] = (guint8) (v >> 16);
          o[2] = (guint8) (v >> 32);
          o[3] = (guint8) (v >> 48);
        }
      if (i == n_units)
        break;
      c = et_read_u16 (utf16le + 2 * i++);
      if (c < 0x80)
        {
          *o++ = (guint8) c;
          continue;
        }
      if (c >= 0xD800 && c < 0xDC00 && i < n_units)
        {
          gunichar lo = et_read_u16 (utf16le + 2 * i);

          if (lo >= 0xDC00 && lo < 0xE000)
            c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00), i++;
          else
            c = 0xFFFD;     /* the next unit stands on its own */
        }
      else if (c >= 0xD800 && c < 0xE000)
        c = 0xFFFD;
      o += g_unichar_to_utf8 (c, (char *) o);
    }
  g_string_set_size (out, (gsize) (o - (guint8 *) out->str));
}

void
et_ansi_append (GString *out, const char *bytes, gsize len)
{
  if (g_utf8_validate_len (bytes, len, NULL))
    g_string_append_len (out, bytes, len);
  else
    for (gsize i = 0; i < len; i++)
      append_unichar (out, (guchar) bytes[i]);   /* Latin-1 */
}

void
et_string_append_uint (GString *s, guint64 value)
{
  char buf[24];
  char *p = buf + sizeof buf;

  do
    {
      *--p = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  et_string_append_len (s, p, (gsize) (buf + sizeof buf - p));
}

static gboolean
csv_needs_quotes (const char *value, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (value[i] == ',' || value[i] == '"' || value[i] == '\r' || value[i] == '\n')
      return TRUE;
  return FALSE;
}

void
et_string_append_csv (GString *s, const char *value, gssize len)
{
  gsize n;

  if (value == NULL)
    return;
  n = len < 0 ? strlen (value) : (gsize) len;
  if (!csv_needs_quotes (value, n))
    {
      g_string_append_len (s, value, (gssize) n);
      return;
    }
  g_string_append_c (s, '"');
  for (gsize i = 0; i < n; i++)
    {
      if (value[i] == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, value[i]);
    }
  g_string_append_c (s, '"');
}

void
et_string_append_int (GString *s, gint64 value)
{
  if (value < 0)
    {
      et_string_append_len (s, "-", 1);
      /* Negate in unsigned arithmetic so G_MININT64 does not overflow. */
      et_string_append_uint (s, (guint64) 0 - (guint64) value);
    }
  else
    et_string_append_uint (s, (guint64) value);
}

void
et_string_append_hex (GString *s, guint64 value)
{
  static const char digits[] = "0123456789abcdef";
  char buf[18];
  char *p = buf + sizeof buf;

  do
    {
      *--p = digits[value & 0xf];
      value >>= 4;
    }
  while (value != 0);
  *--p = 'x';
  *--p = '0';
  et_string_append_len (s, p, (gsize) (buf + sizeof buf - p));
}

/* Whether one of the eight bytes of @v must be escaped in JSON: a control
 * character (below 0x20), '"' or '\\'; UTF-8's bytes from 0x80 need not.
 * A byte below n borrows into its own top bit in (v - n·ones) & ~v (n ≤
 * 0x80), and only such a byte starts a borrow. */
static inline gboolean
json_escapes_in (guint64 v)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 tops = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 quote = v ^ (ones * '"'), backslash = v ^ (ones * '\\');

  return ((((v - ones * 0x20) & ~v) | ((quote - ones) & ~quote)
           | ((backslash - ones) & ~backslash)) & tops) != 0;
}

void
et_json_append_string (GString *out, const char *utf8, gssize len)
{
  const char *p = utf8;
  const char *end = len < 0 ? utf8 + strlen (utf8) : utf8 + len;

  et_string_append_len (out, "\"", 1);
  while (p < end)
    {
      const char *run = p;
      guchar c;

      /* Plain characters go in runs, eight at a time while none of them
       * needs escaping; the others are escaped one by one. */
      for (guint64 v; end - p >= 8; p += 8)
        {
          memcpy (&v, p, sizeof v);
          if (json_escapes_in (v))
            break;
        }
      while (p < end && (guchar) *p >= 0x20 && *p != '"' && *p != '\\')
        p++;
      et_string_append_len (out, run, (gsize) (p - run));
      if (p == end)
        break;
      c = (guchar) *p++;
      switch (c)
        {
        case '"':  et_string_append_len (out, "\\\"", 2); break;
        case '\\': et_string_append_len (out, "\\\\", 2); break;
        case '\n': et_string_append_len (out, "\\n", 2); break;
        case '\r': et_string_append_len (out, "\\r", 2); break;
        case '\t': et_string_append_len (out, "\\t", 2); break;
        default:   g_string_append_printf (out, "\\u%04x", c); break;
        }
    }
  et_string_append_len (out, "\"", 1);
}
