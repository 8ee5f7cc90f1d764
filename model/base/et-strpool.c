/* et-strpool.c — see et-strpool.h. */
#include "et-strpool.h"

#include <string.h>

#define RECENT_SLOTS 4096

struct _EtStrPool
{
  guint32     recent[RECENT_SLOTS];  /* et_strpool_add's cache: id or 0 */
  GByteArray *data;     /* NUL-terminated strings back to back; id = offset */
  guint32    *slots;    /* 0 = empty, else id */
  guint32    *hashes;   /* the hash of each slot's string, so growing never rescans text */
  guint       n_slots;  /* a power of two */
  guint       n_used;
};

EtStrPool *
et_strpool_new (void)
{
  EtStrPool *pool = g_new0 (EtStrPool, 1);

  pool->data = g_byte_array_sized_new (4096);
  g_byte_array_append (pool->data, (const guint8 *) "", 1);   /* id 0 */
  pool->n_slots = 1024;
  pool->slots = g_new0 (guint32, pool->n_slots);
  pool->hashes = g_new (guint32, pool->n_slots);
  return pool;
}

void
et_strpool_free (EtStrPool *pool)
{
  if (pool == NULL)
    return;
  g_byte_array_unref (pool->data);
  g_free (pool->slots);
  g_free (pool->hashes);
  g_free (pool);
}

static guint32
hash_bytes (const char *text, gsize len)
{
  guint32 h = 2166136261u;   /* FNV-1a */

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) text[i]) * 16777619u;
  return h;
}

static void
grow (EtStrPool *pool)
{
  guint old_n = pool->n_slots;
  guint32 *old = pool->slots, *old_hashes = pool->hashes;

  pool->n_slots *= 2;
  pool->slots = g_new0 (guint32, pool->n_slots);
  pool->hashes = g_new (guint32, pool->n_slots);
  for (guint i = 0; i < old_n; i++)
    {
      guint j;

      if (old[i] == 0)
        continue;
      j = old_hashes[i] & (pool->n_slots - 1);
      while (pool->slots[j] != 0)
        j = (j + 1) & (pool->n_slots - 1);
      pool->slots[j] = old[i];
      pool->hashes[j] = old_hashes[i];
    }
  g_free (old);
  g_free (old_hashes);
}

guint32
et_strpool_intern (EtStrPool *pool, const char *text, gssize len)
{
  gsize n = len < 0 ? strlen (text) : (gsize) len;
  guint32 id, hash;
  guint j;

  if (n == 0)
    return 0;
  /* An embedded NUL would make the stored string shorter than its key. */
  n = strnlen (text, n);
  if (pool->n_used * 2 >= pool->n_slots)
    grow (pool);
  hash = hash_bytes (text, n);
  j = hash & (pool->n_slots - 1);
  while ((id = pool->slots[j]) != 0)
    {
      const char *s = (const char *) pool->data->data + id;
      if (pool->hashes[j] == hash && strncmp (s, text, n) == 0 && s[n] == '\0')
        return id;
      j = (j + 1) & (pool->n_slots - 1);
    }
  g_assert (pool->data->len <= G_MAXUINT32 - n - 1);
  id = pool->data->len;
  g_byte_array_append (pool->data, (const guint8 *) text, (guint) n);
  g_byte_array_append (pool->data, (const guint8 *) "", 1);
  pool->slots[j] = id;
  pool->hashes[j] = hash;
  pool->n_used++;
  return id;
}

guint32
et_strpool_add (EtStrPool *pool, const char *text, gssize len)
{
  gsize n = len < 0 ? strlen (text) : strnlen (text, (gsize) len);
  guint32 slot, id;
  const char *s;

  if (n == 0)
    return 0;
  slot = hash_bytes (text, MIN (n, 64)) & (RECENT_SLOTS - 1);
  id = pool->recent[slot];
  s = (const char *) pool->data->data + id;
  if (id != 0 && strncmp (s, text, n) == 0 && s[n] == '\0')
    return id;
  g_assert (pool->data->len <= G_MAXUINT32 - n - 1);
  id = pool->data->len;
  g_byte_array_append (pool->data, (const guint8 *) text, (guint) n);
  g_byte_array_append (pool->data, (const guint8 *) "", 1);
  pool->recent[slot] = id;
  return id;
}

const char *
et_strpool_get (EtStrPool *pool, guint32 id)
{
  g_return_val_if_fail (id < pool->data->len, "");
  return (const char *) pool->data->data + id;
}

gsize
et_strpool_size (EtStrPool *pool)
{
  return pool->data->len + pool->n_slots * 2 * sizeof (guint32);
}
