/* et-preferences.c — see et-preferences.h.
 *
 *   drop-downs, check buttons ─ g_settings_bind_with_mapping ─ GSettings keys
 *
 * The window keeps no state: every widget is bound to its key both ways.
 */
#include "et-preferences.h"

struct _EtPreferences
{
  GtkWindow    parent_instance;

  GtkDropDown *time_format;
  GtkDropDown *theme;
  GtkDropDown *importance;
  GtkWidget   *kind_flag;
  GtkWidget   *kind_message;
  GtkWidget   *kind_span;

  GSettings   *settings;
};

G_DEFINE_FINAL_TYPE (EtPreferences, et_preferences, GTK_TYPE_WINDOW)

/* An enum key's nick ↔ a drop-down's position; @data lists the nicks. */
static gboolean
nick_to_position (GValue *value, GVariant *variant, gpointer data)
{
  const char *const *nicks = data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_nick (const GValue *value, const GVariantType *type, gpointer data)
{
  const char *const *nicks = data;
  guint position = g_value_get_uint (value);

  return position < g_strv_length ((char **) nicks) ? g_variant_new_string (nicks[position]) : NULL;
}

static gboolean
int_to_position (GValue *value, GVariant *variant, gpointer data)
{
  g_value_set_uint (value, (guint) MAX (g_variant_get_int32 (variant), 0));
  return TRUE;
}

static GVariant *
position_to_int (const GValue *value, const GVariantType *type, gpointer data)
{
  return g_variant_new_int32 ((gint32) g_value_get_uint (value));
}

/* A kind's check button ↔ whether "kinds" lists it. Setting needs the
 * whole list, so the binding's data is the check itself, which knows the
 * window (and so the settings) and its kind. */
static gboolean
kinds_to_active (GValue *value, GVariant *variant, gpointer data)
{
  g_autofree const char **kinds = g_variant_get_strv (variant, NULL);
  const char *kind = g_object_get_data (data, "kind");

  g_value_set_boolean (value, g_strv_contains (kinds, kind));
  return TRUE;
}

static GVariant *
active_to_kinds (const GValue *value, const GVariantType *type, gpointer data)
{
  EtPreferences *self = ET_PREFERENCES (gtk_widget_get_root (data));
  g_auto(GStrv) kinds = g_settings_get_strv (self->settings, "kinds");
  const char *kind = g_object_get_data (data, "kind");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) result = NULL;

  for (guint i = 0; kinds[i] != NULL; i++)
    if (!g_str_equal (kinds[i], kind))
      g_strv_builder_add (builder, kinds[i]);
  if (g_value_get_boolean (value))
    g_strv_builder_add (builder, kind);
  result = g_strv_builder_end (builder);
  return g_variant_new_strv ((const char * const *) result, -1);
}

static void
bind_kind (EtPreferences *self, GtkWidget *check, const char *kind)
{
  g_object_set_data (G_OBJECT (check), "kind", (gpointer) kind);
  g_settings_bind_with_mapping (self->settings, "kinds", check, "active", G_SETTINGS_BIND_DEFAULT,
                                kinds_to_active, active_to_kinds, check, NULL);
}

static void
bind_all (EtPreferences *self)
{
  static const char *const time_formats[] = { "relative", "wall-clock", NULL };
  static const char *const themes[] = { "follow", "light", "dark", "high-contrast",
                                         "high-contrast-dark", NULL };

  g_settings_bind_with_mapping (self->settings, "time-format", self->time_format, "selected",
                                G_SETTINGS_BIND_DEFAULT, nick_to_position, position_to_nick,
                                (gpointer) time_formats, NULL);
  g_settings_bind_with_mapping (self->settings, "theme", self->theme, "selected",
                                G_SETTINGS_BIND_DEFAULT, nick_to_position, position_to_nick,
                                (gpointer) themes, NULL);
  g_settings_bind_with_mapping (self->settings, "min-importance", self->importance, "selected",
                                G_SETTINGS_BIND_DEFAULT, int_to_position, position_to_int,
                                NULL, NULL);
  bind_kind (self, self->kind_flag, "flag");
  bind_kind (self, self->kind_message, "message");
  bind_kind (self, self->kind_span, "span");
}

static void
et_preferences_dispose (GObject *object)
{
  g_clear_object (&ET_PREFERENCES (object)->settings);
  G_OBJECT_CLASS (et_preferences_parent_class)->dispose (object);
}

static void
et_preferences_class_init (EtPreferencesClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = et_preferences_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/etlscope/Etlscope/ui/et-preferences.ui");
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, time_format);
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, theme);
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, importance);
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, kind_flag);
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, kind_message);
  gtk_widget_class_bind_template_child (widget_class, EtPreferences, kind_span);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
et_preferences_init (EtPreferences *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
et_preferences_new (GSettings *settings, GtkWindow *parent)
{
  EtPreferences *self = g_object_new (ET_TYPE_PREFERENCES, "transient-for", parent, NULL);

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  self->settings = g_object_ref (settings);
  bind_all (self);
  return GTK_WIDGET (self);
}
