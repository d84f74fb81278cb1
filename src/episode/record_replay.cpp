// Record and replay of endpoint exchanges (docs/episodes.md, "Record and
// replay"). Each exchange is one file DIR/<key>-<n>.json. The key is the
// FNV-1a 64-bit hash (hex) of the request body without the feedback messages
// (every user message after the first): the model settings, the opening
// messages and the agent's own earlier replies. Feedback holds evaluator
// output (compiler paths, times) that differs between runs, so it is left
// out: a replay gives the recorded replies and evaluates them again. n counts
// the requests with one key (1, 2, ...), so identical samples replay in the
// order they were recorded, and concurrent episodes never swap replies.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "episode/http_client.h"
#include "kmem/episode.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordFormat = "kmem-chat-record/1";

std::string request_key(const EndpointConfig& config, const std::vector<ChatMessage>& messages) {
  std::vector<ChatMessage> keyed;
  bool first_user = true;
  for (const ChatMessage& m : messages) {
    if (m.role == "user" && !first_user) continue;
    first_user = first_user && m.role != "user";
    keyed.push_back(m);
  }
  const std::string body = chat_request_body(config, keyed);
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : body) hash = (hash ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

// Hands out the file name of the next exchange with a given request body.
class Sequence {
 public:
  Sequence(fs::path dir, EndpointConfig config) : dir_(std::move(dir)), config_(std::move(config)) {}
  fs::path next(const std::vector<ChatMessage>& messages) {
    std::string key = request_key(config_, messages);
    std::lock_guard lock(mutex_);
    return dir_ / fmt::format("{}-{}.json", key, ++count_[key]);
  }

 private:
  fs::path dir_;
  EndpointConfig config_;
  std::mutex mutex_;
  std::map<std::string, int> count_;
};

class RecordingClient : public ChatClient {
 public:
  RecordingClient(std::unique_ptr<ChatClient> inner, fs::path dir, const EndpointConfig& config)
      : inner_(std::move(inner)), files_(std::move(dir), config) {}

  ChatExchange complete(const std::vector<ChatMessage>& messages) override {
    ChatExchange exchange = inner_->complete(messages);
    fs::path path = files_.next(messages);
    nlohmann::ordered_json record = {
        {"format", kRecordFormat},       {"request", exchange.request},   {"http_status", exchange.http_status},
        {"response", exchange.response}, {"attempts", exchange.attempts}, {"latency_s", exchange.latency_s},
        {"error", exchange.error}};
    fs::path partial = path;
    partial += ".partial";
    std::ofstream out(partial, std::ios::binary);
    out << record.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    out.close();
    std::error_code ec;
    if (out.fail()) ec = std::make_error_code(std::errc::io_error);
    else fs::rename(partial, path, ec);
    if (ec && exchange.error.empty()) {
      exchange.reply_ok = false;
      exchange.error = fmt::format("{}: cannot record the exchange: {}", path.string(), ec.message());
    }
    return exchange;
  }

 private:
  std::unique_ptr<ChatClient> inner_;
  Sequence files_;
};

// The fields of a record file into `exchange` (its request is kept for
// reading: the file name's key matched it).
Status read_record(const nlohmann::json& record, const std::string& where, ChatExchange& exchange) {
  util::JsonFields f(record, where);
  if (Status s = f.is_object(); !s) return s;
  if (Status s = f.only({"format", "request", "http_status", "response", "attempts", "latency_s", "error"}); !s)
    return s;
  auto format = f.string("format");
  if (!format) return format.error();
  if (*format != kRecordFormat) return f.wrong("format", kRecordFormat);
  if (auto request = f.string("request"); !request) return request.error();
  auto http_status = f.integer("http_status");
  if (!http_status) return http_status.error();
  auto response = f.string("response");
  if (!response) return response.error();
  auto attempts = f.integer("attempts");
  if (!attempts) return attempts.error();
  auto latency_s = f.finite("latency_s");
  if (!latency_s) return latency_s.error();
  auto error = f.string("error");
  if (!error) return error.error();
  exchange.http_status = *http_status;
  exchange.response = std::move(*response);
  exchange.attempts = *attempts;
  exchange.latency_s = *latency_s;
  exchange.error = std::move(*error);
  return Status::success();
}

class ReplayClient : public ChatClient {
 public:
  ReplayClient(const EndpointConfig& config, fs::path dir) : config_(config), files_(std::move(dir), config) {}

  ChatExchange complete(const std::vector<ChatMessage>& messages) override {
    ChatExchange exchange;
    exchange.request = chat_request_body(config_, messages);
    fs::path path = files_.next(messages);
    auto text = util::read_file(path.string());
    if (!text) {
      exchange.error =
          fmt::format("{}: no recorded exchange for this request (replay): {}", path.string(), text.error().message());
      return exchange;
    }
    auto parsed = util::parse_strict_json(*text, path.string());
    if (!parsed) {
      exchange.error = parsed.error().message();
      return exchange;
    }
    if (Status read = read_record(*parsed, path.string(), exchange); !read) {
      std::string request = std::move(exchange.request);
      exchange = ChatExchange();
      exchange.request = std::move(request);
      exchange.error = fmt::format("not a usable record: {}", read.error().message());
      return exchange;
    }
    if (exchange.error.empty()) {
      read_chat_response(exchange.response, exchange);
      if (!exchange.reply_ok) exchange.error = path.string() + ": " + exchange.error;
    }
    return exchange;
  }

 private:
  EndpointConfig config_;
  Sequence files_;
};

}  // namespace

Result<std::unique_ptr<ChatClient>> make_chat_client(const EndpointConfig& config) {
  if (!config.record_dir.empty() && !config.replay_dir.empty()) return Error("record and replay exclude each other");
  std::error_code ec;
  if (!config.replay_dir.empty()) {
    if (!fs::is_directory(config.replay_dir, ec)) return Error(config.replay_dir + ": no such replay folder");
    return std::unique_ptr<ChatClient>(std::make_unique<ReplayClient>(config, config.replay_dir));
  }
  if (config.base_url.empty()) return Error("no endpoint URL");
  std::unique_ptr<ChatClient> client = episode::make_http_chat_client(config);
  if (config.record_dir.empty()) return client;
  fs::create_directories(config.record_dir, ec);
  if (ec || !fs::is_directory(config.record_dir))
    return Error(fmt::format("{}: cannot create the record folder: {}", config.record_dir, ec.message()));
  return std::unique_ptr<ChatClient>(std::make_unique<RecordingClient>(std::move(client), config.record_dir, config));
}

}  // namespace kmem
