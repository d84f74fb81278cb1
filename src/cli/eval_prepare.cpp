// Before a candidate runs: read it, take a reply's code block, apply the
// static rules, and hand the worker a Python file.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "eval_command.h"
#include "files.h"
#include "kmem/check.h"

namespace kmem::cli {

namespace fs = std::filesystem;

std::variant<EvalJob, EvalOutcome> prepare_candidate(EvalJob job, const EvalOptions& options) {
  auto text = read_file(job.candidate);
  if (!text) return rejected_outcome(job, "missing_candidate", text.error().message());
  const bool is_reply = fs::path(job.candidate).extension() != ".py";
  Reply reply;
  if (is_reply) {
    reply = parse_reply(*text);
    if (!reply.verdicts.empty()) {
      EvalOutcome outcome = rejected_outcome(job, reply.verdicts.front().code, "");
      outcome.message = reply.verdicts.front().message;
      return outcome;
    }
  }

  // The static rules run before any code does; the first offence is the
  // verdict, and every offence is listed in the detail.
  std::vector<Verdict> offences = is_reply ? check_reply(*text) : check_source(*text);
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
  fs::path path = folder / fmt::format("{:016x}.py", std::hash<std::string>{}(reply.source));
  std::ofstream(path, std::ios::binary) << reply.source;
  job.candidate = path.string();
  return job;
}

}  // namespace kmem::cli
