/* et-sort.c — see et-sort.h. */
#include "et-sort.h"

#include <string.h>

void
et_sort_u64 (guint64 *v, guint n)
{
  g_autofree guint64 *tmp = NULL;
  guint64 all = ~(guint64) 0, any = 0;
  gboolean in_order = TRUE;

  for (guint i = 0; i < n; i++)
    {
      all &= v[i], any |= v[i];
      in_order &= i == 0 || v[i - 1] <= v[i];
    }
  if (in_order)
    return;
  tmp = g_new (guint64, n);
  for (guint shift = 0; shift < 64; shift += 8)
    {
      guint count[257] = { 0 };

      if ((((all ^ any) >> shift) & 0xFF) == 0)
        continue;                         /* every value has the same byte here */
      for (guint i = 0; i < n; i++)
        count[((v[i] >> shift) & 0xFF) + 1]++;
      for (guint b = 1; b < 257; b++)
        count[b] += count[b - 1];
      for (guint i = 0; i < n; i++)
        tmp[count[(v[i] >> shift) & 0xFF]++] = v[i];
      memcpy (v, tmp, n * sizeof *v);
    }
}
