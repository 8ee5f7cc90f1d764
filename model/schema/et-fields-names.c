/* et-fields-names.c — the names fields are written under.
 *
 * Sits with et-fields: every output that names fields (JSON objects, the
 * CLI's text and CSV, the details pane) asks here. A payload may name two
 * fields alike (a damaged or hand-written schema, a flipped bit in a
 * metadata block): a JSON object cannot hold one key twice, and a reader
 * of text could not tell them apart, so the later ones get "_2", "_3"…
 * The first keeps its own name, the one et_fields_find and the marker
 * rules read.
 */
#include "et-fields.h"

/* The range of @index's siblings: the top level (@parent < 0) or the
 * members of the struct at @parent. */
static void
siblings (const EtFields *fields, gint parent, guint *first, guint *end)
{
  if (parent < 0)
    {
      *first = 0;
      *end = et_fields_len (fields);
      return;
    }
  *first = (guint) parent + 1;
  *end = *first + et_fields_get (fields, (guint) parent)->n_desc;
}

static const char *
name_of (const EtFields *fields, guint index)
{
  const char *name = et_fields_get (fields, index)->name;

  return name != NULL ? name : "";
}

static gboolean
sibling_named (const EtFields *fields, guint first, guint end, const char *name)
{
  for (guint i = first; i < end; i = et_fields_next (fields, i))
    if (strcmp (name_of (fields, i), name) == 0)
      return TRUE;
  return FALSE;
}

const char *
et_fields_unique_name (const EtFields *fields, gint parent, guint index, GString *scratch)
{
  const char *name = name_of (fields, index);
  guint first, end, same = 0;

  siblings (fields, parent, &first, &end);
  for (guint i = first; i < index; i = et_fields_next (fields, i))
    same += strcmp (name_of (fields, i), name) == 0;
  if (same == 0)
    return name;
  /* The n-th of a name is name_n, unless a sibling is called that already
   * ("x", "x", "x_2"): then the next number free. (A fourth "x" after
   * those could meet the second's again; no real schema comes close.) */
  for (guint n = same + 1; ; n++)
    {
      g_string_printf (scratch, "%s_%u", name, n);
      if (!sibling_named (fields, first, end, scratch->str))
        return scratch->str;
    }
}
