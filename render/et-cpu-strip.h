/* et-cpu-strip.h — a thread header's CPU-use strip: per two pixels, a bar
 * as tall as the part of that time the thread was on a CPU (from context
 * switches, else estimated from CPU samples: model/trace/et-trace-cpu.h).
 *
 * Collapsed, the header's strip grows by ET_CPU_STRIP_PX for it, between
 * the marker density strip and the merged lanes; expanded, it sits at the
 * bottom of the header, the density band moved up. A thread without
 * samples or switches draws nothing and keeps its height.
 */
#pragma once

#include <cairo.h>
#include "et-layout.h"
#include "et-trace-cpu.h"
#include "et-viewport.h"

G_BEGIN_DECLS

#define ET_CPU_STRIP_PX 8      /* the band's full height, with a pixel of air */
#define ET_CPU_COLUMN_PX 2     /* pixels per bar */

/* What a collapsed thread header holds above its lanes: the density strip
 * and, when the thread has CPU data, the CPU-use band. */
int      et_thread_strip_px    (EtTrace          *trace,
                                guint             thread);
/* The same of a collapsed process (its CPU band: et_cpu_strip_process_threads). */
int      et_process_strip_px   (EtTrace          *trace,
                                guint             process);

/* The band of thread header @row whose top is at @top: its top and height
 * (bars grow up from its bottom); FALSE when the thread has no CPU data. */
gboolean et_cpu_strip_band     (EtTrace          *trace,
                                const EtRow      *row,
                                double            top,
                                double           *band_top,
                                double           *band_height);

/* The band's colour in @viewport's theme (0–1 each). */
void     et_cpu_strip_rgb      (const EtViewport *viewport,
                                double            rgb[3]);

/* Draws thread header @row's band (nothing without CPU data). */
void     et_cpu_strip_draw     (cairo_t          *cr,
                                EtTrace          *trace,
                                const EtViewport *viewport,
                                const EtRow      *row,
                                double            top);

/* A collapsed process's header: its threads' CPU use summed, as a share
 * of the trace's processors, in a band at its bottom. Only for a process
 * of at most ET_CPU_PROCESS_THREADS threads with CPU data (each is asked
 * once a frame): et_cpu_strip_process_threads says whether it has one. */
#define ET_CPU_PROCESS_THREADS 64
gboolean et_cpu_strip_process_threads (EtTrace        *trace,
                                       guint           process);
void     et_cpu_strip_draw_process    (cairo_t          *cr,
                                       EtTrace          *trace,
                                       const EtViewport *viewport,
                                       const EtRow      *row,
                                       double            top);

/* A bar of a CPU-use strip under the pointer. */
typedef struct
{
  guint       thread;
  EtCpuSource source;
  gint64      from_ns, to_ns;   /* the bar's time */
  float       fraction;         /* on CPU, 0–1 */
  guint       samples;          /* CPU samples of the thread there */
} EtCpuHit;

/* Whether (@x, @y) is on a thread header's CPU-use band; fills @hit. */
gboolean et_cpu_strip_hit_test (EtTrace          *trace,
                                EtLayout         *layout,
                                const EtViewport *viewport,
                                double            x,
                                double            y,
                                EtCpuHit         *hit);

G_END_DECLS
