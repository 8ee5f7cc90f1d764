/* et-symbols.h — names of code addresses from the trace itself (no PDBs),
 * as PerfView names them.
 *
 *   method events  (pid, [start, start+size), [from, to)) ─┐
 *   module events  (pid, ModuleID) → IL file name         ─┼─► et_symbols_name
 *   image events   (pid, [base, base+size), [from, to))   ─┘   (pid, address, time)
 *
 * A managed frame is `Module!Namespace.Name(argument types)`: the module is
 * its IL file's name without directory and extension, the arguments are
 * the method signature from its first '(' (TraceLog.GetFullName). A frame
 * in a native or kernel image (kernel images are those of process 0 and
 * serve every process) is `image.dll+0xOFFSET`; what nothing covers is
 * `?!0xADDRESS`. Times are ns from the trace's start; a method loaded
 * before the trace (rundown only) lives from its start, one unloaded after
 * it to its end, so code loaded at an address another method left is told
 * apart by time.
 *
 * Filled by one thread, then et_symbols_finish; read by any after.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtSymbols EtSymbols;

typedef enum
{
  ET_SYMBOL_NONE,      /* ?!0xADDRESS */
  ET_SYMBOL_MANAGED,   /* Module!Namespace.Name(args) */
  ET_SYMBOL_IMAGE,     /* image.dll+0xOFFSET */
} EtSymbolKind;

typedef enum
{
  ET_METHOD_LOAD,      /* loaded during the trace: lives from then */
  ET_METHOD_UNLOAD,    /* unloaded: lives until then */
  ET_METHOD_RUNDOWN,   /* listed by a rundown: alive then */
} EtMethodEvent;

typedef struct
{
  EtSymbolKind kind;
  guint64      start;   /* of the method or image that covers the address */
  guint64      size;
  guint32      method;  /* ET_SYMBOL_MANAGED: its index (et_symbols_method_name) */
} EtSymbolHit;

EtSymbols   *et_symbols_new          (void);
void         et_symbols_free         (EtSymbols    *symbols);

/* A method event (the runtime's MethodLoadVerbose, MethodUnloadVerbose,
 * the rundown's MethodDCStart/DCStopVerbose) at @ns; @offset is its file
 * offset, for damage. @names: its MethodNamespace, MethodName and
 * MethodSignature as the payload holds them (UTF-16LE, each NUL-terminated,
 * @names_len bytes in all), kept by the caller for the symbols' life:
 * a method is named only when a frame asks. */
void         et_symbols_add_method   (EtSymbols    *symbols,
                                      EtMethodEvent what,
                                      guint32       pid,
                                      gint64        ns,
                                      guint64       offset,
                                      guint64       method_id,
                                      guint64       module_id,
                                      guint64       start,
                                      guint32       size,
                                      const guint8 *names,
                                      gsize         names_len);
/* ModuleLoad/Unload, ModuleDCStart/DCStop: the module's IL and native
 * paths. A method of a module no event names is `ManagedModule!…`. */
void         et_symbols_add_module   (EtSymbols    *symbols,
                                      guint32       pid,
                                      guint64       module_id,
                                      const char   *il_path,
                                      const char   *native_path);
/* Image/Load, DCStart (@unload FALSE) and Unload, DCStop (TRUE). */
void         et_symbols_add_image    (EtSymbols    *symbols,
                                      guint32       pid,
                                      gint64        ns,
                                      guint64       base,
                                      guint64       size,
                                      const char   *file_name,
                                      gboolean      unload);

/* Sorts what was added; method ranges that overlap another's at the same
 * time are damage, told to @damage with the later one's offset. */
typedef void (*EtSymbolsDamageFunc) (guint64 offset, const char *what, gpointer data);
void         et_symbols_finish       (EtSymbols          *symbols,
                                      EtSymbolsDamageFunc damage,
                                      gpointer            data);

/* What covers @address of process @pid at @ns (ET_SYMBOLS_ANY_TIME: the
 * range covering it at any time, for an address et_symbols_ambiguous says
 * one range at most covers). */
#define ET_SYMBOLS_ANY_TIME G_MININT64
EtSymbolHit  et_symbols_lookup       (const EtSymbols *symbols,
                                      guint32          pid,
                                      guint64          address,
                                      gint64           ns);
/* Appends the frame's name to @out. */
void         et_symbols_append_name  (const EtSymbols   *symbols,
                                      const EtSymbolHit *hit,
                                      guint64            address,
                                      GString           *out);
/* Whether any address of @pid is covered by more than one range over
 * time (its name then depends on when it ran). */
gboolean     et_symbols_ambiguous    (const EtSymbols *symbols,
                                      guint32          pid,
                                      guint64          address);
guint        et_symbols_n_methods    (const EtSymbols *symbols);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtSymbols, et_symbols_free)

G_END_DECLS
