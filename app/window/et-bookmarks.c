/* et-bookmarks.c — see et-bookmarks.h.
 *
 *   TRACE.bookmarks (a GKeyFile: [Bookmarks] times=…, in ns; [Names]
 *   TIME=name for the named ones) ─ or
 *   $XDG_STATE_HOME/etlscope/bookmarks/<the trace path, escaped>.bookmarks
 */
#include "et-bookmarks.h"

#include <glib/gstdio.h>

struct _EtBookmarks
{
  char   *beside;    /* TRACE.bookmarks */
  char   *fallback;  /* in the state folder */
  char   *file;      /* the one last used */
  GArray *times;     /* gint64, ascending */
  GHashTable *names; /* gint64 * → char *, the named ones */
};

static void
set_file (EtBookmarks *self, const char *path)
{
  char *copy = g_strdup (path);

  g_free (self->file);
  self->file = copy;
}

static int
compare_times (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gboolean
read_file (EtBookmarks *self, const char *path)
{
  g_autoptr(GKeyFile) keys = g_key_file_new ();
  g_auto(GStrv) times = NULL;

  if (!g_key_file_load_from_file (keys, path, G_KEY_FILE_NONE, NULL))
    return FALSE;
  times = g_key_file_get_string_list (keys, "Bookmarks", "times", NULL, NULL);
  for (guint i = 0; times != NULL && times[i] != NULL; i++)
    {
      gint64 t;

      if (g_ascii_string_to_signed (times[i], 10, 0, G_MAXINT64, &t, NULL))
        g_array_append_val (self->times, t);
    }
  g_array_sort (self->times, compare_times);
  for (guint i = 0; i < self->times->len; i++)
    {
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, g_array_index (self->times, gint64, i));
      char *name = g_key_file_get_string (keys, "Names", key, NULL);

      if (name != NULL)
        g_hash_table_insert (self->names, g_memdup2 (&g_array_index (self->times, gint64, i),
                                                     sizeof (gint64)), name);
    }
  set_file (self, path);
  return TRUE;
}

EtBookmarks *
et_bookmarks_load (const char *trace_path)
{
  EtBookmarks *self = g_new0 (EtBookmarks, 1);
  g_autofree char *escaped = g_uri_escape_string (trace_path, NULL, FALSE);
  g_autofree char *name = g_strconcat (escaped, ".bookmarks", NULL);

  self->beside = g_strconcat (trace_path, ".bookmarks", NULL);
  self->fallback = g_build_filename (g_get_user_state_dir (), "etlscope", "bookmarks", name, NULL);
  self->times = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  if (!read_file (self, self->beside))
    read_file (self, self->fallback);
  return self;
}

void
et_bookmarks_free (EtBookmarks *self)
{
  if (self == NULL)
    return;
  g_free (self->beside);
  g_free (self->fallback);
  g_free (self->file);
  g_array_unref (self->times);
  g_hash_table_unref (self->names);
  g_free (self);
}

guint
et_bookmarks_n (EtBookmarks *self)
{
  return self->times->len;
}

gint64
et_bookmarks_get (EtBookmarks *self, guint index)
{
  g_return_val_if_fail (index < self->times->len, 0);
  return g_array_index (self->times, gint64, index);
}

const char *
et_bookmarks_get_file (EtBookmarks *self)
{
  return self->file;
}

static gboolean
write_file (EtBookmarks *self, const char *path, GError **error)
{
  g_autoptr(GKeyFile) keys = g_key_file_new ();
  g_autoptr(GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_path_get_dirname (path);

  for (guint i = 0; i < self->times->len; i++)
    g_ptr_array_add (times, g_strdup_printf ("%" G_GINT64_FORMAT, g_array_index (self->times, gint64, i)));
  g_key_file_set_string_list (keys, "Bookmarks", "times", (const char * const *) times->pdata,
                              times->len);
  for (guint i = 0; i < self->times->len; i++)
    {
      const char *name = g_hash_table_lookup (self->names, &g_array_index (self->times, gint64, i));

      if (name != NULL)
        g_key_file_set_string (keys, "Names", g_ptr_array_index (times, i), name);
    }
  if (g_mkdir_with_parents (dir, 0755) != 0 || !g_key_file_save_to_file (keys, path, error))
    return FALSE;
  set_file (self, path);
  return TRUE;
}

/* Beside the trace, else in the state folder. */
static gboolean
save (EtBookmarks *self, GError **error)
{
  g_autoptr(GError) beside = NULL;

  if (write_file (self, self->beside, &beside))
    return TRUE;
  return write_file (self, self->fallback, error);
}

gboolean
et_bookmarks_add (EtBookmarks *self, gint64 t_ns, GError **error)
{
  for (guint i = 0; i < self->times->len; i++)
    if (g_array_index (self->times, gint64, i) == t_ns)
      return TRUE;
  g_array_append_val (self->times, t_ns);
  g_array_sort (self->times, compare_times);
  return save (self, error);
}

gboolean
et_bookmarks_clear (EtBookmarks *self, GError **error)
{
  g_array_set_size (self->times, 0);
  g_hash_table_remove_all (self->names);
  return save (self, error);
}

const char *
et_bookmarks_get_name (EtBookmarks *self, guint index)
{
  g_return_val_if_fail (index < self->times->len, NULL);
  return g_hash_table_lookup (self->names, &g_array_index (self->times, gint64, index));
}

gboolean
et_bookmarks_set_name (EtBookmarks *self, gint64 t_ns, const char *name, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (name != NULL ? name : ""));

  if (*stripped == '\0')
    g_hash_table_remove (self->names, &t_ns);
  else
    g_hash_table_insert (self->names, g_memdup2 (&t_ns, sizeof t_ns), g_steal_pointer (&stripped));
  return save (self, error);
}

gboolean
et_bookmarks_remove (EtBookmarks *self, gint64 t_ns, GError **error)
{
  for (guint i = 0; i < self->times->len; i++)
    if (g_array_index (self->times, gint64, i) == t_ns)
      {
        g_array_remove_index (self->times, i);
        g_hash_table_remove (self->names, &t_ns);
        return save (self, error);
      }
  return TRUE;
}
