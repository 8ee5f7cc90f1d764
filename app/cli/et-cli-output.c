/* et-cli-output.c — loading, exit statuses and fast line output for
 * etlscope-cli (see et-cli-output.h for where this sits).
 */
#include "et-cli-output.h"
#include "et-i18n.h"
#include "et-trace-load.h"

#include <errno.h>
#include <string.h>

/* Lines are written once this much has been built: large enough that
 * fwrite is rare, small enough to stay in cache. */
#define FLUSH_THRESHOLD (64 * 1024)

void
et_cli_out_init (EtCliOut *out, FILE *stream)
{
  out->stream = stream;
  out->line = g_string_sized_new (FLUSH_THRESHOLD + 4096);
  out->failed = FALSE;
}

static void
out_flush (EtCliOut *out)
{
  if (out->line->len == 0)
    return;
  if (!out->failed && fwrite (out->line->str, 1, out->line->len, out->stream) != out->line->len)
    out->failed = TRUE;
  g_string_truncate (out->line, 0);
}

void
et_cli_out_end_line (EtCliOut *out, const char *eol)
{
  if (eol == NULL)
    g_string_append_c (out->line, '\n');
  else
    g_string_append (out->line, eol);
  if (out->line->len >= FLUSH_THRESHOLD)
    out_flush (out);
}

void
et_cli_out_write (EtCliOut *out, const char *data, gsize len)
{
  out_flush (out);
  if (len > 0 && !out->failed && fwrite (data, 1, len, out->stream) != len)
    out->failed = TRUE;
}

gboolean
et_cli_out_close (EtCliOut *out)
{
  if (out->line == NULL)
    return !out->failed;
  out_flush (out);
  if (fflush (out->stream) != 0)
    out->failed = TRUE;
  g_string_free (out->line, TRUE);
  out->line = NULL;
  return !out->failed;
}

/* ---- numbers ---------------------------------------------------------- */

void
et_cli_append_seconds (GString *s, gint64 ns)
{
  guint64 magnitude = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;
  guint64 fraction = magnitude % G_GUINT64_CONSTANT (1000000000);
  char digits[9];

  if (ns < 0)
    g_string_append_c (s, '-');
  et_string_append_uint (s, magnitude / G_GUINT64_CONSTANT (1000000000));
  g_string_append_c (s, '.');
  for (int i = 8; i >= 0; i--)
    {
      digits[i] = (char) ('0' + fraction % 10);
      fraction /= 10;
    }
  g_string_append_len (s, digits, sizeof digits);
}

void
et_cli_append_guid (GString *s, const EtGuid *guid)
{
  char text[ET_GUID_STRING_LEN];

  et_guid_to_string (guid, text);
  g_string_append (s, text);
}

void
et_cli_pad_to (GString *s, gsize line_start, gsize column)
{
  gsize used = s->len - line_start;

  if (used >= column)
    g_string_append_c (s, ' ');
  else
    g_string_append_len (s, "                                                  ",
                         (gssize) MIN (column - used, 50));
}

/* ---- JSON ------------------------------------------------------------- */

void
et_cli_json_sep (GString *s)
{
  char last = s->len > 0 ? s->str[s->len - 1] : '\n';

  if (last != '{' && last != '[' && last != '\n')
    g_string_append_c (s, ',');
}

void
et_cli_json_key (GString *s, const char *key)
{
  et_cli_json_sep (s);
  et_string_append_len (s, "\"", 1);
  et_string_append_len (s, key, strlen (key));
  et_string_append_len (s, "\":", 2);
}

void
et_cli_json_string (GString *s, const char *key, const char *value)
{
  et_cli_json_key (s, key);
  if (value == NULL)
    g_string_append (s, "null");
  else
    et_json_append_string (s, value, -1);
}

void
et_cli_json_int (GString *s, const char *key, gint64 value)
{
  et_cli_json_key (s, key);
  et_string_append_int (s, value);
}

void
et_cli_json_uint (GString *s, const char *key, guint64 value)
{
  et_cli_json_key (s, key);
  et_string_append_uint (s, value);
}

void
et_cli_json_null (GString *s, const char *key)
{
  et_cli_json_key (s, key);
  g_string_append (s, "null");
}

/* ---- CSV -------------------------------------------------------------- */

void
et_cli_csv_value (GString *s, const char *value, gssize len)
{
  et_string_append_csv (s, value, len);
}

/* ---- loading and statuses --------------------------------------------- */

void
et_cli_error (const char *format, ...)
{
  va_list args;

  fputs ("etlscope-cli: ", stderr);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
}

EtTrace *
et_cli_load (const char *path, EtLoadFlags flags)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  EtTrace *trace;

  trace = et_trace_load (path, flags, NULL, NULL, NULL, &error);
  if (trace != NULL)
    return trace;

  /* The reader's messages name the file; say it ourselves if one does not.
   * Its name is shown as UTF-8, as the model's messages show it. */
  name = g_filename_display_name (path);
  if (error == NULL)
    et_cli_error (_("%s: could not be read"), name);
  else if (strstr (error->message, name) == NULL)
    et_cli_error ("%s: %s", name, error->message);
  else
    et_cli_error ("%s", error->message);
  return NULL;
}

int
et_cli_finish (EtTrace *trace, EtCliOut *out)
{
  const EtTraceStats *stats = et_trace_get_stats (trace);
  const EtDamage *damage;
  g_autofree char *path = NULL;
  guint n_damage = 0;

  if (out != NULL && !et_cli_out_close (out))
    {
      et_cli_error (_("writing the output failed: %s"), g_strerror (errno));
      return ET_CLI_EXIT_FAILURE;
    }
  if (stats->damage_count == 0)
    return ET_CLI_EXIT_OK;

  damage = et_trace_get_damage (trace, &n_damage);
  path = g_filename_display_name (et_trace_get_path (trace));
  if (n_damage == 0)
    et_cli_error (g_dngettext (GETTEXT_PACKAGE, "%s: read with damage: %llu problem",
                               "%s: read with damage: %llu problems", (gulong) stats->damage_count),
                  path, (unsigned long long) stats->damage_count);
  else
    /* The reader's messages name the file already; say it if one does not. */
    /* Translators: the first two %s are the file name and ": " (or nothing
     * when the message names the file already); the last is that message. */
    et_cli_error (g_dngettext (GETTEXT_PACKAGE,
                               "%s%sread with damage: %llu problem, at offset %llu: %s",
                               "%s%sread with damage: %llu problems, the first at offset %llu: %s",
                               (gulong) stats->damage_count),
                  strstr (damage[0].message, path) != NULL ? "" : path,
                  strstr (damage[0].message, path) != NULL ? "" : ": ",
                  (unsigned long long) stats->damage_count,
                  (unsigned long long) damage[0].offset, damage[0].message);
  return ET_CLI_EXIT_DAMAGE;
}
