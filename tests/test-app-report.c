/* GUI test (under Xvfb) of EtReportTable, the table both reports draw
 * with: a frame asks for the cells of the rows on screen only, also after
 * a jump to a far row; keys move the selection and say so; report.copy-row
 * (Ctrl+C) copies the selected row; a header click sorts (again: the other way); a row
 * click selects; dragging a header's edge widens its column. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include "et-report-table.h"
#include "gui-test.h"

#define N_ROWS 100000

typedef struct
{
  GtkWindow     *window;
  EtReportTable *table;
  guint          cells;       /* cells asked for since last reset */
  guint          selected;    /* the last "row-selected", or ET_REPORT_NONE */
  guint          selections;  /* "row-selected" emissions */
  int            sort_column; /* the last "sort-changed", or -1 */
  gboolean       descending;
} Fixture;

static void
cell (guint row, guint column, GString *out, gpointer data)
{
  Fixture *f = data;

  f->cells++;
  g_string_append_printf (out, "r%u c%u", row, column);
}

static void
on_row_selected (EtReportTable *table, guint row, gpointer data)
{
  Fixture *f = data;

  f->selected = row;
  f->selections++;
}

static void
on_sort_changed (EtReportTable *table, guint column, gboolean descending, gpointer data)
{
  Fixture *f = data;

  f->sort_column = (int) column;
  f->descending = descending;
}

static int
setup (void **state)
{
  static const EtReportColumn columns[] = {
    { "Number", 10, TRUE, TRUE, FALSE },
    { "Name", 12, TRUE, FALSE, FALSE },
    { "Text", 20, FALSE, FALSE, TRUE },
  };
  Fixture *f = g_new0 (Fixture, 1);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  f->window = GTK_WINDOW (gtk_window_new ());
  f->table = ET_REPORT_TABLE (et_report_table_new ());
  f->selected = ET_REPORT_NONE;
  f->sort_column = -1;
  et_report_table_set_columns (f->table, columns, G_N_ELEMENTS (columns), cell, f);
  g_signal_connect (f->table, "row-selected", G_CALLBACK (on_row_selected), f);
  g_signal_connect (f->table, "sort-changed", G_CALLBACK (on_sort_changed), f);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (f->table));
  gtk_window_set_child (f->window, scrolled);
  gtk_window_set_default_size (f->window, 700, 400);
  gtk_window_present (f->window);
  et_report_table_set_n_rows (f->table, N_ROWS);
  wait_for_frame (GTK_WIDGET (f->table));
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  gtk_window_destroy (f->window);
  drain_events ();
  g_free (f);
  return 0;
}

static guint
visible_rows (Fixture *f, guint *first)
{
  guint end;

  et_report_table_get_visible (f->table, first, &end);
  return end - *first;
}

/* The cells one frame asks for: those of the rows on screen (a partly
 * shown row at each end included), three columns each. */
static void
assert_frame_asks_for_rows_on_screen (Fixture *f)
{
  guint first, n;

  f->cells = 0;
  wait_for_frame (GTK_WIDGET (f->table));
  n = visible_rows (f, &first);
  assert_true (n >= 5);
  assert_true (f->cells > 0);
  assert_true (f->cells <= (n + 1) * 3);
}

static void
test_a_frame_draws_only_the_rows_on_screen (void **state)
{
  Fixture *f = *state;
  guint first;

  assert_frame_asks_for_rows_on_screen (f);
  visible_rows (f, &first);
  assert_int_equal (first, 0);

  /* A jump far away: the row lands in the middle of the view, and the
   * next frame still asks for the rows that show, no more. */
  et_report_table_set_selected (f->table, 76543);
  et_report_table_scroll_to (f->table, 76543);
  assert_frame_asks_for_rows_on_screen (f);
  {
    guint n = visible_rows (f, &first);

    assert_true (76543 > first && 76543 < first + n - 1);
    assert_true (76543 - first + 2 >= n / 2 && 76543 - first <= n / 2 + 2);
  }
  assert_int_equal (f->selections, 0);   /* chosen by the program: quiet */
}

/* A row scrolled to before the table has a size (a new window's report
 * gets its rows first) is revealed once it has one: a far row in the
 * middle, row 0 from the very top. */
static void
test_a_row_chosen_before_allocation_is_revealed (void **state)
{
  Fixture *f = *state;
  static const guint rows[] = { 4321, 0 };

  for (guint k = 0; k < G_N_ELEMENTS (rows); k++)
    {
      Fixture g = *f;
      GtkWidget *scrolled = gtk_scrolled_window_new ();
      GtkAdjustment *v;
      guint first, n;

      g.window = GTK_WINDOW (gtk_window_new ());
      g.table = ET_REPORT_TABLE (et_report_table_new ());
      et_report_table_set_columns (g.table, (EtReportColumn[]) { { "A", 10, TRUE, FALSE, TRUE } },
                                   1, cell, &g);
      et_report_table_set_n_rows (g.table, N_ROWS);
      et_report_table_scroll_to (g.table, rows[k]);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (g.table));
      gtk_window_set_child (g.window, scrolled);
      gtk_window_set_default_size (g.window, 300, 300);
      gtk_window_present (g.window);
      wait_for_frame (GTK_WIDGET (g.table));
      v = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (g.table));
      n = visible_rows (&g, &first);
      if (rows[k] == 0)
        assert_true (gtk_adjustment_get_value (v) == 0);
      else
        assert_true (rows[k] > first && rows[k] < first + n - 1);
      gtk_window_destroy (g.window);
      drain_events ();
    }
}

static gboolean
press_key (Fixture *f, guint keyval, GdkModifierType state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->table));
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        g_signal_emit_by_name (c, "key-pressed", keyval, 0, state, &handled);
    }
  return handled;
}

static void
copied (GObject *source, GAsyncResult *result, gpointer data)
{
  *(char **) data = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
}

static void
test_keys_move_the_selection_and_copy_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *text = NULL;
  guint first, n;

  et_report_table_set_selected (f->table, ET_REPORT_NONE);
  et_report_table_scroll_to (f->table, 0);
  /* Nothing selected: Down starts at the first row on screen. */
  assert_true (press_key (f, GDK_KEY_Down, 0));
  assert_int_equal (f->selected, 0);
  assert_true (press_key (f, GDK_KEY_Down, 0));
  assert_int_equal (f->selected, 1);
  assert_true (press_key (f, GDK_KEY_Page_Down, 0));
  assert_true (f->selected > 3);
  assert_true (press_key (f, GDK_KEY_End, 0));
  assert_int_equal (f->selected, N_ROWS - 1);
  assert_int_equal (et_report_table_get_selected (f->table), N_ROWS - 1);
  wait_for_frame (GTK_WIDGET (f->table));
  n = visible_rows (f, &first);
  assert_int_equal (first + n, N_ROWS);
  assert_true (press_key (f, GDK_KEY_Up, 0));
  assert_int_equal (f->selected, N_ROWS - 2);
  assert_true (press_key (f, GDK_KEY_Home, 0));
  assert_int_equal (f->selected, 0);
  assert_false (press_key (f, GDK_KEY_a, 0));    /* not the table's */

  assert_true (press_key (f, GDK_KEY_Down, 0));
  assert_true (gtk_widget_activate_action (GTK_WIDGET (f->table), "report.copy-row", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (f->table)), NULL, copied,
                                 &text);
  RUN_UNTIL (text != NULL);
  assert_string_equal (text, "r1 c0\tr1 c1\tr1 c2");
}

static void
click (Fixture *f, double x, double y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->table));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (c))
        g_signal_emit_by_name (c, "pressed", 1, x, y);
    }
}

static void
test_header_clicks_sort_and_row_clicks_select (void **state)
{
  Fixture *f = *state;
  GtkAdjustment *v = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (f->table));
  double header = gtk_widget_get_height (GTK_WIDGET (f->table)) - gtk_adjustment_get_page_size (v);
  double row_h = gtk_adjustment_get_upper (v) / N_ROWS;
  int nat_before, nat_after, min;

  et_report_table_set_sort (f->table, -1, FALSE);
  click (f, 20, header / 2);
  assert_int_equal (f->sort_column, 0);
  assert_false (f->descending);
  click (f, 20, header / 2);
  assert_int_equal (f->sort_column, 0);
  assert_true (f->descending);
  /* The text column does not sort. */
  f->sort_column = -1;
  click (f, gtk_widget_get_width (GTK_WIDGET (f->table)) - 20, header / 2);
  assert_int_equal (f->sort_column, -1);

  /* A click on the third row on screen selects it. */
  et_report_table_scroll_to (f->table, 0);
  gtk_adjustment_set_value (v, 0);
  click (f, 20, header + 2.5 * row_h);
  assert_int_equal (f->selected, 2);
  assert_int_equal (et_report_table_get_selected (f->table), 2);

  /* The first column's right edge dragged 50 px to the right. */
  gtk_widget_measure (GTK_WIDGET (f->table), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat_before,
                      NULL, NULL);
  {
    int first_w = 0;

    /* Where the edge is: the first x at which the header shows the
     * resizing cursor. */
    for (int x = 1; x < 400 && first_w == 0; x++)
      {
        g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->table));
        for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
          {
            g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
            if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
              g_signal_emit_by_name (c, "motion", (double) x, header / 2);
          }
        if (gtk_widget_get_cursor (GTK_WIDGET (f->table)) != NULL)
          first_w = x;
      }
    assert_true (first_w > 0);
    drag_on (GTK_WIDGET (f->table), first_w, header / 2, 50);
  }
  gtk_widget_measure (GTK_WIDGET (f->table), GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat_after,
                      NULL, NULL);
  assert_int_equal (nat_after, nat_before + 50);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_a_frame_draws_only_the_rows_on_screen, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_row_chosen_before_allocation_is_revealed, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_keys_move_the_selection_and_copy_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_header_clicks_sort_and_row_clicks_select, setup,
                                     teardown),
  };

  gtk_init ();
  return cmocka_run_group_tests (tests, NULL, NULL);
}
