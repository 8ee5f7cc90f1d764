/* et-etl-reader.c — buffers and records (etl-format.md §1–§5).
 *
 * First stage of the pipeline. The file is memory-mapped; buffer headers are
 * walked by BufferSize, compressed buffers are decompressed once into one
 * heap block (their records must stay addressable for on-demand decoding),
 * and records are classified by their marker byte and HeaderType.
 *
 * Decompression waits for the end of the walk (et-etl-compressed,
 * et-etl-inflate): the walk
 * gives each compressed buffer its place in the block and holds back every
 * problem it reports, then all buffers are decompressed at once on every
 * core, and the problems are reported in the walk's order, each buffer's
 * decompression problem where the walk met the buffer: the same texts in
 * the same order as when the walk decompressed each buffer as it went.
 * Files of other formats made buffers in memory: et-etl-image.
 */
#include "et-etl-reader-private.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-memory.h"

#include <sys/stat.h>
#include <unistd.h>

guint64
et_etl_slot_space (void)
{
  const char *space = g_getenv ("ETLSCOPE_SLOT_SPACE");
  guint64 slots = space ? g_ascii_strtoull (space, NULL, 10) : G_GUINT64_CONSTANT (1) << 32;

  return MIN (slots, G_GUINT64_CONSTANT (1) << 32);
}

void
_et_etl_report (EtEtlFile *file, guint64 offset, const char *format, ...)
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
  if (file->inflate != NULL)
    et_etl_inflate_hold (file->inflate, offset, g_steal_pointer (&message));
  else
    file->damage (offset, message, file->damage_data);
}

/* ---- buffers ---------------------------------------------------------- */


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
  g_clear_pointer (&file->inflate, et_etl_inflate_free);
  _et_etl_free_image (file);
  g_free (file->inflated);
  g_free (file->path);
  g_free (file);
}

/* The first record is the TRACE_LOGFILE_HEADER: a SYSTEM record of group
 * 0, type 0 (etl-format.md §6). */
static gboolean
header_record_first (EtEtlFile *file)
{
  const guint8 *first = file->data + ET_BUFFER_HEADER_SIZE;

  return first[3] == 0xC0 && (first[2] == 0x01 || first[2] == 0x02) && et_read_u16 (first + 6) == 0;
}

/* The session buffer size from the log-file header, when the file is not
 * compressed (compressed files have buffers of every size), so that a
 * buffer whose size field is damaged can be stepped over. */
static guint32
uniform_buffer_size (EtEtlFile *file)
{
  const guint8 *payload = file->data + ET_BUFFER_HEADER_SIZE + 0x20;
  guint32 size, mode;

  if (file->size < ET_BUFFER_HEADER_SIZE + 0x20 + 0x24 || !header_record_first (file))
    return 0;
  size = et_read_u32 (payload);
  mode = et_read_u32 (payload + 0x20);
  if ((mode & LOG_MODE_COMPRESSED) || size < ET_BUFFER_HEADER_SIZE || size > MAX_BUFFER_SIZE)
    return 0;
  return size;
}

/* The buffer at @offset, of @disk_size bytes on disk, into the list
 * (decompressed when its own flag says so, whatever the log-file header's
 * mode says). Returns @disk_size. */
static gsize
add_buffer (EtEtlFile *file, guint64 offset, guint32 disk_size)
{
  const guint8 *h = file->data + offset;
  EtBufferInfo info = { 0 };

  info.offset = offset;
  info.disk_size = disk_size;
  info.data_end = et_read_u32 (h + 0x30);
  info.flags = et_read_u16 (h + 0x34);
  info.type = et_read_u16 (h + 0x36);
  info.cpu = (info.flags & BUFFER_FLAG_PROC_INDEX) ? (et_read_u16 (h + 0x28) & 0x07FF) : h[0x28];
  if (info.data_end > MAX_BUFFER_SIZE)
    {
      _et_etl_report (file, offset + 0x30, "buffer %u states %u bytes of data; reading what it holds",
              file->buffers->len, info.data_end);
      info.data_end = info.disk_size;
    }
  if (info.flags & BUFFER_FLAG_COMPRESSED)
    _et_etl_plan_inflate (file, &info);
  else
    {
      info.data_end = MIN (info.data_end, info.disk_size);
      info.usable = TRUE;
      info.data_index = G_MAXUINT32;
    }
  g_array_append_val (file->buffers, info);
  return disk_size;
}

/* The last buffer, stating more bytes than the file has left: read what
 * is there. */
static gsize
cut_short (EtEtlFile *file, guint64 offset, guint32 stated)
{
  guint64 left = file->size - offset;

  _et_etl_report (file, offset, "buffer %u is cut short: %u bytes stated, %" G_GUINT64_FORMAT
          " left in the file", file->buffers->len, stated, left);
  return add_buffer (file, offset, (guint32) MIN (left, MAX_BUFFER_SIZE));
}

/* Garbage where a buffer header should be (or a header that overlaps the
 * next one, at @next): up to the next plausible header (or the end of the
 * file) nothing can be read. */
static gsize
skip_garbage (EtEtlFile *file, guint64 offset, guint64 next)
{
  if (next == file->size)
    _et_etl_report (file, offset, "no buffer header here, nor anywhere after it: the last %"
            G_GUINT64_FORMAT " bytes of the file are skipped", next - offset);
  else
    _et_etl_report (file, offset, "no buffer header here: the %" G_GUINT64_FORMAT " bytes up to "
            "the next one, at byte offset %" G_GUINT64_FORMAT ", are skipped",
            next - offset, next);
  return next - offset;
}

/* A compressed buffer whose stated size does not lead to the next header:
 * its stream ends where the next header begins, unless the stated size
 * gives exactly the stated data (then the bytes after it are strays). */
static guint32
compressed_extent (EtEtlFile *file, guint64 offset, guint32 size, guint64 next)
{
  if (offset + size < next && !_et_etl_inflates_cleanly (file, offset, size))
    size = (guint32) MIN (next - offset, MAX_BUFFER_SIZE);
  return size;
}

/* The buffer at @offset has a plausible header but its size does not lead
 * to the next one (one damaged field, stray bytes after it, a size one byte
 * off or 16 MiB in a compressed file): the session's size when that leads
 * to a header, else the next plausible header found by search. */
static gsize
resynchronise (EtEtlFile *file, guint64 offset, guint32 stated, guint32 uniform)
{
  gboolean compressed = (et_read_u16 (file->data + offset + 0x34) & BUFFER_FLAG_COMPRESSED) != 0;
  gboolean possible = stated >= ET_BUFFER_HEADER_SIZE && stated <= MAX_BUFFER_SIZE;
  guint64 next;
  guint32 size;

  if (uniform != 0 && !compressed && et_etl_buffer_ends_at (&file->check, offset + uniform))
    {
      if (possible)
        _et_etl_report (file, offset, "buffer %u states a size of %u bytes; the session's buffers "
                "are %u bytes, so that is used", file->buffers->len, stated, uniform);
      else
        _et_etl_report (file, offset, "buffer %u has an impossible size of %u bytes; "
                "using the session's buffer size %u", file->buffers->len, stated, uniform);
      return add_buffer (file, offset, uniform);
    }
  next = et_etl_find_buffer (&file->check, offset + 1);
  if (next == file->size && possible && offset + stated > file->size)
    return cut_short (file, offset, stated);
  if (next - offset < ET_BUFFER_HEADER_SIZE)
    return skip_garbage (file, offset, next);
  size = (guint32) MIN (next - offset, MAX_BUFFER_SIZE);
  if (possible && stated < size)
    size = stated;
  else if (uniform != 0 && !compressed && uniform < size)
    size = uniform;
  if (compressed)
    size = compressed_extent (file, offset, size, next);
  if (size != stated)
    _et_etl_report (file, offset, "buffer %u states a size of %u bytes, but the next buffer header "
            "is at byte offset %" G_GUINT64_FORMAT ": %u bytes are read", file->buffers->len,
            stated, next, size);
  add_buffer (file, offset, size);
  if (offset + size < next)
    _et_etl_report (file, offset + size, "%" G_GUINT64_FORMAT " bytes after buffer %u belong to no "
            "buffer; skipped up to the next buffer header, at byte offset %" G_GUINT64_FORMAT,
            next - offset - size, file->buffers->len - 1, next);
  return next - offset;
}

/* Reads the buffer at @offset; returns the step to the next one. A buffer
 * is trusted when its size leads to the next header (or to the end of the
 * file); otherwise the walk resynchronises on the next plausible header
 * instead of losing every buffer after a damaged one. */
static gsize
read_buffer (EtEtlFile *file, guint64 offset, guint32 uniform)
{
  guint32 stated = et_read_u32 (file->data + offset);

  if (stated >= ET_BUFFER_HEADER_SIZE && stated <= MAX_BUFFER_SIZE
      && et_etl_buffer_ends_at (&file->check, offset + stated))
    return add_buffer (file, offset, stated);
  if (!et_etl_buffer_header_sane (&file->check, offset))
    return skip_garbage (file, offset, et_etl_find_buffer (&file->check, offset + 1));
  return resynchronise (file, offset, stated, uniform);
}

static gboolean
looks_like_etl (EtEtlFile *file, GError **error)
{
  guint64 first;

  if (file->size < ET_BUFFER_HEADER_SIZE + 0x20)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset 0: the file is %" G_GSIZE_FORMAT
                   " bytes long, too short for an .etl buffer and its header record",
                   file->path, file->size);
      return FALSE;
    }
  /* A file whose header buffer is damaged or not first can still hold
   * readable buffers; only a file without any is no trace at all. */
  et_etl_check_init (&file->check, file->data, file->size, file->watch);
  if (!et_etl_check_learn (&file->check, &first))
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_NOT_ETL,
                   "%s: byte offset 0: not an .etl file (no buffer header found in its %"
                   G_GSIZE_FORMAT " bytes)", file->path, file->size);
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
static guint64
lost_from (EtEtlFile *file)
{
  guint64 lost = et_mapping_lost_from (file->watch);
  struct stat st;

  if (file->fd >= 0 && fstat (file->fd, &st) == 0 && (guint64) st.st_size < file->size)
    lost = MIN (lost, (guint64) st.st_size);
  return lost;
}

static gboolean
note_shrinking (EtEtlFile *file)
{
  guint64 lost = lost_from (file);
  guint kept = 0;

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

gboolean
et_etl_file_check_shrinking (EtEtlFile *file)
{
  guint64 lost = lost_from (file);
  guint touched = 0;

  if (lost >= file->size)
    return FALSE;
  /* decompressed buffers were read whole while the file was opened */
  for (guint i = 0; i < file->buffers->len; i++)
    {
      const EtBufferInfo *info = &g_array_index (file->buffers, EtBufferInfo, i);
      touched += info->data_index == G_MAXUINT32 && info->offset + info->data_end > lost;
    }
  report_shrinking (file, lost, touched);
  file->size = lost;
  return TRUE;
}

EtEtlFile *
et_etl_file_open (const char *path, EtDamageFunc damage, gpointer damage_data, GError **error)
{
  g_autoptr(EtEtlFile) file = g_new0 (EtEtlFile, 1);
  g_autoptr(GError) local = NULL;
  guint64 offset = 0;
  guint32 uniform;
  EtPrefault *prefault;

  g_return_val_if_fail (path != NULL, NULL);

  file->path = g_strdup (path);
  file->fd = -1;
  file->damage = damage;
  file->damage_data = damage_data;
  file->buffers = g_array_new (FALSE, FALSE, sizeof (EtBufferInfo));
  file->fd = et_mapping_open_regular (path, error);
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
  file->inflate_space = _et_etl_inflate_space ();
  file->inflate = et_etl_inflate_new ();
  uniform = uniform_buffer_size (file);
  /* Up to the first page found gone (by this walk, or by the prefault
   * going the other way). */
  prefault = et_mapping_prefault_begin (file->data, file->size);
  while (offset + ET_BUFFER_HEADER_SIZE <= file->size
         && offset < et_mapping_lost_from (file->watch))
    {
      gsize step = read_buffer (file, offset, uniform);
      if (step == 0)
        break;
      offset += step;
      et_mapping_prefault_reached (prefault, offset);
    }
  et_mapping_prefault_end (prefault);
  _et_etl_inflate_all (file);
  if (note_shrinking (file))
    return g_steal_pointer (&file);
  if (offset < file->size && offset + ET_BUFFER_HEADER_SIZE > file->size)
    _et_etl_report (file, offset, "%" G_GUINT64_FORMAT " trailing bytes are too few for a buffer",
            (guint64) (file->size - offset));
  g_debug ("%s: %u compressed buffers, laid out in %" G_GSIZE_FORMAT " bytes",
           path, file->n_compressed, file->inflated_len);
  return g_steal_pointer (&file);
}

guint64
et_etl_file_size (EtEtlFile *file)
{
  return file->size;
}

EtImageTables *
et_etl_file_image_tables (EtEtlFile *file)
{
  return file->image;
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
  if (file->image_at != NULL)
    return file->image_at[index];
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

/* A bad extended item: the record is kept (without its items when the
 * chain is broken), and decoding it says what is missing. */
static void
report_ext_damage (EtEtlFile *file, const EtBufferInfo *info, guint index, gsize pos,
                   const EtRecord *r)
{
  gsize at = pos + r->ext_damage_pos;
  gboolean event = r->klass == ET_RECORD_EVENT;
  const char *what = event ? "an EVENT_HEADER record's extended data" : "a kernel record";
  const char *then = !event ? "it is read without them"
                     : r->ext_bad ? "its items are not read" : "the item is ignored";

  if (info->data_index == G_MAXUINT32)
    _et_etl_report (file, info->offset + at, "buffer %u: %s: %s; %s", index, what, r->ext_damage, then);
  else
    _et_etl_report (file, info->offset, "compressed buffer %u, decompressed position %" G_GSIZE_FORMAT
            ": %s: %s; %s", index, at, what, r->ext_damage, then);
}

static void
report_in_buffer (EtEtlFile *file, const EtBufferInfo *info, guint index, gsize pos,
                  const char *reason, gsize rest)
{
  if (info->data_index == G_MAXUINT32)
    _et_etl_report (file, info->offset + pos, "buffer %u: %s; the rest of the buffer "
            "(%" G_GSIZE_FORMAT " bytes) is skipped", index, reason, rest);
  else
    _et_etl_report (file, info->offset, "compressed buffer %u, decompressed position %"
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
      if (!_et_etl_parse_record (file, bytes, pos, len, TRUE, &record, &reason))
        {
          report_in_buffer (file, info, index, pos, reason, len - pos);
          return 1;
        }
      if (record.ext_damage != NULL)
        report_ext_damage (file, info, index, pos, &record);
      func (&record, index, pos, user_data);
      pos += ((gsize) record.size + 7) & ~(gsize) 7;
    }
  return 0;
}
