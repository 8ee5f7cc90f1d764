/* nettrace-fields.c — see nettrace-fields.h. */
#include "nettrace-fields.h"
#include "peer-values.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#define RT "Microsoft-Windows-DotNETRuntime/"

typedef struct
{
  const char *event;   /* Provider/Name */
  const char *field;
  const char *reason;
} KnownDifference;

typedef struct
{
  const char *theirs;      /* Provider/Name in the baseline */
  const char *ours[3];     /* our names for the same events */
  const char *reason;
} RenamedLine;

/* Ids 200 and 201 (memory pressure, version 0): TraceEvent has no parser
 * of its own for them. In this EventPipe trace it names both by their task
 * alone ("GC": EventPipe records carry opcode 0, and the name comes from
 * the manifest registered on the machine that wrote the baseline), in an
 * .etl by task and opcode (the peer baselines); we give the .etl names in
 * both. */
static const RenamedLine renamed_lines[] = {
  { RT "GC", { RT "GarbageCollection/IncreaseMemoryPressure",
               RT "GarbageCollection/DecreaseMemoryPressure", NULL },
    "ids 200 and 201: TraceEvent names them by their task alone in EventPipe traces" },
};

const char *const *
nettrace_renamed_line (const char *name, const char **reason)
{
  for (guint i = 0; i < G_N_ELEMENTS (renamed_lines); i++)
    if (strcmp (renamed_lines[i].theirs, name) == 0)
      {
        *reason = renamed_lines[i].reason;
        return renamed_lines[i].ours;
      }
  return NULL;
}

/* What TraceEvent prints for the two traces' first events that is not the
 * payload's value: fields a payload of the event's version does not hold
 * (TraceEvent prints its defaults), and values TraceEvent computes. */
static const KnownDifference known_differences[] = {
  { RT "Contention/Start", "LockID",
    "the .NET Core 3.0 payload is version 1 (3 bytes): no LockID; TraceEvent prints 0" },
  { RT "Contention/Start", "AssociatedObjectID",
    "not in a version-1 payload; TraceEvent prints its default 0" },
  { RT "Contention/Start", "LockOwnerThreadID",
    "not in a version-1 payload; TraceEvent prints its default 0" },
  { RT "GC/HeapStats", "TotalHeapSize", "TraceEvent's sum of the GenerationSize fields" },
  { RT "GC/HeapStats", "TotalPromoted", "TraceEvent's sum of the TotalPromotedSize fields" },
  { RT "GC/HeapStats", "Depth", "TraceEvent's generation of the GC the event belongs to" },
  { RT "GC/HeapStats", "GenerationSize4",
    "the payload is version 1 (94 bytes): no generation 4; TraceEvent prints 0" },
  { RT "GC/HeapStats", "TotalPromotedSize4",
    "the payload is version 1 (94 bytes): no generation 4; TraceEvent prints 0" },
  { RT "GC/PerHeapHistory", "Name", "TraceEvent's name of the generation record (Gen0…)" },
  { RT "GC/PerHeapHistory", "ObjSpaceBefore",
    "TraceEvent's SizeBefore less the free list and free object space" },
  { RT "GC/PerHeapHistory", "Fragmentation",
    "TraceEvent's FreeListSpaceAfter plus FreeObjSpaceAfter" },
  { RT "GC/PerHeapHistory", "ObjSizeAfter", "TraceEvent's SizeAfter less the fragmentation" },
  { RT "GC/PerHeapHistory", "Out", "TraceEvent's PinnedSurv plus NonePinnedSurv" },
  { RT "GC/PerHeapHistory", "SurvRate", "TraceEvent's survivors per size before, in %" },
  { RT "Method/LoadVerbose", "MethodFlags",
    "TraceEvent masks bits 7-9 (the optimization tier) out; we show them as 0x80" },
  { RT "Method/LoadVerbose", "ReJITID",
    "the first LoadVerbose is version 1: no ReJITID; TraceEvent prints its default 0" },
};

static const char *
known_reason (const char *event, const char *field)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_differences); i++)
    if (strcmp (known_differences[i].event, event) == 0
        && strcmp (known_differences[i].field, field) == 0)
      return known_differences[i].reason;
  return NULL;
}

/* Attributes of a baseline's event that are not payload fields. */
static gboolean
is_header_attribute (const char *name)
{
  static const char *const header[] = { "MSec", "PID", "PName", "TID", "EventName",
                                        "ProviderName", "FormattedMessage" };

  for (guint i = 0; i < G_N_ELEMENTS (header); i++)
    if (g_str_equal (name, header[i]))
      return TRUE;
  return FALSE;
}

/* An XML attribute's text (the baselines write & as &amp;…). */
static char *
xml_unescape (const char *text)
{
  static const char *const entities[][2] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&apos;", "'" },
  };
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0';)
    {
      guint k;

      for (k = 0; k < G_N_ELEMENTS (entities); k++)
        if (g_str_has_prefix (p, entities[k][0]))
          break;
      if (k < G_N_ELEMENTS (entities))
        g_string_append (out, entities[k][1]), p += strlen (entities[k][0]);
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* Element @k of our first top-level array of structs: its index, or -1. */
static gint
struct_element (const EtFields *fields, guint k)
{
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      const EtField *a = et_fields_get (fields, i);
      guint e = i + 1;

      if (a->kind != ET_VALUE_ARRAY || a->n_children == 0
          || et_fields_get (fields, e)->kind != ET_VALUE_STRUCT)
        continue;
      if (k >= a->n_children)
        return -1;
      for (guint j = 0; j < k; j++)
        e = et_fields_next (fields, e);
      return (gint) e;
    }
  return -1;
}

/* The member @name of the struct at @element (case as et_fields_find). */
static gint
find_member (const EtFields *fields, guint element, const char *name)
{
  guint end = element + 1 + et_fields_get (fields, element)->n_desc;

  for (guint i = element + 1; i < end; i = et_fields_next (fields, i))
    if (g_ascii_strcasecmp (et_fields_get (fields, i)->name, name) == 0)
      return (gint) i;
  return -1;
}

/* One element's attributes: the event's own (@nested < 0) against our
 * top-level fields, a nested one against our struct element @nested. */
static void
compare_element (const char *name, const char *text, gint nested, const EtFields *fields,
                 NettraceTally *tally)
{
  g_autoptr(GRegex) attr = g_regex_new (" ([A-Za-z0-9_]+)=\"([^\"]*)\"", 0, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  gint element = fields != NULL && nested >= 0 ? struct_element (fields, (guint) nested) : -1;

  for (g_regex_match (attr, text, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *field = g_match_info_fetch (m, 1);
      g_autofree char *escaped = g_match_info_fetch (m, 2);
      g_autofree char *want = xml_unescape (escaped);
      const char *reason, *why;
      gint f = -1;

      if (nested < 0 && is_header_attribute (field))
        continue;
      tally->n_fields++;
      if (fields != NULL)
        f = nested < 0 ? et_fields_find (fields, field)
                       : element >= 0 ? find_member (fields, (guint) element, field) : -1;
      if (f >= 0 && peer_field_equal (fields, (guint) f, want))
        {
          tally->ok++;
          continue;
        }
      why = fields == NULL ? "no such event" : f < 0 ? "no such field" : "value";
      if ((reason = known_reason (name, field)) != NULL)
        tally->documented++;
      else
        tally->unexplained++;
      if (nested >= 0)
        print_message ("# first %s: element %d: %s=\"%s\" differs (%s): %s\n", name, nested,
                       field, want, why, reason != NULL ? reason : "NOT EXPLAINED");
      else
        print_message ("# first %s: %s=\"%s\" differs (%s): %s\n", name, field, want, why,
                       reason != NULL ? reason : "NOT EXPLAINED");
    }
}

void
nettrace_compare_fields (const char *name, const char *event, const EtFields *fields,
                         NettraceTally *tally)
{
  gint nested = -1;

  /* Elements: the event's own, then the nested ones in order. */
  for (const char *p = strchr (event, '<'); p != NULL; p = strchr (p + 1, '<'))
    {
      const char *end = strchr (p + 1, '<');
      g_autofree char *text = end ? g_strndup (p, end - p) : g_strdup (p);

      if (p[1] == '/')
        continue;
      compare_element (name, text, nested, fields, tally);
      nested++;
    }
}
