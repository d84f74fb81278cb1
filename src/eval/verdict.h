// Deciding the verdict of one candidate from the facts its run and the
// reference's judgement report. The codes, their messages and the order in
// which they are checked are single tables in verdict.cpp.
#pragma once

#include <optional>
#include <string>

#include "candidate.h"
#include "kmem/eval.h"
#include "reference.h"

namespace kmem::eval {

struct Facts {
  CandidateRun run;
  std::optional<Judgement> judgement;  // when the run produced a result
  double reference_ms = 0.0;
  std::optional<double> compile_ms;  // the compile baseline, when there is one
  bool reference_cached = false;
  bool reference_timing_steady = true;  // see Reference::timing_steady
  bool degenerate = false;
  bool on_gpu = false;            // on the CPU every model is bound by the host, so that says nothing
  int min_timed_calls = 1;        // the fewest calls the harness makes (warm-up, then iters)
  double call_overhead_ms = 0.0;  // the reference workers' harness overhead per call (0: none seen)
};

EvalOutcome decide(const EvalJob& job, const Facts& facts);

// Sets the outcome's compile baseline and, when it passed, its speedup
// over it (nothing when there is none); decide() calls it, and a batch calls
// it again once a baseline measured meanwhile is known.
void add_compile_baseline(EvalOutcome& outcome, std::optional<double> compile_ms);

// Whether the candidate's run failed because it ran out of memory, as its
// error record's kind says (by the exception's type, never its message): so
// that, when other jobs held memory on the GPU, it deserves a run of its own.
bool ran_out_of_memory(const CandidateRun& run);

// The stable message of a verdict code ("" when unknown).
std::string verdict_message(const std::string& code);

}  // namespace kmem::eval
