/* et-etl-reader.c — buffers and records (etl-format.md §1–§5).
 *
 * First stage of the pipeline. The file is memory-mapped; buffer headers are
 * walked by BufferSize, compressed buffers are decompressed once into one
 * heap block (their records must stay addressable for on-demand decoding),
 * and records are classified by their marker byte and HeaderType.
 */
#include "et-etl-reader.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-mapping.h"
#include "et-memory.h"
#include "et-xpress.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUFFER_FLAG_COMPRESSED 0x0040
#define BUFFER_FLAG_PROC_INDEX 0x0020

struct _EtEtlFile
{
  char         *path;
  int           fd;            /* kept to see whether the file shrank */
  GMappedFile  *mapped;
  EtMapping    *watch;         /* pages that vanish read as zeros */
  const guint8 *data;
  gsize         size;
  GArray       *buffers;       /* EtBufferInfo */
  guint8       *inflated;      /* decompressed buffers, back to back */
  gsize         inflated_len;
  gsize         inflated_cap;  /* allocated: grows by doubling */
  guint         inflated_grown;/* times it grew (G_MESSAGES_DEBUG) */
  gsize         inflate_budget;/* bytes that may still be decompressed */
  guint         n_compressed;
  EtDamageFunc  damage;
  gpointer      damage_data;
};

static void
report (EtEtlFile *file, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
report (EtEtlFile *file, guint64 offset, const char *format, ...)
{
  g_autofree char *what = NULL;
  g_autofree char *message = NULL;
  va_list args;

  /* Past a point where the file shrank, everything read is zeros: the
   * shrinking is reported once (note_shrinking), not what follows from it. */
  if (file->damage == NULL || offset >= et_mapping_lost_from (file->watch))
    return;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": %s",
                             file->path, offset, what);
  file->damage (offset, message, file->damage_data);
}

/* ---- records ---------------------------------------------------------- */

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

/* ---- buffers ---------------------------------------------------------- */

/* No ETW session buffer is larger than this; a bigger stated size is damage
 * and must not drive an allocation. */
#define MAX_BUFFER_SIZE (16u * 1024 * 1024)
#define LOG_MODE_COMPRESSED 0x04000000u
/* Every buffer may state 16 MiB of decompressed data and LZ77 can reach
 * that from a few bytes, so the total is held to a multiple of the file's
 * size: real traces compress 5-10 times, and memory stays bounded by the
 * file whatever the headers claim. */
#define MAX_INFLATE_RATIO 32

void
et_etl_file_free (EtEtlFile *file)
{
  if (file == NULL)
    return;
  et_memory_drop_pages (file->data, file->size);
  et_memory_drop_pages (file->inflated, file->inflated_len);
  et_mapping_unwatch (file->watch);
  g_clear_pointer (&file->mapped, g_mapped_file_unref);
  if (file->fd >= 0)
    close (file->fd);
  g_clear_pointer (&file->buffers, g_array_unref);
  g_free (file->inflated);
  g_free (file->path);
  g_free (file);
}

/* The session buffer size from the log-file header, when the file is not
 * compressed (compressed files have buffers of every size), so that a
 * buffer whose size field is damaged can be stepped over. */
static guint32
uniform_buffer_size (EtEtlFile *file)
{
  const guint8 *payload = file->data + ET_BUFFER_HEADER_SIZE + 0x20;
  guint32 size, mode;

  if (file->size < ET_BUFFER_HEADER_SIZE + 0x20 + 0x24)
    return 0;
  size = et_read_u32 (payload);
  mode = et_read_u32 (payload + 0x20);
  if ((mode & LOG_MODE_COMPRESSED) || size < ET_BUFFER_HEADER_SIZE || size > MAX_BUFFER_SIZE)
    return 0;
  return size;
}

/* Room for @more bytes after the decompressed buffers so far. The block
 * doubles: growing it by exactly each buffer's size copied the whole block
 * once per buffer, which is quadratic where realloc always copies (under
 * AddressSanitizer loading net.4.5.2.x64.etl took 50 s instead of 1 s). */
static void
reserve_inflated (EtEtlFile *file, gsize more)
{
  gsize need = file->inflated_len + more;

  if (need <= file->inflated_cap)
    return;
  file->inflated_cap = MAX (need, MAX (file->inflated_cap * 2, 1024 * 1024));
  file->inflated = g_realloc (file->inflated, file->inflated_cap);
  file->inflated_grown++;
}

static void
inflate_buffer (EtEtlFile *file, EtBufferInfo *info)
{
  const guint8 *src = file->data + info->offset;
  gsize cap = info->data_end > ET_BUFFER_HEADER_SIZE ? info->data_end - ET_BUFFER_HEADER_SIZE : 0;
  gsize out_len = 0, bad = 0;
  EtXpressStatus status;
  guint8 *dst;

  file->n_compressed++;
  if (cap > file->inflate_budget)
    {
      report (file, info->offset + 0x30, "compressed buffer %u states %" G_GSIZE_FORMAT
              " bytes of data, more than %d times the file's size allows in all; only %"
              G_GSIZE_FORMAT " are read", file->buffers->len, cap, MAX_INFLATE_RATIO,
              file->inflate_budget);
      cap = file->inflate_budget;
    }
  reserve_inflated (file, ET_BUFFER_HEADER_SIZE + cap);
  dst = file->inflated + file->inflated_len;
  memcpy (dst, src, ET_BUFFER_HEADER_SIZE);
  status = et_xpress_decompress (src + ET_BUFFER_HEADER_SIZE,
                                 info->disk_size - ET_BUFFER_HEADER_SIZE,
                                 dst + ET_BUFFER_HEADER_SIZE, cap, &out_len, &bad);
  if (status != ET_XPRESS_OK)
    report (file, info->offset + ET_BUFFER_HEADER_SIZE + bad,
            "compressed buffer %u: %s; %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
            " bytes recovered", file->buffers->len, et_xpress_status_to_string (status),
            out_len, cap);
  else if (out_len < cap)
    report (file, info->offset, "compressed buffer %u decompresses to %" G_GSIZE_FORMAT
            " bytes, %" G_GSIZE_FORMAT " expected", file->buffers->len, out_len, cap);
  file->inflate_budget -= out_len;
  info->data_end = (guint32) (ET_BUFFER_HEADER_SIZE + out_len);
  info->usable = TRUE;
  /* data_index counts 8-byte units, so 32 bits address 32 GiB. */
  info->data_index = (guint32) (file->inflated_len >> 3);
  file->inflated_len += ET_BUFFER_HEADER_SIZE + ((out_len + 7) & ~(gsize) 7);
}

/* Reads the buffer header at @offset; returns the step to the next one, or
 * 0 when the walk cannot go on. */
static gsize
read_buffer (EtEtlFile *file, guint64 offset, guint32 uniform)
{
  const guint8 *h = file->data + offset;
  guint64 left = file->size - offset;
  EtBufferInfo info = { 0 };
  guint32 stated = et_read_u32 (h);

  info.offset = offset;
  info.disk_size = stated;
  /* In an uncompressed file every buffer has the session's size, so any
   * other stated size is damage; trusting it would misalign every buffer
   * after this one. */
  if (uniform != 0 && stated != uniform && stated >= ET_BUFFER_HEADER_SIZE
      && stated <= MAX_BUFFER_SIZE)
    {
      report (file, offset, "buffer %u states a size of %u bytes; the session's buffers "
              "are %u bytes, so that is used", file->buffers->len, stated, uniform);
      info.disk_size = uniform;
    }
  else if (stated < ET_BUFFER_HEADER_SIZE || stated > MAX_BUFFER_SIZE)
    {
      if (uniform == 0)
        {
          report (file, offset, "buffer %u has an impossible size of %u bytes; "
                  "the %" G_GUINT64_FORMAT " bytes from here on are skipped",
                  file->buffers->len, stated, left);
          return 0;
        }
      report (file, offset, "buffer %u has an impossible size of %u bytes; "
              "using the session's buffer size %u", file->buffers->len, stated, uniform);
      info.disk_size = uniform;
    }
  if (info.disk_size > left)
    {
      report (file, offset, "buffer %u is cut short: %u bytes stated, %" G_GUINT64_FORMAT
              " left in the file", file->buffers->len, info.disk_size, left);
      info.disk_size = (guint32) left;
    }

  info.data_end = et_read_u32 (h + 0x30);
  info.flags = et_read_u16 (h + 0x34);
  info.type = et_read_u16 (h + 0x36);
  info.cpu = (info.flags & BUFFER_FLAG_PROC_INDEX) ? (et_read_u16 (h + 0x28) & 0x07FF) : h[0x28];
  if (info.data_end > MAX_BUFFER_SIZE)
    {
      report (file, offset + 0x30, "buffer %u states %u bytes of data; reading what it holds",
              file->buffers->len, info.data_end);
      info.data_end = info.disk_size;
    }
  if (info.flags & BUFFER_FLAG_COMPRESSED)
    inflate_buffer (file, &info);
  else
    {
      info.data_end = MIN (info.data_end, info.disk_size);
      info.usable = TRUE;
      info.data_index = G_MAXUINT32;
    }
  g_array_append_val (file->buffers, info);
  return info.disk_size;
}

static gboolean
looks_like_etl (EtEtlFile *file, GError **error)
{
  const guint8 *first;

  if (file->size < ET_BUFFER_HEADER_SIZE + 0x20)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset 0: the file is %" G_GSIZE_FORMAT
                   " bytes long, too short for an .etl buffer and its header record",
                   file->path, file->size);
      return FALSE;
    }
  /* (An empty file maps to NULL: no pointer into it before this check.) */
  first = file->data + ET_BUFFER_HEADER_SIZE;
  /* The first record must be the TRACE_LOGFILE_HEADER: a SYSTEM record of
   * group 0, type 0 (etl-format.md §6). */
  if (first[3] != 0xC0 || (first[2] != 0x01 && first[2] != 0x02) || et_read_u16 (first + 6) != 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset %d: not an .etl file (no trace log-file header record)",
                   file->path, ET_BUFFER_HEADER_SIZE);
      return FALSE;
    }
  return TRUE;
}

static void
report_shrinking (EtEtlFile *file, guint64 lost, guint dropped)
{
  g_autofree char *message = NULL;

  if (file->damage == NULL)
    return;
  message = g_strdup_printf ("%s: byte offset %" G_GUINT64_FORMAT ": the file shrank while "
                             "it was read: the %" G_GUINT64_FORMAT " bytes from here on are "
                             "gone, and %u buffers with them", file->path, lost,
                             (guint64) (file->size - lost), dropped);
  file->damage (lost, message, file->damage_data);
}

/* Another writer may shorten the file while it is read (a trace still
 * being copied): pages past its new end read as zeros (et-mapping). Keeps
 * the buffers before the cut, shortens the one it crosses (a compressed one
 * is dropped: its stream may have been read as zeros) and says where the
 * file ended. Called after the walk; TRUE when the file shrank. */
static gboolean
note_shrinking (EtEtlFile *file)
{
  guint64 lost = et_mapping_lost_from (file->watch);
  struct stat st;
  guint kept = 0;

  if (fstat (file->fd, &st) == 0 && (guint64) st.st_size < file->size)
    lost = MIN (lost, (guint64) st.st_size);
  if (lost >= file->size)
    return FALSE;
  for (; kept < file->buffers->len; kept++)
    {
      EtBufferInfo *info = &g_array_index (file->buffers, EtBufferInfo, kept);

      if (info->offset + info->disk_size <= lost)
        continue;
      if (info->offset + ET_BUFFER_HEADER_SIZE > lost || info->data_index != G_MAXUINT32)
        break;
      info->data_end = MIN (info->data_end, (guint32) (lost - info->offset));
    }
  report_shrinking (file, lost, file->buffers->len - kept);
  g_array_set_size (file->buffers, kept);
  file->size = lost;
  return TRUE;
}

static const char *
kind_of_file (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "not a regular file";
}

/* Opens @path for mapping, refusing anything but a regular file: a FIFO
 * without a writer would block open() for ever, and a device or
 * directory cannot be mapped as a trace. O_NONBLOCK makes the open itself
 * return at once; it changes nothing for a regular file. */
static int
open_regular (const char *path, GError **error)
{
  struct stat st = { 0 };
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int saved = errno;

  if (fd >= 0 && fstat (fd, &st) != 0)
    {
      saved = errno;
      close (fd);
      fd = -1;
    }
  if (fd < 0)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: cannot open: %s",
                   path, g_strerror (saved));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: %s, not a "
                   "regular file: only .etl files can be read", path, kind_of_file (st.st_mode));
      close (fd);
      return -1;
    }
  return fd;
}

EtEtlFile *
et_etl_file_open (const char *path, EtDamageFunc damage, gpointer damage_data, GError **error)
{
  g_autoptr(EtEtlFile) file = g_new0 (EtEtlFile, 1);
  g_autoptr(GError) local = NULL;
  guint64 offset = 0;
  guint32 uniform;

  g_return_val_if_fail (path != NULL, NULL);

  file->path = g_strdup (path);
  file->fd = -1;
  file->damage = damage;
  file->damage_data = damage_data;
  file->buffers = g_array_new (FALSE, FALSE, sizeof (EtBufferInfo));
  file->fd = open_regular (path, error);
  if (file->fd < 0)
    return NULL;
  file->mapped = g_mapped_file_new_from_fd (file->fd, FALSE, &local);
  if (file->mapped == NULL)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_IO, "%s: byte offset 0: cannot open: %s",
                   path, local->message);
      return NULL;
    }
  file->data = (const guint8 *) g_mapped_file_get_contents (file->mapped);
  file->size = g_mapped_file_get_length (file->mapped);
  file->watch = et_mapping_watch (file->data, file->size);
  if (!looks_like_etl (file, error))
    return NULL;

  file->inflate_budget = MAX_INFLATE_RATIO * file->size;
  uniform = uniform_buffer_size (file);
  while (offset + ET_BUFFER_HEADER_SIZE <= file->size)
    {
      gsize step = read_buffer (file, offset, uniform);
      if (step == 0 || et_mapping_lost_from (file->watch) != G_MAXUINT64)
        break;
      offset += step;
    }
  if (note_shrinking (file))
    return g_steal_pointer (&file);
  if (offset < file->size && offset + ET_BUFFER_HEADER_SIZE > file->size)
    report (file, offset, "%" G_GUINT64_FORMAT " trailing bytes are too few for a buffer",
            (guint64) (file->size - offset));
  g_debug ("%s: %u compressed buffers, %" G_GSIZE_FORMAT " bytes decompressed, "
           "the block grown %u times", path, file->n_compressed, file->inflated_len,
           file->inflated_grown);
  return g_steal_pointer (&file);
}

guint64
et_etl_file_size (EtEtlFile *file)
{
  return file->size;
}

guint
et_etl_file_n_buffers (EtEtlFile *file)
{
  return file->buffers->len;
}

guint
et_etl_file_n_compressed (EtEtlFile *file)
{
  return file->n_compressed;
}

const EtBufferInfo *
et_etl_file_buffer_info (EtEtlFile *file, guint index)
{
  g_return_val_if_fail (index < file->buffers->len, NULL);
  return &g_array_index (file->buffers, EtBufferInfo, index);
}

const guint8 *
et_etl_file_buffer (EtEtlFile *file, guint index, gsize *len)
{
  const EtBufferInfo *info = et_etl_file_buffer_info (file, index);

  *len = info->data_end;
  if (info->data_index == G_MAXUINT32)
    return file->data + info->offset;
  return file->inflated + ((gsize) info->data_index << 3);
}

guint64
et_etl_file_offset_of (EtEtlFile *file, guint index, gsize pos)
{
  const EtBufferInfo *info = et_etl_file_buffer_info (file, index);

  return info->data_index == G_MAXUINT32 ? info->offset + pos : info->offset;
}

static void
report_in_buffer (EtEtlFile *file, const EtBufferInfo *info, guint index, gsize pos,
                  const char *reason, gsize rest)
{
  if (info->data_index == G_MAXUINT32)
    report (file, info->offset + pos, "buffer %u: %s; the rest of the buffer "
            "(%" G_GSIZE_FORMAT " bytes) is skipped", index, reason, rest);
  else
    report (file, info->offset, "compressed buffer %u, decompressed position %"
            G_GSIZE_FORMAT ": %s; the rest of the buffer (%" G_GSIZE_FORMAT
            " bytes) is skipped", index, pos, reason, rest);
}

guint
et_etl_file_walk_buffer (EtEtlFile *file, guint index, EtRecordFunc func, gpointer user_data)
{
  const EtBufferInfo *info = et_etl_file_buffer_info (file, index);
  gsize len, pos = ET_BUFFER_HEADER_SIZE;
  const guint8 *bytes = et_etl_file_buffer (file, index, &len);
  EtRecord record;
  const char *reason;

  while (pos + 4 <= len)
    {
      if (et_read_u32 (bytes + pos) == 0xFFFFFFFF)
        {
          /* The fill belongs after the data: before its end it means a
           * damaged size or stream, and the records after it are lost. */
          if (len - pos > 8)
            report_in_buffer (file, info, index, pos, "fill bytes before the end of the "
                              "buffer's data", len - pos);
          return len - pos > 8;
        }
      if (!et_record_parse (bytes + pos, len - pos, &record, &reason))
        {
          report_in_buffer (file, info, index, pos, reason, len - pos);
          return 1;
        }
      func (&record, index, pos, user_data);
      pos += ((gsize) record.size + 7) & ~(gsize) 7;
    }
  return 0;
}
