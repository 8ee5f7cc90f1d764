/* fuzz-trace.c — libFuzzer entry for the whole load: bytes to markers and decoded events (et-trace).
 * The body is et_fuzz_trace in et-fuzz-targets.c, shared with the replay of
 * tests/fuzz/regressions/trace/ in tests/test-fuzz-regressions.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"
#include "et-fuzz-etl-mutator.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_trace (data, size);
}
