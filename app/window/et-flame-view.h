/* et-flame-view.h — the Call Tree's flame graph: an icicle of the pane's
 * top-down tree (render/et-flame-render.h draws and hit-tests it). A click
 * on a frame zooms into it (it fills the width, its callers over it); a
 * click on a caller, the right button, Escape or Backspace go back up.
 * "zoomed" (guint node) says so. The tooltip names the frame with its inclusive and exclusive samples
 * and their part of all samples.
 */
#pragma once

#include <gtk/gtk.h>
#include "et-flame-render.h"

G_BEGIN_DECLS

#define ET_TYPE_FLAME_VIEW (et_flame_view_get_type ())
G_DECLARE_FINAL_TYPE (EtFlameView, et_flame_view, ET, FLAME_VIEW, GtkDrawingArea)

GtkWidget           *et_flame_view_new        (void);
/* @tree stays the caller's, alive until the next call (NULL: none). */
void                 et_flame_view_set_tree   (EtFlameView *self,
                                               const EtCallTree *tree);
void                 et_flame_view_zoom       (EtFlameView *self,
                                               guint        node);
guint                et_flame_view_get_zoom   (EtFlameView *self);
const EtFlameLayout *et_flame_view_get_layout (EtFlameView *self);
/* As a click at (@x, @y) with @button: TRUE when it zoomed. */
gboolean             et_flame_view_click      (EtFlameView *self,
                                               guint        button,
                                               double       x,
                                               double       y);
/* The tooltip at (@x, @y), or NULL (transfer full). */
char                *et_flame_view_tooltip_at (EtFlameView *self,
                                               double       x,
                                               double       y);

G_END_DECLS
