/* et-builtin-clr-rundown.c — the runtime's Rundown and Private providers.
 *
 * Microsoft-Windows-DotNETRuntimeRundown lists, when a session ends (or
 * starts), the methods, modules, assemblies and domains already loaded:
 * the runtime's own layouts under other ids and opcodes. The Private
 * provider carries the GC's and the binder's inner steps; only the events
 * whose layout is documented are here. Names as PerfView shows them.
 */
#include "et-builtin-private.h"
#include "et-builtin-clr-layouts.h"

/* ────────────────────────────── Rundown ────────────────────────────── */

enum { R_METHOD = 1, R_LOADER = 2, R_STACK = 11, R_RUNTIME = 19, R_PERF_TRACK = 20,
       R_CHECKPOINT = 35 };

static const EtBuiltinTask rundown_tasks[] = {
  { R_METHOD, "Method" }, { R_LOADER, "Loader" }, { R_STACK, "ClrStack" },
  { R_RUNTIME, "Runtime" }, { R_PERF_TRACK, "ClrPerfTrack" },
  { R_CHECKPOINT, "ExecutionCheckpointRundown" },
};

static const EtBuiltinOpcode rundown_opcodes[] = {
  { R_CHECKPOINT, 11, "ExecutionCheckpointDCEnd" },
  { R_METHOD, 14, "DCStartComplete" }, { R_METHOD, 15, "DCStopComplete" },
  { R_METHOD, 16, "DCStartInit" }, { R_METHOD, 17, "DCStopInit" },
  { R_METHOD, 35, "DCStart" }, { R_METHOD, 36, "DCStop" },
  { R_METHOD, 39, "DCStartVerbose" }, { R_METHOD, 40, "DCStopVerbose" },
  { R_METHOD, 41, "ILToNativeMapDCStart" }, { R_METHOD, 42, "ILToNativeMapDCStop" },
  { R_LOADER, 35, "ModuleDCStart" }, { R_LOADER, 36, "ModuleDCStop" },
  { R_LOADER, 39, "AssemblyDCStart" }, { R_LOADER, 40, "AssemblyDCStop" },
  { R_LOADER, 43, "AppDomainDCStart" }, { R_LOADER, 44, "AppDomainDCStop" },
  { R_LOADER, 46, "DomainModuleDCStart" }, { R_LOADER, 47, "DomainModuleDCStop" },
  { R_LOADER, 48, "ThreadDCStop" }, { R_STACK, 82, "Walk" },
  { R_PERF_TRACK, 10, "ModuleRangeDCStart" }, { R_PERF_TRACK, 11, "ModuleRangeDCStop" },
};

/* Methods and modules at DCStart (odd ids) and DCStop (even ids). */
#define METHOD_PAIR(id, op, layout) \
  { id, 0, INFO, R_METHOD, op, layout }, { id, 1, INFO, R_METHOD, op, layout CLR }, \
  { id, 2, INFO, R_METHOD, op, layout CLR " ReJITID:u64" }
#define MARKER_PAIR(id, op) \
  { id, 0, INFO, R_METHOD, op }, { id, 1, INFO, R_METHOD, op, ONLY_CLR }

static const EtBuiltinEvent rundown_events[] = {
  { 0, 0, ALWAYS, R_STACK, 82, STACK_WALK },
  /* .NET 6+: the runtime's named checkpoints (startup phases) at rundown. */
  { 300, 0, INFO, R_CHECKPOINT, 11, ONLY_CLR " Name:str Timestamp:i64" },
  METHOD_PAIR (141, 35, METHOD_0), METHOD_PAIR (142, 36, METHOD_0),
  METHOD_PAIR (143, 39, METHOD_V0), METHOD_PAIR (144, 40, METHOD_V0),
  MARKER_PAIR (145, 14), MARKER_PAIR (146, 15), MARKER_PAIR (147, 16), MARKER_PAIR (148, 17),
  { 149, 0, VERBOSE, R_METHOD, 41, IL_MAP }, { 150, 0, VERBOSE, R_METHOD, 42, IL_MAP },
  { 151, 0, INFO, R_LOADER, 46, DOMAIN_MODULE_0 },
  { 151, 1, INFO, R_LOADER, 46, DOMAIN_MODULE_0 CLR },
  { 152, 0, INFO, R_LOADER, 47, DOMAIN_MODULE_0 },
  { 152, 1, INFO, R_LOADER, 47, DOMAIN_MODULE_0 CLR },
  { 153, 0, INFO, R_LOADER, 35, MODULE_0 }, { 153, 1, INFO, R_LOADER, 35, MODULE_0 CLR },
  { 153, 2, INFO, R_LOADER, 35, MODULE_2 },
  { 154, 0, INFO, R_LOADER, 36, MODULE_0 }, { 154, 1, INFO, R_LOADER, 36, MODULE_0 CLR },
  { 154, 2, INFO, R_LOADER, 36, MODULE_2 },
  { 155, 0, INFO, R_LOADER, 39, ASSEMBLY_0 }, { 155, 1, INFO, R_LOADER, 39, ASSEMBLY_1 },
  { 156, 0, INFO, R_LOADER, 40, ASSEMBLY_0 }, { 156, 1, INFO, R_LOADER, 40, ASSEMBLY_1 },
  { 157, 0, INFO, R_LOADER, 43, APP_DOMAIN_0 },
  { 157, 1, INFO, R_LOADER, 43, APP_DOMAIN_0 " AppDomainIndex:u32" CLR },
  { 158, 0, INFO, R_LOADER, 44, APP_DOMAIN_0 },
  { 158, 1, INFO, R_LOADER, 44, APP_DOMAIN_0 " AppDomainIndex:u32" CLR },
  { 159, 0, INFO, R_LOADER, 48, THREAD_CREATED },
  { 160, 0, INFO, R_PERF_TRACK, 10, MODULE_RANGE },
  { 161, 0, INFO, R_PERF_TRACK, 11, MODULE_RANGE },
  { 187, 0, INFO, R_RUNTIME, 1, RUNTIME_INFO },
};

const EtBuiltinProvider _et_builtin_clr_rundown = {
  "a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown",
  rundown_tasks, G_N_ELEMENTS (rundown_tasks), rundown_opcodes, G_N_ELEMENTS (rundown_opcodes),
  _et_builtin_clr_maps, &_et_builtin_clr_n_maps, rundown_events, G_N_ELEMENTS (rundown_events),
};

/* ────────────────────────────── Private ────────────────────────────── */

enum { P_GC = 1, P_BINDING = 10, P_NGEN_BINDER = 13 };

static const EtBuiltinTask private_tasks[] = {
  { P_GC, "GC" }, { P_BINDING, "Binding" }, { P_NGEN_BINDER, "NgenBinder" },
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
  { P_GC, 31, "BGC2ndConStop" }, { P_GC, 32, "BGCPlanStop" }, { P_GC, 34, "BGCDrainMark" },
  { P_GC, 35, "BGCRevisit" }, { P_GC, 36, "BGCOverflow" }, { P_GC, 37, "BGCAllocWaitStart" },
  { P_GC, 38, "BGCAllocWaitStop" },
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
  { P_NGEN_BINDER, 69, "NgenBind" },
};

#define BINDING "AppDomainID:u32 LoadContextID:u32 FromLoaderCache:u32 DynamicLoad:u32 " \
  "AssemblyCodebase:str AssemblyName:str" CLR
/* The binder's phases: ids 159–176 are opcodes 51–68 in order. */
#define PHASE(id) { id, 0, INFO, P_BINDING, (id) - 108, BINDING }
#define BGC_PHASE(id) { id, 0, INFO, P_GC, (id) + 14, ONLY_CLR }
#define OPTIMIZED "DesiredAllocation:u64 NewAllocation:u64 GenerationNumber:u32"
#define JOIN "Heap:u32 JoinTime:u32 JoinType:u32"
#define PRIVATE_MARK(id, op) \
  { id, 0, INFO, P_GC, op, "HeapNum:u32" }, { id, 1, INFO, P_GC, op, GC_MARK }

static const EtBuiltinEvent private_events[] = {
  { 1, 0, INFO, P_GC, 132, "DoCompact:bool" }, { 1, 1, INFO, P_GC, 132, "DoCompact:bool" CLR },
  { 2, 0, INFO, P_GC, 14, "SegmentSize:u64 LargeObjectSegmentSize:u64 ServerGC:bool" },
  { 2, 1, INFO, P_GC, 14, "SegmentSize:u64 LargeObjectSegmentSize:u64 ServerGC:bool" CLR },
  { 4, 1, INFO, P_GC, 17, ONLY_CLR }, { 4, 2, INFO, P_GC, 17, PER_HEAP_2 },
  { 5, 0, INFO, P_GC, 18, GLOBAL_HEAP_0 }, { 5, 1, INFO, P_GC, 18, GLOBAL_HEAP_0 CLR },
  { 3, 0, VERBOSE, P_GC, 16, OPTIMIZED }, { 3, 1, VERBOSE, P_GC, 16, OPTIMIZED CLR },
  { 6, 0, VERBOSE, P_GC, 20, JOIN }, { 6, 1, VERBOSE, P_GC, 20, JOIN CLR },
  PRIVATE_MARK (7, 21), PRIVATE_MARK (8, 22), PRIVATE_MARK (9, 23), PRIVATE_MARK (10, 24),
  /* The background GC's phases: ids 11–18 are opcodes 25–32 in order. */
  BGC_PHASE (11), BGC_PHASE (12), BGC_PHASE (13), BGC_PHASE (14), BGC_PHASE (15),
  BGC_PHASE (16), BGC_PHASE (17), BGC_PHASE (18),
  { 20, 0, INFO, P_GC, 34, "Objects:u64" CLR },
  { 21, 0, INFO, P_GC, 35, "Pages:u64 Objects:u64 IsLarge:u32" CLR },
  { 22, 0, INFO, P_GC, 36, "Min:u64 Max:u64 Objects:u64 IsLarge:u32" CLR },
  { 23, 0, INFO, P_GC, 37, "Reason:u32" CLR }, { 24, 0, INFO, P_GC, 38, "Reason:u32" CLR },
  { 25, 0, INFO, P_GC, 19, "GenNumber:u32 IsAlloc:u32" },
  { 25, 1, INFO, P_GC, 19, "GenNumber:u32 IsAlloc:u32" CLR },
  PHASE (159), PHASE (160), PHASE (161), PHASE (162), PHASE (163), PHASE (164), PHASE (165),
  PHASE (166), PHASE (167), PHASE (168), PHASE (169), PHASE (170), PHASE (171), PHASE (172),
  PHASE (173), PHASE (174), PHASE (175), PHASE (176),
  { 188, 0, INFO, P_NGEN_BINDER, 69, ONLY_CLR " BindingID:u64 ReasonCode:u32=NgenBindReason "
    "AssemblyName:str" },
  { 196, 0, INFO, P_BINDING, 70, ONLY_CLR " Prepend:bool Message:str" },
  { 199, 0, VERBOSE, P_GC, 44, "PlugStart:ptr PlugEnd:ptr GapBeforeSize:ptr" CLR },
  { 197, 0, INFO, P_BINDING, 71, ONLY_CLR " Category:u32 ErrorCode:x32" },
};

const EtBuiltinProvider _et_builtin_clr_private = {
  "763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate",
  private_tasks, G_N_ELEMENTS (private_tasks), private_opcodes, G_N_ELEMENTS (private_opcodes),
  _et_builtin_clr_maps, &_et_builtin_clr_n_maps, private_events, G_N_ELEMENTS (private_events),
};

/* EventPipe's sample profiler (.nettrace): one event per sampled thread,
 * logged as that thread, every millisecond or so; what it was running
 * (managed code, or outside the runtime) is its one field. */
static const EtBuiltinTask sampler_tasks[] = { { 1, "Thread" } };
static const EtBuiltinOpcode sampler_opcodes[] = { { 1, 10, "Sample" } };
static const EtBuiltinMapEntry sampler_maps[] = {
  { "ThreadSampleType", FALSE, 0, "Error" }, { "ThreadSampleType", FALSE, 1, "External" },
  { "ThreadSampleType", FALSE, 2, "Managed" },
};
static const guint sampler_n_maps = G_N_ELEMENTS (sampler_maps);
static const EtBuiltinEvent sampler_events[] = {
  { 0, 0, INFO, 1, 10, "Type:u32=ThreadSampleType" },
};

const EtBuiltinProvider _et_builtin_sample_profiler = {
  "3c530d44-97ae-513a-1e6d-783e8f8e03a9", "Microsoft-DotNETCore-SampleProfiler",
  sampler_tasks, G_N_ELEMENTS (sampler_tasks), sampler_opcodes, G_N_ELEMENTS (sampler_opcodes),
  sampler_maps, &sampler_n_maps, sampler_events, G_N_ELEMENTS (sampler_events),
};
