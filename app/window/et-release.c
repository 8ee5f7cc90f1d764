/* et-release.c — see et-release.h. */
#include "et-release.h"

typedef struct
{
  gpointer       data;
  GDestroyNotify destroy;
} Release;

static gpointer
release (gpointer data)
{
  Release *r = data;

  r->destroy (r->data);
  g_free (r);
  return NULL;
}

void
et_release_in_background (gpointer data, GDestroyNotify destroy)
{
  Release *r = g_new (Release, 1);

  r->data = data, r->destroy = destroy;
  g_thread_unref (g_thread_new ("etlscope-release", release, r));
}
