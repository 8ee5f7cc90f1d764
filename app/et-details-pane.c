/* et-details-pane.c — see et-details-pane.h. The words come from
 * et-details.c (model only); this file is the widget around them. */
#include "et-details-pane.h"
#include "et-details.h"
#include "et-i18n.h"

struct _EtDetailsPane
{
  GtkBox       parent_instance;

  GtkLabel    *title;
  GtkTextView *text;
  GtkWidget   *go_to_end;
};

G_DEFINE_FINAL_TYPE (EtDetailsPane, et_details_pane, GTK_TYPE_BOX)

static void
et_details_pane_class_init (EtDetailsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

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
  et_details_pane_show (self, NULL, NULL);
}

GtkWidget *
et_details_pane_new (void)
{
  return g_object_new (ET_TYPE_DETAILS_PANE, NULL);
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
  gtk_widget_set_visible (self->go_to_end, has_end);
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
