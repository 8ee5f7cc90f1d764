/* test-stacks.c — call stacks and their names (model/stacks/).
 *
 * On the fixture of known stacks (et-fixture-stacks): `stacks` writes
 * exactly its folded text (root first, a method unloaded and another
 * loaded at its address told apart by time, a module no event names, an
 * address nothing covers, a sample without stack), the same samples in
 * speedscope's format and as a call tree whose counts add up, a span's
 * start and stop keep their events' stacks, and `--marker` gives the
 * samples of the span. Damage: a StackBlock cut short and stack ids no
 * block gives are reported with their offsets and every sample is still
 * counted; method ranges that overlap at the same time are damage, a
 * rundown-only method after an unload is not; a stack key never defined
 * is damage; a kernel walk's halves join user (root side) then kernel,
 * kernel halves waiting for the user stack logged as their thread leaves
 * the kernel.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "call-tree-roots.h"
#include "cli-run.h"
#include "et-fixture.h"
#include "et-fixture-stacks.h"
#include "et-call-tree.h"
#include "et-stack-walks.h"
#include "et-trace.h"
#include "et-trace-load.h"
#include "et-trace-decode.h"
#include "et-trace-stacks.h"

/* A trace file in a folder of its own, gone with it. */
typedef EtFixtureFile Fixture;

static int
setup (void **state)
{
  Fixture *f = et_fixture_file_new ("stacks.nettrace");
  g_autoptr(GError) error = NULL;

  assert_true (et_fixture_write_stacks_nettrace (f->path, &error));
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  et_fixture_file_free (*state);
  return 0;
}

/* ---- the fixture --------------------------------------------------------- */

static void
test_folded_equals_expected (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("stacks", "--format=collapsed", f->path);

  assert_int_equal (run.status, 0);
  assert_string_equal (run.out, et_fixture_stacks_folded);
  run_clear (&run);
  /* collapsed is the default */
  run = run_cli ("stacks", f->path);
  assert_string_equal (run.out, et_fixture_stacks_folded);
  run_clear (&run);
  /* a range: the samples at 10 and 11 ms (both ends included) */
  run = run_cli ("stacks", "--from", "10ms", "--to", "11ms", f->path);
  assert_string_equal (run.out, "Process (4242);Thread (100);"
                                "Shop.Orders!Shop.Orders.Program.Main(class System.String[]);"
                                "Shop.Orders!Shop.Orders.Cart.Total(int32,bool) 2\n");
  run_clear (&run);
  /* a thread: the samples of thread 200 only */
  run = run_cli ("stacks", "--tid", "200", f->path);
  assert_string_equal (run.out, "Process (4242);Thread (200) 1\n"
                                "Process (4242);Thread (200);?!0x9999 1\n"
                                "Process (4242);Thread (200);ManagedModule!X.Y() 1\n");
  run_clear (&run);
}

static const char *
frame_name (JsonArray *frames, JsonArray *stack, guint i)
{
  guint index = (guint) json_array_get_int_element (stack, i);

  return json_object_get_string_member (json_array_get_object_element (frames, index), "name");
}

static void
test_speedscope (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("stacks", "--format=speedscope", f->path);
  g_autoptr(JsonObject) doc = NULL;
  JsonArray *profiles, *frames, *samples;
  JsonObject *p;

  assert_int_equal (run.status, 0);
  doc = parse_object (run.out, -1);
  assert_string_equal (json_object_get_string_member (doc, "$schema"),
                       "https://www.speedscope.app/file-format-schema.json");
  profiles = json_object_get_array_member (doc, "profiles");
  frames = json_object_get_array_member (json_object_get_object_member (doc, "shared"), "frames");
  assert_int_equal (json_array_get_length (profiles), 2);
  p = json_array_get_object_element (profiles, 0);
  assert_string_equal (json_object_get_string_member (p, "type"), "sampled");
  assert_string_equal (json_object_get_string_member (p, "name"), "Process (4242) Thread (100)");
  samples = json_object_get_array_member (p, "samples");
  /* thread 100's five samples in time order, root first */
  assert_int_equal (json_array_get_length (samples), 5);
  assert_int_equal (json_array_get_length (json_object_get_array_member (p, "weights")), 5);
  assert_int_equal (json_object_get_int_member (p, "endValue"), 5);
  assert_string_equal (frame_name (frames, json_array_get_array_element (samples, 0), 0),
                       "Shop.Orders!Shop.Orders.Program.Main(class System.String[])");
  assert_string_equal (frame_name (frames, json_array_get_array_element (samples, 0), 1),
                       "Shop.Orders!Shop.Orders.Cart.Total(int32,bool)");
  assert_string_equal (frame_name (frames, json_array_get_array_element (samples, 2), 1),
                       "Shop.Orders!Shop.Orders.Old.Run()");
  assert_string_equal (frame_name (frames, json_array_get_array_element (samples, 3), 1),
                       "Shop.Orders!Shop.Orders.New.Run(int32)");
  p = json_array_get_object_element (profiles, 1);
  samples = json_object_get_array_member (p, "samples");
  assert_int_equal (json_array_get_length (samples), 3);
  assert_int_equal (json_array_get_length (json_array_get_array_element (samples, 2)), 0);
  run_clear (&run);
}

/* Every node's inclusive count is its exclusive count and its children's. */
static guint64
check_counts (JsonObject *node)
{
  JsonArray *children = json_object_get_array_member (node, "children");
  guint64 sum = (guint64) json_object_get_int_member (node, "exclusive");

  for (guint i = 0; i < json_array_get_length (children); i++)
    sum += check_counts (json_array_get_object_element (children, i));
  assert_int_equal (sum, json_object_get_int_member (node, "inclusive"));
  return sum;
}

static void
test_call_tree_json (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("stacks", "--format=json", "--tid", "100", f->path);
  g_autoptr(JsonObject) doc = NULL;
  JsonObject *tree, *main_node;

  assert_int_equal (run.status, 0);
  doc = parse_object (run.out, -1);
  assert_int_equal (json_object_get_int_member (doc, "samples"), 5);
  tree = json_object_get_object_member (doc, "tree");
  assert_int_equal (check_counts (tree), 5);
  main_node = json_array_get_object_element (json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (
      json_array_get_object_element (json_object_get_array_member (tree, "children"), 0),
      "children"), 0), "children"), 0);
  assert_string_equal (json_object_get_string_member (main_node, "name"),
                       "Shop.Orders!Shop.Orders.Program.Main(class System.String[])");
  assert_int_equal (json_object_get_int_member (main_node, "inclusive"), 5);
  assert_int_equal (json_object_get_int_member (main_node, "exclusive"), 0);
  run_clear (&run);
}

/* The names of @node's frames, root first, joined by '|'. */
static char *
names_of (EtTrace *trace, guint32 node, gint64 ns)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GArray) symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  GString *out = g_string_new (NULL);

  et_stacks_node_symbols (stacks, node, ns, symbols);
  for (guint i = 0; i < symbols->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "|" : "",
                            et_stacks_name (stacks, g_array_index (symbols, guint32, i)));
  return g_string_free (out, FALSE);
}

static void
test_span_keeps_both_stacks (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  const EtMarker *m = NULL;
  g_autofree char *start = NULL, *stop = NULL;
  gint64 ns = 0;
  Run run;

  assert_non_null (trace);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_trace_get_channel (trace, c)->n_markers > 0)
      m = &et_trace_get_channel (trace, c)->markers[0];
  assert_non_null (m);
  assert_int_equal (m->kind, ET_MARKER_SPAN);
  start = names_of (trace, et_trace_event_stack (trace, m->event, &ns), ns);
  assert_string_equal (start, "Shop.Orders!Shop.Orders.Program.Main(class System.String[])|"
                              "Shop.Orders!Shop.Orders.Cart.Total(int32,bool)");
  stop = names_of (trace, et_trace_event_stack (trace, m->end_event, &ns), ns);
  assert_string_equal (stop, "Shop.Orders!Shop.Orders.Program.Main(class System.String[])");

  run = run_cli ("stacks", "--marker", "1", f->path);
  assert_int_equal (run.status, 0);
  assert_string_equal (run.out, "Process (4242);Thread (100);"
                                "Shop.Orders!Shop.Orders.Program.Main(class System.String[]);"
                                "Shop.Orders!Shop.Orders.Cart.Total(int32,bool) 1\n");
  run_clear (&run);
  run = run_cli ("stacks", "--marker", "2", f->path);
  assert_int_equal (run.status, 2);
  assert_non_null (strstr (run.err, "--marker 2"));
  run_clear (&run);
}

/* The call tree of (thread, from, to) ranges: each range's samples counted
 * by hand (a sample in two ranges in both), per thread and per root frame,
 * equal the tree's; one range of every thread is et_call_tree_new's tree. */
static void
test_call_tree_of_ranges (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  EtStacks *stacks;
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (EtCallRange));
  g_autoptr(GHashTable) roots = roots_new ();
  g_autoptr(EtCallTree) tree = NULL, whole = NULL;
  guint64 total = 0;

  assert_non_null (trace);
  stacks = et_trace_get_stacks (trace);
  assert_non_null (stacks);
  for (guint t = 0; t < et_trace_get_n_threads (trace); t++)
    {
      const EtThread *th = et_trace_get_thread (trace, t);
      EtCallThread ct = { t, th->pid, th->tid };
      const gint64 *ns;
      const guint32 *nodes;
      guint n = et_stacks_thread_samples (stacks, t, &ns, &nodes);

      if (n < 3)
        continue;
      /* the second sample to the last, then the first two: the second twice */
      g_array_append_val (ranges, ((EtCallRange) { ct, ns[1], ns[n - 1] }));
      g_array_append_val (ranges, ((EtCallRange) { ct, ns[0], ns[1] }));
    }
  assert_true (ranges->len >= 2);
  for (guint r = 0; r < ranges->len; r++)
    {
      const EtCallRange *range = &g_array_index (ranges, EtCallRange, r);
      const gint64 *ns;
      const guint32 *nodes;
      guint n = et_stacks_thread_samples (stacks, range->thread.thread, &ns, &nodes);

      for (guint i = 0; i < n; i++)
        if (ns[i] >= range->from_ns && ns[i] <= range->to_ns)
          {
            roots_count_sample (roots, stacks, range->thread.tid, nodes[i], ns[i]);
            total++;
          }
    }
  tree = et_call_tree_new_ranges (stacks, (const EtCallRange *) (gconstpointer) ranges->data,
                                  ranges->len, NULL);
  assert_int_equal (et_call_tree_node (tree, 0)->inclusive, total);
  assert_true (et_call_tree_n_nodes (tree) > 1);
  assert_roots_equal (tree, roots);

  /* one range of a thread's whole time: et_call_tree_new's tree, node for node */
  g_array_index (ranges, EtCallRange, 0).from_ns = G_MININT64;
  g_array_index (ranges, EtCallRange, 0).to_ns = G_MAXINT64;
  g_clear_pointer (&tree, et_call_tree_free);
  tree = et_call_tree_new_ranges (stacks, (const EtCallRange *) (gconstpointer) ranges->data, 1,
                                  NULL);
  whole = et_call_tree_new (stacks, &g_array_index (ranges, EtCallRange, 0).thread, 1,
                            G_MININT64, G_MAXINT64, NULL);
  assert_int_equal (et_call_tree_n_nodes (tree), et_call_tree_n_nodes (whole));
  for (guint i = 0; i < et_call_tree_n_nodes (tree); i++)
    assert_memory_equal (et_call_tree_node (tree, i), et_call_tree_node (whole, i),
                         offsetof (EtCallNode, level) + 1);
}

/* `events --format=jsonl --stacks`: each event's frames, root first. */
static void
test_events_with_stacks (void **state)
{
  Fixture *f = *state;
  Run run = run_cli ("events", "--format=jsonl", "--stacks", f->path);
  g_autoptr(GPtrArray) lines = NULL;
  guint starts = 0, samples = 0, without = 0;

  assert_int_equal (run.status, 0);
  lines = parse_lines (run.out);
  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *o = lines->pdata[i];
      const char *event = json_object_get_string_member (o, "event");
      JsonNode *stack = json_object_get_member (o, "stack");

      assert_non_null (stack);
      if (JSON_NODE_HOLDS_NULL (stack))
        {
          without++;
          continue;
        }
      if (g_str_has_suffix (event, "CheckoutStart"))
        {
          JsonArray *a = json_node_get_array (stack);

          starts++;
          assert_int_equal (json_array_get_length (a), 2);
          assert_string_equal (json_array_get_string_element (a, 0),
                               "Shop.Orders!Shop.Orders.Program.Main(class System.String[])");
          assert_string_equal (json_array_get_string_element (a, 1),
                               "Shop.Orders!Shop.Orders.Cart.Total(int32,bool)");
        }
      else if (g_str_has_suffix (event, "Thread/Sample"))
        samples++;
    }
  assert_int_equal (starts, 1);
  assert_int_equal (samples, 7);        /* eight samples, one without stack */
  assert_true (without > 0);            /* the runtime's events carry none */
  run_clear (&run);

  run = run_cli ("events", "--stacks", f->path);
  assert_int_equal (run.status, 2);
  assert_non_null (strstr (run.err, "--format=jsonl"));
  run_clear (&run);
  /* without --stacks the contract is unchanged: no "stack" key */
  run = run_cli ("events", "--format=jsonl", f->path);
  assert_null (strstr (run.out, "\"stack\""));
  run_clear (&run);
}

/* ---- damage -------------------------------------------------------------- */

/* Where the payload of the @nth StackBlock starts (its first id), or 0. */
static gsize
stack_block (const guint8 *data, gsize len, guint nth)
{
  static const char name[] = "StackBlock";

  for (gsize i = 0; i + sizeof name < len; i++)
    if (memcmp (data + i, name, sizeof name - 1) == 0 && nth-- == 0)
      {
        gsize size_at = i + sizeof name - 1 + 1;     /* after the name's end tag */

        return (size_at + 4 + 3) & ~(gsize) 3;
      }
  return 0;
}

/* A copy of the fixture with @patch applied to it; the caller frees it. */
static char *
patched (Fixture *f, const char *name, void (*patch) (guint8 *data, gsize len))
{
  g_autofree char *bytes = NULL;
  char *out = g_build_filename (f->dir, name, NULL);
  gsize len;

  assert_true (g_file_get_contents (f->path, &bytes, &len, NULL));
  patch ((guint8 *) bytes, len);
  assert_true (g_file_set_contents (out, bytes, (gssize) len, NULL));
  return out;
}

/* Sums the counts of folded lines, per "Process (…);Thread (…)". */
static GHashTable *
per_thread (const char *folded)
{
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      const char *second = strchr (lines[i], ';');
      const char *third = second != NULL ? strchr (second + 1, ';') : NULL;
      char *key = g_strndup (lines[i], (gsize) ((third != NULL && third < space ? third : space)
                                               - lines[i]));
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (sums, key));

      g_hash_table_replace (sums, key, GUINT_TO_POINTER (n + (guint) atoi (space + 1)));
    }
  return sums;
}

static void
shift_first_ids (guint8 *data, gsize len)
{
  for (guint k = 0; ; k++)
    {
      gsize at = stack_block (data, len, k);

      if (at == 0)
        break;
      data[at] += 100;                           /* every id the events name is gone */
    }
}

static void
overstate_count (guint8 *data, gsize len)
{
  gsize at = stack_block (data, len, 0);

  assert_true (at > 0);
  data[at + 4] += 50;                            /* the first block claims 50 more stacks */
}

static void
assert_all_samples_counted (const char *folded)
{
  g_autoptr(GHashTable) sums = per_thread (folded);

  assert_int_equal (GPOINTER_TO_UINT (g_hash_table_lookup (sums, "Process (4242);Thread (100)")), 5);
  assert_int_equal (GPOINTER_TO_UINT (g_hash_table_lookup (sums, "Process (4242);Thread (200)")), 3);
}

/* `stacks` of the fixture damaged by @patch: read with damage (@problem
 * said with a byte offset), every sample still counted. */
static Run
run_damaged (Fixture *f, void (*patch) (guint8 *, gsize), const char *problem)
{
  g_autofree char *path = patched (f, "damaged.nettrace", patch);
  Run run = run_cli ("stacks", path);

  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, "byte offset"));
  assert_non_null (strstr (run.err, problem));
  assert_all_samples_counted (run.out);
  return run;
}

static void
test_missing_stack_ids (void **state)
{
  Run run = run_damaged (*state, shift_first_ids,
                         "which no stack block since the last sequence point holds");

  /* no stack survives: every sample counts on its thread alone */
  assert_null (strstr (run.out, "Main"));
  run_clear (&run);
}

static void
test_truncated_stack_block (void **state)
{
  Run run = run_damaged (*state, overstate_count, "runs past its end");

  /* the stacks of the other blocks are kept */
  assert_non_null (strstr (run.out, "Shop.Orders!Shop.Orders.New.Run(int32) 1\n"));
  run_clear (&run);
}

/* Method ranges that overlap in a trace: damage said with its offset when
 * the stacks are built, the samples still counted and named. */
static void
test_overlap_in_a_trace (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "overlap.nettrace", NULL);
  g_autoptr(GError) error = NULL;
  Run run;

  assert_true (et_fixture_write_stacks_overlap (path, &error));
  run = run_cli ("stacks", path);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, "byte offset"));
  assert_non_null (strstr (run.err, "overlaps that of Shop.Orders.Program.Main() at the same time"));
  /* the later method is taken where both cover an address */
  assert_string_equal (run.out, "Process (4242);Thread (100);"
                                "Shop.Orders!Shop.Orders.Program.Other() 2\n");
  run_clear (&run);
}

typedef struct
{
  guint   n;
  guint64 offset;
} Damage;

static void
count_damage (guint64 offset, const char *what, gpointer data)
{
  Damage *d = data;

  d->n++;
  d->offset = offset;
  assert_non_null (what);
}

/* A method event of process 7, module 9, namespace N, signature "()":
 * its names as a payload holds them, kept in @keep. */
static void
add_method (EtSymbols *symbols, GPtrArray *keep, EtMethodEvent what, gint64 ns, guint64 offset,
            guint64 id, guint64 start, const char *name)
{
  g_autofree char *text = g_strdup_printf ("N%c%s%c()%c", 0, name, 0, 0);
  GByteArray *b = g_byte_array_new ();

  for (gsize i = 0; i < strlen (name) + 7; i++)
    {
      guint8 unit[2] = { (guint8) text[i], 0 };

      g_byte_array_append (b, unit, 2);
    }
  g_ptr_array_add (keep, b);
  et_symbols_add_method (symbols, what, 7, ns, offset, id, 9, start, 0x100, b->data, b->len);
}

static void
test_overlapping_method_ranges (void **state)
{
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(EtSymbols) symbols = et_symbols_new ();
  g_autoptr(GString) name = g_string_new (NULL);
  Damage d = { 0 };
  EtSymbolHit hit;

  (void) state;
  /* A and B overlap while both are loaded: damage at the later one */
  add_method (symbols, keep, ET_METHOD_LOAD, 100, 1000, 1, 0x1000, "A");
  add_method (symbols, keep, ET_METHOD_LOAD, 200, 2000, 2, 0x1080, "B");
  /* C was unloaded; D, known only from the rundown, took its place after */
  add_method (symbols, keep, ET_METHOD_LOAD, 100, 3000, 3, 0x5000, "C");
  add_method (symbols, keep, ET_METHOD_UNLOAD, 300, 3100, 3, 0x5000, "C");
  add_method (symbols, keep, ET_METHOD_RUNDOWN, 900, 3200, 4, 0x5000, "D");
  et_symbols_add_module (symbols, 7, 9, "/x/Lib.dll", "");
  et_symbols_finish (symbols, count_damage, &d);
  assert_int_equal (d.n, 1);
  assert_int_equal (d.offset, 2000);
  hit = et_symbols_lookup (symbols, 7, 0x5010, 150);
  et_symbols_append_name (symbols, &hit, 0x5010, name);
  assert_string_equal (name->str, "Lib!N.C()");
  g_string_truncate (name, 0);
  hit = et_symbols_lookup (symbols, 7, 0x5010, 400);
  et_symbols_append_name (symbols, &hit, 0x5010, name);
  assert_string_equal (name->str, "Lib!N.D()");
  /* the rest of the ranges are kept: A still names its own addresses */
  g_string_truncate (name, 0);
  hit = et_symbols_lookup (symbols, 7, 0x1010, 150);
  et_symbols_append_name (symbols, &hit, 0x1010, name);
  assert_string_equal (name->str, "Lib!N.A()");
}

/* ---- .etl stack walks ------------------------------------------------------ */

#define K(x) (G_GUINT64_CONSTANT (0xFFFFF80000000000) + (x))

/* A StackWalk record of @type: @head (EventTimeStamp, process, thread, or
 * nothing for a key definition), then @words. */
static void
walk_record (EtRecord *r, GByteArray *b, guint type, gboolean head, gint64 ts,
             const guint64 *words, guint n)
{
  guint8 w[8];

  g_byte_array_set_size (b, 0);
  if (head)
    {
      guint32 ids[2] = { GUINT32_TO_LE (5), GUINT32_TO_LE (6) };
      guint64 t = GUINT64_TO_LE ((guint64) ts);

      g_byte_array_append (b, (const guint8 *) &t, 8);
      g_byte_array_append (b, (const guint8 *) ids, 8);
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 v = GUINT64_TO_LE (words[i]);

      memcpy (w, &v, 8);
      g_byte_array_append (b, w, 8);
    }
  memset (r, 0, sizeof *r);
  r->klass = ET_RECORD_PERFINFO;
  r->hook = (guint16) (0x1800 | type);
  r->pointer_size = 8;
  r->ts = ts;
  r->payload = b->data;
  r->payload_len = b->len;
}

/* The addresses of @node, root first, as text. */
static char *
addresses_of (EtStackTree *tree, guint32 node)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (; node != ET_STACK_NONE; node = et_stack_tree_caller (tree, node))
    g_ptr_array_insert (parts, 0, g_strdup_printf ("%" G_GINT64_MODIFIER "x",
                                                   et_stack_tree_address (tree, et_stack_tree_frame (tree, node))));
  for (guint i = 0; i < parts->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "", (char *) parts->pdata[i]);
  return g_string_free (out, FALSE);
}

static const char *
joined_at (EtStackTree *tree, GArray *joined, gint64 ts, char **keep)
{
  for (guint i = 0; i < joined->len; i++)
    if (g_array_index (joined, EtJoinedStack, i).ts == ts)
      return *keep = addresses_of (tree, g_array_index (joined, EtJoinedStack, i).node);
  return NULL;
}

static void
test_kernel_walks_and_keys (void **state)
{
  g_autoptr(EtStackTree) tree = et_stack_tree_new ();
  g_autoptr(EtStackJoin) join = et_stack_join_new (tree);
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GArray) joined = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s4 = NULL, *s5 = NULL, *s6 = NULL, *s7 = NULL;
  const guint64 walk[] = { K (0x1000), K (0x2000), 0x401000, 0x402000 };
  const guint64 aa[] = { 0xAA }, bb[] = { 0xBB }, cc[] = { 0xCC };
  const guint64 def_bb[] = { 0xBB, K (0x3000) }, def_aa[] = { 0xAA, 0x403000, 0x404000 };
  const guint64 again_aa[] = { 0xAA, 0x405000 };
  const guint64 in_kernel[] = { K (0x5000), K (0x6000) }, leaving[] = { 0x406000, 0x407000 };
  Damage d = { 0 };
  EtRecord r;

  (void) state;
  walk_record (&r, b, 32, TRUE, 1000, walk, 4);
  assert_int_equal (et_stack_walk_kind (&r), ET_STACK_WALK_STACK);
  et_stack_join_record (join, &r, 10, 0, count_damage, &d);
  walk_record (&r, b, 38, TRUE, 2000, aa, 1);          /* user half by key */
  assert_int_equal (et_stack_walk_kind (&r), ET_STACK_WALK_KEY_USE);
  et_stack_join_record (join, &r, 20, 0, count_damage, &d);
  walk_record (&r, b, 37, TRUE, 2000, bb, 1);          /* kernel half by key */
  et_stack_join_record (join, &r, 30, 0, count_damage, &d);
  walk_record (&r, b, 38, TRUE, 3000, cc, 1);          /* a key never defined */
  et_stack_join_record (join, &r, 40, 0, count_damage, &d);
  walk_record (&r, b, 35, FALSE, 5000, def_bb, 2);     /* KeyDelete */
  assert_int_equal (et_stack_walk_kind (&r), ET_STACK_WALK_KEY_DEF);
  et_stack_join_record (join, &r, 50, 0, count_damage, &d);
  walk_record (&r, b, 35, FALSE, 5100, def_aa, 3);
  et_stack_join_record (join, &r, 60, 0, count_damage, &d);
  walk_record (&r, b, 38, TRUE, 6000, aa, 1);          /* the key used again */
  et_stack_join_record (join, &r, 70, 0, count_damage, &d);
  walk_record (&r, b, 36, FALSE, 9000, again_aa, 2);   /* KeyRundown */
  et_stack_join_record (join, &r, 80, 0, count_damage, &d);
  /* two events in the kernel, then the user stack logged as the thread
   * leaves it: both kernel halves get that user half */
  walk_record (&r, b, 32, TRUE, 10000, in_kernel, 1);
  et_stack_join_record (join, &r, 90, 0, count_damage, &d);
  walk_record (&r, b, 32, TRUE, 10100, in_kernel + 1, 1);
  et_stack_join_record (join, &r, 100, 0, count_damage, &d);
  walk_record (&r, b, 32, TRUE, 10200, leaving, 2);
  et_stack_join_record (join, &r, 110, 0, count_damage, &d);
  joined = et_stack_join_finish (join, count_damage, &d);

  assert_int_equal (d.n, 1);
  assert_int_equal (d.offset, 40);
  assert_int_equal (joined->len, 6);
  assert_string_equal (joined_at (tree, joined, 10000, &s5), "407000 406000 fffff80000005000");
  assert_string_equal (joined_at (tree, joined, 10100, &s6), "407000 406000 fffff80000006000");
  assert_string_equal (joined_at (tree, joined, 10200, &s7), "407000 406000");
  /* root first: the user half, then the kernel half */
  assert_string_equal (joined_at (tree, joined, 1000, &s1),
                       "402000 401000 fffff80000002000 fffff80000001000");
  assert_string_equal (joined_at (tree, joined, 2000, &s2), "404000 403000 fffff80000003000");
  assert_string_equal (joined_at (tree, joined, 6000, &s4), "405000");
}

/* 60,000 samples with stacks loaded on one core and on two, three and
 * eight (the samples read in ranges, one a core, their references joined
 * in file order): the same stacks, and every thread's samples with the
 * same times and the same nodes of the same tree, in the same order. */
static void
test_samples_read_on_every_core_as_on_one (void **state)
{
  Fixture *f = *state;
  const char *cores[] = { "1", "2", "3", "8" };
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) one = NULL;
  EtStacksStats a;

  assert_true (et_fixture_write_stacks_large (f->path, 60000, 7, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < G_N_ELEMENTS (cores); c++)
    {
      g_autoptr(EtTrace) trace = NULL;
      EtStacks *stacks;
      EtStacksStats b;

      g_setenv ("ETLSCOPE_THREADS", cores[c], TRUE);
      trace = et_trace_load (f->path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
      g_unsetenv ("ETLSCOPE_THREADS");
      g_assert_no_error (error);
      stacks = et_trace_get_stacks (trace);
      b = et_stacks_get_stats (stacks);
      if (one == NULL)
        {
          one = g_steal_pointer (&trace);
          a = b;
          assert_int_equal (a.samples, 60000);
          continue;
        }
      assert_memory_equal (&a, &b, sizeof a);
      assert_int_equal (et_trace_get_n_threads (trace), et_trace_get_n_threads (one));
      for (guint t = 0; t < et_trace_get_n_threads (one); t++)
        {
          const gint64 *ns_a, *ns_b;
          const guint32 *nodes_a, *nodes_b;
          guint n = et_stacks_thread_samples (et_trace_get_stacks (one), t, &ns_a, &nodes_a);

          assert_int_equal (et_stacks_thread_samples (stacks, t, &ns_b, &nodes_b), n);
          if (n == 0)
            continue;
          assert_memory_equal (ns_a, ns_b, n * sizeof *ns_a);
          assert_memory_equal (nodes_a, nodes_b, n * sizeof *nodes_a);
        }
    }
}

/* ---- the corpus ---------------------------------------------------------- */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFields, et_fields_free)

static char *
corpus_path (const char *name)
{
  const char *dir = g_getenv ("ET_CORPUS_DIR");
  char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      print_message ("# corpus trace %s not found (ET_CORPUS_DIR %s): not checked\n", name,
                     dir != NULL ? dir : "unset");
      g_clear_pointer (&path, g_free);
    }
  return path;
}

/* A top-level field of @fields by name, or NULL. */
static const EtField *
field (const EtFields *fields, const char *name)
{
  for (guint i = 0; i < et_fields_len (fields); i += 1 + et_fields_get (fields, i)->n_desc)
    if (g_strcmp0 (et_fields_get (fields, i)->name, name) == 0)
      return et_fields_get (fields, i);
  return NULL;
}

static const char *
text_of (const EtFields *fields, const char *name)
{
  const EtField *f = field (fields, name);

  return f != NULL && f->kind == ET_VALUE_STRING ? fields->text->str + f->v.bytes.off : "";
}

typedef struct
{
  guint64 start;
  guint64 size;
  gint64  from_ns;     /* G_MININT64: known from a rundown */
} Range;

/* What the events say independently of the stacks' code: per method name
 * (Namespace.Name(args)) its ranges, and per (pid, tid) its samples. */
typedef struct
{
  GHashTable *ranges;      /* name → GArray of Range */
  GHashTable *samples;     /* "tid" → count */
  GArray     *all;         /* every Range, by start */
  guint       walks;       /* ClrStack/Walk events */
} Decoded;

static void
decoded_clear (Decoded *d)
{
  g_clear_pointer (&d->ranges, g_hash_table_unref);
  g_clear_pointer (&d->samples, g_hash_table_unref);
  g_clear_pointer (&d->all, g_array_unref);
}

static int
compare_starts (gconstpointer a, gconstpointer b)
{
  const Range *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static void
add_range (Decoded *d, const EtEvent *ev, const EtFields *fields, gint64 ns)
{
  const char *sig = text_of (fields, "MethodSignature");
  const char *args = strchr (sig, '(');
  char *name = g_strdup_printf ("%s.%s%s", text_of (fields, "MethodNamespace"),
                                text_of (fields, "MethodName"), args != NULL ? args : "");
  GArray *list = g_hash_table_lookup (d->ranges, name);
  Range r = { field (fields, "MethodStartAddress")->v.u, field (fields, "MethodSize")->v.u,
              g_str_has_suffix (ev->name, "LoadVerbose") ? ns : G_MININT64 };

  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (Range));
      g_hash_table_insert (d->ranges, name, list);
    }
  else
    g_free (name);
  g_array_append_val (list, r);
  g_array_append_val (d->all, r);
}

static void
decode_corpus (EtTrace *trace, Decoded *d)
{
  g_autoptr(EtFields) fields = et_fields_new ();
  guint64 n = et_trace_get_n_events (trace);

  d->ranges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_array_unref);
  d->samples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  d->all = g_array_new (FALSE, FALSE, sizeof (Range));
  for (guint64 i = 0; i < n; i++)
    {
      EtEvent ev;

      if (!et_trace_decode_event (trace, i, &ev, fields, NULL) || ev.name == NULL)
        continue;
      if (strcmp (ev.name, "Method/LoadVerbose") == 0 || strcmp (ev.name, "Method/DCStopVerbose") == 0
          || strcmp (ev.name, "Method/DCStartVerbose") == 0)
        add_range (d, &ev, fields, ev.time_ns);
      else if (strcmp (ev.name, "Thread/Sample") == 0 || strcmp (ev.name, "PerfInfo/Sample") == 0)
        {
          /* by thread id: a kernel sample's process is the model's inference */
          char *key = g_strdup_printf ("%u", ev.tid);

          g_hash_table_replace (d->samples, key, GUINT_TO_POINTER (
            GPOINTER_TO_UINT (g_hash_table_lookup (d->samples, key)) + 1));
        }
      else if (strcmp (ev.name, "ClrStack/Walk") == 0)
        d->walks++;
    }
  g_array_sort (d->all, compare_starts);
}

/* Whether @address lies in a range of @name loaded by @ns. */
static gboolean
in_range (const Decoded *d, const char *name, guint64 address, gint64 ns)
{
  GArray *list = g_hash_table_lookup (d->ranges, name);

  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      const Range *r = &g_array_index (list, Range, i);

      if (address >= r->start && address < r->start + r->size && r->from_ns <= ns)
        return TRUE;
    }
  return FALSE;
}

/* Whether any decoded range covers @address by @ns (methods are far
 * smaller than 1 MiB: the search looks back that far). */
static gboolean
covered (const Decoded *d, guint64 address, gint64 ns)
{
  const Range *r = (const Range *) (gconstpointer) d->all->data;
  guint lo = 0, hi = d->all->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo > 0 && address - r[lo - 1].start < (1u << 20); lo--)
    if (address < r[lo - 1].start + r[lo - 1].size && r[lo - 1].from_ns <= ns)
      return TRUE;
  return FALSE;
}

typedef struct
{
  guint64 frames, managed, in_range, coverable, named_coverable, joined;
} Tally;

/* Every frame of one sample: a managed name's address lies in that
 * method's range at the sample's time; an address a decoded range covers
 * is named. */
static void
check_sample (EtStacks *stacks, const Decoded *d, guint32 node, gint64 ns, Tally *t)
{
  EtStackTree *tree = et_stacks_tree (stacks);
  gboolean kernel = FALSE, user = FALSE;

  for (; node != ET_STACK_NONE; node = et_stack_tree_caller (tree, node))
    {
      guint32 frame = et_stack_tree_frame (tree, node);
      guint64 address = et_stack_tree_address (tree, frame);
      const char *name = et_stacks_name (stacks, et_stacks_frame_symbol (stacks, frame, ns));
      const char *bang = strchr (name, '!');
      gboolean unnamed = g_str_has_prefix (name, "?!0x");

      t->frames++;
      if (et_stack_is_kernel_address (address, 8))
        kernel = TRUE;
      else
        user = TRUE;
      if (bang != NULL && !unnamed && strstr (name, "+0x") == NULL)
        {
          t->managed++;
          if (in_range (d, bang + 1, address, ns))
            t->in_range++;
          else
            print_message ("# %s at 0x%" G_GINT64_MODIFIER "x is outside its ranges\n", name,
                           address);
        }
      if (covered (d, address, ns))
        {
          t->coverable++;
          t->named_coverable += !unnamed;
        }
    }
  t->joined += kernel && user;
}

/* Sample totals per thread against the decoded samples, and every frame. */
static Tally
check_corpus_samples (EtTrace *trace, const Decoded *d)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GHashTable) kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 total = 0;
  Tally t = { 0 };
  GHashTableIter iter;
  gpointer key, value;

  assert_non_null (stacks);
  for (guint i = 0; i < et_trace_get_n_threads (trace); i++)
    {
      const EtThread *thread = et_trace_get_thread (trace, i);
      char *tid = g_strdup_printf ("%u", thread->tid);
      const gint64 *ns;
      const guint32 *nodes;
      guint n = et_stacks_thread_samples (stacks, i, &ns, &nodes);

      g_hash_table_replace (kept, tid, GUINT_TO_POINTER (
        GPOINTER_TO_UINT (g_hash_table_lookup (kept, tid)) + n));
      total += n;
      for (guint k = 0; k < n; k++)
        check_sample (stacks, d, nodes[k], ns[k], &t);
    }
  /* each thread's samples are its sample events, no more, no less */
  g_hash_table_iter_init (&iter, d->samples);
  while (g_hash_table_iter_next (&iter, &key, &value))
    assert_int_equal (GPOINTER_TO_UINT (g_hash_table_lookup (kept, key)), GPOINTER_TO_UINT (value));
  g_hash_table_iter_init (&iter, kept);
  while (g_hash_table_iter_next (&iter, &key, &value))
    assert_int_equal (GPOINTER_TO_UINT (g_hash_table_lookup (d->samples, key)), GPOINTER_TO_UINT (value));
  assert_true (t.managed > 0);
  assert_int_equal (t.in_range, t.managed);
  assert_int_equal (t.named_coverable, t.coverable);
  print_message ("# %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " frames, %"
                 G_GUINT64_FORMAT " managed (all in their ranges), %" G_GUINT64_FORMAT
                 " in a method's range (all named), %" G_GUINT64_FORMAT
                 " with user and kernel halves\n", total, t.frames, t.managed, t.coverable,
                 t.joined);
  return t;
}

/* Loads corpus trace @name, decodes its events into @d and checks its
 * samples into @t; NULL (the test skipped) without the corpus. */
static EtTrace *
check_corpus (const char *name, Decoded *d, Tally *t)
{
  g_autofree char *path = corpus_path (name);
  EtTrace *trace;

  if (path == NULL)
    return NULL;
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, NULL);
  assert_non_null (trace);
  decode_corpus (trace, d);
  *t = check_corpus_samples (trace, d);
  return trace;
}

static void
test_corpus_nettrace_sample_profiler (void **state)
{
  Decoded d = { 0 };
  Tally t;
  g_autoptr(EtTrace) trace = check_corpus ("nettrace/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace",
                                           &d, &t);

  (void) state;
  if (trace == NULL)
    skip ();
  /* the count: 35,161 samples of the SampleProfiler */
  assert_int_equal (et_stacks_get_stats (et_trace_get_stacks (trace)).samples, 35161);
  assert_true (t.coverable > 0);
  decoded_clear (&d);
}

static void
test_corpus_etl_stacks (void **state)
{
  Decoded d = { 0 };
  guint walked = 0;
  Tally t;
  g_autoptr(EtTrace) trace = check_corpus ("net.4.5.2.x64.etl", &d, &t);

  (void) state;
  if (trace == NULL)
    skip ();
  /* stack keys and walks join a sample's user and kernel halves */
  assert_true (t.joined > 0);
  /* the runtime's stack walks give the events before them a stack */
  assert_int_equal (d.walks, 14983);
  for (guint64 i = 0; i < et_trace_get_n_events (trace); i++)
    walked += et_trace_event_stack (trace, i, NULL) != ET_STACK_NONE;
  assert_true (walked >= d.walks);
  print_message ("# %u events hold a stack\n", walked);
  decoded_clear (&d);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_folded_equals_expected, setup, teardown),
    cmocka_unit_test_setup_teardown (test_speedscope, setup, teardown),
    cmocka_unit_test_setup_teardown (test_call_tree_json, setup, teardown),
    cmocka_unit_test_setup_teardown (test_span_keeps_both_stacks, setup, teardown),
    cmocka_unit_test_setup_teardown (test_call_tree_of_ranges, setup, teardown),
    cmocka_unit_test_setup_teardown (test_events_with_stacks, setup, teardown),
    cmocka_unit_test_setup_teardown (test_missing_stack_ids, setup, teardown),
    cmocka_unit_test_setup_teardown (test_truncated_stack_block, setup, teardown),
    cmocka_unit_test (test_overlapping_method_ranges),
    cmocka_unit_test_setup_teardown (test_overlap_in_a_trace, setup, teardown),
    cmocka_unit_test (test_kernel_walks_and_keys),
    cmocka_unit_test_setup_teardown (test_samples_read_on_every_core_as_on_one, setup, teardown),
    cmocka_unit_test (test_corpus_nettrace_sample_profiler),
    cmocka_unit_test (test_corpus_etl_stacks),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
