/* et-builtin-clr.c — Microsoft-Windows-DotNETRuntime without its manifest.
 *
 * The runtime's events as its public documentation (seed 002) and
 * published manifest describe them, written down here in the compact form
 * of et-builtin-private.h: every layout version of an event is its own
 * entry, since the payload grows with the version. Task and opcode names,
 * and the labels of value maps, are the ones PerfView shows, so that an
 * event reads "GC/Start … Reason=Induced" in both.
 *
 * The value and bit maps here are shared with the Rundown and Private
 * providers (et-builtin-clr-rundown.c).
 */
#include "et-builtin-private.h"
#include "et-builtin-clr-layouts.h"

/* ─────────────────────────────── maps ─────────────────────────────── */

/* A reason of the GC's per-heap mechanisms: its bit, with or without
 * bit 31 ("done") set. */
#define MECHANISM(map, bit, label) \
  { map, FALSE, 1u << (bit), label }, { map, FALSE, 0x80000000u | (1u << (bit)), label }

#define SECTION(value, label) { "ModuleRangeSectionType", FALSE, value, label }

const EtBuiltinMapEntry _et_builtin_clr_maps[] = {
  { "GCReason", FALSE, 0, "AllocSmall" }, { "GCReason", FALSE, 1, "Induced" },
  { "GCReason", FALSE, 2, "LowMemory" }, { "GCReason", FALSE, 3, "Empty" },
  { "GCReason", FALSE, 4, "AllocLarge" }, { "GCReason", FALSE, 5, "OutOfSpaceSOH" },
  { "GCReason", FALSE, 6, "OutOfSpaceLOH" }, { "GCReason", FALSE, 7, "InducedNotForced" },
  { "GCReason", FALSE, 8, "Internal" }, { "GCReason", FALSE, 9, "InducedLowMemory" },
  { "GCReason", FALSE, 10, "InducedCompacting" }, { "GCReason", FALSE, 11, "LowMemoryHost" },
  { "GCReason", FALSE, 12, "PMFullGC" }, { "GCReason", FALSE, 13, "LowMemoryHostBlocking" },
  { "GCType", FALSE, 0, "NonConcurrentGC" }, { "GCType", FALSE, 1, "BackgroundGC" },
  { "GCType", FALSE, 2, "ForegroundGC" },
  { "GCSuspendEEReason", FALSE, 0, "SuspendOther" },
  { "GCSuspendEEReason", FALSE, 1, "SuspendForGC" },
  { "GCSuspendEEReason", FALSE, 2, "SuspendForAppDomainShutdown" },
  { "GCSuspendEEReason", FALSE, 3, "SuspendForCodePitching" },
  { "GCSuspendEEReason", FALSE, 4, "SuspendForShutdown" },
  { "GCSuspendEEReason", FALSE, 5, "SuspendForDebugger" },
  { "GCSuspendEEReason", FALSE, 6, "SuspendForGCPrep" },
  { "GCSuspendEEReason", FALSE, 7, "SuspendForDebuggerSweep" },
  { "GCSegmentType", FALSE, 0, "SmallObjectHeap" }, { "GCSegmentType", FALSE, 1, "LargeObjectHeap" },
  { "GCSegmentType", FALSE, 2, "ReadOnlyHeap" }, { "GCSegmentType", FALSE, 3, "PinnedObjectHeap" },
  { "GCAllocationKind", FALSE, 0, "Small" }, { "GCAllocationKind", FALSE, 1, "Large" },
  { "GCAllocationKind", FALSE, 2, "Pinned" },
  { "GCPauseMode", FALSE, 0, "Batch" }, { "GCPauseMode", FALSE, 1, "Interactive" },
  { "GCPauseMode", FALSE, 2, "LowLatency" }, { "GCPauseMode", FALSE, 3, "SustainedLowLatency" },
  { "GCPauseMode", FALSE, 4, "NoGC" },
  { "GCGlobalMechanisms", TRUE, 0, "None" }, { "GCGlobalMechanisms", TRUE, 1, "Concurrent" },
  { "GCGlobalMechanisms", TRUE, 2, "Compaction" }, { "GCGlobalMechanisms", TRUE, 4, "Promotion" },
  { "GCGlobalMechanisms", TRUE, 8, "Demotion" }, { "GCGlobalMechanisms", TRUE, 16, "CardBundles" },
  /* The per-heap history's mechanisms: bit 31 says the GC compacted
   * (expanded) the heap, one bit below it which reason made it; the
   * reasons exclude each other, so each value has one name. */
  { "GCCompactMechanisms", FALSE, 0, "not_specified" },
  MECHANISM ("GCCompactMechanisms", 0, "compact_low_ephemeral"),
  MECHANISM ("GCCompactMechanisms", 1, "compact_high_frag"),
  MECHANISM ("GCCompactMechanisms", 2, "compact_no_gaps"),
  MECHANISM ("GCCompactMechanisms", 3, "compact_loh_forced"),
  MECHANISM ("GCCompactMechanisms", 4, "compact_last_gc"),
  MECHANISM ("GCCompactMechanisms", 5, "compact_induced_compacting"),
  MECHANISM ("GCCompactMechanisms", 6, "compact_fragmented_gen0"),
  MECHANISM ("GCCompactMechanisms", 7, "compact_high_mem_load"),
  MECHANISM ("GCCompactMechanisms", 8, "compact_high_mem_frag"),
  MECHANISM ("GCCompactMechanisms", 9, "compact_vhigh_mem_frag"),
  MECHANISM ("GCCompactMechanisms", 10, "compact_no_gc_mode"),
  { "GCExpandMechanisms", FALSE, 0, "not_specified" },
  MECHANISM ("GCExpandMechanisms", 0, "expand_reuse_normal"),
  MECHANISM ("GCExpandMechanisms", 1, "expand_reuse_bestfit"),
  MECHANISM ("GCExpandMechanisms", 2, "expand_new_seg_ep"),
  MECHANISM ("GCExpandMechanisms", 3, "expand_new_seg"),
  MECHANISM ("GCExpandMechanisms", 4, "expand_no_memory"),
  MECHANISM ("GCExpandMechanisms", 5, "expand_next_full_gc"),
  { "GCBucketKind", FALSE, 0, "LargestFreeListItems" },
  { "GCBucketKind", FALSE, 1, "PlugsInCondemned" },
  { "GCRootKind", FALSE, 0, "Stack" }, { "GCRootKind", FALSE, 1, "Finalizer" },
  { "GCRootKind", FALSE, 2, "Handle" }, { "GCRootKind", FALSE, 3, "Older" },
  { "GCRootKind", FALSE, 4, "SizedRef" }, { "GCRootKind", FALSE, 5, "Overflow" },
  { "GCRootKind", FALSE, 6, "DependentHandle" }, { "GCRootKind", FALSE, 7, "NewFQ" },
  { "GCRootKind", FALSE, 8, "Steal" }, { "GCRootKind", FALSE, 9, "BGC" },
  { "GCRootFlags", TRUE, 0, "None" }, { "GCRootFlags", TRUE, 1, "Pinning" },
  { "GCRootFlags", TRUE, 2, "WeakRef" }, { "GCRootFlags", TRUE, 4, "Interior" },
  { "GCRootFlags", TRUE, 8, "RefCounted" },
  { "GCRootStaticVarFlags", TRUE, 0, "None" }, { "GCRootStaticVarFlags", TRUE, 1, "ThreadLocal" },
  { "GCRootCCWFlags", TRUE, 0, "None" }, { "GCRootCCWFlags", TRUE, 1, "Strong" },
  { "GCRootCCWFlags", TRUE, 2, "XAMLObject" }, { "GCRootCCWFlags", TRUE, 4, "ExtendsComObject" },
  { "GCRootRCWFlags", TRUE, 0, "None" }, { "GCRootRCWFlags", TRUE, 1, "Duplicate" },
  { "GCRootRCWFlags", TRUE, 2, "XAMLObject" }, { "GCRootRCWFlags", TRUE, 4, "ExtendsComObject" },
  { "GCHandleKind", FALSE, 0, "WeakShort" }, { "GCHandleKind", FALSE, 1, "WeakLong" },
  { "GCHandleKind", FALSE, 2, "Strong" }, { "GCHandleKind", FALSE, 3, "Pinned" },
  { "GCHandleKind", FALSE, 4, "Variable" }, { "GCHandleKind", FALSE, 5, "RefCounted" },
  { "GCHandleKind", FALSE, 6, "Dependent" }, { "GCHandleKind", FALSE, 7, "AsyncPinned" },
  { "GCHandleKind", FALSE, 8, "SizedRef" },
  { "ContentionFlags", FALSE, 0, "Managed" }, { "ContentionFlags", FALSE, 1, "Native" },
  { "ThreadAdjustmentReason", FALSE, 0, "Warmup" },
  { "ThreadAdjustmentReason", FALSE, 1, "Initializing" },
  { "ThreadAdjustmentReason", FALSE, 2, "RandomMove" },
  { "ThreadAdjustmentReason", FALSE, 3, "ClimbingMove" },
  { "ThreadAdjustmentReason", FALSE, 4, "ChangePoint" },
  { "ThreadAdjustmentReason", FALSE, 5, "Stabilizing" },
  { "ThreadAdjustmentReason", FALSE, 6, "Starvation" },
  { "ThreadAdjustmentReason", FALSE, 7, "ThreadTimedOut" },
  { "ThreadAdjustmentReason", FALSE, 8, "CooperativeBlocking" },
  { "WaitHandleWaitSource", FALSE, 0, "Unknown" },
  { "WaitHandleWaitSource", FALSE, 1, "MonitorWait" },
  { "TailCallType", FALSE, 0, "OptimizedTailCall" }, { "TailCallType", FALSE, 1, "RecursiveLoop" },
  { "TailCallType", FALSE, 2, "HelperAssistedTailCall" },
  /* .NET Core 3+: tiered compilation and the assembly loader's steps. */
  { "TieredCompilationSettingsFlags", TRUE, 0, "None" },
  { "TieredCompilationSettingsFlags", TRUE, 1, "QuickJit" },
  { "TieredCompilationSettingsFlags", TRUE, 2, "QuickJitForLoops" },
  { "TieredCompilationSettingsFlags", TRUE, 4, "TieredPGO" },
  { "TieredCompilationSettingsFlags", TRUE, 8, "ReadyToRun" },
  { "ResolutionAttemptedStage", FALSE, 0, "FindInLoadContext" },
  { "ResolutionAttemptedStage", FALSE, 1, "AssemblyLoadContextLoad" },
  { "ResolutionAttemptedStage", FALSE, 2, "ApplicationAssemblies" },
  { "ResolutionAttemptedStage", FALSE, 3, "DefaultAssemblyLoadContextFallback" },
  { "ResolutionAttemptedStage", FALSE, 4, "ResolveSatelliteAssembly" },
  { "ResolutionAttemptedStage", FALSE, 5, "AssemblyLoadContextResolvingEvent" },
  { "ResolutionAttemptedStage", FALSE, 6, "AppDomainAssemblyResolveEvent" },
  { "ResolutionAttemptedResult", FALSE, 0, "Success" },
  { "ResolutionAttemptedResult", FALSE, 1, "AssemblyNotFound" },
  { "ResolutionAttemptedResult", FALSE, 2, "MismatchedAssemblyName" },
  { "ResolutionAttemptedResult", FALSE, 3, "IncompatibleVersion" },
  { "ResolutionAttemptedResult", FALSE, 4, "Failure" },
  { "ResolutionAttemptedResult", FALSE, 5, "Exception" },
  { "KnownPathSource", FALSE, 0, "ApplicationAssemblies" },
  { "KnownPathSource", FALSE, 1, "Unused" }, { "KnownPathSource", FALSE, 2, "AppPaths" },
  { "KnownPathSource", FALSE, 3, "PlatformResourceRoots" },
  { "KnownPathSource", FALSE, 4, "SatelliteSubdirectory" },
  { "RuntimeSku", TRUE, 0, "None" }, { "RuntimeSku", TRUE, 1, "DesktopClr" },
  { "RuntimeSku", TRUE, 2, "CoreClr" }, { "RuntimeSku", TRUE, 4, "Mono" },
  { "StartupMode", TRUE, 0, "None" }, { "StartupMode", TRUE, 1, "ManagedExe" },
  { "StartupMode", TRUE, 2, "HostedClr" }, { "StartupMode", TRUE, 4, "IjwDll" },
  { "StartupMode", TRUE, 8, "ComActivated" }, { "StartupMode", TRUE, 16, "Other" },
  { "StartupFlags", TRUE, 0, "None" }, { "StartupFlags", TRUE, 0x1, "CONCURRENT_GC" },
  { "StartupFlags", TRUE, 0x2, "LOADER_OPTIMIZATION_SINGLE_DOMAIN" },
  { "StartupFlags", TRUE, 0x4, "LOADER_OPTIMIZATION_MULTI_DOMAIN" },
  { "StartupFlags", TRUE, 0x10, "LOADER_SAFEMODE" },
  { "StartupFlags", TRUE, 0x100, "LOADER_SETPREFERENCE" },
  { "StartupFlags", TRUE, 0x1000, "SERVER_GC" }, { "StartupFlags", TRUE, 0x2000, "HOARD_GC_VM" },
  { "StartupFlags", TRUE, 0x4000, "SINGLE_VERSION_HOSTING_INTERFACE" },
  { "StartupFlags", TRUE, 0x10000, "LEGACY_IMPERSONATION" },
  { "StartupFlags", TRUE, 0x20000, "DISABLE_COMMITTHREADSTACK" },
  { "StartupFlags", TRUE, 0x40000, "ALWAYSFLOW_IMPERSONATION" },
  { "StartupFlags", TRUE, 0x80000, "TRIM_GC_COMMIT" }, { "StartupFlags", TRUE, 0x100000, "ETW" },
  { "StartupFlags", TRUE, 0x200000, "SERVER_BUILD" }, { "StartupFlags", TRUE, 0x400000, "ARM" },
  { "AppDomainFlags", TRUE, 0, "None" }, { "AppDomainFlags", TRUE, 1, "Default" },
  { "AppDomainFlags", TRUE, 2, "Executable" }, { "AppDomainFlags", TRUE, 4, "Shared" },
  { "AssemblyFlags", TRUE, 0, "None" }, { "AssemblyFlags", TRUE, 1, "DomainNeutral" },
  { "AssemblyFlags", TRUE, 2, "Dynamic" }, { "AssemblyFlags", TRUE, 4, "Native" },
  { "AssemblyFlags", TRUE, 8, "Collectible" }, { "AssemblyFlags", TRUE, 16, "ReadyToRun" },
  { "ModuleFlags", TRUE, 0, "None" }, { "ModuleFlags", TRUE, 1, "DomainNeutral" },
  { "ModuleFlags", TRUE, 2, "Native" }, { "ModuleFlags", TRUE, 4, "Dynamic" },
  { "ModuleFlags", TRUE, 8, "Manifest" }, { "ModuleFlags", TRUE, 16, "IbcOptimized" },
  { "ModuleFlags", TRUE, 32, "ReadyToRunModule" },
  { "ModuleFlags", TRUE, 64, "PartialReadyToRunModule" },
  { "MethodFlags", TRUE, 0, "None" }, { "MethodFlags", TRUE, 1, "Dynamic" },
  { "MethodFlags", TRUE, 2, "Generic" }, { "MethodFlags", TRUE, 4, "HasSharedGenericCode" },
  { "MethodFlags", TRUE, 8, "Jitted" }, { "MethodFlags", TRUE, 16, "JitHelper" },
  { "MethodFlags", TRUE, 32, "ProfilerRejectedPrecompiledCode" },
  { "MethodFlags", TRUE, 64, "ReadyToRunRejectedPrecompiledCode" },
  { "ExceptionFlags", TRUE, 0, "None" }, { "ExceptionFlags", TRUE, 1, "HasInnerException" },
  { "ExceptionFlags", TRUE, 2, "Nested" }, { "ExceptionFlags", TRUE, 4, "ReThrown" },
  { "ExceptionFlags", TRUE, 8, "CorruptedState" }, { "ExceptionFlags", TRUE, 16, "CLSCompliant" },
  { "ILStubFlags", TRUE, 1, "ReverseInterop" }, { "ILStubFlags", TRUE, 2, "ComInterop" },
  { "ILStubFlags", TRUE, 4, "NGenedStub" }, { "ILStubFlags", TRUE, 8, "Delegate" },
  { "ILStubFlags", TRUE, 16, "VarArg" }, { "ILStubFlags", TRUE, 32, "UnmanagedCallee" },
  { "TypeFlags", TRUE, 1, "Delegate" }, { "TypeFlags", TRUE, 2, "Finalizable" },
  { "TypeFlags", TRUE, 4, "ExternallyImplementedCOMObject" }, { "TypeFlags", TRUE, 8, "Array" },
  { "ModuleRangeType", TRUE, 1, "HotRange" }, { "ModuleRangeType", TRUE, 2, "WarmRange" },
  { "ModuleRangeType", TRUE, 4, "ColdRange" }, { "ModuleRangeType", TRUE, 8, "HotColdSortedRange" },
  /* The Private provider's module ranges (.NET Framework's NGen images):
   * their IBC profile and the image section they cover. */
  { "ModuleRangeIBCType", TRUE, 1, "IBCUnprofiledSection" },
  { "ModuleRangeIBCType", TRUE, 2, "IBCProfiledSection" },
  SECTION (1, "ModuleSection"), SECTION (2, "EETableSection"), SECTION (3, "WriteDataSection"),
  SECTION (4, "WriteableDataSection"), SECTION (5, "DataSection"),
  SECTION (6, "RVAStaticsSection"), SECTION (7, "EEDataSection"),
  SECTION (8, "DelayLoadInfoTableEagerSection"), SECTION (9, "DelayLoadInfoTableSection"),
  SECTION (10, "EEReadonlyData"), SECTION (11, "ReadonlyData"), SECTION (12, "ClassSection"),
  SECTION (13, "CrossDomainInfoSection"), SECTION (14, "MethodDescSection"),
  SECTION (15, "MethodDescWriteableSection"), SECTION (16, "ExceptionSection"),
  SECTION (17, "InstrumentSection"), SECTION (18, "VirtualImportThunkSection"),
  SECTION (19, "ExternalMethodThunkSection"), SECTION (20, "HelperTableSection"),
  SECTION (21, "MethodPrecodeWriteableSection"), SECTION (22, "MethodPrecodeWriteSection"),
  SECTION (23, "MethodPrecodeSection"), SECTION (24, "Win32ResourcesSection"),
  SECTION (25, "HeaderSection"), SECTION (26, "MetadataSection"),
  SECTION (27, "DelayLoadInfoSection"), SECTION (28, "ImportTableSection"),
  SECTION (29, "CodeSection"), SECTION (30, "CodeHeaderSection"),
  SECTION (31, "CodeManagerSection"), SECTION (32, "UnwindDataSection"),
  SECTION (33, "RuntimeFunctionSection"), SECTION (34, "StubsSection"),
  SECTION (35, "StubDispatchDataSection"), SECTION (36, "ExternalMethodDataSection"),
  SECTION (37, "DelayLoadInfoDelayListSection"), SECTION (38, "ReadonlySharedSection"),
  SECTION (39, "ReadonlySection"), SECTION (40, "ILSection"), SECTION (41, "GCInfoSection"),
  SECTION (42, "ILMetadataSection"), SECTION (43, "ResourcesSection"),
  SECTION (44, "CompressedMapsSection"), SECTION (45, "DebugSection"),
  SECTION (46, "BaseRelocsSection"),
  { "NgenBindReason", FALSE, 0, "START_BIND" }, { "NgenBindReason", FALSE, 1, "NO_INDEX" },
  { "NgenBindReason", FALSE, 2, "SYSTEM_ASSEMBLY_NOT_AVAILABLE" },
  { "NgenBindReason", FALSE, 3, "NO_NATIVE_IMAGE" },
  { "NgenBindReason", FALSE, 4, "REJECT_CONFIG_MASK" }, { "NgenBindReason", FALSE, 5, "FAIL" },
  { "NgenBindReason", FALSE, 6, "INDEX_CORRUPTION" },
  { "NgenBindReason", FALSE, 7, "REJECT_TIMESTAMP" },
  { "NgenBindReason", FALSE, 8, "REJECT_NATIVEIMAGE_NOT_FOUND" },
  { "NgenBindReason", FALSE, 9, "REJECT_IL_SIG" },
  { "NgenBindReason", FALSE, 10, "REJECT_LOADER_EVAL_FAIL" },
  { "NgenBindReason", FALSE, 11, "MISSING_FOUND" },
};
const guint _et_builtin_clr_n_maps = G_N_ELEMENTS (_et_builtin_clr_maps);

/* ─────────────────────────────── tasks ─────────────────────────────── */

enum
{
  GC = 1, WORKER_CREATION, IO_CREATION, WORKER_RETIREMENT, IO_RETIREMENT, TP_SUSPENSION,
  EXCEPTION, CONTENTION, METHOD, LOADER, STACK, STRONG_NAME, AUTHENTICODE, APPDOMAIN_RM,
  IL_STUB, TP_WORKER, TP_WORKER_RETIREMENT, TP_ADJUSTMENT, RUNTIME, PERF_TRACK, TYPE,
  TP_WORKING_COUNT, THREAD_POOL, THREAD, DEBUG_IPC, DEBUG_EXCEPTION,
  EXCEPTION_CATCH = 27, EXCEPTION_FINALLY, EXCEPTION_FILTER,
  CODE_SYMBOLS = 30, TIERED, ASSEMBLY_LOADER, TYPE_LOAD, JIT_INSTRUMENTATION, CHECKPOINT,
  PROFILER, YIELD_MEASUREMENT, TP_MIN_MAX, WAIT_HANDLE_WAIT,
};

static const EtBuiltinTask tasks[] = {
  { GC, "GC" }, { WORKER_CREATION, "WorkerThreadCreation" },
  { IO_CREATION, "IOThreadCreation" }, { WORKER_RETIREMENT, "WorkerThreadRetirement" },
  { IO_RETIREMENT, "IOThreadRetirement" }, { TP_SUSPENSION, "ThreadpoolSuspension" },
  { EXCEPTION, "Exception" }, { CONTENTION, "Contention" }, { METHOD, "Method" },
  { LOADER, "Loader" }, { STACK, "ClrStack" }, { STRONG_NAME, "StrongNameVerification" },
  { AUTHENTICODE, "AuthenticodeVerification" },
  { APPDOMAIN_RM, "AppDomainResourceManagement" }, { IL_STUB, "ILStub" },
  { TP_WORKER, "ThreadPoolWorkerThread" },
  { TP_WORKER_RETIREMENT, "ThreadPoolWorkerThreadRetirement" },
  { TP_ADJUSTMENT, "ThreadPoolWorkerThreadAdjustment" }, { RUNTIME, "Runtime" },
  { PERF_TRACK, "ClrPerfTrack" }, { TYPE, "Type" },
  { TP_WORKING_COUNT, "ThreadPoolWorkingThreadCount" }, { THREAD_POOL, "ThreadPool" },
  { THREAD, "Thread" }, { EXCEPTION_CATCH, "ExceptionCatch" },
  { EXCEPTION_FINALLY, "ExceptionFinally" }, { EXCEPTION_FILTER, "ExceptionFilter" },
  { TP_MIN_MAX, "ThreadPoolMinMaxThreads" }, { WAIT_HANDLE_WAIT, "WaitHandleWait" },
  { DEBUG_IPC, "DebugIPCEvent" }, { DEBUG_EXCEPTION, "DebugExceptionProcessing" },
  { CODE_SYMBOLS, "CodeSymbols" }, { TIERED, "TieredCompilation" },
  { ASSEMBLY_LOADER, "AssemblyLoader" }, { TYPE_LOAD, "TypeLoad" },
  { JIT_INSTRUMENTATION, "JitInstrumentationData" }, { CHECKPOINT, "ExecutionCheckpoint" },
  { PROFILER, "Profiler" }, { YIELD_MEASUREMENT, "YieldProcessorMeasurement" },
};

static const EtBuiltinOpcode opcodes[] = {
  { GC, 132, "RestartEEStop" }, { GC, 133, "HeapStats" }, { GC, 134, "CreateSegment" },
  { GC, 135, "FreeSegment" }, { GC, 136, "RestartEEStart" }, { GC, 137, "SuspendEEStop" },
  { GC, 10, "SuspendEEStart" }, { GC, 11, "AllocationTick" },
  { GC, 12, "CreateConcurrentThread" }, { GC, 13, "TerminateConcurrentThread" },
  { GC, 15, "FinalizersStop" }, { GC, 19, "FinalizersStart" }, { GC, 20, "BulkRootEdge" },
  { GC, 21, "BulkRootConditionalWeakTableElementEdge" }, { GC, 22, "BulkNode" },
  { GC, 23, "BulkEdge" }, { GC, 24, "SampledObjectAllocation" },
  { GC, 25, "BulkSurvivingObjectRanges" }, { GC, 26, "BulkMovedObjectRanges" },
  { GC, 27, "GenerationRange" }, { GC, 28, "MarkStackRoots" },
  { GC, 29, "MarkFinalizeQueueRoots" }, { GC, 30, "MarkHandles" }, { GC, 31, "MarkCards" },
  { GC, 32, "FinalizeObject" }, { GC, 33, "SetGCHandle" }, { GC, 34, "DestroyGCHandle" },
  { GC, 35, "Triggered" }, { GC, 36, "PinObjectAtGCTime" }, { GC, 38, "BulkRootCCW" },
  { GC, 39, "BulkRCW" }, { GC, 40, "BulkRootStaticVar" },
  { GC, 200, "IncreaseMemoryPressure" }, { GC, 201, "DecreaseMemoryPressure" },
  { GC, 202, "MarkWithType" }, { GC, 204, "PerHeapHistory" }, { GC, 205, "GlobalHeapHistory" },
  { GC, 208, "LOHCompact" }, { GC, 209, "FitBucketInfo" }, { GC, 41, "DynamicEvent" },
  { GC, 203, "Join" }, { GC, 206, "GenAwareBegin" }, { GC, 207, "GenAwareEnd" },
  { METHOD, 43, "MethodDetails" }, { METHOD, 103, "MemoryAllocatedForJitCode" },
  { METHOD, 14, "DCStartCompleteV2" }, { METHOD, 15, "DCStopCompleteV2" },
  { METHOD, 33, "Load" }, { METHOD, 34, "Unload" }, { METHOD, 35, "DCStartV2" },
  { METHOD, 36, "DCStopV2" }, { METHOD, 37, "LoadVerbose" }, { METHOD, 38, "UnloadVerbose" },
  { METHOD, 39, "DCStartVerboseV2" }, { METHOD, 40, "DCStopVerboseV2" },
  { METHOD, 42, "JittingStarted" }, { METHOD, 83, "InliningSucceeded" },
  { METHOD, 84, "InliningFailed" }, { METHOD, 85, "TailCallSucceeded" },
  { METHOD, 86, "TailCallFailed" }, { METHOD, 87, "ILToNativeMap" },
  { LOADER, 33, "ModuleLoad" }, { LOADER, 34, "ModuleUnload" },
  { LOADER, 35, "ModuleDCStartV2" }, { LOADER, 36, "ModuleDCStopV2" },
  { LOADER, 37, "AssemblyLoad" }, { LOADER, 38, "AssemblyUnload" },
  { LOADER, 41, "AppDomainLoad" }, { LOADER, 42, "AppDomainUnload" },
  { LOADER, 45, "DomainModuleLoad" }, { STACK, 82, "Walk" },
  { APPDOMAIN_RM, 48, "MemAllocated" }, { APPDOMAIN_RM, 49, "MemSurvived" },
  { APPDOMAIN_RM, 50, "ThreadCreated" }, { APPDOMAIN_RM, 51, "ThreadTerminated" },
  { APPDOMAIN_RM, 52, "DomainEnter" }, { IL_STUB, 88, "StubGenerated" },
  { IL_STUB, 89, "StubCacheHit" }, { TP_WORKER, 90, "Wait" },
  { TP_ADJUSTMENT, 100, "Sample" }, { TP_ADJUSTMENT, 101, "Adjustment" },
  { TP_ADJUSTMENT, 102, "Stats" }, { PERF_TRACK, 10, "ModuleRangeLoad" },
  { TYPE, 10, "BulkType" }, { THREAD_POOL, 11, "Enqueue" }, { THREAD_POOL, 12, "Dequeue" },
  { THREAD_POOL, 13, "IOEnqueue" }, { THREAD_POOL, 14, "IODequeue" },
  { THREAD_POOL, 15, "IOPack" }, { THREAD, 11, "Creating" }, { THREAD, 12, "Running" },
  { CONTENTION, 11, "LockCreated" },
  { TIERED, 11, "Settings" }, { TIERED, 12, "Pause" }, { TIERED, 13, "Resume" },
  { ASSEMBLY_LOADER, 11, "ResolutionAttempted" },
  { ASSEMBLY_LOADER, 12, "AssemblyLoadContextResolvingHandlerInvoked" },
  { ASSEMBLY_LOADER, 13, "AppDomainAssemblyResolveHandlerInvoked" },
  { ASSEMBLY_LOADER, 14, "AssemblyLoadFromResolveHandlerInvoked" },
  { ASSEMBLY_LOADER, 15, "KnownPathProbed" },
  { JIT_INSTRUMENTATION, 11, "InstrumentationData" },
  { JIT_INSTRUMENTATION, 12, "InstrumentationDataVerbose" },
  { CHECKPOINT, 11, "ExecutionCheckpoint" }, { PROFILER, 11, "Profiler" },
};

/* ─────────────────────────────── events ─────────────────────────────── */

#define ASSEMBLY_LOAD_START ONLY_CLR " AssemblyName:str AssemblyPath:str " \
  "RequestingAssembly:str AssemblyLoadContext:str RequestingAssemblyLoadContext:str"
#define JIT_DATA_HEAD ONLY_CLR " MethodFlags:u32 DataSize:u32 MethodID:x64"

static const EtBuiltinEvent events[] = {
  /* Garbage collection */
  { 1, 0, INFO, GC, 1, GC_START_0 }, { 1, 1, INFO, GC, 1, GC_START_1 },
  { 1, 2, INFO, GC, 1, GC_START_1 " ClientSequenceNumber:u64" },
  { 2, 0, INFO, GC, 2, "Count:u32 Depth:u16" }, { 2, 1, INFO, GC, 2, GC_END_1 },
  { 3, 0, INFO, GC, 132 }, { 3, 1, INFO, GC, 132, ONLY_CLR },
  { 4, 0, INFO, GC, 133, HEAP_STATS_0 }, { 4, 1, INFO, GC, 133, HEAP_STATS_0 CLR },
  { 4, 2, INFO, GC, 133, HEAP_STATS_0 CLR " GenerationSize4:u64 TotalPromotedSize4:u64" },
  { 5, 0, INFO, GC, 134, SEGMENT_0 }, { 5, 1, INFO, GC, 134, SEGMENT_0 CLR },
  { 6, 0, INFO, GC, 135, "Address:x64" }, { 6, 1, INFO, GC, 135, "Address:x64" CLR },
  { 7, 0, INFO, GC, 136 }, { 7, 1, INFO, GC, 136, ONLY_CLR },
  { 8, 0, INFO, GC, 137 }, { 8, 1, INFO, GC, 137, ONLY_CLR },
  { 9, 0, INFO, GC, 10, "Reason:u16=GCSuspendEEReason" }, { 9, 1, INFO, GC, 10, SUSPEND_1 },
  { 10, 0, VERBOSE, GC, 11, "AllocationAmount:u32 AllocationKind:u32=GCAllocationKind" },
  { 10, 1, VERBOSE, GC, 11, ALLOC_1 }, { 10, 2, VERBOSE, GC, 11, ALLOC_2 },
  { 10, 3, VERBOSE, GC, 11, ALLOC_3 }, { 10, 4, VERBOSE, GC, 11, ALLOC_3 " ObjectSize:u64" },
  { 11, 0, INFO, GC, 12 }, { 11, 1, INFO, GC, 12, ONLY_CLR },
  { 12, 0, INFO, GC, 13 }, { 12, 1, INFO, GC, 13, ONLY_CLR },
  { 13, 0, INFO, GC, 15, "Count:u32" }, { 13, 1, INFO, GC, 15, "Count:u32" CLR },
  { 14, 0, INFO, GC, 19 }, { 14, 1, INFO, GC, 19, ONLY_CLR },
  { 15, 0, INFO, TYPE, 10, "Count:u32" CLR " Values{TypeID:x64 ModuleID:x64 TypeNameID:u32 "
    "Flags:u32=TypeFlags CorElementType:u8 Name:str TypeParameterCount:u32 "
    "TypeParameters:x64[TypeParameterCount]}[Count]" },
  /* The heap dump: roots, objects and references in bulk. */
  { 16, 0, INFO, GC, 20, RANGES_HEAD " Values{RootedNodeAddress:ptr GCRootKind:u8=GCRootKind "
    "GCRootFlag:u32=GCRootFlags GCRootID:ptr}[Count]" },
  { 17, 0, INFO, GC, 21, RANGES_HEAD " Values{GCKeyNodeID:ptr GCValueNodeID:ptr GCRootID:ptr}[Count]" },
  { 18, 0, INFO, GC, 22, RANGES_HEAD " Values{Address:ptr Size:u64 TypeID:u64 EdgeCount:u64}[Count]" },
  { 19, 0, INFO, GC, 23, RANGES_HEAD " Values{Value:ptr ReferencingFieldID:u32}[Count]" },
  { 20, 0, INFO, GC, 24, SAMPLED_ALLOCATION }, { 32, 0, INFO, GC, 24, SAMPLED_ALLOCATION },
  { 36, 0, INFO, GC, 38, "Count:u32" CLR " Values{GCRootID:x64 ObjectID:x64 TypeID:x64 "
    "IUnknown:x64 RefCount:u32 PeggedRefCount:u32 Flags:u32=GCRootCCWFlags}[Count]" },
  { 37, 0, INFO, GC, 39, "Count:u32" CLR " Values{ObjectID:x64 TypeID:x64 IUnknown:x64 "
    "VTable:x64 RefCount:u32 Flags:u32=GCRootRCWFlags}[Count]" },
  { 38, 0, INFO, GC, 40, "Count:u32 AppDomainID:x64" CLR " Values{GCRootID:x64 ObjectID:x64 "
    "TypeID:x64 Flags:u32=GCRootStaticVarFlags FieldName:str}[Count]" },
  { 21, 0, INFO, GC, 25, RANGES_HEAD " Values{RangeBase:ptr RangeLength:u64}[Count]" },
  { 22, 0, INFO, GC, 26,
    RANGES_HEAD " Values{OldRangeBase:ptr NewRangeBase:ptr RangeLength:u64}[Count]" },
  { 23, 0, INFO, GC, 27, "Generation:u8 RangeStart:ptr RangeUsedLength:x64 "
    "RangeReservedLength:x64" CLR },
  { 25, 0, INFO, GC, 28, GC_MARK }, { 26, 0, INFO, GC, 29, GC_MARK },
  { 27, 0, INFO, GC, 30, GC_MARK }, { 28, 0, INFO, GC, 31, GC_MARK },
  { 29, 0, VERBOSE, GC, 32, "TypeID:ptr ObjectID:ptr" CLR },
  { 30, 0, INFO, GC, 33, "HandleID:ptr ObjectID:ptr Kind:u32=GCHandleKind Generation:u32 "
    "AppDomainID:u64" CLR },
  { 31, 0, INFO, GC, 34, "HandleID:ptr" CLR },
  { 33, 0, VERBOSE, GC, 36, "HandleID:ptr ObjectID:ptr ObjectSize:u64 TypeName:str" CLR },
  { 35, 0, INFO, GC, 35, "Reason:u32=GCReason" CLR },
  { 200, 0, VERBOSE, GC, 200, "BytesAllocated:u64" CLR,
    "GarbageCollection/IncreaseMemoryPressure" },
  { 201, 0, VERBOSE, GC, 201, "BytesFreed:u64" CLR, "GarbageCollection/DecreaseMemoryPressure" },
  { 202, 0, INFO, GC, 202, "HeapNum:u32" CLR " Type:u32 Promoted:u64" },
  /* The per-heap history: versions 0 and 1 (.NET 4.0, 4.5) changed with
   * the GC's build and are named only; 2 and 3 are laid out. */
  { 204, 0, INFO, GC, 204, ONLY_CLR }, { 204, 1, INFO, GC, 204, ONLY_CLR },
  { 204, 2, INFO, GC, 204, PER_HEAP_2 }, { 204, 3, INFO, GC, 204, PER_HEAP_3 },
  { 205, 0, INFO, GC, 205, GLOBAL_HEAP_0 }, { 205, 1, INFO, GC, 205, GLOBAL_HEAP_0 CLR },
  { 205, 2, INFO, GC, 205, GLOBAL_HEAP_2 }, { 205, 3, INFO, GC, 205, GLOBAL_HEAP_3 },
  { 205, 4, INFO, GC, 205, GLOBAL_HEAP_3 " Count:u32 Times:u32[Count]" },
  { 203, 2, VERBOSE, GC, 203, GC_JOIN CLR " JoinID:u32" },
  { 206, 0, INFO, GC, 206, "Count:u32" CLR }, { 207, 0, INFO, GC, 207, "Count:u32" CLR },
  /* The GC writes its own structs as the arrays of these two, aligned as
   * C aligns them: a bucket's Index is followed by two bytes of padding on
   * every platform; a compaction record pads its three times to the
   * pointer size only in 64-bit processes, which a layout string cannot
   * say, so only its head is laid out. */
  { 208, 0, INFO, GC, 208, ONLY_CLR " Count:u16" },
  { 209, 0, VERBOSE, GC, 209, ONLY_CLR " BucketKind:u16=GCBucketKind TotalSize:u64 Count:u16 "
    "Values{Index:u16 Padding:u16 Count:u32 Size:ptr}[Count]" },
  /* .NET 5+: a GC event named in its payload (.NET 8's heap-count tuning). */
  { 39, 0, ALWAYS, GC, 41, "Name:str DataSize:u32 Data:bin(DataSize)" CLR },
  /* Thread pool */
  { 40, 0, INFO, WORKER_CREATION, 1, "WorkerThreadCount:u32 RetiredWorkerThreads:u32" },
  { 41, 0, INFO, WORKER_CREATION, 2, "WorkerThreadCount:u32 RetiredWorkerThreads:u32" },
  { 42, 0, INFO, WORKER_RETIREMENT, 1, "WorkerThreadCount:u32 RetiredWorkerThreads:u32" },
  { 43, 0, INFO, WORKER_RETIREMENT, 2, "WorkerThreadCount:u32 RetiredWorkerThreads:u32" },
  { 44, 0, INFO, IO_CREATION, 1, IO_THREAD_0 }, { 44, 1, INFO, IO_CREATION, 1, IO_THREAD_0 CLR },
  { 45, 0, INFO, IO_CREATION, 2, IO_THREAD_0 }, { 45, 1, INFO, IO_CREATION, 2, IO_THREAD_0 CLR },
  { 46, 0, INFO, IO_RETIREMENT, 1, IO_THREAD_0 },
  { 46, 1, INFO, IO_RETIREMENT, 1, IO_THREAD_0 CLR },
  { 47, 0, INFO, IO_RETIREMENT, 2, IO_THREAD_0 },
  { 47, 1, INFO, IO_RETIREMENT, 2, IO_THREAD_0 CLR },
  { 48, 0, INFO, TP_SUSPENSION, 1, "ClrThreadID:u32 CpuUtilization:u32" },
  { 49, 0, INFO, TP_SUSPENSION, 2, "ClrThreadID:u32 CpuUtilization:u32" },
  { 50, 0, INFO, TP_WORKER, 1, WORKER }, { 51, 0, INFO, TP_WORKER, 2, WORKER },
  { 52, 0, INFO, TP_WORKER_RETIREMENT, 1, WORKER },
  { 53, 0, INFO, TP_WORKER_RETIREMENT, 2, WORKER },
  { 54, 0, INFO, TP_ADJUSTMENT, 100, "Throughput:f64" CLR },
  { 55, 0, INFO, TP_ADJUSTMENT, 101, "AverageThroughput:f64 NewWorkerThreadCount:u32 "
    "Reason:u32=ThreadAdjustmentReason" CLR },
  { 56, 0, VERBOSE, TP_ADJUSTMENT, 102, "Duration:f64 Throughput:f64 ThreadWave:f64 "
    "ThroughputWave:f64 ThroughputErrorEstimate:f64 AverageThroughputErrorEstimate:f64 "
    "ThroughputRatio:f64 Confidence:f64 NewControlSetting:f64 NewThreadWaveMagnitude:u16" CLR },
  { 57, 0, INFO, TP_WORKER, 90, WORKER },
  { 60, 0, VERBOSE, TP_WORKING_COUNT, 1, "Count:u32" CLR },
  { 61, 0, VERBOSE, THREAD_POOL, 11, "WorkID:ptr" CLR },
  { 62, 0, VERBOSE, THREAD_POOL, 12, "WorkID:ptr" CLR },
  { 63, 0, VERBOSE, THREAD_POOL, 13, "NativeOverlapped:ptr Overlapped:ptr MultiDequeues:bool" CLR },
  { 64, 0, VERBOSE, THREAD_POOL, 14, "NativeOverlapped:ptr Overlapped:ptr" CLR },
  { 65, 0, VERBOSE, THREAD_POOL, 15, "NativeOverlapped:ptr Overlapped:ptr" CLR },
  { 70, 0, INFO, THREAD, 11, "ID:ptr" CLR }, { 71, 0, INFO, THREAD, 12, "ID:ptr" CLR },
  /* Exceptions, contention */
  { 80, 0, INFO, EXCEPTION, 1 }, { 80, 1, ERROR, EXCEPTION, 1, EXCEPTION_1 },
  { 81, 0, INFO, CONTENTION, 1 }, { 81, 1, INFO, CONTENTION, 1, CONTENTION_1 },
  { 81, 2, INFO, CONTENTION, 1, CONTENTION_1 " LockID:ptr AssociatedObjectID:ptr "
    "LockOwnerThreadID:u64" },
  { 90, 0, INFO, CONTENTION, 11, "LockID:ptr AssociatedObjectID:ptr" CLR },
  { 91, 0, INFO, CONTENTION, 2, CONTENTION_1 },
  { 91, 1, INFO, CONTENTION, 2, CONTENTION_1 " DurationNs:f64" },
  /* Exception handling clauses: the stops carry nothing PerfView shows. */
  { 250, 0, INFO, EXCEPTION_CATCH, 1, EXCEPTION_CLAUSE }, { 251, 0, INFO, EXCEPTION_CATCH, 2 },
  { 252, 0, INFO, EXCEPTION_FINALLY, 1, EXCEPTION_CLAUSE },
  { 253, 0, INFO, EXCEPTION_FINALLY, 2 },
  { 254, 0, INFO, EXCEPTION_FILTER, 1, EXCEPTION_CLAUSE }, { 255, 0, INFO, EXCEPTION_FILTER, 2 },
  { 256, 0, INFO, EXCEPTION, 2 },
  { 59, 0, INFO, TP_MIN_MAX, 0, "MinWorkerThreads:u16 MaxWorkerThreads:u16 "
    "MinIOCompletionThreads:u16 MaxIOCompletionThreads:u16" CLR },
  { 301, 0, VERBOSE, WAIT_HANDLE_WAIT, 1, "WaitSource:u8=WaitHandleWaitSource "
    "AssociatedObjectID:ptr" CLR },
  { 302, 0, VERBOSE, WAIT_HANDLE_WAIT, 2, ONLY_CLR },
  /* .NET 7+: the measured cost of a spin-wait's pause. */
  { 58, 0, INFO, YIELD_MEASUREMENT, 0, ONLY_CLR " NsPerYield:f64 EstablishedNsPerYield:f64" },
  /* Stacks, resource monitoring, interop */
  { 82, 0, ALWAYS, STACK, 82, STACK_WALK },
  { 83, 0, INFO, APPDOMAIN_RM, 48, "AppDomainID:u64 Allocated:u64" CLR },
  { 84, 0, INFO, APPDOMAIN_RM, 49, "AppDomainID:u64 Survived:u64 ProcessSurvived:u64" CLR },
  { 85, 0, INFO, APPDOMAIN_RM, 50, THREAD_CREATED },
  { 86, 0, INFO, APPDOMAIN_RM, 51, "ManagedThreadID:u64 AppDomainID:u64" CLR },
  { 87, 0, INFO, APPDOMAIN_RM, 52, "ManagedThreadID:u64 AppDomainID:u64" CLR },
  { 88, 0, INFO, IL_STUB, 88, ONLY_CLR " ModuleID:u64 StubMethodID:u64 "
    "StubFlags:u32=ILStubFlags ManagedInteropMethodToken:x32 "
    "ManagedInteropMethodNamespace:str ManagedInteropMethodName:str "
    "ManagedInteropMethodSignature:str NativeMethodSignature:str StubMethodSignature:str "
    "StubMethodILCode:str" },
  { 89, 0, INFO, IL_STUB, 89, ONLY_CLR " ModuleID:u64 StubMethodID:u64 "
    "ManagedInteropMethodToken:x32 ManagedInteropMethodNamespace:str "
    "ManagedInteropMethodName:str ManagedInteropMethodSignature:str" },
  /* Methods */
  { 135, 0, INFO, METHOD, 14 }, { 136, 0, INFO, METHOD, 15 },
  { 137, 0, INFO, METHOD, 35, METHOD_0 }, { 138, 0, INFO, METHOD, 36, METHOD_0 },
  { 139, 0, INFO, METHOD, 39, METHOD_V0 }, { 140, 0, INFO, METHOD, 40, METHOD_V0 },
  { 141, 0, INFO, METHOD, 33, METHOD_0 }, { 141, 1, INFO, METHOD, 33, METHOD_0 CLR },
  { 141, 2, INFO, METHOD, 33, METHOD_0 CLR " ReJITID:u64" },
  { 142, 0, INFO, METHOD, 34, METHOD_0 }, { 142, 1, INFO, METHOD, 34, METHOD_0 CLR },
  { 142, 2, INFO, METHOD, 34, METHOD_0 CLR " ReJITID:u64" },
  { 143, 0, INFO, METHOD, 37, METHOD_V0 }, { 143, 1, INFO, METHOD, 37, METHOD_V0 CLR },
  { 143, 2, INFO, METHOD, 37, METHOD_V0 CLR " ReJITID:u64" },
  { 144, 0, INFO, METHOD, 38, METHOD_V0 }, { 144, 1, INFO, METHOD, 38, METHOD_V0 CLR },
  { 144, 2, INFO, METHOD, 38, METHOD_V0 CLR " ReJITID:u64" },
  { 145, 0, VERBOSE, METHOD, 42, JITTING_0 }, { 145, 1, VERBOSE, METHOD, 42, JITTING_0 CLR },
  /* .NET Core 3+: a ReadyToRun method's entry point looked up (opcode
   * MethodLoad, as Method/Load: named as PerfView names them). */
  { 159, 0, INFO, METHOD, 33, "MethodID:u64 MethodNamespace:str MethodName:str "
    "MethodSignature:str EntryPoint:u64" CLR, "Method/R2RGetEntryPoint" },
  { 160, 0, INFO, METHOD, 33, "MethodID:x64" CLR, "Method/R2RGetEntryPointStart" },
  { 185, 0, VERBOSE, METHOD, 83, INLINE_NAMES CLR },
  { 186, 0, VERBOSE, METHOD, 84, INLINE_NAMES " FailAlways:bool FailReason:ansi" CLR,
    "Method/InliningFailedAnsi" },
  { 188, 0, VERBOSE, METHOD, 85, TAIL_NAMES " TailCallType:u32=TailCallType" CLR },
  { 189, 0, VERBOSE, METHOD, 86, TAIL_NAMES " FailReason:ansi" CLR },
  { 190, 0, VERBOSE, METHOD, 87, IL_MAP }, { 190, 1, VERBOSE, METHOD, 87, IL_MAP_1 },
  /* .NET Core: the failure reasons in UTF-16 (186 and 189 write them in
   * ANSI; PerfView tells the inlining ones apart by name). */
  { 191, 0, VERBOSE, METHOD, 86, TAIL_NAMES " FailReason:str" CLR },
  { 192, 0, VERBOSE, METHOD, 84, INLINE_NAMES " FailAlways:bool FailReason:str" CLR },
  { 146, 0, VERBOSE, METHOD, 103, "MethodID:x64 ModuleID:x64 JitHotCodeRequestSize:u64 "
    "JitRODataRequestSize:u64 AllocatedSizeForJitCode:u64 JitAllocFlag:u32" CLR },
  { 72, 0, INFO, METHOD, 43, "MethodID:x64 TypeID:x64 MethodToken:x32 TypeParameterCount:u32 "
    "LoaderModuleID:x64 TypeParameters:x64[TypeParameterCount]" },
  { 73, 0, INFO, TYPE_LOAD, 1, "TypeLoadStartID:u32" CLR },
  { 74, 0, INFO, TYPE_LOAD, 2, "TypeLoadStartID:u32" CLR " LoadLevel:u16 TypeID:x64 TypeName:str" },
  /* Loader */
  { 149, 0, INFO, LOADER, 35, MODULE_0 }, { 150, 0, INFO, LOADER, 36, MODULE_0 },
  { 151, 0, INFO, LOADER, 45, DOMAIN_MODULE_0 }, { 151, 1, INFO, LOADER, 45, DOMAIN_MODULE_0 CLR },
  { 152, 0, INFO, LOADER, 33, MODULE_0 }, { 152, 1, INFO, LOADER, 33, MODULE_0 CLR },
  { 152, 2, INFO, LOADER, 33, MODULE_2 },
  { 153, 0, INFO, LOADER, 34, MODULE_0 }, { 153, 1, INFO, LOADER, 34, MODULE_0 CLR },
  { 153, 2, INFO, LOADER, 34, MODULE_2 },
  { 154, 0, INFO, LOADER, 37, ASSEMBLY_0 }, { 154, 1, INFO, LOADER, 37, ASSEMBLY_1 },
  { 155, 0, INFO, LOADER, 38, ASSEMBLY_0 }, { 155, 1, INFO, LOADER, 38, ASSEMBLY_1 },
  { 156, 0, INFO, LOADER, 41, APP_DOMAIN_0 },
  { 156, 1, INFO, LOADER, 41, APP_DOMAIN_0 " AppDomainIndex:u32" CLR },
  { 157, 0, INFO, LOADER, 42, APP_DOMAIN_0 },
  { 157, 1, INFO, LOADER, 42, APP_DOMAIN_0 " AppDomainIndex:u32" CLR },
  { 158, 0, INFO, PERF_TRACK, 10, MODULE_RANGE },
  /* Security, runtime */
  { 181, 0, VERBOSE, STRONG_NAME, 1, VERIFICATION_0 "FullyQualifiedAssemblyName:str" },
  { 181, 1, VERBOSE, STRONG_NAME, 1, VERIFICATION_0 "FullyQualifiedAssemblyName:str" CLR },
  { 182, 0, INFO, STRONG_NAME, 2, VERIFICATION_0 "FullyQualifiedAssemblyName:str" },
  { 182, 1, INFO, STRONG_NAME, 2, VERIFICATION_0 "FullyQualifiedAssemblyName:str" CLR },
  { 183, 0, VERBOSE, AUTHENTICODE, 1, VERIFICATION_0 "ModulePath:str" },
  { 183, 1, VERBOSE, AUTHENTICODE, 1, VERIFICATION_0 "ModulePath:str" CLR },
  { 184, 0, INFO, AUTHENTICODE, 2, VERIFICATION_0 "ModulePath:str" },
  { 184, 1, INFO, AUTHENTICODE, 2, VERIFICATION_0 "ModulePath:str" CLR },
  { 187, 0, INFO, RUNTIME, 1, RUNTIME_INFO },
  /* Debugger, code symbols, EventSource events sent through the runtime */
  { 240, 0, INFO, DEBUG_IPC, 1 }, { 241, 0, INFO, DEBUG_IPC, 2 },
  { 242, 0, INFO, DEBUG_EXCEPTION, 1 }, { 243, 0, INFO, DEBUG_EXCEPTION, 2 },
  { 260, 0, VERBOSE, CODE_SYMBOLS, 1, "ModuleId:u64 TotalChunks:u16 ChunkNumber:u16 "
    "ChunkLength:u32 Chunk:bin(ChunkLength)" CLR },
  { 270, 0, INFO, 0, 0, "EventID:i32 EventName:str EventSourceName:str Payload:str",
    "EventSourceEvent" },
  /* .NET Core 3+: tiered compilation; the background JIT's start and stop
   * named as PerfView names them. */
  { 280, 0, INFO, TIERED, 11, TIERED_SETTINGS }, { 281, 0, INFO, TIERED, 12, ONLY_CLR },
  { 282, 0, INFO, TIERED, 13, ONLY_CLR " NewMethodCount:u32" },
  { 283, 0, INFO, TIERED, 1, ONLY_CLR " PendingMethodCount:u32",
    "TieredCompilation/BackgroundJitStart" },
  { 284, 0, INFO, TIERED, 2, ONLY_CLR " PendingMethodCount:u32 JittedMethodCount:u32",
    "TieredCompilation/BackgroundJitStop" },
  /* .NET Core 3+: how the assembly loader resolved a name, step by step. */
  { 290, 0, INFO, ASSEMBLY_LOADER, 1, ASSEMBLY_LOAD_START },
  { 291, 0, INFO, ASSEMBLY_LOADER, 2, ASSEMBLY_LOAD_START " Success:bool "
    "ResultAssemblyName:str ResultAssemblyPath:str Cached:bool" },
  { 292, 0, INFO, ASSEMBLY_LOADER, 11, ONLY_CLR " AssemblyName:str "
    "Stage:u16=ResolutionAttemptedStage AssemblyLoadContext:str "
    "Result:u16=ResolutionAttemptedResult ResultAssemblyName:str ResultAssemblyPath:str "
    "ErrorMessage:str" },
  { 293, 0, INFO, ASSEMBLY_LOADER, 12, ONLY_CLR " AssemblyName:str HandlerName:str "
    "AssemblyLoadContext:str ResultAssemblyName:str ResultAssemblyPath:str" },
  { 294, 0, INFO, ASSEMBLY_LOADER, 13, ONLY_CLR " AssemblyName:str HandlerName:str "
    "ResultAssemblyName:str ResultAssemblyPath:str" },
  { 295, 0, INFO, ASSEMBLY_LOADER, 14, ONLY_CLR " AssemblyName:str IsTrackedLoad:bool "
    "RequestingAssemblyPath:str ComputedRequestedAssemblyPath:str" },
  { 296, 0, INFO, ASSEMBLY_LOADER, 15, ONLY_CLR " FilePath:str Source:u16=KnownPathSource "
    "Result:i32" },
  /* .NET 6+: profile data the JIT instrumented; profiler messages; named
   * start-up checkpoints. */
  { 297, 0, INFO, JIT_INSTRUMENTATION, 11, JIT_DATA_HEAD " Data:bin(DataSize)" },
  { 298, 0, INFO, JIT_INSTRUMENTATION, 12, JIT_DATA_HEAD " ModuleID:x64 MethodToken:x32 "
    "MethodNamespace:str MethodName:str MethodSignature:str Data:bin(DataSize)",
    "JitInstrumentationDataVerbose/InstrumentationData" },
  { 299, 0, INFO, PROFILER, 11, ONLY_CLR " Message:str" },
  { 300, 0, INFO, CHECKPOINT, 11, CHECKPOINT_0 },
};

const EtBuiltinProvider _et_builtin_clr_runtime = {
  "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime",
  tasks, G_N_ELEMENTS (tasks), opcodes, G_N_ELEMENTS (opcodes),
  _et_builtin_clr_maps, &_et_builtin_clr_n_maps, events, G_N_ELEMENTS (events),
};
