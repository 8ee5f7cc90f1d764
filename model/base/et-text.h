/* et-text.h — text conversions and appends: a file's UTF-16 and 8-bit
 * text to UTF-8, numbers, CSV fields and JSON strings appended to a
 * GString. GLib only; used by every layer above.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* The conversion et_fields_add_utf16 makes, appended to @out. */
void        et_utf16_append         (GString      *out,
                                     const guint8 *utf16le,
                                     gsize         n_units);
/* The conversions et_fields_add_ansi and et_fields_add_string make. */
void        et_ansi_append          (GString      *out,
                                     const char   *bytes,
                                     gsize         len);
void        et_utf8_append          (GString      *out,
                                     const char   *utf8,
                                     gsize         len);

/* Appends @n bytes to @s: a copy when they fit in its space, else
 * g_string_append_len. Output writers append millions of short pieces
 * (keys, quotes, digits), where the call into GLib costs more than the
 * copy. */
static inline void
et_string_append_len (GString *s, const char *bytes, gsize n)
{
  if (s->len + n < s->allocated_len)
    {
      memcpy (s->str + s->len, bytes, n);
      s->len += n;
      s->str[s->len] = '\0';
    }
  else
    g_string_append_len (s, bytes, (gssize) n);
}

/* Numbers in decimal, and in hex as "0x" and lowercase digits (as printf's
 * %d, %u and 0x%x write them, without its cost). */
void        et_string_append_int    (GString      *s,
                                     gint64        value);
void        et_string_append_uint   (GString      *s,
                                     guint64       value);
void        et_string_append_hex    (GString      *s,
                                     guint64       value);
/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
 * comma, a quote or a line break; @len -1 for a NUL-terminated @value;
 * nothing for NULL. */
void        et_string_append_csv    (GString      *s,
                                     const char   *value,
                                     gssize        len);

/* A JSON string: quoted, with quotes, backslashes and control characters escaped. */
void        et_json_append_string   (GString      *out,
                                     const char   *utf8,
                                     gssize        len);

G_END_DECLS
