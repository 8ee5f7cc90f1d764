/* et-nettrace-pipe.h — items handed from the thread that reads a .nettrace
 * to the thread that builds its image, in the order they were made.
 *
 *   reading thread: _et_nt_pipe_slot → fill it → … → _et_nt_pipe_close
 *   building thread: _et_nt_pipe_take (a run of items) … until NULL
 *
 * Items travel in batches through a ring of a few: the reader waits when
 * the builder is that far behind, the builder when the ring is empty, so
 * the two share the work of opening on two cores with the memory of a few
 * batches. Knows nothing of what an item holds (a fixed size).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtNtPipe EtNtPipe;

/* Items of @item_size bytes, a multiple of 64 (a cache line each). */
EtNtPipe     *_et_nt_pipe_new   (gsize     item_size);
void          _et_nt_pipe_free  (EtNtPipe *pipe);

/* Reading thread: the places of the next @n items (1 or 2: an item that
 * takes two), next to each other in one run, which the caller fills
 * before it asks for more or closes the pipe. */
gpointer      _et_nt_pipe_slot  (EtNtPipe *pipe,
                                 guint     n);
/* Reading thread: no more items (those made are handed over). */
void          _et_nt_pipe_close (EtNtPipe *pipe);

/* Building thread: the next run of *@n items, in the order they were
 * made; the run taken before is given back. NULL once the pipe is closed
 * and every item taken. */
gconstpointer _et_nt_pipe_take  (EtNtPipe *pipe,
                                 gsize    *n);

/* Items handed over so far (what opening tells of the pipe). */
guint64       _et_nt_pipe_items (EtNtPipe *pipe);

G_END_DECLS
