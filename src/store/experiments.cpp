// The experiment tables of the kmem database (migration 3): experiments,
// their episodes, each episode's turns and the evaluations of its candidates.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "kmem/episode.h"
#include "kmem/store.h"
#include "store/database_impl.h"
#include "store/row_reader.h"

namespace kmem {

namespace {

std::string utc_now() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

Error unknown_experiment(const std::string& path, const std::string& id) {
  return Error(fmt::format("{}: no experiment '{}'", path, id));
}

std::string prompt_json(const std::vector<ChatMessage>& messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : messages) out.push_back({{"role", m.role}, {"content", m.content}});
  return out.dump();
}

Status write_turn(store::sql::Statement& insert, long long episode, const Turn& t) {
  insert.bind(1, static_cast<int>(episode)).bind(2, t.index).bind(3, t.action).bind(4, t.verdict).bind(5, t.stage);
  insert.bind(6, t.message).bind(7, t.reply).bind(8, t.feedback).bind(9, t.exchange.request);
  insert.bind(10, t.exchange.response).bind(11, t.exchange.http_status).bind(12, t.exchange.attempts);
  insert.bind(13, t.latency_s).bind(14, static_cast<int>(t.prompt_tokens));
  insert.bind(15, static_cast<int>(t.completion_tokens)).bind(16, t.error);
  if (Status s = insert.run(); !s) return s.error().wrap(fmt::format("turn {}", t.index));
  return Status::success();
}

Status write_evaluation(store::sql::Statement& insert, long long episode, const Turn& t) {
  insert.bind(1, static_cast<int>(episode)).bind(2, t.index).bind(3, t.candidate).bind(4, t.verdict);
  insert.bind(5, t.message).bind(6, t.detail).bind(7, t.log_tail);
  if (t.reference_ms) insert.bind(8, *t.reference_ms);
  else insert.bind_null(8);
  if (t.candidate_ms) insert.bind(9, *t.candidate_ms);
  else insert.bind_null(9);
  insert.bind(10, t.speedup).bind(11, t.score).bind(12, t.max_abs_error).bind(13, t.max_rel_error);
  insert.bind(14, nlohmann::json(t.flags).dump()).bind(15, t.eval_s);
  if (t.compile_ms) insert.bind(16, *t.compile_ms);
  else insert.bind_null(16);
  if (Status s = insert.run(); !s) return s.error().wrap(fmt::format("evaluation of turn {}", t.index));
  return Status::success();
}

// Inserts the episode row; sets `stored` false (and writes nothing more)
// when the key is already there.
Status write_episode(store::sql::Connection& db, const std::string& experiment, const EpisodeKey& key,
                     const Problem& problem, const EpisodeOutcome& o, bool& stored) {
  auto insert = db.prepare(
      "INSERT INTO episodes(experiment_id, reader, policy, problem_id, sample, category, level, model, device, "
      "max_turns, end_reason, submitted, correct, score, speedup, best_turn, best_speedup, best_candidate, "
      "memory_text, shown_item_ids, prompt, error, wall_s, prompt_tokens, completion_tokens, finished_at) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
      "ON CONFLICT(experiment_id, reader, policy, problem_id, sample) DO NOTHING RETURNING id");
  if (!insert) return insert.error();
  insert->bind(1, experiment).bind(2, key.reader).bind(3, key.policy).bind(4, key.problem).bind(5, key.sample);
  insert->bind(6, problem.category).bind(7, problem.level).bind(8, o.model).bind(9, o.device).bind(10, o.max_turns);
  insert->bind(11, o.end).bind(12, o.submitted ? 1 : 0).bind(13, o.correct ? 1 : 0).bind(14, o.score);
  insert->bind(15, o.speedup);
  if (o.best_turn) insert->bind(16, *o.best_turn);
  else insert->bind_null(16);
  insert->bind(17, o.best_speedup).bind(18, o.best_candidate).bind(19, o.memory_text);
  insert->bind(20, nlohmann::json(o.shown_item_ids).dump()).bind(21, prompt_json(o.prompt)).bind(22, o.error);
  insert->bind(23, o.wall_s)
      .bind(24, static_cast<int>(o.prompt_tokens))
      .bind(25, static_cast<int>(o.completion_tokens));
  insert->bind(26, utc_now());
  auto inserted = insert->step();  // the new row's id; no row when the key was there
  if (!inserted) return inserted.error();
  stored = *inserted;
  if (!stored) return Status::success();
  long long episode = insert->integer64(0);
  auto turn = db.prepare(
      "INSERT INTO turns(episode_id, turn, action, verdict, stage, message, reply, feedback, request, response, "
      "http_status, attempts, latency_s, prompt_tokens, completion_tokens, error) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto evaluation = db.prepare(
      "INSERT INTO evaluations(episode_id, turn, candidate, verdict, message, detail, log_tail, reference_ms, "
      "candidate_ms, speedup, score, max_abs_error, max_rel_error, flags, eval_s, compile_ms) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!turn) return turn.error();
  if (!evaluation) return evaluation.error();
  for (const Turn& t : o.turns) {
    if (Status s = write_turn(*turn, episode, t); !s) return s;
    if (!t.candidate.empty())
      if (Status s = write_evaluation(*evaluation, episode, t); !s) return s;
  }
  return Status::success();
}

}  // namespace

Status Database::begin_experiment(const std::string& id, const std::string& spec_json) {
  auto& db = *impl_->connection;
  return store::in_transaction(db, [&]() -> Status {
    auto existing = experiment_spec(id);
    if (existing) {
      if (*existing == spec_json) return Status::success();
      return Error(fmt::format(
          "{}: experiment '{}' already exists with a different spec (give the new one another name)", db.path(), id));
    }
    auto insert = db.prepare("INSERT INTO experiments(id, spec, created_at) VALUES (?, ?, ?)");
    if (!insert) return insert.error();
    return insert->bind(1, id).bind(2, spec_json).bind(3, utc_now()).run();
  });
}

Result<std::string> Database::experiment_spec(const std::string& id) const {
  auto query = impl_->connection->prepare("SELECT spec FROM experiments WHERE id = ?");
  if (!query) return query.error();
  query->bind(1, id);
  auto row = query->step();
  if (!row) return row.error();
  if (!*row) return unknown_experiment(path(), id);
  return query->text(0);
}

Result<std::set<EpisodeKey>> Database::recorded_episodes(const std::string& experiment) const {
  auto query =
      impl_->connection->prepare("SELECT reader, policy, problem_id, sample FROM episodes WHERE experiment_id = ?");
  if (!query) return query.error();
  query->bind(1, experiment);
  std::set<EpisodeKey> keys;
  Status s = query->each_row([&](store::sql::Statement& q) {
    keys.insert(EpisodeKey{q.text(0), q.text(1), q.text(2), q.integer(3)});
  });
  if (!s) return s.error();
  return keys;
}

Result<bool> Database::record_episode(const std::string& experiment, const EpisodeKey& key, const Problem& problem,
                                      const EpisodeOutcome& outcome) {
  bool stored = false;
  Status s = store::in_transaction(
      *impl_->connection, [&] { return write_episode(*impl_->connection, experiment, key, problem, outcome, stored); });
  if (!s) return s.error().wrap(fmt::format("episode {}/{}/{}/{}", key.reader, key.policy, key.problem, key.sample));
  return stored;
}

Result<std::vector<StoredEpisode>> Database::experiment_episodes(const std::string& experiment) const {
  if (auto spec = experiment_spec(experiment); !spec) return spec.error();
  std::vector<StoredEpisode> out;
  auto query = impl_->connection->prepare(
      "SELECT e.id, e.reader, e.policy, e.problem_id, e.sample, e.category, e.level, e.end_reason, "
      "e.submitted, e.correct, e.score, e.speedup, e.wall_s, e.error, "
      "(SELECT COUNT(*) FROM turns t WHERE t.episode_id = e.id), "
      "(SELECT COALESCE(SUM(t.latency_s), 0) FROM turns t WHERE t.episode_id = e.id), "
      "(SELECT COALESCE(SUM(v.eval_s), 0) FROM evaluations v WHERE v.episode_id = e.id), "
      // The SUBMIT (the last turn) against the compile baseline, when it passed and had one.
      "(SELECT v.compile_ms / v.candidate_ms FROM evaluations v WHERE v.episode_id = e.id AND v.verdict = 'pass' "
      "AND v.candidate_ms > 0 AND v.turn = (SELECT MAX(t.turn) FROM turns t WHERE t.episode_id = e.id)) "
      "FROM episodes e WHERE e.experiment_id = ? ORDER BY e.reader, e.policy, e.problem_id, e.sample");
  if (!query) return query.error();
  query->bind(1, experiment);
  Status walked = query->each_row([&](store::sql::Statement& q) -> Status {
    // Checked as every read of the database is (row_reader.h): a damaged
    // row is an error naming it, not a report that throws on its text.
    store::RowReader r(q, fmt::format("{}: episodes row {}", path(), q.integer64(0)));
    StoredEpisode e;
    e.key = EpisodeKey{r.text(1, "reader"), r.text(2, "policy"), r.text(3, "problem_id"), r.integer(4, "sample")};
    e.category = r.text(5, "category");
    e.level = r.integer(6, "level");
    e.end = r.text(7, "end_reason");
    e.submitted = r.flag(8, "submitted");
    e.correct = r.flag(9, "correct");
    e.score = r.real(10, "score");
    e.speedup = r.real(11, "speedup");
    e.wall_s = r.real(12, "wall_s");
    e.error = r.text(13, "error");
    e.turns = r.integer(14, "turns");
    e.model_s = r.real(15, "latency_s");
    e.eval_s = r.real(16, "eval_s");
    if (e.correct) e.speedup_vs_compile = r.optional_real(17, "speedup_vs_compile");
    if (Status s = r.status(); !s) return s;
    out.push_back(std::move(e));
    return Status::success();
  });
  if (!walked) return walked.error();
  return out;
}

Result<std::vector<std::string>> Database::experiments() const {
  std::vector<std::string> ids;
  Status s = store::for_each_row(*impl_->connection, "SELECT id FROM experiments ORDER BY id",
                                 [&](store::sql::Statement& q) { ids.push_back(q.text(0)); });
  if (!s) return s.error();
  return ids;
}

Result<std::vector<LearnedEpisode>> Database::learning_episodes(const std::string& experiment) const {
  auto episodes = experiment_episodes(experiment);
  if (!episodes) return episodes.error();
  std::map<EpisodeKey, size_t> index;
  std::vector<LearnedEpisode> out;
  for (StoredEpisode& e : *episodes) {
    index[e.key] = out.size();
    out.push_back(LearnedEpisode{std::move(e), experiment, "", {}, {}});
  }
  auto& db = *impl_->connection;
  auto key_of = [](store::sql::Statement& q) { return EpisodeKey{q.text(0), q.text(1), q.text(2), q.integer(3)}; };
  auto shown = db.prepare(
      "SELECT reader, policy, problem_id, sample, device, shown_item_ids FROM episodes WHERE experiment_id = ?");
  if (!shown) return shown.error();
  shown->bind(1, experiment);
  Status walked = shown->each_row([&](store::sql::Statement& q) -> Status {
    LearnedEpisode& e = out[index.at(key_of(q))];
    e.device = q.text(4);
    auto ids = nlohmann::json::parse(q.text(5), nullptr, false);
    if (!ids.is_array())
      return Error(fmt::format("{}: episode {}: shown_item_ids is not a list", path(), e.episode.key.problem));
    for (const auto& id : ids)
      if (id.is_string()) e.shown_item_ids.push_back(id.get<std::string>());
    return Status::success();
  });
  if (!walked) return walked.error();
  auto turns = db.prepare(
      "SELECT e.reader, e.policy, e.problem_id, e.sample, t.turn, t.action, t.verdict, t.stage, t.message, "
      "COALESCE(v.detail, ''), COALESCE(v.candidate, ''), COALESCE(v.speedup, 0), COALESCE(v.flags, '[]') "
      "FROM turns t JOIN episodes e ON e.id = t.episode_id "
      "LEFT JOIN evaluations v ON v.episode_id = t.episode_id AND v.turn = t.turn "
      "WHERE e.experiment_id = ? ORDER BY e.id, t.turn");
  if (!turns) return turns.error();
  turns->bind(1, experiment);
  walked = turns->each_row([&](store::sql::Statement& q) {
    StoredTurn t;
    t.index = q.integer(4);
    t.action = q.text(5);
    t.verdict = q.text(6);
    t.stage = q.text(7);
    t.message = q.text(8);
    t.detail = q.text(9);
    t.candidate = q.text(10);
    t.speedup = q.real(11);
    auto flags = nlohmann::json::parse(q.text(12), nullptr, false);
    if (flags.is_array())
      for (const auto& f : flags)
        if (f.is_string()) t.flags.push_back(f.get<std::string>());
    out[index.at(key_of(q))].turns.push_back(std::move(t));
  });
  if (!walked) return walked.error();
  return out;
}

Result<std::vector<EpisodeView>> Database::episode_views(const std::string& experiment) const {
  if (auto spec = experiment_spec(experiment); !spec) return spec.error();
  std::vector<EpisodeView> out;
  auto query = impl_->connection->prepare(
      "SELECT e.id, e.reader, e.policy, e.problem_id, e.sample, e.end_reason, e.score, t.turn, t.action, t.verdict, "
      "t.reply, t.feedback FROM episodes e LEFT JOIN turns t ON t.episode_id = e.id WHERE e.experiment_id = ? "
      "ORDER BY e.reader, e.policy, e.problem_id, e.sample, t.turn");
  if (!query) return query.error();
  query->bind(1, experiment);
  long long last = -1;
  Status walked = query->each_row([&](store::sql::Statement& q) {
    store::RowReader r(q, fmt::format("{}: episodes row {}", path(), q.integer64(0)));
    if (q.integer64(0) != last) {
      last = q.integer64(0);
      EpisodeView e;
      e.key = EpisodeKey{r.text(1, "reader"), r.text(2, "policy"), r.text(3, "problem_id"), r.integer(4, "sample")};
      e.end = r.text(5, "end_reason");
      e.score = r.real(6, "score");
      out.push_back(std::move(e));
    }
    if (auto turn = r.optional_integer(7, "turn")) {
      TurnView t;
      t.index = *turn;
      t.action = r.text(8, "action");
      t.verdict = r.text(9, "verdict");
      t.reply = r.text(10, "reply");
      t.feedback = r.text(11, "feedback");
      out.back().turns.push_back(std::move(t));
    }
    return r.status();
  });
  if (!walked) return walked.error();
  return out;
}

}  // namespace kmem
