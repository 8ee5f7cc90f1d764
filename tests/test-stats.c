/* test-stats.c — range statistics: "etlscope-cli stats" and the model's
 * duration histogram.
 *
 * The statistics the tool writes must agree exactly with statistics this
 * test computes itself from "markers --format=jsonl" of the whole trace,
 * applying each filter by its documented meaning: flags and messages whose
 * time lies in [from, to), spans with both ends whose start lies there;
 * durations end_ns − start_ns; percentiles by nearest rank (the p-th is the
 * ⌈p·n/100⌉-th smallest of the sorted durations); the mean rounded to the
 * nearest nanosecond, halves up. Traces: one written here with every edge
 * (spans at exactly from and to, unmatched spans, a one-span series,
 * 100 and 20 spans whose percentile ranks are whole numbers), the fixture's
 * random "large" trace and the demo.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "et-fixture.h"
#include "et-stats.h"
#include "cli-run.h"
#include "et-trace-load.h"

#define MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  char      *dir;
  char      *edges;
  char      *large;
  char      *demo;
} Fixture;

/* ---- the edge trace --------------------------------------------------- */

typedef enum { EV_START, EV_STOP, EV_FLAG, EV_NOTE } EvType;

typedef struct
{
  gint64      t;
  guint       order;
  EvType      type;
  guint       provider;   /* 0 Test.Stats, 1 Test.Other */
  guint32     pid, tid;
  gint64      span_id;
  const char *series;
  guint8      importance; /* cvImportance */
} Ev;

typedef struct
{
  GArray *events;
  gint64  next_id;
} Plan;

static void
plan_add (Plan *p, Ev ev)
{
  ev.order = p->events->len;
  g_array_append_val (p->events, ev);
}

/* A span of @series from @start to @start + @duration; the end goes on
 * @end_tid (another thread of the process: cross-thread). */
static void
plan_span (Plan *p, guint provider, guint32 pid, guint32 tid, guint32 end_tid,
           const char *series, gint64 start, gint64 duration, guint8 importance)
{
  gint64 id = p->next_id++;

  plan_add (p, (Ev) { start, 0, EV_START, provider, pid, tid, id, series, importance });
  plan_add (p, (Ev) { start + duration, 0, EV_STOP, provider, pid, end_tid, id, series, 0 });
}

static int
compare_ev (gconstpointer pa, gconstpointer pb)
{
  const Ev *a = pa, *b = pb;

  if (a->t != b->t)
    return a->t < b->t ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Durations 1..n × @unit in an order of GRand's choosing. */
static void
plan_shuffled (Plan *p, const char *series, guint32 tid, guint n, gint64 unit,
               gint64 first, gint64 step, GRand *rand)
{
  g_autofree gint64 *d = g_new (gint64, n);

  for (guint i = 0; i < n; i++)
    d[i] = (i + 1) * unit;
  for (guint i = n - 1; i > 0; i--)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      gint64 t = d[i];
      d[i] = d[j];
      d[j] = t;
    }
  for (guint i = 0; i < n; i++)
    plan_span (p, 0, 100, tid, tid, series, first + i * step, d[i], 4);
}

static void
plan_edges (Plan *p)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);

  /* "Edge" spans: at from (in), at to (out), just before from (out), and
   * one ending on another thread (in). */
  plan_span (p, 0, 100, 101, 101, "Edge", 1 * MS, 5000, 4);
  plan_span (p, 0, 100, 101, 101, "Edge", 2 * MS, 3000, 4);
  plan_span (p, 0, 100, 101, 101, "Edge", 1 * MS - 100, 700, 4);
  plan_span (p, 0, 100, 101, 102, "Edge", 1500000, 40000, 2);
  plan_add (p, (Ev) { 1 * MS, 0, EV_FLAG, 0, 100, 101, 0, "Edge", 2 });
  plan_add (p, (Ev) { 2 * MS, 0, EV_FLAG, 0, 100, 101, 0, "Edge", 2 });
  plan_add (p, (Ev) { 1700000, 0, EV_FLAG, 0, 100, 101, 0, "Edge", 5 });
  plan_add (p, (Ev) { 1999900, 0, EV_NOTE, 0, 100, 102, 0, "Edge", 0 });
  /* A series of one span, on another process. */
  plan_span (p, 0, 200, 201, 201, "Solo", 1200000, 12300, 1);
  /* Never counted: a start that never ends, an end that starts nothing. */
  plan_add (p, (Ev) { 1300000, 0, EV_START, 0, 100, 102, 999001, "Open", 4 });
  plan_add (p, (Ev) { 1400000, 0, EV_STOP, 0, 100, 102, 999002, "Open", 0 });
  /* p·n/100 whole: 100 spans of 100 ns … 10 µs, 20 of 1 µs … 20 µs. */
  plan_shuffled (p, "Hundred", 101, 100, 100, 1010000, 5000, rand);
  plan_shuffled (p, "Twenty", 102, 20, 1000, 1100000, 20000, rand);
  /* After the range: all durations equal, and durations rising in start
   * order (worst cases for a careless selection). */
  for (guint i = 0; i < 37; i++)
    plan_span (p, 0, 100, 103, 103, "Same", 2500000 + i * 1000, 700, 4);
  for (guint i = 0; i < 30; i++)
    plan_span (p, 0, 100, 103, 103, "Rising", 2600000 + i * 1000, 100 * (i + 1), 4);
  /* Another provider with a series of the same name. */
  plan_span (p, 1, 200, 202, 202, "Edge", 1100000, 200, 4);
  plan_span (p, 1, 200, 202, 202, "Edge", 1300000, 600, 3);
  plan_span (p, 1, 200, 202, 202, "Edge", 1600000, 400, 4);
  plan_add (p, (Ev) { 1650000, 0, EV_FLAG, 1, 200, 202, 0, "Edge", 1 });
}

typedef struct
{
  EtFixturePayload *p;
  GBytes           *traits[2];
  GBytes           *meta[4];     /* by EvType */
} Blobs;

static void
blobs_init (Blobs *b)
{
  static const char *const names[] = { "Test.Stats", "Test.Other" };
  EtFixturePayload *p = b->p = et_fixture_payload_new ();

  for (guint i = 0; i < 2; i++)
    b->traits[i] = et_fixture_tl_provider_traits (names[i], NULL);
  et_fixture_payload_add_i64 (p, "cvSpanId", 0);
  et_fixture_payload_add_utf16 (p, "cvSeries", "x");
  et_fixture_payload_add_u8 (p, "cvImportance", 0);
  b->meta[EV_START] = et_fixture_payload_tl_metadata (p, "Op", 0);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_i64 (p, "cvSpanId", 0);
  b->meta[EV_STOP] = et_fixture_payload_tl_metadata (p, "Op", 0);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_utf16 (p, "cvSeries", "x");
  et_fixture_payload_add_u8 (p, "cvImportance", 0);
  b->meta[EV_FLAG] = et_fixture_payload_tl_metadata (p, "Tick", 0);
  et_fixture_payload_reset (p);
  et_fixture_payload_add_utf16 (p, "cvSeries", "x");
  b->meta[EV_NOTE] = et_fixture_payload_tl_metadata (p, "Note", 0);
}

static void
blobs_clear (Blobs *b)
{
  et_fixture_payload_free (b->p);
  for (guint i = 0; i < 2; i++)
    g_bytes_unref (b->traits[i]);
  for (guint i = 0; i < 4; i++)
    g_bytes_unref (b->meta[i]);
}

static void
write_ev (EtFixtureWriter *w, Blobs *b, const Ev *e)
{
  static const char *const names[] = { "Test.Stats", "Test.Other" };
  static const guint8 opcodes[] = { 1, 2, 0, 0 }, levels[] = { 4, 4, 4, 5 };
  EtFixtureEvent ev;
  const guint8 *data;
  gsize len;

  et_fixture_event_init (&ev);
  ev.cpu = e->tid % 4, ev.time_ns = e->t, ev.pid = e->pid, ev.tid = e->tid;
  ev.opcode = opcodes[e->type], ev.level = levels[e->type], ev.channel = 11;
  et_guid_from_eventsource_name (names[e->provider], &ev.provider);
  et_fixture_payload_reset (b->p);
  if (e->type == EV_START || e->type == EV_STOP)
    et_fixture_payload_add_i64 (b->p, "cvSpanId", e->span_id);
  if (e->type != EV_STOP)
    et_fixture_payload_add_utf16 (b->p, "cvSeries", e->series);
  if (e->type == EV_START || e->type == EV_FLAG)
    et_fixture_payload_add_u8 (b->p, "cvImportance", e->importance);
  data = et_fixture_payload_data (b->p, &len);
  et_fixture_write_tl_event_blobs (w, &ev, b->traits[e->provider], b->meta[e->type], data, len);
}

static void
write_edges (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EtFixtureWriter) w = NULL;
  Plan plan = { g_array_new (FALSE, FALSE, sizeof (Ev)), 1 };
  EtFixtureOptions o;
  Blobs b;

  plan_edges (&plan);
  g_array_sort (plan.events, compare_ev);
  et_fixture_options_init (&o);
  w = et_fixture_writer_new (path, &o, &error);
  g_assert_no_error (error);
  blobs_init (&b);
  for (guint i = 0; i < plan.events->len; i++)
    write_ev (w, &b, &g_array_index (plan.events, Ev, i));
  assert_true (et_fixture_writer_close (w, &error));
  g_assert_no_error (error);
  blobs_clear (&b);
  g_array_unref (plan.events);
}

/* ---- statistics computed here, from the markers ----------------------- */

/* A stats command line and what it means. */
typedef struct
{
  gboolean    has_from, has_to;
  gint64      from, to;
  const char *provider;
  gint64      pid, tid;          /* -1: any */
  const char *kind;              /* NULL: any */
  const char *min_importance;    /* NULL: any */
} Query;

#define ANY_QUERY { FALSE, FALSE, 0, 0, NULL, -1, -1, NULL, NULL }

static const char *const row_keys[] = {
  "provider", "series", "kind", "count", "total_ns", "min_ns", "mean_ns",
  "p50_ns", "p90_ns", "p99_ns", "max_ns",
};

typedef struct
{
  const char *provider;
  const char *series;
  guint       kind;        /* 0 flag, 1 message, 2 span: the documented order */
  guint64     count;
  GArray     *durations;   /* gint64 */
} Expect;

static guint
kind_rank (const char *kind)
{
  return g_str_equal (kind, "flag") ? 0 : g_str_equal (kind, "message") ? 1 : 2;
}

static guint
importance_rank (const char *importance)
{
  static const char *const names[] = { "low", "normal", "high", "critical" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (importance, names[i]))
      return i;
  fail_msg ("unknown importance '%s'", importance);
  return 0;
}

static gboolean
get_int (JsonObject *o, const char *key, gint64 *value)
{
  JsonNode *node = json_object_get_member (o, key);

  assert_non_null (node);
  if (JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

/* Whether @m counts for @q, by the documented meaning of each option. */
static gboolean
counted (JsonObject *m, const Query *q, gint64 *duration)
{
  const char *kind = json_object_get_string_member (m, "kind");
  gint64 start, end;

  if ((q->kind != NULL && !g_str_equal (kind, q->kind))
      || (q->provider != NULL && !g_str_equal (json_object_get_string_member (m, "provider"),
                                               q->provider))
      || (q->pid >= 0 && json_object_get_int_member (m, "pid") != q->pid)
      || (q->tid >= 0 && json_object_get_int_member (m, "tid") != q->tid)
      || (q->min_importance != NULL
          && importance_rank (json_object_get_string_member (m, "importance"))
             < importance_rank (q->min_importance)))
    return FALSE;
  if (!get_int (m, "start_ns", &start))
    return FALSE;                        /* a lone end */
  if (g_str_equal (kind, "span"))
    {
      if (!get_int (m, "end_ns", &end))
        return FALSE;                    /* never ended */
      *duration = end - start;
    }
  return (!q->has_from || start >= q->from) && (!q->has_to || start < q->to);
}

static int
compare_expect (gconstpointer pa, gconstpointer pb)
{
  const Expect *a = *(const Expect *const *) pa, *b = *(const Expect *const *) pb;
  int c = strcmp (a->provider, b->provider);

  if (c == 0)
    c = strcmp (a->series, b->series);
  return c != 0 ? c : (int) a->kind - (int) b->kind;
}

static void
expect_free (gpointer data)
{
  Expect *e = data;

  g_array_unref (e->durations);
  g_free (e);
}

/* The rows @q should give, in the documented order. */
static GPtrArray *
expected_rows (GPtrArray *markers, const Query *q)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *rows = g_ptr_array_new_with_free_func (expect_free);

  for (guint i = 0; i < markers->len; i++)
    {
      JsonObject *m = g_ptr_array_index (markers, i);
      const char *provider = json_object_get_string_member (m, "provider");
      const char *series = json_object_get_string_member (m, "series");
      guint kind = kind_rank (json_object_get_string_member (m, "kind"));
      g_autofree char *key = g_strdup_printf ("%s\x1f%s\x1f%u", provider, series, kind);
      gint64 duration = 0;
      Expect *e;

      if (!counted (m, q, &duration))
        continue;
      e = g_hash_table_lookup (by_key, key);
      if (e == NULL)
        {
          e = g_new0 (Expect, 1);
          *e = (Expect) { provider, series, kind, 0, g_array_new (FALSE, FALSE, sizeof (gint64)) };
          g_hash_table_insert (by_key, g_steal_pointer (&key), e);
          g_ptr_array_add (rows, e);
        }
      e->count++;
      if (kind == 2)
        g_array_append_val (e->durations, duration);
    }
  g_ptr_array_sort (rows, compare_expect);
  return rows;
}

static int
compare_i64 (const void *pa, const void *pb)
{
  gint64 a = *(const gint64 *) pa, b = *(const gint64 *) pb;

  return a < b ? -1 : a > b;
}

/* The p-th percentile, nearest rank, of sorted @d. */
static gint64
percentile (GArray *d, guint p)
{
  guint64 rank = ((guint64) p * d->len + 99) / 100;   /* ⌈p·n/100⌉ */

  return g_array_index (d, gint64, rank - 1);
}

static void
expect_values (Expect *e, gint64 v[7])
{
  gint64 total = 0;

  assert_int_equal (e->count, e->durations->len);
  g_array_sort (e->durations, compare_i64);
  for (guint i = 0; i < e->durations->len; i++)
    total += g_array_index (e->durations, gint64, i);
  assert_true (total >= 0);
  v[0] = total;
  v[1] = g_array_index (e->durations, gint64, 0);
  v[2] = (gint64) ((2 * (guint64) total + e->count) / (2 * e->count));  /* nearest, halves up */
  v[3] = percentile (e->durations, 50);
  v[4] = percentile (e->durations, 90);
  v[5] = percentile (e->durations, 99);
  v[6] = g_array_index (e->durations, gint64, e->durations->len - 1);
}

static void
assert_row (JsonObject *row, Expect *e, guint i)
{
  g_autoptr(GList) members = json_object_get_members (row);
  GList *k = members;
  gint64 v[7];

  for (guint c = 0; c < G_N_ELEMENTS (row_keys); c++, k = k->next)
    if (k == NULL || !g_str_equal (k->data, row_keys[c]))
      fail_msg ("row %u: key %u is '%s', not '%s'", i, c, k ? (char *) k->data : "(none)",
                row_keys[c]);
  assert_null (k);
  assert_string_equal (json_object_get_string_member (row, "provider"), e->provider);
  assert_string_equal (json_object_get_string_member (row, "series"), e->series);
  assert_int_equal (kind_rank (json_object_get_string_member (row, "kind")), e->kind);
  assert_int_equal (json_object_get_int_member (row, "count"), e->count);
  if (e->kind != 2)
    {
      /* Flags and messages: every duration key there, and null. */
      for (guint c = 4; c < G_N_ELEMENTS (row_keys); c++)
        assert_true (json_object_get_null_member (row, row_keys[c]));
      return;
    }
  expect_values (e, v);
  for (guint c = 4; c < G_N_ELEMENTS (row_keys); c++)
    {
      gint64 got = json_object_get_int_member (row, row_keys[c]);

      if (got != v[c - 4])
        fail_msg ("%s/%s: %s is %" G_GINT64_FORMAT ", computed %" G_GINT64_FORMAT
                  " from %u spans", e->provider, e->series, row_keys[c], got, v[c - 4],
                  e->durations->len);
    }
}

static char *
time_arg (const char *option, gint64 ns)
{
  /* Whole milliseconds with a unit, as people write them; else ns. */
  if (ns % MS == 0)
    return g_strdup_printf ("%s=%" G_GINT64_FORMAT "ms", option, ns / MS);
  return g_strdup_printf ("%s=%" G_GINT64_FORMAT, option, ns);
}

/* "stats --format=FORMAT" with @q's options, on @path; must exit 0. */
static Run
run_stats (const char *path, const Query *q, const char *format)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  Run run;

  g_ptr_array_add (args, g_strdup ("stats"));
  g_ptr_array_add (args, g_strdup_printf ("--format=%s", format));
  if (q->has_from)
    g_ptr_array_add (args, time_arg ("--from", q->from));
  if (q->has_to)
    g_ptr_array_add (args, time_arg ("--to", q->to));
  if (q->provider != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--provider=%s", q->provider));
  if (q->pid >= 0)
    g_ptr_array_add (args, g_strdup_printf ("--pid=%" G_GINT64_FORMAT, q->pid));
  if (q->tid >= 0)
    g_ptr_array_add (args, g_strdup_printf ("--tid=%" G_GINT64_FORMAT, q->tid));
  if (q->kind != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--kind=%s", q->kind));
  if (q->min_importance != NULL)
    g_ptr_array_add (args, g_strdup_printf ("--min-importance=%s", q->min_importance));
  g_ptr_array_add (args, g_strdup (path));
  g_ptr_array_add (args, NULL);
  run = run_cli_v ((const char *const *) args->pdata);
  if (run.status != 0)
    fail_msg ("stats exited %d: %s", run.status, run.err);
  return run;
}

static JsonArray *
stats_rows (JsonObject *root)
{
  g_autoptr(GList) members = json_object_get_members (root);

  /* Exactly {"series": […]}. */
  assert_int_equal (g_list_length (members), 1);
  assert_string_equal (members->data, "series");
  return json_object_get_array_member (root, "series");
}

static guint
assert_rows (JsonArray *rows, GPtrArray *expected)
{
  guint n_spans = 0;

  assert_int_equal (json_array_get_length (rows), expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      Expect *e = g_ptr_array_index (expected, i);

      assert_row (json_array_get_object_element (rows, i), e, i);
      n_spans += e->kind == 2;
    }
  return n_spans;
}

/* stats --format=json on @path for @q agrees with the markers; returns
 * the number of span rows, so that callers can insist on some. */
static guint
assert_agree (const char *path, GPtrArray *markers, const Query *q)
{
  g_autoptr(GPtrArray) expected = expected_rows (markers, q);
  Run run = run_stats (path, q, "json");
  g_autoptr(JsonObject) root = parse_object (run.out, -1);
  guint n_spans = assert_rows (stats_rows (root), expected);

  run_clear (&run);
  return n_spans;
}

static GPtrArray *
all_markers_status (const char *path, int status)
{
  Run run = run_cli ("markers", "--format=jsonl", path);
  GPtrArray *markers;

  if (run.status != status)
    fail_msg ("markers exited %d: %s", run.status, run.err);
  markers = parse_lines (run.out);
  run_clear (&run);
  return markers;
}

#define all_markers(path) all_markers_status ((path), 0)

/* ---- the tests -------------------------------------------------------- */

static JsonObject *
find_row (JsonArray *rows, const char *provider, const char *series, const char *kind)
{
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (g_str_equal (json_object_get_string_member (row, "provider"), provider)
          && g_str_equal (json_object_get_string_member (row, "series"), series)
          && g_str_equal (json_object_get_string_member (row, "kind"), kind))
        return row;
    }
  return NULL;
}

/* Spans: count, total, min, mean, p50, p90, p99, max. */
static void
assert_span_row (JsonArray *rows, const char *provider, const char *series, const gint64 v[8])
{
  JsonObject *row = find_row (rows, provider, series, "span");

  if (row == NULL)
    fail_msg ("no span row for %s/%s", provider, series);
  for (guint c = 3; c < G_N_ELEMENTS (row_keys); c++)
    if (json_object_get_int_member (row, row_keys[c]) != v[c - 3])
      fail_msg ("%s/%s: %s is %" G_GINT64_FORMAT ", the trace was written with %" G_GINT64_FORMAT,
                provider, series, row_keys[c], json_object_get_int_member (row, row_keys[c]),
                v[c - 3]);
}

/* What the edge trace was written with, in [1 ms, 2 ms). */
static void
test_edges_known_values (void **state)
{
  Fixture *f = *state;
  Query q = ANY_QUERY;
  static const gint64 hundred[] = { 100, 505000, 100, 5050, 5000, 9000, 9900, 10000 };
  static const gint64 twenty[] = { 20, 210000, 1000, 10500, 10000, 18000, 20000, 20000 };
  static const gint64 edge[] = { 2, 45000, 5000, 22500, 5000, 40000, 40000, 40000 };
  static const gint64 solo[] = { 1, 12300, 12300, 12300, 12300, 12300, 12300, 12300 };
  static const gint64 other[] = { 3, 1200, 200, 400, 400, 600, 600, 600 };
  g_autoptr(JsonObject) root = NULL;
  JsonArray *rows;
  Run run;

  q.has_from = q.has_to = TRUE, q.from = 1 * MS, q.to = 2 * MS;
  run = run_stats (f->edges, &q, "json");
  root = parse_object (run.out, -1);
  rows = stats_rows (root);
  assert_span_row (rows, "Test.Stats", "Hundred", hundred);
  assert_span_row (rows, "Test.Stats", "Twenty", twenty);
  assert_span_row (rows, "Test.Stats", "Edge", edge);
  assert_span_row (rows, "Test.Stats", "Solo", solo);
  assert_span_row (rows, "Test.Other", "Edge", other);
  /* The flag at from counts, the one at to does not; unmatched spans
   * make no row at all. */
  assert_int_equal (json_object_get_int_member (find_row (rows, "Test.Stats", "Edge", "flag"),
                                                "count"), 2);
  assert_int_equal (json_object_get_int_member (find_row (rows, "Test.Stats", "Edge", "message"),
                                                "count"), 1);
  assert_null (find_row (rows, "Test.Stats", "Open", "span"));
  assert_int_equal (json_array_get_length (rows), 8);
  run_clear (&run);
}

static void
test_edges_agree_with_markers (void **state)
{
  Fixture *f = *state;
  g_autoptr(GPtrArray) markers = all_markers (f->edges);
  Query whole = ANY_QUERY, range = ANY_QUERY, half = ANY_QUERY, important = ANY_QUERY;
  Query other = ANY_QUERY, pid = ANY_QUERY, tid = ANY_QUERY, flags = ANY_QUERY;

  range.has_from = range.has_to = TRUE, range.from = 1 * MS, range.to = 2 * MS;
  /* The cross-thread span starts exactly at 1.5 ms: out of [1 ms, 1.5 ms). */
  half = range, half.to = 1500000;
  important = range, important.kind = "span", important.min_importance = "high";
  other = range, other.provider = "Test.Other";
  pid = whole, pid.pid = 200;
  tid = range, tid.tid = 101;
  flags = whole, flags.has_from = TRUE, flags.from = 1 * MS, flags.kind = "flag";
  /* Span rows: Edge, Hundred, Solo, Twenty and the other provider's Edge
   * (and Same and Rising after the range); "Open" has none. */
  assert_int_equal (assert_agree (f->edges, markers, &whole), 7);
  assert_int_equal (assert_agree (f->edges, markers, &range), 5);
  assert_int_equal (assert_agree (f->edges, markers, &half), 5);
  assert_int_equal (assert_agree (f->edges, markers, &important), 3);
  assert_int_equal (assert_agree (f->edges, markers, &other), 1);
  assert_int_equal (assert_agree (f->edges, markers, &pid), 2);
  assert_int_equal (assert_agree (f->edges, markers, &tid), 2);
  assert_int_equal (assert_agree (f->edges, markers, &flags), 0);
}

/* The first span with both ends at or after marker @index. */
static gint64
span_start_from (GPtrArray *markers, guint index)
{
  for (guint i = index; i < markers->len; i++)
    {
      JsonObject *m = g_ptr_array_index (markers, i);
      gint64 start, end;

      if (g_str_equal (json_object_get_string_member (m, "kind"), "span")
          && get_int (m, "start_ns", &start) && get_int (m, "end_ns", &end))
        return start;
    }
  fail_msg ("no span after marker %u", index);
  return 0;
}

/* Random traces: ranges whose edges are span starts (one counted at from,
 * one left out at to), and each filter. */
static void
assert_random_trace_agrees (const char *path, const char *provider, gint64 pid, gint64 tid)
{
  g_autoptr(GPtrArray) markers = all_markers (path);
  Query q[7];
  guint n = markers->len;

  for (guint i = 0; i < G_N_ELEMENTS (q); i++)
    q[i] = (Query) ANY_QUERY;
  q[1].has_from = q[1].has_to = TRUE;
  q[1].from = span_start_from (markers, n / 3);
  q[1].to = span_start_from (markers, 2 * n / 3);
  q[2] = q[1], q[2].provider = provider;
  q[3] = q[1], q[3].pid = pid;
  q[4] = q[1], q[4].kind = "span", q[4].min_importance = "high";
  q[5] = q[0], q[5].tid = tid, q[5].min_importance = "normal";
  q[6] = q[1], q[6].from = span_start_from (markers, n / 2), q[6].kind = "message";
  for (guint i = 0; i < G_N_ELEMENTS (q); i++)
    assert_true (assert_agree (path, markers, &q[i]) > 0 || q[i].kind != NULL);
}

static void
test_large_agrees_with_markers (void **state)
{
  Fixture *f = *state;

  assert_random_trace_agrees (f->large, "Contoso.Large.Tl", 7100, 7203);
}

static void
test_demo_agrees_with_markers (void **state)
{
  Fixture *f = *state;

  assert_random_trace_agrees (f->demo, "Contoso-WebServer", 4120, 4124);
}

/* CSV: the JSON's rows and values, empty where JSON has null. Text: a
 * header and a line per row, durations in human units. */
static void
test_csv_and_text_match_json (void **state)
{
  Fixture *f = *state;
  Query q = ANY_QUERY;
  Run json, csv, text;
  g_autoptr(JsonObject) root = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *rows;
  gsize pos = 0;

  q.has_from = q.has_to = TRUE, q.from = 1 * MS, q.to = 2 * MS;
  json = run_stats (f->edges, &q, "json");
  csv = run_stats (f->edges, &q, "csv");
  text = run_stats (f->edges, &q, "text");
  root = parse_object (json.out, -1);
  rows = stats_rows (root);
  for (guint i = 0; i <= json_array_get_length (rows); i++)
    {
      g_autoptr(GPtrArray) record = csv_record (csv.out, &pos);

      assert_int_equal (record->len, G_N_ELEMENTS (row_keys));
      for (guint c = 0; c < record->len; c++)
        {
          JsonNode *node;
          g_autofree char *value = NULL;

          if (i == 0)
            {
              assert_string_equal (record->pdata[c], row_keys[c]);
              continue;
            }
          node = json_object_get_member (json_array_get_object_element (rows, i - 1),
                                         row_keys[c]);
          value = JSON_NODE_HOLDS_NULL (node) ? g_strdup ("")
                  : json_node_get_value_type (node) == G_TYPE_STRING
                  ? g_strdup (json_node_get_string (node))
                  : g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
          assert_string_equal (record->pdata[c], value);
        }
    }
  assert_int_equal (csv.out[pos], '\0');

  lines = g_strsplit (text.out, "\n", -1);
  assert_int_equal (g_strv_length (lines), json_array_get_length (rows) + 2);
  assert_non_null (strstr (lines[0], "Count"));
  assert_non_null (strstr (lines[0], "p99"));
  for (guint i = 1; lines[i][0] != '\0'; i++)
    if (strstr (lines[i], "Solo") != NULL)
      assert_non_null (strstr (lines[i], "12.300 \302\265s"));
  run_clear (&json);
  run_clear (&csv);
  run_clear (&text);
}

static void
test_bad_usage_exits_2 (void **state)
{
  Fixture *f = *state;
  Run bad_format = run_cli ("stats", "--format=jsonl", f->edges);
  Run backwards = run_cli ("stats", "--from=2ms", "--to=1ms", f->edges);
  Run no_file = run_cli ("stats");

  assert_int_equal (bad_format.status, 2);
  assert_non_null (strstr (bad_format.err, "jsonl"));
  assert_int_equal (backwards.status, 2);
  assert_int_equal (no_file.status, 2);
  run_clear (&bad_format);
  run_clear (&backwards);
  run_clear (&no_file);
}

/* A damaged file: exit 1, the problem named on stderr, and statistics of
 * what could be read — still those of its markers. */
static void
test_damaged_file_exits_1_with_stats (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = damaged_copy (f->dir, f->large);
  g_autoptr(GPtrArray) markers = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(JsonObject) root = NULL;
  Query q = ANY_QUERY;
  Run run;

  markers = all_markers_status (path, 1);
  expected = expected_rows (markers, &q);
  run = run_cli ("stats", "--format=json", path);
  assert_int_equal (run.status, 1);
  assert_non_null (strstr (run.err, path));
  root = parse_object (run.out, -1);
  assert_true (assert_rows (stats_rows (root), expected) > 0);
  run_clear (&run);
  g_remove (path);
}

/* ---- the model's histogram -------------------------------------------- */

static guint32
series_id (EtTrace *trace, const char *provider, const char *series, guint16 *provider_index)
{
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (g_str_equal (et_trace_get_provider (trace, et_channel_provider (ch))->name, provider)
          && g_str_equal (et_trace_get_string (trace, ch->series), series))
        {
          *provider_index = et_channel_provider (ch);
          return ch->series;
        }
    }
  fail_msg ("no channel %s/%s", provider, series);
  return 0;
}

static void
assert_bins_hold (const EtStatsHistogram *h, guint64 n)
{
  guint64 sum = 0;

  for (guint b = 0; b < h->n_bins; b++)
    {
      assert_true (h->edges[b] < h->edges[b + 1]);
      sum += h->counts[b];
    }
  assert_int_equal (sum, n);
  assert_int_equal (h->n, n);
}

static void
test_histogram_bins (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = et_trace_load (f->edges, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  g_autoptr(EtStatsHistogram) linear = NULL, log = NULL, solo = NULL, none = NULL;
  guint16 provider, solo_provider;
  guint32 hundred, solo_series;

  g_assert_no_error (error);
  hundred = series_id (trace, "Test.Stats", "Hundred", &provider);
  solo_series = series_id (trace, "Test.Stats", "Solo", &solo_provider);

  /* 100 spans of 100 ns … 10 µs in 10 equal bins: 10 in each. */
  linear = et_stats_histogram (trace, 1 * MS, 2 * MS, NULL, provider, hundred, 10, FALSE);
  assert_int_equal (linear->n_bins, 10);
  assert_int_equal (linear->edges[0], 100);
  assert_int_equal (linear->edges[10], 10001);
  assert_bins_hold (linear, 100);
  for (guint b = 0; b < 10; b++)
    assert_int_equal (linear->counts[b], 10);

  /* Log bins: each duration k·100 ns in the bin whose edges hold it, so
   * bin b counts the multiples of 100 in [edges[b], edges[b+1]). */
  log = et_stats_histogram (trace, 1 * MS, 2 * MS, NULL, provider, hundred, 8, TRUE);
  assert_int_equal (log->n_bins, 8);
  assert_bins_hold (log, 100);
  for (guint b = 0; b < 8; b++)
    {
      guint64 in = 0;

      for (gint64 d = 100; d <= 10000; d += 100)
        in += d >= log->edges[b] && d < log->edges[b + 1];
      assert_int_equal (log->counts[b], in);
      assert_int_equal (et_stats_histogram_bin (log, log->edges[b]), b);
    }
  /* Growing bins: the first narrower than the last. */
  assert_true (log->edges[1] - log->edges[0] < log->edges[8] - log->edges[7]);

  solo = et_stats_histogram (trace, 0, G_MAXINT64, NULL, solo_provider, solo_series, 20, TRUE);
  assert_int_equal (solo->n_bins, 1);
  assert_bins_hold (solo, 1);
  none = et_stats_histogram (trace, 2 * MS, 3 * MS, NULL, provider, hundred, 10, FALSE);
  assert_int_equal (none->n_bins, 0);
  assert_int_equal (none->n, 0);
}

/* ---- setup ------------------------------------------------------------ */

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  Fixture *f = g_new0 (Fixture, 1);
  EtFixtureOptions o;

  if (g_getenv ("ET_CLI") == NULL)
    {
      print_error ("ET_CLI must name the built etlscope-cli\n");
      return -1;
    }
  f->dir = g_dir_make_tmp ("etlscope-test-stats-XXXXXX", &error);
  if (f->dir == NULL)
    return -1;
  f->edges = g_build_filename (f->dir, "edges.etl", NULL);
  f->large = g_build_filename (f->dir, "large.etl", NULL);
  f->demo = g_build_filename (f->dir, "demo.etl", NULL);
  write_edges (f->edges);
  et_fixture_options_init (&o);
  if (!et_fixture_write_large (f->large, 20000, 5, &o, &error)
      || !et_fixture_write_demo (f->demo, &o, &error))
    {
      print_error ("%s\n", error->message);
      return -1;
    }
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  if (f == NULL)
    return 0;
  et_fixture_remove_dir (f->dir);
  g_free (f->edges);
  g_free (f->large);
  g_free (f->demo);
  g_free (f->dir);
  g_free (f);
  return 0;
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_edges_known_values),
    cmocka_unit_test (test_edges_agree_with_markers),
    cmocka_unit_test (test_large_agrees_with_markers),
    cmocka_unit_test (test_demo_agrees_with_markers),
    cmocka_unit_test (test_csv_and_text_match_json),
    cmocka_unit_test (test_bad_usage_exits_2),
    cmocka_unit_test (test_damaged_file_exits_1_with_stats),
    cmocka_unit_test (test_histogram_bins),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
