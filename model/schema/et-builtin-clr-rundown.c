/* et-builtin-clr-rundown.c — the runtime's Rundown provider and
 * EventPipe's sample profiler.
 *
 * Microsoft-Windows-DotNETRuntimeRundown lists, when a session ends (or
 * starts), the methods, modules, assemblies and domains already loaded:
 * the runtime's own layouts under other ids and opcodes. Names as PerfView
 * shows them. (The Private provider: et-builtin-clr-private.c.)
 */
#include "et-builtin-private.h"
#include "et-builtin-clr-layouts.h"

/* ────────────────────────────── Rundown ────────────────────────────── */

enum { R_METHOD = 1, R_LOADER = 2, R_STACK = 11, R_RUNTIME = 19, R_PERF_TRACK = 20,
       R_TIERED = 31, R_CHECKPOINT = 35, R_GC = 40 };

static const EtBuiltinTask rundown_tasks[] = {
  { R_METHOD, "Method" }, { R_LOADER, "Loader" }, { R_STACK, "ClrStack" },
  { R_RUNTIME, "Runtime" }, { R_PERF_TRACK, "ClrPerfTrack" },
  { R_CHECKPOINT, "ExecutionCheckpointRundown" }, { R_TIERED, "TieredCompilationRundown" },
  { R_GC, "GC" },
};

static const EtBuiltinOpcode rundown_opcodes[] = {
  { R_CHECKPOINT, 11, "ExecutionCheckpointDCEnd" }, { R_TIERED, 11, "SettingsDCStart" },
  { R_GC, 10, "SettingsRundown" },
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
  { 300, 0, INFO, R_CHECKPOINT, 11, CHECKPOINT_0 },
  /* .NET 5+ and 6+: the GC's and tiered compilation's settings at rundown. */
  { 10, 0, INFO, R_GC, 10, "HardLimit:u64 LOHThreshold:u64 PhysicalMemoryConfig:u64 "
    "Gen0MinBudgetConfig:u64 Gen0MaxBudgetConfig:u64 HighMemPercentConfig:u32 BitSettings:u32" CLR },
  { 280, 0, INFO, R_TIERED, 11, TIERED_SETTINGS },
  METHOD_PAIR (141, 35, METHOD_0), METHOD_PAIR (142, 36, METHOD_0),
  METHOD_PAIR (143, 39, METHOD_V0), METHOD_PAIR (144, 40, METHOD_V0),
  MARKER_PAIR (145, 14), MARKER_PAIR (146, 15), MARKER_PAIR (147, 16), MARKER_PAIR (148, 17),
  { 149, 0, VERBOSE, R_METHOD, 41, IL_MAP }, { 150, 0, VERBOSE, R_METHOD, 42, IL_MAP },
  { 149, 1, VERBOSE, R_METHOD, 41, IL_MAP_1 }, { 150, 1, VERBOSE, R_METHOD, 42, IL_MAP_1 },
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
