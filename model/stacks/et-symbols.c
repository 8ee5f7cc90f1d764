/* et-symbols.c — see et-symbols.h.
 *
 * Methods and images are both ranges of addresses over a span of time, in
 * one table each, sorted by (pid, start) at finish. A lookup searches the
 * last range starting at or before the address and walks back while an
 * earlier range may still reach it (a running maximum of the ends), taking
 * the one alive at that time. Walks back are capped (MAX_WALK): only ranges
 * that overlap one another, which is damage, make them long.
 */
#include "et-symbols.h"
#include "et-bytes.h"
#include "et-fields.h"

#include <string.h>

#define MAX_WALK 256

typedef struct
{
  guint64     start;
  guint64     end;        /* exclusive */
  gint64      from;       /* ns; G_MININT64: before the trace */
  gint64      to;         /* ns; G_MAXINT64: after it */
  guint64     offset;     /* methods: of the event, for damage */
  guint64     id;         /* MethodID; images: 0 */
  guint64     module_id;
  const char *text;       /* images: the file name; methods: NULL */
  const guint8 *names;    /* methods: namespace, name, signature (UTF-16, each
                           * NUL-terminated), the caller's bytes */
  guint32     names_len;
  guint32     pid;
} Range;

typedef struct
{
  GArray     *ranges;     /* Range */
  GArray     *reach;      /* guint64 per range: the largest end of its pid up to it */
  GHashTable *open;       /* RangeKey* → index + 1 of the latest range of that key */
} Table;

typedef struct
{
  guint32 pid;
  guint64 id;
  guint64 start;
} RangeKey;

typedef struct
{
  guint32 pid;
  guint64 module_id;
} ModuleKey;

struct _EtSymbols
{
  Table         methods;
  Table         images;
  GHashTable   *modules;  /* ModuleKey* → module name */
  GStringChunk *strings;
  gboolean      finished;
};

static guint
range_key_hash (gconstpointer p)
{
  const RangeKey *k = p;

  return (guint) (k->start ^ (k->start >> 32) ^ k->id ^ (k->id >> 29) ^ k->pid * 2654435761u);
}

static gboolean
range_key_equal (gconstpointer a, gconstpointer b)
{
  const RangeKey *x = a, *y = b;

  return x->pid == y->pid && x->id == y->id && x->start == y->start;
}

static guint
module_key_hash (gconstpointer p)
{
  const ModuleKey *k = p;

  return (guint) (k->module_id ^ (k->module_id >> 32) ^ k->pid * 2654435761u);
}

static gboolean
module_key_equal (gconstpointer a, gconstpointer b)
{
  const ModuleKey *x = a, *y = b;

  return x->pid == y->pid && x->module_id == y->module_id;
}

static void
table_init (Table *t)
{
  t->ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  t->reach = g_array_new (FALSE, FALSE, sizeof (guint64));
  t->open = g_hash_table_new_full (range_key_hash, range_key_equal, g_free, NULL);
}

static void
table_clear (Table *t)
{
  g_clear_pointer (&t->ranges, g_array_unref);
  g_clear_pointer (&t->reach, g_array_unref);
  g_clear_pointer (&t->open, g_hash_table_unref);
}

EtSymbols *
et_symbols_new (void)
{
  EtSymbols *symbols = g_new0 (EtSymbols, 1);

  table_init (&symbols->methods);
  table_init (&symbols->images);
  symbols->modules = g_hash_table_new_full (module_key_hash, module_key_equal, g_free, NULL);
  symbols->strings = g_string_chunk_new (4096);
  return symbols;
}

void
et_symbols_free (EtSymbols *symbols)
{
  if (symbols == NULL)
    return;
  table_clear (&symbols->methods);
  table_clear (&symbols->images);
  g_hash_table_unref (symbols->modules);
  g_string_chunk_free (symbols->strings);
  g_free (symbols);
}

/* The latest range of (pid, id, start), or NULL. */
static Range *
latest (Table *t, guint32 pid, guint64 id, guint64 start)
{
  RangeKey key = { pid, id, start };
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (t->open, &key));

  return index == 0 ? NULL : &g_array_index (t->ranges, Range, index - 1);
}

static void
append (Table *t, const Range *r)
{
  RangeKey *key = g_new (RangeKey, 1);

  key->pid = r->pid;
  key->id = r->id;
  key->start = r->start;
  g_array_append_val (t->ranges, *r);
  g_hash_table_replace (t->open, key, GUINT_TO_POINTER (t->ranges->len));
}

/* One event of a range's life: a load opens one, an unload closes the open
 * one (or one that lived from before the trace), a rundown confirms the
 * open one (or one that lived before and after the trace). */
static void
take_event (Table *t, EtMethodEvent what, Range *r, gint64 ns)
{
  Range *have = latest (t, r->pid, r->id, r->start);
  gboolean open = have != NULL && have->to == G_MAXINT64;

  switch (what)
    {
    case ET_METHOD_LOAD:
      r->from = ns;
      r->to = G_MAXINT64;
      append (t, r);
      break;
    case ET_METHOD_UNLOAD:
      if (open)
        have->to = MAX (ns, have->from);
      else
        {
          r->from = G_MININT64;
          r->to = ns;
          append (t, r);
        }
      break;
    case ET_METHOD_RUNDOWN:
      if (!open)
        {
          r->from = G_MININT64;
          r->to = G_MAXINT64;
          append (t, r);
        }
      break;
    }
}

void
et_symbols_add_method (EtSymbols *symbols, EtMethodEvent what, guint32 pid, gint64 ns,
                       guint64 offset, guint64 method_id, guint64 module_id, guint64 start,
                       guint32 size, const guint8 *names, gsize names_len)
{
  Range r = { 0 };

  g_return_if_fail (symbols != NULL && !symbols->finished);
  if (size == 0)
    return;
  /* Named when a frame asks: most methods of a rundown never run. */
  r.names = names;
  r.names_len = (guint32) MIN (names_len, G_MAXUINT32);
  r.start = start;
  r.end = start + size < start ? G_MAXUINT64 : start + size;
  r.offset = offset;
  r.id = method_id;
  r.module_id = module_id;
  r.pid = pid;
  take_event (&symbols->methods, what, &r, ns);
}

/* The file name of @path (either kind of slash) without its extension;
 * with @ngen (CoreCLR logs its NGEN image as the IL file too) its ".ni"
 * is left out as well, as TraceLog does. */
static char *
module_name (const char *path, gboolean ngen)
{
  const char *base = path, *dot;
  char *name;

  for (const char *p = path; *p != '\0'; p++)
    if (*p == '\\' || *p == '/')
      base = p + 1;
  dot = strrchr (base, '.');
  name = dot != NULL && dot != base ? g_strndup (base, (gsize) (dot - base)) : g_strdup (base);
  if (ngen && g_str_has_suffix (name, ".ni") && strlen (name) > 3)
    name[strlen (name) - 3] = '\0';
  return name;
}

void
et_symbols_add_module (EtSymbols *symbols, guint32 pid, guint64 module_id, const char *il_path,
                       const char *native_path)
{
  g_autofree char *name = NULL;
  ModuleKey *key;

  g_return_if_fail (symbols != NULL && il_path != NULL);
  if (*il_path == '\0')
    return;
  name = module_name (il_path, native_path != NULL && strcmp (il_path, native_path) == 0);
  key = g_new (ModuleKey, 1);
  key->pid = pid;
  key->module_id = module_id;
  g_hash_table_replace (symbols->modules, key, g_string_chunk_insert_const (symbols->strings, name));
}

void
et_symbols_add_image (EtSymbols *symbols, guint32 pid, gint64 ns, guint64 base, guint64 size,
                      const char *file_name, gboolean unload)
{
  const char *leaf = file_name != NULL ? file_name : "";
  Range r = { 0 };

  g_return_if_fail (symbols != NULL && !symbols->finished);
  if (size == 0)
    return;
  for (const char *p = leaf; *p != '\0'; p++)
    if (*p == '\\' || *p == '/')
      leaf = p + 1;
  r.start = base;
  r.end = base + size < base ? G_MAXUINT64 : base + size;
  r.pid = pid;
  r.text = g_string_chunk_insert_const (symbols->strings, *leaf != '\0' ? leaf : "?");
  /* A load at the rundown (ns G_MININT64) lived from before the trace. */
  take_event (&symbols->images, unload ? ET_METHOD_UNLOAD : ET_METHOD_LOAD, &r, ns);
}

/* The next NUL-terminated UTF-16 string of @p (@len bytes) from *@at:
 * where it starts and its units; *@at moves past it. */
static const guint8 *
next_utf16 (const guint8 *p, gsize len, gsize *at, gsize *units)
{
  const guint8 *start = p + MIN (*at, len);

  *units = 0;
  while (*at + 1 < len && et_read_u16 (p + *at) != 0)
    *at += 2, (*units)++;
  *at += 2;
  return start;
}

/* TraceLog.GetFullName: namespace "." name, and the signature's argument
 * list from its first parenthesis (the return type before it left out). */
static void
append_method_text (GString *out, const Range *r)
{
  gsize at = 0, n_ns, n_name, n_sig, paren;
  const guint8 *ns = next_utf16 (r->names, r->names_len, &at, &n_ns);
  const guint8 *name = next_utf16 (r->names, r->names_len, &at, &n_name);
  const guint8 *sig = next_utf16 (r->names, r->names_len, &at, &n_sig);

  et_utf16_append (out, ns, n_ns);
  g_string_append_c (out, '.');
  et_utf16_append (out, name, n_name);
  for (paren = 0; paren < n_sig && et_read_u16 (sig + 2 * paren) != '('; paren++)
    ;
  if (paren < n_sig)
    et_utf16_append (out, sig + 2 * paren, n_sig - paren);
}

static int
compare_ranges (gconstpointer a, gconstpointer b)
{
  const Range *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static gboolean
times_overlap (const Range *a, const Range *b)
{
  return a->from < b->to && b->from < a->to;
}

/* Two ranges over the same addresses at the same time. One known only
 * from a rundown (alive from before the trace) that meets one that was
 * unloaded in it began after that unload: the runtime reused the address.
 * Otherwise the trace contradicts itself; both are kept. */
static gboolean
settle_overlap (Range *earlier, Range *later)
{
  if (later->from == G_MININT64 && earlier->to != G_MAXINT64)
    {
      later->from = earlier->to;
      return TRUE;
    }
  if (earlier->from == G_MININT64 && later->to != G_MAXINT64)
    {
      earlier->from = later->to;
      return TRUE;
    }
  return FALSE;
}

static void
report_overlap (const Range *e, const Range *r, EtSymbolsDamageFunc damage, gpointer data)
{
  g_autoptr(GString) what = g_string_new (NULL);

  g_string_printf (what, "method range 0x%" G_GINT64_MODIFIER "x+0x%" G_GINT64_MODIFIER "x (",
                   r->start, r->end - r->start);
  append_method_text (what, r);
  g_string_append (what, ") overlaps that of ");
  append_method_text (what, e);
  g_string_append (what, " at the same time");
  damage (MAX (r->offset, e->offset), what->str, data);
}

static void
table_finish (Table *t, gboolean report, EtSymbolsDamageFunc damage, gpointer data)
{
  const guint64 *reach;
  Range *r;
  guint n = t->ranges->len;

  g_array_sort (t->ranges, compare_ranges);
  g_hash_table_remove_all (t->open);
  r = (Range *) (gpointer) t->ranges->data;
  g_array_set_size (t->reach, n);
  for (guint i = 0; i < n; i++)
    {
      guint64 before = i > 0 && r[i - 1].pid == r[i].pid
                       ? g_array_index (t->reach, guint64, i - 1) : 0;

      g_array_index (t->reach, guint64, i) = MAX (before, r[i].end);
    }
  reach = (const guint64 *) (gconstpointer) t->reach->data;
  /* Only ranges an earlier one reaches into can overlap: the walk back
   * stops where nothing before reaches this start. */
  for (guint i = 0; i < n; i++)
    for (guint j = i; j > 0 && i - j < MAX_WALK; j--)
      {
        Range *e = &r[j - 1];

        if (e->pid != r[i].pid || reach[j - 1] <= r[i].start)
          break;
        if (e->end <= r[i].start || !times_overlap (e, &r[i]) || settle_overlap (e, &r[i]))
          continue;
        if (report && damage != NULL)
          report_overlap (e, &r[i], damage, data);
        break;
      }
}

void
et_symbols_finish (EtSymbols *symbols, EtSymbolsDamageFunc damage, gpointer data)
{
  g_return_if_fail (symbols != NULL && !symbols->finished);
  table_finish (&symbols->methods, TRUE, damage, data);
  table_finish (&symbols->images, FALSE, NULL, NULL);
  symbols->finished = TRUE;
}

/* The index after the last range of @pid starting at or before @address. */
static guint
upper_bound (const Table *t, guint32 pid, guint64 address)
{
  const Range *r = (const Range *) (gconstpointer) t->ranges->data;
  guint lo = 0, hi = t->ranges->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r[mid].pid < pid || (r[mid].pid == pid && r[mid].start <= address))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The range of @t covering @address at @ns (the latest loaded when several
 * do: a damaged trace's), or NULL; *n_covering counts those covering it at
 * any time. */
static const Range *
find (const Table *t, guint32 pid, guint64 address, gint64 ns, guint *n_covering)
{
  const Range *r = (const Range *) (gconstpointer) t->ranges->data;
  const guint64 *reach = (const guint64 *) (gconstpointer) t->reach->data;
  const Range *best = NULL;
  guint i = upper_bound (t, pid, address), walked = 0;

  *n_covering = 0;
  for (; i > 0 && walked < MAX_WALK; i--, walked++)
    {
      const Range *c = &r[i - 1];

      if (c->pid != pid || reach[i - 1] <= address)
        break;
      if (address >= c->end)
        continue;
      (*n_covering)++;
      if ((ns == ET_SYMBOLS_ANY_TIME || (c->from <= ns && ns < c->to))
          && (best == NULL || c->from > best->from))
        best = c;
    }
  return best;
}

EtSymbolHit
et_symbols_lookup (const EtSymbols *symbols, guint32 pid, guint64 address, gint64 ns)
{
  EtSymbolHit hit = { ET_SYMBOL_NONE, 0, 0, 0 };
  const Range *r;
  guint n;

  g_return_val_if_fail (symbols != NULL && symbols->finished, hit);
  r = find (&symbols->methods, pid, address, ns, &n);
  if (r != NULL)
    {
      hit.kind = ET_SYMBOL_MANAGED;
      hit.method = (guint32) (r - (const Range *) (gconstpointer) symbols->methods.ranges->data);
    }
  else
    {
      /* Kernel images are process 0's and serve every process. */
      r = find (&symbols->images, pid, address, ns, &n);
      if (r == NULL && pid != 0)
        r = find (&symbols->images, 0, address, ns, &n);
      if (r != NULL)
        hit.kind = ET_SYMBOL_IMAGE;
    }
  if (r != NULL)
    {
      hit.start = r->start;
      hit.size = r->end - r->start;
      hit.method = hit.kind == ET_SYMBOL_IMAGE
                   ? (guint32) (r - (const Range *) (gconstpointer) symbols->images.ranges->data)
                   : hit.method;
    }
  return hit;
}

void
et_symbols_append_name (const EtSymbols *symbols, const EtSymbolHit *hit, guint64 address,
                        GString *out)
{
  const Range *r;

  switch (hit->kind)
    {
    case ET_SYMBOL_MANAGED:
      {
        ModuleKey key;
        const char *module;

        r = &g_array_index (symbols->methods.ranges, Range, hit->method);
        key.pid = r->pid;
        key.module_id = r->module_id;
        module = g_hash_table_lookup (symbols->modules, &key);
        /* a module no event named: TraceLog's placeholder file name */
        g_string_append (out, module != NULL ? module : "ManagedModule");
        g_string_append_c (out, '!');
        append_method_text (out, r);
      }
      break;
    case ET_SYMBOL_IMAGE:
      r = &g_array_index (symbols->images.ranges, Range, hit->method);
      g_string_append_printf (out, "%s+0x%" G_GINT64_MODIFIER "x", r->text, address - r->start);
      break;
    case ET_SYMBOL_NONE:
    default:
      g_string_append_printf (out, "?!0x%" G_GINT64_MODIFIER "x", address);
      break;
    }
}

gboolean
et_symbols_ambiguous (const EtSymbols *symbols, guint32 pid, guint64 address)
{
  guint n_methods, n_images, n_kernel = 0;

  find (&symbols->methods, pid, address, 0, &n_methods);
  find (&symbols->images, pid, address, 0, &n_images);
  if (pid != 0)
    find (&symbols->images, 0, address, 0, &n_kernel);
  return n_methods > 1 || (n_methods == 0 && (n_images > 1 || (n_images == 0 && n_kernel > 1)));
}

guint
et_symbols_n_methods (const EtSymbols *symbols)
{
  return symbols->methods.ranges->len;
}
