/* et-builtin-clr-layouts.h — payload layouts the runtime's providers
 * share (the Rundown provider's method and loader events are the runtime's
 * own), in the compact form of et-builtin-private.h. Included only by
 * et-builtin-clr*.c. */
#pragma once

#define ALWAYS 0
#define ERROR 2
#define INFO 4
#define VERBOSE 5

#define CLR " ClrInstanceID:u16"
#define ONLY_CLR "ClrInstanceID:u16"

#define GC_START_0 "Count:u32 Reason:u32=GCReason"
#define GC_START_1 "Count:u32 Depth:u32 Reason:u32=GCReason Type:u32=GCType" CLR
#define GC_END_1 "Count:u32 Depth:u32" CLR
#define HEAP_STATS_0 "GenerationSize0:u64 TotalPromotedSize0:u64 GenerationSize1:u64 " \
  "TotalPromotedSize1:u64 GenerationSize2:u64 TotalPromotedSize2:u64 GenerationSize3:u64 " \
  "TotalPromotedSize3:u64 FinalizationPromotedSize:u64 FinalizationPromotedCount:u64 " \
  "PinnedObjectCount:u32 SinkBlockCount:u32 GCHandleCount:u32"
#define SEGMENT_0 "Address:x64 Size:x64 Type:u32=GCSegmentType"
#define SUSPEND_1 "Reason:u32=GCSuspendEEReason Count:u32" CLR
#define ALLOC_1 "AllocationAmount:u32 AllocationKind:u32=GCAllocationKind" CLR
#define ALLOC_2 ALLOC_1 " AllocationAmount64:u64 TypeID:ptr TypeName:str HeapIndex:u32"
#define ALLOC_3 ALLOC_2 " Address:ptr"
#define GC_MARK "HeapNum:u32" CLR
#define GLOBAL_HEAP_0 "FinalYoungestDesired:u64 NumHeaps:i32 CondemnedGeneration:u32 " \
  "Gen0ReductionCount:u32 Reason:u32=GCReason GlobalMechanisms:u32=GCGlobalMechanisms"
#define GLOBAL_HEAP_2 GLOBAL_HEAP_0 CLR " PauseMode:u32=GCPauseMode MemoryPressure:u32"
#define GLOBAL_HEAP_3 GLOBAL_HEAP_2 " CondemnReasons0:u32 CondemnReasons1:u32"
/* The per-heap history: one record per generation, pointer-sized sizes.
 * .NET 4.5.2 (version 2, public or private provider) writes five of them
 * first and the heap's figures after; from .NET 4.6 (version 3) the
 * figures come first and Count says how many generations follow. The
 * mechanisms name the GC's reason (maps GCCompactMechanisms,
 * GCExpandMechanisms). */
#define GEN_DATA_HEAD "SizeBefore:ptr FreeListSpaceBefore:ptr FreeObjSpaceBefore:ptr " \
  "SizeAfter:ptr FreeListSpaceAfter:ptr FreeObjSpaceAfter:ptr In:ptr"
#define PER_HEAP_2 "Values{" GEN_DATA_HEAD " Out:ptr NewAllocation:ptr Surv:ptr}[5] " \
  "CondemnReasons0:u32 CondemnReasons1:u32 MemoryPressure:u32 " \
  "ExpandMechanisms:u32=GCExpandMechanisms CompactMechanisms:u32=GCCompactMechanisms " \
  "HeapIndex:u32 ExtraGen0Commit:u64 ClrInstanceID:u8"
#define PER_HEAP_3 ONLY_CLR " FreeListAllocated:ptr FreeListRejected:ptr EndOfSegAllocated:ptr " \
  "CondemnedAllocated:ptr PinnedAllocated:ptr PinnedAllocatedAdvance:ptr " \
  "RunningFreeListEfficiency:u32 CondemnReasons0:u32 CondemnReasons1:u32 " \
  "CompactMechanisms:u32=GCCompactMechanisms ExpandMechanisms:u32=GCExpandMechanisms " \
  "HeapIndex:u32 ExtraGen0Commit:ptr Count:u32 " \
  "Values{" GEN_DATA_HEAD " PinnedSurv:ptr NonePinnedSurv:ptr NewAllocation:ptr}[Count]"
/* The bulk events' head: which batch of the heap walk, how many values. */
#define RANGES_HEAD "Index:u32 Count:u32" CLR
#define SAMPLED_ALLOCATION "Address:ptr TypeID:ptr ObjectCountForTypeSample:u32 " \
  "TotalSizeForTypeSample:u64" CLR
#define WORKER "ActiveWorkerThreadCount:u32 RetiredWorkerThreadCount:u32" CLR
#define IO_THREAD_0 "IOThreadCount:u32 RetiredIOThreads:u32"
#define EXCEPTION_1 "ExceptionType:str ExceptionMessage:str ExceptionEIP:ptr " \
  "ExceptionHRESULT:x32 ExceptionFlags:u16=ExceptionFlags" CLR
#define EXCEPTION_CLAUSE "EntryEIP:x64 MethodID:u64 MethodName:str" CLR
#define CONTENTION_1 "ContentionFlags:u8=ContentionFlags" CLR
#define METHOD_0 "MethodID:u64 ModuleID:u64 MethodStartAddress:x64 MethodSize:u32 " \
  "MethodToken:u32 MethodFlags:u32=MethodFlags"
#define METHOD_V0 METHOD_0 " MethodNamespace:str MethodName:str MethodSignature:str"
#define JITTING_0 "MethodID:u64 ModuleID:u64 MethodToken:u32 MethodILSize:u32 " \
  "MethodNamespace:str MethodName:str MethodSignature:str"
#define IL_MAP "MethodID:u64 ReJITID:u64 MethodExtent:u8 CountOfMapEntries:u16 " \
  "ILOffsets:u32[CountOfMapEntries] NativeOffsets:u32[CountOfMapEntries]" CLR
#define DOMAIN_MODULE_0 "ModuleID:u64 AssemblyID:u64 AppDomainID:u64 " \
  "ModuleFlags:u32=ModuleFlags Reserved1:u32 ModuleILPath:str ModuleNativePath:str"
#define MODULE_0 "ModuleID:u64 AssemblyID:u64 ModuleFlags:u32=ModuleFlags Reserved1:u32 " \
  "ModuleILPath:str ModuleNativePath:str"
#define MODULE_2 MODULE_0 CLR " ManagedPdbSignature:guid ManagedPdbAge:u32 " \
  "ManagedPdbBuildPath:str NativePdbSignature:guid NativePdbAge:u32 NativePdbBuildPath:str"
#define ASSEMBLY_0 "AssemblyID:u64 AppDomainID:u64 AssemblyFlags:u32=AssemblyFlags " \
  "FullyQualifiedAssemblyName:str"
#define ASSEMBLY_1 "AssemblyID:u64 AppDomainID:u64 BindingID:u64 " \
  "AssemblyFlags:u32=AssemblyFlags FullyQualifiedAssemblyName:str" CLR
#define APP_DOMAIN_0 "AppDomainID:u64 AppDomainFlags:u32=AppDomainFlags AppDomainName:str"
#define THREAD_CREATED "ManagedThreadID:u64 AppDomainID:u64 Flags:u32 ManagedThreadIndex:u32 " \
  "OSThreadID:u32" CLR
#define RUNTIME_INFO ONLY_CLR " Sku:u16=RuntimeSku BclMajorVersion:u16 BclMinorVersion:u16 " \
  "BclBuildNumber:u16 BclQfeNumber:u16 VMMajorVersion:u16 VMMinorVersion:u16 " \
  "VMBuildNumber:u16 VMQfeNumber:u16 StartupFlags:u32=StartupFlags " \
  "StartupMode:u8=StartupMode CommandLine:str ComObjectGuid:guid RuntimeDllPath:str"
#define STACK_WALK ONLY_CLR " Reserved1:u8 Reserved2:u8 FrameCount:u32 Stack:ptr[FrameCount]"
#define MODULE_RANGE ONLY_CLR " ModuleID:u64 RangeBegin:x32 RangeSize:x32 " \
  "RangeType:u8=ModuleRangeType"
#define INLINE_NAMES "MethodBeingCompiledNamespace:str MethodBeingCompiledName:str " \
  "MethodBeingCompiledNameSignature:str InlinerNamespace:str InlinerName:str " \
  "InlinerNameSignature:str InlineeNamespace:str InlineeName:str InlineeNameSignature:str"
#define TAIL_NAMES "MethodBeingCompiledNamespace:str MethodBeingCompiledName:str " \
  "MethodBeingCompiledNameSignature:str CallerNamespace:str CallerName:str " \
  "CallerNameSignature:str CalleeNamespace:str CalleeName:str CalleeNameSignature:str " \
  "TailPrefix:bool"
#define VERIFICATION_0 "VerificationFlags:x32 ErrorCode:x32 "
#define IL_MAP_1 IL_MAP " ILVersionID:u64"
#define GC_JOIN "Heap:u32 JoinTime:u32 JoinType:u32"
/* .NET Core 3+ (runtime and Rundown): the tiering settings, the named
 * start-up checkpoints. */
#define TIERED_SETTINGS ONLY_CLR " Flags:x32=TieredCompilationSettingsFlags"
#define CHECKPOINT_0 ONLY_CLR " Name:str Timestamp:i64"

