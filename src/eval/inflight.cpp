// The crash-loop guard's journal of jobs in flight (`<results>.inflight`,
// see InflightJournal in include/kmem/eval.h and docs/evaluator.md).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kmem/eval.h"
#include "util/file.h"

namespace kmem {

namespace fs = std::filesystem;
using Json = nlohmann::json;

static Status write_line(int fd, const std::string& path, const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error(path + ": cannot write the journal: " + strerror(errno));
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) return Error(path + ": cannot flush the journal: " + strerror(errno));
  return Status::success();
}

Result<InflightJournal> InflightJournal::open(const std::string& results_path, const std::set<std::string>& finished) {
  std::string path = results_path + ".inflight";
  std::map<std::string, bool> left;
  auto text = util::read_file_or_empty(path);
  if (!text) return Error(text.error().message() + " (the journal of jobs in flight)");
  std::istringstream lines(*text);
  for (std::string line; std::getline(lines, line);) {
    Json entry = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    // A line cut short by the crash it records is no entry.
    if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string() || !entry.contains("alone") ||
        !entry["alone"].is_boolean())
      continue;
    left[entry["id"].get<std::string>()] = entry["alone"].get<bool>();
  }
  for (const auto& id : finished) left.erase(id);
  // Rewritten with what is still left over, so that a crash of this run
  // forgets none of it.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Error(path + ": cannot open the journal of jobs in flight: " + strerror(errno));
  InflightJournal journal(path, fd, std::move(left));
  for (const auto& [id, alone] : journal.left_over_)
    if (auto written = write_line(fd, path, Json{{"id", id}, {"alone", alone}}.dump() + "\n"); !written)
      return written.error();
  return journal;
}

InflightJournal::InflightJournal(std::string path, int fd, std::map<std::string, bool> left_over)
    : path_(std::move(path)), fd_(fd), left_over_(std::move(left_over)) {}

InflightJournal::InflightJournal(InflightJournal&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), left_over_(std::move(other.left_over_)) {
  other.fd_ = -1;
}

InflightJournal::~InflightJournal() {
  if (fd_ >= 0) close(fd_);
}

Status InflightJournal::started(const std::string& id, bool alone) {
  std::lock_guard hold(mutex_);
  return write_line(fd_, path_, Json{{"id", id}, {"alone", alone}}.dump() + "\n");
}

void InflightJournal::finish() {
  std::error_code ec;
  fs::remove(path_, ec);
}

}  // namespace kmem
