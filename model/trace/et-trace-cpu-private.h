/* et-trace-cpu-private.h — what building (et-trace-cpu.c) and querying
 * (et-trace-cpu-query.c) a trace's per-thread CPU data share. */
#pragma once

#include "et-trace-cpu.h"
#include "et-trace-private.h"

G_BEGIN_DECLS

/* Times are kept as u32 differences from the one before; a difference of
 * 2^32 − 1 ns (4.3 s) or more is ESCAPE and the next two words. Every
 * SEQ_BLOCK-th time is a checkpoint (its time and where its block's words
 * start), so a query searches the checkpoints and then reads at most a
 * block. The block is even, so switch pairs (in, out) never straddle one. */
#define SEQ_BLOCK 256
#define ESCAPE    G_MAXUINT32

typedef struct
{
  guint32 word;     /* its first word in words */
  guint32 check;    /* its first checkpoint */
  guint32 n;        /* times */
} Seq;

struct _EtTraceCpu
{
  guint    n_threads;
  Seq     *samples;      /* per thread */
  Seq     *switches;     /* per thread: in, out, in, out… */
  gint64  *on_cpu_ns;    /* per thread, from switches */
  GArray  *words;        /* guint32 */
  GArray  *check_t;      /* gint64: time of each checkpoint */
  GArray  *check_w;      /* guint32: word index of each checkpoint */
  GArray  *check_cum;    /* gint64: switches: time on CPU before each checkpoint */
  gint64   interval_ns;
  gboolean has_switches;
  int      by_bounds;    /* ETLSCOPE_CPU_BY_BOUNDS: 1 always, 0 never, -1 when cheaper */
};

G_END_DECLS
