// The experiment spec (kmem-experiment/1, docs/experiments.md): JSON or TOML
// into an ExperimentSpec, every field checked and unknown ones refused; and
// the problem entries resolved into problem files.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "kmem/experiment.h"
#include "util/strict_json.h"

namespace kmem {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* kFormat = "kmem-experiment/1";

// Reads typed fields of one JSON object, naming `where` in every error and
// refusing keys it was not asked about.
class Fields {
 public:
  Fields(const json& object, std::string where) : object_(object), where_(std::move(where)) {}

  Status string(const char* key, std::string& out, bool required = false) {
    return get(key, required, [&](const json& v) -> Status {
      if (!v.is_string() || v.get<std::string>().empty()) return fail(key, "must be a non-empty string");
      out = v.get<std::string>();
      return Status::success();
    });
  }
  Status integer(const char* key, int& out, int min, int max) {
    return get(key, false, [&](const json& v) -> Status {
      if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max)
        return fail(key, fmt::format("must be an integer from {} to {}", min, max));
      out = v.get<int>();
      return Status::success();
    });
  }
  Status number(const char* key, double& out, double min, double max) {
    return get(key, false, [&](const json& v) -> Status {
      if (!v.is_number() || v.get<double>() < min || v.get<double>() > max)
        return fail(key, fmt::format("must be a number from {} to {}", min, max));
      out = v.get<double>();
      return Status::success();
    });
  }
  Status strings(const char* key, std::vector<std::string>& out) {
    return get(key, true, [&](const json& v) -> Status {
      if (!v.is_array() || v.empty()) return fail(key, "must be a non-empty list of strings");
      std::set<std::string> seen;
      for (const auto& e : v) {
        if (!e.is_string() || e.get<std::string>().empty()) return fail(key, "must be a non-empty list of strings");
        if (!seen.insert(e.get<std::string>()).second)
          return fail(key, fmt::format("names '{}' twice", e.get<std::string>()));
        out.push_back(e.get<std::string>());
      }
      return Status::success();
    });
  }
  // A key read by hand.
  void known(const char* key) { asked_.insert(key); }
  // After every get: an error naming a key that no get asked for.
  Status no_other_keys() const {
    for (const auto& [key, value] : object_.items())
      if (!asked_.contains(key)) return Error(fmt::format("{}: unknown key '{}'", where_, key));
    return Status::success();
  }
  Error fail(const char* key, const std::string& what) const { return Error(fmt::format("{}.{}: {}", where_, key, what)); }

 private:
  template <typename Read>
  Status get(const char* key, bool required, Read read) {
    asked_.insert(key);
    auto it = object_.find(key);
    if (it == object_.end()) return required ? fail(key, "is missing") : Status::success();
    return read(*it);
  }
  const json& object_;
  std::string where_;
  std::set<std::string> asked_;
};

Result<ReaderSpec> parse_reader(const json& v, const std::string& where) {
  if (!v.is_object()) return Error(where + ": must be an object");
  ReaderSpec r;
  Fields f(v, where);
  EndpointConfig& e = r.endpoint;
  double seed = -1;
  for (Status s : {f.string("id", r.id, true), f.string("endpoint", e.base_url, true), f.string("model", e.model, true),
                   f.string("api_key_env", e.api_key_env), f.number("temperature", e.temperature, 0, 2),
                   f.integer("max_tokens", e.max_tokens, 1, 1 << 24), f.number("seed", seed, 0, 9.0e15),
                   f.number("timeout_s", e.timeout_s, 0.001, 86400), f.integer("retries", e.retries, 0, 100),
                   f.number("backoff_s", e.backoff_s, 0, 3600), f.string("record_dir", e.record_dir),
                   f.string("replay_dir", e.replay_dir), f.no_other_keys()})
    if (!s) return s.error();
  if (v.contains("seed")) {
    if (!v["seed"].is_number_integer()) return f.fail("seed", "must be an integer");
    e.seed = static_cast<long>(seed);
  }
  if (!e.record_dir.empty() && !e.replay_dir.empty()) return f.fail("replay_dir", "and record_dir exclude each other");
  return r;
}

std::string absolute(const std::string& base_dir, const std::string& path) {
  if (path.empty()) return path;
  return fs::absolute(fs::path(base_dir) / path).lexically_normal().string();
}

// The fields that decide the results, in a fixed order.
std::string canonical(const ExperimentSpec& spec) {
  json readers = json::array();
  for (const auto& r : spec.readers) {
    json reader = {{"id", r.id}, {"model", r.endpoint.model}, {"temperature", r.endpoint.temperature},
                   {"max_tokens", r.endpoint.max_tokens}};
    if (r.endpoint.seed) reader["seed"] = *r.endpoint.seed;
    readers.push_back(reader);
  }
  json out = {{"format", kFormat},         {"name", spec.name},         {"problems", spec.problems},
              {"readers", readers},        {"policies", spec.policies}, {"samples", spec.samples},
              {"device", spec.device},     {"max_turns", spec.max_turns}};
  return out.dump();
}

Result<ExperimentSpec> parse_json_spec(const json& doc, const std::string& source, const std::string& base_dir) {
  if (!doc.is_object()) return Error(source + ": a spec is a JSON object");
  ExperimentSpec spec;
  spec.base_dir = base_dir;
  Fields f(doc, source);
  std::string format;
  for (Status s : {f.string("format", format, true), f.string("name", spec.name, true),
                   f.string("kernelbench", spec.kernelbench), f.strings("problems", spec.problems),
                   f.strings("policies", spec.policies), f.integer("samples", spec.samples, 1, 100000),
                   f.string("device", spec.device), f.integer("max_turns", spec.max_turns, 1, 1000),
                   f.integer("concurrency", spec.concurrency, 1, 4096),
                   f.integer("eval_parallel", spec.eval_parallel, 1, 1024)})
    if (!s) return s.error();
  auto readers = doc.find("readers");
  if (readers == doc.end() || !readers->is_array() || readers->empty())
    return f.fail("readers", readers == doc.end() ? "is missing" : "must be a non-empty list of readers");
  std::set<std::string> ids;
  for (size_t i = 0; i < readers->size(); ++i) {
    auto reader = parse_reader((*readers)[i], fmt::format("{}.readers[{}]", source, i));
    if (!reader) return reader.error();
    if (!ids.insert(reader->id).second) return Error(fmt::format("{}.readers[{}]: reader '{}' named twice", source, i, reader->id));
    reader->endpoint.record_dir = absolute(base_dir, reader->endpoint.record_dir);
    reader->endpoint.replay_dir = absolute(base_dir, reader->endpoint.replay_dir);
    spec.readers.push_back(std::move(*reader));
  }
  f.known("readers");
  if (Status s = f.no_other_keys(); !s) return s.error();
  if (format != kFormat) return f.fail("format", fmt::format("must be \"{}\"", kFormat));
  if (spec.device != "cpu" && spec.device != "cuda") return f.fail("device", "must be \"cpu\" or \"cuda\"");
  static const std::regex kName(R"([A-Za-z0-9][A-Za-z0-9._-]*)");
  if (!std::regex_match(spec.name, kName)) return f.fail("name", "may hold letters, digits, '.', '_' and '-'");
  spec.kernelbench = absolute(base_dir, spec.kernelbench);
  spec.canonical_json = canonical(spec);
  return spec;
}

}  // namespace

Result<ExperimentSpec> parse_experiment_spec(std::string_view text, const std::string& format,
                                             const std::string& source_name, const std::string& base_dir) {
  if (format == "json") {
    auto doc = parse_strict_json(text, source_name);
    if (!doc) return doc.error();
    return parse_json_spec(*doc, source_name, base_dir);
  }
  if (format != "toml") return Error(fmt::format("{}: unknown spec format '{}'", source_name, format));
  try {
    toml::table table = toml::parse(text, source_name);
    std::ostringstream out;
    out << toml::json_formatter{table};
    auto doc = parse_strict_json(out.str(), source_name);
    if (!doc) return doc.error();
    return parse_json_spec(*doc, source_name, base_dir);
  } catch (const toml::parse_error& e) {
    return Error(fmt::format("{}:{}:{}: {}", source_name, e.source().begin.line, e.source().begin.column,
                             std::string(e.description())));
  }
}

Result<ExperimentSpec> load_experiment_spec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot read the spec");
  std::ostringstream text;
  text << in.rdbuf();
  std::string format = fs::path(path).extension() == ".toml" ? "toml" : "json";
  std::string base = fs::path(path).parent_path().string();
  return parse_experiment_spec(text.str(), format, path, base.empty() ? "." : base);
}

Result<std::vector<ExperimentProblem>> resolve_problems(const ExperimentSpec& spec, const CategoryRules& rules) {
  static const std::regex kId(R"(L\d{1,3}_\d{3})"), kLevel(R"(level(\d+))");
  std::map<std::string, ExperimentProblem> found;
  auto add = [&](const ProblemFile& p, const std::string& entry) -> Status {
    auto [it, fresh] = found.emplace(p.problem.id, ExperimentProblem{p.problem, p.path});
    if (!fresh && it->second.path != p.path)
      return Error(fmt::format("problem '{}': {} and {} are both {}", entry, it->second.path, p.path, p.problem.id));
    return Status::success();
  };
  auto add_level = [&](const std::string& dir, int level, const std::string& entry) -> Status {
    auto all = scan_kernelbench(dir, rules);
    if (!all) return all.error().wrap(fmt::format("problem '{}'", entry));
    size_t before = found.size();
    for (const auto& p : *all)
      if (p.problem.level == level)
        if (Status s = add(p, entry); !s) return s;
    if (found.size() == before) return Error(fmt::format("problem '{}': no level {} problems in {}", entry, level, dir));
    return Status::success();
  };
  for (const std::string& entry : spec.problems) {
    std::smatch level;
    Status s;
    if (std::regex_match(entry, kId)) {
      auto p = resolve_problem(entry, spec.kernelbench, rules);
      s = p ? add(*p, entry) : Status(p.error().wrap(fmt::format("problem '{}'", entry)));
    } else if (std::regex_match(entry, level, kLevel)) {
      if (spec.kernelbench.empty()) return Error(fmt::format("problem '{}': a level needs \"kernelbench\"", entry));
      s = add_level(spec.kernelbench, std::stoi(level[1].str()), entry);
    } else {
      fs::path path = fs::path(spec.base_dir) / entry;
      std::string name = path.lexically_normal().filename().string();
      if (name.empty()) name = path.lexically_normal().parent_path().filename().string();
      std::smatch folder;
      if (fs::is_directory(path) && std::regex_match(name, folder, kLevel)) {
        s = add_level(path.lexically_normal().parent_path().string(), std::stoi(folder[1].str()), entry);
      } else if (fs::is_directory(path)) {
        auto all = scan_kernelbench(path.string(), rules);
        if (!all) return all.error().wrap(fmt::format("problem '{}'", entry));
        if (all->empty()) return Error(fmt::format("problem '{}': no KernelBench problems in that folder", entry));
        for (const auto& p : *all)
          if (s = add(p, entry); !s) break;
      } else if (fs::exists(path)) {
        auto p = resolve_problem(path.string(), spec.kernelbench, rules);
        s = p ? add(*p, entry) : Status(p.error().wrap(fmt::format("problem '{}'", entry)));
      } else {
        s = Error(fmt::format("problem '{}': not a problem id (L<level>_<nnn>), a level (level<N>), a file or a folder",
                              entry));
      }
    }
    if (!s) return s.error();
  }
  std::vector<ExperimentProblem> out;
  for (auto& [id, p] : found) out.push_back(std::move(p));
  return out;
}

}  // namespace kmem
