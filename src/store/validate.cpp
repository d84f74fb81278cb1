// validate_memory: every rule a Memory must keep (docs/store.md), in one
// place, for every path into a store: a JSON import, a database read and
// Database::replace of a Memory built in code.
#include "store/validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "kmem/item_kind.h"
#include "kmem/limits.h"
#include "kmem/store.h"

namespace kmem {
namespace {

using namespace limits;

// The labels docs/store.md defines; policies filter on the first two.
constexpr std::array<std::string_view, 3> kLabels = {"prohibition", "correctness", "environment"};

// Wraps a failed check as "<where>: <field> ...".
Status at(const std::string& where, Status s) {
  if (!s) return s.error().wrap(where);
  return s;
}
Status field(const std::string& where, std::string_view name, Status s) {
  if (!s) return Error(fmt::format("{}: field '{}' {}", where, name, s.error().message()));
  return s;
}

Status check_readers(const Memory& m, const std::string& src) {
  for (const auto& [id, reader] : m.readers) {
    std::string where = fmt::format("{}: readers.{}", src, id);
    if (reader.id != id) return Error(fmt::format("{}: holds the id '{}'", where, reader.id));
    if (Status s = at(where, check_reader_id(id)); !s) return s;
    if (Status s = field(where, "display", check_name(reader.display)); !s) return s;
  }
  if (Status s = at(src + ": author", check_reader_id(m.author)); !s) return s;
  if (!m.readers.contains(m.author))
    return Error(fmt::format("{}: author '{}' is not one of the readers", src, m.author));
  return Status::success();
}

Status check_problems(const Memory& m, const std::string& src) {
  for (const auto& [id, p] : m.problems) {
    std::string where = fmt::format("{}: problems.{}", src, id);
    if (p.id != id) return Error(fmt::format("{}: holds the id '{}'", where, p.id));
    if (Status s = at(where, store::check_problem(p)); !s) return s;
  }
  if (!m.targets) return Status::success();
  std::set<std::string> seen;
  for (size_t i = 0; i < m.targets->size(); ++i) {
    const std::string& id = (*m.targets)[i];
    if (!m.problems.contains(id))
      return Error(fmt::format("{}: targets[{}]: unknown problem '{}'", src, i, check_utf8(id) ? id : "(not UTF-8)"));
    if (!seen.insert(id).second) return Error(fmt::format("{}: targets[{}]: duplicate problem '{}'", src, i, id));
  }
  return Status::success();
}

// The fields of `item` that its kind does not have must be empty, so that
// export (which writes only the kind's fields) loses nothing.
Status check_kind_fields(const Item& item, const std::string& where) {
  bool provenance = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
  auto stray = [&](const char* name) {
    return Error(fmt::format("{}: a {} has no field '{}'", where, item_kind_name(item.kind), name));
  };
  if (item.kind == ItemKind::kLesson && !item.category.empty()) return stray("category");
  if (!provenance && !item.source.empty()) return stray("source");
  if (!provenance && item.speedup != 0.0) return stray("speedup");
  if (item.kind == ItemKind::kKernel && !item.text.empty()) return stray("text");
  if (item.kind != ItemKind::kKernel && !item.code.empty()) return stray("code");
  return Status::success();
}

Status check_item(const Memory& m, const Item& item, const std::string& where) {
  if (Status s = check_kind_fields(item, where); !s) return s;
  for (const std::string& label : item.labels)
    if (std::find(kLabels.begin(), kLabels.end(), label) == kLabels.end())
      return Error(fmt::format("{}: unknown label '{}' (expected prohibition, correctness or environment)", where,
                               check_utf8(label) ? label : "(not UTF-8)"));
  if ((item.kind == ItemKind::kLesson || item.kind == ItemKind::kPitfall) && !item.order)
    return Error(where + ": missing field 'order'");
  if (item.kind != ItemKind::kLesson)
    if (Status s = at(where, check_category(item.category)); !s) return s;
  if (item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel) {
    if (!m.problems.contains(item.source))
      return Error(fmt::format("{}: source problem '{}' does not exist", where,
                               check_utf8(item.source) ? item.source : "(not UTF-8)"));
    if (Status s = at(where, check_speedup(item.speedup)); !s) return s;
  }
  if (Status s = field(where, item.kind == ItemKind::kKernel ? "code" : "text",
                       check_text(item.kind == ItemKind::kKernel ? item.code : item.text));
      !s)
    return s;
  if (item.text_no_numbers)
    if (Status s = field(where, "text_no_numbers", check_text(*item.text_no_numbers)); !s) return s;
  // Provenance and history (docs/learning.md): texts, an origin, finite speedups.
  const Provenance& p = item.provenance;
  if (p.origin.empty()) return Error(where + ": provenance: origin is empty");
  for (const std::string* text : {&p.origin, &p.reader, &p.evaluator, &p.gpu, &p.date})
    if (Status s = field(where, "provenance", check_text(*text)); !s) return s;
  for (const HistoryEntry& h : item.history) {
    for (const std::string* text : {&h.date, &h.action, &h.reason})
      if (Status s = field(where, "history", check_text(*text)); !s) return s;
    for (const auto& v : {h.speedup_before, h.speedup_after})
      if (v && !std::isfinite(*v)) return Error(where + ": history: a speedup must be a finite number");
  }
  // Confidence (docs/learning.md): measurements of kernels only, each a
  // speedup within the store's limits; values of readers the store knows.
  if (!item.measurements.empty() && item.kind != ItemKind::kKernel)
    return Error(where + ": measurements: only a kernel has measurements");
  for (const Measurement& e : item.measurements) {
    for (const std::string* text : {&e.date, &e.gpu, &e.evaluator})
      if (Status s = field(where, "measurements", check_text(*text)); !s) return s;
    if (Status s = field(where, "measurements", limits::check_speedup(e.speedup)); !s) return s;
  }
  for (const auto& [reader, v] : item.values) {
    if (!m.readers.contains(reader)) return Error(fmt::format("{}: values: unknown reader '{}'", where, reader));
    if (Status s = field(where, "values", check_text(v.experiment)); !s) return s;
    if (v.problems < 0 || !std::isfinite(v.difference))
      return Error(fmt::format("{}: values.{}: problems must be >= 0 and difference finite", where, reader));
  }
  return Status::success();
}

Status check_items(const Memory& m, const std::string& src) {
  std::set<std::string> ids;
  for (size_t i = 0; i < m.items.size(); ++i) {
    const Item& item = m.items[i];
    std::string where = fmt::format("{}: items[{}]", src, i);
    if (Status s = at(where, check_item_id(item.id)); !s) return s;
    where += fmt::format(" (id '{}')", item.id);
    if (!ids.insert(item.id).second) return Error(fmt::format("{}: duplicate item id '{}'", where, item.id));
    if (Status s = check_item(m, item, where); !s) return s;
  }
  return Status::success();
}

Status check_baselines(const Memory& m, const std::string& src) {
  for (const auto& [reader, baseline] : m.baselines) {
    std::string where = fmt::format("{}: baselines.{}", src, check_utf8(reader) ? reader : "(not UTF-8)");
    if (!m.readers.contains(reader)) return Error(fmt::format("{}: unknown reader '{}'", where, reader));
    for (const auto& [pid, v] : baseline.problems) {
      std::string entry = fmt::format("{}: problems.{}", where, check_utf8(pid) ? pid : "(not UTF-8)");
      if (!m.problems.contains(pid)) return Error(entry + ": unknown problem");
      if (Status s = at(entry, check_baseline(v, m.score_cap)); !s) return s;
    }
    for (const auto& [group, v] : baseline.groups) {
      std::string entry = fmt::format("{}: groups.{}", where, check_utf8(group) ? group : "(not UTF-8)");
      if (Status s = at(entry, check_group_key(group)); !s) return s;
      if (Status s = at(entry, check_baseline(v, m.score_cap)); !s) return s;
    }
  }
  return Status::success();
}

}  // namespace

Status store::check_problem(const Problem& p) {
  if (p.id != fmt::format("L{}_{:03d}", p.level, p.number))
    return Error(fmt::format("id does not match level {} and number {} (expected L{}_{:03d})", p.level, p.number,
                             p.level, p.number));
  for (Status s : {check_level(p.level), check_problem_number(p.number), check_problem_id(p.id)})
    if (!s) return s;
  if (Status s = check_name(p.name); !s) return Error("field 'name' " + s.error().message());
  return check_category(p.category);
}

Status validate_memory(const Memory& memory, const std::string& source_name) {
  if (Status s = at(source_name, check_score_cap(memory.score_cap)); !s) return s;
  for (auto check : {check_readers, check_problems, check_items, check_baselines})
    if (Status s = check(memory, source_name); !s) return s;
  return Status::success();
}

}  // namespace kmem
