/* et-strpool.h — interned strings addressed by 32-bit ids.
 *
 * The trace keeps every marker text, series and name here once: one growing
 * byte block and an open-addressing index, so a marker holds a 4-byte id
 * instead of a pointer to its own allocation. Id 0 is the empty string.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtStrPool EtStrPool;

EtStrPool  *et_strpool_new    (void);
void        et_strpool_free   (EtStrPool  *pool);
/* Returns the id of @len bytes of @text (-1: NUL-terminated), adding them
 * once. */
guint32     et_strpool_intern (EtStrPool  *pool,
                               const char *text,
                               gssize      len);
/* Adds @text for a string that is mostly unique (marker texts): repeats
 * are shared only when seen recently (a small direct-mapped cache), so the
 * exact index does not grow with every unique text. */
guint32     et_strpool_add    (EtStrPool  *pool,
                               const char *text,
                               gssize      len);
const char *et_strpool_get    (EtStrPool  *pool,
                               guint32     id);
gsize       et_strpool_size   (EtStrPool  *pool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtStrPool, et_strpool_free)

G_END_DECLS
