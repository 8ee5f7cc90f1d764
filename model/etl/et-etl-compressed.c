/* et-etl-compressed.c — an .etl's compressed buffers (etl-format.md §3):
 * laid out during the walk by the sizes their headers state, within the
 * caps that keep a load bounded by the file's size and the index space,
 * then decompressed at once on every core (et-etl-inflate), their problems
 * reported in the walk's order. The file's side of et-etl-inflate, which
 * knows nothing of files. */
#include "et-etl-reader-private.h"
#include "et-bytes.h"
#include "et-etl-inflate.h"
#include "et-xpress.h"

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
gboolean
_et_etl_inflates_cleanly (EtEtlFile *file, guint64 offset, guint32 disk_size)
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
      _et_etl_report (file, info->offset + 0x30, "compressed buffer %u states %" G_GSIZE_FORMAT
              " bytes of data from %u compressed bytes, more than %d times as many; only %"
              G_GSIZE_FORMAT " are read", file->buffers->len, cap,
              info->disk_size - ET_BUFFER_HEADER_SIZE, MAX_BUFFER_RATIO, most);
      cap = most;
    }
  if (cap > file->inflate_budget)
    {
      _et_etl_report (file, info->offset + 0x30, "compressed buffer %u states %" G_GSIZE_FORMAT
              " bytes of data, more than %d times the file's size allows in all; only %"
              G_GSIZE_FORMAT " are read", file->buffers->len, cap, MAX_INFLATE_RATIO,
              file->inflate_budget);
      cap = file->inflate_budget;
    }
  return cap;
}

/* The model's slot space in bytes (its slots and data_index's places are
 * both 8 bytes), short of the last place: G_MAXUINT32 means "in the
 * file". */
gsize
_et_etl_inflate_space (void)
{
  return (gsize) MIN (et_etl_slot_space (), G_MAXUINT32) << 3;
}

/* Lays the compressed buffer @info out after the ones before it, as large
 * as the data its header states (within the caps), to be decompressed
 * with the others after the walk (_et_etl_inflate_all). The budget is taken from
 * the stated size now: the sizes are summed before anything is decoded. */
void
_et_etl_plan_inflate (EtEtlFile *file, EtBufferInfo *info)
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
        _et_etl_report (file, info->offset, "the trace holds more event data than Etlscope can index "
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
    _et_etl_report (file, offset + ET_BUFFER_HEADER_SIZE + job->bad_offset,
            "compressed buffer %u: %s; %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
            " bytes recovered", job->buffer, et_xpress_status_to_string (job->status),
            job->out_len, job->cap);
  else if (job->status == ET_XPRESS_OK && job->out_len < job->cap)
    _et_etl_report (file, offset, "compressed buffer %u decompresses to %" G_GSIZE_FORMAT
            " bytes, %" G_GSIZE_FORMAT " expected", job->buffer, job->out_len, job->cap);
}

/* After the walk: every compressed buffer decompressed into its place (on
 * every core), then the problems the walk held back reported in its order. */
void
_et_etl_inflate_all (EtEtlFile *file)
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
