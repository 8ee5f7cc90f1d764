/* et-builtin-clr-private.c — the runtime's Private provider
 * (Microsoft-Windows-DotNETRuntimePrivate, 763fd754-…).
 *
 * What the runtime logs of its inner steps: the GC's decisions, marks and
 * background phases, the .NET Framework's start-up phases, the binder's
 * phases and messages, security transparency, fail-fast, GC handles,
 * multicore JIT, the loader heap and WinRT/COM type use. Every event of the
 * runtime's public manifest for this provider, each version; names as
 * PerfView shows them (task/opcode, where PerfView's opcode names differ
 * from the manifest's symbols, PerfView's: Startup/EEStartupStop).
 */
#include "et-builtin-private.h"
#include "et-builtin-clr-layouts.h"

#define CRITICAL 1

enum
{
  P_GC = 1, P_FAIL_FAST = 2, P_STARTUP = 9, P_BINDING = 10, P_STACK = 11, P_EVIDENCE = 12,
  P_NGEN_BINDER = 13, P_TRANSPARENCY = 14, P_LOADER_HEAP = 16, P_MULTICORE_JIT = 17,
  P_PERF_TRACK = 20, P_METHOD = 21, P_DYNAMIC_TYPES = 22,
};

static const EtBuiltinTask private_tasks[] = {
  { P_GC, "GC" }, { P_FAIL_FAST, "FailFast" }, { P_STARTUP, "Startup" },
  { P_BINDING, "Binding" }, { P_STACK, "ClrStack" }, { P_EVIDENCE, "EvidenceGeneration" },
  { P_NGEN_BINDER, "NgenBinder" }, { P_TRANSPARENCY, "Transparency" },
  { P_LOADER_HEAP, "LoaderHeap" }, { P_MULTICORE_JIT, "ClrMulticoreJit" },
  { P_PERF_TRACK, "ClrPerfTrack" }, { P_DYNAMIC_TYPES, "ClrDynamicTypeUsage" },
  { P_METHOD, "CLRMethodPrivate" },
};

static const EtBuiltinOpcode private_opcodes[] = {
  { P_GC, 132, "Decision" }, { P_GC, 14, "Settings" }, { P_GC, 16, "Optimized" },
  { P_GC, 44, "PinPlugAtGCTime" },
  { P_GC, 17, "PerHeapHistory" }, { P_GC, 18, "GlobalHeapHistory" },
  { P_GC, 19, "FullNotify" }, { P_GC, 20, "Join" }, { P_GC, 21, "MarkStackRoots" },
  { P_GC, 22, "MarkFinalizeQueueRoots" }, { P_GC, 23, "MarkHandles" },
  { P_GC, 24, "MarkCards" }, { P_GC, 25, "BGCStart" }, { P_GC, 26, "BGC1stNonCondStop" },
  { P_GC, 27, "BGC1stConStop" }, { P_GC, 28, "BGC2ndNonConStart" },
  { P_GC, 29, "BGC2ndNonConStop" }, { P_GC, 30, "BGC2ndConStart" },
  { P_GC, 31, "BGC2ndConStop" }, { P_GC, 32, "BGCPlanStop" }, { P_GC, 33, "BGCSweepStop" },
  { P_GC, 34, "BGCDrainMark" }, { P_GC, 35, "BGCRevisit" }, { P_GC, 36, "BGCOverflow" },
  { P_GC, 37, "BGCAllocWaitStart" }, { P_GC, 38, "BGCAllocWaitStop" },
  { P_GC, 39, "FinalizeObject" }, { P_GC, 40, "CCWRefCountChangeAnsi" },
  { P_GC, 42, "SetGCHandle" }, { P_GC, 43, "DestroyGCHandle" }, { P_GC, 45, "BGC1stSweepEnd" },
  { P_METHOD, 10, "JittedMethodRichDebugInfo" },
  { P_FAIL_FAST, 52, "FailFast" },
  /* Start-up phases: each a …Start and …Stop opcode. */
  { P_STARTUP, 128, "EEStartupStart" }, { P_STARTUP, 129, "EEStartupStop" },
  { P_STARTUP, 130, "EEConfigSetupStart" }, { P_STARTUP, 131, "EEConfigSetupStop" },
  { P_STARTUP, 132, "LoadSystemBasesStart" }, { P_STARTUP, 133, "LoadSystemBasesStop" },
  { P_STARTUP, 134, "ExecExeStart" }, { P_STARTUP, 135, "ExecExeStop" },
  { P_STARTUP, 136, "MainStart" }, { P_STARTUP, 137, "MainStop" },
  { P_STARTUP, 10, "ApplyPolicyStart" }, { P_STARTUP, 11, "ApplyPolicyStop" },
  { P_STARTUP, 12, "LdLibShFolderStart" }, { P_STARTUP, 13, "LdLibShFolderStop" },
  { P_STARTUP, 14, "PrestubWorkerStart" }, { P_STARTUP, 15, "PrestubWorkerStop" },
  { P_STARTUP, 16, "GetInstallationStart" }, { P_STARTUP, 17, "GetInstallationStop" },
  { P_STARTUP, 18, "OpenHModuleStart" }, { P_STARTUP, 19, "OpenHModuleStop" },
  { P_STARTUP, 20, "ExplicitBindStart" }, { P_STARTUP, 21, "ExplicitBindStop" },
  { P_STARTUP, 22, "ParseXmlStart" }, { P_STARTUP, 23, "ParseXmlStop" },
  { P_STARTUP, 24, "InitDefaultDomainStart" }, { P_STARTUP, 25, "InitDefaultDomainStop" },
  { P_STARTUP, 26, "InitSecurityStart" }, { P_STARTUP, 27, "InitSecurityStop" },
  { P_STARTUP, 28, "AllowBindingRedirsStart" }, { P_STARTUP, 29, "AllowBindingRedirsStop" },
  { P_STARTUP, 30, "EEConfigSyncStart" }, { P_STARTUP, 31, "EEConfigSyncStop" },
  { P_STARTUP, 32, "BindingStart" }, { P_STARTUP, 33, "BindingStop" },
  { P_STARTUP, 34, "LoaderCatchCallStart" }, { P_STARTUP, 35, "LoaderCatchCallStop" },
  { P_STARTUP, 36, "FusionInitStart" }, { P_STARTUP, 37, "FusionInitStop" },
  { P_STARTUP, 38, "FusionAppCtxStart" }, { P_STARTUP, 39, "FusionAppCtxStop" },
  { P_STARTUP, 40, "Fusion2EEStart" }, { P_STARTUP, 41, "Fusion2EEStop" },
  { P_STARTUP, 42, "SecurityCatchCallStart" }, { P_STARTUP, 43, "SecurityCatchCallStop" },
  { P_BINDING, 51, "PolicyPhaseStart" }, { P_BINDING, 52, "PolicyPhaseStop" },
  { P_BINDING, 53, "NgenPhaseStart" }, { P_BINDING, 54, "NgenPhaseStop" },
  { P_BINDING, 55, "LoopupAndProbingPhaseStart" },
  { P_BINDING, 56, "LookupAndProbingPhaseStop" },
  { P_BINDING, 57, "LoaderPhaseStart" }, { P_BINDING, 58, "LoaderPhaseStop" },
  { P_BINDING, 59, "PhaseStart" }, { P_BINDING, 60, "PhaseStop" },
  { P_BINDING, 61, "DownloadPhaseStart" }, { P_BINDING, 62, "DownloadPhaseStop" },
  { P_BINDING, 63, "LoaderAssemblyInitPhaseStart" },
  { P_BINDING, 64, "LoaderAssemblyInitPhaseStop" },
  { P_BINDING, 65, "LoaderMappingPhaseStart" }, { P_BINDING, 66, "LoaderMappingPhaseStop" },
  { P_BINDING, 67, "LoaderDeliverEventPhaseStart" },
  { P_BINDING, 68, "LoaderDeliverEventsPhaseStop" },
  { P_BINDING, 70, "FusionMessage" }, { P_BINDING, 71, "FusionErrorCode" },
  { P_STACK, 82, "Walk" }, { P_EVIDENCE, 10, "EvidenceGenerated" },
  { P_NGEN_BINDER, 69, "NgenBind" },
  { P_TRANSPARENCY, 83, "ModuleTransparencyComputationStart" },
  { P_TRANSPARENCY, 84, "ModuleTransparencyComputationStop" },
  { P_TRANSPARENCY, 85, "TypeTransparencyComputationStart" },
  { P_TRANSPARENCY, 86, "TypeTransparencyComputationStop" },
  { P_TRANSPARENCY, 87, "MethodTransparencyComputationStart" },
  { P_TRANSPARENCY, 88, "MethodTransparencyComputationStop" },
  { P_TRANSPARENCY, 89, "FieldTransparencyComputationStart" },
  { P_TRANSPARENCY, 90, "FieldTransparencyComputationStop" },
  { P_TRANSPARENCY, 91, "TokenTransparencyComputationStart" },
  { P_TRANSPARENCY, 92, "TokenTransparencyComputationStop" },
  { P_LOADER_HEAP, 97, "AllocRequest" },
  { P_MULTICORE_JIT, 10, "Common" }, { P_MULTICORE_JIT, 11, "MethodCodeReturned" },
  { P_PERF_TRACK, 10, "ModuleRangeLoad" },
  { P_DYNAMIC_TYPES, 11, "IInspectableRuntimeClassName" }, { P_DYNAMIC_TYPES, 12, "WinRTUnbox" },
  { P_DYNAMIC_TYPES, 13, "CreateRCW" }, { P_DYNAMIC_TYPES, 14, "RCWVariance" },
  { P_DYNAMIC_TYPES, 15, "RCWIEnumerableCasting" }, { P_DYNAMIC_TYPES, 16, "CreateCCW" },
  { P_DYNAMIC_TYPES, 17, "CCWVariance" },
  { P_DYNAMIC_TYPES, 18, "ObjectVariantMarshallingToNative" },
  { P_DYNAMIC_TYPES, 19, "GetTypeFromGUID" }, { P_DYNAMIC_TYPES, 20, "GetTypeFromProgID" },
  { P_DYNAMIC_TYPES, 21, "ConvertToCallbackEtw" },
  { P_DYNAMIC_TYPES, 22, "BeginCreateManagedReference" },
  { P_DYNAMIC_TYPES, 23, "EndCreateManagedReference" },
  { P_DYNAMIC_TYPES, 24, "ObjectVariantMarshallingToManaged" },
};

#define BINDING "AppDomainID:u32 LoadContextID:u32 FromLoaderCache:u32 DynamicLoad:u32 " \
  "AssemblyCodebase:str AssemblyName:str" CLR
/* The binder's phases: ids 159–176 are opcodes 51–68 in order. */
#define PHASE(id) { id, 0, INFO, P_BINDING, (id) - 108, BINDING }
/* The background GC's phases: ids 11–19 are opcodes 25–33 in order. */
#define BGC_PHASE(id) { id, 0, INFO, P_GC, (id) + 14, ONLY_CLR }
#define OPTIMIZED "DesiredAllocation:u64 NewAllocation:u64 GenerationNumber:u32"
#define PRIVATE_MARK(id, op) \
  { id, 0, INFO, P_GC, op, "HeapNum:u32" }, { id, 1, INFO, P_GC, op, GC_MARK }
/* Start-up phases (.NET Framework): version 0 carries nothing, version 1
 * the runtime instance. Ids 80–89 are opcodes 128–137, ids 90–123 are
 * opcodes 10–43. */
#define STARTUP(id, op) \
  { id, 0, INFO, P_STARTUP, op }, { id, 1, INFO, P_STARTUP, op, ONLY_CLR }
#define STARTUP_HIGH(id) STARTUP (id, (id) + 48)
#define STARTUP_LOW(id) STARTUP (id, (id) - 80)
#define TRANSPARENCY_START(subject) subject ":str Module:str AppDomainID:u32" CLR
#define TRANSPARENCY_STOP(subject) subject ":str Module:str AppDomainID:u32 " \
  "IsCritical:bool IsTreatAsSafe:bool" CLR
/* WinRT and COM type use: one, two or three type names, or a name and a
 * number. */
#define TYPE_USE "TypeName:str" CLR
#define TYPE_USE_2 "TypeName:str SecondTypeName:str" CLR
#define TYPE_USE_VARIANCE "TypeName:str InterfaceTypeName:str VariantInterfaceTypeName:str" CLR
#define TYPE_USE_INT "TypeName:str Int1:i32" CLR

static const EtBuiltinEvent private_events[] = {
  { 1, 0, INFO, P_GC, 132, "DoCompact:bool" }, { 1, 1, INFO, P_GC, 132, "DoCompact:bool" CLR },
  { 2, 0, INFO, P_GC, 14, "SegmentSize:u64 LargeObjectSegmentSize:u64 ServerGC:bool" },
  { 2, 1, INFO, P_GC, 14, "SegmentSize:u64 LargeObjectSegmentSize:u64 ServerGC:bool" CLR },
  { 4, 1, INFO, P_GC, 17, ONLY_CLR }, { 4, 2, INFO, P_GC, 17, PER_HEAP_2 },
  { 5, 0, INFO, P_GC, 18, GLOBAL_HEAP_0 }, { 5, 1, INFO, P_GC, 18, GLOBAL_HEAP_0 CLR },
  { 3, 0, VERBOSE, P_GC, 16, OPTIMIZED }, { 3, 1, VERBOSE, P_GC, 16, OPTIMIZED CLR },
  { 6, 0, VERBOSE, P_GC, 20, GC_JOIN }, { 6, 1, VERBOSE, P_GC, 20, GC_JOIN CLR },
  PRIVATE_MARK (7, 21), PRIVATE_MARK (8, 22), PRIVATE_MARK (9, 23), PRIVATE_MARK (10, 24),
  BGC_PHASE (11), BGC_PHASE (12), BGC_PHASE (13), BGC_PHASE (14), BGC_PHASE (15),
  BGC_PHASE (16), BGC_PHASE (17), BGC_PHASE (18), BGC_PHASE (19),
  { 20, 0, INFO, P_GC, 34, "Objects:u64" CLR },
  { 21, 0, INFO, P_GC, 35, "Pages:u64 Objects:u64 IsLarge:u32" CLR },
  { 22, 0, INFO, P_GC, 36, "Min:u64 Max:u64 Objects:u64 IsLarge:u32" CLR },
  { 22, 1, INFO, P_GC, 36, "Min:u64 Max:u64 Objects:u64 IsLarge:u32" CLR " GenNumber:u32" },
  { 26, 0, INFO, P_GC, 45, "GenNumber:u32" CLR },
  { 23, 0, INFO, P_GC, 37, "Reason:u32" CLR }, { 24, 0, INFO, P_GC, 38, "Reason:u32" CLR },
  { 25, 0, INFO, P_GC, 19, "GenNumber:u32 IsAlloc:u32" },
  { 25, 1, INFO, P_GC, 19, "GenNumber:u32 IsAlloc:u32" CLR },
  STARTUP_HIGH (80), STARTUP_HIGH (81), STARTUP_HIGH (82), STARTUP_HIGH (83),
  STARTUP_HIGH (84), STARTUP_HIGH (85), STARTUP_HIGH (86), STARTUP_HIGH (87),
  STARTUP_HIGH (88), STARTUP_HIGH (89),
  STARTUP_LOW (90), STARTUP_LOW (91), STARTUP_LOW (92), STARTUP_LOW (93), STARTUP_LOW (94),
  STARTUP_LOW (95), STARTUP_LOW (96), STARTUP_LOW (97), STARTUP_LOW (98), STARTUP_LOW (99),
  STARTUP_LOW (100), STARTUP_LOW (101), STARTUP_LOW (102), STARTUP_LOW (103),
  STARTUP_LOW (104), STARTUP_LOW (105), STARTUP_LOW (106), STARTUP_LOW (107),
  STARTUP_LOW (108), STARTUP_LOW (109), STARTUP_LOW (110), STARTUP_LOW (111),
  STARTUP_LOW (112), STARTUP_LOW (113), STARTUP_LOW (114), STARTUP_LOW (115),
  STARTUP_LOW (116), STARTUP_LOW (117), STARTUP_LOW (118), STARTUP_LOW (119),
  STARTUP_LOW (120), STARTUP_LOW (121), STARTUP_LOW (122), STARTUP_LOW (123),
  { 151, 0, ALWAYS, P_STACK, 82, STACK_WALK },
  { 158, 0, INFO, P_PERF_TRACK, 10, ONLY_CLR " ModuleID:x64 RangeBegin:x32 RangeSize:x32 "
    "RangeType:u8=ModuleRangeType IBCType:u8=ModuleRangeIBCType "
    "SectionType:u16=ModuleRangeSectionType" },
  PHASE (159), PHASE (160), PHASE (161), PHASE (162), PHASE (163), PHASE (164), PHASE (165),
  PHASE (166), PHASE (167), PHASE (168), PHASE (169), PHASE (170), PHASE (171), PHASE (172),
  PHASE (173), PHASE (174), PHASE (175), PHASE (176),
  { 177, 0, INFO, P_EVIDENCE, 10, "Type:u32 AppDomain:u32 ILImage:str" CLR },
  { 178, 0, INFO, P_TRANSPARENCY, 83, "Module:str AppDomainID:u32" CLR },
  { 179, 0, INFO, P_TRANSPARENCY, 84, "Module:str AppDomainID:u32 IsAllCritical:bool "
    "IsAllTransparent:bool IsTreatAsSafe:bool IsOpportunisticallyCritical:bool "
    "SecurityRuleSet:u32" CLR },
  { 180, 0, INFO, P_TRANSPARENCY, 85, TRANSPARENCY_START ("Type") },
  { 181, 0, INFO, P_TRANSPARENCY, 86, "Type:str Module:str AppDomainID:u32 "
    "IsAllCritical:bool IsAllTransparent:bool IsCritical:bool IsTreatAsSafe:bool" CLR },
  { 182, 0, INFO, P_TRANSPARENCY, 87, TRANSPARENCY_START ("Method") },
  { 183, 0, INFO, P_TRANSPARENCY, 88, TRANSPARENCY_STOP ("Method") },
  { 184, 0, INFO, P_TRANSPARENCY, 89, TRANSPARENCY_START ("Field") },
  { 185, 0, INFO, P_TRANSPARENCY, 90, TRANSPARENCY_STOP ("Field") },
  { 186, 0, INFO, P_TRANSPARENCY, 91, "Token:u32 Module:str AppDomainID:u32" CLR },
  { 187, 0, INFO, P_TRANSPARENCY, 92, "Token:u32 Module:str AppDomainID:u32 "
    "IsCritical:bool IsTreatAsSafe:bool" CLR },
  { 188, 0, INFO, P_NGEN_BINDER, 69, ONLY_CLR " BindingID:u64 ReasonCode:u32=NgenBindReason "
    "AssemblyName:str" },
  { 191, 0, CRITICAL, P_FAIL_FAST, 52, "FailFastUserMessage:str FailedEIP:ptr OSExitCode:u32 "
    "ClrExitCode:u32" CLR, "FailFast" },
  { 192, 0, VERBOSE, P_GC, 39, "TypeID:ptr ObjectID:ptr" CLR " TypeName:str" },
  { 193, 0, VERBOSE, P_GC, 40, "HandleID:ptr ObjectID:ptr COMInterfacePointer:ptr "
    "NewRefCount:u32 AppDomainID:u64 ClassName:ansi NameSpace:ansi Operation:str" CLR },
  { 194, 0, VERBOSE, P_GC, 42, "HandleID:ptr ObjectID:ptr Generation:u32 AppDomainID:u64" CLR },
  { 195, 0, VERBOSE, P_GC, 43, "HandleID:ptr" CLR },
  { 196, 0, INFO, P_BINDING, 70, ONLY_CLR " Prepend:bool Message:str" },
  { 197, 0, INFO, P_BINDING, 71, ONLY_CLR " Category:u32 ErrorCode:x32" },
  { 199, 0, VERBOSE, P_GC, 44, "PlugStart:ptr PlugEnd:ptr GapBeforeSize:ptr" CLR },
  /* .NET Core: the class names in UTF-16 (193 writes them in ANSI). */
  { 200, 0, VERBOSE, P_GC, 40, "HandleID:ptr ObjectID:ptr COMInterfacePointer:ptr "
    "NewRefCount:u32 AppDomainID:x64 ClassName:str NameSpace:str Operation:str" CLR,
    "GC/CCWRefCountChange" },
  /* .NET 7+: the JIT's rich debug info of a method, in chunks. */
  { 189, 0, INFO, P_METHOD, 10, ONLY_CLR " MethodID:x64 ReJITID:x64 ILVersionID:u64 "
    "ChunkIndex:u32 DataSize:u32 Data:bin(DataSize)" },
  { 201, 0, INFO, P_MULTICORE_JIT, 10, ONLY_CLR " String1:str String2:str Int1:i32 Int2:i32 "
    "Int3:i32" },
  { 202, 0, INFO, P_MULTICORE_JIT, 11, ONLY_CLR " ModuleID:u64 MethodID:u64" },
  { 310, 0, VERBOSE, P_LOADER_HEAP, 97, "LoaderHeapPtr:ptr MemoryAddress:ptr RequestSize:u32 "
    "Unused1:u32 Unused2:u64" CLR },
  { 400, 0, INFO, P_DYNAMIC_TYPES, 11, TYPE_USE },
  { 401, 0, INFO, P_DYNAMIC_TYPES, 12, TYPE_USE_2 },
  { 402, 0, INFO, P_DYNAMIC_TYPES, 13, TYPE_USE },
  { 403, 0, INFO, P_DYNAMIC_TYPES, 14, TYPE_USE_VARIANCE },
  { 404, 0, INFO, P_DYNAMIC_TYPES, 15, TYPE_USE_2 },
  { 405, 0, INFO, P_DYNAMIC_TYPES, 16, TYPE_USE },
  { 406, 0, INFO, P_DYNAMIC_TYPES, 17, TYPE_USE_VARIANCE },
  { 407, 0, INFO, P_DYNAMIC_TYPES, 18, TYPE_USE_INT },
  { 408, 0, INFO, P_DYNAMIC_TYPES, 19, TYPE_USE_2 },
  { 409, 0, INFO, P_DYNAMIC_TYPES, 20, TYPE_USE_2 },
  { 410, 0, INFO, P_DYNAMIC_TYPES, 21, TYPE_USE_2 },
  { 411, 0, INFO, P_DYNAMIC_TYPES, 22, ONLY_CLR },
  { 412, 0, INFO, P_DYNAMIC_TYPES, 23, ONLY_CLR },
  { 413, 0, INFO, P_DYNAMIC_TYPES, 24, TYPE_USE_INT },
};

const EtBuiltinProvider _et_builtin_clr_private = {
  "763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate",
  private_tasks, G_N_ELEMENTS (private_tasks), private_opcodes, G_N_ELEMENTS (private_opcodes),
  _et_builtin_clr_maps, &_et_builtin_clr_n_maps, private_events, G_N_ELEMENTS (private_events),
};
