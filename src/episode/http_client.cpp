// The chat client that talks to a real endpoint: POST {base_url}/chat/completions
// through libcurl, with the API key from an environment variable, a
// per-request timeout and retries with exponential backoff on 429, 5xx and
// transport errors (docs/episodes.md, "Endpoint").
#include "episode/http_client.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace kmem::episode {
namespace {

size_t append_body(char* data, size_t size, size_t count, void* target) {
  static_cast<std::string*>(target)->append(data, size * count);
  return size * count;
}

// libcurl's process-wide set-up, done once (thread-safe since 7.84).
void init_curl() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool retriable_transport_error(CURLcode code) {
  return code != CURLE_URL_MALFORMAT && code != CURLE_UNSUPPORTED_PROTOCOL && code != CURLE_COULDNT_RESOLVE_HOST;
}

std::string tail(const std::string& text, size_t n) {
  return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}

class HttpChatClient : public ChatClient {
 public:
  explicit HttpChatClient(EndpointConfig config) : config_(std::move(config)) { init_curl(); }

  ChatExchange complete(const std::vector<ChatMessage>& messages) override {
    ChatExchange exchange;
    exchange.request = chat_request_body(config_, messages);
    const std::string url = chat_completions_url(config_.base_url);
    const auto started = std::chrono::steady_clock::now();
    double wait_s = config_.backoff_s;
    for (int attempt = 0;; ++attempt) {
      exchange.attempts = attempt + 1;
      bool retriable = post(url, exchange);
      if (!retriable || attempt >= config_.retries) break;
      std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
      wait_s *= 2;
    }
    exchange.latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!exchange.reply_ok && exchange.attempts > 1)
      exchange.error += fmt::format(" (after {} attempts)", exchange.attempts);
    return exchange;
  }

 private:
  // One attempt; fills the exchange and says whether a retry may help.
  bool post(const std::string& url, ChatExchange& exchange) const {
    exchange.response.clear();
    exchange.http_status = 0;
    exchange.reply_ok = false;
    CURL* curl = curl_easy_init();
    if (curl == nullptr) {
      exchange.error = "POST " + url + ": cannot start libcurl";
      return false;
    }
    curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
    const char* key = config_.api_key_env.empty() ? nullptr : std::getenv(config_.api_key_env.c_str());
    if (key != nullptr && *key != '\0')
      headers = curl_slist_append(headers, fmt::format("Authorization: Bearer {}", key).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, exchange.request.c_str());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(exchange.request.size()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(config_.timeout_s * 1000));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange.response);
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    if (code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);

    if (code != CURLE_OK) {
      exchange.error = fmt::format("POST {}: {}", url, curl_easy_strerror(code));
      return retriable_transport_error(code);
    }
    exchange.http_status = static_cast<int>(status);
    if (status != 200) {
      exchange.error = fmt::format("POST {}: HTTP {}: {}", url, status, tail(exchange.response, 300));
      return status == 429 || status >= 500;
    }
    read_chat_response(exchange.response, exchange);
    if (!exchange.reply_ok) exchange.error = fmt::format("POST {}: {}", url, exchange.error);
    return false;
  }

  EndpointConfig config_;
};

}  // namespace

std::string chat_completions_url(const std::string& base_url) {
  std::string base = base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

std::unique_ptr<ChatClient> make_http_chat_client(const EndpointConfig& config) {
  return std::make_unique<HttpChatClient>(config);
}

}  // namespace kmem::episode
