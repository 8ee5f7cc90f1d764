/* et-etl-reader-private.h — the reader's inside, shared by its files:
 * et-etl-reader.c (buffers, records, the walk), et-etl-compressed.c (LZ77
 * buffers) and et-etl-image.c (files of other formats in memory). Not for
 * use outside etl/. */
#pragma once

#include "et-etl-reader.h"
#include "et-etl-inflate.h"
#include "et-etl-resync.h"
#include "et-mapping.h"

G_BEGIN_DECLS

#define BUFFER_FLAG_COMPRESSED 0x0040
#define BUFFER_FLAG_PROC_INDEX 0x0020

/* No ETW session buffer is larger than this; a bigger stated size is damage
 * and must not drive an allocation. */
#define MAX_BUFFER_SIZE (16u * 1024 * 1024)
#define LOG_MODE_COMPRESSED 0x04000000u
/* Every buffer may state 16 MiB of decompressed data and LZ77 can reach
 * that from a few bytes (a "bomb"): the work of a load must stay bounded
 * by the file's size. Real buffers compress 1–14 times (net.4.5.2.x64.etl:
 * 5.4 on average, 13.6 at most), so a buffer may expand 32 times its
 * compressed bytes and the file 16 times its size in all. A record takes
 * 8 bytes at least (16 for all but messages), so a file of N bytes gives
 * at most 17N/8 records and a bomb about N/16 (a 9 MB bomb made 17.8
 * million before, now 88,000), and one bomb buffer cannot take the
 * allowance of the buffers after it. */
#define MAX_BUFFER_RATIO 32
#define MAX_INFLATE_RATIO 16

struct _EtEtlFile
{
  char         *path;
  int           fd;            /* kept to see whether the file shrank */
  GMappedFile  *mapped;
  EtMapping    *watch;         /* pages that vanish read as zeros */
  EtBufferCheck check;         /* what its buffer headers look like */
  const guint8 *data;
  gsize         size;
  GArray       *buffers;       /* EtBufferInfo */
  guint8       *inflated;      /* decompressed buffers, back to back */
  gsize         inflated_len;
  gsize         inflate_budget;/* bytes that may still be decompressed */
  gsize         inflate_space; /* the decompressed buffers' index space (data_index) */
  gboolean      inflate_space_full;
  guint         n_compressed;
  EtEtlInflate *inflate;       /* during the walk: its compressed buffers and problems */
  EtDamageFunc  damage;
  gpointer      damage_data;
  EtImageTables *image;        /* an image with compact records: their tables */
  GPtrArray    *image_chunks;  /* an image's buffers (GBytes) */
  const guint8 **image_at;     /* where each of its buffers starts */
};

/* Reports damage at @offset of the file (held back while the walk plans
 * decompression, so that it comes in the walk's order). */
void     _et_etl_report          (EtEtlFile     *file,
                                  guint64        offset,
                                  const char    *format,
                                  ...) G_GNUC_PRINTF (3, 4);

/* et-etl-compressed.c */
gboolean _et_etl_inflates_cleanly (EtEtlFile    *file,
                                   guint64       offset,
                                   guint32       disk_size);
gsize    _et_etl_inflate_space   (void);
void     _et_etl_plan_inflate    (EtEtlFile     *file,
                                  EtBufferInfo  *info);
void     _et_etl_inflate_all     (EtEtlFile     *file);

/* et-etl-image.c; @walked: for the walk over every record, where an
 * image's payloads in its source file are not read. */
gboolean _et_etl_parse_record    (EtEtlFile     *file,
                                  const guint8  *buffer,
                                  gsize          pos,
                                  gsize          len,
                                  gboolean       walked,
                                  EtRecord      *record,
                                  const char   **reason);
void     _et_etl_free_image      (EtEtlFile     *file);

G_END_DECLS
