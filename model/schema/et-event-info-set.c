/* et-event-info-set.c — the event metadata of a trace, per provider, and
 * the manifests made from it (see et-event-info.h). The payloads are read
 * and checked by et-event-info.c; here they are kept, first come first
 * kept, and handed back to it to fill a provider's manifest tables.
 */
#include "et-event-info-private.h"
#include "et-manifest-private.h"

#include <string.h>

typedef struct
{
  EtGuid      guid;
  char       *name;
  GPtrArray  *events;     /* GBytes: accepted EventInfo payloads */
  GHashTable *seen;       /* id << 8 | version of those */
  GPtrArray  *maps;       /* GBytes: accepted EventMapInfo payloads */
  GHashTable *map_names;  /* names of maps met, good or bad (the first stands) */
  GHashTable *bad_maps;   /* names of maps whose metadata was bad */
} Provider;

struct _EtEventInfoSet
{
  GHashTable *providers;  /* EtGuid* (in the Provider) → Provider* */
};

static void
provider_free (gpointer data)
{
  Provider *p = data;

  g_free (p->name);
  g_ptr_array_unref (p->events);
  g_hash_table_unref (p->seen);
  g_ptr_array_unref (p->maps);
  g_hash_table_unref (p->map_names);
  g_hash_table_unref (p->bad_maps);
  g_free (p);
}

/* ─────────────────────────────── the set ─────────────────────────────── */

EtEventInfoSet *
et_event_info_set_new (void)
{
  EtEventInfoSet *set = g_new0 (EtEventInfoSet, 1);

  set->providers = g_hash_table_new_full ((GHashFunc) et_guid_hash, (GEqualFunc) et_guid_equal, NULL,
                                           provider_free);
  return set;
}

void
et_event_info_set_free (EtEventInfoSet *set)
{
  if (set == NULL)
    return;
  g_hash_table_unref (set->providers);
  g_free (set);
}

gboolean
et_event_info_is_metadata (const EtGuid *class_guid, guint8 opcode)
{
  static EtGuid metadata;
  static gsize parsed;

  if (g_once_init_enter (&parsed))
    {
      et_guid_parse (ET_EVENT_INFO_CLASS, &metadata);
      g_once_init_leave (&parsed, 1);
    }
  return (opcode == ET_EVENT_INFO_OPCODE || opcode == ET_EVENT_MAP_INFO_OPCODE)
         && et_guid_equal (class_guid, &metadata);
}

static Provider *
provider_of (EtEventInfoSet *set, const EtGuid *guid)
{
  Provider *p = g_hash_table_lookup (set->providers, guid);

  if (p == NULL)
    {
      p = g_new0 (Provider, 1);
      p->guid = *guid;
      p->events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      p->seen = g_hash_table_new (g_direct_hash, g_direct_equal);
      p->maps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      p->map_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      p->bad_maps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (set->providers, &p->guid, p);
    }
  return p;
}

static gboolean
add_event (EtEventInfoSet *set, const guint8 *b, gsize len, GError **error)
{
  g_auto(EtEventInfoHead) h = { 0 };
  Provider *p;
  guint key;

  if (!_et_event_info_check_event (b, len, &h, error))
    return FALSE;
  if (h.source != 0)
    return TRUE;
  p = provider_of (set, &h.provider);
  key = (guint) h.id << 8 | h.version;
  if (p->name == NULL && h.provider_name != NULL && h.provider_name[0] != '\0')
    p->name = g_steal_pointer (&h.provider_name);
  if (!g_hash_table_contains (p->seen, GUINT_TO_POINTER (key)))
    {
      g_hash_table_add (p->seen, GUINT_TO_POINTER (key));
      g_ptr_array_add (p->events, g_bytes_new (b, len));
    }
  return TRUE;
}

static gboolean
add_map (EtEventInfoSet *set, const guint8 *b, gsize len, GError **error)
{
  g_autofree char *name = NULL;
  gboolean usable;
  Provider *p;
  EtGuid guid;

  if (len < ET_EVENT_MAP_INFO_START)
    return _et_event_info_walk_map (b, len, NULL, &name, &usable, error);
  et_guid_from_bytes (&guid, b);
  p = provider_of (set, &guid);
  if (!_et_event_info_walk_map (b, len, NULL, &name, &usable, error))
    {
      /* A map named but broken: the events whose fields use it stay raw. */
      if (name != NULL && g_hash_table_add (p->map_names, g_strdup (name)))
        g_hash_table_add (p->bad_maps, g_steal_pointer (&name));
      return FALSE;
    }
  if (usable && g_hash_table_add (p->map_names, g_strdup (name)))
    g_ptr_array_add (p->maps, g_bytes_new (b, len));
  return TRUE;
}

gboolean
et_event_info_set_add (EtEventInfoSet *set, guint8 opcode, const guint8 *payload, gsize len,
                       GError **error)
{
  g_return_val_if_fail (set != NULL, FALSE);
  g_return_val_if_fail (payload != NULL || len == 0, FALSE);

  if (opcode == ET_EVENT_INFO_OPCODE)
    return add_event (set, payload, len, error);
  return add_map (set, payload, len, error);
}

gboolean
et_event_info_set_has (const EtEventInfoSet *set, const EtGuid *provider)
{
  const Provider *p;

  g_return_val_if_fail (set != NULL && provider != NULL, FALSE);
  p = g_hash_table_lookup (set->providers, provider);
  return p != NULL && p->events->len > 0;
}

const char *
et_event_info_set_provider_name (const EtEventInfoSet *set, const EtGuid *provider)
{
  const Provider *p;

  g_return_val_if_fail (set != NULL && provider != NULL, NULL);
  p = g_hash_table_lookup (set->providers, provider);
  return p != NULL ? p->name : NULL;
}

/* ─────────────────────────── building a manifest ─────────────────────────── */

EtManifest *
et_event_info_set_manifest_new (const EtEventInfoSet *set, const EtGuid *provider)
{
  g_autoptr(GHashTable) named = g_hash_table_new (g_direct_hash, g_direct_equal);
  const Provider *p;
  EtManifestTables *tables;

  g_return_val_if_fail (set != NULL && provider != NULL, NULL);
  p = g_hash_table_lookup (set->providers, provider);
  if (p == NULL || p->events->len == 0)
    return NULL;
  tables = _et_manifest_tables_new (p->name != NULL ? p->name : "", &p->guid);
  for (guint i = 0; i < p->maps->len; i++)
    {
      gsize len;
      const guint8 *b = g_bytes_get_data (g_ptr_array_index (p->maps, i), &len);
      g_autofree char *name = NULL;
      gboolean usable;

      _et_event_info_walk_map (b, len, tables, &name, &usable, NULL);
    }
  for (guint i = 0; i < p->events->len; i++)
    {
      gsize len;
      const guint8 *b = g_bytes_get_data (g_ptr_array_index (p->events, i), &len);

      _et_event_info_build_event (b, len, tables, p->bad_maps, named);
    }
  return _et_manifest_tables_finish (tables);
}
