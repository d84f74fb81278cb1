// Scripted in-process workers behind the WorkerLauncher seam (fake_worker.h).
#include "fake_worker.h"

#include <fmt/format.h>
#include <signal.h>

#include <deque>
#include <fstream>
#include <thread>

#include "protocol.h"

namespace kmem::eval {
namespace {

// One thing a fake does when read: write a line, take time, or exit.
struct Step {
  enum Kind { kLine, kDelay, kExit } kind = kLine;
  std::string line;
  int ms = 0;
  ExitStatus status;
  std::optional<Clock::time_point> until;  // kDelay, once reached
};

// "# fake: BEHAVIOUR" on the first line of the candidate file, else "pass".
std::string behaviour_of(const std::string& candidate) {
  std::ifstream in(candidate);
  std::string first;
  std::getline(in, first);
  const std::string marker = "# fake: ";
  return first.rfind(marker, 0) == 0 ? first.substr(marker.size()) : "pass";
}

class FakeWorker : public LineProcess {
 public:
  FakeWorker(std::string role, pid_t pid, std::shared_ptr<FakeLog> log)
      : role_(std::move(role)), pid_(pid), log_(std::move(log)) {}

  pid_t pid() const override { return pid_; }

  bool write_line(const std::string& text) override {
    if (exited_) return false;
    Json command = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    {
      std::lock_guard hold(log_->mutex);
      if (auto allowed = Protocol::compiled().check_command(role_, command); !allowed)
        log_->protocol_errors.push_back(allowed.error().message());
      log_->commands[command.value("cmd", "?")]++;
    }
    if (role_ == "reference") reference(command);
    else candidate(command);
    return true;
  }

  Read read_line(Clock::time_point deadline, std::string& line) override {
    while (!steps_.empty()) {
      Step& step = steps_.front();
      if (step.kind == Step::kExit) {
        exit(step.status);
        return Read::kClosed;
      }
      if (step.kind == Step::kLine) {
        line = step.line;
        steps_.pop_front();
        return Read::kLine;
      }
      if (!step.until) step.until = Clock::now() + std::chrono::milliseconds(step.ms);
      if (deadline < *step.until) {
        std::this_thread::sleep_until(deadline);
        return Read::kTimeout;
      }
      std::this_thread::sleep_until(*step.until);
      steps_.pop_front();
    }
    if (exited_) return Read::kClosed;
    std::this_thread::sleep_until(deadline);  // waits for a command: hung, as far as the reader knows
    return Read::kTimeout;
  }

  ExitStatus kill_and_reap() override {
    if (!exited_) exit({true, SIGKILL});
    return status_;
  }

  ExitStatus wait_then_kill(Clock::time_point) override { return kill_and_reap(); }

 private:
  void exit(ExitStatus status) {
    exited_ = true;
    status_ = status;
    steps_.clear();
  }
  void say(const Json& event) { say_line(event.dump()); }
  void say_line(std::string line) {
    Step step;
    step.line = std::move(line);
    steps_.push_back(std::move(step));
  }
  void wait_ms(int ms) {
    Step step;
    step.kind = Step::kDelay;
    step.ms = ms;
    steps_.push_back(std::move(step));
  }
  void end(ExitStatus status = {}) {
    Step step;
    step.kind = Step::kExit;
    step.status = status;
    steps_.push_back(std::move(step));
  }

  int begin_attempt(const std::string& key) {
    std::lock_guard hold(log_->mutex);
    return ++log_->attempts[key];
  }

  void reference(const Json& command) {
    const std::string name = command.value("cmd", "");
    if (name == "prepare") {
      const std::string problem = command.value("problem", "");
      int attempt = begin_attempt("prepare:" + problem);
      if (problem.find("reference_oom_once") != std::string::npos && attempt == 1) {
        say({{"event", "error"},
             {"stage", "prepare"},
             {"message", "OutOfMemoryError: fake"},
             {"traceback", ""},
             {"kind", "out_of_memory"}});
      } else if (problem.find("reference_bad_ready") != std::string::npos) {
        say({{"event", "ready"},
             {"reference_ms", "fast"},
             {"cached", false},
             {"timing_steady", true},
             {"host_probe_ms", nullptr},
             {"degenerate", false},
             {"seconds", Json::object()}});
      } else {
        owes_ready_ = true;
        compile_baseline_ = command.value("compile_baseline", false);
        device_memory_ = Json();
        if (auto at = problem.find("_mib"); at != std::string::npos && command.value("device", "") == "cuda")
          device_memory_ = {{"total", int64_t{1} << 30},
                            {"held", int64_t{1} << 20},
                            {"per_candidate", std::stol(problem.substr(at + 4)) << 20}};
        if (problem.find("reference_slow") != std::string::npos) wait_ms(500);  // loading, compiling
        say({{"event", "time_request"}});
      }
    } else if (name == "time" && owes_ready_) {
      owes_ready_ = false;
      say({{"event", "timed"}});
      Json ready{{"event", "ready"},
                 {"reference_ms", 0.4},
                 {"cached", false},
                 {"timing_steady", true},
                 {"host_probe_ms", 0.3},
                 {"degenerate", false},
                 {"seconds", {{"load", 0.001}}},
                 {"timing_tally", {{"calls", 4}, {"measured_ms", 1.6}}},
                 {"compile_ms", nullptr},
                 {"compile_pending", compile_baseline_}};
      if (!device_memory_.is_null()) ready["device_memory"] = device_memory_;
      say(ready);
    } else if (name == "baseline") {
      // Compiles, never cached here; a problem named so has no baseline.
      bool fails = command.value("problem", "").find("no_compile") != std::string::npos;
      say({{"event", "compiled"}, {"compile_ms", fails ? Json(nullptr) : Json(0.2)}, {"seconds", Json::object()}});
    } else if (name == "share") {
      {
        std::lock_guard hold(log_->mutex);
        log_->most_shared = std::max(log_->most_shared, ++log_->shared);
      }
      say({{"event", "shared"}, {"path", command.value("folder", "") + "/inputs.pt"}});
    } else if (name == "judge") {
      std::string behaviour;
      {
        std::lock_guard hold(log_->mutex);
        behaviour = log_->behaviour_of_folder[command.value("folder", "")];
      }
      bool correct = behaviour != "mismatch";
      Json verdict{{"event", "verdict"},
                   {"correct", correct},
                   {"trials", 3},
                   {"max_abs_error", correct ? 0.0 : 0.5},
                   {"max_rel_error", correct ? 0.0 : 0.25},
                   {"roofline_ms", nullptr}};
      if (!correct) {
        verdict["failure"] = "values";
        verdict["detail"] = "trial 0: values differ beyond tolerance 0.0001";
        verdict["mismatch"] = {
            {"trial", 0},       {"output", 0},
            {"shape", {4, 8}},  {"first_index", {3, 0}},
            {"bad", 8},         {"elements", 32},
            {"where", "edges"}, {"nan", 1},
            {"inf", 0},         {"samples", {{{"index", {3, 0}}, {"expected", "0.5"}, {"got", "nan"}}}}};
      }
      say(verdict);
    } else if (name == "release") {
      {
        std::lock_guard hold(log_->mutex);
        log_->shared--;
      }
      say({{"event", "released"}});
    } else if (name == "drop") {
      say({{"event", "dropped"}});
    }
  }

  Json error(const std::string& stage, const std::string& kind, const std::string& message) const {
    return {{"event", "error"},
            {"nonce", nonce_},
            {"stage", stage},
            {"message", message},
            {"traceback", "Traceback (fake)"},
            {"kind", kind}};
  }

  void candidate(const Json& command) {
    const std::string name = command.value("cmd", "");
    if (name == "run") {
      nonce_ = command.value("nonce", "");
      const std::string file = command.value("candidate", "");
      behaviour_ = behaviour_of(file);
      attempt_ = begin_attempt(behaviour_);
      const Json& timing = command["timing"];
      calls_ = timing.value("warmup", 0) + std::max(timing.value("iters", 0), timing.value("sets", 0));
      {
        std::lock_guard hold(log_->mutex);
        log_->behaviour_of_folder[command.value("workdir", "")] = behaviour_;
      }
      if (log_->on_run) log_->on_run(file);
      if (behaviour_ == "build_error") {
        say(error("build", "exception", "SyntaxError: fake"));
        end();
      } else {
        say({{"event", "built"}});
      }
    } else if (name == "inputs") {
      if (behaviour_ == "crash") {
        end({true, SIGSEGV});
      } else if (behaviour_ == "hang") {
        // says nothing more
      } else if ((behaviour_ == "oom_once" && attempt_ == 1) || (behaviour_ == "oom_twice" && attempt_ <= 2)) {
        say(error("forward", "out_of_memory", "OutOfMemoryError: fake"));
        end();
      } else if (behaviour_ == "device_fault") {
        say(error("forward", "device_fault", "RuntimeError: CUDA error: an illegal memory access (fake)"));
        end();
      } else {
        say({{"event", "time_request"}});
      }
    } else if (name == "time") {
      say({{"event", "timed"}});
      if (behaviour_ == "slow") wait_ms(200);
      Json result{{"event", "result"},
                  {"nonce", nonce_},
                  {"candidate_ms", 0.1},
                  {"outputs", "slots"},
                  {"inputs_changed", {false, false, false}},
                  {"observations",
                   {{"custom_kernel_launches", 3},
                    {"own_kernels", {"fake_kernel"}},
                    {"same_storage_across_calls", false},
                    {"host_bound", false},
                    {"timing_steady", true},
                    {"threads_after_forward", 0},
                    {"timing_tally",
                     {{"calls", calls_}, {"measured_ms", 0.1 * calls_}, {"fastest_ms", 0.1}, {"slowest_ms", 0.1}}},
                    {"forbidden_native_calls", Json::array()},
                    {"patched", Json::array()},
                    {"precision_flags", Json::array()}}},
                  {"seconds", {{"build", 0.001}}}};
      if (behaviour_ == "mistyped") result["candidate_ms"] = "fast";
      say(result);
      if (behaviour_ == "second_record") say_line(R"({"event": "built"})");
      end();
    }
  }

  std::string role_;
  pid_t pid_;
  std::shared_ptr<FakeLog> log_;
  std::deque<Step> steps_;
  bool exited_ = false;
  ExitStatus status_;
  bool owes_ready_ = false;        // reference: a `ready` once its timing lock is granted
  bool compile_baseline_ = false;  // reference: the prepare command asked for the compile baseline (pending)
  Json device_memory_;             // reference: the `ready`'s device_memory (null: none)
  std::string nonce_, behaviour_;
  int attempt_ = 0, calls_ = 0;
};

class FakeLauncher : public WorkerLauncher {
 public:
  explicit FakeLauncher(std::shared_ptr<FakeLog> log) : log_(std::move(log)) {}

  Status expect(const std::string&) override { return Status::success(); }

  Result<std::unique_ptr<LineProcess>> start(const std::string& role, const std::string&, const std::vector<int>&,
                                             const ContextBaton&) override {
    std::lock_guard hold(log_->mutex);
    log_->started[role]++;
    return std::unique_ptr<LineProcess>(new FakeWorker(role, next_pid_++, log_));
  }

  int signal_group(pid_t group, int signal) override {
    std::lock_guard hold(log_->mutex);
    log_->signals.push_back(fmt::format("{} {}", signal == SIGSTOP ? "STOP" : "CONT", group));
    return 0;
  }

 private:
  std::shared_ptr<FakeLog> log_;
  pid_t next_pid_ = 1'000'000;  // never signalled: signal_group only writes them down
};

}  // namespace

std::unique_ptr<WorkerLauncher> make_fake_launcher(std::shared_ptr<FakeLog> log) {
  return std::make_unique<FakeLauncher>(std::move(log));
}

}  // namespace kmem::eval
