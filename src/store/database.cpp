// The kmem database: SQLite in WAL mode holding one Memory.
#include <fmt/format.h>

#include "kmem/store.h"
#include "store/database_impl.h"
#include "store/item_kind.h"
#include "store/schema.h"

namespace kmem {

namespace {

constexpr int kCurrentVersion = static_cast<int>(kMigrations.size());

Result<int> schema_version(sqlite::Connection& db) {
  auto query = db.prepare("PRAGMA user_version");
  if (!query) return query.error();
  auto row = query->step();
  if (!row) return row.error();
  return query->integer(0);
}

Error newer_schema(const std::string& path, int version) {
  return Error(fmt::format("{}: schema version {} is newer than this kmem understands ({})", path, version,
                           kCurrentVersion));
}

// Runs the next migration, if the schema needs one, inside the caller's
// transaction: true when one ran, false when the schema is current.
Result<bool> next_migration(sqlite::Connection& db) {
  auto version = schema_version(db);
  if (!version) return version.error();
  if (*version > kCurrentVersion) return newer_schema(db.path(), *version);
  if (*version == kCurrentVersion) return false;
  Status s = db.exec(kMigrations[*version]);
  if (s) s = db.exec(fmt::format("PRAGMA user_version = {}", *version + 1));
  if (!s) return s.error().wrap(fmt::format("migration {}", *version + 1));
  return true;
}

// Brings the schema to the current version, one migration per transaction.
// The version is read inside the transaction, so processes opening a fresh
// database at once take turns instead of racing.
Status migrate(sqlite::Connection& db) {
  while (true) {
    if (Status s = db.exec("BEGIN IMMEDIATE"); !s) return s;
    auto ran = next_migration(db);
    if (!ran) {
      (void)db.exec("ROLLBACK");
      return ran.error();
    }
    if (Status s = db.exec("COMMIT"); !s) return s;
    if (!*ran) return Status::success();
  }
}

Status insert_problem(sqlite::Statement& insert, const Problem& p) {
  return insert.bind(1, p.id).bind(2, p.level).bind(3, p.number).bind(4, p.name).bind(5, p.category).run();
}

constexpr const char* kUpsertProblem =
    "INSERT INTO problems(id, level, number, name, category) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT(id) DO UPDATE SET level = excluded.level, number = excluded.number, "
    "name = excluded.name, category = excluded.category";

Status write_items(sqlite::Connection& db, const std::vector<Item>& items) {
  auto insert = db.prepare(
      "INSERT INTO items(position, id, kind, category, item_order, source, speedup, text, text_no_numbers, code, "
      "state, origin, reader, evaluator, gpu, verified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto label = db.prepare("INSERT INTO item_labels(item_id, position, label) VALUES (?, ?, ?)");
  auto history = db.prepare(
      "INSERT INTO item_history(item_id, position, at, action, reason, from_state, to_state, speedup_before, "
      "speedup_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!insert) return insert.error();
  if (!label) return label.error();
  if (!history) return history.error();
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    bool provenance = item.kind == ItemKind::kRecipe || item.kind == ItemKind::kKernel;
    insert->bind(1, static_cast<int>(i)).bind(2, item.id).bind(3, std::string(item_kind_name(item.kind)));
    if (item.kind == ItemKind::kLesson) insert->bind_null(4); else insert->bind(4, item.category);
    if (item.order) insert->bind(5, *item.order); else insert->bind_null(5);
    if (provenance) insert->bind(6, item.source).bind(7, item.speedup); else insert->bind_null(6).bind_null(7);
    if (item.kind == ItemKind::kKernel) insert->bind_null(8).bind(10, item.code); else insert->bind(8, item.text).bind_null(10);
    if (item.text_no_numbers) insert->bind(9, *item.text_no_numbers); else insert->bind_null(9);
    const Provenance& p = item.provenance;
    insert->bind(11, std::string(item_state_name(item.state))).bind(12, p.origin).bind(13, p.reader);
    insert->bind(14, p.evaluator).bind(15, p.gpu).bind(16, p.date);
    if (Status s = insert->run(); !s) return s.error().wrap("item " + item.id);
    for (size_t l = 0; l < item.labels.size(); ++l)
      if (Status s = label->bind(1, item.id).bind(2, static_cast<int>(l)).bind(3, item.labels[l]).run(); !s)
        return s;
    for (size_t h = 0; h < item.history.size(); ++h) {
      const HistoryEntry& e = item.history[h];
      history->bind(1, item.id).bind(2, static_cast<int>(h)).bind(3, e.date).bind(4, e.action).bind(5, e.reason);
      history->bind(6, std::string(item_state_name(e.from))).bind(7, std::string(item_state_name(e.to)));
      if (e.speedup_before) history->bind(8, *e.speedup_before); else history->bind_null(8);
      if (e.speedup_after) history->bind(9, *e.speedup_after); else history->bind_null(9);
      if (Status s = history->run(); !s) return s.error().wrap("history of item " + item.id);
    }
  }
  return Status::success();
}

Status write_memory(sqlite::Connection& db, const Memory& memory) {
  for (const char* table : {"item_history", "item_labels", "items", "baseline_provenance", "targets", "problem_baselines", "group_baselines", "problems",
                            "readers", "store"})
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

Status read_problems(sqlite::Connection& db, std::map<std::string, Problem>& problems) {
  return for_each_row(db, "SELECT id, level, number, name, category FROM problems", [&](sqlite::Statement& q) {
    problems.emplace(q.text(0), Problem{q.text(0), q.integer(1), q.integer(2), q.text(3), q.text(4)});
  });
}

Result<Memory> read_memory(sqlite::Connection& db) {
  Memory memory;
  bool found = false, has_targets = false;
  Status s = for_each_row(db, "SELECT author, score_cap, has_targets FROM store", [&](sqlite::Statement& q) {
    found = true;
    memory.author = q.text(0);
    memory.score_cap = q.real(1);
    has_targets = q.integer(2) != 0;
  });
  if (!s) return s.error();
  if (!found) return Error(db.path() + ": the database holds no memory yet (run kmem import first)");
  s = for_each_row(db, "SELECT id, display, has_baseline FROM readers", [&](sqlite::Statement& q) {
    memory.readers.emplace(q.text(0), Reader{q.text(0), q.text(1)});
    if (q.integer(2) != 0) memory.baselines[q.text(0)];  // kept even when it holds no value
  });
  if (s) s = read_problems(db, memory.problems);
  if (s && has_targets) {
    memory.targets.emplace();
    s = for_each_row(db, "SELECT problem_id FROM targets ORDER BY position",
                     [&](sqlite::Statement& q) { memory.targets->push_back(q.text(0)); });
  }
  std::map<std::string, size_t> index;
  if (s) s = for_each_row(db,
                 "SELECT id, kind, category, item_order, source, speedup, text, text_no_numbers, code, "
                 "state, origin, reader, evaluator, gpu, verified_at FROM items ORDER BY position",
                 [&](sqlite::Statement& q) {
                   Item item;
                   item.id = q.text(0);
                   item.kind = item_kind_from_name(q.text(1)).value_or(ItemKind::kLesson);
                   item.category = q.text(2);
                   if (!q.is_null(3)) item.order = q.integer(3);
                   item.source = q.text(4);
                   item.speedup = q.is_null(5) ? 0.0 : q.real(5);
                   item.text = q.text(6);
                   if (!q.is_null(7)) item.text_no_numbers = q.text(7);
                   item.code = q.text(8);
                   item.state = item_state_from_name(q.text(9)).value_or(ItemState::kActive);
                   item.provenance = Provenance{q.text(10), q.text(11), q.text(12), q.text(13), q.text(14)};
                   index[item.id] = memory.items.size();
                   memory.items.push_back(std::move(item));
                 });
  if (s) s = for_each_row(db, "SELECT item_id, label FROM item_labels ORDER BY item_id, position",
                          [&](sqlite::Statement& q) { memory.items[index.at(q.text(0))].labels.push_back(q.text(1)); });
  if (s) s = for_each_row(db,
                 "SELECT item_id, at, action, reason, from_state, to_state, speedup_before, speedup_after "
                 "FROM item_history ORDER BY item_id, position",
                 [&](sqlite::Statement& q) {
                   HistoryEntry h;
                   h.date = q.text(1);
                   h.action = q.text(2);
                   h.reason = q.text(3);
                   h.from = item_state_from_name(q.text(4)).value_or(ItemState::kActive);
                   h.to = item_state_from_name(q.text(5)).value_or(ItemState::kActive);
                   if (!q.is_null(6)) h.speedup_before = q.real(6);
                   if (!q.is_null(7)) h.speedup_after = q.real(7);
                   memory.items[index.at(q.text(0))].history.push_back(std::move(h));
                 });
  if (s) s = for_each_row(db,
                 "SELECT reader_id, problem_id, origin, reader, evaluator, gpu, verified_at FROM baseline_provenance",
                 [&](sqlite::Statement& q) {
                   memory.baselines[q.text(0)].provenance[q.text(1)] =
                       Provenance{q.text(2), q.text(3), q.text(4), q.text(5), q.text(6)};
                 });
  if (s) s = for_each_row(db, "SELECT reader_id, problem_id, score FROM problem_baselines", [&](sqlite::Statement& q) {
    memory.baselines[q.text(0)].problems[q.text(1)] = q.real(2);
  });
  if (s) s = for_each_row(db, "SELECT reader_id, group_key, score FROM group_baselines", [&](sqlite::Statement& q) {
    memory.baselines[q.text(0)].groups[q.text(1)] = q.real(2);
  });
  if (!s) return s.error();
  return memory;
}

}  // namespace

Database::Database(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Result<Database> Database::open(const std::string& path) {
  auto connection = sqlite::Connection::open(path, sqlite::Connection::Mode::kReadWrite);
  if (!connection) return connection.error();
  if (Status s = connection->use_wal(); !s) return s.error();
  if (Status s = connection->exec("PRAGMA foreign_keys = ON"); !s) return s.error();
  if (Status s = migrate(*connection); !s) return s.error();
  return Database(std::make_unique<Impl>(Impl{std::move(*connection)}));
}

Result<Database> Database::open_existing(const std::string& path) {
  auto connection = sqlite::Connection::open(path, sqlite::Connection::Mode::kReadOnly);
  if (!connection) return connection.error();
  auto version = schema_version(*connection);
  if (!version) return version.error();
  if (*version == 0) return Error(path + ": not a kmem database");
  if (*version > kCurrentVersion) return newer_schema(path, *version);
  if (*version < kCurrentVersion) {  // migrated in memory; the file stays as it is
    auto copy = connection->copy_in_memory();
    if (!copy) return copy.error();
    if (Status s = migrate(*copy); !s) return s.error();
    connection = std::move(copy);
  }
  // The in-memory copy too must refuse writes, which would be lost.
  if (Status s = connection->exec("PRAGMA query_only = ON"); !s) return s.error();
  return Database(std::make_unique<Impl>(Impl{std::move(*connection)}));
}

Status Database::replace(const Memory& memory) {
  // A Memory built in code passes the same checks as a store file.
  if (auto valid = parse_memory_json(memory_to_json(memory), path()); !valid) return valid.error();
  return in_transaction(impl_->connection, [&] { return write_memory(impl_->connection, memory); });
}

Result<Memory> Database::read() const { return read_memory(impl_->connection); }

Status Database::update(const std::function<Result<Memory>(const Memory&)>& change) {
  return in_transaction(impl_->connection, [&]() -> Status {
    auto before = read_memory(impl_->connection);
    if (!before) return before.error();
    auto after = change(*before);
    if (!after) return after.error();
    if (auto valid = parse_memory_json(memory_to_json(*after), path()); !valid) return valid.error();
    return write_memory(impl_->connection, *after);
  });
}

Result<std::map<std::string, Problem>> Database::problems() const {
  std::map<std::string, Problem> problems;
  if (Status s = read_problems(impl_->connection, problems); !s) return s.error();
  return problems;
}

Status Database::upsert_problems(const std::vector<Problem>& problems) {
  return in_transaction(impl_->connection, [&]() -> Status {
    auto upsert = impl_->connection.prepare(kUpsertProblem);
    if (!upsert) return upsert.error();
    for (const Problem& p : problems)
      if (Status s = insert_problem(*upsert, p); !s) return s.error().wrap("problem " + p.id);
    return Status::success();
  });
}

const std::string& Database::path() const { return impl_->connection.path(); }

}  // namespace kmem
