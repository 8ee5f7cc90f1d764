/* et-time.h — saturating arithmetic on nanoseconds and ticks.
 *
 * A damaged file can hold any 64-bit timestamp; times derived from it
 * (durations, viewport edges, ruler ticks) must stop at the ends of the
 * 64-bit range instead of wrapping, so that order is kept and no loop
 * over time runs forever. Every sum, difference and product of times in
 * model/, render/ and app/ goes through these.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline gint64
et_time_add (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

/* a − b, e.g. a duration end − start. */
static inline gint64
et_time_sub (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_sub_overflow (a, b, &r))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

static inline gint64
et_time_mul (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_mul_overflow (a, b, &r))
    return (a < 0) == (b < 0) ? G_MAXINT64 : G_MININT64;
  return r;
}

/* @t clamped to [@lo, @hi]. */
static inline gint64
et_time_clamp (gint64 t, gint64 lo, gint64 hi)
{
  return t < lo ? lo : t > hi ? hi : t;
}

G_END_DECLS
