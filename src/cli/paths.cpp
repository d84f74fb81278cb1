// Locates the bundled data and the Python worker.
#include <cstdlib>
#include <iostream>

#include "commands.h"

namespace kmem::cli {

static std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

std::string data_dir() { return env_or("KMEM_DATA_DIR", KMEM_DEFAULT_DATA_DIR); }
int fail(const Error& error) {
  std::cerr << "kmem: " << error.message() << "\n";
  return kExitUsage;
}

std::string python_dir() { return env_or("KMEM_PYTHON_DIR", KMEM_DEFAULT_PYTHON_DIR); }

}  // namespace kmem::cli
