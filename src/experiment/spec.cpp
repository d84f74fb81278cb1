// The experiment spec (kmem-experiment/1, docs/experiments.md): JSON or TOML
// into an ExperimentSpec, every field checked and unknown ones refused; and
// the problem entries resolved into problem files.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "kmem/experiment.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* kFormat = "kmem-experiment/1";

// The spec's fields, read through JsonFields with the ranges the spec allows;
// an absent optional field keeps the default already in `out`.
class SpecFields {
 public:
  SpecFields(const json& object, std::string where) : f_(object, std::move(where)) {}

  Status string(const char* key, std::string& out, bool required = false) const {
    if (!f_.has(key)) return required ? Status(f_.string(key).error()) : Status::success();
    auto value = f_.string(key);
    if (!value || value->empty()) return f_.wrong(key, "a non-empty string");
    out = std::move(*value);
    return Status::success();
  }
  Status integer(const char* key, int& out, int min, int max) const {
    if (!f_.has(key)) return Status::success();
    auto value = f_.integer(key);
    if (!value || *value < min || *value > max) return f_.wrong(key, fmt::format("an integer from {} to {}", min, max));
    out = *value;
    return Status::success();
  }
  Status number(const char* key, double& out, double min, double max) const {
    if (!f_.has(key)) return Status::success();
    auto value = f_.finite(key);
    if (!value || *value < min || *value > max) return f_.wrong(key, fmt::format("a number from {} to {}", min, max));
    out = *value;
    return Status::success();
  }
  // A required, non-empty list of distinct non-empty strings.
  Status strings(const char* key, std::vector<std::string>& out) const {
    auto values = f_.strings(key);
    if (!values) return f_.has(key) ? f_.wrong(key, "a non-empty list of strings") : values.error();
    std::set<std::string> seen;
    for (const std::string& v : *values) {
      if (v.empty()) return f_.wrong(key, "a non-empty list of strings");
      if (!seen.insert(v).second) return f_.error(fmt::format("field '{}' names '{}' twice", key, v));
    }
    if (values->empty()) return f_.wrong(key, "a non-empty list of strings");
    out = std::move(*values);
    return Status::success();
  }
  Status only(std::initializer_list<std::string_view> keys) const { return f_.only(keys); }
  Error fail(const char* key, const std::string& what) const { return f_.wrong(key, what); }
  Error error(const std::string& what) const { return f_.error(what); }

 private:
  util::JsonFields f_;
};

Result<ReaderSpec> parse_reader(const json& v, const std::string& where) {
  if (!v.is_object()) return Error(where + ": must be an object");
  ReaderSpec r;
  SpecFields f(v, where);
  EndpointConfig& e = r.endpoint;
  double seed = -1;
  for (Status s : {f.only({"id", "endpoint", "model", "api_key_env", "temperature", "max_tokens", "seed", "timeout_s",
                           "retries", "backoff_s", "record_dir", "replay_dir"}),
                   f.string("id", r.id, true), f.string("endpoint", e.base_url, true), f.string("model", e.model, true),
                   f.string("api_key_env", e.api_key_env), f.number("temperature", e.temperature, 0, 2),
                   f.integer("max_tokens", e.max_tokens, 1, 1 << 24), f.number("seed", seed, 0, 9.0e15),
                   f.number("timeout_s", e.timeout_s, 0.001, 86400), f.integer("retries", e.retries, 0, 100),
                   f.number("backoff_s", e.backoff_s, 0, 3600), f.string("record_dir", e.record_dir),
                   f.string("replay_dir", e.replay_dir)})
    if (!s) return s.error();
  if (v.contains("seed")) {
    if (!v["seed"].is_number_integer()) return f.fail("seed", "an integer");
    e.seed = static_cast<long>(seed);
  }
  if (!e.record_dir.empty() && !e.replay_dir.empty())
    return f.error("fields 'replay_dir' and 'record_dir' exclude each other");
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
    json reader = {{"id", r.id},
                   {"model", r.endpoint.model},
                   {"temperature", r.endpoint.temperature},
                   {"max_tokens", r.endpoint.max_tokens}};
    if (r.endpoint.seed) reader["seed"] = *r.endpoint.seed;
    readers.push_back(reader);
  }
  json out = {{"format", kFormat},     {"name", spec.name},          {"problems", spec.problems},
              {"readers", readers},    {"policies", spec.policies},  {"samples", spec.samples},
              {"device", spec.device}, {"max_turns", spec.max_turns}};
  return out.dump();
}

Result<ExperimentSpec> parse_json_spec(const json& doc, const std::string& source, const std::string& base_dir) {
  if (!doc.is_object()) return Error(source + ": a spec is a JSON object");
  ExperimentSpec spec;
  spec.base_dir = base_dir;
  SpecFields f(doc, source);
  std::string format;
  for (Status s :
       {f.only({"format", "name", "kernelbench", "problems", "policies", "samples", "device", "max_turns",
                "concurrency", "eval_parallel", "readers"}),
        f.string("format", format, true), f.string("name", spec.name, true), f.string("kernelbench", spec.kernelbench),
        f.strings("problems", spec.problems), f.strings("policies", spec.policies),
        f.integer("samples", spec.samples, 1, 100000), f.string("device", spec.device),
        f.integer("max_turns", spec.max_turns, 1, 1000), f.integer("concurrency", spec.concurrency, 1, 4096),
        f.integer("eval_parallel", spec.eval_parallel, 1, 1024)})
    if (!s) return s.error();
  auto readers = doc.find("readers");
  if (readers == doc.end() || !readers->is_array() || readers->empty())
    return readers == doc.end() ? f.error("missing field 'readers'") : f.fail("readers", "a non-empty list of readers");
  std::set<std::string> ids;
  for (size_t i = 0; i < readers->size(); ++i) {
    auto reader = parse_reader((*readers)[i], fmt::format("{}: readers[{}]", source, i));
    if (!reader) return reader.error();
    if (!ids.insert(reader->id).second)
      return Error(fmt::format("{}: readers[{}]: reader '{}' named twice", source, i, reader->id));
    reader->endpoint.record_dir = absolute(base_dir, reader->endpoint.record_dir);
    reader->endpoint.replay_dir = absolute(base_dir, reader->endpoint.replay_dir);
    spec.readers.push_back(std::move(*reader));
  }
  if (format != kFormat) return f.fail("format", fmt::format("\"{}\"", kFormat));
  if (spec.device != "cpu" && spec.device != "cuda") return f.fail("device", "\"cpu\" or \"cuda\"");
  static const std::regex kName(R"([A-Za-z0-9][A-Za-z0-9._-]*)");
  if (!std::regex_match(spec.name, kName)) return f.error("field 'name' may hold letters, digits, '.', '_' and '-'");
  spec.kernelbench = absolute(base_dir, spec.kernelbench);
  spec.canonical_json = canonical(spec);
  return spec;
}

}  // namespace

Result<ExperimentSpec> parse_experiment_spec(std::string_view text, const std::string& format,
                                             const std::string& source_name, const std::string& base_dir) {
  if (format == "json") {
    auto doc = util::parse_strict_json(text, source_name);
    if (!doc) return doc.error();
    return parse_json_spec(*doc, source_name, base_dir);
  }
  if (format != "toml") return Error(fmt::format("{}: unknown spec format '{}'", source_name, format));
  try {
    toml::table table = toml::parse(text, source_name);
    std::ostringstream out;
    out << toml::json_formatter{table};
    auto doc = util::parse_strict_json(out.str(), source_name);
    if (!doc) return doc.error();
    return parse_json_spec(*doc, source_name, base_dir);
  } catch (const toml::parse_error& e) {
    return Error(fmt::format("{}:{}:{}: {}", source_name, e.source().begin.line, e.source().begin.column,
                             std::string(e.description())));
  }
}

Result<ExperimentSpec> load_experiment_spec(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return text.error();
  std::string format = fs::path(path).extension() == ".toml" ? "toml" : "json";
  std::string base = fs::path(path).parent_path().string();
  return parse_experiment_spec(*text, format, path, base.empty() ? "." : base);
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
    if (found.size() == before)
      return Error(fmt::format("problem '{}': no level {} problems in {}", entry, level, dir));
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
