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

typedef int (*EtFuzzTarget) (const guint8 *data, gsize size);

/* The target called @name ("buffers", "xpress", …), or NULL. */
EtFuzzTarget et_fuzz_target_lookup (const char *name);

G_END_DECLS
