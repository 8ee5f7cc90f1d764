/* et-details-wrap.c — see et-details-wrap.h.
 *
 * Pango breaks lines where Unicode allows (UAX #14): after spaces and some
 * hyphens, not after the dots of "System.String.InternalSubString" nor in
 * a GUID's digits. With only those chances a long value in a narrow pane
 * was cut at any character, and where its column left a character or two
 * of room, one character per line. The zero-width spaces added after
 * punctuation give Pango the chances a reader expects; they never reach
 * the clipboard or a caller (et_details_wrap_plain).
 */
#include "et-details-wrap.h"

#include <string.h>

#define ZWSP "\xe2\x80\x8b"         /* U+200B ZERO WIDTH SPACE */

static gboolean
breaks_after (gunichar c)
{
  return c != 0 && c < 0x80 && strchr (".,)]/\\:;=_-+|>}", (int) c) != NULL;
}

/* An opening bracket goes with what it opens: the chance is before it. */
static gboolean
breaks_before (gunichar c)
{
  return c != 0 && c < 0x80 && strchr ("([{<", (int) c) != NULL;
}

char *
et_details_wrap_soften (const char *text)
{
  GString *out = g_string_sized_new (strlen (text) + 64);
  gunichar before = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p), next = g_utf8_get_char (g_utf8_next_char (p));

      if (breaks_before (c) && before != 0 && !g_unichar_isspace (before) && !breaks_after (before))
        g_string_append (out, ZWSP);
      g_string_append_unichar (out, c);
      /* Not in a number (3.5, 10.0.19045, 1,024) nor before a space or
       * the end. */
      if (breaks_after (c) && next != 0 && !g_unichar_isspace (next)
          && !((c == '.' || c == ',') && g_unichar_isdigit (before) && g_unichar_isdigit (next)))
        g_string_append (out, ZWSP);
      before = c;
    }
  return g_string_free (out, FALSE);
}

char *
et_details_wrap_plain (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text, *z;

  while ((z = strstr (p, ZWSP)) != NULL)
    {
      g_string_append_len (out, p, z - p);
      p = z + strlen (ZWSP);
    }
  g_string_append (out, p);
  return g_string_free (out, FALSE);
}

/* Where a wrapped line of @line goes on, in characters: under the value of
 * a "  Label    value" row (after the run of spaces that ends the label),
 * else under the text after a line's indent and bullet. */
static int
value_column (const char *line, const char *end)
{
  const char *p = line;

  while (p < end && *p == ' ')
    p++;
  for (const char *q = p; q + 1 < end; q++)
    if (q > p && q[0] == ' ' && q[1] == ' ' && q[-1] != ' ')
      {
        while (q < end && *q == ' ')
          q++;
        return (int) g_utf8_pointer_to_offset (line, q);
      }
  if (p + 1 < end && g_str_has_prefix (p, "· "))
    return (int) g_utf8_pointer_to_offset (line, p) + 2;
  return (int) g_utf8_pointer_to_offset (line, p);
}

/* How many characters a line of @view holds (0: not sized yet). */
static int
room (GtkTextView *view, int char_width)
{
  int width = gtk_widget_get_width (GTK_WIDGET (view)) - gtk_text_view_get_left_margin (view)
              - gtk_text_view_get_right_margin (view);

  return width > 0 && char_width > 0 ? width / char_width : 0;
}

static void
remove_hang_tags (GtkTextTag *tag, gpointer data)
{
  g_autofree char *name = NULL;
  GtkTextIter start, end;

  g_object_get (tag, "name", &name, NULL);
  if (name == NULL || !g_str_has_prefix (name, "hang-"))
    return;
  gtk_text_buffer_get_bounds (data, &start, &end);
  gtk_text_buffer_remove_tag (data, tag, &start, &end);
}

/* Every line wraps with a hanging indent at its value column (Pango's
 * negative indent: every line but the first is indented), so a long value
 * stays in its column instead of running back under the labels; in a pane
 * too narrow for that, a value keeps ET_DETAILS_MIN_VALUE_CHARS a line. */
void
et_details_wrap_hang (GtkTextView *view, const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTagTable *tags = gtk_text_buffer_get_tag_table (buffer);
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (view), "0");
  int char_width, chars, line_no = 0;

  pango_layout_get_pixel_size (layout, &char_width, NULL);
  g_object_unref (layout);
  chars = room (view, char_width);
  gtk_text_tag_table_foreach (tags, remove_hang_tags, buffer);
  for (const char *line = text; *line != '\0'; line_no++)
    {
      const char *end = strchr (line, '\n');
      int column;
      g_autofree char *name = NULL;
      GtkTextTag *tag;
      GtkTextIter from, to;

      if (end == NULL)
        end = line + strlen (line);
      column = value_column (line, end);
      if (chars > 0 && chars - column < ET_DETAILS_MIN_VALUE_CHARS)
        column = MAX (MIN (column, chars - ET_DETAILS_MIN_VALUE_CHARS), MIN (column, 2));
      name = g_strdup_printf ("hang-%d", column);
      tag = gtk_text_tag_table_lookup (tags, name);
      if (tag == NULL)
        tag = gtk_text_buffer_create_tag (buffer, name, "indent", -column * char_width, NULL);
      gtk_text_buffer_get_iter_at_line (buffer, &from, line_no);
      to = from;
      gtk_text_iter_forward_to_line_end (&to);
      gtk_text_buffer_apply_tag (buffer, tag, &from, &to);
      line = *end != '\0' ? end + 1 : end;
    }
}
