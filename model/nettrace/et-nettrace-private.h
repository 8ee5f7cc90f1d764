/* et-nettrace-private.h — what the .nettrace reader's files share:
 * et-nettrace-reader.c (the stream, objects, blocks, event headers) and
 * et-nettrace-metadata.c (metadata records). */
#pragma once

#include "et-nettrace-reader.h"
#include "et-bytes.h"

G_BEGIN_DECLS

typedef enum
{
  ET_NT_META_OK,          /* read; no V5 tags */
  ET_NT_META_TAGGED,      /* read, with V5 tags */
  ET_NT_META_BAD_TAGS,    /* read, but its tags run past its end (at *bad_at) */
  ET_NT_META_BAD,         /* its header does not read */
} EtNtMetaStatus;

/* Parses one metadata record's payload into @meta (cleared by the caller
 * with et_nettrace_meta_clear whatever the result). */
EtNtMetaStatus _et_nettrace_parse_metadata (const guint8   *p,
                                            gsize           len,
                                            guint64         offset,
                                            EtNettraceMeta *meta,
                                            gsize          *bad_at);
/* A NUL-terminated UTF-16 string as UTF-8 (transfer full); "" and a failed
 * reader when it has no terminator. */
char          *_et_nettrace_read_utf16z    (EtReader       *r);

G_END_DECLS
