/* test-peer.c — the .NET runtime's events as PerfView's TraceEvent reads them.
 *
 * $ET_CORPUS_DIR/peer/X.baseline.txt are TraceEvent's own regression
 * baselines for corpus traces (peer/README.md): COUNT lines (events of a
 * type, counted as TraceLog keeps them) and EVENT lines (the first five of
 * each type, with pid, tid and every field, values cut at 20 characters).
 * Here the runtime's providers (DotNETRuntime, its Rundown and Private
 * providers, decoded with Etlscope's built-in schemas) are compared line
 * by line: the count of every type, and for every EVENT line the name,
 * pid, tid and each field value, formatted as the baseline formats it.
 *
 * The kernel's classes (built-in schemas too) are compared the same way:
 * TraceEvent files them under "Windows Kernel" (two classes it has no
 * parser for under "MSNT_SystemTrace") and KernelTraceControl's under
 * "KernelTraceControl"; peer_name maps our provider to those. So are the
 * providers net.4.5.2.x64.etl describes only by its own event metadata
 * (MetaData/EventInfo: Kernel-File, Kernel-EventTracing, Kernel-Process,
 * DNS-Client, Immersive-Shell), and every type of that trace is checked
 * to have a name. Other providers' lines are not judged here.
 *
 * Every difference the comparison finds must be one of known_differences
 * below, each with its reason; the rates are printed and asserted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "et-trace.h"
#include "peer-values.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"

/* Freed by et_fields_free. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

static const char *const runtime_providers[] = {
  "Microsoft-Windows-DotNETRuntime/", "Microsoft-Windows-DotNETRuntimeRundown/",
  "Microsoft-Windows-DotNETRuntimePrivate/", NULL
};

static const char *const kernel_providers[] = {
  "Windows Kernel/", "MSNT_SystemTrace/", "KernelTraceControl/", NULL
};

/* Providers known only from the trace's own event metadata
 * (MetaData/EventInfo, model/et-event-info.c) in net.4.5.2.x64.etl. */
static const char *const metadata_providers[] = {
  "Microsoft-Windows-Kernel-File/", "Microsoft-Windows-Kernel-EventTracing/",
  "Microsoft-Windows-Kernel-Process/", "Microsoft-Windows-DNS-Client/",
  "Microsoft-Windows-Immersive-Shell/", NULL
};

/* The peer providers the running test judges (runtime, kernel or metadata). */
static const char *const *judged = runtime_providers;

/* Types TraceLog leaves out (peer/README.md): stack walks, IL-to-native
 * maps and the rundown's method events. */
static const char *const tracelog_drops[] = {
  "Microsoft-Windows-DotNETRuntime/ClrStack/Walk",
  "Microsoft-Windows-DotNETRuntime/Method/ILToNativeMap",
  "Microsoft-Windows-DotNETRuntimeRundown/ClrStack/Walk",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStart",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStop",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStartVerbose",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/ILToNativeMapDCStart",
  "Microsoft-Windows-DotNETRuntimeRundown/Method/ILToNativeMapDCStop",
  /* The kernel's bookkeeping: thread rundown, file names, stack walks. */
  "Windows Kernel/Thread/DCStart", "Windows Kernel/Thread/DCStop",
  "Windows Kernel/FileIO/Name", "Windows Kernel/FileIO/FileCreate",
  "Windows Kernel/FileIO/FileDelete", "Windows Kernel/FileIO/FileRundown",
  "Windows Kernel/StackWalk/Stack", "Windows Kernel/StackWalk/StackKeyKernel",
  "Windows Kernel/StackWalk/StackKeyUser", "Windows Kernel/StackWalk/KeyDelete",
  "Windows Kernel/StackWalk/KeyRundown",
};

typedef struct
{
  const char *event;     /* Provider/Name, or "*" for every event */
  const char *field;     /* or "*" for every field */
  gboolean    computed;  /* TraceEvent's value is not in the payload at all */
  const char *reason;
} KnownDifference;

/* What TraceEvent prints that is not the payload's value. */
static const KnownDifference known_differences[] = {
  { "Microsoft-Windows-DotNETRuntime/GC/HeapStats", "Depth", TRUE,
    "TraceEvent guesses the generation from which TotalPromotedSize is not zero (its own "
    "comment says it can understate it); ours is the Depth of the process's latest GC/Start" },
  { "Microsoft-Windows-DotNETRuntime/Method/LoadVerbose", "ReJITID", TRUE,
    "a version-1 payload has no ReJITID; TraceEvent prints its default 0" },
  { "Microsoft-Windows-DotNETRuntime/Method/UnloadVerbose", "ReJITID", TRUE,
    "a version-1 payload has no ReJITID; TraceEvent prints its default 0" },
  { "Microsoft-Windows-DotNETRuntime/GC/AllocationTick", "ObjectSize", TRUE,
    "not in a payload before version 4; TraceEvent prints its default 0" },
  /* The kernel's classes. */
  { "Windows Kernel/SystemConfig/Services", "ProcessName", TRUE,
    "TraceEvent prints the name it gives the event's process (svchost, Idle) over the "
    "payload's own ProcessName (svchost.exe, or empty), which we keep" },
  { "Windows Kernel/Thread/Stop", "ParentThreadID", TRUE,
    "a Stop names no parent thread; TraceEvent prints its -1 for none, we add no field" },
  { "Windows Kernel/Thread/Stop", "ParentProcessID", TRUE,
    "a Stop names no parent process; TraceEvent prints its -1 for none, we add no field" },
  { "Windows Kernel/UdpIp/*", "context", TRUE,
    "TraceEvent reads a version-2 payload with its version-1 class (PID and size as one "
    "pointer-sized context)" },
  { "Windows Kernel/UdpIp/*", "dsize", TRUE,
    "TraceEvent reads a version-2 payload with its version-1 class (dsize is in seqnum)" },
  { "KernelTraceControl/ImageID", "ProcessID", TRUE,
    "TraceEvent's ImageID class does not read the payload's ProcessId and prints 0" },
  { "Windows Kernel/DiskIO/FlushBuffers", "(ids)", TRUE,
    "TraceEvent reads FlushBuffers' thread at a version-2 offset (inside HighResResponseTime)" },
  /* Providers known from the trace's event metadata. TraceEvent reads
   * Kernel-File/Create with its own kernel FileIO/Create class instead. */
  { "Microsoft-Windows-Kernel-File/Create", "CreateOptions", TRUE,
    "TraceEvent's FileIO/Create class shows the low 24 bits of the payload's CreateOptions by "
    "its own enum (some of whose names are FileAttributes'); ours is the payload's whole value, "
    "the disposition in its top byte (also our derived CreateDisposition, as TraceEvent's)" },
};

/* TraceEvent's own flag enums, for fields whose metadata has no map: the
 * number behind its names is compared with ours. */
static const struct
{
  const char *event;
  const char *field;
  const char *reason;
  const char *names[6];
  guint64     values[6];
} peer_enums[] = {
  { "Microsoft-Windows-Kernel-File/Create", "ShareAccess",
    "TraceEvent names the value with .NET's FileShare enum; the metadata gives it no map",
    { "None", "Read", "Write", "ReadWrite", "Delete", "Inheritable" }, { 0, 1, 2, 3, 4, 16 } },
};

/* Field names of ours that TraceEvent spells otherwise ("Prefix*" events). */
static const struct
{
  const char *event;
  const char *peer_field;
  const char *field;
} field_renames[] = {
  { "Windows Kernel/DiskIO/*", "FileKey", "FileObject" },
  { "Windows Kernel/Memory/HardFault", "FileKey", "FileObject" },
  { "Windows Kernel/Process/PerfCtr*", "MemoryCount", "PageFaultCount" },
  /* Derived fields (et-derived.h) beside a payload field of TraceEvent's
   * name: the payload's keeps it. Where no drive mapping applies, the
   * payload's FileName is TraceEvent's too. */
  { "Windows Kernel/DiskIO/*", "IrpFlags", "IrpFlagNames" },
  { "Windows Kernel/Image/*", "FileName", "DosPath" },
  /* TraceEvent's FileIO/Create class over Kernel-File/Create. */
  { "Microsoft-Windows-Kernel-File/Create", "IrpPtr", "Irp" },
  { "Microsoft-Windows-Kernel-File/Create", "FileAttributes", "CreateAttributes" },
  { "Microsoft-Windows-Kernel-File/Create", "FileName", "DosPath" },
};

/* Types whose counts differ for a reason: the peer's TraceLog keeps no
 * event of a type no parser of it knows; one it knows the class of but not
 * the type it counts as "Opcode(N)". */
static const struct
{
  const char *peer;      /* the peer's name, or NULL */
  const char *ours;      /* ours, or NULL */
  const char *reason;
} count_differences[] = {
  { "Windows Kernel/SysConfig/Opcode(37)", "Windows Kernel/Event 37",
    "an undocumented SysConfig type: TraceEvent names it by number, we by id" },
  { NULL, "Windows Kernel/Event 80", "an undocumented EventTrace type TraceLog leaves out" },
  { NULL, "Windows Kernel/Event 18", "an undocumented SystemConfig type TraceLog leaves out" },
  { NULL, "Windows Kernel/Event 28", "an undocumented SystemConfig type TraceLog leaves out" },
  { NULL, "Windows Kernel/Image/HypercallPage", "TraceEvent has no parser for Image type 34" },
};

/* TraceEvent flattens element 0 of an array of structs into fields of
 * its own names; here they are that element's members. */
static const struct
{
  const char *event;
  const char *peer_field;
  const char *array;
  const char *member;
} field_aliases[] = {
  { "Microsoft-Windows-DotNETRuntime/Type/BulkType", "TypeID_0", "Values", "TypeID" },
  { "Microsoft-Windows-DotNETRuntime/Type/BulkType", "TypeName_0", "Values", "Name" },
};

typedef struct
{
  char *name;                 /* Provider/EventName */
  guint pid, tid;
  GPtrArray *keys, *values;   /* the fields, in order */
} PeerLine;

typedef struct
{
  GHashTable *counts;         /* name → count (GUINT_TO_POINTER) */
  GPtrArray  *lines;          /* PeerLine, in file order */
} Baseline;

typedef struct
{
  guint n_counts, counts_equal, counts_explained;
  guint n_lines, lines_equal, lines_explained;
  guint lines_payload_equal;  /* equal but for values TraceEvent makes up */
  guint n_fields, fields_equal;
  guint unexplained;
  GHashTable *known_seen;     /* "event field" of known differences printed */
} Tally;

static gboolean
is_judged (const char *name)
{
  for (guint i = 0; judged[i] != NULL; i++)
    if (g_str_has_prefix (name, judged[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_dropped (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (tracelog_drops); i++)
    if (strcmp (name, tracelog_drops[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
peer_line_free (gpointer data)
{
  PeerLine *l = data;

  g_free (l->name);
  g_ptr_array_unref (l->keys);
  g_ptr_array_unref (l->values);
  g_free (l);
}

/* "EVENT 11,607.432: Name PID=1; TID=2; PName=..; ProceNum=..; DataLen=..; k=v; " */
static PeerLine *
parse_event_line (const char *line)
{
  const char *colon = strstr (line, ": ");
  const char *space;
  g_auto(GStrv) parts = NULL;
  PeerLine *l;

  /* The name may hold spaces ("Windows Kernel/..."): it ends at " PID=". */
  if (colon == NULL || (space = strstr (colon + 2, " PID=")) == NULL)
    return NULL;
  l = g_new0 (PeerLine, 1);
  l->name = g_strndup (colon + 2, space - colon - 2);
  l->keys = g_ptr_array_new_with_free_func (g_free);
  l->values = g_ptr_array_new_with_free_func (g_free);
  parts = g_strsplit (space + 1, "; ", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strchr (parts[i], '=');

      if (eq == NULL)
        continue;
      *eq = '\0';
      if (strcmp (parts[i], "PID") == 0)
        l->pid = (guint) g_ascii_strtoull (eq + 1, NULL, 10);
      else if (strcmp (parts[i], "TID") == 0)
        l->tid = (guint) g_ascii_strtoull (eq + 1, NULL, 10);
      else if (strcmp (parts[i], "PName") != 0 && strcmp (parts[i], "ProceNum") != 0
               && strcmp (parts[i], "DataLen") != 0)
        {
          g_ptr_array_add (l->keys, g_strdup (parts[i]));
          g_ptr_array_add (l->values, g_strdup (eq + 1));
        }
    }
  return l;
}

static gboolean
read_baseline (const char *path, Baseline *b)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  b->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->lines = g_ptr_array_new_with_free_func (peer_line_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      gsize n = strlen (g_strchomp (lines[i]));

      if (n > 0 && lines[i][n - 1] == ';')
        lines[i][n - 1] = '\0';   /* after the last field */
      if (g_str_has_prefix (lines[i], "COUNT "))
        {
          char *sep = strrchr (lines[i], ':');

          if (sep != NULL && is_judged (lines[i] + 6))
            g_hash_table_insert (b->counts, g_strndup (lines[i] + 6, sep - lines[i] - 6),
                                 GUINT_TO_POINTER ((guint) atoi (sep + 1)));
        }
      else if (g_str_has_prefix (lines[i], "EVENT "))
        {
          PeerLine *l = parse_event_line (lines[i]);

          if (l != NULL && is_judged (l->name))
            g_ptr_array_add (b->lines, l);
          else if (l != NULL)
            peer_line_free (l);
        }
    }
  return TRUE;
}

static void
baseline_clear (Baseline *b)
{
  g_clear_pointer (&b->counts, g_hash_table_unref);
  g_clear_pointer (&b->lines, g_ptr_array_unref);
}

/* "*", an exact name, or "Prefix*". */
static gboolean
name_matches (const char *pattern, const char *name)
{
  gsize n = strlen (pattern);

  if (n > 0 && pattern[n - 1] == '*')
    return strncmp (pattern, name, n - 1) == 0;
  return strcmp (pattern, name) == 0;
}

static const KnownDifference *
known_difference (const char *event, const char *field)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_differences); i++)
    {
      const KnownDifference *k = &known_differences[i];

      if (name_matches (k->event, event)
          && (strcmp (k->field, "*") == 0 || strcmp (k->field, field) == 0))
        return k;
    }
  return NULL;
}

/* ---- our side ------------------------------------------------------------ */

typedef struct
{
  EtTrace    *trace;
  GHashTable *counts;   /* Provider/Name → count, as TraceLog keeps them */
  GHashTable *firsts;   /* Provider/Name → GArray of the first 5 event indices */
} Ours;

/* The provider TraceEvent files one of ours under: the kernel's classes
 * are all "Windows Kernel" (but for the two it has no parser for, which
 * its MOF fallback calls "MSNT_SystemTrace"), KernelTraceControl's classes
 * "KernelTraceControl" (its SysConfig class "Windows Kernel" too). */
static const char *
peer_provider (const EtProvider *p, const EtEvent *e)
{
  if (p->kind == ET_PROVIDER_KERNEL)
    return strcmp (e->name, "SystemConfig/Platform") == 0
           || strcmp (e->name, "Image/KernelBase") == 0 ? "MSNT_SystemTrace" : "Windows Kernel";
  if (strcmp (p->name, "KernelTraceControl SysConfig") == 0)
    return "Windows Kernel";
  if (g_str_has_prefix (p->name, "KernelTraceControl "))
    return "KernelTraceControl";
  return p->name;
}

static char *
full_name (EtTrace *trace, const EtEvent *e)
{
  return g_strdup_printf ("%s/%s", peer_provider (et_trace_get_provider (trace, e->provider), e),
                          e->name);
}

/* TraceLog leaves out CPU samples of the idle thread, but for those
 * taken in a DPC or an interrupt (bits 0-1 of Reserved). */
static gboolean
is_idle_sample (const char *name, const EtEvent *e, const EtFields *fields)
{
  gint reserved = et_fields_find (fields, "Reserved");

  return strcmp (name, "Windows Kernel/PerfInfo/Sample") == 0 && e->has_ids && e->tid == 0
         && reserved >= 0 && (et_fields_get (fields, reserved)->v.u & 3) == 0;
}

/* TraceEvent's -1 for an id nobody knows. */
static guint
peer_id (const EtEvent *e, guint id)
{
  return e->has_ids ? id : G_MAXUINT32;
}

static void
collect_ours (Ours *o)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  guint64 n = et_trace_get_n_events (o->trace);

  o->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  o->firsts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_array_unref);
  for (guint64 i = 0; i < n; i++)
    {
      EtEvent e;
      GArray *first;
      char *name;

      et_trace_decode_event (o->trace, i, &e, fields, NULL);
      name = full_name (o->trace, &e);
      if (!is_judged (name) || is_dropped (name) || is_idle_sample (name, &e, fields))
        {
          g_free (name);
          continue;
        }
      first = g_hash_table_lookup (o->firsts, name);
      if (first == NULL)
        {
          first = g_array_new (FALSE, FALSE, sizeof (guint64));
          g_hash_table_insert (o->firsts, g_strdup (name), first);
        }
      if (first->len < 5)
        g_array_append_val (first, i);
      g_hash_table_insert (o->counts, name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (o->counts,
                                                                                     name)) + 1));
    }
}

static void
ours_clear (Ours *o)
{
  g_clear_object (&o->trace);
  g_clear_pointer (&o->counts, g_hash_table_unref);
  g_clear_pointer (&o->firsts, g_hash_table_unref);
}

/* ---- comparing ------------------------------------------------------------ */

/* The documented count difference for the peer's type @peer or our
 * @ours (either NULL), or NULL. */
static const char *
count_difference (const char *peer, const char *ours)
{
  for (guint i = 0; i < G_N_ELEMENTS (count_differences); i++)
    if ((peer != NULL && g_strcmp0 (count_differences[i].peer, peer) == 0)
        || (ours != NULL && g_strcmp0 (count_differences[i].ours, ours) == 0))
      return count_differences[i].reason;
  return NULL;
}

/* Our name for a type the peer names otherwise (count_differences). */
static const char *
our_name_for (const char *peer)
{
  for (guint i = 0; i < G_N_ELEMENTS (count_differences); i++)
    if (g_strcmp0 (count_differences[i].peer, peer) == 0)
      return count_differences[i].ours;
  return NULL;
}

static void
count_differs (Tally *t, const char *what, guint peer, guint ours, const char *reason)
{
  if (reason != NULL)
    {
      print_message ("# known: COUNT %s (peer %u, ours %u): %s\n", what, peer, ours, reason);
      t->counts_explained++;
      return;
    }
  print_message ("# COUNT %s: peer %u, ours %u\n", what, peer, ours);
  t->unexplained++;
}

static void
compare_counts (const Baseline *b, const Ours *o, Tally *t)
{
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, b->counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      guint ours = GPOINTER_TO_UINT (g_hash_table_lookup (o->counts, key));

      t->n_counts++;
      if (ours == GPOINTER_TO_UINT (value))
        t->counts_equal++;
      else
        count_differs (t, key, GPOINTER_TO_UINT (value), ours, count_difference (key, NULL));
    }
  /* Types we count that TraceLog does not list. */
  g_hash_table_iter_init (&it, o->counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (!g_hash_table_contains (b->counts, key))
      {
        t->n_counts++;
        count_differs (t, key, 0, GPOINTER_TO_UINT (value), count_difference (NULL, key));
      }
}

/* The member @member of element 0 of the top-level array @array, or -1. */
static gint
find_in_first_element (const EtFields *fields, const char *array, const char *member)
{
  gint a = et_fields_find (fields, array);
  guint element, end;

  if (a < 0 || et_fields_get (fields, a)->kind != ET_VALUE_ARRAY
      || et_fields_get (fields, a)->n_children == 0)
    return -1;
  element = (guint) a + 1;
  end = element + 1 + et_fields_get (fields, element)->n_desc;
  for (guint i = element + 1; i < end; i = et_fields_next (fields, i))
    if (strcmp (et_fields_get (fields, i)->name, member) == 0)
      return (gint) i;
  return -1;
}

/* Our field for a field the baseline names (an alias, or the same name). */
static gint
find_field (const EtFields *fields, const char *event, const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (field_aliases); i++)
    if (strcmp (field_aliases[i].event, event) == 0
        && strcmp (field_aliases[i].peer_field, key) == 0)
      return find_in_first_element (fields, field_aliases[i].array, field_aliases[i].member);
  for (guint i = 0; i < G_N_ELEMENTS (field_renames); i++)
    if (name_matches (field_renames[i].event, event)
        && strcmp (field_renames[i].peer_field, key) == 0
        && et_fields_find (fields, field_renames[i].field) >= 0)
      return et_fields_find (fields, field_renames[i].field);
  return et_fields_find (fields, key);
}

/* Each known difference met is listed once, with its reason. */
static void
note_known (Tally *t, const char *event, const char *field, const char *reason)
{
  g_autofree char *key = g_strdup_printf ("%s %s", event, field);

  if (g_hash_table_contains (t->known_seen, key))
    return;
  print_message ("# known: %s: %s\n", key, reason);
  g_hash_table_add (t->known_seen, g_steal_pointer (&key));
}

/* TRUE when @want is the names of TraceEvent's enum (peer_enums) for a
 * number equal to our integer field @index. */
static gboolean
peer_enum_equal (const PeerLine *l, const char *key, const EtFields *fields, gint index,
                 const char *want, Tally *t)
{
  const EtField *f = index >= 0 ? et_fields_get (fields, index) : NULL;

  if (f == NULL || (f->kind != ET_VALUE_UINT && f->kind != ET_VALUE_INT))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (peer_enums); i++)
    {
      g_auto(GStrv) names = NULL;
      guint64 sum = 0;

      if (!name_matches (peer_enums[i].event, l->name) || strcmp (peer_enums[i].field, key) != 0)
        continue;
      names = g_strsplit (want, ", ", -1);
      for (guint n = 0; names[n] != NULL; n++)
        {
          guint k = 0;

          while (k < G_N_ELEMENTS (peer_enums[i].names)
                 && g_strcmp0 (peer_enums[i].names[k], names[n]) != 0)
            k++;
          if (k == G_N_ELEMENTS (peer_enums[i].names))
            return FALSE;
          sum |= peer_enums[i].values[k];
        }
      if (sum != f->v.u)
        return FALSE;
      note_known (t, l->name, key, peer_enums[i].reason);
      return TRUE;
    }
  return FALSE;
}

/* One field of a line: equal, a known difference, or a failure. */
static gboolean
compare_field (const PeerLine *l, guint k, EtFields *fields, Tally *t, gboolean *strict,
               gboolean *payload_equal)
{
  const char *key = g_ptr_array_index (l->keys, k);
  const char *want = g_ptr_array_index (l->values, k);
  gint index = find_field (fields, l->name, key);
  const KnownDifference *known;

  t->n_fields++;
  if ((index < 0 && want[0] == '\0') || (index >= 0 && peer_field_equal (fields, index, want)))
    {
      t->fields_equal++;
      return TRUE;
    }
  static const KnownDifference later_version = {
    "*", "*", TRUE,
    "a field of a later version than the payload's; TraceEvent prints its default 0"
  };

  *strict = FALSE;
  if (peer_enum_equal (l, key, fields, index, want, t))
    {
      t->fields_equal++;
      return TRUE;
    }
  known = known_difference (l->name, key);
  if (known == NULL && index < 0 && strcmp (want, "0") == 0)
    known = &later_version;
  if (known != NULL)
    {
      note_known (t, l->name, key, known->reason);
      *payload_equal &= known->computed;
      return TRUE;
    }
  print_message ("# %s field %s: peer \"%s\", ours %s\n", l->name, key, want,
                 index < 0 ? "absent" : "different");
  *payload_equal = FALSE;
  return FALSE;
}

static void
compare_lines (const Baseline *b, Ours *o, Tally *t)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(EtFields) fields = et_fields_new ();

  for (guint i = 0; i < b->lines->len; i++)
    {
      const PeerLine *l = g_ptr_array_index (b->lines, i);
      guint nth = GPOINTER_TO_UINT (g_hash_table_lookup (seen, l->name));
      GArray *first = g_hash_table_lookup (o->firsts, l->name);
      const char *alias = first == NULL ? our_name_for (l->name) : NULL;
      gboolean strict = TRUE, explained = TRUE, payload_equal = TRUE;
      EtEvent e;

      if (alias != NULL)
        first = g_hash_table_lookup (o->firsts, alias);
      g_hash_table_insert (seen, l->name, GUINT_TO_POINTER (nth + 1));
      t->n_lines++;
      if (first == NULL || nth >= first->len)
        {
          print_message ("# EVENT %s #%u: we have no such event\n", l->name, nth + 1);
          t->unexplained++;
          continue;
        }
      et_trace_decode_event (o->trace, g_array_index (first, guint64, nth), &e, fields, NULL);
      if (peer_id (&e, e.pid) != l->pid || peer_id (&e, e.tid) != l->tid)
        {
          const KnownDifference *known = known_difference (l->name, "(ids)");

          strict = FALSE;
          payload_equal = known != NULL && known->computed;
          if (known != NULL)
            note_known (t, l->name, "(ids)", known->reason);
          else
            {
              print_message ("# EVENT %s #%u: peer %d/%d, ours %d/%d\n", l->name, nth + 1,
                             (int) l->pid, (int) l->tid, (int) peer_id (&e, e.pid),
                             (int) peer_id (&e, e.tid));
              explained = FALSE;
            }
        }
      for (guint k = 0; k < l->keys->len; k++)
        explained &= compare_field (l, k, fields, t, &strict, &payload_equal);
      t->lines_equal += strict;
      t->lines_payload_equal += payload_equal;
      t->lines_explained += explained;
      t->unexplained += !explained;
    }
}

static void
compare_with_peer (const char *name, Tally *t)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *trace_path = g_strdup_printf ("%s/%s.etl", dir, name);
  g_autofree char *baseline_path = g_strdup_printf ("%s/peer/%s.baseline.txt", dir, name);
  g_autoptr(GError) error = NULL;
  Baseline b = { 0 };
  Ours o = { 0 };

  assert_true (read_baseline (baseline_path, &b));
  o.trace = et_trace_load (trace_path, 0, NULL, NULL, NULL, &error);
  assert_non_null (o.trace);
  collect_ours (&o);
  compare_counts (&b, &o, t);
  compare_lines (&b, &o, t);
  baseline_clear (&b);
  ours_clear (&o);
}

static gboolean
have_peer_corpus (void)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *peer = dir ? g_build_filename (dir, "peer", NULL) : NULL;

  if (peer != NULL && g_file_test (peer, G_FILE_TEST_IS_DIR))
    return TRUE;
  print_message ("# peer baselines not found at %s (ET_CORPUS_DIR/peer): not compared\n",
                 peer ? peer : "(ET_CORPUS_DIR is not set)");
  return FALSE;
}

static void
report (const char *name, const Tally *t)
{
  print_message ("# %s (%s): COUNT lines %u/%u equal; EVENT lines %u/%u identical "
                 "(%.1f %%), %u/%u (%.1f %%) identical in every value the payload holds, "
                 "%u/%u with every difference explained; fields %u/%u equal\n",
                 name, judged == kernel_providers ? "kernel"
                       : judged == metadata_providers ? "event metadata" : "runtime",
                 t->counts_equal,
                 t->n_counts, t->lines_equal, t->n_lines,
                 t->n_lines ? 100.0 * t->lines_equal / t->n_lines : 0.0,
                 t->lines_payload_equal, t->n_lines,
                 t->n_lines ? 100.0 * t->lines_payload_equal / t->n_lines : 0.0,
                 t->lines_explained, t->n_lines, t->fields_equal, t->n_fields);
}

/* @min_identical: EVENT lines identical in everything the baseline
 * prints; @min_payload: identical but for values TraceEvent computes or
 * defaults (known_differences with computed set). */
static void
check_trace (const char *name, const char *const *providers, double min_identical,
             double min_payload)
{
  Tally t = { 0 };

  judged = providers;
  if (!have_peer_corpus ())
    {
      skip ();
      return;
    }
  t.known_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  compare_with_peer (name, &t);
  report (name, &t);
  g_hash_table_unref (t.known_seen);
  assert_true (t.n_lines > 0);
  assert_int_equal (t.counts_equal + t.counts_explained, t.n_counts);
  assert_int_equal (t.unexplained, 0);
  assert_true (100.0 * t.lines_equal >= min_identical * t.n_lines);
  assert_true (100.0 * t.lines_payload_equal >= min_payload * t.n_lines);
}

static void
test_gcevents_runtime_as_peer (void **state)
{
  check_trace ("gcevents", runtime_providers, 92.0, 96.0);
}

static void
test_net452_runtime_as_peer (void **state)
{
  check_trace ("net.4.5.2.x64", runtime_providers, 87.0, 97.0);
}

/* The kernel's classes and KernelTraceControl's, decoded with the
 * built-in kernel schemas and attributed by payload (et_kernel_ids). The
 * values TraceEvent computes (file names by FileKey, times, drive paths,
 * bits of flags) are our derived fields (et-derived.h). */
static void
test_net452_kernel_as_peer (void **state)
{
  check_trace ("net.4.5.2.x64", kernel_providers, 89.0, 100.0);
}

/* Only the log-file header: its dates, and UtcOffsetMinutes (derived). */
static void
test_gcevents_kernel_as_peer (void **state)
{
  check_trace ("gcevents", kernel_providers, 100.0, 100.0);
}

/* Every value the payload holds is TraceEvent's (the lines' other
 * differences are listed in known_differences: TraceEvent reads
 * Kernel-File/Create with its kernel FileIO class). */
static void
test_net452_event_metadata_as_peer (void **state)
{
  check_trace ("net.4.5.2.x64", metadata_providers, 85.0, 100.0);
}

/* "Event N": a type no schema names. On net.4.5.2.x64.etl every type
 * of an EVENT_HEADER provider is named (the last ones by the trace's own
 * event metadata); what stays numbered are undocumented kernel types,
 * each listed in count_differences (TraceEvent names none of them). */
static void
test_net452_every_type_named (void **state)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  g_autofree char *path = g_strdup_printf ("%s/net.4.5.2.x64.etl", dir);
  g_autoptr(GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(EtFields) fields = et_fields_new ();
  g_autoptr(EtTrace) trace = NULL;
  guint numbered = 0;
  GHashTableIter it;
  gpointer key, value;

  if (!have_peer_corpus ())
    {
      skip ();
      return;
    }
  trace = et_trace_load (path, 0, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    {
      EtEvent e;
      const EtProvider *p;

      et_trace_decode_event (trace, i, &e, fields, NULL);
      p = et_trace_get_provider (trace, e.provider);
      g_hash_table_insert (types, full_name (trace, &e), GUINT_TO_POINTER (p->kind + 1));
    }
  g_hash_table_iter_init (&it, types);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      EtProviderKind kind = GPOINTER_TO_UINT (value) - 1;
      const char *slash = strrchr (key, '/');

      if (!g_str_has_prefix (slash + 1, "Event "))
        continue;
      numbered++;
      print_message ("# numbered: %s\n", (const char *) key);
      assert_true (kind == ET_PROVIDER_KERNEL || kind == ET_PROVIDER_CLASSIC);
      assert_non_null (count_difference (NULL, key));
    }
  print_message ("# net.4.5.2.x64: %u/%u event types named; every EVENT_HEADER provider's\n",
                 g_hash_table_size (types) - numbered, g_hash_table_size (types));
}

static void
test_primitive_types_kernel_as_peer (void **state)
{
  check_trace ("primitive-types", kernel_providers, 100.0, 100.0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_gcevents_runtime_as_peer),
    cmocka_unit_test (test_net452_runtime_as_peer),
    cmocka_unit_test (test_gcevents_kernel_as_peer),
    cmocka_unit_test (test_primitive_types_kernel_as_peer),
    cmocka_unit_test (test_net452_kernel_as_peer),
    cmocka_unit_test (test_net452_event_metadata_as_peer),
    cmocka_unit_test (test_net452_every_type_named),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
