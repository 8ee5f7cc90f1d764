/* et-stats-pane.c — the Statistics report (see et-stats-pane.h).
 *
 *   range + layout filters (copied) ─ GTask thread: et_stats_compute ─ rows
 *     ─ order (row indices sorted by the clicked column) ─ EtReportTable
 *
 * A range has a few dozen rows, not millions; they are drawn by the same
 * table as the Markers report, which redraws the rows on screen when a
 * count comes in (a column view built every row's cells anew: 35–50 ms
 * for 60 rows, on every range change). Counting walks every marker of the
 * range, so it runs on a thread from a copy of the filters, and only while
 * the pane is shown: a range set while it is hidden is counted when it is
 * mapped. A newer range cancels the count of an older one. The span
 * rows' CPU samples (et-stats-samples.h) follow in a second phase on a
 * thread: they need the stacks, built on first use, and the rows are
 * shown without waiting for them.
 */
#include "et-stats-pane.h"
#include "et-histogram-view.h"
#include "et-i18n.h"
#include "et-report-table.h"
#include "et-stats-samples.h"
#include "et-timeline-render.h"

/* ---- the pane ------------------------------------------------------------- */

struct _EtStatsPane
{
  GtkBox               parent_instance;
  GtkLabel            *heading;
  EtReportTable       *view;
  GArray              *rows;        /* EtStatsRow, in the model's order */
  GArray              *samples;     /* guint64 per row: CPU samples (NULL: no stacks) */
  GArray              *order;       /* guint: rows' indices in the order shown */
  EtStatsColumn        sort;
  gboolean             descending;
  EtTrace             *trace;
  EtLayout            *layout;
  gint64               from_ns, to_ns;
  gboolean             has_range;
  gboolean             dirty;       /* the range or filters changed while hidden */
  GCancellable        *cancellable; /* of the count in progress */
  GtkWidget           *histogram_box;
  GtkLabel            *histogram_label;
  GtkCheckButton      *histogram_log;
  EtHistogramView     *histogram;
  EtStatsRow           histogram_row;   /* the span row it shows */
};

/* Bars of a duration histogram. */
#define HISTOGRAM_BINS 40

enum { SIGNAL_FIND_SPANS, SIGNAL_OPEN_CALL_TREE, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (EtStatsPane, et_stats_pane, GTK_TYPE_BOX)

/* Shown translated. */
static const char *const column_titles[ET_STATS_N_COLUMNS] = {
  N_("Provider"), N_("Series"), N_("Kind"), N_("Count"), N_("Total"), N_("Min"), N_("Mean"),
  "p50", "p90", "p99", N_("Max"), N_("CPU samples"),
};

/* A duration column's value, or -1 for flags and messages (so that they
 * sort below every span in a descending order). */
static gint64
duration_of (const EtStatsRow *row, EtStatsColumn column)
{
  const gint64 values[] = { row->total_ns, row->min_ns, row->mean_ns, row->p50_ns,
                            row->p90_ns, row->p99_ns, row->max_ns };

  if (row->kind != ET_MARKER_SPAN)
    return -1;
  return values[column - ET_STATS_COL_TOTAL];
}

/* A span row's CPU samples, or -1 (flags, messages, no stacks). */
static gint64
samples_of (EtStatsPane *self, const EtStatsRow *row)
{
  if (row->kind != ET_MARKER_SPAN || self->samples == NULL)
    return -1;
  return (gint64) g_array_index (self->samples, guint64,
                                 row - (const EtStatsRow *) (gconstpointer) self->rows->data);
}

static void
cell_text (EtStatsPane *self, const EtStatsRow *row, EtStatsColumn column, GString *out)
{
  switch (column)
    {
    case ET_STATS_COL_PROVIDER:
      g_string_append (out, et_trace_get_provider (self->trace, row->provider)->name);
      break;
    case ET_STATS_COL_SERIES:
      g_string_append (out, et_trace_get_string (self->trace, row->series));
      break;
    case ET_STATS_COL_KIND:
      g_string_append (out, et_i18n_marker_kind (row->kind));
      break;
    case ET_STATS_COL_COUNT:
      et_i18n_count (row->count, out);
      break;
    case ET_STATS_COL_SAMPLES:
      if (samples_of (self, row) >= 0)
        g_string_append_printf (out, "%'" G_GINT64_FORMAT, samples_of (self, row));
      else
        g_string_append (out, "\342\200\224");
      break;
    default:
      if (row->kind == ET_MARKER_SPAN)
        et_format_duration_display (duration_of (row, column), out);
      else
        g_string_append (out, "\342\200\224");   /* an em dash: no durations */
      break;
    }
}

static int
compare_strings (const char *a, const char *b)
{
  return g_utf8_collate (a, b);
}

/* Rows @a and @b (indices) in the chosen column's order; ties go by the
 * model's order (provider, series, kind), so that a sort is always the
 * same. */
static int
compare_rows (gconstpointer pa, gconstpointer pb, gpointer data)
{
  EtStatsPane *self = data;
  guint ia = *(const guint *) pa, ib = *(const guint *) pb;
  const EtStatsRow *a = &g_array_index (self->rows, EtStatsRow, ia);
  const EtStatsRow *b = &g_array_index (self->rows, EtStatsRow, ib);
  int c = 0;

  if (self->sort == ET_STATS_COL_PROVIDER)
    c = compare_strings (et_trace_get_provider (self->trace, a->provider)->name,
                         et_trace_get_provider (self->trace, b->provider)->name);
  else if (self->sort == ET_STATS_COL_SERIES)
    c = compare_strings (et_trace_get_string (self->trace, a->series),
                         et_trace_get_string (self->trace, b->series));
  else if (self->sort == ET_STATS_COL_KIND)
    c = (int) a->kind - (int) b->kind;
  else if (self->sort == ET_STATS_COL_COUNT)
    c = (a->count > b->count) - (a->count < b->count);
  else if (self->sort == ET_STATS_COL_SAMPLES)
    c = (samples_of (self, a) > samples_of (self, b)) - (samples_of (self, a) < samples_of (self, b));
  else
    {
      gint64 x = duration_of (a, self->sort), y = duration_of (b, self->sort);
      c = (x > y) - (x < y);
    }
  if (self->descending)
    c = -c;
  return c != 0 ? c : (ia > ib) - (ia < ib);
}

/* The rows in the current order; the selected row stays selected. */
static void
sort_rows (EtStatsPane *self)
{
  guint selected = et_report_table_get_selected (self->view), chosen = G_MAXUINT;

  if (selected < self->order->len)
    chosen = g_array_index (self->order, guint, selected);
  g_array_set_size (self->order, self->rows->len);
  for (guint i = 0; i < self->rows->len; i++)
    g_array_index (self->order, guint, i) = i;
  if (self->trace != NULL)
    g_qsort_with_data (self->order->data, (gint) self->order->len, sizeof (guint), compare_rows, self);
  et_report_table_set_n_rows (self->view, self->order->len);
  for (guint i = 0; i < self->order->len && chosen != G_MAXUINT; i++)
    if (g_array_index (self->order, guint, i) == chosen)
      {
        et_report_table_set_selected (self->view, i);
        et_report_table_scroll_to (self->view, i);
      }
}

static const EtStatsRow *
shown_row (EtStatsPane *self, guint row)
{
  if (self->order == NULL || row >= self->order->len)   /* or disposed */
    return NULL;
  return &g_array_index (self->rows, EtStatsRow, g_array_index (self->order, guint, row));
}

static void
table_cell (guint row, guint column, GString *out, gpointer data)
{
  EtStatsPane *self = data;
  const EtStatsRow *r = shown_row (self, row);

  if (r != NULL && self->trace != NULL)
    cell_text (self, r, column, out);
}

static void
add_columns (EtStatsPane *self)
{
  EtReportColumn columns[ET_STATS_N_COLUMNS];

  for (guint c = 0; c < ET_STATS_N_COLUMNS; c++)
    /* Names to the left, numbers to the right; the series take the rest. */
    columns[c] = (EtReportColumn) { c < ET_STATS_COL_P50 || c >= ET_STATS_COL_MAX
                                    ? _(column_titles[c]) : column_titles[c],
                                    c == ET_STATS_COL_PROVIDER ? 16 : c == ET_STATS_COL_SERIES ? 10
                                    : c == ET_STATS_COL_KIND ? 8 : c == ET_STATS_COL_COUNT ? 7 : 10,
                                    TRUE, c >= ET_STATS_COL_COUNT, c == ET_STATS_COL_SERIES };
  et_report_table_set_columns (self->view, columns, ET_STATS_N_COLUMNS, table_cell, self);
}

/* ---- counting on a thread ------------------------------------------------- */

typedef struct
{
  EtTrace        *trace;
  EtLayoutFilter *filter;
  gint64          from_ns, to_ns;
  GArray         *rows;       /* the CPU samples' phase: the rows counted */
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_object_unref (job->trace);
  g_clear_pointer (&job->filter, et_layout_filter_free);
  g_clear_pointer (&job->rows, g_array_unref);
  g_free (job);
}

static gboolean
layout_channel (EtTrace *trace, guint channel, gpointer data)
{
  return et_layout_filter_channel (data, channel);
}

static gboolean
layout_marker (const EtMarker *m, gpointer data)
{
  return et_layout_filter_marker (data, m);
}

static void
count_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  EtStatsFilter filter = { layout_channel, layout_marker, job->filter };

  g_task_return_pointer (task, et_stats_compute (job->trace, job->from_ns, job->to_ns, &filter),
                         (GDestroyNotify) g_array_unref);
}

/* The span rows' CPU samples, a second phase: they need the trace's
 * stacks, built on first use (seconds on a large trace), and the rows
 * need not wait for them. NULL without stacks. */
static void
samples_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  EtStatsFilter filter = { layout_channel, layout_marker, job->filter };

  g_task_return_pointer (task, et_stats_span_samples (job->trace, job->from_ns, job->to_ns,
                                                      &filter, job->rows),
                         (GDestroyNotify) g_array_unref);
}

static void
set_heading (EtStatsPane *self)
{
  g_autoptr(GString) from = g_string_new (NULL), to = g_string_new (NULL);
  guint n = self->rows->len;
  g_autofree char *text = NULL;

  et_format_time_display (self->from_ns, from);
  et_format_time_display (self->to_ns, to);
  /* Translators: the Statistics report's heading, "From 1.5 s to 2 s: 12 rows"
   * (a row is one provider × series × kind). */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "From %s to %s: %u row",
                                       "From %s to %s: %u rows", n), from->str, to->str, n);
  gtk_label_set_text (self->heading, text);
}

/* No row chosen: no histogram. */
static void
hide_histogram (EtStatsPane *self)
{
  gtk_widget_set_visible (self->histogram_box, FALSE);
  et_histogram_view_set_histogram (self->histogram, NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stats.call-tree", FALSE);
}

/* New rows and their samples (taken; may be NULL): none is selected, as
 * none was chosen among them. */
static void
set_rows (EtStatsPane *self, GArray *rows, GArray *samples)
{
  g_array_unref (self->rows);
  self->rows = rows;
  g_clear_pointer (&self->samples, g_array_unref);
  self->samples = samples;
  et_report_table_set_selected (self->view, ET_REPORT_NONE);
  hide_histogram (self);
  sort_rows (self);
}

static void
samples_counted (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtStatsPane) self = data;
  GArray *samples = g_task_propagate_pointer (G_TASK (result), NULL);

  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&samples, g_array_unref);
      return;                                 /* a newer count follows */
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->samples, g_array_unref);
  self->samples = samples;
  sort_rows (self);                           /* (they may be the order; cells drawn again) */
}

static void
counted (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtStatsPane) self = data;
  GArray *rows = g_task_propagate_pointer (G_TASK (result), NULL);
  Job *job = g_task_get_task_data (G_TASK (result)), *next;
  g_autoptr(GTask) task = NULL;

  if (rows == NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_pointer (&rows, g_array_unref);
      return;                                 /* cancelled: a newer count follows */
    }
  set_rows (self, rows, NULL);
  set_heading (self);
  /* Their CPU samples next, in the same filters, under the same cancellable. */
  next = g_new0 (Job, 1);
  next->trace = g_object_ref (job->trace);
  next->filter = g_steal_pointer (&job->filter);
  next->from_ns = job->from_ns;
  next->to_ns = job->to_ns;
  next->rows = g_array_ref (rows);
  task = g_task_new (NULL, self->cancellable, samples_counted, g_object_ref (self));
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, next, job_free);
  g_task_run_in_thread (task, samples_in_thread);
}

static void
start_count (EtStatsPane *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  self->dirty = FALSE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->trace == NULL || !self->has_range)
    return;
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->trace = g_object_ref (self->trace);
  job->filter = et_layout_filter_copy (self->layout);
  job->from_ns = self->from_ns;
  job->to_ns = self->to_ns;
  /* A cancelled count still runs to its end; its rows are dropped. */
  task = g_task_new (NULL, self->cancellable, counted, g_object_ref (self));
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, count_in_thread);
}

/* The histogram of the chosen span row, in the range and filters the
 * table was counted with (one series' markers: quick enough here). */
static void
show_histogram (EtStatsPane *self)
{
  g_autoptr(EtLayoutFilter) filter = et_layout_filter_copy (self->layout);
  EtStatsFilter f = { layout_channel, layout_marker, filter };
  const EtStatsRow *row = &self->histogram_row;
  g_autofree char *text = NULL;

  et_histogram_view_set_histogram (self->histogram,
                                   et_stats_histogram (self->trace, self->from_ns, self->to_ns, &f,
                                                       row->provider, row->series, HISTOGRAM_BINS,
                                                       gtk_check_button_get_active (self->histogram_log)));
  /* Translators: over a duration histogram: the series and its provider */
  text = g_strdup_printf (_("Durations of %s (%s)"), et_trace_get_string (self->trace, row->series),
                          et_trace_get_provider (self->trace, row->provider)->name);
  gtk_label_set_text (self->histogram_label, text);
  gtk_widget_set_visible (self->histogram_box, TRUE);
}

static void
on_row_selected (EtReportTable *table, guint row, gpointer data)
{
  EtStatsPane *self = data;
  const EtStatsRow *r = shown_row (self, row);

  if (r == NULL || r->kind != ET_MARKER_SPAN || self->trace == NULL)
    {
      hide_histogram (self);
      return;
    }
  self->histogram_row = *r;
  show_histogram (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stats.call-tree", TRUE);
}

/* The chosen span row's spans, in the range and filters the table was
 * counted with, for the Call Tree ("open-call-tree"); one series'
 * markers, quick enough here, as its histogram is. */
static void
call_tree_action (GtkWidget *widget, const char *action, GVariant *parameter)
{
  EtStatsPane *self = ET_STATS_PANE (widget);
  const EtStatsRow *row = &self->histogram_row;
  g_autoptr(EtLayoutFilter) copy = NULL;
  g_autoptr(GArray) ranges = NULL;
  g_autoptr(GString) from = g_string_new (NULL), to = g_string_new (NULL);
  g_autofree char *count = NULL, *scope = NULL;
  EtStatsFilter filter = { layout_channel, layout_marker, NULL };

  if (self->trace == NULL || !gtk_widget_get_visible (self->histogram_box))
    return;
  copy = et_layout_filter_copy (self->layout);
  filter.data = copy;
  ranges = et_stats_span_ranges (self->trace, self->from_ns, self->to_ns, &filter, row->provider,
                                 row->series);
  count = g_strdup_printf ("%'u", ranges->len);
  et_format_time_display (self->from_ns, from);
  et_format_time_display (self->to_ns, to);
  /* Translators: the Call Tree's scope: a Statistics row's spans, "47 spans of
   * JIT (Microsoft-Windows-DotNETRuntime) from 1.5 s to 2 s" */
  scope = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s span of %s (%s) from %s to %s",
                                        "%s spans of %s (%s) from %s to %s", ranges->len),
                           count, et_trace_get_string (self->trace, row->series),
                           et_trace_get_provider (self->trace, row->provider)->name, from->str,
                           to->str);
  g_signal_emit (self, signals[SIGNAL_OPEN_CALL_TREE], 0, ranges, scope);
}

/* A header was clicked. */
static void
on_sort_changed (EtReportTable *table, guint column, gboolean descending, gpointer data)
{
  EtStatsPane *self = data;

  self->sort = (EtStatsColumn) column;
  self->descending = descending;
  sort_rows (self);
}

static void
on_histogram_log_toggled (GtkCheckButton *check, gpointer data)
{
  EtStatsPane *self = data;

  if (gtk_widget_get_visible (self->histogram_box) && self->trace != NULL)
    show_histogram (self);
}

static void
on_histogram_selected (EtHistogramView *view, gint64 min_ns, gint64 max_ns, gpointer data)
{
  EtStatsPane *self = data;

  g_signal_emit (self, signals[SIGNAL_FIND_SPANS], 0, (guint) self->histogram_row.provider,
                 (guint) self->histogram_row.series, min_ns, max_ns);
}

static void
on_map (GtkWidget *widget, gpointer data)
{
  EtStatsPane *self = ET_STATS_PANE (widget);

  if (self->dirty)
    start_count (self);
}

/* ---- the rest ---------------------------------------------------------------- */

static void
et_stats_pane_dispose (GObject *object)
{
  EtStatsPane *self = ET_STATS_PANE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->samples, g_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), ET_TYPE_STATS_PANE);
  G_OBJECT_CLASS (et_stats_pane_parent_class)->dispose (object);
}

static void
et_stats_pane_class_init (EtStatsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = et_stats_pane_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-stats-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, heading);
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, view);
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, histogram_box);
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, histogram_label);
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, histogram_log);
  gtk_widget_class_bind_template_child (widget_class, EtStatsPane, histogram);
  gtk_widget_class_bind_template_callback (widget_class, on_histogram_log_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_histogram_selected);
  /* A range of a span row's histogram: (provider, series, min_ns, max_ns). */
  signals[SIGNAL_FIND_SPANS] =
    g_signal_new ("find-spans", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_INT64, G_TYPE_INT64);
  /* A span row's call tree asked for: (GArray of EtCallRange, one a span;
   * the scope's words, translated). */
  signals[SIGNAL_OPEN_CALL_TREE] =
    g_signal_new ("open-call-tree", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_ARRAY, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "stats.call-tree", NULL, call_tree_action);
  /* (Enter on a span row: the table itself activates nothing) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "stats.call-tree", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "stats.call-tree", NULL);
}

static void
et_stats_pane_init (EtStatsPane *self)
{
  g_type_ensure (ET_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (ET_TYPE_REPORT_TABLE);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_array_new (FALSE, FALSE, sizeof (EtStatsRow));
  self->order = g_array_new (FALSE, FALSE, sizeof (guint));
  add_columns (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stats.call-tree", FALSE);
  g_signal_connect (self->view, "row-selected", G_CALLBACK (on_row_selected), self);
  g_signal_connect (self->view, "sort-changed", G_CALLBACK (on_sort_changed), self);
  /* Where did the time go: the most first. */
  et_stats_pane_set_sort (self, ET_STATS_COL_TOTAL, TRUE);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

GtkWidget *
et_stats_pane_new (void)
{
  return g_object_new (ET_TYPE_STATS_PANE, NULL);
}

void
et_stats_pane_set_trace (EtStatsPane *self, EtTrace *trace, EtLayout *layout)
{
  g_return_if_fail (ET_IS_STATS_PANE (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_set_object (&self->trace, trace);
  set_rows (self, g_array_new (FALSE, FALSE, sizeof (EtStatsRow)), NULL);
  self->layout = layout;
  self->has_range = FALSE;
  gtk_label_set_text (self->heading, "");
}

void
et_stats_pane_set_range (EtStatsPane *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (ET_IS_STATS_PANE (self));
  self->from_ns = from_ns;
  self->to_ns = to_ns;
  self->has_range = TRUE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    start_count (self);
  else
    self->dirty = TRUE;
}

gboolean
et_stats_pane_get_range (EtStatsPane *self, gint64 *from_ns, gint64 *to_ns)
{
  g_return_val_if_fail (ET_IS_STATS_PANE (self), FALSE);
  *from_ns = self->from_ns;
  *to_ns = self->to_ns;
  return self->has_range;
}

gboolean
et_stats_pane_is_busy (EtStatsPane *self)
{
  g_return_val_if_fail (ET_IS_STATS_PANE (self), FALSE);
  return self->cancellable != NULL || (self->dirty && gtk_widget_get_mapped (GTK_WIDGET (self)));
}

void
et_stats_pane_set_sort (EtStatsPane *self, EtStatsColumn column, gboolean descending)
{
  g_return_if_fail (ET_IS_STATS_PANE (self) && (guint) column < ET_STATS_N_COLUMNS);
  et_report_table_set_sort (self->view, (int) column, descending);
  on_sort_changed (self->view, column, descending, self);
}

guint
et_stats_pane_get_n_rows (EtStatsPane *self)
{
  g_return_val_if_fail (ET_IS_STATS_PANE (self), 0);
  return self->order->len;
}

const EtStatsRow *
et_stats_pane_get_row (EtStatsPane *self, guint row)
{
  g_return_val_if_fail (ET_IS_STATS_PANE (self), NULL);
  return shown_row (self, row);
}

char *
et_stats_pane_cell_text (EtStatsPane *self, guint row, EtStatsColumn column)
{
  const EtStatsRow *r = et_stats_pane_get_row (self, row);
  GString *text = g_string_new (NULL);

  if (r != NULL)
    cell_text (self, r, column, text);
  return g_string_free (text, FALSE);
}

EtHistogramView *
et_stats_pane_get_histogram (EtStatsPane *self)
{
  g_return_val_if_fail (ET_IS_STATS_PANE (self), NULL);
  return gtk_widget_get_visible (self->histogram_box) ? self->histogram : NULL;
}

void
et_stats_pane_select_row (EtStatsPane *self, guint row)
{
  g_return_if_fail (ET_IS_STATS_PANE (self));
  et_report_table_set_selected (self->view, row);
  on_row_selected (self->view, row, self);
}
