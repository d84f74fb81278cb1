// The real WorkerLauncher: workers forked by a zygote per role, paused by signals.
#include <fmt/format.h>
#include <signal.h>

#include <map>
#include <mutex>

#include "native_harness.h"
#include "worker_launcher.h"
#include "zygote.h"

namespace kmem::eval {
namespace {

class ZygoteLauncher : public WorkerLauncher {
 public:
  ZygoteLauncher(const EvalOptions& options, std::string run_dir, std::vector<int> cpus)
      : options_(options), run_dir_(std::move(run_dir)), cpus_(std::move(cpus)) {}

  Status expect(const std::string& role) override {
    auto started = zygote(role);
    if (!started) return started.error();
    return Status::success();
  }

  Result<std::unique_ptr<LineProcess>> start(const std::string& role, const std::string& log_path,
                                             const std::vector<int>& cpus, const ContextBaton& baton) override {
    auto zygote = this->zygote(role);
    if (!zygote) return zygote.error();
    auto process = (*zygote)->fork_worker(log_path, cpus, baton);
    if (!process) return process.error();
    return std::unique_ptr<LineProcess>(std::move(*process));
  }

  int signal_group(pid_t group, int signal) override { return killpg(group, signal); }

 private:
  // The zygote of `role`, started the first time (after the native harness
  // its workers load is built, once).
  Result<Zygote*> zygote(const std::string& role) {
    std::lock_guard hold(mutex_);
    if (!harness_built_) {
      auto built = build_native_harness(options_, run_dir_ + "/harness.log");
      if (!built) return built.error();
      harness_built_ = true;
    }
    auto& zygote = zygotes_[role];
    if (!zygote) {
      auto started = Zygote::start(role, options_, run_dir_, fmt::format("{}/zygote-{}.log", run_dir_, role), cpus_);
      if (!started) return started.error();
      zygote = std::move(*started);
    }
    return zygote.get();
  }

  const EvalOptions& options_;
  std::string run_dir_;
  std::vector<int> cpus_;
  std::mutex mutex_;
  bool harness_built_ = false;
  std::map<std::string, std::unique_ptr<Zygote>> zygotes_;
};

}  // namespace

std::unique_ptr<WorkerLauncher> make_zygote_launcher(const EvalOptions& options, const std::string& run_dir,
                                                     const std::vector<int>& cpus) {
  return std::make_unique<ZygoteLauncher>(options, run_dir, cpus);
}

}  // namespace kmem::eval
