/* GUI tests (under Xvfb) of the ways a trace comes in and markers go out:
 * File → Open through its file chooser, drag and drop onto a window, and
 * the markers exported as CSV through the save dialog. The dialogs are
 * driven as a person would: the file chosen, then Open / Export. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <glib/gstdio.h>
#include "et-application.h"
#include "et-fixture.h"
#include "et-markers-list.h"
#include "gui-test.h"

static char *dir;
static char *demo_path;
static char *cases_path;

static int
setup (void **state)
{
  gtk_init ();
  /* Recent files are recorded under the program's name and command, as
   * main.c and GApplication set them. */
  g_set_application_name ("Etlscope");
  g_set_prgname ("etlscope");
  dir = g_dir_make_tmp ("et-app-files-XXXXXX", NULL);
  demo_path = g_build_filename (dir, "demo.etl", NULL);
  cases_path = g_build_filename (dir, "cases.etl", NULL);
  if (!run_fixture_tool ((const char *[]) { "demo", demo_path, NULL }))
    return -1;
  return run_fixture_tool ((const char *[]) { "cases", cases_path, NULL }) ? 0 : -1;
}

static int
teardown (void **state)
{
  et_fixture_remove_dir (dir);
  g_free (demo_path);
  g_free (cases_path);
  g_free (dir);
  return 0;
}

static gboolean
has_filter_for (GtkFileChooser *chooser, const char *name)
{
  g_autoptr(GListModel) filters = gtk_file_chooser_get_filters (chooser);

  for (guint i = 0; i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);
      g_autoptr(GVariant) rules = gtk_file_filter_to_gvariant (filter);
      g_autofree char *text = g_variant_print (rules, FALSE);

      if (strstr (text, name) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The file chooser a native dialog shows without a portal, once shown. */
static GtkFileChooser *
wait_for_chooser (void)
{
  RUN_UNTIL (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL);
  return GTK_FILE_CHOOSER (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
}

static gboolean
chosen_is (GtkFileChooser *chooser, GFile *file)
{
  g_autoptr(GFile) chosen = gtk_file_chooser_get_file (chooser);
  return chosen != NULL && g_file_equal (chosen, file);
}

/* File → Open offers .etl files first, opens the chosen trace in the
 * window and remembers its folder for next time. */
static void
test_open_dialog_opens_the_chosen_trace (void **state)
{
  EtWindow *window = et_window_new (NULL);
  g_autoptr(GFile) file = g_file_new_for_path (demo_path);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.etlscope.Etlscope");
  g_autofree char *folder = NULL;
  GtkFileChooser *chooser;

  gtk_window_present (GTK_WINDOW (window));
  activate (window, "win.open");
  chooser = wait_for_chooser ();
  assert_int_equal (gtk_file_chooser_get_action (chooser), GTK_FILE_CHOOSER_ACTION_OPEN);
  assert_true (has_filter_for (chooser, "*.etl"));
  assert_true (gtk_file_chooser_set_file (chooser, file, NULL));
  /* The chooser selects the file once it has listed its folder. */
  RUN_UNTIL (chosen_is (chooser, file));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  RUN_UNTIL (et_window_get_trace (window) != NULL && !et_window_is_loading (window));
  assert_string_equal (et_window_get_path (window), demo_path);
  assert_null (find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG));
  folder = g_settings_get_string (settings, "last-folder");
  assert_string_equal (folder, dir);
  close_window (window);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

/* Export proposes "<trace>-markers.csv" and writes the Markers report's
 * rows there: a header and one line per row. */
static void
test_export_dialog_writes_the_markers_csv (void **state)
{
  EtWindow *window = open_window (demo_path);
  g_autofree char *csv_path = g_build_filename (dir, "exported.csv", NULL);
  g_autoptr(GFile) target = g_file_new_for_path (csv_path);
  g_autofree char *name = NULL, *csv = NULL;
  GtkFileChooser *chooser;
  guint rows;

  RUN_UNTIL (!et_markers_list_is_busy (et_window_get_markers_list (window)));
  rows = et_markers_list_get_n_rows (et_window_get_markers_list (window));
  assert_true (rows > 0);
  /* As soon as the trace is shown, Export and Find can be used. */
  assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-markers"));
  assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "find"));
  activate (window, "win.export-markers");
  chooser = wait_for_chooser ();
  assert_int_equal (gtk_file_chooser_get_action (chooser), GTK_FILE_CHOOSER_ACTION_SAVE);
  name = gtk_file_chooser_get_current_name (chooser);
  assert_string_equal (name, "demo-markers.csv");
  /* Typed into the name field as a whole path, as a person may. */
  gtk_file_chooser_set_current_name (chooser, csv_path);
  RUN_UNTIL (chosen_is (chooser, target));
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  RUN_UNTIL (g_file_test (csv_path, G_FILE_TEST_EXISTS));
  assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  assert_true (g_str_has_prefix (csv, "kind,status,start_ns,end_ns,duration_ns,pid,process,"));
  assert_int_equal (count_lines (csv), rows + 1);
  close_window (window);
}

/* Only the extension leaves the proposed name: two traces whose names
 * differ after their first dot do not export to the same file. */
static void
test_export_name_keeps_the_dots_of_the_trace_name (void **state)
{
  g_autofree char *copy = g_build_filename (dir, "net.4.5.2.x64.etl", NULL);
  g_autofree char *bytes = NULL, *name = NULL;
  gsize len;
  EtWindow *window;
  GtkFileChooser *chooser;

  assert_true (g_file_get_contents (demo_path, &bytes, &len, NULL));
  assert_true (g_file_set_contents (copy, bytes, (gssize) len, NULL));
  window = open_window (copy);
  activate (window, "win.export-markers");
  chooser = wait_for_chooser ();
  name = gtk_file_chooser_get_current_name (chooser);
  assert_string_equal (name, "net.4.5.2.x64-markers.csv");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  close_window (window);
  g_unlink (copy);
}

/* Emits what GTK emits when files are dropped on @widget. */
static gboolean
drop_files (GtkWidget *widget, const char *path)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_auto(GValue) value = G_VALUE_INIT;
  GSList files = { file, NULL };
  gboolean accepted = FALSE;

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (&files));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        {
          g_signal_emit_by_name (c, "drop", &value, 10.0, 10.0, &accepted);
          return accepted;
        }
    }
  fail_msg ("the window has no drop target");
  return FALSE;
}

static EtWindow *
window_for (GtkApplication *app, const char *path)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (g_strcmp0 (et_window_get_path (l->data), path) == 0)
      return l->data;
  return NULL;
}

/* Where the trace was finalized. */
static void
on_trace_finalized (gpointer data, GObject *where_the_object_was)
{
  g_atomic_pointer_set ((GThread **) data, g_thread_self ());
  g_main_context_wakeup (NULL);
}

/* A trace replaced by another is let go off the main loop: unmapping a
 * file of gigabytes takes the kernel a tenth of a second. */
static void
test_a_replaced_trace_is_released_off_the_main_loop (void **state)
{
  EtWindow *window = open_window (demo_path);
  GThread *released = NULL;

  g_object_weak_ref (G_OBJECT (et_window_get_trace (window)), on_trace_finalized, &released);
  et_window_load (window, cases_path);
  RUN_UNTIL (!et_window_is_loading (window) && g_atomic_pointer_get (&released) != NULL);
  assert_true (g_atomic_pointer_get (&released) != g_thread_self ());
  assert_string_equal (et_trace_get_path (et_window_get_trace (window)), cases_path);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A trace dropped on a window opens in a window of its own; dropping a
 * trace that is already open brings its window back instead. */
static void
test_dropping_a_trace_opens_it (void **state)
{
  g_autoptr(EtApplication) app = et_application_new ();
  g_autoptr(GFile) demo = g_file_new_for_path (demo_path);
  EtWindow *first, *second;

  /* Tests have no session bus to be unique on. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_open (G_APPLICATION (app), &demo, 1, "");
  first = window_for (GTK_APPLICATION (app), demo_path);
  assert_non_null (first);
  RUN_UNTIL (!et_window_is_loading (first));

  assert_true (drop_files (GTK_WIDGET (first), cases_path));
  second = window_for (GTK_APPLICATION (app), cases_path);
  assert_non_null (second);
  RUN_UNTIL (!et_window_is_loading (second));
  assert_non_null (et_window_get_trace (second));
  assert_int_equal (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), 2);

  assert_true (drop_files (GTK_WIDGET (second), demo_path));
  assert_int_equal (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), 2);
  assert_ptr_equal (window_for (GTK_APPLICATION (app), demo_path), first);
  gtk_window_destroy (GTK_WINDOW (second));
  close_window (first);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_open_dialog_opens_the_chosen_trace),
    cmocka_unit_test (test_export_dialog_writes_the_markers_csv),
    cmocka_unit_test (test_export_name_keeps_the_dots_of_the_trace_name),
    cmocka_unit_test (test_dropping_a_trace_opens_it),
    cmocka_unit_test (test_a_replaced_trace_is_released_off_the_main_loop),
  };
  return cmocka_run_group_tests_name ("app-files", tests, setup, teardown);
}
