/* test-render-filters.c — "etlscope-cli render" with the marker filters
 * (--provider, --pid, --tid, --kind, --min-importance).
 *
 * The options are parsed by the CLI's own option group and put into a
 * layout by the CLI's own code (et_cli_render_apply_filter); what is then
 * drawn is read back through render/'s shapes (the geometry both painting
 * and hit-testing use), over a picture tall enough for every row. Each
 * filter must leave out exactly what it names: every shape left passes it,
 * and the shapes of what passes are all still there, as many as without
 * the filter. The tool itself must write a different picture with a filter
 * and refuse a bad one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <glib/gstdio.h>

#include "et-fixture.h"
#include "et-cli-render.h"
#include "et-timeline-render.h"
#include "cli-run.h"
#include "et-trace-load.h"

typedef struct
{
  char    *dir;
  char    *demo;
  EtTrace *trace;
} Fixture;

/* What was drawn: the shapes, and per channel how many. */
typedef struct
{
  EtTrace *trace;
  GArray  *shapes;          /* EtShape */
  guint   *per_channel;
} Drawn;

static void
collect (const EtShape *shape, gpointer data)
{
  Drawn *d = data;

  g_array_append_val (d->shapes, *shape);
  d->per_channel[shape->channel]++;
}

static void
drawn_clear (Drawn *d)
{
  g_array_unref (d->shapes);
  g_free (d->per_channel);
}

/* Parses @args (NULL-terminated, after "render") with the CLI's filter
 * options, applies them and collects the shapes of the whole trace. */
static Drawn
draw_filtered (EtTrace *trace, const char *const *args)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(EtLayout) layout = et_layout_new (trace);
  Drawn d = { trace, g_array_new (FALSE, FALSE, sizeof (EtShape)),
              g_new0 (guint, et_trace_get_n_channels (trace)) };
  EtCliFilter filter;
  EtViewport v;
  char **parse;
  int argc;

  et_cli_filter_init (&filter);
  g_option_context_set_main_group (context,
                                   et_cli_filter_group_new (&filter, "render", ET_CLI_FILTER_VIEW));
  g_ptr_array_add (argv, (gpointer) "render");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  argc = (int) argv->len - 1;
  parse = (char **) argv->pdata;
  if (!g_option_context_parse (context, &argc, &parse, &error))
    fail_msg ("%s", error->message);
  et_cli_filter_resolve (&filter, trace);
  et_cli_render_apply_filter (layout, trace, &filter);

  et_viewport_init (&v, 1600, 900);
  et_layout_update (layout, v.lane_height);
  v.from_ns = 0;
  v.to_ns = et_trace_get_duration_ns (trace);
  v.height = v.ruler_height + et_layout_height (layout) + 1;   /* every row in view */
  et_timeline_foreach_shape (trace, layout, &v, collect, &d);
  et_cli_filter_clear (&filter);
  return d;
}

#define draw(trace, ...) draw_filtered ((trace), (const char *const[]) { __VA_ARGS__, NULL })

static const EtThread *
channel_thread (EtTrace *trace, guint channel)
{
  return et_trace_get_thread (trace, et_trace_channel_thread (trace, channel));
}

static guint
provider_index (EtTrace *trace, const char *name)
{
  for (guint i = 0; i < et_trace_get_n_providers (trace); i++)
    if (g_str_equal (et_trace_get_provider (trace, i)->name, name))
      return i;
  fail_msg ("no provider %s", name);
  return 0;
}

typedef gboolean (*ChannelTest) (EtTrace *trace, guint channel, gconstpointer data);

/* Channels that pass @test keep every shape they had unfiltered; the
 * others have none left; and some of each kind were there before. */
static void
assert_only_channels (const Drawn *all, const Drawn *some, ChannelTest test, gconstpointer data)
{
  guint kept = 0, dropped = 0;

  for (guint c = 0; c < et_trace_get_n_channels (all->trace); c++)
    {
      if (test (all->trace, c, data))
        {
          assert_int_equal (some->per_channel[c], all->per_channel[c]);
          kept += all->per_channel[c];
        }
      else
        {
          assert_int_equal (some->per_channel[c], 0);
          dropped += all->per_channel[c];
        }
    }
  assert_true (kept > 0);
  assert_true (dropped > 0);
  assert_int_equal (some->shapes->len, kept);
}

static gboolean
pid_is (EtTrace *trace, guint channel, gconstpointer data)
{
  return channel_thread (trace, channel)->pid == GPOINTER_TO_UINT (data);
}

static gboolean
tid_is (EtTrace *trace, guint channel, gconstpointer data)
{
  return channel_thread (trace, channel)->tid == GPOINTER_TO_UINT (data);
}

static gboolean
provider_is (EtTrace *trace, guint channel, gconstpointer data)
{
  return et_channel_provider (et_trace_get_channel (trace, channel)) == GPOINTER_TO_UINT (data);
}

static void
test_pid_tid_and_provider_keep_only_their_rows (void **state)
{
  Fixture *f = *state;
  Drawn all = draw (f->trace, "--min-importance=low");
  Drawn pid = draw (f->trace, "--pid=5312");
  Drawn tid = draw (f->trace, "--tid=4123");
  guint jobs = provider_index (f->trace, "Contoso-Jobs");
  Drawn provider = draw (f->trace, "--provider=contoso-jobs");   /* names without case */

  assert_only_channels (&all, &pid, pid_is, GUINT_TO_POINTER (5312));
  assert_only_channels (&all, &tid, tid_is, GUINT_TO_POINTER (4123));
  assert_only_channels (&all, &provider, provider_is, GUINT_TO_POINTER (jobs));
  drawn_clear (&all);
  drawn_clear (&pid);
  drawn_clear (&tid);
  drawn_clear (&provider);
}

static guint
count_kind (const Drawn *d, EtShapeKind kind)
{
  guint n = 0;

  for (guint i = 0; i < d->shapes->len; i++)
    n += g_array_index (d->shapes, EtShape, i).kind == kind;
  return n;
}

/* Spans only: no flag, message or merged mark left, and the spans (and
 * lone ends) exactly as without the filter. */
static void
test_kind_span_draws_only_spans (void **state)
{
  Fixture *f = *state;
  Drawn all = draw (f->trace, "--min-importance=low");
  Drawn spans = draw (f->trace, "--kind=span");

  assert_true (count_kind (&all, ET_SHAPE_FLAG) > 0);
  assert_true (count_kind (&all, ET_SHAPE_MESSAGE) > 0);
  assert_int_equal (count_kind (&spans, ET_SHAPE_FLAG), 0);
  assert_int_equal (count_kind (&spans, ET_SHAPE_MESSAGE), 0);
  assert_int_equal (count_kind (&spans, ET_SHAPE_AGGREGATE), 0);
  assert_true (count_kind (&all, ET_SHAPE_SPAN) > 0);
  assert_int_equal (count_kind (&spans, ET_SHAPE_SPAN), count_kind (&all, ET_SHAPE_SPAN));
  assert_int_equal (count_kind (&spans, ET_SHAPE_LONE_END), count_kind (&all, ET_SHAPE_LONE_END));
  drawn_clear (&all);
  drawn_clear (&spans);
}

/* Only high and critical marks: a merged mark stands for its most
 * important member, a span run for its most important span. */
static void
test_min_importance_drops_the_rest (void **state)
{
  Fixture *f = *state;
  Drawn all = draw (f->trace, "--min-importance=low");
  Drawn high = draw (f->trace, "--min-importance=high");
  guint below = 0;

  for (guint i = 0; i < all.shapes->len; i++)
    below += g_array_index (all.shapes, EtShape, i).importance < ET_IMPORTANCE_HIGH;
  assert_true (below > 0);
  assert_true (high.shapes->len > 0);
  for (guint i = 0; i < high.shapes->len; i++)
    {
      const EtShape *s = &g_array_index (high.shapes, EtShape, i);

      if (s->importance < ET_IMPORTANCE_HIGH)
        fail_msg ("shape %u (kind %d, channel %u) drawn at importance %d", i, s->kind,
                  s->channel, s->importance);
      if (s->count == 1)
        assert_true (s->m->importance >= ET_IMPORTANCE_HIGH);
    }
  drawn_clear (&all);
  drawn_clear (&high);
}

/* The tool: a filter changes the picture; a bad filter is refused. */
static void
test_tool_applies_and_checks_filters (void **state)
{
  Fixture *f = *state;
  g_autofree char *plain = g_build_filename (f->dir, "plain.png", NULL);
  g_autofree char *filtered = g_build_filename (f->dir, "filtered.png", NULL);
  g_autofree char *a = NULL, *b = NULL;
  gsize la, lb;
  Run run_plain = run_cli ("render", "-o", plain, f->demo);
  Run run_filtered = run_cli ("render", "-o", filtered, "--kind=span", "--pid=4120", f->demo);
  Run bad_kind = run_cli ("render", "-o", filtered, "--kind=bar", f->demo);
  Run bad_pid = run_cli ("render", "-o", filtered, "--pid=x", f->demo);

  assert_int_equal (run_plain.status, 0);
  assert_int_equal (run_filtered.status, 0);
  assert_true (g_file_get_contents (plain, &a, &la, NULL));
  assert_true (g_file_get_contents (filtered, &b, &lb, NULL));
  assert_true (la != lb || memcmp (a, b, la) != 0);
  assert_int_equal (bad_kind.status, 2);
  assert_non_null (strstr (bad_kind.err, "bar"));
  assert_int_equal (bad_pid.status, 2);
  run_clear (&run_plain);
  run_clear (&run_filtered);
  run_clear (&bad_kind);
  run_clear (&bad_pid);
}

static int
png_height (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  int h;

  assert_int_equal (cairo_surface_status (s), CAIRO_STATUS_SUCCESS);
  h = cairo_image_surface_get_height (s);
  cairo_surface_destroy (s);
  return h;
}

/* The tool's pictures carry a caption and the legend under the timeline
 * (taller than --height); --no-legend gives the timeline alone. */
static void
test_tool_pictures_have_caption_and_legend (void **state)
{
  Fixture *f = *state;
  g_autofree char *with = g_build_filename (f->dir, "with.png", NULL);
  g_autofree char *without = g_build_filename (f->dir, "without.png", NULL);
  Run a = run_cli ("render", "-o", with, "--height", "300", f->demo);
  Run b = run_cli ("render", "-o", without, "--height", "300", "--no-legend", f->demo);

  assert_int_equal (a.status, 0);
  assert_int_equal (b.status, 0);
  assert_int_equal (png_height (without), 300);
  assert_true (png_height (with) > 300 + 60);
  run_clear (&a);
  run_clear (&b);
}

static int
setup (void **state)
{
  g_autoptr(GError) error = NULL;
  Fixture *f = g_new0 (Fixture, 1);
  EtFixtureOptions o;

  f->dir = g_dir_make_tmp ("etlscope-test-render-filters-XXXXXX", &error);
  if (f->dir == NULL)
    return -1;
  f->demo = g_build_filename (f->dir, "demo.etl", NULL);
  et_fixture_options_init (&o);
  if (!et_fixture_write_demo (f->demo, &o, &error)
      || !(f->trace = et_trace_load (f->demo, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error)))
    {
      print_error ("%s\n", error->message);
      return -1;
    }
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  if (f == NULL)
    return 0;
  g_clear_object (&f->trace);
  et_fixture_remove_dir (f->dir);
  g_free (f->demo);
  g_free (f->dir);
  g_free (f);
  return 0;
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_pid_tid_and_provider_keep_only_their_rows),
    cmocka_unit_test (test_kind_span_draws_only_spans),
    cmocka_unit_test (test_min_importance_drops_the_rest),
    cmocka_unit_test (test_tool_applies_and_checks_filters),
    cmocka_unit_test (test_tool_pictures_have_caption_and_legend),
  };

  return cmocka_run_group_tests (tests, setup, teardown);
}
