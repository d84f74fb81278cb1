// The kmem database: SQLite in WAL mode or PostgreSQL, holding one Memory. Every read is
// checked row by row (row_reader.h) and as a whole (validate_memory).
#include <fmt/format.h>

#include "kmem/item_kind.h"
#include "kmem/store.h"
#include "store/connect.h"
#include "store/database_impl.h"
#include "store/postgres.h"
#include "store/row_reader.h"
#include "store/schema.h"
#include "store/sqlite.h"
#include "store/validate.h"

namespace kmem::store {

namespace {

constexpr int kCurrentVersion = static_cast<int>(kMigrations.size());

Error newer_schema(const std::string& path, int version) {
  return Error(
      fmt::format("{}: schema version {} is newer than this kmem understands ({})", path, version, kCurrentVersion));
}

// Runs the next migration, if the schema needs one, inside the caller's
// transaction: true when one ran, false when the schema is current.
Result<bool> next_migration(sql::Connection& db) {
  auto version = db.schema_version();
  if (!version) return version.error();
  if (*version > kCurrentVersion) return newer_schema(db.path(), *version);
  if (*version == kCurrentVersion) return false;
  Status s = db.exec(migration_sql(*version, db.dialect()));
  if (s) s = db.set_schema_version(*version + 1);
  if (!s) return s.error().wrap(fmt::format("migration {}", *version + 1));
  return true;
}

// Brings the schema to the current version, one migration per transaction.
// The version is read inside the transaction, so processes opening a fresh
// database at once take turns instead of racing.
Status migrate(sql::Connection& db) {
  while (true) {
    bool ran = false;
    Status s = sql::in_exclusive_transaction(db, [&]() -> Status {
      auto next = next_migration(db);
      if (!next) return next.error();
      ran = *next;
      return Status::success();
    });
    if (!s) return s;
    if (!ran) return Status::success();
  }
}

// A read-only PostgreSQL session on a kmem database of the current schema;
// an older one is refused (a server's database is migrated by the first
// command that writes to it, never in a private copy).
Result<std::unique_ptr<sql::Connection>> connect_existing_postgres(const std::string& url) {
  auto connection = postgres::connect(url, /*read_only=*/true);
  if (!connection) return connection.error();
  auto version = (*connection)->schema_version();
  if (!version) return version.error();
  const std::string& name = (*connection)->path();
  if (*version == 0) return Error(name + ": not a kmem database");
  if (*version > kCurrentVersion) return newer_schema(name, *version);
  if (*version < kCurrentVersion)
    return Error(
        fmt::format("{}: schema version {} is older than this kmem's ({}); a command that writes to the "
                    "database (kmem import, kmem worker) migrates it",
                    name, *version, kCurrentVersion));
  return connection;
}

Status insert_problem(sql::Statement& insert, const Problem& p) {
  return insert.bind(1, p.id).bind(2, p.level).bind(3, p.number).bind(4, p.name).bind(5, p.category).run();
}

constexpr const char* kUpsertProblem =
    "INSERT INTO problems(id, level, number, name, category) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT(id) DO UPDATE SET level = excluded.level, number = excluded.number, "
    "name = excluded.name, category = excluded.category";

Status write_items(sql::Connection& db, const std::vector<Item>& items) {
  auto insert = db.prepare(
      "INSERT INTO items(position, id, kind, category, item_order, source, speedup, text, text_no_numbers, code, "
      "state, origin, reader, evaluator, gpu, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto label = db.prepare("INSERT INTO item_labels(item_id, position, label) VALUES (?, ?, ?)");
  auto history = db.prepare(
      "INSERT INTO item_history(item_id, position, at, action, reason, from_state, to_state, speedup_before, "
      "speedup_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto measurement = db.prepare(
      "INSERT INTO item_measurements(item_id, position, at, speedup, gpu, evaluator, reference_retimed) "
      "VALUES (?, ?, ?, ?, ?, ?, ?)");
  auto value =
      db.prepare("INSERT INTO item_values(item_id, reader, experiment, problems, difference) VALUES (?, ?, ?, ?, ?)");
  if (!insert) return insert.error();
  if (!label) return label.error();
  if (!history) return history.error();
  if (!measurement) return measurement.error();
  if (!value) return value.error();
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    bool provenance = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
    insert->bind(1, static_cast<int>(i)).bind(2, item.id).bind(3, std::string(item_kind_name(item.kind)));
    if (item.kind == ItemKind::kLesson) insert->bind_null(4);
    else insert->bind(4, item.category);
    if (item.order) insert->bind(5, *item.order);
    else insert->bind_null(5);
    if (provenance) insert->bind(6, item.source).bind(7, item.speedup);
    else insert->bind_null(6).bind_null(7);
    if (item.kind == ItemKind::kKernel) insert->bind_null(8).bind(10, item.code);
    else insert->bind(8, item.text).bind_null(10);
    if (item.text_no_numbers) insert->bind(9, *item.text_no_numbers);
    else insert->bind_null(9);
    const Provenance& p = item.provenance;
    insert->bind(11, std::string(item_state_name(item.state))).bind(12, p.origin).bind(13, p.reader);
    insert->bind(14, p.evaluator).bind(15, p.gpu).bind(16, p.date);
    if (Status s = insert->run(); !s) return s.error().wrap("item " + item.id);
    for (size_t l = 0; l < item.labels.size(); ++l)
      if (Status s = label->bind(1, item.id).bind(2, static_cast<int>(l)).bind(3, item.labels[l]).run(); !s) return s;
    for (size_t h = 0; h < item.history.size(); ++h) {
      const HistoryEntry& e = item.history[h];
      history->bind(1, item.id).bind(2, static_cast<int>(h)).bind(3, e.date).bind(4, e.action).bind(5, e.reason);
      history->bind(6, std::string(item_state_name(e.from))).bind(7, std::string(item_state_name(e.to)));
      if (e.speedup_before) history->bind(8, *e.speedup_before);
      else history->bind_null(8);
      if (e.speedup_after) history->bind(9, *e.speedup_after);
      else history->bind_null(9);
      if (Status s = history->run(); !s) return s.error().wrap("history of item " + item.id);
    }
    for (size_t m = 0; m < item.measurements.size(); ++m) {
      const Measurement& e = item.measurements[m];
      measurement->bind(1, item.id).bind(2, static_cast<int>(m)).bind(3, e.date).bind(4, e.speedup).bind(5, e.gpu);
      measurement->bind(6, e.evaluator).bind(7, e.reference_retimed ? 1 : 0);
      if (Status s = measurement->run(); !s) return s.error().wrap("measurements of item " + item.id);
    }
    for (const auto& [reader, v] : item.values) {
      value->bind(1, item.id).bind(2, reader).bind(3, v.experiment).bind(4, v.problems).bind(5, v.difference);
      if (Status s = value->run(); !s) return s.error().wrap("values of item " + item.id);
    }
  }
  return Status::success();
}

Status write_memory(sql::Connection& db, const Memory& memory) {
  for (const char* table :
       {"item_measurements", "item_values", "item_history", "item_labels", "items", "baseline_provenance", "targets",
        "problem_baselines", "group_baselines", "problems", "readers", "store"})
    if (Status s = db.exec(fmt::format("DELETE FROM {}", table)); !s) return s;
  auto store = db.prepare("INSERT INTO store(singleton, author, score_cap, has_targets) VALUES (1, ?, ?, ?)");
  if (!store) return store.error();
  if (Status s = store->bind(1, memory.author).bind(2, memory.score_cap).bind(3, memory.targets ? 1 : 0).run(); !s)
    return s;
  auto reader = db.prepare("INSERT INTO readers(id, display, has_baseline) VALUES (?, ?, ?)");
  if (!reader) return reader.error();
  for (const auto& [id, r] : memory.readers)
    if (Status s = reader->bind(1, id).bind(2, r.display).bind(3, memory.baselines.contains(id) ? 1 : 0).run(); !s)
      return s;
  auto problem = db.prepare(kUpsertProblem);
  if (!problem) return problem.error();
  for (const auto& [id, p] : memory.problems)
    if (Status s = insert_problem(*problem, p); !s) return s;
  if (memory.targets) {
    auto target = db.prepare("INSERT INTO targets(position, problem_id) VALUES (?, ?)");
    if (!target) return target.error();
    for (size_t i = 0; i < memory.targets->size(); ++i)
      if (Status s = target->bind(1, static_cast<int>(i)).bind(2, (*memory.targets)[i]).run(); !s) return s;
  }
  if (Status s = write_items(db, memory.items); !s) return s;
  auto by_problem = db.prepare("INSERT INTO problem_baselines(reader_id, problem_id, score) VALUES (?, ?, ?)");
  auto by_group = db.prepare("INSERT INTO group_baselines(reader_id, group_key, score) VALUES (?, ?, ?)");
  if (!by_problem) return by_problem.error();
  if (!by_group) return by_group.error();
  auto provenance = db.prepare(
      "INSERT INTO baseline_provenance(reader_id, problem_id, origin, reader, evaluator, gpu, verified_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?)");
  if (!provenance) return provenance.error();
  for (const auto& [reader_id, baseline] : memory.baselines) {
    for (const auto& [pid, v] : baseline.problems)
      if (Status s = by_problem->bind(1, reader_id).bind(2, pid).bind(3, v).run(); !s) return s;
    for (const auto& [group, v] : baseline.groups)
      if (Status s = by_group->bind(1, reader_id).bind(2, group).bind(3, v).run(); !s) return s;
    for (const auto& [pid, p] : baseline.provenance) {
      provenance->bind(1, reader_id).bind(2, pid).bind(3, p.origin).bind(4, p.reader).bind(5, p.evaluator);
      if (Status s = provenance->bind(6, p.gpu).bind(7, p.date).run(); !s) return s;
    }
  }
  return Status::success();
}

// Reads one problem row: "SELECT rowid, id, level, number, name, category".
Result<Problem> read_problem(sql::Statement& q, const std::string& where) {
  RowReader r(q, fmt::format("{} row {}", where, q.integer64(0)));
  Problem p;
  p.id = r.text(1, "id");
  p.level = r.integer(2, "level");
  p.number = r.integer(3, "number");
  p.name = r.text(4, "name");
  p.category = r.text(5, "category");
  if (Status s = r.status(); !s) return s.error();
  if (Status s = check_problem(p); !s) return s.error().wrap(fmt::format("{} (id '{}')", r.where(), p.id));
  return p;
}

Status read_problems(sql::Connection& db, std::map<std::string, Problem>& problems) {
  return for_each_row(db, "SELECT rowid, id, level, number, name, category FROM problems",
                      [&](sql::Statement& q) -> Status {
                        auto p = read_problem(q, db.path() + ": problems");
                        if (!p) return p.error();
                        std::string id = p->id;
                        if (!problems.emplace(id, std::move(*p)).second)
                          return Error(fmt::format("{}: problems: duplicate id '{}'", db.path(), id));
                        return Status::success();
                      });
}

// The store row: author, score cap and whether targets are stored.
Status read_store(sql::Connection& db, Memory& memory, bool& has_targets) {
  int rows = 0;
  Status s = for_each_row(db, "SELECT rowid, author, score_cap, has_targets FROM store", [&](sql::Statement& q) {
    RowReader r(q, fmt::format("{}: store row {}", db.path(), q.integer64(0)));
    if (++rows > 1) r.fail("the store table holds more than one row");
    memory.author = r.text(1, "author");
    memory.score_cap = r.real(2, "score_cap");
    has_targets = r.flag(3, "has_targets");
    return r.status();
  });
  if (!s) return s;
  if (rows == 0) return Error(db.path() + ": the database holds no memory yet (run kmem import first)");
  return Status::success();
}

Status read_readers(sql::Connection& db, Memory& memory) {
  return for_each_row(db, "SELECT rowid, id, display, has_baseline FROM readers", [&](sql::Statement& q) {
    RowReader r(q, fmt::format("{}: readers row {}", db.path(), q.integer64(0)));
    Reader reader{r.text(1, "id"), r.text(2, "display")};
    bool has_baseline = r.flag(3, "has_baseline");
    if (r.status() && memory.readers.contains(reader.id)) r.fail(fmt::format("duplicate id '{}'", reader.id));
    if (!r.status()) return r.status();
    if (has_baseline) memory.baselines[reader.id];  // kept even when it holds no value
    memory.readers.emplace(reader.id, std::move(reader));
    return Status::success();
  });
}

Status read_targets(sql::Connection& db, bool has_targets, Memory& memory) {
  if (has_targets) memory.targets.emplace();
  return for_each_row(db, "SELECT rowid, position, problem_id FROM targets ORDER BY position", [&](sql::Statement& q) {
    RowReader r(q, fmt::format("{}: targets row {}", db.path(), q.integer64(0)));
    int position = r.integer(1, "position");
    std::string id = r.text(2, "problem_id");
    if (!r.status()) return r.status();
    if (!memory.targets) r.fail("a target row, but the store row's has_targets is 0");
    else if (position != static_cast<int>(memory.targets->size()))
      r.fail(fmt::format("position {}, expected {}", position, memory.targets->size()));
    else if (!memory.problems.contains(id)) r.fail(fmt::format("unknown problem '{}'", id));
    if (r.status()) memory.targets->push_back(std::move(id));
    return r.status();
  });
}

// One items row: rowid, position, id, kind, category, item_order, source,
// speedup, text, text_no_numbers, code. Each column its kind has is
// required; the others must be NULL (or empty, as validate_memory checks).
Status read_item(sql::Statement& q, const std::string& db_path, Memory& memory) {
  RowReader r(q, fmt::format("{}: items row {}", db_path, q.integer64(0)));
  int position = r.integer(1, "position");
  Item item;
  item.id = r.text(2, "id");
  if (!r.status()) return r.status();
  r.name(fmt::format(" (id '{}')", item.id));
  if (position != static_cast<int>(memory.items.size()))
    r.fail(fmt::format("position {}, expected {}", position, memory.items.size()));
  std::string kind = r.text(3, "kind");
  if (!r.status()) return r.status();
  auto parsed = item_kind_from_name(kind);
  if (!parsed) r.fail(fmt::format("unknown kind '{}' (expected lesson, pitfall, recipe or kernel)", kind));
  item.kind = parsed.value_or(ItemKind::kLesson);
  bool provenance = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
  item.category = item.kind == ItemKind::kLesson ? r.optional_text(4, "category").value_or("") : r.text(4, "category");
  item.order = r.optional_integer(5, "item_order");
  item.source = provenance ? r.text(6, "source") : r.optional_text(6, "source").value_or("");
  item.speedup = provenance ? r.real(7, "speedup") : r.optional_real(7, "speedup").value_or(0.0);
  bool kernel = item.kind == ItemKind::kKernel;
  item.text = kernel ? r.optional_text(8, "text").value_or("") : r.text(8, "text");
  item.text_no_numbers = r.optional_text(9, "text_no_numbers");
  item.code = kernel ? r.text(10, "code") : r.optional_text(10, "code").value_or("");
  std::string state = r.text(11, "state");
  item.provenance = Provenance{r.text(12, "origin"), r.text(13, "reader"), r.text(14, "evaluator"), r.text(15, "gpu"),
                               r.text(16, "verified_at")};
  if (!r.status()) return r.status();
  auto parsed_state = item_state_from_name(state);
  if (!parsed_state) r.fail(fmt::format("unknown state '{}' (expected candidate, active or retired)", state));
  item.state = parsed_state.value_or(ItemState::kActive);
  if (!r.status()) return r.status();
  memory.items.push_back(std::move(item));
  return Status::success();
}

Status read_items(sql::Connection& db, Memory& memory) {
  Status s = for_each_row(db,
                          "SELECT rowid, position, id, kind, category, item_order, source, speedup, text, "
                          "text_no_numbers, code, state, origin, reader, evaluator, gpu, verified_at "
                          "FROM items ORDER BY position",
                          [&](sql::Statement& q) { return read_item(q, db.path(), memory); });
  if (!s) return s;
  std::map<std::string, Item*> by_id;
  for (Item& item : memory.items) by_id.emplace(item.id, &item);
  s = for_each_row(db, "SELECT rowid, item_id, label FROM item_labels ORDER BY item_id, position",
                   [&](sql::Statement& q) {
                     RowReader r(q, fmt::format("{}: item_labels row {}", db.path(), q.integer64(0)));
                     std::string id = r.text(1, "item_id");
                     std::string label = r.text(2, "label");
                     auto item = by_id.find(id);
                     if (r.status() && item == by_id.end()) r.fail(fmt::format("no item has the id '{}'", id));
                     if (r.status()) item->second->labels.push_back(std::move(label));
                     return r.status();
                   });
  if (!s) return s;
  s = for_each_row(db,
                   "SELECT rowid, item_id, at, speedup, gpu, evaluator, reference_retimed FROM item_measurements "
                   "ORDER BY item_id, position",
                   [&](sql::Statement& q) {
                     RowReader r(q, fmt::format("{}: item_measurements row {}", db.path(), q.integer64(0)));
                     std::string id = r.text(1, "item_id");
                     Measurement m{r.text(2, "at"), r.real(3, "speedup"), r.text(4, "gpu"), r.text(5, "evaluator"),
                                   r.flag(6, "reference_retimed")};
                     auto item = by_id.find(id);
                     if (r.status() && item == by_id.end()) r.fail(fmt::format("no item has the id '{}'", id));
                     if (r.status()) item->second->measurements.push_back(std::move(m));
                     return r.status();
                   });
  if (!s) return s;
  s = for_each_row(
      db, "SELECT rowid, item_id, reader, experiment, problems, difference FROM item_values ORDER BY item_id, reader",
      [&](sql::Statement& q) {
        RowReader r(q, fmt::format("{}: item_values row {}", db.path(), q.integer64(0)));
        std::string id = r.text(1, "item_id"), reader = r.text(2, "reader");
        MeasuredValue v{r.text(3, "experiment"), r.integer(4, "problems"), r.real(5, "difference")};
        auto item = by_id.find(id);
        if (r.status() && item == by_id.end()) r.fail(fmt::format("no item has the id '{}'", id));
        if (r.status()) item->second->values[reader] = std::move(v);
        return r.status();
      });
  if (!s) return s;
  return for_each_row(db,
                      "SELECT rowid, item_id, at, action, reason, from_state, to_state, speedup_before, speedup_after "
                      "FROM item_history ORDER BY item_id, position",
                      [&](sql::Statement& q) {
                        RowReader r(q, fmt::format("{}: item_history row {}", db.path(), q.integer64(0)));
                        std::string id = r.text(1, "item_id");
                        HistoryEntry h;
                        h.date = r.text(2, "at");
                        h.action = r.text(3, "action");
                        h.reason = r.text(4, "reason");
                        std::string from = r.text(5, "from_state"), to = r.text(6, "to_state");
                        h.speedup_before = r.optional_real(7, "speedup_before");
                        h.speedup_after = r.optional_real(8, "speedup_after");
                        auto item = by_id.find(id);
                        if (r.status() && item == by_id.end()) r.fail(fmt::format("no item has the id '{}'", id));
                        auto parsed_from = item_state_from_name(from), parsed_to = item_state_from_name(to);
                        if (r.status() && (!parsed_from || !parsed_to))
                          r.fail(fmt::format("unknown state '{}' or '{}'", from, to));
                        if (!r.status()) return r.status();
                        h.from = *parsed_from;
                        h.to = *parsed_to;
                        item->second->history.push_back(std::move(h));
                        return Status::success();
                      });
}

// Where each problem baseline came from: rowid, reader_id, problem_id, origin,
// reader, evaluator, gpu, verified_at.
Status read_baseline_provenance(sql::Connection& db, Memory& memory) {
  return for_each_row(
      db, "SELECT rowid, reader_id, problem_id, origin, reader, evaluator, gpu, verified_at FROM baseline_provenance",
      [&](sql::Statement& q) {
        RowReader r(q, fmt::format("{}: baseline_provenance row {}", db.path(), q.integer64(0)));
        std::string reader = r.text(1, "reader_id"), problem = r.text(2, "problem_id");
        Provenance p{r.text(3, "origin"), r.text(4, "reader"), r.text(5, "evaluator"), r.text(6, "gpu"),
                     r.text(7, "verified_at")};
        auto baseline = memory.baselines.find(reader);
        if (r.status() && (baseline == memory.baselines.end() || !baseline->second.problems.contains(problem)))
          r.fail(fmt::format("no baseline of reader '{}' on '{}'", reader, problem));
        if (r.status()) baseline->second.provenance[problem] = std::move(p);
        return r.status();
      });
}

// problem_baselines or group_baselines: rowid, reader_id, key, score.
Status read_baselines(sql::Connection& db, const char* table, const char* key_column, Memory& memory,
                      std::map<std::string, double> Baseline::*values) {
  return for_each_row(db, fmt::format("SELECT rowid, reader_id, {}, score FROM {}", key_column, table),
                      [&](sql::Statement& q) {
                        RowReader r(q, fmt::format("{}: {} row {}", db.path(), table, q.integer64(0)));
                        std::string reader = r.text(1, "reader_id");
                        std::string key = r.text(2, key_column);
                        double score = r.real(3, "score");
                        if (r.status() && !memory.readers.contains(reader))
                          r.fail(fmt::format("unknown reader '{}'", reader));
                        if (r.status() && !(memory.baselines[reader].*values).emplace(key, score).second)
                          r.fail(fmt::format("a second score for '{}' of reader '{}'", key, reader));
                        return r.status();
                      });
}

// Reads the memory row by row, each row checked as it is read, then the
// whole by validate_memory: as strict as parse_memory_json.
Result<Memory> read_memory(sql::Connection& db) {
  Memory memory;
  bool has_targets = false;
  Status s = read_store(db, memory, has_targets);
  if (s) s = read_readers(db, memory);
  if (s) s = read_problems(db, memory.problems);
  if (s) s = read_targets(db, has_targets, memory);
  if (s) s = read_items(db, memory);
  if (s) s = read_baselines(db, "problem_baselines", "problem_id", memory, &Baseline::problems);
  if (s) s = read_baselines(db, "group_baselines", "group_key", memory, &Baseline::groups);
  if (s) s = read_baseline_provenance(db, memory);
  if (s) s = validate_memory(memory, db.path());
  if (!s) return s.error();
  return memory;
}

}  // namespace

Result<std::unique_ptr<sql::Connection>> open_writable(const std::string& db) {
  std::unique_ptr<sql::Connection> connection;
  if (postgres::is_url(db)) {
    auto pg = postgres::connect(db, /*read_only=*/false);
    if (!pg) return pg.error();
    connection = std::move(*pg);
  } else {
    auto file = sqlite::Connection::open(db, sqlite::Connection::Mode::kReadWrite);
    if (!file) return file.error();
    if (Status s = (*file)->use_wal(); !s) return s.error();
    if (Status s = (*file)->exec("PRAGMA foreign_keys = ON"); !s) return s.error();
    connection = std::move(*file);
  }
  if (Status s = migrate(*connection); !s) return s.error();
  return connection;
}

}  // namespace kmem::store

namespace kmem {

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Result<Database> Database::open(const std::string& path) {
  auto connection = store::open_writable(path);
  if (!connection) return connection.error();
  return Database(std::make_unique<Impl>(Impl{std::move(*connection)}));
}

Result<Database> Database::open_existing(const std::string& path) {
  if (store::postgres::is_url(path)) {
    auto connection = store::connect_existing_postgres(path);
    if (!connection) return connection.error();
    return Database(std::make_unique<Impl>(Impl{std::move(*connection)}));
  }
  auto file = store::sqlite::Connection::open(path, store::sqlite::Connection::Mode::kReadOnly);
  if (!file) return file.error();
  std::unique_ptr<store::sqlite::Connection> connection = std::move(*file);
  auto version = connection->schema_version();
  if (!version) return version.error();
  if (*version == 0) return Error(path + ": not a kmem database");
  if (*version > store::kCurrentVersion) return store::newer_schema(path, *version);
  if (*version < store::kCurrentVersion) {  // migrated in memory; the file stays as it is
    auto copy = connection->copy_in_memory();
    if (!copy) return copy.error();
    if (Status s = store::migrate(**copy); !s) return s.error();
    connection = std::move(*copy);
  }
  // The in-memory copy too must refuse writes, which would be lost.
  if (Status s = connection->exec("PRAGMA query_only = ON"); !s) return s.error();
  return Database(std::make_unique<Impl>(Impl{std::move(connection)}));
}

Status Database::replace(const Memory& memory) {
  // A Memory built in code passes the same checks as a store file.
  if (Status s = validate_memory(memory, path()); !s) return s;
  return store::in_transaction(*impl_->connection, [&] { return store::write_memory(*impl_->connection, memory); });
}

Result<Memory> Database::read() const { return store::read_memory(*impl_->connection); }

Status Database::update(const std::function<Result<Memory>(const Memory&)>& change) {
  return store::in_transaction(*impl_->connection, [&]() -> Status {
    auto before = store::read_memory(*impl_->connection);
    if (!before) return before.error();
    auto after = change(*before);
    if (!after) return after.error();
    if (Status s = validate_memory(*after, path()); !s) return s;
    return store::write_memory(*impl_->connection, *after);
  });
}

Result<std::map<std::string, Problem>> Database::problems() const {
  std::map<std::string, Problem> problems;
  if (Status s = store::read_problems(*impl_->connection, problems); !s) return s.error();
  return problems;
}

Status Database::upsert_problems(const std::vector<Problem>& problems) {
  return store::in_transaction(*impl_->connection, [&]() -> Status {
    auto upsert = impl_->connection->prepare(store::kUpsertProblem);
    if (!upsert) return upsert.error();
    for (const Problem& p : problems) {
      if (Status s = store::check_problem(p); !s) return s.error().wrap(fmt::format("{}: problem {}", path(), p.id));
      if (Status s = store::insert_problem(*upsert, p); !s) return s.error().wrap("problem " + p.id);
    }
    return Status::success();
  });
}

const std::string& Database::path() const { return impl_->connection->path(); }

}  // namespace kmem
