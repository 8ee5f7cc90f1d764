/* et-derived-kernel.c — derived fields of the kernel's classes and
 * KernelTraceControl's, the values PerfView shows beside their payloads.
 *
 * From the payload and the record's header:
 * - EventTrace (the log header): UtcOffsetMinutes, the Bias of the
 *   collecting machine's TIME_ZONE_INFORMATION (minutes west of UTC).
 * - Thread/Start: ParentThreadID, ParentProcessID — the header's ids,
 *   the thread that started it (a Stop or rundown names no parent).
 * - Image events, ImageID, ImageID/FileVersion: BuildTime, the PE header's
 *   TimeDateStamp (seconds since 1970, unsigned) as a date.
 * - Microsoft-Windows-Kernel-File/Create: CreateDisposition, the top byte
 *   of CreateOptions (IoCreateFile's disposition) by PerfView's names.
 * - PerfInfo/Sample: ProcessorNumber (the record's CPU) and, from the
 *   Reserved word, ExecutingDPC (bit 0), ExecutingISR (bit 1), Priority
 *   (bits 3-7) and Rank (the high byte).
 * - DiskIO Read/Write/FlushBuffers: IrpFlagNames, IrpFlags without the
 *   priority bits 17-19, named (PerfView's names), and Priority, those
 *   bits; ElapsedTimeMSec, HighResResponseTime in the trace's clock.
 *   Memory/HardFault: ElapsedTimeMSec from its InitialTime to the event.
 * From earlier events (indexes built on first use):
 * - Image events, Kernel-File/Create: DosPath, FileName with the device
 *   prefix replaced by its drive ("\Device\HarddiskVolume2\x" → "C:\x"),
 *   from the trace's SysConfig/VolumeMapping events and SystemPaths'
 *   Windows directory.
 * - DiskIO Read/Write, Memory/HardFault: FileName, the name in force for
 *   their FileObject (PerfView's FileKey) — from FileIO/Name, FileCreate,
 *   Create; a key first named by the end rundown (FileRundown,
 *   FileDelete) counts from the trace's start — as a DOS path.
 * - FileIO's operations on a file (Read, Write, Close...): FileName, by
 *   FileKey, else FileObject; DirEnum and DirNotify: DirectoryName.
 * - DiskIO Read/Write: DiskServiceTimeMSec, the time since the later of
 *   the I/O's issue and the previous completion on its disk.
 */
#include "et-derived-private.h"
#include "et-bytes.h"

#include <string.h>

enum
{
  IMAGE_UNLOAD = 2, IMAGE_DC_START = 3, IMAGE_DC_STOP = 4, IMAGE_LOAD = 10,
  DISK_READ = 10, DISK_WRITE = 11, DISK_FLUSH = 14,
  FILE_NAME = 0, FILE_FILE_CREATE = 32, FILE_DELETE = 35, FILE_RUNDOWN = 36, FILE_CREATE = 64,
  SYSCONFIG_PATHS = 33, SYSCONFIG_VOLUME = 35,
};

/* ---- from the payload and the header ---------------------------------- */

static void
derive_utc_offset (EtDeriveCtx *ctx)
{
  gint i = et_fields_find (ctx->fields, "TimeZoneInformation");
  gsize len = 0;
  const char *bytes;

  if (i < 0 || (bytes = et_fields_text (ctx->fields, (guint) i, &len)) == NULL || len < 4)
    return;
  _et_derived_add_int (ctx, "UtcOffsetMinutes", ET_MAN_IN_INT32,
                       (gint32) et_read_u32 ((const guint8 *) bytes));
}

static void
derive_thread_parent (EtDeriveCtx *ctx)
{
  if (ctx->event->version < 2 || !ctx->record->has_ids)
    return;
  _et_derived_add_int (ctx, "ParentThreadID", ET_MAN_IN_INT32, (gint32) ctx->record->tid);
  _et_derived_add_int (ctx, "ParentProcessID", ET_MAN_IN_INT32, (gint32) ctx->record->pid);
}

static void
derive_build_time (EtDeriveCtx *ctx)
{
  gint64 stamp;

  if (_et_derived_payload_int (ctx->fields, "TimeDateStamp", &stamp))
    _et_derived_add_unix_time (ctx, "BuildTime", (guint32) stamp);
}

static void
derive_sample (EtDeriveCtx *ctx)
{
  gint64 reserved;

  _et_derived_add_uint (ctx, "ProcessorNumber", ET_MAN_IN_UINT32, ctx->event->cpu);
  if (!_et_derived_payload_int (ctx->fields, "Reserved", &reserved))
    return;
  _et_derived_add_uint (ctx, "Priority", ET_MAN_IN_UINT8, (reserved >> 3) & 0x1F);
  _et_derived_add_bool (ctx, "ExecutingDPC", (reserved & 1) != 0);
  _et_derived_add_bool (ctx, "ExecutingISR", (reserved & 2) != 0);
  _et_derived_add_uint (ctx, "Rank", ET_MAN_IN_UINT8, (reserved >> 8) & 0xFF);
}

/* The IRP flag bits, by PerfView's names (0x2 is IRP_PAGING_IO and
 * IRP_MOUNT_COMPLETION alike; PerfView shows the latter). */
static const char *const irp_flag_names[] = {
  "Nocache", "MountCompletion", "SynchronousApi", "AssociatedIrp", "BufferedIO",
  "DeallocateBuffer", "SynchronousPagingIO", "Create", "Read", "Write", "Close",
  "DeferIOCompletion", "ObQueryName", "HoldDeviceQueue",
};

static const char *const io_priorities[] = {
  "Notset", "Verylow", "Low", "Normal", "High", "Critical", "Reserved0", "Reserved1",
};

#define IRP_PRIORITY_SHIFT 17
#define IRP_PRIORITY_MASK (7u << IRP_PRIORITY_SHIFT)

static void
add_irp_flags (EtDeriveCtx *ctx, guint32 flags)
{
  g_autoptr(GString) label = g_string_new (NULL);
  guint32 rest = flags;
  guint i;

  for (guint bit = 0; bit < G_N_ELEMENTS (irp_flag_names); bit++)
    if (flags & (1u << bit))
      {
        g_string_append_printf (label, "%s%s", label->len ? "|" : "", irp_flag_names[bit]);
        rest &= ~(1u << bit);
      }
  if (rest != 0)
    g_string_append_printf (label, "%s0x%x", label->len ? "|" : "", rest);
  i = _et_derived_add_uint (ctx, "IrpFlagNames", ET_MAN_IN_UINT32, flags);
  et_fields_set_label (ctx->fields, i, label->len ? label->str : "None");
}

static void
derive_disk_flags (EtDeriveCtx *ctx, gboolean with_priority)
{
  gint64 flags, response;
  guint i;

  if (_et_derived_payload_int (ctx->fields, "IrpFlags", &flags))
    {
      add_irp_flags (ctx, (guint32) flags & ~IRP_PRIORITY_MASK);
      if (with_priority)
        {
          i = _et_derived_add_uint (ctx, "Priority", ET_MAN_IN_UINT8,
                                    ((guint32) flags & IRP_PRIORITY_MASK) >> IRP_PRIORITY_SHIFT);
          et_fields_set_label (ctx->fields, i,
                               io_priorities[((guint32) flags >> IRP_PRIORITY_SHIFT) & 7]);
        }
    }
  if (_et_derived_payload_int (ctx->fields, "HighResResponseTime", &response))
    _et_derived_add_double (ctx, "ElapsedTimeMSec", _et_derived_ticks_ms (ctx->trace, response));
}

static void
derive_flush (EtDeriveCtx *ctx)
{
  derive_disk_flags (ctx, FALSE);
}

/* ---- drive letters ------------------------------------------------------ */

static void
collect_volume (gpointer data, guint64 index, const EtEvent *event, const EtRecord *record,
                const EtFields *fields)
{
  const char *kernel = _et_derived_payload_text (fields, "NtPath");
  const char *dos = _et_derived_payload_text (fields, "DosPath");
  const char *windows = _et_derived_payload_text (fields, "SystemWindowsDirectory");
  EtDriveMapping m = { NULL, NULL };

  if (event->id == SYSCONFIG_VOLUME && kernel != NULL && dos != NULL && kernel[0] != '\0')
    m = (EtDriveMapping) { g_strdup (kernel), g_strdup (dos) };
  else if (event->id == SYSCONFIG_PATHS && windows != NULL && windows[0] != '\0')
    m = (EtDriveMapping) { g_strdup ("\\Windows\\"), g_strdup (windows) };
  if (m.kernel != NULL)
    g_array_append_val (data, m);
}

static void
drive_mapping_clear (gpointer data)
{
  EtDriveMapping *m = data;

  g_free (m->kernel);
  g_free (m->dos);
}

static void
build_drives (EtDeriveCtx *ctx)
{
  static const guint16 ids[] = { SYSCONFIG_PATHS, SYSCONFIG_VOLUME };

  ctx->state->drives = g_array_new (FALSE, FALSE, sizeof (EtDriveMapping));
  g_array_set_clear_func (ctx->state->drives, drive_mapping_clear);
  _et_derived_walk (ctx->trace, ctx->state, ET_FAM_KTC_SYSCONFIG, ids, G_N_ELEMENTS (ids),
                    collect_volume, ctx->state->drives);
}

/* @path with its first mapped prefix (ASCII case ignored) replaced, newly
 * allocated; NULL when no mapping applies. */
static char *
dos_path (EtDeriveCtx *ctx, const char *path)
{
  GArray *drives;

  _et_derived_once (ctx, &ctx->state->drives_once, build_drives);
  drives = ctx->state->drives;
  for (guint i = 0; i < drives->len; i++)
    {
      const EtDriveMapping *m = &g_array_index (drives, EtDriveMapping, i);
      gsize n = strlen (m->kernel);

      if (g_ascii_strncasecmp (path, m->kernel, n) == 0)
        return g_strconcat (m->dos, path + n, NULL);
    }
  return NULL;
}

static void
derive_image (EtDeriveCtx *ctx)
{
  const char *name = _et_derived_payload_text (ctx->fields, "FileName");
  g_autofree char *dos = NULL;

  derive_build_time (ctx);
  if (name != NULL && (dos = dos_path (ctx, name)) != NULL)
    _et_derived_add_text (ctx, "DosPath", dos);
}

/* Kernel-File/Create: the disposition packed into CreateOptions' top
 * byte, named as PerfView names CreateFile's (FILE_OPEN is OPEN_EXISTING,
 * FILE_OVERWRITE_IF CREATE_ALWAYS…), and FileName as a DOS path. */
static void
derive_kernel_file_create (EtDeriveCtx *ctx)
{
  static const char *const names[] = { "SUPERSEDE", "OPEN_EXISTING", "CREATE_NEW",
                                       "OPEN_ALWAYS", "TRUNCATE_EXISTING", "CREATE_ALWAYS" };
  const char *name = _et_derived_payload_text (ctx->fields, "FileName");
  g_autofree char *dos = NULL;
  gint64 options;
  guint disposition;

  if (_et_derived_payload_int (ctx->fields, "CreateOptions", &options))
    {
      disposition = ((guint64) options >> 24) & 0xFF;
      if (disposition < G_N_ELEMENTS (names))
        _et_derived_add_text (ctx, "CreateDisposition", names[disposition]);
      else
        _et_derived_add_uint (ctx, "CreateDisposition", ET_MAN_IN_UINT8, disposition);
    }
  if (name != NULL && (dos = dos_path (ctx, name)) != NULL)
    _et_derived_add_text (ctx, "DosPath", dos);
}

/* ---- file names --------------------------------------------------------- */

static void
collect_file_name (gpointer data, guint64 index, const EtEvent *event, const EtRecord *record,
                   const EtFields *fields)
{
  const char *name = _et_derived_payload_text (fields, event->id == FILE_CREATE ? "OpenPath"
                                                                                : "FileName");
  gint64 key;

  if (name == NULL || name[0] == '\0' || !_et_derived_payload_int (fields, "FileObject", &key))
    return;
  _et_history_add_text (data, (guint64) key, 0, index, name, strlen (name),
                        event->id == FILE_RUNDOWN || event->id == FILE_DELETE);
}

static void
build_file_names (EtDeriveCtx *ctx)
{
  static const guint16 ids[] = { FILE_NAME, FILE_FILE_CREATE, FILE_DELETE, FILE_RUNDOWN,
                                 FILE_CREATE };

  ctx->state->file_names = _et_history_new ();
  _et_derived_walk (ctx->trace, ctx->state, ET_FAM_FILE, ids, G_N_ELEMENTS (ids),
                    collect_file_name, ctx->state->file_names);
}

/* @field: the name in force for the payload's @first key, else its
 * @second (NULL: none), as a DOS path. */
static void
derive_name_by_keys (EtDeriveCtx *ctx, const char *field, const char *first, const char *second)
{
  const char *keys[] = { first, second };
  g_autofree char *dos = NULL;
  guint64 offset;
  const char *name;

  _et_derived_once (ctx, &ctx->state->files_once, build_file_names);
  for (guint i = 0; i < G_N_ELEMENTS (keys) && keys[i] != NULL; i++)
    {
      gint64 key;

      if (!_et_derived_payload_int (ctx->fields, keys[i], &key)
          || !_et_history_at (ctx->state->file_names, (guint64) key, 0, ctx->index, FALSE,
                              &offset))
        continue;
      name = ctx->state->file_names->text->str + offset;
      dos = dos_path (ctx, name);
      _et_derived_add_text (ctx, field, dos != NULL ? dos : name);
      return;
    }
}

/* DiskIO's and HardFault's FileObject is PerfView's FileKey. */
static void
derive_file_name (EtDeriveCtx *ctx)
{
  derive_name_by_keys (ctx, "FileName", "FileObject", NULL);
}

/* FileIO's operations: their file by FileKey, else by FileObject (a file
 * opened before the trace has only the rundown's name for its key). */
static void
derive_file_io (EtDeriveCtx *ctx)
{
  derive_name_by_keys (ctx, "FileName", "FileKey", "FileObject");
}

/* DirEnum and DirNotify carry the pattern as FileName: the directory's. */
static void
derive_directory (EtDeriveCtx *ctx)
{
  derive_name_by_keys (ctx, "DirectoryName", "FileKey", "FileObject");
}

/* ---- the disk queue ----------------------------------------------------- */

static void
collect_disk_end (gpointer data, guint64 index, const EtEvent *event, const EtRecord *record,
                  const EtFields *fields)
{
  gint64 disk;
  GArray *ends;

  if (!_et_derived_payload_int (fields, "DiskNumber", &disk))
    return;
  ends = g_hash_table_lookup (data, GUINT_TO_POINTER ((guint) disk));
  if (ends == NULL)
    {
      ends = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (data, GUINT_TO_POINTER ((guint) disk), ends);
    }
  g_array_append_val (ends, event->raw_time);
}

static void
build_disk_ends (EtDeriveCtx *ctx)
{
  static const guint16 ids[] = { DISK_READ, DISK_WRITE, DISK_FLUSH };

  ctx->state->disk_ends = g_hash_table_new_full (NULL, NULL, NULL,
                                                 (GDestroyNotify) g_array_unref);
  _et_derived_walk (ctx->trace, ctx->state, ET_FAM_DISK, ids, G_N_ELEMENTS (ids),
                    collect_disk_end, ctx->state->disk_ends);
}

/* The latest completion on @disk strictly before @t, or FALSE. */
static gboolean
previous_disk_end (EtDeriveCtx *ctx, guint disk, gint64 t, gint64 *end)
{
  GArray *ends;
  guint lo = 0, hi;

  _et_derived_once (ctx, &ctx->state->disks_once, build_disk_ends);
  ends = g_hash_table_lookup (ctx->state->disk_ends, GUINT_TO_POINTER (disk));
  if (ends == NULL)
    return FALSE;
  hi = ends->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (ends, gint64, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  *end = g_array_index (ends, gint64, lo - 1);
  return TRUE;
}

static void
derive_disk_io (EtDeriveCtx *ctx)
{
  gint64 disk, response, end;
  double service;

  derive_disk_flags (ctx, TRUE);
  if (_et_derived_payload_int (ctx->fields, "HighResResponseTime", &response)
      && _et_derived_payload_int (ctx->fields, "DiskNumber", &disk))
    {
      service = _et_derived_ticks_ms (ctx->trace, response);
      if (previous_disk_end (ctx, (guint) disk, ctx->event->raw_time, &end))
        service = MIN (service, _et_derived_ticks_ms (ctx->trace, ctx->event->raw_time - end));
      _et_derived_add_double (ctx, "DiskServiceTimeMSec", service);
    }
  derive_file_name (ctx);
}

static void
derive_hard_fault (EtDeriveCtx *ctx)
{
  gint64 initial;

  if (_et_derived_payload_int (ctx->fields, "InitialTime", &initial))
    _et_derived_add_double (ctx, "ElapsedTimeMSec",
                            _et_derived_ticks_ms (ctx->trace, ctx->event->raw_time - initial));
  derive_file_name (ctx);
}

const EtDeriveRule _et_derived_kernel_rules[] = {
  { ET_FAM_HEADER, 0, derive_utc_offset },
  { ET_FAM_THREAD, 1, derive_thread_parent },
  { ET_FAM_IMAGE, IMAGE_LOAD, derive_image }, { ET_FAM_IMAGE, IMAGE_UNLOAD, derive_image },
  { ET_FAM_IMAGE, IMAGE_DC_START, derive_image }, { ET_FAM_IMAGE, IMAGE_DC_STOP, derive_image },
  { ET_FAM_KTC_IMAGE_ID, 0, derive_build_time }, { ET_FAM_KTC_IMAGE_ID, 64, derive_build_time },
  { ET_FAM_PERFINFO, 46, derive_sample },
  { ET_FAM_DISK, DISK_READ, derive_disk_io }, { ET_FAM_DISK, DISK_WRITE, derive_disk_io },
  { ET_FAM_DISK, DISK_FLUSH, derive_flush },
  { ET_FAM_MEMORY, 32, derive_hard_fault },
  { ET_FAM_KERNEL_FILE, 12, derive_kernel_file_create },
  /* FileIO Cleanup, Close, Read, Write, SetInfo, Delete, Rename, Flush,
   * QueryInfo, FSControl; DirEnum, DirNotify. */
  { ET_FAM_FILE, 65, derive_file_io }, { ET_FAM_FILE, 66, derive_file_io },
  { ET_FAM_FILE, 67, derive_file_io }, { ET_FAM_FILE, 68, derive_file_io },
  { ET_FAM_FILE, 69, derive_file_io }, { ET_FAM_FILE, 70, derive_file_io },
  { ET_FAM_FILE, 71, derive_file_io }, { ET_FAM_FILE, 73, derive_file_io },
  { ET_FAM_FILE, 74, derive_file_io }, { ET_FAM_FILE, 75, derive_file_io },
  { ET_FAM_FILE, 72, derive_directory }, { ET_FAM_FILE, 77, derive_directory },
};
const guint _et_derived_kernel_n_rules = G_N_ELEMENTS (_et_derived_kernel_rules);

void
_et_derived_kernel_clear (EtDerived *state)
{
  g_clear_pointer (&state->file_names, _et_history_free);
  g_clear_pointer (&state->drives, g_array_unref);
  g_clear_pointer (&state->disk_ends, g_hash_table_unref);
}
