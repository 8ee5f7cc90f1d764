/* et-etl-resync.c — buffer headers told from other bytes (see
 * et-etl-resync.h for the rules).
 *
 * Every test reads a fixed number of bytes at one or two positions, so a
 * search costs a constant per byte searched, and the walk never searches
 * the same bytes twice: resynchronising is linear in the file's size. The
 * search goes byte by byte: compressed buffers have sizes of any
 * alignment.
 */
#include "et-etl-resync.h"
#include "et-bytes.h"

#define HEADER_SIZE 0x48
#define MAX_BUFFER_SIZE (16u * 1024 * 1024)
#define KNOWN_BUFFER_FLAGS 0x007F
#define BUFFER_FLAG_PROC_INDEX 0x0020
#define BUFFER_STATE_MAX 4   /* ETW_BUFFER_STATE: free … flushed (3 in files) */
#define BUFFER_TYPE_MAX 7    /* generic … debug info */

void
et_etl_check_init (EtBufferCheck *c, const guint8 *data, guint64 size, EtMapping *watch)
{
  memset (c, 0, sizeof *c);
  c->data = data;
  c->size = size;
  c->watch = watch;
}

static gboolean
size_possible (guint32 size)
{
  return size >= HEADER_SIZE && size <= MAX_BUFFER_SIZE;
}

gboolean
et_etl_buffer_header_sane (const EtBufferCheck *c, guint64 at)
{
  const guint8 *h = c->data + at;
  guint32 state;
  guint16 flags;

  if (at > c->size || c->size - at < HEADER_SIZE || et_read_u32 (h + 0x0C) != 0)
    return FALSE;
  flags = et_read_u16 (h + 0x34);
  if ((flags & ~KNOWN_BUFFER_FLAGS) || et_read_u16 (h + 0x36) > BUFFER_TYPE_MAX)
    return FALSE;
  if ((flags & BUFFER_FLAG_PROC_INDEX) && (et_read_u16 (h + 0x28) & ~0x07FF))
    return FALSE;
  state = et_read_u32 (h + 0x2C);
  return state >= 1 && state <= BUFFER_STATE_MAX;
}

/* A search asks more than a neighbour: the State and LoggerId of the
 * file's other buffers too (a file merged from several sessions still
 * walks, only its search is pickier). */
static gboolean
header_like_the_others (const EtBufferCheck *c, guint64 at)
{
  const guint8 *h = c->data + at;

  return et_etl_buffer_header_sane (c, at)
         && (!c->known || (et_read_u32 (h + 0x2C) == c->state
                           && et_read_u16 (h + 0x2A) == c->logger_id));
}

static gboolean
ends_at (const EtBufferCheck *c, guint64 at, gboolean lenient)
{
  guint32 size;

  if (at > c->size)
    return FALSE;
  if (c->size - at < HEADER_SIZE || et_etl_buffer_header_sane (c, at))
    return TRUE;
  if (!lenient)
    return FALSE;
  size = et_read_u32 (c->data + at);
  return size_possible (size) && ends_at (c, at + size, FALSE);
}

gboolean
et_etl_buffer_ends_at (const EtBufferCheck *c, guint64 at)
{
  return ends_at (c, at, TRUE);
}

static gboolean
plausible (const EtBufferCheck *c, guint64 at)
{
  guint32 size;
  guint64 end;

  if (!header_like_the_others (c, at))
    return FALSE;
  size = et_read_u32 (c->data + at);
  if (!size_possible (size))
    return FALSE;
  end = at + size;
  /* the last buffer (cut short, or followed by too few bytes for one), or
   * followed by one more like it */
  return end > c->size || c->size - end < HEADER_SIZE || header_like_the_others (c, end);
}

guint64
et_etl_find_buffer (const EtBufferCheck *c, guint64 from)
{
  for (guint64 at = from; at < c->size && c->size - at >= HEADER_SIZE; at++)
    {
      if (plausible (c, at))
        return at;
      /* once pages vanished (et-mapping) the rest reads as zeros */
      if ((at & 0xFFFF) == 0 && et_mapping_lost_from (c->watch) != G_MAXUINT64)
        break;
    }
  return c->size;
}

gboolean
et_etl_check_learn (EtBufferCheck *c, guint64 *first)
{
  for (guint64 at = 0; at < c->size && c->size - at >= HEADER_SIZE; at++)
    {
      if (!plausible (c, at))
        continue;
      /* the header it leads to must share its LoggerId and State too */
      c->logger_id = et_read_u16 (c->data + at + 0x2A);
      c->state = et_read_u32 (c->data + at + 0x2C);
      c->known = TRUE;
      if (plausible (c, at))
        {
          *first = at;
          return TRUE;
        }
      c->known = FALSE;
    }
  return FALSE;
}
