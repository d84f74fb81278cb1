// Reading whole files and writing stdout for the CLI, with the path (or
// "stdout") in every error.
#pragma once

#include <string>
#include <string_view>

#include "kmem/result.h"

namespace kmem::cli {

// The content of the file at `path`; a directory or unreadable file is an error.
Result<std::string> read_file(const std::string& path);

// Writes `text` to stdout and flushes it, so a full disk or closed pipe is an
// error here rather than lost at exit.
Status write_stdout(std::string_view text);

}  // namespace kmem::cli
