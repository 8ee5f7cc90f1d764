/* et-nettrace-chunks.h — where a .nettrace image keeps its closed
 * buffers (et-nettrace-image.c), and how many the model can index.
 *
 *   closed buffer ─ slots left? ─ yes ─ copied to the end of a chunk
 *                               └ no ── its events counted (and all after)
 *
 * A chunk is one allocation of CHUNK_SIZE (ETLSCOPE_IMAGE_CHUNK sets
 * another, for the tests), given back its unused end when full: an image
 * needs no block as large as itself, so it has no size limit of its own.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ET_NETTRACE_CHUNK_SIZE (64u << 20)

/* The closed buffers, in chunks, and the model's slots they take
 * (EtEventLoc, model/trace/et-trace-private.h: a buffer takes as many as
 * the largest buffer has 8-byte units, 2^32 in all): the only limit an
 * image has. Buffers past it are counted and reported, never kept. */
typedef struct
{
  GPtrArray *chunks;       /* GBytes, full */
  guint8    *chunk;        /* the one being filled */
  gsize      chunk_len;
  gsize      chunk_cap;
  gsize      chunk_size;
  guint64    slot_space;   /* 2^32, or ETLSCOPE_SLOT_SPACE (the tests') */
  guint32    stride;       /* slots a buffer takes: the largest so far */
  guint64    beyond_events; /* events in buffers past the slot space */
  guint64    beyond_at;    /* the file offset of the first of them */
  guint64    kept_bytes;   /* (G_MESSAGES_DEBUG) */
} EtNettraceChunks;

/* Chunks of the size the environment asks, a slot space as the loader
 * reads it, and the header buffer of @head_len bytes counted. */
void     _et_nettrace_chunks_init        (EtNettraceChunks *c,
                                          gsize             head_len);
void     _et_nettrace_chunks_clear       (EtNettraceChunks *c);
/* The chunk being filled goes to c->chunks. */
void     _et_nettrace_chunks_finish      (EtNettraceChunks *c);
/* Room for @size bytes at the end, in one chunk. */
guint8  *_et_nettrace_chunks_reserve     (EtNettraceChunks *c,
                                          gsize             size);
/* Whether the model has slots for one more buffer of @size bytes after
 * @n_kept (FALSE from the first that has not on). */
gboolean _et_nettrace_chunks_have_slots  (EtNettraceChunks *c,
                                          guint             n_kept,
                                          gsize             size);
/* @n_events more not read, the first of them at @first (a file offset). */
void     _et_nettrace_chunks_count_beyond (EtNettraceChunks *c,
                                           guint64           n_events,
                                           guint64           first);

G_END_DECLS
