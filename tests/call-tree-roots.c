/* call-tree-roots.c — see call-tree-roots.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "call-tree-roots.h"

GHashTable *
roots_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

void
roots_count_sample (GHashTable *roots, const EtStacks *stacks, guint32 tid, guint32 node,
                    gint64 ns)
{
  g_autoptr(GArray) symbols = g_array_new (FALSE, FALSE, sizeof (guint32));
  char *key;

  et_stacks_node_symbols (stacks, node, ns, symbols);
  key = g_strdup_printf ("%u|%s", tid, symbols->len == 0 ? ""
                         : et_stacks_name (stacks, g_array_index (symbols, guint32, 0)));
  /* (the table keeps the first key of a name, and frees this one) */
  g_hash_table_insert (roots, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (
    g_hash_table_lookup (roots, key)) + 1));
}

void
assert_roots_equal (const EtCallTree *tree, GHashTable *roots)
{
  g_autoptr(GString) name = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 1; i < et_call_tree_n_nodes (tree); i++)
    {
      const EtCallNode *node = et_call_tree_node (tree, i);
      const EtCallNode *up = et_call_tree_node (tree, node->parent);

      if (node->level != ET_CALL_FRAME || up->level != ET_CALL_THREAD)
        continue;
      g_string_printf (name, "%u|", up->id);
      et_call_tree_append_name (tree, i, name);
      assert_int_equal (node->inclusive, GPOINTER_TO_SIZE (g_hash_table_lookup (roots, name->str)));
      assert_true (g_hash_table_remove (roots, name->str));
    }
  /* left: only samples without a stack, counted on their thread's node */
  g_hash_table_iter_init (&iter, roots);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    assert_true (g_str_has_suffix (key, "|"));
}
