// Running one job of the server (docs/serve.md, "Jobs"): an evaluation (the
// candidate's text is written into a fresh folder under the work folder and
// evaluated, the outcome as `kmem eval --json` prints it) or an episode
// (against one of the endpoints the server allows, with the memory as the
// store holds it when the episode starts). Payloads are data, so a queue
// worker on another machine runs them with the same executor. Every job's
// candidates go to one running evaluation (make_streaming_evaluator): one
// timing lock and one device-memory budget for all of them, and workers
// kept warm between jobs for ServeConfig::keep_warm_s.
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "kmem/episode.h"
#include "kmem/experiment.h"
#include "kmem/serve.h"
#include "kmem/store.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

// A new folder under `work_dir` for one job's files.
Result<std::string> job_folder(const std::string& work_dir, const std::string& kind) {
  std::error_code error;
  fs::create_directories(work_dir, error);
  if (error) return Error(fmt::format("{}: cannot create the work folder: {}", work_dir, error.message()));
  std::string pattern = (fs::path(work_dir) / (kind + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return Error(fmt::format("{}: cannot create a job folder: {}", work_dir, std::strerror(errno)));
  return pattern;
}

Result<std::string> run_evaluation(const ServeConfig& config, CandidateEvaluator& evaluator,
                                   const nlohmann::json& payload) {
  util::JsonFields f(payload, "evaluation payload");
  auto id = f.string("id");
  if (!id) return id.error();
  auto problem = f.string("problem");
  if (!problem) return problem.error();
  auto candidate = f.string("candidate");
  if (!candidate) return candidate.error();
  auto kind = f.string("candidate_kind");
  if (!kind) return kind.error();
  auto folder = job_folder(config.work_dir, "evaluation");
  if (!folder) return folder.error();
  std::string path = (fs::path(*folder) / (*kind == "reply" ? "reply.md" : "candidate.py")).string();
  std::ofstream out(path, std::ios::binary);
  out << *candidate;
  out.close();
  if (!out) return Error(fmt::format("{}: cannot write the candidate", path));
  EvalOutcome outcome = evaluator.evaluate(EvalJob{*id, *problem, path});
  return outcome_json(outcome);
}

Result<Pack> load_pack(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return text.error();
  return parse_pack_json(*text, path);
}

Result<std::string> run_episode_job(const ServeConfig& config, CandidateEvaluator& evaluator,
                                    const nlohmann::json& payload) {
  util::JsonFields f(payload, "episode payload");
  EpisodeSpec spec;
  auto problem = f.object("problem");
  if (!problem) return problem.error();
  util::JsonFields p(**problem, "episode payload: problem");
  for (auto [key, field] : {std::pair{"id", &spec.problem.id}, std::pair{"name", &spec.problem.name},
                            std::pair{"category", &spec.problem.category}}) {
    auto value = p.string(key);
    if (!value) return value.error();
    *field = *value;
  }
  for (auto [key, field] : {std::pair{"level", &spec.problem.level}, std::pair{"number", &spec.problem.number}}) {
    auto value = p.integer(key);
    if (!value) return value.error();
    *field = *value;
  }
  for (auto [key, field] : {std::pair{"problem_path", &spec.problem_path}, std::pair{"reader", &spec.reader},
                            std::pair{"policy", &spec.policy}, std::pair{"id", &spec.id}}) {
    auto value = f.string(key);
    if (!value) return value.error();
    *field = *value;
  }
  auto turns = f.integer("max_turns");
  if (!turns) return turns.error();
  spec.max_turns = *turns;
  auto endpoint_json = f.object("endpoint");
  if (!endpoint_json) return endpoint_json.error();
  util::JsonFields e(**endpoint_json, "episode payload: endpoint");
  EndpointConfig endpoint;
  auto base_url = e.string("base_url");
  if (!base_url) return base_url.error();
  auto model = e.string("model");
  if (!model) return model.error();
  endpoint.base_url = *base_url;
  endpoint.model = *model;
  if (e.has("temperature")) {
    auto t = e.finite("temperature");
    if (!t) return t.error();
    endpoint.temperature = *t;
  }
  if (e.has("max_tokens")) {
    auto m = e.integer("max_tokens");
    if (!m) return m.error();
    endpoint.max_tokens = *m;
  }
  if (e.has("seed")) {
    auto s = e.integer("seed");
    if (!s) return s.error();
    endpoint.seed = *s;
  }
  spec.model = endpoint.model;
  spec.device = config.eval.device;

  auto memory = load_memory(config.store_path);
  if (!memory) return memory.error();
  auto pack = load_pack(config.pack_path);
  if (!pack) return pack.error();
  if (pack->episode.empty()) {
    auto seed = load_pack(config.seed_pack_path);
    if (!seed) return seed.error();
    pack->episode = seed->episode;
  }
  auto chat = make_chat_client(endpoint);
  if (!chat) return chat.error();
  auto folder = job_folder(config.work_dir, "episode");
  if (!folder) return folder.error();
  MemoryIndex index(*memory);
  EpisodeContext context{&index, &*pack, chat->get(), &evaluator, *folder};
  auto outcome = run_episode(spec, context);
  if (!outcome) return outcome.error();
  return episode_json(*outcome);
}

}  // namespace

JobExecutor make_job_executor(const ServeConfig& config) {
  // One evaluation for every job, kept running while jobs come.
  std::shared_ptr<CandidateEvaluator> evaluator =
      make_streaming_evaluator(config.eval, std::max(1, config.eval.parallel), kStreamingGatherS, config.keep_warm_s);
  return [config, evaluator](const JobRequest& request) -> Result<std::string> {
    auto payload = util::parse_strict_json(request.payload_json, request.kind + " payload");
    if (!payload) return payload.error();
    if (!payload->is_object()) return Error(request.kind + " payload: must be an object");
    if (request.kind == "evaluation") return run_evaluation(config, *evaluator, *payload);
    if (request.kind == "episode") return run_episode_job(config, *evaluator, *payload);
    return Error(fmt::format("unknown job kind '{}'", request.kind));
  };
}

}  // namespace kmem
