/* et-filter-popover.c — see et-filter-popover.h.
 *
 *   check buttons / drop-down ─ EtLayout filters (render/) ─ "changed"
 *
 * The popover keeps no filter state of its own: the layout is the truth,
 * and the widgets are set from it when a trace arrives.
 */
#include "et-filter-popover.h"
#include "et-timeline-render.h"
#include "et-builtin-rules.h"
#include "et-i18n.h"

#include <glib/gi18n.h>

struct _EtFilterPopover
{
  GtkPopover   parent_instance;

  GtkDropDown *importance;
  GtkWidget   *kind_flag;
  GtkWidget   *kind_message;
  GtkWidget   *kind_span;
  GtkBox      *providers;
  GtkFlowBox  *categories;
  GtkBox      *series;
  GtkEditable *search;
  GtkWidget   *providers_all;
  GtkWidget   *providers_none;

  EtTrace     *trace;
  EtLayout    *layout;      /* not owned */
  GSettings   *settings;    /* remembers importance and kinds; may be NULL */
  gboolean     filling;     /* setting widgets from the layout: no signals */
};

G_DEFINE_FINAL_TYPE (EtFilterPopover, et_filter_popover, GTK_TYPE_POPOVER)

enum { SIGNAL_CHANGED, SIGNAL_RELOAD_NEEDED, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean
provider_has_markers (EtTrace *trace, guint provider)
{
  for (guint c = 0; c < et_trace_get_n_channels (trace); c++)
    if (et_channel_provider (et_trace_get_channel (trace, c)) == provider)
      return TRUE;
  return FALSE;
}

static void
on_provider_toggled (GtkCheckButton *check, gpointer data)
{
  EtFilterPopover *self = data;
  guint provider = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "provider"));
  gboolean active = gtk_check_button_get_active (check);

  if (self->filling || self->layout == NULL)
    return;
  et_layout_set_provider_visible (self->layout, provider, active);
  if (active && !provider_has_markers (self->trace, provider))
    g_signal_emit (self, signals[SIGNAL_RELOAD_NEEDED], 0);
  else
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_kinds_toggled (GtkCheckButton *check, gpointer data)
{
  EtFilterPopover *self = data;
  guint kinds = 0;

  if (self->filling || self->layout == NULL)
    return;
  kinds |= gtk_check_button_get_active (GTK_CHECK_BUTTON (self->kind_flag)) << ET_MARKER_FLAG;
  kinds |= gtk_check_button_get_active (GTK_CHECK_BUTTON (self->kind_message)) << ET_MARKER_MESSAGE;
  kinds |= gtk_check_button_get_active (GTK_CHECK_BUTTON (self->kind_span)) << ET_MARKER_SPAN;
  /* To the layout 0 means every kind; none ticked must show nothing. */
  et_layout_set_kinds (self->layout, kinds ? kinds : 1u << 31);
  if (self->settings != NULL)
    {
      const char *names[4] = { NULL };
      guint n = 0;

      for (guint k = ET_MARKER_FLAG; k <= ET_MARKER_SPAN; k++)
        if (kinds & (1u << k))
          names[n++] = et_marker_kind_to_string (k);
      g_settings_set_strv (self->settings, "kinds", names);
    }
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_importance_selected (GtkDropDown *dropdown, GParamSpec *pspec, gpointer data)
{
  EtFilterPopover *self = data;

  if (self->filling || self->layout == NULL)
    return;
  et_layout_set_min_importance (self->layout, gtk_drop_down_get_selected (dropdown));
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "min-importance", (int) gtk_drop_down_get_selected (dropdown));
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* A provider as the list names it: its name, or for one without a name
 * (classic providers name none in the trace) the start of its GUID. */
static char *
provider_label (const EtProvider *provider, const char *guid)
{
  /* The runtime's markers come from its built-in rules: one group named
   * for what a .NET developer calls it (its real name stays in the tip). */
  if (provider->default_on && et_builtin_rules_has (&provider->guid))
    return g_strdup (_("CLR (.NET runtime)"));
  if (*provider->name)
    return g_strdup (provider->name);
  /* Translators: a provider the trace gives no name; %.8s is the first
   * part of its GUID (the whole is in the tooltip) */
  return g_strdup_printf (_("Unnamed provider %.8s…"), guid);
}

static GtkWidget *
provider_check (EtFilterPopover *self, guint index)
{
  const EtProvider *provider = et_trace_get_provider (self->trace, index);
  char guid[ET_GUID_STRING_LEN];
  GtkWidget *check;
  g_autofree char *tip = NULL, *label = NULL;
  g_autoptr(GString) events = g_string_new (NULL);

  et_guid_to_string (&provider->guid, guid);
  et_i18n_count (provider->n_events, events);
  label = provider_label (provider, guid);
  check = gtk_check_button_new_with_label (label);
  /* Translators: a provider's tooltip: its GUID, its kind ("eventsource"…)
   * and how many events it wrote */
  tip = g_strdup_printf (ngettext ("%s\n%s provider, %s event", "%s\n%s provider, %s events",
                                   (gulong) MIN (provider->n_events, G_MAXULONG)),
                         guid, et_provider_kind_to_string (provider->kind), events->str);
  if (provider->default_on && et_builtin_rules_has (&provider->guid))
    {
      char *named = g_strconcat (provider->name, "\n", tip, NULL);

      g_free (tip);
      tip = named;
    }
  gtk_widget_set_tooltip_text (check, tip);
  g_object_set_data (G_OBJECT (check), "provider", GUINT_TO_POINTER (index));
  g_object_set_data_full (G_OBJECT (check), "guid", g_strdup (guid), g_free);
  g_signal_connect (check, "toggled", G_CALLBACK (on_provider_toggled), self);
  return check;
}

static void
on_category_toggled (GtkCheckButton *check, gpointer data)
{
  EtFilterPopover *self = data;
  gint16 category = (gint16) GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "category"));

  if (self->filling || self->layout == NULL)
    return;
  et_layout_set_category_visible (self->layout, category, gtk_check_button_get_active (check));
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
on_series_toggled (GtkCheckButton *check, gpointer data)
{
  EtFilterPopover *self = data;
  guint32 series = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "series"));

  if (self->filling || self->layout == NULL)
    return;
  et_layout_set_series_visible (self->layout, series, gtk_check_button_get_active (check));
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  double r, g, b;

  et_timeline_category_rgb ((gint16) GPOINTER_TO_INT (data), &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

/* A check button with the category's colour beside its name: the colour
 * alone would not say which it is. */
static GtkWidget *
category_check (EtFilterPopover *self, gint16 category)
{
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new ();
  g_autofree char *number = g_strdup_printf ("%d", category);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                  GINT_TO_POINTER (category), NULL);
  gtk_box_append (GTK_BOX (box), swatch);
  /* Translators: the alert category (-1), drawn red with a "!" */
  gtk_box_append (GTK_BOX (box), gtk_label_new (category == ET_CATEGORY_ALERT ? _("Alert") : number));
  gtk_check_button_set_child (GTK_CHECK_BUTTON (check), box);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                               et_layout_get_category_visible (self->layout, category));
  g_object_set_data (G_OBJECT (check), "category", GINT_TO_POINTER (category));
  g_signal_connect (check, "toggled", G_CALLBACK (on_category_toggled), self);
  return check;
}

static void
fill_categories (EtFilterPopover *self)
{
  for (gint k = -1; k <= 255; k++)
    if (et_trace_has_category (self->trace, k))
      gtk_flow_box_append (self->categories, category_check (self, (gint16) k));
}

static int
compare_series_names (gconstpointer a, gconstpointer b, gpointer trace)
{
  return g_utf8_collate (et_trace_get_string (trace, GPOINTER_TO_UINT (*(gconstpointer *) a)),
                         et_trace_get_string (trace, GPOINTER_TO_UINT (*(gconstpointer *) b)));
}

static void
fill_series (EtFilterPopover *self)
{
  g_autoptr(GPtrArray) series = g_ptr_array_new ();
  guint n;
  const guint32 *ids = et_trace_get_series (self->trace, &n);

  for (guint k = 0; k < n; k++)
    g_ptr_array_add (series, GUINT_TO_POINTER (ids[k]));
  g_ptr_array_sort_with_data (series, compare_series_names, self->trace);
  for (guint k = 0; k < series->len; k++)
    {
      guint32 id = GPOINTER_TO_UINT (series->pdata[k]);
      const char *name = et_trace_get_string (self->trace, id);
      /* Translators: the series of markers that have none */
      GtkWidget *check = gtk_check_button_new_with_label (*name ? name : _("(no series)"));

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                   et_layout_get_series_visible (self->layout, id));
      g_object_set_data (G_OBJECT (check), "series", GUINT_TO_POINTER (id));
      g_signal_connect (check, "toggled", G_CALLBACK (on_series_toggled), self);
      gtk_box_append (self->series, check);
    }
}

/* Providers by the name the list shows, as people sort (unnamed ones
 * last, by GUID). */
static int
compare_providers (gconstpointer a, gconstpointer b, gpointer trace)
{
  const EtProvider *pa = et_trace_get_provider (trace, GPOINTER_TO_UINT (*(gconstpointer *) a));
  const EtProvider *pb = et_trace_get_provider (trace, GPOINTER_TO_UINT (*(gconstpointer *) b));
  char ga[ET_GUID_STRING_LEN], gb[ET_GUID_STRING_LEN];
  g_autofree char *la = NULL, *lb = NULL;

  if ((*pa->name == '\0') != (*pb->name == '\0'))
    return *pa->name == '\0' ? 1 : -1;
  et_guid_to_string (&pa->guid, ga);
  et_guid_to_string (&pb->guid, gb);
  if (*pa->name == '\0')
    return strcmp (ga, gb);
  la = provider_label (pa, ga);
  lb = provider_label (pb, gb);
  return g_utf8_collate (la, lb);
}

/* Whether @check's label holds @needle (casefolded), for the search. */
static gboolean
label_matches (GtkWidget *check, const char *needle)
{
  const char *label = gtk_check_button_get_label (GTK_CHECK_BUTTON (check));
  g_autofree char *folded = label != NULL ? g_utf8_casefold (label, -1) : NULL;

  return *needle == '\0' || (folded != NULL && strstr (folded, needle) != NULL);
}

static void
on_search_changed (GtkSearchEntry *entry, gpointer data)
{
  EtFilterPopover *self = data;
  g_autofree char *needle = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (entry)), -1);
  GtkWidget *lists[] = { GTK_WIDGET (self->providers), GTK_WIDGET (self->series) };

  for (guint k = 0; k < G_N_ELEMENTS (lists); k++)
    for (GtkWidget *c = gtk_widget_get_first_child (lists[k]); c; c = gtk_widget_get_next_sibling (c))
      gtk_widget_set_visible (c, label_matches (c, needle));
}

/* All / None: every entry the search shows in that list, then one change
 * (or one reload, when a provider without markers was ticked). */
static void
set_all_shown (EtFilterPopover *self, GtkWidget *button, gboolean active)
{
  gboolean providers = button == self->providers_all || button == self->providers_none;
  GtkWidget *list = providers ? GTK_WIDGET (self->providers) : GTK_WIDGET (self->series);
  gboolean reload = FALSE;

  if (self->layout == NULL)
    return;
  self->filling = TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (list); c; c = gtk_widget_get_next_sibling (c))
    {
      if (!gtk_widget_get_visible (c))
        continue;
      gtk_check_button_set_active (GTK_CHECK_BUTTON (c), active);
      if (providers)
        {
          guint p = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (c), "provider"));

          et_layout_set_provider_visible (self->layout, p, active);
          reload |= active && !provider_has_markers (self->trace, p);
        }
      else
        et_layout_set_series_visible (self->layout, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (c), "series")),
                                      active);
    }
  self->filling = FALSE;
  g_signal_emit (self, signals[reload ? SIGNAL_RELOAD_NEEDED : SIGNAL_CHANGED], 0);
}

static void
on_all_clicked (GtkButton *button, gpointer data)
{
  set_all_shown (data, GTK_WIDGET (button), TRUE);
}

static void
on_none_clicked (GtkButton *button, gpointer data)
{
  set_all_shown (data, GTK_WIDGET (button), FALSE);
}

static void
remove_children (GtkWidget *parent)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (parent)) != NULL)
    if (GTK_IS_FLOW_BOX (parent))
      gtk_flow_box_remove (GTK_FLOW_BOX (parent), child);
    else
      gtk_box_remove (GTK_BOX (parent), child);
}

/* The last importance and kinds chosen (or everything, without settings). */
static void
restore_importance_and_kinds (EtFilterPopover *self)
{
  g_auto(GStrv) kinds = NULL;
  GtkWidget *checks[] = { self->kind_flag, self->kind_message, self->kind_span };
  guint importance = 0, bits = 0;

  if (self->settings != NULL)
    {
      importance = (guint) g_settings_get_int (self->settings, "min-importance");
      kinds = g_settings_get_strv (self->settings, "kinds");
    }
  for (guint k = ET_MARKER_FLAG; k <= ET_MARKER_SPAN; k++)
    {
      gboolean on = kinds == NULL
                    || g_strv_contains ((const char * const *) kinds, et_marker_kind_to_string (k));

      gtk_check_button_set_active (GTK_CHECK_BUTTON (checks[k]), on);
      bits |= (guint) on << k;
    }
  gtk_drop_down_set_selected (self->importance, importance);
  et_layout_set_min_importance (self->layout, importance);
  et_layout_set_kinds (self->layout, bits == 0 ? 1u << 31 : bits == 7 ? 0 : bits);
}

void
et_filter_popover_apply_defaults (EtFilterPopover *self)
{
  EtImportance importance;
  guint kinds;

  g_return_if_fail (ET_IS_FILTER_POPOVER (self));
  if (self->layout == NULL || self->filling)
    return;
  importance = et_layout_get_min_importance (self->layout);
  kinds = et_layout_get_kinds (self->layout);
  self->filling = TRUE;
  restore_importance_and_kinds (self);
  self->filling = FALSE;
  /* The popover itself writes these keys: only a change from elsewhere
   * (Preferences) needs the views to follow. */
  if (importance != et_layout_get_min_importance (self->layout)
      || kinds != et_layout_get_kinds (self->layout))
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
et_filter_popover_set_settings (EtFilterPopover *self, GSettings *settings)
{
  g_return_if_fail (ET_IS_FILTER_POPOVER (self));
  g_set_object (&self->settings, settings);
}

/* Provider @p's check button, ticked when it is shown by default or was
 * ticked before a reload (@shown_extra: GUIDs). */
static void
add_provider (EtFilterPopover *self, guint p, const char * const *shown_extra)
{
  GtkWidget *check = provider_check (self, p);
  const char *guid = g_object_get_data (G_OBJECT (check), "guid");
  gboolean shown = et_trace_get_provider (self->trace, p)->default_on
                   || (shown_extra != NULL && g_strv_contains (shown_extra, guid));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), shown);
  et_layout_set_provider_visible (self->layout, p, shown);
  gtk_box_append (self->providers, check);
}

void
et_filter_popover_set_trace (EtFilterPopover *self, EtTrace *trace, EtLayout *layout,
                             const char * const *shown_extra)
{
  g_return_if_fail (ET_IS_FILTER_POPOVER (self));
  g_set_object (&self->trace, trace);
  self->layout = layout;
  remove_children (GTK_WIDGET (self->providers));
  remove_children (GTK_WIDGET (self->categories));
  remove_children (GTK_WIDGET (self->series));
  if (trace == NULL)
    return;
  self->filling = TRUE;
  {
    g_autoptr(GPtrArray) order = g_ptr_array_new ();

    for (guint p = 0; p < et_trace_get_n_providers (trace); p++)
      g_ptr_array_add (order, GUINT_TO_POINTER (p));
    g_ptr_array_sort_with_data (order, compare_providers, trace);
    for (guint k = 0; k < order->len; k++)
      add_provider (self, GPOINTER_TO_UINT (order->pdata[k]), shown_extra);
  }
  restore_importance_and_kinds (self);
  fill_categories (self);
  fill_series (self);
  gtk_editable_set_text (self->search, "");
  self->filling = FALSE;
}

void
et_filter_popover_set_provider_visible (EtFilterPopover *self, guint index, gboolean visible)
{
  g_return_if_fail (ET_IS_FILTER_POPOVER (self));
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->providers));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "provider")) == index)
      gtk_check_button_set_active (GTK_CHECK_BUTTON (child), visible);
}

GStrv
et_filter_popover_dup_shown_extra (EtFilterPopover *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (ET_IS_FILTER_POPOVER (self), NULL);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->providers));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      guint p = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), "provider"));

      if (gtk_check_button_get_active (GTK_CHECK_BUTTON (child))
          && !et_trace_get_provider (self->trace, p)->default_on)
        g_strv_builder_add (builder, g_object_get_data (G_OBJECT (child), "guid"));
    }
  return g_strv_builder_end (builder);
}

static void
et_filter_popover_dispose (GObject *object)
{
  EtFilterPopover *self = ET_FILTER_POPOVER (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->settings);
  self->layout = NULL;
  G_OBJECT_CLASS (et_filter_popover_parent_class)->dispose (object);
}

static void
et_filter_popover_class_init (EtFilterPopoverClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_filter_popover_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-filter-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, importance);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, kind_flag);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, kind_message);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, kind_span);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, providers);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, categories);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, series);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, search);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, providers_all);
  gtk_widget_class_bind_template_child (widget_class, EtFilterPopover, providers_none);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_all_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_none_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_kinds_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_importance_selected);
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[SIGNAL_RELOAD_NEEDED] =
    g_signal_new ("reload-needed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
}

static void
et_filter_popover_init (EtFilterPopover *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
et_filter_popover_new (void)
{
  return g_object_new (ET_TYPE_FILTER_POPOVER, NULL);
}
