/* et-manifest-assembler.c — reassembles manifest chunks.
 *
 * First stage for EventSource providers: manifest events (Id 0xFFFE) carry
 * the XML in chunks of at most 0xFF00 bytes behind an 8-byte envelope
 * (etl-format.md §9). Chunks are collected per provider, process and
 * thread, in order from chunk 0; a whole manifest comes out once the last
 * chunk arrives.
 */
#include "et-manifest.h"
#include "et-bytes.h"
#include "et-error.h"

#include <string.h>

#define ENVELOPE_SIZE 8
#define MAX_CHUNK 0xFF00u

typedef struct
{
  EtGuid  provider;
  guint32 pid;
  guint32 tid;
} Key;

typedef struct
{
  guint8   format, major, minor;
  guint16  total;
  guint16  next;
  GString *xml;
} Partial;

struct _EtManifestAssembler
{
  GHashTable *partials;   /* Key* → Partial* */
};

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;
  return et_guid_hash (&k->provider) ^ (k->pid * 31u) ^ (k->tid * 131u);
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;
  return x->pid == y->pid && x->tid == y->tid && et_guid_equal (&x->provider, &y->provider);
}

static void
partial_free (gpointer data)
{
  Partial *p = data;
  g_string_free (p->xml, TRUE);
  g_free (p);
}

EtManifestAssembler *
et_manifest_assembler_new (void)
{
  EtManifestAssembler *a = g_new0 (EtManifestAssembler, 1);
  a->partials = g_hash_table_new_full (key_hash, key_equal, g_free, partial_free);
  return a;
}

void
et_manifest_assembler_free (EtManifestAssembler *assembler)
{
  if (assembler == NULL)
    return;
  g_hash_table_unref (assembler->partials);
  g_free (assembler);
}

char *
et_manifest_assembler_add (EtManifestAssembler *assembler, const EtGuid *provider,
                           guint32 pid, guint32 tid, const guint8 *payload, gsize payload_len,
                           gsize *len, GError **error)
{
  Key key = { *provider, pid, tid };
  Partial *p;
  guint16 total, number;

  *len = 0;
  if (payload_len < ENVELOPE_SIZE || payload[3] != 0x5B)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "payload offset %u: not a manifest chunk envelope", payload_len < 4 ? 0u : 3u);
      return NULL;
    }
  total = et_read_u16 (payload + 4);
  number = et_read_u16 (payload + 6);
  if (number >= total)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "payload offset 6: chunk %u of %u chunks", number, total);
      return NULL;
    }
  p = g_hash_table_lookup (assembler->partials, &key);
  if (number == 0)
    {
      p = g_new0 (Partial, 1);
      p->format = payload[0], p->major = payload[1], p->minor = payload[2];
      p->total = total;
      p->xml = g_string_new (NULL);
      g_hash_table_replace (assembler->partials, g_memdup2 (&key, sizeof key), p);
    }
  else if (p == NULL || p->next != number || p->total != total || p->format != payload[0]
           || p->major != payload[1] || p->minor != payload[2])
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "payload offset 6: chunk %u of %u arrived, but chunk %u was expected",
                   number, total, p ? p->next : 0u);
      if (p != NULL)
        g_hash_table_remove (assembler->partials, &key);
      return NULL;
    }
  g_string_append_len (p->xml, (const char *) payload + ENVELOPE_SIZE,
                       (gssize) MIN (payload_len - ENVELOPE_SIZE, (gsize) MAX_CHUNK * 2));
  p->next++;
  if (p->next < p->total)
    return NULL;
  *len = p->xml->len;
  {
    char *xml = g_string_free (g_steal_pointer (&p->xml), FALSE);
    p->xml = g_string_new (NULL);
    g_hash_table_remove (assembler->partials, &key);
    return xml;
  }
}
