/* conformance-markers.c — markers of the real corpus, checked against the
 * rules of docs/markers.md worked out here, independently of
 * et-marker-rules.c.
 *
 * Compiled into test-conformance.c (#include) after conformance-check.c.
 *
 * Which providers must give markers comes from the expected JSON (its
 * TraceLogging providers and EventSource manifests), and the series of an
 * EventSource event is the task its expected manifest names. For every
 * event of those providers the suite decides flag / message / span start /
 * span end, importance and category, then requires that exactly one marker
 * (or, for a span end, one span or lone end) accounts for it.
 */

#define MANIFEST_EVENT_ID 0xFFFE

/* The corpus has no cv* fields; the rules below leave them out, so an event
 * carrying one must be noticed rather than judged by the wrong rule. */
static const char *const cv_fields[] = {
  "cvType", "cvImportance", "cvSeries", "cvCategory", "cvTextW", "cvSpanId",
};

static const char *
role_name (guint role)
{
  switch (role)
    {
    case ET_ROLE_MESSAGE:    return "message";
    case ET_ROLE_SPAN_START: return "span start";
    case ET_ROLE_SPAN_END:   return "span end";
    case ET_ROLE_FLAG:       return "flag";
    default:                 return "?";
    }
}

/* markers.md, "Marker kind" 2 and 3. */
static EtMarkerRole
rule_role (guint8 opcode, guint8 level)
{
  if (opcode == 1)
    return ET_ROLE_SPAN_START;
  if (opcode == 2)
    return ET_ROLE_SPAN_END;
  return level >= 5 ? ET_ROLE_MESSAGE : ET_ROLE_FLAG;
}

/* markers.md, "Importance", from Level. */
static EtImportance
rule_importance (guint8 level)
{
  switch (level)
    {
    case 0:  return ET_IMPORTANCE_NORMAL;
    case 1:  return ET_IMPORTANCE_CRITICAL;
    case 2:  return ET_IMPORTANCE_CRITICAL;
    case 3:  return ET_IMPORTANCE_HIGH;
    case 4:  return ET_IMPORTANCE_NORMAL;
    default: return ET_IMPORTANCE_LOW;
    }
}

/* markers.md, "Category": Alert for Level 1 and 2. */
static gint16
rule_category (guint8 level)
{
  return level == 1 || level == 2 ? ET_CATEGORY_ALERT : 0;
}

/* Issue 20: the .NET runtime's own activities are markers of the "CLR"
 * group, on by default when the trace has the runtime's provider. Worked
 * out here from the mapping model/README.md states ("The runtime on the
 * timeline"), not from et-builtin-rules.c: event id → role, importance,
 * category, series. Every other event of the runtime makes no marker. */
#define RUNTIME_GUID "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"

static const struct
{
  guint16     id;
  guint8      role;
  guint8      importance;
  gint16      category;
  const char *series;
} clr_wants[] = {
  { 1, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "GC" },          /* GC/Start */
  { 2, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "GC" },            /* GC/Stop */
  { 9, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "Suspension" },  /* GC/SuspendEEStart */
  { 3, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "Suspension" },    /* GC/RestartEEStop */
  { 80, ET_ROLE_FLAG, ET_IMPORTANCE_CRITICAL, ET_CATEGORY_ALERT, "Exceptions" },
  { 145, ET_ROLE_SPAN_START, ET_IMPORTANCE_LOW, 0, "JIT" },          /* Method/JittingStarted */
  { 143, ET_ROLE_SPAN_END, ET_IMPORTANCE_LOW, 0, "JIT" },            /* Method/LoadVerbose */
  { 81, ET_ROLE_SPAN_START, ET_IMPORTANCE_NORMAL, 0, "Contention" },
  { 91, ET_ROLE_SPAN_END, ET_IMPORTANCE_NORMAL, 0, "Contention" },
  { 54, ET_ROLE_MESSAGE, ET_IMPORTANCE_LOW, 0, "Thread pool" },
  { 55, ET_ROLE_MESSAGE, ET_IMPORTANCE_NORMAL, 0, "Thread pool" },
  { 56, ET_ROLE_MESSAGE, ET_IMPORTANCE_LOW, 0, "Thread pool" },
};

static gboolean
field_value (const EtFields *fields, const char *name, gint64 *value)
{
  gint i = et_fields_find (fields, name);

  return i >= 0 && et_fields_get_integer (fields, (guint) i, value);
}

/* Whether a runtime event is a marker, and which (in @w). A LoadVerbose
 * of a method that was not jitted ends nothing; a GC/Start repeating the
 * Count of the GC its process has open is the same GC written again
 * (version 1 and 2 of the event) and makes no marker. */
static gboolean
want_clr_marker (Case *cs, const EtEvent *ev, const EtFields *fields, MarkerWant *w)
{
  gint64 count = -1, flags = 0;
  gpointer key = GUINT_TO_POINTER (ev->pid);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (clr_wants) && clr_wants[i].id != ev->id; i++)
    ;
  if (i == G_N_ELEMENTS (clr_wants))
    return FALSE;
  if (ev->id == 143 && !(field_value (fields, "MethodFlags", &flags) && (flags & 8)))
    return FALSE;
  if (cs->open_gc == NULL)
    cs->open_gc = g_hash_table_new (NULL, NULL);
  if ((ev->id == 1 || ev->id == 2) && field_value (fields, "Count", &count))
    {
      gboolean repeat = GPOINTER_TO_SIZE (g_hash_table_lookup (cs->open_gc, key))
                        == (gsize) count + 1;

      if (ev->id == 1 && repeat)
        return FALSE;
      if (ev->id == 1)
        g_hash_table_insert (cs->open_gc, key, GSIZE_TO_POINTER ((gsize) count + 1));
      else if (repeat)
        g_hash_table_remove (cs->open_gc, key);
    }
  w->role = clr_wants[i].role;
  w->importance = clr_wants[i].importance;
  w->category = clr_wants[i].category;
  w->series = clr_wants[i].series;
  return TRUE;
}

static void
mark_marker_source (Case *cs, const char *guid)
{
  gint index = find_provider (cs->trace, guid);

  if (index >= 0)
    cs->marker_source[index] = 1;
}

static void
read_manifest_tasks (Case *cs, const char *guid, JsonObject *manifest)
{
  JsonArray *events = want_array (cs, manifest, "eventsource_manifests", "events");

  for (guint i = 0; events != NULL && i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *value = NULL;
      JsonNode *task;

      if (e == NULL || !want_string (cs, e, "eventsource_manifests.events", "value", &value))
        continue;
      task = json_object_get_member (e, "task");
      g_hash_table_replace (cs->task_names, g_strdup_printf ("%s/%s", guid, value),
                            (gpointer) (task != NULL && JSON_NODE_HOLDS_VALUE (task)
                                        ? json_node_get_string (task) : ""));
    }
}

/* Which providers must give markers, and the task names of their events.
 * Also checks that exactly those are on by default. */
static void
plan_markers (Case *cs)
{
  /* Both were required (and reported if missing) by the provider checks. */
  JsonNode *tl_node = json_object_get_member (cs->expected, "tracelogging_providers");
  JsonNode *es_node = json_object_get_member (cs->expected, "eventsource_manifests");
  JsonObject *tl = tl_node != NULL && JSON_NODE_HOLDS_OBJECT (tl_node)
                   ? json_node_get_object (tl_node) : NULL;
  JsonArray *manifests = es_node != NULL && JSON_NODE_HOLDS_ARRAY (es_node)
                         ? json_node_get_array (es_node) : NULL;
  g_autoptr(GList) keys = tl != NULL ? json_object_get_members (tl) : NULL;

  cs->marker_source = g_new0 (guint8, et_trace_get_n_providers (cs->trace));
  cs->task_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cs->marker_wants = g_array_new (FALSE, FALSE, sizeof (MarkerWant));
  for (GList *l = keys; l != NULL; l = l->next)
    mark_marker_source (cs, l->data);
  mark_marker_source (cs, RUNTIME_GUID);
  for (guint i = 0; manifests != NULL && i < json_array_get_length (manifests); i++)
    {
      JsonObject *m = json_array_get_object_element (manifests, i);
      const char *guid = NULL;

      if (m == NULL || !want_string (cs, m, "eventsource_manifests", "provider_guid", &guid))
        continue;
      mark_marker_source (cs, guid);
      read_manifest_tasks (cs, guid, m);
    }
  for (guint i = 0; i < et_trace_get_n_providers (cs->trace); i++)
    {
      const EtProvider *p = et_trace_get_provider (cs->trace, i);
      char guid[ET_GUID_STRING_LEN];

      et_guid_to_string (&p->guid, guid);
      if (p->default_on != (cs->marker_source[i] != 0))
        mismatch (cs, "default_on", "expected provider %s (%s) %s by default, actual %s", guid,
                  p->name, cs->marker_source[i] ? "on" : "off", p->default_on ? "on" : "off");
    }
}

/* Called by scan_events () for every event of a marker provider. */
static void
want_marker (Case *cs, guint64 index, const EtEvent *ev, const EtFields *fields,
             gboolean decoded)
{
  const EtProvider *p = et_trace_get_provider (cs->trace, ev->provider);
  char guid[ET_GUID_STRING_LEN];
  g_autofree char *key = NULL;
  const char *series = "";
  MarkerWant w = { 0 };

  et_guid_to_string (&p->guid, guid);
  if (ev->id == MANIFEST_EVENT_ID && p->kind == ET_PROVIDER_EVENTSOURCE)
    return;   /* the manifest itself is not a marker */
  key = g_strdup_printf ("event %" G_GUINT64_FORMAT " (%s id %u)", index, p->name, ev->id);
  if (strcmp (guid, RUNTIME_GUID) == 0)
    {
      w.event = index;
      w.pid = ev->pid;
      w.tid = ev->tid;
      w.provider = ev->provider;
      if (!want_clr_marker (cs, ev, fields, &w))
        return;
      if (!decoded || ev->decode_failed)
        mismatch (cs, key, "expected it to decode with the runtime's built-in schema, "
                  "actual: it did not");
      g_array_append_val (cs->marker_wants, w);
      return;
    }
  if (!decoded || ev->decode_failed)
    mismatch (cs, key, "expected it to decode with its %s schema, actual: it did not",
              et_provider_kind_to_string (p->kind));
  for (guint i = 0; i < G_N_ELEMENTS (cv_fields); i++)
    if (et_fields_find (fields, cv_fields[i]) >= 0)
      mismatch (cs, key, "carries %s, which this suite's marker rules do not cover yet",
                cv_fields[i]);
  if (p->kind == ET_PROVIDER_EVENTSOURCE)
    {
      g_autofree char *task_key = g_strdup_printf ("%s/%u", guid, ev->id);
      const char *task = g_hash_table_lookup (cs->task_names, task_key);

      if (task == NULL)
        mismatch (cs, key, "expected the event id in the provider's manifest, actual: not there");
      series = task != NULL ? task : "";
      if (series[0] != '\0')
        expect_str (cs, key, series, ev->task_name);
    }
  w.event = index;
  w.pid = ev->pid;
  w.tid = ev->tid;
  w.provider = ev->provider;
  w.role = rule_role (ev->opcode, ev->level);
  w.importance = rule_importance (ev->level);
  w.category = rule_category (ev->level);
  w.series = series;
  g_array_append_val (cs->marker_wants, w);
}

static int
compare_want_event (const void *key, const void *item)
{
  guint64 a = *(const guint64 *) key;
  guint64 b = ((const MarkerWant *) item)->event;

  return a < b ? -1 : a > b;
}

static MarkerWant *
find_want (Case *cs, guint64 event)
{
  return bsearch (&event, cs->marker_wants->data, cs->marker_wants->len, sizeof (MarkerWant),
                  compare_want_event);
}

/* The event a marker stands for must be wanted in that role; counts it. */
static MarkerWant *
account (Case *cs, const char *key, guint32 event, EtMarkerRole role, guint *got)
{
  MarkerWant *w = event != ET_NO_INDEX ? find_want (cs, event) : NULL;

  if (w == NULL)
    {
      mismatch (cs, key, "expected no marker, actual one for event %u", event);
      return NULL;
    }
  if (w->role != role)
    mismatch (cs, key, "expected event %u to be a %s, actual a %s", event, role_name (w->role),
              role_name (role));
  w->seen++;
  got[role]++;
  return w;
}

static void
check_look (Case *cs, const char *key, const EtMarker *m, const MarkerWant *w,
            const EtThread *thread)
{
  if (m->importance != w->importance)
    mismatch (cs, key, "expected importance %s, actual %s",
              et_importance_to_string (w->importance), et_importance_to_string (m->importance));
  if (m->category != w->category)
    mismatch (cs, key, "expected category %d, actual %d", w->category, m->category);
  expect_str (cs, key, w->series, et_trace_get_string (cs->trace,
                                                       et_trace_marker_series (cs->trace, m)));
  if (thread->pid != w->pid || thread->tid != w->tid)
    mismatch (cs, key, "expected on thread %u/%u, actual on %u/%u", w->pid, w->tid,
              thread->pid, thread->tid);
}

static void
check_span (Case *cs, const char *key, const EtMarker *m, const EtThread *thread, guint *got)
{
  const MarkerWant *start, *end;

  if (m->status == ET_SPAN_UNMATCHED_END)
    {
      /* A lone end: its own event is the end (in end_event if set, else event). */
      account (cs, key, m->end_event != ET_NO_INDEX ? m->end_event : m->event,
               ET_ROLE_SPAN_END, got);
      return;
    }
  start = account (cs, key, m->event, ET_ROLE_SPAN_START, got);
  if (start != NULL)
    check_look (cs, key, m, start, thread);
  if (m->end_event == ET_NO_INDEX)
    {
      gint64 end_of_trace = MAX (et_trace_get_duration_ns (cs->trace), m->start_ns);

      if (m->status != ET_SPAN_UNMATCHED_START)
        mismatch (cs, key, "expected an end event or status unmatched_start, actual status %s",
                  et_span_status_to_string (m->status));
      else if (m->end_ns != end_of_trace)
        mismatch (cs, key, "expected an open span drawn to the end of the trace (%"
                  G_GINT64_FORMAT " ns), actual to %" G_GINT64_FORMAT, end_of_trace, m->end_ns);
      return;
    }
  end = account (cs, key, m->end_event, ET_ROLE_SPAN_END, got);
  if (end != NULL && end->provider != m->provider)
    mismatch (cs, key, "expected the end from the same provider, actual from provider %u",
              end->provider);
  if (m->status == ET_SPAN_UNMATCHED_START)
    mismatch (cs, key, "expected no end for an unmatched start, actual end event %u",
              m->end_event);
  if (m->end_ns < m->start_ns)
    mismatch (cs, key, "expected the end at or after the start, actual %" G_GINT64_FORMAT
              " < %" G_GINT64_FORMAT, m->end_ns, m->start_ns);
}

static void
check_marker (Case *cs, const EtChannel *ch, guint k, const EtThread *thread, guint *got)
{
  const EtMarker *m = &ch->markers[k];
  const EtProvider *p = et_trace_get_provider (cs->trace, m->provider);
  g_autofree char *key = g_strdup_printf ("marker of event %u (%s, %s)", m->event, p->name,
                                          et_marker_kind_to_string (m->kind));
  const MarkerWant *w;

  cs->n_markers++;
  if (m->provider != et_channel_provider (ch) || et_trace_marker_series (cs->trace, m) != ch->series)
    mismatch (cs, key, "expected its channel's provider and series, actual another");
  if (k > 0 && ch->markers[k - 1].start_ns > m->start_ns)
    mismatch (cs, key, "expected markers sorted by start, actual one before it starts later");
  if (!cs->marker_source[m->provider])
    {
      mismatch (cs, key, "expected no markers from %s providers by default, actual one",
                et_provider_kind_to_string (p->kind));
      return;
    }
  if (m->kind == ET_MARKER_SPAN)
    {
      check_span (cs, key, m, thread, got);
      return;
    }
  w = account (cs, key, m->event, m->kind == ET_MARKER_FLAG ? ET_ROLE_FLAG : ET_ROLE_MESSAGE,
               got);
  if (w != NULL)
    check_look (cs, key, m, w, thread);
  if (m->status != ET_SPAN_OK)
    mismatch (cs, key, "expected status ok, actual %s", et_span_status_to_string (m->status));
  if (m->depth != 0 || m->end_ns != m->start_ns || m->end_event != ET_NO_INDEX)
    mismatch (cs, key, "expected a point in time in lane 0, actual depth %u, %" G_GINT64_FORMAT
              "…%" G_GINT64_FORMAT " ns, end event %u", m->depth, m->start_ns, m->end_ns,
              m->end_event);
}

static void
compare_marker_counts (Case *cs, const guint *got)
{
  guint n_providers = et_trace_get_n_providers (cs->trace);
  g_autofree guint *want = g_new0 (guint, n_providers * 4);

  for (guint i = 0; i < cs->marker_wants->len; i++)
    {
      const MarkerWant *w = &g_array_index (cs->marker_wants, MarkerWant, i);

      want[w->provider * 4 + w->role]++;
      if (w->seen != 1)
        mismatch (cs, "markers", "expected event %" G_GUINT64_FORMAT " (%s) in exactly one "
                  "marker as a %s, actual in %u", w->event,
                  et_trace_get_provider (cs->trace, w->provider)->name, role_name (w->role),
                  w->seen);
    }
  for (guint p = 0; p < n_providers; p++)
    for (guint role = 0; role < 4; role++)
      if (want[p * 4 + role] != got[p * 4 + role])
        mismatch (cs, "markers", "provider %s: expected %u %ss, actual %u",
                  et_trace_get_provider (cs->trace, p)->name, want[p * 4 + role],
                  role_name (role), got[p * 4 + role]);
}

static void
check_markers (Case *cs)
{
  guint n_providers = et_trace_get_n_providers (cs->trace);
  g_autofree guint *got = g_new0 (guint, n_providers * 4);
  guint64 n_markers = 0;

  for (guint c = 0; c < et_trace_get_n_channels (cs->trace); c++)
    {
      const EtChannel *ch = et_trace_get_channel (cs->trace, c);
      const EtThread *thread = et_trace_get_thread (cs->trace,
                                                    et_trace_channel_thread (cs->trace, c));

      for (guint k = 0; k < ch->n_markers; k++)
        check_marker (cs, ch, k, thread, got + ch->markers[k].provider * 4);
      n_markers += ch->n_markers;
    }
  expect_u64 (cs, "stats.markers (sum over channels)", n_markers,
              et_trace_get_stats (cs->trace)->markers);
  compare_marker_counts (cs, got);
}
