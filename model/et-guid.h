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

void     et_guid_from_bytes            (EtGuid       *guid,
                                        const guint8 *bytes16);
void     et_guid_to_string             (const EtGuid *guid,
                                        char          out[ET_GUID_STRING_LEN]);
gboolean et_guid_parse                 (const char   *text,
                                        EtGuid       *guid);
guint    et_guid_hash                  (const EtGuid *guid);
void     et_guid_from_eventsource_name (const char   *name,
                                        EtGuid       *guid);

/* Inline: the loader compares a GUID or two for every event. */
static inline gboolean
et_guid_equal (const EtGuid *a, const EtGuid *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

static inline gboolean
et_guid_is_zero (const EtGuid *guid)
{
  static const EtGuid zero;
  return et_guid_equal (guid, &zero);
}

G_END_DECLS
