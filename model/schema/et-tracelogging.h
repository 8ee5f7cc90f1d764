/* et-tracelogging.h — TraceLogging (self-describing) events.
 *
 * Pipeline: EVENT_HEADER extended item 11 (EVENT_SCHEMA_TL) →
 * et_tl_schema_parse, cached per distinct metadata blob by the trace (the
 * event-class table) → et_tl_decode of each payload into EtFields.
 * Extended item 12 (PROV_TRAITS) gives the provider name.
 */
#pragma once

#include <glib.h>
#include "et-fields.h"

G_BEGIN_DECLS

typedef struct _EtTlSchema EtTlSchema;

/* Parses event metadata (the whole item, starting with its u16 size).
 * NULL and an ET_ETL_ERROR with the metadata byte offset on bad input. */
EtTlSchema *et_tl_schema_parse      (const guint8     *meta,
                                     gsize             len,
                                     GError          **error);
void        et_tl_schema_free       (EtTlSchema       *schema);
const char *et_tl_schema_event_name (const EtTlSchema *schema);
guint32     et_tl_schema_event_tags (const EtTlSchema *schema);
guint       et_tl_schema_n_fields   (const EtTlSchema *schema); /* top-level */
/* Where the fields sit when every one is a fixed-size scalar, else NULL. A
 * payload of at least layout->size bytes then decodes without fail. */
const EtFixedLayout *et_tl_schema_fixed_layout (const EtTlSchema *schema);
/* Without a fixed layout: how to walk the fields when each is a scalar or
 * a string (NUL-terminated or counted) or counted bytes, else NULL. */
const EtWalkLayout  *et_tl_schema_walk_layout  (const EtTlSchema *schema);

/* Decodes @payload into @fields (appending top-level entries). FALSE and an
 * error naming the field and payload offset when the payload is short. */
gboolean    et_tl_decode            (const EtTlSchema *schema,
                                     const guint8     *payload,
                                     gsize             len,
                                     EtFields         *fields,
                                     gsize            *consumed,
                                     GError          **error);

/* The provider name from a PROV_TRAITS item (transfer full), or NULL with an
 * error on bad input. */
char       *et_tl_traits_provider_name (const guint8  *traits,
                                        gsize          len,
                                        GError       **error);

/* Names of in-types and out-types as in the corpus's expected JSON files
 * ("UnicodeString", "UInt8", …; "Default", "String", …). */
const char *et_tl_in_type_name      (guint             in_type);
const char *et_tl_out_type_name     (guint             out_type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtTlSchema, et_tl_schema_free)

G_END_DECLS
