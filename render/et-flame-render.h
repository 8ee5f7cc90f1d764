/* et-flame-render.h — a call tree as a flame graph drawn as an icicle (the
 * root on top, callees under their callers), with Cairo, and the hit-test
 * from the same boxes.
 *
 *   EtCallTree ─ zoom node ─► EtFlameLayout (boxes: node, depth, x0–x1 as
 *                              │             parts of the zoomed node's samples)
 *              width, height ──┼─► et_flame_draw
 *                              └─► et_flame_hit (x, y → box)
 *
 * Zoomed into a node, its callers stand over it at full width (click one
 * to go back up), and it fills the width with its callees under it.
 * Boxes narrower than a pixel of the widest picture (1/4096 of the
 * width) are left out of the layout: they could not be drawn or clicked.
 */
#pragma once

#include <cairo.h>
#include "et-call-tree.h"

G_BEGIN_DECLS

/* Height of a row, in pixels. */
#define ET_FLAME_ROW_HEIGHT 18

typedef struct
{
  guint32 node;      /* in the call tree */
  guint32 depth;     /* row, from the top */
  double  x0, x1;    /* 0–1 of the width */
  gboolean caller;   /* over the zoomed node: its caller (full width) */
} EtFlameBox;

typedef struct
{
  GArray *boxes;     /* EtFlameBox, parents before children */
  guint   zoom;      /* the node that fills the width */
  guint   depth;     /* rows */
} EtFlameLayout;

EtFlameLayout *et_flame_layout_new  (const EtCallTree    *tree,
                                     guint                zoom);
void           et_flame_layout_free (EtFlameLayout       *layout);

/* Draws the boxes onto @cr, @width px wide, rows from y = 0 (the caller
 * clips to what is visible); @hover (a box index, or -1) is outlined;
 * @root_label names the root node ("All samples", translated by the
 * caller). @dark: light text and darker colours. */
void           et_flame_draw        (cairo_t             *cr,
                                     const EtFlameLayout *layout,
                                     const EtCallTree    *tree,
                                     double               width,
                                     gint                 hover,
                                     const char          *root_label,
                                     gboolean             dark);
/* The box at (@x, @y) of a picture @width px wide, or -1. */
gint           et_flame_hit         (const EtFlameLayout *layout,
                                     double               width,
                                     double               x,
                                     double               y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtFlameLayout, et_flame_layout_free)

G_END_DECLS
