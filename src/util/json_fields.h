// Reading the fields of a parsed JSON object with their types checked. Every
// module that reads a JSON input (store, prompt pack, category rules,
// experiment spec, episode records) reads its fields here, so a missing or
// mistyped field is refused the same way everywhere, with an error that names
// the input, the place in it and the field:
//   "store.json: problems.L1_001: field 'level' must be an integer"
// Parse the text first with parse_strict_json (duplicate keys refused).
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"

namespace kmem::util {

class JsonFields {
 public:
  // `where` names the object ("store.json: readers.alice"); it prefixes every error.
  JsonFields(const nlohmann::json& object, std::string where);

  const std::string& where() const { return where_; }

  // Success when the value is an object; else "<where>: must be an object".
  Status is_object() const;
  // Whether `key` is present with a value other than null.
  bool has(std::string_view key) const;

  // The value of a required field, typed; an absent (or null) field is
  // "missing field 'key'", a mistyped one "field 'key' must be ...".
  Result<std::string> string(std::string_view key) const;
  Result<int> integer(std::string_view key) const;    // within the range of int
  Result<double> finite(std::string_view key) const;  // a number, not inf or nan
  Result<bool> boolean(std::string_view key) const;
  Result<const nlohmann::json*> object(std::string_view key) const;
  Result<const nlohmann::json*> array(std::string_view key) const;
  Result<std::vector<std::string>> strings(std::string_view key) const;  // a list of strings

  // A value found elsewhere (an entry of a map) checked as finite, named `name`.
  Result<double> finite_value(const nlohmann::json& value, std::string_view name) const;

  // Refuses the first key not in `allowed`, so a misspelt field is not
  // silently ignored: "unknown field 'x' (expected a, b, c)", or with `owner`
  // "unknown field 'x' for a recipe (expected ...)".
  Status only(std::initializer_list<std::string_view> allowed) const;
  Status only(const std::vector<std::string>& allowed, std::string_view owner = "") const;

  // "<where>: what".
  Error error(std::string_view what) const;
  // "<where>: field 'key' must be what".
  Error wrong(std::string_view key, std::string_view what) const;

 private:
  Error missing(std::string_view key) const;
  const nlohmann::json* find(std::string_view key) const;

  const nlohmann::json& object_;
  std::string where_;
};

}  // namespace kmem::util
