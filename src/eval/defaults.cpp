// Where the evaluator finds its Python interpreter and keeps its caches,
// unless the caller says otherwise.
#include <sys/wait.h>

#include <cstdlib>

#include "kmem/eval.h"

namespace kmem {

static std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string default_python() {
  if (!env("KMEM_PYTHON").empty()) return env("KMEM_PYTHON");
  // Finding the module is enough (importing torch would take seconds).
  const char* probe =
      "/usr/bin/python3 -c 'import importlib.util,sys; sys.exit(importlib.util.find_spec(\"torch\") is None)' "
      ">/dev/null 2>&1";
  int status = std::system(probe);
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "/usr/bin/python3" : "python3";
}

std::string default_cache_dir() {
  if (!env("KMEM_CACHE_DIR").empty()) return env("KMEM_CACHE_DIR");
  if (!env("XDG_CACHE_HOME").empty()) return env("XDG_CACHE_HOME") + "/kmem";
  if (!env("HOME").empty()) return env("HOME") + "/.cache/kmem";
  return "/tmp/kmem-cache";
}

}  // namespace kmem
