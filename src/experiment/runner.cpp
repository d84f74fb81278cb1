// Runs an experiment's episodes: spec.concurrency worker threads take keys
// from the job source, run the episode and store it, one transaction each.
#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <mutex>
#include <thread>

#include "kmem/experiment.h"

namespace kmem {

namespace {

// Letters, digits, '.', '_' and '-' of `text`; anything else becomes '_'.
std::string file_safe(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return out;
}

class Run {
 public:
  Run(const ExperimentSpec& spec, const std::vector<ExperimentProblem>& problems, JobSource& source, Database& db,
      const ExperimentContext& context)
      : spec_(spec), source_(source), db_(db), context_(context), start_(std::chrono::steady_clock::now()) {
    for (const auto& p : problems) problems_.emplace(p.problem.id, &p);
    for (const auto& r : spec.readers) readers_.emplace(r.id, &r);
    progress_.total = source.total();
  }

  Result<ExperimentProgress> run() {
    int threads = static_cast<int>(std::min<size_t>(spec_.concurrency, std::max<size_t>(progress_.total, 1)));
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) workers.emplace_back([this] { work(); });
    for (auto& w : workers) w.join();
    if (error_) return *error_;
    return progress_;
  }

 private:
  bool stopping() const {
    std::lock_guard lock(mutex_);
    return error_.has_value() || (context_.stop != nullptr && context_.stop->load());
  }

  void fail(const Error& error) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = error;
  }

  void work() {
    while (!stopping()) {
      auto key = source_.next();
      if (!key) return;
      if (Status s = run_one(*key); !s) fail(s.error());
    }
  }

  Status run_one(const EpisodeKey& key) {
    auto problem = problems_.find(key.problem);
    auto reader = readers_.find(key.reader);
    auto chat = context_.chat.find(key.reader);
    std::string name = fmt::format("{}/{}/{}/{}/{}", spec_.name, key.reader, key.policy, key.problem, key.sample);
    if (problem == problems_.end() || reader == readers_.end() || chat == context_.chat.end())
      return Error(fmt::format("episode {}: not in this experiment's matrix", name));
    EpisodeSpec episode;
    episode.problem = problem->second->problem;
    episode.problem_path = problem->second->path;
    episode.reader = key.reader;
    episode.policy = key.policy;
    episode.max_turns = spec_.max_turns;
    episode.device = spec_.device;
    episode.model = reader->second->endpoint.model;
    episode.id = file_safe(fmt::format("{}-{}-{}-{}-s{}", spec_.name, key.problem, key.reader, key.policy, key.sample));
    EpisodeContext context{context_.memory, context_.pack, chat->second, context_.evaluator, context_.work_dir};
    auto outcome = run_episode(episode, context);
    if (!outcome) return outcome.error().wrap("episode " + name);
    std::unique_lock<std::mutex> writes;
    if (context_.writes != nullptr) writes = std::unique_lock(*context_.writes);
    std::lock_guard lock(mutex_);  // one connection: its transactions one at a time
    auto stored = db_.record_episode(spec_.name, key, episode.problem, *outcome);
    if (!stored) return stored.error();
    ++progress_.done;
    if (outcome->correct) ++progress_.correct;
    if (outcome->end == "endpoint_error" || outcome->end == "evaluator_error") ++progress_.errors;
    progress_.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    progress_.eta_s = progress_.elapsed_s / static_cast<double>(progress_.done) *
                      static_cast<double>(progress_.total - progress_.done);
    if (context_.on_progress) context_.on_progress(progress_);
    return Status::success();
  }

  const ExperimentSpec& spec_;
  JobSource& source_;
  Database& db_;
  const ExperimentContext& context_;
  const std::chrono::steady_clock::time_point start_;
  std::map<std::string, const ExperimentProblem*> problems_;
  std::map<std::string, const ReaderSpec*> readers_;
  mutable std::mutex mutex_;
  ExperimentProgress progress_;
  std::optional<Error> error_;
};

}  // namespace

Result<ExperimentProgress> run_experiment(const ExperimentSpec& spec, const std::vector<ExperimentProblem>& problems,
                                          JobSource& source, Database& db, const ExperimentContext& context) {
  return Run(spec, problems, source, db, context).run();
}

}  // namespace kmem
