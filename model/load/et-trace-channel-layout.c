/* et-trace-channel-layout.c — the last step of loading: the markers laid
 * out channel by channel (thread, provider, series), each channel sorted
 * by start time.
 *
 *   pending markers (time order) ─ cut in one part per core
 *     ─ count: each part finds each marker's channel among its thread's
 *       (per thread, not in one table of every channel) and notes it in
 *       the marker's place of its thread
 *     ─ join, thread by thread: the parts' channels of the thread merged,
 *       ordered by provider and series name, placed by a running total
 *       (channels and markers both: no global sort, no permutation)
 *     ─ scatter: each part makes its markers' EtMarkers, each in its
 *       place at once
 *     ─ per thread its summary; per large channel its block arrays
 *       (et-trace-summary.c)
 *
 * Markers were made in event time order, so a stable scatter leaves
 * every channel sorted by start time (ties in file order) without sorting
 * the markers. A server's short-lived threads make hundreds of thousands
 * of channels of a marker or two, with only a dozen threads alive at once:
 * a thread's channels are few and were met lately, where one table of
 * every channel missed the cache on every lookup.
 */
#include "et-trace-markers-private.h"
#include "et-memory.h"
#include "et-sort.h"

#include <stdlib.h>
#include <string.h>

/* A thread's channels are looked up along a chain while they are at most
 * this many; past it, through an index of the thread's own (a server's
 * thread of a hundred series, or a trace whose every event names a series
 * of its own, must not walk long chains). */
#define CHAIN_MAX 8

/* The threads whose index a part keeps at once. A server's threads are
 * many but only a dozen are alive at a time, and an index of each would
 * be kept to the end of the count (4 MB at a million events): past this
 * many, the index used least lately goes, made again from its thread's
 * chain if the thread comes back, unless making them again has cost more
 * than an insert per marker so far (threads taking turns by hundreds). */
#define INDEX_KEEP 64

/* The slots a thread's index starts with (1 KB): a server's thread of a
 * hundred channels filled one of 32 slots, then 64 and 128, and growing
 * read every channel of it again, from all over the part's channels
 * (churn at 10 M events: the count 142 → 103 ms with this many). */
#define INDEX_FIRST_SLOTS 256

/* How many threads the join walks the chains of side by side. */
#define JOIN_GROUP 8

/* How far ahead the scatter asks for a span start's end marker. */
#define PREFETCH_AHEAD 8

/* A channel as one part met it (16 bytes: a server's trace has hundreds
 * of thousands; its thread is the chain it is in). */
typedef struct
{
  guint32 series;    /* string id */
  guint32 count;     /* its kept markers in the part; since the join, its first
                        place counted from its join range's markers */
  guint32 next;      /* the part's channel met before it on the thread, + 1; 0: none */
  guint16 provider;
  guint8  range;     /* since the join: the join range of its thread */
} PartChannel;

G_STATIC_ASSERT (sizeof (PartChannel) == 16);

/* A thread's open-addressed index of its channels in a part (id + 1 by
 * series and provider), once it has more than CHAIN_MAX: each thread's
 * own, so that the few threads alive at once keep theirs in the cache. */
typedef struct
{
  guint32 *slots;   /* NULL: none (yet, or no more) */
  guint32  mask;
  guint32  n;
  guint32  used;    /* the part's lookups by index when it was last used */
} ThreadIndex;

/* A span start whose end is in a later part: count_part makes its
 * EtMarker while the end is sure to be there, and keeps it here with its
 * channel. */
typedef struct
{
  guint32  marker;
  guint32  channel;
  EtMarker made;
} EarlyMarker;

/* One stretch of the markers [from, to): its channels while counting,
 * then each channel's next free place in the final array. */
typedef struct
{
  EtPendingMarker *markers;
  const EtMarkerEvents *events;  /* the markers' events */
  const guint32   *keep;
  guint32          from, to;
  GArray          *channels;     /* PartChannel, first met first (while counting: room
                                    for one per marker, n_made of them made) */
  guint32          n_made;
  guint32         *head;         /* per thread: its latest channel + 1; 0: none */
  guint16         *length;       /* per thread: its channels (saturating) */
  ThreadIndex     *index;        /* per thread: past CHAIN_MAX channels */
  GArray          *indexed;      /* guint32: the threads with an index, INDEX_KEEP or so */
  guint32          lookups;      /* by index, so far */
  guint64          remade;       /* inserts into indexes made again */
  guint32         *cursor;       /* per part channel: its next final place (made where
                                    its channels were, part_drop_channels) */
  GArray          *made;         /* EarlyMarker: the markers count_part made */
  guint32          n_kept;
  EtTrace         *self;
  gint64           end_of_trace;
  const GArray    *cross_in;     /* EtCrossEnd by pending marker */
  GArray          *cross;        /* EtCrossEnd with final places */
  EtTraceProgress *progress;     /* the markers each pass has been through */
} ET_WORKER_ITEM ChannelPart;

/* Tells the pass's markers before @i since *@told, a chunk at a time. */
static inline void
tell_pass (ChannelPart *part, guint i, guint *told)
{
  if ((i & 0x3FFF) == 0 || i == part->to)
    {
      _et_trace_progress_add (part->progress, i - *told);
      *told = i;
    }
}

static guint
key_hash (guint32 thread, guint32 series, guint16 provider)
{
  guint h = thread * 2654435761u ^ series * 40503u ^ provider;

  /* Mixed down: the tables take its low bits. */
  h ^= h >> 16;
  h *= 0x45D9F3Bu;
  return h ^ (h >> 16);
}

static inline PartChannel *
part_channel (ChannelPart *part, guint id)
{
  return &g_array_index (part->channels, PartChannel, id);
}

static guint
series_hash (guint32 series, guint16 provider)
{
  guint h = series * 2654435761u ^ provider;

  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  return h ^ (h >> 12);
}

static void
index_insert (ChannelPart *part, ThreadIndex *x, guint id)
{
  const PartChannel *c = part_channel (part, id);
  guint h;

  if ((x->n + 1) * 2 > x->mask + 1)
    {
      guint32 *old = x->slots;
      guint old_size = x->slots != NULL ? x->mask + 1 : 0;

      x->mask = x->slots != NULL ? x->mask * 2 + 1 : INDEX_FIRST_SLOTS - 1;
      x->slots = g_new0 (guint32, x->mask + 1);
      x->n = 0;
      for (guint s = 0; s < old_size; s++)
        if (old[s] != 0)
          index_insert (part, x, old[s] - 1);
      g_free (old);
    }
  for (h = series_hash (c->series, c->provider) & x->mask; x->slots[h] != 0; h = (h + 1) & x->mask)
    ;
  x->slots[h] = id + 1;
  x->n++;
}

static gint
index_find (ChannelPart *part, const ThreadIndex *x, guint32 series, guint16 provider)
{
  for (guint h = series_hash (series, provider) & x->mask; x->slots[h] != 0; h = (h + 1) & x->mask)
    {
      const PartChannel *c = part_channel (part, x->slots[h] - 1);

      if (c->series == series && c->provider == provider)
        return (gint) x->slots[h] - 1;
    }
  return -1;
}

/* Drops the index of the thread among part->indexed used least lately;
 * returns its place there. */
static guint
index_drop_oldest (ChannelPart *part)
{
  const guint32 *threads = (const guint32 *) (gconstpointer) part->indexed->data;
  guint oldest = 0;
  ThreadIndex *x;

  for (guint k = 1; k < part->indexed->len; k++)
    if (part->index[threads[k]].used < part->index[threads[oldest]].used)
      oldest = k;
  x = &part->index[threads[oldest]];
  g_free (x->slots);
  *x = (ThreadIndex) { NULL, 0, 0, 0 };
  return oldest;
}

/* @thread's index, made from its chain when it has none: @again when it
 * had one before (part_find makes it first when the thread's channels
 * pass CHAIN_MAX). */
static ThreadIndex *
thread_index (ChannelPart *part, guint32 thread, gboolean again)
{
  ThreadIndex *x = &part->index[thread];

  x->used = ++part->lookups;
  if (x->slots != NULL)
    return x;
  if (part->indexed->len < INDEX_KEEP || part->remade > part->n_kept)
    g_array_append_val (part->indexed, thread);
  else
    g_array_index (part->indexed, guint32, index_drop_oldest (part)) = thread;
  for (guint32 at = part->head[thread]; at != 0; at = part_channel (part, at - 1)->next)
    {
      index_insert (part, x, at - 1);
      part->remade += again;
    }
  return x;
}

/* The part's channel of (@thread, @series, @provider); a new one is made
 * and put first in its thread's chain. */
static guint
part_find (ChannelPart *part, guint32 thread, guint32 series, guint16 provider)
{
  PartChannel made = { series, 0, part->head[thread], provider };
  guint id;

  if (part->length[thread] <= CHAIN_MAX)
    {
      for (guint32 at = part->head[thread]; at != 0; at = part_channel (part, at - 1)->next)
        {
          const PartChannel *c = part_channel (part, at - 1);

          if (c->series == series && c->provider == provider)
            return at - 1;
        }
    }
  else
    {
      gint found = index_find (part, thread_index (part, thread, TRUE), series, provider);

      if (found >= 0)
        return (guint) found;
    }
  g_array_index (part->channels, PartChannel, part->n_made) = made;   /* (no call per channel) */
  id = part->n_made++;
  part->head[thread] = id + 1;
  if (part->length[thread] < G_MAXUINT16)
    part->length[thread]++;
  if (part->length[thread] == CHAIN_MAX + 1)
    thread_index (part, thread, FALSE);
  else if (part->length[thread] > CHAIN_MAX + 1)
    index_insert (part, &part->index[thread], id);
  return id;
}

/* The marker the pending one @p (of @event) becomes: a span start takes
 * its end's time and event, or lasts to the end of the trace when no end
 * came; anything else ends where it starts. An end in the part has its
 * event where its thread was (count_part); one further is found by its
 * index. */
static EtMarker
finish_marker (const ChannelPart *part, const EtPendingMarker *p, guint32 event)
{
  EtMarker m = { p->start_ns, p->start_ns, event, ET_NO_INDEX, p->provider, p->category,
                 p->kind, p->importance, p->status, p->depth };

  if (p->kind != ET_MARKER_SPAN || p->status == ET_SPAN_UNMATCHED_END)
    return m;
  if (p->end_marker == ET_NO_INDEX)
    m.end_ns = MAX (part->end_of_trace, p->start_ns);
  else
    {
      const EtPendingMarker *end = &part->markers[p->end_marker];

      m.end_ns = end->start_ns;
      m.end_event = p->end_marker < part->to ? end->thread
                                             : _et_marker_event (part->events, p->end_marker);
    }
  return m;
}

/* Counts the part's markers into its channels, each kept one's channel
 * written where its thread was (the layout's last use of it), and each
 * end folded into its start its event there: the scatter reads them and
 * makes the EtMarker, reading a start's end ahead of it in the part, so
 * that no array of every marker's channel or event is needed.
 * A start whose end is in a later part, which may have given the end's
 * page back by then, is made here and kept aside with its channel
 * (part->made). Ends that closed a span are not kept, so none is written
 * over while another part may read it. */
static gpointer
count_part (gpointer data)
{
  ChannelPart *part = data;
  guint n_threads = part->self->threads->len;
  guint32 recent[256] = { 0 };    /* direct-mapped, in front of the chains: id + 1 */
  guint32 recent_thread[256];      /* … and its thread */
  guint told = part->from;
  EtMarkerEventIter events;

  et_worker_begin ();
  if (part->from < part->to)
    _et_marker_event_iter_init (&events, part->events, part->from);
  /* Room for a channel per marker, taken only as it is written: grown by
   * doubling instead, each smaller copy freed stayed in this thread's
   * arena once the allocator's threshold for mapping had risen, 3 MB on
   * churn. */
  part->channels = g_array_sized_new (FALSE, FALSE, sizeof (PartChannel),
                                      MAX (part->to - part->from, 1));
  g_array_set_size (part->channels, part->to - part->from);
  part->n_made = 0;
  part->head = g_new0 (guint32, MAX (n_threads, 1));
  part->length = g_new0 (guint16, MAX (n_threads, 1));
  part->index = g_new0 (ThreadIndex, MAX (n_threads, 1));
  part->indexed = g_array_new (FALSE, FALSE, sizeof (guint32));
  part->made = g_array_new (FALSE, FALSE, sizeof (EarlyMarker));
  for (guint i = part->from; i < part->to; i++)
    {
      EtPendingMarker *m = &part->markers[i];
      guint32 event = _et_marker_event_next (&events);
      guint slot, id;

      tell_pass (part, i, &told);
      if (!_et_marker_is_kept (part->keep, i))
        {
          m->thread = event;
          continue;
        }
      slot = key_hash (m->thread, m->series, m->provider) % G_N_ELEMENTS (recent);
      if (recent[slot] != 0 && recent_thread[slot] == m->thread
          && part_channel (part, recent[slot] - 1)->series == m->series
          && part_channel (part, recent[slot] - 1)->provider == m->provider)
        id = recent[slot] - 1;
      else
        {
          recent[slot] = (id = part_find (part, m->thread, m->series, m->provider)) + 1;
          recent_thread[slot] = m->thread;
        }
      part_channel (part, id)->count++;
      part->n_kept++;
      if (m->end_marker != ET_NO_INDEX && m->end_marker >= part->to && m->kind == ET_MARKER_SPAN
          && m->status != ET_SPAN_UNMATCHED_END)
        {
          EarlyMarker early = { i, id, finish_marker (part, m, event) };

          g_array_append_val (part->made, early);
        }
      m->thread = id;
    }
  tell_pass (part, part->to, &told);
  g_array_set_size (part->channels, part->n_made);
  for (guint k = 0; k < part->indexed->len; k++)
    g_free (part->index[g_array_index (part->indexed, guint32, k)].slots);
  g_clear_pointer (&part->indexed, g_array_unref);
  g_clear_pointer (&part->index, g_free);
  return NULL;
}

/* ---- the join, thread by thread ------------------------------------------ */

/* One channel of a thread, merged from the parts. */
typedef struct
{
  guint32 series;
  guint32 rank;      /* its series' place among the series by name */
  guint32 count;
  guint32 first;     /* its first marker's final place */
  guint16 provider;
} ThreadChannel;

/* What the join of one thread uses, kept from thread to thread. */
/* Series whose rank a join range keeps at hand (8 KB): a server's
 * hundred and fifty series took turns in 64 slots, and every miss was a
 * lookup in the table of every series. */
#define RANK_CACHE 1024

typedef struct
{
  GArray     *channels;    /* ThreadChannel */
  GArray     *order;       /* guint32: channels in layout order */
  GArray     *keys;        /* guint64: their packed keys, sorted (order_thread_channels) */
  GArray     *met;         /* guint32 per part channel visited: its ThreadChannel */
  GArray     *before;      /* guint32 per part channel visited: the count before its part's */
  guint32    *slots;       /* the thread's channels by series and provider: index + 1 */
  guint32     mask;
  GHashTable *rank;        /* series id → rank */
  guint32     rank_cache[RANK_CACHE][2];   /* series + 1 and its rank, direct-mapped */
} ThreadJoin;

static void
join_index_add (ThreadJoin *j, guint k)
{
  const ThreadChannel *t = &g_array_index (j->channels, ThreadChannel, k);
  guint h = series_hash (t->series, t->provider) & j->mask;

  while (j->slots[h] != 0)
    h = (h + 1) & j->mask;
  j->slots[h] = k + 1;
}

/* Empties the index for a thread of at most @n channels. */
static void
join_index_reset (ThreadJoin *j, guint n)
{
  guint size = 64;

  while (size < 2 * n)
    size *= 2;
  if (j->slots == NULL || size > j->mask + 1)
    {
      g_free (j->slots);
      j->slots = g_new0 (guint32, size);
      j->mask = size - 1;
    }
  else
    memset (j->slots, 0, (j->mask + 1) * sizeof (guint32));
}

static guint32
rank_of (ThreadJoin *j, guint32 series)
{
  guint32 *cached = j->rank_cache[series % G_N_ELEMENTS (j->rank_cache)];

  if (cached[0] != series + 1)
    {
      cached[0] = series + 1;
      cached[1] = GPOINTER_TO_UINT (g_hash_table_lookup (j->rank, GUINT_TO_POINTER (series)));
    }
  return cached[1];
}

/* The thread's channel of @c (made when it has none yet: j->channels
 * has room for every channel the thread can have, *@n of them made). */
static guint
thread_channel_of (ThreadJoin *j, const PartChannel *c, guint *n)
{
  ThreadChannel made = { c->series, rank_of (j, c->series), 0, 0, c->provider };

  for (guint h = series_hash (c->series, c->provider) & j->mask; j->slots[h] != 0;
       h = (h + 1) & j->mask)
    {
      const ThreadChannel *t = &g_array_index (j->channels, ThreadChannel, j->slots[h] - 1);

      if (t->series == c->series && t->provider == c->provider)
        return j->slots[h] - 1;
    }
  g_array_index (j->channels, ThreadChannel, *n) = made;
  join_index_add (j, *n);
  return (*n)++;
}

/* Channels by provider, then series name (not its id: ids follow the
 * order strings were first seen, which parallel decoding varies), by the
 * name's rank among the series (rank_series). */
static int
compare_thread_channels (gconstpointer a, gconstpointer b, gpointer channels)
{
  const ThreadChannel *x = &g_array_index ((GArray *) channels, ThreadChannel, *(const guint32 *) a);
  const ThreadChannel *y = &g_array_index ((GArray *) channels, ThreadChannel, *(const guint32 *) b);

  if (x->provider != y->provider)
    return x->provider < y->provider ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* j->order: the thread's channels in layout order. Their keys are
 * packed into numbers (provider, rank, index) and sorted as such, by
 * insertion for the few channels most threads have; past what fits in 64
 * bits, compared. */
static void
order_thread_channels (ThreadJoin *j)
{
  guint n = j->channels->len;
  guint64 *keys;
  gboolean packed = n < (1u << 20);

  g_array_set_size (j->order, n);
  g_array_set_size (j->keys, n);
  keys = (guint64 *) (gpointer) j->keys->data;
  for (guint c = 0; c < n && packed; c++)
    {
      const ThreadChannel *t = &g_array_index (j->channels, ThreadChannel, c);

      packed = t->rank < (1u << 28);
      keys[c] = (guint64) t->provider << 48 | (guint64) t->rank << 20 | c;
    }
  if (!packed)
    {
      for (guint c = 0; c < n; c++)
        g_array_index (j->order, guint32, c) = c;
      g_qsort_with_data (j->order->data, (gint) n, sizeof (guint32), compare_thread_channels,
                         j->channels);
      return;
    }
  if (n > 32)
    et_sort_u64 (keys, n);
  else
    for (guint c = 1; c < n; c++)
      {
        guint64 key = keys[c];
        guint at = c;

        for (; at > 0 && keys[at - 1] > key; at--)
          keys[at] = keys[at - 1];
        keys[at] = key;
      }
  for (guint c = 0; c < n; c++)
    g_array_index (j->order, guint32, c) = (guint32) (keys[c] & ((1u << 20) - 1));
}

/* A range of threads joined by one worker. Each range writes its
 * channels into the trace's at a provisional start (the channels the
 * parts found for its threads, which a channel met by two parts counts
 * twice), markers holding their first place counted from the range's
 * start; once every range is joined they are moved down to their final
 * start and their places made final: the channels are never copied whole
 * beside the trace's (at a server's 400,000 channels that copy was the
 * loader's peak). */
typedef struct
{
  EtTrace     *self;
  ChannelPart *parts;
  guint        k;
  guint        t_from, t_to;   /* threads [t_from, t_to) */
  ThreadJoin   j;
  guint32      bound;          /* channels the parts found for its threads */
  guint32      at;             /* its provisional start in the trace's channels */
  guint32      n_channels;
  guint32      n_markers;      /* its threads' markers */
  guint32      channel_base;   /* where its channels and markers start at last */
  guint32      marker_base;
  guint        index;          /* its place among the ranges */
  GArray      *lists[JOIN_GROUP];   /* PartChannel* of each thread of a group */
} ET_WORKER_ITEM JoinRange;

/* Merges thread @t's channels of every part (@visited: gather_group),
 * orders them and writes them after the range's; each part channel of the
 * thread gets its first place from the range's start (after the parts
 * before it). */
static void
join_thread (JoinRange *r, guint t, const GArray *visited)
{
  ThreadJoin *j = &r->j;
  EtThread *thread = &g_array_index (r->self->threads, EtThread, t);
  EtChannel *channels = (EtChannel *) (gpointer) r->self->channels->data + r->at;
  guint merged_n = 0;

  /* (sized, then written in place: millions of channels, a call each to
   * append them was most of the join's time) */
  g_array_set_size (j->channels, visited->len);
  g_array_set_size (j->met, visited->len);
  g_array_set_size (j->before, visited->len);
  join_index_reset (j, visited->len);
  for (guint v = 0; v < visited->len; v++)
    {
      const PartChannel *c = g_array_index (visited, PartChannel *, v);
      guint tc = thread_channel_of (j, c, &merged_n);
      ThreadChannel *merged = &g_array_index (j->channels, ThreadChannel, tc);

      g_array_index (j->met, guint32, v) = tc;
      g_array_index (j->before, guint32, v) = merged->count;
      merged->count += c->count;
    }
  g_array_set_size (j->channels, merged_n);
  if (j->channels->len > 0)
    thread->first_channel = r->n_channels;       /* from the range's start, for now */
  thread->n_channels = j->channels->len;
  order_thread_channels (j);
  for (guint c = 0; c < j->order->len; c++)
    {
      ThreadChannel *tc = &g_array_index (j->channels, ThreadChannel,
                                          g_array_index (j->order, guint32, c));
      /* (its first place, counted from the range's start, until place_range) */
      EtChannel channel = { GSIZE_TO_POINTER ((gsize) r->n_markers), tc->series, tc->count };

      tc->first = r->n_markers;
      r->n_markers += tc->count;
      channels[r->n_channels++] = channel;
    }
  /* Each part channel visited, its place where its count was, and its
   * range (part_drop_channels adds the range's start once every range is
   * placed). */
  for (guint v = 0; v < visited->len; v++)
    {
      PartChannel *c = g_array_index (visited, PartChannel *, v);

      c->count = g_array_index (j->channels, ThreadChannel, g_array_index (j->met, guint32, v)).first
                 + g_array_index (j->before, guint32, v);
      c->range = (guint8) r->index;
    }
}

/* The part channels of threads [@t, @t + @n), each thread's in part order
 * and along each part's chain, into @lists (PartChannel*): the threads'
 * chains are walked side by side, so that their cache misses overlap. A
 * chain walked alone waited for each step's miss before the next: half
 * of joining a server's short-lived threads, whose channels lie among
 * those of every thread alive with them. */
static void
gather_group (JoinRange *r, guint t, guint n, GArray **lists)
{
  guint part[JOIN_GROUP], active, filled[JOIN_GROUP];
  guint32 at[JOIN_GROUP];

  for (guint i = 0; i < n; i++)
    {
      guint most = 0;

      /* (room for the thread's channels in every part, written in place) */
      for (guint p = 0; p < r->k; p++)
        most += r->parts[p].length[t + i] < G_MAXUINT16 ? r->parts[p].length[t + i]
                                                        : r->parts[p].channels->len;
      g_array_set_size (lists[i], most);
      filled[i] = 0;
      part[i] = 0;
      at[i] = r->parts[0].head[t + i];
    }
  do
    {
      active = 0;
      for (guint i = 0; i < n; i++)
        {
          PartChannel *c;

          while (at[i] == 0 && part[i] + 1 < r->k)
            at[i] = r->parts[++part[i]].head[t + i];
          if (at[i] == 0)
            continue;
          c = part_channel (&r->parts[part[i]], at[i] - 1);
          g_array_index (lists[i], PartChannel *, filled[i]++) = c;
          at[i] = c->next;
          active++;
        }
    }
  while (active > 0);
  for (guint i = 0; i < n; i++)
    g_array_set_size (lists[i], filled[i]);
}

static gpointer
join_range (gpointer data)
{
  JoinRange *r = data;

  et_worker_begin ();
  for (guint t = r->t_from; t < r->t_to; t += JOIN_GROUP)
    {
      guint n = MIN (JOIN_GROUP, r->t_to - t);

      gather_group (r, t, n, r->lists);
      for (guint i = 0; i < n; i++)
        join_thread (r, t + i, r->lists[i]);
    }
  return NULL;
}

/* Makes the places of the range's channels (moved to their final start)
 * and threads final (its part channels': part_drop_channels). */
static gpointer
place_range (gpointer data)
{
  JoinRange *r = data;
  EtChannel *channels = (EtChannel *) (gpointer) r->self->channels->data + r->channel_base;

  et_worker_begin ();
  for (guint c = 0; c < r->n_channels; c++)
    channels[c].markers = r->self->markers + r->marker_base
                          + GPOINTER_TO_SIZE (channels[c].markers);
  for (guint t = r->t_from; t < r->t_to; t++)
    {
      EtThread *thread = &g_array_index (r->self->threads, EtThread, t);

      if (thread->n_channels > 0)
        thread->first_channel += r->channel_base;
    }
  return NULL;
}

static int
compare_names (gconstpointer a, gconstpointer b, gpointer strings)
{
  return strcmp (et_strpool_get (strings, GPOINTER_TO_UINT (*(gconstpointer *) a)),
                 et_strpool_get (strings, GPOINTER_TO_UINT (*(gconstpointer *) b)));
}

/* Ranks the series the parts' channels name by name: the series are
 * sorted once, so that ordering the channels compares numbers, not names
 * through the pool. The trace keeps them in that order
 * (et_trace_get_series). Returns series id → rank. */
static GHashTable *
rank_series (EtTrace *self, ChannelPart *parts, guint k)
{
  GHashTable *rank = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  /* The series met lately, direct-mapped (+ 1): a server's channels are
   * millions, its series a few hundred, and a table insert per channel
   * was most of this. */
  g_autofree guint32 *met = g_new0 (guint32, RANK_CACHE);

  for (guint p = 0; p < k; p++)
    for (guint c = 0; c < parts[p].channels->len; c++)
      {
        guint32 series = part_channel (&parts[p], c)->series;
        guint32 *slot = &met[series % RANK_CACHE];

        if (*slot != series + 1 && g_hash_table_insert (rank, GUINT_TO_POINTER (series), NULL))
          g_ptr_array_add (names, GUINT_TO_POINTER (series));
        *slot = series + 1;
      }
  g_ptr_array_sort_with_data (names, compare_names, self->strings);
  for (guint n = 0; n < names->len; n++)
    {
      guint32 id = GPOINTER_TO_UINT (names->pdata[n]);

      g_hash_table_insert (rank, names->pdata[n], GUINT_TO_POINTER (n));
      g_array_append_val (self->series, id);
    }
  return rank;
}

/* Frees @block of @len bytes, its pages given back first: the loader's
 * transient tables are made on worker threads, whose arenas would keep
 * them resident while the next table grows elsewhere. */
static void
release_free (gpointer block, gsize len)
{
  et_memory_release (block, len);
  g_free (block);
}

/* What only the count and the join needed goes, its pages first; the
 * part channels' places (their counts' fields since the join, counted
 * from their range's start in @range_base) become the part's cursors at
 * the front of their block, whose back is given back. */
static void
part_drop_channels (ChannelPart *part, guint n_threads, const guint32 *range_base)
{
  guint n = part->channels->len;
  PartChannel *channels;

  release_free (g_steal_pointer (&part->head), MAX (n_threads, 1) * sizeof (guint32));
  release_free (g_steal_pointer (&part->length), MAX (n_threads, 1) * sizeof (guint16));
  g_array_set_size (part->channels, MAX (n, 1));
  channels = (PartChannel *) (gpointer) g_array_free (g_steal_pointer (&part->channels), FALSE);
  part->cursor = (guint32 *) (gpointer) channels;
  for (guint c = 0; c < n; c++)       /* each read before it is written over */
    part->cursor[c] = channels[c].count + range_base[channels[c].range];
  et_memory_release (part->cursor + n, (MAX (n, 1) * sizeof (PartChannel)) - n * sizeof (guint32));
}

/* Every thread's channels, in thread order: the trace's channels and
 * each part channel's first place. Ranges of threads are joined on every
 * core, then moved after the ranges before them. Returns the channels. */
static guint
join_threads (EtTrace *self, ChannelPart *parts, guint k)
{
  guint n_threads = self->threads->len, n_ranges;
  guint32 n_channels = 0, placed = 0, bound = 0;
  GHashTable *rank = rank_series (self, parts, k);
  JoinRange *ranges;
  g_autofree guint32 *range_base = NULL;

  /* (at most 64: PartChannel.range holds a range's index) */
  n_ranges = MIN (et_workers_count (self->n_markers, 200000), MAX (n_threads, 1));
  ranges = et_workers_new (n_ranges, sizeof *ranges);
  for (guint r = 0; r < n_ranges; r++)
    {
      JoinRange *range = &ranges[r];

      *range = (JoinRange) {
        .self = self, .parts = parts, .k = k,
        .t_from = (guint) ((guint64) n_threads * r / n_ranges),
        .t_to = (guint) ((guint64) n_threads * (r + 1) / n_ranges),
        .j = { g_array_new (FALSE, FALSE, sizeof (ThreadChannel)),
               g_array_new (FALSE, FALSE, sizeof (guint32)),
               g_array_new (FALSE, FALSE, sizeof (guint64)),
               g_array_new (FALSE, FALSE, sizeof (guint32)),
               g_array_new (FALSE, FALSE, sizeof (guint32)),
               NULL, 0, rank, { { 0 } } },
        .at = bound, .index = r };
      for (guint i = 0; i < JOIN_GROUP; i++)
        range->lists[i] = g_array_new (FALSE, FALSE, sizeof (PartChannel *));
      for (guint t = range->t_from; t < range->t_to; t++)
        for (guint p = 0; p < k; p++)
          range->bound += parts[p].length[t] < G_MAXUINT16 ? parts[p].length[t]
                                                           : parts[p].channels->len;
      bound += range->bound;
    }
  _et_presize_array (&self->channels, bound + 1);
  g_array_set_size (self->channels, bound);
  et_workers_run (ranges, sizeof *ranges, n_ranges, join_range, "etlscope-layout");
  for (guint r = 0; r < n_ranges; r++)
    {
      ranges[r].channel_base = n_channels;
      ranges[r].marker_base = placed;
      memmove ((EtChannel *) (gpointer) self->channels->data + n_channels,
               (EtChannel *) (gpointer) self->channels->data + ranges[r].at,
               ranges[r].n_channels * sizeof (EtChannel));
      n_channels += ranges[r].n_channels;
      placed += ranges[r].n_markers;
    }
  g_array_set_size (self->channels, n_channels);
  et_workers_run (ranges, sizeof *ranges, n_ranges, place_range, "etlscope-layout");
  for (guint r = 0; r < n_ranges; r++)
    {
      ThreadJoin *j = &ranges[r].j;

      g_array_unref (j->channels);
      g_array_unref (j->order);
      g_array_unref (j->keys);
      g_array_unref (j->met);
      g_array_unref (j->before);
      for (guint i = 0; i < JOIN_GROUP; i++)
        g_array_unref (ranges[r].lists[i]);
      g_free (j->slots);
    }
  range_base = g_new (guint32, n_ranges);
  for (guint r = 0; r < n_ranges; r++)
    range_base[r] = ranges[r].marker_base;
  et_workers_free (ranges);
  for (guint p = 0; p < k; p++)
    part_drop_channels (&parts[p], n_threads, range_base);
  g_hash_table_unref (rank);
  return n_channels;
}

/* ---- the scatter ------------------------------------------------------------ */

/* Markers the scatter moves before it gives their pending pages back
 * (2 MB): the pending and the final markers are never both resident in
 * full, which was the loader's peak on traces of few processes. */
#define SCATTER_SLICE (64u << 10)

/* Makes the part's markers (those count_part made, moved) in their final
 * places, giving back the pages of what it has been through as it goes
 * (a start's end is ahead of it, or was read by count_part). The cross-thread
 * ends come in marker order (pair_spans), as the scatter goes: each gets
 * its marker's final place. */
static gpointer
scatter_part (gpointer data)
{
  ChannelPart *part = data;
  const EtCrossEnd *cross = (const EtCrossEnd *) (gconstpointer) part->cross_in->data;
  const EarlyMarker *made = (const EarlyMarker *) (gconstpointer) part->made->data;
  guint k = 0, n_cross = part->cross_in->len, e = 0;
  guint32 moved_to = part->from;         /* pages before this are given back */
  guint told = part->from;
  EtMarkerEventIter events;

  et_worker_begin ();
  if (part->from < part->to)
    _et_marker_event_iter_init (&events, part->events, part->from);
  while (k < n_cross && cross[k].marker < part->from)
    k++;
  for (guint i = part->from; i < part->to; i++)
    {
      const EtPendingMarker *m = &part->markers[i];
      guint32 event = _et_marker_event_next (&events);

      /* A start's end is somewhere ahead: ask for it early (one in a
       * later part was read by count_part). */
      if (i + PREFETCH_AHEAD < part->to && m[PREFETCH_AHEAD].end_marker < part->to)
        __builtin_prefetch (&part->markers[m[PREFETCH_AHEAD].end_marker]);
      tell_pass (part, i, &told);
      if (_et_marker_is_kept (part->keep, i))
        {
          guint32 at;

          if (e < part->made->len && made[e].marker == i)
            {
              at = part->cursor[made[e].channel]++;
              part->self->markers[at] = made[e++].made;
            }
          else
            {
              at = part->cursor[m->thread]++;
              part->self->markers[at] = finish_marker (part, m, event);
            }
          if (k < n_cross && cross[k].marker == i)
            {
              EtCrossEnd moved = { at, cross[k++].thread };
              g_array_append_val (part->cross, moved);
            }
        }
      if (i + 1 - moved_to == SCATTER_SLICE)
        {
          et_memory_release (&part->markers[moved_to], SCATTER_SLICE * sizeof (EtPendingMarker));
          moved_to = i + 1;
        }
    }
  tell_pass (part, part->to, &told);
  return NULL;
}

void
_et_layout_channels (EtTrace *self, EtMapped *markers, const EtMarkerEvents *events,
                     guint n, GArray **cross_ends, const guint32 *keep,
                     EtTraceProgress *progress)
{
  guint k = et_workers_count (n, 1000000), n_channels, n_kept = 0;
  ChannelPart *parts = et_workers_new (k, sizeof *parts);
  gint64 clock = g_get_monotonic_time ();   /* the steps' own times (ETLSCOPE_TIMING) */

  for (guint j = 0; j < k; j++)
    parts[j] = (ChannelPart) { .markers = (EtPendingMarker *) (gpointer) markers->data, .events = events, .keep = keep,
                               .from = (guint32) ((guint64) n * j / k),
                               .to = (guint32) ((guint64) n * (j + 1) / k), .self = self,
                               .end_of_trace = et_trace_get_duration_ns (self),
                               .cross_in = *cross_ends,
                               .cross = g_array_new (FALSE, FALSE, sizeof (EtCrossEnd)),
                               .progress = progress };
  _et_trace_progress_begin (progress, ET_TRACE_PHASE_CHANNELS, 2 * (guint64) n);
  et_workers_run (parts, sizeof *parts, k, count_part, "etlscope-layout");
  _et_loader_phase_done ("- count", &clock);
  for (guint j = 0; j < k; j++)
    n_kept += parts[j].n_kept;
  self->markers = g_new (EtMarker, MAX (n_kept, 1));
  self->n_markers = n_kept;
  n_channels = join_threads (self, parts, k);
  _et_loader_phase_done ("- join", &clock);

  et_workers_run (parts, sizeof *parts, k, scatter_part, "etlscope-layout");
  for (guint j = 0; j < k; j++)
    {
      g_array_append_vals (self->cross_ends, parts[j].cross->data, parts[j].cross->len);
      g_array_unref (parts[j].cross);
      g_array_unref (parts[j].made);
      g_free (parts[j].cursor);
    }
  et_workers_free (parts);
  g_array_sort (self->cross_ends, _et_compare_cross_ends);
  et_mapped_clear (markers);
  g_clear_pointer (cross_ends, g_array_unref);
  _et_loader_phase_done ("- scatter", &clock);
  _et_layout_summarise (self, n_channels);
  _et_loader_phase_done ("- summary", &clock);
  _et_trace_progress_end (progress);
  self->stats.markers = n_kept;
}
