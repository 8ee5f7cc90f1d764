/* et-details-pane.c — see et-details-pane.h. The words come from
 * et-details.c (model only); this file is the widget around them. */
#include "et-details-pane.h"
#include "et-details.h"
#include "et-i18n.h"
#include "et-marker-stack.h"
#include "et-trace-decode.h"

struct _EtDetailsPane
{
  GtkBox       parent_instance;

  GtkLabel    *title;
  GtkTextView *text;
  GtkWidget   *go_to_end;
  GCancellable *stack_cancellable;  /* of the shown marker's stacks, made on a thread */
};

G_DEFINE_FINAL_TYPE (EtDetailsPane, et_details_pane, GTK_TYPE_BOX)

static void
et_details_pane_dispose (GObject *object)
{
  EtDetailsPane *self = ET_DETAILS_PANE (object);

  g_cancellable_cancel (self->stack_cancellable);
  g_clear_object (&self->stack_cancellable);
  G_OBJECT_CLASS (et_details_pane_parent_class)->dispose (object);
}

static void
et_details_pane_class_init (EtDetailsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-details-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, title);
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, text);
  gtk_widget_class_bind_template_child (widget_class, EtDetailsPane, go_to_end);
  G_OBJECT_CLASS (klass)->dispose = et_details_pane_dispose;
}

static void
et_details_pane_init (EtDetailsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  et_details_pane_show (self, NULL, NULL);
}

GtkWidget *
et_details_pane_new (void)
{
  return g_object_new (ET_TYPE_DETAILS_PANE, NULL);
}

/* Where a wrapped line of @line goes on, in characters: under the value of
 * a "  Label    value" row (after the run of spaces that ends the label),
 * else under the text after a line's indent and bullet. */
static int
value_column (const char *line, const char *end)
{
  const char *p = line;

  while (p < end && *p == ' ')
    p++;
  for (const char *q = p; q + 1 < end; q++)
    if (q > p && q[0] == ' ' && q[1] == ' ' && q[-1] != ' ')
      {
        while (q < end && *q == ' ')
          q++;
        return (int) g_utf8_pointer_to_offset (line, q);
      }
  if (p + 1 < end && g_str_has_prefix (p, "· "))
    return (int) g_utf8_pointer_to_offset (line, p) + 2;
  return (int) g_utf8_pointer_to_offset (line, p);
}

/* Every line wraps with a hanging indent at its value column, so a long
 * value (a GUID, a record's offset, a German label's value) stays in its
 * column instead of running out of the pane or back under the labels. */
static void
hang_values (EtDetailsPane *self, const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text);
  GtkTextTagTable *tags = gtk_text_buffer_get_tag_table (buffer);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->text), "0");
  int char_width, line_no = 0;

  pango_layout_get_pixel_size (layout, &char_width, NULL);
  g_object_unref (layout);
  for (const char *line = text; *line != '\0'; line_no++)
    {
      const char *end = strchr (line, '\n');
      int column;
      g_autofree char *name = NULL;
      GtkTextTag *tag;
      GtkTextIter from, to;

      if (end == NULL)
        end = line + strlen (line);
      column = value_column (line, end);
      name = g_strdup_printf ("hang-%d", column);
      tag = gtk_text_tag_table_lookup (tags, name);
      if (tag == NULL)
        /* Pango's negative indent: every line but the first is indented. */
        tag = gtk_text_buffer_create_tag (buffer, name, "indent", -column * char_width, NULL);
      gtk_text_buffer_get_iter_at_line (buffer, &from, line_no);
      to = from;
      gtk_text_iter_forward_to_line_end (&to);
      gtk_text_buffer_apply_tag (buffer, tag, &from, &to);
      line = *end != '\0' ? end + 1 : end;
    }
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
  g_autofree char *all = NULL;
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
  gtk_text_buffer_get_bounds (buffer, &from, &to);
  all = gtk_text_buffer_get_text (buffer, &from, &to, FALSE);
  hang_values (self, all);
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
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text), text->str, (int) text->len);
  hang_values (self, text->str);
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

  g_return_val_if_fail (ET_IS_DETAILS_PANE (self), NULL);
  buffer = gtk_text_view_get_buffer (self->text);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
