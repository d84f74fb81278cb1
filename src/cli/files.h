// Writing stdout for the CLI, with "stdout" in every error; and the
// whole-file reader every module shares (util/file.h).
#pragma once

#include <string>
#include <string_view>

#include "kmem/result.h"
#include "util/file.h"

namespace kmem::cli {

// Writes `text` to stdout and flushes it, so a full disk or closed pipe is an
// error here rather than lost at exit.
Status write_stdout(std::string_view text);

}  // namespace kmem::cli
