/* et-stacks.c — see et-stacks.h.
 *
 * Names are made once per frame at finish (a frame is a process's
 * address): the name of an address only one range ever covers does not
 * depend on time. Frames that several ranges covered in turn (code
 * unloaded, other code loaded there) are named again at each use.
 */
#include "et-stacks.h"

#include <string.h>

#define AMBIGUOUS G_MAXUINT32         /* frame_symbol: name it at each use */
#define UNNAMED   (G_MAXUINT32 - 1)   /* frame_symbol: not named yet */

typedef struct
{
  gint64  ns;
  guint32 node;
} Sample;

typedef struct
{
  guint32 loc;
  guint32 node;
} EventStack;

struct _EtStacks
{
  EtStackTree *tree;
  EtSymbols   *symbols;
  /* Names: stable texts, looked up by text and by id. Ambiguous frames
   * are named at each use, from any thread: the lock guards the three. */
  GMutex        lock;
  GStringChunk *texts;
  GHashTable   *ids;           /* text → id + 1 */
  GPtrArray    *names;         /* id → text */
  GArray       *unnamed;       /* gboolean per id: an address nothing covers */
  guint        n_threads;
  GArray     **building;       /* Sample per thread, until finish */
  gint64      *sample_ns;      /* every thread's samples, thread after thread */
  guint32     *sample_node;
  guint64     *first_sample;   /* per thread, + 1 at the end */
  GArray      *events;         /* EventStack, by loc after finish */
  guint32     *frame_symbol;   /* per frame: its name's id, AMBIGUOUS or UNNAMED */
  guint32     *method_symbol;  /* per method range: its name's id + 1, or 0 (the
                                * frames of one method share it) */
  EtStacksStats stats;
  gboolean     finished;
};

EtStacks *
et_stacks_new (EtStackTree *tree, guint n_threads)
{
  EtStacks *stacks = g_new0 (EtStacks, 1);

  stacks->tree = tree != NULL ? tree : et_stack_tree_new ();
  stacks->symbols = et_symbols_new ();
  g_mutex_init (&stacks->lock);
  stacks->texts = g_string_chunk_new (4096);
  stacks->ids = g_hash_table_new (g_str_hash, g_str_equal);
  stacks->names = g_ptr_array_new ();
  stacks->unnamed = g_array_new (FALSE, TRUE, sizeof (gboolean));
  stacks->n_threads = n_threads;
  stacks->building = g_new0 (GArray *, MAX (n_threads, 1));
  stacks->events = g_array_new (FALSE, FALSE, sizeof (EventStack));
  return stacks;
}

void
et_stacks_free (EtStacks *stacks)
{
  if (stacks == NULL)
    return;
  et_stack_tree_free (stacks->tree);
  et_symbols_free (stacks->symbols);
  g_mutex_clear (&stacks->lock);
  g_hash_table_unref (stacks->ids);
  g_ptr_array_unref (stacks->names);
  g_string_chunk_free (stacks->texts);
  g_array_unref (stacks->unnamed);
  for (guint t = 0; t < stacks->n_threads && stacks->building != NULL; t++)
    g_clear_pointer (&stacks->building[t], g_array_unref);
  g_free (stacks->building);
  g_free (stacks->sample_ns);
  g_free (stacks->sample_node);
  g_free (stacks->first_sample);
  g_array_unref (stacks->events);
  g_free (stacks->frame_symbol);
  g_free (stacks->method_symbol);
  g_free (stacks);
}

EtStackTree *
et_stacks_tree (EtStacks *stacks)
{
  return stacks->tree;
}

EtSymbols *
et_stacks_symbols (EtStacks *stacks)
{
  return stacks->symbols;
}

void
et_stacks_add_sample (EtStacks *stacks, guint thread, gint64 ns, guint32 node)
{
  Sample s = { ns, node };

  g_return_if_fail (!stacks->finished && thread < stacks->n_threads);
  if (stacks->building[thread] == NULL)
    stacks->building[thread] = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_array_append_val (stacks->building[thread], s);
  stacks->stats.samples++;
  if (node != ET_STACK_NONE)
    stacks->stats.stacks++;
}

void
et_stacks_add_event (EtStacks *stacks, guint32 loc, guint32 node)
{
  EventStack e = { loc, node };

  g_return_if_fail (!stacks->finished);
  if (node == ET_STACK_NONE)
    return;
  g_array_append_val (stacks->events, e);
  stacks->stats.stacks++;
}

void
et_stacks_count_damage (EtStacks *stacks)
{
  /* (the loader's two halves may both find damage) */
  __atomic_fetch_add (&stacks->stats.damage, 1, __ATOMIC_RELAXED);
}

static int
compare_samples (gconstpointer a, gconstpointer b)
{
  const Sample *x = a, *y = b;

  return x->ns < y->ns ? -1 : x->ns > y->ns;
}

static int
compare_events (gconstpointer a, gconstpointer b)
{
  const EventStack *x = a, *y = b;

  return x->loc < y->loc ? -1 : x->loc > y->loc;
}

/* Whether @b's samples are in time order already (one CPU's, mostly). */
static gboolean
sorted (const GArray *b)
{
  const Sample *s = (const Sample *) (gconstpointer) b->data;

  for (guint i = 1; i < b->len; i++)
    if (s[i].ns < s[i - 1].ns)
      return FALSE;
  return TRUE;
}

/* Every thread's samples, in time order (stable: equal times keep the
 * order they were read in), into the two flat arrays. */
static void
flatten_samples (EtStacks *stacks)
{
  guint64 total = 0, at = 0;

  stacks->first_sample = g_new0 (guint64, stacks->n_threads + 1);
  for (guint t = 0; t < stacks->n_threads; t++)
    total += stacks->building[t] != NULL ? stacks->building[t]->len : 0;
  stacks->sample_ns = g_new (gint64, MAX (total, 1));
  stacks->sample_node = g_new (guint32, MAX (total, 1));
  for (guint t = 0; t < stacks->n_threads; t++)
    {
      GArray *b = stacks->building[t];

      stacks->first_sample[t] = at;
      if (b == NULL)
        continue;
      if (!sorted (b))
        g_array_sort (b, compare_samples);   /* (GLib's sort is a stable merge sort) */
      for (guint i = 0; i < b->len; i++, at++)
        {
          stacks->sample_ns[at] = g_array_index (b, Sample, i).ns;
          stacks->sample_node[at] = g_array_index (b, Sample, i).node;
        }
      g_clear_pointer (&stacks->building[t], g_array_unref);
    }
  stacks->first_sample[stacks->n_threads] = at;
  g_clear_pointer (&stacks->building, g_free);
}

/* The name id of @address of @pid at @ns. */
static guint32
symbol_at (const EtStacks *stacks, guint32 pid, guint64 address, gint64 ns)
{
  EtStacks *self = (EtStacks *) stacks;
  EtSymbolHit hit = et_symbols_lookup (stacks->symbols, pid, address, ns);
  g_autoptr(GString) name = NULL;
  guint32 id;

  if (hit.kind == ET_SYMBOL_MANAGED
      && (id = (guint32) g_atomic_int_get ((gint *) &stacks->method_symbol[hit.method])) != 0)
    return id - 1;
  name = g_string_new (NULL);
  et_symbols_append_name (stacks->symbols, &hit, address, name);
  g_mutex_lock (&self->lock);
  id = GPOINTER_TO_UINT (g_hash_table_lookup (stacks->ids, name->str));
  if (id == 0)
    {
      char *text = g_string_chunk_insert (self->texts, name->str);

      g_ptr_array_add (stacks->names, text);
      id = stacks->names->len;
      g_hash_table_insert (stacks->ids, text, GUINT_TO_POINTER (id));
      g_array_set_size (stacks->unnamed, id);
      g_array_index (stacks->unnamed, gboolean, id - 1) = hit.kind == ET_SYMBOL_NONE;
    }
  g_mutex_unlock (&self->lock);
  if (hit.kind == ET_SYMBOL_MANAGED)
    g_atomic_int_set ((gint *) &self->method_symbol[hit.method], (gint) id);
  return id - 1;
}

void
et_stacks_finish (EtStacks *stacks)
{
  g_return_if_fail (!stacks->finished);
  flatten_samples (stacks);
  g_array_sort (stacks->events, compare_events);
  stacks->method_symbol = g_new0 (guint32, MAX (et_symbols_n_methods (stacks->symbols), 1));
  stacks->frame_symbol = g_new (guint32, MAX (et_stack_tree_n_frames (stacks->tree), 1));
  for (guint32 f = 0; f < et_stack_tree_n_frames (stacks->tree); f++)
    stacks->frame_symbol[f] = UNNAMED;
  stacks->stats.frames = et_stack_tree_n_frames (stacks->tree) - 1;
  stacks->stats.nodes = et_stack_tree_n_nodes (stacks->tree) - 1;
  stacks->stats.methods = et_symbols_n_methods (stacks->symbols);
  stacks->finished = TRUE;
}

EtStacksStats
et_stacks_get_stats (const EtStacks *stacks)
{
  EtStacksStats stats = stacks->stats;

  /* (names every frame: the count is of names) */
  for (guint32 f = 1; f < et_stack_tree_n_frames (stacks->tree); f++)
    if (!et_stacks_frame_timed (stacks, f)
        && et_stacks_symbol_unnamed (stacks, et_stacks_frame_symbol (stacks, f, 0)))
      stats.unnamed_frames++;

  stats.bytes = et_stack_tree_size (stacks->tree)
                + stats.samples * (sizeof (gint64) + sizeof (guint32))
                + stacks->events->len * sizeof (EventStack)
                + et_stack_tree_n_frames (stacks->tree) * sizeof (guint32);
  return stats;
}

guint
et_stacks_thread_samples (const EtStacks *stacks, guint thread, const gint64 **ns,
                          const guint32 **nodes)
{
  g_return_val_if_fail (stacks->finished, 0);
  if (thread >= stacks->n_threads)
    return 0;
  *ns = stacks->sample_ns + stacks->first_sample[thread];
  *nodes = stacks->sample_node + stacks->first_sample[thread];
  return (guint) (stacks->first_sample[thread + 1] - stacks->first_sample[thread]);
}

guint32
et_stacks_event_node (const EtStacks *stacks, guint32 loc)
{
  const EventStack *e = (const EventStack *) (gconstpointer) stacks->events->data;
  guint lo = 0, hi = stacks->events->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (e[mid].loc < loc)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < stacks->events->len && e[lo].loc == loc ? e[lo].node : ET_STACK_NONE;
}

/* Names @frame on its first use: its name, or AMBIGUOUS. Threads that
 * meet there make the same name (interned) and store the same id. */
static guint32
name_frame (const EtStacks *stacks, guint32 frame)
{
  guint32 pid = et_stack_tree_pid (stacks->tree, frame);
  guint64 address = et_stack_tree_address (stacks->tree, frame);
  guint32 symbol = et_symbols_ambiguous (stacks->symbols, pid, address)
                   ? AMBIGUOUS : symbol_at (stacks, pid, address, ET_SYMBOLS_ANY_TIME);

  g_atomic_int_set ((gint *) &stacks->frame_symbol[frame], (gint) symbol);
  return symbol;
}

guint32
et_stacks_frame_symbol (const EtStacks *stacks, guint32 frame, gint64 ns)
{
  guint32 symbol = (guint32) g_atomic_int_get ((gint *) &stacks->frame_symbol[frame]);

  if (symbol == UNNAMED)
    symbol = name_frame (stacks, frame);
  if (symbol != AMBIGUOUS)
    return symbol;
  return symbol_at (stacks, et_stack_tree_pid (stacks->tree, frame),
                    et_stack_tree_address (stacks->tree, frame), ns);
}

gboolean
et_stacks_frame_timed (const EtStacks *stacks, guint32 frame)
{
  guint32 symbol = (guint32) g_atomic_int_get ((gint *) &stacks->frame_symbol[frame]);

  if (symbol == UNNAMED)
    symbol = name_frame (stacks, frame);
  return symbol == AMBIGUOUS;
}

const char *
et_stacks_name (const EtStacks *stacks, guint32 symbol)
{
  EtStacks *self = (EtStacks *) stacks;
  const char *text;

  g_mutex_lock (&self->lock);
  text = symbol < stacks->names->len ? g_ptr_array_index (stacks->names, symbol) : "?";
  g_mutex_unlock (&self->lock);
  return text;
}

gboolean
et_stacks_symbol_unnamed (const EtStacks *stacks, guint32 symbol)
{
  EtStacks *self = (EtStacks *) stacks;
  gboolean unnamed;

  g_mutex_lock (&self->lock);
  unnamed = symbol < stacks->unnamed->len && g_array_index (stacks->unnamed, gboolean, symbol);
  g_mutex_unlock (&self->lock);
  return unnamed;
}

void
et_stacks_node_symbols (const EtStacks *stacks, guint32 node, gint64 ns, GArray *symbols)
{
  guint start = symbols->len;

  for (; node != ET_STACK_NONE; node = et_stack_tree_caller (stacks->tree, node))
    {
      guint32 symbol = et_stacks_frame_symbol (stacks, et_stack_tree_frame (stacks->tree, node), ns);

      g_array_append_val (symbols, symbol);
    }
  /* leaf first as walked: reversed to root first */
  for (guint i = start, j = symbols->len; i + 1 < j; i++, j--)
    {
      guint32 t = g_array_index (symbols, guint32, i);

      g_array_index (symbols, guint32, i) = g_array_index (symbols, guint32, j - 1);
      g_array_index (symbols, guint32, j - 1) = t;
    }
}
