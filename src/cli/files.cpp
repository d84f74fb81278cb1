// Whole-file reads for the CLI.
#include "files.h"

#include <fstream>
#include <sstream>

namespace kmem::cli {

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(path + ": read failed");
  return text.str();
}

}  // namespace kmem::cli
