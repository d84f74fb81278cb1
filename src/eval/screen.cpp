// Screening a candidate with the static rules before it runs.
#include "screen.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "kmem/check.h"
#include "util/file.h"

namespace kmem::eval {

namespace fs = std::filesystem;

std::variant<EvalJob, EvalOutcome> screen(const EvalJob& job, const EvalOptions& options) {
  auto text = util::read_file(job.candidate);
  if (!text) return rejected_outcome(job, "missing_candidate", text.error().message());
  const bool is_reply = fs::path(job.candidate).extension() != ".py";
  Reply reply;
  if (is_reply) {
    reply = parse_reply(*text);
    if (!reply.offences.empty()) {
      EvalOutcome outcome = rejected_outcome(job, reply.offences.front().code, "");
      outcome.message = reply.offences.front().message;
      return outcome;
    }
  }
  // The first offence is the verdict, and every offence is listed in the
  // detail; a reply's lines count in the reply, as `kmem check` counts them.
  std::vector<Offence> offences = is_reply ? check_reply(*text) : check_source(*text);
  if (!offences.empty()) {
    std::string detail;
    for (const Offence& v : offences) detail += fmt::format("{}:{}: {}: {}\n", v.line, v.column, v.code, v.message);
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
  EvalJob extracted = job;
  extracted.candidate = path.string();
  return extracted;
}

}  // namespace kmem::eval
