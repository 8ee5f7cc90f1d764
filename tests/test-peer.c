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
 * Kernel (MSNT_SystemTrace) and other providers' lines are not judged
 * here yet: the kernel's classes are a later step of issue 20.
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

/* Freed by et_fields_free. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

static const char *const runtime_providers[] = {
  "Microsoft-Windows-DotNETRuntime/", "Microsoft-Windows-DotNETRuntimeRundown/",
  "Microsoft-Windows-DotNETRuntimePrivate/",
};

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
  { "Microsoft-Windows-DotNETRuntime/GC/HeapStats", "TotalHeapSize", TRUE,
    "TraceEvent's own sum of the GenerationSize fields, not in the payload" },
  { "Microsoft-Windows-DotNETRuntime/GC/HeapStats", "TotalPromoted", TRUE,
    "TraceEvent's own sum of the TotalPromotedSize fields, not in the payload" },
  { "Microsoft-Windows-DotNETRuntime/GC/HeapStats", "Depth", TRUE,
    "TraceEvent remembers the generation of the GC it belongs to; not in the payload" },
  { "Microsoft-Windows-DotNETRuntime/GC/FinalizeObject", "TypeName", TRUE,
    "TraceEvent looks the type up in earlier BulkType events; not in the payload" },
  { "*", "ModuleILFileName", TRUE, "TraceEvent's file name cut from ModuleILPath" },
  { "Microsoft-Windows-DotNETRuntime/Method/LoadVerbose", "ReJITID", TRUE,
    "a version-1 payload has no ReJITID; TraceEvent prints its default 0" },
  { "Microsoft-Windows-DotNETRuntime/Method/LoadVerbose", "OptimizationTier", TRUE,
    "not in a version-1 payload; TraceEvent prints its default Unknown" },
  { "Microsoft-Windows-DotNETRuntime/Method/UnloadVerbose", "ReJITID", TRUE,
    "a version-1 payload has no ReJITID; TraceEvent prints its default 0" },
  { "Microsoft-Windows-DotNETRuntime/Method/UnloadVerbose", "OptimizationTier", TRUE,
    "not in a version-1 payload; TraceEvent prints its default Unknown" },
  { "Microsoft-Windows-DotNETRuntime/GC/AllocationTick", "ObjectSize", TRUE,
    "not in a payload before version 4; TraceEvent prints its default 0" },
  { "Microsoft-Windows-DotNETRuntime/GC/PerHeapHistory", "*", FALSE,
    "the per-heap history's layout is not built in (only documented fields are)" },
  { "Microsoft-Windows-DotNETRuntimePrivate/GC/PerHeapHistory", "*", FALSE,
    "the manifest declares only ClrInstanceID; TraceEvent decodes private fields" },
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
  guint n_counts, counts_equal;
  guint n_lines, lines_equal, lines_explained;
  guint lines_payload_equal;  /* equal but for values TraceEvent makes up */
  guint n_fields, fields_equal;
  guint unexplained;
  GHashTable *known_seen;     /* "event field" of known differences printed */
} Tally;

static gboolean
is_runtime (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (runtime_providers); i++)
    if (g_str_has_prefix (name, runtime_providers[i]))
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

  if (colon == NULL || (space = strchr (colon + 2, ' ')) == NULL)
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

          if (sep != NULL && is_runtime (lines[i] + 6))
            g_hash_table_insert (b->counts, g_strndup (lines[i] + 6, sep - lines[i] - 6),
                                 GUINT_TO_POINTER ((guint) atoi (sep + 1)));
        }
      else if (g_str_has_prefix (lines[i], "EVENT "))
        {
          PeerLine *l = parse_event_line (lines[i]);

          if (l != NULL && is_runtime (l->name))
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

static const KnownDifference *
known_difference (const char *event, const char *field)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_differences); i++)
    {
      const KnownDifference *k = &known_differences[i];

      if ((strcmp (k->event, "*") == 0 || strcmp (k->event, event) == 0)
          && (strcmp (k->field, "*") == 0 || strcmp (k->field, field) == 0))
        return k;
    }
  return NULL;
}

/* ---- values as the baseline writes them --------------------------------- */

/* "1,234" or "-2,147,024,894" → the number; FALSE for anything else. */
static gboolean
parse_grouped (const char *text, gint64 *out)
{
  g_autoptr(GString) digits = g_string_new (NULL);
  char *end = NULL;

  for (const char *p = text; *p != '\0'; p++)
    if (*p != ',')
      g_string_append_c (digits, *p);
  if (digits->len == 0 || !(g_ascii_isdigit (digits->str[0]) || digits->str[0] == '-'))
    return FALSE;
  *out = g_ascii_strtoll (digits->str, &end, 10);
  return *end == '\0';
}

/* TraceEvent reads a UInt32 as a C# int: values past 2^31 print negative. */
static gboolean
integer_equal (const EtField *f, const char *want)
{
  gint64 n;

  if (g_str_has_prefix (want, "0x"))
    return g_ascii_strtoull (want + 2, NULL, 16) == f->v.u;
  if (!parse_grouped (want, &n))
    return FALSE;
  if (f->kind == ET_VALUE_INT)
    return n == f->v.i;
  return n == (gint64) f->v.u || (n < 0 && n == (gint64) (gint32) (guint32) f->v.u);
}

/* Cut values end in "..." after 20 characters (UTF-16 units; ASCII here). */
static gboolean
text_equal (const char *ours, const char *want)
{
  gsize n = strlen (want);

  if (n == 23 && g_str_has_suffix (want, "..."))
    return strlen (ours) > 20 && strncmp (ours, want, 20) == 0;
  return strcmp (ours, want) == 0;
}

static gboolean
field_equal (const EtFields *fields, guint index, const char *want)
{
  const EtField *f = et_fields_get (fields, index);
  const char *label = et_fields_label (fields, index);
  g_autoptr(GString) text = g_string_new (NULL);

  if (f->kind == ET_VALUE_INT || f->kind == ET_VALUE_UINT)
    {
      if (label == NULL || g_ascii_isdigit (want[0]) || want[0] == '-')
        return integer_equal (f, want);
      /* A bit map's "A|B" is a C# flags enum's "A, B". */
      for (const char *p = label; *p != '\0'; p++)
        if (*p == '|')
          g_string_append (text, ", ");
        else
          g_string_append_c (text, *p);
      return text_equal (text->str, want);
    }
  if (f->kind == ET_VALUE_BOOL)
    return g_ascii_strcasecmp (f->v.b ? "True" : "False", want) == 0;
  if (f->kind == ET_VALUE_FLOAT)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      /* "n3": three decimals, thousands grouped. */
      g_ascii_formatd (buf, sizeof buf, "%.3f", f->v.f);
      for (const char *p = want; *p != '\0'; p++)
        if (*p != ',')
          g_string_append_c (text, *p);
      return strcmp (buf, text->str) == 0;
    }
  et_fields_format_value (fields, index, text);
  return text_equal (text->str, want);
}

/* ---- our side ------------------------------------------------------------ */

typedef struct
{
  EtTrace    *trace;
  GHashTable *counts;   /* Provider/Name → count, as TraceLog keeps them */
  GHashTable *firsts;   /* Provider/Name → GArray of the first 5 event indices */
} Ours;

static char *
full_name (EtTrace *trace, const EtEvent *e)
{
  return g_strdup_printf ("%s/%s", et_trace_get_provider (trace, e->provider)->name, e->name);
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
      if (!is_runtime (name) || is_dropped (name))
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
        {
          print_message ("# COUNT %s: peer %u, ours %u\n", (char *) key,
                         GPOINTER_TO_UINT (value), ours);
          t->unexplained++;
        }
    }
  /* Types we count that TraceLog does not list. */
  g_hash_table_iter_init (&it, o->counts);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (!g_hash_table_contains (b->counts, key))
      {
        print_message ("# COUNT %s: ours %u, not in the peer's list\n", (char *) key,
                       GPOINTER_TO_UINT (value));
        t->n_counts++;
        t->unexplained++;
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
  if ((index < 0 && want[0] == '\0') || (index >= 0 && field_equal (fields, index, want)))
    {
      t->fields_equal++;
      return TRUE;
    }
  static const KnownDifference later_version = {
    "*", "*", TRUE,
    "a field of a later version than the payload's; TraceEvent prints its default 0"
  };

  *strict = FALSE;
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
      gboolean strict = TRUE, explained = TRUE, payload_equal = TRUE;
      EtEvent e;

      g_hash_table_insert (seen, l->name, GUINT_TO_POINTER (nth + 1));
      t->n_lines++;
      if (first == NULL || nth >= first->len)
        {
          print_message ("# EVENT %s #%u: we have no such event\n", l->name, nth + 1);
          t->unexplained++;
          continue;
        }
      et_trace_decode_event (o->trace, g_array_index (first, guint64, nth), &e, fields, NULL);
      if (e.pid != l->pid || e.tid != l->tid)
        {
          print_message ("# EVENT %s #%u: peer %u/%u, ours %u/%u\n", l->name, nth + 1, l->pid,
                         l->tid, e.pid, e.tid);
          strict = explained = payload_equal = FALSE;
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
  print_message ("# %s: runtime COUNT lines %u/%u equal; EVENT lines %u/%u identical "
                 "(%.1f %%), %u/%u (%.1f %%) identical in every value the payload holds, "
                 "%u/%u with every difference explained; fields %u/%u equal\n",
                 name, t->counts_equal, t->n_counts, t->lines_equal, t->n_lines,
                 t->n_lines ? 100.0 * t->lines_equal / t->n_lines : 0.0,
                 t->lines_payload_equal, t->n_lines,
                 t->n_lines ? 100.0 * t->lines_payload_equal / t->n_lines : 0.0,
                 t->lines_explained, t->n_lines, t->fields_equal, t->n_fields);
}

/* @min_identical: EVENT lines identical in everything the baseline
 * prints; @min_payload: identical but for values TraceEvent computes or
 * defaults (known_differences with computed set). */
static void
check_trace (const char *name, double min_identical, double min_payload)
{
  Tally t = { 0 };

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
  assert_int_equal (t.counts_equal, t.n_counts);
  assert_int_equal (t.unexplained, 0);
  assert_true (100.0 * t.lines_equal >= min_identical * t.n_lines);
  assert_true (100.0 * t.lines_payload_equal >= min_payload * t.n_lines);
}

static void
test_gcevents_runtime_as_peer (void **state)
{
  check_trace ("gcevents", 92.0, 96.0);
}

static void
test_net452_runtime_as_peer (void **state)
{
  check_trace ("net.4.5.2.x64", 80.0, 97.0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_gcevents_runtime_as_peer),
    cmocka_unit_test (test_net452_runtime_as_peer),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
