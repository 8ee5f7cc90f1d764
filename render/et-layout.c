/* et-layout.c — rows of the timeline (see et-layout.h). */
#include "et-layout.h"

struct _EtLayout
{
  EtTrace  *trace;
  guint    *lanes;       /* per channel */
  gboolean *collapsed;   /* per process */
  GArray   *rows;        /* EtRow */
  gint     *row_of_channel;
  int       lane_height;
  int       height;
  gboolean *provider_hidden;  /* per provider */
  EtImportance min_importance;
  guint     kinds;
};

EtLayout *
et_layout_new (EtTrace *trace)
{
  EtLayout *l = g_new0 (EtLayout, 1);
  guint n = et_trace_get_n_channels (trace);

  l->trace = g_object_ref (trace);
  l->lanes = g_new0 (guint, MAX (n, 1));
  l->row_of_channel = g_new (gint, MAX (n, 1));
  l->collapsed = g_new0 (gboolean, MAX (et_trace_get_n_processes (trace), 1));
  l->provider_hidden = g_new0 (gboolean, MAX (et_trace_get_n_providers (trace), 1));
  l->rows = g_array_new (FALSE, FALSE, sizeof (EtRow));
  for (guint c = 0; c < n; c++)
    {
      const EtChannel *ch = et_trace_get_channel (trace, c);
      guint deepest = 0;
      for (guint i = 0; i < ch->n_markers; i++)
        deepest = MAX (deepest, ch->markers[i].depth);
      l->lanes[c] = deepest + 1;
    }
  et_layout_update (l, 18);
  return l;
}

void
et_layout_free (EtLayout *l)
{
  if (l == NULL)
    return;
  g_object_unref (l->trace);
  g_free (l->lanes);
  g_free (l->collapsed);
  g_free (l->provider_hidden);
  g_free (l->row_of_channel);
  g_array_unref (l->rows);
  g_free (l);
}

void
et_layout_update (EtLayout *l, int lane_height)
{
  int y = 0;

  l->lane_height = lane_height;
  g_array_set_size (l->rows, 0);
  for (guint c = 0; c < et_trace_get_n_channels (l->trace); c++)
    l->row_of_channel[c] = -1;
  for (guint p = 0; p < et_trace_get_n_processes (l->trace); p++)
    {
      const EtProcess *process = et_trace_get_process (l->trace, p);
      EtRow header = { ET_ROW_PROCESS, p, y, lane_height + 6, 0 };
      gboolean any = FALSE;

      for (guint t = 0; t < process->n_threads; t++)
        {
          const EtThread *thread = et_trace_get_thread (l->trace, process->first_thread + t);
          for (guint k = 0; k < thread->n_channels; k++)
            any |= !l->provider_hidden[et_trace_get_channel (l->trace, thread->first_channel + k)->provider];
        }
      if (!any)
        continue;                       /* processes without markers are not shown */
      g_array_append_val (l->rows, header);
      y += header.height;
      if (l->collapsed[p])
        continue;
      for (guint t = 0; t < process->n_threads; t++)
        {
          const EtThread *thread = et_trace_get_thread (l->trace, process->first_thread + t);
          for (guint k = 0; k < thread->n_channels; k++)
            {
              guint c = thread->first_channel + k;
              EtRow row;

              if (l->provider_hidden[et_trace_get_channel (l->trace, c)->provider])
                continue;
              row = (EtRow) { ET_ROW_CHANNEL, c, y, (int) l->lanes[c] * lane_height + 2, l->lanes[c] };
              l->row_of_channel[c] = (gint) l->rows->len;
              g_array_append_val (l->rows, row);
              y += row.height;
            }
        }
    }
  l->height = y;
}

void
et_layout_set_collapsed (EtLayout *l, guint process, gboolean collapsed)
{
  g_return_if_fail (process < et_trace_get_n_processes (l->trace));
  l->collapsed[process] = collapsed;
  et_layout_update (l, l->lane_height);
}

gboolean
et_layout_get_collapsed (EtLayout *l, guint process)
{
  g_return_val_if_fail (process < et_trace_get_n_processes (l->trace), FALSE);
  return l->collapsed[process];
}

guint
et_layout_n_rows (EtLayout *l)
{
  return l->rows->len;
}

const EtRow *
et_layout_row (EtLayout *l, guint index)
{
  g_return_val_if_fail (index < l->rows->len, NULL);
  return &g_array_index (l->rows, EtRow, index);
}

int
et_layout_height (EtLayout *l)
{
  return l->height;
}

const EtRow *
et_layout_channel_row (EtLayout *l, guint channel)
{
  g_return_val_if_fail (channel < et_trace_get_n_channels (l->trace), NULL);
  return l->row_of_channel[channel] < 0 ? NULL
         : &g_array_index (l->rows, EtRow, l->row_of_channel[channel]);
}

void
et_layout_set_provider_visible (EtLayout *l, guint provider, gboolean visible)
{
  g_return_if_fail (provider < et_trace_get_n_providers (l->trace));
  l->provider_hidden[provider] = !visible;
  et_layout_update (l, l->lane_height);
}

gboolean
et_layout_get_provider_visible (EtLayout *l, guint provider)
{
  g_return_val_if_fail (provider < et_trace_get_n_providers (l->trace), FALSE);
  return !l->provider_hidden[provider];
}

void
et_layout_set_min_importance (EtLayout *l, EtImportance importance)
{
  l->min_importance = importance;
}

EtImportance
et_layout_get_min_importance (EtLayout *l)
{
  return l->min_importance;
}

guint
et_layout_get_kinds (EtLayout *l)
{
  return l->kinds;
}

void
et_layout_set_kinds (EtLayout *l, guint kinds)
{
  l->kinds = kinds;
}

gboolean
et_layout_marker_visible (EtLayout *l, const EtMarker *m)
{
  return m->importance >= l->min_importance && (l->kinds == 0 || (l->kinds & (1u << m->kind)))
         && !l->provider_hidden[m->provider];
}

gboolean
et_layout_kind_visible (EtLayout *l, EtMarkerKind kind)
{
  return l->kinds == 0 || (l->kinds & (1u << kind));
}

/* Keep in step with et_layout_marker_visible: everything it tests besides
 * the kind and the provider (which hold for a whole channel). */
gboolean
et_layout_filters_single_markers (EtLayout *l)
{
  return l->min_importance > ET_IMPORTANCE_LOW;
}

void
et_layout_row_label (EtLayout *l, const EtRow *row, GString *out)
{
  if (row->kind == ET_ROW_PROCESS)
    {
      const EtProcess *p = et_trace_get_process (l->trace, row->index);
      if (p->has_ids)
        g_string_append_printf (out, "%s (%u)", p->name, p->pid);
      else
        g_string_append (out, p->name);
    }
  else
    {
      const EtChannel *c = et_trace_get_channel (l->trace, row->index);
      const EtThread *t = et_trace_get_thread (l->trace, et_trace_channel_thread (l->trace, row->index));
      const char *series = et_trace_get_string (l->trace, c->series);
      const char *provider = et_trace_get_provider (l->trace, c->provider)->name;

      if (*series != '\0')
        g_string_append_printf (out, "%u %s: %s", t->tid, series, provider);
      else
        g_string_append_printf (out, "%u %s", t->tid, provider);
    }
}
