/* et-guid.c — GUIDs as ETW writes them, and EventSource's name → GUID rule.
 *
 * Used everywhere a provider is identified: records carry GUIDs in Windows
 * layout (etl-format.md, "GUID on disk"); EventSource providers named only
 * by a string get a GUID derived from the name (etl-format.md §12).
 */
#include "et-guid.h"

#include <stdio.h>

void
et_guid_to_string (const EtGuid *guid, char out[ET_GUID_STRING_LEN])
{
  const guint8 *d = guid->data4;

  g_snprintf (out, ET_GUID_STRING_LEN,
              "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
              guid->data1, guid->data2, guid->data3,
              d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
}

static gboolean
parse_hex (const char *text, guint n_digits, guint64 *value)
{
  guint64 v = 0;

  for (guint i = 0; i < n_digits; i++)
    {
      int d = g_ascii_xdigit_value (text[i]);
      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint) d;
    }
  *value = v;
  return TRUE;
}

/* Accepts "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", optionally in braces. */
gboolean
et_guid_parse (const char *text, EtGuid *guid)
{
  static const guint groups[] = { 8, 4, 4, 4, 12 };
  guint64 parts[5];
  gboolean braced;
  const char *p;

  g_return_val_if_fail (text != NULL, FALSE);

  braced = text[0] == '{';
  p = braced ? text + 1 : text;
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      for (guint i = 0; i < groups[g]; i++)
        if (p[i] == '\0')
          return FALSE;
      if (!parse_hex (p, groups[g], &parts[g]))
        return FALSE;
      p += groups[g];
      if (g < 4 && *p++ != '-')
        return FALSE;
    }
  if (braced && *p++ != '}')
    return FALSE;
  if (*p != '\0')
    return FALSE;

  guid->data1 = (guint32) parts[0];
  guid->data2 = (guint16) parts[1];
  guid->data3 = (guint16) parts[2];
  guid->data4[0] = (guint8) (parts[3] >> 8);
  guid->data4[1] = (guint8) parts[3];
  for (guint i = 0; i < 6; i++)
    guid->data4[2 + i] = (guint8) (parts[4] >> (8 * (5 - i)));
  return TRUE;
}

guint
et_guid_hash (const EtGuid *guid)
{
  guint32 h = guid->data1 ^ ((guint32) guid->data2 << 16 | guid->data3);
  guint32 tail;

  memcpy (&tail, guid->data4 + 4, 4);
  return h ^ tail;
}

/* EventSource's GUID from its name: SHA-1 over a fixed namespace and the
 * upper-cased name in UTF-16BE, first 16 bytes, version nibble 5
 * (etl-format.md §12). */
void
et_guid_from_eventsource_name (const char *name, EtGuid *guid)
{
  static const guint8 namespace_bytes[16] = {
    0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8,
    0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB,
  };
  g_autoptr(GChecksum) sha1 = g_checksum_new (G_CHECKSUM_SHA1);
  g_autofree char *upper = NULL;
  g_autofree gunichar2 *utf16 = NULL;
  glong n_units = 0;
  guint8 digest[20];
  gsize digest_len = sizeof digest;

  g_return_if_fail (name != NULL);

  if (name[0] == '*')
    name++;
  upper = g_utf8_strup (name, -1);
  utf16 = g_utf8_to_utf16 (upper, -1, NULL, &n_units, NULL);

  g_checksum_update (sha1, namespace_bytes, sizeof namespace_bytes);
  for (glong i = 0; utf16 != NULL && i < n_units; i++)
    {
      guint8 be[2] = { utf16[i] >> 8, utf16[i] & 0xFF };
      g_checksum_update (sha1, be, 2);
    }
  g_checksum_get_digest (sha1, digest, &digest_len);
  digest[7] = (digest[7] & 0x0F) | 0x50;
  et_guid_from_bytes (guid, digest);
}
