/* et-details-pane.h — the right-hand pane: everything about the selected
 * marker (text from et-details), and for spans a "Go to end" button that
 * activates win.go-to-end; under the details, the marker's call stacks
 * (et-marker-stack.h), made on a thread. */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-timeline-render.h"

G_BEGIN_DECLS

#define ET_TYPE_DETAILS_PANE (et_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (EtDetailsPane, et_details_pane, ET, DETAILS_PANE, GtkBox)

GtkWidget *et_details_pane_new      (void);
/* Shows @shape of @trace, or a hint when @shape is NULL. */
void       et_details_pane_show     (EtDetailsPane *self,
                                     EtTrace       *trace,
                                     const EtShape *shape);
/* TRUE while the shown marker's call stacks are made. */
gboolean   et_details_pane_is_busy  (EtDetailsPane *self);
/* The text shown (transfer full). */
char      *et_details_pane_get_text (EtDetailsPane *self);

G_END_DECLS
