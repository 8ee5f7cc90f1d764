/* conformance-values.c — one decoded field against its expected JSON value.
 *
 * Compiled into test-conformance.c (#include) after conformance-check.c.
 *
 * The comparison is driven by what the model decoded (EtValueKind) and
 * requires the JSON form the reference parser gives that kind: numbers for
 * integers (exact, 64-bit, big unsigned ones through big_unsigned ()),
 * true/false, strings for text and GUIDs, ISO 8601 text for FILETIME and
 * SYSTEMTIME, objects for structs and arrays for arrays.
 */

static void compare_value (Case *cs, const char *path, JsonNode *want,
                           const EtFields *fields, guint index);

static char *
describe_json (JsonNode *node)
{
  guint64 big;

  if (node == NULL)
    return g_strdup ("nothing");
  if (big_unsigned (node, &big))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, big);
  return json_to_string (node, FALSE);
}

static void
value_mismatch (Case *cs, const char *path, JsonNode *want, const EtFields *fields,
                guint index)
{
  g_autofree char *expected = describe_json (want);
  g_autoptr(GString) actual = g_string_new (NULL);

  et_fields_format_value (fields, index, actual);
  mismatch (cs, path, "expected %s, actual %s (value kind %u)", expected, actual->str,
            et_fields_get (fields, index)->kind);
}

static gboolean
node_is (JsonNode *node, GType type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* ---- times -------------------------------------------------------------- */

typedef struct
{
  gint  year, month, day, hour, minute, second;
  guint frac;     /* the digits after the decimal point */
  guint n_frac;   /* how many there were */
} IsoTime;

static gboolean
parse_iso (const char *text, IsoTime *t)
{
  const char *p;
  int used = 0;

  memset (t, 0, sizeof *t);
  if (sscanf (text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &t->year, &t->month, &t->day, &t->hour,
              &t->minute, &t->second, &used) != 6)
    return FALSE;
  p = text + used;
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p) && t->n_frac < 9; p++, t->n_frac++)
      t->frac = t->frac * 10 + (guint) (*p - '0');
  if (*p == 'Z')
    p++;
  return *p == '\0';
}

static guint64
power_of_ten (guint n)
{
  guint64 v = 1;

  while (n-- > 0)
    v *= 10;
  return v;
}

/* FILETIME: 100 ns ticks since 1601-01-01 UTC; the text may carry fewer
 * digits than ticks, so the actual value is compared at the text's precision. */
static gboolean
filetime_matches (const char *text, gint64 actual)
{
  IsoTime t;
  g_autoptr(GDateTime) dt = NULL;
  gint64 want, unit;

  if (!parse_iso (text, &t) || t.n_frac > 7)
    return FALSE;
  dt = g_date_time_new_utc (t.year, t.month, t.day, t.hour, t.minute, t.second);
  if (dt == NULL)
    return FALSE;
  unit = (gint64) power_of_ten (7 - t.n_frac);
  want = (g_date_time_to_unix (dt) + G_GINT64_CONSTANT (11644473600)) * 10000000
         + (gint64) t.frac * unit;
  return actual >= 0 && actual - actual % unit == want;
}

/* SYSTEMTIME: year, month, day of week, day, hour, minute, second, ms. The
 * text has no day of week, so that one member is not compared. */
static gboolean
systemtime_matches (const char *text, const guint16 *st)
{
  IsoTime t;
  guint ms;

  if (!parse_iso (text, &t))
    return FALSE;
  if (t.n_frac <= 3)
    ms = t.frac * (guint) power_of_ten (3 - t.n_frac);
  else if (t.frac % power_of_ten (t.n_frac - 3) == 0)
    ms = t.frac / (guint) power_of_ten (t.n_frac - 3);
  else
    return FALSE;
  return st[0] == t.year && st[1] == t.month && st[3] == t.day && st[4] == t.hour
         && st[5] == t.minute && st[6] == t.second && st[7] == ms;
}

/* ---- scalars ------------------------------------------------------------ */

static gboolean
integer_matches (JsonNode *want, const EtField *f)
{
  guint64 big;

  if (big_unsigned (want, &big))
    return f->kind == ET_VALUE_UINT && f->v.u == big;
  if (!node_is (want, G_TYPE_INT64))
    return FALSE;
  if (f->kind == ET_VALUE_INT)
    return f->v.i == json_node_get_int (want);
  return json_node_get_int (want) >= 0 && f->v.u == (guint64) json_node_get_int (want);
}

static gboolean
text_matches (JsonNode *want, const EtFields *fields, guint index)
{
  const char *want_text;
  const char *text;
  gsize len = 0;

  if (!node_is (want, G_TYPE_STRING))
    return FALSE;
  want_text = json_node_get_string (want);
  text = et_fields_text (fields, index, &len);
  return strlen (want_text) == len && memcmp (want_text, text, len) == 0;
}

/* Binary and SID values: the reference writes lowercase hex. */
static gboolean
hex_matches (JsonNode *want, const EtFields *fields, guint index)
{
  g_autoptr(GString) hex = g_string_new (NULL);
  const char *want_text;
  const guint8 *bytes;
  gsize len = 0;

  if (!node_is (want, G_TYPE_STRING))
    return FALSE;
  want_text = json_node_get_string (want);
  if (g_str_has_prefix (want_text, "0x"))
    want_text += 2;
  bytes = (const guint8 *) et_fields_text (fields, index, &len);
  for (gsize i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  return g_ascii_strcasecmp (want_text, hex->str) == 0;
}

static gboolean
scalar_matches (JsonNode *want, const EtFields *fields, guint index)
{
  const EtField *f = et_fields_get (fields, index);
  char guid[ET_GUID_STRING_LEN];

  switch (f->kind)
    {
    case ET_VALUE_NULL:
      return want != NULL && JSON_NODE_HOLDS_NULL (want);
    case ET_VALUE_INT:
    case ET_VALUE_UINT:
      return integer_matches (want, f);
    case ET_VALUE_FLOAT:
      if (node_is (want, G_TYPE_DOUBLE))
        return json_node_get_double (want) == f->v.f;
      return node_is (want, G_TYPE_INT64) && (double) json_node_get_int (want) == f->v.f;
    case ET_VALUE_BOOL:
      return node_is (want, G_TYPE_BOOLEAN) && json_node_get_boolean (want) == !!f->v.b;
    case ET_VALUE_STRING:
      return text_matches (want, fields, index);
    case ET_VALUE_GUID:
      et_guid_to_string (&f->v.guid, guid);
      return node_is (want, G_TYPE_STRING)
             && g_ascii_strcasecmp (json_node_get_string (want), guid) == 0;
    case ET_VALUE_FILETIME:
      return node_is (want, G_TYPE_STRING) && filetime_matches (json_node_get_string (want),
                                                                f->v.i);
    case ET_VALUE_SYSTEMTIME:
      return node_is (want, G_TYPE_STRING) && systemtime_matches (json_node_get_string (want),
                                                                  f->v.st);
    case ET_VALUE_BINARY:
    case ET_VALUE_SID:
      return hex_matches (want, fields, index);
    default:
      return FALSE;
    }
}

/* ---- containers --------------------------------------------------------- */

/* The @n entries from @first (siblings) against the members of @want, in
 * order and by name. */
static void
compare_members (Case *cs, const char *path, JsonObject *want, const EtFields *fields,
                 guint first, guint n)
{
  g_autoptr(GList) names = json_object_get_members (want);
  guint index = first;
  guint k = 0;

  if (g_list_length (names) != n)
    mismatch (cs, path, "expected %u fields, actual %u", g_list_length (names), n);
  for (GList *l = names; l != NULL && k < n; l = l->next, k++)
    {
      const EtField *f = et_fields_get (fields, index);
      g_autofree char *child = g_strdup_printf ("%s.%s", path, (char *) l->data);

      expect_str (cs, child, l->data, f->name);
      compare_value (cs, child, json_object_get_member (want, l->data), fields, index);
      index = et_fields_next (fields, index);
    }
}

static void
compare_elements (Case *cs, const char *path, JsonArray *want, const EtFields *fields,
                  guint first, guint n)
{
  guint index = first;

  if (json_array_get_length (want) != n)
    mismatch (cs, path, "expected %u elements, actual %u", json_array_get_length (want), n);
  for (guint k = 0; k < n && k < json_array_get_length (want); k++)
    {
      g_autofree char *child = g_strdup_printf ("%s[%u]", path, k);

      compare_value (cs, child, json_array_get_element (want, k), fields, index);
      index = et_fields_next (fields, index);
    }
}

static void
compare_value (Case *cs, const char *path, JsonNode *want, const EtFields *fields, guint index)
{
  const EtField *f = et_fields_get (fields, index);
  guint64 big;

  cs->n_checked++;
  if (f->kind == ET_VALUE_STRUCT && want != NULL && JSON_NODE_HOLDS_OBJECT (want)
      && !big_unsigned (want, &big))
    compare_members (cs, path, json_node_get_object (want), fields, index + 1, f->n_children);
  else if (f->kind == ET_VALUE_ARRAY && want != NULL && JSON_NODE_HOLDS_ARRAY (want))
    compare_elements (cs, path, json_node_get_array (want), fields, index + 1, f->n_children);
  else if (f->kind == ET_VALUE_STRUCT || f->kind == ET_VALUE_ARRAY
           || !scalar_matches (want, fields, index))
    value_mismatch (cs, path, want, fields, index);
}

/* All top-level fields of an event against the "fields" object. */
static void
compare_fields (Case *cs, const char *where, JsonObject *want, const EtFields *fields)
{
  guint n = 0;

  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    n++;
  compare_members (cs, where, want, fields, 0, n);
}

/* ---- field types -------------------------------------------------------- */

/* Entries "field_types" spends on the field at @pos (members of structs follow it). */
static guint
type_span (JsonArray *types, guint pos)
{
  JsonObject *t = pos < json_array_get_length (types)
                  ? json_array_get_object_element (types, pos) : NULL;
  JsonNode *count = t != NULL ? json_object_get_member (t, "struct_field_count") : NULL;
  guint span = 1;

  if (count != NULL && node_is (count, G_TYPE_INT64))
    for (gint64 m = 0; m < json_node_get_int (count); m++)
      span += type_span (types, pos + span);
  return span;
}

static void compare_field_type (Case *cs, const char *where, JsonArray *types, guint *pos,
                                const EtFields *fields, guint index);

static void
compare_member_types (Case *cs, const char *where, JsonArray *types, guint *pos,
                      const EtFields *fields, guint container)
{
  const EtField *f = et_fields_get (fields, container);
  guint index = container + 1;

  for (guint k = 0; k < f->n_children; k++, index = et_fields_next (fields, index))
    compare_field_type (cs, where, types, pos, fields, index);
}

/* A field_types entry with struct_field_count: a struct, or an array of
 * structs, which lists its member types once (those of element 0). */
static void
compare_struct_types (Case *cs, const char *where, const char *key, JsonArray *types,
                      guint *pos, guint start, gint64 count, const EtFields *fields,
                      guint index)
{
  const EtField *f = et_fields_get (fields, index);
  guint container = f->kind == ET_VALUE_ARRAY ? index + 1 : index;

  if (f->kind == ET_VALUE_STRUCT
      || (f->kind == ET_VALUE_ARRAY && f->n_children > 0
          && et_fields_get (fields, container)->kind == ET_VALUE_STRUCT))
    {
      expect_u64 (cs, key, count, et_fields_get (fields, container)->n_children);
      compare_member_types (cs, where, types, pos, fields, container);
    }
  else if (f->kind == ET_VALUE_ARRAY && f->n_children == 0)
    *pos = start + type_span (types, start);   /* no element to hold them to */
  else
    mismatch (cs, key, "expected a struct, actual value kind %u", f->kind);
}

static void
compare_field_type (Case *cs, const char *where, JsonArray *types, guint *pos,
                    const EtFields *fields, guint index)
{
  const EtField *f = et_fields_get (fields, index);
  JsonObject *t = *pos < json_array_get_length (types)
                  ? json_array_get_object_element (types, *pos) : NULL;
  g_autofree char *key = g_strdup_printf ("%s.field_types[%u] (%s)", where, *pos, f->name);
  const char *text = NULL;
  gint64 count = 0;
  guint start = (*pos)++;

  if (t == NULL)
    {
      mismatch (cs, key, "expected no more fields, actual one");
      return;
    }
  if (want_string (cs, t, key, "name", &text))
    expect_str (cs, key, text, f->name);
  if (want_string (cs, t, key, "intype", &text))
    expect_str (cs, key, text, et_tl_in_type_name (f->in_type));
  if (json_object_has_member (t, "outtype") && want_string (cs, t, key, "outtype", &text))
    expect_str (cs, key, text, et_tl_out_type_name (f->out_type));
  if (f->kind == ET_VALUE_ARRAY && !json_object_has_member (t, "array"))
    mismatch (cs, key, "expected a single value, actual an array");
  if (json_object_has_member (t, "struct_field_count")
      && want_int (cs, t, key, "struct_field_count", &count))
    compare_struct_types (cs, where, key, types, pos, start, count, fields, index);
  else if (f->kind == ET_VALUE_STRUCT)
    mismatch (cs, key, "expected a scalar, actual a struct of %u fields", f->n_children);
}

static void
compare_field_types (Case *cs, const char *where, JsonArray *types, const EtFields *fields)
{
  guint pos = 0;

  for (guint i = 0; i < et_fields_len (fields); i = et_fields_next (fields, i))
    compare_field_type (cs, where, types, &pos, fields, i);
  if (pos < json_array_get_length (types))
    mismatch (cs, where, "expected %u field types, actual %u", json_array_get_length (types),
              pos);
}
