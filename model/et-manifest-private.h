/* et-manifest-private.h — the parsed manifest, shared by the parser
 * (et-manifest.c) and the payload decoder (et-manifest-decode.c). */
#pragma once

#include "et-manifest.h"

G_BEGIN_DECLS

/* In-type numbers as TDH numbers them (also EtField.in_type). */
enum
{
  ET_IN_UNICODE_STRING = 1, ET_IN_ANSI_STRING, ET_IN_INT8, ET_IN_UINT8, ET_IN_INT16,
  ET_IN_UINT16, ET_IN_INT32, ET_IN_UINT32, ET_IN_INT64, ET_IN_UINT64, ET_IN_FLOAT,
  ET_IN_DOUBLE, ET_IN_BOOLEAN, ET_IN_BINARY, ET_IN_GUID, ET_IN_POINTER, ET_IN_FILETIME,
  ET_IN_SYSTEMTIME, ET_IN_SID, ET_IN_HEXINT32, ET_IN_HEXINT64,
};

typedef struct
{
  guint64     value;
  char       *message;   /* as written; the label after resolution */
} EtMapEntry;

typedef struct
{
  const char *name;
  gboolean    bitmap;
  GArray     *entries;   /* EtMapEntry */
} EtMapDef;

typedef struct
{
  const char *name;
  guint16     value;
} EtTaskDef;

typedef struct
{
  const char *name;
  guint64     mask;
} EtKeywordDef;

typedef struct
{
  const char     *name;
  guint8          in_type;
  gboolean        hex;
  const char     *map_name;
  const EtMapDef *map;
  gboolean        has_count;
  guint32         count_const;
  const char     *count_ref;
  gint            count_field;   /* index of the field holding the count, or -1 */
  gboolean        has_length;
  guint32         length_const;
  const char     *length_ref;
  gint            length_field;
} EtTemplateField;

struct _EtManifestTemplate
{
  GArray *fields;                /* EtTemplateField */
};

struct _EtManifest
{
  GStringChunk *chunk;           /* every name and message */
  const char   *provider_name;
  EtGuid        provider_guid;
  GArray       *tasks;           /* EtTaskDef */
  GArray       *keywords;        /* EtKeywordDef */
  GPtrArray    *maps;            /* EtMapDef* */
  GHashTable   *templates;       /* tid → EtManifestTemplate* */
  GArray       *events;          /* EtManifestEvent */
  GHashTable   *by_id_version;   /* id << 8 | version → index + 1 */
  GHashTable   *by_id;           /* id → index + 1 of the highest version */
  GHashTable   *opcode_names;    /* task << 8 | opcode → name (task 0xFFFF: global) */
};

G_END_DECLS
