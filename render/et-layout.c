/* et-layout.c — rows of the timeline (see et-layout.h). */
#include "et-layout-private.h"
#include "et-cpu-strip.h"

#include <string.h>

EtLayout *
et_layout_new (EtTrace *trace)
{
  EtLayout *l = g_new0 (EtLayout, 1);
  guint n = et_trace_get_n_channels (trace);

  l->trace = g_object_ref (trace);
  l->row_of_channel = g_new (gint, MAX (n, 1));
  l->collapsed = g_new0 (gboolean, MAX (et_trace_get_n_processes (trace), 1));
  l->process_depths = g_new0 (guint64, MAX (et_trace_get_n_processes (trace), 1));
  l->f.n_providers = et_trace_get_n_providers (trace);
  l->f.provider_hidden = g_new0 (gboolean, MAX (l->f.n_providers, 1));
  l->f.n_channels = n;
  l->f.channel_shown = g_new0 (gboolean, MAX (n, 1));
  l->series_hidden = g_hash_table_new (NULL, NULL);
  l->channel_hidden = g_new0 (gboolean, MAX (n, 1));
  l->channel_collapsed = g_new0 (gboolean, MAX (n, 1));
  l->channel_rank = g_new0 (gint, MAX (n, 1));
  l->process_rank = g_new0 (gint, MAX (et_trace_get_n_processes (trace), 1));
  l->rows = g_array_new (FALSE, FALSE, sizeof (EtRow));
  l->provider_rows = g_new0 (gboolean, MAX (l->f.n_providers, 1));
  for (guint c = 0; c < n; c++)
    l->provider_rows[et_channel_provider (et_trace_get_channel (trace, c))] = TRUE;
  et_layout_threads_init (l);
  et_layout_update (l, 18);
  return l;
}

void
et_layout_free (EtLayout *l)
{
  if (l == NULL)
    return;
  g_object_unref (l->trace);
  g_free (l->collapsed);
  g_free (l->process_depths);
  g_free (l->f.provider_hidden);
  g_free (l->provider_rows);
  g_free (l->f.channel_shown);
  g_hash_table_unref (l->series_hidden);
  g_free (l->channel_hidden);
  g_free (l->channel_collapsed);
  g_free (l->channel_rank);
  g_free (l->process_rank);
  g_free (l->row_of_channel);
  et_layout_threads_free (l);
  g_array_unref (l->rows);
  g_free (l);
}

/* A copy of @n items of @size, at least one so that it is never NULL. */
static gpointer
copy_items (gconstpointer items, gsize n, gsize size)
{
  return g_memdup2 (items, MAX (n, 1) * size);
}

EtLayout *
et_layout_copy (EtLayout *l)
{
  EtLayout *c = g_memdup2 (l, sizeof *l);
  guint n = et_trace_get_n_channels (l->trace), n_processes = et_trace_get_n_processes (l->trace);
  GHashTableIter iter;
  gpointer series;

  g_object_ref (c->trace);
  c->frozen = 0, c->stale = FALSE;   /* the copy lays out at once */
  c->collapsed = copy_items (l->collapsed, n_processes, sizeof (gboolean));
  c->process_depths = copy_items (l->process_depths, n_processes, sizeof (guint64));
  c->rows = g_array_copy (l->rows);
  c->row_of_channel = copy_items (l->row_of_channel, n, sizeof (gint));
  c->f.provider_hidden = copy_items (l->f.provider_hidden, l->f.n_providers, sizeof (gboolean));
  c->provider_rows = copy_items (l->provider_rows, l->f.n_providers, sizeof (gboolean));
  c->f.channel_shown = copy_items (l->f.channel_shown, n, sizeof (gboolean));
  c->series_hidden = g_hash_table_new (NULL, NULL);
  g_hash_table_iter_init (&iter, l->series_hidden);
  while (g_hash_table_iter_next (&iter, &series, NULL))
    g_hash_table_add (c->series_hidden, series);
  c->channel_hidden = copy_items (l->channel_hidden, n, sizeof (gboolean));
  c->channel_collapsed = copy_items (l->channel_collapsed, n, sizeof (gboolean));
  c->channel_rank = copy_items (l->channel_rank, n, sizeof (gint));
  c->process_rank = copy_items (l->process_rank, n_processes, sizeof (gint));
  et_layout_threads_copy (c, l);
  return c;
}

gboolean
et_layout_channel_shown (EtLayout *l, guint c)
{
  const EtChannel *ch = et_trace_get_channel (l->trace, c);

  return !l->f.provider_hidden[et_channel_provider (ch)] && !l->channel_hidden[c]
         && (g_hash_table_size (l->series_hidden) == 0
             || !g_hash_table_contains (l->series_hidden, GUINT_TO_POINTER (ch->series)));
}

typedef struct
{
  gint  rank;
  guint index;
} Ranked;

/* By rank, then in trace order: "move to top" only reorders what moved. */
static int
compare_ranked (gconstpointer a, gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The shown channels of @thread in drawing order. */
static GArray *
thread_channels (EtLayout *l, const EtThread *thread)
{
  GArray *channels = g_array_new (FALSE, FALSE, sizeof (Ranked));

  for (guint k = 0; k < thread->n_channels; k++)
    {
      Ranked r = { l->channel_rank[thread->first_channel + k], thread->first_channel + k };
      if (l->f.channel_shown[r.index])
        g_array_append_val (channels, r);
    }
  g_array_sort (channels, compare_ranked);
  return channels;
}

/* A thread's header, then its channels' rows; collapsed, the header is
 * as tall as its merged lanes and holds every channel's markers (in no
 * order: they have no rows of their own). */
static int
add_thread_rows (EtLayout *l, guint t, int y)
{
  const EtThread *thread = et_trace_get_thread (l->trace, t);
  g_autoptr(GArray) channels = NULL;
  gboolean merged = l->thread_merged[t];
  EtRow header = { ET_ROW_THREAD, t, y, l->lane_height + 4,
                   !merged ? 0 : l->compact ? 1 : l->thread_lanes[t] };

  if (merged)
    header.height = et_thread_strip_px (l->trace, t) + (int) header.lanes * l->lane_height + 2;
  l->row_of_thread[t] = (gint) l->rows->len;
  g_array_append_val (l->rows, header);
  y += header.height;
  if (merged)
    {
      for (guint k = 0; k < thread->n_channels; k++)
        if (l->f.channel_shown[thread->first_channel + k])
          l->row_of_channel[thread->first_channel + k] = l->row_of_thread[t];
      return y;
    }
  channels = thread_channels (l, thread);
  for (guint k = 0; k < channels->len; k++)
    {
      guint c = g_array_index (channels, Ranked, k).index;
      guint lanes = l->channel_collapsed[c] ? 1 : et_trace_channel_lanes (l->trace, c);
      EtRow row = { ET_ROW_CHANNEL, c, y, (int) lanes * l->lane_height + 2, lanes };

      l->row_of_channel[c] = (gint) l->rows->len;
      g_array_append_val (l->rows, row);
      y += row.height;
    }
  return y;
}

/* Whether @t has a row for the active range (et_layout_set_active_only):
 * its life meets it. Threads without markers (shown empty, or that only
 * ran) follow their own rule. */
gboolean
_et_layout_thread_active (EtLayout *l, guint t)
{
  const EtLayoutThread *s = &l->threads[t];

  return !l->active_only || s->n_markers == 0
         || (s->first_ns <= l->active_to
             && (s->last_ns >= l->active_from || et_trace_get_thread (l->trace, t)->open_to_end));
}

static int
add_process_rows (EtLayout *l, guint p, int y)
{
  guint from = l->ordered_at[p], to = l->ordered_at[p + 1], shown = 0;
  EtRow header = { ET_ROW_PROCESS, p, y, l->lane_height + 6, 0 };

  for (guint k = from; k < to && shown == 0; k++)
    shown += _et_layout_thread_active (l, l->ordered[k]);
  if (shown == 0)
    return y;                       /* processes without markers are not shown */
  if (l->collapsed[p])
    _et_layout_merge_process (l, p, &header);
  g_array_append_val (l->rows, header);
  y += header.height;
  for (guint k = from; k < to && !l->collapsed[p]; k++)
    if (_et_layout_thread_active (l, l->ordered[k]))
      y = add_thread_rows (l, l->ordered[k], y);
  return y;
}

void
et_layout_update (EtLayout *l, int lane_height)
{
  guint n_processes = et_trace_get_n_processes (l->trace);
  g_autoptr(GArray) processes = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_processes);
  int y = 0;

  l->lane_height = lane_height;
  l->stale = FALSE;                /* whatever changed while frozen is laid out now */
  g_array_set_size (l->rows, 0);
  memset (l->row_of_channel, 0xFF, MAX (l->f.n_channels, 1) * sizeof (gint));   /* -1: none */
  for (guint c = 0; l->shown_stale && c < l->f.n_channels; c++)
    l->f.channel_shown[c] = et_layout_channel_shown (l, c);
  et_layout_threads_update (l);
  l->order_stale |= l->shown_stale;
  l->shown_serial += l->shown_stale;
  l->shown_stale = FALSE;
  if (l->order_stale)
    et_layout_order_threads (l);
  for (guint p = 0; p < n_processes; p++)
    g_array_append_val (processes, p);
  /* Processes too by the threads' order (by first activity, the process
   * that began first on top), not by pid. */
  g_array_sort_with_data (processes, et_layout_compare_processes, l);
  for (guint k = 0; k < processes->len; k++)
    y = add_process_rows (l, g_array_index (processes, guint, k), y);
  l->height = y;
}

void
_et_layout_relayout (EtLayout *l)
{
  if (l->frozen > 0)
    l->stale = TRUE;
  else
    et_layout_update (l, l->lane_height);
}

void
et_layout_set_lane_height (EtLayout *l, int lane_height)
{
  if (lane_height == l->lane_height && !l->stale)
    return;
  l->lane_height = lane_height;
  _et_layout_relayout (l);
}

/* A switch of the whole layout: lays out again when it changes. */
static void
set_flag (EtLayout *l, gboolean *flag, gboolean on)
{
  if (*flag == !!on)
    return;
  *flag = !!on;
  _et_layout_relayout (l);
}

void
et_layout_set_compact (EtLayout *l, gboolean compact)
{
  set_flag (l, &l->compact, compact);
}

gboolean
et_layout_get_compact (EtLayout *l)
{
  return l->compact;
}

void
et_layout_set_active_only (EtLayout *l, gboolean active_only)
{
  set_flag (l, &l->active_only, active_only);
}

gboolean
et_layout_get_active_only (EtLayout *l)
{
  return l->active_only;
}

gboolean
et_layout_set_active_range (EtLayout *l, gint64 from_ns, gint64 to_ns)
{
  if (l->active_from == from_ns && l->active_to == to_ns)
    return FALSE;
  l->active_from = from_ns, l->active_to = to_ns;
  if (!l->active_only)
    return FALSE;
  _et_layout_relayout (l);
  return TRUE;
}

guint
et_layout_get_shown_serial (EtLayout *l)
{
  return l->shown_serial;
}

void
et_layout_freeze (EtLayout *l)
{
  l->frozen++;
}

void
et_layout_thaw (EtLayout *l)
{
  g_return_if_fail (l->frozen > 0);
  if (--l->frozen == 0 && l->stale)
    et_layout_update (l, l->lane_height);
}

/* The per-process, per-provider and per-channel switches: set one, lay out
 * again when it changed (a window restoring its filters sets every one:
 * each layout of a trace of 15,000 threads costs several milliseconds). */
static void
set_switch (EtLayout *l, gboolean *switches, guint index, guint n, gboolean on)
{
  g_return_if_fail (index < n);
  on = on != FALSE;
  if ((switches[index] != FALSE) == on)
    return;
  switches[index] = on;
  l->shown_stale |= switches == l->f.provider_hidden || switches == l->channel_hidden;
  _et_layout_relayout (l);
}

static gboolean
get_switch (const gboolean *switches, guint index, guint n)
{
  g_return_val_if_fail (index < n, FALSE);
  return switches[index];
}

void
et_layout_set_collapsed (EtLayout *l, guint process, gboolean collapsed)
{
  set_switch (l, l->collapsed, process, et_trace_get_n_processes (l->trace), collapsed);
}

gboolean
et_layout_get_collapsed (EtLayout *l, guint process)
{
  return get_switch (l->collapsed, process, et_trace_get_n_processes (l->trace));
}

guint
et_layout_n_rows (EtLayout *l)
{
  return l->rows->len;
}

const EtRow *
et_layout_row (EtLayout *l, guint index)
{
  g_return_val_if_fail (index < l->rows->len, NULL);
  return &g_array_index (l->rows, EtRow, index);
}

int
et_layout_height (EtLayout *l)
{
  return l->height;
}

const EtRow *
et_layout_channel_row (EtLayout *l, guint channel)
{
  g_return_val_if_fail (channel < et_trace_get_n_channels (l->trace), NULL);
  return l->row_of_channel[channel] < 0 ? NULL
         : &g_array_index (l->rows, EtRow, l->row_of_channel[channel]);
}

void
et_layout_set_provider_visible (EtLayout *l, guint provider, gboolean visible)
{
  /* A provider with no channel (its events are not markers: the kernel's,
   * the runtime's unless asked for) changes no row. */
  if (provider < l->f.n_providers && !l->provider_rows[provider])
    l->f.provider_hidden[provider] = !visible;
  else
    set_switch (l, l->f.provider_hidden, provider, l->f.n_providers, !visible);
}

gboolean
et_layout_get_provider_visible (EtLayout *l, guint provider)
{
  return provider < l->f.n_providers && !l->f.provider_hidden[provider];
}

/* The filters on single markers lay nothing out themselves (the caller
 * does, once for all it changed), but leave the rows to be laid out
 * again (et_layout_set_lane_height, et_layout_thaw). */
void
et_layout_set_min_importance (EtLayout *l, EtImportance importance)
{
  l->stale |= l->f.min_importance != importance;
  l->f.min_importance = importance;
}

EtImportance
et_layout_get_min_importance (EtLayout *l)
{
  return l->f.min_importance;
}

guint
et_layout_get_kinds (EtLayout *l)
{
  return l->f.kinds;
}

void
et_layout_set_kinds (EtLayout *l, guint kinds)
{
  l->stale |= l->f.kinds != kinds;
  l->f.kinds = kinds;
}

static gboolean
category_hidden (const EtLayoutFilter *f, gint16 category)
{
  return category >= -1 && category < N_CATEGORIES - 1 && f->category_hidden[category + 1];
}

gboolean
et_layout_filter_marker (const EtLayoutFilter *f, const EtMarker *m)
{
  return m->importance >= f->min_importance && (f->kinds == 0 || (f->kinds & (1u << m->kind)))
         && !f->provider_hidden[m->provider] && !category_hidden (f, m->category);
}

gboolean
et_layout_filter_channel (const EtLayoutFilter *f, guint channel)
{
  return channel < f->n_channels && f->channel_shown[channel];
}

EtLayoutFilter *
et_layout_filter_copy (EtLayout *l)
{
  EtLayoutFilter *f = g_memdup2 (&l->f, sizeof l->f);

  f->provider_hidden = copy_items (l->f.provider_hidden, f->n_providers, sizeof (gboolean));
  f->channel_shown = copy_items (l->f.channel_shown, f->n_channels, sizeof (gboolean));
  return f;
}

void
et_layout_filter_free (EtLayoutFilter *f)
{
  if (f == NULL)
    return;
  g_free (f->provider_hidden);
  g_free (f->channel_shown);
  g_free (f);
}

gboolean
et_layout_marker_visible (EtLayout *l, const EtMarker *m)
{
  return et_layout_filter_marker (&l->f, m);
}

void
et_layout_set_category_visible (EtLayout *l, gint16 category, gboolean visible)
{
  g_return_if_fail (category >= -1 && category < N_CATEGORIES - 1);
  if (l->f.category_hidden[category + 1] == !visible)
    return;
  l->stale = TRUE;
  l->f.category_hidden[category + 1] = !visible;
  l->f.n_hidden_categories += visible ? -1 : 1;
}

gboolean
et_layout_get_category_visible (EtLayout *l, gint16 category)
{
  return !category_hidden (&l->f, category);
}

void
et_layout_set_series_visible (EtLayout *l, guint32 series, gboolean visible)
{
  gboolean changed = visible ? g_hash_table_remove (l->series_hidden, GUINT_TO_POINTER (series))
                             : g_hash_table_add (l->series_hidden, GUINT_TO_POINTER (series));

  l->shown_stale |= changed;
  if (changed)
    _et_layout_relayout (l);
}

gboolean
et_layout_get_series_visible (EtLayout *l, guint32 series)
{
  return !g_hash_table_contains (l->series_hidden, GUINT_TO_POINTER (series));
}

void
et_layout_set_channel_visible (EtLayout *l, guint channel, gboolean visible)
{
  set_switch (l, l->channel_hidden, channel, l->f.n_channels, !visible);
}

gboolean
et_layout_get_channel_visible (EtLayout *l, guint channel)
{
  return channel < l->f.n_channels && !l->channel_hidden[channel];
}

guint
et_layout_n_hidden_channels (EtLayout *l)
{
  guint n = 0;

  for (guint c = 0; c < et_trace_get_n_channels (l->trace); c++)
    n += l->channel_hidden[c];
  return n;
}

void
et_layout_show_all_channels (EtLayout *l)
{
  memset (l->channel_hidden, 0, et_trace_get_n_channels (l->trace) * sizeof (gboolean));
  l->shown_stale = TRUE;
  _et_layout_relayout (l);
}

void
et_layout_set_channel_collapsed (EtLayout *l, guint channel, gboolean collapsed)
{
  set_switch (l, l->channel_collapsed, channel, l->f.n_channels, collapsed);
}

gboolean
et_layout_get_channel_collapsed (EtLayout *l, guint channel)
{
  return get_switch (l->channel_collapsed, channel, l->f.n_channels);
}

gboolean
et_layout_channel_merged (EtLayout *l, guint channel)
{
  guint thread = et_trace_channel_thread (l->trace, channel);

  return l->thread_merged[thread] || l->collapsed[et_trace_get_thread (l->trace, thread)->process];
}

/* Merged, by the depths of the thread's shown channels together: depth is
 * thread-wide, so spans of one depth never overlap in the merged row
 * (compact: all in its one lane). */
guint64
et_layout_row_depths (EtLayout *l, guint channel, gboolean *one_lane)
{
  guint thread = et_trace_channel_thread (l->trace, channel);
  guint process = et_trace_get_thread (l->trace, thread)->process;

  /* A collapsed process merges its threads' rows as a thread its channels. */
  if (l->collapsed[process])
    {
      *one_lane = l->compact;
      return l->process_depths[process];
    }
  *one_lane = l->thread_merged[thread] ? l->compact : l->channel_collapsed[channel];
  return l->thread_merged[thread] ? l->thread_depths[thread]
                                  : et_trace_channel_depth_mask (l->trace, channel);
}

guint
et_layout_lane (EtLayout *l, guint channel, const EtMarker *m)
{
  gboolean one_lane;
  guint64 used = et_layout_row_depths (l, channel, &one_lane);

  return one_lane ? 0 : et_lane_of_depth (used, m->depth);
}

guint
et_layout_row_index (EtLayout *l, const EtRow *row)
{
  g_return_val_if_fail (row >= &g_array_index (l->rows, EtRow, 0)
                        && row < &g_array_index (l->rows, EtRow, l->rows->len), 0);
  return (guint) (row - &g_array_index (l->rows, EtRow, 0));
}

void
et_layout_move_channel_to_top (EtLayout *l, guint channel)
{
  guint thread;

  g_return_if_fail (channel < et_trace_get_n_channels (l->trace));
  thread = et_trace_channel_thread (l->trace, channel);
  l->channel_rank[channel] = --l->next_rank;
  l->thread_rank[thread] = l->next_rank;
  l->process_rank[et_trace_get_thread (l->trace, thread)->process] = l->next_rank;
  l->order_stale = TRUE;
  _et_layout_relayout (l);
}

gboolean
et_layout_kind_visible (EtLayout *l, EtMarkerKind kind)
{
  return l->f.kinds == 0 || (l->f.kinds & (1u << kind));
}

/* Keep in step with et_layout_marker_visible: everything it tests besides
 * the kind and the provider (which hold for a whole channel). */
gboolean
et_layout_filters_single_markers (EtLayout *l)
{
  return l->f.min_importance > ET_IMPORTANCE_LOW || l->f.n_hidden_categories > 0;
}

void
et_layout_row_label (EtLayout *l, const EtRow *row, GString *out)
{
  if (row->kind == ET_ROW_PROCESS)
    {
      const EtProcess *p = et_trace_get_process (l->trace, row->index);
      char plain[32];

      /* A process the trace does not name is "Process 10064", not
       * "Process 10064 (10064)" (as et_thread_label says a thread). */
      g_snprintf (plain, sizeof plain, "Process %u", p->pid);
      if (p->has_ids && strcmp (p->name, plain) != 0)
        g_string_append_printf (out, "%s (%u)", p->name, p->pid);
      else
        g_string_append (out, p->name);
    }
  else if (row->kind == ET_ROW_THREAD)
    et_thread_label (et_trace_get_thread (l->trace, row->index), out);
  else
    {
      const EtChannel *c = et_trace_get_channel (l->trace, row->index);
      const char *series = et_trace_get_string (l->trace, c->series);
      const char *provider = et_trace_get_provider (l->trace, et_channel_provider (c))->name;

      if (*series != '\0')
        g_string_append_printf (out, "%s: %s", series, provider);
      else
        g_string_append (out, provider);
    }
}
