/* et-memory.c — see et-memory.h. */
#define _GNU_SOURCE   /* mremap */
#include "et-memory.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Small enough to hold the memory map for a millisecond or two. */
#define SLICE (64u << 20)

#define HUGE_PAGE (2u << 20)

void
et_memory_drop_pages (gconstpointer data, gsize len)
{
  gsize page = et_memory_page_size ();
  guintptr from = ((guintptr) data + page - 1) & ~(guintptr) (page - 1);
  guintptr to = ((guintptr) data + len) & ~(guintptr) (page - 1);

  if (data == NULL || len < SLICE)
    return;                        /* freed at once, it holds the map only briefly */
  /* Whole pages inside the block only: its first and last may be shared. */
  for (guintptr at = from; at < to; at += MIN (SLICE, to - at))
    madvise ((void *) at, MIN (SLICE, to - at), MADV_DONTNEED);
}

gpointer
et_memory_zeroed (gsize len)
{
  void *data;

  if (len == 0)
    return NULL;
  data = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED)
    g_error ("et_memory_zeroed: failed to map %" G_GSIZE_FORMAT " bytes", len);
  return data;
}

void
et_memory_unmap (gpointer data, gsize len)
{
  if (data != NULL && len > 0)
    munmap (data, len);
}

void
et_memory_release (gconstpointer data, gsize len)
{
  gsize page = et_memory_page_size ();
  guintptr from = ((guintptr) data + page - 1) & ~(guintptr) (page - 1);
  guintptr to = ((guintptr) data + len) & ~(guintptr) (page - 1);

  for (guintptr at = from; data != NULL && at < to; at += MIN (SLICE, to - at))
    madvise ((void *) at, MIN (SLICE, to - at), MADV_DONTNEED);
}

gpointer
et_memory_block (gsize len)
{
#ifdef MADV_HUGEPAGE
  void *p = NULL;

  if (len >= 4 * HUGE_PAGE && posix_memalign (&p, HUGE_PAGE, len) == 0)
    {
      madvise ((guint8 *) p + 2 * HUGE_PAGE, len - 2 * HUGE_PAGE, MADV_HUGEPAGE);
      return p;
    }
#endif
  return g_malloc (len);
}

/* ---- mapped blocks and spare pages --------------------------------------- */

gsize
et_memory_page_size (void)
{
  static gsize page;

  if (page == 0)
    page = (gsize) sysconf (_SC_PAGESIZE);
  return page;
}


static gsize
whole_pages (gsize len)
{
  return (len + et_memory_page_size () - 1) & ~(et_memory_page_size () - 1);
}

gpointer
et_mapped_reserve (EtMapped *m, gsize len)
{
  gsize size = whole_pages (MAX (len, 1));
  void *data;

  if (size <= m->size)
    return m->data;
  size = MAX (size, m->size * 2);
  data = m->data == NULL
         ? mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
         : mremap (m->data, m->size, size, MREMAP_MAYMOVE);
  if (data == MAP_FAILED)
    g_error ("et_mapped_reserve: failed to map %" G_GSIZE_FORMAT " bytes", size);
  m->data = data;
  m->size = size;
  return data;
}

void
et_mapped_shrink (EtMapped *m, gsize len)
{
  gsize keep = whole_pages (MAX (len, 1));

  if (m->data != NULL && keep < m->size)
    {
      munmap (m->data + keep, m->size - keep);
      m->size = keep;
    }
}

void
et_mapped_clear (EtMapped *m)
{
  if (m->data != NULL)
    munmap (m->data, m->size);
  m->data = NULL;
  m->size = 0;
}

typedef struct
{
  guint8 *data;
  gsize   size;
} Spare;

struct _EtSparePages
{
  GArray *blocks;   /* Spare: the pages not placed yet of each block given */
  gsize   size;     /* their bytes */
};

EtSparePages *
et_spare_pages_new (void)
{
  EtSparePages *spare = g_new0 (EtSparePages, 1);

  spare->blocks = g_array_new (FALSE, FALSE, sizeof (Spare));
  return spare;
}

void
et_spare_pages_free (EtSparePages *spare)
{
  if (spare == NULL)
    return;
  for (guint i = 0; i < spare->blocks->len; i++)
    {
      Spare *s = &g_array_index (spare->blocks, Spare, i);

      if (s->size > 0)
        munmap (s->data, s->size);
    }
  g_array_unref (spare->blocks);
  g_free (spare);
}

void
et_spare_pages_add (EtSparePages *spare, EtMapped *m)
{
  Spare s = { m->data, m->size };

  if (m->data == NULL)
    return;
  g_array_append_val (spare->blocks, s);
  spare->size += s.size;
  m->data = NULL;
  m->size = 0;
}

void
et_spare_pages_trim (EtSparePages *spare, gsize keep)
{
  keep &= ~(et_memory_page_size () - 1);
  for (guint i = 0; spare != NULL && i < spare->blocks->len; i++)
    {
      Spare *s = &g_array_index (spare->blocks, Spare, i);
      gsize kept = MIN (s->size, keep);

      if (kept < s->size)
        {
          munmap (s->data + kept, s->size - kept);
          spare->size -= s->size - kept;
          s->size = kept;
        }
      keep -= kept;
    }
}

gsize
et_spare_pages_size (EtSparePages *spare)
{
  return spare != NULL ? spare->size : 0;
}

gsize
et_spare_pages_place (EtSparePages *spare, gpointer at, gsize len)
{
  guint8 *to = at;
  gsize placed = 0;

  g_return_val_if_fail (((guintptr) at & (et_memory_page_size () - 1)) == 0, 0);
  len &= ~(et_memory_page_size () - 1);
  for (guint i = 0; spare != NULL && i < spare->blocks->len && placed < len; i++)
    {
      Spare *s = &g_array_index (spare->blocks, Spare, i);
      gsize n = MIN (s->size, len - placed);

      if (n == 0)
        continue;
      /* (whatever was mapped at the target goes: the pages take its place) */
      if (mremap (s->data, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, to + placed) == MAP_FAILED)
        break;                       /* left as they were: fresh pages serve */
      s->data += n;
      s->size -= n;
      spare->size -= n;
      placed += n;
    }
  return placed;
}
