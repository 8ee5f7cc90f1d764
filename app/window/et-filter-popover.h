/* et-filter-popover.h — the filter popover of a trace window: minimum
 * importance, marker kinds, and every provider of the trace (those whose
 * events become markers by default are ticked). Changes go straight into
 * the EtLayout, then "changed" is emitted; ticking a provider that has no
 * markers because it was not loaded emits "reload-needed". */
#pragma once

#include <gtk/gtk.h>
#include "et-trace.h"
#include "et-layout.h"

G_BEGIN_DECLS

#define ET_TYPE_FILTER_POPOVER (et_filter_popover_get_type ())
G_DECLARE_FINAL_TYPE (EtFilterPopover, et_filter_popover, ET, FILTER_POPOVER, GtkPopover)

GtkWidget *et_filter_popover_new                  (void);
/* Where the minimum importance and the kinds are remembered (may be NULL). */
void       et_filter_popover_set_settings         (EtFilterPopover    *self,
                                                   GSettings          *settings);
/* Applies the default importance and kinds from the settings again (they
 * were changed in Preferences); "changed" when that changes the layout. */
void       et_filter_popover_apply_defaults       (EtFilterPopover    *self);
/* @shown_extra: GUID strings of non-default providers the person ticked
 * (ticked again after a reload); may be NULL. */
void       et_filter_popover_set_trace            (EtFilterPopover    *self,
                                                   EtTrace            *trace,
                                                   EtLayout           *layout,
                                                   const char * const *shown_extra);
/* Ticks or unticks provider @index, as a person would. */
void       et_filter_popover_set_provider_visible (EtFilterPopover    *self,
                                                   guint               index,
                                                   gboolean            visible);
/* GUID strings of ticked providers that are not default-on (transfer full). */
GStrv      et_filter_popover_dup_shown_extra      (EtFilterPopover    *self);

G_END_DECLS
