/* et-flame-render.c — see et-flame-render.h.
 *
 * The layout is made once per tree and zoom (a walk over the nodes wide
 * enough to see), the picture from it at every frame: a resize or a hover
 * costs a pass over the boxes, not over the tree. Colours are warm hues
 * picked by a hash of the frame's name, as flame graphs are usually
 * coloured, so one function has one colour wherever it stands and in
 * every zoom; processes and threads are blue-grey, unnamed `?!0x…`
 * frames grey.
 */
#include "et-flame-render.h"

#include <math.h>
#include <pango/pangocairo.h>

/* Narrower than this part of the width: left out (a pixel of 4096). */
#define MIN_FRACTION (1.0 / 4096)

typedef struct
{
  guint32 node;
  guint32 depth;
  double  x0;
} Pending;

static void
add_box (EtFlameLayout *layout, guint32 node, guint32 depth, double x0, double x1,
         gboolean caller)
{
  EtFlameBox box = { node, depth, x0, x1, caller };

  g_array_append_val (layout->boxes, box);
  layout->depth = MAX (layout->depth, depth + 1);
}

/* @zoom and what it called, under its callers; depth first, without
 * recursion (a damaged stack may be thousands of frames deep). */
static void
add_subtree (EtFlameLayout *layout, const EtCallTree *tree, guint zoom, guint32 depth)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Pending));
  double total = (double) et_call_tree_node (tree, zoom)->inclusive;
  Pending first = { zoom, depth, 0.0 };

  if (total <= 0)
    return;
  g_array_append_val (stack, first);
  while (stack->len > 0)
    {
      Pending p = g_array_index (stack, Pending, stack->len - 1);
      double w = et_call_tree_node (tree, p.node)->inclusive / total, x = p.x0;
      g_autoptr(GArray) children = NULL;

      g_array_set_size (stack, stack->len - 1);
      if (w < MIN_FRACTION)
        continue;
      add_box (layout, p.node, p.depth, p.x0, MIN (p.x0 + w, 1.0), FALSE);
      children = et_call_tree_children (tree, p.node);
      for (guint i = 0; i < children->len; i++)
        {
          guint c = g_array_index (children, guint, i);
          Pending next = { c, p.depth + 1, x };

          g_array_append_val (stack, next);
          x += et_call_tree_node (tree, c)->inclusive / total;
        }
    }
}

EtFlameLayout *
et_flame_layout_new (const EtCallTree *tree, guint zoom)
{
  EtFlameLayout *layout = g_new0 (EtFlameLayout, 1);
  g_autoptr(GArray) callers = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (tree != NULL && zoom < et_call_tree_n_nodes (tree), layout);
  layout->boxes = g_array_new (FALSE, FALSE, sizeof (EtFlameBox));
  layout->zoom = zoom;
  for (guint32 n = zoom; n != 0;)
    {
      n = et_call_tree_node (tree, n)->parent;
      g_array_prepend_val (callers, n);
    }
  for (guint i = 0; i < callers->len; i++)
    add_box (layout, g_array_index (callers, guint32, i), i, 0.0, 1.0, TRUE);
  add_subtree (layout, tree, zoom, callers->len);
  return layout;
}

void
et_flame_layout_free (EtFlameLayout *layout)
{
  if (layout == NULL)
    return;
  g_clear_pointer (&layout->boxes, g_array_unref);
  g_free (layout);
}

gint
et_flame_hit (const EtFlameLayout *layout, double width, double x, double y)
{
  guint row;

  if (layout == NULL || y < 0 || x < 0 || width <= 0)
    return -1;
  row = (guint) (y / ET_FLAME_ROW_HEIGHT);
  for (guint i = 0; i < layout->boxes->len; i++)
    {
      const EtFlameBox *b = &g_array_index (layout->boxes, EtFlameBox, i);

      if (b->depth == row && x >= floor (b->x0 * width) && x < floor (b->x1 * width))
        return (gint) i;
    }
  return -1;
}

/* ---- drawing ------------------------------------------------------------ */

static void
box_colour (const EtCallTree *tree, const EtFlameBox *b, GString *name, gboolean dark,
            double rgb[3])
{
  const EtCallNode *n = et_call_tree_node (tree, b->node);
  guint h = g_str_hash (name->str);
  double k = dark ? 0.62 : 1.0;

  if (n->level != ET_CALL_FRAME)
    rgb[0] = 0.55, rgb[1] = 0.62, rgb[2] = 0.74;
  else if (et_stacks_symbol_unnamed (et_call_tree_stacks (tree), n->id))
    rgb[0] = rgb[1] = rgb[2] = 0.70;
  else
    {
      rgb[0] = (205 + h % 50) / 255.0;
      rgb[1] = (80 + (h >> 8) % 130) / 255.0;
      rgb[2] = (40 + (h >> 16) % 50) / 255.0;
    }
  for (int i = 0; i < 3; i++)       /* callers over the zoom: paler */
    rgb[i] = (b->caller ? rgb[i] + (1 - rgb[i]) * 0.5 : rgb[i]) * k;
}

static void
draw_label (cairo_t *cr, PangoLayout *text, const char *name, double x, double y, double w,
            gboolean dark)
{
  int height;

  if (w < 24)
    return;                                     /* no room for a letter and "…" */
  pango_layout_set_text (text, name, -1);
  pango_layout_set_width (text, (int) ((w - 6) * PANGO_SCALE));
  pango_layout_get_pixel_size (text, NULL, &height);
  cairo_set_source_rgb (cr, dark ? 0.95 : 0.05, dark ? 0.95 : 0.05, dark ? 0.95 : 0.05);
  cairo_move_to (cr, x + 3, y + (ET_FLAME_ROW_HEIGHT - 1 - height) / 2.0);
  pango_cairo_show_layout (cr, text);
}

void
et_flame_draw (cairo_t *cr, const EtFlameLayout *layout, const EtCallTree *tree, double width,
               gint hover, const char *root_label, gboolean dark)
{
  g_autoptr(PangoLayout) text = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");
  g_autoptr(GString) name = g_string_new (NULL);
  double clip_y0, clip_y1;

  /* Only the rows the caller's clip shows: a deep tree in a scrolled
   * window has hundreds of rows, a screen a dozen. */
  cairo_clip_extents (cr, NULL, &clip_y0, NULL, &clip_y1);
  pango_layout_set_font_description (text, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  for (guint i = 0; layout != NULL && i < layout->boxes->len; i++)
    {
      const EtFlameBox *b = &g_array_index (layout->boxes, EtFlameBox, i);
      double x = floor (b->x0 * width), w = floor (b->x1 * width) - x;
      double y = b->depth * ET_FLAME_ROW_HEIGHT, rgb[3];

      if (w < 1 || y + ET_FLAME_ROW_HEIGHT < clip_y0 || y > clip_y1)
        continue;
      g_string_truncate (name, 0);
      if (b->node == 0)
        g_string_append (name, root_label);
      else
        et_call_tree_append_name (tree, b->node, name);
      box_colour (tree, b, name, dark, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, y, MAX (w - 1, 1), ET_FLAME_ROW_HEIGHT - 1);
      cairo_fill (cr);
      if ((gint) i == hover)
        {
          cairo_set_source_rgb (cr, dark ? 1 : 0, dark ? 1 : 0, dark ? 1 : 0);
          cairo_set_line_width (cr, 1.5);
          cairo_rectangle (cr, x + 0.75, y + 0.75, MAX (w - 2.5, 1), ET_FLAME_ROW_HEIGHT - 2.5);
          cairo_stroke (cr);
        }
      draw_label (cr, text, name->str, x, y, w, dark);
    }
}
