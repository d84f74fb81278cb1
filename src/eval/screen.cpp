// Screening a candidate with the static rules before it runs.
#include "screen.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kmem/check.h"

namespace kmem::eval {

namespace fs = std::filesystem;

// The whole file, or why it cannot be read.
static Result<std::string> read_candidate(const std::string& path) {
  if (std::error_code ec; fs::is_directory(path, ec)) return Error(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(path + ": read failed");
  return text.str();
}

std::variant<EvalJob, EvalOutcome> screen(const EvalJob& job, const EvalOptions& options) {
  auto text = read_candidate(job.candidate);
  if (!text) return rejected_outcome(job, "evaluator_error", text.error().message());
  std::string source = *text;
  bool is_reply = fs::path(job.candidate).extension() != ".py";
  if (is_reply) {
    Reply reply = parse_reply(source);
    if (!reply.verdicts.empty()) {
      EvalOutcome outcome = rejected_outcome(job, reply.verdicts.front().code, "");
      outcome.message = reply.verdicts.front().message;
      return outcome;
    }
    source = reply.source;
  }
  // The first offence is the verdict, and every offence is listed in the detail.
  std::vector<Verdict> offences = check_source(source);
  if (!offences.empty()) {
    std::string detail;
    for (const Verdict& v : offences) detail += fmt::format("{}:{}: {}: {}\n", v.line, v.column, v.code, v.message);
    EvalOutcome outcome = rejected_outcome(job, offences.front().code, detail);
    outcome.message = offences.front().message;
    return outcome;
  }
  if (!is_reply) return job;
  fs::path folder = fs::path(options.cache_dir) / "sources";
  std::error_code ec;
  fs::create_directories(folder, ec);
  fs::path path = folder / fmt::format("{:016x}.py", std::hash<std::string>{}(source));
  std::ofstream(path, std::ios::binary) << source;
  EvalJob extracted = job;
  extracted.candidate = path.string();
  return extracted;
}

}  // namespace kmem::eval
