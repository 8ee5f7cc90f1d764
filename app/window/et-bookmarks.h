/* et-bookmarks.h — times a person marked in a trace (M), kept beside the
 * trace in a small key file (`TRACE.bookmarks`), or, where the trace's
 * folder cannot be written, under the user's state folder. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtBookmarks EtBookmarks;

/* The bookmarks of the trace at @trace_path (none when it has none). */
EtBookmarks  *et_bookmarks_load     (const char  *trace_path);
void          et_bookmarks_free     (EtBookmarks *self);
/* Times in ns from the trace's start, ascending, no two equal. */
guint         et_bookmarks_n        (EtBookmarks *self);
gint64        et_bookmarks_get      (EtBookmarks *self,
                                     guint        index);
/* Adds @t_ns (nothing when it is there already) and saves; FALSE with
 * @error when neither place could be written (the bookmark stays for
 * this session). */
gboolean      et_bookmarks_add      (EtBookmarks *self,
                                     gint64       t_ns,
                                     GError     **error);
gboolean      et_bookmarks_clear    (EtBookmarks *self,
                                     GError     **error);
/* Bookmark @index's name, or NULL when it has none. */
const char   *et_bookmarks_get_name (EtBookmarks *self,
                                     guint        index);
/* Names the bookmark at @t_ns (an empty @name takes its name away) and
 * saves. */
gboolean      et_bookmarks_set_name (EtBookmarks *self,
                                     gint64       t_ns,
                                     const char  *name,
                                     GError     **error);
/* Removes the bookmark at @t_ns (and its name) and saves. */
gboolean      et_bookmarks_remove   (EtBookmarks *self,
                                     gint64       t_ns,
                                     GError     **error);
/* Where they were last read from or written to. */
const char   *et_bookmarks_get_file (EtBookmarks *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtBookmarks, et_bookmarks_free)

G_END_DECLS
