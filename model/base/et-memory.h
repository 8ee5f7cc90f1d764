/* et-memory.h — giving a large block's memory back without stalling the
 * other threads. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Drops the pages of [@data, @data + @len) a slice at a time; call it just
 * before the block is freed or unmapped. Freeing or unmapping gigabytes at
 * once holds the process's memory map while every page goes (about 100 ms
 * for a 6 GB trace), and a thread that needs memory meanwhile (the
 * window's renderer growing the heap) waits that long; between slices it
 * gets its turn. The contents are gone afterwards. */
void et_memory_drop_pages (gconstpointer data,
                           gsize         len);

/* Gives back the whole pages inside [@data, @data + @len) now, whatever
 * its length, a slice at a time as et_memory_drop_pages does: for the
 * front of a block that is done with while its back is still read, or a
 * mapped file's pages that were read once (they come back from the file
 * when read again). The contents of anonymous memory are gone afterwards. */
void et_memory_release    (gconstpointer data,
                           gsize         len);

/* @len bytes of zeros whose pages become resident only when written (an
 * anonymous mapping, whatever the allocator's thresholds): for per-item
 * tables of which most items may never be asked for. NULL when @len is 0;
 * aborts when the system has no memory, as g_malloc does. Give it back
 * with et_memory_unmap. */
gpointer et_memory_zeroed     (gsize         len);
void     et_memory_unmap      (gpointer      data,
                               gsize         len);

/* @len bytes (contents undefined, freed with g_free) for a block written
 * front to back: one of 8 MiB or more is asked for in 2 MiB pages past
 * its first 4 MiB, where the system gives them on request (transparent
 * huge pages in "madvise" mode, Debian's default); where it does not,
 * nothing changes. In 4 KiB pages each is a page fault at its first
 * write, about as long as writing it: decompressing large --compress took
 * 30,000 faults, 45 of its open's 90 ms. The first 4 MiB stay in small
 * pages so that a block of which little is written (the image of a small
 * .nettrace) keeps its footprint: a 2 MiB page is resident whole. */
gpointer et_memory_block    (gsize         len);

gsize         et_memory_page_size  (void);

/* A block of anonymous memory in whole pages, contents undefined until
 * written: grown by moving its pages (mremap), never by copying them;
 * its pages can be passed on to another block (EtSparePages). Zero-
 * initialise it ({ NULL, 0 }). */
typedef struct
{
  guint8 *data;
  gsize   size;    /* mapped bytes */
} EtMapped;

/* Makes @m hold at least @len bytes, keeping what it holds; returns its
 * data. Aborts when the system has no memory, as g_malloc does. */
gpointer      et_mapped_reserve    (EtMapped     *m,
                                    gsize         len);
/* Unmaps what @m holds past its first @len bytes (whole pages). */
void          et_mapped_shrink     (EtMapped     *m,
                                    gsize         len);
void          et_mapped_clear      (EtMapped     *m);

/* Pages of blocks done with, kept for the next block to be written
 * instead of going back to the system: a page the system gives anew is
 * zeroed and accounted at its first write (1.3 µs a page on the bench
 * machine, about as long as writing it), one passed on only changes its
 * address. They stay resident meanwhile: pass them on soon. */
typedef struct _EtSparePages EtSparePages;

EtSparePages *et_spare_pages_new   (void);
void          et_spare_pages_free  (EtSparePages *spare);
/* Takes @m's pages (@m is empty afterwards). */
void          et_spare_pages_add   (EtSparePages *spare,
                                    EtMapped     *m);
/* Gives back to the system all but the first @keep bytes (whole pages). */
void          et_spare_pages_trim  (EtSparePages *spare,
                                    gsize         keep);
gsize         et_spare_pages_size  (EtSparePages *spare);
/* Moves up to @len bytes (whole pages) of spare pages to @at, a page
 * boundary inside a mapping of the caller's (et_mapped_reserve), in place
 * of the pages there; returns the bytes moved. Their contents are
 * undefined. */
gsize         et_spare_pages_place (EtSparePages *spare,
                                    gpointer      at,
                                    gsize         len);

G_END_DECLS
