/* et-builtin-private.h — the compact form of the built-in tables
 * (et-builtin-clr*.c), read by et-builtin.c.
 *
 * An event's fields are one string, items separated by spaces:
 *
 *   Name:type            a scalar
 *   Name:type=Map        with a value map or bit map of the provider
 *   Name:type(N)         a string or binary of N characters or bytes
 *   Name:type?           absent when the payload ends before it (a later
 *                        field of a layout that grew within one version)
 *   Name:type[Other]     an array whose count is the earlier field Other
 *   Name:type[*]         an array filling the rest of the payload
 *   Name{items}[Other]   an array of structs
 *
 * Types: u8 u16 u32 u64 i32 i64 (integers), x32 x64 (unsigned, shown in
 * hex), ptr (pointer-sized), str (UTF-16, NUL-terminated), ansi, bool
 * (4 bytes), guid, f32, f64, i8, i16, ft (FILETIME), bin (bytes, to the end
 * of the payload unless (N) is given); and for the kernel's classes ksid
 * (0, or a TOKEN_USER and the SID after it), ip4, ip6 and port (network byte
 * order).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint16     value;
  const char *name;
} EtBuiltinTask;

typedef struct
{
  guint16     task;
  guint8      value;
  const char *name;
} EtBuiltinOpcode;

typedef struct
{
  const char *map;
  gboolean    bitmap;
  guint64     value;
  const char *label;
} EtBuiltinMapEntry;

typedef struct
{
  guint16     id;
  guint8      version;
  guint8      level;
  guint16     task;
  guint8      opcode;      /* 0: the event is named by its task alone */
  const char *fields;      /* NULL: no payload */
  const char *name;        /* NULL: "Task/Opcode" */
} EtBuiltinEvent;

typedef struct
{
  const char              *guid;
  const char              *name;
  const EtBuiltinTask     *tasks;
  guint                    n_tasks;
  const EtBuiltinOpcode   *opcodes;
  guint                    n_opcodes;
  const EtBuiltinMapEntry *maps;
  const guint             *n_maps;
  const EtBuiltinEvent    *events;
  guint                    n_events;
} EtBuiltinProvider;

/* The runtime's maps, shared by its three providers (et-builtin-clr.c). */
extern const EtBuiltinMapEntry _et_builtin_clr_maps[];
extern const guint             _et_builtin_clr_n_maps;

extern const EtBuiltinProvider _et_builtin_clr_runtime;   /* et-builtin-clr.c */
extern const EtBuiltinProvider _et_builtin_clr_rundown;   /* et-builtin-clr-rundown.c */
extern const EtBuiltinProvider _et_builtin_clr_private;   /* et-builtin-clr-rundown.c */
extern const EtBuiltinProvider _et_builtin_sample_profiler; /* et-builtin-clr-rundown.c */

G_END_DECLS
