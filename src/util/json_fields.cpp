// Typed reads of JSON object fields with errors naming the field (json_fields.h).
#include "util/json_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace kmem::util {

using Json = nlohmann::json;

JsonFields::JsonFields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

Status JsonFields::is_object() const {
  if (!object_.is_object()) return error("must be an object");
  return Status::success();
}

const Json* JsonFields::find(std::string_view key) const {
  if (!object_.is_object()) return nullptr;
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

bool JsonFields::has(std::string_view key) const { return find(key) != nullptr; }

Result<std::string> JsonFields::string(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_string()) return wrong(key, "a string");
  return v->get<std::string>();
}

Result<int> JsonFields::integer(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_number_integer()) return wrong(key, "an integer");
  if (v->is_number_unsigned() ? v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)
                              : v->get<std::int64_t>() < INT_MIN || v->get<std::int64_t>() > INT_MAX)
    return wrong(key, "an integer in the range of int");
  return v->get<int>();
}

Result<double> JsonFields::finite(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  return finite_value(*v, key);
}

Result<double> JsonFields::finite_value(const Json& value, std::string_view name) const {
  if (!value.is_number()) return wrong(name, "a finite number");
  double d = value.get<double>();
  if (!std::isfinite(d)) return error(fmt::format("'{}' must be a finite number, got {}", name, d));
  return d;
}

Result<bool> JsonFields::boolean(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_boolean()) return wrong(key, "true or false");
  return v->get<bool>();
}

Result<const Json*> JsonFields::object(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_object()) return wrong(key, "an object");
  return v;
}

Result<const Json*> JsonFields::array(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_array()) return wrong(key, "a list");
  return v;
}

Result<std::vector<std::string>> JsonFields::strings(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr) return missing(key);
  if (!v->is_array()) return wrong(key, "a list of strings");
  std::vector<std::string> out;
  for (const Json& e : *v) {
    if (!e.is_string()) return wrong(key, "a list of strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

Status JsonFields::only(std::initializer_list<std::string_view> allowed) const {
  return only(std::vector<std::string>(allowed.begin(), allowed.end()));
}

Status JsonFields::only(const std::vector<std::string>& allowed, std::string_view owner) const {
  if (Status s = is_object(); !s) return s;
  for (const auto& [key, value] : object_.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string expected;
      for (const std::string& a : allowed) expected += (expected.empty() ? "" : ", ") + a;
      return error(
          fmt::format("unknown field '{}'{}{} (expected {})", key, owner.empty() ? "" : " for ", owner, expected));
    }
  return Status::success();
}

Error JsonFields::error(std::string_view what) const { return Error(fmt::format("{}: {}", where_, what)); }

Error JsonFields::wrong(std::string_view key, std::string_view what) const {
  return error(fmt::format("field '{}' must be {}", key, what));
}

Error JsonFields::missing(std::string_view key) const { return error(fmt::format("missing field '{}'", key)); }

}  // namespace kmem::util
