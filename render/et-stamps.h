/* et-stamps.h — small marks drawn once per picture, then copied.
 *
 *   first use of (shape, colour, size) ─► draw it into a small image
 *   every use                           ─► copy its pixels at a whole pixel
 *
 * At whole-trace zoom a picture holds thousands of flags, messages and
 * count digits; filling and stroking each one as a path was most of the
 * drawing time. Copying a ready image's pixels at a whole-pixel position
 * costs a small fraction of that; plain bars are filled the same way. Only
 * raster (ARGB32, RGB24) targets get stamps: SVG and PDF keep real paths,
 * and so do recordings, whose final pixel density is unknown.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtStamps EtStamps;

/* Draws a mark centred on (0, 0) in user units. */
typedef void (*EtStampDrawFunc) (cairo_t *cr, gconstpointer data);

/* Stamps for drawing on @cr, or NULL when @cr does not draw pixels
 * directly (vector and recording surfaces): draw paths there instead. */
EtStamps *et_stamps_new   (cairo_t         *cr);
void      et_stamps_free  (EtStamps        *stamps);
/* Device pixels per user unit of the target. */
double    et_stamps_scale (EtStamps        *stamps);

/* Paints the mark @key (any value that tells its shape, colour and size
 * apart) centred near (@cx, @cy), at the nearest whole device pixel. The
 * first time, @draw makes it, within @half_width × @half_height of the
 * centre (a pixel of margin is added for antialiasing). */
void      et_stamps_paint (EtStamps        *stamps,
                           cairo_t         *cr,
                           guint32          key,
                           double           half_width,
                           double           half_height,
                           double           cx,
                           double           cy,
                           EtStampDrawFunc  draw,
                           gconstpointer    data);

/* Reads @cr's clip (a rectangle): stamps and boxes stay inside it. Call
 * after changing the clip. */
void      et_stamps_clip  (EtStamps        *stamps,
                           cairo_t         *cr);
/* Fills a box with an opaque colour; columns it covers in part are
 * blended by how much it covers them, as cairo would. */
void      et_stamps_fill_box (EtStamps     *stamps,
                              cairo_t      *cr,
                              double        x0,
                              double        y0,
                              double        x1,
                              double        y1,
                              double        r,
                              double        g,
                              double        b);

/* A one-pixel vertical line, dashed 3 on and 2 off, in a translucent
 * colour. */
void      et_stamps_dashed_vline (EtStamps *stamps,
                                  cairo_t  *cr,
                                  double    x,
                                  double    y0,
                                  double    y1,
                                  double    r,
                                  double    g,
                                  double    b,
                                  double    alpha);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStamps, et_stamps_free)

G_END_DECLS
