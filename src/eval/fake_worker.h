// Fake workers for the scheduler's tests: a WorkerLauncher whose workers are
// scripted objects in this process, speaking the worker protocol, so that
// the batch (pool, reference hosts, timing lock, crash handling, verdicts)
// runs in milliseconds without Python or torch. Every command they receive
// is checked against the protocol (data/protocol/worker.json).
//
// A fake reference serves any problem; one whose path contains a marker
// misbehaves: "reference_oom_once" runs out of memory preparing the first
// time, one with "_mibN" on CUDA says a candidate's run needs N MiB of the
// device's 1 GiB (its `ready`'s device_memory), "reference_bad_ready" writes a `ready` whose reference_ms is a
// string, "reference_slow" takes half a second to prepare. A fake candidate
// behaves as the first line of its candidate file says, "# fake: BEHAVIOUR"
// (default pass): pass, build_error, crash, hang, slow (200 ms before its
// result), oom_once (out of memory the first time), oom_twice (the first two
// times), device_fault, second_record (a record after its result), mistyped
// (a result whose candidate_ms is a string), mismatch (the reference judges
// its outputs wrong).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "worker_launcher.h"

namespace kmem::eval {

// What the fakes of one launcher saw, shared by them and the test.
struct FakeLog {
  std::mutex mutex;
  std::vector<std::string> protocol_errors;                // commands that broke the protocol
  std::map<std::string, int> commands;                     // command name -> times received
  std::map<std::string, int> started;                      // role -> workers started
  std::map<std::string, int> attempts;                     // candidate behaviour -> runs begun
  std::map<std::string, std::string> behaviour_of_folder;  // a candidate's scratch -> its behaviour
  std::vector<std::string> signals;                        // "STOP 17", "CONT 17": the timing lock's pauses
  int shared = 0, most_shared = 0;                         // candidates holding inputs shared with them: now, at most
  // Called as a candidate's `run` arrives (before any of its code would run).
  std::function<void(const std::string& candidate)> on_run;

  int count(const std::string& command) {
    std::lock_guard hold(mutex);
    return commands[command];
  }
};

std::unique_ptr<WorkerLauncher> make_fake_launcher(std::shared_ptr<FakeLog> log);

}  // namespace kmem::eval
