/* et-nettrace-framing.c — where the objects of an EventPipe stream begin and
 * end (see et-nettrace-reader.c, which reads what is between).
 *
 * An object opens with BeginPrivateObject, BeginPrivateObject, NullReference
 * (the type's type), the type's version, its minimum reader version, its
 * name and an EndObject tag. A block gives its payload size and ends with an
 * EndObject tag; the stream ends with a NullReference as its last byte.
 * Nothing in that framing is checked by a sum, so a damaged size or tag is
 * found by what must follow it: a size is trusted when an end tag and then
 * an object opening (or the stream's end) follow where it says.
 */
#include "et-nettrace-private.h"

#include <string.h>

#define TAG_NULL_REFERENCE 1
#define TAG_BEGIN_PRIVATE  5
#define TAG_END_OBJECT     6

EtNtObjectKind
_et_nettrace_kind_of (const guint8 *name, guint32 len)
{
  static const struct { const char *name; EtNtObjectKind kind; } kinds[] = {
    { "Trace", ET_NT_OBJ_TRACE },
    { "EventBlock", ET_NT_OBJ_EVENT_BLOCK },
    { "MetadataBlock", ET_NT_OBJ_METADATA_BLOCK },
    { "StackBlock", ET_NT_OBJ_STACK_BLOCK },
    { "SPBlock", ET_NT_OBJ_SP_BLOCK },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (strlen (kinds[i].name) == len && memcmp (kinds[i].name, name, len) == 0)
      return kinds[i].kind;
  return ET_NT_OBJ_UNKNOWN;
}

/* How many of the three opening tags at @pos are wrong (3 when they do not
 * fit in the file). */
static guint
wrong_tags (const guint8 *data, gsize len, gsize pos)
{
  static const guint8 tags[3] = { TAG_BEGIN_PRIVATE, TAG_BEGIN_PRIVATE, TAG_NULL_REFERENCE };
  guint wrong = 0;

  if (pos > len || len - pos < 3)
    return 3;
  for (guint i = 0; i < 3; i++)
    wrong += data[pos + i] != tags[i];
  return wrong;
}

gboolean
_et_nettrace_opening (const guint8 *data, gsize len, gsize pos, gboolean lenient,
                      EtNtObjectKind *kind, guint32 *version, gsize *body, gboolean *damaged)
{
  EtReader r;
  guint32 name_len;
  const guint8 *name;
  guint wrong = wrong_tags (data, len, pos);

  /* One wrong tag byte (a flipped bit, a NullReference where the object
   * begins) is taken as damage only when the rest names a known type:
   * otherwise any byte followed by two tag-like ones would open an object. */
  if (wrong > (lenient ? 1u : 0u))
    return FALSE;
  et_reader_init (&r, data, len);
  r.pos = pos + 3;
  *version = et_reader_u32 (&r);
  et_reader_u32 (&r);                      /* the minimum reader version */
  name_len = et_reader_u32 (&r);
  name = name_len <= 64 ? et_reader_take (&r, name_len) : NULL;
  if (name == NULL || et_reader_u8 (&r) != TAG_END_OBJECT || r.failed)
    return FALSE;
  *kind = _et_nettrace_kind_of (name, name_len);
  if (wrong > 0 && *kind == ET_NT_OBJ_UNKNOWN)
    return FALSE;
  *body = r.pos;
  if (damaged != NULL)
    *damaged = wrong > 0;
  return TRUE;
}

gsize
_et_nettrace_next_opening (const guint8 *data, gsize len, gsize pos)
{
  for (gsize at = pos + 1; at + 3 <= len; at++)
    {
      const guint8 *hit = memchr (data + at, TAG_BEGIN_PRIVATE, len - at);
      EtNtObjectKind kind;
      guint32 version;
      gsize body;

      if (hit == NULL)
        break;
      at = (gsize) (hit - data);
      if (_et_nettrace_opening (data, len, at, FALSE, &kind, &version, &body, NULL)
          && kind != ET_NT_OBJ_UNKNOWN)
        return at;
    }
  return len;
}

gboolean
_et_nettrace_framed_after (const guint8 *data, gsize len, gsize at)
{
  EtNtObjectKind kind;
  guint32 version;
  gsize body;

  if (at == len || (at + 1 == len && data[at] == TAG_NULL_REFERENCE))
    return TRUE;
  return _et_nettrace_opening (data, len, at, FALSE, &kind, &version, &body, NULL);
}

/* The end tag a block ends with when the object opening at @next follows
 * it (or, @next being @len, the stream's end tag): FALSE when there is
 * none just before, and a block is never stretched over bytes that are
 * not framed (a file cut while it was read has zeros from there on). */
static gboolean
end_before (const guint8 *data, gsize len, gsize start, gsize next, gsize *end)
{
  if (next < len && next - 1 >= start && data[next - 1] == TAG_END_OBJECT)
    *end = next - 1;
  else if (next == len && len >= start + 2 && data[len - 1] == TAG_NULL_REFERENCE
           && data[len - 2] == TAG_END_OBJECT)
    *end = len - 2;
  else
    return FALSE;
  return TRUE;
}

gsize
_et_nettrace_block_end (const guint8 *data, gsize len, gsize start, guint32 size,
                        gboolean *size_wrong)
{
  gsize stated = start + size, next, end;
  gboolean inside = size <= len - start;

  *size_wrong = FALSE;
  if (inside && stated < len && data[stated] == TAG_END_OBJECT
      && _et_nettrace_framed_after (data, len, stated + 1))
    return stated;
  /* An object opening inside the stated block, or a size past the file:
   * the size is wrong, the block ends before that object (or, with
   * nothing framed after it, at the file's end, as a file cut short). */
  next = _et_nettrace_next_opening (data, len, start);
  if (!inside || next < stated)
    {
      *size_wrong = TRUE;
      return end_before (data, len, start, next, &end) ? end : next;
    }
  /* Its end tag where the size says, or only the tag damaged (an object
   * right after it): the size is right and whatever follows is damaged. */
  if ((stated < len && data[stated] == TAG_END_OBJECT)
      || (stated + 1 <= len && _et_nettrace_framed_after (data, len, stated + 1)))
    return stated;
  /* Neither: a size too small when the next object (or the stream's end)
   * follows an end tag; else the block lacks its end tag. */
  if (!end_before (data, len, start, next, &end))
    return stated;
  *size_wrong = TRUE;
  return end;
}
