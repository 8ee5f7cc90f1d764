/* et-trace-summary.c — what loading keeps per thread and channel besides
 * the markers, once they are laid out (et-trace-channel-layout.c): each
 * thread's summary (its extent, depths and categories), read from its
 * markers on every core, and the block arrays of every channel of more
 * than a block, built on every core into arrays of each worker's own and
 * joined in channel order (a small channel's are built when first asked
 * for: a server's short-lived threads have hundreds of thousands). */
#include "et-trace-markers-private.h"
#include "et-memory.h"

/* Makes room in the empty @array for @n elements at once: a trace can
 * have hundreds of thousands of channels, each appended to every
 * per-channel array. */
void
_et_presize_array (GArray **array, guint n)
{
  GArray *sized = g_array_sized_new (FALSE, FALSE, g_array_get_element_size (*array), n);

  g_return_if_fail ((*array)->len == 0);
  g_array_unref (*array);
  *array = sized;
}

/* Threads [from, to) summarised by one worker, and the categories their
 * markers have. */
typedef struct
{
  EtTrace *self;
  guint    from, to;
  guint64  categories[G_N_ELEMENTS (((EtTrace *) NULL)->categories)];
} ET_WORKER_ITEM SummaryRange;

/* A thread's summary (EtThreadSummary), read from its markers at load,
 * with the categories it has and whether a span of it is open to the
 * end; its channels learn their thread here. Its channels' own info
 * waits until one is asked for, unless one has more than a block: their
 * block arrays are built now. */
static void
summarise_thread (EtTrace *self, guint thread, guint64 *categories)
{
  EtThread *t = &g_array_index (self->threads, EtThread, thread);
  EtThreadSummary s = { G_MAXINT64, G_MININT64, 0, 0, 0 };
  guint deepest = 0;
  gboolean large = FALSE;

  for (guint k = 0; k < t->n_channels; k++)
    {
      const EtChannel *c = &g_array_index (self->channels, EtChannel, t->first_channel + k);

      g_array_index (self->channel_thread, guint32, t->first_channel + k) = thread;
      large |= !_et_channel_is_lazy (c->n_markers);
      s.n_markers += c->n_markers;
      if (c->n_markers > 0)
        s.first_ns = MIN (s.first_ns, c->markers[0].start_ns);
      for (guint i = 0; i < c->n_markers; i++)
        {
          const EtMarker *m = &c->markers[i];

          deepest = MAX (deepest, _et_reach_marker (m, &s.last_ns, &s.depths));
          t->open_to_end |= m->status == ET_SPAN_UNMATCHED_START;
          if (m->category >= -1 && m->category <= 255)
            categories[(m->category + 1) / 64] |= G_GUINT64_CONSTANT (1) << ((m->category + 1) % 64);
        }
    }
  s.deepest = (guint8) MIN (deepest, G_MAXUINT8);
  self->thread_summaries[thread] = s;
  if (large)
    _et_trace_channel_info (self, t->first_channel);
}

static gpointer
summarise_range (gpointer data)
{
  SummaryRange *r = data;

  et_worker_begin ();
  for (guint t = r->from; t < r->to; t++)
    summarise_thread (r->self, t, r->categories);
  return NULL;
}

/* Every thread's summary, a range of threads of about as many markers on
 * each core (each reads its own markers: a pass over all of them). */
static void
summarise_threads (EtTrace *self)
{
  guint n = self->threads->len, k = et_workers_count (self->n_markers, 200000), t = 0;
  SummaryRange *ranges = et_workers_new (k, sizeof *ranges);
  guint64 seen = 0;

  for (guint r = 0; r < k; r++)
    {
      ranges[r].self = self;
      ranges[r].from = t;
      for (; t < n && (r + 1 == k || seen < self->n_markers * (r + 1) / k); t++)
        {
          const EtThread *thread = &g_array_index (self->threads, EtThread, t);

          for (guint c = 0; c < thread->n_channels; c++)
            seen += g_array_index (self->channels, EtChannel, thread->first_channel + c).n_markers;
        }
      ranges[r].to = t;
    }
  et_workers_run (ranges, sizeof *ranges, k, summarise_range, "etlscope-layout");
  for (guint r = 0; r < k; r++)
    for (guint w = 0; w < G_N_ELEMENTS (self->categories); w++)
      self->categories[w] |= ranges[r].categories[w];
  et_workers_free (ranges);
}

/* The channels [from, to) whose block arrays one worker builds (each of
 * more than a block: a small one gets its own when first asked for): the
 * first range into the trace's arrays, each other into arrays of its own,
 * joined to the trace's in channel order after. */
typedef struct
{
  EtTrace       *self;
  guint          from, to;
  EtBlockArrays *into;      /* the trace's arrays, or own */
  EtBlockArrays  own;
  GArray        *at;        /* EtArraysAt per channel with arrays, in *into */
} BlockRange;

static gpointer
build_block_range (gpointer data)
{
  BlockRange *r = data;

  et_worker_begin ();
  if (r->into == &r->own)
    _et_block_arrays_init (&r->own);
  r->at = g_array_new (FALSE, FALSE, sizeof (EtArraysAt));
  for (guint c = r->from; c < r->to; c++)
    {
      EtArraysAt at = { r->into->blocks->len, r->into->stretch_runs0->len,
                        r->into->loud->len };

      if (_et_channel_is_lazy (g_array_index (r->self->channels, EtChannel, c).n_markers))
        continue;
      g_array_append_val (r->at, at);
      _et_channel_build_blocks (r->self, c, r->into);
    }
  return NULL;
}

/* Appends @from's guint32 indices to @to, each @by more. */
static void
append_moved (GArray *to, const GArray *from, guint32 by)
{
  guint at = to->len;

  g_array_append_vals (to, from->data, from->len);
  for (guint i = at; i < to->len; i++)
    g_array_index (to, guint32, i) += by;
}

/* A range's channels' places, and its own arrays after those of the
 * ranges before it, their indices into each other moved along (the first
 * range's are the trace's already). */
static void
join_block_range (EtTrace *self, BlockRange *r)
{
  EtBlockArrays *a = &self->arrays, *b = &r->own;
  gboolean own = r->into == &r->own;
  EtArraysAt base = { 0, 0, 0 };
  guint32 none = ET_NO_INDEX;
  guint k = 0;

  if (own)
    base = (EtArraysAt) { a->blocks->len, a->stretch_runs0->len, a->loud->len };
  for (guint c = r->from; c < r->to; c++)
    {
      EtArraysAt at;

      if (_et_channel_is_lazy (g_array_index (self->channels, EtChannel, c).n_markers))
        {
          g_array_append_val (self->channel_at, none);
          continue;
        }
      at = g_array_index (r->at, EtArraysAt, k++);
      at.block0 += base.block0;
      at.stretch0 += base.stretch0;
      at.loud0 += base.loud0;
      g_array_append_val (self->channel_at, self->arrays_at->len);
      g_array_append_val (self->arrays_at, at);
    }
  g_array_unref (r->at);
  if (!own)
    return;
  append_moved (a->block_lanes0, b->block_lanes0, a->lane_runs->len);
  append_moved (a->stretch_runs0, b->stretch_runs0, a->stretch_runs->len);
  g_array_append_vals (a->blocks, b->blocks->data, b->blocks->len);
  g_array_append_vals (a->block_summaries, b->block_summaries->data, b->block_summaries->len);
  g_array_append_vals (a->lane_runs, b->lane_runs->data, b->lane_runs->len);
  g_array_append_vals (a->stretch_runs, b->stretch_runs->data, b->stretch_runs->len);
  g_array_append_vals (a->loud, b->loud->data, b->loud->len);
  _et_block_arrays_clear (b);
}

/* Every channel of more than a block gets its block arrays in the
 * trace's, ranges of channels of about as many markers on each core; a
 * small one when first asked for. */
static void
close_channels (EtTrace *self, guint n_channels)
{
  guint64 total = 0, seen = 0;
  guint k, c = 0;
  g_autofree BlockRange *ranges = NULL;

  for (guint i = 0; i < n_channels; i++)
    {
      guint n = g_array_index (self->channels, EtChannel, i).n_markers;

      total += _et_channel_is_lazy (n) ? 0 : n;
    }
  k = et_workers_count (total, 200000);
  ranges = g_new0 (BlockRange, k);
  for (guint r = 0; r < k; r++)
    {
      ranges[r].self = self;
      ranges[r].into = r == 0 ? &self->arrays : &ranges[r].own;
      ranges[r].from = c;
      for (; c < n_channels && (r + 1 == k || seen < total * (r + 1) / k); c++)
        {
          guint n = g_array_index (self->channels, EtChannel, c).n_markers;

          seen += _et_channel_is_lazy (n) ? 0 : n;
        }
      ranges[r].to = c;
    }
  et_workers_run (ranges, sizeof *ranges, k, build_block_range, "etlscope-layout");
  for (guint r = 0; r < k; r++)
    join_block_range (self, &ranges[r]);
}

void
_et_layout_summarise (EtTrace *self, guint n_channels)
{
  _et_presize_array (&self->channel_at, n_channels + 1);
  /* (each thread's channels' thread: written by summarise_thread) */
  _et_presize_array (&self->channel_thread, n_channels + 1);
  g_array_set_size (self->channel_thread, n_channels);
  self->channel_info_size = MAX (n_channels, 1) * sizeof (EtChannelInfo);
  self->channel_info = et_memory_zeroed (self->channel_info_size);
  self->thread_info_ready = g_new0 (gint, MAX (self->threads->len, 1));
  self->thread_summaries = g_new (EtThreadSummary, MAX (self->threads->len, 1));
  self->n_thread_summaries = self->threads->len;
  summarise_threads (self);
  close_channels (self, n_channels);
  g_array_append_val (self->arrays.block_lanes0, self->arrays.lane_runs->len);
  g_array_append_val (self->arrays.stretch_runs0, self->arrays.stretch_runs->len);
  {
    EtArraysAt end = { self->arrays.blocks->len, self->arrays.stretch_runs0->len,
                       self->arrays.loud->len };

    g_array_append_val (self->arrays_at, end);
  }
  self->lazy = g_new0 (EtBlockArrays *, MAX (self->channels->len, 1));
}

