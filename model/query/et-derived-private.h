/* et-derived-private.h — what et-derived.c (the mechanism and the
 * runtime's values) and et-derived-kernel.c (the kernel's) share.
 *
 * A derived field is a value computed from the payload, the record's
 * header or earlier events of the trace (TraceEvent's TotalHeapSize, a
 * disk read's FileName...). Rules are a table: (provider family, event id)
 * → a function that appends fields. What needs earlier events is an index
 * built once, on the first event that asks, by one walk over the events of
 * the few types it reads (never while loading).
 */
#pragma once

#include "et-trace-private.h"
#include "et-derived.h"

G_BEGIN_DECLS

/* The providers derived values know, by GUID (et-derived.c). */
typedef enum
{
  ET_FAM_NONE,
  ET_FAM_CLR,            /* Microsoft-Windows-DotNETRuntime */
  ET_FAM_CLR_RUNDOWN,    /* its Rundown provider */
  ET_FAM_HEADER,         /* the kernel's EventTrace class */
  ET_FAM_THREAD,
  ET_FAM_IMAGE,
  ET_FAM_PERFINFO,
  ET_FAM_DISK,
  ET_FAM_FILE,
  ET_FAM_MEMORY,
  ET_FAM_CONFIG,         /* SystemConfig */
  ET_FAM_KTC_IMAGE_ID,   /* KernelTraceControl's ImageID */
  ET_FAM_KTC_SYSCONFIG,  /* KernelTraceControl's SysConfig */
  ET_FAM_KERNEL_FILE,    /* Microsoft-Windows-Kernel-File (schema: the trace's event metadata) */
  ET_N_FAMS
} EtFamily;

/* Values by key and time: each key's entries in event order, the one in
 * force at an event is the last at or before it. Values are numbers, or
 * offsets of NUL-terminated text in `text`. */
typedef struct
{
  GHashTable *keys;      /* EtHistKey* → GArray of EtHistEntry */
  GString    *text;
} EtHistory;

typedef struct
{
  guint64 index;         /* the event that set it (0 for an end rundown's) */
  guint64 value;
} EtHistEntry;

EtHistory  *_et_history_new        (void);
void        _et_history_free       (EtHistory  *h);
/* @rundown: the end-of-trace rundown names what was open all along, so
 * a key it names first counts from the start of the trace. */
void        _et_history_add        (EtHistory  *h,
                                    guint64     a,
                                    guint64     b,
                                    guint64     index,
                                    guint64     value,
                                    gboolean    rundown);
void        _et_history_add_text   (EtHistory  *h,
                                    guint64     a,
                                    guint64     b,
                                    guint64     index,
                                    const char *text,
                                    gsize       len,
                                    gboolean    rundown);
/* The value in force at event @index; with @or_next, else the first one
 * set after it. */
gboolean    _et_history_at         (const EtHistory *h,
                                    guint64     a,
                                    guint64     b,
                                    guint64     index,
                                    gboolean    or_next,
                                    guint64    *value);

/* A kernel path prefix and what it becomes ("\Device\HarddiskVolume2\" →
 * "C:\"), from the trace's own volume-mapping events. */
typedef struct
{
  char *kernel;
  char *dos;
} EtDriveMapping;

/* Per-trace state; the indexes are NULL until built (each under its
 * once). */
struct _EtDerived
{
  guint8    *family;          /* per provider index */
  guint      n_providers;

  gsize      gc_once;
  EtHistory *gc_depths;       /* (pid) → the Depth of its latest GC/Start */
  gsize      types_once;
  EtHistory *type_names;      /* (TypeID, pid) → BulkType's name */

  gsize      files_once;
  EtHistory *file_names;      /* (FileKey or FileObject) → kernel path */
  gsize      drives_once;
  GArray    *drives;          /* EtDriveMapping, in event order */
  gsize      disks_once;
  GHashTable *disk_ends;      /* DiskNumber → GArray of gint64 raw completion times */
};

typedef struct
{
  EtTrace        *trace;
  EtDerived      *state;
  guint64         index;
  const EtEvent  *event;
  const EtRecord *record;
  EtFields       *fields;
} EtDeriveCtx;

typedef void (*EtDeriveFunc) (EtDeriveCtx *ctx);

typedef struct
{
  guint8       family;        /* EtFamily */
  guint16      id;            /* event id (a kernel event's type) */
  EtDeriveFunc derive;
} EtDeriveRule;

extern const EtDeriveRule _et_derived_kernel_rules[];
extern const guint        _et_derived_kernel_n_rules;

/* Appending: each new field is marked derived and declared with the
 * manifest in-type @in_type. */
guint       _et_derived_add_uint   (EtDeriveCtx *ctx,
                                    const char  *name,
                                    guint8       in_type,
                                    guint64      value);
guint       _et_derived_add_int    (EtDeriveCtx *ctx,
                                    const char  *name,
                                    guint8       in_type,
                                    gint64       value);
guint       _et_derived_add_double (EtDeriveCtx *ctx,
                                    const char  *name,
                                    double       value);
guint       _et_derived_add_bool   (EtDeriveCtx *ctx,
                                    const char  *name,
                                    gboolean     value);
guint       _et_derived_add_text   (EtDeriveCtx *ctx,
                                    const char  *name,
                                    const char  *text);
/* A time_t-style count of seconds since 1970 as a FILETIME. */
guint       _et_derived_add_unix_time (EtDeriveCtx *ctx,
                                       const char  *name,
                                       guint32      seconds);

/* The payload's integer field @name (INT, UINT or BOOL). */
gboolean    _et_derived_payload_int  (const EtFields *fields,
                                      const char     *name,
                                      gint64         *value);
/* The payload's text field @name (NUL-terminated in the text buffer), or NULL. */
const char *_et_derived_payload_text (const EtFields *fields,
                                      const char     *name);

/* Walks the events of @family whose id is one of @ids, in time order,
 * decoding each payload (no derived fields) for @collect. */
typedef void (*EtDeriveCollect) (gpointer        data,
                                 guint64         index,
                                 const EtEvent  *event,
                                 const EtRecord *record,
                                 const EtFields *fields);

void        _et_derived_walk       (EtTrace        *trace,
                                    EtDerived      *state,
                                    EtFamily        family,
                                    const guint16  *ids,
                                    guint           n_ids,
                                    EtDeriveCollect collect,
                                    gpointer        data);

/* Builds the index behind @once with @build, once per trace. */
void        _et_derived_once       (EtDeriveCtx    *ctx,
                                    gsize          *once,
                                    void          (*build) (EtDeriveCtx *ctx));

/* Milliseconds in @ticks of the trace's clock. */
double      _et_derived_ticks_ms   (EtTrace        *trace,
                                    gint64          ticks);

void        _et_derived_kernel_clear (EtDerived    *state);

G_END_DECLS
