// Where verified outcomes come from: the lines of a `kmem eval` results file
// (outcome_json's format) and the evaluated turns of stored episodes.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "kmem/check.h"
#include "kmem/learn.h"
#include "util/file.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// L<level>_<nnn> of a problem file in a level<L> folder, or "".
std::string problem_id_of(const std::string& path) {
  static const std::regex kLevel(R"(level(\d+))");
  static const std::regex kFile(R"((\d+)_.*\.py)");
  fs::path p(path);
  std::smatch level, file;
  std::string folder = p.parent_path().filename().string(), name = p.filename().string();
  if (!std::regex_match(folder, level, kLevel) || !std::regex_match(name, file, kFile)) return "";
  return fmt::format("L{}_{:03d}", std::stoi(level[1]), std::stoi(file[1]));
}

// A path of a results line: absolute as kmem eval writes it; an older file's
// relative path is the working directory's, else the results file's folder's.
fs::path located(const std::string& path, const std::string& base_dir) {
  fs::path p(path);
  if (p.is_relative() && !fs::exists(p)) p = fs::path(base_dir) / p;
  return p;
}

template <typename T>
Result<T> field(const Json& line, const char* key, const std::string& where) {
  if (!line.contains(key)) return Error(fmt::format("{}: missing field '{}'", where, key));
  try {
    return line.at(key).get<T>();
  } catch (const Json::exception&) {
    return Error(fmt::format("{}: field '{}' has the wrong type", where, key));
  }
}

}  // namespace

Result<std::string> candidate_source(const std::string& path, const std::string& text) {
  if (fs::path(path).extension() == ".py") return text;
  Reply reply = parse_reply(text);
  if (!reply.offences.empty() || reply.source.empty())
    return Error(fmt::format("{}: a reply without a complete ```python block", path));
  return reply.source;
}

Result<std::vector<VerifiedCandidate>> results_candidates(const std::string& text, const std::string& source_name,
                                                          const std::string& base_dir, const Memory& memory,
                                                          const EvaluatorIdentity& identity, const std::string& date) {
  std::vector<VerifiedCandidate> out;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = fmt::format("{}:{}", source_name, number);
    Json j = Json::parse(line, nullptr, false);
    if (!j.is_object()) return Error(where + ": not a JSON object (a kmem eval results line)");
    auto id = field<std::string>(j, "id", where);
    auto problem = field<std::string>(j, "problem", where);
    auto candidate = field<std::string>(j, "candidate", where);
    auto verdict = field<std::string>(j, "verdict", where);
    auto speedup = field<double>(j, "speedup", where);
    auto flags = field<std::vector<std::string>>(j, "flags", where);
    for (const Error* e :
         {id ? nullptr : &id.error(), problem ? nullptr : &problem.error(), candidate ? nullptr : &candidate.error(),
          verdict ? nullptr : &verdict.error(), speedup ? nullptr : &speedup.error(), flags ? nullptr : &flags.error()})
      if (e) return *e;
    VerifiedCandidate c;
    c.problem = problem_id_of(*problem);
    if (c.problem.empty())
      return Error(fmt::format("{}: problem '{}' is no level<N>/<n>_<Name>.py file", where, *problem));
    if (!memory.problems.contains(c.problem))
      return Error(
          fmt::format("{}: problem {} ({}) is not in the store (kmem problems import)", where, c.problem, *problem));
    c.verdict = *verdict;
    c.speedup = *speedup;
    c.flags = *flags;
    if (j.contains("reference_cached")) {
      auto cached = field<bool>(j, "reference_cached", where);
      if (!cached) return cached.error();
      c.reference_cached = *cached;
    }
    c.problem_path = located(*problem, base_dir).string();
    c.provenance = Provenance{fmt::format("eval:{}#{}", fs::path(source_name).filename().string(), *id), "",
                              identity.version, identity.gpu, date};
    if (c.verdict == "pass") {
      fs::path path = located(*candidate, base_dir);
      auto code = util::read_file(path.string());
      if (!code) return code.error().wrap(where + ": candidate");
      auto source = candidate_source(path.string(), *code);
      if (!source) return source.error().wrap(where + ": candidate");
      c.code = std::move(*source);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<VerifiedCandidate> episode_candidates(const std::vector<LearnedEpisode>& episodes,
                                                  const EvaluatorIdentity& identity, const std::string& date) {
  std::vector<VerifiedCandidate> out;
  for (const LearnedEpisode& e : episodes) {
    const EpisodeKey& k = e.episode.key;
    std::string origin = fmt::format("episode:{}/{}/{}/{}/{}", e.experiment, k.reader, k.policy, k.problem, k.sample);
    for (const StoredTurn& t : e.turns) {
      if (t.candidate.empty() || t.stage != "evaluator") continue;
      out.push_back(VerifiedCandidate{k.problem, t.candidate, t.verdict, t.speedup, t.flags,
                                      Provenance{origin, k.reader, identity.version, identity.gpu, date}});
    }
  }
  return out;
}

}  // namespace kmem
