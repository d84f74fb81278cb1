// The scripted endpoint (scripted_endpoint.h): the script parser, the choice
// of reply for a request, and the cpp-httplib server that sends it.
#include "kmem/scripted_endpoint.h"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

using Json = nlohmann::json;

constexpr const char* kScriptFormat = "kmem-scripted-endpoint/1";

// Reads the optional field `key` of `f` into `out` when it is present.
template <typename T, typename Read>
Status optional(const util::JsonFields& f, std::string_view key, T& out, Read read) {
  if (!f.has(key)) return Status::success();
  auto value = (f.*read)(key);
  if (!value) return value.error();
  out = std::move(*value);
  return Status::success();
}

Result<ScriptedReply> parse_reply_entry(const Json& j, const std::string& where, const std::string& base_dir) {
  util::JsonFields f(j, where);
  if (Status s = f.only({"content", "content_file", "fault", "latency_s", "when", "finish_reason", "prompt_tokens",
                         "completion_tokens"});
      !s)
    return s.error();
  ScriptedReply r;
  std::string content_file;
  int prompt_tokens = static_cast<int>(r.prompt_tokens), completion_tokens = static_cast<int>(r.completion_tokens);
  for (Status s : {optional(f, "content", r.content, &util::JsonFields::string),
                   optional(f, "content_file", content_file, &util::JsonFields::string),
                   optional(f, "fault", r.fault, &util::JsonFields::string),
                   optional(f, "latency_s", r.latency_s, &util::JsonFields::finite),
                   optional(f, "when", r.when, &util::JsonFields::string),
                   optional(f, "finish_reason", r.finish_reason, &util::JsonFields::string),
                   optional(f, "prompt_tokens", prompt_tokens, &util::JsonFields::integer),
                   optional(f, "completion_tokens", completion_tokens, &util::JsonFields::integer)})
    if (!s) return s.error();
  r.prompt_tokens = prompt_tokens;
  r.completion_tokens = completion_tokens;
  if (!content_file.empty()) {
    auto text = util::read_file((std::filesystem::path(base_dir) / content_file).string());
    if (!text) return text.error().wrap(where);
    r.content = std::move(*text);
  }
  static const std::array<std::string_view, 5> kFaults = {"", "timeout", "malformed_json", "empty_choices",
                                                          "no_content"};
  bool http = r.fault.rfind("http_", 0) == 0 && r.fault.size() == 8 &&
              std::all_of(r.fault.begin() + 5, r.fault.end(),
                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (!http && std::find(kFaults.begin(), kFaults.end(), r.fault) == kFaults.end())
    return Error(fmt::format(
        "{}: unknown fault '{}' (timeout, http_<code>, malformed_json, empty_choices or no_content)", where, r.fault));
  return r;
}

std::string reply_body(const ScriptedReply& r, const std::string& model, long serial) {
  if (r.fault == "malformed_json") return R"({"id": "scripted", "choices": [{"message": )";
  Json message = {{"role", "assistant"}};
  if (r.fault != "no_content") message["content"] = r.content;
  Json choices = Json::array();
  if (r.fault != "empty_choices")
    choices.push_back({{"index", 0}, {"message", message}, {"finish_reason", r.finish_reason}});
  Json body = {{"id", fmt::format("scripted-{}", serial)},
               {"object", "chat.completion"},
               {"model", model},
               {"choices", choices},
               {"usage",
                {{"prompt_tokens", r.prompt_tokens},
                 {"completion_tokens", r.completion_tokens},
                 {"total_tokens", r.prompt_tokens + r.completion_tokens}}}};
  return body.dump();
}

}  // namespace

Result<Script> parse_script(std::string_view text, const std::string& source_name, const std::string& base_dir) {
  auto parsed = util::parse_strict_json(text, source_name);
  if (!parsed) return parsed.error();
  const Json& doc = *parsed;
  if (!doc.is_object() || !doc.contains("format") || doc.at("format") != kScriptFormat)
    return Error(fmt::format("{}: format must be '{}'", source_name, kScriptFormat));
  util::JsonFields f(doc, source_name);
  if (Status s = f.only({"format", "mode", "cycle", "latency_s", "replies"}); !s) return s.error();
  Script script;
  for (Status s : {optional(f, "mode", script.mode, &util::JsonFields::string),
                   optional(f, "cycle", script.cycle, &util::JsonFields::boolean),
                   optional(f, "latency_s", script.latency_s, &util::JsonFields::finite)})
    if (!s) return s.error();
  if (script.mode != "sequence" && script.mode != "turns")
    return Error(fmt::format("{}: mode must be 'sequence' or 'turns'", source_name));
  auto replies = f.array("replies");
  if (!replies) return replies.error();
  for (size_t i = 0; i < (*replies)->size(); ++i) {
    auto reply = parse_reply_entry((**replies)[i], fmt::format("{}: replies[{}]", source_name, i), base_dir);
    if (!reply) return reply.error();
    script.replies.push_back(std::move(*reply));
  }
  return script;
}

struct ScriptedEndpoint::Impl {
  Script script;
  std::string host;
  int port = 0;
  httplib::Server server;
  std::thread thread;
  mutable std::mutex mutex;
  std::condition_variable stopping_cv;
  bool stopping = false;
  std::vector<ReceivedRequest> received;
  std::map<std::string, long> served_by_when;  // sequence mode: requests seen per `when` filter
  long serial = 0;

  // The reply for a request body, or nothing when the script has none left.
  const ScriptedReply* choose(const Json& request, const std::string& body) {
    std::vector<const ScriptedReply*> admitted;
    for (const ScriptedReply& r : script.replies)
      if (r.when.empty() || body.find(r.when) != std::string::npos) admitted.push_back(&r);
    if (admitted.empty()) return nullptr;
    long index = 0;
    if (script.mode == "turns") {
      if (request.contains("messages") && request.at("messages").is_array())
        for (const Json& m : request.at("messages"))
          if (m.is_object() && m.value("role", "") == "assistant") ++index;
    } else {
      std::string filter;
      for (const ScriptedReply* r : admitted) filter += r->when + '\x1f';
      index = served_by_when[filter]++;
    }
    if (script.cycle) index %= static_cast<long>(admitted.size());
    return index < static_cast<long>(admitted.size()) ? admitted[index] : nullptr;
  }

  // Waits `seconds` or until the server stops.
  void pause(double seconds) {
    std::unique_lock lock(mutex);
    stopping_cv.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return stopping; });
  }

  void chat(const httplib::Request& req, httplib::Response& res) {
    auto parsed = util::parse_strict_json(req.body, "request");
    const ScriptedReply* reply = nullptr;
    long serial_now = 0;
    {
      std::lock_guard lock(mutex);
      received.push_back({req.path, req.body, req.get_header_value("Authorization")});
      serial_now = ++serial;
      if (parsed) reply = choose(*parsed, req.body);
    }
    if (!parsed || !parsed->is_object()) {
      res.status = 400;
      res.set_content(R"({"error": {"message": "the request is not a JSON object"}})", "application/json");
      return;
    }
    if (reply == nullptr) {
      res.status = 500;
      res.set_content(R"({"error": {"message": "script exhausted"}})", "application/json");
      return;
    }
    double latency = reply->latency_s >= 0 ? reply->latency_s : reply->fault == "timeout" ? 30.0 : script.latency_s;
    pause(latency);
    if (reply->fault.rfind("http_", 0) == 0) {
      res.status = std::stoi(reply->fault.substr(5));
      res.set_content(R"({"error": {"message": "scripted fault"}})", "application/json");
      return;
    }
    res.set_content(reply_body(*reply, parsed->value("model", std::string()), serial_now), "application/json");
  }
};

ScriptedEndpoint::ScriptedEndpoint(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ScriptedEndpoint::~ScriptedEndpoint() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->stopping_cv.notify_all();
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

Result<std::unique_ptr<ScriptedEndpoint>> ScriptedEndpoint::start(Script script, const std::string& host, int port) {
  auto impl = std::make_unique<Impl>();
  impl->script = std::move(script);
  impl->host = host;
  Impl* self = impl.get();
  self->server.new_task_queue = [] { return new httplib::ThreadPool(64); };
  for (const char* path : {"/v1/chat/completions", "/chat/completions"})
    self->server.Post(path, [self](const httplib::Request& req, httplib::Response& res) { self->chat(req, res); });
  for (const char* path : {"/v1/models", "/models"})
    self->server.Get(path, [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "kmem"}]})",
                      "application/json");
    });
  if (port == 0) {
    self->port = self->server.bind_to_any_port(host);
  } else {
    self->port = self->server.bind_to_port(host, port) ? port : -1;
  }
  if (self->port <= 0) return Error(fmt::format("{}:{}: cannot listen there", host, port));
  self->thread = std::thread([self] { self->server.listen_after_bind(); });
  return std::unique_ptr<ScriptedEndpoint>(new ScriptedEndpoint(std::move(impl)));
}

std::string ScriptedEndpoint::base_url() const { return fmt::format("http://{}:{}/v1", impl_->host, impl_->port); }
int ScriptedEndpoint::port() const { return impl_->port; }

std::vector<ReceivedRequest> ScriptedEndpoint::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->received;
}

void ScriptedEndpoint::wait() {
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace kmem
