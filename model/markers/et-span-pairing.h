/* et-span-pairing.h — pairs span starts with span ends.
 *
 * Input: every span start and end of the trace, in time order (ties in file
 * order). Output: for each start its end (or none) and a status; for each
 * end whether it closed something; and the lane (depth) of every span on
 * its start thread. Rules: docs/markers.md "Spans".
 */
#pragma once

#include <glib.h>
#include "et-guid.h"

#include <string.h>

G_BEGIN_DECLS

typedef enum
{
  ET_SPAN_OK,
  ET_SPAN_NESTED,
  ET_SPAN_OVERLAPPING,
  ET_SPAN_CROSS_THREAD,
  ET_SPAN_UNMATCHED_START,
  ET_SPAN_UNMATCHED_END,
} EtSpanStatus;

/* 40 bytes: there is one per span start and end while loading. An event
 * pairs by its cvSpanId when it has one, else by its task and ActivityId,
 * so it keeps one or the other. */
typedef struct
{
  gint64   time;        /* any monotonic unit; only the order matters */
  union
  {
    gint64 span_id;     /* when has_span_id */
    EtGuid activity_id; /* otherwise; zero when the event has none */
  };
  guint32  pid;
  guint32  tid;
  guint16  provider;    /* an index: equal means the same provider */
  guint16  task;
  guint8   is_end;
  guint8   has_span_id;
} EtSpanEvent;

/* 8 bytes: there is one per span start and end while pairing. */
typedef struct
{
  guint   partner;      /* for a start: index of its end; for an end: of its start;
                           G_MAXUINT when none */
  guint16 depth;        /* lane on the start's thread (G_MAXUINT16 from there
                           on); 0 for ends */
  guint8  status;       /* EtSpanStatus. For starts: the span's status; for
                           ends: OK when matched, UNMATCHED_END otherwise */
} EtSpanResult;

/* @results has @n entries. */
void        et_span_pair              (const EtSpanEvent *events,
                                       guint              n,
                                       EtSpanResult      *results);
/* The same on @threads threads (et_span_pair_keys_on). */
void        et_span_pair_on           (const EtSpanEvent *events,
                                       guint              n,
                                       EtSpanResult      *results,
                                       guint              threads);

/* The same spans by reference, for a caller that has their time, thread
 * and provider elsewhere (the loader: in its markers), so that pairing
 * takes 24 bytes per span start and end, not the 40 of an EtSpanEvent and
 * the key beside it, and the results take the place of the keys' ids.
 * Key i's owner is at owners->base + owner × stride; its fields at their
 * offsets there (ET_SPAN_NO_FIELD: the process field of a caller that
 * pairs one process at a time, read as 0). The thread field names a
 * thread uniquely within its process. */
typedef struct
{
  union
  {
    struct
    {
      gint64  span_id;  /* when has_span_id (else zero: see below) */
      guint32 thread;   /* … and its owner's thread and provider, when the owners
                           say so (EtSpanOwners.id_keys_carry_owner), and for a
                           key of ET_SPAN_KEY_CARRIES_OWNER */
      guint16 provider;
    };
    EtGuid activity_id; /* otherwise; zero when the event has none */
  };
  guint32  owner;
  guint16  task;
  guint8   is_end;      /* bit 0; bit 7 is pairing's (ET_SPAN_KEY_PAIRED), the
                           others the caller's */
  guint8   has_span_id;
} EtSpanKey;

#define ET_SPAN_NO_FIELD G_MAXSIZE

typedef struct
{
  const guint8 *base;
  gsize         stride;
  gsize         time_at;      /* gint64 */
  gsize         process_at;   /* guint32, or ET_SPAN_NO_FIELD */
  gsize         thread_at;    /* guint32 */
  gsize         provider_at;  /* guint16 */
  /* Keys with a span id carry their owner's thread and provider: pairing
   * reads no owner for them (only for the lanes' times). For a caller
   * that pairs one process at a time (process_at ET_SPAN_NO_FIELD). */
  gboolean      id_keys_carry_owner;
} EtSpanOwners;

#define ET_SPAN_KEY_PAIRED 0x80
/* In is_end, set by the caller for a key without a span id whose event
 * has no activity id either: its first 8 bytes are zero and the next six
 * its owner's thread and provider (read as such when the owners say keys
 * carry them; its activity counts as none). */
#define ET_SPAN_KEY_CARRIES_OWNER 0x40

/* Pairs @keys in place: afterwards each key's first 8 bytes (where its id
 * was) hold its EtSpanResult (et_span_key_result), and is_end has
 * ET_SPAN_KEY_PAIRED; owner, task and the caller's bits stay. Pairing
 * takes no memory per key beyond the key (its maps and links grow with
 * the spans open at once). */
void        et_span_pair_keys         (EtSpanKey          *keys,
                                       guint               n,
                                       const EtSpanOwners *owners);
/* The same on @threads threads (1 or 2): with two, each start's status
 * and lane are found on a thread of their own beside the pairing, as it
 * closes them (the same results). For one large set of spans when a core
 * is free for it. */
void        et_span_pair_keys_on      (EtSpanKey          *keys,
                                       guint               n,
                                       const EtSpanOwners *owners,
                                       guint               threads);
/* Told of key @index once its result is final, keys in order: an end's
 * once it is paired or found to match nothing, a start's once it has its
 * status and lane too. */
typedef void (*EtSpanKeyDone) (guint index, EtSpanResult result, gboolean is_end, gpointer data);
/* The same, telling @done of every key as its result becomes final: on
 * the thread that finds the lanes (beside the pairing, with two), so that
 * what the caller makes of a result is made while the key and its owner
 * are still in the cache, not in a pass of its own after pairing. */
void        et_span_pair_keys_each    (EtSpanKey          *keys,
                                       guint               n,
                                       const EtSpanOwners *owners,
                                       guint               threads,
                                       EtSpanKeyDone       done,
                                       gpointer            data);

static inline EtSpanResult
et_span_key_result (const EtSpanKey *key)
{
  EtSpanResult r;

  memcpy (&r, key, sizeof r);
  return r;
}

const char *et_span_status_to_string  (EtSpanStatus       status); /* "ok", "nested", … */

G_END_DECLS
