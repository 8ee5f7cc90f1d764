/* et-search.c — see et-search.h. Matching is on case-folded UTF-8 text, so
 * "straße" finds "STRASSE" as a person expects.
 *
 * Channels are shared out to a thread per core, each decoding with its own
 * scratch; the matches are put in time order at the end. */
#include "et-search.h"
#include "et-trace-private.h"
#include "et-derived.h"
#include "et-trace-decode.h"
#include "et-workers.h"

#include <string.h>

/* Whether @haystack contains @needle (case-folded). An ASCII needle is
 * first looked for byte by byte without folding a copy: for ASCII, folding
 * is lowering the letters, and a match of ASCII bytes stays a match in the
 * folded text. Only a haystack with other bytes, where folding could make
 * a match (the Kelvin sign folds to "k"), is folded when that finds none. */
static gboolean
contains (const char *haystack, gssize len, const char *folded_needle, gboolean needle_ascii)
{
  gsize n = len < 0 ? strlen (haystack) : (gsize) len, k = strlen (folded_needle);
  g_autofree char *folded = NULL;

  if (needle_ascii)
    {
      guchar high = 0, first = (guchar) folded_needle[0];
      /* The needle is folded: its first byte is lower case already, and
       * only a letter has another case to match. */
      guchar other = g_ascii_islower (first) ? (guchar) (first - 'a' + 'A') : first;

      for (gsize i = 0; i < n; i++)
        {
          guchar c = (guchar) haystack[i];

          high |= c;
          if ((c == first || c == other) && i + k <= n
              && g_ascii_strncasecmp (haystack + i, folded_needle, k) == 0)
            return TRUE;
        }
      if (high < 0x80)
        return FALSE;
    }
  folded = g_utf8_casefold (haystack, (gssize) n);
  return strstr (folded, folded_needle) != NULL;
}

/* How many markers ahead a search asks for their events. */
#define PREFETCH_AHEAD 8

/* What one searching thread needs of its own. */
typedef struct
{
  EtTrace      *trace;
  const char   *needle;        /* case-folded */
  gboolean      needle_ascii;
  GCancellable *cancellable;
  gint         *next;          /* atomic: the next channel to take */
  EtFields     *fields;
  EtSchemaCache schemas;
  EtRuleResult  rules;
  GString      *scratch;
  GArray       *found;         /* EtMarkerRef */
} ET_WORKER_ITEM Searcher;

/* The marker's text (as et_trace_marker_text makes it), its event's name
 * and every payload value, from one decoding of its event. A text made
 * from the fields (text rule 3) holds every value but the cv fields' as
 * formatted here: a needle in such a value is in the text already, so
 * only the cv fields are formatted again. */
static gboolean
marker_matches (Searcher *s, const EtMarker *m)
{
  EtEvent event;
  gboolean text_has_values;

  _et_trace_decode_event (s->trace, m->event, &s->schemas, &event, s->fields, NULL);
  et_trace_explain_marker (s->trace, &event, s->fields, &s->rules);
  if (contains (s->rules.text->str, (gssize) s->rules.text->len, s->needle, s->needle_ascii)
      || contains (event.name, -1, s->needle, s->needle_ascii))
    return TRUE;
  text_has_values = s->rules.text_rule == ET_RULE_EVENT_NAME;
  /* Derived values (et-derived.h) are in no marker text: always looked at. */
  _et_derived_append (s->trace, m->event, &event, s->fields);
  for (guint i = 0; i < et_fields_len (s->fields); i = et_fields_next (s->fields, i))
    {
      const EtField *f = et_fields_get (s->fields, i);

      if (text_has_values && !f->derived && !et_marker_rules_is_cv_field (f->name))
        continue;
      g_string_truncate (s->scratch, 0);
      et_fields_format_value (s->fields, i, s->scratch);
      if (contains (s->scratch->str, (gssize) s->scratch->len, s->needle, s->needle_ascii))
        return TRUE;
    }
  return FALSE;
}

static gpointer
search_channels (gpointer data)
{
  Searcher *s = data;
  guint c;

  et_worker_begin ();
  while ((c = (guint) g_atomic_int_add (s->next, 1)) < et_trace_get_n_channels (s->trace))
    {
      const EtChannel *ch = et_trace_get_channel (s->trace, c);

      if (g_cancellable_is_cancelled (s->cancellable))
        break;
      for (guint i = 0; i < ch->n_markers; i++)
        {
          /* A channel's events are spread over the whole file: ask for
           * their slots and then their records ahead of decoding them. */
          if (i + 2 * PREFETCH_AHEAD < ch->n_markers)
            __builtin_prefetch (&s->trace->events[ch->markers[i + 2 * PREFETCH_AHEAD].event]);
          if (i + PREFETCH_AHEAD < ch->n_markers)
            _et_trace_prefetch_event (s->trace, ch->markers[i + PREFETCH_AHEAD].event, 1);
          if (marker_matches (s, &ch->markers[i]))
            {
              EtMarkerRef r = { c, i };
              g_array_append_val (s->found, r);
            }
        }
    }
  return NULL;
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
  guint n;
  g_autofree char *folded = NULL;
  Searcher *searchers;
  gboolean needle_ascii = TRUE;
  gint next = 0;
  GArray *found;

  g_return_val_if_fail (ET_IS_TRACE (trace), NULL);
  g_return_val_if_fail (needle != NULL, NULL);

  found = g_array_new (FALSE, FALSE, sizeof (EtMarkerRef));
  if (*needle == '\0')
    return found;
  folded = g_utf8_casefold (needle, -1);
  for (const char *p = folded; *p != '\0'; p++)
    needle_ascii &= (guchar) *p < 0x80;
  n = et_workers_count (et_trace_get_stats (trace)->markers, 100000);
  searchers = et_workers_new (n, sizeof *searchers);
  for (guint k = 0; k < n; k++)
    {
      searchers[k] = (Searcher) { trace, folded, needle_ascii, cancellable, &next,
                                  et_fields_new () };
      et_rule_result_init (&searchers[k].rules);
      searchers[k].scratch = g_string_new (NULL);
      searchers[k].found = g_array_new (FALSE, FALSE, sizeof (EtMarkerRef));
    }
  et_workers_run (searchers, sizeof *searchers, n, search_channels, "etlscope-search");
  for (guint k = 0; k < n; k++)
    {
      g_array_append_vals (found, searchers[k].found->data, searchers[k].found->len);
      g_array_unref (searchers[k].found);
      g_string_free (searchers[k].scratch, TRUE);
      et_rule_result_clear (&searchers[k].rules);
      et_fields_free (searchers[k].fields);
    }
  et_workers_free (searchers);
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_array_unref (found);
      return NULL;
    }
  if (found->len > 1)
    g_qsort_with_data (found->data, (gint) found->len, sizeof (EtMarkerRef), compare_refs, trace);
  return found;
}
