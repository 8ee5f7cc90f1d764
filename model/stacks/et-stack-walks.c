/* et-stack-walks.c — see et-stack-walks.h. Layouts: the kernel's
 * StackWalk MOF class (Stack: EventTimeStamp u64, StackProcess u32,
 * StackThread u32, frames; StackKey*: the same three, then the key as a
 * pointer; KeyDelete/KeyRundown: the key, then frames) and the runtime's
 * ClrStackWalk (ClrInstanceID u16, two bytes, FrameCount u32, frames). */
#include "et-stack-walks.h"
#include "et-bytes.h"
#include "et-guid.h"

#include <string.h>

#define STACK_GROUP   0x18
#define STACK_GUID    "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3"
#define RUNTIME_GUID  "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define RUNDOWN_GUID  "a669021c-c450-4609-a035-5af59af4df18"
#define PRIVATE_GUID  "763fd754-7086-4dfe-95eb-c01a46faf4ca"
#define EXT_STACK32   5
#define EXT_STACK64   6

typedef struct
{
  gint64  ts;
  guint32 pid;
  guint32 tid;
  guint32 kernel;     /* node of the kernel half (its own chain), or NONE */
  guint32 user;       /* node of the user half */
  guint32 event;      /* the caller's id of its event + 1, or 0 */
  gboolean has_user;  /* a user half given (or promised by a key) */
  gboolean waiting;   /* in its thread's list of kernel halves waiting to leave the kernel */
} Entry;

typedef struct
{
  guint32 entry;      /* index into entries */
  gboolean kernel;
  guint64 offset;
} Use;

struct _EtStackJoin
{
  EtStackTree *tree;
  GArray      *entries;    /* Entry */
  GHashTable  *by_event;   /* (tid, ts) → entry + 1 */
  GHashTable  *uses;       /* key → GArray of Use waiting for its definition */
  GHashTable  *waiting;    /* tid → GArray of entries whose kernel half waits for the
                            * thread's next user half (its exit from the kernel) */
};

#define N_GUIDS 4   /* StackWalk, the runtime, its rundown, its private provider */

static const EtGuid *
guid_of (guint which)
{
  static EtGuid g[N_GUIDS];
  static gsize parsed;

  if (g_once_init_enter (&parsed))
    {
      et_guid_parse (STACK_GUID, &g[0]);
      et_guid_parse (RUNTIME_GUID, &g[1]);
      et_guid_parse (RUNDOWN_GUID, &g[2]);
      et_guid_parse (PRIVATE_GUID, &g[3]);
      g_once_init_leave (&parsed, 1);
    }
  return &g[which];
}

/* The StackWalk type of a kernel record, or 0. */
static guint
walk_type (const EtRecord *record)
{
  if (record->klass == ET_RECORD_SYSTEM || record->klass == ET_RECORD_PERFINFO)
    return (record->hook >> 8) == STACK_GROUP ? record->hook & 0xFF : 0;
  return et_guid_equal (&record->guid, guid_of (0)) ? record->opcode : 0;
}

EtStackWalkKind
et_stack_walk_kind (const EtRecord *record)
{
  switch (walk_type (record))
    {
    case 32:
      return ET_STACK_WALK_STACK;
    case 37: case 38:
      return ET_STACK_WALK_KEY_USE;
    case 34: case 35: case 36:
      return ET_STACK_WALK_KEY_DEF;
    default:
      break;
    }
  if (record->klass != ET_RECORD_EVENT)
    return ET_STACK_WALK_NONE;
  if ((record->id == 82 && et_guid_equal (&record->guid, guid_of (1)))
      || (record->id == 0 && et_guid_equal (&record->guid, guid_of (2))))
    return ET_STACK_WALK_CLR;
  return et_stack_has_own_stack (record) ? ET_STACK_WALK_ITEM : ET_STACK_WALK_NONE;
}

gboolean
et_stack_has_own_stack (const EtRecord *record)
{
  gsize len;

  return record->ext != NULL
         && et_record_find_ext_either (record, EXT_STACK32, EXT_STACK64, &len) != NULL;
}

gboolean
et_stack_walks_read_provider (const EtGuid *guid)
{
  for (guint i = 0; i < N_GUIDS; i++)
    if (et_guid_equal (guid, guid_of (i)))
      return TRUE;
  return FALSE;
}

gboolean
et_stack_is_clr_event (const EtRecord *record)
{
  return record->klass == ET_RECORD_EVENT
         && (et_guid_equal (&record->guid, guid_of (1)) || et_guid_equal (&record->guid, guid_of (3)));
}

gboolean
et_stack_is_kernel_address (guint64 address, guint pointer_size)
{
  return pointer_size == 4 ? address >= 0x80000000u
                           : address >= G_GUINT64_CONSTANT (0xFFFF800000000000);
}

EtStackJoin *
et_stack_join_new (EtStackTree *tree)
{
  EtStackJoin *join = g_new0 (EtStackJoin, 1);

  join->tree = tree;
  join->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  join->by_event = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  join->uses = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                      (GDestroyNotify) g_array_unref);
  join->waiting = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  return join;
}

void
et_stack_join_free (EtStackJoin *join)
{
  if (join == NULL)
    return;
  g_array_unref (join->entries);
  g_hash_table_unref (join->by_event);
  g_hash_table_unref (join->uses);
  g_hash_table_unref (join->waiting);
  g_free (join);
}

/* The entry of (tid, ts), made when new. Times of one thread differ in
 * their low bits; the key mixes the thread into the high ones. */
static guint32
entry_of (EtStackJoin *join, gint64 ts, guint32 pid, guint32 tid)
{
  gint64 key = ts ^ ((gint64) tid << 40) ^ ((gint64) tid >> 24);
  guint32 index = GPOINTER_TO_UINT (g_hash_table_lookup (join->by_event, &key));
  Entry e = { ts, pid, tid, ET_STACK_NONE, ET_STACK_NONE, 0, FALSE, FALSE };

  while (index != 0)
    {
      const Entry *have = &g_array_index (join->entries, Entry, index - 1);

      if (have->ts == ts && have->tid == tid)
        return index - 1;
      key++;                          /* (a collision of the mixed key) */
      index = GPOINTER_TO_UINT (g_hash_table_lookup (join->by_event, &key));
    }
  g_array_append_val (join->entries, e);
  g_hash_table_insert (join->by_event, g_memdup2 (&key, sizeof key),
                       GUINT_TO_POINTER (join->entries->len));
  return join->entries->len - 1;
}

/* Reads @n frames of @ps bytes at @p into @addrs. */
static void
read_frames (const guint8 *p, gsize n, guint ps, GArray *addrs)
{
  g_array_set_size (addrs, n);
  for (gsize i = 0; i < n; i++)
    g_array_index (addrs, guint64, i) = ps == 4 ? et_read_u32 (p + 4 * i) : et_read_u64 (p + 8 * i);
}

/* A kernel half without its user half waits for the thread's next user
 * half: the one logged as it leaves the kernel (TraceLog's rule). */
static void
wait_for_user (EtStackJoin *join, guint32 entry)
{
  Entry *e = &g_array_index (join->entries, Entry, entry);
  GArray *list;

  if (e->has_user || e->waiting)
    return;
  list = g_hash_table_lookup (join->waiting, GUINT_TO_POINTER (e->tid));
  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (join->waiting, GUINT_TO_POINTER (e->tid), list);
    }
  e->waiting = TRUE;
  g_array_append_val (list, entry);
}

/* The entries of @tid waiting to leave the kernel, and @entry (taken:
 * the caller gives each the user half). */
static GArray *
leaving_kernel (EtStackJoin *join, guint32 tid, guint32 entry)
{
  GArray *list = g_hash_table_lookup (join->waiting, GUINT_TO_POINTER (tid));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (list != NULL)
    g_array_append_vals (out, list->data, list->len);
  g_hash_table_remove (join->waiting, GUINT_TO_POINTER (tid));
  g_array_append_val (out, entry);
  for (guint i = 0; i < out->len; i++)
    {
      Entry *e = &g_array_index (join->entries, Entry, g_array_index (out, guint32, i));

      e->waiting = FALSE;
      e->has_user = TRUE;
    }
  return out;
}

/* A StackWalk/Stack's frames (leaf first) for @entry: all in the kernel,
 * a kernel half that waits; starting in user mode, the user half of the
 * thread's waiting kernel halves and of its own event; else both halves
 * of its own event. */
static void
add_frames (EtStackJoin *join, guint32 entry, const GArray *addrs, guint ps)
{
  Entry *e = &g_array_index (join->entries, Entry, entry);
  const guint64 *a = (const guint64 *) (gconstpointer) addrs->data;
  guint k = 0;

  while (k < addrs->len && et_stack_is_kernel_address (a[k], ps))
    k++;
  if (k == addrs->len)
    {
      if (k > 0)
        e->kernel = et_stack_tree_intern (join->tree, ET_STACK_NONE, e->pid, a, k);
      wait_for_user (join, entry);
    }
  else if (k == 0)
    {
      guint32 user = et_stack_tree_intern (join->tree, ET_STACK_NONE, e->pid, a, addrs->len);
      g_autoptr(GArray) given = leaving_kernel (join, e->tid, entry);

      for (guint i = 0; i < given->len; i++)
        g_array_index (join->entries, Entry, g_array_index (given, guint32, i)).user = user;
    }
  else
    {
      e->kernel = et_stack_tree_intern (join->tree, ET_STACK_NONE, e->pid, a, k);
      e->user = et_stack_tree_intern (join->tree, ET_STACK_NONE, e->pid, a + k, addrs->len - k);
      e->has_user = TRUE;
    }
}

/* A key's frames as one half of @entry. */
static void
set_half (EtStackJoin *join, guint32 entry, const GArray *addrs, gboolean kernel)
{
  Entry *e = &g_array_index (join->entries, Entry, entry);
  guint32 node = addrs->len == 0 ? ET_STACK_NONE
                 : et_stack_tree_intern (join->tree, ET_STACK_NONE, e->pid,
                                         (const guint64 *) (gconstpointer) addrs->data, addrs->len);

  if (kernel)
    e->kernel = node;
  else
    e->user = node;
}

static void
use_key (EtStackJoin *join, guint64 key, guint32 entry, gboolean kernel, guint64 offset)
{
  GArray *waiting = g_hash_table_lookup (join->uses, &key);
  Use use = { entry, kernel, offset };

  if (waiting == NULL)
    {
      waiting = g_array_new (FALSE, FALSE, sizeof (Use));
      g_hash_table_insert (join->uses, g_memdup2 (&key, sizeof key), waiting);
    }
  g_array_append_val (waiting, use);
}

/* A key's frames: every use waiting for it gets them (its half by the
 * use's kind), and the key may be used again for another stack. */
static void
define_key (EtStackJoin *join, guint64 key, const GArray *addrs)
{
  GArray *waiting = g_hash_table_lookup (join->uses, &key);

  if (waiting == NULL)
    return;
  for (guint i = 0; i < waiting->len; i++)
    {
      const Use *use = &g_array_index (waiting, Use, i);

      set_half (join, use->entry, addrs, use->kernel);
    }
  g_hash_table_remove (join->uses, &key);
}

void
et_stack_join_record (EtStackJoin *join, const EtRecord *record, guint64 offset, guint32 event,
                      EtStackDamageFunc damage, gpointer data)
{
  guint ps = record->pointer_size, type = walk_type (record);
  g_autoptr(GArray) addrs = g_array_new (FALSE, FALSE, sizeof (guint64));
  EtReader r;

  et_reader_init (&r, record->payload, record->payload_len);
  if (type == 32 || type == 37 || type == 38)
    {
      gint64 ts = (gint64) et_reader_u64 (&r);
      guint32 pid = et_reader_u32 (&r), tid = et_reader_u32 (&r);
      guint64 key = type == 32 ? 0 : et_reader_pointer (&r, ps);
      guint32 entry;

      if (r.failed)
        {
          damage (offset, "a stack walk event is too short for its thread and time", data);
          return;
        }
      entry = entry_of (join, ts, pid, tid);
      if (event != 0)
        g_array_index (join->entries, Entry, entry).event = event;
      if (type == 37)
        {
          use_key (join, key, entry, TRUE, offset);
          wait_for_user (join, entry);
        }
      else if (type == 38)
        {
          g_autoptr(GArray) given = leaving_kernel (join, tid, entry);

          for (guint i = 0; i < given->len; i++)
            use_key (join, key, g_array_index (given, guint32, i), FALSE, offset);
        }
      else
        {
          read_frames (r.data + r.pos, et_reader_remaining (&r) / ps, ps, addrs);
          add_frames (join, entry, addrs, ps);
        }
    }
  else if (type >= 34 && type <= 36)
    {
      guint64 key = et_reader_pointer (&r, ps);

      if (r.failed)
        {
          damage (offset, "a stack key definition is too short for its key", data);
          return;
        }
      read_frames (r.data + r.pos, et_reader_remaining (&r) / ps, ps, addrs);
      define_key (join, key, addrs);
    }
}

/* The user half as the caller of the kernel half. */
static guint32
joined_node (EtStackJoin *join, const Entry *e, GArray *frames)
{
  guint32 node = e->user;

  if (e->kernel == ET_STACK_NONE)
    return node;
  g_array_set_size (frames, 0);
  for (guint32 k = e->kernel; k != ET_STACK_NONE; k = et_stack_tree_caller (join->tree, k))
    {
      guint32 frame = et_stack_tree_frame (join->tree, k);

      g_array_append_val (frames, frame);
    }
  for (guint i = frames->len; i > 0; i--)
    node = et_stack_tree_child (join->tree, node, g_array_index (frames, guint32, i - 1));
  return node;
}

GArray *
et_stack_join_finish (EtStackJoin *join, EtStackDamageFunc damage, gpointer data)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (EtJoinedStack));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, join->uses);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *waiting = value;
      g_autofree char *what = g_strdup_printf ("%u stack%s refer%s to stack key 0x%"
                                               G_GINT64_MODIFIER "x, which the trace never "
                                               "defines; %s kept without that half",
                                               waiting->len, waiting->len == 1 ? "" : "s",
                                               waiting->len == 1 ? "s" : "",
                                               *(guint64 *) key,
                                               waiting->len == 1 ? "it is" : "they are");

      damage (g_array_index (waiting, Use, 0).offset, what, data);
    }
  for (guint i = 0; i < join->entries->len; i++)
    {
      const Entry *e = &g_array_index (join->entries, Entry, i);
      EtJoinedStack s = { e->ts, e->pid, e->tid, joined_node (join, e, frames), e->event };

      if (s.node != ET_STACK_NONE)
        g_array_append_val (out, s);
    }
  return out;
}

/* Frames as a record holds them: where, how many, of what size, whose. */
typedef struct
{
  const guint8 *p;
  gsize         n;
  guint         ps;
  guint32       pid;
} Raw;

/* Eight bytes at a time (a stack is a few hundred bytes, hashed once per
 * use); the tail byte by byte. */
static guint
raw_hash (gconstpointer key)
{
  const Raw *raw = key;
  gsize len = raw->n * raw->ps, i = 0;
  guint64 h = raw->pid * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ len;

  for (; i + 8 <= len; i += 8)
    h = (h ^ et_read_u64 (raw->p + i)) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  for (; i < len; i++)
    h = (h ^ raw->p[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return (guint) (h ^ (h >> 32));
}

static gboolean
raw_equal (gconstpointer a, gconstpointer b)
{
  const Raw *x = a, *y = b;

  return x->pid == y->pid && x->n == y->n && x->ps == y->ps
         && memcmp (x->p, y->p, x->n * x->ps) == 0;
}

GHashTable *
et_stack_walk_seen_new (void)
{
  return g_hash_table_new_full (raw_hash, raw_equal, g_free, NULL);
}

/* The frames of a CLR walk or a STACK_TRACE item; FALSE when none. */
static gboolean
own_frames (const EtRecord *record, Raw *raw)
{
  const guint8 *item;
  gsize len;
  EtReader r;

  raw->pid = record->pid;
  if (et_stack_walk_kind (record) == ET_STACK_WALK_CLR)
    {
      guint32 count;

      et_reader_init (&r, record->payload, record->payload_len);
      et_reader_take (&r, 4);                      /* ClrInstanceID, two reserved bytes */
      count = et_reader_u32 (&r);
      raw->p = r.data + MIN (r.pos, r.len);
      raw->ps = record->pointer_size;
      raw->n = MIN (count, et_reader_remaining (&r) / record->pointer_size);
      return !r.failed;
    }
  if ((item = et_record_find_ext (record, EXT_STACK64, &len)) != NULL)
    *raw = (Raw) { item + 8, (len - 8) / 8, 8, record->pid };     /* after the MatchId */
  else if ((item = et_record_find_ext (record, EXT_STACK32, &len)) != NULL)
    *raw = (Raw) { item + 8, (len - 8) / 4, 4, record->pid };
  return item != NULL;
}

guint32
et_stack_intern_raw (EtStackTree *tree, GHashTable *seen, guint32 pid, const guint8 *p, gsize n,
                     guint ps)
{
  g_autoptr(GArray) addrs = NULL;
  Raw raw = { p, n, ps, pid };
  gpointer node;
  guint32 interned;

  if (seen != NULL && g_hash_table_lookup_extended (seen, &raw, NULL, &node))
    return GPOINTER_TO_UINT (node);
  addrs = g_array_new (FALSE, FALSE, sizeof (guint64));
  read_frames (p, n, ps, addrs);
  interned = et_stack_tree_intern (tree, ET_STACK_NONE, pid,
                                   (const guint64 *) (gconstpointer) addrs->data, addrs->len);
  if (seen != NULL)
    g_hash_table_insert (seen, g_memdup2 (&raw, sizeof raw), GUINT_TO_POINTER (interned));
  return interned;
}

guint32
et_stack_walk_own_node (EtStackTree *tree, GHashTable *seen, const EtRecord *record)
{
  Raw raw;

  if (!own_frames (record, &raw))
    return ET_STACK_NONE;
  return et_stack_intern_raw (tree, seen, raw.pid, raw.p, raw.n, raw.ps);
}
