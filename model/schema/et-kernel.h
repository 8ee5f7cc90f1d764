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
  char   *command_line; /* process events: the command line, or NULL (transfer full) */
} EtKernelName;

/* A Process start/DCStart/DCEnd event → the process's image name and
 * command line; a Thread SetName event (or a Thread event of version 4)
 * → the thread's name. Decoded with the built-in schemas. FALSE when
 * @record is neither or its payload does not hold a name. */
gboolean    et_kernel_process_name   (const EtRecord *record,
                                      EtKernelName   *out);
gboolean    et_kernel_thread_name    (const EtRecord *record,
                                      EtKernelName   *out);
/* A .nettrace's Microsoft-DotNETCore-EventPipe/ProcessInfo event → the
 * process's command line and, from its first word, its name. */
gboolean    et_eventpipe_process_name (const EtRecord *record,
                                       EtKernelName   *out);

/* The name of the role of the thread that logged @record when only a
 * thread of that role logs it (".NET Finalizer Thread", ".NET ThreadPool
 * Worker"...), as PerfView names such threads; else NULL. Static string. */
const char *et_runtime_thread_role   (const EtRecord *record);

/* Whether @record is EventPipe's sample of its own thread (the sample
 * profiler's Thread/Sample of a .nettrace): a CPU sample of that thread,
 * as PerfInfo/SampledProfile is in an .etl. */
gboolean    et_is_thread_sample      (const EtRecord *record);

/* Whether et_is_thread_sample, et_runtime_thread_role or
 * et_eventpipe_process_name can say anything of an EVENT_HEADER record of
 * provider @guid; FALSE for every other provider (an application's
 * EventSource), whose records the walk passes by them. */
gboolean    et_kernel_reads_provider (const EtGuid   *guid);

/* An id nobody has: TraceEvent's -1. */
#define ET_KERNEL_NO_ID G_MAXUINT32

typedef enum
{
  ET_KERNEL_IDS_HEADER,     /* the header's ids stand (or there are none) */
  ET_KERNEL_IDS_PAYLOAD,    /* the payload names the process (and maybe thread) */
  ET_KERNEL_IDS_THREAD,     /* a Thread event: its payload names pid and tid */
  ET_KERNEL_IDS_TID,        /* the payload names the thread; its process is to be
                               looked up (tid → pid, from Thread events) */
  ET_KERNEL_IDS_SAMPLE,     /* a CPU sample: of the header's thread when it names
                               one, else of the payload's (as TID) */
} EtKernelIdsFrom;

/* Whose event @record is, as TraceEvent attributes kernel events: a
 * process's events to its pid (no thread), a thread's to its ids, and a
 * header without ids (PERFINFO) takes the thread named in the payload —
 * CPU samples, CSwitch's new thread, ReadyThread, disk, file and hard-fault
 * I/O — whose process the caller looks up. Unknown ids are
 * ET_KERNEL_NO_ID. Reads a few fixed offsets, never past the payload. */
EtKernelIdsFrom et_kernel_ids        (const EtRecord *record,
                                      guint32        *pid,
                                      guint32        *tid);

#define ET_KERNEL_GROUP_HEADER 0x00
#define ET_KERNEL_GROUP_PROCESS 0x03
#define ET_KERNEL_GROUP_THREAD 0x05

G_END_DECLS
