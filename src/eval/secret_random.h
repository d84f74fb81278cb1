// Secrets the evaluator draws from the operating system's random source: the
// result channel's nonce, the inputs' seeds. Nothing a candidate can predict.
#pragma once

#include <cstdint>

namespace kmem::eval {

// 64 bits from the operating system's random source.
uint64_t secret_random();
// A random seed that torch.manual_seed and JSON both take.
uint64_t random_seed();

}  // namespace kmem::eval
