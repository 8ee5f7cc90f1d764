/* et-nettrace-types.h — EventPipe metadata as the image's event types
 * (et-nettrace-types.c), and the little-endian writing the image's files
 * share.
 *
 *   metadata record ─ provider GUID (the runtime's well-known ones, else
 *                     EventSource's rule from its name)
 *                   ─ fields → TraceLogging metadata (EVENT_SCHEMA_TL item)
 *                   ─ provider name → PROV_TRAITS item
 *                   ─ id, version, level, keywords, opcode, task
 */
#pragma once

#include "et-image-record.h"
#include "et-nettrace-reader.h"

G_BEGIN_DECLS

/* The type every event of @meta shares: what its EVENT_HEADER records
 * would hold and the items they would carry (pid and pointer size are
 * the trace's, set when the image is put together). */
EtImageType *_et_nettrace_type_new            (const EtNettraceMeta *meta);
/* Whether TraceEvent leaves out the stacks of @t's events. */
gboolean     _et_nettrace_type_stack_left_out (const EtImageType    *t);

static inline void
_et_nt_set (guint8 *p, guint64 v, guint n)
{
  for (guint i = 0; i < n; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static inline void
_et_nt_put (GByteArray *b, guint64 v, guint n)
{
  guint8 x[8];

  _et_nt_set (x, v, n);
  g_byte_array_append (b, x, n);
}

static inline void
_et_nt_pad8 (GByteArray *b)
{
  while (b->len % 8 != 0)
    _et_nt_put (b, 0, 1);
}

G_END_DECLS
