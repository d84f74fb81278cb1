// Reads and writes the kmem-memory-store/1 JSON format, validating every entry.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kmem/item_kind.h"
#include "kmem/store.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr const char* kFormat = "kmem-memory-store/1";

#define KMEM_TRY_ASSIGN(target, expr)        \
  do {                                       \
    auto kmem_r = (expr);                    \
    if (!kmem_r.ok()) return kmem_r.error(); \
    target = std::move(kmem_r.value());      \
  } while (0)

Status parse_readers(const util::JsonFields& top, Memory& memory) {
  const Json* readers = nullptr;
  KMEM_TRY_ASSIGN(readers, top.object("readers"));
  for (const auto& [id, entry] : readers->items()) {
    util::JsonFields f(entry, fmt::format("{}: readers.{}", top.where(), id));
    if (Status s = f.is_object(); !s) return s;
    Reader reader{id, ""};
    KMEM_TRY_ASSIGN(reader.display, f.string("display"));
    memory.readers.emplace(id, std::move(reader));
  }
  return Status::success();
}

Status parse_problems(const util::JsonFields& top, Memory& memory) {
  const Json* problems = nullptr;
  KMEM_TRY_ASSIGN(problems, top.object("problems"));
  for (const auto& [id, entry] : problems->items()) {
    util::JsonFields f(entry, fmt::format("{}: problems.{}", top.where(), id));
    if (Status s = f.is_object(); !s) return s;
    Problem p;
    p.id = id;
    KMEM_TRY_ASSIGN(p.level, f.integer("level"));
    KMEM_TRY_ASSIGN(p.number, f.integer("number"));
    KMEM_TRY_ASSIGN(p.name, f.string("name"));
    KMEM_TRY_ASSIGN(p.category, f.string("category"));
    memory.problems.emplace(id, std::move(p));
  }
  return Status::success();
}

Result<std::vector<std::string>> parse_labels(const util::JsonFields& f) {
  if (!f.has("labels")) return std::vector<std::string>{};
  return f.strings("labels");
}

// Refuses any field parse_item does not read for an item of `kind`, so a
// misspelt or misplaced field is not silently dropped.
Status check_item_fields(const util::JsonFields& f, ItemKind kind) {
  std::vector<std::string> allowed = {"id", "kind", "labels", "order", "state", "provenance", "history", "values"};
  if (kind == ItemKind::kKernel) allowed.push_back("measurements");
  if (kind != ItemKind::kLesson) allowed.push_back("category");
  if (kind == ItemKind::kRecipe || kind == ItemKind::kKernel) allowed.insert(allowed.end(), {"source", "speedup"});
  allowed.push_back(kind == ItemKind::kKernel ? "code" : "text");
  allowed.push_back("text_no_numbers");
  return f.only(allowed, fmt::format("a {}", item_kind_name(kind)));
}

// A provenance object (docs/learning.md): origin and optional strings.
Result<Provenance> parse_provenance(const util::JsonFields& f) {
  if (Status s = f.is_object(); !s) return s.error();
  if (Status s = f.only({"origin", "reader", "evaluator", "gpu", "date"}); !s) return s.error();
  Provenance p;
  KMEM_TRY_ASSIGN(p.origin, f.string("origin"));
  if (p.origin.empty()) return f.error("origin is empty");
  if (f.has("reader")) KMEM_TRY_ASSIGN(p.reader, f.string("reader"));
  if (f.has("evaluator")) KMEM_TRY_ASSIGN(p.evaluator, f.string("evaluator"));
  if (f.has("gpu")) KMEM_TRY_ASSIGN(p.gpu, f.string("gpu"));
  if (f.has("date")) KMEM_TRY_ASSIGN(p.date, f.string("date"));
  return p;
}

Result<ItemState> parse_state(const util::JsonFields& f, const char* key) {
  std::string name;
  KMEM_TRY_ASSIGN(name, f.string(key));
  auto state = item_state_from_name(name);
  if (!state)
    return f.error(fmt::format("field '{}': unknown state '{}' (expected candidate, active or retired)", key, name));
  return *state;
}

Result<std::vector<HistoryEntry>> parse_history(const util::JsonFields& item) {
  const Json* list = nullptr;
  KMEM_TRY_ASSIGN(list, item.array("history"));
  std::vector<HistoryEntry> history;
  for (size_t i = 0; i < list->size(); ++i) {
    util::JsonFields f((*list)[i], fmt::format("{}: history[{}]", item.where(), i));
    if (Status s = f.is_object(); !s) return s.error();
    if (Status s = f.only({"date", "action", "reason", "from", "to", "speedup_before", "speedup_after"}); !s)
      return s.error();
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

Result<std::vector<Measurement>> parse_measurements(const util::JsonFields& item) {
  const Json* list = nullptr;
  KMEM_TRY_ASSIGN(list, item.array("measurements"));
  std::vector<Measurement> out;
  for (size_t i = 0; i < list->size(); ++i) {
    util::JsonFields f((*list)[i], fmt::format("{}: measurements[{}]", item.where(), i));
    if (Status s = f.is_object(); !s) return s.error();
    if (Status s = f.only({"date", "speedup", "gpu", "evaluator", "reference_retimed"}); !s) return s.error();
    Measurement m;
    KMEM_TRY_ASSIGN(m.date, f.string("date"));
    KMEM_TRY_ASSIGN(m.speedup, f.finite("speedup"));
    KMEM_TRY_ASSIGN(m.gpu, f.string("gpu"));
    KMEM_TRY_ASSIGN(m.evaluator, f.string("evaluator"));
    KMEM_TRY_ASSIGN(m.reference_retimed, f.boolean("reference_retimed"));
    out.push_back(std::move(m));
  }
  return out;
}

Result<std::map<std::string, MeasuredValue>> parse_values(const util::JsonFields& item) {
  const Json* object = nullptr;
  KMEM_TRY_ASSIGN(object, item.object("values"));
  std::map<std::string, MeasuredValue> out;
  for (const auto& [reader, entry] : object->items()) {
    util::JsonFields f(entry, fmt::format("{}: values.{}", item.where(), reader));
    if (Status s = f.is_object(); !s) return s.error();
    if (Status s = f.only({"experiment", "problems", "difference"}); !s) return s.error();
    MeasuredValue v;
    KMEM_TRY_ASSIGN(v.experiment, f.string("experiment"));
    KMEM_TRY_ASSIGN(v.problems, f.integer("problems"));
    KMEM_TRY_ASSIGN(v.difference, f.finite("difference"));
    out[reader] = std::move(v);
  }
  return out;
}

Result<Item> parse_item(const util::JsonFields& f) {
  if (Status s = f.is_object(); !s) return s.error();
  Item item;
  std::string kind;
  KMEM_TRY_ASSIGN(item.id, f.string("id"));
  KMEM_TRY_ASSIGN(kind, f.string("kind"));
  auto parsed_kind = item_kind_from_name(kind);
  if (!parsed_kind) return f.error(fmt::format("unknown kind '{}' (expected lesson, pitfall, recipe or kernel)", kind));
  item.kind = *parsed_kind;
  if (Status s = check_item_fields(f, item.kind); !s) return s.error();
  KMEM_TRY_ASSIGN(item.labels, parse_labels(f));
  if (f.has("order")) KMEM_TRY_ASSIGN(item.order, f.integer("order"));
  if (item.kind != ItemKind::kLesson) KMEM_TRY_ASSIGN(item.category, f.string("category"));
  if (item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel) {
    KMEM_TRY_ASSIGN(item.source, f.string("source"));
    KMEM_TRY_ASSIGN(item.speedup, f.finite("speedup"));
  }
  if (item.kind == ItemKind::kKernel) {
    KMEM_TRY_ASSIGN(item.code, f.string("code"));
  } else {
    KMEM_TRY_ASSIGN(item.text, f.string("text"));
  }
  if (f.has("text_no_numbers")) KMEM_TRY_ASSIGN(item.text_no_numbers, f.string("text_no_numbers"));
  if (f.has("state")) KMEM_TRY_ASSIGN(item.state, parse_state(f, "state"));
  if (f.has("provenance")) {
    const Json* provenance = nullptr;
    KMEM_TRY_ASSIGN(provenance, f.object("provenance"));
    KMEM_TRY_ASSIGN(item.provenance, parse_provenance(util::JsonFields(*provenance, f.where() + ": provenance")));
  }
  if (f.has("history")) KMEM_TRY_ASSIGN(item.history, parse_history(f));
  if (f.has("measurements")) KMEM_TRY_ASSIGN(item.measurements, parse_measurements(f));
  if (f.has("values")) KMEM_TRY_ASSIGN(item.values, parse_values(f));
  return item;
}

Status parse_items(const util::JsonFields& top, Memory& memory) {
  const Json* list = nullptr;
  KMEM_TRY_ASSIGN(list, top.array("items"));
  const Json& items = *list;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string where = fmt::format("{}: items[{}]", top.where(), i);
    if (items[i].is_object() && items[i].contains("id") && items[i].at("id").is_string())
      where += fmt::format(" (id '{}')", items[i].at("id").get<std::string>());
    util::JsonFields f(items[i], where);
    Item item;
    KMEM_TRY_ASSIGN(item, parse_item(f));
    memory.items.push_back(std::move(item));
  }
  return Status::success();
}

Status parse_baseline_values(const util::JsonFields& f, const char* key, std::map<std::string, double>& out) {
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

Status parse_baselines(const util::JsonFields& top, Memory& memory) {
  const Json* baselines = nullptr;
  KMEM_TRY_ASSIGN(baselines, top.object("baselines"));
  for (const auto& [reader, entry] : baselines->items()) {
    util::JsonFields f(entry, fmt::format("{}: baselines.{}", top.where(), reader));
    if (Status s = f.is_object(); !s) return s;
    Baseline baseline;
    if (Status s = parse_baseline_values(f, "problems", baseline.problems); !s) return s;
    if (Status s = parse_baseline_values(f, "groups", baseline.groups); !s) return s;
    if (Status s = f.only({"problems", "groups", "provenance"}); !s) return s;
    if (f.has("provenance")) {
      const Json* sources = nullptr;
      KMEM_TRY_ASSIGN(sources, f.object("provenance"));
      for (const auto& [pid, p] : sources->items()) {
        if (!baseline.problems.contains(pid))
          return f.error(fmt::format("provenance.{}: no problem value to describe", pid));
        KMEM_TRY_ASSIGN(baseline.provenance[pid],
                        parse_provenance(util::JsonFields(p, f.where() + ": provenance." + pid)));
      }
    }
    memory.baselines.emplace(reader, std::move(baseline));
  }
  return Status::success();
}

Status parse_targets(const util::JsonFields& top, Memory& memory) {
  if (!top.has("targets")) return Status::success();
  KMEM_TRY_ASSIGN(memory.targets, top.strings("targets"));
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
  KMEM_TRY_ASSIGN(doc, util::parse_strict_json(text, source_name));
  util::JsonFields top(doc, source_name);
  if (!doc.is_object()) return top.error("a store is a JSON object");
  std::string format;
  KMEM_TRY_ASSIGN(format, top.string("format"));
  if (format != kFormat) return top.error(fmt::format("format is '{}', expected '{}'", format, kFormat));
  if (Status s = top.only({"format", "author", "score_cap", "readers", "targets", "problems", "items", "baselines"});
      !s)
    return s.error();

  Memory memory;
  KMEM_TRY_ASSIGN(memory.author, top.string("author"));
  // Present means a number: an infinite cap written by another tool as null
  // must not come back as the default.
  if (doc.contains("score_cap")) KMEM_TRY_ASSIGN(memory.score_cap, top.finite_value(doc.at("score_cap"), "score_cap"));
  if (Status s = parse_readers(top, memory); !s) return s.error();
  if (Status s = parse_problems(top, memory); !s) return s.error();
  if (Status s = parse_targets(top, memory); !s) return s.error();
  if (Status s = parse_items(top, memory); !s) return s.error();
  if (Status s = parse_baselines(top, memory); !s) return s.error();
  if (Status s = validate_memory(memory, source_name); !s) return s.error();
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
    if (item.kind == ItemKind::kKernel) j["code"] = item.code;
    else j["text"] = item.text;
    if (item.text_no_numbers) j["text_no_numbers"] = *item.text_no_numbers;
    j["labels"] = item.labels;
    if (item.state != ItemState::kActive) j["state"] = item_state_name(item.state);
    if (!item.provenance.is_seed()) j["provenance"] = provenance_json(item.provenance);
    if (!item.history.empty()) {
      j["history"] = OrderedJson::array();
      for (const HistoryEntry& h : item.history) {
        OrderedJson e = {{"date", h.date},
                         {"action", h.action},
                         {"reason", h.reason},
                         {"from", item_state_name(h.from)},
                         {"to", item_state_name(h.to)}};
        if (h.speedup_before) e["speedup_before"] = *h.speedup_before;
        if (h.speedup_after) e["speedup_after"] = *h.speedup_after;
        j["history"].push_back(std::move(e));
      }
    }
    if (!item.measurements.empty()) {
      j["measurements"] = OrderedJson::array();
      for (const Measurement& m : item.measurements)
        j["measurements"].push_back({{"date", m.date},
                                     {"speedup", m.speedup},
                                     {"gpu", m.gpu},
                                     {"evaluator", m.evaluator},
                                     {"reference_retimed", m.reference_retimed}});
    }
    if (!item.values.empty()) {
      j["values"] = OrderedJson::object();
      for (const auto& [reader, v] : item.values)
        j["values"][reader] = {{"experiment", v.experiment}, {"problems", v.problems}, {"difference", v.difference}};
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
