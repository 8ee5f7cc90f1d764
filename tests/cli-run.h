/* cli-run.h — running etlscope-cli ($ET_CLI) from a CMocka test and
 * parsing what it writes. Failures are CMocka failures of the test. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

/* Runs etlscope-cli with the NULL-terminated arguments, to the end. */
Run         run_cli_v    (const char *const *args);
#define run_cli(...) run_cli_v ((const char *const[]) { __VA_ARGS__, NULL })
void        run_clear    (Run        *run);

/* One JSON object (fails the test on anything else). */
JsonObject *parse_object (const char *text,
                          gssize      len);
/* JSON lines: every line an object ended by a newline. */
GPtrArray  *parse_lines  (const char *text);
/* Splits one RFC 4180 record (CRLF-terminated) at *@pos into fields
 * (char *) and moves *@pos past it. */
GPtrArray  *csv_record   (const char *text,
                          gsize      *pos);
/* A copy of @source in @dir ("damaged.etl") whose middle record claims a
 * size of zero; the caller removes it. */
char       *damaged_copy (const char *dir,
                          const char *source);
