// Whole-file reads that refuse FIFOs, folders and devices (see file.h).
#include "util/file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace kmem::util {
namespace {

const char* file_type(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

Error not_regular(const std::string& path, mode_t mode) {
  if (S_ISDIR(mode)) return Error(path + ": is a directory");
  return Error(fmt::format("{}: is {}, not a regular file", path, file_type(mode)));
}

Error cannot_open(const std::string& path, int error) {
  return Error(fmt::format("{}: cannot open: {}", path, std::strerror(error)));
}

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  Descriptor() = default;
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { reset(-1); }
  void reset(int fd) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

}  // namespace

Status check_regular_file(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return cannot_open(path, errno);
  if (!S_ISREG(info.st_mode)) return not_regular(path, info.st_mode);
  return Status::success();
}

Status check_regular_file_or_missing(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return errno == ENOENT ? Status::success() : Status(cannot_open(path, errno));
  if (!S_ISREG(info.st_mode)) return not_regular(path, info.st_mode);
  return Status::success();
}

namespace {

// Opens `path` for reading without blocking (opening a FIFO that no one
// writes to returns at once) and refuses anything but a regular file.
Result<std::size_t> open_regular(const std::string& path, Descriptor& fd) {
  fd.reset(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    if (errno == EISDIR) return Error(path + ": is a directory");
    return cannot_open(path, errno);
  }
  struct stat info {};
  if (fstat(fd.get(), &info) != 0) return cannot_open(path, errno);
  if (!S_ISREG(info.st_mode)) return not_regular(path, info.st_mode);
  return static_cast<std::size_t>(info.st_size);
}

// Reads up to `limit` bytes; `more` tells whether the file held more.
Result<std::string> read_up_to(const std::string& path, const Descriptor& fd, std::size_t limit, bool& more) {
  std::string text;
  char buffer[1 << 16];
  more = false;
  while (true) {
    ssize_t got = read(fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Error(fmt::format("{}: read failed: {}", path, std::strerror(errno)));
    if (got == 0) return text;
    std::size_t keep = std::min(static_cast<std::size_t>(got), limit - text.size());
    text.append(buffer, keep);
    if (keep < static_cast<std::size_t>(got)) {
      more = true;
      return text;
    }
  }
}

}  // namespace

Result<std::string> read_file(const std::string& path, std::size_t max_bytes) {
  Descriptor fd;
  auto size = open_regular(path, fd);
  if (!size) return size.error();
  auto too_large = [&] {
    return Error(fmt::format("{}: larger than the {} bytes a file may hold here", path, max_bytes));
  };
  if (*size > max_bytes) return too_large();
  bool more = false;
  auto text = read_up_to(path, fd, max_bytes, more);
  if (text && more) return too_large();  // the file grew while read
  return text;
}

Result<std::string> read_file_or_empty(const std::string& path, std::size_t max_bytes) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0 && errno == ENOENT) return std::string();
  return read_file(path, max_bytes);
}

Result<std::string> read_file_start(const std::string& path, std::size_t bytes) {
  Descriptor fd;
  auto size = open_regular(path, fd);
  if (!size) return size.error();
  bool more = false;
  return read_up_to(path, fd, bytes, more);
}

}  // namespace kmem::util
