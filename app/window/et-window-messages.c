/* et-window-messages.c — what the window says about a file it cannot open
 * and about the damage of one it could: in words, translated.
 *
 *   et_trace_load's GError ─ _et_window_open_error_text: a missing file, a
 *                            folder or a device said as such (no byte offset:
 *                            nothing was read)
 *   et_trace_get_damage    ─ _et_window_show_damage: the banner names the
 *                            first problem; Show Problems lists the rest
 */
#include "et-window-private.h"
#include "et-i18n.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

char *
_et_window_open_error_text (const char *path, const GError *error)
{
  g_autofree char *name = g_filename_display_name (path);
  GStatBuf st;

  if (!g_error_matches (error, ET_ETL_ERROR, ET_ETL_ERROR_IO))
    return g_strdup (error->message);
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      /* Translators: a file that cannot be opened, and why ("No such file
       * or directory"). */
      return g_strdup_printf (_("“%s” cannot be opened: %s."), name, g_strerror (saved));
    }
  if (S_ISDIR (st.st_mode))
    return g_strdup_printf (_("“%s” is a folder. Etlscope opens trace files: Windows ETW "
                              "traces (.etl) and .NET EventPipe traces (.nettrace)."), name);
  if (!S_ISREG (st.st_mode))
    return g_strdup_printf (_("“%s” is not a regular file. Etlscope opens trace files: Windows "
                              "ETW traces (.etl) and .NET EventPipe traces (.nettrace)."), name);
  return g_strdup (error->message);
}

/* A damage message without the "PATH: byte offset N: " it begins with
 * (the banner says the offset itself). */
static const char *
problem_words (const EtDamage *damage, const char *path)
{
  const char *words = damage->message;
  g_autofree char *offset = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT ": ", damage->offset);

  if (g_str_has_prefix (words, path) && g_str_has_prefix (words + strlen (path), ": "))
    words += strlen (path) + 2;
  if (g_str_has_prefix (words, offset))
    words += strlen (offset);
  return words;
}

/* Every problem kept (the model keeps the first hundred), one a line. */
char *
_et_window_damage_list (EtTrace *trace)
{
  GString *text = g_string_new (NULL);
  const EtTraceStats *stats = et_trace_get_stats (trace);
  const EtDamage *damage;
  guint n;

  damage = et_trace_get_damage (trace, &n);
  for (guint i = 0; i < n; i++)
    {
      /* Translators: one problem of a damaged file in the list of them,
       * "byte offset 52000: a buffer header says 0 bytes". */
      g_string_append_printf (text, _("byte offset %llu: %s"), (unsigned long long) damage[i].offset,
                              problem_words (&damage[i], et_trace_get_path (trace)));
      g_string_append_c (text, '\n');
    }
  if (stats->damage_count > n)
    {
      g_autoptr(GString) more = g_string_new (NULL);

      et_i18n_count (stats->damage_count - n, more);
      /* Translators: problems past the first hundred are counted only. */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "and %s more problem",
                                                 "and %s more problems",
                                                 (gulong) MIN (stats->damage_count - n, G_MAXULONG)),
                              more->str);
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

static void
show_problems (EtWindow *self)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *list = _et_window_damage_list (self->trace);
  g_autofree char *name = g_path_get_basename (et_trace_get_path (self->trace));
  g_autofree char *title = g_strdup_printf (_("Problems in %s"), name);

  gtk_label_set_text (GTK_LABEL (label), list);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 12), gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 12), gtk_widget_set_margin_bottom (label, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), label);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 360);
  gtk_window_present (GTK_WINDOW (window));
}

#define RESPONSE_PROBLEMS 1

void
_et_window_damage_response (EtWindow *self, int response)
{
  if (response == RESPONSE_PROBLEMS && self->trace != NULL)
    show_problems (self);
  else
    gtk_info_bar_set_revealed (self->damage_bar, FALSE);
}

/* The banner of a damaged file: how much was skipped, where the first
 * problem is (to look at with a hex viewer) and what it is, in words; the
 * others on a click. */
void
_et_window_show_damage (EtWindow *self)
{
  const EtTraceStats *stats = et_trace_get_stats (self->trace);
  const EtDamage *damage;
  g_autoptr(GString) problems = g_string_new (NULL), records = g_string_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n;

  if (stats->damage_count == 0)
    return;
  damage = et_trace_get_damage (self->trace, &n);
  et_i18n_count (stats->damage_count, problems);
  et_i18n_count (stats->records_skipped, records);
  /* Translators: problems found and records skipped; both numbers are
   * already grouped for the locale. */
  g_string_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                      "Read with damage: %s problem, %s record(s) skipped.",
                                      "Read with damage: %s problems, %s record(s) skipped.",
                                      (gulong) MIN (stats->damage_count, G_MAXULONG)),
                   problems->str, records->str);
  if (n > 0)
    {
      g_string_append_c (text, ' ');
      /* Translators: the first problem of a damaged file, "At byte offset
       * 52000: a buffer header says 0 bytes" (its words are English). */
      g_string_append_printf (text, _("At byte offset %llu: %s"),
                              (unsigned long long) damage[0].offset,
                              problem_words (&damage[0], et_trace_get_path (self->trace)));
    }
  g_free (self->status);
  self->status = g_strdup (text->str);
  gtk_label_set_text (self->damage_label, text->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->damage_label), NULL);
  if (self->damage_button == NULL)
    self->damage_button = gtk_info_bar_add_button (self->damage_bar, _("Show Problems"),
                                                   RESPONSE_PROBLEMS);
  gtk_widget_set_visible (self->damage_button, n > 1 || stats->damage_count > n);
  gtk_info_bar_set_revealed (self->damage_bar, TRUE);
}
