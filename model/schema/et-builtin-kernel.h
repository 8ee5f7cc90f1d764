/* et-builtin-kernel.h — the kernel's classic classes as built-in tables
 * (et-builtin-kernel*.c), registered in et-builtin.c beside the runtime's.
 * One provider per kernel group or KernelTraceControl class, keyed by its
 * class GUID; an event's id is its event type (et_kernel_event_id). */
#pragma once

#include "et-builtin-private.h"

G_BEGIN_DECLS

/* Value and bit maps every kernel table shares (et-builtin-kernel.c). */
extern const EtBuiltinMapEntry _et_builtin_kernel_maps[];
extern const guint             _et_builtin_kernel_n_maps;

/* et-builtin-kernel.c */
extern const EtBuiltinProvider _et_builtin_kernel_header;
extern const EtBuiltinProvider _et_builtin_kernel_process;
extern const EtBuiltinProvider _et_builtin_kernel_thread;
extern const EtBuiltinProvider _et_builtin_kernel_image;
extern const EtBuiltinProvider _et_builtin_kernel_perfinfo;
extern const EtBuiltinProvider _et_builtin_kernel_stack;
extern const EtBuiltinProvider _et_builtin_kernel_config;
/* et-builtin-kernel-io.c */
extern const EtBuiltinProvider _et_builtin_kernel_disk;
extern const EtBuiltinProvider _et_builtin_kernel_file;
extern const EtBuiltinProvider _et_builtin_kernel_memory;
extern const EtBuiltinProvider _et_builtin_kernel_tcp;
extern const EtBuiltinProvider _et_builtin_kernel_udp;
extern const EtBuiltinProvider _et_builtin_ktc_image_id;
extern const EtBuiltinProvider _et_builtin_ktc_sysconfig;
extern const EtBuiltinProvider _et_builtin_ktc_metadata;

/* How each table file declares its providers: one task numbered 1 per
 * class, events keyed by their event type. */
#define ET_KERNEL_EV(op, version, fields) { op, version, 0, 1, op, fields, NULL }
#define ET_KERNEL_NAMED(op, version, fields, name) { op, version, 0, 1, op, fields, name }
#define ET_KERNEL_PROVIDER(var, guid, task_name)                                        \
  static const EtBuiltinTask var##_tasks[] = { { 1, task_name } };                     \
  const EtBuiltinProvider var = { guid, task_name, var##_tasks, 1, var##_opcodes,      \
                                  G_N_ELEMENTS (var##_opcodes), _et_builtin_kernel_maps, \
                                  &_et_builtin_kernel_n_maps, var##_events,            \
                                  G_N_ELEMENTS (var##_events) }

G_END_DECLS
