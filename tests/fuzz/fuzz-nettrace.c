/* fuzz-nettrace.c — libFuzzer entry for .nettrace files: the whole load
 * (the reader is chosen by the file's content, as for every file), from
 * seeds that are EventPipe streams (make-seeds: the fixture writer's and
 * the corpus's .nettrace files), with the invariants of issue 32 checked.
 * The body is et_fuzz_nettrace, shared with the replay of
 * tests/fuzz/regressions/nettrace/; half the mutations are structure-aware
 * (et_fuzz_mutate_nettrace: block sizes, tags, varints, metadata).
 */
#include <stddef.h>
#include <stdint.h>
#include "et-fuzz-targets.h"
#include "et-fuzz-main.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);
size_t LLVMFuzzerMutate (uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size,
                                unsigned int seed);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  return et_fuzz_nettrace (data, size);
}

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  if ((seed & 1) && size > 0)
    return et_fuzz_mutate_nettrace (data, size, max_size, seed >> 1, NULL);
  return LLVMFuzzerMutate (data, size, max_size);
}
