/* et-xpress.h — Plain LZ77 ("LZXpress", [MS-XCA] 2.3/2.4) decompression.
 *
 * Used by the buffer walk for buffers with BufferFlag 0x40. The output is
 * bounded by the caller's capacity, which the reader takes from the buffer
 * header's stated uncompressed size, so a hostile stream can never make it
 * write or allocate more.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  ET_XPRESS_OK,
  ET_XPRESS_TRUNCATED,   /* the input ends inside a flag word, token or length */
  ET_XPRESS_BAD_DISTANCE,/* a match reaches before the start of the output */
  ET_XPRESS_OVERFLOW,    /* the output would exceed out_cap */
  ET_XPRESS_BAD_LENGTH,  /* a u16/u32 match length below 22, an error in [MS-XCA] 2.4 */
} EtXpressStatus;

/* Decompresses @in into @out (at most @out_cap bytes). Sets *@out_len to the
 * bytes written (also on failure: what was decoded before the fault) and, on
 * failure, *@bad_offset (may be NULL) to the input offset of the faulty item:
 * the flag word, the literal or the match token. The stream ends, with
 * ET_XPRESS_OK, when the input runs out where an item would start. Bytes
 * of @out past *@out_len (never past @out_cap) may be overwritten: the
 * decoder copies 16 bytes at a time where there is room. */
EtXpressStatus et_xpress_decompress (const guint8 *in,
                                     gsize         in_len,
                                     guint8       *out,
                                     gsize         out_cap,
                                     gsize        *out_len,
                                     gsize        *bad_offset);

const char    *et_xpress_status_to_string (EtXpressStatus status);

G_END_DECLS
