// The texts that travel through the job queue for an evaluation: the
// payload a submitter enqueues (the sources themselves, so a worker on
// another machine needs no shared files) and the outcome a worker stores
// (outcome_json's format, read back here).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/queue.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {

using Json = nlohmann::json;

Result<EvalRequest> read_eval_request(const EvalJob& job) {
  EvalRequest request{job.id, job.problem, "", job.candidate, ""};
  auto problem = util::read_file(job.problem);
  if (!problem) return problem.error().wrap("job " + job.id + ": the problem");
  auto candidate = util::read_file(job.candidate);
  if (!candidate) return candidate.error().wrap("job " + job.id + ": the candidate");
  request.problem_source = std::move(*problem);
  request.candidate_source = std::move(*candidate);
  return request;
}

namespace {

// The options a payload carries: those that decide a verdict.
Json verdict_options(const EvalOptions& o) {
  return {{"tolerance", o.tolerance},
          {"trials", o.trials},
          {"warmup", o.warmup},
          {"iters", o.iters},
          {"build_timeout_s", o.build_timeout_s},
          {"run_timeout_s", o.run_timeout_s},
          {"memory_limit_mb", o.memory_limit_mb}};
}

}  // namespace

std::string eval_payload_json(const EvalRequest& request, const EvalOptions& o) {
  Json j = {
      {"id", request.id},
      {"problem", {{"name", request.problem_name}, {"source", request.problem_source}}},
      {"candidate", {{"name", request.candidate_name}, {"source", request.candidate_source}}},
      {"options", verdict_options(o)},
  };
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string verdict_options_key(const EvalOptions& options) { return verdict_options(options).dump(); }

namespace {

// {"name", "source"} of the payload's problem or candidate.
Status read_named_source(const util::JsonFields& payload, const char* key, std::string& name, std::string& source) {
  auto object = payload.object(key);
  if (!object) return object.error();
  util::JsonFields f(**object, payload.where() + ": " + key);
  if (Status s = f.only({"name", "source"}); !s) return s;
  auto n = f.string("name");
  if (!n) return n.error();
  auto text = f.string("source");
  if (!text) return text.error();
  name = std::move(*n);
  source = std::move(*text);
  return Status::success();
}

Status read_options(const util::JsonFields& payload, EvalOptions& o) {
  auto object = payload.object("options");
  if (!object) return object.error();
  util::JsonFields f(**object, payload.where() + ": options");
  if (Status s =
          f.only({"tolerance", "trials", "warmup", "iters", "build_timeout_s", "run_timeout_s", "memory_limit_mb"});
      !s)
    return s;
  for (auto [key, field] : {std::pair{"tolerance", &o.tolerance},
                            {"build_timeout_s", &o.build_timeout_s},
                            {"run_timeout_s", &o.run_timeout_s}}) {
    auto value = f.finite(key);
    if (!value) return value.error();
    *field = *value;
  }
  for (auto [key, field] : {std::pair{"trials", &o.trials}, {"warmup", &o.warmup}, {"iters", &o.iters}}) {
    auto value = f.integer(key);
    if (!value) return value.error();
    *field = *value;
  }
  auto memory = f.finite("memory_limit_mb");
  if (!memory) return memory.error();
  o.memory_limit_mb = static_cast<long>(*memory);
  return Status::success();
}

}  // namespace

Result<EvalPayload> parse_eval_payload(const std::string& payload_json, const EvalOptions& base) {
  const std::string where = "eval payload";
  auto json = util::parse_strict_json(payload_json, where);
  if (!json) return json.error();
  util::JsonFields f(*json, where);
  if (Status s = f.is_object(); !s) return s.error();
  if (Status s = f.only({"id", "problem", "candidate", "options"}); !s) return s.error();
  EvalPayload payload{{}, base};
  auto id = f.string("id");
  if (!id) return id.error();
  payload.request.id = *id;
  EvalRequest& r = payload.request;
  if (Status s = read_named_source(f, "problem", r.problem_name, r.problem_source); !s) return s.error();
  if (Status s = read_named_source(f, "candidate", r.candidate_name, r.candidate_source); !s) return s.error();
  if (Status s = read_options(f, payload.options); !s) return s.error();
  return payload;
}

Result<EvalOutcome> parse_outcome_json(const std::string& json_text, const std::string& where) {
  auto json = util::parse_strict_json(json_text, where);
  if (!json) return json.error();
  util::JsonFields f(*json, where);
  if (Status s = f.is_object(); !s) return s.error();
  EvalOutcome o;
  for (auto [key, field] : {std::pair{"id", &o.job.id},
                            {"problem", &o.job.problem},
                            {"candidate", &o.job.candidate},
                            {"verdict", &o.verdict},
                            {"message", &o.message},
                            {"detail", &o.detail},
                            {"log", &o.log}}) {
    auto value = f.string(key);
    if (!value) return value.error();
    *field = std::move(*value);
  }
  auto correctness = f.object("correctness");
  if (!correctness) return correctness.error();
  util::JsonFields c(**correctness, where + ": correctness");
  auto trials = c.integer("trials");
  auto abs_error = c.finite("max_abs_error");
  auto rel_error = c.finite("max_rel_error");
  if (!trials) return trials.error();
  if (!abs_error) return abs_error.error();
  if (!rel_error) return rel_error.error();
  o.correctness = Correctness{*trials, *abs_error, *rel_error};
  for (auto [key, field] : {std::pair{"reference_ms", &o.reference_ms}, {"candidate_ms", &o.candidate_ms}}) {
    if (!f.has(key)) continue;
    auto value = f.finite(key);
    if (!value) return value.error();
    *field = *value;
  }
  auto cached = f.boolean("reference_cached");
  auto speedup = f.finite("speedup");
  auto score = f.finite("score");
  auto flags = f.strings("flags");
  auto seconds = f.object("seconds");
  if (!cached) return cached.error();
  if (!speedup) return speedup.error();
  if (!score) return score.error();
  if (!flags) return flags.error();
  if (!seconds) return seconds.error();
  o.reference_cached = *cached;
  o.speedup = *speedup;
  o.score = *score;
  o.flags = std::move(*flags);
  for (const auto& [stage, value] : (*seconds)->items()) {
    auto s = f.finite_value(value, "seconds." + stage);
    if (!s) return s.error();
    o.seconds[stage] = *s;
  }
  return o;
}

}  // namespace kmem
