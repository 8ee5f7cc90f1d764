/* et-nettrace-private.h — what the .nettrace reader's files share:
 * et-nettrace-reader.c (the stream, objects, blocks, event headers),
 * et-nettrace-framing.c (where objects begin and end) and
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
  ET_NT_META_BAD_FIELDS,  /* read, but its field descriptions break at *bad_at:
                           * the fields before are kept */
  ET_NT_META_BAD,         /* its header does not read */
} EtNtMetaStatus;

typedef enum
{
  ET_NT_OBJ_UNKNOWN,
  ET_NT_OBJ_TRACE,
  ET_NT_OBJ_EVENT_BLOCK,
  ET_NT_OBJ_METADATA_BLOCK,
  ET_NT_OBJ_STACK_BLOCK,
  ET_NT_OBJ_SP_BLOCK,
} EtNtObjectKind;

EtNtObjectKind _et_nettrace_kind_of        (const guint8   *name,
                                            guint32         len);
/* The object opening at @pos: its kind and version; *body is where its
 * payload starts. With @lenient, one of its three tags may be wrong when
 * it names a known type (*damaged says so). FALSE when no opening reads. */
gboolean      _et_nettrace_opening         (const guint8   *data,
                                            gsize           len,
                                            gsize           pos,
                                            gboolean        lenient,
                                            EtNtObjectKind *kind,
                                            guint32        *version,
                                            gsize          *body,
                                            gboolean       *damaged);
/* The next offset after @pos where an object of a known type opens, or @len. */
gsize         _et_nettrace_next_opening    (const guint8   *data,
                                            gsize           len,
                                            gsize           pos);
/* TRUE when what may follow a block's end tag is at @at: an object
 * opening, the stream's end tag as the last byte, or nothing (a file cut
 * just there). */
gboolean      _et_nettrace_framed_after    (const guint8   *data,
                                            gsize           len,
                                            gsize           at);
/* Where the block whose payload starts at @start and states @size bytes
 * ends (the offset of its end tag, or where one should be): the stated
 * end when an end tag and an object (or the stream's end) follow it, else
 * the end before the next object opening (*size_wrong). */
gsize         _et_nettrace_block_end       (const guint8   *data,
                                            gsize           len,
                                            gsize           start,
                                            guint32         size,
                                            gboolean       *size_wrong);

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
