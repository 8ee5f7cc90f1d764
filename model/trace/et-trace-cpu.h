/* et-trace-cpu.h — when each thread was on a CPU: what a thread header's
 * CPU-use strip draws at any zoom.
 *
 * Built while loading from the CPU samples (PerfInfo/SampledProfile, a
 * .nettrace's Thread/Sample; attributed as EtThread.n_samples is) and the
 * kernel's context switches (Thread/CSwitch: NewThreadId is switched in,
 * OldThreadId out). Kept per thread as delta-coded times: 4 bytes per
 * sample, 8 per context switch (the new thread's "in", the old one's
 * "out"), plus one 20-byte checkpoint per 256 times.
 */
#pragma once

#include "et-trace.h"

G_BEGIN_DECLS

typedef enum
{
  ET_CPU_NONE,            /* neither samples nor switches of this thread */
  ET_CPU_FROM_SWITCHES,   /* exact: the time between switched in and out */
  ET_CPU_FROM_SAMPLES,    /* estimated: samples × the sampling interval */
} EtCpuSource;

/* The sampling interval samples are weighed with: the trace's
 * PerfInfo/SetInterval or CollectionStart of the timer source
 * (NewInterval, 100 ns units; the latest one), else 1 ms, the default of
 * Windows and of EventPipe's sample profiler. */
#define ET_CPU_DEFAULT_INTERVAL_NS 1000000

gint64      et_trace_sample_interval_ns (EtTrace *self);
/* Whether the trace has context switches at all. */
gboolean    et_trace_has_cswitches      (EtTrace *self);
/* Where @thread's CPU use comes from: its switches when it has any, else
 * its samples. */
EtCpuSource et_trace_thread_cpu_source  (EtTrace *self,
                                         guint    thread);
/* @thread's time on CPU over the whole trace from context switches, in
 * ns (0 without switches). A thread switched in by the last switch of a
 * CPU counts until the trace's end; one whose first switch takes it off a
 * CPU, from the trace's start. */
gint64      et_trace_thread_on_cpu_ns   (EtTrace *self,
                                         guint    thread);
/* @thread's CPU time over the whole trace as its strip counts it: from
 * context switches when it has any, else its samples × the sampling
 * interval; 0 without either. */
gint64      et_trace_thread_cpu_ns      (EtTrace *self,
                                         guint    thread);

/* The fraction (0–1) of each of @n columns splitting [@from_ns, @to_ns)
 * evenly that @thread spent on a CPU, into @fraction, and, when @samples
 * is not NULL, the CPU samples of @thread in each column (by their time).
 * From context switches when the thread has any (the part of the column
 * between switched in and switched out), else from samples: each stands
 * for the sampling interval that ends with it, and a column gets the part
 * those intervals cover (at most 1) — in columns much longer than the
 * interval, count × interval / the column's length. Returns the source;
 * with ET_CPU_NONE every column is 0. Column c starts at
 * @from_ns + ⌈c·(@to_ns − @from_ns)/@n⌉ (whole nanoseconds). Costs the
 * lesser of the thread's samples or switches in the range and about 50
 * per column (et-trace-cpu-query.c), whatever the zoom. */
EtCpuSource et_trace_thread_cpu_use     (EtTrace *self,
                                         guint    thread,
                                         gint64   from_ns,
                                         gint64   to_ns,
                                         guint    n,
                                         float   *fraction,
                                         guint   *samples);

G_END_DECLS
