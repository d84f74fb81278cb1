// The audit log (docs/serve.md, "Audit log"): one JSON line per request,
// appended to a file opened with O_APPEND, so lines from concurrent
// requests never interleave and nothing is ever rewritten.
#pragma once

#include <string>
#include <vector>

#include "kmem/result.h"

namespace kmem::serve {

struct AuditEntry {
  std::string token;  // the token's name; "" when the request carried none that is known
  std::string method, path;
  int status = 0;
  std::string remote;              // the client's address
  std::vector<std::string> items;  // the item ids a render served
};

// One line (with its newline) of the log: {"time", "token", "method", "path",
// "status", "remote"[, "items"]}; time is UTC with milliseconds.
std::string audit_line(const AuditEntry& entry, long long unix_ms);

class AuditLog {
 public:
  // Opens (creates, mode 0600) `path` for appending.
  static Result<AuditLog> open(const std::string& path);
  AuditLog(AuditLog&& other) noexcept;
  AuditLog& operator=(AuditLog&&) = delete;
  ~AuditLog();

  // Appends one line with one write(2); thread-safe.
  Status append(const AuditEntry& entry);

 private:
  AuditLog(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

}  // namespace kmem::serve
