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

G_END_DECLS
