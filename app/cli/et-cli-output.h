/* et-cli-output.h — what every etlscope-cli command shares: loading a trace
 * with the tool's exit-status rules, and writing many lines fast.
 *
 *   command ─ et_cli_load () ─ EtTrace ─ lines in EtCliOut.line ─ fwrite
 *                                      └ et_cli_finish (): damage → status
 *
 * Lines are built in one reused GString and written in large blocks; the
 * number helpers below append digits without printf, whose GLib variant
 * allocates on every call.
 */
#pragma once

#include <stdio.h>
#include <glib.h>
#include "et-trace.h"

G_BEGIN_DECLS

/* Exit statuses (documented in etlscope-cli.1). */
#define ET_CLI_EXIT_OK      0
#define ET_CLI_EXIT_DAMAGE  1
#define ET_CLI_EXIT_FAILURE 2

typedef struct
{
  FILE    *stream;
  GString *line;     /* append here, then et_cli_out_end_line () */
  gboolean failed;   /* a write failed */
} EtCliOut;

void        et_cli_out_init        (EtCliOut     *out,
                                    FILE         *stream);
/* Ends the current line ("\n", or @eol when not NULL) and writes the
 * buffered lines once they are large enough. */
void        et_cli_out_end_line    (EtCliOut     *out,
                                    const char   *eol);
/* Writes the buffered lines, then @len bytes of whole lines made elsewhere. */
void        et_cli_out_write       (EtCliOut     *out,
                                    const char   *data,
                                    gsize         len);
/* Writes what is left and frees the buffer; FALSE if any write failed. */
gboolean    et_cli_out_close       (EtCliOut     *out);

/* Nanoseconds as seconds with nine decimals: "-0.000001500". */
void        et_cli_append_seconds  (GString      *s,
                                    gint64        ns);
void        et_cli_append_guid     (GString      *s,
                                    const EtGuid *guid);
/* Pads with spaces up to @column bytes from @line_start (at least one space). */
void        et_cli_pad_to          (GString      *s,
                                    gsize         line_start,
                                    gsize         column);

/* JSON: a comma unless the object or array was just opened, then "key":. */
void        et_cli_json_key        (GString      *s,
                                    const char   *key);
void        et_cli_json_sep        (GString      *s);
void        et_cli_json_string     (GString      *s,
                                    const char   *key,
                                    const char   *value);
void        et_cli_json_int        (GString      *s,
                                    const char   *key,
                                    gint64        value);
void        et_cli_json_uint       (GString      *s,
                                    const char   *key,
                                    guint64       value);
void        et_cli_json_null       (GString      *s,
                                    const char   *key);

/* CSV (RFC 4180): the value, quoted when it holds a comma, quote, CR or LF;
 * NULL is an empty field. The caller writes the separating commas. */
void        et_cli_csv_value       (GString      *s,
                                    const char   *value,
                                    gssize        len);
#define ET_CLI_CSV_EOL "\r\n"

/* Loads @path; on failure prints the error to stderr and returns NULL. */
EtTrace    *et_cli_load            (const char   *path,
                                    EtLoadFlags   flags);
/* Flushes @out, prints the one-line damage summary of @trace to stderr
 * and returns the exit status. */
int         et_cli_finish          (EtTrace      *trace,
                                    EtCliOut     *out);

void        et_cli_error           (const char   *format,
                                    ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
