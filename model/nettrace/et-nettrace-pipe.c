/* et-nettrace-pipe.c — see et-nettrace-pipe.h.
 *
 * A ring of RING batches: batch i is the reader's while it fills it
 * (made == i), the builder's from its hand-over until it asks for the
 * next (used == i). One lock and one condition for both sides: a batch
 * of BATCH_ITEMS items is a lock taken twice a side, nothing beside
 * reading or building them.
 */
#include "et-nettrace-pipe.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Items a batch: 512 events of a .nettrace are 32 KiB, the ring 256 KiB —
 * the builder reads what the reader wrote from the processors' caches. */
#define BATCH_ITEMS 512
#define RING        8

struct _EtNtPipe
{
  GMutex   lock;
  GCond    moved;       /* a batch handed over, given back, or the end */
  gsize    item_size;
  guint8  *items;       /* RING × BATCH_ITEMS items */
  gsize    counts[RING];
  guint64  made;        /* batches handed over */
  guint64  used;        /* batches given back */
  gboolean closed;
  guint    waiting;     /* threads in g_cond_wait: told only when there are */
  guint64  handed;      /* items handed over */
  /* the builder's: it holds batch used (since a take) */
  gboolean holding;
  /* the reader's own, written at every item: in a cache line the builder
   * does not read */
  struct
  {
    guint8  *filling;   /* the batch it fills */
    gsize    filled;    /* and how many items it holds */
  } __attribute__ ((aligned (64))) r;
};

EtNtPipe *
_et_nt_pipe_new (gsize item_size)
{
  EtNtPipe *pipe = g_aligned_alloc0 (1, sizeof (EtNtPipe), 64);

  g_mutex_init (&pipe->lock);
  g_cond_init (&pipe->moved);
  pipe->item_size = item_size;
  /* (aligned: the reader writes whole lines the builder read last) */
  pipe->items = g_aligned_alloc (RING * BATCH_ITEMS, item_size, 64);
  return pipe;
}

void
_et_nt_pipe_free (EtNtPipe *pipe)
{
  if (pipe == NULL)
    return;
  g_mutex_clear (&pipe->lock);
  g_cond_clear (&pipe->moved);
  g_aligned_free (pipe->items);
  g_aligned_free (pipe);
}

/* Under the lock: wakes the other side if it waits (a wake-up is a
 * system call; most hand-overs find the other side busy). */
static void
tell (EtNtPipe *pipe)
{
  if (pipe->waiting > 0)
    g_cond_broadcast (&pipe->moved);
}

static void
wait (EtNtPipe *pipe)
{
  pipe->waiting++;
  g_cond_wait (&pipe->moved, &pipe->lock);
  pipe->waiting--;
}

/* Hands the batch being filled to the builder. */
static void
hand_over (EtNtPipe *pipe)
{
#if defined(__SSE2__)
  /* (items may have been written with streaming stores, which only a
   * fence orders before the hand-over) */
  _mm_sfence ();
#endif
  g_mutex_lock (&pipe->lock);
  pipe->counts[pipe->made % RING] = pipe->r.filled;
  pipe->handed += pipe->r.filled;
  pipe->made++;
  tell (pipe);
  g_mutex_unlock (&pipe->lock);
  pipe->r.filling = NULL;
  pipe->r.filled = 0;
}

gpointer
_et_nt_pipe_slot (EtNtPipe *pipe, guint n)
{
  gpointer place;

  if (pipe->r.filling != NULL && pipe->r.filled + n > BATCH_ITEMS)
    hand_over (pipe);
  if (pipe->r.filling == NULL)
    {
      g_mutex_lock (&pipe->lock);
      while (pipe->made - pipe->used >= RING)
        wait (pipe);
      g_mutex_unlock (&pipe->lock);
      pipe->r.filling = pipe->items + (pipe->made % RING) * BATCH_ITEMS * pipe->item_size;
    }
  place = pipe->r.filling + pipe->r.filled * pipe->item_size;
  pipe->r.filled += n;
  return place;
}

void
_et_nt_pipe_close (EtNtPipe *pipe)
{
  if (pipe->r.filling != NULL)
    hand_over (pipe);
  g_mutex_lock (&pipe->lock);
  pipe->closed = TRUE;
  tell (pipe);
  g_mutex_unlock (&pipe->lock);
}

gconstpointer
_et_nt_pipe_take (EtNtPipe *pipe, gsize *n)
{
  gconstpointer batch = NULL;

  g_mutex_lock (&pipe->lock);
  if (pipe->holding)
    {
      pipe->used++;
      pipe->holding = FALSE;
      tell (pipe);
    }
  while (pipe->used == pipe->made && !pipe->closed)
    wait (pipe);
  if (pipe->used < pipe->made)
    {
      *n = pipe->counts[pipe->used % RING];
      batch = pipe->items + (pipe->used % RING) * BATCH_ITEMS * pipe->item_size;
      pipe->holding = TRUE;
    }
  else
    *n = 0;
  g_mutex_unlock (&pipe->lock);
  return batch;
}

guint64
_et_nt_pipe_items (EtNtPipe *pipe)
{
  guint64 n;

  g_mutex_lock (&pipe->lock);
  n = pipe->handed;
  g_mutex_unlock (&pipe->lock);
  return n;
}
