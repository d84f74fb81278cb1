// The server's handlers (docs/serve.md): each reads its request, checks it,
// and answers JSON; errors are Refusals (status and one line). They share
// the Api: the configuration, the memory snapshot, the job service, the
// category rules and a pool of checkers.
#pragma once

#include <httplib.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kmem/catalog.h"
#include "kmem/check.h"
#include "kmem/serve.h"
#include "serve/http.h"
#include "serve/snapshot.h"
#include "serve/tokens.h"

namespace kmem::serve {

// A matched route: its path parameters, in order.
struct Call {
  const httplib::Request& req;
  httplib::Response& res;
  std::vector<std::string> params;
};

class Api {
 public:
  Api(const ServeConfig& config, SnapshotHolder& snapshots, JobService& jobs, CategoryRules rules)
      : config_(config),
        snapshots_(snapshots),
        jobs_(jobs),
        rules_(std::move(rules)),
        max_waiters_(std::max(1, config.threads / 2)) {}

  // api_memory.cpp
  void health(Call& call);
  void render(Call& call);
  void check(Call& call);
  void list_items(Call& call);
  void show_item(Call& call);
  void promote_item(Call& call);
  void retire_item(Call& call);
  void readers(Call& call);
  // api_jobs.cpp
  void submit_evaluation(Call& call);
  void evaluation_status(Call& call);
  void submit_episode(Call& call);
  void episode_status(Call& call);
  // api_experiments.cpp
  void experiments(Call& call);
  void experiment_status(Call& call);
  void experiment_report(Call& call);

 private:
  void change_item_state(Call& call, ItemState state);
  void job_status(Call& call, const char* kind);
  // A problem file: an id looked up in --kernelbench, or a path relative to it.
  Result<std::string> problem_file(const std::string& id_or_path) const;
  // A problem for render: the memory's, else one read from --kernelbench.
  Result<Problem> render_problem(const Snapshot& snapshot, const std::string& id_or_path) const;

  std::unique_ptr<Checker> take_checker();
  void give_back(std::unique_ptr<Checker> checker);

  const ServeConfig& config_;
  SnapshotHolder& snapshots_;
  JobService& jobs_;
  const CategoryRules rules_;
  std::mutex checkers_mutex_;
  std::vector<std::unique_ptr<Checker>> checkers_;
  std::mutex writes_mutex_;  // one change of the store at a time from this server
  const int max_waiters_;
  std::atomic<int> waiters_{0};
};

}  // namespace kmem::serve
