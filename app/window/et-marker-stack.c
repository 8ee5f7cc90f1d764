/* et-marker-stack.c — see et-marker-stack.h.
 *
 *   marker ─ event (and end event) ─ et_trace_event_stack ─ node, time
 *          ─ et_stacks_node_symbols (root first) ─ leaf-first lines
 *
 * A frame's module is what its name holds before '!' (managed frames,
 * `Module!Namespace.Type.Method(…)`, and unnamed `?!0x…`); native frames
 * (`image.dll+0x…`) are their module with an offset, kept whole.
 */
#include "et-marker-stack.h"
#include "et-i18n.h"
#include "et-trace-stacks.h"
#include "et-workers.h"

#include <string.h>

void
et_marker_stack_free (EtMarkerStack *stack)
{
  if (stack == NULL)
    return;
  g_free (stack->text);
  g_array_unref (stack->modules);
  g_free (stack);
}

/* One frame's line: "  name", its module part noted in @modules. */
static void
append_frame (GString *text, GArray *modules, const char *name)
{
  const char *bang = strchr (name, '!');
  guint from;

  g_string_append (text, "  ");
  from = (guint) g_utf8_strlen (text->str, (gssize) text->len);
  if (bang != NULL)
    {
      guint to = from + (guint) g_utf8_strlen (name, bang + 1 - name);

      g_array_append_val (modules, from);
      g_array_append_val (modules, to);
    }
  g_string_append (text, name);
  g_string_append_c (text, '\n');
}

/* The stack of event @event under @heading_kind (0 the event's, 1 the
 * start's, 2 the stop's), leaf first; nothing when it has none. */
static void
append_stack (EtMarkerStack *out, GString *text, EtTrace *trace, guint32 event, int kind)
{
  EtStacks *stacks = et_trace_get_stacks (trace);
  g_autoptr(GArray) symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 ns = 0;
  guint32 node = et_trace_event_stack (trace, event, &ns);
  guint unnamed = 0;

  if (stacks == NULL || node == ET_STACK_NONE)
    return;
  et_stacks_node_symbols (stacks, node, ns, symbols);
  for (guint i = 0; i < symbols->len; i++)
    unnamed += et_stacks_symbol_unnamed (stacks, g_array_index (symbols, guint32, i));
  g_string_append_c (text, '\n');
  /* Translators: the details pane, over a marker's frames (the innermost
   * first) and how many of them no method or image of the trace names */
  if (kind == 1)
    g_string_append_printf (text, _("Call stack at the start, innermost first — frames: %u, "
                                    "unnamed: %u"), symbols->len, unnamed);
  else if (kind == 2)
    g_string_append_printf (text, _("Call stack at the stop, innermost first — frames: %u, "
                                    "unnamed: %u"), symbols->len, unnamed);
  else
    g_string_append_printf (text, _("Call stack, innermost first — frames: %u, unnamed: %u"),
                            symbols->len, unnamed);
  g_string_append_c (text, '\n');
  for (guint i = symbols->len; i-- > 0;)
    append_frame (text, out->modules,
                  et_stacks_name (stacks, g_array_index (symbols, guint32, i)));
}

EtMarkerStack *
et_marker_stack_describe (EtTrace *trace, const EtMarker *m)
{
  EtMarkerStack *out = g_new0 (EtMarkerStack, 1);
  GString *text = g_string_new (NULL);
  gboolean both = m->kind == ET_MARKER_SPAN && m->end_event != ET_NO_INDEX;
  guint64 n = et_trace_get_n_events (trace);

  out->modules = g_array_new (FALSE, FALSE, sizeof (guint));
  if (m->event < n)
    append_stack (out, text, trace, m->event, both ? 1 : 0);
  if (both && m->end_event < n)
    append_stack (out, text, trace, m->end_event, 2);
  out->text = g_string_free (text, FALSE);
  return out;
}

static void
describe_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  EtMarkerStack *stack;

  et_worker_begin ();
  stack = et_marker_stack_describe (g_task_get_source_object (task), data);
  g_task_return_pointer (task, stack, (GDestroyNotify) et_marker_stack_free);
}

void
et_marker_stack_describe_async (EtTrace *trace, const EtMarker *m, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer data)
{
  g_autoptr(GTask) task = g_task_new (trace, cancellable, callback, data);

  g_task_set_task_data (task, g_memdup2 (m, sizeof *m), g_free);
  g_task_run_in_thread (task, describe_in_thread);
}

EtMarkerStack *
et_marker_stack_describe_finish (GAsyncResult *result)
{
  return g_task_propagate_pointer (G_TASK (result), NULL);
}
