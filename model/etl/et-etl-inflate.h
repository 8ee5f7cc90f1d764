/* et-etl-inflate.h — an .etl file's compressed buffers decompressed at
 * once, on every core, after the walk that finds them.
 *
 * The walk (et-etl-reader) adds each compressed buffer as it meets it: the
 * buffer gets its place in one block, as large as its header states, by a
 * running total. Problems the walk meets meanwhile are held here in its
 * order. Then every buffer is decompressed into its own place, in
 * parallel, and the held problems are given back in the walk's order,
 * each buffer's decompression result where the walk met the buffer.
 */
#pragma once

#include <glib.h>

#include "et-xpress.h"

G_BEGIN_DECLS

typedef struct _EtEtlInflate EtEtlInflate;

/* One compressed buffer and, after et_etl_inflate_run, what its stream
 * gave. */
typedef struct
{
  guint          buffer;      /* its index in the walk */
  guint64        offset;      /* of its header in the file */
  guint32        disk_size;   /* header and stream */
  gsize          stated;      /* the data its header states */
  gsize          cap;         /* the most that is decoded (≤ stated but for damage) */
  gsize          place;       /* of its header's copy in the block; the data after it */
  EtXpressStatus status;
  gsize          out_len;     /* bytes decoded (also on failure) */
  gsize          bad_offset;  /* on failure: the faulty item, from the stream's start */
} EtInflateJob;

/* Called for each held problem in order: a message (@job NULL), or the
 * place of a buffer's decompression (@message NULL). */
typedef void (*EtInflateReportFunc) (guint64             offset,
                                     const char         *message,
                                     const EtInflateJob *job,
                                     gpointer            user_data);

EtEtlInflate *et_etl_inflate_new   (void);
void          et_etl_inflate_free  (EtEtlInflate *inflate);

/* Adds the buffer at @offset (@disk_size bytes: its header, then its
 * stream) to be decoded into at most @cap bytes; returns its place in the
 * block (a multiple of 8). */
gsize         et_etl_inflate_add   (EtEtlInflate *inflate,
                                    guint         buffer,
                                    guint64       offset,
                                    guint32       disk_size,
                                    gsize         stated,
                                    gsize         cap);
/* Holds a problem's @message (taken) until et_etl_inflate_report. */
void          et_etl_inflate_hold  (EtEtlInflate *inflate,
                                    guint64       offset,
                                    char         *message);
/* Decompresses every buffer added from the file's bytes @data (a
 * read-only private mapping) into a new block (g_free; NULL when none was
 * added); returns it. The pages of @data that held only compressed
 * buffers are given back afterwards: they must not be read again (they
 * would be read from the file anew). */
guint8       *et_etl_inflate_run   (EtEtlInflate *inflate,
                                    const guint8 *data,
                                    gsize        *block_len);
guint         et_etl_inflate_n_jobs(EtEtlInflate *inflate);
/* The block's length so far: where the next buffer added would go. */
gsize         et_etl_inflate_len   (EtEtlInflate *inflate);
const EtInflateJob *et_etl_inflate_job (EtEtlInflate *inflate,
                                        guint         i);
/* Gives back every held problem, in the order held (see
 * EtInflateReportFunc). */
void          et_etl_inflate_report(EtEtlInflate       *inflate,
                                    EtInflateReportFunc func,
                                    gpointer            user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtEtlInflate, et_etl_inflate_free)

G_END_DECLS
