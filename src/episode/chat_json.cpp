// The chat-completions wire format (docs/episodes.md, "Endpoint"): the
// request body kmem sends and the reading of a response body, which is
// untrusted input (strict JSON; every missing field is an endpoint error).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/episode.h"
#include "util/strict_json.h"

namespace kmem {

std::string chat_request_body(const EndpointConfig& config, const std::vector<ChatMessage>& messages) {
  nlohmann::ordered_json body;
  body["model"] = config.model;
  body["messages"] = nlohmann::ordered_json::array();
  for (const ChatMessage& m : messages) body["messages"].push_back({{"role", m.role}, {"content", m.content}});
  body["temperature"] = config.temperature;
  body["max_tokens"] = config.max_tokens;
  if (config.seed) body["seed"] = *config.seed;
  body["n"] = 1;
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void read_chat_response(const std::string& body, ChatExchange& exchange) {
  exchange.reply_ok = false;
  auto fail = [&](const std::string& why) { exchange.error = "endpoint reply: " + why; };
  auto parsed = parse_strict_json(body, "response");
  if (!parsed) return fail(parsed.error().message());
  const nlohmann::json& doc = *parsed;
  if (!doc.is_object()) return fail("not a JSON object");
  if (!doc.contains("choices") || !doc.at("choices").is_array()) return fail("no 'choices' list");
  if (doc.at("choices").empty()) return fail("'choices' is empty");
  const nlohmann::json& choice = doc.at("choices").at(0);
  if (!choice.is_object() || !choice.contains("message") || !choice.at("message").is_object())
    return fail("choices[0] has no 'message' object");
  const nlohmann::json& message = choice.at("message");
  if (!message.contains("content") || !message.at("content").is_string())
    return fail("choices[0].message.content is not a string");
  exchange.content = message.at("content").get<std::string>();
  exchange.finish_reason =
      choice.contains("finish_reason") && choice.at("finish_reason").is_string() ? choice.at("finish_reason").get<std::string>() : "";
  if (doc.contains("usage") && doc.at("usage").is_object()) {
    const nlohmann::json& usage = doc.at("usage");
    for (auto [key, target] : {std::pair{"prompt_tokens", &exchange.prompt_tokens},
                               std::pair{"completion_tokens", &exchange.completion_tokens}})
      if (usage.contains(key) && usage.at(key).is_number_integer()) *target = usage.at(key).get<long>();
  }
  exchange.error.clear();
  exchange.reply_ok = true;
}

}  // namespace kmem
