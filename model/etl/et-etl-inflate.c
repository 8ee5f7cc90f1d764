/* et-etl-inflate.c — see et-etl-inflate.h.
 *
 * Where it sits: file bytes → the buffer walk (et-etl-reader), which adds
 * each compressed buffer here → all of them decompressed at once (here,
 * with et-xpress on the model's workers) → the record walk over the
 * decompressed bytes. Relogged traces compress nearly every buffer, so on
 * them this is most of what opening costs beyond the walk.
 *
 * Buffers are laid out by the size their headers state before any is
 * decompressed, so each thread writes only inside the places of the
 * buffers it took: no order and no lock between them. Buffers are taken
 * one at a time from a shared counter rather than split into equal
 * ranges up front: they differ a lot in size and in how hard they decode
 * (a run of zeros is a memset, text is all literals), and a thread that
 * finished its range early would wait for the others; one atomic step per
 * buffer is nothing beside a buffer's decoding.
 */
#include "et-etl-inflate.h"

#include <string.h>

#include "et-etl-reader.h"
#include "et-memory.h"
#include "et-workers.h"

/* Below this much output one thread does it all (a thread costs more
 * than it saves: the corpus's small traces decompress a few hundred
 * kilobytes). */
#define MIN_PARALLEL_BYTES (4u * 1024 * 1024)
/* A problem the walk met: its message, or (message NULL) the place of job
 * @job's result. */
typedef struct
{
  guint64 offset;
  char   *message;
  guint   job;
} Held;

struct _EtEtlInflate
{
  GArray       *jobs;          /* EtInflateJob, in the walk's order */
  GArray       *held;          /* Held, in the walk's order */
  gsize         block_len;     /* the places laid out so far */
  /* while running */
  const guint8 *data;
  guint8       *block;
  gint          next;          /* the next job nobody has taken (atomic) */
};

static void
held_clear (gpointer data)
{
  g_free (((Held *) data)->message);
}

EtEtlInflate *
et_etl_inflate_new (void)
{
  EtEtlInflate *inflate = g_new0 (EtEtlInflate, 1);

  inflate->jobs = g_array_new (FALSE, FALSE, sizeof (EtInflateJob));
  inflate->held = g_array_new (FALSE, FALSE, sizeof (Held));
  g_array_set_clear_func (inflate->held, held_clear);
  return inflate;
}

void
et_etl_inflate_free (EtEtlInflate *inflate)
{
  if (inflate == NULL)
    return;
  g_array_unref (inflate->jobs);
  g_array_unref (inflate->held);
  g_free (inflate);
}

gsize
et_etl_inflate_add (EtEtlInflate *inflate, guint buffer, guint64 offset, guint32 disk_size,
                    gsize stated, gsize cap)
{
  EtInflateJob job = { buffer, offset, disk_size, stated, cap, inflate->block_len,
                       ET_XPRESS_OK, 0, 0 };
  Held place = { offset, NULL, inflate->jobs->len };

  g_return_val_if_fail (disk_size >= ET_BUFFER_HEADER_SIZE, 0);
  g_array_append_val (inflate->jobs, job);
  g_array_append_val (inflate->held, place);
  inflate->block_len += ET_BUFFER_HEADER_SIZE + ((cap + 7) & ~(gsize) 7);
  return job.place;
}

gsize
et_etl_inflate_len (EtEtlInflate *inflate)
{
  return inflate->block_len;
}

void
et_etl_inflate_hold (EtEtlInflate *inflate, guint64 offset, char *message)
{
  Held held = { offset, message, G_MAXUINT };

  g_array_append_val (inflate->held, held);
}

static gpointer
run_worker (gpointer data)
{
  EtEtlInflate *inflate = *(EtEtlInflate **) data;
  EtInflateJob *jobs = (EtInflateJob *) (gpointer) inflate->jobs->data;
  guint i;

  et_worker_begin ();
  while ((i = (guint) g_atomic_int_add (&inflate->next, 1)) < inflate->jobs->len)
    {
      EtInflateJob *j = &jobs[i];
      const guint8 *src = inflate->data + j->offset;
      guint8 *dst = inflate->block + j->place;

      memcpy (dst, src, ET_BUFFER_HEADER_SIZE);
      j->status = et_xpress_decompress (src + ET_BUFFER_HEADER_SIZE,
                                        j->disk_size - ET_BUFFER_HEADER_SIZE,
                                        dst + ET_BUFFER_HEADER_SIZE, j->cap, &j->out_len,
                                        &j->bad_offset);
    }
  return NULL;
}

/* The compressed bytes of the file's mapping, once decoded, are read no
 * more: their pages are given back, each run of adjacent compressed
 * buffers whole (its whole pages only: a page it shares with another
 * buffer stays). They would stay resident as long as the trace, as large
 * as the file (net.4.5.2.x64.etl: 4.9 MB beside its 23 MB decompressed). */
static void
release_input (EtEtlInflate *inflate)
{
  EtInflateJob *jobs = (EtInflateJob *) (gpointer) inflate->jobs->data;
  guint i = 0;

  while (i < inflate->jobs->len)
    {
      guint64 from = jobs[i].offset, to = from + jobs[i].disk_size;

      for (i++; i < inflate->jobs->len && jobs[i].offset == to; i++)
        to += jobs[i].disk_size;
      et_memory_release (inflate->data + from, to - from);
    }
}

guint8 *
et_etl_inflate_run (EtEtlInflate *inflate, const guint8 *data, gsize *block_len)
{
  guint n_threads;

  g_return_val_if_fail (inflate->jobs->len <= G_MAXINT, NULL);

  *block_len = inflate->block_len;
  if (inflate->jobs->len == 0)
    return NULL;
  inflate->data = data;
  inflate->block = et_memory_block (inflate->block_len);   /* in huge pages where it can */
  inflate->next = 0;
  n_threads = MIN (et_workers_count (inflate->block_len, MIN_PARALLEL_BYTES),
                   inflate->jobs->len);
  {
    g_autofree EtEtlInflate **items = g_new (EtEtlInflate *, n_threads);

    for (guint t = 0; t < n_threads; t++)
      items[t] = inflate;
    et_workers_run (items, sizeof *items, n_threads, run_worker, "etlscope-inflate");
  }
  release_input (inflate);
  inflate->data = NULL;
  return g_steal_pointer (&inflate->block);
}

guint
et_etl_inflate_n_jobs (EtEtlInflate *inflate)
{
  return inflate->jobs->len;
}

const EtInflateJob *
et_etl_inflate_job (EtEtlInflate *inflate, guint i)
{
  g_return_val_if_fail (i < inflate->jobs->len, NULL);
  return &g_array_index (inflate->jobs, EtInflateJob, i);
}

void
et_etl_inflate_report (EtEtlInflate *inflate, EtInflateReportFunc func, gpointer user_data)
{
  for (guint k = 0; k < inflate->held->len; k++)
    {
      const Held *held = &g_array_index (inflate->held, Held, k);

      func (held->offset, held->message,
            held->message == NULL ? et_etl_inflate_job (inflate, held->job) : NULL, user_data);
    }
}
