/* et-etl-resync.h — telling a buffer header from other bytes, so that the
 * walk over an .etl file's buffers can find its way again after a damaged
 * one (private to et-etl-reader.c).
 *
 * A header is "sane" when its fields other than the size look like an
 * ETW buffer header (etl-format.md §2): ReferenceCount 0, a State of 1–4,
 * known BufferFlag bits, a BufferType of 0–7, a processor index within
 * 0x7FF. A buffer "ends at" a position when that is the end of the file,
 * too few bytes for a buffer, or a sane header (or one whose own size
 * leads to a sane header: one damaged field alone must not make its
 * neighbour look damaged). Searching for the next buffer asks more: a
 * sane header with the State and LoggerId of the file's other buffers,
 * whose own size leads to the end of the file (or past it: the last
 * buffer, cut short) or to another such header.
 */
#pragma once

#include <glib.h>
#include "et-mapping.h"

G_BEGIN_DECLS

typedef struct
{
  const guint8 *data;
  guint64       size;
  EtMapping    *watch;      /* a search stops once the file shrank */
  guint16       logger_id;  /* shared by the file's buffers, once known */
  guint32       state;
  gboolean      known;
} EtBufferCheck;

void     et_etl_check_init          (EtBufferCheck *check,
                                     const guint8  *data,
                                     guint64        size,
                                     EtMapping     *watch);
/* Finds the first plausible buffer and learns the file's LoggerId and
 * State from it; FALSE when the file holds none (not an .etl file). */
gboolean et_etl_check_learn         (EtBufferCheck *check,
                                     guint64       *first);
gboolean et_etl_buffer_header_sane  (const EtBufferCheck *check,
                                     guint64        at);
gboolean et_etl_buffer_ends_at      (const EtBufferCheck *check,
                                     guint64        at);
/* The first plausible buffer header at or after @from, or the file's size
 * when there is none. Linear in the bytes searched. */
guint64  et_etl_find_buffer         (const EtBufferCheck *check,
                                     guint64        from);

G_END_DECLS
