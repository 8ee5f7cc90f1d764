/* fuzz-tracelogging.c — libFuzzer entry for TraceLogging metadata parsing and payload decoding (et-tracelogging).
 * The body is et_fuzz_tracelogging in et-fuzz-targets.c, shared with the replay of
 * tests/fuzz/regressions/tracelogging/ in tests/test-fuzz-regressions.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_tracelogging (data, size);
}
