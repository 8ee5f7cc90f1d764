/* Tests for et-span-pairing: matching, every status, lanes, and a
 * randomized comparison with a plain quadratic reading of the rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "et-span-pairing.h"

#define NONE G_MAXUINT

static EtSpanEvent
ev (gint64 t, guint32 tid, gboolean end, guint16 task)
{
  EtSpanEvent e = { 0 };
  e.time = t, e.pid = 1, e.tid = tid, e.provider = 0, e.task = task, e.is_end = end;
  return e;
}

static EtSpanEvent
ev_id (gint64 t, guint32 tid, gboolean end, gint64 id)
{
  EtSpanEvent e = ev (t, tid, end, 0);
  e.has_span_id = TRUE, e.span_id = id;
  return e;
}

static void
pair (const EtSpanEvent *e, guint n, EtSpanResult *r)
{
  et_span_pair (e, n, r);
}

static void
test_pair_same_task_is_ok (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 5), ev (10, 1, TRUE, 5) };
  EtSpanResult r[2];

  pair (e, 2, r);
  assert_int_equal (r[0].partner, 1);
  assert_int_equal (r[1].partner, 0);
  assert_int_equal (r[0].status, ET_SPAN_OK);
  assert_int_equal (r[0].depth, 0);
}

static void
test_nested_is_one_lane_deeper (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (2, 1, FALSE, 2), ev (5, 1, TRUE, 2),
                      ev (6, 1, FALSE, 3), ev (7, 1, FALSE, 4), ev (8, 1, TRUE, 4),
                      ev (9, 1, TRUE, 3), ev (10, 1, TRUE, 1) };
  EtSpanResult r[8];

  pair (e, 8, r);
  assert_int_equal (r[0].status, ET_SPAN_OK);
  assert_int_equal (r[1].status, ET_SPAN_NESTED);
  assert_int_equal (r[1].depth, 1);
  assert_int_equal (r[3].status, ET_SPAN_NESTED);
  assert_int_equal (r[3].depth, 1);
  assert_int_equal (r[4].depth, 2);                    /* inside two spans */
  assert_int_equal (r[4].partner, 5);
}

static void
test_overlapping_starts_inside_and_ends_after (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (5, 1, FALSE, 2), ev (10, 1, TRUE, 1),
                      ev (15, 1, TRUE, 2) };
  EtSpanResult r[4];

  pair (e, 4, r);
  assert_int_equal (r[0].status, ET_SPAN_OK);
  assert_int_equal (r[1].status, ET_SPAN_OVERLAPPING);
  assert_int_equal (r[1].depth, 1);
  assert_int_equal (r[0].partner, 2);
  assert_int_equal (r[1].partner, 3);
}

static void
test_equal_keys_pair_lifo (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (1, 1, FALSE, 1), ev (2, 1, TRUE, 1),
                      ev (3, 1, TRUE, 1) };
  EtSpanResult r[4];

  pair (e, 4, r);
  assert_int_equal (r[1].partner, 2);
  assert_int_equal (r[0].partner, 3);
  assert_int_equal (r[1].status, ET_SPAN_NESTED);
}

static void
test_span_id_pairs_across_tasks_and_out_of_order (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 1, FALSE, 7), ev_id (1, 1, FALSE, 8), ev_id (2, 1, TRUE, 7),
                      ev_id (3, 1, TRUE, 8) };
  EtSpanResult r[4];

  e[2].task = 99;                                      /* the id decides, not the task */
  pair (e, 4, r);
  assert_int_equal (r[0].partner, 2);
  assert_int_equal (r[1].partner, 3);
  assert_int_equal (r[1].status, ET_SPAN_OVERLAPPING);
}

static void
test_span_id_reuse_after_close (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 1, FALSE, 7), ev_id (1, 1, TRUE, 7), ev_id (2, 1, FALSE, 7),
                      ev_id (3, 1, TRUE, 7) };
  EtSpanResult r[4];

  pair (e, 4, r);
  assert_int_equal (r[0].partner, 1);
  assert_int_equal (r[2].partner, 3);
  assert_int_equal (r[2].status, ET_SPAN_OK);
}

static void
test_id_and_no_id_do_not_mix (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 1, FALSE, 7), ev (1, 1, TRUE, 0) };
  EtSpanResult r[2];

  pair (e, 2, r);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
  assert_int_equal (r[1].status, ET_SPAN_UNMATCHED_END);
  assert_int_equal (r[0].partner, NONE);
}

static void
test_providers_and_tasks_do_not_mix (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (1, 1, TRUE, 2), ev (2, 1, TRUE, 1) };
  EtSpanEvent p[] = { ev (0, 1, FALSE, 1), ev (1, 1, TRUE, 1) };
  EtSpanResult r[3];

  pair (e, 3, r);
  assert_int_equal (r[1].status, ET_SPAN_UNMATCHED_END);
  assert_int_equal (r[0].partner, 2);
  p[1].provider = 1;
  pair (p, 2, r);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
  assert_int_equal (r[1].status, ET_SPAN_UNMATCHED_END);
}

static void
test_cross_thread_by_span_id (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 1, FALSE, 7), ev_id (5, 2, TRUE, 7) };
  EtSpanResult r[2];

  pair (e, 2, r);
  assert_int_equal (r[0].partner, 1);
  assert_int_equal (r[0].status, ET_SPAN_CROSS_THREAD);
  assert_int_equal (r[1].status, ET_SPAN_OK);
}

static void
test_cross_thread_by_activity_id (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 3), ev (5, 2, TRUE, 3) };
  EtSpanResult r[2];

  pair (e, 2, r);                                     /* no activity id: no match */
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
  e[0].activity_id.data1 = e[1].activity_id.data1 = 0xABCD;
  pair (e, 2, r);
  assert_int_equal (r[0].status, ET_SPAN_CROSS_THREAD);
  assert_int_equal (r[0].partner, 1);
  e[1].activity_id.data1 = 0xABCE;                    /* different activity */
  pair (e, 2, r);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
}

static void
test_same_thread_wins_over_cross_thread (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 2, FALSE, 7), ev_id (1, 1, FALSE, 7), ev_id (2, 1, TRUE, 7) };
  EtSpanResult r[3];

  pair (e, 3, r);
  assert_int_equal (r[1].partner, 2);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
}

static void
test_cross_process_never_matches (void **state)
{
  EtSpanEvent e[] = { ev_id (0, 1, FALSE, 7), ev_id (5, 1, TRUE, 7) };
  EtSpanResult r[2];

  e[1].pid = 2;
  pair (e, 2, r);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
  assert_int_equal (r[1].status, ET_SPAN_UNMATCHED_END);
}

static void
test_unmatched_start_contains_later_spans (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (5, 1, FALSE, 2), ev (6, 1, TRUE, 2) };
  EtSpanResult r[3];

  pair (e, 3, r);
  assert_int_equal (r[0].status, ET_SPAN_UNMATCHED_START);
  assert_int_equal (r[1].status, ET_SPAN_NESTED);     /* open to the end of the trace */
  assert_int_equal (r[1].depth, 1);
}

static void
test_span_ending_when_next_starts_is_not_a_container (void **state)
{
  EtSpanEvent e[] = { ev (0, 1, FALSE, 1), ev (5, 1, TRUE, 1), ev (5, 1, FALSE, 2),
                      ev (9, 1, TRUE, 2) };
  EtSpanResult r[4];

  pair (e, 4, r);
  assert_int_equal (r[2].status, ET_SPAN_OK);
  assert_int_equal (r[2].depth, 0);
}

/* The rules read literally, O(n²): the reference for the randomized test. */
static void
reference (const EtSpanEvent *e, guint n, guint *partner)
{
  gboolean *closed = g_new0 (gboolean, n);

  for (guint i = 0; i < n; i++)
    partner[i] = NONE;
  for (guint i = 0; i < n; i++)
    {
      if (!e[i].is_end)
        continue;
      for (guint pass = 0; pass < 2 && partner[i] == NONE; pass++)
        for (guint j = i; j-- > 0;)
          {
            const EtSpanEvent *s = &e[j];
            gboolean same_thread = s->tid == e[i].tid;
            if (s->is_end || closed[j] || s->pid != e[i].pid || s->provider != e[i].provider
                || s->has_span_id != e[i].has_span_id || (pass == 0) != same_thread)
              continue;
            if (e[i].has_span_id ? s->span_id != e[i].span_id
                : (s->task != e[i].task
                   || (pass == 1 && (et_guid_is_zero (&e[i].activity_id)
                                     || !et_guid_equal (&s->activity_id, &e[i].activity_id)))))
              continue;
            partner[i] = j, partner[j] = i, closed[j] = TRUE;
            break;
          }
    }
  g_free (closed);
}

/* Lanes and nesting as markers.md reads: a start's open spans are the
 * earlier starts of its thread that end after it begins. */
static void
reference_lanes (const EtSpanEvent *e, guint n, const guint *partner, guint *depth,
                 EtSpanStatus *status)
{
  for (guint i = 0; i < n; i++)
    {
      gint64 end = partner[i] != NONE ? e[partner[i]].time : G_MAXINT64;
      gboolean open = FALSE, outlives = FALSE;

      depth[i] = 0;
      if (e[i].is_end)
        continue;
      for (guint j = 0; j < i; j++)
        {
          gint64 end_j = partner[j] != NONE ? e[partner[j]].time : G_MAXINT64;

          if (e[j].is_end || e[j].pid != e[i].pid || e[j].tid != e[i].tid || end_j <= e[i].time)
            continue;
          open = TRUE;
          outlives |= end_j < end;
          depth[i] = MAX (depth[i], depth[j] + 1);
        }
      if (partner[i] == NONE)
        status[i] = ET_SPAN_UNMATCHED_START;
      else if (e[partner[i]].tid != e[i].tid)
        status[i] = ET_SPAN_CROSS_THREAD;
      else
        status[i] = !open ? ET_SPAN_OK : outlives ? ET_SPAN_OVERLAPPING : ET_SPAN_NESTED;
    }
}

/* Pairs @e (et_span_pair, and et_span_pair_on one thread and two: with
 * two, the lanes are found beside the pairing as it closes each start)
 * and checks every partner, lane and status against the reference;
 * returns the deepest lane. */
static guint
check_against_reference (const EtSpanEvent *e, guint n)
{
  g_autofree EtSpanResult *r = g_new0 (EtSpanResult, n);
  g_autofree guint *expected = g_new0 (guint, n);
  g_autofree guint *depth = g_new0 (guint, n);
  g_autofree EtSpanStatus *status = g_new0 (EtSpanStatus, n);
  guint deepest = 0;

  reference (e, n, expected);
  reference_lanes (e, n, expected, depth, status);
  for (guint way = 0; way < 3; way++)
    {
      if (way == 0)
        et_span_pair (e, n, r);
      else
        et_span_pair_on (e, n, r, way);
      for (guint i = 0; i < n; i++)
        {
          deepest = MAX (deepest, depth[i]);
          assert_int_equal (r[i].partner, expected[i]);
          assert_int_equal (r[i].depth, depth[i]);
          if (e[i].is_end)
            assert_int_equal (r[i].status,
                              expected[i] == NONE ? ET_SPAN_UNMATCHED_END : ET_SPAN_OK);
          else
            assert_int_equal (r[i].status, status[i]);
        }
    }
  return deepest;
}

static void
test_random_traces_match_reference (void **state)
{
  GRand *rand = g_rand_new_with_seed (2024);

  for (guint round = 0; round < 300; round++)
    {
      guint n = g_rand_int_range (rand, 1, 120);
      g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);

      for (guint i = 0; i < n; i++)
        {
          e[i].time = i;
          e[i].pid = g_rand_int_range (rand, 1, 3);
          e[i].tid = g_rand_int_range (rand, 1, 4);
          if (e[i].tid == 3)
            e[i].tid = 65;              /* where the sweep's cache keeps thread 1 */
          e[i].provider = g_rand_int_range (rand, 0, 2);
          e[i].task = g_rand_int_range (rand, 0, 3);
          e[i].is_end = g_rand_boolean (rand);
          e[i].has_span_id = g_rand_int_range (rand, 0, 3) == 0;
          if (e[i].has_span_id)
            e[i].span_id = g_rand_int_range (rand, 0, 4);
          else
            e[i].activity_id.data1 = g_rand_int_range (rand, 0, 3);
        }
      check_against_reference (e, n);
    }
  g_rand_free (rand);
}

/* Lanes where many spans are open at once, ending in every order and at
 * the same times as others start (the sweep keeps a thread's open spans
 * in a heap by end time): long random traces of two threads, times drawn
 * from a small range, about one start in four never closed. */
static void
test_many_open_spans_match_reference (void **state)
{
  GRand *rand = g_rand_new_with_seed (36);

  for (guint round = 0; round < 20; round++)
    {
      guint n = g_rand_int_range (rand, 500, 3000);
      g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);
      gint64 t = 0;

      for (guint i = 0; i < n; i++)
        {
          t += g_rand_int_range (rand, 0, 2);          /* many equal times */
          e[i] = ev_id (t, g_rand_int_range (rand, 1, 3), g_rand_int_range (rand, 0, 8) < 3,
                        g_rand_int_range (rand, 0, 40));
        }
      /* The rounds do pile spans up. */
      assert_true (check_against_reference (e, n) > 20);
    }
  g_rand_free (rand);
}

/* A server's short-lived threads: a dozen alive at a time out of
 * thousands, some coming back after all their spans ended, one piling up
 * past the sweep's list into its heap and back; a sweep gives back the
 * room of threads whose spans all ended (every few thousand starts), and
 * a thread that comes back is as one never met. Long enough for several
 * such passes; checked against the reference. */
static void
test_short_lived_threads_match_reference (void **state)
{
  GRand *rand = g_rand_new_with_seed (3636);
  guint n = 30000, made = 0, starts = 0;
  g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);
  g_autofree guint *open = g_new0 (guint, 4000);   /* per thread: its open ids, stacked */
  g_autofree gint64 *ids = g_new0 (gint64, 4000 * 64);
  gint64 t = 0;

  while (made < n)
    {
      /* Mostly one of the twelve threads alive now; now and then an
       * old one again, or thread 7. */
      guint now = made * 3000 / n, tid;

      if (g_rand_int_range (rand, 0, 50) == 0)
        tid = g_rand_int_range (rand, 0, now + 1);
      else if (g_rand_int_range (rand, 0, 20) == 0 && (made / 1024 % 4 == 0 || open[7] > 0))
        tid = 7;
      else
        tid = now + g_rand_int_range (rand, 0, 12);
      t += g_rand_int_range (rand, 0, 3);
      /* Thread 7 piles spans up for 1,024 events (past the sweep's list),
       * then ends them all in the 3,072 after and rests. */
      if (tid == 7 ? open[tid] > 0 && (open[tid] == 63 || made / 1024 % 4 != 0)
                   : open[tid] > 0 && (open[tid] == 63 || g_rand_int_range (rand, 0, 2) == 0))
        {
          /* Ends the latest (nested) or, now and then, an earlier one. */
          guint k = open[tid] - 1;

          if (g_rand_int_range (rand, 0, 4) == 0)
            k = (guint) g_rand_int_range (rand, 0, (gint32) open[tid]);

          e[made++] = ev_id (t, tid + 1, TRUE, ids[tid * 64 + k]);
          ids[tid * 64 + k] = ids[tid * 64 + --open[tid]];
        }
      else
        {
          gint64 id = (gint64) made + 1;

          e[made++] = ev_id (t, tid + 1, FALSE, id);
          starts++;
          if (tid == 7 || g_rand_int_range (rand, 0, 12) != 0)   /* the rest never end */
            ids[tid * 64 + open[tid]++] = id;
        }
    }
  assert_true (starts > 3 * 4096);
  assert_true (check_against_reference (e, n) > 32);    /* thread 7 went past the list */
  g_rand_free (rand);
}

/* Starts never closed stay open to the end of the trace, each one lane
 * below the last: 70,000 on one thread get lanes 0, 1, 2, … up to the
 * largest a lane can be, and every one but the first is nested. */
static void
test_starts_never_closed_pile_up (void **state)
{
  guint n = 70000;
  g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);
  g_autofree EtSpanResult *r = g_new0 (EtSpanResult, n);

  for (guint i = 0; i < n; i++)
    e[i] = ev (i, 1, FALSE, 1);
  /* (on two threads, the lanes wait for the pairing's end for each) */
  for (guint threads = 1; threads <= 2; threads++)
    {
      if (threads == 1)
        et_span_pair (e, n, r);
      else
        et_span_pair_on (e, n, r, threads);
      for (guint i = 0; i < n; i++)
        {
          assert_int_equal (r[i].partner, NONE);
          assert_int_equal (r[i].depth, MIN (i, G_MAXUINT16));
          assert_int_equal (r[i].status, ET_SPAN_UNMATCHED_START);
        }
    }
}

/* @a is the result @b is: the same partner, depth and status. */
static void
assert_same_result (EtSpanResult a, EtSpanResult b)
{
  assert_int_equal (a.partner, b.partner);
  assert_int_equal (a.depth, b.depth);
  assert_int_equal (a.status, b.status);
}

/* A random trace gave every kind of result (counted by status in
 * @kinds) often enough for a test of them all to mean something. */
static void
assert_every_kind (const guint *kinds)
{
  for (guint k = 0; k <= ET_SPAN_UNMATCHED_END; k++)
    assert_true (kinds[k] > 100);
}

/* A large process paired with its lanes found beside it: the same
 * results as on one thread, with spans short and long, some never
 * closed, some closed from another thread, over a few hundred threads. */
static void
test_lanes_beside_pairing_match_one_thread (void **state)
{
  GRand *rand = g_rand_new_with_seed (4242);
  guint n = 400000;
  g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);
  g_autofree EtSpanResult *one = g_new0 (EtSpanResult, n);
  g_autofree EtSpanResult *two = g_new0 (EtSpanResult, n);
  guint kinds[ET_SPAN_UNMATCHED_END + 1] = { 0 };

  for (guint i = 0; i < n; i++)
    {
      e[i] = ev_id (i, g_rand_int_range (rand, 1, 300), g_rand_int_range (rand, 0, 9) < 4,
                    g_rand_int_range (rand, 0, 2000));
      e[i].pid = 1;
    }
  et_span_pair_on (e, n, one, 1);
  et_span_pair_on (e, n, two, 2);
  for (guint i = 0; i < n; i++)
    {
      assert_same_result (two[i], one[i]);
      kinds[one[i].status]++;
    }
  assert_every_kind (kinds);   /* was there to get right */
  g_rand_free (rand);
}

/* An owner as a caller other than the tests keeps it: its fields in
 * another order, beside fields of its own. */
typedef struct
{
  guint32 other;
  guint16 provider;
  guint16 pad;
  gint64  time;
  guint32 thread;
  guint32 more;
} Owner;

/* Pairing by reference (et_span_pair_keys: keys of 24 bytes naming their
 * owner, one process at a time, no process field, the results written in
 * place of their ids) gives what pairing the whole events gives, and
 * leaves the rest of each key as it was: a random process of three
 * threads, keys in another order than their owners, is_end's other bits
 * set for starts. Every other round the keys with a span id, and those
 * with neither a span id nor an activity (ET_SPAN_KEY_CARRIES_OWNER),
 * carry their owner's thread and provider (id_keys_carry_owner) and
 * their owners' are wrong: pairing must go by what the keys carry. */
static void
test_pairing_by_reference_matches_events (void **state)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int round = 0; round < 400; round++)
    {
      gboolean carry = round % 2 == 1;
      guint n = g_rand_int_range (rand, 1, 60);
      g_autofree EtSpanEvent *e = g_new0 (EtSpanEvent, n);
      g_autofree EtSpanKey *keys = g_new0 (EtSpanKey, n);
      g_autofree Owner *owners = g_new0 (Owner, n);
      g_autofree EtSpanResult *by_event = g_new (EtSpanResult, n);
      g_autofree EtSpanResult *by_key = g_new (EtSpanResult, n);
      EtSpanOwners o = { (const guint8 *) owners, sizeof (Owner), G_STRUCT_OFFSET (Owner, time),
                         ET_SPAN_NO_FIELD, G_STRUCT_OFFSET (Owner, thread),
                         G_STRUCT_OFFSET (Owner, provider), carry };

      for (guint i = 0; i < n; i++)
        {
          guint at = n - 1 - i;       /* owners back to front */

          e[i] = ev (i * 10, g_rand_int_range (rand, 1, 4), g_rand_boolean (rand),
                     g_rand_int_range (rand, 0, 3));
          e[i].provider = g_rand_int_range (rand, 0, 2);
          e[i].has_span_id = g_rand_int_range (rand, 0, 3) == 0;
          if (e[i].has_span_id)
            e[i].span_id = g_rand_int_range (rand, 0, 4);
          else
            e[i].activity_id.data1 = g_rand_int_range (rand, 0, 3);
          owners[at] = (Owner) { 0xDEAD, e[i].provider, 0, e[i].time, e[i].tid, 0xBEEF };
          keys[i].owner = at;
          keys[i].task = e[i].task;
          keys[i].is_end = e[i].is_end ? 1 : 2;
          keys[i].has_span_id = e[i].has_span_id;
          if (e[i].has_span_id)
            keys[i].span_id = e[i].span_id;
          else
            keys[i].activity_id = e[i].activity_id;
          if (carry && (e[i].has_span_id || et_guid_is_zero (&e[i].activity_id)))
            {
              if (!e[i].has_span_id)
                keys[i].is_end |= ET_SPAN_KEY_CARRIES_OWNER;
              keys[i].thread = e[i].tid;
              keys[i].provider = e[i].provider;
              owners[at].thread = 1000 + i;      /* what pairing must not read */
              owners[at].provider = 7;
            }
        }
      et_span_pair (e, n, by_event);
      et_span_pair_keys (keys, n, &o);
      for (guint i = 0; i < n; i++)
        {
          /* the result in place of the id; the rest of the key stays */
          by_key[i] = et_span_key_result (&keys[i]);
          assert_int_equal (keys[i].owner, n - 1 - i);
          assert_int_equal (keys[i].task, e[i].task);
          assert_int_equal (keys[i].is_end & ~(ET_SPAN_KEY_PAIRED | ET_SPAN_KEY_CARRIES_OWNER),
                            e[i].is_end ? 1 : 2);
          assert_true (keys[i].is_end & ET_SPAN_KEY_PAIRED);
          assert_same_result (by_key[i], by_event[i]);
          if (carry && (e[i].has_span_id || et_guid_is_zero (&e[i].activity_id)))
            {
              assert_int_equal (keys[i].thread, e[i].tid);
              assert_int_equal (keys[i].provider, e[i].provider);
            }
        }
    }
  g_rand_free (rand);
}

/* What et_span_pair_keys_each told of the keys. */
typedef struct
{
  guint         next;      /* the key it should tell of next */
  EtSpanResult *told;
  gboolean     *told_end;
} Told;

static void
tell_key (guint index, EtSpanResult result, gboolean is_end, gpointer data)
{
  Told *t = data;

  /* every key once, in order */
  assert_int_equal (index, t->next);
  t->next++;
  t->told[index] = result;
  t->told_end[index] = is_end;
}

/* A caller told of each key as its result becomes final
 * (et_span_pair_keys_each) is told of every key once, in order, with
 * the result the key holds once pairing is done and whether it is an
 * end: on one thread, and on two, where the lanes thread tells while
 * the pairing is still closing later starts. A large random process:
 * spans nested, overlapping, closed from another thread, never closed
 * and ends that match nothing. */
static void
test_each_key_is_told_once_in_order (void **state)
{
  GRand *rand = g_rand_new_with_seed (2036);
  guint n = 300000;
  g_autofree EtSpanKey *keys = g_new0 (EtSpanKey, n);
  g_autofree EtSpanKey *pristine = g_new0 (EtSpanKey, n);
  g_autofree Owner *owners = g_new0 (Owner, n);
  g_autofree EtSpanResult *told = g_new0 (EtSpanResult, n);
  g_autofree gboolean *told_end = g_new0 (gboolean, n);
  EtSpanOwners o = { (const guint8 *) owners, sizeof (Owner), G_STRUCT_OFFSET (Owner, time),
                     ET_SPAN_NO_FIELD, G_STRUCT_OFFSET (Owner, thread),
                     G_STRUCT_OFFSET (Owner, provider) };
  guint kinds[ET_SPAN_UNMATCHED_END + 1] = { 0 };

  for (guint i = 0; i < n; i++)
    {
      gboolean end = g_rand_int_range (rand, 0, 9) < 4;

      owners[i] = (Owner) { 0, 1, 0, i, g_rand_int_range (rand, 1, 300), 0 };
      pristine[i].owner = i;
      pristine[i].is_end = end;
      pristine[i].has_span_id = TRUE;
      pristine[i].span_id = g_rand_int_range (rand, 0, 2000);
    }
  for (guint threads = 1; threads <= 2; threads++)
    {
      Told t = { 0, told, told_end };

      memcpy (keys, pristine, n * sizeof *keys);
      et_span_pair_keys_each (keys, n, &o, threads, tell_key, &t);
      assert_int_equal (t.next, n);
      for (guint i = 0; i < n; i++)
        {
          EtSpanResult held = et_span_key_result (&keys[i]);

          assert_int_equal (told_end[i], pristine[i].is_end);
          assert_same_result (told[i], held);
          kinds[held.status]++;
        }
    }
  assert_every_kind (kinds);   /* was there to be told */
  g_rand_free (rand);
}

/* Nothing to pair is no work and no crash, whatever the caller passes
 * with it. */
static void
test_nothing_to_pair (void **state)
{
  et_span_pair_keys (NULL, 0, NULL);
  et_span_pair (NULL, 0, NULL);
}

static void
test_status_names (void **state)
{
  assert_string_equal (et_span_status_to_string (ET_SPAN_OK), "ok");
  assert_string_equal (et_span_status_to_string (ET_SPAN_NESTED), "nested");
  assert_string_equal (et_span_status_to_string (ET_SPAN_OVERLAPPING), "overlapping");
  assert_string_equal (et_span_status_to_string (ET_SPAN_CROSS_THREAD), "cross_thread");
  assert_string_equal (et_span_status_to_string (ET_SPAN_UNMATCHED_START), "unmatched_start");
  assert_string_equal (et_span_status_to_string (ET_SPAN_UNMATCHED_END), "unmatched_end");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_pair_same_task_is_ok),
    cmocka_unit_test (test_nested_is_one_lane_deeper),
    cmocka_unit_test (test_overlapping_starts_inside_and_ends_after),
    cmocka_unit_test (test_equal_keys_pair_lifo),
    cmocka_unit_test (test_span_id_pairs_across_tasks_and_out_of_order),
    cmocka_unit_test (test_span_id_reuse_after_close),
    cmocka_unit_test (test_id_and_no_id_do_not_mix),
    cmocka_unit_test (test_providers_and_tasks_do_not_mix),
    cmocka_unit_test (test_cross_thread_by_span_id),
    cmocka_unit_test (test_cross_thread_by_activity_id),
    cmocka_unit_test (test_same_thread_wins_over_cross_thread),
    cmocka_unit_test (test_cross_process_never_matches),
    cmocka_unit_test (test_unmatched_start_contains_later_spans),
    cmocka_unit_test (test_span_ending_when_next_starts_is_not_a_container),
    cmocka_unit_test (test_random_traces_match_reference),
    cmocka_unit_test (test_many_open_spans_match_reference),
    cmocka_unit_test (test_short_lived_threads_match_reference),
    cmocka_unit_test (test_starts_never_closed_pile_up),
    cmocka_unit_test (test_lanes_beside_pairing_match_one_thread),
    cmocka_unit_test (test_pairing_by_reference_matches_events),
    cmocka_unit_test (test_each_key_is_told_once_in_order),
    cmocka_unit_test (test_nothing_to_pair),
    cmocka_unit_test (test_status_names),
  };
  return cmocka_run_group_tests_name ("span-pairing", tests, NULL, NULL);
}
