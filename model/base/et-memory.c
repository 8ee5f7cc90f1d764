/* et-memory.c — see et-memory.h. */
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
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
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
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
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
