// The chat-completions wire format (docs/episodes.md, "Endpoint"): the
// request body kmem sends and the reading of a response body, which is
// untrusted input (strict JSON; every missing field is an endpoint error).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kmem/episode.h"
#include "util/json_fields.h"
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
  auto fail = [&](const Error& why) { exchange.error = "endpoint reply: " + why.message(); };
  auto parsed = util::parse_strict_json(body, "response");
  if (!parsed) return fail(parsed.error());
  util::JsonFields doc(*parsed, "response");
  if (Status s = doc.is_object(); !s) return fail(s.error());
  auto choices = doc.array("choices");
  if (!choices) return fail(choices.error());
  if ((*choices)->empty()) return fail(doc.error("'choices' is empty"));
  util::JsonFields choice((*choices)->front(), "response: choices[0]");
  if (Status s = choice.is_object(); !s) return fail(s.error());
  auto message_object = choice.object("message");
  if (!message_object) return fail(message_object.error());
  util::JsonFields message(**message_object, "response: choices[0].message");
  auto content = message.string("content");
  if (!content) return fail(content.error());
  exchange.content = std::move(*content);
  // Optional fields: kept when present and well typed, else left out.
  auto finish_reason = choice.string("finish_reason");
  exchange.finish_reason = finish_reason ? *finish_reason : "";
  if (auto usage = doc.object("usage")) {
    util::JsonFields counts(**usage, "response: usage");
    for (auto [key, target] : {std::pair{"prompt_tokens", &exchange.prompt_tokens},
                               std::pair{"completion_tokens", &exchange.completion_tokens}})
      if (auto n = counts.integer(key)) *target = *n;
  }
  exchange.error.clear();
  exchange.reply_ok = true;
}

}  // namespace kmem
