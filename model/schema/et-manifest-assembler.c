/* et-manifest-assembler.c — EventSource manifests put back together.
 *
 * First stage for EventSource providers: an EventSource logs its manifest
 * as one or more events (Id 0xFFFE), each an 8-byte envelope and up to
 * 0xFF00 bytes of XML (etl-format.md §9, "Chunk envelope"). Chunks are
 * collected per (provider, process, thread) — the writer emits them one
 * after the other on one thread — and the XML goes on to et_manifest_parse
 * once all TotalChunks have arrived.
 */
#include "et-manifest.h"
#include "et-bytes.h"
#include "et-error.h"

#include <stdlib.h>
#include <string.h>

#define ENVELOPE_SIZE  8
#define ENVELOPE_MAGIC 0x5B
#define FORMAT_XML     1
#define MAX_CHUNK_SIZE 0xFF00

typedef struct
{
  EtGuid  provider;
  guint32 pid;
  guint32 tid;
} Key;

typedef struct
{
  guint16 number;
  GBytes *bytes;
} Chunk;

typedef struct
{
  guint8  format, major, minor;
  guint16 total;
  guint16 highest;              /* highest chunk number received */
  GArray *chunks;               /* Chunk, in arrival order */
  GHashTable *numbers;          /* the chunk numbers received + 1: duplicates in O(1) */
} Partial;

struct _EtManifestAssembler
{
  GHashTable *partials;         /* Key → Partial */
  guint64     work;             /* chunk numbers compared or looked up */
};

static guint
key_hash (gconstpointer data)
{
  const Key *k = data;
  return et_guid_hash (&k->provider) ^ (k->pid * 31u) ^ (k->tid * 131u);
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  const Key *x = a, *y = b;
  return x->pid == y->pid && x->tid == y->tid && et_guid_equal (&x->provider, &y->provider);
}

static void
chunk_clear (gpointer data)
{
  g_bytes_unref (((Chunk *) data)->bytes);
}

static void
partial_free (gpointer data)
{
  Partial *p = data;
  g_array_unref (p->chunks);
  g_hash_table_unref (p->numbers);
  g_free (p);
}

EtManifestAssembler *
et_manifest_assembler_new (void)
{
  EtManifestAssembler *self = g_new0 (EtManifestAssembler, 1);

  self->partials = g_hash_table_new_full (key_hash, key_equal, g_free, partial_free);
  return self;
}

void
et_manifest_assembler_free (EtManifestAssembler *assembler)
{
  if (assembler == NULL)
    return;
  g_hash_table_unref (assembler->partials);
  g_free (assembler);
}

/* The chunks in number order. Complete means each number below total
 * came once: each chunk's place is its number, without comparisons. */
static char *
concatenate (EtManifestAssembler *self, Partial *p, gsize *len)
{
  g_autofree guint *at = g_new (guint, p->total);
  GString *xml;
  gsize total = 0;

  for (guint i = 0; i < p->chunks->len; i++)
    {
      const Chunk *c = &g_array_index (p->chunks, Chunk, i);
      total += g_bytes_get_size (c->bytes);
      at[c->number] = i;
      self->work++;
    }
  xml = g_string_sized_new (total + 1);
  for (guint n = 0; n < p->total; n++)
    {
      gsize size;
      const char *data = g_bytes_get_data (g_array_index (p->chunks, Chunk, at[n]).bytes, &size);
      g_string_append_len (xml, data, size);
    }
  *len = xml->len;
  return g_string_free (xml, FALSE);
}

static Partial *
partial_new (const guint8 *envelope)
{
  Partial *p = g_new0 (Partial, 1);

  p->format = envelope[0];
  p->major = envelope[1];
  p->minor = envelope[2];
  p->total = et_read_u16 (envelope + 4);
  p->chunks = g_array_new (FALSE, FALSE, sizeof (Chunk));
  g_array_set_clear_func (p->chunks, chunk_clear);
  p->numbers = g_hash_table_new (NULL, NULL);
  return p;
}

/* What is wrong with one envelope on its own, or NULL; @offset says where. */
static const char *
check_envelope (const guint8 *payload, gsize len, gsize *offset)
{
  *offset = 0;
  if (len < ENVELOPE_SIZE)
    return "shorter than the 8-byte chunk envelope";
  if (payload[0] != FORMAT_XML)
    return "format is not 1 (XML)";
  *offset = 3;
  if (payload[3] != ENVELOPE_MAGIC)
    return "magic is not 0x5B";
  *offset = 4;
  if (et_read_u16 (payload + 4) == 0)
    return "TotalChunks is 0";
  *offset = 6;
  if (et_read_u16 (payload + 6) >= et_read_u16 (payload + 4))
    return "ChunkNumber is not below TotalChunks";
  /* Chunks of at most 0xFF00 bytes bound a manifest to TotalChunks × 0xFF00. */
  *offset = ENVELOPE_SIZE;
  if (len - ENVELOPE_SIZE > MAX_CHUNK_SIZE)
    return "chunk larger than 0xFF00 bytes";
  return NULL;
}

/* What is wrong with a later chunk given the partial manifest it continues. */
static const char *
check_continuation (EtManifestAssembler *self, Partial *p, const guint8 *payload,
                    gsize *offset)
{
  guint16 number = et_read_u16 (payload + 6);

  *offset = 6;
  if (p == NULL)
    return "chunk without a chunk 0 before it";
  /* A set, not a scan of the chunks so far: a manifest may come in
   * 65,535 chunks, and a scan made that 2·10^9 comparisons. */
  self->work++;
  if (g_hash_table_contains (p->numbers, GUINT_TO_POINTER ((guint) number + 1)))
    return "duplicate chunk";
  *offset = 4;
  if (et_read_u16 (payload + 4) != p->total)
    return "TotalChunks differs from chunk 0";
  *offset = 0;
  if (payload[0] != p->format || payload[1] != p->major || payload[2] != p->minor)
    return "format or version differs from chunk 0";
  return NULL;
}

/* Files the chunk under its key and returns the partial manifest it
 * belongs to; @why and @offset are set when something is wrong (then the
 * chunk was refused, unless it only arrived past a gap). */
static Partial *
file_chunk (EtManifestAssembler *self, const Key *key, const guint8 *payload, gsize len,
            const char **why, gsize *offset)
{
  Partial *p = NULL;
  Chunk chunk;

  if ((*why = check_envelope (payload, len, offset)) != NULL)
    return NULL;
  chunk.number = et_read_u16 (payload + 6);
  if (chunk.number == 0)
    {
      /* A new copy (rundown repeats the manifest) replaces an unfinished one. */
      p = partial_new (payload);
      g_hash_table_replace (self->partials, g_memdup2 (key, sizeof *key), p);
    }
  else
    {
      p = g_hash_table_lookup (self->partials, key);
      if ((*why = check_continuation (self, p, payload, offset)) != NULL)
        return NULL;
    }
  chunk.bytes = g_bytes_new (payload + ENVELOPE_SIZE, len - ENVELOPE_SIZE);
  g_array_append_val (p->chunks, chunk);
  g_hash_table_add (p->numbers, GUINT_TO_POINTER ((guint) chunk.number + 1));
  /* One thread writes the chunks in order, and we get them in time order,
   * so a chunk past a gap nearly always means one was lost: say so now,
   * since nothing is said about a manifest that never completes. The chunk
   * is kept all the same, so a late arrival still completes the manifest
   * (chunks are put in order at the end, as PerfView does). */
  if (chunk.number > p->highest + 1)
    {
      *why = "chunk arrived before an earlier one (lost or out of order)";
      *offset = 6;
    }
  p->highest = MAX (p->highest, chunk.number);
  return p;
}

char *
et_manifest_assembler_add (EtManifestAssembler *assembler,
                           const EtGuid        *provider,
                           guint32              pid,
                           guint32              tid,
                           const guint8        *payload,
                           gsize                payload_len,
                           gsize               *len,
                           GError             **error)
{
  Key key = { *provider, pid, tid };
  const char *why = NULL;
  gsize offset = 0;
  Partial *p;
  char *xml;

  g_return_val_if_fail (assembler != NULL, NULL);
  g_return_val_if_fail (provider != NULL, NULL);
  g_return_val_if_fail (payload != NULL || payload_len == 0, NULL);
  g_return_val_if_fail (len != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *len = 0;
  p = file_chunk (assembler, &key, payload, payload_len, &why, &offset);
  if (why != NULL)
    {
      g_set_error (error, ET_ETL_ERROR, ET_ETL_ERROR_CORRUPT,
                   "payload offset %" G_GSIZE_FORMAT ": manifest chunk: %s", offset, why);
      return NULL;
    }
  if (p->chunks->len < p->total)
    return NULL;
  xml = concatenate (assembler, p, len);
  g_hash_table_remove (assembler->partials, &key);
  return xml;
}

guint64
et_manifest_assembler_get_work (EtManifestAssembler *assembler)
{
  g_return_val_if_fail (assembler != NULL, 0);
  return assembler->work;
}
