/* calltree-check.h — what the Call Tree's GUI tests share
 * (test-app-calltree.c on the fixture, test-app-calltree-corpus.c on real
 * traces): the pane brought up, its rows held against `etlscope-cli stacks
 * --format=json`, the bottom-up view against the CLI tree's exclusive
 * counts, a flame graph box by name, the Statistics' CPU samples counted
 * by hand. Include after <cmocka.h>.
 */
#pragma once

#include "cli-run.h"
#include "et-call-tree-pane.h"
#include "et-flame-view.h"
#include "gui-test.h"

EtCallTreePane   *call_tree_pane       (EtWindow       *window);
/* Brings up the Call Tree tab and waits for its tree. */
EtCallTreePane   *show_call_tree       (EtWindow       *window);
/* The rows under @parent (NULL: the top) against the CLI's node @json's
 * children, in order, @depth levels down (below @full levels, only the
 * first child: the hot path); rows are opened as a click would. */
void              assert_rows_equal    (GtkTreeView    *view,
                                        GtkTreeIter    *parent,
                                        JsonObject     *json,
                                        guint           depth,
                                        guint           full);
/* The CLI's tree of `stacks --format=json ARGS…` (NULL-terminated). */
JsonObject       *cli_tree             (const char *const *args);
/* The bottom-up view's top rows against the CLI tree's exclusive counts
 * summed per frame name. */
void              assert_bottom_up     (EtCallTreePane *pane,
                                        JsonObject     *tree);
/* The box of the frame named @name in the flame graph, or NULL. */
const EtFlameBox *flame_box            (EtFlameView    *flame,
                                        const EtCallTree *tree,
                                        const char     *name);
/* Selects [@from, @to) and checks the Statistics' span rows' CPU samples
 * against a count sample by sample (@fixture_span_samples ≥ 0: each span
 * row's too); returns all of them. */
guint64           assert_stats_samples (EtWindow       *window,
                                        gint64          from,
                                        gint64          to,
                                        gint64          fixture_span_samples);
/* Chooses Statistics row @row (a span row), presses Enter in the table
 * and checks the Call Tree it opens: headed by the row's spans, its root
 * the row's "CPU samples", each thread's root frames the samples of the
 * spans counted by hand. Returns the tree's samples. */
guint64           assert_row_call_tree (EtWindow       *window,
                                        guint           row);
