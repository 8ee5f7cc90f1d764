/* et-i18n.h — gettext set-up shared by the GUI and the command-line tool. */
#pragma once

#include <glib/gi18n.h>
#include "et-trace-cpu.h"

#include "et-trace.h"
#include "et-timeline-render.h"

G_BEGIN_DECLS

void        et_i18n_init            (void);

/* Display names for the GUI: translated, unlike the *_to_string names of
 * the model, which are machine values (JSON, CSV). */
const char *et_i18n_marker_kind     (EtMarkerKind kind);
const char *et_i18n_importance      (EtImportance importance);
const char *et_i18n_span_status     (EtSpanStatus status);
const char *et_i18n_rule_source     (EtRuleSource source);
/* The legend's words, translated (render/ draws them). */
void        et_i18n_legend_labels   (EtLegendLabels *labels);
/* @n grouped by thousands for the reader ("108,451"): as the locale
 * groups, else (the C locales group nothing) with the language's own
 * separator. */
void        et_i18n_count           (guint64         n,
                                     GString        *out);
/* "CPU 37 % (12 samples)": a bar of a thread's CPU-use band (transfer full). */
char       *et_i18n_cpu_use         (float           fraction,
                                     guint           samples,
                                     EtCpuSource     source);

G_END_DECLS
