/* et-xpress.c — Plain LZ77 ("LZXpress") decompression, [MS-XCA] 2.4.
 *
 * Where it sits: file bytes → buffer walk (et-etl-reader) → here, for every
 * buffer whose BufferFlag has COMPRESSED (0x40) → record walk over the
 * decompressed bytes. Relogged traces compress nearly every buffer, so this
 * is on the hot path of loading them: many 64 KiB buffers, each decoded once.
 *
 * The stream is a sequence of 32-bit little-endian flag words, each governing
 * the next 32 items, most significant bit first: 0 = one literal byte, 1 = a
 * match (16-bit token: distance = (token >> 3) + 1, length field = token & 7,
 * with the longer lengths in extension fields described at
 * read_long_length ()).
 *
 * The stream is untrusted: every read is checked against in_len, every write
 * against out_cap, and a match may never reach before the output's start.
 *
 * Two ways through the items: while the input has room for the longest a
 * literal run and the match after it can read (decode_fast), they cannot
 * run out of input, so they are read with one input check for the pair
 * and one output check per item; literals and matches are then copied 16
 * bytes at a time wherever the output has that much room past them (the
 * bytes written past an item are overwritten by the next ones, and never
 * reach past out_cap). Near either end the careful path (decode_group)
 * takes each item with every check. Both report the same errors at the
 * same offsets.
 *
 * Measured slower on large --compress and net.4.5.2.x64.etl (issue 36,
 * 29–30 ms a pass before each): 32-byte match copies for distances of 32
 * and more (31–32 ms), 8-byte ones for all distances of 8 and more (32),
 * the second literal copy only for runs over 16 (31), one input check per
 * group of 32 items instead of per item (31–32), and the long length's
 * nibble and extra byte chosen without branches (33.5: the next token's
 * place then waits on those loads instead of on a predicted branch).
 * What is left is the chain from one item's length to the next item's
 * place, and loads of bytes stored just before (match sources).
 */
#include "et-xpress.h"

#include <string.h>

#include "et-bytes.h"

/* Reads the extension of a match whose 3-bit length field is 7, per [MS-XCA]
 * 2.4: a 4-bit value shared two to a byte (the first long match takes the low
 * nibble of a fresh byte and leaves the byte pending, the next long match
 * takes that byte's high nibble); 15 there adds a byte; 255 there is replaced
 * by a u16, and a u16 of 0 by a u32, either holding the whole length minus 3.
 * On success stores the full match length and advances *ip. */
static G_ALWAYS_INLINE inline EtXpressStatus
read_long_length (const guint8 *in,
                  gsize         in_len,
                  gsize        *ip,
                  gsize        *half_byte_pos,
                  guint64      *length)
{
  gsize p = *ip;
  guint64 n;

  if (*half_byte_pos == 0)
    {
      if (p >= in_len)
        return ET_XPRESS_TRUNCATED;
      n = in[p] & 0x0f;
      /* Offset 0 is always a flag word, so 0 can mean "no byte pending". */
      *half_byte_pos = p++;
    }
  else
    {
      n = in[*half_byte_pos] >> 4;
      *half_byte_pos = 0;
    }

  if (n == 15)
    {
      if (p >= in_len)
        return ET_XPRESS_TRUNCATED;
      n = in[p++];
      if (n == 255)
        {
          if (in_len - p < 2)
            return ET_XPRESS_TRUNCATED;
          n = et_read_u16 (in + p);
          p += 2;
          if (n == 0)
            {
              if (in_len - p < 4)
                return ET_XPRESS_TRUNCATED;
              n = et_read_u32 (in + p);
              p += 4;
            }
          /* These forms hold length − 3; anything under 7 + 15 would have
           * fitted a shorter form and the spec calls it an error. */
          if (n < 15 + 7)
            return ET_XPRESS_BAD_LENGTH;
          *length = n + 3;
          *ip = p;
          return ET_XPRESS_OK;
        }
      n += 15;
    }

  *length = n + 7 + 3;
  *ip = p;
  return ET_XPRESS_OK;
}

/* Copies a match of @len bytes from @dist bytes back. When source and
 * destination overlap, the bytes already written form a pattern of period
 * @dist; copying from the fixed source start in chunks the size of the gap
 * doubles the pattern each step and gives the same bytes as a byte-by-byte
 * copy, with far fewer steps for runs. */
static inline void
copy_match (guint8 *dst,
            gsize   dist,
            gsize   len)
{
  const guint8 *src = dst - dist;

  if (dist >= len)
    {
      memcpy (dst, src, len);
      return;
    }
  if (dist == 1)
    {
      memset (dst, src[0], len);
      return;
    }
  while (len > 0)
    {
      gsize chunk = MIN ((gsize) (dst - src), len);

      memcpy (dst, src, chunk);
      dst += chunk;
      len -= chunk;
    }
}

typedef struct
{
  const guint8 *in;
  gsize         in_len;
  gsize         ip;
  guint8       *out;
  gsize         out_cap;
  gsize         op;
  gsize         half_byte_pos;
  gsize         bad_offset;
} Decoder;

/* Decodes one match item at d->ip. Returns OK with *done set when the input
 * ended exactly where the token would start: the compressor pads the last
 * flag word with 1 bits, so that is the normal end of a stream. */
static EtXpressStatus
decode_match (Decoder  *d,
              gboolean *done)
{
  gsize token_pos = d->ip;
  EtXpressStatus status;
  guint16 token;
  guint64 length;
  gsize dist;

  if (d->ip == d->in_len)
    {
      *done = TRUE;
      return ET_XPRESS_OK;
    }
  d->bad_offset = token_pos;
  if (d->in_len - d->ip < 2)
    return ET_XPRESS_TRUNCATED;
  token = et_read_u16 (d->in + d->ip);
  d->ip += 2;

  if ((token & 7) == 7)
    {
      status = read_long_length (d->in, d->in_len, &d->ip, &d->half_byte_pos, &length);
      if (status != ET_XPRESS_OK)
        return status;
    }
  else
    length = (token & 7) + 3;

  dist = (token >> 3) + 1;
  if (dist > d->op)
    return ET_XPRESS_BAD_DISTANCE;
  if (length > d->out_cap - d->op)
    return ET_XPRESS_OVERFLOW;

  copy_match (d->out + d->op, dist, (gsize) length);
  d->op += (gsize) length;
  return ET_XPRESS_OK;
}

/* Copies a run of @run literal bytes (consecutive 0 flag bits) in one go.
 * Input ending inside the run is the end of the stream (*done); output
 * running out is an overflow at the first literal that does not fit. */
static G_ALWAYS_INLINE inline EtXpressStatus
copy_literals (Decoder  *d,
               guint     run,
               gboolean *done)
{
  gsize avail = MIN ((gsize) run, d->in_len - d->ip);
  gsize room = d->out_cap - d->op;

  if (avail > room)
    {
      if (room > 0)
        memcpy (d->out + d->op, d->in + d->ip, room);
      d->op += room;
      d->bad_offset = d->ip + room;
      d->ip += room;
      return ET_XPRESS_OVERFLOW;
    }
  if (avail > 0)
    memcpy (d->out + d->op, d->in + d->ip, avail);
  d->op += avail;
  d->ip += avail;
  *done = avail < run;
  return ET_XPRESS_OK;
}

/* Decodes the @left items (of 32) still governed by a flag word, whose
 * next item's bit is @flags' highest. */
static EtXpressStatus
decode_group (Decoder  *d,
              guint32   flags,
              guint     left,
              gboolean *done)
{
  EtXpressStatus status;

  while (left > 0)
    {
      /* Flags are kept left-aligned, so the leading zeros are the literal
       * run; the vacated low bits are zero and count as literals too, which
       * is right because they can only be reached when flags is 0. */
      guint run = flags == 0 ? left : (guint) __builtin_clz (flags);

      if (run > 0)
        {
          status = copy_literals (d, run, done);
          if (status != ET_XPRESS_OK || *done || run == left)
            return status;
          flags <<= run;
          left -= run;
        }

      flags <<= 1;
      left--;
      status = decode_match (d, done);
      if (status != ET_XPRESS_OK || *done)
        return status;
    }
  return ET_XPRESS_OK;
}

/* The most input a literal run and the match after it can read: the 32
 * bytes of the run's wild copy, then a match of the longest form (token,
 * a nibble byte, a byte, a u16 and a u32). */
#define ITEM_MAX_IN (32 + 10)
/* What a wild copy may write past an item's end. */
#define WILD 16

static inline void
copy16 (guint8 *dst, const guint8 *src)
{
  memcpy (dst, src, 16);
}

/* A match of @len bytes from @dist back, with WILD bytes of room past it:
 * 16 (or 8) bytes a step when every step reads only bytes written before
 * it, the careful copy_match for the short periods. */
static G_ALWAYS_INLINE inline void
copy_match_wild (guint8 *dst, gsize dist, gsize len)
{
  const guint8 *src = dst - dist;

  if (dist >= 16)
    {
      for (gsize i = 0; i < len; i += 16)
        copy16 (dst + i, src + i);
    }
  else if (dist >= 8)
    {
      for (gsize i = 0; i < len; i += 8)
        memcpy (dst + i, src + i, 8);
    }
  else if (len <= 16)
    {
      for (gsize i = 0; i < len; i++)
        dst[i] = src[i];
    }
  else
    copy_match (dst, dist, len);
}

/* One match item with input room (ITEM_MAX_IN): the token,
 * its length, the same checks as decode_match. @l is the group's own
 * copy of the decoder, so that its fields stay in registers. */
static G_ALWAYS_INLINE inline EtXpressStatus
match_fast (Decoder *l)
{
  gsize token_pos = l->ip;
  guint16 token = et_read_u16 (l->in + token_pos);
  guint64 length = (token & 7) + 3;
  gsize dist = (token >> 3) + 1;

  l->ip += 2;
  if ((token & 7) == 7)
    {
      EtXpressStatus status = read_long_length (l->in, l->in_len, &l->ip, &l->half_byte_pos,
                                                &length);

      if (status != ET_XPRESS_OK)
        return l->bad_offset = token_pos, status;
    }
  if (dist > l->op)
    return l->bad_offset = token_pos, ET_XPRESS_BAD_DISTANCE;
  if (length > l->out_cap - l->op)
    return l->bad_offset = token_pos, ET_XPRESS_OVERFLOW;
  if (length + WILD <= l->out_cap - l->op)
    copy_match_wild (l->out + l->op, dist, (gsize) length);
  else
    copy_match (l->out + l->op, dist, (gsize) length);
  l->op += (gsize) length;
  return ET_XPRESS_OK;
}

/* A run of literals inside a group with input room: one wild copy when the
 * output has room past it, else the careful copy (which reports the
 * overflow at the first literal that does not fit). */
static G_ALWAYS_INLINE inline EtXpressStatus
literals_fast (Decoder *l, guint run)
{
  gboolean done = FALSE;

  if (l->out_cap - l->op < 32)
    return copy_literals (l, run, &done);
  copy16 (l->out + l->op, l->in + l->ip);
  copy16 (l->out + l->op + 16, l->in + l->ip + 16);
  l->op += run;
  l->ip += run;
  return ET_XPRESS_OK;
}

/* Items while the input has room for the longest a literal run and its
 * match can read; where it has not, the careful path takes the rest of
 * the group. Stops at the first error, at the end of the stream (*done),
 * or where too little input is left for a flag word and an item. */
static EtXpressStatus
decode_fast (Decoder  *d,
             gboolean *done)
{
  Decoder l = *d;
  EtXpressStatus status = ET_XPRESS_OK;

  while (status == ET_XPRESS_OK && l.in_len - l.ip >= 4 + ITEM_MAX_IN)
    {
      guint32 flags = et_read_u32 (l.in + l.ip);
      guint left = 32;

      l.ip += 4;
      while (status == ET_XPRESS_OK && left > 0)
        {
          /* As in decode_group: the leading zeros are the literal run. */
          guint run = flags == 0 ? left : (guint) __builtin_clz (flags);

          if (l.in_len - l.ip < ITEM_MAX_IN)
            {
              *d = l;
              return decode_group (d, flags, left, done);
            }
          /* Also for a run of none (the copy moves nothing on): a branch
           * the processor cannot guess costs more than the copy. */
          status = literals_fast (&l, run);
          if (status != ET_XPRESS_OK || run == left)
            break;
          flags <<= run;
          flags <<= 1;
          left -= run + 1;
          status = match_fast (&l);
        }
    }
  *d = l;
  return status;
}

EtXpressStatus
et_xpress_decompress (const guint8 *in,
                      gsize         in_len,
                      guint8       *out,
                      gsize         out_cap,
                      gsize        *out_len,
                      gsize        *bad_offset)
{
  Decoder d = { in, in_len, 0, out, out_cap, 0, 0, 0 };
  EtXpressStatus status = ET_XPRESS_OK;
  gboolean done = FALSE;

  g_return_val_if_fail (in != NULL || in_len == 0, ET_XPRESS_TRUNCATED);
  g_return_val_if_fail (out != NULL || out_cap == 0, ET_XPRESS_OVERFLOW);
  g_return_val_if_fail (out_len != NULL, ET_XPRESS_OVERFLOW);

  while (!done && status == ET_XPRESS_OK)
    {
      guint32 flags;

      if (in_len - d.ip >= 4 + ITEM_MAX_IN)
        {
          status = decode_fast (&d, &done);
          continue;
        }
      if (d.ip == in_len)
        break;
      if (in_len - d.ip < 4)
        {
          d.bad_offset = d.ip;
          status = ET_XPRESS_TRUNCATED;
          break;
        }
      flags = et_read_u32 (in + d.ip);
      d.ip += 4;
      status = decode_group (&d, flags, 32, &done);
    }

  *out_len = d.op;
  if (status != ET_XPRESS_OK && bad_offset != NULL)
    *bad_offset = d.bad_offset;
  return status;
}

const char *
et_xpress_status_to_string (EtXpressStatus status)
{
  switch (status)
    {
    case ET_XPRESS_OK:
      return "ok";
    case ET_XPRESS_TRUNCATED:
      return "compressed data ends inside a flag word, match token or match length";
    case ET_XPRESS_BAD_DISTANCE:
      return "match refers to data before the start of the buffer";
    case ET_XPRESS_OVERFLOW:
      return "decompressed data exceeds the buffer's stated size";
    case ET_XPRESS_BAD_LENGTH:
      return "match length uses a long form for a value that needs none";
    default:
      return "unknown decompression status";
    }
}
