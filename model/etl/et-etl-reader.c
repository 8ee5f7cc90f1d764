/* et-etl-reader.c — buffers and records (etl-format.md §1–§5).
 *
 * First stage of the pipeline. The file is memory-mapped; buffer headers are
 * walked by BufferSize, compressed buffers are decompressed once into one
 * heap block (their records must stay addressable for on-demand decoding),
 * and records are classified by their marker byte and HeaderType.
 *
 * Decompression waits for the end of the walk (et-etl-inflate): the walk
 * gives each compressed buffer its place in the block and holds back every
 * problem it reports, then all buffers are decompressed at once on every
 * core, and the problems are reported in the walk's order, each buffer's
 * decompression problem where the walk met the buffer: the same texts in
 * the same order as when the walk decompressed each buffer as it went.
 */
#include "et-etl-reader.h"
#include "et-bytes.h"
#include "et-error.h"
#include "et-etl-inflate.h"
#include "et-etl-resync.h"
#include "et-image-record.h"
#include "et-mapping.h"
#include "et-memory.h"
#include "et-xpress.h"

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
  EtBufferCheck check;         /* what its buffer headers look like */
  const guint8 *data;
  gsize         size;
  GArray       *buffers;       /* EtBufferInfo */
  guint8       *inflated;      /* decompressed buffers, back to back */
  gsize         inflated_len;
  gsize         inflate_budget;/* bytes that may still be decompressed */
  gsize         inflate_space; /* the decompressed buffers' index space (data_index) */
  gboolean      inflate_space_full;
  guint         n_compressed;
  EtEtlInflate *inflate;       /* during the walk: its compressed buffers and problems */
  EtDamageFunc  damage;
  gpointer      damage_data;
  EtImageTables *image;        /* an image with compact records: their tables */
  GPtrArray    *image_chunks;  /* an image's buffers (GBytes) */
  const guint8 **image_at;     /* where each of its buffers starts */
};

static void
report (EtEtlFile *file, guint64 offset, const char *format, ...) G_GNUC_PRINTF (3, 4);
static void     free_image  (EtEtlFile *file);
static gboolean parse_record (EtEtlFile *file, const guint8 *p, gsize avail, gboolean walked,
                              EtRecord *record, const char **reason);

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
  if (file->inflate != NULL)
    et_etl_inflate_hold (file->inflate, offset, g_steal_pointer (&message));
  else
    file->damage (offset, message, file->damage_data);
}

/* ---- buffers ---------------------------------------------------------- */

/* No ETW session buffer is larger than this; a bigger stated size is damage
 * and must not drive an allocation. */
#define MAX_BUFFER_SIZE (16u * 1024 * 1024)
#define LOG_MODE_COMPRESSED 0x04000000u
/* Every buffer may state 16 MiB of decompressed data and LZ77 can reach
 * that from a few bytes (a "bomb"): the work of a load must stay bounded
 * by the file's size. Real buffers compress 1–14 times (net.4.5.2.x64.etl:
 * 5.4 on average, 13.6 at most), so a buffer may expand 32 times its
 * compressed bytes and the file 16 times its size in all. A record takes
 * 8 bytes at least (16 for all but messages), so a file of N bytes gives
 * at most 17N/8 records and a bomb about N/16 (a 9 MB bomb made 17.8
 * million before, now 88,000), and one bomb buffer cannot take the
 * allowance of the buffers after it. */
#define MAX_BUFFER_RATIO 32
#define MAX_INFLATE_RATIO 16

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
  free_image (file);
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

static gsize
stated_data (EtEtlFile *file, guint64 offset)
{
  guint32 end = et_read_u32 (file->data + offset + 0x30);

  return end > ET_BUFFER_HEADER_SIZE ? MIN (end, MAX_BUFFER_SIZE) - ET_BUFFER_HEADER_SIZE : 0;
}

/* Whether @disk_size bytes at @offset decompress to exactly the data the
 * header states (nothing is kept). Only a damaged file's walk asks, so the
 * trial runs here, on its own; it counts against the budget, so that a
 * stream is decompressed at most twice and never beyond the allowance. */
static gboolean
inflates_cleanly (EtEtlFile *file, guint64 offset, guint32 disk_size)
{
  gsize cap = stated_data (file, offset), out_len = 0, bad = 0;
  g_autofree guint8 *scratch = NULL;
  EtXpressStatus status;

  if (cap == 0 || cap > file->inflate_budget
      || cap > MAX_BUFFER_RATIO * (gsize) (disk_size - ET_BUFFER_HEADER_SIZE))
    return FALSE;
  scratch = g_malloc (cap);
  status = et_xpress_decompress (file->data + offset + ET_BUFFER_HEADER_SIZE,
                                 disk_size - ET_BUFFER_HEADER_SIZE, scratch, cap, &out_len, &bad);
  file->inflate_budget -= MIN (out_len, file->inflate_budget);
  return status == ET_XPRESS_OK && out_len == cap;
}

/* At most MAX_BUFFER_RATIO times its compressed bytes, and what is left
 * of the file's allowance; reported when the header states more. */
static gsize
inflate_cap (EtEtlFile *file, const EtBufferInfo *info)
{
  gsize cap = info->data_end > ET_BUFFER_HEADER_SIZE ? info->data_end - ET_BUFFER_HEADER_SIZE : 0;
  gsize most = MAX_BUFFER_RATIO * (gsize) (info->disk_size - ET_BUFFER_HEADER_SIZE);

  if (cap > most)
    {
      report (file, info->offset + 0x30, "compressed buffer %u states %" G_GSIZE_FORMAT
              " bytes of data from %u compressed bytes, more than %d times as many; only %"
              G_GSIZE_FORMAT " are read", file->buffers->len, cap,
              info->disk_size - ET_BUFFER_HEADER_SIZE, MAX_BUFFER_RATIO, most);
      cap = most;
    }
  if (cap > file->inflate_budget)
    {
      report (file, info->offset + 0x30, "compressed buffer %u states %" G_GSIZE_FORMAT
              " bytes of data, more than %d times the file's size allows in all; only %"
              G_GSIZE_FORMAT " are read", file->buffers->len, cap, MAX_INFLATE_RATIO,
              file->inflate_budget);
      cap = file->inflate_budget;
    }
  return cap;
}

/* 2^32 places of 8 bytes: 32 GiB. ETLSCOPE_SLOT_SPACE (the loader's
 * slots, also 8 bytes each) lowers it, for the tests. */
static gsize
inflate_space (void)
{
  const char *space = g_getenv ("ETLSCOPE_SLOT_SPACE");
  guint64 places = space ? g_ascii_strtoull (space, NULL, 10) : G_GUINT64_CONSTANT (1) << 32;

  return (gsize) MIN (places, (G_GUINT64_CONSTANT (1) << 32) - 1) << 3;
}

/* Lays the compressed buffer @info out after the ones before it, as large
 * as the data its header states (within the caps), to be decompressed
 * with the others after the walk (inflate_all). The budget is taken from
 * the stated size now: the sizes are summed before anything is decoded. */
static void
plan_inflate (EtEtlFile *file, EtBufferInfo *info)
{
  gsize stated = info->data_end > ET_BUFFER_HEADER_SIZE
                 ? info->data_end - ET_BUFFER_HEADER_SIZE : 0;
  gsize cap = inflate_cap (file, info);
  gsize place = et_etl_inflate_len (file->inflate);

  /* data_index counts 8-byte units: past the index space a buffer's
   * place would wrap round onto another's. It and those after it are not
   * decompressed (the loader skips them too, as past its own slots). */
  if (place + ET_BUFFER_HEADER_SIZE + cap > file->inflate_space)
    {
      if (!file->inflate_space_full)
        report (file, info->offset, "the trace holds more event data than Etlscope can index "
                "(%" G_GSIZE_FORMAT " MiB decompressed); its compressed buffers from here on "
                "are not decompressed", file->inflate_space >> 20);
      file->inflate_space_full = TRUE;
      info->data_end = ET_BUFFER_HEADER_SIZE;     /* its header only: no records */
      info->data_index = G_MAXUINT32;
      return;
    }
  place = et_etl_inflate_add (file->inflate, file->buffers->len, info->offset,
                              info->disk_size, stated, cap);

  file->inflate_budget -= cap;
  file->n_compressed++;
  info->usable = TRUE;
  /* data_index counts 8-byte units, so 32 bits address 32 GiB. */
  info->data_index = (guint32) (place >> 3);
}

/* A problem the walk held back: reported now, a buffer's decompression
 * worded as the walk worded it. */
static void
report_held (guint64 offset, const char *message, const EtInflateJob *job, gpointer data)
{
  EtEtlFile *file = data;

  if (message != NULL)
    file->damage (offset, message, file->damage_data);
  /* (a stream cut at a lowered cap was reported with the cap) */
  else if (job->status != ET_XPRESS_OK
           && !(job->status == ET_XPRESS_OVERFLOW && job->cap < job->stated))
    report (file, offset + ET_BUFFER_HEADER_SIZE + job->bad_offset,
            "compressed buffer %u: %s; %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
            " bytes recovered", job->buffer, et_xpress_status_to_string (job->status),
            job->out_len, job->cap);
  else if (job->status == ET_XPRESS_OK && job->out_len < job->cap)
    report (file, offset, "compressed buffer %u decompresses to %" G_GSIZE_FORMAT
            " bytes, %" G_GSIZE_FORMAT " expected", job->buffer, job->out_len, job->cap);
}

/* After the walk: every compressed buffer decompressed into its place (on
 * every core), then the problems the walk held back reported in its order. */
static void
inflate_all (EtEtlFile *file)
{
  g_autoptr(EtEtlInflate) inflate = g_steal_pointer (&file->inflate);

  file->inflated = et_etl_inflate_run (inflate, file->data, &file->inflated_len);
  for (guint i = 0; i < et_etl_inflate_n_jobs (inflate); i++)
    {
      const EtInflateJob *job = et_etl_inflate_job (inflate, i);

      g_array_index (file->buffers, EtBufferInfo, job->buffer).data_end
        = (guint32) (ET_BUFFER_HEADER_SIZE + job->out_len);
    }
  if (file->damage != NULL)
    et_etl_inflate_report (inflate, report_held, file);
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
      report (file, offset + 0x30, "buffer %u states %u bytes of data; reading what it holds",
              file->buffers->len, info.data_end);
      info.data_end = info.disk_size;
    }
  if (info.flags & BUFFER_FLAG_COMPRESSED)
    plan_inflate (file, &info);
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

  report (file, offset, "buffer %u is cut short: %u bytes stated, %" G_GUINT64_FORMAT
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
    report (file, offset, "no buffer header here, nor anywhere after it: the last %"
            G_GUINT64_FORMAT " bytes of the file are skipped", next - offset);
  else
    report (file, offset, "no buffer header here: the %" G_GUINT64_FORMAT " bytes up to "
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
  if (offset + size < next && !inflates_cleanly (file, offset, size))
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
        report (file, offset, "buffer %u states a size of %u bytes; the session's buffers "
                "are %u bytes, so that is used", file->buffers->len, stated, uniform);
      else
        report (file, offset, "buffer %u has an impossible size of %u bytes; "
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
    report (file, offset, "buffer %u states a size of %u bytes, but the next buffer header "
            "is at byte offset %" G_GUINT64_FORMAT ": %u bytes are read", file->buffers->len,
            stated, next, size);
  add_buffer (file, offset, size);
  if (offset + size < next)
    report (file, offset + size, "%" G_GUINT64_FORMAT " bytes after buffer %u belong to no "
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
  file->inflate_space = inflate_space ();
  file->inflate = et_etl_inflate_new ();
  uniform = uniform_buffer_size (file);
  while (offset + ET_BUFFER_HEADER_SIZE <= file->size)
    {
      gsize step = read_buffer (file, offset, uniform);
      if (step == 0 || et_mapping_lost_from (file->watch) != G_MAXUINT64)
        break;
      offset += step;
    }
  inflate_all (file);
  if (note_shrinking (file))
    return g_steal_pointer (&file);
  if (offset < file->size && offset + ET_BUFFER_HEADER_SIZE > file->size)
    report (file, offset, "%" G_GUINT64_FORMAT " trailing bytes are too few for a buffer",
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
    report (file, info->offset + at, "buffer %u: %s: %s; %s", index, what, r->ext_damage, then);
  else
    report (file, info->offset, "compressed buffer %u, decompressed position %" G_GSIZE_FORMAT
            ": %s: %s; %s", index, at, what, r->ext_damage, then);
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
      if (!parse_record (file, bytes + pos, len - pos, TRUE, &record, &reason))
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

/* ---- images of other formats ------------------------------------------ */

/* @walked: for the walk over every record, where an image's payloads in
 * its source file are not read (et_image_record_parse_walked). */
static gboolean
parse_record (EtEtlFile *file, const guint8 *p, gsize avail, gboolean walked, EtRecord *record,
              const char **reason)
{
  if (file->image == NULL || avail < 4 || p[3] != ET_IMAGE_RECORD_MARK)
    return et_record_parse (p, avail, record, reason);
  return walked ? et_image_record_parse_walked (p, avail, file->image, record, reason)
                : et_image_record_parse (p, avail, file->image, record, reason);
}

gboolean
et_etl_file_parse_record (EtEtlFile *file, const guint8 *p, gsize avail, EtRecord *record,
                          const char **reason)
{
  return parse_record (file, p, avail, FALSE, record, reason);
}

static void
free_image (EtEtlFile *file)
{
  g_clear_pointer (&file->image, et_image_tables_free);
  for (guint i = 0; file->image_chunks != NULL && i < file->image_chunks->len; i++)
    {
      gsize len;
      gconstpointer data = g_bytes_get_data (file->image_chunks->pdata[i], &len);

      et_memory_drop_pages (data, len);
    }
  g_clear_pointer (&file->image_chunks, g_ptr_array_unref);
  g_free (file->image_at);
}

/* Registers the buffers of one chunk of an image from buffer @first on;
 * returns the buffer after its last. */
static guint
add_image_chunk (EtEtlFile *file, GBytes *chunk, const guint64 *offsets, guint first,
                 guint n_buffers)
{
  gsize len, pos = 0;
  const guint8 *bytes = g_bytes_get_data (chunk, &len);
  guint i = first;

  for (; i < n_buffers && pos + ET_BUFFER_HEADER_SIZE <= len; i++)
    {
      EtBufferInfo info = { 0 };
      const guint8 *h = bytes + pos;

      info.offset = offsets[i];
      info.disk_size = et_read_u32 (h);
      info.data_end = MIN (et_read_u32 (h + 0x30), info.disk_size);
      info.cpu = h[0x28];
      info.usable = TRUE;
      info.data_index = i;      /* not a file position: see image_at */
      g_assert (info.disk_size >= ET_BUFFER_HEADER_SIZE && info.disk_size % 8 == 0
                && pos + info.disk_size <= len);
      g_array_append_val (file->buffers, info);
      file->image_at[i] = h;
      pos += info.disk_size;
    }
  return i;
}

EtEtlFile *
et_etl_file_new_from_image (const char *path, guint64 file_size, GPtrArray *chunks,
                            const guint64 *offsets, guint n_buffers, EtImageTables *tables)
{
  EtEtlFile *file = g_new0 (EtEtlFile, 1);
  guint next = 0;

  g_return_val_if_fail (path != NULL && chunks != NULL, NULL);

  file->path = g_strdup (path);
  file->fd = -1;          /* read whole already: nothing to watch */
  file->size = file_size;
  file->buffers = g_array_sized_new (FALSE, FALSE, sizeof (EtBufferInfo), n_buffers);
  file->image = tables;
  file->image_chunks = chunks;
  file->image_at = g_new0 (const guint8 *, MAX (n_buffers, 1));
  /* Positions inside the image are not file offsets: like decompressed
   * buffers, each buffer reports damage at its own offset. */
  for (guint c = 0; c < chunks->len; c++)
    next = add_image_chunk (file, chunks->pdata[c], offsets, next, n_buffers);
  return file;
}
