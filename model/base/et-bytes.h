/* et-bytes.h — bounds-checked little-endian reads over untrusted bytes.
 *
 * Every byte that comes from an .etl file goes through these helpers. A read
 * past the end never touches memory: it returns 0 and marks the reader as
 * failed, so a decoder can run a whole sequence of reads and check once.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  gboolean      failed;
} EtReader;

/* Whether @len bytes at @a and @b are the same, eight at a time inline:
 * for the short keys the decoding threads' caches compare per event
 * (metadata of a few dozen bytes, series names), where most of a call to
 * memcmp was getting there and back. */
static inline gboolean
et_bytes_equal (const void *a, const void *b, gsize len)
{
  const guint8 *x = a, *y = b;
  guint64 u, v;
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      memcpy (&u, x + i, 8);
      memcpy (&v, y + i, 8);
      if (u != v)
        return FALSE;
    }
  for (; i < len; i++)
    if (x[i] != y[i])
      return FALSE;
  return TRUE;
}

static inline guint16
et_read_u16 (const guint8 *p)
{
  guint16 v;
  memcpy (&v, p, sizeof v);
  return GUINT16_FROM_LE (v);
}

static inline guint32
et_read_u32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_LE (v);
}

static inline guint64
et_read_u64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, sizeof v);
  return GUINT64_FROM_LE (v);
}

static inline void
et_reader_init (EtReader *r, const void *data, gsize len)
{
  r->data = data;
  r->len = len;
  r->pos = 0;
  r->failed = FALSE;
}

static inline gsize
et_reader_remaining (const EtReader *r)
{
  return r->pos <= r->len ? r->len - r->pos : 0;
}

/* Claims @n bytes and returns a pointer to them, or NULL (and marks the
 * reader failed) when fewer remain. */
static inline const guint8 *
et_reader_take (EtReader *r, gsize n)
{
  const guint8 *p;

  if (r->failed || n > et_reader_remaining (r))
    {
      r->failed = TRUE;
      return NULL;
    }
  p = r->data + r->pos;
  r->pos += n;
  return p;
}

static inline guint8
et_reader_u8 (EtReader *r)
{
  const guint8 *p = et_reader_take (r, 1);
  return p ? p[0] : 0;
}

static inline guint16
et_reader_u16 (EtReader *r)
{
  const guint8 *p = et_reader_take (r, 2);
  return p ? et_read_u16 (p) : 0;
}

static inline guint32
et_reader_u32 (EtReader *r)
{
  const guint8 *p = et_reader_take (r, 4);
  return p ? et_read_u32 (p) : 0;
}

static inline guint64
et_reader_u64 (EtReader *r)
{
  const guint8 *p = et_reader_take (r, 8);
  return p ? et_read_u64 (p) : 0;
}

/* A pointer-sized value: 4 or 8 bytes as the event's header type says. */
static inline guint64
et_reader_pointer (EtReader *r, guint pointer_size)
{
  return pointer_size == 4 ? et_reader_u32 (r) : et_reader_u64 (r);
}

G_END_DECLS
