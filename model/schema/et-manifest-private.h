/* et-manifest-private.h — the parsed manifest as the parser
 * (et-manifest.c) builds it and the payload decoder (et-manifest-decode.c)
 * walks it. Nothing outside the et-manifest*.c files includes this. */
#pragma once

#include "et-manifest.h"

G_BEGIN_DECLS

typedef struct
{
  guint64     value;
  const char *label;
} EtManifestMapEntry;

typedef struct
{
  const char         *name;
  gboolean            bitmap;
  guint               n_entries;
  EtManifestMapEntry *entries;  /* in manifest order (bit maps label in it) */
  EtManifestMapEntry *sorted;   /* by value, for value-map bsearch */
} EtManifestMap;

typedef enum
{
  ET_MAN_SIZE_NONE,
  ET_MAN_SIZE_CONST,  /* value is the size */
  ET_MAN_SIZE_REF,    /* value is an earlier sibling's index, up scopes out */
  ET_MAN_SIZE_BAD,    /* names no earlier field: decoding fails there */
  ET_MAN_SIZE_REST,   /* count "*" (built-in tables): as many as the payload holds */
} EtManSizeKind;

typedef struct
{
  guint8  kind;       /* EtManSizeKind */
  guint16 up;         /* REF: enclosing levels to climb (0: same level) */
  guint32 value;
} EtManifestSize;

typedef struct _EtManifestData EtManifestData;

/* One <data> or <struct> of a template. */
struct _EtManifestData
{
  const char          *name;
  const char          *in_type_name;  /* as written, for error messages */
  guint8               in_type;       /* EtManInType */
  guint8               out_type;      /* TDH out-type number, 0 when none */
  guint8               hint;          /* EtValueHint from in- and out-type */
  const EtManifestMap *map;
  EtManifestSize       count;         /* NONE: a scalar */
  EtManifestSize       length;
  guint32              min_size;      /* least wire bytes of one element */
  gboolean             optional;      /* absent when the payload ends before it
                                         (built-in kernel layouts that grew) */
  guint                n_members;     /* ET_MAN_IN_STRUCT */
  EtManifestData      *members;
};

struct _EtManifestTemplate
{
  const char     *tid;
  guint           n_data;
  EtManifestData *data;
  EtFixedLayout  *fixed;   /* NULL unless every item is a fixed-size scalar */
  EtWalkLayout   *walk;    /* without a fixed layout: NULL unless it can be walked */
};

/* A <data> or <struct> as the parser met it, attributes as written. */
typedef struct
{
  const char *name, *in_type, *out_type, *map, *count, *length;
  gboolean    optional;         /* built-in tables only: may be missing at the end */
  GArray     *members;          /* EtManifestParseData, only for a <struct> */
} EtManifestParseData;

/* Builds a template from its parsed <data> items (in et-manifest-decode.c):
 * in- and out-types become numbers, map= finds its map in @maps
 * (EtManifestMap), count=/length= become constants or references. */
EtManifestTemplate *_et_manifest_template_new  (const char *tid,
                                                GArray     *data,
                                                GPtrArray  *maps);
void                _et_manifest_template_free (EtManifestTemplate *tmpl);

/* A manifest assembled from tables instead of XML (et-builtin*.c): the
 * same parse state filled by calls instead of elements, then resolved by
 * the same rules (names, opcodes, maps, templates) as a parsed document.
 * Strings are copied into the manifest. */
typedef struct _EtManifestTables EtManifestTables;

EtManifestTables *_et_manifest_tables_new      (const char       *provider_name,
                                                const EtGuid     *guid);
/* A copy of @len bytes of @text (or all of it for -1) that lives as long
 * as the manifest: for names cut out of compact table strings. */
const char       *_et_manifest_tables_intern   (EtManifestTables *tables,
                                                const char       *text,
                                                gssize            len);
void              _et_manifest_tables_task     (EtManifestTables *tables,
                                                const char       *name,
                                                guint16           value);
/* @task -1: an opcode of the provider, else of that task. */
void              _et_manifest_tables_opcode   (EtManifestTables *tables,
                                                gint              task,
                                                const char       *name,
                                                guint8            value);
/* Adds @label for @value to the value map (or bit map) @map. */
void              _et_manifest_tables_map      (EtManifestTables *tables,
                                                const char       *map,
                                                gboolean          bitmap,
                                                guint64           value,
                                                const char       *label);
/* @data: EtManifestParseData items (strings from _intern), taken. */
void              _et_manifest_tables_template (EtManifestTables *tables,
                                                const char       *tid,
                                                GArray           *data);
/* @task and @opcode name entries added before (or "win:Start" etc.);
 * @symbol NULL names the event Task/Opcode; @tid NULL: no payload. */
void              _et_manifest_tables_event    (EtManifestTables *tables,
                                                guint16           id,
                                                guint8            version,
                                                guint8            level,
                                                const char       *task,
                                                const char       *opcode,
                                                const char       *symbol,
                                                const char       *tid);
/* Resolves and frees @tables. */
EtManifest       *_et_manifest_tables_finish   (EtManifestTables *tables);
GArray           *_et_manifest_parse_data_new  (void);

G_END_DECLS
