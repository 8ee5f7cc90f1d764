/* call-tree-roots.h — a call tree's root frames held against a count by
 * hand (test-stacks.c's ranges, calltree-check.c's Statistics rows): each
 * sample counted as "tid|root frame's name" ("tid|" without a stack), then
 * each thread's root frames' inclusive counts compared. Include after
 * <cmocka.h>.
 */
#pragma once

#include <glib.h>
#include "et-call-tree.h"

/* A new table for roots_count_sample. */
GHashTable *roots_new          (void);
/* Counts the sample of thread @tid (stack @node at @ns) under its root. */
void        roots_count_sample (GHashTable       *roots,
                                const EtStacks   *stacks,
                                guint32           tid,
                                guint32           node,
                                gint64            ns);
/* Fails unless every thread's root frames in @tree have @roots' counts,
 * and every root counted is in the tree (@roots is emptied of them). */
void        assert_roots_equal (const EtCallTree *tree,
                                GHashTable       *roots);
