// The batch files: reading a jobs file, writing outcomes as JSON lines to a
// results file that survives a crash, and finding the ids already done.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "kmem/eval.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {

namespace fs = std::filesystem;
using Json = nlohmann::json;

Result<std::vector<EvalJob>> read_jobs(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return Error(text.error().message() + " (the jobs file)");
  fs::path folder = fs::path(path).parent_path();
  std::vector<EvalJob> jobs;
  std::set<std::string> ids;
  size_t start = 0;
  for (int number = 1; start < text->size(); ++number) {
    size_t end = std::min(text->find('\n', start), text->size());
    std::string_view line(text->data() + start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    std::string where = path + ":" + std::to_string(number);
    auto entry = util::parse_strict_json(line, where);
    if (!entry) return entry.error();
    util::JsonFields f(*entry, where);
    if (Status s = f.is_object(); !s) return s.error();
    EvalJob job;
    // An id may be written as a number; it is kept as its text.
    if (f.has("id") && (*entry)["id"].is_number_integer()) job.id = (*entry)["id"].dump();
    for (auto [key, field] : {std::pair{"id", &job.id}, {"problem", &job.problem}, {"candidate", &job.candidate}}) {
      if (!field->empty()) continue;
      auto value = f.string(key);
      if (!value) return value.error();
      *field = *value;
    }
    if (!ids.insert(job.id).second) return Error(where + ": duplicate id \"" + job.id + "\"");
    job.problem = (folder / job.problem).lexically_normal().string();
    job.candidate = (folder / job.candidate).lexically_normal().string();
    jobs.push_back(std::move(job));
  }
  return jobs;
}

static Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(); }

static Json mismatch_json(const std::optional<MismatchFacts>& m) {
  if (!m) return Json();
  Json samples = Json::array();
  for (const auto& s : m->samples) samples.push_back({{"index", s.index}, {"expected", s.expected}, {"got", s.got}});
  return {{"trial", m->trial}, {"output", m->output},     {"shape", m->shape}, {"first_index", m->first_index},
          {"bad", m->bad},     {"elements", m->elements}, {"where", m->where}, {"nan", m->nan},
          {"inf", m->inf},     {"samples", samples}};
}

std::string outcome_json(const EvalOutcome& outcome) {
  Json j = {
      {"id", outcome.job.id},
      {"problem", outcome.job.problem},
      {"candidate", outcome.job.candidate},
      {"verdict", outcome.verdict},
      {"passed", outcome.passed()},
      {"message", outcome.message},
      {"detail", outcome.detail},
      {"correctness",
       {{"trials", outcome.correctness.trials},
        {"max_abs_error", outcome.correctness.max_abs_error},
        {"max_rel_error", outcome.correctness.max_rel_error}}},
      {"reference_ms", optional_number(outcome.reference_ms)},
      {"candidate_ms", optional_number(outcome.candidate_ms)},
      {"reference_cached", outcome.reference_cached},
      {"speedup", outcome.speedup},
      {"score", outcome.score},
      {"compile_ms", optional_number(outcome.compile_ms)},
      {"speedup_vs_compile", optional_number(outcome.speedup_vs_compile)},
      {"mismatch", mismatch_json(outcome.mismatch)},
      {"profile",
       {{"roofline_ms", optional_number(outcome.profile.roofline_ms)},
        {"own_work_ms", optional_number(outcome.profile.own_work_ms)},
        {"own_work_share", optional_number(outcome.profile.own_work_share)},
        {"own_kernels", outcome.profile.own_kernels},
        {"background_cpu_ms", optional_number(outcome.profile.background_cpu_ms)}}},
      {"flags", outcome.flags},
      {"seconds", outcome.seconds},
      {"log", outcome.log},
  };
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

ResultsFile::ResultsFile(std::string path, int fd, std::map<std::string, FinishedJob> latest)
    : path_(std::move(path)), fd_(fd), latest_(std::move(latest)) {
  for (const auto& entry : latest_) finished_.insert(entry.first);
}

ResultsFile::ResultsFile(ResultsFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      finished_(std::move(other.finished_)),
      latest_(std::move(other.latest_)) {
  other.fd_ = -1;
}

// The record of `entry` (a line of the results file), or nullopt when it is
// not a result record.
static std::optional<FinishedJob> finished_job(const Json& entry) {
  if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) return std::nullopt;
  FinishedJob job;
  if (auto verdict = entry.find("verdict"); verdict != entry.end() && verdict->is_string())
    job.verdict = verdict->get<std::string>();
  if (auto speedup = entry.find("speedup"); speedup != entry.end() && speedup->is_number())
    job.speedup = speedup->get<double>();
  if (auto flags = entry.find("flags"); flags != entry.end() && flags->is_array())
    for (const Json& flag : *flags)
      if (flag.is_string()) job.flags.push_back(flag.get<std::string>());
  if (auto seconds = entry.find("seconds"); seconds != entry.end() && seconds->is_object())
    job.ran_alone = seconds->contains("first_attempt");
  return job;
}

ResultsFile::~ResultsFile() {
  if (fd_ >= 0) close(fd_);
}

Result<ResultsFile> ResultsFile::open(const std::string& path) {
  auto read = util::read_file_or_empty(path);
  if (!read) return Error(read.error().message() + " (the results file)");
  const std::string& text = *read;
  // A last line without its newline was cut short by a crash: dropped, so
  // its job runs again and the file stays one JSON object per line.
  size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (complete < text.size()) {
    std::error_code ec;
    fs::resize_file(path, complete, ec);
    if (ec) return Error(path + ": cannot drop the partial last line: " + ec.message());
  }
  std::map<std::string, FinishedJob> latest;
  size_t start = 0;
  for (int number = 1; start < complete; ++number) {
    size_t end = text.find('\n', start);
    Json entry = Json::parse(text.substr(start, end - start), nullptr, /*allow_exceptions=*/false);
    auto job = finished_job(entry);
    if (!job) return Error(path + ":" + std::to_string(number) + ": not a result record (an object with an \"id\")");
    latest[entry["id"].get<std::string>()] = std::move(*job);
    start = end + 1;
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error(path + ": cannot open the results file: " + strerror(errno));
  return ResultsFile(path, fd, std::move(latest));
}

Status ResultsFile::append(const EvalOutcome& outcome) {
  std::string line = outcome_json(outcome) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error(path_ + ": cannot append a result: " + strerror(errno));
    done += static_cast<size_t>(n);
  }
  if (fsync(fd_) != 0) return Error(path_ + ": cannot flush: " + strerror(errno));
  finished_.insert(outcome.job.id);
  latest_[outcome.job.id] = {outcome.verdict, outcome.flags, outcome.speedup};
  return Status::success();
}

}  // namespace kmem
