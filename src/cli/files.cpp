// Checked stdout writes for the CLI.
#include "files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kmem::cli {

Status write_stdout(std::string_view text) {
  errno = 0;
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return Error(std::string("stdout: write failed: ") + (errno != 0 ? std::strerror(errno) : "unknown error"));
  return Status::success();
}

}  // namespace kmem::cli
