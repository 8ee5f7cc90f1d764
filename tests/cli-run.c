/* cli-run.c — running etlscope-cli ($ET_CLI) from a test and reading
 * what it writes: JSON, JSON lines, CSV (see cli-run.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "cli-run.h"
#include "et-fixture.h"

void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

/* What the program wrote on @stream, as text: whatever the input, its
 * output is UTF-8 (without NUL bytes), or the test fails naming where. */
static char *
utf8_text (const char *command, const char *stream, GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);

  if (!g_utf8_validate_len (data, len, NULL))
    fail_msg ("etlscope-cli %s: %s is not UTF-8", command, stream);
  return len > 0 ? g_strndup (data, len) : g_strdup ("");   /* empty: data may be NULL */
}

/* Runs etlscope-cli with the NULL-terminated arguments. */
Run
run_cli_v (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { -1, NULL, NULL };

  g_ptr_array_add (argv, (gpointer) g_getenv ("ET_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char *const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  assert_non_null (process);
  assert_true (g_subprocess_communicate (process, NULL, NULL, &out, &err, &error));
  assert_true (g_subprocess_get_if_exited (process));
  run.status = g_subprocess_get_exit_status (process);
  run.out = utf8_text (args[0], "stdout", out);
  run.err = utf8_text (args[0], "stderr", err);
  return run;
}

/* ---- JSON lines ------------------------------------------------------- */

JsonObject *
parse_object (const char *text, gssize len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, len, &error))
    fail_msg ("not JSON (%s): %.*s", error->message, (int) (len < 0 ? 200 : MIN (len, 200)), text);
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (root))
    fail_msg ("not a JSON object: %.*s", (int) MIN (len, 200), text);
  return json_object_ref (json_node_get_object (root));
}

GPtrArray *
parse_lines (const char *text)
{
  GPtrArray *objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  const char *p = text;

  while (*p != '\0')
    {
      const char *eol = strchr (p, '\n');

      assert_non_null (eol);  /* every line ends with a newline */
      g_ptr_array_add (objects, parse_object (p, eol - p));
      p = eol + 1;
    }
  return objects;
}

/* Splits one RFC 4180 record (CRLF-terminated) at *pos into fields. */
GPtrArray *
csv_record (const char *text, gsize *pos)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = text + *pos;
  gboolean quoted = FALSE;

  for (;; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (!quoted && (*p == ',' || (p[0] == '\r' && p[1] == '\n')))
        {
          g_ptr_array_add (fields, g_string_free (g_steal_pointer (&field), FALSE));
          field = g_string_new (NULL);
          if (*p == '\r')
            break;
        }
      else if (*p == '\0')
        fail_msg ("CSV record not ended by CRLF at byte %zu", *pos);
      else
        g_string_append_c (field, *p);
    }
  g_string_free (field, TRUE);
  *pos = (gsize) (p + 2 - text);
  return fields;
}


char *
damaged_copy (const char *dir, const char *source)
{
  char *path = g_build_filename (dir, "damaged.etl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(EtFixtureLayout) layout = NULL;
  gsize len;

  assert_true (g_file_get_contents (source, &contents, &len, NULL));
  assert_true (g_file_set_contents (path, contents, (gssize) len, NULL));
  layout = et_fixture_layout_read (path, NULL);
  assert_non_null (layout);
  /* A record in the middle claims a size of zero: the reader must skip the
   * rest of that buffer and say where. */
  assert_true (et_fixture_damage_record_size (path, layout->records->len / 2, 0, NULL));
  return path;
}
