/* et-kernel.h — what the reader knows of kernel (system/perfinfo) records:
 * group → class GUID and name (etl-format.md §5 "Kernel groups"), and the
 * process and thread names carried by Process and Thread events. */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-etl-reader.h"

G_BEGIN_DECLS

/* Class GUID and name for a system/perfinfo record's HookId. Unknown groups
 * get a zero GUID and "Kernel group 0xNN" — they are still counted. */
void        et_kernel_class_for_hook (guint16       hook,
                                      EtGuid       *guid,
                                      const char  **name);

/* Name of a kernel event (HookId type within its group), or NULL. */
const char *et_kernel_event_name     (guint16       hook);

/* Name of a well-known non-kernel provider or classic class, or NULL. */
const char *et_known_provider_name   (const EtGuid *guid);

typedef struct
{
  guint32 pid;
  guint32 tid;          /* thread events only */
  char   *name;         /* image file name / thread name (transfer full) */
} EtKernelName;

/* A Process start/DCStart/DCEnd event → the process's image name; a Thread
 * SetName event → the thread's name. FALSE when @record is neither or its
 * payload does not hold a name. */
gboolean    et_kernel_process_name   (const EtRecord *record,
                                      EtKernelName   *out);
gboolean    et_kernel_thread_name    (const EtRecord *record,
                                      EtKernelName   *out);

#define ET_KERNEL_GROUP_HEADER 0x00
#define ET_KERNEL_GROUP_PROCESS 0x03
#define ET_KERNEL_GROUP_THREAD 0x05

G_END_DECLS
