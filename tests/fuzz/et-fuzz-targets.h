/* et-fuzz-targets.h — the bodies of the fuzz targets.
 *
 * Each function takes arbitrary bytes and drives one stage of the pipeline
 * (see model/README.md) the way a hostile .etl file would. The libFuzzer
 * wrappers (fuzz-*.c, clang only) and the regression replay
 * (tests/test-fuzz-regressions.c, every build) call the same functions, so
 * an input that once crashed keeps being checked without clang.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Input size limits the targets apply themselves, so that the replay and
 * the fuzzer agree whatever -max_len says. */
#define ET_FUZZ_MAX_FILE   (1024 * 1024)
#define ET_FUZZ_MAX_STREAM (256 * 1024)

/* Bytes → temporary .etl → et_etl_file_open → walk every buffer. */
int et_fuzz_buffers      (const guint8 *data, gsize size);
/* Bytes → et_xpress_decompress into a few output capacities. */
int et_fuzz_xpress       (const guint8 *data, gsize size);
/* XML up to the first NUL → et_manifest_parse; the bytes after it are
 * decoded as the payload of every event, with 4- and 8-byte pointers. */
int et_fuzz_manifest     (const guint8 *data, gsize size);
/* u16 metadata length, metadata → et_tl_schema_parse; the rest is the
 * payload for et_tl_decode. Also et_tl_traits_provider_name on the input. */
int et_fuzz_tracelogging (const guint8 *data, gsize size);
/* Records of u8 kind (even: MetaData/EventInfo, odd: EventMapInfo), u16
 * length and payload → et_event_info_set_add, up to a record of length 0;
 * then each provider's manifest (et_event_info_set_manifest_new, the
 * provider GUIDs read from the records) decodes the rest as the payload
 * of every event an EventInfo named, with 4- and 8-byte pointers. */
int et_fuzz_event_info   (const guint8 *data, gsize size);
/* Bytes → temporary .etl → et_trace_load → every marker, every event. */
int et_fuzz_trace        (const guint8 *data, gsize size);

/* Bytes → temporary file → et_trace_load (markers of the default
 * providers) → everything et_fuzz_trace walks; then what a hostile
 * .nettrace must never do (issue 32): a stream whose framing (objects,
 * block sizes, tags, the end tag) is broken read without damage, or an
 * event that does not decode in a trace read without damage. Either
 * aborts (a finding). */
int et_fuzz_nettrace     (const guint8 *data, gsize size);
/* What the file targets do with a loaded trace: every model query, marker
 * and event; returns how many events did not decode. */
struct _EtTrace;
guint64 et_fuzz_walk_trace (struct _EtTrace *trace);

/* Units of work the targets did since the program started: every record,
 * text, field set and damage report the model handed back. */
guint64 et_fuzz_work (void);

/* One structure-aware mutation, chosen by @seed, of the .etl file in
 * @data (@size bytes, room for @max_size): a buffer-header field, a record
 * size, two buffers swapped, stray or lost bytes between buffers, the
 * log-file header's mode or marker, a cut. Returns the new size. The
 * libFuzzer wrappers of the file targets use it as their custom mutator
 * (et-fuzz-etl-mutator.h); the replay runs a fixed set of such mutants. */
gsize et_fuzz_mutate_etl (guint8 *data, gsize size, gsize max_size, guint32 seed);

/* Little-endian words of the files the mutators change. */
static inline guint32
et_fuzz_get_u32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

static inline void
et_fuzz_set_u32 (guint8 *p, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (guint8) (v >> (8 * i));
}

/* What et_fuzz_mutate_nettrace did. */
typedef enum
{
  ET_FUZZ_NT_NONE,      /* nothing (no object found to mutate) */
  ET_FUZZ_NT_FRAMING,   /* a block size, an object's tag, a stray end tag,
                         * a cut: damage that must be reported */
  ET_FUZZ_NT_CONTENT,   /* bytes inside a block (header varints, metadata
                         * fields, counts): may read as other values */
} EtFuzzNtKind;

typedef struct
{
  EtFuzzNtKind kind;
  gsize        object;   /* offset of the opening of the object changed */
  gboolean     events;   /* that object is an EventBlock */
  gsize        cut;      /* a cut: the new size (else 0) */
} EtFuzzNtMutation;

/* One structure-aware mutation, chosen by @seed, of the .nettrace stream in
 * @data (@size bytes, room for @max_size): a block's size (too small, too
 * large, past the file, into another block), an opening's tag or name, a
 * block's end tag, a stray NullReference between objects, a varint of a
 * compressed event header, a metadata field's type code or count, a stack
 * or sequence-point count, a cut. The Trace object is left alone. Returns
 * the new size; @what (may be NULL) says what changed. */
gsize et_fuzz_mutate_nettrace (guint8 *data, gsize size, gsize max_size, guint32 seed,
                               EtFuzzNtMutation *what);

typedef int (*EtFuzzTarget) (const guint8 *data, gsize size);

/* The target called @name ("buffers", "xpress", …), or NULL. */
EtFuzzTarget et_fuzz_target_lookup (const char *name);

G_END_DECLS
