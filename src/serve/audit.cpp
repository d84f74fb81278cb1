// Writing the audit log.
#include "serve/audit.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

namespace kmem::serve {

std::string audit_line(const AuditEntry& entry, long long unix_ms) {
  std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  nlohmann::ordered_json line = {
      {"time", fmt::format("{}.{:03}Z", stamp, unix_ms % 1000)},
      {"token", entry.token.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(entry.token)},
      {"method", entry.method},
      {"path", entry.path},
      {"status", entry.status},
      {"remote", entry.remote}};
  if (!entry.items.empty()) line["items"] = entry.items;
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<AuditLog> AuditLog::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Error(fmt::format("{}: cannot open the audit log: {}", path, std::strerror(errno)));
  return AuditLog(path, fd);
}

AuditLog::AuditLog(AuditLog&& other) noexcept : path_(std::move(other.path_)), fd_(other.fd_) { other.fd_ = -1; }

AuditLog::~AuditLog() {
  if (fd_ >= 0) ::close(fd_);
}

Status AuditLog::append(const AuditEntry& entry) {
  long long now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  std::string line = audit_line(entry, now);
  ssize_t written = ::write(fd_, line.data(), line.size());
  if (written != static_cast<ssize_t>(line.size()))
    return Error(fmt::format("{}: cannot append to the audit log: {}", path_,
                             written < 0 ? std::strerror(errno) : "short write"));
  return Status::success();
}

}  // namespace kmem::serve
