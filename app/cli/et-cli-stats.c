/* et-cli-stats.c — "etlscope-cli stats FILE [--from T] [--to T] [filters]".
 *
 *   EtTrace ─ EtCliFilter (as the markers command) ─ et_stats_compute ─ rows
 *        └─ text (aligned table, human units) | json | csv
 *
 * JSON: {"series": [{"provider", "series", "kind", "count", "total_ns",
 * "min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"}, …]}, one
 * object per provider × series × kind. Every object has every key, so a
 * consumer reads one shape: flag and message rows have null durations
 * (total included), as markers --format=jsonl has null for an end that is
 * not there. mean_ns is an integer, total / count rounded to the nearest
 * nanosecond, halves up.
 */
#include "et-cli-stats.h"
#include "et-cli-options.h"
#include "et-cli-output.h"
#include "et-stats.h"
#include "et-i18n.h"

#include <string.h>

static const char *const duration_keys[] = {
  "total_ns", "min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns",
};
#define N_DURATIONS G_N_ELEMENTS (duration_keys)

static void
row_durations (const EtStatsRow *row, gint64 d[N_DURATIONS])
{
  d[0] = row->total_ns;
  d[1] = row->min_ns;
  d[2] = row->mean_ns;
  d[3] = row->p50_ns;
  d[4] = row->p90_ns;
  d[5] = row->p99_ns;
  d[6] = row->max_ns;
}

static gboolean
cli_channel (EtTrace *trace, guint channel, gpointer data)
{
  return et_cli_filter_channel (data, trace, channel);
}

static gboolean
cli_marker (const EtMarker *m, gpointer data)
{
  return et_cli_filter_marker (data, m);
}

static const char *
row_provider (EtTrace *trace, const EtStatsRow *row)
{
  return et_trace_get_provider (trace, row->provider)->name;
}

/* ---- JSON and CSV ----------------------------------------------------- */

static void
write_json (EtCliOut *out, EtTrace *trace, GArray *rows)
{
  GString *s = out->line;

  g_string_append (s, "{\"series\":[");
  for (guint i = 0; i < rows->len; i++)
    {
      const EtStatsRow *row = &g_array_index (rows, EtStatsRow, i);
      gint64 d[N_DURATIONS];

      row_durations (row, d);
      if (i > 0)
        g_string_append_c (s, ',');
      et_cli_out_end_line (out, NULL);
      g_string_append_c (s, '{');
      et_cli_json_string (s, "provider", row_provider (trace, row));
      et_cli_json_string (s, "series", et_trace_get_string (trace, row->series));
      et_cli_json_string (s, "kind", et_marker_kind_to_string (row->kind));
      et_cli_json_uint (s, "count", row->count);
      for (guint k = 0; k < N_DURATIONS; k++)
        if (row->kind == ET_MARKER_SPAN)
          et_cli_json_int (s, duration_keys[k], d[k]);
        else
          et_cli_json_null (s, duration_keys[k]);
      g_string_append_c (s, '}');
    }
  if (rows->len > 0)
    et_cli_out_end_line (out, NULL);
  g_string_append (s, "]}");
  et_cli_out_end_line (out, NULL);
}

static void
write_csv (EtCliOut *out, EtTrace *trace, GArray *rows)
{
  GString *s = out->line;

  g_string_append (s, "provider,series,kind,count");
  for (guint k = 0; k < N_DURATIONS; k++)
    {
      g_string_append_c (s, ',');
      g_string_append (s, duration_keys[k]);
    }
  et_cli_out_end_line (out, ET_CLI_CSV_EOL);
  for (guint i = 0; i < rows->len; i++)
    {
      const EtStatsRow *row = &g_array_index (rows, EtStatsRow, i);
      gint64 d[N_DURATIONS];

      row_durations (row, d);
      et_cli_csv_value (s, row_provider (trace, row), -1);
      g_string_append_c (s, ',');
      et_cli_csv_value (s, et_trace_get_string (trace, row->series), -1);
      g_string_append_c (s, ',');
      g_string_append (s, et_marker_kind_to_string (row->kind));
      g_string_append_c (s, ',');
      et_string_append_uint (s, row->count);
      for (guint k = 0; k < N_DURATIONS; k++)
        {
          g_string_append_c (s, ',');
          if (row->kind == ET_MARKER_SPAN)
            et_string_append_int (s, d[k]);
        }
      et_cli_out_end_line (out, ET_CLI_CSV_EOL);
    }
}

/* ---- text ------------------------------------------------------------- */

/* A duration for the table: whole nanoseconds below a microsecond, else
 * three decimals of the largest unit that keeps a digit before the point
 * (rounded to nearest, halves away from zero), so that a column reads
 * evenly: "999 ns", "75.300 µs", "4.623 s". */
static void
append_duration (GString *s, gint64 ns)
{
  static const struct { gint64 scale; const char *unit; } units[] = {
    { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "\302\265s" },
  };
  guint64 mag = ns < 0 ? -(guint64) ns : (guint64) ns;
  guint u;

  if (ns < 0)
    g_string_append_c (s, '-');
  for (u = 0; u < G_N_ELEMENTS (units) && mag < (guint64) units[u].scale; u++)
    ;
  if (u == G_N_ELEMENTS (units))
    {
      g_string_append_printf (s, "%" G_GUINT64_FORMAT " ns", mag);
      return;
    }
  {
    guint64 milli = units[u].scale / 1000;
    guint64 thousandths = mag / milli + (mag % milli >= (milli + 1) / 2 ? 1 : 0);

    g_string_append_printf (s, "%" G_GUINT64_FORMAT ".%03u %s", thousandths / 1000,
                            (guint) (thousandths % 1000), units[u].unit);
  }
}

#define N_COLUMNS (4 + N_DURATIONS)

/* The table's cells, row by row (the header first), so that each column
 * can be as wide as its widest cell. */
static GPtrArray *
text_cells (EtTrace *trace, GArray *rows)
{
  const char *header[N_COLUMNS] = {
    /* Translators: column headings of "etlscope-cli stats". */
    _("Provider"), _("Series"), _("Kind"), _("Count"), _("Total"), _("Min"), _("Mean"),
    "p50", "p90", "p99", _("Max"),
  };
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) s = g_string_new (NULL);
  char guid[ET_GUID_STRING_LEN];

  for (guint c = 0; c < N_COLUMNS; c++)
    g_ptr_array_add (cells, g_strdup (header[c]));
  for (guint i = 0; i < rows->len; i++)
    {
      const EtStatsRow *row = &g_array_index (rows, EtStatsRow, i);
      const char *provider = row_provider (trace, row);
      gint64 d[N_DURATIONS];

      if (*provider == '\0')
        {
          et_guid_to_string (&et_trace_get_provider (trace, row->provider)->guid, guid);
          provider = guid;
        }
      row_durations (row, d);
      g_ptr_array_add (cells, g_strdup (provider));
      g_ptr_array_add (cells, g_strdup (et_trace_get_string (trace, row->series)));
      g_ptr_array_add (cells, g_strdup (et_marker_kind_to_string (row->kind)));
      g_ptr_array_add (cells, g_strdup_printf ("%" G_GUINT64_FORMAT, row->count));
      for (guint k = 0; k < N_DURATIONS; k++)
        {
          g_string_assign (s, row->kind == ET_MARKER_SPAN ? "" : "-");
          if (row->kind == ET_MARKER_SPAN)
            append_duration (s, d[k]);
          g_ptr_array_add (cells, g_strdup (s->str));
        }
    }
  return cells;
}

/* Names to the left, numbers to the right, two spaces between. */
static void
write_text (EtCliOut *out, EtTrace *trace, GArray *rows)
{
  g_autoptr(GPtrArray) cells = text_cells (trace, rows);
  glong width[N_COLUMNS] = { 0 };
  guint n_lines = cells->len / N_COLUMNS;

  for (guint i = 0; i < cells->len; i++)
    width[i % N_COLUMNS] = MAX (width[i % N_COLUMNS], g_utf8_strlen (cells->pdata[i], -1));
  for (guint l = 0; l < n_lines; l++)
    {
      GString *s = out->line;

      for (guint c = 0; c < N_COLUMNS; c++)
        {
          const char *cell = cells->pdata[l * N_COLUMNS + c];
          glong pad = width[c] - g_utf8_strlen (cell, -1);

          if (c > 0)
            g_string_append (s, "  ");
          if (c >= 3)
            g_string_append_printf (s, "%*s", (int) pad, "");
          g_string_append (s, cell);
          if (c < 3 && c + 1 < N_COLUMNS)
            g_string_append_printf (s, "%*s", (int) pad, "");
        }
      et_cli_out_end_line (out, NULL);
    }
}

/* ---- the command ------------------------------------------------------ */

static int
write_stats (EtTrace *trace, EtCliFormat format, const EtCliFilter *filter)
{
  EtStatsFilter f = { cli_channel, cli_marker, (gpointer) filter };
  g_autoptr(GArray) rows = et_stats_compute (trace, filter->from_ns, filter->to_ns, &f);
  EtCliOut out;

  et_cli_out_init (&out, stdout);
  if (format == ET_CLI_FORMAT_JSON)
    write_json (&out, trace, rows);
  else if (format == ET_CLI_FORMAT_CSV)
    write_csv (&out, trace, rows);
  else
    write_text (&out, trace, rows);
  return et_cli_finish (trace, &out);
}

int
et_cli_stats_run (int argc, char **argv)
{
  return et_cli_run_filtered (argc, argv, "stats",
                              N_("Counts the markers of FILE per provider, series and kind, and for\n"
                                 "spans sums up their durations: total, min, mean, the 50th, 90th and\n"
                                 "99th percentile (nearest rank) and max. Counted: flags and messages\n"
                                 "at [--from, --to), spans with both ends that start there."),
                              ET_CLI_FILTER_STATS, write_stats);
}
