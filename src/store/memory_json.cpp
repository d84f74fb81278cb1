// Reads and writes the kmem-memory-store/1 JSON format, validating every entry.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kmem/store.h"
#include "store/item_kind.h"
#include "store/strict_json.h"

namespace kmem {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr const char* kFormat = "kmem-memory-store/1";

// Reads typed fields of one JSON object, reporting errors as "<where>: ...".
class Fields {
 public:
  Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

  const std::string& where() const { return where_; }
  bool has(const char* key) const { return object_.contains(key) && !object_.at(key).is_null(); }

  Result<std::string> string(const char* key) const {
    if (!has(key)) return missing(key);
    const Json& v = object_.at(key);
    if (!v.is_string()) return wrong(key, "a string");
    return v.get<std::string>();
  }
  Result<int> integer(const char* key) const {
    if (!has(key)) return missing(key);
    const Json& v = object_.at(key);
    if (!v.is_number_integer()) return wrong(key, "an integer");
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)
                               : v.get<std::int64_t>() < INT_MIN || v.get<std::int64_t>() > INT_MAX)
      return wrong(key, "an integer in the range of int");
    return v.get<int>();
  }
  Result<double> finite(const char* key) const {
    if (!has(key)) return missing(key);
    return finite_value(object_.at(key), key);
  }
  Result<double> finite_value(const Json& v, const std::string& key) const {
    if (!v.is_number()) return wrong(key, "a finite number");
    double d = v.get<double>();
    if (!std::isfinite(d)) return Error(fmt::format("{}: '{}' must be a finite number, got {}", where_, key, d));
    return d;
  }
  Result<const Json*> object(const char* key) const {
    if (!has(key)) return missing(key);
    const Json& v = object_.at(key);
    if (!v.is_object()) return wrong(key, "an object");
    return &v;
  }
  Error error(const std::string& what) const { return Error(where_ + ": " + what); }

 private:
  Error missing(const std::string& key) const { return error(fmt::format("missing field '{}'", key)); }
  Error wrong(const std::string& key, const char* kind) const {
    return error(fmt::format("field '{}' must be {}", key, kind));
  }

  const Json& object_;
  std::string where_;
};

#define KMEM_TRY_ASSIGN(target, expr)       \
  do {                                      \
    auto kmem_r = (expr);                   \
    if (!kmem_r.ok()) return kmem_r.error(); \
    target = std::move(kmem_r.value());     \
  } while (0)

Status parse_readers(const Fields& top, Memory& memory) {
  const Json* readers = nullptr;
  KMEM_TRY_ASSIGN(readers, top.object("readers"));
  for (const auto& [id, entry] : readers->items()) {
    Fields f(entry, fmt::format("{}: readers.{}", top.where(), id));
    if (!entry.is_object()) return f.error("must be an object");
    Reader reader{id, ""};
    KMEM_TRY_ASSIGN(reader.display, f.string("display"));
    memory.readers.emplace(id, std::move(reader));
  }
  return Status::success();
}

Status parse_problems(const Fields& top, Memory& memory) {
  const Json* problems = nullptr;
  KMEM_TRY_ASSIGN(problems, top.object("problems"));
  for (const auto& [id, entry] : problems->items()) {
    Fields f(entry, fmt::format("{}: problems.{}", top.where(), id));
    if (!entry.is_object()) return f.error("must be an object");
    Problem p;
    p.id = id;
    KMEM_TRY_ASSIGN(p.level, f.integer("level"));
    KMEM_TRY_ASSIGN(p.number, f.integer("number"));
    KMEM_TRY_ASSIGN(p.name, f.string("name"));
    KMEM_TRY_ASSIGN(p.category, f.string("category"));
    if (id != fmt::format("L{}_{:03d}", p.level, p.number))
      return f.error(fmt::format("id does not match level {} and number {} (expected L{}_{:03d})", p.level,
                                 p.number, p.level, p.number));
    if (p.category.empty()) return f.error("category is empty");
    memory.problems.emplace(id, std::move(p));
  }
  return Status::success();
}

// The labels memory.md defines; policies filter on the first two.
constexpr std::array<std::string_view, 3> kLabels = {"prohibition", "correctness", "environment"};

Result<std::vector<std::string>> parse_labels(const Json& entry, const Fields& f) {
  std::vector<std::string> labels;
  if (!f.has("labels")) return labels;
  const Json& list = entry.at("labels");
  if (!list.is_array()) return f.error("field 'labels' must be a list of strings");
  for (const Json& label : list) {
    if (!label.is_string()) return f.error("field 'labels' must be a list of strings");
    labels.push_back(label.get<std::string>());
    if (std::find(kLabels.begin(), kLabels.end(), labels.back()) == kLabels.end())
      return f.error(fmt::format("unknown label '{}' (expected prohibition, correctness or environment)", labels.back()));
  }
  return labels;
}

// Refuses any field parse_item does not read for an item of `kind`, so a
// misspelt or misplaced field is not silently dropped.
Status check_item_fields(const Json& entry, const Fields& f, ItemKind kind) {
  std::vector<std::string> allowed = {"id", "kind", "labels", "order", "state", "provenance", "history"};
  if (kind != ItemKind::kLesson) allowed.push_back("category");
  if (kind == ItemKind::kRecipe || kind == ItemKind::kKernel) allowed.insert(allowed.end(), {"source", "speedup"});
  allowed.push_back(kind == ItemKind::kKernel ? "code" : "text");
  allowed.push_back("text_no_numbers");
  for (const auto& [key, value] : entry.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string expected;
      for (const std::string& a : allowed) expected += (expected.empty() ? "" : ", ") + a;
      return f.error(fmt::format("unknown field '{}' for a {} (expected {})", key, item_kind_name(kind), expected));
    }
  return Status::success();
}

// A provenance object (docs/learning.md): origin and optional strings.
Result<Provenance> parse_provenance(const Json& entry, const std::string& where) {
  Fields f(entry, where);
  if (!entry.is_object()) return f.error("must be an object");
  for (const auto& [key, value] : entry.items())
    if (key != "origin" && key != "reader" && key != "evaluator" && key != "gpu" && key != "date")
      return f.error(fmt::format("unknown field '{}' (expected origin, reader, evaluator, gpu, date)", key));
  Provenance p;
  KMEM_TRY_ASSIGN(p.origin, f.string("origin"));
  if (p.origin.empty()) return f.error("origin is empty");
  if (f.has("reader")) KMEM_TRY_ASSIGN(p.reader, f.string("reader"));
  if (f.has("evaluator")) KMEM_TRY_ASSIGN(p.evaluator, f.string("evaluator"));
  if (f.has("gpu")) KMEM_TRY_ASSIGN(p.gpu, f.string("gpu"));
  if (f.has("date")) KMEM_TRY_ASSIGN(p.date, f.string("date"));
  return p;
}

Result<ItemState> parse_state(const Fields& f, const char* key) {
  std::string name;
  KMEM_TRY_ASSIGN(name, f.string(key));
  auto state = item_state_from_name(name);
  if (!state) return f.error(fmt::format("field '{}': unknown state '{}' (expected candidate, active or retired)", key, name));
  return *state;
}

Result<std::vector<HistoryEntry>> parse_history(const Json& list, const Fields& item) {
  if (!list.is_array()) return item.error("field 'history' must be a list");
  std::vector<HistoryEntry> history;
  for (size_t i = 0; i < list.size(); ++i) {
    Fields f(list[i], fmt::format("{}: history[{}]", item.where(), i));
    if (!list[i].is_object()) return f.error("must be an object");
    for (const auto& [key, value] : list[i].items())
      if (key != "date" && key != "action" && key != "reason" && key != "from" && key != "to" &&
          key != "speedup_before" && key != "speedup_after")
        return f.error(fmt::format("unknown field '{}'", key));
    HistoryEntry h;
    KMEM_TRY_ASSIGN(h.date, f.string("date"));
    KMEM_TRY_ASSIGN(h.action, f.string("action"));
    KMEM_TRY_ASSIGN(h.reason, f.string("reason"));
    KMEM_TRY_ASSIGN(h.from, parse_state(f, "from"));
    KMEM_TRY_ASSIGN(h.to, parse_state(f, "to"));
    if (f.has("speedup_before")) KMEM_TRY_ASSIGN(h.speedup_before, f.finite("speedup_before"));
    if (f.has("speedup_after")) KMEM_TRY_ASSIGN(h.speedup_after, f.finite("speedup_after"));
    history.push_back(std::move(h));
  }
  return history;
}

Result<Item> parse_item(const Json& entry, const Fields& f, const Memory& memory) {
  if (!entry.is_object()) return f.error("must be an object");
  Item item;
  std::string kind;
  KMEM_TRY_ASSIGN(item.id, f.string("id"));
  KMEM_TRY_ASSIGN(kind, f.string("kind"));
  auto parsed_kind = item_kind_from_name(kind);
  if (!parsed_kind) return f.error(fmt::format("unknown kind '{}' (expected lesson, pitfall, recipe or kernel)", kind));
  item.kind = *parsed_kind;
  if (Status s = check_item_fields(entry, f, item.kind); !s) return s.error();
  KMEM_TRY_ASSIGN(item.labels, parse_labels(entry, f));
  if (f.has("order")) KMEM_TRY_ASSIGN(item.order, f.integer("order"));
  if (item.kind != ItemKind::kLesson) KMEM_TRY_ASSIGN(item.category, f.string("category"));
  if ((item.kind == ItemKind::kLesson || item.kind == ItemKind::kPitfall) && !item.order)
    return f.error("missing field 'order'");
  if (item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel) {
    KMEM_TRY_ASSIGN(item.source, f.string("source"));
    KMEM_TRY_ASSIGN(item.speedup, f.finite("speedup"));
    if (!memory.problems.contains(item.source))
      return f.error(fmt::format("source problem '{}' does not exist", item.source));
  }
  if (item.kind == ItemKind::kKernel) {
    KMEM_TRY_ASSIGN(item.code, f.string("code"));
  } else {
    KMEM_TRY_ASSIGN(item.text, f.string("text"));
  }
  if (f.has("text_no_numbers")) KMEM_TRY_ASSIGN(item.text_no_numbers, f.string("text_no_numbers"));
  if (f.has("state")) KMEM_TRY_ASSIGN(item.state, parse_state(f, "state"));
  if (f.has("provenance")) KMEM_TRY_ASSIGN(item.provenance, parse_provenance(entry.at("provenance"), f.where() + ": provenance"));
  if (f.has("history")) KMEM_TRY_ASSIGN(item.history, parse_history(entry.at("history"), f));
  return item;
}

Status parse_items(const Json& doc, const Fields& top, Memory& memory) {
  if (!doc.contains("items") || !doc.at("items").is_array()) return top.error("field 'items' must be a list");
  std::set<std::string> ids;
  const Json& items = doc.at("items");
  for (size_t i = 0; i < items.size(); ++i) {
    std::string where = fmt::format("{}: items[{}]", top.where(), i);
    if (items[i].is_object() && items[i].contains("id") && items[i].at("id").is_string())
      where += fmt::format(" (id '{}')", items[i].at("id").get<std::string>());
    Fields f(items[i], where);
    Item item;
    KMEM_TRY_ASSIGN(item, parse_item(items[i], f, memory));
    if (!ids.insert(item.id).second) return f.error(fmt::format("duplicate item id '{}'", item.id));
    memory.items.push_back(std::move(item));
  }
  return Status::success();
}

Status parse_baseline_values(const Fields& f, const char* key, std::map<std::string, double>& out) {
  if (!f.has(key)) return Status::success();
  const Json* values = nullptr;
  KMEM_TRY_ASSIGN(values, f.object(key));
  for (const auto& [id, v] : values->items()) {
    double d = 0;
    KMEM_TRY_ASSIGN(d, f.finite_value(v, std::string(key) + "." + id));
    out.emplace(id, d);
  }
  return Status::success();
}

Status parse_baselines(const Fields& top, Memory& memory) {
  static const std::regex kGroup(R"(L\d+\|.+)");
  const Json* baselines = nullptr;
  KMEM_TRY_ASSIGN(baselines, top.object("baselines"));
  for (const auto& [reader, entry] : baselines->items()) {
    Fields f(entry, fmt::format("{}: baselines.{}", top.where(), reader));
    if (!entry.is_object()) return f.error("must be an object");
    if (!memory.readers.contains(reader)) return f.error(fmt::format("unknown reader '{}'", reader));
    Baseline baseline;
    if (Status s = parse_baseline_values(f, "problems", baseline.problems); !s) return s;
    if (Status s = parse_baseline_values(f, "groups", baseline.groups); !s) return s;
    if (f.has("provenance")) {
      const Json* sources = nullptr;
      KMEM_TRY_ASSIGN(sources, f.object("provenance"));
      for (const auto& [pid, p] : sources->items()) {
        if (!baseline.problems.contains(pid))
          return f.error(fmt::format("provenance.{}: no problem value to describe", pid));
        KMEM_TRY_ASSIGN(baseline.provenance[pid], parse_provenance(p, f.where() + ": provenance." + pid));
      }
    }
    for (const auto& [key, value] : entry.items())
      if (key != "problems" && key != "groups" && key != "provenance")
        return f.error(fmt::format("unknown field '{}' (expected problems, groups, provenance)", key));
    for (const auto& [pid, v] : baseline.problems)
      if (!memory.problems.contains(pid)) return f.error(fmt::format("problems.{}: unknown problem", pid));
    for (const auto& [group, v] : baseline.groups)
      if (!std::regex_match(group, kGroup))
        return f.error(fmt::format("groups.{}: a group is written L<level>|<category>", group));
    memory.baselines.emplace(reader, std::move(baseline));
  }
  return Status::success();
}

Status parse_targets(const Json& doc, const Fields& top, Memory& memory) {
  if (!top.has("targets")) return Status::success();
  const Json& list = doc.at("targets");
  if (!list.is_array()) return top.error("field 'targets' must be a list of problem ids");
  std::vector<std::string> targets;
  std::set<std::string> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) return top.error(fmt::format("targets[{}] must be a problem id", i));
    std::string id = list[i].get<std::string>();
    if (!memory.problems.contains(id)) return top.error(fmt::format("targets[{}]: unknown problem '{}'", i, id));
    if (!seen.insert(id).second) return top.error(fmt::format("targets[{}]: duplicate problem '{}'", i, id));
    targets.push_back(std::move(id));
  }
  memory.targets = std::move(targets);
  return Status::success();
}

OrderedJson provenance_json(const Provenance& p) {
  OrderedJson j = {{"origin", p.origin}};
  if (!p.reader.empty()) j["reader"] = p.reader;
  if (!p.evaluator.empty()) j["evaluator"] = p.evaluator;
  if (!p.gpu.empty()) j["gpu"] = p.gpu;
  if (!p.date.empty()) j["date"] = p.date;
  return j;
}

}  // namespace

Result<Memory> parse_memory_json(std::string_view text, const std::string& source_name) {
  Json doc;
  KMEM_TRY_ASSIGN(doc, parse_strict_json(text, source_name));
  Fields top(doc, source_name);
  if (!doc.is_object()) return top.error("a store is a JSON object");
  std::string format;
  KMEM_TRY_ASSIGN(format, top.string("format"));
  if (format != kFormat) return top.error(fmt::format("format is '{}', expected '{}'", format, kFormat));

  Memory memory;
  KMEM_TRY_ASSIGN(memory.author, top.string("author"));
  if (top.has("score_cap")) KMEM_TRY_ASSIGN(memory.score_cap, top.finite("score_cap"));
  if (Status s = parse_readers(top, memory); !s) return s.error();
  if (!memory.readers.contains(memory.author))
    return top.error(fmt::format("author '{}' is not one of the readers", memory.author));
  if (Status s = parse_problems(top, memory); !s) return s.error();
  if (Status s = parse_targets(doc, top, memory); !s) return s.error();
  if (Status s = parse_items(doc, top, memory); !s) return s.error();
  if (Status s = parse_baselines(top, memory); !s) return s.error();
  return memory;
}

std::string memory_to_json(const Memory& memory) {
  OrderedJson doc;
  doc["format"] = kFormat;
  doc["author"] = memory.author;
  doc["score_cap"] = memory.score_cap;
  doc["readers"] = OrderedJson::object();
  for (const auto& [id, reader] : memory.readers) doc["readers"][id] = {{"display", reader.display}};
  if (memory.targets) doc["targets"] = *memory.targets;
  doc["problems"] = OrderedJson::object();
  for (const auto& [id, p] : memory.problems)
    doc["problems"][id] = {{"level", p.level}, {"number", p.number}, {"name", p.name}, {"category", p.category}};
  doc["items"] = OrderedJson::array();
  for (const Item& item : memory.items) {
    OrderedJson j;
    j["id"] = item.id;
    j["kind"] = item_kind_name(item.kind);
    if (item.kind != ItemKind::kLesson) j["category"] = item.category;
    if (item.order) j["order"] = *item.order;
    if (item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel) {
      j["source"] = item.source;
      j["speedup"] = item.speedup;
    }
    if (item.kind == ItemKind::kKernel)
      j["code"] = item.code;
    else
      j["text"] = item.text;
    if (item.text_no_numbers) j["text_no_numbers"] = *item.text_no_numbers;
    j["labels"] = item.labels;
    if (item.state != ItemState::kActive) j["state"] = item_state_name(item.state);
    if (!item.provenance.is_seed()) j["provenance"] = provenance_json(item.provenance);
    if (!item.history.empty()) {
      j["history"] = OrderedJson::array();
      for (const HistoryEntry& h : item.history) {
        OrderedJson e = {{"date", h.date}, {"action", h.action}, {"reason", h.reason},
                         {"from", item_state_name(h.from)}, {"to", item_state_name(h.to)}};
        if (h.speedup_before) e["speedup_before"] = *h.speedup_before;
        if (h.speedup_after) e["speedup_after"] = *h.speedup_after;
        j["history"].push_back(std::move(e));
      }
    }
    doc["items"].push_back(std::move(j));
  }
  doc["baselines"] = OrderedJson::object();
  for (const auto& [reader, baseline] : memory.baselines) {
    OrderedJson b;
    b["problems"] = OrderedJson::object();
    for (const auto& [id, v] : baseline.problems) b["problems"][id] = v;
    b["groups"] = OrderedJson::object();
    for (const auto& [id, v] : baseline.groups) b["groups"][id] = v;
    if (!baseline.provenance.empty()) {
      b["provenance"] = OrderedJson::object();
      for (const auto& [id, p] : baseline.provenance) b["provenance"][id] = provenance_json(p);
    }
    doc["baselines"][reader] = std::move(b);
  }
  return doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace kmem
