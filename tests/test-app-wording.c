/* GUI tests (under Xvfb) of what the window says (issue 34, items 9, 10,
 * 11, 13, 14): files that cannot be opened and damage in words, counts
 * grouped, names and categories read well, a .nettrace event's record
 * said as far as it is known, no CPU tooltip without data,
 * details wrapped at punctuation, a sort that says it runs, loading's
 * phases, Go to Thread offering only what has a row. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include "et-cpu-strip.h"
#include "et-details.h"
#include "et-fixture.h"
#include "et-fixture-nettrace.h"
#include "et-report-table.h"
#include "et-report-table-private.h"
#include "et-timeline-threads.h"
#include "et-timeline-view.h"
#include "et-trace-load.h"
#include "et-window.h"
#include "gui-test.h"

/* Item 13: a missing file and a folder are said as such (no byte offset:
 * nothing was read); the empty window names both formats. */
static void
test_files_that_cannot_open_are_said_in_words (void **state)
{
  g_autofree char *missing = g_build_filename (gui_dir, "missing.etl", NULL);
  EtWindow *window = open_window (missing);
  const char *status = et_window_get_status (window);

  assert_says (status, "missing.etl” cannot be opened: ");
  assert_null (strstr (status, "byte offset"));
  close_window (window);
  window = open_window (gui_dir);
  status = et_window_get_status (window);
  assert_says (status, "is a folder. Etlscope opens trace files: Windows ETW traces (.etl) and "
                       ".NET EventPipe traces (.nettrace).");
  assert_null (strstr (status, "byte offset"));
  assert_non_null (find_label (GTK_WIDGET (window), "(.nettrace) with Ctrl+O"));
  close_window (window);
}

/* Item 13: the damage banner says what the first problem is, in words;
 * Show Problems lists every one. */
static void
test_damage_banner_names_the_problems (void **state)
{
  g_autofree char *bad = g_build_filename (gui_dir, "damaged.etl", NULL);
  g_autofree char *bytes = NULL, *list = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  const EtDamage *damage;
  GtkWindow *problems = NULL;
  GtkWidget *button;
  EtWindow *window;
  GtkLabel *banner;
  gsize len;
  guint n;

  assert_true (g_file_get_contents (gui_demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (bad, bytes, (gssize) len, NULL));
  assert_true (et_fixture_damage_record_size (bad, 40, 0, NULL));
  assert_true (et_fixture_damage_record_size (bad, 900, 0, NULL));
  window = open_window (bad);
  damage = et_trace_get_damage (et_window_get_trace (window), &n);
  assert_true (n >= 2);
  banner = find_label (GTK_WIDGET (window), "Read with damage: ");
  assert_non_null (banner);
  /* The first problem's words, after its offset, in the banner itself. */
  assert_says (gtk_label_get_text (banner), strstr (damage[0].message, ": byte offset ") + 2);
  button = find_button (GTK_WIDGET (window), "Show Problems");
  assert_non_null (button);
  assert_true (gtk_widget_is_visible (button));
  g_signal_emit_by_name (button, "clicked");
  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && problems == NULL; i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (!ET_IS_WINDOW (w) && g_str_has_prefix (gtk_window_get_title (w), "Problems in "))
        problems = w;
    }
  assert_non_null (problems);
  list = g_strdup (gtk_label_get_text (find_label (GTK_WIDGET (problems), "byte offset")));
  for (guint i = 0; i < n; i++)
    assert_says (list, strstr (damage[i].message, ": byte offset ") + 2);
  gtk_window_destroy (problems);
  close_window (window);
  g_unlink (bad);
}

/* Item 13: counts grouped in English too (the tests' C locale groups
 * nothing); an alert's tooltip says "category alert", not "-1". */
static void
test_counts_and_categories_read_well (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtTrace *trace = et_window_get_trace (window);
  g_autoptr(GString) count = g_string_new (NULL);
  g_autoptr(GString) tip = g_string_new (NULL), details = g_string_new (NULL);

  g_string_printf (count, "%" G_GUINT64_FORMAT, et_trace_get_stats (trace)->records);
  assert_true (count->len > 3 && count->len < 7);
  g_string_insert_c (count, count->len - 3, ',');
  g_string_append (count, " events");
  assert_non_null (find_label (GTK_WIDGET (window), count->str));
  for (guint c = 0; c < et_trace_get_n_channels (trace) && tip->len == 0; c++)
    for (guint i = 0; i < et_trace_get_channel (trace, c)->n_markers && tip->len == 0; i++)
      if (et_trace_get_channel (trace, c)->markers[i].category == ET_CATEGORY_ALERT)
        {
          et_details_summary (trace, c, &et_trace_get_channel (trace, c)->markers[i], tip);
          et_details_describe (trace, c, &et_trace_get_channel (trace, c)->markers[i], details);
        }
  assert_says (tip->str, "category alert");
  assert_says (details->str, "Category alert");
  close_window (window);
}


/* A .nettrace marker's details say where its event is as far as the
 * image knows (an EventBlock at or before it), with an EventPipe header,
 * and its CPU only when the file names one (-1: none). */
static void
test_nettrace_record_row (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "cpus.nettrace", NULL);
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GString) with_cpu = g_string_new (NULL), without = g_string_new (NULL);
  EtFixtureNettraceOptions o;
  EtFixtureNettrace *nt;
  EtFixtureEvent ev;

  et_fixture_nettrace_options_init (&o);
  nt = et_fixture_nettrace_new (path, &o, &error);
  g_assert_no_error (error);
  et_fixture_payload_add_u32 (p, "item", 7);
  for (guint k = 0; k < 2; k++)
    {
      et_fixture_event_init (&ev);
      ev.pid = 4242;
      ev.tid = 104;
      ev.cpu = k == 0 ? 1 : G_MAXUINT32;
      ev.time_ns = 1000000 * (k + 1);
      ev.level = 2;
      ev.id = 9;
      ev.task = 0xFFFE - 9;
      et_fixture_nettrace_write_event (nt, &ev, "Etlscope-Wording", "Picked", p);
    }
  assert_true (et_fixture_nettrace_close (nt, &error));
  et_fixture_nettrace_free (nt);
  trace = et_trace_load (path, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_int_equal (et_trace_get_stats (trace)->markers, 2);
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    for (guint i = 0; i < et_trace_get_channel (trace, c)->n_markers; i++)
      {
        const EtMarker *m = &et_trace_get_channel (trace, c)->markers[i];

        et_details_describe (trace, c, m, m->start_ns == 1000000 ? with_cpu : without);
      }
  assert_says (with_cpu->str, "EVENTPIPE at or after byte offset ");
  assert_says (with_cpu->str, ", CPU 1\n");
  assert_says (without->str, "EVENTPIPE at or after byte offset ");
  assert_null (strstr (without->str, "CPU"));
  assert_null (strstr (with_cpu->str, "EVENT_HEADER64"));
}

/* Item 13: a process the trace does not name is "Process 4120", not
 * "Process 4120 (4120)"; a CPU band from samples says nothing where it
 * has none (no data is not 0 %). */
static void
test_nameless_processes_and_cpu_without_data (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "nameless.etl", NULL);
  g_autofree char *there = NULL, *none = NULL;
  g_autoptr(GString) label = g_string_new (NULL);
  EtWindow *window;
  EtLayout *layout;
  const EtRow *row = NULL;
  const EtViewport *v;
  double top, height;

  write_sampled_thread (path);
  window = open_window (path);
  layout = et_window_get_layout (window);
  v = et_window_get_viewport (window);
  activate (window, "timeline.show-empty-threads");
  wait_for_picture (window);
  for (guint r = 0; r < et_layout_n_rows (layout); r++)
    if (et_layout_row (layout, r)->kind == ET_ROW_PROCESS
        && et_trace_get_process (et_window_get_trace (window),
                                 et_layout_row (layout, r)->index)->pid == SAMPLED_PID)
      et_layout_row_label (layout, et_layout_row (layout, r), label);
    else if (et_layout_row (layout, r)->kind == ET_ROW_THREAD
             && et_trace_get_thread (et_window_get_trace (window),
                                     et_layout_row (layout, r)->index)->tid == SAMPLED_TID)
      row = et_layout_row (layout, r);
  assert_string_equal (label->str, "Process 4120");
  assert_non_null (row);
  assert_true (et_cpu_strip_band (et_window_get_trace (window), row,
                                  v->ruler_height + row->y - v->scroll_y, &top, &height));
  for (double dx = -3; dx <= 3 && there == NULL; dx++)
    there = et_timeline_view_tooltip_at (window_timeline (window), et_viewport_x (v, 4 * 1000000) + dx,
                                         top + height - 1);
  none = et_timeline_view_tooltip_at (window_timeline (window), et_viewport_x (v, 8 * 1000000),
                                      top + height - 1);
  assert_non_null (there);
  assert_says (there, "(1 sample)");
  assert_null (none);
  close_window (window);
  g_unlink (path);
}

/* Whether a line may break after @c: a space, a zero-width space or
 * punctuation. */
static gboolean
break_chance (gunichar c)
{
  return g_unichar_isspace (c) || c == 0x200B || (c < 0x80 && g_unichar_ispunct (c));
}

/* Checks how buffer line @line of @view wraps: no display line but the
 * last holds fewer than 3 characters, and each breaks after a space or
 * punctuation unless it holds no chance to break at all. Returns the
 * display lines past the first. */
static guint
check_wraps (GtkTextView *view, int line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, next;
  guint wraps = 0;

  gtk_text_buffer_get_iter_at_line (buffer, &start, line);
  next = start;
  while (gtk_text_view_forward_display_line (view, &next) && gtk_text_iter_get_line (&next) == line
         && !gtk_text_iter_is_end (&next))
    {
      g_autofree char *piece = gtk_text_buffer_get_text (buffer, &start, &next, FALSE);
      GtkTextIter before = next;
      gboolean chance = FALSE;
      glong n = g_utf8_strlen (piece, -1);

      wraps++;
      gtk_text_iter_backward_char (&before);
      for (const char *p = piece, *q; *(q = g_utf8_next_char (p)) != '\0'; p = q)
        chance |= p != piece && break_chance (g_utf8_get_char (p));
      if (n < 3)
        fail_msg ("details line %d wraps after %ld characters: \"%s\"", line, n, piece);
      if (chance && !break_chance (gtk_text_iter_get_char (&before)))
        fail_msg ("details line %d breaks inside a word: \"%s\"", line, piece);
      start = next;
    }
  return wraps;
}

/* Item 14: in a narrow details pane long values wrap under themselves at
 * spaces and punctuation, never a character or two per line; what is
 * copied or read has no break chances in it. */
static void
test_details_values_wrap_at_punctuation (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  GtkPaned *paned = GTK_PANED (find_widget (GTK_WIDGET (window), GTK_TYPE_PANED));
  GtkTextView *view = GTK_TEXT_VIEW (find_widget (GTK_WIDGET (window), GTK_TYPE_TEXT_VIEW));
  g_autofree char *details = NULL;
  guint wraps = 0;

  scroll_to_process (window, DEMO_WEB_SERVER);
  click_a_flag (window);
  /* As narrow as the pane goes. */
  gtk_paned_set_position (paned, gtk_widget_get_width (GTK_WIDGET (paned)));
  wait_for_picture (window);
  drain_events ();
  wait_for_frame (GTK_WIDGET (view));
  g_printerr ("# details %d px wide\n", gtk_widget_get_width (GTK_WIDGET (view)));
  for (int line = 0; line < gtk_text_buffer_get_line_count (gtk_text_view_get_buffer (view)); line++)
    wraps += check_wraps (view, line);
  g_printerr ("# %u wrapped display lines\n", wraps);
  assert_true (wraps > 0);
  details = et_window_get_details (window);
  assert_null (strstr (details, "\xe2\x80\x8b"));
  assert_says (details, "Contoso.WebServer.exe");
  save_screenshot (window, "app-habits-details-narrow.png");
  close_window (window);
}

/* Item 10: by duration, markers without one come last either way; a sort
 * on a thread says so while it runs; the sorted header's arrow is never
 * cut (its column fits the bold title and the arrow). */
static void
test_duration_sort_sign_and_arrow (void **state)
{
  EtWindow *window = open_window (gui_demo_path);
  EtMarkersList *list = et_window_get_markers_list (window);
  EtTrace *trace = et_window_get_trace (window);
  EtReportTable *table = window_report (window);
  GtkWidget *busy = GTK_WIDGET (find_label (GTK_WIDGET (list), "Sorting…"));
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (table), "Duration ▾");
  PangoAttrList *bold = pango_attr_list_new ();
  int title_w;

  assert_non_null (busy);
  assert_false (gtk_widget_is_visible (busy));
  for (int descending = 0; descending <= 1; descending++)
    {
      guint n = et_markers_list_get_n_rows (list), spans = 0;
      gboolean flags_seen = FALSE;

      et_markers_list_set_async_threshold (list, 0);
      et_markers_list_set_sort (list, ET_SORT_DURATION, descending);
      assert_true (et_markers_list_is_busy (list));
      assert_true (gtk_widget_is_visible (busy));
      RUN_UNTIL (!et_window_is_busy (window));
      assert_false (gtk_widget_is_visible (busy));
      for (guint r = 0; r < n; r++)
        {
          guint c, i;
          const EtMarker *m;

          assert_true (et_markers_list_get_row (list, r, &c, &i));
          m = &et_trace_get_channel (trace, c)->markers[i];
          if (m->kind == ET_MARKER_SPAN && m->status != ET_SPAN_UNMATCHED_END)
            {
              if (flags_seen)
                fail_msg ("row %u: a span after markers without a duration", r);
              spans++;
            }
          else
            flags_seen = TRUE;
        }
      assert_true (spans > 0 && flags_seen);
    }
  pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, bold);
  pango_attr_list_unref (bold);
  pango_layout_get_pixel_size (layout, &title_w, NULL);
  assert_true (_et_report_column_width (table, 1) >= title_w);
  save_screenshot (window, "app-habits-sorted.png");
  close_window (window);
}

/* What the loading screen showed at a change of its bar: its headline,
 * the bar's words, the bar's fraction. */
typedef struct
{
  char   *label;
  char   *text;
  double  fraction;
} BarSeen;

static void
bar_seen_free (gpointer data)
{
  BarSeen *b = data;

  g_free (b->label);
  g_free (b->text);
  g_free (b);
}

static void
note_bar (GtkProgressBar *bar, GParamSpec *pspec, gpointer data)
{
  GPtrArray *seen = data;
  GtkLabel *label = g_object_get_data (G_OBJECT (bar), "loading-label");
  BarSeen *b = g_new0 (BarSeen, 1);

  b->label = g_strdup (gtk_label_get_text (label));
  b->text = g_strdup (gtk_progress_bar_get_text (bar));
  b->fraction = gtk_progress_bar_get_fraction (bar);
  g_ptr_array_add (seen, b);
}

/* The bar's words for a whole phase: "X of X", both counts the same. */
static gboolean
says_all_of (const char *text, const char *prefix, const char *suffix)
{
  g_auto(GStrv) halves = NULL;

  if (!g_str_has_prefix (text, prefix) || !g_str_has_suffix (text, suffix))
    return FALSE;
  halves = g_strsplit (text + strlen (prefix), " of ", 2);
  return g_strv_length (halves) == 2
         && g_str_has_prefix (halves[1], halves[0])
         && strlen (halves[1]) == strlen (halves[0]) + strlen (suffix);
}

/* Item 9: loading names its phases, each once and in order, and the bar
 * shows each one's own progress, from empty to full, never back: the
 * file's bytes, the events decoded, the spans' starts and ends paired,
 * the threads laid out. */
static void
test_loading_names_its_phases (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "large.etl", NULL);
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (bar_seen_free);
  const char *const phases[] = { "Reading large.etl…", "Decoding the events of large.etl…",
                                 "Pairing the spans of large.etl…",
                                 "Laying out the threads of large.etl…" };
  gboolean full[G_N_ELEMENTS (phases)] = { FALSE };
  EtWindow *window;
  GtkWidget *bar;
  guint next = 0;

  assert_true (run_fixture_tool ((const char *[]) { "large", "40000", path, "--seed", "1", NULL }));
  window = et_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 860);
  et_window_load (window, path);
  bar = find_widget (GTK_WIDGET (window), GTK_TYPE_PROGRESS_BAR);
  assert_non_null (bar);
  g_object_set_data (G_OBJECT (bar), "loading-label",
                     find_label (GTK_WIDGET (window), "Reading large.etl"));
  assert_non_null (g_object_get_data (G_OBJECT (bar), "loading-label"));
  g_signal_connect (bar, "notify::fraction", G_CALLBACK (note_bar), seen);
  g_signal_connect (bar, "notify::text", G_CALLBACK (note_bar), seen);
  gtk_window_present (GTK_WINDOW (window));
  RUN_UNTIL (!et_window_is_loading (window));
  g_signal_handlers_disconnect_by_data (bar, seen);

  for (guint i = 0; i < seen->len; i++)
    {
      BarSeen *b = g_ptr_array_index (seen, i), *before = i ? g_ptr_array_index (seen, i - 1) : NULL;
      guint at = next;

      /* The headlines in order, none skipped nor repeated. */
      if (!g_str_equal (b->label, phases[next]))
        {
          assert_true (next + 1 < G_N_ELEMENTS (phases));
          assert_string_equal (b->label, phases[++next]);
          at = next;
        }
      /* Within a phase the bar only fills. */
      if (before != NULL && g_str_equal (before->label, b->label))
        assert_true (b->fraction >= before->fraction);
      if (b->fraction < 1.0 || b->text == NULL)
        continue;
      full[at] |= at == 0 ? strstr (b->text, " of ") != NULL
                 : at == 1 ? says_all_of (b->text, "decoding events: ", "")
                 : at == 2 ? says_all_of (b->text, "pairing spans: ", " starts and ends")
                 : g_str_equal (b->text, "laying out threads: 100 %");
    }
  assert_int_equal (next, G_N_ELEMENTS (phases) - 1);
  for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
    if (!full[p])
      fail_msg ("the bar never stood full under \"%s\" (%u changes)", phases[p], seen->len);
  close_window (window);
  g_unlink (path);
}

/* Item 11: Go to Thread or Series (Ctrl+P) offers only threads it can
 * show: one without markers only once empty threads are shown, and then
 * Enter goes to its row. */
static void
test_go_to_offers_only_what_it_can_show (void **state)
{
  g_autofree char *path = g_build_filename (gui_dir, "sampled.etl", NULL);
  g_autoptr(GArray) hidden = NULL, shown = NULL;
  EtWindow *window;
  EtLayout *layout;
  EtTrace *trace;

  write_sampled_thread (path);
  window = open_window (path);
  layout = et_window_get_layout (window);
  trace = et_window_get_trace (window);
  hidden = et_timeline_threads_match (layout, trace, "4122", 50);
  assert_int_equal (hidden->len, 0);
  activate (window, "timeline.show-empty-threads");
  shown = et_timeline_threads_match (layout, trace, "4122", 50);
  assert_int_equal (shown->len, 1);
  et_timeline_threads_go_to (window_timeline (window), g_array_index (shown, EtTrackMatch, 0).thread,
                             G_MAXUINT);
  assert_non_null (et_layout_thread_row (layout, g_array_index (shown, EtTrackMatch, 0).thread));
  close_window (window);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_files_that_cannot_open_are_said_in_words),
    cmocka_unit_test (test_damage_banner_names_the_problems),
    cmocka_unit_test (test_counts_and_categories_read_well),
    cmocka_unit_test (test_nettrace_record_row),
    cmocka_unit_test (test_nameless_processes_and_cpu_without_data),
    cmocka_unit_test (test_details_values_wrap_at_punctuation),
    cmocka_unit_test (test_duration_sort_sign_and_arrow),
    cmocka_unit_test (test_loading_names_its_phases),
    cmocka_unit_test (test_go_to_offers_only_what_it_can_show),
  };

  return cmocka_run_group_tests (tests, setup_demo, teardown_demo);
}
