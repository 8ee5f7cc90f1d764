/* fuzz-nettrace.c — libFuzzer entry for .nettrace files: the whole load
 * (the reader is chosen by the file's content, as for every file), from
 * seeds that are EventPipe streams (make-seeds: the fixture writer's and
 * the corpus's .nettrace files). The body is et_fuzz_trace, shared with
 * the replay of tests/fuzz/regressions/nettrace/.
 */
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_trace (data, size);
}
