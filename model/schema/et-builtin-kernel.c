/* et-builtin-kernel.c — the kernel's classic (MOF) classes without a schema
 * in the trace: EventTrace, Process, Thread, Image, PerfInfo, StackWalk and
 * SystemConfig (the I/O groups and KernelTraceControl are in
 * et-builtin-kernel-io.c).
 *
 * A kernel record carries no GUID and no event id: its group (the high byte
 * of HookId, or the class GUID of a full header) is the provider, and its
 * event type (the "opcode") with the layout version picks the event. So
 * every table here is one provider keyed by group GUID, whose events have
 * the event type for id; every version of a layout is its own entry, and a
 * version not listed decodes with the highest one (et_manifest_lookup).
 * Pointer-sized fields ("ptr") take the record's pointer size, so 32- and
 * 64-bit layouts are one entry.
 *
 * Layouts follow Microsoft's documentation of the MSNT_SystemTrace classes;
 * event names are the ones PerfView shows ("Process/Start", "Thread/CSwitch",
 * "PerfInfo/Sample"), and where the kernel's own name differs the table
 * says so (model/README.md lists these aliases).
 */
#include "et-builtin-kernel.h"

/* ─────────────────────────────── maps ─────────────────────────────── */

const EtBuiltinMapEntry _et_builtin_kernel_maps[] = {
  { "ProcessFlags", TRUE, 0, "None" }, { "ProcessFlags", TRUE, 1, "PackageFullName" },
  { "ProcessFlags", TRUE, 2, "Wow64" }, { "ProcessFlags", TRUE, 4, "Protected" },
  { "ThreadState", FALSE, 0, "Initialized" }, { "ThreadState", FALSE, 1, "Ready" },
  { "ThreadState", FALSE, 2, "Running" }, { "ThreadState", FALSE, 3, "Standby" },
  { "ThreadState", FALSE, 4, "Terminated" }, { "ThreadState", FALSE, 5, "Waiting" },
  { "ThreadState", FALSE, 6, "Transition" }, { "ThreadState", FALSE, 7, "DeferredReady" },
  /* KWAIT_REASON */
  { "WaitReason", FALSE, 0, "Executive" }, { "WaitReason", FALSE, 1, "FreePage" },
  { "WaitReason", FALSE, 2, "PageIn" }, { "WaitReason", FALSE, 3, "PoolAllocation" },
  { "WaitReason", FALSE, 4, "DelayExecution" }, { "WaitReason", FALSE, 5, "Suspended" },
  { "WaitReason", FALSE, 6, "UserRequest" }, { "WaitReason", FALSE, 7, "WrExecutive" },
  { "WaitReason", FALSE, 8, "WrFreePage" }, { "WaitReason", FALSE, 9, "WrPageIn" },
  { "WaitReason", FALSE, 10, "WrPoolAllocation" }, { "WaitReason", FALSE, 11, "WrDelayExecution" },
  { "WaitReason", FALSE, 12, "WrSuspended" }, { "WaitReason", FALSE, 13, "WrUserRequest" },
  { "WaitReason", FALSE, 14, "WrEventPair" }, { "WaitReason", FALSE, 15, "WrQueue" },
  { "WaitReason", FALSE, 16, "WrLpcReceive" }, { "WaitReason", FALSE, 17, "WrLpcReply" },
  { "WaitReason", FALSE, 18, "WrVirtualMemory" }, { "WaitReason", FALSE, 19, "WrPageOut" },
  { "WaitReason", FALSE, 20, "WrRendezvous" }, { "WaitReason", FALSE, 21, "WrKeyedEvent" },
  { "WaitReason", FALSE, 22, "WrTerminated" }, { "WaitReason", FALSE, 23, "WrProcessInSwap" },
  { "WaitReason", FALSE, 24, "WrCpuRateControl" }, { "WaitReason", FALSE, 25, "WrCalloutStack" },
  { "WaitReason", FALSE, 26, "WrKernel" }, { "WaitReason", FALSE, 27, "WrResource" },
  { "WaitReason", FALSE, 28, "WrPushLock" }, { "WaitReason", FALSE, 29, "WrMutex" },
  { "WaitReason", FALSE, 30, "WrQuantumEnd" }, { "WaitReason", FALSE, 31, "WrDispatchInt" },
  { "WaitReason", FALSE, 32, "WrPreempted" }, { "WaitReason", FALSE, 33, "WrYieldExecution" },
  { "WaitReason", FALSE, 34, "WrFastMutex" }, { "WaitReason", FALSE, 35, "WrGuardedMutex" },
  { "WaitReason", FALSE, 36, "WrRundown" }, { "WaitReason", FALSE, 37, "WrAlertByThreadId" },
  { "WaitReason", FALSE, 38, "WrDeferredPreempt" },
  { "WaitMode", FALSE, 0, "KernelMode" }, { "WaitMode", FALSE, 1, "UserMode" },
};
const guint _et_builtin_kernel_n_maps = G_N_ELEMENTS (_et_builtin_kernel_maps);

#define EV ET_KERNEL_EV
#define NAMED ET_KERNEL_NAMED
#define PROVIDER ET_KERNEL_PROVIDER

/* ─────────────────────────── EventTrace (0x00) ─────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_header_opcodes[] = {
  { 1, 5, "Extension" }, { 1, 8, "RundownComplete" }, { 1, 32, "EndExtension" },
};

/* TRACE_LOGFILE_HEADER (etl-format.md §6); the time zone is 172 bytes and
 * 4 of padding before BootTime. */
#define LOGFILE_HEADER "BufferSize:u32 Version:x32 ProviderVersion:u32 NumberOfProcessors:u32 " \
  "EndTime:ft TimerResolution:u32 MaxFileSize:u32 LogFileMode:x32 BuffersWritten:u32 "          \
  "StartBuffers:u32 PointerSize:u32 EventsLost:u32 CPUSpeed:u32 LoggerNamePointer:ptr "         \
  "LogFileNamePointer:ptr TimeZoneInformation:bin(176) BootTime:ft PerfFreq:u64 StartTime:ft " \
  "ReservedFlags:u32 BuffersLost:u32 SessionName:str LogFileName:str"
#define GROUP_MASKS "GroupMask1:x32 GroupMask2:x32 GroupMask3:x32 GroupMask4:x32 " \
  "GroupMask5:x32 GroupMask6:x32 GroupMask7:x32 GroupMask8:x32 KernelEventVersion:u32"

static const EtBuiltinEvent _et_builtin_kernel_header_events[] = {
  EV (0, 2, LOGFILE_HEADER), EV (5, 2, GROUP_MASKS), EV (32, 2, GROUP_MASKS), EV (8, 2, NULL),
};
PROVIDER (_et_builtin_kernel_header, "68fdd900-4a3e-11d1-84f4-0000f80464e3", "EventTrace");

/* ───────────────────────────── Process (0x03) ───────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_process_opcodes[] = {
  { 1, 3, "DCStart" }, { 1, 4, "DCStop" }, { 1, 11, "Terminate" }, { 1, 32, "PerfCtr" },
  { 1, 33, "PerfCtrRundown" }, { 1, 39, "Defunct" },
};

/* Kernel names DirectoryTableBase "PageDirectoryBase" before version 3 and
 * PerfView keeps that name; End and DCEnd are PerfView's Stop and DCStop. */
#define PROC_IDS "ProcessID:u32 ParentID:u32 SessionID:u32 ExitStatus:i32"
#define PROC_1 "PageDirectoryBase:ptr " PROC_IDS " UserSID:ksid ImageFileName:ansi"
#define PROC_2 "UniqueProcessKey:ptr " PROC_IDS " UserSID:ksid ImageFileName:ansi CommandLine:str"
#define PROC_3 "UniqueProcessKey:ptr " PROC_IDS " PageDirectoryBase:ptr UserSID:ksid " \
  "ImageFileName:ansi CommandLine:str"
#define PROC_4 "UniqueProcessKey:ptr " PROC_IDS " PageDirectoryBase:ptr "            \
  "Flags:u32=ProcessFlags UserSID:ksid ImageFileName:ansi CommandLine:str "         \
  "PackageFullName:str ApplicationID:str"
#define PROC_5 PROC_4 " ExitTime:ft"
#define PROC_CTR "ProcessID:u32 PageFaultCount:u32 HandleCount:u32 Reserved:u32 "   \
  "PeakVirtualSize:ptr PeakWorkingSetSize:ptr PeakPagefileUsage:ptr "               \
  "QuotaPeakPagedPoolUsage:ptr QuotaPeakNonPagedPoolUsage:ptr VirtualSize:ptr "      \
  "WorkingSetSize:ptr PagefileUsage:ptr QuotaPagedPoolUsage:ptr "                   \
  "QuotaNonPagedPoolUsage:ptr PrivatePageCount:ptr"
#define PROC_VERSIONS(op) EV (op, 1, PROC_1), EV (op, 2, PROC_2), EV (op, 3, PROC_3), \
  EV (op, 4, PROC_4), EV (op, 5, PROC_5)

static const EtBuiltinEvent _et_builtin_kernel_process_events[] = {
  PROC_VERSIONS (1), PROC_VERSIONS (2), PROC_VERSIONS (3), PROC_VERSIONS (4),
  PROC_VERSIONS (39),
  EV (11, 2, "ProcessID:u32"), EV (32, 2, PROC_CTR), EV (33, 2, PROC_CTR),
};
PROVIDER (_et_builtin_kernel_process, "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", "Process");

/* ───────────────────────────── Thread (0x05) ───────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_thread_opcodes[] = {
  { 1, 3, "DCStart" }, { 1, 4, "DCStop" }, { 1, 36, "CSwitch" }, { 1, 37, "CompCS" },
  { 1, 50, "ReadyThread" }, { 1, 72, "SetName" },
};

#define THREAD_IDS "ProcessId:u32 TThreadId:u32"
#define THREAD_STACKS THREAD_IDS " StackBase:ptr StackLimit:ptr UserStackBase:ptr " \
  "UserStackLimit:ptr StartAddr:ptr Win32StartAddr:ptr"
#define THREAD_2 THREAD_STACKS " TebBase:ptr SubProcessTag:x32"
/* Version 3 ends with the thread's name on later Windows (PerfView reads
 * it when the payload is long enough); version 4 always has it. */
#define THREAD_3 THREAD_2 " BasePriority:u8 PagePriority:u8 IoPriority:u8 ThreadFlags:u8 " \
  "ThreadName:str?"
#define THREAD_4 THREAD_2 " BasePriority:u8 PagePriority:u8 IoPriority:u8 ThreadFlags:u8 " \
  "ThreadName:str"
#define THREAD_VERSIONS(op) EV (op, 2, THREAD_2), EV (op, 3, THREAD_3), EV (op, 4, THREAD_4)
#define CSWITCH "NewThreadId:u32 OldThreadId:u32 NewThreadPriority:i8 OldThreadPriority:i8 " \
  "PreviousCState:u8 SpareByte:i8 OldThreadWaitReason:i8=WaitReason "                         \
  "OldThreadWaitMode:i8=WaitMode OldThreadState:i8=ThreadState "                             \
  "OldThreadWaitIdealProcessor:i8 NewThreadWaitTime:u32 Reserved:u32"

static const EtBuiltinEvent _et_builtin_kernel_thread_events[] = {
  /* Version 1: Start and DCStart carry stacks, End and DCEnd only ids. */
  EV (1, 1, THREAD_STACKS " WaitMode:i8=WaitMode"), EV (3, 1, THREAD_STACKS " WaitMode:i8=WaitMode"),
  EV (2, 1, THREAD_IDS), EV (4, 1, THREAD_IDS),
  THREAD_VERSIONS (1), THREAD_VERSIONS (2), THREAD_VERSIONS (3), THREAD_VERSIONS (4),
  EV (36, 2, CSWITCH), EV (37, 2, NULL),
  /* PerfView files the kernel's ReadyThread under "Dispatcher". */
  NAMED (50, 2, "TThreadId:u32 AdjustReason:i8 AdjustIncrement:i8 Flag:i8 Reserved:i8",
         "Dispatcher/ReadyThread"),
  EV (72, 2, THREAD_IDS " ThreadName:str"),
};
PROVIDER (_et_builtin_kernel_thread, "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", "Thread");

/* ───────────────── Image (0x14, and HookId 0x030A: Image/Load) ───────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_image_opcodes[] = {
  { 1, 3, "DCStart" }, { 1, 4, "DCStop" }, { 1, 10, "Load" }, { 1, 33, "KernelBase" },
  { 1, 34, "HypercallPage" },
};

#define IMAGE_HEAD "ImageBase:ptr ImageSize:ptr ProcessId:u32 ImageChecksum:u32 TimeDateStamp:i32"
#define IMAGE_TAIL "DefaultBase:ptr Reserved1:u32 Reserved2:u32 Reserved3:u32 Reserved4:u32 " \
  "FileName:str"
#define IMAGE_1 "ImageBase:ptr ImageSize:ptr ProcessId:u32 FileName:str"
#define IMAGE_2 IMAGE_HEAD " Reserved0:u32 " IMAGE_TAIL
#define IMAGE_3 IMAGE_HEAD " SignatureLevel:u8 SignatureType:u8 Reserved0:u16 " IMAGE_TAIL
#define IMAGE_VERSIONS(op) EV (op, 1, IMAGE_1), EV (op, 2, IMAGE_2), EV (op, 3, IMAGE_3)

static const EtBuiltinEvent _et_builtin_kernel_image_events[] = {
  IMAGE_VERSIONS (10), IMAGE_VERSIONS (3), IMAGE_VERSIONS (4),
  /* Type 2 is the kernel's End, "Unload" to PerfView. */
  NAMED (2, 1, IMAGE_1, "Image/Unload"), NAMED (2, 2, IMAGE_2, "Image/Unload"),
  NAMED (2, 3, IMAGE_3, "Image/Unload"),
  EV (33, 2, "ImageBase:ptr"), EV (34, 2, "HypercallPageVa:ptr"),
};
PROVIDER (_et_builtin_kernel_image, "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", "Image");

/* ───────────────────────────── PerfInfo (0x0F) ───────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_perfinfo_opcodes[] = {
  { 1, 46, "Sample" }, { 1, 47, "PMCSample" }, { 1, 50, "ISR-MSI" }, { 1, 51, "SysClEnter" },
  { 1, 52, "SysClExit" }, { 1, 66, "ThreadedDPC" }, { 1, 67, "ISR" }, { 1, 68, "DPC" },
  { 1, 69, "TimerDPC" }, { 1, 72, "SetInterval" }, { 1, 73, "CollectionStart" },
  { 1, 74, "CollectionEnd" },
};

/* SampledProfile is "PerfInfo/Sample" in PerfView. Its Reserved word holds
 * the flags PerfView splits into ExecutingDPC, ExecutingISR and Priority. */
#define INTERVAL "SampleSource:u32 NewInterval:u32 OldInterval:u32"
#define ISR "InitialTime:u64 Routine:ptr ReturnValue:u8 Vector:u8 Reserved:u16"
#define DPC "InitialTime:u64 Routine:ptr"

static const EtBuiltinEvent _et_builtin_kernel_perfinfo_events[] = {
  EV (46, 2, "InstructionPointer:ptr ThreadId:u32 Count:u16 Reserved:u16"),
  EV (47, 2, "InstructionPointer:ptr ThreadId:u32 ProfileSource:u16 Reserved:u16"),
  EV (50, 2, ISR " MessageNumber:u32"), EV (67, 2, ISR),
  EV (66, 2, DPC), EV (68, 2, DPC), EV (69, 2, DPC),
  EV (51, 2, "SysCallAddress:ptr"), EV (52, 2, "SysCallNtStatus:x32"),
  EV (72, 2, INTERVAL), EV (73, 2, INTERVAL), EV (74, 2, INTERVAL),
  EV (72, 3, INTERVAL " SourceName:str"), EV (73, 3, INTERVAL " SourceName:str"),
  EV (74, 3, INTERVAL " SourceName:str"),
};
PROVIDER (_et_builtin_kernel_perfinfo, "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", "PerfInfo");

/* ──────────────────────────── StackWalk (0x18) ──────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_stack_opcodes[] = {
  { 1, 32, "Stack" }, { 1, 35, "KeyDelete" }, { 1, 36, "KeyRundown" },
  { 1, 37, "StackKeyKernel" }, { 1, 38, "StackKeyUser" },
};

/* The frames fill the rest of the payload: there is no count. */
#define STACK_KEY_DEF "StackKey:ptr Stack:ptr[*]"

static const EtBuiltinEvent _et_builtin_kernel_stack_events[] = {
  EV (32, 2, "EventTimeStamp:u64 StackProcess:u32 StackThread:u32 Stack:ptr[*]"),
  EV (35, 2, STACK_KEY_DEF), EV (36, 2, STACK_KEY_DEF),
  EV (37, 2, "EventTimeStamp:u64 StackProcess:u32 StackThread:u32 StackKey:ptr"),
  EV (38, 2, "EventTimeStamp:u64 StackProcess:u32 StackThread:u32 StackKey:ptr"),
};
PROVIDER (_et_builtin_kernel_stack, "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", "StackWalk");

/* ─────────────────────────── SystemConfig (0x0B) ─────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_config_opcodes[] = {
  { 1, 10, "CPU" }, { 1, 11, "PhyDisk" }, { 1, 12, "LogDisk" }, { 1, 13, "NIC" },
  { 1, 14, "Video" }, { 1, 15, "Services" }, { 1, 16, "Power" }, { 1, 17, "Network" },
  { 1, 21, "IRQ" }, { 1, 22, "PnP" }, { 1, 23, "IDEChannel" }, { 1, 25, "Platform" },
};

#define CPU_2 "MHz:u32 NumberOfProcessors:u32 MemSize:u32 PageSize:u32 " \
  "AllocationGranularity:u32 ComputerName:str(256) DomainName:str(134) HyperThreadingFlag:ptr"
#define CPU_3 CPU_2 " HighestUserAddress:ptr ProcessorArchitecture:u16 ProcessorLevel:u16 " \
  "ProcessorRevision:u16 PaeEnabled:u8 NxEnabled:u8 MemorySpeed:u32"
#define PHY_DISK "DiskNumber:u32 BytesPerSector:u32 SectorsPerTrack:u32 "                 \
  "TracksPerCylinder:u32 Cylinders:u64 SCSIPort:u32 SCSIPath:u32 SCSITarget:u32 "         \
  "SCSILun:u32 Manufacturer:str(256) PartitionCount:u32 WriteCacheEnabled:u8 Pad:u8 "     \
  "BootDriveLetter:str(3) Spare:str(2)"
#define LOG_DISK "StartOffset:u64 PartitionSize:u64 DiskNumber:u32 Size:u32 DriveType:u32 "  \
  "DriveLetterString:str(4) Pad1:u32 PartitionNumber:u32 SectorsPerCluster:u32 "            \
  "BytesPerSector:u32 Pad2:u32 NumberOfFreeClusters:i64 TotalNumberOfClusters:i64 "         \
  "FileSystem:str(16) VolumeExt:u32"
#define VIDEO "MemorySize:u32 XResolution:u32 YResolution:u32 BitsPerPixel:u32 VRefresh:u32 " \
  "ChipType:str(256) DACType:str(256) AdapterString:str(256) BiosString:str(256) "           \
  "DeviceID:str(256) StateFlags:x32"
#define PNP_NAMES "DeviceID:str DeviceDescription:str FriendlyName:str"
#define SERVICES "ProcessId:u32 ServiceState:u32 SubProcessTag:u32 ServiceName:str " \
  "DisplayName:str ProcessName:str"

static const EtBuiltinEvent _et_builtin_kernel_config_events[] = {
  EV (10, 2, CPU_2), EV (10, 3, CPU_3), EV (11, 2, PHY_DISK), EV (12, 2, LOG_DISK),
  EV (13, 2, "PhysicalAddr:i64 PhysicalAddrLen:u32 Ipv4Index:u32 Ipv6Index:u32 "
             "NICDescription:str IpAddresses:str DnsServerAddresses:str"),
  EV (14, 2, VIDEO),
  EV (15, 2, SERVICES), EV (15, 3, SERVICES " LoadOrderGroup:str? SvchostGroup:str?"),
  EV (16, 2, "S1:u8 S2:u8 S3:u8 S4:u8 S5:u8 Pad1:u8 Pad2:u8 Pad3:u8"),
  EV (17, 2, "TcbTablePartitions:u32 MaxHashTableSize:u32 MaxUserPort:u32 TcpTimedWaitDelay:u32"),
  EV (21, 2, "IRQAffinity:x64 IRQNum:u32 DeviceDescriptionLen:u32 DeviceDescription:str"),
  EV (22, 2, "IDLength:u32 DescriptionLength:u32 FriendlyNameLength:u32 " PNP_NAMES),
  EV (22, 4, "ClassGuid:guid UpperFilterCount:u32 LowerFilterCount:u32 " PNP_NAMES
             " PdoName:str ServiceName:str"),
  EV (22, 5, "ClassGuid:guid UpperFilterCount:u32 LowerFilterCount:u32 DevStatus:x32 "
             "DevProblem:u32 " PNP_NAMES " PdoName:str ServiceName:str"),
  EV (23, 2, "TargetID:u32 DeviceType:u32 DeviceTimingMode:u32 LocationInformationLen:u32 "
             "LocationInformation:str"),
  EV (25, 2, "SystemManufacturer:str SystemProductName:str BiosDate:str BiosVersion:str"),
};
PROVIDER (_et_builtin_kernel_config, "01853a65-418f-4f36-aefc-dc0f1d2fd235", "SystemConfig");
