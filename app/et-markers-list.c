/* et-markers-list.c — the Markers report (see et-markers-list.h).
 *
 *   trace channels ─ et_channel_query (visible range) ─ filters ─ Ref[]
 *     ─ sorted in place (no objects) ─ RowModel (GListModel, rows made lazily)
 *     ─ GtkColumnView ─ selection → "marker-selected" (channel, index)
 *
 * Sorting is ours, not a GtkSortListModel's: that would ask for every row
 * object to compare them. The column headers still show and change the
 * order; see read_header_sort ().
 */
#include "et-markers-list.h"
#include "et-i18n.h"
#include "et-timeline-render.h"

#include <string.h>

typedef struct
{
  guint32 channel;
  guint32 index;
} Ref;

/* ---- a row, made only when shown ------------------------------------------ */

#define ET_TYPE_MARKER_ROW (et_marker_row_get_type ())
G_DECLARE_FINAL_TYPE (EtMarkerRow, et_marker_row, ET, MARKER_ROW, GObject)

struct _EtMarkerRow
{
  GObject parent_instance;
  Ref     ref;
};

G_DEFINE_FINAL_TYPE (EtMarkerRow, et_marker_row, G_TYPE_OBJECT)

static void et_marker_row_class_init (EtMarkerRowClass *klass) {}
static void et_marker_row_init (EtMarkerRow *self) {}

/* ---- the list model over Ref[] -------------------------------------------- */

#define ET_TYPE_ROW_MODEL (et_row_model_get_type ())
G_DECLARE_FINAL_TYPE (EtRowModel, et_row_model, ET, ROW_MODEL, GObject)

struct _EtRowModel
{
  GObject parent_instance;
  GArray *refs;
};

static GType
row_model_item_type (GListModel *model)
{
  return ET_TYPE_MARKER_ROW;
}

static guint
row_model_n_items (GListModel *model)
{
  return ET_ROW_MODEL (model)->refs->len;
}

static gpointer
row_model_item (GListModel *model, guint position)
{
  EtRowModel *self = ET_ROW_MODEL (model);
  EtMarkerRow *row;

  if (position >= self->refs->len)
    return NULL;
  row = g_object_new (ET_TYPE_MARKER_ROW, NULL);
  row->ref = g_array_index (self->refs, Ref, position);
  return row;
}

static void
row_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = row_model_item_type;
  iface->get_n_items = row_model_n_items;
  iface->get_item = row_model_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (EtRowModel, et_row_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, row_model_iface_init))

static void
et_row_model_finalize (GObject *object)
{
  g_array_unref (ET_ROW_MODEL (object)->refs);
  G_OBJECT_CLASS (et_row_model_parent_class)->finalize (object);
}

static void
et_row_model_class_init (EtRowModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = et_row_model_finalize;
}

static void
et_row_model_init (EtRowModel *self)
{
  self->refs = g_array_new (FALSE, FALSE, sizeof (Ref));
}

/* ---- the widget ------------------------------------------------------------- */

enum { COL_START, COL_DURATION, COL_THREAD, COL_PROVIDER, COL_SERIES, COL_CATEGORY,
       COL_IMPORTANCE, COL_KIND, COL_TEXT, N_COLUMNS };

typedef struct
{
  EtMarkersList *list;
  guint          column;
} HeaderProbe;

struct _EtMarkersList
{
  GtkBox               parent_instance;
  EtTrace             *trace;
  EtLayout            *layout;
  EtRowModel          *model;
  GtkSingleSelection  *selection;
  GtkColumnView       *view;
  GtkLabel            *count;
  GtkColumnViewColumn *columns[N_COLUMNS];
  HeaderProbe          probes[N_COLUMNS];
  guint                probe_hit;    /* 1 + the column whose sorter ran first */
  EtMarkerSort         sort;
  gboolean             descending;
  gboolean             selecting;
};

G_DEFINE_FINAL_TYPE (EtMarkersList, et_markers_list, GTK_TYPE_BOX)

enum { SIGNAL_MARKER_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const EtMarker *
marker_of (EtMarkersList *self, const Ref *r)
{
  return &et_trace_get_channel (self->trace, r->channel)->markers[r->index];
}

static gint64
duration_of (const EtMarker *m)
{
  return m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END ? m->end_ns - m->start_ns : 0;
}

static const char *
provider_name (EtMarkersList *self, const EtMarker *m)
{
  return et_trace_get_provider (self->trace, m->provider)->name;
}

/* Strings compare by their text, everything else by a number. */
static int
compare_key (EtMarkersList *self, const Ref *a, const Ref *b)
{
  const EtMarker *x = marker_of (self, a), *y = marker_of (self, b);
  gint64 kx = 0, ky = 0;

  switch (self->sort)
    {
    case ET_SORT_DURATION:   kx = duration_of (x), ky = duration_of (y); break;
    case ET_SORT_IMPORTANCE: kx = x->importance, ky = y->importance; break;
    case ET_SORT_CATEGORY:   kx = x->category, ky = y->category; break;
    case ET_SORT_KIND:       kx = x->kind, ky = y->kind; break;
    case ET_SORT_THREAD:
      kx = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, a->channel))->tid;
      ky = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, b->channel))->tid;
      break;
    case ET_SORT_PROVIDER:
      return g_strcmp0 (provider_name (self, x), provider_name (self, y));
    case ET_SORT_SERIES:
      return g_strcmp0 (et_trace_get_string (self->trace, x->series),
                        et_trace_get_string (self->trace, y->series));
    case ET_SORT_START:
      break;
    }
  return kx < ky ? -1 : kx > ky;
}

static int
compare_refs (gconstpointer a, gconstpointer b, gpointer data)
{
  EtMarkersList *self = data;
  const EtMarker *x = marker_of (self, a), *y = marker_of (self, b);
  int order = compare_key (self, a, b);

  /* Ties (and the start column itself) go by time, then event. */
  if (order == 0 && x->start_ns != y->start_ns)
    order = x->start_ns < y->start_ns ? -1 : 1;
  if (order == 0)
    order = x->event < y->event ? -1 : x->event > y->event;
  return self->descending ? -order : order;
}

static void
resort (EtMarkersList *self)
{
  guint n = self->model->refs->len;

  g_qsort_with_data (self->model->refs->data, (gint) n, sizeof (Ref), compare_refs, self);
  g_list_model_items_changed (G_LIST_MODEL (self->model), 0, n, n);
}

void
et_markers_list_set_range (EtMarkersList *self, gint64 from_ns, gint64 to_ns)
{
  GArray *refs = self->model->refs;
  guint old = refs->len;
  g_autofree char *text = NULL;

  g_array_set_size (refs, 0);
  for (guint c = 0; self->trace != NULL && c < et_trace_get_n_channels (self->trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (self->trace, c);
      guint end, i = et_channel_query (self->trace, c, from_ns, to_ns, &end);

      if (!et_layout_get_provider_visible (self->layout, ch->provider))
        continue;
      for (; i < end; i++)
        if (et_marker_overlaps (&ch->markers[i], from_ns, to_ns)
            && et_layout_marker_visible (self->layout, &ch->markers[i]))
          {
            Ref r = { c, i };
            g_array_append_val (refs, r);
          }
    }
  g_qsort_with_data (refs->data, (gint) refs->len, sizeof (Ref), compare_refs, self);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u marker", "%u markers", refs->len),
                          refs->len);
  gtk_label_set_text (self->count, text);
  self->selecting = TRUE;
  g_list_model_items_changed (G_LIST_MODEL (self->model), 0, old, refs->len);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->selecting = FALSE;
}

/* ---- columns --------------------------------------------------------------- */

/* Shown translated; the CSV export writes them untranslated (a file for
 * other programs, like the CLI's machine formats). */
static const char *const column_titles[N_COLUMNS] = {
  N_("Start"), N_("Duration"), N_("Thread"), N_("Provider"), N_("Series"), N_("Category"),
  N_("Importance"), N_("Kind"), N_("Text"),
};

/* One cell's text: translated and in the user's number format for @display,
 * the machine values the CSV export writes otherwise. */
static void
cell_text (EtMarkersList *self, const Ref *r, guint column, gboolean display, GString *out)
{
  void (*format_duration) (gint64, GString *) = display ? et_format_duration_display
                                                        : et_format_duration;
  const EtMarker *m = marker_of (self, r);
  const EtThread *t;

  switch (column)
    {
    case COL_START:
      format_duration (m->start_ns, out);
      break;
    case COL_DURATION:
      if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
        format_duration (duration_of (m), out);
      break;
    case COL_THREAD:
      t = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, r->channel));
      g_string_append_printf (out, "%u", t->tid);
      break;
    case COL_PROVIDER:
      g_string_append (out, et_trace_get_provider (self->trace, m->provider)->name);
      break;
    case COL_SERIES:
      g_string_append (out, et_trace_get_string (self->trace, m->series));
      break;
    case COL_CATEGORY:
      g_string_append_printf (out, "%d", m->category);
      break;
    case COL_IMPORTANCE:
      g_string_append (out, display ? et_i18n_importance (m->importance)
                                    : et_importance_to_string (m->importance));
      break;
    case COL_KIND:
      g_string_append (out, display ? et_i18n_marker_kind (m->kind)
                                    : et_marker_kind_to_string (m->kind));
      if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_OK)
        g_string_append_printf (out, " (%s)", display ? et_i18n_span_status (m->status)
                                                      : et_span_status_to_string (m->status));
      break;
    case COL_TEXT:
      et_trace_marker_text (self->trace, m, out);
      break;
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  EtMarkersList *self = g_object_get_data (G_OBJECT (factory), "list");
  EtMarkerRow *row = gtk_list_item_get_item (item);
  g_autoptr(GString) text = g_string_new (NULL);

  cell_text (self, &row->ref, GPOINTER_TO_UINT (data), TRUE, text);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text->str);
}

/* A header's sorter is never used to sort rows; it only answers which
 * column the view sorts by. The view's sorter asks its columns in order
 * and inverts descending ones, so comparing two probe rows once tells the
 * primary column (the first sorter called) and its direction (the sign). */
static int
probe_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  HeaderProbe *probe = data;

  if (probe->list->probe_hit == 0)
    probe->list->probe_hit = probe->column + 1;
  return GTK_ORDERING_SMALLER;
}

static void
read_header_sort (GtkSorter *sorter, GtkSorterChange change, gpointer data)
{
  EtMarkersList *self = data;
  g_autoptr(EtMarkerRow) a = g_object_new (ET_TYPE_MARKER_ROW, NULL);
  g_autoptr(EtMarkerRow) b = g_object_new (ET_TYPE_MARKER_ROW, NULL);
  GtkOrdering order;

  self->probe_hit = 0;
  order = gtk_sorter_compare (sorter, a, b);
  self->sort = self->probe_hit ? (EtMarkerSort) (self->probe_hit - 1) : ET_SORT_START;
  self->descending = self->probe_hit && order == GTK_ORDERING_LARGER;
  if (self->trace != NULL)
    resort (self);
}

static void
add_columns (EtMarkersList *self)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "list", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(column_titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COL_TEXT);
      if (c != COL_TEXT)
        {
          g_autoptr(GtkSorter) sorter = NULL;

          self->probes[c].list = self;
          self->probes[c].column = c;
          sorter = GTK_SORTER (gtk_custom_sorter_new (probe_compare, &self->probes[c], NULL));
          gtk_column_view_column_set_sorter (column, sorter);
        }
      gtk_column_view_append_column (self->view, column);
      self->columns[c] = column;
      g_object_unref (column);
    }
  g_signal_connect (gtk_column_view_get_sorter (self->view), "changed",
                    G_CALLBACK (read_header_sort), self);
}

/* ---- the rest ---------------------------------------------------------------- */

static void
on_selected (GtkSingleSelection *selection, GParamSpec *pspec, gpointer data)
{
  EtMarkersList *self = data;
  guint position = gtk_single_selection_get_selected (selection);
  const Ref *r;

  if (self->selecting || position >= self->model->refs->len)
    return;
  r = &g_array_index (self->model->refs, Ref, position);
  g_signal_emit (self, signals[SIGNAL_MARKER_SELECTED], 0, r->channel, r->index);
}

static void
et_markers_list_dispose (GObject *object)
{
  EtMarkersList *self = ET_MARKERS_LIST (object);

  g_clear_object (&self->trace);
  self->layout = NULL;
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (et_markers_list_parent_class)->dispose (object);
}

static void
et_markers_list_finalize (GObject *object)
{
  g_clear_object (&ET_MARKERS_LIST (object)->model);
  G_OBJECT_CLASS (et_markers_list_parent_class)->finalize (object);
}

static void
et_markers_list_class_init (EtMarkersListClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_markers_list_dispose;
  G_OBJECT_CLASS (klass)->finalize = et_markers_list_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-markers-list.ui");
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, view);
  gtk_widget_class_bind_template_child (widget_class, EtMarkersList, count);
  signals[SIGNAL_MARKER_SELECTED] =
    g_signal_new ("marker-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
}

static void
et_markers_list_init (EtMarkersList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->model = g_object_new (ET_TYPE_ROW_MODEL, NULL);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (on_selected), self);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  add_columns (self);
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
  g_return_if_fail (ET_IS_MARKERS_LIST (self) && (guint) sort < COL_TEXT);
  /* Through the view, so the header shows it; read_header_sort resorts. */
  gtk_column_view_sort_by_column (self->view, self->columns[sort],
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

guint
et_markers_list_get_n_rows (EtMarkersList *self)
{
  return self->model->refs->len;
}

gboolean
et_markers_list_get_row (EtMarkersList *self, guint row, guint *channel, guint *index)
{
  const Ref *r;

  if (row >= self->model->refs->len)
    return FALSE;
  r = &g_array_index (self->model->refs, Ref, row);
  *channel = r->channel;
  *index = r->index;
  return TRUE;
}

void
et_markers_list_select_row (EtMarkersList *self, guint row)
{
  gtk_single_selection_set_selected (self->selection, row);
}

static void
csv_field (GString *line, const char *text)
{
  gboolean quote = strpbrk (text, ",\"\r\n") != NULL;

  if (!quote)
    {
      g_string_append (line, text);
      return;
    }
  g_string_append_c (line, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}

gboolean
et_markers_list_write_csv (EtMarkersList *self, const char *path, GError **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) cell = g_string_new (NULL);

  for (guint c = 0; c < N_COLUMNS; c++)
    {
      g_string_append (out, c ? "," : "");
      csv_field (out, column_titles[c]);
    }
  g_string_append (out, "\r\n");
  for (guint i = 0; i < self->model->refs->len; i++)
    {
      for (guint c = 0; c < N_COLUMNS; c++)
        {
          g_string_truncate (cell, 0);
          cell_text (self, &g_array_index (self->model->refs, Ref, i), c, FALSE, cell);
          g_string_append (out, c ? "," : "");
          csv_field (out, cell->str);
        }
      g_string_append (out, "\r\n");
    }
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}
