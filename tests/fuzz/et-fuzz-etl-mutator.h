/* et-fuzz-etl-mutator.h — the custom mutator of the targets that take a
 * whole .etl file (buffers, trace): half of libFuzzer's mutations are
 * structure-aware ones (et_fuzz_mutate_etl, et-fuzz-mutate.c), which reach
 * the resynchronisation and header paths that random bytes rarely do. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include "et-fuzz-targets.h"

size_t LLVMFuzzerMutate (uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size,
                                unsigned int seed);

size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  if ((seed & 1) && size > 0)
    return et_fuzz_mutate_etl (data, size, max_size, seed >> 1);
  return LLVMFuzzerMutate (data, size, max_size);
}
