/* et-span-pairing.c — pairs span starts with span ends, then gives every
 * span its status and lane.
 *
 * Runs after the marker rules, over all span starts and ends of the trace
 * in time order (docs/markers.md "Spans"):
 *
 *   ends ─► same thread: by (provider, cvSpanId) or (provider, task)
 *       └─► other thread of the process: by (provider, cvSpanId) or by
 *           (provider, task, non-zero ActivityId)           → cross_thread
 *   starts left open                                        → unmatched_start
 *   then, per start thread, a sweep in start order gives nested /
 *   overlapping and the lane (depth).
 *
 * Open starts of one key form a stack of links (a pool of them, as many
 * as starts are open at once, not one per span); a matched start is
 * marked closed and skipped when reached (lazy deletion), its link given
 * back, so each lookup is amortised O(1) and the whole pass O(n).
 *
 * With a second thread (et_span_pair_keys_on), the sweep runs beside the
 * pairing instead of after it: it takes each start once the pairing has
 * closed it (or gone past the last key: left open), so the two passes
 * over a process's spans take the time of one.
 */
#include "et-span-pairing.h"
#include "et-workers.h"

#include <string.h>

G_STATIC_ASSERT (sizeof (EtSpanEvent) == 40);
G_STATIC_ASSERT (sizeof (EtSpanResult) == 8);
G_STATIC_ASSERT (sizeof (EtSpanKey) == 24);

enum { MAP_THREAD_ID, MAP_THREAD_TASK, MAP_PROCESS_ID, MAP_PROCESS_ACTIVITY, N_MAPS };

/* Open-addressing map from a 64-bit fingerprint to a start index + 1:
 * no allocation per key, one probe sequence per lookup. Keys 0 and 1 mark
 * empty and deleted slots, so fingerprints are kept out of that range. */
typedef struct
{
  guint64 *keys;
  guint32 *values;
  gsize    capacity;   /* a power of two */
  gsize    used;       /* live and deleted slots */
} FpMap;

#define FP_EMPTY 0
#define FP_DELETED 1

static void
fp_map_init (FpMap *map, gsize expected)
{
  map->capacity = 64;
  while (map->capacity < expected * 2)
    map->capacity *= 2;
  map->keys = g_new0 (guint64, map->capacity);
  map->values = g_new (guint32, map->capacity);
  map->used = 0;
}

static void
fp_map_clear (FpMap *map)
{
  g_free (map->keys);
  g_free (map->values);
}

static gsize
fp_map_slot (const FpMap *map, guint64 key)
{
  gsize mask = map->capacity - 1, i = (gsize) (key ^ (key >> 29)) & mask;

  while (map->keys[i] != FP_EMPTY && map->keys[i] != key)
    i = (i + 1) & mask;
  return i;
}

static void fp_map_set (FpMap *map, guint64 key, guint32 value);

static void
fp_map_grow (FpMap *map)
{
  FpMap bigger;
  gsize live = 0;

  /* Sized by the live keys only: matched spans leave deleted slots, and
   * sizing by capacity would let the map grow with every span ever opened
   * rather than with the spans open at once. */
  for (gsize i = 0; i < map->capacity; i++)
    live += map->keys[i] > FP_DELETED;
  fp_map_init (&bigger, MAX (live * 2, 64));
  for (gsize i = 0; i < map->capacity; i++)
    if (map->keys[i] > FP_DELETED)
      fp_map_set (&bigger, map->keys[i], map->values[i]);
  fp_map_clear (map);
  *map = bigger;
}

/* The slot of @key, made (value 0) when it has none: a lookup and an
 * update in one probe. May grow the map (slots move). A new key takes
 * the first deleted slot on its way, if any: the same keys come and go
 * all the time (a thread's task, span after span), and without reuse
 * each would land one slot further along, past the deleted ones, until
 * every lookup walked a long chain. */
static gsize
fp_map_upsert (FpMap *map, guint64 key)
{
  gsize mask, i, reuse = G_MAXSIZE;

  if ((map->used + 1) * 2 > map->capacity)
    fp_map_grow (map);
  mask = map->capacity - 1;
  i = (gsize) (key ^ (key >> 29)) & mask;
  while (map->keys[i] != FP_EMPTY && map->keys[i] != key)
    {
      if (map->keys[i] == FP_DELETED && reuse == G_MAXSIZE)
        reuse = i;
      i = (i + 1) & mask;
    }
  if (map->keys[i] == key)
    return i;
  if (reuse != G_MAXSIZE)
    i = reuse;                  /* already counted in used */
  else
    map->used++;
  map->keys[i] = key;
  map->values[i] = 0;
  return i;
}

static void
fp_map_set (FpMap *map, guint64 key, guint32 value)
{
  map->values[fp_map_upsert (map, key)] = value;
}

/* Empties slot @i (its key is there). */
static void
fp_map_remove_at (FpMap *map, gsize i)
{
  gsize mask = map->capacity - 1;

  /* A deleted slot keeps the probe chains through it intact. When the
   * next slot is empty no chain goes through, so it empties, and so do
   * the deleted slots just before it. */
  if (map->keys[(i + 1) & mask] != FP_EMPTY)
    {
      map->keys[i] = FP_DELETED;
      return;
    }
  do
    {
      map->keys[i] = FP_EMPTY;
      map->used--;
      i = (i - 1) & mask;
    }
  while (map->keys[i] == FP_DELETED);
}


/* A start in the stack of its key in one map: a start is in two maps at
 * most (its thread's and its process's), a link in each. Each link holds
 * the start's key in the other map, so that closing the start takes it
 * off both without working out a key again. */
typedef struct
{
  guint32 start;
  guint32 next;      /* the next older link of the key + 1 (or, given back, the next
                        free one + 1); 0: none */
  guint64 other;     /* the start's key in its other map (map_key); 0: in one map only */
} Link;

/* What the pairing tells the sweep beside it (atomic), on a cache line of
 * its own: the pairing writes the rest of its state all the time. */
typedef struct
{
  guint  progress;     /* keys paired, told every PROGRESS_STEP */
  guint  matched_all;  /* 1: past its last key */
  gint   waiting;      /* the sweep sleeps on @moved */
  GMutex lock;
  GCond  moved;        /* the pairing went on */
} __attribute__ ((aligned (64))) PairingDone;

#define PROGRESS_STEP 1024
/* How many times the sweep looks for the pairing to go on before it
 * sleeps until told (a start whose end is far ahead keeps it waiting for
 * long: it must not hold a core meanwhile). */
#define SPINS_BEFORE_SLEEP 2048

/* The pairing went on: @field (of @done) is @value now; wakes the sweep
 * if it sleeps. (Sequentially consistent with the sweep's own store and
 * load in wait_for_pairing: one of the two sees the other's.) */
static void
tell_sweep (PairingDone *done, guint *field, guint value)
{
  __atomic_store_n (field, value, __ATOMIC_SEQ_CST);
  if (__atomic_load_n (&done->waiting, __ATOMIC_SEQ_CST))
    {
      g_mutex_lock (&done->lock);
      g_cond_broadcast (&done->moved);
      g_mutex_unlock (&done->lock);
    }
}

/* Whether the pairing went on since it told @seen. */
static gboolean
pairing_moved (PairingDone *done, guint seen)
{
  return __atomic_load_n (&done->progress, __ATOMIC_SEQ_CST) != seen
         || __atomic_load_n (&done->matched_all, __ATOMIC_SEQ_CST);
}

/* The pairing's state, and the sweep's beside it (et_span_pair_keys_each:
 * both on its stack): a line of each they shared, written by the pairing
 * at every key and read by the sweep at every key, made the pairing of
 * churn 10 M take 215-235 ms instead of 140-150 when the stack lay so
 * (about half the runs; none of six with address randomisation off). */
typedef struct
{
  EtSpanKey         *keys;           /* their results take their ids' place */
  guint              n;
  EtSpanOwners       owners;
  FpMap              maps[N_MAPS];   /* fingerprint → its top link + 1 */
  GArray            *links;          /* Link: the pool */
  guint32            free_link;      /* the first link given back + 1; 0: none */
  PairingDone       *done;           /* NULL: the sweep comes after the pairing */
  EtSpanKeyDone      tell;           /* told of each key by the sweep; NULL: none */
  gpointer           tell_data;
} ET_WORKER_ITEM Pairing;

/* A key's result, once it has one (ET_SPAN_KEY_PAIRED: a start when it
 * is closed, an end when it is matched or found to match nothing, every
 * key once pairing is done), lies where its id did: the id is read no more
 * by then. A start without is open: { no partner, lane 0, ok }. */
static inline EtSpanResult
result_of (const Pairing *p, guint i)
{
  return et_span_key_result (&p->keys[i]);
}

/* The flag is released after the result: a sweep beside the pairing
 * reads the result once it sees the flag (closed). */
static inline void
set_result (Pairing *p, guint i, EtSpanResult r)
{
  EtSpanKey *key = &p->keys[i];

  memcpy (key, &r, sizeof r);
  __atomic_store_n (&key->is_end, (guint8) (key->is_end | ET_SPAN_KEY_PAIRED), __ATOMIC_RELEASE);
}

/* A start is closed once it has its end (close_pair). */
static inline gboolean
closed (const Pairing *p, guint start)
{
  return (__atomic_load_n (&p->keys[start].is_end, __ATOMIC_ACQUIRE) & ET_SPAN_KEY_PAIRED) != 0;
}

static inline Link *
link_at (const Pairing *p, guint32 link)
{
  return &g_array_index (p->links, Link, link - 1);
}

static guint32
link_new (Pairing *p, guint32 start, guint32 next, guint64 other)
{
  Link fresh = { start, next, other };
  guint32 link = p->free_link;

  if (link == 0)
    {
      g_array_append_val (p->links, fresh);
      return p->links->len;
    }
  p->free_link = link_at (p, link)->next;
  *link_at (p, link) = fresh;
  return link;
}

/* Gives @link back and returns the link after it. */
static guint32
link_free (Pairing *p, guint32 link)
{
  guint32 next = link_at (p, link)->next;

  link_at (p, link)->next = p->free_link;
  p->free_link = link;
  return next;
}

/* The first link from @link on whose start is open (links of closed
 * starts are given back on the way: the caller's map skips them); 0 when
 * none is. */
static guint32
first_open (Pairing *p, guint32 link)
{
  while (link != 0 && closed (p, link_at (p, link)->start))
    link = link_free (p, link);
  return link;
}

/* What pairing reads of a span start or end: its key, and its owner's
 * process, thread and provider. */
typedef struct
{
  const EtSpanKey *key;
  guint32          pid;
  guint32          tid;
  guint16          provider;
} Span;

static inline const guint8 *
owner_of (const EtSpanOwners *o, const EtSpanKey *key)
{
  return o->base + (gsize) key->owner * o->stride;
}

static inline guint32
read_u32_at (const guint8 *p, gsize at)
{
  guint32 v;

  if (at == ET_SPAN_NO_FIELD)
    return 0;
  memcpy (&v, p + at, sizeof v);
  return v;
}

static inline gint64
time_of (const EtSpanOwners *o, const EtSpanKey *key)
{
  gint64 t;

  memcpy (&t, owner_of (o, key) + o->time_at, sizeof t);
  return t;
}

static inline Span
span_at (const Pairing *p, guint i)
{
  const EtSpanKey *key = &p->keys[i];
  const guint8 *owner;
  guint16 provider;

  /* (a start's result takes only its id's place: thread and provider stay) */
  if (p->owners.id_keys_carry_owner
      && (key->has_span_id || (key->is_end & ET_SPAN_KEY_CARRIES_OWNER)))
    return (Span) { key, 0, key->thread, key->provider };
  owner = owner_of (&p->owners, key);

  memcpy (&provider, owner + p->owners.provider_at, sizeof provider);
  return (Span) { key, read_u32_at (owner, p->owners.process_at),
                  read_u32_at (owner, p->owners.thread_at), provider };
}

/* (Bit 0 never changes; the pairing may be setting bit 7 beside.) */
static inline gboolean
is_end (const EtSpanKey *key)
{
  return __atomic_load_n (&key->is_end, __ATOMIC_RELAXED) & 1;
}

static guint64
mix (guint64 h, guint64 v)
{
  h ^= v + G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  return h ^ (h >> 33);
}

/* A 64-bit fingerprint of the key. Candidates are checked field by field
 * (same_key), so a fingerprint collision can only hide a match, never make
 * a wrong one; at 2^-64 per pair that is accepted. The key's small parts
 * are packed into words, so it takes three or four mixing steps. */
static guint64
fingerprint (guint map, const Span *e)
{
  gboolean per_thread = map == MAP_THREAD_ID || map == MAP_THREAD_TASK;
  gboolean by_id = map == MAP_THREAD_ID || map == MAP_PROCESS_ID;
  guint64 ids = ((guint64) e->pid << 32) | (per_thread ? e->tid : 0);
  guint64 h = mix (mix (map + 1, (guint64) e->provider << 16 | (by_id ? 0 : e->key->task)), ids);

  if (by_id)
    return mix (h, (guint64) e->key->span_id);
  if (map == MAP_PROCESS_ACTIVITY)
    {
      guint64 a, b;
      memcpy (&a, &e->key->activity_id, 8);
      memcpy (&b, (const guint8 *) &e->key->activity_id + 8, 8);
      h = mix (mix (h, a), b);
    }
  return h;
}

/* A fingerprint never equal to the map's empty and deleted markers. */
static guint64
map_key (guint map, const Span *e)
{
  guint64 h = fingerprint (map, e);
  return h > FP_DELETED ? h : h + 2;
}

static gboolean
same_key (guint map, const Span *a, const Span *b)
{
  if (a->pid != b->pid || a->provider != b->provider
      || a->key->has_span_id != b->key->has_span_id)
    return FALSE;
  if ((map == MAP_THREAD_ID || map == MAP_THREAD_TASK) && a->tid != b->tid)
    return FALSE;
  if (map == MAP_THREAD_ID || map == MAP_PROCESS_ID)
    return a->key->span_id == b->key->span_id;
  if (a->key->task != b->key->task)
    return FALSE;
  return map != MAP_PROCESS_ACTIVITY
         || et_guid_equal (&a->key->activity_id, &b->key->activity_id);
}

static gboolean
in_map (guint map, const EtSpanKey *e)
{
  switch (map)
    {
    case MAP_THREAD_ID:
    case MAP_PROCESS_ID:
      return e->has_span_id;
    case MAP_THREAD_TASK:
      return !e->has_span_id;
    default:
      return !e->has_span_id && !(e->is_end & ET_SPAN_KEY_CARRIES_OWNER)
             && !et_guid_is_zero (&e->activity_id);
    }
}

/* The map paired with @map: a start with a span id is in its thread's
 * and its process's maps by id, one without in its thread's by task and,
 * with an activity, its process's by activity. */
static inline guint
other_map (guint map)
{
  return map ^ 2;
}

G_STATIC_ASSERT (MAP_PROCESS_ID == (MAP_THREAD_ID ^ 2));
G_STATIC_ASSERT (MAP_PROCESS_ACTIVITY == (MAP_THREAD_TASK ^ 2));

static void
push (Pairing *p, guint map, guint index, guint64 key, guint64 other)
{
  FpMap *m = &p->maps[map];
  gsize slot = fp_map_upsert (m, key);

  m->values[slot] = link_new (p, index, m->values[slot], other);
}

/* Start @index goes on top of its key's stack in each of its maps. */
static void
push_start (Pairing *p, guint index, const Span *e)
{
  guint map = e->key->has_span_id ? MAP_THREAD_ID : MAP_THREAD_TASK;
  guint64 key = map_key (map, e), other = 0;

  if (in_map (other_map (map), e->key))
    {
      other = map_key (other_map (map), e);
      push (p, other_map (map), index, other, key);
    }
  push (p, map, index, key, other);
}

/* The most recent open start with @end's key in @map, or G_MAXUINT;
 * *@slot is set to the key's slot there (its top link: the start), *@other
 * to the start's key in the other map (0: none). */
static guint
find_open (Pairing *p, guint map, const Span *e, gsize *slot, guint64 *other)
{
  FpMap *m = &p->maps[map];
  guint64 key = map_key (map, e);
  gsize i = fp_map_slot (m, key);
  Span top_span;
  guint32 first = m->keys[i] == key ? m->values[i] : 0, top = first_open (p, first);

  /* Drop the closed entries we walked over, so they are not walked again. */
  if (top == 0 && first != 0)
    fp_map_remove_at (m, i);
  else if (top != first)
    m->values[i] = top;
  if (top == 0)
    return G_MAXUINT;
  top_span = span_at (p, link_at (p, top)->start);
  *slot = i;
  *other = link_at (p, top)->other;
  return same_key (map, &top_span, e) ? link_at (p, top)->start : G_MAXUINT;
}

/* Takes @start off the top of the stack at @slot of @map, when it is
 * there. */
static void
pop_at (Pairing *p, FpMap *m, gsize slot, guint start)
{
  guint32 top = m->values[slot];

  if (top == 0 || link_at (p, top)->start != start)
    return;
  top = first_open (p, link_free (p, top));
  if (top == 0)
    fp_map_remove_at (m, slot);
  else
    m->values[slot] = top;
}

/* Takes a just-closed start off the top of its key's stack in @map (at
 * @slot, where find_open found it) and in the other map it was pushed to
 * (its key there @other; 0: none): without this, a start matched through
 * one map would stay in the other until its key came up again, and the
 * maps would grow with every span of the trace instead of with the spans
 * open at once. */
static void
pop_closed (Pairing *p, guint start, guint map, gsize slot, guint64 other)
{
  FpMap *m = &p->maps[other_map (map)];

  pop_at (p, &p->maps[map], slot, start);
  if (other != 0)
    {
      gsize i = fp_map_slot (m, other);

      if (m->keys[i] == other)
        pop_at (p, m, i, start);
    }
}

/* Closes @start with @end, found in @map at @slot (@other: the start's
 * key in its other map). The start's maps are left before its result
 * takes the place of its id; the end's id was read already. */
static void
close_pair (Pairing *p, guint start, guint end, gboolean cross_thread, guint map, gsize slot,
            guint64 other)
{
  pop_closed (p, start, map, slot, other);
  set_result (p, start, (EtSpanResult) { end, 0,
                                         cross_thread ? ET_SPAN_CROSS_THREAD : ET_SPAN_OK });
  set_result (p, end, (EtSpanResult) { start, 0, ET_SPAN_OK });
}

/* An end looks for its start on its own thread, then (by id, or by
 * activity when it has one) across its process. */
static void
match_end (Pairing *p, guint end)
{
  Span e = span_at (p, end);
  guint thread_map = e.key->has_span_id ? MAP_THREAD_ID : MAP_THREAD_TASK;
  guint64 other;
  gsize slot;
  guint start;

  if ((start = find_open (p, thread_map, &e, &slot, &other)) != G_MAXUINT)
    close_pair (p, start, end, FALSE, thread_map, slot, other);
  else if (in_map (other_map (thread_map), e.key)
           && (start = find_open (p, other_map (thread_map), &e, &slot, &other)) != G_MAXUINT)
    close_pair (p, start, end, TRUE, other_map (thread_map), slot, other);
}

/* How many keys ahead pairing asks for their owners. */
#define OWNERS_AHEAD 16

static void
pair_all (Pairing *p, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      Span e;

      if (p->done != NULL && i % PROGRESS_STEP == 0)
        tell_sweep (p->done, &p->done->progress, i);
      /* The owners of a caller's keys may be spread (the loader's markers
       * of one process among all others'): ask for them early. */
      if (i + OWNERS_AHEAD < n)
        __builtin_prefetch (owner_of (&p->owners, &p->keys[i + OWNERS_AHEAD]));
      if (is_end (&p->keys[i]))
        {
          match_end (p, i);
          if (!closed (p, i))
            set_result (p, i, (EtSpanResult) { G_MAXUINT, 0, ET_SPAN_UNMATCHED_END });
          continue;
        }
      e = span_at (p, i);
      push_start (p, i, &e);
    }
  /* (the starts left open are the sweep's to say: sweep_start) */
  if (p->done != NULL)
    tell_sweep (p->done, &p->done->matched_all, 1);
}

typedef struct
{
  gint64 end;       /* G_MAXINT64 for a start left open */
  guint  depth;
} Active;

/* The open spans of a thread. While they are few, a list walked at
 * every start (what ended goes, the rest say how deep and how long);
 * past LIST_MAX, a heap by end time (the first to end on top) and how
 * many are open at each depth, so that a start looks only at what ended
 * before it and at the first to end: a thread of many open spans (starts
 * never closed pile up to the end of the trace) costs a start log(open),
 * not a walk over all of them. */
typedef struct
{
  guint32  pid;
  guint32  tid;
  Active  *open;
  guint    len;
  guint    capacity;
  gboolean heaped;   /* open is a heap, open_at and top are kept */
  guint   *open_at;  /* per depth: spans open there */
  guint    n_depths; /* open_at's length */
  guint    top;      /* the deepest open depth + 1; 0: none open */
} ThreadSweep;

#define LIST_MAX 32

static void
sift_down (ThreadSweep *s, guint i)
{
  Active a = s->open[i];

  for (;;)
    {
      guint child = 2 * i + 1;

      if (child >= s->len)
        break;
      if (child + 1 < s->len && s->open[child + 1].end < s->open[child].end)
        child++;
      if (a.end <= s->open[child].end)
        break;
      s->open[i] = s->open[child];
      i = child;
    }
  s->open[i] = a;
}

static void
heap_pop (ThreadSweep *s)
{
  s->open_at[s->open[0].depth]--;
  s->open[0] = s->open[--s->len];
  if (s->len > 0)
    sift_down (s, 0);
}

static void
add_open (ThreadSweep *s, Active a)
{
  guint i;

  if (s->len == s->capacity)
    {
      s->capacity = MAX (8, s->capacity * 2);
      s->open = g_renew (Active, s->open, s->capacity);
    }
  if (!s->heaped)
    {
      s->open[s->len++] = a;
      return;
    }
  if (a.depth >= s->n_depths)
    {
      guint from = s->n_depths;

      s->n_depths = MAX (MAX (16, s->n_depths * 2), a.depth + 1);
      s->open_at = g_renew (guint, s->open_at, s->n_depths);
      memset (s->open_at + from, 0, (s->n_depths - from) * sizeof (guint));
    }
  s->open_at[a.depth]++;
  s->top = MAX (s->top, a.depth + 1);
  for (i = s->len++; i > 0 && a.end < s->open[(i - 1) / 2].end; i = (i - 1) / 2)
    s->open[i] = s->open[(i - 1) / 2];
  s->open[i] = a;
}

/* The list becomes a heap. */
static void
heap_up (ThreadSweep *s)
{
  guint len = s->len;

  s->heaped = TRUE;
  s->len = 0;
  for (guint k = 0; k < len; k++)
    add_open (s, s->open[k]);
}

/* Status and lane of one start, given the spans open on its thread. A
 * span that begins while others are open is nested (it ends by the time
 * they do) or overlapping (it outlives one of them), one lane below the
 * deepest open. Precedence: unmatched_start > cross_thread > overlapping
 * > nested > ok. */
static void
sweep_start (Pairing *p, guint i, ThreadSweep *s)
{
  gboolean was_closed = closed (p, i);
  EtSpanResult r = was_closed ? result_of (p, i)
                              : (EtSpanResult) { G_MAXUINT, 0, ET_SPAN_UNMATCHED_START };
  gint64 t = time_of (&p->owners, &p->keys[i]);
  gint64 end = r.partner != G_MAXUINT ? time_of (&p->owners, &p->keys[r.partner]) : G_MAXINT64;
  gboolean outlives = FALSE;
  guint deepest = 0;

  if (!s->heaped)
    {
      guint kept = 0;

      for (guint j = 0; j < s->len; j++)
        {
          Active o = s->open[j];

          if (o.end <= t)
            continue;                   /* ended before this start */
          s->open[kept++] = o;
          deepest = MAX (deepest, o.depth + 1);
          outlives |= o.end < end;
        }
      s->len = kept;
    }
  else
    {
      while (s->len > 0 && s->open[0].end <= t)     /* ended before this start */
        heap_pop (s);
      while (s->top > 0 && s->open_at[s->top - 1] == 0)
        s->top--;
      deepest = s->top;
      /* It outlives an open span when the first of them to end ends before it. */
      outlives = s->len > 0 && s->open[0].end < end;
    }
  r.depth = (guint16) MIN (deepest, G_MAXUINT16);
  if (s->len > 0 && r.status == ET_SPAN_OK)
    r.status = outlives ? ET_SPAN_OVERLAPPING : ET_SPAN_NESTED;
  if (was_closed)
    memcpy (&p->keys[i], &r, sizeof r);   /* not its flags, which the pairing reads */
  else
    set_result (p, i, r);
  if (p->tell != NULL)
    p->tell (i, r, FALSE, p->tell_data);
  add_open (s, (Active) { end, deepest });
  if (!s->heaped && s->len > LIST_MAX)
    heap_up (s);
}

/* How many events ahead the sweep asks for the end of a start. */
#define LANES_AHEAD 16

/* Beside the pairing: waits until start @i is closed or the pairing is
 * past its last key (then it stays open). Between looks at the start, it
 * waits for the pairing to tell it has gone on (looking at the keys the
 * pairing is writing took their cache lines from it at every turn):
 * spinning a while, then asleep until told. */
static void
wait_for_pairing (const Pairing *p, guint i)
{
  PairingDone *done = p->done;

  while (!closed (p, i) && !__atomic_load_n (&done->matched_all, __ATOMIC_ACQUIRE))
    {
      guint seen = __atomic_load_n (&done->progress, __ATOMIC_ACQUIRE);

      for (guint spins = 0; spins < SPINS_BEFORE_SLEEP && !pairing_moved (done, seen); spins++)
        {
#if defined(__x86_64__) || defined(__i386__)
          __builtin_ia32_pause ();
#endif
        }
      if (pairing_moved (done, seen))
        continue;
      g_mutex_lock (&done->lock);
      __atomic_store_n (&done->waiting, 1, __ATOMIC_SEQ_CST);
      while (!pairing_moved (done, seen))
        g_cond_wait (&done->moved, &done->lock);
      __atomic_store_n (&done->waiting, 0, __ATOMIC_SEQ_CST);
      g_mutex_unlock (&done->lock);
    }
}

/* Gives back the open spans' room of every thread whose spans all ended
 * by @t: no start from @t on sees them (sweep_start drops what ended by
 * its time), so such a thread is as one never met. A server's thousands
 * of short-lived threads kept theirs to the end of the sweep. */
static void
release_ended (GArray *sweeps, gint64 t)
{
  for (guint k = 0; k < sweeps->len; k++)
    {
      ThreadSweep *s = &g_array_index (sweeps, ThreadSweep, k);
      gboolean ended = TRUE;

      if (s->open == NULL)
        continue;
      for (guint j = 0; j < s->len && ended; j++)
        ended = s->open[j].end <= t;
      if (!ended)
        continue;
      g_clear_pointer (&s->open, g_free);
      g_clear_pointer (&s->open_at, g_free);
      s->len = s->capacity = s->n_depths = s->top = 0;
      s->heaped = FALSE;
    }
}

/* One sweep over all starts in time order, each against its own thread's
 * open spans: the same order as thread by thread, but reading the events
 * and results front to back instead of striding through them once per
 * thread (which missed the cache on nearly every start). */
static void
assign_lanes (Pairing *p, guint n)
{
  g_autoptr(GHashTable) threads = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) sweeps = g_array_new (FALSE, FALSE, sizeof (ThreadSweep));
  guint recent[64] = { 0 };    /* direct-mapped by tid: sweep + 1, in front of threads */
  guint since = 0;             /* starts since release_ended (a pass per as many) */

  for (guint i = 0; i < n; i++)
    {
      Span e;
      guint slot, k;
      ThreadSweep *s;

      /* A start reads its end's time, far ahead: ask for it early (a
       * start's result is read only once closed: beside the pairing, an
       * open one's bytes are still its id). */
      /* (and, further ahead, for the end's key, which the owner's
       * address then waits on) */
      if (i + 2 * LANES_AHEAD < n && closed (p, i + 2 * LANES_AHEAD))
        {
          guint32 partner = result_of (p, i + 2 * LANES_AHEAD).partner;

          if (partner != G_MAXUINT)
            __builtin_prefetch (&p->keys[partner]);
        }
      if (i + LANES_AHEAD < n)
        {
          __builtin_prefetch (owner_of (&p->owners, &p->keys[i + LANES_AHEAD]));
          if (closed (p, i + LANES_AHEAD))
            {
              guint32 partner = result_of (p, i + LANES_AHEAD).partner;

              if (partner != G_MAXUINT)
                __builtin_prefetch (owner_of (&p->owners, &p->keys[partner]));
            }
        }
      if (is_end (&p->keys[i]) && p->tell == NULL)
        continue;
      if (p->done != NULL)
        wait_for_pairing (p, i);
      if (is_end (&p->keys[i]))
        {
          /* (paired or left unmatched when the pairing went past it) */
          p->tell (i, result_of (p, i), TRUE, p->tell_data);
          continue;
        }
      if (++since > MAX (4096, sweeps->len))
        {
          release_ended (sweeps, time_of (&p->owners, &p->keys[i]));
          since = 0;
        }
      e = span_at (p, i);
      slot = e.tid % G_N_ELEMENTS (recent);
      k = recent[slot];
      s = k != 0 ? &g_array_index (sweeps, ThreadSweep, k - 1) : NULL;
      if (s == NULL || s->pid != e.pid || s->tid != e.tid)
        {
          gpointer key = GSIZE_TO_POINTER (((guint64) e.pid << 32) | e.tid);

          k = GPOINTER_TO_UINT (g_hash_table_lookup (threads, key));
          if (k == 0)
            {
              ThreadSweep fresh = { e.pid, e.tid, NULL, 0, 0, FALSE, NULL, 0, 0 };
              g_array_append_val (sweeps, fresh);
              k = sweeps->len;
              g_hash_table_insert (threads, key, GUINT_TO_POINTER (k));
            }
          recent[slot] = k;
          s = &g_array_index (sweeps, ThreadSweep, k - 1);
        }
      sweep_start (p, i, s);
    }
  for (guint k = 0; k < sweeps->len; k++)
    {
      g_free (g_array_index (sweeps, ThreadSweep, k).open);
      g_free (g_array_index (sweeps, ThreadSweep, k).open_at);
    }
}

/* The sweep beside the pairing, on a copy of what it reads of it, made
 * before either began (the pairing writes the rest of its state all the
 * time). */
static gpointer
sweep_beside (gpointer data)
{
  Pairing *sweep = data;

  et_worker_begin ();
  assign_lanes (sweep, sweep->n);
  return NULL;
}

void
et_span_pair_keys_each (EtSpanKey *keys, guint n, const EtSpanOwners *owners, guint threads,
                        EtSpanKeyDone tell, gpointer tell_data)
{
  Pairing p = { keys, n, .tell = tell, .tell_data = tell_data }, sweep;
  PairingDone *done = NULL;
  GThread *beside = NULL;

  g_return_if_fail (n == 0 || (keys != NULL && owners != NULL));
  if (n == 0)
    return;
  g_return_if_fail (!owners->id_keys_carry_owner || owners->process_at == ET_SPAN_NO_FIELD);
  p.owners = *owners;

  for (guint map = 0; map < N_MAPS; map++)
    fp_map_init (&p.maps[map], 1024);
  p.links = g_array_sized_new (FALSE, FALSE, sizeof (Link), 1024);
  if (threads > 1)
    {
      done = g_aligned_alloc0 (1, sizeof *done, G_ALIGNOF (PairingDone));
      g_mutex_init (&done->lock);
      g_cond_init (&done->moved);
      p.done = done;
      sweep = (Pairing) { keys, n, p.owners, .done = done, .tell = tell, .tell_data = tell_data };
      beside = g_thread_new ("etlscope-lanes", sweep_beside, &sweep);
    }
  pair_all (&p, n);
  /* The lanes need neither the maps nor the links: they go first. */
  for (guint map = 0; map < N_MAPS; map++)
    fp_map_clear (&p.maps[map]);
  g_array_unref (p.links);
  if (beside != NULL)
    g_thread_join (beside);
  else
    assign_lanes (&p, n);
  if (done != NULL)
    {
      g_cond_clear (&done->moved);
      g_mutex_clear (&done->lock);
      g_aligned_free (done);
    }
}

void
et_span_pair_keys_on (EtSpanKey *keys, guint n, const EtSpanOwners *owners, guint threads)
{
  et_span_pair_keys_each (keys, n, owners, threads, NULL, NULL);
}

void
et_span_pair_keys (EtSpanKey *keys, guint n, const EtSpanOwners *owners)
{
  et_span_pair_keys_on (keys, n, owners, 1);
}

void
et_span_pair (const EtSpanEvent *events, guint n, EtSpanResult *results)
{
  et_span_pair_on (events, n, results, 1);
}

void
et_span_pair_on (const EtSpanEvent *events, guint n, EtSpanResult *results, guint threads)
{
  g_autofree EtSpanKey *keys = g_new0 (EtSpanKey, MAX (n, 1));
  EtSpanOwners owners = { (const guint8 *) events, sizeof *events,
                          G_STRUCT_OFFSET (EtSpanEvent, time), G_STRUCT_OFFSET (EtSpanEvent, pid),
                          G_STRUCT_OFFSET (EtSpanEvent, tid),
                          G_STRUCT_OFFSET (EtSpanEvent, provider) };

  g_return_if_fail (n == 0 || (events != NULL && results != NULL));

  for (guint i = 0; i < n; i++)
    {
      if (events[i].has_span_id)
        keys[i].span_id = events[i].span_id;
      else
        keys[i].activity_id = events[i].activity_id;
      keys[i].owner = i;
      keys[i].task = events[i].task;
      keys[i].is_end = events[i].is_end != 0;
      keys[i].has_span_id = events[i].has_span_id;
    }
  et_span_pair_keys_on (keys, n, &owners, threads);
  for (guint i = 0; i < n; i++)
    results[i] = et_span_key_result (&keys[i]);
}

const char *
et_span_status_to_string (EtSpanStatus status)
{
  switch (status)
    {
    case ET_SPAN_OK:              return "ok";
    case ET_SPAN_NESTED:          return "nested";
    case ET_SPAN_OVERLAPPING:     return "overlapping";
    case ET_SPAN_CROSS_THREAD:    return "cross_thread";
    case ET_SPAN_UNMATCHED_START: return "unmatched_start";
    case ET_SPAN_UNMATCHED_END:   return "unmatched_end";
    default:                      return "unknown";
    }
}
