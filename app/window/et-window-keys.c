/* et-window-keys.c — the timeline's plain keys from anywhere in the window.
 *
 *   key press ─ focused widget (a text entry takes its letters; the report
 *             │ table its arrows, Home, End)
 *             └ not taken: the window's bubble-phase shortcuts ─ timeline
 *
 * W/A/S/D, Z, F, M, Home and Escape are the app's own shortcuts, as in
 * Perfetto: after a report row was chosen (focus in the report) they
 * still zoom, pan and fit the timeline. They are asked of the window only
 * after the focused widget let the key go, so a search entry still gets
 * every letter typed into it.
 */
#include "et-window-private.h"

static gboolean
forward_to_timeline (GtkWidget *widget, GVariant *args, gpointer data)
{
  EtWindow *self = ET_WINDOW (widget);
  const char *action = g_variant_get_string (args, NULL);

  if (self->trace == NULL)
    return FALSE;
  return gtk_widget_activate_action (GTK_WIDGET (self->timeline), action, NULL);
}

void
_et_window_add_plain_keys (EtWindow *self)
{
  static const struct { guint key; const char *action; } keys[] = {
    { GDK_KEY_w, "timeline.zoom-in" }, { GDK_KEY_s, "timeline.zoom-out" },
    { GDK_KEY_a, "timeline.pan-left" }, { GDK_KEY_d, "timeline.pan-right" },
    { GDK_KEY_z, "timeline.zoom-selection" }, { GDK_KEY_f, "timeline.zoom-selection" },
    { GDK_KEY_Home, "timeline.zoom-fit" }, { GDK_KEY_m, "win.add-bookmark" },
    { GDK_KEY_Escape, "timeline.escape" },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, 0),
                                                gtk_callback_action_new (forward_to_timeline,
                                                                         NULL, NULL));

      gtk_shortcut_set_arguments (shortcut, g_variant_new_string (keys[i].action));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
