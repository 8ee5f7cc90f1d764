/* fuzz-buffers.c — libFuzzer entry for the buffer walk and record classification (et-etl-reader).
 * The body is et_fuzz_buffers in et-fuzz-targets.c, shared with the replay of
 * tests/fuzz/regressions/buffers/ in tests/test-fuzz-regressions.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"
#include "et-fuzz-etl-mutator.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_buffers (data, size);
}
