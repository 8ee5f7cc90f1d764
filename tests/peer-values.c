/* peer-values.c — see peer-values.h. */
#include "peer-values.h"

#include <string.h>



/* "1,234" or "-2,147,024,894" → the number; FALSE for anything else. */
static gboolean
parse_grouped (const char *text, gint64 *out)
{
  g_autoptr(GString) digits = g_string_new (NULL);
  char *end = NULL;

  for (const char *p = text; *p != '\0'; p++)
    if (*p != ',')
      g_string_append_c (digits, *p);
  if (digits->len == 0 || !(g_ascii_isdigit (digits->str[0]) || digits->str[0] == '-'))
    return FALSE;
  *out = g_ascii_strtoll (digits->str, &end, 10);
  return *end == '\0';
}


/* "n0": thousands grouped with commas. */
static char *
grouped (gint64 v)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                             v < 0 ? -(guint64) v : (guint64) v);
  GString *s = g_string_new (v < 0 ? "-" : "");
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (s, ',');
      g_string_append_c (s, digits[i]);
    }
  return g_string_free (s, FALSE);
}

/* TraceEvent reads a UInt32 as a C# int: values past 2^31 print negative. */
static gboolean
integer_equal (const EtField *f, const char *want)
{
  gint64 n;

  if (g_str_has_suffix (want, "..."))      /* a long number, cut */
    {
      g_autofree char *ours = grouped (f->kind == ET_VALUE_INT ? f->v.i : (gint64) f->v.u);
      return peer_text_equal (ours, want);
    }
  if (g_str_has_prefix (want, "0x"))
    return g_ascii_strtoull (want + 2, NULL, 16) == f->v.u;
  if (!parse_grouped (want, &n))
    return FALSE;
  if (f->kind == ET_VALUE_INT)
    return n == f->v.i;
  return n == (gint64) f->v.u || (n < 0 && n == (gint64) (gint32) (guint32) f->v.u);
}

/* @v with @decimals decimals as .NET rounds it: its shortest text (15
 * significant digits), rounded half away from zero in decimal — 3.4255
 * is "3.426", where printf rounds the binary value below it to 3.425. */
static char *
dotnet_fixed (double v, guint decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autoptr(GString) s = NULL;
  const char *dot;
  gsize keep;

  g_ascii_formatd (buf, sizeof buf, "%.15g", v);
  if (strchr (buf, 'e') != NULL || (dot = strchr (buf, '.')) == NULL
      || strlen (dot + 1) <= decimals)
    {
      g_ascii_formatd (buf, sizeof buf, decimals == 3 ? "%.3f" : "%.0f", v);
      return g_strdup (buf);
    }
  keep = (gsize) (dot - buf) + 1 + decimals;
  s = g_string_new_len (buf, (gssize) keep);
  if (buf[keep] >= '5')
    for (gssize i = (gssize) s->len - 1; i >= 0; i--)
      {
        if (s->str[i] == '.' || s->str[i] == '-')
          continue;
        if (s->str[i] != '9')
          {
            s->str[i]++;
            break;
          }
        s->str[i] = '0';
        if (i == 0 || s->str[i - 1] == '-')
          g_string_insert_c (s, i, '1');
      }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Cut values end in "..." after 20 characters (UTF-16 units; none of
 * the traces' cut texts leaves the basic plane). */
gboolean
peer_text_equal (const char *ours, const char *want)
{
  if (g_utf8_strlen (want, -1) == 23 && g_str_has_suffix (want, "..."))
    {
      const char *cut = g_utf8_offset_to_pointer (want, 20);

      return g_utf8_strlen (ours, -1) > 20
             && strncmp (ours, want, (gsize) (cut - want)) == 0;
    }
  return strcmp (ours, want) == 0;
}

gboolean
peer_field_equal (const EtFields *fields, guint index, const char *want)
{
  const EtField *f = et_fields_get (fields, index);
  const char *label = et_fields_label (fields, index);
  g_autoptr(GString) text = g_string_new (NULL);

  if (f->kind == ET_VALUE_INT || f->kind == ET_VALUE_UINT)
    {
      if (label == NULL || g_ascii_isdigit (want[0]) || want[0] == '-')
        return integer_equal (f, want);
      /* A bit map's "A|B" is a C# flags enum's "A, B". */
      for (const char *p = label; *p != '\0'; p++)
        if (*p == '|')
          g_string_append (text, ", ");
        else
          g_string_append_c (text, *p);
      return peer_text_equal (text->str, want);
    }
  /* A DateTime as the baselines print it, "yy/MM/dd HH:mm:ss.fffffff", cut:
   * in UTC, the zone of the machine that made them (the header's BootTime
   * and StartTime agree with UTC, not with the collecting machine's). */
  if (f->kind == ET_VALUE_FILETIME && f->v.i >= 0)
    {
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (f->v.i / 10000000
                                                               - G_GINT64_CONSTANT (11644473600));

      if (dt != NULL)
        {
          g_string_printf (text, "%02d/%02d/%02d %02d:%02d:%02d.%07d",
                           g_date_time_get_year (dt) % 100, g_date_time_get_month (dt),
                           g_date_time_get_day_of_month (dt), g_date_time_get_hour (dt),
                           g_date_time_get_minute (dt), g_date_time_get_second (dt),
                           (int) (f->v.i % 10000000));
          if (peer_text_equal (text->str, want))
            return TRUE;
          g_string_truncate (text, 0);
        }
    }
  if (f->kind == ET_VALUE_BOOL)
    return g_ascii_strcasecmp (f->v.b ? "True" : "False", want) == 0;
  if (f->kind == ET_VALUE_FLOAT)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      /* "n3" (three decimals, thousands grouped) in the ETW baselines;
       * .NET's round-trip text (15 significant digits, E-05) in the
       * EventPipe ones. */
      g_ascii_formatd (buf, sizeof buf, "%.15G", f->v.f);
      if (strcmp (buf, want) == 0)
        return TRUE;
      g_autofree char *rounded = dotnet_fixed (f->v.f, 3);

      g_ascii_formatd (buf, sizeof buf, "%.3f", f->v.f);
      for (const char *p = want; *p != '\0'; p++)
        if (*p != ',')
          g_string_append_c (text, *p);
      return strcmp (buf, text->str) == 0 || strcmp (rounded, text->str) == 0;
    }
  et_fields_format_value (fields, index, text);
  return peer_text_equal (text->str, want);
}

