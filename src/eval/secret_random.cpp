// Secrets from the operating system's random source (secret_random.h).
#include "secret_random.h"

#include <random>

namespace kmem::eval {

uint64_t secret_random() {
  std::random_device device;  // /dev/urandom on Linux
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

uint64_t random_seed() { return secret_random() % (1ULL << 62); }

}  // namespace kmem::eval
