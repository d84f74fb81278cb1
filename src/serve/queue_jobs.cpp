// The JobService of a server whose evaluations go to the job queue of a
// database (docs/scale-out.md): `kmem worker`s drain it on any number of
// machines, one per GPU, and the outcome comes back through the queue.
// Episodes hold a chat session and the server's memory, so they still run
// in this process (the local service beside it).
#include <fmt/format.h>

#include <mutex>
#include <thread>

#include "kmem/queue.h"
#include "kmem/serve.h"
#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem {
namespace {

constexpr char kQueuePrefix[] = "queue-";

// The id the server gives a queued job: the queue's row id, prefixed so it
// cannot be taken for a local job's.
std::string job_id(std::int64_t row) { return fmt::format("{}{}", kQueuePrefix, row); }

std::optional<std::int64_t> row_of(const std::string& id) {
  if (!id.starts_with(kQueuePrefix)) return std::nullopt;
  std::string digits = id.substr(sizeof kQueuePrefix - 1);
  if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(digits);
}

JobStatus status_of(const QueuedJob& job) {
  JobStatus s;
  s.id = job_id(job.id);
  s.kind = "evaluation";
  switch (job.state) {
    case JobState::kQueued: s.state = "queued"; break;
    case JobState::kClaimed: s.state = "running"; break;
    case JobState::kDone:
      s.state = "done";
      s.result_json = job.outcome;
      break;
    case JobState::kFailed:
      s.state = "failed";
      s.error = job.error;
      break;
  }
  return s;
}

// The server's evaluation payload ({id, problem (a file), candidate,
// candidate_kind}) as the queue's: the problem's source travels with it, so
// a worker on another machine needs no copy of the server's files.
Result<std::string> queue_payload(const std::string& payload_json, const EvalOptions& options) {
  auto payload = util::parse_strict_json(payload_json, "evaluation payload");
  if (!payload) return payload.error();
  util::JsonFields f(*payload, "evaluation payload");
  EvalRequest request;
  for (auto [key, field] : {std::pair{"id", &request.id}, std::pair{"problem", &request.problem_name},
                            std::pair{"candidate", &request.candidate_source}}) {
    auto value = f.string(key);
    if (!value) return value.error();
    *field = *value;
  }
  auto kind = f.string("candidate_kind");
  if (!kind) return kind.error();
  // The worker names the file it writes after this: a reply is taken out of
  // its text first, like `kmem eval` does with a file not ending in .py.
  request.candidate_name = *kind == "reply" ? "reply.md" : "candidate.py";
  auto source = util::read_file(request.problem_name);
  if (!source) return source.error();
  request.problem_source = std::move(*source);
  return eval_payload_json(request, options);
}

class QueueJobService final : public JobService {
 public:
  QueueJobService(std::unique_ptr<JobQueue> queue, EvalOptions options, std::unique_ptr<JobService> local)
      : queue_(std::move(queue)), options_(std::move(options)), local_(std::move(local)) {}

  Result<std::string> submit(const JobRequest& request) override {
    if (request.kind != "evaluation") return local_->submit(request);
    auto payload = queue_payload(request.payload_json, options_);
    if (!payload) return payload.error();
    std::lock_guard lock(mutex_);
    auto ids = queue_->enqueue(JobKind::kEval, {*payload}, "serve");
    if (!ids) return ids.error();
    return job_id(ids->front());
  }

  std::optional<JobStatus> status(const std::string& id) override {
    auto row = row_of(id);
    if (!row) return local_->status(id);
    std::lock_guard lock(mutex_);
    auto jobs = queue_->jobs({*row});
    if (!jobs || jobs->empty()) return std::nullopt;
    return status_of(jobs->front());
  }

  std::optional<JobStatus> wait(const std::string& id, std::chrono::milliseconds timeout) override {
    auto row = row_of(id);
    if (!row) return local_->wait(id, timeout);
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      auto now = status(id);
      if (!now || now->finished() || std::chrono::steady_clock::now() >= deadline) return now;
      std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
          std::chrono::milliseconds(200), deadline - std::chrono::steady_clock::now()));
    }
  }

 private:
  std::mutex mutex_;  // one database connection, asked from the server's threads
  std::unique_ptr<JobQueue> queue_;
  EvalOptions options_;
  std::unique_ptr<JobService> local_;
};

}  // namespace

Result<std::unique_ptr<JobService>> make_queue_job_service(const std::string& queue_db, const ServeConfig& config) {
  auto queue = JobQueue::open(queue_db);
  if (!queue) return queue.error().wrap("--queue " + queue_db);
  auto local = make_local_job_service(make_job_executor(config), std::max(1, config.eval.parallel));
  return std::unique_ptr<JobService>(
      std::make_unique<QueueJobService>(std::move(*queue), config.eval, std::move(local)));
}

}  // namespace kmem
