// Record and replay of endpoint exchanges (docs/episodes.md, "Record and
// replay"). Each exchange is one file DIR/<key>-<n>.json, where key is the
// FNV-1a 64-bit hash of the request body (hex) and n counts the requests with
// that body (1, 2, ...), so identical requests (samples of one cell) replay in
// the order they were recorded and concurrent episodes replay exactly.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "episode/http_client.h"
#include "kmem/episode.h"
#include "store/strict_json.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordFormat = "kmem-chat-record/1";

std::string request_key(const std::string& body) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : body) hash = (hash ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", hash);
}

// Hands out the file name of the next exchange with a given request body.
class Sequence {
 public:
  explicit Sequence(fs::path dir) : dir_(std::move(dir)) {}
  fs::path next(const std::string& request) {
    std::string key = request_key(request);
    std::lock_guard lock(mutex_);
    return dir_ / fmt::format("{}-{}.json", key, ++count_[key]);
  }

 private:
  fs::path dir_;
  std::mutex mutex_;
  std::map<std::string, int> count_;
};

class RecordingClient : public ChatClient {
 public:
  RecordingClient(std::unique_ptr<ChatClient> inner, fs::path dir) : inner_(std::move(inner)), files_(std::move(dir)) {}

  ChatExchange complete(const std::vector<ChatMessage>& messages) override {
    ChatExchange exchange = inner_->complete(messages);
    fs::path path = files_.next(exchange.request);
    nlohmann::ordered_json record = {{"format", kRecordFormat},   {"request", exchange.request},
                                     {"http_status", exchange.http_status}, {"response", exchange.response},
                                     {"attempts", exchange.attempts}, {"latency_s", exchange.latency_s},
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

class ReplayClient : public ChatClient {
 public:
  ReplayClient(EndpointConfig config, fs::path dir) : config_(std::move(config)), files_(std::move(dir)) {}

  ChatExchange complete(const std::vector<ChatMessage>& messages) override {
    ChatExchange exchange;
    exchange.request = chat_request_body(config_, messages);
    fs::path path = files_.next(exchange.request);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      exchange.error = fmt::format("{}: no recorded exchange for this request (replay)", path.string());
      return exchange;
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_strict_json(text.str(), path.string());
    if (!parsed) {
      exchange.error = parsed.error().message();
      return exchange;
    }
    const nlohmann::json& r = *parsed;
    try {
      if (r.at("format") != kRecordFormat) throw std::runtime_error(fmt::format("format is not {}", kRecordFormat));
      if (r.at("request").get<std::string>() != exchange.request)
        throw std::runtime_error("the recorded request differs from this one");
      exchange.http_status = r.at("http_status").get<int>();
      exchange.response = r.at("response").get<std::string>();
      exchange.attempts = r.at("attempts").get<int>();
      exchange.latency_s = r.at("latency_s").get<double>();
      exchange.error = r.at("error").get<std::string>();
    } catch (const std::exception& e) {
      std::string request = std::move(exchange.request);
      exchange = ChatExchange();
      exchange.request = std::move(request);
      exchange.error = fmt::format("{}: not a usable record: {}", path.string(), e.what());
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
  if (!config.record_dir.empty() && !config.replay_dir.empty())
    return Error("record and replay exclude each other");
  std::error_code ec;
  if (!config.replay_dir.empty()) {
    if (!fs::is_directory(config.replay_dir, ec)) return Error(config.replay_dir + ": no such replay folder");
    return std::unique_ptr<ChatClient>(std::make_unique<ReplayClient>(config, config.replay_dir));
  }
  if (config.base_url.empty()) return Error("no endpoint URL");
  std::unique_ptr<ChatClient> client = make_http_chat_client(config);
  if (config.record_dir.empty()) return client;
  fs::create_directories(config.record_dir, ec);
  if (ec || !fs::is_directory(config.record_dir))
    return Error(fmt::format("{}: cannot create the record folder: {}", config.record_dir, ec.message()));
  return std::unique_ptr<ChatClient>(std::make_unique<RecordingClient>(std::move(client), config.record_dir));
}

}  // namespace kmem
