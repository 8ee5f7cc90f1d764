/* et-kernel.c — kernel record attribution and process/thread names.
 *
 * Part of the first stage: system and perfinfo records carry no GUID, only
 * a group in the high byte of HookId; the group table below is the one the
 * format guide documents (etl-format.md §5, "Kernel groups"). Process and
 * Thread events give the names the timeline shows instead of bare ids.
 */
#include "et-kernel.h"
#include "et-bytes.h"

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
      et_guid_parse (kernel_groups[group].guid, guid);
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

/* An image name is a short run of printable ASCII ending in NUL. */
static char *
read_image_name (const guint8 *p, gsize len)
{
  gsize n = 0;

  while (n < len && n < 260 && p[n] != 0)
    {
      if (p[n] < 0x20 || p[n] > 0x7E)
        return NULL;
      n++;
    }
  if (n == 0 || n >= len || p[n] != 0)
    return NULL;
  return g_strndup ((const char *) p, n);
}

/* Skips the UserSID of a Process event: zero when absent, else a TOKEN_USER
 * (two pointers' worth) followed by the SID. The layout is the kernel MOF
 * class Process_TypeGroup1 as decoders read it. */
static gboolean
skip_user_sid (EtReader *r, guint pointer_size)
{
  const guint8 *p = r->data + r->pos;

  if (et_reader_remaining (r) < 4)
    return FALSE;
  if (et_read_u32 (p) == 0)
    return et_reader_take (r, 4 + (pointer_size - 4)) != NULL;
  if (!et_reader_take (r, 2 * pointer_size))
    return FALSE;
  if (et_reader_remaining (r) < 2)
    return FALSE;
  return et_reader_take (r, 8 + 4 * (gsize) r->data[r->pos + 1]) != NULL;
}

static char *
process_image_name (const EtRecord *record, gboolean has_flags, guint32 *pid)
{
  EtReader r;
  guint ps = record->pointer_size;

  et_reader_init (&r, record->payload, record->payload_len);
  et_reader_pointer (&r, ps);              /* UniqueProcessKey */
  *pid = et_reader_u32 (&r);
  et_reader_u32 (&r);                      /* ParentId */
  et_reader_u32 (&r);                      /* SessionId */
  et_reader_u32 (&r);                      /* ExitStatus */
  et_reader_pointer (&r, ps);              /* DirectoryTableBase */
  if (has_flags)
    et_reader_u32 (&r);                    /* Flags (version 4 on) */
  if (r.failed || !skip_user_sid (&r, ps))
    return NULL;
  return read_image_name (r.data + r.pos, et_reader_remaining (&r));
}

gboolean
et_kernel_process_name (const EtRecord *record, EtKernelName *out)
{
  guint type = record->hook & 0xFF;
  gboolean v4;

  /* DCStart/DCEnd rundown comes as PERFINFO records too; the pid is in the
   * payload either way. */
  if ((record->klass != ET_RECORD_SYSTEM && record->klass != ET_RECORD_PERFINFO)
      || (record->hook >> 8) != ET_KERNEL_GROUP_PROCESS
      || (type != 1 && type != 3 && type != 4))
    return FALSE;
  /* Version 4 added Flags; try the layout the version says, then the other,
   * because relogged files do not always keep the version byte honest. */
  v4 = record->version >= 4;
  out->tid = 0;
  out->name = process_image_name (record, v4, &out->pid);
  if (out->name == NULL)
    out->name = process_image_name (record, !v4, &out->pid);
  return out->name != NULL;
}

/* A NUL-terminated UTF-16 name at the reader's position, or NULL. */
static char *
read_utf16_name (EtReader *r)
{
  gsize n_units = 0;
  g_autofree gunichar2 *units = NULL;

  while ((r->pos + 2 * n_units + 1) < r->len && et_read_u16 (r->data + r->pos + 2 * n_units) != 0)
    n_units++;
  if (n_units == 0)
    return NULL;
  units = g_new (gunichar2, n_units);
  for (gsize i = 0; i < n_units; i++)
    units[i] = et_read_u16 (r->data + r->pos + 2 * i);
  return g_utf16_to_utf8 (units, (glong) n_units, NULL, NULL, NULL);
}

/* Thread events (group 5): SetName (type 72: ProcessId, ThreadId, name),
 * or Start/End/DCStart/DCEnd (types 1–4) of version 4 and later, which end
 * with the thread's name after seven pointers and 4 + 4 bytes of ids,
 * priorities and flags (Thread_TypeGroup1). */
gboolean
et_kernel_thread_name (const EtRecord *record, EtKernelName *out)
{
  guint type = record->hook & 0xFF;
  EtReader r;

  if ((record->klass != ET_RECORD_SYSTEM && record->klass != ET_RECORD_PERFINFO)
      || (record->hook >> 8) != ET_KERNEL_GROUP_THREAD)
    return FALSE;
  if (type != 72 && !(type >= 1 && type <= 4 && record->version >= 4))
    return FALSE;
  et_reader_init (&r, record->payload, record->payload_len);
  out->pid = et_reader_u32 (&r);
  out->tid = et_reader_u32 (&r);
  if (type != 72)
    et_reader_take (&r, 7 * (gsize) record->pointer_size + 4 + 4);
  if (r.failed)
    return FALSE;
  out->name = read_utf16_name (&r);
  return out->name != NULL;
}
