// Whole-file reads and checked stdout writes for the CLI.
#include "files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kmem::cli {

Result<std::string> read_file(const std::string& path) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec)) return Error(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(path + ": read failed");
  return text.str();
}

Status write_stdout(std::string_view text) {
  errno = 0;
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return Error(std::string("stdout: write failed: ") + (errno != 0 ? std::strerror(errno) : "unknown error"));
  return Status::success();
}

}  // namespace kmem::cli
