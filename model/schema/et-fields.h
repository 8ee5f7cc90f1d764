/* et-fields.h — the decoded payload of one event.
 *
 * Sits between the payload decoders (et-manifest, et-tracelogging) and
 * everything that reads field values (marker rules, the CLI, details).
 * Fields are a flat, pre-order array: a STRUCT or ARRAY entry is followed by
 * its members, and n_desc says how many entries belong to it. Strings and
 * bytes live in one shared text buffer, addressed by offset. An EtFields is
 * reused from event to event (et_fields_clear keeps its memory), so decoding
 * allocates nothing per event once warm.
 */
#pragma once

#include <glib.h>
#include <string.h>
#include "et-guid.h"
#include "et-text.h"

G_BEGIN_DECLS

/* In-types as TDH numbers them; EtField.in_type carries these (manifests,
 * the built-in tables and derived values declare fields with them). */
typedef enum
{
  ET_MAN_IN_STRUCT = 0,        /* our own: a <struct>, members follow */
  ET_MAN_IN_UNICODE_STRING = 1,
  ET_MAN_IN_ANSI_STRING,
  ET_MAN_IN_INT8,
  ET_MAN_IN_UINT8,
  ET_MAN_IN_INT16,
  ET_MAN_IN_UINT16,
  ET_MAN_IN_INT32,
  ET_MAN_IN_UINT32,
  ET_MAN_IN_INT64,
  ET_MAN_IN_UINT64,
  ET_MAN_IN_FLOAT,
  ET_MAN_IN_DOUBLE,
  ET_MAN_IN_BOOLEAN,
  ET_MAN_IN_BINARY,
  ET_MAN_IN_GUID,
  ET_MAN_IN_POINTER,
  ET_MAN_IN_FILETIME,
  ET_MAN_IN_SYSTEMTIME,
  ET_MAN_IN_SID,
  ET_MAN_IN_HEXINT32,
  ET_MAN_IN_HEXINT64,
  ET_MAN_IN_WBEM_SID,          /* the kernel's classic SID: 0, or a TOKEN_USER and the SID */
  ET_MAN_IN_LAST = ET_MAN_IN_WBEM_SID,
  ET_MAN_IN_UNKNOWN = 255,     /* an inType we cannot decode */
} EtManInType;

typedef enum
{
  ET_VALUE_NULL,       /* no value (a field that could not be decoded) */
  ET_VALUE_INT,        /* v.i */
  ET_VALUE_UINT,       /* v.u */
  ET_VALUE_FLOAT,      /* v.f; float and double both kept as double */
  ET_VALUE_BOOL,       /* v.b */
  ET_VALUE_STRING,     /* v.bytes: UTF-8 text in the text buffer */
  ET_VALUE_GUID,       /* v.guid */
  ET_VALUE_FILETIME,   /* v.i: 100 ns units since 1601-01-01 UTC */
  ET_VALUE_SYSTEMTIME, /* v.st: year, month, dow, day, hour, min, sec, ms */
  ET_VALUE_BINARY,     /* v.bytes: raw bytes in the text buffer */
  ET_VALUE_SID,        /* v.bytes: the SID's raw bytes */
  ET_VALUE_STRUCT,     /* members follow */
  ET_VALUE_ARRAY,      /* elements follow */
} EtValueKind;

typedef enum
{
  ET_HINT_NONE,
  ET_HINT_HEX,         /* print integers as 0x… */
  ET_HINT_POINTER,     /* pointer-sized, printed as 0x… */
  ET_HINT_CHAR,        /* an integer that holds a character (TL out-type string) */
} EtValueHint;

typedef struct
{
  const char *name;     /* owned by the schema that decoded it; lives with the trace */
  guint8      kind;     /* EtValueKind */
  guint8      hint;     /* EtValueHint */
  guint8      in_type;  /* the schema's in-type number (manifest or TraceLogging) */
  guint8      out_type; /* the schema's out-type number, 0 when none */
  guint8      derived;  /* computed (et-derived), not read from the payload; such
                           fields follow the payload's, at the top level */
  guint32     n_children; /* STRUCT / ARRAY: direct members */
  guint32     n_desc;     /* STRUCT / ARRAY: all entries below this one */
  gint32      label;      /* offset of a value-map / bit-map label in text, or -1 */
  union
  {
    gint64   i;
    guint64  u;
    double   f;
    gboolean b;
    EtGuid   guid;
    guint16  st[8];
    struct
    {
      guint32 off;
      guint32 len;
    } bytes;
  } v;
} EtField;

/* A schema whose top-level fields are all fixed-size scalars has a fixed
 * layout: each field at a known offset, so that a payload of at least
 * `size` bytes decodes without fail and one field can be read without
 * decoding the others. The decoders say how they would read each field
 * (et_manifest_event_fixed_layout, et_tl_schema_fixed_layout). */
typedef enum
{
  ET_FIXED_SIGNED,     /* decoded as ET_VALUE_INT from `size` little-endian bytes */
  ET_FIXED_UNSIGNED,   /* decoded as ET_VALUE_UINT */
  ET_FIXED_OTHER,      /* decoded as a value that is not an integer */
} EtFixedClass;

typedef struct
{
  const char *name;
  guint32     offset;
  guint8      size;
  guint8      klass;   /* EtFixedClass */
} EtFixedField;

typedef struct
{
  guint32       size;      /* bytes all fields take */
  guint         n_fields;
  EtFixedField *fields;
} EtFixedLayout;

/* Appends one field after the others (layouts are built once per schema). */
void        et_fixed_layout_add     (EtFixedLayout *layout,
                                     const char    *name,
                                     guint          size,
                                     EtFixedClass   klass);
void        et_fixed_layout_free    (EtFixedLayout *layout);

/* A schema whose top-level fields are fixed-size scalars, pointers and
 * strings (no arrays, no structs, no lengths from other fields) can be
 * walked: each field's size is found from its own bytes (a string's by
 * its terminator or its u16 byte count), so one field can be read without
 * decoding the others (et_marker_rules_apply_walk). Built by the decoders
 * for schemas without a fixed layout (et_manifest_event_walk_layout,
 * et_tl_schema_walk_layout). */
typedef enum
{
  ET_WALK_SCALAR,          /* `size` bytes, read as `klass` (EtFixedClass) says */
  ET_WALK_POINTER,         /* the record's pointer size, unsigned */
  ET_WALK_UTF16Z,          /* UTF-16 up to a NUL code unit */
  ET_WALK_ANSIZ,           /* 8-bit text up to a NUL (et_ansi_append) */
  ET_WALK_UTF8Z,           /* UTF-8 up to a NUL (et_utf8_append) */
  ET_WALK_COUNTED_UTF16,   /* a u16 byte count, then that many bytes */
  ET_WALK_COUNTED_ANSI,
  ET_WALK_COUNTED_UTF8,
  ET_WALK_COUNTED_BINARY,  /* decoded as binary: no integer, no text */
} EtWalkKind;

typedef struct
{
  const char *name;
  guint8      kind;    /* EtWalkKind */
  guint8      size;    /* ET_WALK_SCALAR */
  guint8      klass;   /* ET_WALK_SCALAR: EtFixedClass */
} EtWalkField;

typedef struct
{
  guint        n_fields;
  EtWalkField *fields;
} EtWalkLayout;

void        et_walk_layout_add      (EtWalkLayout  *layout,
                                     const char    *name,
                                     EtWalkKind     kind,
                                     guint          size,
                                     EtFixedClass   klass);
void        et_walk_layout_free     (EtWalkLayout  *layout);

/* Reused from payload to payload: clearing keeps the space. */
typedef struct
{
  EtField *entries;
  guint    n_entries;
  guint    entries_capacity;
  GString *text;          /* string, binary and label bytes */
  guint   *open;          /* indices of containers being built */
  guint    n_open;
  guint    open_capacity;
} EtFields;

EtFields   *et_fields_new           (void);
void        et_fields_free          (EtFields     *fields);
void        et_fields_clear         (EtFields     *fields);

static inline guint
et_fields_len (const EtFields *fields)
{
  return fields->n_entries;
}

static inline const EtField *
et_fields_get (const EtFields *fields,
               guint           index)
{
  return &fields->entries[index];
}

/* Building. Each add returns the new entry's index; while a container is
 * open, new entries become its members. */
guint       et_fields_add           (EtFields     *fields,
                                     const char   *name,
                                     EtValueKind   kind);
guint       et_fields_add_int       (EtFields     *fields,
                                     const char   *name,
                                     gint64        value);
guint       et_fields_add_uint      (EtFields     *fields,
                                     const char   *name,
                                     guint64       value);
guint       et_fields_add_float     (EtFields     *fields,
                                     const char   *name,
                                     double        value);
guint       et_fields_add_bool      (EtFields     *fields,
                                     const char   *name,
                                     gboolean      value);
guint       et_fields_add_guid      (EtFields     *fields,
                                     const char   *name,
                                     const EtGuid *value);
/* UTF-8 text; invalid sequences are replaced by U+FFFD. */
guint       et_fields_add_string    (EtFields     *fields,
                                     const char   *name,
                                     const char   *utf8,
                                     gsize         len);
/* UTF-16LE code units (n_units of them, unaligned is fine); unpaired
 * surrogates become U+FFFD. */
guint       et_fields_add_utf16     (EtFields     *fields,
                                     const char   *name,
                                     const guint8 *utf16le,
                                     gsize         n_units);
/* 8-bit text of unknown encoding: UTF-8 if valid, else Latin-1. */
guint       et_fields_add_ansi      (EtFields     *fields,
                                     const char   *name,
                                     const char   *bytes,
                                     gsize         len);
guint       et_fields_add_bytes     (EtFields     *fields,
                                     const char   *name,
                                     EtValueKind   kind,  /* BINARY or SID */
                                     const guint8 *bytes,
                                     gsize         len);
guint       et_fields_begin         (EtFields     *fields,
                                     const char   *name,
                                     EtValueKind   kind); /* STRUCT or ARRAY */
void        et_fields_end           (EtFields     *fields);
void        et_fields_set_label     (EtFields     *fields,
                                     guint         index,
                                     const char   *label);

static inline EtField *
et_fields_entry (EtFields *fields,
                 guint     index)
{
  return &fields->entries[index];
}

/* Reading. */
const char *et_fields_text          (const EtFields *fields,
                                     guint           index,
                                     gsize          *len);
const char *et_fields_label         (const EtFields *fields,
                                     guint           index);
/* The name field @index (a member of the struct at @parent, or of the top
 * level when @parent < 0) is written under: its own, or "name_2", "name_3"…
 * when an earlier sibling has the same name, so that JSON keys and text
 * stay apart. Returns the field's name or @scratch's text. */
const char *et_fields_unique_name   (const EtFields *fields,
                                     gint            parent,
                                     guint           index,
                                     GString        *scratch);
/* Index of the top-level field named @name (ASCII case-insensitive), or -1. */
gint        et_fields_find          (const EtFields *fields,
                                     const char     *name);
/* Index of the next entry at the same level as @index. */
guint       et_fields_next          (const EtFields *fields,
                                     guint           index);
/* TRUE and the value for INT, UINT and BOOL entries. */
gboolean    et_fields_get_integer   (const EtFields *fields,
                                     guint           index,
                                     gint64         *value);

/* Text as markers.md specifies ("Value formatting everywhere"). Structs
 * print as {a: 1, b: x}, arrays as [1, 2]. */
void        et_fields_format_value  (const EtFields *fields,
                                     guint           index,
                                     GString        *out);
/* The value as JSON (numbers, true/false, strings, objects, arrays). */
void        et_fields_append_json   (const EtFields *fields,
                                     guint           index,
                                     GString        *out);
/* All top-level fields as one JSON object. */
void        et_fields_append_json_object (const EtFields *fields,
                                          GString        *out);

/* A FILETIME as markers.md writes it (shared with the CLI). */
void        et_format_filetime      (gint64        filetime,
                                     GString      *out);

G_END_DECLS
