// Locates the bundled data and the Python worker from the running binary, so
// that no path is compiled in: $KMEM_DATA_DIR / $KMEM_PYTHON_DIR when set;
// else <bin>/../share/kmem/{data,python} (an installed kmem, `cmake
// --install`); else the source tree named in <bin>/kmem-source-dir (a kmem
// run from its build folder; the file is written by CMake and never
// installed).
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "commands.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

// The folder holding data/ and python/ for this binary; "" when none is found.
fs::path install_root() {
  std::error_code ec;
  fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return {};
  fs::path installed = bin.parent_path() / "share" / "kmem";
  if (fs::is_directory(installed / "data", ec)) return installed;
  std::ifstream marker(bin / "kmem-source-dir");
  std::string source;
  if (marker && std::getline(marker, source) && fs::is_directory(fs::path(source) / "data", ec)) return source;
  return {};
}

// Always absolute: the workers run elsewhere (a candidate in its job's
// scratch folder), so a relative name would name nothing there.
std::string located(const char* variable, const char* folder) {
  const char* value = std::getenv(variable);
  fs::path root = install_root();
  fs::path found = value != nullptr && *value != '\0' ? fs::path(value)
                   : root.empty()                     ? fs::path(folder)  // errors still name the folder looked for
                                                      : root / folder;
  std::error_code ec;
  fs::path absolute = fs::absolute(found, ec);
  return (ec ? found : absolute).string();
}

}  // namespace

std::string data_dir() { return located("KMEM_DATA_DIR", "data"); }
std::string python_dir() { return located("KMEM_PYTHON_DIR", "python"); }

}  // namespace kmem::cli
