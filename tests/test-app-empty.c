/* test-app-empty.c — what the window shows for a trace without markers,
 * and for one with the .NET runtime's (under Xvfb).
 *
 * A trace whose events all come from providers that are off by default
 * opens on an empty timeline that says so — how many events, from which
 * providers — and its button reads the trace again with every provider
 * on: then the markers are there, the message is gone and the providers
 * are ticked in the filters. A trace with the runtime's GC events opens
 * with their markers, no message, and the group named "CLR (.NET
 * runtime)" among the filters; a GC's details say a built-in runtime rule
 * decided how it looks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "et-filter-popover.h"
#include "et-fixture.h"
#include "gui-test.h"

#define RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define BUSY    "5e2c1c6a-3b0e-4a57-9d9e-0c4f7d1b2a30"
#define QUIET   "0d7a9a51-62c4-4d3c-8f9e-4f0b7d7e3c11"

static void
write_events (EtFixtureWriter *w, const char *provider, guint n, guint16 id, gint64 from)
{
  g_autoptr(EtFixturePayload) p = et_fixture_payload_new ();

  for (guint i = 0; i < n; i++)
    {
      EtFixtureEvent ev;
      gsize len = 0;
      const guint8 *data;

      et_fixture_payload_reset (p);
      et_fixture_payload_add_u32 (p, "Count", i + 1);
      et_fixture_payload_add_u32 (p, "Depth", 0);
      et_fixture_payload_add_u32 (p, "Reason", 0);
      et_fixture_payload_add_u32 (p, "Type", 0);
      et_fixture_payload_add_u16 (p, "ClrInstanceID", 8);
      data = et_fixture_payload_data (p, &len);
      et_fixture_event_init (&ev);
      g_assert_true (et_guid_parse (provider, &ev.provider));
      ev.time_ns = from + 100000 * i;
      ev.pid = 60;
      ev.tid = 61;
      ev.id = id;
      ev.version = 1;
      ev.task = 1;
      et_fixture_write_event (w, &ev, NULL, 0, data, len);
    }
}

/* Five events of one provider without a manifest, two of another. */
static char *
write_trace (const char *name, gboolean runtime)
{
  char *path = g_build_filename (gui_dir, name, NULL);
  g_autoptr(EtFixtureWriter) w = et_fixture_writer_new (path, NULL, NULL);

  assert_non_null (w);
  if (runtime)
    {
      write_events (w, RUNTIME, 3, 1, 1000000);    /* GC/Start #1…#3 */
      write_events (w, RUNTIME, 3, 2, 1050000);    /* GC/Stop #1…#3 */
    }
  else
    {
      write_events (w, BUSY, 5, 1, 1000000);
      write_events (w, QUIET, 2, 7, 1050000);
    }
  assert_true (et_fixture_writer_close (w, NULL));
  return path;
}

static GtkWidget *
child (EtWindow *window, const char *id)
{
  GObject *found = gtk_widget_get_template_child (GTK_WIDGET (window), ET_TYPE_WINDOW, id);

  assert_non_null (found);
  return GTK_WIDGET (found);
}

static const EtProvider *
provider_of (EtTrace *trace, const char *guid_text, guint *index)
{
  EtGuid guid;

  assert_true (et_guid_parse (guid_text, &guid));
  for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
    if (et_guid_equal (&et_trace_get_provider (trace, p)->guid, &guid))
      {
        *index = p;
        return et_trace_get_provider (trace, p);
      }
  fail_msg ("provider %s not in the trace", guid_text);
  return NULL;
}

static void
test_a_trace_without_markers_says_so_and_offers_its_events (void **state)
{
  g_autofree char *path = write_trace ("no-markers.etl", FALSE);
  EtWindow *window = open_window (path);
  GtkWidget *empty = child (window, "empty_state");
  GtkWidget *button = child (window, "empty_button");
  const char *text;
  guint busy, quiet;
  EtTrace *trace;

  assert_int_equal (et_trace_get_stats (et_window_get_trace (window))->markers, 0);
  assert_true (gtk_widget_get_mapped (empty));
  assert_true (gtk_widget_get_mapped (button));
  /* The two providers' events (and whatever the trace header adds). */
  text = gtk_label_get_text (GTK_LABEL (child (window, "empty_label")));
  assert_non_null (strstr (text, "events and no EventSource markers."));
  assert_non_null (strstr (text, BUSY ": 5 events"));
  assert_non_null (strstr (text, QUIET ": 2 events"));
  assert_true (strstr (text, BUSY) < strstr (text, QUIET));    /* most events first */
  save_screenshot (window, "empty-state.png");

  assert_true (gtk_widget_activate (button));
  RUN_UNTIL (!et_window_is_loading (window)
             && et_trace_get_stats (et_window_get_trace (window))->markers > 0);
  wait_for_picture (window);
  trace = et_window_get_trace (window);
  assert_false (gtk_widget_get_visible (empty));
  provider_of (trace, BUSY, &busy);
  provider_of (trace, QUIET, &quiet);
  assert_true (et_layout_get_provider_visible (et_window_get_layout (window), busy));
  assert_true (et_layout_get_provider_visible (et_window_get_layout (window), quiet));
  /* Every event of the two is a marker now. */
  assert_true (et_trace_get_stats (trace)->markers >= 7);
  close_window (window);
}

/* The check button labelled @label under @widget, or NULL. */
static GtkCheckButton *
find_check_labelled (GtkWidget *widget, const char *label)
{
  if (GTK_IS_CHECK_BUTTON (widget)
      && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)), label) == 0)
    return GTK_CHECK_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkCheckButton *found = find_check_labelled (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_a_runtime_trace_opens_with_its_gcs (void **state)
{
  g_autofree char *path = write_trace ("runtime.etl", TRUE);
  EtWindow *window = open_window (path);
  GtkWidget *popover = find_widget (GTK_WIDGET (window), ET_TYPE_FILTER_POPOVER);
  EtTrace *trace = et_window_get_trace (window);
  GtkCheckButton *clr;
  guint runtime;

  assert_true (provider_of (trace, RUNTIME, &runtime)->default_on);
  assert_int_equal (et_trace_get_stats (trace)->markers, 3);    /* three GC spans */
  assert_false (gtk_widget_get_visible (child (window, "empty_state")));
  assert_non_null (popover);
  clr = find_check_labelled (popover, "CLR (.NET runtime)");
  assert_non_null (clr);
  assert_true (gtk_check_button_get_active (clr));
  assert_non_null (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (clr)),
                           "Microsoft-Windows-DotNETRuntime"));
  save_screenshot (window, "clr-gcs.png");

  /* The details of the first GC: its text, and why it looks like this. */
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_channel_provider (et_trace_get_channel (trace, c)) == runtime)
      {
        g_autofree char *details = NULL;

        et_window_reveal_marker (window, c, 0);
        details = et_window_get_details (window);
        assert_non_null (strstr (details, "GC #1 gen 0 (AllocSmall, NonConcurrentGC)"));
        assert_non_null (strstr (details, "from built-in runtime rule"));
        assert_null (strstr (details, "cvSpanId"));
        break;
      }
  close_window (window);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_a_trace_without_markers_says_so_and_offers_its_events),
    cmocka_unit_test (test_a_runtime_trace_opens_with_its_gcs),
  };
  return cmocka_run_group_tests_name ("app-empty", tests, setup_demo, teardown_demo);
}
