/* et-etl-image.c — files of other formats made .etl buffers in memory
 * (et-nettrace-image): their buffers in chunks, their compact records
 * parsed with the image's tables (et-image-record), the walk told not to
 * read payloads the image names in its source file. */
#include "et-etl-reader-private.h"
#include "et-bytes.h"
#include "et-image-record.h"
#include "et-memory.h"

/* @walked: for the walk over every record, where an image's payloads in
 * its source file are not read (et_image_record_parse_walked). */
gboolean
_et_etl_parse_record (EtEtlFile *file, const guint8 *buffer, gsize pos, gsize len,
                      gboolean walked, EtRecord *record, const char **reason)
{
  const guint8 *p = buffer + pos;

  if (file->image == NULL || len - pos < 4 || p[3] != ET_IMAGE_RECORD_MARK)
    return et_record_parse (p, len - pos, record, reason);
  return walked ? et_image_record_parse_walked (buffer, pos, len, file->image, record, reason)
                : et_image_record_parse (buffer, pos, len, file->image, record, reason);
}

gboolean
et_etl_file_parse_record (EtEtlFile *file, const guint8 *buffer, gsize pos, gsize len,
                          EtRecord *record, const char **reason)
{
  return _et_etl_parse_record (file, buffer, pos, len, FALSE, record, reason);
}

void
_et_etl_free_image (EtEtlFile *file)
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
