/* et-fuzz-nettrace.c — hostile .nettrace streams for the fuzzer (see
 * et-fuzz-targets.h): a structure-aware mutator, and the target body that
 * checks what issue 32 asks of the reader, not only that it survives.
 *
 * Random bytes rarely hit the few that frame an EventPipe stream; the
 * mutations aim at them the way a mutation campaign broke real files:
 * block sizes, the tags of an object's opening and end, a NullReference
 * between objects, the varints of compressed event headers, metadata field
 * descriptions, stack and sequence-point counts, cuts.
 *
 * The invariants are checked with a framing walk of their own, written
 * from NetTraceFormat.md and not from the reader: when it finds the stream
 * broken, the load must have reported damage (nothing hidden); and an
 * event that does not decode is damage in the load's verdict too (one
 * verdict per file, whatever is decoded).
 */
#define _GNU_SOURCE
#include "et-fuzz-targets.h"
#include "et-trace.h"
#include "et-trace-load.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_OBJECTS 1024

/* ---- the stream's objects, as the format describes them ----------------- */

typedef struct
{
  gsize    opening;    /* BeginPrivateObject */
  gsize    size_at;    /* the block's size field */
  gsize    start;      /* its payload, 4-byte aligned */
  guint32  size;
  gboolean events;     /* an EventBlock */
  gboolean metadata;   /* a MetadataBlock */
} Object;

/* The opening at @pos: its name (and length) when it reads, else NULL;
 * *body is where the opening ends. */
static const guint8 *
opening_at (const guint8 *data, gsize size, gsize pos, guint32 *name_len, gsize *body)
{
  if (pos + 16 > size || data[pos] != 5 || data[pos + 1] != 5 || data[pos + 2] != 1)
    return NULL;
  *name_len = et_fuzz_get_u32 (data + pos + 11);
  if (*name_len == 0 || *name_len > 64 || pos + 15 + *name_len + 1 > size
      || data[pos + 15 + *name_len] != 6)
    return NULL;
  *body = pos + 15 + *name_len + 1;
  return data + pos + 15;
}

static gboolean
named (const guint8 *name, guint32 len, const char *what)
{
  return len == strlen (what) && memcmp (name, what, len) == 0;
}

/* The block objects after the Trace object, found by their openings
 * wherever they are (not by following sizes: those are what breaks). */
static guint
find_objects (const guint8 *data, gsize size, Object *objects)
{
  guint n = 0;

  for (gsize pos = 0; pos + 16 <= size && n < MAX_OBJECTS; pos++)
    {
      guint32 len;
      gsize body;
      const guint8 *name = opening_at (data, size, pos, &len, &body);
      Object *o = &objects[n];

      if (name == NULL || named (name, len, "Trace") || body + 4 > size)
        continue;
      o->opening = pos;
      o->size_at = body;
      o->start = (body + 4 + 3) & ~(gsize) 3;
      o->size = et_fuzz_get_u32 (data + body);
      o->events = named (name, len, "EventBlock");
      o->metadata = named (name, len, "MetadataBlock");
      if (o->start <= size && o->size <= size - o->start)
        n++;
    }
  return n;
}

/* TRUE when the stream is framed as the format says: magic, header, a
 * Trace object, block objects whose sizes end on an end tag, and the end
 * tag as the file's last byte. */
static gboolean
framed (const guint8 *data, gsize size)
{
  static const char *const kinds[] = { "EventBlock", "MetadataBlock", "StackBlock", "SPBlock" };
  guint32 len;
  gsize pos = 8 + 4 + 20, body;
  const guint8 *name = opening_at (data, size, pos, &len, &body);

  if (name == NULL || !named (name, len, "Trace") || body + 48 + 1 > size
      || data[body + 48] != 6)
    return FALSE;
  for (pos = body + 48 + 1; pos + 1 < size; )
    {
      gboolean known = FALSE;
      gsize start;
      guint32 block;

      name = opening_at (data, size, pos, &len, &body);
      if (name == NULL || body + 4 > size)
        return FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
        known |= named (name, len, kinds[i]);
      block = et_fuzz_get_u32 (data + body);
      start = (body + 4 + 3) & ~(gsize) 3;
      if (!known || et_fuzz_get_u32 (data + pos + 3) > 2 || start > size || block >= size - start
          || data[start + block] != 6)
        return FALSE;
      pos = start + block + 1;
    }
  return pos + 1 == size && data[pos] == 1;
}

/* ---- mutations ------------------------------------------------------------ */

typedef struct
{
  guint8           *data;
  gsize             size;
  gsize             max_size;
  Object            objects[MAX_OBJECTS];
  guint             n;
  GRand            *rand;
  EtFuzzNtMutation *what;
} Mutant;

static guint
pick (Mutant *m, guint n)
{
  return n > 0 ? (guint) g_rand_int_range (m->rand, 0, (gint32) n) : 0;
}

static void
changed (Mutant *m, const Object *o, EtFuzzNtKind kind)
{
  m->what->kind = kind;
  m->what->object = o->opening;
  m->what->events = o->events;
}

/* A block states another size: too small, too large, past the file, or
 * ending inside another block. */
static void
block_size (Mutant *m, Object *o)
{
  Object *other = &m->objects[pick (m, m->n)];
  const guint32 sizes[] = { 0, 4, o->size - 1, o->size / 2, o->size + 1, o->size + 4,
                            o->size * 2, 0x7FFFFFF0, (guint32) (m->size - o->start),
                            (guint32) (other->start + other->size / 2 - o->start) };
  guint32 size = sizes[pick (m, G_N_ELEMENTS (sizes))];

  if (size == o->size)
    return;
  et_fuzz_set_u32 (m->data + o->size_at, size);
  changed (m, o, ET_FUZZ_NT_FRAMING);
}

/* One of an opening's tags, its version or its name; or the block's end
 * tag. */
static void
object_tag (Mutant *m, Object *o)
{
  const guint8 tags[] = { 0, 1, 5, 6, 0xFF };
  guint8 tag = tags[pick (m, G_N_ELEMENTS (tags))];
  guint which = pick (m, 5);
  gsize at = which < 3 ? o->opening + which
             : which == 3 ? o->opening + 15 + pick (m, (guint) (o->size_at - o->opening - 15))
             : o->start + o->size;

  if (which == 4 && at >= m->size)
    return;
  if (m->data[at] == tag)
    tag ^= 0x80;
  m->data[at] = tag;
  changed (m, o, ET_FUZZ_NT_FRAMING);
}

/* A NullReference (the end tag), padded to keep the 4-byte alignment of
 * what follows, where an object begins. */
static void
stray_end_tag (Mutant *m, Object *o)
{
  if (m->size + 4 > m->max_size)
    return;
  memmove (m->data + o->opening + 4, m->data + o->opening, m->size - o->opening);
  memset (m->data + o->opening, 0, 4);
  m->data[o->opening] = 1;
  m->size += 4;
  changed (m, o, ET_FUZZ_NT_FRAMING);
}

/* Bytes inside a block: a varint's continuation bit or a flags byte of an
 * event header, a metadata field's type code or count, a stack or
 * sequence-point count. */
static void
block_content (Mutant *m, Object *o)
{
  gsize at;

  if (o->size < 8)
    return;
  at = o->start + 4 + pick (m, o->size - 4);
  if (o->metadata && at + 4 <= o->start + o->size && g_rand_boolean (m->rand))
    et_fuzz_set_u32 (m->data + at, pick (m, 2) ? 99 : et_fuzz_get_u32 (m->data + at) + 1);
  else if (o->events)
    m->data[at] ^= g_rand_boolean (m->rand) ? 0x80 : (guint8) (1u << pick (m, 8));
  else
    et_fuzz_set_u32 (m->data + o->start + 4 * pick (m, 2), g_rand_int (m->rand));
  changed (m, o, ET_FUZZ_NT_CONTENT);
}

/* A cut: at an object's opening, inside it, or just before the end tag. */
static void
cut (Mutant *m, Object *o)
{
  gsize at = pick (m, 3) == 0 ? m->size - 1 : o->opening + pick (m, o->size + 32);

  if (at >= m->size)
    return;
  m->size = at;
  changed (m, o, ET_FUZZ_NT_FRAMING);
  m->what->events = FALSE;
  m->what->cut = at;
}

gsize
et_fuzz_mutate_nettrace (guint8 *data, gsize size, gsize max_size, guint32 seed,
                         EtFuzzNtMutation *what)
{
  Mutant *m = g_new0 (Mutant, 1);
  EtFuzzNtMutation none = { ET_FUZZ_NT_NONE, 0, FALSE, 0 };
  gsize result;

  m->data = data;
  m->size = size;
  m->max_size = MAX (max_size, size);
  m->rand = g_rand_new_with_seed (seed);
  m->what = what != NULL ? what : &none;
  *m->what = none;
  m->n = find_objects (data, size, m->objects);
  if (m->n > 0)
    {
      Object *o = &m->objects[pick (m, m->n)];

      switch (pick (m, 5))
        {
        case 0: block_size (m, o); break;
        case 1: object_tag (m, o); break;
        case 2: stray_end_tag (m, o); break;
        case 3: block_content (m, o); break;
        default: cut (m, o); break;
        }
    }
  result = m->size;
  g_rand_free (m->rand);
  g_free (m);
  return result;
}

/* ---- the target ------------------------------------------------------------ */

int
et_fuzz_nettrace (const guint8 *data, gsize size)
{
  g_autofree char *path = NULL;
  g_autoptr(EtTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 failures, damage;
  int fd = -1;

  if (size > ET_FUZZ_MAX_FILE || (fd = memfd_create ("et-fuzz-nt", MFD_CLOEXEC)) < 0
      || write (fd, data, size) != (ssize_t) size)
    {
      if (fd >= 0)
        close (fd);
      return 0;
    }
  path = g_strdup_printf ("/proc/self/fd/%d", fd);
  /* Markers of the default providers only: what is decoded at load is
   * not everything, so a verdict that depended on it would show. */
  trace = et_trace_load (path, ET_LOAD_DEFAULT, NULL, NULL, NULL, &error);
  close (fd);
  if (trace == NULL)
    return 0;
  failures = et_fuzz_walk_trace (trace);
  damage = et_trace_get_stats (trace)->damage_count;
  if (damage == 0 && size >= 8 && memcmp (data, "Nettrace", 8) == 0 && !framed (data, size))
    {
      g_printerr ("et_fuzz_nettrace: a stream whose framing is broken was read without damage\n");
      abort ();
    }
  if (damage == 0 && failures > 0)
    {
      g_printerr ("et_fuzz_nettrace: %" G_GUINT64_FORMAT " events do not decode in a trace "
                  "read without damage\n", failures);
      abort ();
    }
  return 0;
}
