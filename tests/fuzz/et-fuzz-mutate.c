/* et-fuzz-mutate.c — structure-aware mutations of .etl files (see
 * et-fuzz-targets.h).
 *
 * Random bit flips rarely hit the few bytes that steer the reader; these
 * mutations aim at them, the way files really break: a buffer-header field
 * (BufferSize one byte off, 0x48, 16 MiB; Offset; flag bits; type, state,
 * logger, processor index), a record's size, two buffers swapped, stray
 * bytes inserted or bytes lost between buffers, the compressed bit of the
 * log-file mode, the header record's marker, a cut at a buffer boundary.
 * The buffers are found by walking BufferSize as far as it is sane.
 */
#include "et-fuzz-targets.h"

#include <string.h>

#define HEADER 0x48
#define MAX_BUFFERS 4096

typedef struct
{
  guint8 *data;
  gsize   size;
  gsize   max_size;
  guint   n;                    /* buffers found */
  gsize   offset[MAX_BUFFERS + 1];/* and where the walk stopped */
  GRand  *rand;
} Mutant;

static void
find_buffers (Mutant *m)
{
  gsize at = 0;

  m->n = 0;
  while (m->n < MAX_BUFFERS && at + HEADER <= m->size)
    {
      guint32 size = et_fuzz_get_u32 (m->data + at);
      if (size < HEADER || size > m->size - at)
        break;
      m->offset[m->n++] = at;
      at += size;
    }
  m->offset[m->n] = at;
}

static guint
pick (Mutant *m, guint n)
{
  return n > 0 ? (guint) g_rand_int_range (m->rand, 0, (gint32) n) : 0;
}

static void
mutate_header_field (Mutant *m)
{
  guint8 *h = m->data + m->offset[pick (m, m->n)];
  guint32 size = et_fuzz_get_u32 (h);
  const guint32 sizes[] = { size + 1, size - 1, size + 8, size - 8, HEADER, 16u << 20, 0,
                            G_MAXUINT32, size * 2 };
  const guint32 ends[] = { et_fuzz_get_u32 (h + 0x30) + 1, et_fuzz_get_u32 (h + 0x30) - 8, 0, HEADER,
                           16u << 20, size, size + 8 };

  switch (pick (m, 6))
    {
    case 0:
      et_fuzz_set_u32 (h, sizes[pick (m, G_N_ELEMENTS (sizes))]);
      break;
    case 1:
      et_fuzz_set_u32 (h + 0x30, ends[pick (m, G_N_ELEMENTS (ends))]);
      break;
    case 2:
      h[0x34 + pick (m, 2)] ^= (guint8) (1u << pick (m, 8));   /* BufferFlag */
      break;
    case 3:
      h[0x36] = (guint8) pick (m, 10);                           /* BufferType */
      break;
    case 4:
      h[0x28 + pick (m, 2)] = (guint8) g_rand_int (m->rand);     /* processor */
      break;
    default:
      h[0x0C + pick (m, 0x2C - 0x0C + 4)] ^= 0x01;   /* reference count … state */
      break;
    }
}

/* A record of an uncompressed buffer gets another size. */
static void
mutate_record_size (Mutant *m)
{
  guint b = pick (m, m->n);
  gsize start = m->offset[b], end = m->offset[b + 1], pos = start + HEADER;
  guint skip = pick (m, 16);

  if (m->data[start + 0x34] & 0x40)
    return;
  while (pos + 8 <= end && m->data[pos + 3] == 0xC0)
    {
      guint8 type = m->data[pos + 2];
      gsize field = (type <= 0x04 || type == 0x10 || type == 0x11) ? 4 : 0;
      guint size = m->data[pos + field] | (m->data[pos + field + 1] << 8);
      const guint sizes[] = { 0, 7, 8, size + 8, size - 8, 0xFFFF, (guint) (end - pos) + 8 };

      if (skip-- == 0 || size < 8 || pos + size > end)
        {
          guint v = sizes[pick (m, G_N_ELEMENTS (sizes))] & 0xFFFF;
          m->data[pos + field] = (guint8) v;
          m->data[pos + field + 1] = (guint8) (v >> 8);
          return;
        }
      pos += (size + 7) & ~(gsize) 7;
    }
}

/* Two buffers trade places (the header buffer among them at times). */
static void
swap_buffers (Mutant *m)
{
  guint a = pick (m, m->n), b = pick (m, m->n);
  gsize a0, a1, b0, b1, mid;
  g_autofree guint8 *copy = NULL;

  if (a == b)
    return;
  if (a > b)
    {
      guint t = a;
      a = b, b = t;
    }
  a0 = m->offset[a], a1 = m->offset[a + 1], b0 = m->offset[b], b1 = m->offset[b + 1];
  mid = b0 - a1;
  copy = g_memdup2 (m->data + a0, b1 - a0);
  memcpy (m->data + a0, copy + (b0 - a0), b1 - b0);
  memcpy (m->data + a0 + (b1 - b0), copy + (a1 - a0), mid);
  memcpy (m->data + a0 + (b1 - b0) + mid, copy, a1 - a0);
}

/* Stray bytes before a buffer, or bytes lost at its start. */
static void
stray_bytes (Mutant *m)
{
  gsize at = m->offset[pick (m, m->n + 1)];
  gsize n = 1 + pick (m, 256);

  if (g_rand_boolean (m->rand))
    {
      n = MIN (n, m->max_size - m->size);
      memmove (m->data + at + n, m->data + at, m->size - at);
      for (gsize i = 0; i < n; i++)
        m->data[at + i] = (guint8) g_rand_int (m->rand);
      m->size += n;
    }
  else
    {
      n = MIN (n, m->size - at);
      memmove (m->data + at, m->data + at + n, m->size - at - n);
      m->size -= n;
    }
}

/* The log-file header: the compressed bit of LogFileMode, the record's
 * marker or header type; or a cut near a buffer boundary. */
static void
header_or_cut (Mutant *m)
{
  switch (pick (m, 3))
    {
    case 0:
      if (m->size > HEADER + 0x20 + 0x24)
        m->data[HEADER + 0x20 + 0x23] ^= 0x04;
      break;
    case 1:
      if (m->size > HEADER + 4)
        m->data[HEADER + 2 + pick (m, 2)] ^= (guint8) (1u << pick (m, 8));
      break;
    default:
      {
        gsize at = m->offset[pick (m, m->n + 1)] + pick (m, 64);
        m->size = MIN (m->size, at > 32 ? at - 32 : 0);
      }
      break;
    }
}

gsize
et_fuzz_mutate_etl (guint8 *data, gsize size, gsize max_size, guint32 seed)
{
  Mutant *m = g_new0 (Mutant, 1);
  gsize result;

  m->data = data;
  m->size = size;
  m->max_size = MAX (max_size, size);
  m->rand = g_rand_new_with_seed (seed);
  find_buffers (m);
  if (m->n == 0)
    header_or_cut (m);
  else
    switch (pick (m, 5))
      {
      case 0: mutate_header_field (m); break;
      case 1: mutate_record_size (m); break;
      case 2: swap_buffers (m); break;
      case 3: stray_bytes (m); break;
      default: header_or_cut (m); break;
      }
  result = m->size;
  g_rand_free (m->rand);
  g_free (m);
  return result;
}
