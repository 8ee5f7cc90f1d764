/* et-nettrace-chunks.c — a .nettrace image's buffers in chunks (see
 * et-nettrace-chunks.h). */
#include "et-nettrace-chunks.h"
#include "et-etl-reader.h"
#include "et-memory.h"

#include <string.h>

void
_et_nettrace_chunks_init (EtNettraceChunks *c, gsize head_len)
{
  const char *size = g_getenv ("ETLSCOPE_IMAGE_CHUNK");

  c->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  c->chunk_size = size ? MAX (g_ascii_strtoull (size, NULL, 10), 1) : ET_NETTRACE_CHUNK_SIZE;
  c->slot_space = et_etl_slot_space ();
  c->stride = (guint32) ((head_len + 7) / 8);   /* the header buffer's */
  c->beyond_at = G_MAXUINT64;
}

void
_et_nettrace_chunks_clear (EtNettraceChunks *c)
{
  g_clear_pointer (&c->chunks, g_ptr_array_unref);
  g_clear_pointer (&c->chunk, g_free);
}

/* Its unused end is given back. */
void
_et_nettrace_chunks_finish (EtNettraceChunks *c)
{
  if (c->chunk == NULL)
    return;
  c->chunk = g_realloc (c->chunk, c->chunk_len);
  g_ptr_array_add (c->chunks, g_bytes_new_take (g_steal_pointer (&c->chunk), c->chunk_len));
  c->chunk_len = c->chunk_cap = 0;
}

guint8 *
_et_nettrace_chunks_reserve (EtNettraceChunks *c, gsize size)
{
  if (c->chunk != NULL && c->chunk_len + size > c->chunk_cap)
    _et_nettrace_chunks_finish (c);
  if (c->chunk == NULL)
    {
      c->chunk_cap = MAX (c->chunk_size, size);
      c->chunk = et_memory_block (c->chunk_cap);   /* written front to back */
    }
  c->chunk_len += size;
  return c->chunk + c->chunk_len - size;
}

/* Whether the model has slots for one more buffer of @size bytes after
 * @n_kept: each kept buffer is checked with the largest stride so far,
 * its own included, so the kept ones always fit as the model lays them
 * out (et_trace_load finds nothing beyond). The first that does not is
 * the end: the buffers after it are not kept either. */
gboolean
_et_nettrace_chunks_have_slots (EtNettraceChunks *c, guint n_kept, gsize size)
{
  guint32 stride = MAX (c->stride, (guint32) ((size + 7) / 8));

  if (c->beyond_events > 0 || (guint64) (n_kept + 1) * stride > c->slot_space)
    return FALSE;
  c->stride = stride;
  return TRUE;
}

void
_et_nettrace_chunks_count_beyond (EtNettraceChunks *c, guint64 n_events, guint64 first)
{
  c->beyond_events += n_events;
  c->beyond_at = MIN (c->beyond_at, first);
}
