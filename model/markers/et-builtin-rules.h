/* et-builtin-rules.h — the .NET runtime's own activities as markers.
 *
 * The runtime (Microsoft-Windows-DotNETRuntime) is no EventSource: the
 * markers.md rules would make every one of its events a flag or an
 * unpaired span. A few of its events are what a .NET developer looks for
 * on a timeline — collections, suspensions, exceptions, JIT, lock
 * contention, thread-pool adjustments — and these rules, chosen by
 * provider GUID and event id, make exactly those into markers of the
 * "CLR" group (model/README.md, "The runtime on the timeline"). Every
 * other event of the runtime makes no marker. Pure functions of the
 * event, like et-marker-rules: the trace calls them while loading and
 * again to show a marker's text or explain it.
 */
#pragma once

#include <glib.h>
#include "et-guid.h"
#include "et-marker-rules.h"

G_BEGIN_DECLS

/* TRUE when @provider's markers come from these rules (the runtime). */
gboolean et_builtin_rules_has     (const EtGuid      *provider);
/* TRUE when event @id of that provider has a rule: the others are
 * neither markers nor decoded while loading. */
gboolean et_builtin_rules_covers  (guint16            id);
/* Applies the rule of event @id (@input as for et_marker_rules_apply:
 * its fields decoded; @input->opcode is not read). FALSE when the event
 * makes no marker after all (a method loaded without being jitted). Every
 * rule source in @result is ET_RULE_BUILTIN. */
gboolean et_builtin_rules_apply   (guint16            id,
                                   const EtRuleInput *input,
                                   EtRuleResult      *result);
/* TRUE for the starts whose repeat (same span id, same process, nothing
 * closed in between) is the same activity logged twice: the .NET
 * Framework 4.5 and later writes every GC/Start in version 1 and 2. */
gboolean et_builtin_rules_repeats (guint16            id);

G_END_DECLS
