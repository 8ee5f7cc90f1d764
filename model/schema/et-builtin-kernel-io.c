/* et-builtin-kernel-io.c — the kernel's I/O classes (DiskIo, FileIo,
 * PageFault, TcpIp, UdpIp) and the KernelTraceControl classes a relogged
 * PerfView/WPR trace carries (ImageID with its DbgID records, SysConfig,
 * MetaData), in the form of et-builtin-kernel.c.
 *
 * PerfView's names differ from the kernel's for three classes: DiskIo is
 * "DiskIO", FileIo "FileIO" and PageFault "Memory"; KernelTraceControl's
 * SysConfig class shows as "SysConfig" (model/README.md, aliases).
 */
#include "et-builtin-kernel.h"

#define EV ET_KERNEL_EV
#define NAMED ET_KERNEL_NAMED
#define PROVIDER ET_KERNEL_PROVIDER

/* ───────────────────────────── DiskIo (0x01) ───────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_disk_opcodes[] = {
  { 1, 10, "Read" }, { 1, 11, "Write" }, { 1, 12, "ReadInit" }, { 1, 13, "WriteInit" },
  { 1, 14, "FlushBuffers" }, { 1, 15, "FlushInit" },
};

/* FileObject is what PerfView calls FileKey. */
#define DISK_RW_2 "DiskNumber:u32 IrpFlags:x32 TransferSize:u32 Reserved:u32 ByteOffset:i64 " \
  "FileObject:ptr Irp:ptr HighResResponseTime:u64"
#define DISK_FLUSH_2 "DiskNumber:u32 IrpFlags:x32 HighResResponseTime:u64 Irp:ptr"
#define ISSUER " IssuingThreadId:u32"

static const EtBuiltinEvent _et_builtin_kernel_disk_events[] = {
  EV (10, 2, DISK_RW_2), EV (11, 2, DISK_RW_2), EV (10, 3, DISK_RW_2 ISSUER),
  EV (11, 3, DISK_RW_2 ISSUER),
  EV (12, 2, "Irp:ptr"), EV (13, 2, "Irp:ptr"), EV (15, 2, "Irp:ptr"),
  EV (12, 3, "Irp:ptr" ISSUER), EV (13, 3, "Irp:ptr" ISSUER), EV (15, 3, "Irp:ptr" ISSUER),
  EV (14, 2, DISK_FLUSH_2), EV (14, 3, DISK_FLUSH_2 ISSUER),
};
PROVIDER (_et_builtin_kernel_disk, "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", "DiskIO");

/* ───────────────────────────── FileIo (0x04) ───────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_file_opcodes[] = {
  { 1, 32, "FileCreate" }, { 1, 35, "FileDelete" }, { 1, 36, "FileRundown" },
  { 1, 64, "Create" }, { 1, 65, "Cleanup" }, { 1, 66, "Close" }, { 1, 67, "Read" },
  { 1, 68, "Write" }, { 1, 69, "SetInfo" }, { 1, 70, "Delete" }, { 1, 71, "Rename" },
  { 1, 72, "DirEnum" }, { 1, 73, "Flush" }, { 1, 74, "QueryInfo" }, { 1, 75, "FSControl" },
  { 1, 76, "OperationEnd" }, { 1, 77, "DirNotify" },
};

/* Version 2 put the thread id (TTID, pointer-sized) second; version 3
 * moved it after the file objects as a u32. */
#define FILE_NAME "FileObject:ptr FileName:str"
#define FILE_CREATE_TAIL "CreateOptions:x32 FileAttributes:x32 ShareAccess:x32 OpenPath:str"
#define FILE_CREATE_2 "IrpPtr:ptr TTID:ptr FileObject:ptr " FILE_CREATE_TAIL
#define FILE_CREATE_3 "IrpPtr:ptr FileObject:ptr TTID:u32 " FILE_CREATE_TAIL
#define FILE_SIMPLE_2 "IrpPtr:ptr TTID:ptr FileObject:ptr FileKey:ptr"
#define FILE_SIMPLE_3 "IrpPtr:ptr FileObject:ptr FileKey:ptr TTID:u32"
#define FILE_RW_2 "Offset:u64 IrpPtr:ptr TTID:ptr FileObject:ptr FileKey:ptr IoSize:u32 IoFlags:x32"
#define FILE_RW_3 "Offset:u64 IrpPtr:ptr FileObject:ptr FileKey:ptr TTID:u32 IoSize:u32 IoFlags:x32"
#define FILE_INFO_2 "IrpPtr:ptr TTID:ptr FileObject:ptr FileKey:ptr ExtraInfo:ptr InfoClass:u32"
#define FILE_INFO_3 "IrpPtr:ptr FileObject:ptr FileKey:ptr ExtraInfo:ptr TTID:u32 InfoClass:u32"
#define FILE_DIR_TAIL "Length:u32 InfoClass:u32 FileIndex:u32 FileName:str"
#define FILE_DIR_2 FILE_SIMPLE_2 " " FILE_DIR_TAIL
#define FILE_DIR_3 FILE_SIMPLE_3 " " FILE_DIR_TAIL

static const EtBuiltinEvent _et_builtin_kernel_file_events[] = {
  NAMED (0, 2, FILE_NAME, "FileIO/Name"), EV (32, 2, FILE_NAME), EV (35, 2, FILE_NAME),
  EV (36, 2, FILE_NAME),
  EV (64, 2, FILE_CREATE_2), EV (64, 3, FILE_CREATE_3),
  EV (65, 2, FILE_SIMPLE_2), EV (66, 2, FILE_SIMPLE_2), EV (73, 2, FILE_SIMPLE_2),
  EV (65, 3, FILE_SIMPLE_3), EV (66, 3, FILE_SIMPLE_3), EV (73, 3, FILE_SIMPLE_3),
  EV (67, 2, FILE_RW_2), EV (68, 2, FILE_RW_2), EV (67, 3, FILE_RW_3), EV (68, 3, FILE_RW_3),
  EV (69, 2, FILE_INFO_2), EV (70, 2, FILE_INFO_2), EV (71, 2, FILE_INFO_2),
  EV (74, 2, FILE_INFO_2), EV (75, 2, FILE_INFO_2),
  EV (69, 3, FILE_INFO_3), EV (70, 3, FILE_INFO_3), EV (71, 3, FILE_INFO_3),
  EV (74, 3, FILE_INFO_3), EV (75, 3, FILE_INFO_3),
  EV (72, 2, FILE_DIR_2), EV (77, 2, FILE_DIR_2), EV (72, 3, FILE_DIR_3), EV (77, 3, FILE_DIR_3),
  EV (76, 2, "IrpPtr:ptr ExtraInfo:ptr NtStatus:x32"),
};
PROVIDER (_et_builtin_kernel_file, "90cbdc39-4a3e-11d1-84f4-0000f80464e3", "FileIO");

/* ─────────────────────────── PageFault (0x02) ─────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_memory_opcodes[] = {
  { 1, 10, "TransitionFault" }, { 1, 11, "DemandZeroFault" }, { 1, 12, "CopyOnWrite" },
  { 1, 13, "GuardMemory" }, { 1, 14, "HardMemory" }, { 1, 15, "AccessViolation" },
  { 1, 32, "HardFault" },
};

#define FAULT "VirtualAddress:ptr ProgramCounter:ptr"

static const EtBuiltinEvent _et_builtin_kernel_memory_events[] = {
  EV (10, 2, FAULT), EV (11, 2, FAULT), EV (12, 2, FAULT), EV (13, 2, FAULT), EV (14, 2, FAULT),
  EV (15, 2, FAULT),
  EV (32, 2, "InitialTime:u64 ReadOffset:u64 VirtualAddress:ptr FileObject:ptr TThreadId:u32 "
             "ByteCount:u32"),
};
PROVIDER (_et_builtin_kernel_memory, "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", "Memory");

/* ─────────────────────────── TcpIp (0x06), UdpIp (0x08) ─────────────────────────── */

static const EtBuiltinOpcode _et_builtin_kernel_tcp_opcodes[] = {
  { 1, 10, "Send" }, { 1, 11, "Recv" }, { 1, 12, "Connect" }, { 1, 13, "Disconnect" },
  { 1, 14, "Retransmit" }, { 1, 15, "Accept" }, { 1, 16, "Reconnect" }, { 1, 17, "Fail" },
  { 1, 18, "TCPCopy" }, { 1, 26, "SendIPV6" }, { 1, 27, "RecvIPV6" }, { 1, 28, "ConnectIPV6" },
  { 1, 29, "DisconnectIPV6" }, { 1, 30, "RetransmitIPV6" }, { 1, 31, "AcceptIPV6" },
  { 1, 32, "ReconnectIPV6" }, { 1, 34, "TCPCopyIPV6" },
};

#define TCP_V4 "PID:u32 size:u32 daddr:ip4 saddr:ip4 dport:port sport:port"
#define TCP_V6 "PID:u32 size:u32 daddr:ip6 saddr:ip6 dport:port sport:port"
#define SEND_TIMES " startime:u32 endtime:u32"
#define SEQ_CONN " seqnum:u32 connid:ptr"
#define CONNECT " mss:u16 sackopt:u16 tsopt:u16 wsopt:u16 rcvwin:u32 rcvwinscale:i16 " \
  "sndwinscale:i16" SEQ_CONN

static const EtBuiltinEvent _et_builtin_kernel_tcp_events[] = {
  EV (10, 2, TCP_V4 SEND_TIMES SEQ_CONN), EV (26, 2, TCP_V6 SEND_TIMES SEQ_CONN),
  EV (11, 2, TCP_V4 SEQ_CONN), EV (13, 2, TCP_V4 SEQ_CONN), EV (14, 2, TCP_V4 SEQ_CONN),
  EV (16, 2, TCP_V4 SEQ_CONN), EV (18, 2, TCP_V4 SEQ_CONN),
  EV (27, 2, TCP_V6 SEQ_CONN), EV (29, 2, TCP_V6 SEQ_CONN), EV (30, 2, TCP_V6 SEQ_CONN),
  EV (32, 2, TCP_V6 SEQ_CONN), EV (34, 2, TCP_V6 SEQ_CONN),
  EV (12, 2, TCP_V4 CONNECT), EV (15, 2, TCP_V4 CONNECT), EV (28, 2, TCP_V6 CONNECT),
  EV (31, 2, TCP_V6 CONNECT),
  EV (17, 2, "Proto:u16 FailureCode:u16"),
};
PROVIDER (_et_builtin_kernel_tcp, "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", "TcpIp");

static const EtBuiltinOpcode _et_builtin_kernel_udp_opcodes[] = {
  { 1, 10, "Send" }, { 1, 11, "Recv" }, { 1, 17, "Fail" }, { 1, 26, "SendIPV6" },
  { 1, 27, "RecvIPV6" },
};

static const EtBuiltinEvent _et_builtin_kernel_udp_events[] = {
  EV (10, 2, TCP_V4 SEQ_CONN), EV (11, 2, TCP_V4 SEQ_CONN),
  EV (26, 2, TCP_V6 SEQ_CONN), EV (27, 2, TCP_V6 SEQ_CONN),
  EV (17, 2, "Proto:u16 FailureCode:u16"),
};
PROVIDER (_et_builtin_kernel_udp, "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", "UdpIp");

/* ──────────────────────── KernelTraceControl classes ──────────────────────── */

/* ImageID: the relogger's notes on every image (opcode 0 is named by the
 * class alone), its PDB signature (DbgID_RSDS) and version resource. */
static const EtBuiltinOpcode _et_builtin_ktc_image_id_opcodes[] = {
  { 1, 32, "None" }, { 1, 36, "DbgID_RSDS" }, { 1, 37, "DbgID_ILRSDS" }, { 1, 38, "DbgPPDB" },
  { 1, 64, "FileVersion" },
};

#define RSDS "ImageBase:ptr ProcessId:u32 GuidSig:guid Age:u32 PDBFileName:ansi"

static const EtBuiltinEvent _et_builtin_ktc_image_id_events[] = {
  EV (0, 2, "ImageBase:ptr ImageSize:ptr ProcessId:u32 TimeDateStamp:i32 OriginalFileName:str"),
  EV (32, 2, "ImageBase:ptr ProcessId:u32"), EV (36, 2, RSDS), EV (37, 2, RSDS),
  EV (38, 2, "ImageBase:ptr ProcessId:u32 GuidSig:guid Age:u32 PDBFileName:ansi"),
  EV (64, 2, "ImageSize:u32 TimeDateStamp:i32 OrigFileName:str FileDescription:str "
             "FileVersion:str BinFileVersion:str VerLanguage:str ProductName:str "
             "CompanyName:str ProductVersion:str FileId:str ProgramId:str"),
};
PROVIDER (_et_builtin_ktc_image_id, "b3e675d7-2554-4f18-830b-2762732560de", "ImageID");

static const EtBuiltinOpcode _et_builtin_ktc_sysconfig_opcodes[] = {
  { 1, 32, "BuildInfo" }, { 1, 33, "SystemPaths" }, { 1, 34, "UnknownVolume" },
  { 1, 35, "VolumeMapping" },
};

static const EtBuiltinEvent _et_builtin_ktc_sysconfig_events[] = {
  EV (32, 2, "InstallDate:ft BuildLab:str ProductName:str"),
  EV (33, 2, "SystemDirectory:str SystemWindowsDirectory:str"),
  EV (34, 2, "Value:str"), EV (35, 2, "NtPath:str DosPath:str"),
};
PROVIDER (_et_builtin_ktc_sysconfig, "9b79ee91-b5fd-41c0-a243-4248e266e9d0", "SysConfig");

/* MetaData: the relogger's copies of event schemas, kept as bytes. */
static const EtBuiltinOpcode _et_builtin_ktc_metadata_opcodes[] = {
  { 1, 32, "EventInfo" }, { 1, 33, "EventMapInfo" },
};

static const EtBuiltinEvent _et_builtin_ktc_metadata_events[] = {
  EV (32, 2, "Data:bin"), EV (33, 2, "Data:bin"),
};
PROVIDER (_et_builtin_ktc_metadata, "bbccf6c1-6cd1-48c4-80ff-839482e37671", "MetaData");
