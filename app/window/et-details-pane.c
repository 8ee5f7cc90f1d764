/* et-details-pane.c — see et-details-pane.h. The words come from
 * et-details.c (model only); this file is the widget around them. */
#include "et-details-pane.h"
#include "et-details.h"
#include "et-details-wrap.h"
#include "et-i18n.h"
#include "et-marker-stack.h"
#include "et-trace-decode.h"

struct _EtDetailsPane
{
  GtkBox       parent_instance;

  GtkLabel    *title;
  GtkTextView *text;
  GtkWidget   *go_to_end;
  char        *plain;       /* the text shown, without its break chances */
  int          hung_width;  /* the text view's width its lines were hung for */
  guint        rehang;      /* idle: hang them again for a new width */
  GCancellable *stack_cancellable;  /* of the shown marker's stacks, made on a thread */
};

G_DEFINE_FINAL_TYPE (EtDetailsPane, et_details_pane, GTK_TYPE_BOX)

static void
hang (EtDetailsPane *self)
{
  self->hung_width = gtk_widget_get_width (GTK_WIDGET (self->text));
  et_details_wrap_hang (self->text, self->plain != NULL ? self->plain : "");
}

static gboolean
rehang (gpointer data)
{
  EtDetailsPane *self = data;

  self->rehang = 0;
  hang (self);
  return G_SOURCE_REMOVE;
}

/* A new width: where values wrap depends on it (a narrow pane keeps a
 * value's room). Done after the allocation, which must not change tags. */
static void
et_details_pane_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  EtDetailsPane *self = ET_DETAILS_PANE (widget);

  GTK_WIDGET_CLASS (et_details_pane_parent_class)->size_allocate (widget, width, height, baseline);
  if (gtk_widget_get_width (GTK_WIDGET (self->text)) != self->hung_width && self->rehang == 0)
    self->rehang = g_idle_add (rehang, self);
}

/* Copies the selection as it reads, without the break chances. */
static void
on_copy (GtkTextView *view, gpointer data)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  g_autofree char *text = NULL, *plain = NULL;
  GtkTextIter start, end;

  g_signal_stop_emission_by_name (view, "copy-clipboard");
  if (!gtk_text_buffer_get_selection_bounds (buffer, &start, &end))
    return;
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  plain = et_details_wrap_plain (text);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (view)), plain);
}

static void
et_details_pane_dispose (GObject *object)
{
  EtDetailsPane *self = ET_DETAILS_PANE (object);

  g_cancellable_cancel (self->stack_cancellable);
  g_clear_object (&self->stack_cancellable);
  g_clear_handle_id (&self->rehang, g_source_remove);
  g_clear_pointer (&self->plain, g_free);
  G_OBJECT_CLASS (et_details_pane_parent_class)->dispose (object);
}

static void
et_details_pane_class_init (EtDetailsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_details_pane_dispose;
  widget_class->size_allocate = et_details_pane_size_allocate;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-details-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, title);
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, text);
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, go_to_end);
}

static void
et_details_pane_init (EtDetailsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->text, "copy-clipboard", G_CALLBACK (on_copy), self);
  et_details_pane_show (self, NULL, NULL);
}

GtkWidget *
et_details_pane_new (void)
{
  return g_object_new (ET_TYPE_DETAILS_PANE, NULL);
}

/* The marker's stacks, under its details, once made (the module of each
 * frame greyed). */
static void
stacks_made (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(EtDetailsPane) self = data;
  g_autoptr(EtMarkerStack) stack = et_marker_stack_describe_finish (result);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text);
  GtkTextIter end, from, to;
  g_autofree char *plain = NULL;
  int base;

  if (stack == NULL || g_task_get_cancellable (G_TASK (result)) != self->stack_cancellable)
    return;                                   /* another marker is shown */
  g_clear_object (&self->stack_cancellable);
  gtk_text_buffer_get_end_iter (buffer, &end);
  base = gtk_text_iter_get_offset (&end);
  gtk_text_buffer_insert (buffer, &end, stack->text, -1);
  if (gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "module") == NULL)
    gtk_text_buffer_create_tag (buffer, "module", "foreground", "grey", NULL);
  for (guint i = 0; i + 1 < stack->modules->len; i += 2)
    {
      const guint *at = &g_array_index (stack->modules, guint, i);

      gtk_text_buffer_get_iter_at_offset (buffer, &from, base + (int) at[0]);
      gtk_text_buffer_get_iter_at_offset (buffer, &to, base + (int) at[1]);
      gtk_text_buffer_apply_tag_by_name (buffer, "module", &from, &to);
    }
  /* long frames wrap under their own start, as values do */
  plain = g_strconcat (self->plain != NULL ? self->plain : "", stack->text, NULL);
  g_free (self->plain);
  self->plain = g_steal_pointer (&plain);
  hang (self);
}

static void
show_stacks (EtDetailsPane *self, EtTrace *trace, const EtMarker *m)
{
  g_cancellable_cancel (self->stack_cancellable);
  g_clear_object (&self->stack_cancellable);
  if (trace == NULL || m == NULL)
    return;
  self->stack_cancellable = g_cancellable_new ();
  et_marker_stack_describe_async (trace, m, self->stack_cancellable, stacks_made,
                                  g_object_ref (self));
}

void
et_details_pane_show (EtDetailsPane *self, EtTrace *trace, const EtShape *shape)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) title = g_string_new (NULL);
  g_autofree char *softened = NULL;
  gboolean has_end = FALSE;

  g_return_if_fail (ET_IS_DETAILS_PANE (self));
  if (shape == NULL || trace == NULL)
    {
      g_string_append (title, _("Nothing selected"));
      g_string_append (text, _("Click a marker to see everything about it."));
    }
  else if (shape->kind == ET_SHAPE_AGGREGATE)
    {
      g_string_append_printf (title, g_dngettext (GETTEXT_PACKAGE, "%u marker", "%u markers",
                                                  shape->count), shape->count);
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                                 "%u marker close together.\nZoom in (Ctrl+wheel, W) to tell them apart.",
                                                 "%u markers close together.\nZoom in (Ctrl+wheel, W) to tell them apart.",
                                                 shape->count), shape->count);
    }
  else
    {
      et_trace_marker_text (trace, shape->m, title);
      et_details_describe (trace, shape->channel, shape->m, text);
      has_end = shape->m->kind == ET_MARKER_SPAN && shape->m->end_event != ET_NO_INDEX;
    }
  gtk_label_set_text (self->title, title->str);
  softened = et_details_wrap_soften (text->str);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text), softened, -1);
  g_free (self->plain);
  self->plain = g_strdup (text->str);
  hang (self);
  gtk_widget_set_visible (self->go_to_end, has_end);
  show_stacks (self, trace, shape != NULL && shape->kind != ET_SHAPE_AGGREGATE ? shape->m : NULL);
}

gboolean
et_details_pane_is_busy (EtDetailsPane *self)
{
  g_return_val_if_fail (ET_IS_DETAILS_PANE (self), FALSE);
  return self->stack_cancellable != NULL;
}

char *
et_details_pane_get_text (EtDetailsPane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  g_return_val_if_fail (ET_IS_DETAILS_PANE (self), NULL);
  buffer = gtk_text_view_get_buffer (self->text);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  return et_details_wrap_plain (text);
}
