// Checking records against the worker protocol (data/protocol/worker.json)
// and reading their fields by the types it declares.
#include "protocol.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace kmem::eval {

extern const char kProtocolText[];  // protocol_text.cpp, generated from the file by CMake

namespace {

constexpr const char* kFormat = "kmem-worker-protocol/1";

const char* key_of(const char* kind) { return std::string_view(kind) == "commands" ? "cmd" : "event"; }

std::string json_type(const Json& value) {
  if (value.is_boolean()) return "bool";
  if (value.is_number_integer()) return "int";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  if (value.is_object()) return "object";
  return "null";
}

bool has_type(const std::string& type, const Json& value) {
  if (type == "any") return true;
  if (type == "string") return value.is_string();
  if (type == "int") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "bool") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

const Json& null_json() {
  static const Json null;
  return null;
}

}  // namespace

const Protocol& Protocol::compiled() {
  static const Protocol protocol = [] {
    auto parsed = parse(kProtocolText);
    if (!parsed) throw std::logic_error("the compiled-in worker protocol: " + parsed.error().message());
    return std::move(*parsed);
  }();
  return protocol;
}

Result<Protocol> Protocol::parse(const std::string& text) {
  Json spec = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!spec.is_object()) return Error("worker protocol: not a JSON object");
  if (spec.value("format", "") != kFormat) return Error(fmt::format("worker protocol: format is not {}", kFormat));
  for (const char* key : {"types", "every_role", "roles"})
    if (!spec.contains(key) || !spec[key].is_object()) return Error(fmt::format("worker protocol: no {}", key));
  return Protocol(std::move(spec));
}

bool Protocol::trusted(const std::string& role) const {
  const Json& roles = spec_["roles"];
  return roles.contains(role) && roles[role].value("trusted", false);
}

const Json* Protocol::record(const std::string& role, const char* kind, const std::string& name) const {
  const Json& roles = spec_["roles"];
  if (!roles.contains(role)) return nullptr;
  for (const Json* records : {&roles[role][kind], &spec_["every_role"][kind]})
    if (records->contains(name)) return &(*records)[name];
  return nullptr;
}

Json Protocol::resolved(const Json& field) const {
  const std::string type = field.value("type", "");
  if (!spec_["types"].contains(type)) return field;
  Json merged = spec_["types"][type];
  for (const auto& [key, value] : field.items())
    if (key != "type") merged[key] = value;
  return merged;
}

Status Protocol::check_event(const std::string& role, const Json& record) const {
  return check(role, "events", record);
}

Status Protocol::check_command(const std::string& role, const Json& record) const {
  return check(role, "commands", record);
}

Status Protocol::check(const std::string& role, const char* kind, const Json& record) const {
  const char* key = key_of(kind);
  std::string what = fmt::format("{} {}", role, std::string_view(kind).substr(0, std::string_view(kind).size() - 1));
  if (!record.is_object() || !record.contains(key) || !record[key].is_string())
    return Error(fmt::format("{}: not a record with a '{}'", what, key));
  const std::string name = record[key];
  const Json* declared = this->record(role, kind, name);
  if (declared == nullptr) return Error(fmt::format("{} '{}': not in the protocol", what, name));
  Json fields = record;
  fields.erase(key);
  return check_object(fmt::format("{} '{}'", what, name), "",
                      Json{{"type", "object"}, {"fields", (*declared)["fields"]}}, fields);
}

Status Protocol::check_value(const std::string& where, const std::string& path, const Json& declared,
                             const Json& value) const {
  Json field = resolved(declared);
  const std::string type = field.value("type", "");
  if (value.is_null()) {
    if (field.value("nullable", false)) return Status::success();
    return Error(fmt::format("{}: field '{}': null, expected {}", where, path, type));
  }
  if (!has_type(type, value))
    return Error(fmt::format("{}: field '{}': expected {}, got {}", where, path, type, json_type(value)));
  if (type == "object") return check_object(where, path, field, value);
  if (type == "array") {
    for (size_t i = 0; i < value.size(); ++i)
      if (auto ok = check_value(where, fmt::format("{}[{}]", path, i), field["items"], value[i]); !ok) return ok;
  }
  if (field.contains("enum")) {
    const Json& allowed = field["enum"];
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
      return Error(fmt::format("{}: field '{}': {} is not one of {}", where, path, value.dump(), allowed.dump()));
  }
  return Status::success();
}

Status Protocol::check_object(const std::string& where, const std::string& path, const Json& field,
                              const Json& value) const {
  const std::string prefix = path.empty() ? "" : path + ".";
  if (field.contains("values")) {
    for (const auto& [key, item] : value.items())
      if (auto ok = check_value(where, prefix + key, field["values"], item); !ok) return ok;
    return Status::success();
  }
  const Json& declared = field["fields"];
  for (const auto& [key, item] : value.items()) {
    if (!declared.contains(key)) return Error(fmt::format("{}: field '{}': not in the protocol", where, prefix + key));
    if (auto ok = check_value(where, prefix + key, declared[key], item); !ok) return ok;
  }
  for (const auto& [key, sub] : declared.items())
    if (!value.contains(key) && !resolved(sub).value("optional", false))
      return Error(fmt::format("{}: field '{}': missing", where, prefix + key));
  return Status::success();
}

std::optional<Json> Protocol::event_field(const std::string& role, const std::string& event,
                                          const std::string& path) const {
  const Json* declared = record(role, "events", event);
  if (declared == nullptr) return std::nullopt;
  Json field{{"type", "object"}, {"fields", (*declared)["fields"]}};
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = std::min(path.find('.', start), path.size());
    std::string key = path.substr(start, dot - start);
    if (!field.contains("fields") || !field["fields"].contains(key)) return std::nullopt;
    field = resolved(field["fields"][key]);
    start = dot + 1;
  }
  return field;
}

std::vector<Protocol::Example> Protocol::examples() const {
  std::vector<Example> all;
  for (const auto& [role, declared] : spec_["roles"].items())
    for (const char* kind : {"commands", "events"})
      for (const Json* records : {&declared[kind], &spec_["every_role"][kind]})
        for (const auto& [name, record] : records->items()) all.push_back({role, kind, name, record["example"]});
  return all;
}

ErrorKind error_kind(const std::string& kind) {
  if (kind == "out_of_memory") return ErrorKind::kOutOfMemory;
  if (kind == "device_fault") return ErrorKind::kDeviceFault;
  return ErrorKind::kException;
}

Fields::Fields(const std::string& role, const std::string& event, const Json& object, std::string base,
               const Protocol& protocol)
    : role_(role), event_(event), object_(object), base_(std::move(base)), protocol_(protocol) {}

const Json* Fields::find(const char* key, std::initializer_list<const char*> types) const {
  std::string path = base_.empty() ? key : base_ + "." + key;
  auto declared = protocol_.event_field(role_, event_, path);
  std::string type = declared ? declared->value("type", "") : "";
  if (std::none_of(types.begin(), types.end(), [&](const char* t) { return type == t; }))
    throw std::logic_error(fmt::format("kmem reads field '{}' of {} event '{}' as {}, but the worker protocol {}", path,
                                       role_, event_, *types.begin(),
                                       declared ? "declares it " + type : "does not declare it"));
  if (!object_.is_object()) return nullptr;
  auto found = object_.find(key);
  return found == object_.end() || found->is_null() ? nullptr : &*found;
}

std::string Fields::text(const char* key) const {
  const Json* value = find(key, {"string"});
  return value != nullptr && value->is_string() ? value->get<std::string>() : "";
}

double Fields::number(const char* key, double fallback) const { return maybe_number(key).value_or(fallback); }

std::optional<double> Fields::maybe_number(const char* key) const {
  const Json* value = find(key, {"number", "int"});
  return value != nullptr && value->is_number() ? std::optional<double>(value->get<double>()) : std::nullopt;
}

bool Fields::flag(const char* key, bool fallback) const {
  const Json* value = find(key, {"bool"});
  return value != nullptr && value->is_boolean() ? value->get<bool>() : fallback;
}

const Json& Fields::json(const char* key) const {
  const Json* value = find(key, {"object", "array", "any"});
  return value != nullptr ? *value : null_json();
}

Fields Fields::object(const char* key) const {
  const Json* value = find(key, {"object"});
  return Fields(role_, event_, value != nullptr ? *value : null_json(), base_.empty() ? key : base_ + "." + key,
                protocol_);
}

}  // namespace kmem::eval
