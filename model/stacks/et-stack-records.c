/* et-stack-records.c — see et-stack-records.h. Layouts: the runtime's
 * manifest (ClrEtwAll.man, MethodLoadVerbose and ModuleLoad templates)
 * and the kernel's Image_Load MOF class (versions 2 and 3 agree up to the
 * file name). */
#include "et-stack-records.h"
#include "et-bytes.h"
#include "et-fields.h"
#include "et-guid.h"

#define RUNTIME_GUID "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define RUNDOWN_GUID "a669021c-c450-4609-a035-5af59af4df18"
#define IMAGE_GUID   "2cb15d1d-5fc1-11d2-abe1-00a0c911f518"
#define IMAGE_GROUP  0x14

typedef struct
{
  EtGuid runtime;
  EtGuid rundown;
  EtGuid image;
} Guids;

static const Guids *
guids (void)
{
  static Guids g;
  static gsize parsed;

  if (g_once_init_enter (&parsed))
    {
      et_guid_parse (RUNTIME_GUID, &g.runtime);
      et_guid_parse (RUNDOWN_GUID, &g.rundown);
      et_guid_parse (IMAGE_GUID, &g.image);
      g_once_init_leave (&parsed, 1);
    }
  return &g;
}

gboolean
et_stack_records_read_provider (const EtGuid *guid)
{
  const Guids *g = guids ();

  return et_guid_equal (guid, &g->runtime) || et_guid_equal (guid, &g->rundown)
         || et_guid_equal (guid, &g->image);
}

/* The image event type of a kernel record (Load 10, Unload 2, DCStart 3,
 * DCStop 4), or 0. */
static guint
image_type (const EtRecord *record)
{
  guint type;

  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    {
      if (record->hook == 0x030A)
        return 10;
      if ((record->hook >> 8) != IMAGE_GROUP)
        return 0;
      type = record->hook & 0xFF;
    }
  else if (et_guid_equal (&record->guid, &guids ()->image))
    type = record->opcode;
  else
    return 0;
  return type == 10 || (type >= 2 && type <= 4) ? type : 0;
}

/* For the runtime's providers: whether @id of @runtime (else rundown) is a
 * method event, and which. */
static gboolean
method_event (gboolean runtime, guint16 id, EtMethodEvent *what)
{
  if (runtime && (id == 143 || id == 144 || id == 139 || id == 140))
    *what = id == 143 ? ET_METHOD_LOAD : id == 144 ? ET_METHOD_UNLOAD : ET_METHOD_RUNDOWN;
  else if (!runtime && (id == 143 || id == 144))
    *what = ET_METHOD_RUNDOWN;
  else
    return FALSE;
  return TRUE;
}

static gboolean
module_event (gboolean runtime, guint16 id)
{
  return runtime ? id == 152 || id == 153 || id == 149 || id == 150 : id == 153 || id == 154;
}

EtStackRecordKind
et_stack_record_kind (const EtRecord *record)
{
  gboolean runtime;
  EtMethodEvent what;

  if (record->klass != ET_RECORD_EVENT)
    return image_type (record) != 0 ? ET_STACK_RECORD_IMAGE : ET_STACK_RECORD_NONE;
  runtime = et_guid_equal (&record->guid, &guids ()->runtime);
  if (!runtime && !et_guid_equal (&record->guid, &guids ()->rundown))
    return image_type (record) != 0 ? ET_STACK_RECORD_IMAGE : ET_STACK_RECORD_NONE;
  if (method_event (runtime, record->id, &what))
    return ET_STACK_RECORD_METHOD;
  return module_event (runtime, record->id) ? ET_STACK_RECORD_MODULE : ET_STACK_RECORD_NONE;
}

/* A NUL-terminated UTF-16 string at the reader (transfer full); NULL and
 * a failed reader when it has no terminator. */
static char *
read_utf16z (EtReader *r)
{
  const guint8 *p = r->data + MIN (r->pos, r->len);
  gsize n = 0, avail = et_reader_remaining (r) / 2;
  GString *out;

  while (n < avail && et_read_u16 (p + 2 * n) != 0)
    n++;
  if (n == avail)
    {
      r->failed = TRUE;
      return NULL;
    }
  out = g_string_sized_new (n + 1);
  et_utf16_append (out, p, n);
  r->pos += 2 * (n + 1);
  return g_string_free (out, FALSE);
}

/* Moves the reader past a NUL-terminated UTF-16 string (fails without one). */
static void
skip_utf16z (EtReader *r)
{
  while (!r->failed && et_reader_u16 (r) != 0)
    ;
}

static gboolean
read_method (EtSymbols *symbols, const EtRecord *record, gint64 ns, guint64 offset)
{
  gboolean runtime = et_guid_equal (&record->guid, &guids ()->runtime);
  gsize names;
  guint64 method_id, module_id, start;
  guint32 size;
  EtMethodEvent what = ET_METHOD_RUNDOWN;
  EtReader r;

  method_event (runtime, record->id, &what);
  et_reader_init (&r, record->payload, record->payload_len);
  method_id = et_reader_u64 (&r);
  module_id = et_reader_u64 (&r);
  start = et_reader_u64 (&r);
  size = et_reader_u32 (&r);
  et_reader_u32 (&r);                          /* MethodToken */
  et_reader_u32 (&r);                          /* MethodFlags */
  names = r.pos;
  for (guint i = 0; i < 3; i++)                /* MethodNamespace, MethodName, MethodSignature */
    skip_utf16z (&r);
  if (r.failed)
    return FALSE;
  /* (the payload lives as long as the trace that owns the symbols) */
  et_symbols_add_method (symbols, what, record->pid, ns, offset, method_id, module_id, start,
                         size, record->payload + names, r.pos - names);
  return TRUE;
}

static gboolean
read_module (EtSymbols *symbols, const EtRecord *record)
{
  g_autofree char *il_path = NULL, *native_path = NULL;
  guint64 module_id;
  EtReader r;

  et_reader_init (&r, record->payload, record->payload_len);
  module_id = et_reader_u64 (&r);
  et_reader_u64 (&r);                          /* AssemblyID */
  et_reader_u32 (&r);                          /* ModuleFlags */
  et_reader_u32 (&r);                          /* Reserved1 */
  il_path = read_utf16z (&r);
  native_path = r.failed ? NULL : read_utf16z (&r);
  if (r.failed)
    return FALSE;
  et_symbols_add_module (symbols, record->pid, module_id, il_path, native_path);
  return TRUE;
}

/* Image_Load (v2, v3): ImageBase, ImageSize, ProcessId, CheckSum,
 * TimeDateStamp, 4 bytes, DefaultBase, 16 bytes, FileName. */
static gboolean
read_image (EtSymbols *symbols, const EtRecord *record, gint64 ns)
{
  guint ps = record->pointer_size, type = image_type (record);
  g_autofree char *file_name = NULL;
  guint64 base, size;
  guint32 pid;
  EtReader r;

  if (record->version < 2)
    return TRUE;                               /* (no file name in older layouts) */
  et_reader_init (&r, record->payload, record->payload_len);
  base = et_reader_pointer (&r, ps);
  size = et_reader_pointer (&r, ps);
  pid = et_reader_u32 (&r);
  et_reader_take (&r, 12);
  et_reader_pointer (&r, ps);
  et_reader_take (&r, 16);
  file_name = read_utf16z (&r);
  if (r.failed)
    return FALSE;
  /* A rundown's DCStart lists images loaded before the trace; DCStop
   * those still loaded at its end, as an unload would. */
  et_symbols_add_image (symbols, pid, type == 3 ? G_MININT64 : ns, base, size, file_name,
                        type == 2 || type == 4);
  return TRUE;
}

gboolean
et_stack_record_symbol (EtSymbols *symbols, const EtRecord *record, gint64 ns, guint64 offset)
{
  switch (et_stack_record_kind (record))
    {
    case ET_STACK_RECORD_METHOD:
      return read_method (symbols, record, ns, offset);
    case ET_STACK_RECORD_MODULE:
      return read_module (symbols, record);
    case ET_STACK_RECORD_IMAGE:
      return read_image (symbols, record, ns);
    case ET_STACK_RECORD_NONE:
    default:
      return TRUE;
    }
}
