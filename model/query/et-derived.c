/* et-derived.c — derived fields: the mechanism, and the .NET runtime's.
 *
 *   et_trace_decode_event ─ _et_derived_append ─ rule (family, id) ─ fields
 *                                                   └ index (built once)
 *
 * The runtime's values, as PerfView shows them:
 * - GC/HeapStats: TotalHeapSize and TotalPromoted, the sums of the
 *   GenerationSize* and TotalPromotedSize* fields the payload has; Depth,
 *   the generation of the GC it reports on — the Depth of its process's
 *   latest GC/Start. (TraceEvent guesses it from which promoted size is
 *   not zero, which its own comment says can understate it.)
 * - Loader module events: ModuleILFileName, ModuleILPath's file name.
 * - Method load and unload events (and the rundown's): OptimizationTier,
 *   bits 7–9 of MethodFlags where the method was jitted, else Unknown.
 * - GC/FinalizeObject: TypeName, the name its process's Type/BulkType
 *   events give the TypeID — the latest before it, else the first after:
 *   the runtime logs a type just after the event that first needs it.
 */
#include "et-derived-private.h"

#include <string.h>

/* ---- families ------------------------------------------------------------ */

static const struct
{
  const char *guid;
  EtFamily    family;
} family_guids[] = {
  { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", ET_FAM_CLR },
  { "a669021c-c450-4609-a035-5af59af4df18", ET_FAM_CLR_RUNDOWN },
  { "68fdd900-4a3e-11d1-84f4-0000f80464e3", ET_FAM_HEADER },
  { "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", ET_FAM_THREAD },
  { "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", ET_FAM_IMAGE },
  { "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", ET_FAM_PERFINFO },
  { "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", ET_FAM_DISK },
  { "90cbdc39-4a3e-11d1-84f4-0000f80464e3", ET_FAM_FILE },
  { "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", ET_FAM_MEMORY },
  { "01853a65-418f-4f36-aefc-dc0f1d2fd235", ET_FAM_CONFIG },
  { "b3e675d7-2554-4f18-830b-2762732560de", ET_FAM_KTC_IMAGE_ID },
  { "9b79ee91-b5fd-41c0-a243-4248e266e9d0", ET_FAM_KTC_SYSCONFIG },
  { "edd08927-9cc4-4e65-b970-c2560fb5c289", ET_FAM_KERNEL_FILE },
};

static EtFamily
family_of (const EtGuid *guid)
{
  for (guint i = 0; i < G_N_ELEMENTS (family_guids); i++)
    {
      EtGuid known;

      if (et_guid_parse (family_guids[i].guid, &known) && et_guid_equal (&known, guid))
        return family_guids[i].family;
    }
  return ET_FAM_NONE;
}

static EtDerived *
state_of (EtTrace *trace)
{
  if (g_once_init_enter (&trace->derived))
    {
      EtDerived *d = g_new0 (EtDerived, 1);

      d->n_providers = trace->providers->len;
      d->family = g_new0 (guint8, MAX (d->n_providers, 1));
      for (guint i = 0; i < d->n_providers; i++)
        d->family[i] = (guint8) family_of (&g_array_index (trace->providers, EtProviderEntry,
                                                           i).pub.guid);
      trace->derived_free = (GDestroyNotify) _et_derived_free;
      g_once_init_leave (&trace->derived, d);
    }
  return trace->derived;
}

void
_et_derived_free (EtDerived *state)
{
  if (state == NULL)
    return;
  g_free (state->family);
  g_clear_pointer (&state->gc_depths, _et_history_free);
  g_clear_pointer (&state->type_names, _et_history_free);
  _et_derived_kernel_clear (state);
  g_free (state);
}

/* ---- histories ------------------------------------------------------------ */

typedef struct
{
  guint64 a, b;
} EtHistKey;

static guint
hist_key_hash (gconstpointer p)
{
  const EtHistKey *k = p;

  return (guint) (k->a ^ (k->a >> 32) ^ (k->b * 0x9e3779b1u));
}

static gboolean
hist_key_equal (gconstpointer x, gconstpointer y)
{
  const EtHistKey *a = x, *b = y;

  return a->a == b->a && a->b == b->b;
}

EtHistory *
_et_history_new (void)
{
  EtHistory *h = g_new0 (EtHistory, 1);

  h->keys = g_hash_table_new_full (hist_key_hash, hist_key_equal, g_free,
                                   (GDestroyNotify) g_array_unref);
  h->text = g_string_new (NULL);
  return h;
}

void
_et_history_free (EtHistory *h)
{
  if (h == NULL)
    return;
  g_hash_table_unref (h->keys);
  g_string_free (h->text, TRUE);
  g_free (h);
}

void
_et_history_add (EtHistory *h, guint64 a, guint64 b, guint64 index, guint64 value,
                 gboolean rundown)
{
  EtHistKey key = { a, b };
  GArray *entries = g_hash_table_lookup (h->keys, &key);
  EtHistEntry e = { index, value };

  if (entries == NULL)
    {
      entries = g_array_new (FALSE, FALSE, sizeof (EtHistEntry));
      g_hash_table_insert (h->keys, g_memdup2 (&key, sizeof key), entries);
      if (rundown)
        e.index = 0;
    }
  /* Walks go in event order, so each key's entries stay sorted. */
  g_array_append_val (entries, e);
}

void
_et_history_add_text (EtHistory *h, guint64 a, guint64 b, guint64 index, const char *text,
                      gsize len, gboolean rundown)
{
  guint64 offset = h->text->len;

  g_string_append_len (h->text, text, (gssize) len);
  g_string_append_c (h->text, '\0');
  _et_history_add (h, a, b, index, offset, rundown);
}

gboolean
_et_history_at (const EtHistory *h, guint64 a, guint64 b, guint64 index, gboolean or_next,
                guint64 *value)
{
  EtHistKey key = { a, b };
  GArray *entries = h != NULL ? g_hash_table_lookup (h->keys, &key) : NULL;
  guint lo = 0, hi;

  if (entries == NULL || entries->len == 0)
    return FALSE;
  /* The first entry set after @index. */
  hi = entries->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (entries, EtHistEntry, mid).index <= index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 && !or_next)
    return FALSE;
  *value = g_array_index (entries, EtHistEntry, lo == 0 ? 0 : lo - 1).value;
  return TRUE;
}

/* ---- appending ------------------------------------------------------------ */

static guint
mark (EtDeriveCtx *ctx, guint index, guint8 in_type)
{
  EtField *f = et_fields_entry (ctx->fields, index);

  f->derived = TRUE;
  f->in_type = in_type;
  return index;
}

guint
_et_derived_add_uint (EtDeriveCtx *ctx, const char *name, guint8 in_type, guint64 value)
{
  return mark (ctx, et_fields_add_uint (ctx->fields, name, value), in_type);
}

guint
_et_derived_add_int (EtDeriveCtx *ctx, const char *name, guint8 in_type, gint64 value)
{
  return mark (ctx, et_fields_add_int (ctx->fields, name, value), in_type);
}

guint
_et_derived_add_double (EtDeriveCtx *ctx, const char *name, double value)
{
  return mark (ctx, et_fields_add_float (ctx->fields, name, value), ET_MAN_IN_DOUBLE);
}

guint
_et_derived_add_bool (EtDeriveCtx *ctx, const char *name, gboolean value)
{
  return mark (ctx, et_fields_add_bool (ctx->fields, name, value), ET_MAN_IN_BOOLEAN);
}

guint
_et_derived_add_text (EtDeriveCtx *ctx, const char *name, const char *text)
{
  return mark (ctx, et_fields_add_string (ctx->fields, name, text, strlen (text)),
               ET_MAN_IN_UNICODE_STRING);
}

/* Seconds from 1601 to 1970. */
#define UNIX_EPOCH_SECONDS G_GINT64_CONSTANT (11644473600)

guint
_et_derived_add_unix_time (EtDeriveCtx *ctx, const char *name, guint32 seconds)
{
  guint i = et_fields_add (ctx->fields, name, ET_VALUE_FILETIME);

  et_fields_entry (ctx->fields, i)->v.i = ((gint64) seconds + UNIX_EPOCH_SECONDS) * 10000000;
  return mark (ctx, i, ET_MAN_IN_FILETIME);
}

gboolean
_et_derived_payload_int (const EtFields *fields, const char *name, gint64 *value)
{
  gint i = et_fields_find (fields, name);

  return i >= 0 && !et_fields_get (fields, i)->derived
         && et_fields_get_integer (fields, (guint) i, value);
}

const char *
_et_derived_payload_text (const EtFields *fields, const char *name)
{
  gint i = et_fields_find (fields, name);

  if (i < 0 || et_fields_get (fields, i)->kind != ET_VALUE_STRING || et_fields_get (fields, i)->derived)
    return NULL;
  return et_fields_text (fields, (guint) i, NULL);
}

double
_et_derived_ticks_ms (EtTrace *trace, gint64 ticks)
{
  return trace->ticks_per_second > 0 ? (double) ticks * 1000.0 / (double) trace->ticks_per_second
                                     : 0.0;
}

/* ---- walking ------------------------------------------------------------- */

static gboolean
id_wanted (guint16 id, const guint16 *ids, guint n_ids)
{
  for (guint i = 0; i < n_ids; i++)
    if (ids[i] == id)
      return TRUE;
  return FALSE;
}

void
_et_derived_walk (EtTrace *trace, EtDerived *state, EtFamily family, const guint16 *ids,
                  guint n_ids, EtDeriveCollect collect, gpointer data)
{
  EtFields *fields = et_fields_new ();

  for (guint64 i = 0; i < trace->n_events; i++)
    {
      EtEventLoc loc = trace->events[i];
      EtRecord record;
      EtGuid guid;
      const char *name;
      EtProviderKind kind;
      guint provider;
      guint16 id;
      EtEvent event;

      /* A record that no longer parses (the file shrank) names nothing. */
      if (!_et_trace_record_at (trace, loc, &record))
        continue;
      _et_record_identity (&record, &guid, &name, &kind);
      provider = GPOINTER_TO_UINT (g_hash_table_lookup (trace->provider_index, &guid));
      if (provider == 0 || provider > state->n_providers || state->family[provider - 1] != family)
        continue;
      id = record.klass == ET_RECORD_EVENT || record.klass == ET_RECORD_MESSAGE
           ? record.id : record.opcode;
      if (!id_wanted (id, ids, n_ids))
        continue;
      if (_et_trace_decode_record (trace, &record, provider - 1, _et_trace_offset_of (trace, loc),
                                   NULL, &event, fields, NULL))
        collect (data, i, &event, &record, fields);
    }
  et_fields_free (fields);
}

void
_et_derived_once (EtDeriveCtx *ctx, gsize *once, void (*build) (EtDeriveCtx *ctx))
{
  if (g_once_init_enter (once))
    {
      build (ctx);
      g_once_init_leave (once, 1);
    }
}

/* ---- the runtime ---------------------------------------------------------- */

enum { CLR_GC_START = 1, CLR_HEAP_STATS = 4, CLR_BULK_TYPE = 15, CLR_FINALIZE_OBJECT = 29 };

static void
collect_gc_start (gpointer data, guint64 index, const EtEvent *event, const EtRecord *record,
                  const EtFields *fields)
{
  gint64 depth;

  if (event->has_ids && _et_derived_payload_int (fields, "Depth", &depth))
    _et_history_add (data, event->pid, 0, index, (guint64) depth, FALSE);
}

static void
build_gc_depths (EtDeriveCtx *ctx)
{
  static const guint16 ids[] = { CLR_GC_START };

  ctx->state->gc_depths = _et_history_new ();
  _et_derived_walk (ctx->trace, ctx->state, ET_FAM_CLR, ids, 1, collect_gc_start,
                    ctx->state->gc_depths);
}

/* Sums saturate: a damaged payload's sizes must not wrap. */
static gboolean
sum_fields (const EtFields *fields, const char *prefix, guint64 *sum)
{
  gboolean any = FALSE;

  *sum = 0;
  for (guint g = 0; g <= 4; g++)
    {
      char name[32];
      gint64 v;

      g_snprintf (name, sizeof name, "%s%u", prefix, g);
      if (!_et_derived_payload_int (fields, name, &v))
        continue;
      any = TRUE;
      if (__builtin_add_overflow (*sum, (guint64) v, sum))
        *sum = G_MAXUINT64;
    }
  return any;
}

static void
derive_heap_stats (EtDeriveCtx *ctx)
{
  guint64 heap, promoted, depth;

  if (sum_fields (ctx->fields, "GenerationSize", &heap))
    _et_derived_add_uint (ctx, "TotalHeapSize", ET_MAN_IN_UINT64, heap);
  if (sum_fields (ctx->fields, "TotalPromotedSize", &promoted))
    _et_derived_add_uint (ctx, "TotalPromoted", ET_MAN_IN_UINT64, promoted);
  if (!ctx->event->has_ids)
    return;
  _et_derived_once (ctx, &ctx->state->gc_once, build_gc_depths);
  if (_et_history_at (ctx->state->gc_depths, ctx->event->pid, 0, ctx->index, FALSE, &depth))
    _et_derived_add_uint (ctx, "Depth", ET_MAN_IN_UINT32, depth);
}

static void
derive_module_file_name (EtDeriveCtx *ctx)
{
  const char *path = _et_derived_payload_text (ctx->fields, "ModuleILPath");
  g_autofree char *name = NULL;
  const char *base;

  if (path == NULL)
    return;
  base = path;
  for (const char *p = path; *p != '\0'; p++)
    if (*p == '\\' || *p == '/')
      base = p + 1;
  /* A copy: adding a field may move the text @path points into. */
  name = g_strdup (base);
  _et_derived_add_text (ctx, "ModuleILFileName", name);
}

/* The runtime packs a jitted method's optimization tier into bits 7–9 of
 * MethodFlags (.NET Core 3 and later; 0 before): PerfView's names. */
static const char *const optimization_tiers[] = {
  "Unknown", "MinOptJitted", "Optimized", "QuickJitted", "OptimizedTier1",
  "OptimizedTier1OSR", "QuickJittedInstrumented", "OptimizedTier1Instrumented",
};

#define METHOD_FLAG_JITTED 0x8

static void
derive_optimization_tier (EtDeriveCtx *ctx)
{
  gint64 flags;

  if (!_et_derived_payload_int (ctx->fields, "MethodFlags", &flags))
    return;
  /* Code not jitted (NGen, ReadyToRun) carries no tier. */
  _et_derived_add_text (ctx, "OptimizationTier",
                        flags & METHOD_FLAG_JITTED ? optimization_tiers[(flags >> 7) & 0x7]
                                                   : optimization_tiers[0]);
}

/* Each element of BulkType's Values names one TypeID. */
static void
collect_bulk_type (gpointer data, guint64 index, const EtEvent *event, const EtRecord *record,
                   const EtFields *fields)
{
  gint values = et_fields_find (fields, "Values");
  guint end;

  if (values < 0 || !event->has_ids || et_fields_get (fields, values)->kind != ET_VALUE_ARRAY)
    return;
  end = (guint) values + 1 + et_fields_get (fields, values)->n_desc;
  for (guint e = (guint) values + 1; e < end; e = et_fields_next (fields, e))
    {
      guint members = e + 1 + et_fields_get (fields, e)->n_desc;
      gint64 type_id = 0;
      const char *name = NULL;
      gboolean has_id = FALSE;

      for (guint m = e + 1; m < members; m = et_fields_next (fields, m))
        if (strcmp (et_fields_get (fields, m)->name, "TypeID") == 0)
          has_id = et_fields_get_integer (fields, m, &type_id);
        else if (strcmp (et_fields_get (fields, m)->name, "Name") == 0)
          name = et_fields_text (fields, m, NULL);
      if (has_id && name != NULL)
        _et_history_add_text (data, (guint64) type_id, event->pid, index, name, strlen (name),
                              FALSE);
    }
}

static void
build_type_names (EtDeriveCtx *ctx)
{
  static const guint16 ids[] = { CLR_BULK_TYPE };

  ctx->state->type_names = _et_history_new ();
  _et_derived_walk (ctx->trace, ctx->state, ET_FAM_CLR, ids, 1, collect_bulk_type,
                    ctx->state->type_names);
}

static void
derive_finalized_type (EtDeriveCtx *ctx)
{
  gint64 type_id;
  guint64 offset;

  if (!ctx->event->has_ids || !_et_derived_payload_int (ctx->fields, "TypeID", &type_id))
    return;
  _et_derived_once (ctx, &ctx->state->types_once, build_type_names);
  if (_et_history_at (ctx->state->type_names, (guint64) type_id, ctx->event->pid, ctx->index,
                      TRUE, &offset))
    _et_derived_add_text (ctx, "TypeName", ctx->state->type_names->text->str + offset);
}

static const EtDeriveRule runtime_rules[] = {
  { ET_FAM_CLR, CLR_HEAP_STATS, derive_heap_stats },
  { ET_FAM_CLR, CLR_FINALIZE_OBJECT, derive_finalized_type },
  /* ModuleDCStart, ModuleDCStop, ModuleLoad, ModuleUnload. */
  { ET_FAM_CLR, 149, derive_module_file_name }, { ET_FAM_CLR, 150, derive_module_file_name },
  { ET_FAM_CLR, 152, derive_module_file_name }, { ET_FAM_CLR, 153, derive_module_file_name },
  { ET_FAM_CLR_RUNDOWN, 153, derive_module_file_name },
  { ET_FAM_CLR_RUNDOWN, 154, derive_module_file_name },
  /* MethodLoad, MethodUnload and their Verbose kinds; the rundown's
   * DCStart and DCStop (Verbose) methods. */
  { ET_FAM_CLR, 141, derive_optimization_tier }, { ET_FAM_CLR, 142, derive_optimization_tier },
  { ET_FAM_CLR, 143, derive_optimization_tier }, { ET_FAM_CLR, 144, derive_optimization_tier },
  { ET_FAM_CLR_RUNDOWN, 141, derive_optimization_tier },
  { ET_FAM_CLR_RUNDOWN, 142, derive_optimization_tier },
  { ET_FAM_CLR_RUNDOWN, 143, derive_optimization_tier },
  { ET_FAM_CLR_RUNDOWN, 144, derive_optimization_tier },
};

/* ---- the hook ------------------------------------------------------------- */

static void
apply_rules (EtDeriveCtx *ctx, guint8 family, const EtDeriveRule *rules, guint n_rules,
             gboolean *parsed, EtRecord *record)
{
  for (guint i = 0; i < n_rules; i++)
    {
      if (rules[i].family != family || rules[i].id != ctx->event->id)
        continue;
      if (!*parsed && !_et_trace_record_at (ctx->trace, ctx->trace->events[ctx->index], record))
        return;
      *parsed = TRUE;
      rules[i].derive (ctx);
    }
}

void
_et_derived_append (EtTrace *trace, guint64 index, const EtEvent *event, EtFields *fields)
{
  EtDerived *state = state_of (trace);
  EtRecord record;
  gboolean parsed = FALSE;
  EtDeriveCtx ctx = { trace, state, index, event, &record, fields };
  guint8 family;

  /* Values from a payload that did not decode would be guesses; a
   * container left open would take them in. */
  if (event->decode_failed || fields->n_open > 0 || event->provider >= state->n_providers
      || (family = state->family[event->provider]) == ET_FAM_NONE)
    return;
  apply_rules (&ctx, family, runtime_rules, G_N_ELEMENTS (runtime_rules), &parsed, &record);
  apply_rules (&ctx, family, _et_derived_kernel_rules, _et_derived_kernel_n_rules, &parsed,
               &record);
}
