/* et-flows.c — see et-flows.h. The roles are by event name, as the
 * runtime's EventSources name them (TplEventSource, FrameworkEventSource),
 * so that a trace's own manifest or the built-in schemas serve alike. */
#include "et-flows.h"
#include "et-trace-decode.h"

#include <string.h>

typedef struct
{
  const char *from;      /* the cause's event name (prefix) */
  const char *to;        /* the effect's */
  const char *key;       /* the payload field both carry */
} FlowKind;

static const FlowKind kinds[] = {
  { "TaskScheduled", "TaskExecute", "TaskID" },
  { "TaskScheduled", "TaskStart", "TaskID" },
  { "ThreadPoolEnqueueWork", "ThreadPoolDequeueWork", "workID" },
};

/* The event name of @m and the integer value of @key in its payload. */
static gboolean
marker_key (EtTrace *trace, const EtMarker *m, EtFields *fields, const char **name,
            const char *key, gint64 *value)
{
  EtEvent ev;
  gint i;

  et_fields_clear (fields);
  if (!et_trace_decode_event (trace, m->event, &ev, fields, NULL) || ev.name == NULL)
    return FALSE;
  *name = ev.name;
  i = key != NULL ? et_fields_find (fields, key) : -1;
  return key == NULL || (i >= 0 && et_fields_get_integer (fields, (guint) i, value));
}

/* The flow @m plays a part in, and whether as the cause. */
static const FlowKind *
flow_of (EtTrace *trace, const EtMarker *m, EtFields *fields, gboolean *cause)
{
  const char *name = NULL;

  if (!marker_key (trace, m, fields, &name, NULL, NULL))
    return NULL;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (g_str_has_prefix (name, kinds[k].from) || g_str_has_prefix (name, kinds[k].to))
      {
        *cause = g_str_has_prefix (name, kinds[k].from);
        return &kinds[k];
      }
  return NULL;
}

/* The nearest marker of channel @c after (or before) @t whose event is
 * named @role and carries @key = @value; its index, or G_MAXUINT. */
static guint
search_channel (EtTrace *trace, guint c, gboolean forward, gint64 t, const char *role,
                const char *key, gint64 value, EtFields *fields)
{
  const EtChannel *ch = et_trace_get_channel (trace, c);

  for (guint n = 0; n < ch->n_markers; n++)
    {
      guint i = forward ? n : ch->n_markers - 1 - n;
      const EtMarker *m = &ch->markers[i];
      const char *name = NULL;
      gint64 v;

      if (forward ? m->start_ns < t : m->start_ns > t)
        continue;
      /* The role by the event's name or its series (TPL's TaskExecute
       * series holds events named TaskStarted in older runtimes). */
      if (marker_key (trace, m, fields, &name, key, &v) && v == value
          && (g_str_has_prefix (name, role)
              || g_str_has_prefix (et_trace_get_string (trace, ch->series), role)))
        return i;
    }
  return G_MAXUINT;
}

gboolean
et_trace_flow_partner (EtTrace *trace, guint channel, guint index, gboolean forward,
                       guint *to_channel, guint *to_index)
{
  const EtChannel *ch;
  const EtMarker *m, *best = NULL;
  EtFields *fields;
  const FlowKind *kind;
  gboolean cause = FALSE;
  const char *name = NULL, *role;
  gint64 value = 0;
  guint32 thread;

  g_return_val_if_fail (ET_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (channel < et_trace_get_n_channels (trace), FALSE);
  ch = et_trace_get_channel (trace, channel);
  g_return_val_if_fail (index < ch->n_markers, FALSE);
  m = &ch->markers[index];
  fields = et_fields_new ();
  kind = flow_of (trace, m, fields, &cause);
  /* A cause's partner is ahead of it, an effect's behind. */
  if (kind == NULL || cause != forward
      || !marker_key (trace, m, fields, &name, kind->key, &value))
    {
      et_fields_free (fields);
      return FALSE;
    }
  role = cause ? kind->to : kind->from;
  thread = et_trace_channel_thread (trace, channel);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    {
      const EtChannel *other = et_trace_get_channel (trace, c);
      guint i;

      /* Only the provider's channels, on other threads. */
      if (et_channel_provider (other) != et_channel_provider (ch) || et_trace_channel_thread (trace, c) == thread)
        continue;
      i = search_channel (trace, c, forward, m->start_ns, role, kind->key, value, fields);
      if (i != G_MAXUINT && (best == NULL || (forward ? other->markers[i].start_ns < best->start_ns
                                                      : other->markers[i].start_ns > best->start_ns)))
        {
          best = &other->markers[i];
          *to_channel = c, *to_index = i;
        }
    }
  et_fields_free (fields);
  return best != NULL;
}
