// The verdict rules: which fact makes which code, in order, and the messages.
#include "verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "protocol.h"
#include "timing_check.h"

namespace kmem::eval {

namespace {

// A passing candidate is flagged negligible_own_work (a decoy beside torch
// doing the work) when, on a GPU, its own kernels take less than
// kNegligibleOwnShare of a forward's GPU time, or less than kSmallOwnShare
// while their time is tiny in absolute terms (under kTinyOwnMs per forward:
// a launch touching a few elements). Honest kernels fusing an epilogue
// beside a torch convolution take a few percent of a forward, over many
// more microseconds. On the CPU (tests), where the time inside its
// extensions includes the Python call's, below kSmallOwnShare.
constexpr double kNegligibleOwnShare = 0.02;
constexpr double kSmallOwnShare = 0.10;
constexpr double kTinyOwnMs = 0.01;

// Work found outside the clock (background_work): the CPU time the
// candidate's process's other threads used between timed calls' staging and
// their clocks, when only the harness's thread should be working, beyond
// kBackgroundFloorMs plus kBackgroundShare of those calls' time at the
// reported median (not their sum, which a few slow calls would inflate).
// Idle threads of an honest candidate use next to none there (OpenMP's
// sleep at once: the zygote's OMP_WAIT_POLICY); one working on the staged
// inputs uses about the time it saves the clock. On a GPU, also
// kBackgroundPerCallGpuMs a call: the CUDA driver's own threads (its event
// handler) may wake while the harness waits for the device.
constexpr double kBackgroundFloorMs = 2.0;
constexpr double kBackgroundShare = 0.1;
constexpr double kBackgroundPerCallGpuMs = 0.02;

std::optional<std::string> background_cpu(const MeasuredTiming& m, bool on_gpu) {
  const double allowed_ms = kBackgroundFloorMs + kBackgroundShare * m.candidate_ms * m.background_calls +
                            (on_gpu ? kBackgroundPerCallGpuMs * m.background_calls : 0.0);
  if (m.background_cpu_ms <= allowed_ms) return std::nullopt;
  return fmt::format(
      "other threads used {:.3g} ms of CPU between the inputs and the clock of {} timed calls of median {:.3g} ms "
      "(allowed {:.3g} ms)",
      m.background_cpu_ms, m.background_calls, m.candidate_ms, allowed_ms);
}

bool negligible_own_work(const Facts& facts) {
  Fields seen("candidate", "result", facts.run.observations, "observations");
  double share = seen.number("own_work_share", 1.0);
  if (!facts.on_gpu) return share < kSmallOwnShare;
  double own_ms = seen.number("own_work_ms", 1.0);
  return share < kNegligibleOwnShare || (share < kSmallOwnShare && own_ms < kTinyOwnMs);
}

struct CodeMessage {
  const char* code;
  const char* message;
};

// The evaluator's codes (docs/verdicts.md), word for word.
const CodeMessage kMessages[] = {
    {"pass", "the candidate is correct; its speedup is scored"},
    {"evaluator_error", "the problem (reference) or the evaluator itself failed; no verdict on the candidate"},
    {"build_error", "the candidate failed to import or compile; the compiler output is attached"},
    {"build_timeout", "building took longer than the build limit"},
    {"runtime_error", "forward raised; the exception is attached"},
    {"timeout", "a run took longer than the run limit; the process group was killed"},
    {"crash", "the worker died (signal, os._exit, illegal memory access, out of memory)"},
    {"shape_mismatch", "an output's shape differs from the reference's"},
    {"dtype_mismatch", "an output's dtype differs from the reference's"},
    {"output_mismatch", "values beyond atol/rtol; the worst absolute and relative errors are attached"},
    {"timed_output_mismatch", "an output of a timed call differs from the reference (behaves differently when timed)"},
    {"device_mismatch", "an output is on another device than the reference's (a CPU tensor for a CUDA problem)"},
    {"input_mutation", "forward modified its input tensors in place"},
    {"no_custom_kernel",
     "At least one of your own kernels must actually launch during forward; a pure torch path (even with a "
     "compiled but unused kernel) is rejected as no_custom_kernel."},
    {"lazy_output", "the output is not a plain, materialised torch.Tensor (subclass, deferred compute)"},
    {"stale_output",
     "the same output storage is returned across calls with different inputs (cached or replayed result)"},
    {"background_work",
     "threads or processes still running after forward returned, or working outside the timed calls"},
    {"runtime_patching", "a torch function, the timer or the worker changed while the candidate ran"},
    {"precision_downcast", "TF32 or reduced-precision math was switched on during forward"},
    {"forged_result", "the result channel held a record the worker did not write"},
    {"forged_timing",
     "the reported time is impossible given the evaluator's own clock over the timed calls (timing harness "
     "replaced or result rewritten)"},
    {"forbidden_native_call",
     "the built extension imports what a kernel extension does not need (outside the allow-list: processes, "
     "threads, timers, signals, streams of its own, dlopen/dlsym, mprotect, Python run from native code) or makes "
     "a raw system call; what was found is attached"},
    {"forbidden_runtime_call",
     "at run time the candidate did what no kernel needs and the audit hook refuses (unpickling code, raw memory "
     "or foreign calls through ctypes, gc's object lists, a process's memory files); what was refused is attached"},
    {"degenerate_problem", "the reference output does not depend on the inputs; a speedup there proves nothing"},
    {"killed_evaluator", "the evaluator died while this candidate ran alone; it is not run again"},
    {"missing_candidate", "the job's candidate file cannot be read; the path and the reason are attached"},
};

// The reference's failure kinds (python/kmem_worker/reference.py) as codes.
const std::map<std::string, std::string> kJudgementCodes = {
    {"shape", "shape_mismatch"},    {"type", "lazy_output"},         {"dtype", "dtype_mismatch"},
    {"mutation", "input_mutation"}, {"values", "output_mismatch"},   {"timed", "timed_output_mismatch"},
    {"missing", "forged_result"},   {"unreadable", "forged_result"}, {"read_ahead", "forged_timing"},
};

std::string judgement_code(const std::string& failure) {
  auto found = kJudgementCodes.find(failure);
  return found != kJudgementCodes.end() ? found->second : "output_mismatch";
}

// The candidate's observations, read by the types the worker protocol declares.
Fields observed(const Facts& f) { return Fields("candidate", "result", f.run.observations, "observations"); }

// What the candidate's harness measured, as the reference read it (trusted;
// absent when no measurement finished or the run ended without a result).
const MeasuredTiming* measured(const Facts& f) {
  return f.judgement && f.judgement->measured ? &*f.judgement->measured : nullptr;
}

// The candidate's median: the harness's own, else the candidate's report.
double candidate_ms(const Facts& f) { return measured(f) ? measured(f)->candidate_ms : f.run.candidate_ms; }

// Where the candidate's record disagrees with what its harness wrote.
std::optional<std::string> rewritten_report(const Facts& f) {
  const MeasuredTiming* m = measured(f);
  if (m == nullptr) return std::nullopt;
  auto differs = [](double a, double b) { return std::abs(a - b) > 1e-9 * std::max(1.0, std::abs(b)); };
  if (differs(f.run.candidate_ms, m->candidate_ms))
    return fmt::format("the candidate reported a median of {:g} ms, its harness measured {:g} ms", f.run.candidate_ms,
                       m->candidate_ms);
  const Json& tally = observed(f).json("timing_tally");
  for (const char* key : {"calls", "measured_ms"})
    if (!tally.is_object() || !tally.contains(key) || !tally[key].is_number() ||
        differs(tally[key].get<double>(), m->tally[key].get<double>()))
      return fmt::format("the candidate's timing tally disagrees with its harness's ({})", m->tally.dump());
  return std::nullopt;
}

bool nonempty(const Json& value) { return (value.is_array() || value.is_object()) && !value.empty(); }

struct Rule {
  const char* code;
  // The detail when the rule applies, else nullopt.
  std::function<std::optional<std::string>(const Facts&)> applies;
};

std::optional<std::string> when(bool condition, std::string detail) {
  return condition ? std::optional<std::string>(std::move(detail)) : std::nullopt;
}

// Checked in order; the first rule that applies is the verdict.
const std::vector<Rule>& rules() {
  using End = CandidateRun::End;
  static const std::vector<Rule> table = {
      {"forged_result", [](const Facts& f) { return when(f.run.end == End::kForged, f.run.detail); }},
      {"build_timeout", [](const Facts& f) { return when(f.run.end == End::kBuildTimeout, f.run.detail); }},
      // The worker's own set-up failed before any candidate code ran.
      {"evaluator_error",
       [](const Facts& f) { return when(f.run.end == End::kError && f.run.stage == "setup", f.run.detail); }},
      {"timeout", [](const Facts& f) { return when(f.run.end == End::kTimeout, f.run.detail); }},
      {"forbidden_native_call",
       [](const Facts& f) {
         if (f.run.end == End::kError && f.run.stage == "native") return when(true, f.run.detail);
         const Json& symbols = observed(f).json("forbidden_native_calls");
         return when(f.run.end == End::kResult && nonempty(symbols), "symbols: " + symbols.dump());
       }},
      {"forbidden_runtime_call",
       [](const Facts& f) { return when(f.run.end == End::kError && f.run.stage == "audit", f.run.detail); }},
      {"crash",
       [](const Facts& f) {
         return when(
             f.run.end == End::kCrash || (f.run.end == End::kError && f.run.error_kind == ErrorKind::kDeviceFault),
             f.run.detail);
       }},
      {"build_error",
       [](const Facts& f) { return when(f.run.end == End::kError && f.run.stage == "build", f.run.detail); }},
      // Outputs refused, by identity, before anything touched them.
      {"lazy_output",
       [](const Facts& f) { return when(f.run.end == End::kError && f.run.stage == "output_type", f.run.detail); }},
      {"device_mismatch",
       [](const Facts& f) { return when(f.run.end == End::kError && f.run.stage == "output_device", f.run.detail); }},
      {"runtime_error", [](const Facts& f) { return when(f.run.end == End::kError, f.run.detail); }},
      {"judgement",  // the code comes from kJudgementCodes
       [](const Facts& f) {
         return when(f.judgement && !f.judgement->correct, f.judgement ? f.judgement->detail : "");
       }},
      {"no_custom_kernel",
       [](const Facts& f) {
         Fields seen = observed(f);
         const std::string own = seen.json("own_kernels").is_null() ? "[]" : seen.json("own_kernels").dump();
         if (seen.number("custom_kernel_launches") <= 0) return when(true, "own kernels: " + own + ", launched: 0");
         // Every call, trials, warm-up and timed, must launch one of its own.
         Fields without = seen.object("calls_without_own_kernel");
         double trials = without.number("trials"), warmup = without.number("warmup"), timed = without.number("timed");
         return when(trials + warmup + timed > 0,
                     fmt::format("own kernels: {}, calls that launched none of them: {:g} trial(s), {:g} warm-up, "
                                 "{:g} timed",
                                 own, trials, warmup, timed));
       }},
      {"forged_timing",
       [](const Facts& f) {
         if (auto rewritten = rewritten_report(f)) return rewritten;
         TimingClaim claim;
         claim.candidate_ms = candidate_ms(f);
         claim.tally = measured(f) ? measured(f)->tally : observed(f).json("timing_tally");
         claim.held_s = f.run.timing_lock_held_s;
         claim.min_calls = f.min_timed_calls;
         claim.call_overhead_ms = f.call_overhead_ms;
         claim.on_gpu = f.on_gpu;
         if (f.judgement && f.judgement->staged) {
           const StagedCalls& s = *f.judgement->staged;
           claim.staged_calls = s.calls;
           claim.staged_judged_calls = s.judged_calls;
           claim.staged_judged_fastest_ms = s.judged_fastest_ms;
           claim.staged_output_bytes = s.output_bytes;
         }
         return impossible_timing(claim);
       }},
      {"stale_output",
       [](const Facts& f) {
         return when(measured(f) ? measured(f)->same_storage : observed(f).flag("same_storage_across_calls"), "");
       }},
      {"background_work",
       [](const Facts& f) -> std::optional<std::string> {
         double extra = observed(f).number("threads_after_forward");
         if (extra > 0) return fmt::format("{:g} thread(s) still running", extra);
         return measured(f) ? background_cpu(*measured(f), f.on_gpu) : std::nullopt;
       }},
      {"runtime_patching",
       [](const Facts& f) {
         const Json& patched = observed(f).json("patched");
         return when(nonempty(patched), patched.dump());
       }},
      {"precision_downcast",
       [](const Facts& f) {
         const Json& flags = observed(f).json("precision_flags");
         return when(nonempty(flags), flags.dump());
       }},
      {"degenerate_problem", [](const Facts& f) { return when(f.degenerate, ""); }},
  };
  return table;
}

}  // namespace

std::string verdict_message(const std::string& code) {
  for (const auto& entry : kMessages)
    if (code == entry.code) return entry.message;
  return "";
}

EvalOutcome decide(const EvalJob& job, const Facts& facts) {
  EvalOutcome outcome;
  outcome.job = job;
  outcome.verdict = "pass";
  if (facts.judgement) outcome.correctness = facts.judgement->correctness;
  if (facts.run.end == CandidateRun::End::kResult) {
    outcome.reference_ms = facts.reference_ms;
    outcome.reference_cached = facts.reference_cached;
    const double ms = candidate_ms(facts);
    outcome.candidate_ms = ms;
    if (ms > 0) outcome.speedup = facts.reference_ms / ms;
  }
  for (const auto& rule : rules()) {
    auto detail = rule.applies(facts);
    if (!detail) continue;
    outcome.verdict = rule.code == std::string("judgement") ? judgement_code(facts.judgement->failure) : rule.code;
    outcome.detail = *detail;
    break;
  }
  outcome.message = verdict_message(outcome.verdict);
  if (facts.judgement) {
    outcome.profile.roofline_ms = facts.judgement->roofline_ms;
    if (const MeasuredTiming* m = measured(facts)) outcome.profile.background_cpu_ms = m->background_cpu_ms;
    if (outcome.verdict == "output_mismatch") outcome.mismatch = facts.judgement->mismatch;
  }
  add_compile_baseline(outcome, facts.compile_ms);
  if (outcome.passed()) {
    Fields seen = observed(facts);
    outcome.profile.own_work_ms = seen.maybe_number("own_work_ms");
    outcome.profile.own_work_share = seen.maybe_number("own_work_share");
    for (const Json& name : seen.json("own_kernels"))
      if (name.is_string()) outcome.profile.own_kernels.push_back(name.get<std::string>());
    outcome.score = std::min(outcome.speedup, kScoreCap);
    if (facts.judgement && facts.judgement->roofline_ms && candidate_ms(facts) < *facts.judgement->roofline_ms)
      outcome.flags.push_back("implausible_speedup");
    const MeasuredTiming* m = measured(facts);
    if (!(m ? m->steady : seen.flag("timing_steady", true))) outcome.flags.push_back("unsteady_timing");
    if (facts.on_gpu && (m ? m->host_bound : seen.flag("host_bound", false)))
      outcome.flags.push_back("host_bound_timing");
    if (!facts.reference_timing_steady) outcome.flags.push_back("unsteady_reference_timing");
    if (negligible_own_work(facts)) outcome.flags.push_back("negligible_own_work");
  } else if (facts.run.end != CandidateRun::End::kResult) {
    outcome.log = facts.run.log;
  }
  return outcome;
}

void add_compile_baseline(EvalOutcome& outcome, std::optional<double> compile_ms) {
  if (!compile_ms || *compile_ms <= 0) return;
  outcome.compile_ms = compile_ms;
  if (outcome.passed() && outcome.candidate_ms && *outcome.candidate_ms > 0)
    outcome.speedup_vs_compile = *compile_ms / *outcome.candidate_ms;
}

bool ran_out_of_memory(const CandidateRun& run) {
  return run.end == CandidateRun::End::kError && run.error_kind == ErrorKind::kOutOfMemory;
}

}  // namespace kmem::eval
