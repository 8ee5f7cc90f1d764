/* et-call-tree-rows.c — the rows of the Call Tree's two views (see
 * et-call-tree-pane-private.h): the top-down tree and the bottom-up one
 * read alike, so one store layout, one lazy filling and one search serve
 * both.
 *
 * A call tree of a busy trace has hundreds of thousands of nodes; a store
 * gets a row's children only when the row is opened (a row with children
 * carries an empty placeholder child until then, so it shows its
 * expander), and the hot path (rows holding half the samples or more) is
 * opened at once.
 */
#include "et-call-tree-pane-private.h"
#include "et-i18n.h"

#include <string.h>

void
_et_call_result_free (gpointer data)
{
  EtCallResult *r = data;

  if (r == NULL)
    return;
  g_clear_pointer (&r->tree, et_call_tree_free);
  g_clear_pointer (&r->bottom_up, et_bottom_up_free);
  g_free (r);
}

/* ---- the two trees, alike ------------------------------------------------- */

static guint64
node_inclusive (const EtCallResult *r, gboolean bu, guint node)
{
  return bu ? et_bottom_up_node (r->bottom_up, node)->samples
            : et_call_tree_node (r->tree, node)->inclusive;
}

/* Bottom-up: a function's own samples at the top, nothing below. */
static guint64
node_exclusive (const EtCallResult *r, gboolean bu, guint node)
{
  if (bu)
    return et_bottom_up_node (r->bottom_up, node)->parent == 0 && node != 0
           ? et_bottom_up_node (r->bottom_up, node)->samples : 0;
  return et_call_tree_node (r->tree, node)->exclusive;
}

static guint
node_parent (const EtCallResult *r, gboolean bu, guint node)
{
  return bu ? et_bottom_up_node (r->bottom_up, node)->parent
            : et_call_tree_node (r->tree, node)->parent;
}

static void
node_name (const EtCallResult *r, gboolean bu, guint node, GString *out)
{
  et_call_tree_append_name (r->tree, bu ? et_bottom_up_node (r->bottom_up, node)->ref : node, out);
}

static gboolean
node_is_frame (const EtCallResult *r, gboolean bu, guint node)
{
  guint ref = bu ? et_bottom_up_node (r->bottom_up, node)->ref : node;

  return node != 0 && et_call_tree_node (r->tree, ref)->level == ET_CALL_FRAME;
}

/* @node's children in order (a new array of guint). */
static GArray *
node_children (const EtCallResult *r, gboolean bu, guint node)
{
  GArray *out;
  const guint32 *kids;
  guint n;

  if (!bu)
    return et_call_tree_children (r->tree, node);
  kids = et_bottom_up_children (r->bottom_up, node, &n);
  out = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    {
      guint k = kids[i];
      g_array_append_val (out, k);
    }
  return out;
}

static gboolean
node_has_children (const EtCallResult *r, gboolean bu, guint node)
{
  guint n;

  if (bu)
    return et_bottom_up_children (r->bottom_up, node, &n) != NULL && n > 0;
  /* every sample below a node is in one of its children */
  return et_call_tree_node (r->tree, node)->inclusive > et_call_tree_node (r->tree, node)->exclusive;
}

/* ---- filling the stores --------------------------------------------------- */

static gboolean
view_bottom_up (GtkTreeView *view)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (view), "et-bottom-up"));
}

static void
append_row (const EtCallResult *r, GtkTreeStore *store, GtkTreeIter *parent, gboolean bu,
            guint node)
{
  g_autoptr(GString) name = g_string_new (NULL);
  guint64 incl = node_inclusive (r, bu, node), total = node_inclusive (r, bu, 0);
  g_autofree char *percent = g_strdup_printf ("%.1f %%", total > 0 ? 100.0 * incl / total : 0.0);
  g_autofree char *ms = g_strdup_printf ("%'.1f", incl * (r->interval_ns / 1e6));
  GtkTreeIter iter, placeholder;

  node_name (r, bu, node, name);
  gtk_tree_store_insert_with_values (store, &iter, parent, -1,
                                     ET_CALL_COL_NAME, name->str,
                                     ET_CALL_COL_INCLUSIVE, incl,
                                     ET_CALL_COL_EXCLUSIVE, node_exclusive (r, bu, node),
                                     ET_CALL_COL_PERCENT, percent,
                                     ET_CALL_COL_MS, ms,
                                     ET_CALL_COL_NODE, node,
                                     ET_CALL_COL_LOADED, FALSE, -1);
  if (node_has_children (r, bu, node))
    gtk_tree_store_insert_with_values (store, &placeholder, &iter, -1,
                                       ET_CALL_COL_NODE, G_MAXUINT, -1);
}

/* The children of the row at @iter (NULL: the top) in the store, once. */
static void
ensure_loaded (GtkTreeView *view, const EtCallResult *r, GtkTreeIter *iter)
{
  GtkTreeStore *store = GTK_TREE_STORE (gtk_tree_view_get_model (view));
  gboolean bu = view_bottom_up (view), loaded = FALSE;
  guint node = 0;
  GtkTreeIter child;
  g_autoptr(GArray) kids = NULL;

  if (r == NULL || r->tree == NULL)
    return;
  if (iter != NULL)
    gtk_tree_model_get (GTK_TREE_MODEL (store), iter, ET_CALL_COL_NODE, &node,
                        ET_CALL_COL_LOADED, &loaded, -1);
  if (loaded || node == G_MAXUINT)
    return;
  while (gtk_tree_model_iter_children (GTK_TREE_MODEL (store), &child, iter))
    gtk_tree_store_remove (store, &child);
  kids = node_children (r, bu, node);
  for (guint i = 0; i < kids->len; i++)
    append_row (r, store, iter, bu, g_array_index (kids, guint, i));
  if (iter != NULL)
    gtk_tree_store_set (store, iter, ET_CALL_COL_LOADED, TRUE, -1);
}

static gboolean
on_test_expand_row (GtkTreeView *view, GtkTreeIter *iter, GtkTreePath *path, gpointer data)
{
  EtCallResult **result = data;

  ensure_loaded (view, *result, iter);
  return FALSE;                                   /* let it open */
}

/* Opens the rows holding half the samples or more, from the top. */
static void
open_hot_path (GtkTreeView *view, const EtCallResult *r)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  guint64 total = node_inclusive (r, view_bottom_up (view), 0);
  g_autoptr(GtkTreePath) path = gtk_tree_path_new_first ();
  GtkTreeIter iter;

  for (guint depth = 0; depth < 64 && gtk_tree_model_get_iter (model, &iter, path); depth++)
    {
      guint64 incl;

      gtk_tree_model_get (model, &iter, ET_CALL_COL_INCLUSIVE, &incl, -1);
      if (incl * 2 < total || !gtk_tree_view_expand_row (view, path, FALSE))
        break;
      gtk_tree_path_down (path);
    }
}

void
_et_call_view_fill (GtkTreeView *view, const EtCallResult *r)
{
  gtk_tree_store_clear (GTK_TREE_STORE (gtk_tree_view_get_model (view)));
  if (r == NULL || r->tree == NULL)
    return;
  ensure_loaded (view, r, NULL);
  open_hot_path (view, r);
}

guint32
_et_call_view_chosen_symbol (GtkTreeView *view, const EtCallResult *r)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint node = G_MAXUINT;
  gboolean bu = view_bottom_up (view);

  if (r == NULL || r->tree == NULL
      || !gtk_tree_selection_get_selected (gtk_tree_view_get_selection (view), &model, &iter))
    return G_MAXUINT32;
  gtk_tree_model_get (model, &iter, ET_CALL_COL_NODE, &node, -1);
  if (node == G_MAXUINT || !node_is_frame (r, bu, node))
    return G_MAXUINT32;
  return et_call_tree_node (r->tree, bu ? et_bottom_up_node (r->bottom_up, node)->ref : node)->id;
}

/* ---- searching ------------------------------------------------------------ */

typedef struct
{
  const EtCallResult *r;
  gboolean            bu;
} Hotter;

static int
compare_hotter (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Hotter *h = data;
  guint a = *(const guint *) pa, b = *(const guint *) pb;
  guint64 x = node_inclusive (h->r, h->bu, a), y = node_inclusive (h->r, h->bu, b);

  return x != y ? (x > y ? -1 : 1) : (a > b) - (a < b);
}

void
_et_call_find_matches (const EtCallResult *r, gboolean bu, const char *text, GArray *matches)
{
  g_autofree char *needle = g_utf8_casefold (text, -1);
  g_autoptr(GString) name = g_string_new (NULL);
  guint n = bu ? et_bottom_up_n_nodes (r->bottom_up) : et_call_tree_n_nodes (r->tree);
  Hotter h = { r, bu };

  g_array_set_size (matches, 0);
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *folded = NULL;

      if (!node_is_frame (r, bu, i))
        continue;
      g_string_truncate (name, 0);
      node_name (r, bu, i, name);
      folded = g_utf8_casefold (name->str, (gssize) name->len);
      if (strstr (folded, needle) != NULL)
        g_array_append_val (matches, i);
    }
  g_array_sort_with_data (matches, compare_hotter, &h);
}

static gboolean
find_child (GtkTreeModel *model, GtkTreeIter *parent, guint node, GtkTreeIter *out)
{
  gboolean more = gtk_tree_model_iter_children (model, out, parent);

  for (; more; more = gtk_tree_model_iter_next (model, out))
    {
      guint at;

      gtk_tree_model_get (model, out, ET_CALL_COL_NODE, &at, -1);
      if (at == node)
        return TRUE;
    }
  return FALSE;
}

void
_et_call_view_reveal (GtkTreeView *view, const EtCallResult *r, guint node)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  gboolean bu = view_bottom_up (view);
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GtkTreePath) path = NULL;
  GtkTreeIter iter, parent;

  for (guint n = node; n != 0; n = node_parent (r, bu, n))
    g_array_prepend_val (chain, n);
  for (guint i = 0; i < chain->len; i++)
    {
      if (i > 0)
        ensure_loaded (view, r, &parent);
      if (!find_child (model, i > 0 ? &parent : NULL, g_array_index (chain, guint, i), &iter))
        return;
      parent = iter;
    }
  path = gtk_tree_model_get_path (model, &iter);
  if (gtk_tree_path_get_depth (path) > 1)
    {
      g_autoptr(GtkTreePath) up = gtk_tree_path_copy (path);

      gtk_tree_path_up (up);
      gtk_tree_view_expand_to_path (view, up);
    }
  gtk_tree_view_set_cursor (view, path, NULL, FALSE);
  gtk_tree_view_scroll_to_cell (view, path, NULL, TRUE, 0.3f, 0.0f);
}

/* ---- the columns ---------------------------------------------------------- */

static void
count_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model,
            GtkTreeIter *iter, gpointer data)
{
  guint64 n;
  guint node;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, GPOINTER_TO_INT (data), &n, ET_CALL_COL_NODE, &node, -1);
  /* the placeholder, and bottom-up callers (no own samples), stay blank */
  if (node != G_MAXUINT && (n > 0 || GPOINTER_TO_INT (data) == ET_CALL_COL_INCLUSIVE))
    text = g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
  g_object_set (cell, "text", text != NULL ? text : "", NULL);
}

static void
add_column (GtkTreeView *view, const char *title, int column, gboolean number)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *c = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_title (c, title);
  gtk_tree_view_column_set_resizable (c, TRUE);
  gtk_tree_view_column_pack_start (c, cell, TRUE);
  if (number)
    {
      g_object_set (cell, "xalign", 1.0f, NULL);
      gtk_tree_view_column_set_alignment (c, 1.0f);
    }
  else
    {
      g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
      gtk_tree_view_column_set_expand (c, TRUE);
    }
  if (column == ET_CALL_COL_INCLUSIVE || column == ET_CALL_COL_EXCLUSIVE)
    gtk_tree_view_column_set_cell_data_func (c, cell, count_cell, GINT_TO_POINTER (column), NULL);
  else
    gtk_tree_view_column_add_attribute (c, cell, "text", column);
  gtk_tree_view_append_column (view, c);
}

void
_et_call_view_init (GtkTreeView *view, gboolean bu, EtCallResult **result)
{
  g_autoptr(GtkTreeStore) store = gtk_tree_store_new (ET_CALL_N_COLUMNS, G_TYPE_STRING,
                                                      G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_STRING,
                                                      G_TYPE_STRING, G_TYPE_UINT, G_TYPE_BOOLEAN);

  gtk_tree_view_set_model (view, GTK_TREE_MODEL (store));
  /* The numbers first, as Sysprof's call graph has them: a stack a hundred
   * frames deep indents its names far to the right, and the counts must
   * stay in view while the names scroll. */
  /* Translators: samples in a function and what it called */
  add_column (view, _("Inclusive"), ET_CALL_COL_INCLUSIVE, TRUE);
  add_column (view, "%", ET_CALL_COL_PERCENT, TRUE);
  /* Translators: estimated milliseconds on a CPU (samples × interval) */
  add_column (view, _("ms"), ET_CALL_COL_MS, TRUE);
  /* Translators: samples in the function itself */
  add_column (view, _("Exclusive"), ET_CALL_COL_EXCLUSIVE, TRUE);
  /* Translators: the Call Tree's name column: a process, thread or function */
  add_column (view, bu ? _("Function › callers") : _("Function"), ET_CALL_COL_NAME, FALSE);
  gtk_tree_view_set_expander_column (view, gtk_tree_view_get_column (view, 4));
  gtk_tree_view_set_tooltip_column (view, ET_CALL_COL_NAME);
  gtk_tree_view_set_enable_search (view, FALSE);
  g_signal_connect (view, "test-expand-row", G_CALLBACK (on_test_expand_row), result);
  g_object_set_data (G_OBJECT (view), "et-bottom-up", GINT_TO_POINTER (bu));
}

