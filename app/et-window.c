/* et-window.c — the trace window.
 *
 *   file ─ GTask thread: et_trace_load (progress polled on the main loop)
 *        ─ EtLayout + EtViewport ─ GtkDrawingArea → render/ et_timeline_draw
 *   click ─ et_timeline_hit_test ─ selection ─ details pane (et-details)
 *
 * Drawing and hit-testing live in render/; this file only hosts them.
 */
#include "et-window.h"
#include "et-details.h"
#include "et-i18n.h"
#include "et-markers-list.h"
#include "et-search.h"
#include "et-timeline-render.h"

#include <math.h>

struct _EtWindow
{
  GtkApplicationWindow parent_instance;

  GtkWidget    *stack;
  GtkWidget    *progress;
  GtkWidget    *area;
  GtkWidget    *details;
  GtkWidget    *status;
  GtkWidget    *filter_button;
  GtkWidget    *provider_box;     /* one check button per provider with markers */
  GtkWidget    *kind_checks[3];   /* flag, message, span */
  GtkWidget    *list;             /* the Markers report */
  guint         list_idle;
  gint64        list_from, list_to;
  gboolean      list_dirty;
  GtkWidget    *search_entry;
  GtkWidget    *search_label;
  GArray       *matches;          /* EtMarkerRef, time order */
  GHashTable   *match_set;        /* const EtMarker* of every match, for highlighting */
  guint         match;            /* the current one */
  GCancellable *search_cancel;

  char         *path;
  EtTrace      *trace;
  EtLayout     *layout;
  EtViewport    view;
  GCancellable *cancellable;
  guint         poll_id;
  volatile gint permille;     /* loading progress, written by the loader thread */

  gboolean      has_selection;
  EtShape       selected;
  double        pointer_x;
  double        drag_from_ns;
  int           drag_from_scroll;
};

G_DEFINE_FINAL_TYPE (EtWindow, et_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- drawing ----------------------------------------------------------- */

static void
sync_size (EtWindow *self)
{
  self->view.width = MAX (gtk_widget_get_width (self->area), 300);
  self->view.height = MAX (gtk_widget_get_height (self->area), 100);
}

static void
clamp_scroll (EtWindow *self)
{
  int max = self->layout ? et_layout_height (self->layout) - (self->view.height - self->view.ruler_height) : 0;
  self->view.scroll_y = CLAMP (self->view.scroll_y, 0, MAX (max, 0));
}

typedef struct
{
  cairo_t    *cr;
  GHashTable *set;
} HighlightCtx;

/* Search matches in view get an amber ring (an overlay, like the selection). */
static void
highlight_shape (const EtShape *s, gpointer data)
{
  HighlightCtx *ctx = data;

  if (!g_hash_table_contains (ctx->set, s->m))
    return;
  cairo_set_source_rgb (ctx->cr, 1.0, 0.6, 0.0);
  cairo_set_line_width (ctx->cr, 2);
  cairo_rectangle (ctx->cr, s->x0 - 2, s->y0 - 2, s->x1 - s->x0 + 4, s->y1 - s->y0 + 4);
  cairo_stroke (ctx->cr);
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  EtWindow *self = data;

  if (self->trace == NULL)
    return;
  sync_size (self);
  clamp_scroll (self);
  et_timeline_draw (cr, self->trace, self->layout, &self->view);
  if (self->match_set != NULL)
    {
      HighlightCtx ctx = { cr, self->match_set };
      et_timeline_foreach_shape (self->trace, self->layout, &self->view, highlight_shape, &ctx);
    }
  if (self->has_selection)
    {
      /* The selection is an overlay: a ring around the selected shape. */
      const EtShape *s = &self->selected;
      cairo_set_source_rgb (cr, self->view.dark ? 1 : 0, self->view.dark ? 1 : 0, self->view.dark ? 1 : 0);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, s->x0 - 3, s->y0 - 3, s->x1 - s->x0 + 6, s->y1 - s->y0 + 6);
      cairo_stroke (cr);
    }
}

static gboolean
update_list (gpointer data)
{
  EtWindow *self = data;

  self->list_idle = 0;
  self->list_from = self->view.from_ns;
  self->list_to = self->view.to_ns;
  self->list_dirty = FALSE;
  et_markers_list_set_range (ET_MARKERS_LIST (self->list), self->view.from_ns, self->view.to_ns);
  return G_SOURCE_REMOVE;
}

/* The list follows the visible range and the filters, a moment after the
 * view stops changing (so zooming stays smooth). */
static void
redraw (EtWindow *self)
{
  gtk_widget_queue_draw (self->area);
  if (self->trace != NULL && self->list_idle == 0
      && (self->list_dirty || self->view.from_ns != self->list_from
          || self->view.to_ns != self->list_to))
    self->list_idle = g_timeout_add (120, update_list, self);
}

/* ---- view commands ------------------------------------------------------ */

static void
zoom_at (EtWindow *self, double x, double factor)
{
  gint64 duration = MAX (et_trace_get_duration_ns (self->trace), 1);

  et_viewport_zoom (&self->view, x, factor, 1);
  /* Never wider than the trace itself (with a little room). */
  if (self->view.to_ns - self->view.from_ns > duration * 11 / 10)
    {
      self->view.from_ns = -duration / 20;
      self->view.to_ns = duration + duration / 20;
    }
  self->has_selection = FALSE;
  redraw (self);
}

static void
zoom_fit (EtWindow *self)
{
  self->view.from_ns = 0;
  self->view.to_ns = MAX (et_trace_get_duration_ns (self->trace), 1);
  self->has_selection = FALSE;
  redraw (self);
}

static void
on_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  double middle = self->view.label_width + (self->view.width - self->view.label_width) / 2.0;

  if (self->trace == NULL)
    return;
  if (g_str_equal (name, "zoom-in"))
    zoom_at (self, middle, 1.5);
  else if (g_str_equal (name, "zoom-out"))
    zoom_at (self, middle, 1 / 1.5);
  else if (g_str_equal (name, "zoom-fit"))
    zoom_fit (self);
  else if (g_str_equal (name, "pan-left") || g_str_equal (name, "pan-right"))
    {
      et_viewport_pan (&self->view, (g_str_equal (name, "pan-left") ? 1 : -1)
                                    * (self->view.width - self->view.label_width) / 4.0);
      self->has_selection = FALSE;
      redraw (self);
    }
  else if (g_str_equal (name, "wall-clock"))
    {
      self->view.wall_clock = !self->view.wall_clock;
      redraw (self);
    }
}

/* ---- input ------------------------------------------------------------- */

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  EtWindow *self = data;
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->trace == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    zoom_at (self, self->pointer_x, pow (1.25, -dy));
  else if ((mods & GDK_SHIFT_MASK) || dx != 0)
    {
      et_viewport_pan (&self->view, -((mods & GDK_SHIFT_MASK) ? dy : dx) * 40);
      redraw (self);
    }
  else
    {
      self->view.scroll_y += (int) (dy * 40);
      clamp_scroll (self);
      self->has_selection = FALSE;
      redraw (self);
    }
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, gpointer data)
{
  ET_WINDOW (data)->pointer_x = x;
}

static void
on_zoom_gesture (GtkGestureZoom *gesture, double scale, gpointer data)
{
  EtWindow *self = data;
  static double last = 1;

  if (self->trace == NULL)
    return;
  zoom_at (self, self->pointer_x, scale / last);
  last = scale;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, gpointer data)
{
  EtWindow *self = data;

  self->drag_from_ns = (double) self->view.from_ns;
  self->drag_from_scroll = self->view.scroll_y;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, gpointer data)
{
  EtWindow *self = data;
  gint64 span = self->view.to_ns - self->view.from_ns;

  if (self->trace == NULL)
    return;
  self->view.from_ns = (gint64) self->drag_from_ns
                       - (gint64) (dx / MAX (1, self->view.width - self->view.label_width) * span);
  self->view.to_ns = self->view.from_ns + span;
  self->view.scroll_y = self->drag_from_scroll - (int) dy;
  clamp_scroll (self);
  redraw (self);
}

static void
show_details (EtWindow *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->details));

  if (!self->has_selection)
    g_string_append (text, _("Click a marker to see everything about it."));
  else if (self->selected.kind == ET_SHAPE_AGGREGATE)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u marker close together.\nZoom in (Ctrl+wheel, W) to tell them apart.",
                                               "%u markers close together.\nZoom in (Ctrl+wheel, W) to tell them apart.",
                                               self->selected.count),
                            self->selected.count);
  else
    et_details_describe (self->trace, self->selected.channel, self->selected.m, text);
  gtk_text_buffer_set_text (buffer, text->str, (int) text->len);
}

gboolean
et_window_select_at (EtWindow *self, double x, double y)
{
  EtHit hit;

  g_return_val_if_fail (ET_IS_WINDOW (self), FALSE);
  if (self->trace == NULL)
    return FALSE;
  sync_size (self);
  et_timeline_hit_test (self->trace, self->layout, &self->view, x, y, &hit);
  if (hit.kind == ET_HIT_ROW_LABEL)
    {
      const EtRow *row = et_layout_row (self->layout, hit.row);
      if (row->kind == ET_ROW_PROCESS)
        et_layout_set_collapsed (self->layout, row->index,
                                 !et_layout_get_collapsed (self->layout, row->index));
    }
  self->has_selection = hit.kind == ET_HIT_SHAPE;
  if (self->has_selection)
    self->selected = hit.shape;
  show_details (self);
  redraw (self);
  return self->has_selection;
}

/* Hover: what is under the pointer, in a few lines. */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  EtWindow *self = data;
  g_autoptr(GString) text = g_string_new (NULL);
  const EtMarker *m;
  const EtThread *thread;
  EtHit hit;

  if (self->trace == NULL)
    return FALSE;
  et_timeline_hit_test (self->trace, self->layout, &self->view, x, y, &hit);
  if (hit.kind != ET_HIT_SHAPE)
    return FALSE;
  m = hit.shape.m;
  if (hit.shape.kind == ET_SHAPE_AGGREGATE)
    {
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                 "%u marker here — zoom in to tell them apart",
                                                 "%u markers here — zoom in to tell them apart",
                                                 hit.shape.count), hit.shape.count);
      gtk_tooltip_set_text (tooltip, text->str);
      return TRUE;
    }
  thread = et_trace_get_thread (self->trace, et_trace_channel_thread (self->trace, hit.shape.channel));
  et_trace_marker_text (self->trace, m, text);
  g_string_append_printf (text, "\n%s", et_i18n_marker_kind (m->kind));
  if (m->kind == ET_MARKER_SPAN)
    g_string_append_printf (text, " (%s)", et_i18n_span_status (m->status));
  /* Translators: "span (ok) at 1.5 ms, lasting 2 ms" in the tooltip. */
  g_string_append (text, _(" at "));
  et_format_duration_display (m->start_ns, text);
  if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
    {
      g_string_append (text, _(", lasting "));
      et_format_duration_display (m->end_ns - m->start_ns, text);
    }
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("importance %s, category %d, series %s\nthread %s (%u)"),
                          et_i18n_importance (m->importance), m->category,
                          *et_trace_get_string (self->trace, m->series)
                            ? et_trace_get_string (self->trace, m->series) : _("(none)"),
                          thread->name, thread->tid);
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

typedef struct
{
  const EtMarker *m;
  EtShape         shape;
  gboolean        found;
} FindShape;

static void
find_marker_shape (const EtShape *s, gpointer data)
{
  FindShape *f = data;
  if (s->m == f->m && s->kind != ET_SHAPE_AGGREGATE)
    f->shape = *s, f->found = TRUE;
}

/* Brings a marker into view (its process expanded, its row scrolled to, its
 * time centred, zoomed in until it stands alone) and selects it. */
void
et_window_reveal_marker (EtWindow *self, guint channel, guint index)
{
  const EtMarker *m = &et_trace_get_channel (self->trace, channel)->markers[index];
  guint thread = et_trace_channel_thread (self->trace, channel);
  guint process = et_trace_get_thread (self->trace, thread)->process;
  const EtRow *row;
  FindShape f = { m };
  gint64 span = self->view.to_ns - self->view.from_ns;

  if (et_layout_get_collapsed (self->layout, process))
    et_layout_set_collapsed (self->layout, process, FALSE);
  row = et_layout_channel_row (self->layout, channel);
  if (row != NULL && (row->y < self->view.scroll_y
                      || row->y + row->height > self->view.scroll_y + self->view.height
                                               - self->view.ruler_height))
    self->view.scroll_y = MAX (0, row->y - 3 * self->view.lane_height);
  if (m->start_ns < self->view.from_ns || m->start_ns > self->view.to_ns)
    {
      self->view.from_ns = m->start_ns - span / 2;
      self->view.to_ns = self->view.from_ns + span;
    }
  for (int i = 0; i < 40; i++)
    {
      et_timeline_foreach_shape (self->trace, self->layout, &self->view, find_marker_shape, &f);
      if (f.found)
        break;
      et_viewport_zoom (&self->view, et_viewport_x (&self->view, m->start_ns), 2, 1);
    }
  self->has_selection = f.found;
  self->selected = f.shape;
  show_details (self);
  redraw (self);
}

static void
on_list_selected (EtMarkersList *list, guint channel, guint index, gpointer data)
{
  et_window_reveal_marker (data, channel, index);
}

static void
on_click (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  et_window_select_at (ET_WINDOW (data), x, y);
}

/* ---- filters ------------------------------------------------------------ */

static void
on_provider_toggled (GtkCheckButton *check, gpointer data)
{
  EtWindow *self = data;
  guint provider = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "provider"));

  et_layout_set_provider_visible (self->layout, provider, gtk_check_button_get_active (check));
  self->has_selection = FALSE;
  self->list_dirty = TRUE;
  redraw (self);
}

static void
on_kinds_toggled (GtkCheckButton *check, gpointer data)
{
  EtWindow *self = data;
  guint kinds = 0;

  for (guint k = 0; k < G_N_ELEMENTS (self->kind_checks); k++)
    if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->kind_checks[k])))
      kinds |= 1u << k;
  /* No kind chosen shows nothing, not everything. */
  et_layout_set_kinds (self->layout, kinds ? kinds : 1u << 31);
  self->has_selection = FALSE;
  self->list_dirty = TRUE;
  redraw (self);
}

static void
on_importance_selected (GtkDropDown *dropdown, GParamSpec *pspec, gpointer data)
{
  EtWindow *self = data;

  if (self->layout == NULL)
    return;
  et_layout_set_min_importance (self->layout, gtk_drop_down_get_selected (dropdown));
  self->has_selection = FALSE;
  self->list_dirty = TRUE;
  redraw (self);
}

/* One check button per provider that has markers, checked (they are shown). */
static void
fill_provider_filter (EtWindow *self)
{
  GtkWidget *child;
  g_autofree gboolean *has_markers = g_new0 (gboolean, MAX (et_trace_get_n_providers (self->trace), 1));

  while ((child = gtk_widget_get_first_child (self->provider_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->provider_box), child);
  for (guint c = 0; c < et_trace_get_n_channels (self->trace); c++)
    has_markers[et_trace_get_channel (self->trace, c)->provider] = TRUE;
  for (guint p = 0; p < et_trace_get_n_providers (self->trace); p++)
    {
      const EtProvider *provider = et_trace_get_provider (self->trace, p);
      GtkWidget *check;

      if (!has_markers[p])
        continue;
      check = gtk_check_button_new_with_label (*provider->name ? provider->name : _("(unnamed)"));
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
      g_object_set_data (G_OBJECT (check), "provider", GUINT_TO_POINTER (p));
      g_signal_connect (check, "toggled", G_CALLBACK (on_provider_toggled), self);
      gtk_box_append (GTK_BOX (self->provider_box), check);
    }
}

static GtkWidget *
build_filters (EtWindow *self)
{
  static const char *const importance[] = { N_("Low and above"), N_("Normal and above"),
                                            N_("High and above"), N_("Critical only") };
  static const char *const kinds[] = { N_("Flags"), N_("Messages"), N_("Spans") };
  const char *importance_names[G_N_ELEMENTS (importance) + 1] = { NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *dropdown;

  for (guint i = 0; i < G_N_ELEMENTS (importance); i++)
    importance_names[i] = _(importance[i]);
  dropdown = gtk_drop_down_new_from_strings (importance_names);
  gtk_box_append (GTK_BOX (box), gtk_label_new (_("Minimum importance")));
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_importance_selected), self);
  gtk_box_append (GTK_BOX (box), dropdown);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      self->kind_checks[k] = gtk_check_button_new_with_label (_(kinds[k]));
      gtk_check_button_set_active (GTK_CHECK_BUTTON (self->kind_checks[k]), TRUE);
      g_signal_connect (self->kind_checks[k], "toggled", G_CALLBACK (on_kinds_toggled), self);
      gtk_box_append (GTK_BOX (box), self->kind_checks[k]);
    }
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), gtk_label_new (_("Providers")));
  self->provider_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (box), self->provider_box);
  gtk_popover_set_child (GTK_POPOVER (popover), box);

  self->filter_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->filter_button), "view-more-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->filter_button), popover);
  gtk_widget_set_tooltip_text (self->filter_button, _("Filter markers"));
  return self->filter_button;
}

/* ---- loading ------------------------------------------------------------ */

static void
on_progress (guint64 done, guint64 total, gpointer data)
{
  EtWindow *self = data;
  g_atomic_int_set (&self->permille, total ? (gint) (done * 1000 / total) : 0);
}

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  EtWindow *self = source;
  GError *error = NULL;
  EtTrace *trace = et_trace_load (data, ET_LOAD_DEFAULT, on_progress, self, cancellable, &error);

  if (trace == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, trace, g_object_unref);
}

static gboolean
poll_progress (gpointer data)
{
  EtWindow *self = data;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress),
                                 g_atomic_int_get (&self->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
set_status (EtWindow *self, const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_visible (self->status, text != NULL && *text != '\0');
}

static void
loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  EtWindow *self = ET_WINDOW (source);
  g_autoptr(GError) error = NULL;
  EtTrace *trace = g_task_propagate_pointer (G_TASK (result), &error);
  const EtTraceStats *stats;

  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_object (&self->cancellable);
  if (trace == NULL)
    {
      set_status (self, error->message);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "empty");
      return;
    }
  self->trace = trace;
  self->layout = et_layout_new (trace);
  et_layout_update (self->layout, self->view.lane_height);
  fill_provider_filter (self);
  et_markers_list_set_trace (ET_MARKERS_LIST (self->list), trace, self->layout);
  zoom_fit (self);
  stats = et_trace_get_stats (trace);
  if (stats->damage_count > 0)
    {
      guint n;
      const EtDamage *d = et_trace_get_damage (trace, &n);
      /* Translators: problems found, records skipped, the first problem's offset. */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "Read with damage: %llu problem, %llu record(s) "
                                                            "skipped; at byte offset %llu.",
                                                            "Read with damage: %llu problems, %llu record(s) "
                                                            "skipped; the first at byte offset %llu.",
                                                            (gulong) stats->damage_count),
                                               (unsigned long long) stats->damage_count,
                                               (unsigned long long) stats->records_skipped,
                                               (unsigned long long) (n ? d[0].offset : 0));
      set_status (self, text);
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "timeline");
  show_details (self);
}

void
et_window_load (EtWindow *self, const char *path)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *base = g_path_get_basename (path);

  g_return_if_fail (ET_IS_WINDOW (self));
  g_free (self->path);
  self->path = g_strdup (path);
  gtk_window_set_title (GTK_WINDOW (self), base);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, loaded, NULL);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, load_in_thread);
  self->poll_id = g_timeout_add (50, poll_progress, self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
}

static void
on_cancel (GtkButton *button, gpointer data)
{
  EtWindow *self = data;
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

/* ---- opening ------------------------------------------------------------ */

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_application_open (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (data))),
                          &file, 1, "");
    }
  g_object_unref (dialog);
}

static void
on_open (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open Trace"), GTK_WINDOW (data),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              _("_Open"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("ETW traces (*.etl)"));
  gtk_file_filter_add_pattern (filter, "*.etl");
  gtk_file_filter_add_pattern (filter, "*.ETL");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer data)
{
  GFile *file = g_value_get_object (value);
  g_application_open (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (data))),
                      &file, 1, "");
  return TRUE;
}

/* ---- construction ------------------------------------------------------- */

static GtkWidget *
build_timeline (EtWindow *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *pinch = gtk_gesture_zoom_new ();

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (on_zoom_gesture), self);
  gtk_widget_add_controller (self->area, scroll);
  gtk_widget_add_controller (self->area, motion);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (drag));
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (pinch));
  return self->area;
}

static GtkWidget *
build_loading (EtWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *cancel = gtk_button_new_with_label (_("Cancel"));

  self->progress = gtk_progress_bar_new ();
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress), _("Reading the trace…"));
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (self->progress), TRUE);
  gtk_widget_set_size_request (self->progress, 360, -1);
  gtk_widget_set_halign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_cancel), self);
  gtk_box_append (GTK_BOX (box), self->progress);
  gtk_box_append (GTK_BOX (box), cancel);
  return box;
}

/* ---- search -------------------------------------------------------------- */

static void
show_match (EtWindow *self)
{
  g_autofree char *text = NULL;

  if (self->matches == NULL || self->matches->len == 0)
    {
      gtk_label_set_text (GTK_LABEL (self->search_label),
                          self->matches ? _("No match") : "");
      return;
    }
  {
    const EtMarkerRef *r = &g_array_index (self->matches, EtMarkerRef, self->match);
    et_window_reveal_marker (self, r->channel, r->index);
  }
  /* Translators: the current search match and how many there are */
  text = g_strdup_printf (_("%u of %u"), self->match + 1, self->matches->len);
  gtk_label_set_text (GTK_LABEL (self->search_label), text);
}

static void
search_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  EtWindow *self = source;
  GArray *found = et_trace_search (self->trace, data, cancellable);

  if (found == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  else
    g_task_return_pointer (task, found, (GDestroyNotify) g_array_unref);
}

static void
search_done (GObject *source, GAsyncResult *result, gpointer data)
{
  EtWindow *self = ET_WINDOW (source);
  GArray *found = g_task_propagate_pointer (G_TASK (result), NULL);

  if (found == NULL)
    return;                            /* cancelled by a newer search */
  g_clear_object (&self->search_cancel);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->match_set, g_hash_table_unref);
  self->matches = found;
  self->match_set = g_hash_table_new (NULL, NULL);
  self->match = 0;
  /* Start from the first match at or after the left edge of the view. */
  for (guint i = found->len; i-- > 0;)
    {
      const EtMarkerRef *r = &g_array_index (found, EtMarkerRef, i);
      const EtMarker *m = &et_trace_get_channel (self->trace, r->channel)->markers[r->index];

      g_hash_table_add (self->match_set, (gpointer) m);
      if (m->start_ns >= self->view.from_ns)
        self->match = i;
    }
  show_match (self);
  redraw (self);
}

/* Searches marker texts and payload values on a thread (it decodes every
 * marker's event); a newer search cancels an older one. */
void
et_window_search (EtWindow *self, const char *text)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (ET_IS_WINDOW (self));
  if (self->trace == NULL)
    return;
  if (self->search_cancel)
    g_cancellable_cancel (self->search_cancel);
  g_clear_object (&self->search_cancel);
  if (text == NULL || *text == '\0')
    {
      g_clear_pointer (&self->matches, g_array_unref);
      g_clear_pointer (&self->match_set, g_hash_table_unref);
      gtk_label_set_text (GTK_LABEL (self->search_label), "");
      redraw (self);
      return;
    }
  self->search_cancel = g_cancellable_new ();
  task = g_task_new (self, self->search_cancel, search_done, NULL);
  g_task_set_task_data (task, g_strdup (text), g_free);
  g_task_run_in_thread (task, search_thread);
}

gboolean
et_window_is_searching (EtWindow *self)
{
  return self->search_cancel != NULL;
}

guint
et_window_get_n_matches (EtWindow *self)
{
  return self->matches ? self->matches->len : 0;
}

static void
on_search_activate (GtkSearchEntry *entry, gpointer data)
{
  et_window_search (data, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_find_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  EtWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));

  if (g_str_equal (name, "find"))
    {
      gtk_widget_grab_focus (self->search_entry);
      return;
    }
  if (self->matches == NULL || self->matches->len == 0)
    return;
  if (g_str_equal (name, "find-next"))
    self->match = (self->match + 1) % self->matches->len;
  else
    self->match = (self->match + self->matches->len - 1) % self->matches->len;
  show_match (self);
}

static GtkWidget *
build_search (EtWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Search texts and fields"), NULL);
  gtk_widget_set_tooltip_text (self->search_entry,
                               _("Enter searches; Ctrl+G and Shift+Ctrl+G step through the matches"));
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (on_search_activate), self);
  self->search_label = gtk_label_new (NULL);
  gtk_box_append (GTK_BOX (box), self->search_entry);
  gtk_box_append (GTK_BOX (box), self->search_label);
  return box;
}

static void
add_actions (EtWindow *self)
{
  static const char *const names[] = { "zoom-in", "zoom-out", "zoom-fit", "pan-left",
                                       "pan-right", "wall-clock" };
  g_autoptr(GSimpleAction) open = g_simple_action_new ("open", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GSimpleAction) a = g_simple_action_new (names[i], NULL);
      g_signal_connect (a, "activate", G_CALLBACK (on_action), self);
      g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (a));
    }
  g_signal_connect (open, "activate", G_CALLBACK (on_open), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (open));
  for (guint i = 0; i < 3; i++)
    {
      static const char *const find[] = { "find", "find-next", "find-previous" };
      g_autoptr(GSimpleAction) a = g_simple_action_new (find[i], NULL);
      g_signal_connect (a, "activate", G_CALLBACK (on_find_action), self);
      g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (a));
    }
}

static void
et_window_init (EtWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *open = gtk_button_new_from_icon_name ("document-open-symbolic");
  GtkWidget *fit = gtk_button_new_from_icon_name ("zoom-fit-best-symbolic");
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *vbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *empty = gtk_label_new (_("Open a Windows ETW trace (.etl): Ctrl+O, or drop it here."));
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  et_viewport_init (&self->view, 1200, 700);
  gtk_window_set_default_size (GTK_WINDOW (self), 1400, 860);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "win.open");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (fit), "win.zoom-fit");
  gtk_widget_set_tooltip_text (open, _("Open a trace (Ctrl+O)"));
  gtk_widget_set_tooltip_text (fit, _("Whole trace (Home)"));
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), fit);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), build_filters (self));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), build_search (self));
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->details = gtk_text_view_new ();
  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->details), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->details), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->details), 8);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (self->details), 8);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->details);
  gtk_widget_set_size_request (scrolled, 380, -1);

  {
    GtkWidget *vpaned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);

    self->list = et_markers_list_new ();
    g_signal_connect (self->list, "marker-selected", G_CALLBACK (on_list_selected), self);
    gtk_paned_set_start_child (GTK_PANED (vpaned), build_timeline (self));
    gtk_paned_set_end_child (GTK_PANED (vpaned), self->list);
    gtk_paned_set_resize_end_child (GTK_PANED (vpaned), FALSE);
    gtk_paned_set_position (GTK_PANED (vpaned), 560);
    gtk_widget_set_size_request (self->list, -1, 160);
    gtk_paned_set_start_child (GTK_PANED (paned), vpaned);
  }
  gtk_paned_set_end_child (GTK_PANED (paned), scrolled);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 1000);

  self->stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  gtk_stack_add_named (GTK_STACK (self->stack), build_loading (self), "loading");
  gtk_stack_add_named (GTK_STACK (self->stack), paned, "timeline");
  gtk_widget_set_vexpand (self->stack, TRUE);
  self->status = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_widget_set_margin_start (self->status, 8);
  gtk_widget_set_visible (self->status, FALSE);
  gtk_box_append (GTK_BOX (vbox), self->status);
  gtk_box_append (GTK_BOX (vbox), self->stack);
  gtk_window_set_child (GTK_WINDOW (self), vbox);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  add_actions (self);
  /* Follow the desktop's light/dark preference. */
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                &self->view.dark, NULL);
}

static void
et_window_dispose (GObject *object)
{
  EtWindow *self = ET_WINDOW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_handle_id (&self->list_idle, g_source_remove);
  if (self->search_cancel)
    g_cancellable_cancel (self->search_cancel);
  g_clear_object (&self->search_cancel);
  g_clear_pointer (&self->matches, g_array_unref);
  g_clear_pointer (&self->match_set, g_hash_table_unref);
  if (self->list != NULL)
    et_markers_list_set_trace (ET_MARKERS_LIST (self->list), NULL, NULL);
  g_clear_pointer (&self->layout, et_layout_free);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->path, g_free);
  G_OBJECT_CLASS (et_window_parent_class)->dispose (object);
}

static void
et_window_class_init (EtWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = et_window_dispose;
}

EtWindow *
et_window_new (GtkApplication *app)
{
  return g_object_new (ET_TYPE_WINDOW, "application", app, NULL);
}

const char *
et_window_get_path (EtWindow *self)
{
  return self->path;
}

EtTrace *
et_window_get_trace (EtWindow *self)
{
  return self->trace;
}

gboolean
et_window_is_loading (EtWindow *self)
{
  return self->cancellable != NULL;
}

gboolean
et_window_is_busy (EtWindow *self)
{
  return self->cancellable != NULL || self->list_idle != 0 || self->search_cancel != NULL
         || et_markers_list_is_busy (ET_MARKERS_LIST (self->list));
}

EtViewport *
et_window_get_viewport (EtWindow *self)
{
  return &self->view;
}

void
et_window_set_provider_visible (EtWindow *self, guint provider, gboolean visible)
{
  for (GtkWidget *child = gtk_widget_get_first_child (self->provider_box); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "provider")) == provider)
      gtk_check_button_set_active (GTK_CHECK_BUTTON (child), visible);
}

EtMarkersList *
et_window_get_markers_list (EtWindow *self)
{
  return ET_MARKERS_LIST (self->list);
}

EtLayout *
et_window_get_layout (EtWindow *self)
{
  return self->layout;
}

char *
et_window_get_details (EtWindow *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->details));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

const char *
et_window_get_status (EtWindow *self)
{
  return gtk_label_get_text (GTK_LABEL (self->status));
}
