// Fields of the records workers send, which may come from a candidate's
// process: a field that is absent or of another type reads as the fallback,
// never as an exception in the orchestrator.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kmem::eval {

inline std::string text_field(const nlohmann::json& record, const char* key) {
  auto found = record.find(key);
  return found != record.end() && found->is_string() ? found->get<std::string>() : "";
}

inline double number_field(const nlohmann::json& record, const char* key, double fallback = 0.0) {
  auto found = record.find(key);
  return found != record.end() && found->is_number() ? found->get<double>() : fallback;
}

inline bool flag_field(const nlohmann::json& record, const char* key, bool fallback = false) {
  auto found = record.find(key);
  return found != record.end() && found->is_boolean() ? found->get<bool>() : fallback;
}

}  // namespace kmem::eval
