/* et-kernel.c — kernel record attribution and process/thread names.
 *
 * Part of the first stage: system and perfinfo records carry no GUID, only
 * a group in the high byte of HookId; the group table below is the one the
 * format guide documents (etl-format.md §5, "Kernel groups"). Process and
 * Thread events give the names the timeline shows instead of bare ids.
 */
#include "et-kernel.h"
#include "et-builtin.h"
#include "et-bytes.h"
#include "et-fields.h"

#include <string.h>

typedef struct
{
  const char *guid;
  const char *name;
} KnownGuid;

/* Indexed by group number (etl-format.md §5). */
static const KnownGuid kernel_groups[] = {
  [0x00] = { "68fdd900-4a3e-11d1-84f4-0000f80464e3", "EventTrace" },
  [0x01] = { "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", "DiskIo" },
  [0x02] = { "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "PageFault" },
  [0x03] = { "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Process" },
  [0x04] = { "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "FileIo" },
  [0x05] = { "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "Thread" },
  [0x06] = { "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", "TcpIp" },
  [0x07] = { "3282fc76-feed-498e-8aa7-e70f459d430e", "Job" },
  [0x08] = { "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", "UdpIp" },
  [0x09] = { "ae53722e-c863-11d2-8659-00c04fa321a1", "Registry" },
  [0x0A] = { "13976d09-a327-438c-950b-7f03192815c7", "DbgPrint" },
  [0x0B] = { "01853a65-418f-4f36-aefc-dc0f1d2fd235", "SystemConfig" },
  [0x0D] = { "42695762-ea50-497a-9068-5cbbb35e0b95", "Wnf" },
  [0x0E] = { "0268a8b6-74fd-4302-9dd0-6e8f1795c0cf", "Pool" },
  [0x0F] = { "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "PerfInfo" },
  [0x10] = { "222962ab-6180-4b88-a825-346b75f2a24a", "Heap" },
  [0x11] = { "89497f50-effe-4440-8cf2-ce6b1cdcaca7", "Object" },
  [0x12] = { "e43445e0-0903-48c3-b878-ff0fccebdd04", "Power" },
  [0x13] = { "a9152f00-3f58-4bee-92a1-70c7d079d5dd", "ModBound" },
  [0x14] = { "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", "Image" },
  [0x15] = { "b2d14872-7c5b-463d-8419-ee9bf7d23e04", "Dpc" },
  [0x16] = { "7687a439-f752-45b8-b741-321aec0f8df9", "Cc" },
  [0x17] = { "3ac66736-cc59-4cff-8115-8df50e39816b", "CritSec" },
  [0x18] = { "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", "StackWalk" },
  [0x19] = { "9aec974b-5b8e-4118-9b92-3186d8002ce5", "Ums" },
  [0x1A] = { "45d8cccd-539f-4b72-a8b7-5c683142609a", "ALPC" },
  [0x1B] = { "d837ca92-12b9-44a5-ad6a-3a65b3578aa8", "SplitIo" },
  [0x1C] = { "c861d0e2-a2c1-4d36-9f9c-970bab943a12", "ThreadPool" },
  [0x1D] = { "7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e", "Hypervisor" },
  [0x1E] = { "2ce9a149-effe-42f0-a635-a1d39e26c8f2", "HypervisorX" },
};

/* Providers and classic classes seen in real traces (names as their owners
 * publish them). */
static const KnownGuid known_providers[] = {
  { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime" },
  { "a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown" },
  { "763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate" },
  { "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", "System.Threading.Tasks.TplEventSource" },
  { "8e9f5090-2d75-4d03-8a81-e5afbf85daf1", "System.Diagnostics.Eventing.FrameworkEventSource" },
  { "8d4925ab-505a-483b-a7e0-6f824a07a6f0", "Concurrency Visualizer Markers" },
  { "b3e675d7-2554-4f18-830b-2762732560de", "KernelTraceControl ImageID" },
  { "bbccf6c1-6cd1-48c4-80ff-839482e37671", "KernelTraceControl MetaData" },
  { "9b79ee91-b5fd-41c0-a243-4248e266e9d0", "KernelTraceControl SysConfig" },
  { "ed54dff8-c409-4cf6-bf83-05e1e61a09c4", "KernelTraceControl WinSat" },
  { "1c95126e-7eea-49a9-a3fe-a378b03ddb4d", "Microsoft-Windows-DNS-Client" },
  { "b675ec37-bdb6-4648-bc92-f3fdc74d3ca2", "Microsoft-Windows-Kernel-EventTracing" },
  { "edd08927-9cc4-4e65-b970-c2560fb5c289", "Microsoft-Windows-Kernel-File" },
  { "22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716", "Microsoft-Windows-Kernel-Process" },
};

/* The groups' GUIDs, parsed once: this runs for every kernel record. */
static const EtGuid *
kernel_group_guids (void)
{
  static EtGuid *guids;

  if (g_once_init_enter (&guids))
    {
      EtGuid *parsed = g_new0 (EtGuid, G_N_ELEMENTS (kernel_groups));

      for (guint i = 0; i < G_N_ELEMENTS (kernel_groups); i++)
        if (kernel_groups[i].guid != NULL)
          et_guid_parse (kernel_groups[i].guid, &parsed[i]);
      g_once_init_leave (&guids, parsed);
    }
  return guids;
}

void
et_kernel_class_for_hook (guint16 hook, EtGuid *guid, const char **name)
{
  guint group = hook >> 8;

  /* Process group, type 10 is an image load and belongs to the Image class
   * (etl-format.md §5, the one exception). */
  if (hook == 0x030A)
    group = 0x14;
  if (group < G_N_ELEMENTS (kernel_groups) && kernel_groups[group].guid != NULL)
    {
      *guid = kernel_group_guids ()[group];
      *name = kernel_groups[group].name;
      return;
    }
  memset (guid, 0, sizeof *guid);
  guid->data1 = group;   /* distinct per group, so counts stay apart */
  *name = NULL;
}

const char *
et_kernel_event_name (guint16 hook)
{
  guint group = hook >> 8, type = hook & 0xFF;

  /* The event types the kernel classes share (MOF EventType values). */
  if (group == ET_KERNEL_GROUP_HEADER)
    switch (type)
      {
      case 0:    return "Header";
      case 5:    return "Extension";
      case 8:    return "RundownComplete";
      case 32:   return "EndExtension";
      default:   return NULL;
      }
  if (hook == 0x030A || (group == 0x14 && type == 10))
    return "Load";
  if (group == ET_KERNEL_GROUP_THREAD && type == 36)
    return "CSwitch";
  if (group == ET_KERNEL_GROUP_THREAD && type == 72)
    return "SetName";
  if (group == 0x0F && type == 46)
    return "SampledProfile";
  if (group == 0x18 && type == 32)
    return "Stack";
  switch (type)
    {
    case 1:  return "Start";
    case 2:  return "End";
    case 3:  return "DCStart";
    case 4:  return "DCEnd";
    default: return NULL;
    }
}

const char *
et_known_provider_name (const EtGuid *guid)
{
  char text[ET_GUID_STRING_LEN];

  et_guid_to_string (guid, text);
  for (guint i = 0; i < G_N_ELEMENTS (known_providers); i++)
    if (strcmp (known_providers[i].guid, text) == 0)
      return known_providers[i].name;
  return NULL;
}

/* Decodes @record with its built-in schema (@version instead of the
 * record's when not 0). */
static gboolean
decode_builtin (const EtRecord *record, guint8 version, EtFields *fields)
{
  const EtManifest *manifest = NULL;
  const EtManifestEvent *event;
  EtGuid guid;
  const char *name;

  et_kernel_class_for_hook (record->hook, &guid, &name);
  event = et_builtin_lookup (&guid, record->opcode, version ? version : record->version,
                             &manifest);
  et_fields_clear (fields);
  return event != NULL && et_manifest_decode (manifest, event, record->payload,
                                              record->payload_len, record->pointer_size,
                                              fields, NULL, NULL);
}

/* The text of top-level field @name, or NULL when absent or empty. */
static char *
field_text (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);
  gsize len = 0;
  const char *text = i >= 0 ? et_fields_text (fields, i, &len) : NULL;

  return text != NULL && len > 0 ? g_strndup (text, len) : NULL;
}

static guint32
field_u32 (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);

  return i >= 0 ? (guint32) et_fields_get (fields, i)->v.u : ET_KERNEL_NO_ID;
}

static gboolean
is_kernel_group (const EtRecord *record, guint group)
{
  return (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
         && (record->hook >> 8) == group;
}

gboolean
et_kernel_process_name (const EtRecord *record, EtKernelName *out)
{
  guint type = record->hook & 0xFF;
  EtFields *fields;

  /* DCStart/DCEnd rundown comes as PERFINFO records too; the pid is in the
   * payload either way. */
  memset (out, 0, sizeof *out);
  if (!is_kernel_group (record, ET_KERNEL_GROUP_PROCESS) || (type != 1 && type != 3 && type != 4))
    return FALSE;
  fields = et_fields_new ();
  /* Relogged files do not always keep the version byte honest: a payload
   * that does not fit its version's layout is tried with its neighbour's
   * (version 4 added Flags). */
  if (decode_builtin (record, 0, fields)
      || decode_builtin (record, record->version >= 4 ? 3 : 4, fields))
    {
      out->pid = field_u32 (fields, "ProcessID");
      out->name = field_text (fields, "ImageFileName");
      out->command_line = out->name ? field_text (fields, "CommandLine") : NULL;
    }
  et_fields_free (fields);
  return out->name != NULL;
}

/* The first word of @command_line (quoted or not), without its folder and
 * ".exe": what a process is called when only its command line is known,
 * as PerfView calls it ("corerun" for "C:\\x\\corerun.exe app.dll"). */
static char *
program_of_command_line (const char *command_line)
{
  const char *start = command_line, *end, *base;

  while (*start == ' ')
    start++;
  if (*start == '"')
    end = strchr (++start, '"');
  else
    end = strchr (start, ' ');
  if (end == NULL)
    end = start + strlen (start);
  base = start;
  for (const char *p = start; p < end; p++)
    if (*p == '\\' || *p == '/')
      base = p + 1;
  if (end - base > 4 && g_ascii_strncasecmp (end - 4, ".exe", 4) == 0)
    end -= 4;
  return end > base ? g_strndup (base, end - base) : NULL;
}

/* The providers whose EVENT_HEADER records this file reads: EventPipe's
 * own (ProcessInfo), its sample profiler, and those whose events tell a
 * thread's role (role_providers). */
typedef struct
{
  EtGuid eventpipe;
  EtGuid sampler;
  EtGuid roles[2];
} ReadGuids;

static const char *const role_providers[] = {
  "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4",   /* Microsoft-Windows-DotNETRuntime */
  "8e9f5090-2d75-4d03-8a81-e5afbf85daf1",   /* FrameworkEventSource */
};

static const ReadGuids *
read_guids (void)
{
  static ReadGuids g;
  static gsize parsed;

  G_STATIC_ASSERT (G_N_ELEMENTS (role_providers) == G_N_ELEMENTS (g.roles));
  if (g_once_init_enter (&parsed))
    {
      et_guid_parse ("92f528a6-f5b8-5160-a7ee-b33da7739e29", &g.eventpipe);
      et_guid_parse ("3c530d44-97ae-513a-1e6d-783e8f8e03a9", &g.sampler);
      for (guint i = 0; i < G_N_ELEMENTS (role_providers); i++)
        et_guid_parse (role_providers[i], &g.roles[i]);
      g_once_init_leave (&parsed, 1);
    }
  return &g;
}

gboolean
et_kernel_reads_provider (const EtGuid *guid)
{
  const ReadGuids *g = read_guids ();

  return et_guid_equal (guid, &g->eventpipe) || et_guid_equal (guid, &g->sampler)
         || et_guid_equal (guid, &g->roles[0]) || et_guid_equal (guid, &g->roles[1]);
}

gboolean
et_eventpipe_process_name (const EtRecord *record, EtKernelName *out)
{
  gsize n = 0;

  memset (out, 0, sizeof *out);
  if (record->klass != ET_RECORD_EVENT || record->id != 1 || !record->has_ids
      || !et_guid_equal (&record->guid, &read_guids ()->eventpipe))
    return FALSE;
  /* ProcessInfo: the command line is the payload's first UTF-16 string. */
  while (n + 1 < record->payload_len && et_read_u16 (record->payload + n) != 0)
    n += 2;
  if (n == 0 || n + 1 >= record->payload_len)
    return FALSE;
  {
    g_autofree gunichar2 *units = g_memdup2 (record->payload, n);

    out->command_line = g_utf16_to_utf8 (units, (glong) (n / 2), NULL, NULL, NULL);
  }
  out->pid = record->pid;
  out->name = out->command_line ? program_of_command_line (out->command_line) : NULL;
  if (out->name == NULL)
    g_clear_pointer (&out->command_line, g_free);
  return out->name != NULL;
}

/* Thread events (group 5): SetName (type 72), or Start/End/DCStart/DCEnd
 * of version 4 and later, which end with the thread's name. */
gboolean
et_kernel_thread_name (const EtRecord *record, EtKernelName *out)
{
  guint type = record->hook & 0xFF;
  EtFields *fields;

  memset (out, 0, sizeof *out);
  if (!is_kernel_group (record, ET_KERNEL_GROUP_THREAD))
    return FALSE;
  if (type != 72 && !(type >= 1 && type <= 4 && record->version >= 4))
    return FALSE;
  fields = et_fields_new ();
  if (decode_builtin (record, 0, fields))
    {
      out->pid = field_u32 (fields, "ProcessId");
      out->tid = field_u32 (fields, "TThreadId");
      out->name = field_text (fields, "ThreadName");
    }
  et_fields_free (fields);
  return out->name != NULL;
}

/* ---- the runtime's threads --------------------------------------------- */

/* Events only a thread of one role logs, and the name PerfView gives such
 * a thread: the finalizer's GC/FinalizersStart and Stop, the thread pool's
 * workers (ThreadPoolWorkerThread/Start and Wait, FrameworkEventSource's
 * ThreadPoolDequeueWork and ThreadTransferReceive), its I/O workers
 * (ThreadPool/IODequeue) and the thread that samples its throughput. */
typedef struct
{
  guint8      provider;   /* index into role_providers */
  guint16     id;
  const char *role;
} ThreadRole;

static const ThreadRole thread_roles[] = {
  { 0, 13, ".NET Finalizer Thread" }, { 0, 14, ".NET Finalizer Thread" },
  { 0, 50, ".NET ThreadPool Worker" }, { 0, 57, ".NET ThreadPool Worker" },
  { 0, 54, ".NET ThreadPool" }, { 0, 64, ".NET IO ThreadPool Worker" },
  { 1, 31, ".NET ThreadPool Worker" }, { 1, 151, ".NET ThreadPool Worker" },
};

const char *
et_runtime_thread_role (const EtRecord *record)
{
  const ReadGuids *g;

  if (record->klass != ET_RECORD_EVENT)
    return NULL;
  g = read_guids ();
  for (guint i = 0; i < G_N_ELEMENTS (thread_roles); i++)
    if (thread_roles[i].id == record->id
        && et_guid_equal (&g->roles[thread_roles[i].provider], &record->guid))
      return thread_roles[i].role;
  return NULL;
}

/* ---- attribution: whose event is it? ----------------------------------- */

/* The u32 at @offset of the payload, or ET_KERNEL_NO_ID past its end. */
static guint32
payload_u32 (const EtRecord *record, gsize offset)
{
  return offset + 4 <= record->payload_len ? et_read_u32 (record->payload + offset)
                                           : ET_KERNEL_NO_ID;
}

/* Where a kernel event's payload names the thread that did the work, for
 * records whose header names none (PERFINFO): the offset, or -1. Layouts
 * are those of et-builtin-kernel*.c; ps is the pointer size. */
static gssize
payload_tid_offset (guint group, guint type, guint version, gsize ps)
{
  gboolean v3 = version >= 3;

  switch (group)
    {
    case ET_KERNEL_GROUP_THREAD:                          /* CSwitch, ReadyThread */
      return type == 36 || type == 50 ? 0 : -1;
    case 0x0F:                                            /* SampledProfile, PMC */
      return type == 46 || type == 47 ? (gssize) ps : -1;
    case 0x01:                                            /* DiskIo, version 3 */
      if (!v3)
        return -1;
      return type == 10 || type == 11 ? (gssize) (32 + 2 * ps)
           : type == 14 ? (gssize) (16 + ps) : type >= 12 && type <= 15 ? (gssize) ps : -1;
    case 0x02:                                            /* HardFault */
      return type == 32 ? (gssize) (16 + 2 * ps) : -1;
    case 0x04:                                            /* FileIo */
      if (type == 64)
        return v3 ? (gssize) (2 * ps) : (gssize) ps;
      if (type == 67 || type == 68)
        return (gssize) (8 + (v3 ? 3 : 1) * ps);
      if (type == 69 || type == 70 || type == 71 || type == 74 || type == 75)
        return (gssize) ((v3 ? 4 : 1) * ps);
      if (type == 65 || type == 66 || type == 73 || type == 72 || type == 77)
        return (gssize) ((v3 ? 3 : 1) * ps);
      return -1;
    default:
      return -1;
    }
}

/* A payload process id that replaces the header's: the offset, or -1. */
static gssize
payload_pid_offset (guint group, guint type, gsize ps)
{
  switch (group)
    {
    case ET_KERNEL_GROUP_PROCESS:
      return type == 32 || type == 33 || type == 11 ? 0 : -1;
    case 0x14:                                            /* Image */
      return type == 2 || type == 3 || type == 4 || type == 10 ? (gssize) (2 * ps) : -1;
    case 0x06: case 0x08:                                 /* TcpIp, UdpIp */
      return 0;
    case 0x0B:                                            /* SystemConfig Services */
      return type == 15 ? 0 : -1;
    default:
      return -1;
    }
}

EtKernelIdsFrom
et_kernel_ids (const EtRecord *record, guint32 *pid, guint32 *tid)
{
  guint group = record->hook >> 8, type = record->hook & 0xFF;
  gsize ps = record->pointer_size;
  gssize at;

  *pid = record->has_ids ? record->pid : ET_KERNEL_NO_ID;
  *tid = record->has_ids ? record->tid : ET_KERNEL_NO_ID;
  if (record->klass != ET_RECORD_SYSTEM && record->klass != ET_RECORD_PERFINFO)
    return ET_KERNEL_IDS_HEADER;
  if (record->hook == 0x030A)
    group = 0x14;                     /* Image/Load (et_kernel_class_for_hook) */
  /* A process's own events: its id, no thread (TraceEvent's rule). */
  if (group == ET_KERNEL_GROUP_PROCESS && (type <= 4 || type == 39) && type >= 1
      && record->version >= 1)
    {
      *pid = payload_u32 (record, ps);
      *tid = ET_KERNEL_NO_ID;
      return ET_KERNEL_IDS_PAYLOAD;
    }
  if (group == ET_KERNEL_GROUP_THREAD && ((type >= 1 && type <= 4) || type == 72)
      && record->version >= 1)
    {
      *pid = payload_u32 (record, 0);
      *tid = payload_u32 (record, 4);
      return ET_KERNEL_IDS_THREAD;
    }
  if (group == 0x18 && type == 32)                        /* StackWalk/Stack */
    {
      *pid = payload_u32 (record, 8);
      *tid = payload_u32 (record, 12);
      return ET_KERNEL_IDS_PAYLOAD;
    }
  if (group == 0x0F && type == 46)                        /* SampledProfile */
    {
      if (*tid == ET_KERNEL_NO_ID)
        *tid = payload_u32 (record, ps);
      return ET_KERNEL_IDS_SAMPLE;
    }
  if (record->version >= 1 && (at = payload_pid_offset (group, type, ps)) >= 0)
    {
      *pid = payload_u32 (record, (gsize) at);
      /* An image's unload and rundown are the process's, not a thread's;
       * its load is the loading thread's. */
      if (group == 0x14 && type != 10)
        *tid = ET_KERNEL_NO_ID;
      return ET_KERNEL_IDS_PAYLOAD;
    }
  if (*tid == ET_KERNEL_NO_ID && (at = payload_tid_offset (group, type, record->version, ps)) >= 0)
    {
      *tid = payload_u32 (record, (gsize) at);
      return ET_KERNEL_IDS_TID;
    }
  return ET_KERNEL_IDS_HEADER;
}

gboolean
et_is_thread_sample (const EtRecord *record)
{
  return record->klass == ET_RECORD_EVENT && record->id == 0 && record->has_ids
         && et_guid_equal (&record->guid, &read_guids ()->sampler);
}
