/* fuzz-manifest.c — libFuzzer entry for EventSource manifest parsing and payload decoding (et-manifest).
 * The body is et_fuzz_manifest in et-fuzz-targets.c, shared with the replay of
 * tests/fuzz/regressions/manifest/ in tests/test-fuzz-regressions.c.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_manifest (data, size);
}
