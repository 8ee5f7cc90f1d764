/* et-markers-list.c — the Markers report (see et-markers-list.h).
 *
 *   trace channels ─ et_channel_query (visible range) ─ filters ─ Ref[]
 *     ─ sorted in place (no objects) ─ EtReportTable (draws the rows on
 *     screen, asks cell_text for them) ─ selection → "marker-selected"
 *
 * Large ranges are collected and sorted on a thread from a copy of the
 * filters (the old rows stay until then), so the window never stalls.
 */
#include "et-markers-list.h"
#include "et-workers.h"
#include "et-report-table.h"
#include "et-i18n.h"
#include "et-release.h"
#include "et-timeline-render.h"
#include "et-trace-decode.h"

#include <string.h>

typedef struct
{
  guint32 channel;
  guint32 index;
} Ref;

/* ---- the widget ------------------------------------------------------------- */

/* The text comes third: it is what a row is about, and the columns after
 * it scroll out of a narrow pane first. */
enum { COL_START, COL_DURATION, COL_TEXT, COL_THREAD, COL_PROVIDER, COL_SERIES, COL_CATEGORY,
       COL_IMPORTANCE, COL_KIND, N_COLUMNS };

/* The order a column's header sorts by (the text does not sort: it would
 * decode every row's event), and back. */
static const int sort_of_column[N_COLUMNS] = {
  [COL_START] = ET_SORT_START, [COL_DURATION] = ET_SORT_DURATION, [COL_TEXT] = -1,
  [COL_THREAD] = ET_SORT_THREAD, [COL_PROVIDER] = ET_SORT_PROVIDER, [COL_SERIES] = ET_SORT_SERIES,
  [COL_CATEGORY] = ET_SORT_CATEGORY, [COL_IMPORTANCE] = ET_SORT_IMPORTANCE, [COL_KIND] = ET_SORT_KIND,
};

static guint
column_of_sort (EtMarkerSort sort)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    if (sort_of_column[c] == (int) sort)
      return c;
  g_return_val_if_reached (COL_START);
}

struct _EtMarkersList
{
  GtkBox               parent_instance;
  EtTrace             *trace;
  EtLayout            *layout;
  GArray              *refs;       /* the rows, in order */
  EtReportTable       *view;
  GtkLabel            *count;
  EtMarkerSort         sort;
  gboolean             descending;
  guint                generation;      /* of the newest refresh */
  guint                pending;         /* refreshes running on a thread */
  guint                async_threshold; /* candidates from which refreshes use a thread */
  gint64               from_ns, to_ns;  /* the range shown (et_markers_list_set_range) */
  EtMarkersZone        zone;            /* spans of one series and durations, or none */
  GtkWidget           *zone_clear;      /* the zone's chip (click or Escape: all again) */
  GtkLabel            *zone_label;
  GtkWidget           *busy;            /* "Sorting…" and a spinner, while on a thread */
};

G_DEFINE_FINAL_TYPE (EtMarkersList, et_markers_list, GTK_TYPE_BOX)

enum { SIGNAL_MARKER_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const EtMarker *
marker_of (EtMarkersList *self, const Ref *r)
{
  return &et_trace_get_channel (self->trace, r->channel)->markers[r->index];
}

static gboolean
has_duration (const EtMarker *m)
{
  return m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END;
}

static gint64
duration_of (const EtMarker *m)
{
  return has_duration (m) ? m->end_ns - m->start_ns : 0;
}

/* What sorting needs, apart from the widget, so it can run on a thread. */
typedef struct
{
  EtTrace      *trace;
  EtMarkerSort  sort;
  gboolean      descending;
} SortBy;

static const EtMarker *
marker_in (EtTrace *trace, const Ref *r)
{
  return &et_trace_get_channel (trace, r->channel)->markers[r->index];
}

static guint32
tid_of (EtTrace *trace, const Ref *r)
{
  return et_trace_get_thread (trace, et_trace_channel_thread (trace, r->channel))->tid;
}

static const char *
series_of (EtTrace *trace, const Ref *r)
{
  return et_trace_get_string (trace, et_trace_get_channel (trace, r->channel)->series);
}

/* Strings compare by their text, everything else by a number. */
static int
compare_key (const SortBy *by, const Ref *a, const Ref *b)
{
  const EtMarker *x = marker_in (by->trace, a), *y = marker_in (by->trace, b);
  gint64 kx = 0, ky = 0;

  switch (by->sort)
    {
    case ET_SORT_DURATION:   kx = duration_of (x), ky = duration_of (y); break;
    case ET_SORT_IMPORTANCE: kx = x->importance, ky = y->importance; break;
    case ET_SORT_CATEGORY:   kx = x->category, ky = y->category; break;
    case ET_SORT_KIND:       kx = x->kind, ky = y->kind; break;
    case ET_SORT_THREAD:     kx = tid_of (by->trace, a), ky = tid_of (by->trace, b); break;
    case ET_SORT_PROVIDER:
      return g_strcmp0 (et_trace_get_provider (by->trace, x->provider)->name,
                        et_trace_get_provider (by->trace, y->provider)->name);
    case ET_SORT_SERIES:
      return g_strcmp0 (series_of (by->trace, a), series_of (by->trace, b));
    case ET_SORT_START:
      break;
    }
  return kx < ky ? -1 : kx > ky;
}

/* Time order: start, then event (a total order: an event makes one
 * marker at most). */
static inline int
time_order (const EtMarker *x, const EtMarker *y)
{
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return x->event < y->event ? -1 : x->event > y->event;
}

static int
compare_refs (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortBy *by = data;
  int order;

  /* By duration, markers without one (flags, messages, lone ends) come
   * after every span, either way: a first click shows the shortest spans,
   * not a page of flags. */
  if (by->sort == ET_SORT_DURATION)
    {
      gboolean x = has_duration (marker_in (by->trace, a)), y = has_duration (marker_in (by->trace, b));

      if (x != y)
        return x ? -1 : 1;
    }
  order = compare_key (by, a, b);

  /* Ties (and the start column itself) go by time. */
  if (order == 0)
    order = time_order (marker_in (by->trace, a), marker_in (by->trace, b));
  return by->descending ? -order : order;
}

static void
set_count (EtMarkersList *self, guint n)
{
  g_autoptr(GString) count = g_string_new (NULL);
  g_autofree char *text = NULL;

  et_i18n_count (n, count);
  if (self->zone.on)
    {
      g_autoptr(GString) lo = g_string_new (NULL), hi = g_string_new (NULL);
      g_autofree char *chip = NULL;

      et_format_duration_display (self->zone.min_ns, lo);
      et_format_duration_display (self->zone.max_ns, hi);
      /* Translators: the report while it lists one series' spans of a
       * duration range: count, series, shortest and longest duration */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s span of %s lasting %s to %s",
                                           "%s spans of %s lasting %s to %s", n),
                              count->str, et_trace_get_string (self->trace, self->zone.series),
                              lo->str, hi->str);
      /* Translators: the chip of a duration histogram's filter on the
       * Markers report: series, shortest and longest duration. */
      chip = g_strdup_printf (_("%s: %s to %s"), et_trace_get_string (self->trace, self->zone.series),
                              lo->str, hi->str);
      gtk_label_set_text (self->zone_label, chip);
    }
  else
    /* Translators: %s is a number already grouped for the locale */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s marker", "%s markers", n), count->str);

  gtk_label_set_text (self->count, text);
}

/* The filters as they were when a refresh started: the collecting thread
 * reads this copy, never the layout the main loop may be changing. */
typedef struct
{
  EtTrace       *trace;       /* a reference */
  gint64         from_ns, to_ns;
  EtLayoutFilter *filter;     /* a copy: collecting may run on a thread */
  SortBy         by;
  guint          generation;
  Ref            chosen;      /* the marker to select once shown, or channel G_MAXUINT32 */
  EtMarkersZone  zone;
  GArray        *refs;
} Collect;

/* Whether a marker of a channel of @provider and @series is in @zone: a
 * span with both ends, starting in the range, lasting min_ns ≤ d < max_ns
 * (what the statistics count and their histogram bins). */
static gboolean
in_zone (const EtMarkersZone *zone, const EtMarker *m, gint64 from_ns, gint64 to_ns)
{
  gint64 d = m->end_ns - m->start_ns;

  return m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_START
         && m->status != ET_SPAN_UNMATCHED_END && m->start_ns >= from_ns && m->start_ns < to_ns
         && d >= zone->min_ns && d < zone->max_ns;
}

static void
collect_free (gpointer data)
{
  Collect *c = data;

  g_object_unref (c->trace);
  et_layout_filter_free (c->filter);
  g_clear_pointer (&c->refs, g_array_unref);
  g_free (c);
}

/* Whether marker @a comes before @b (time_order). */
static inline gboolean
earlier (const EtMarker *const *markers, const Ref *a, const Ref *b)
{
  return time_order (&markers[a->channel][a->index], &markers[b->channel][b->index]) < 0;
}

/* Sorts @refs by time when they come as runs already in time order (a
 * channel's markers are): runs [bounds[r], bounds[r + 1]) are merged two
 * by two until one is left, each pass reading its runs front to back,
 * which costs about log2(runs) steps per marker where a sort costs
 * log2(markers) comparisons through a callback. */
static void
merge_time_runs (EtTrace *trace, GArray *refs, GArray *bounds)
{
  guint n = refs->len, n_runs = bounds->len - 1;
  g_autofree const EtMarker **markers = g_new (const EtMarker *, et_trace_get_n_channels (trace));
  g_autofree Ref *spare = g_new (Ref, MAX (n, 1));
  guint32 *at = (guint32 *) (gpointer) bounds->data;
  Ref *from = (Ref *) (gpointer) refs->data, *to = spare;

  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    markers[c] = et_trace_get_channel (trace, c)->markers;
  for (; n_runs > 1; n_runs = (n_runs + 1) / 2)
    {
      Ref *swap;

      for (guint r = 0; r < n_runs; r += 2)
        {
          guint i = at[r], mid = at[MIN (r + 1, n_runs)], end = at[MIN (r + 2, n_runs)], o = i;
          guint j = mid;

          while (i < mid && j < end)
            to[o++] = earlier (markers, &from[j], &from[i]) ? from[j++] : from[i++];
          memcpy (to + o, from + i, (mid - i) * sizeof (Ref));
          memcpy (to + o + (mid - i), from + j, (end - j) * sizeof (Ref));
          at[r / 2] = at[r];
        }
      at[(n_runs + 1) / 2] = n;
      swap = from, from = to, to = swap;
    }
  if (from != (Ref *) (gpointer) refs->data)
    memcpy (refs->data, from, n * sizeof (Ref));
}

static void
collect (Collect *c)
{
  g_autoptr(GArray) bounds = g_array_new (FALSE, FALSE, sizeof (guint32));

  c->refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  for (guint ch_index = 0; ch_index < et_trace_get_n_channels (c->trace); ch_index++)
    {
      const EtChannel *ch = et_trace_get_channel (c->trace, ch_index);
      guint end, i = et_channel_query (c->trace, ch_index, c->from_ns, c->to_ns, &end);

      if (!et_layout_filter_channel (c->filter, ch_index)
          || (c->zone.on && (et_channel_provider (ch) != c->zone.provider || ch->series != c->zone.series)))
        continue;
      g_array_append_val (bounds, c->refs->len);
      for (; i < end; i++)
        {
          const EtMarker *m = &ch->markers[i];

          if (et_marker_overlaps (m, c->from_ns, c->to_ns) && et_layout_filter_marker (c->filter, m)
              && (!c->zone.on || in_zone (&c->zone, m, c->from_ns, c->to_ns)))
            {
              Ref r = { ch_index, i };
              g_array_append_val (c->refs, r);
            }
        }
    }
  g_array_append_val (bounds, c->refs->len);
  if (c->by.sort != ET_SORT_START)
    {
      g_qsort_with_data (c->refs->data, (gint) c->refs->len, sizeof (Ref), compare_refs, &c->by);
      return;
    }
  /* A channel's markers are in time order: merged, not sorted. */
  merge_time_runs (c->trace, c->refs, bounds);
  if (c->by.descending)
    for (guint i = 0, j = c->refs->len; i + 1 < j; i++, j--)
      {
        Ref swap = g_array_index (c->refs, Ref, i);

        g_array_index (c->refs, Ref, i) = g_array_index (c->refs, Ref, j - 1);
        g_array_index (c->refs, Ref, j - 1) = swap;
      }
}

static void
collect_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  et_worker_begin ();
  collect (data);
  g_task_return_boolean (task, TRUE);
}

/* Rows from which the array they leave goes back on a thread: a million
 * rows are 8 MB, which the kernel takes milliseconds to unmap. */
#define RELEASE_IN_BACKGROUND_FROM (1u << 20)

static void
show_refs (EtMarkersList *self, Collect *c)
{
  /* Sorted in the current order: a header clicked meanwhile started a
   * newer refresh (resort), and this one is not shown (collected). */
  set_count (self, c->refs->len);
  if (self->refs->len >= RELEASE_IN_BACKGROUND_FROM)
    et_release_in_background (self->refs, (GDestroyNotify) g_array_unref);
  else
    g_array_unref (self->refs);
  self->refs = g_steal_pointer (&c->refs);
  et_report_table_set_n_rows (self->view, self->refs->len);
  /* The chosen marker's row is scrolled to; without one the new rows are
   * read from their first (a new order or range is not read from the
   * middle, where the old rows were scrolled to). */
  if (c->chosen.channel == G_MAXUINT32
      || !et_markers_list_show_marker (self, c->chosen.channel, c->chosen.index))
    et_report_table_scroll_to (self->view, 0);
}

/* A large range is collected and sorted on a thread (seconds for most of
 * a million rows): the report says so meanwhile, its old rows still
 * usable. */
static void
show_busy (EtMarkersList *self)
{
  gtk_widget_set_visible (self->busy, self->pending > 0);
}

static void
collected (GObject *source, GAsyncResult *result, gpointer data)
{
  Collect *c = g_task_get_task_data (G_TASK (result));
  g_autoptr(EtMarkersList) self = data;

  self->pending--;
  show_busy (self);
  /* A newer refresh started meanwhile: its result will come. */
  if (c->generation == self->generation && self->trace == c->trace)
    show_refs (self, c);
}

static Collect *
collect_new (EtMarkersList *self, gint64 from_ns, gint64 to_ns, Ref chosen)
{
  Collect *c = g_new0 (Collect, 1);

  c->trace = g_object_ref (self->trace);
  c->from_ns = from_ns, c->to_ns = to_ns;
  c->chosen = chosen;
  c->filter = et_layout_filter_copy (self->layout);
  c->zone = self->zone;
  c->by = (SortBy) { self->trace, self->sort, self->descending };
  c->generation = ++self->generation;
  return c;
}

/* The rows of the range, sorted, then @chosen selected (if it is there). */
static void
refresh (EtMarkersList *self, gint64 from_ns, gint64 to_ns, Ref chosen)
{
  g_autoptr(GTask) task = NULL;
  guint64 candidates = 0;
  Collect *c;

  if (self->trace == NULL)
    return;
  self->from_ns = from_ns, self->to_ns = to_ns;
  c = collect_new (self, from_ns, to_ns, chosen);
  /* Counted until they are many: a server's trace has hundreds of
   * thousands of channels, and a wide range is many at once. */
  for (guint ch = 0; ch < et_trace_get_n_channels (self->trace)
                     && candidates < self->async_threshold; ch++)
    {
      guint end, first = et_channel_query (self->trace, ch, from_ns, to_ns, &end);
      candidates += end - first;
    }
  if (candidates < self->async_threshold)
    {
      collect (c);                     /* small: at once, no frame is missed */
      show_refs (self, c);
      collect_free (c);
      return;
    }
  /* Large: collect and sort on a thread; the old rows stay until then.
   * The task may be finalized on that thread, so it holds nothing of
   * GTK: the list is the callback's data, let go on the main loop. */
  task = g_task_new (NULL, NULL, collected, g_object_ref (self));
  g_task_set_task_data (task, c, collect_free);
  self->pending++;
  show_busy (self);
  g_task_run_in_thread (task, collect_in_thread);
}

/* The marker of the selected row, or channel G_MAXUINT32. */
static Ref
selected_ref (EtMarkersList *self)
{
  guint selected = et_report_table_get_selected (self->view);

  if (selected < self->refs->len)
    return g_array_index (self->refs, Ref, selected);
  return (Ref) { G_MAXUINT32, G_MAXUINT32 };
}

void
et_markers_list_set_range (EtMarkersList *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (ET_IS_MARKERS_LIST (self));
  /* The selected marker stays selected (and in sight) when the range
   * still holds it. */
  refresh (self, from_ns, to_ns, selected_ref (self));
}

/* The rows in the new order, the selected marker still selected wherever
 * it lands. A refresh of the same range: a large one collects and sorts
 * on a thread (millions of rows take seconds to sort), and one that was
 * on its way is superseded by it. */
static void
resort (EtMarkersList *self)
{
  refresh (self, self->from_ns, self->to_ns, selected_ref (self));
}

void
et_markers_list_set_zone (EtMarkersList *self, const EtMarkersZone *zone)
{
  g_return_if_fail (ET_IS_MARKERS_LIST (self));
  self->zone = zone != NULL ? *zone : (EtMarkersZone) { FALSE };
  self->zone.on = zone != NULL;
  gtk_widget_set_visible (self->zone_clear, self->zone.on);
  refresh (self, self->from_ns, self->to_ns, (Ref) { G_MAXUINT32, G_MAXUINT32 });
}

const EtMarkersZone *
et_markers_list_get_zone (EtMarkersList *self)
{
  g_return_val_if_fail (ET_IS_MARKERS_LIST (self), NULL);
  return self->zone.on ? &self->zone : NULL;
}

static void
on_zone_clear (GtkButton *button, gpointer data)
{
  et_markers_list_set_zone (data, NULL);
}

gboolean
et_markers_list_is_busy (EtMarkersList *self)
{
  g_return_val_if_fail (ET_IS_MARKERS_LIST (self), FALSE);
  return self->pending > 0;
}

void
et_markers_list_set_async_threshold (EtMarkersList *self, guint markers)
{
  g_return_if_fail (ET_IS_MARKERS_LIST (self));
  self->async_threshold = markers;
}

/* ---- columns --------------------------------------------------------------- */

/* Shown translated. */
static const char *const column_titles[N_COLUMNS] = {
  N_("Start"), N_("Duration"), N_("Text"), N_("Thread"), N_("Provider"), N_("Series"),
  N_("Category"), N_("Importance"), N_("Kind"),
};

/* One cell's text: translated and in the user's number format. */
static void
cell_text (EtMarkersList *self, const Ref *r, guint column, GString *out)
{
  const EtMarker *m = marker_of (self, r);
  const EtThread *t;

  switch (column)
    {
    case COL_START:
      et_format_duration_display (m->start_ns, out);
      break;
    case COL_DURATION:
      if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
        et_format_duration_display (duration_of (m), out);
      break;
    case COL_THREAD:
      t = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, r->channel));
      et_thread_label (t, out);
      break;
    case COL_PROVIDER:
      g_string_append (out, et_trace_get_provider (self->trace, m->provider)->name);
      break;
    case COL_SERIES:
      g_string_append (out, series_of (self->trace, r));
      break;
    case COL_CATEGORY:
      g_string_append_printf (out, "%d", m->category);
      break;
    case COL_IMPORTANCE:
      g_string_append (out, et_i18n_importance (m->importance));
      break;
    case COL_KIND:
      g_string_append (out, et_i18n_marker_kind (m->kind));
      if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_OK)
        g_string_append_printf (out, " (%s)", et_i18n_span_status (m->status));
      break;
    case COL_TEXT:
      {
        gsize from = out->len;

        /* One line per row: a text's line breaks show as ⏎ (the details
         * pane has the text as it is). */
        et_trace_marker_text (self->trace, m, out);
        for (gsize i = from; i < out->len; i++)
          if (out->str[i] == '\r' && i + 1 < out->len && out->str[i + 1] == '\n')
            g_string_erase (out, (gssize) i, 1), i--;
          else if (out->str[i] == '\n' || out->str[i] == '\r')
            {
              g_string_erase (out, (gssize) i, 1);
              g_string_insert (out, (gssize) i, " \u23CE ");
              i += strlen (" \u23CE ") - 1;
            }
      }
      break;
    }
}

/* The table asks for the cells of the rows it draws. */
static void
table_cell (guint row, guint column, GString *out, gpointer data)
{
  EtMarkersList *self = data;

  if (self->trace != NULL && row < self->refs->len)
    cell_text (self, &g_array_index (self->refs, Ref, row), column, out);
}

static void
add_columns (EtMarkersList *self)
{
  /* Widths in characters; the text takes the rest, at least its share. */
  static const struct { guint width; gboolean numeric; } shape[N_COLUMNS] = {
    [COL_START] = { 12, TRUE }, [COL_DURATION] = { 11, TRUE }, [COL_THREAD] = { 29, FALSE },
    [COL_PROVIDER] = { 16, FALSE }, [COL_SERIES] = { 10, FALSE }, [COL_CATEGORY] = { 3, TRUE },
    [COL_IMPORTANCE] = { 7, FALSE }, [COL_KIND] = { 9, FALSE }, [COL_TEXT] = { 36, FALSE },
  };
  EtReportColumn columns[N_COLUMNS];

  for (guint c = 0; c < N_COLUMNS; c++)
    columns[c] = (EtReportColumn) { _(column_titles[c]), shape[c].width, sort_of_column[c] >= 0,
                                    shape[c].numeric, c == COL_TEXT };
  et_report_table_set_columns (self->view, columns, N_COLUMNS, table_cell, self);
}

/* ---- the rest ---------------------------------------------------------------- */

static void
on_row_selected (EtReportTable *table, guint row, gpointer data)
{
  EtMarkersList *self = data;
  const Ref *r;

  if (row >= self->refs->len)
    return;
  r = &g_array_index (self->refs, Ref, row);
  g_signal_emit (self, signals[SIGNAL_MARKER_SELECTED], 0, r->channel, r->index);
}

/* A header was clicked: the rows in its order. */
static void
on_sort_changed (EtReportTable *table, guint column, gboolean descending, gpointer data)
{
  EtMarkersList *self = data;

  self->sort = (EtMarkerSort) sort_of_column[column];
  self->descending = descending;
  if (self->trace != NULL)
    resort (self);
}

static void
et_markers_list_dispose (GObject *object)
{
  EtMarkersList *self = ET_MARKERS_LIST (object);

  g_clear_object (&self->trace);
  self->layout = NULL;
  G_OBJECT_CLASS (et_markers_list_parent_class)->dispose (object);
}

static void
et_markers_list_finalize (GObject *object)
{
  g_clear_pointer (&ET_MARKERS_LIST (object)->refs, g_array_unref);
  G_OBJECT_CLASS (et_markers_list_parent_class)->finalize (object);
}

static void
et_markers_list_class_init (EtMarkersListClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_markers_list_dispose;
  G_OBJECT_CLASS (klass)->finalize = et_markers_list_finalize;
  g_type_ensure (ET_TYPE_REPORT_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-markers-list.ui");
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, view);
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, count);
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, zone_clear);
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, zone_label);
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, busy);
  gtk_widget_class_bind_template_callback (widget_class, on_zone_clear);
  signals[SIGNAL_MARKER_SELECTED] =
    g_signal_new ("marker-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
}

static void
et_markers_list_init (EtMarkersList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->async_threshold = 50000;
  self->refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  add_columns (self);
  et_report_table_set_sort (self->view, COL_START, FALSE);
  g_signal_connect (self->view, "row-selected", G_CALLBACK (on_row_selected), self);
  g_signal_connect (self->view, "sort-changed", G_CALLBACK (on_sort_changed), self);
}

GtkWidget *
et_markers_list_new (void)
{
  return g_object_new (ET_TYPE_MARKERS_LIST, NULL);
}

void
et_markers_list_set_trace (EtMarkersList *self, EtTrace *trace, EtLayout *layout)
{
  g_set_object (&self->trace, trace);
  self->layout = layout;
}

void
et_markers_list_set_sort (EtMarkersList *self, EtMarkerSort sort, gboolean descending)
{
  g_return_if_fail (ET_IS_MARKERS_LIST (self) && (guint) sort <= ET_SORT_KIND);
  et_report_table_set_sort (self->view, (int) column_of_sort (sort), descending);
  on_sort_changed (self->view, column_of_sort (sort), descending, self);
}

guint
et_markers_list_get_n_rows (EtMarkersList *self)
{
  return self->refs->len;
}

gboolean
et_markers_list_get_row (EtMarkersList *self, guint row, guint *channel, guint *index)
{
  const Ref *r;

  if (row >= self->refs->len)
    return FALSE;
  r = &g_array_index (self->refs, Ref, row);
  *channel = r->channel;
  *index = r->index;
  return TRUE;
}

void
et_markers_list_select_row (EtMarkersList *self, guint row)
{
  g_return_if_fail (ET_IS_MARKERS_LIST (self));
  if (row >= self->refs->len)
    return;
  et_report_table_set_selected (self->view, row);
  et_report_table_scroll_to (self->view, row);
  on_row_selected (self->view, row, self);
}

gboolean
et_markers_list_show_marker (EtMarkersList *self, guint channel, guint index)
{
  guint row = ET_REPORT_NONE, lo = 0, hi;
  SortBy by;
  Ref wanted = { channel, index };

  g_return_val_if_fail (ET_IS_MARKERS_LIST (self), FALSE);
  /* The rows are sorted by the current order, a total one (ties go by
   * time, then event): a binary search finds the marker's row, also among
   * the millions of a whole large trace. */
  by = (SortBy) { self->trace, self->sort, self->descending };
  hi = channel == G_MAXUINT ? 0 : self->refs->len;
  while (self->trace != NULL && lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (compare_refs (&g_array_index (self->refs, Ref, mid), &wanted, &by) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->refs->len)
    {
      const Ref *ref = &g_array_index (self->refs, Ref, lo);
      if (ref->channel == channel && ref->index == index)
        row = lo;
    }
  /* Quietly: the timeline already shows this marker. */
  et_report_table_set_selected (self->view, row);
  if (row == ET_REPORT_NONE)
    return FALSE;
  et_report_table_scroll_to (self->view, row);
  return TRUE;
}

/* The export is a file for other programs, like the CLI's machine formats:
 * times in integer nanoseconds from the trace's start (no units, no
 * locale), the names and values `etlscope-cli markers --format=csv` uses,
 * one line per row of the report, in its order. */
static const char csv_header[] = "kind,status,start_ns,end_ns,duration_ns,pid,process,tid,thread,"
                                 "provider,series,category,importance,text";

static void
csv_int (GString *line, gboolean present, gint64 value)
{
  g_string_append_c (line, ',');
  if (present)
    et_string_append_int (line, value);
}

static void
csv_text (GString *line, const char *text)
{
  g_string_append_c (line, ',');
  et_string_append_csv (line, text, -1);
}

static void
csv_row (EtMarkersList *self, const Ref *r, GString *line, GString *text)
{
  const EtMarker *m = marker_of (self, r);
  const EtThread *t = et_trace_get_thread (self->trace,
                                           et_trace_channel_thread (self->trace, r->channel));
  gboolean span = m->kind == ET_MARKER_SPAN;
  gboolean has_start = m->status != ET_SPAN_UNMATCHED_END;
  gboolean has_end = span && m->status != ET_SPAN_UNMATCHED_START;

  g_string_append (line, et_marker_kind_to_string (m->kind));
  csv_text (line, et_span_status_to_string (m->status));
  csv_int (line, has_start, m->start_ns);
  /* Unmatched ends carry their own time in start_ns (et-trace.h). */
  csv_int (line, has_end, has_start ? m->end_ns : m->start_ns);
  csv_int (line, has_start && has_end, m->end_ns - m->start_ns);
  csv_int (line, TRUE, t->pid);
  csv_text (line, et_trace_get_process (self->trace, t->process)->name);
  csv_int (line, TRUE, t->tid);
  csv_text (line, t->name);
  csv_text (line, et_trace_get_provider (self->trace, m->provider)->name);
  csv_text (line, series_of (self->trace, r));
  csv_int (line, TRUE, m->category);
  csv_text (line, et_importance_to_string (m->importance));
  g_string_truncate (text, 0);
  et_trace_marker_text (self->trace, m, text);
  csv_text (line, text->str);
  g_string_append (line, "\r\n");
}

gboolean
et_markers_list_write_csv (EtMarkersList *self, const char *path, GError **error)
{
  g_autoptr(GString) out = g_string_new (csv_header);
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append (out, "\r\n");
  for (guint i = 0; i < self->refs->len; i++)
    csv_row (self, &g_array_index (self->refs, Ref, i), out, text);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}
