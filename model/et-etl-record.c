/* et-etl-record.c — the records inside a buffer (etl-format.md §4–§5):
 * classified by their marker byte and HeaderType, parsed into EtRecord.
 *
 * Second half of et-etl-reader.h: et-etl-reader.c walks the buffers and
 * hands their bytes here. Every read stays inside the record's stated size,
 * which stays inside the bytes the buffer has left.
 */
#include "et-etl-reader.h"
#include "et-bytes.h"

static gboolean
parse_ext_items (EtRecord *r, const guint8 *p, gsize header, gsize size)
{
  gsize pos = header;

  r->ext = p + header;
  for (;;)
    {
      guint16 item_size, linkage;

      if (pos + 8 > size)
        return FALSE;
      item_size = et_read_u16 (p + pos);
      linkage = et_read_u16 (p + pos + 4);
      if (item_size < 8 || pos + item_size > size)
        return FALSE;
      pos += item_size;
      if ((linkage & 1) == 0)
        break;
    }
  r->ext_len = pos - header;
  r->payload = p + pos;
  r->payload_len = size - pos;
  return TRUE;
}

static gboolean
parse_event_header (EtRecord *r, const guint8 *p, gsize size)
{
  if (size < 0x50)
    return FALSE;
  r->flags = et_read_u16 (p + 4);
  r->tid = et_read_u32 (p + 8);
  r->pid = et_read_u32 (p + 12);
  r->ts = (gint64) et_read_u64 (p + 16);
  et_guid_from_bytes (&r->guid, p + 0x18);
  r->id = et_read_u16 (p + 0x28);
  r->version = p[0x2A];
  r->channel = p[0x2B];
  r->level = p[0x2C];
  r->opcode = p[0x2D];
  r->task = et_read_u16 (p + 0x2E);
  r->keywords = et_read_u64 (p + 0x30);
  et_guid_from_bytes (&r->activity_id, p + 0x40);
  r->has_ids = TRUE;
  r->payload = p + 0x50;
  r->payload_len = size - 0x50;
  /* A broken item chain does not make the record unwalkable: its size is
   * fine. Keep it, without items, and let decoding say what is wrong. */
  if ((r->flags & 0x0001) && !parse_ext_items (r, p, 0x50, size))
    {
      r->ext = NULL;
      r->ext_len = 0;
      r->ext_bad = TRUE;
    }
  return TRUE;
}

static gboolean
parse_classic (EtRecord *r, const guint8 *p, gsize size, gsize header)
{
  if (size < header)
    return FALSE;
  r->opcode = p[4];
  r->level = p[5];
  r->version = (guint8) et_read_u16 (p + 6);
  r->tid = et_read_u32 (p + 8);
  r->pid = et_read_u32 (p + 12);
  r->ts = (gint64) et_read_u64 (p + 16);
  et_guid_from_bytes (&r->guid, p + 0x18);
  r->has_ids = TRUE;
  r->payload = p + header;
  r->payload_len = size - header;
  return TRUE;
}

/* SYSTEM (0x20), COMPACT (0x18) and PERFINFO (0x10) headers, plus the
 * PEBS / PMC extension words that may follow them. */
static gboolean
parse_system (EtRecord *r, const guint8 *p, gsize size, gsize header, gboolean ids)
{
  guint16 version = et_read_u16 (p);
  gsize ext = ((version & 0x8000) ? 8 : 0) + ((version >> 8) & 0x7) * 8;

  if (size < header + ext)
    return FALSE;
  r->version = version & 0xFF;
  r->hook = et_read_u16 (p + 6);
  r->opcode = r->hook & 0xFF;
  if (ids)
    {
      r->tid = et_read_u32 (p + 8);
      r->pid = et_read_u32 (p + 12);
      r->ts = (gint64) et_read_u64 (p + 16);
      r->has_ids = TRUE;
    }
  else
    r->ts = (gint64) et_read_u64 (p + 8);
  r->payload = p + header + ext;
  r->payload_len = size - header - ext;
  return TRUE;
}

static gboolean
parse_message (EtRecord *r, const guint8 *p, gsize size)
{
  gsize pos = 8;
  guint16 options = et_read_u16 (p + 6);

  r->flags = options;
  r->id = et_read_u16 (p + 4);
  if (options & 0x01)
    pos += 4;
  if (options & 0x02)
    {
      if (pos + 16 > size)
        return FALSE;
      et_guid_from_bytes (&r->guid, p + pos);
      pos += 16;
    }
  else if (options & 0x04)
    pos += 4;
  if (options & 0x08)
    {
      if (pos + 8 > size)
        return FALSE;
      r->ts = (gint64) et_read_u64 (p + pos);
      pos += 8;
    }
  if (options & 0x20)
    {
      if (pos + 8 > size)
        return FALSE;
      r->tid = et_read_u32 (p + pos);
      r->pid = et_read_u32 (p + pos + 4);
      r->has_ids = TRUE;
      pos += 8;
    }
  if (pos > size)
    return FALSE;
  r->payload = p + pos;
  r->payload_len = size - pos;
  return TRUE;
}

gboolean
et_record_parse (const guint8 *p, gsize avail, EtRecord *r, const char **reason)
{
  guint8 marker, type;
  gsize size;

  memset (r, 0, sizeof *r);
  *reason = "record header does not fit in the buffer";
  if (avail < 8)
    return FALSE;
  marker = p[3];
  type = p[2];

  if (marker == 0x90 || (marker == 0xC0 && type == 0x0F))
    {
      r->klass = ET_RECORD_MESSAGE;
      r->header_type = 0x0F;
      size = et_read_u16 (p);
    }
  else if (marker != 0xC0)
    {
      *reason = "unknown record marker";
      return FALSE;
    }
  else
    {
      r->header_type = type;
      switch (type)
        {
        case 0x01: case 0x02: case 0x03: case 0x04: case 0x10: case 0x11:
          r->klass = type >= 0x10 ? ET_RECORD_PERFINFO : ET_RECORD_SYSTEM;
          size = et_read_u16 (p + 4);
          break;
        case 0x0A: case 0x14:
          r->klass = ET_RECORD_FULL;
          size = et_read_u16 (p);
          break;
        case 0x0B: case 0x15:
          r->klass = ET_RECORD_INSTANCE;
          size = et_read_u16 (p);
          break;
        case 0x12: case 0x13:
          r->klass = ET_RECORD_EVENT;
          size = et_read_u16 (p);
          break;
        case 0x0D:
          r->klass = ET_RECORD_ERROR;
          size = et_read_u16 (p);
          break;
        default:
          *reason = "unknown header type";
          return FALSE;
        }
    }

  r->size = (guint16) size;
  r->pointer_size = (type == 0x02 || type == 0x04 || type == 0x11 || type == 0x13
                     || type == 0x14 || type == 0x15) ? 8 : 4;
  *reason = "record size runs past the end of the buffer";
  if (size > avail)
    return FALSE;
  *reason = "record size is smaller than its header";
  switch ((EtRecordClass) r->klass)
    {
    case ET_RECORD_SYSTEM:
      return parse_system (r, p, size, (type <= 0x02) ? 0x20 : 0x18, TRUE);
    case ET_RECORD_PERFINFO:
      return parse_system (r, p, size, 0x10, FALSE);
    case ET_RECORD_FULL:
      return parse_classic (r, p, size, 0x30);
    case ET_RECORD_INSTANCE:
      return parse_classic (r, p, size, 0x48);
    case ET_RECORD_EVENT:
      return parse_event_header (r, p, size);
    case ET_RECORD_MESSAGE:
      return size >= 8 && parse_message (r, p, size);
    case ET_RECORD_ERROR:
      return size >= 8;
    }
  return FALSE;
}

const char *
et_record_header_name (const EtRecord *r)
{
  switch (r->header_type)
    {
    case 0x01: return "SYSTEM32";
    case 0x02: return "SYSTEM64";
    case 0x03: return "COMPACT32";
    case 0x04: return "COMPACT64";
    case 0x0A: return "FULL_HEADER32";
    case 0x0B: return "INSTANCE32";
    case 0x0D: return "ERROR";
    case 0x0F: return "MESSAGE";
    case 0x10: return "PERFINFO32";
    case 0x11: return "PERFINFO64";
    case 0x12: return "EVENT_HEADER32";
    case 0x13: return "EVENT_HEADER64";
    case 0x14: return "FULL_HEADER64";
    case 0x15: return "INSTANCE64";
    default:   return "UNKNOWN";
    }
}

const guint8 *
et_record_find_ext (const EtRecord *r, guint type, gsize *len)
{
  gsize pos = 0;

  while (r->ext != NULL && pos + 8 <= r->ext_len)
    {
      guint16 item_size = et_read_u16 (r->ext + pos);
      guint16 item_type = et_read_u16 (r->ext + pos + 2);
      guint16 data_size = et_read_u16 (r->ext + pos + 6);

      if (item_size < 8)
        break;
      if (item_type == type)
        {
          *len = MIN ((gsize) data_size, (gsize) item_size - 8);
          return r->ext + pos + 8;
        }
      pos += item_size;
    }
  *len = 0;
  return NULL;
}
