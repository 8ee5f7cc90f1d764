/* et-guid.h — GUIDs in Windows layout (Data1..3 little-endian on disk). */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct
{
  guint32 data1;
  guint16 data2;
  guint16 data3;
  guint8  data4[8];
} EtGuid;

#define ET_GUID_STRING_LEN 37   /* 36 characters and the NUL */

void     et_guid_to_string             (const EtGuid *guid,
                                        char          out[ET_GUID_STRING_LEN]);
gboolean et_guid_parse                 (const char   *text,
                                        EtGuid       *guid);
guint    et_guid_hash                  (const EtGuid *guid);
void     et_guid_from_eventsource_name (const char   *name,
                                        EtGuid       *guid);

G_STATIC_ASSERT (sizeof (EtGuid) == 16);

/* Inline: every record has a GUID or two to read, and the loader compares
 * them. On a little-endian machine the wire bytes are the struct. */
static inline void
et_guid_from_bytes (EtGuid *guid, const guint8 *bytes16)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  memcpy (guid, bytes16, sizeof *guid);
#else
  guid->data1 = (guint32) bytes16[0] | (guint32) bytes16[1] << 8 | (guint32) bytes16[2] << 16
                | (guint32) bytes16[3] << 24;
  guid->data2 = (guint16) (bytes16[4] | bytes16[5] << 8);
  guid->data3 = (guint16) (bytes16[6] | bytes16[7] << 8);
  memcpy (guid->data4, bytes16 + 8, 8);
#endif
}

static inline gboolean
et_guid_equal (const EtGuid *a, const EtGuid *b)
{
  guint64 x[2], y[2];   /* two word compares, never a call to memcmp */

  memcpy (x, a, sizeof x);
  memcpy (y, b, sizeof y);
  return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
}

static inline gboolean
et_guid_is_zero (const EtGuid *guid)
{
  static const EtGuid zero;
  return et_guid_equal (guid, &zero);
}

G_END_DECLS
