// Reading whole input files. Every module reads its input files here, so each
// refuses the same things with the same words: anything that is not a regular
// file (a FIFO would block forever, a folder or device means nothing as a
// file), a file beyond a size limit, and every error names the path.
#pragma once

#include <cstddef>
#include <string>

#include "kmem/result.h"

namespace kmem::util {

// The largest file read_file accepts unless told otherwise.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{256} << 20;

// Success when `path` names a regular file (after symbolic links); otherwise
// one error naming the path and what it is ("is a directory", "is a FIFO, not
// a regular file", "cannot open: No such file or directory").
Status check_regular_file(const std::string& path);

// Like check_regular_file, but a path that does not exist is accepted (a file
// that the caller will create).
Status check_regular_file_or_missing(const std::string& path);

// The whole content of the regular file at `path`, at most `max_bytes` long.
// The file is opened without blocking and checked after opening, so a FIFO
// swapped in between is refused too.
Result<std::string> read_file(const std::string& path, std::size_t max_bytes = kMaxInputFileBytes);

// Like read_file, but a path that does not exist reads as "" (a file that
// the caller appends to and may not have created yet).
Result<std::string> read_file_or_empty(const std::string& path, std::size_t max_bytes = kMaxInputFileBytes);

// The first `bytes` bytes of the regular file at `path` (fewer when it is
// shorter), refused like read_file.
Result<std::string> read_file_start(const std::string& path, std::size_t bytes);

}  // namespace kmem::util
