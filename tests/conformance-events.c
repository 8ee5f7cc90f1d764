/* conformance-events.c — every event of a corpus file, decoded again
 * through et_trace_decode_event (), against the expected JSON.
 *
 * Compiled into test-conformance.c (#include) after conformance-check.c,
 * conformance-values.c and conformance-markers.c.
 *
 * One pass over the events (in the model's time order) counts header kinds,
 * CPUs and activity ids, notes the events the expected "decoded_events"
 * describe, and collects what the marker rules require. The reference's
 * "index" is a record's position in file order; the model orders by time,
 * so an expected event is found by (ts_raw, pid, tid, provider), and
 * several alike are paired in file order, which is the model's tie order.
 */

static char *
event_key (gint64 raw, guint32 pid, guint32 tid, const EtGuid *provider)
{
  char guid[ET_GUID_STRING_LEN];

  et_guid_to_string (provider, guid);
  return g_strdup_printf ("%" G_GINT64_FORMAT " %u %u %s", raw, pid, tid, guid);
}

static JsonArray *
decoded_events_of (Case *cs)
{
  JsonNode *node = json_object_get_member (cs->expected, "decoded_events");

  /* Files without self-describing events have no "decoded_events". */
  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static void
note_wanted_times (Case *cs)
{
  JsonArray *decoded = decoded_events_of (cs);

  cs->wanted_times = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  cs->found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_array_unref);
  for (guint i = 0; decoded != NULL && i < json_array_get_length (decoded); i++)
    {
      JsonObject *e = json_array_get_object_element (decoded, i);
      gint64 ts = 0;

      if (e != NULL && want_int (cs, e, "decoded_events", "ts_raw", &ts))
        g_hash_table_add (cs->wanted_times, g_memdup2 (&ts, sizeof ts));
    }
}

static void
note_found (Case *cs, guint64 index, const EtEvent *ev)
{
  const EtProvider *p = et_trace_get_provider (cs->trace, ev->provider);
  char *key = event_key (ev->raw_time, ev->pid, ev->tid, &p->guid);
  GArray *list = g_hash_table_lookup (cs->found, key);

  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_hash_table_insert (cs->found, key, list);
    }
  else
    g_free (key);
  g_array_append_val (list, index);
}

static void
count (GHashTable *counts, const char *key)
{
  gpointer n = g_hash_table_lookup (counts, key);

  g_hash_table_replace (counts, g_strdup (key), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (n) + 1));
}

/* Expected {"key": n, …} against the counts the scan made, both ways. */
static void
compare_counts (Case *cs, const char *what, GHashTable *counts)
{
  JsonObject *want = want_object (cs, cs->expected, "", what);
  g_autoptr(GList) keys = want != NULL ? json_object_get_members (want) : NULL;
  GHashTableIter iter;
  gpointer key, value;

  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autofree char *label = g_strdup_printf ("%s[%s]", what, (char *) l->data);
      gint64 n = 0;

      if (want_int (cs, want, what, l->data, &n))
        expect_u64 (cs, label, n, GPOINTER_TO_SIZE (g_hash_table_lookup (counts, l->data)));
      g_hash_table_remove (counts, l->data);
    }
  g_hash_table_iter_init (&iter, counts);
  while (want != NULL && g_hash_table_iter_next (&iter, &key, &value))
    mismatch (cs, what, "expected no \"%s\", actual %" G_GSIZE_FORMAT " events", (char *) key,
              GPOINTER_TO_SIZE (value));
}

static void
scan_events (Case *cs)
{
  g_autoptr(GHashTable) kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) cpus = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 n_events = et_trace_get_n_events (cs->trace);
  guint64 n_activity = 0, n_related = 0;
  EtFields *fields = et_fields_new ();
  gint64 n;

  note_wanted_times (cs);
  plan_markers (cs);
  expect_u64 (cs, "et_trace_get_n_events", et_trace_get_stats (cs->trace)->records, n_events);
  for (guint64 i = 0; i < n_events; i++)
    {
      g_autoptr(GError) error = NULL;
      EtEvent ev;
      char cpu[16];
      gboolean decoded = et_trace_decode_event (cs->trace, i, &ev, fields, &error);

      count (kinds, ev.header_kind != NULL ? ev.header_kind : "(none)");
      g_snprintf (cpu, sizeof cpu, "%u", ev.cpu);
      count (cpus, cpu);
      n_activity += !et_guid_is_zero (&ev.activity_id);
      n_related += ev.has_related_activity_id != FALSE;
      if (g_hash_table_contains (cs->wanted_times, &ev.raw_time))
        note_found (cs, i, &ev);
      if (cs->marker_source[ev.provider])
        want_marker (cs, i, &ev, fields, decoded);
    }
  et_fields_free (fields);
  compare_counts (cs, "header_kinds", kinds);
  compare_counts (cs, "events_per_cpu", cpus);
  if (want_int (cs, cs->expected, "", "events_with_nonzero_activity_id", &n))
    expect_u64 (cs, "events_with_nonzero_activity_id", n, n_activity);
  if (want_int (cs, cs->expected, "", "events_with_related_activity_id", &n))
    expect_u64 (cs, "events_with_related_activity_id", n, n_related);
}

/* ---- decoded_events ----------------------------------------------------- */

static void
compare_event_header (Case *cs, const char *where, JsonObject *want, const EtEvent *ev)
{
  const EtProvider *p = et_trace_get_provider (cs->trace, ev->provider);
  g_autofree char *key = NULL;
  char activity[ET_GUID_STRING_LEN];
  const char *text = NULL;
  gint64 n = 0;

  if (want_string (cs, want, where, "event", &text))
    expect_str (cs, (key = g_strdup_printf ("%s.event", where)), text, ev->name);
  g_clear_pointer (&key, g_free);
  if (want_string (cs, want, where, "provider_name", &text))
    expect_str (cs, (key = g_strdup_printf ("%s.provider_name", where)), text, p->name);
  g_clear_pointer (&key, g_free);
  if (want_int (cs, want, where, "level", &n))
    expect_i64 (cs, (key = g_strdup_printf ("%s.level", where)), n, ev->level);
  g_clear_pointer (&key, g_free);
  if (want_int (cs, want, where, "opcode", &n))
    expect_i64 (cs, (key = g_strdup_printf ("%s.opcode", where)), n, ev->opcode);
  g_clear_pointer (&key, g_free);
  if (want_int (cs, want, where, "channel", &n))
    expect_i64 (cs, (key = g_strdup_printf ("%s.channel", where)), n, ev->channel);
  g_clear_pointer (&key, g_free);
  if (want_string (cs, want, where, "keyword", &text))
    {
      g_autofree char *actual = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", ev->keywords);
      expect_str (cs, (key = g_strdup_printf ("%s.keyword", where)), text, actual);
    }
  g_clear_pointer (&key, g_free);
  et_guid_to_string (&ev->activity_id, activity);
  if (want_string (cs, want, where, "activity_id", &text))
    expect_str (cs, (key = g_strdup_printf ("%s.activity_id", where)), text, activity);
}

static void
compare_decoded_event (Case *cs, JsonObject *want, guint64 index)
{
  g_autofree char *where = NULL;
  g_autoptr(GError) error = NULL;
  EtFields *fields = et_fields_new ();
  JsonObject *want_fields;
  JsonArray *types;
  EtEvent ev;

  where = g_strdup_printf ("decoded_events[index %" G_GINT64_FORMAT "]",
                           json_object_get_int_member (want, "index"));
  if (!et_trace_decode_event (cs->trace, index, &ev, fields, &error))
    mismatch (cs, where, "expected it to decode, actual error: %s", error->message);
  else if (ev.decode_failed)
    mismatch (cs, where, "expected it to decode, actual: decode_failed is set");
  compare_event_header (cs, where, want, &ev);
  if ((want_fields = want_object (cs, want, where, "fields")) != NULL)
    compare_fields (cs, where, want_fields, fields);
  if ((types = want_array (cs, want, where, "field_types")) != NULL)
    compare_field_types (cs, where, types, fields);
  et_fields_free (fields);
}

static gint
compare_by_index (gconstpointer a, gconstpointer b)
{
  gint64 x = json_object_get_int_member (*(JsonObject *const *) a, "index");
  gint64 y = json_object_get_int_member (*(JsonObject *const *) b, "index");

  return x < y ? -1 : x > y;
}

/* Expected events grouped by (ts_raw, pid, tid, provider), each group in
 * file order. */
static GHashTable *
group_decoded_events (Case *cs, JsonArray *decoded)
{
  GHashTable *groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; i < json_array_get_length (decoded); i++)
    {
      JsonObject *e = json_array_get_object_element (decoded, i);
      gint64 ts = 0, pid = 0, tid = 0, index = 0;
      const char *provider = NULL;
      EtGuid guid;
      GPtrArray *group;
      char *key;

      if (e == NULL || !want_int (cs, e, "decoded_events", "ts_raw", &ts)
          || !want_int (cs, e, "decoded_events", "pid", &pid)
          || !want_int (cs, e, "decoded_events", "tid", &tid)
          || !want_int (cs, e, "decoded_events", "index", &index)
          || !want_string (cs, e, "decoded_events", "provider", &provider))
        continue;
      if (!et_guid_parse (provider, &guid))
        {
          mismatch (cs, "decoded_events", "the expected provider %s is not a GUID", provider);
          continue;
        }
      key = event_key (ts, (guint32) pid, (guint32) tid, &guid);
      if ((group = g_hash_table_lookup (groups, key)) == NULL)
        g_hash_table_insert (groups, key, (group = g_ptr_array_new ()));
      else
        g_free (key);
      g_ptr_array_add (group, e);
    }
  return groups;
}

static void
check_decoded_events (Case *cs)
{
  JsonArray *decoded = decoded_events_of (cs);
  g_autoptr(GHashTable) groups = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (decoded == NULL)
    return;
  groups = group_decoded_events (cs, decoded);
  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GPtrArray *group = value;
      GArray *found = g_hash_table_lookup (cs->found, key);
      guint n_found = found != NULL ? found->len : 0;

      g_ptr_array_sort (group, compare_by_index);
      if (n_found != group->len)
        mismatch (cs, "decoded_events", "expected %u events at (ts pid tid provider) %s, "
                  "actual %u", group->len, (char *) key, n_found);
      for (guint k = 0; k < group->len && k < n_found; k++)
        compare_decoded_event (cs, group->pdata[k], g_array_index (found, guint64, k));
    }
}
