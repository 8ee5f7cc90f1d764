/* et-search.c — see et-search.h. Matching is on case-folded UTF-8 text, so
 * "straße" finds "STRASSE" as a person expects. */
#include "et-search.h"

#include <stdlib.h>

static gboolean
contains (const char *haystack, gssize len, const char *folded_needle)
{
  g_autofree char *folded = g_utf8_casefold (haystack, len);
  return strstr (folded, folded_needle) != NULL;
}

static gboolean
marker_matches (EtTrace *trace, const EtMarker *m, const char *needle, EtFields *fields,
                GString *scratch)
{
  EtEvent event;

  g_string_truncate (scratch, 0);
  et_trace_marker_text (trace, m, scratch);
  if (contains (scratch->str, (gssize) scratch->len, needle))
    return TRUE;
  et_trace_decode_event (trace, m->event, &event, fields, NULL);
  if (contains (event.name, -1, needle))
    return TRUE;
  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    {
      g_string_truncate (scratch, 0);
      et_fields_format_value (fields, i, scratch);
      if (contains (scratch->str, (gssize) scratch->len, needle))
        return TRUE;
    }
  return FALSE;
}

static int
compare_refs (gconstpointer a, gconstpointer b, gpointer data)
{
  EtTrace *trace = data;
  const EtMarkerRef *x = a, *y = b;
  const EtMarker *mx = &et_trace_get_channel (trace, x->channel)->markers[x->index];
  const EtMarker *my = &et_trace_get_channel (trace, y->channel)->markers[y->index];

  if (mx->start_ns != my->start_ns)
    return mx->start_ns < my->start_ns ? -1 : 1;
  return mx->event < my->event ? -1 : mx->event > my->event;
}

GArray *
et_trace_search (EtTrace *trace, const char *needle, GCancellable *cancellable)
{
  g_autofree char *folded = NULL;
  g_autoptr(GString) scratch = g_string_new (NULL);
  EtFields *fields;
  GArray *found;

  g_return_val_if_fail (ET_IS_TRACE (trace), NULL);
  g_return_val_if_fail (needle != NULL, NULL);

  found = g_array_new (FALSE, FALSE, sizeof (EtMarkerRef));
  if (*needle == '\0')
    return found;
  folded = g_utf8_casefold (needle, -1);
  fields = et_fields_new ();
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_clear_pointer (&found, g_array_unref);
          break;
        }
      for (guint i = 0; i < ch->n_markers; i++)
        if (marker_matches (trace, &ch->markers[i], folded, fields, scratch))
          {
            EtMarkerRef r = { c, i };
            g_array_append_val (found, r);
          }
    }
  et_fields_free (fields);
  if (found != NULL && found->len > 1)
    g_qsort_with_data (found->data, (gint) found->len, sizeof (EtMarkerRef), compare_refs, trace);
  return found;
}
