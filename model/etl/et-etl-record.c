/* et-etl-record.c — the records inside a buffer (etl-format.md §4–§5):
 * classified by their marker byte and HeaderType, parsed into EtRecord.
 *
 * Second half of et-etl-reader.h: et-etl-reader.c walks the buffers and
 * hands their bytes here. Every read stays inside the record's stated size,
 * which stays inside the bytes the buffer has left.
 */
#include "et-etl-reader.h"
#include "et-bytes.h"

/* What is wrong with the data of an item of a type whose layout is known
 * (etl-format.md §5.6, §10), or NULL. */
static const char *
ext_data_problem (guint16 type, const guint8 *data, gsize n)
{
  switch (type)
    {
    case ET_EXT_RELATED_ACTIVITYID: case 14: case 16:     /* a GUID */
      return n == 16 ? NULL : "a GUID item whose data is not 16 bytes";
    case 3:                                                /* TS_ID */
      return n == 4 ? NULL : "a session-id item whose data is not 4 bytes";
    case 4:                                                /* INSTANCE_INFO */
      return n == 24 ? NULL : "an instance item whose data is not 24 bytes";
    case 7: case 9: case 10: case 13: case 15:             /* one u64 */
      return n == 8 ? NULL : "a key item whose data is not 8 bytes";
    case 5:                                                /* STACK_TRACE32 */
      return n >= 8 && (n - 8) % 4 == 0 ? NULL : "a stack item of a size no stack has";
    case 6: case 8:                                        /* STACK_TRACE64, PMC */
      return n >= 8 && n % 8 == 0 ? NULL : "a stack or counter item of a size none has";
    case ET_EXT_EVENT_SCHEMA_TL:
      /* Its own size, a tag byte and a name's NUL at least; the rest is
       * for the TraceLogging decoder to judge. */
      return n >= 4 ? NULL : "TraceLogging metadata shorter than 4 bytes";
    case ET_EXT_PROV_TRAITS:
      if (n < 3 || et_read_u16 (data) < 3 || et_read_u16 (data) > n)
        return "provider traits whose own size does not fit the item";
      return NULL;
    default:
      return NULL;
    }
}

/* What is wrong with the item at @item, @avail bytes before the record's
 * end, or NULL. *@chain is set when the chain cannot be followed past it
 * (its size is wrong): then neither later items nor the payload can be
 * found. Files always round an item to 8 + DataSize padded to 8 [obs]. */
static const char *
ext_item_problem (const guint8 *item, gsize avail, gboolean *chain)
{
  guint16 size, data;

  *chain = TRUE;
  if (avail < 8)
    return "an item header runs past the record (Linkage set on the last item?)";
  size = et_read_u16 (item);
  data = et_read_u16 (item + 6);
  if (size < 8)
    return "an item smaller than its 8-byte header";
  if (size % 8 != 0)
    return "an item size that is not a multiple of 8";
  if (size > avail)
    return "an item runs past the record";
  *chain = FALSE;
  if (data > size - 8 || size - 8 - data >= 8)
    return "an item whose DataSize does not match its size";
  return ext_data_problem (et_read_u16 (item + 2), item + 8, data);
}

/* Walks the item chain of an EVENT_HEADER record; notes the first bad
 * item (reported by the buffer walk). FALSE when the chain itself is
 * broken: the record is kept, without items. */
static gboolean
parse_ext_items (EtRecord *r, const guint8 *p, gsize header, gsize size)
{
  gsize pos = header, last = header;
  gboolean linkage = TRUE;

  r->ext = p + header;
  while (linkage)
    {
      gboolean chain;
      const char *problem = ext_item_problem (p + pos, size - pos, &chain);

      /* Past the last item's Linkage, the item to blame is that one. */
      if (problem != NULL && r->ext_damage == NULL)
        r->ext_damage = problem, r->ext_damage_pos = (guint16) (size - pos < 8 ? last : pos);
      if (chain)
        return FALSE;
      linkage = et_read_u16 (p + pos + 4) & 1;
      last = pos;
      pos += et_read_u16 (p + pos);
    }
  r->ext_len = pos - header;
  r->ext_checked = TRUE;
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

  if (size < header)
    return FALSE;
  /* Its size frames the record whatever the version word says: extension
   * words it claims but does not hold are damaged bits in that word, not
   * a damaged buffer. Reported at the record, read without them. */
  if (size < header + ext)
    {
      r->ext_damage = "its version word claims PEBS or PMC extension words its size does not hold";
      ext = 0;
    }
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

/* Copied in to clear a record: a memset of its size compiles to a string
 * store, whose start-up cost was a third of parsing a record. */
static const EtRecord no_record;

gboolean
et_record_parse (const guint8 *p, gsize avail, EtRecord *r, const char **reason)
{
  guint8 marker, type;
  gsize size;

  *r = no_record;
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
et_record_find_ext_either (const EtRecord *r, guint type, guint other, gsize *len)
{
  gsize pos = 0;
  /* parse_ext_items has checked the chain: every size is sane; and when
   * it found no bad item, every item (the decoding threads look an item
   * up in every event). */
  gboolean all_good = r->ext_checked && r->ext_damage == NULL;

  while (r->ext != NULL && pos + 8 <= r->ext_len)
    {
      const guint8 *item = r->ext + pos;
      guint16 item_type = et_read_u16 (item + 2);
      gboolean chain;

      if ((item_type == type || item_type == other)
          && (all_good || ext_item_problem (item, r->ext_len - pos, &chain) == NULL))
        {
          *len = et_read_u16 (item + 6);
          return item + 8;
        }
      pos += et_read_u16 (item);
    }
  *len = 0;
  return NULL;
}

const guint8 *
et_record_find_ext (const EtRecord *r, guint type, gsize *len)
{
  return et_record_find_ext_either (r, type, type, len);
}
