/* et-stack-records.h — which records the stacks need, and reading the
 * ones that name code: the runtime's method and module events and the
 * kernel's image events, read at their fixed places (no schema needed,
 * so a trace whose runtime provider is off still names its frames).
 *
 *   MethodLoadVerbose (runtime 143), MethodUnloadVerbose (144),
 *   MethodDCStart/DCStopVerboseV2 (139, 140), rundown MethodDCStart/
 *   DCStopVerbose (143, 144)                          → et_symbols_add_method
 *   ModuleLoad/Unload/DCStartV2/DCStopV2 (152, 153, 149, 150), rundown
 *   ModuleDCStart/DCStop (153, 154)                   → et_symbols_add_module
 *   Image/Load, Unload, DCStart, DCStop (kernel)      → et_symbols_add_image
 */
#pragma once

#include "et-etl-reader.h"
#include "et-symbols.h"

G_BEGIN_DECLS

typedef enum
{
  ET_STACK_RECORD_NONE,
  ET_STACK_RECORD_METHOD,
  ET_STACK_RECORD_MODULE,
  ET_STACK_RECORD_IMAGE,
} EtStackRecordKind;

EtStackRecordKind et_stack_record_kind   (const EtRecord *record);
/* Whether an EVENT_HEADER record of provider @guid can be anything but
 * ET_STACK_RECORD_NONE (the runtime's providers, the Image class). */
gboolean          et_stack_records_read_provider (const EtGuid *guid);
/* Reads a METHOD, MODULE or IMAGE record at @ns (its file offset
 * @offset) into @symbols; FALSE when its payload is too short (damage). */
gboolean          et_stack_record_symbol (EtSymbols      *symbols,
                                          const EtRecord *record,
                                          gint64          ns,
                                          guint64         offset);

G_END_DECLS
