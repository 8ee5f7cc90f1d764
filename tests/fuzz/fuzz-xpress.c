/* fuzz-xpress.c — libFuzzer entry for LZ77 decompression of compressed buffers (et-xpress).
 * The body is et_fuzz_xpress in et-fuzz-targets.c, shared with the replay of
 * tests/fuzz/regressions/xpress/ in tests/test-fuzz-regressions.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_xpress (data, size);
}
