// Handlers of long work: evaluations and episodes are submitted as jobs
// (202 with the job's id) and asked for by id, optionally waiting for the
// end a bounded time (at most half the server's threads wait at once; past
// that a request answers at once).
#include <fmt/format.h>

#include <chrono>

#include "kmem/limits.h"
#include "serve/api.h"
#include "util/json_fields.h"

namespace kmem::serve {

using nlohmann::json;

namespace {

void send_submitted(httplib::Response& res, const std::string& id, const std::string& kind) {
  res.set_header("Location", fmt::format("/v1/{}s/{}", kind, id));
  send_json(res, {{"job", id}, {"kind", kind}, {"state", "queued"}}, 202);
}

std::string trimmed_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

void Api::submit_evaluation(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto body = json_body(call.req, {"problem", "candidate", "candidate_kind", "id"});
  if (!body) return send_error(call.res, 400, body.error().message());
  util::JsonFields f(*body, "request body");
  auto problem = f.string("problem");
  if (!problem) return send_error(call.res, 400, problem.error().message());
  auto candidate = f.string("candidate");
  if (!candidate) return send_error(call.res, 400, candidate.error().message());
  if (Status s = limits::check_text(*candidate); !s)
    return send_error(call.res, 400, "request body: field 'candidate': " + s.error().message());
  std::string kind = "python", id = "candidate";
  if (f.has("candidate_kind")) {
    auto k = f.string("candidate_kind");
    if (!k || (*k != "python" && *k != "reply"))
      return send_error(call.res, 400, "request body: field 'candidate_kind' must be \"python\" or \"reply\"");
    kind = *k;
  }
  if (f.has("id")) {
    auto i = f.string("id");
    if (!i) return send_error(call.res, 400, i.error().message());
    if (Status s = limits::check_item_id(*i); !s)
      return send_error(call.res, 400, "request body: field 'id': " + s.error().message());
    id = *i;
  }
  auto file = problem_file(*problem);
  if (!file) return send_error(call.res, 404, "request body: field 'problem': " + file.error().message());
  json payload = {{"id", id}, {"problem", *file}, {"candidate", *candidate}, {"candidate_kind", kind}};
  auto job = jobs_.submit(JobRequest{"evaluation", payload.dump()});
  if (!job) return send_error(call.res, 503, job.error().message());
  send_submitted(call.res, *job, "evaluation");
}

void Api::submit_episode(Call& call) {
  if (Status s = only_params(call.req, {}); !s) return send_error(call.res, 400, s.error().message());
  auto body = json_body(call.req, {"problem", "reader", "policy", "endpoint", "max_turns", "id"});
  if (!body) return send_error(call.res, 400, body.error().message());
  util::JsonFields f(*body, "request body");
  auto problem = f.string("problem");
  if (!problem) return send_error(call.res, 400, problem.error().message());
  auto reader = f.string("reader");
  if (!reader) return send_error(call.res, 400, reader.error().message());
  if (Status s = limits::check_reader_id(*reader); !s)
    return send_error(call.res, 400, "request body: field 'reader': " + s.error().message());
  auto policy = f.string("policy");
  if (!policy) return send_error(call.res, 400, policy.error().message());
  if (!snapshots_.current()->pack.policies.contains(*policy))
    return send_error(call.res, 400, fmt::format("request body: field 'policy': unknown policy '{}'", *policy));
  int max_turns = 5;
  if (f.has("max_turns")) {
    auto t = f.integer("max_turns");
    if (!t || *t < 1 || *t > 100)
      return send_error(call.res, 400, "request body: field 'max_turns' must be an integer from 1 to 100");
    max_turns = *t;
  }
  auto endpoint = f.object("endpoint");
  if (!endpoint) return send_error(call.res, 400, endpoint.error().message());
  util::JsonFields e(**endpoint, "request body: endpoint");
  if (Status s = e.is_object(); !s) return send_error(call.res, 400, s.error().message());
  if (Status s = e.only({"base_url", "model", "temperature", "max_tokens", "seed"}); !s)
    return send_error(call.res, 400, s.error().message());
  auto base_url = e.string("base_url");
  if (!base_url) return send_error(call.res, 400, base_url.error().message());
  auto model = e.string("model");
  if (!model) return send_error(call.res, 400, model.error().message());
  bool allowed = false;
  for (const std::string& url : config_.episode_endpoints)
    allowed = allowed || trimmed_url(url) == trimmed_url(*base_url);
  if (!allowed)
    return send_error(call.res, 400,
                      fmt::format("request body: field 'endpoint.base_url': '{}' is not an endpoint this server "
                                  "allows (kmem serve --episode-endpoint)",
                                  *base_url));
  json endpoint_payload = {{"base_url", trimmed_url(*base_url)}, {"model", *model}};
  if (e.has("temperature")) {
    auto t = e.finite("temperature");
    if (!t || *t < 0 || *t > 2)
      return send_error(call.res, 400, "request body: field 'endpoint.temperature' must be a number from 0 to 2");
    endpoint_payload["temperature"] = *t;
  }
  if (e.has("max_tokens")) {
    auto m = e.integer("max_tokens");
    if (!m || *m < 1)
      return send_error(call.res, 400, "request body: field 'endpoint.max_tokens' must be a positive integer");
    endpoint_payload["max_tokens"] = *m;
  }
  if (e.has("seed")) {
    auto s = e.integer("seed");
    if (!s) return send_error(call.res, 400, s.error().message());
    endpoint_payload["seed"] = *s;
  }
  auto file = problem_file(*problem);
  if (!file) return send_error(call.res, 404, "request body: field 'problem': " + file.error().message());
  auto found = resolve_problem(*file, "", rules_);
  if (!found) return send_error(call.res, 400, "request body: field 'problem': " + found.error().message());
  const Problem& p = found->problem;
  std::string id = fmt::format("{}-{}-{}", p.id, *reader, *policy);
  if (f.has("id")) {
    auto i = f.string("id");
    if (!i) return send_error(call.res, 400, i.error().message());
    if (Status s = limits::check_item_id(*i); !s)
      return send_error(call.res, 400, "request body: field 'id': " + s.error().message());
    id = *i;
  }
  json payload = {
      {"id", id},
      {"problem", {{"id", p.id}, {"level", p.level}, {"number", p.number}, {"name", p.name}, {"category", p.category}}},
      {"problem_path", found->path},
      {"reader", *reader},
      {"policy", *policy},
      {"max_turns", max_turns},
      {"endpoint", endpoint_payload}};
  auto job = jobs_.submit(JobRequest{"episode", payload.dump()});
  if (!job) return send_error(call.res, 503, job.error().message());
  send_submitted(call.res, *job, "episode");
}

void Api::evaluation_status(Call& call) { job_status(call, "evaluation"); }
void Api::episode_status(Call& call) { job_status(call, "episode"); }

void Api::job_status(Call& call, const char* kind) {
  if (Status s = only_params(call.req, {"wait"}); !s) return send_error(call.res, 400, s.error().message());
  auto wait = number_param(call.req, "wait", 0, config_.max_wait_s);
  if (!wait) return send_error(call.res, 400, wait.error().message());
  const std::string& id = call.params[0];
  std::optional<JobStatus> status;
  if (wait->value_or(0) > 0 && waiters_.fetch_add(1) < max_waiters_) {
    status = jobs_.wait(id, std::chrono::milliseconds(static_cast<long long>(**wait * 1000)));
    waiters_.fetch_sub(1);
  } else {
    if (wait->value_or(0) > 0) waiters_.fetch_sub(1);
    status = jobs_.status(id);
  }
  if (!status || status->kind != kind) return send_error(call.res, 404, fmt::format("no {} job '{}'", kind, id));
  std::string out = json{{"job", status->id}, {"kind", status->kind}, {"state", status->state}}.dump();
  out.pop_back();  // the closing brace: the outcome is inserted as it is
  if (status->state == "done") out += ",\"outcome\":" + status->result_json;
  if (status->state == "failed") out += ",\"error\":" + json(status->error).dump();
  out += "}";
  send_json_text(call.res, std::move(out));
}

}  // namespace kmem::serve
