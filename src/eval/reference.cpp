// Driving one problem's reference: prepare once, share and judge per candidate.
#include "reference.h"

#include <algorithm>

#include "protocol.h"
#include "secret_random.h"
#include "timing_check.h"

namespace kmem::eval {

namespace {

std::vector<long> longs(const Json& array) { return array.get<std::vector<long>>(); }

// The verdict's mismatch facts, whose form the protocol has checked (the
// reference is trusted).
MismatchFacts mismatch_facts(const Json& m) {
  MismatchFacts facts;
  facts.trial = m.at("trial").get<int>();
  facts.output = m.at("output").get<int>();
  facts.shape = longs(m.at("shape"));
  facts.first_index = longs(m.at("first_index"));
  facts.bad = m.at("bad").get<long>();
  facts.elements = m.at("elements").get<long>();
  facts.nan = m.at("nan").get<long>();
  facts.inf = m.at("inf").get<long>();
  facts.where = m.at("where").get<std::string>();
  for (const Json& sample : m.at("samples"))
    facts.samples.push_back(
        {longs(sample.at("index")), sample.at("expected").get<std::string>(), sample.at("got").get<std::string>()});
  return facts;
}

Json prepare_command(const std::string& problem, uint64_t init_seed, const EvalOptions& options) {
  return Json{
      {"cmd", "prepare"},
      {"problem", problem},
      {"device", options.device},
      {"init_seed", init_seed},
      {"secret_seed", random_seed()},
      {"trials", options.trials},
      {"timing", {{"warmup", options.warmup}, {"iters", options.iters}}},
      {"tolerance", options.tolerance},
      {"facts_cache", options.cache_dir + "/reference"},
      {"retime", options.retime_reference},
      {"call_sets_mb", options.tuning.call_sets_mb},
  };
}

}  // namespace

bool wants_compile_baseline(const EvalOptions& options) {
  return options.compile_baseline.value_or(options.device == "cuda");
}

Result<std::unique_ptr<Reference>> Reference::prepare(const std::string& problem, uint64_t init_seed,
                                                      const EvalOptions& options, TimingLock& timing_lock,
                                                      ReferenceHosts& hosts) {
  Json command = prepare_command(problem, init_seed, options);
  command["compile_baseline"] = wants_compile_baseline(options);
  // Placed on a worker that another problem stopped before this one's
  // command reached it, the problem is placed once more.
  for (int placed = 1;; ++placed) {
    auto place = hosts.place();
    if (!place) return place.error().wrap(problem);
    std::unique_ptr<Reference> reference(new Reference(std::move(*place), options));
    // Preparing loads the problem and may compile, like a build: the build limit.
    RequestInfo info;
    auto ready =
        reference->request(command, "ready", options.build_timeout_s, problem + ": the reference failed", &info);
    if (!ready && !info.sent && placed == 1) continue;
    if (!ready) return ready.error();
    Fields fields("reference", "ready", *ready);  // checked strictly (trusted): every field is of its type
    reference->reference_ms_ = fields.number("reference_ms");
    reference->degenerate_ = fields.flag("degenerate");
    if (auto timed = fields.maybe_number("timed_calls"); timed && *timed >= 1)
      reference->timed_calls_ = std::min(options.iters, static_cast<int>(*timed));
    reference->reference_cached_ = fields.flag("cached");
    if (auto compile = fields.maybe_number("compile_ms"); compile && *compile > 0) reference->compile_ms_ = compile;
    reference->compile_pending_ = fields.flag("compile_pending", false);
    reference->timing_steady_ = fields.flag("timing_steady", true);
    timing_lock.note_host_probe(fields.number("host_probe_ms"));
    // A reference timed now shows the harness's overhead per call
    // (timing_check.h); its inputs, like a candidate's, were drawn before.
    if (auto overhead = call_overhead_ms(fields.json("timing_tally"), info.held_s))
      timing_lock.note_call_overhead(std::max(0.0, *overhead));
    if (fields.json("device_memory").is_object()) {
      Fields memory = fields.object("device_memory");
      reference->device_memory_ =
          DeviceMemory{static_cast<int64_t>(memory.number("total")), static_cast<int64_t>(memory.number("held")),
                       static_cast<int64_t>(memory.number("per_candidate"))};
    }
    reference->seconds_ = fields.json("seconds");
    return reference;
  }
}

Result<std::optional<double>> Reference::measure_compile_baseline(const std::string& problem, uint64_t init_seed,
                                                                  const EvalOptions& options, ReferenceHosts& hosts) {
  Json command = prepare_command(problem, init_seed, options);
  command["cmd"] = "baseline";
  auto place = hosts.place();
  if (!place) return place.error().wrap(problem);
  // The worker keeps nothing of the problem once it answers; the drop only settles the count.
  auto compiled = place->host->request(place->handle, command, "compiled", options.build_timeout_s,
                                       problem + ": the compile baseline failed");
  place->host->drop(place->handle, options.run_timeout_s);
  if (!compiled) return compiled.error();
  auto compile = Fields("reference", "compiled", *compiled).maybe_number("compile_ms");
  if (compile && *compile > 0) return std::optional<double>(*compile);
  return std::optional<double>();
}

Result<std::string> Reference::share(const std::string& folder) {
  auto shared = request(Json{{"cmd", "share"}, {"folder", folder}, {"ipc", options_.tuning.inputs_by_ipc}}, "shared",
                        options_.run_timeout_s, "the reference failed to share its inputs with " + folder);
  if (!shared) return shared.error();
  return Fields("reference", "shared", *shared).text("path");
}

Status Reference::release(const std::string& folder) {
  auto released = request(Json{{"cmd", "release"}, {"folder", folder}}, "released", options_.run_timeout_s,
                          "the reference failed to release the inputs of " + folder);
  if (!released) return released.error();
  return Status::success();
}

Reference::~Reference() { place_.host->drop(place_.handle, options_.run_timeout_s); }

Result<Judgement> Reference::judge(const std::string& folder, const CandidateRun& run,
                                   const std::string& outputs_path) {
  Json command{{"cmd", "judge"},
               {"folder", folder},
               {"outputs", run.outputs_in_slots ? "slots" : outputs_path},
               {"inputs_changed", run.inputs_changed},
               {"tolerance", options_.tolerance}};
  auto verdict =
      request(command, "verdict", options_.run_timeout_s, "the reference failed to judge the outputs of " + folder);
  if (!verdict) return verdict.error();
  Fields e("reference", "verdict", *verdict);
  Judgement judgement;
  judgement.correct = e.flag("correct");
  judgement.failure = e.text("failure");
  judgement.detail = e.text("detail");
  judgement.correctness.trials = static_cast<int>(e.number("trials"));
  judgement.correctness.max_abs_error = e.number("max_abs_error");
  judgement.correctness.max_rel_error = e.number("max_rel_error");
  if (auto floor = e.maybe_number("roofline_ms"); floor && *floor >= 0) judgement.roofline_ms = floor;
  if (const Json& mismatch = e.json("mismatch"); mismatch.is_object()) judgement.mismatch = mismatch_facts(mismatch);
  if (!e.json("measured").is_null()) {
    Fields m = e.object("measured");
    MeasuredTiming measured;
    measured.candidate_ms = m.number("candidate_ms");
    measured.tally = {{"calls", m.number("calls")},
                      {"measured_ms", m.number("measured_ms")},
                      {"fastest_ms", m.number("fastest_ms")},
                      {"slowest_ms", m.number("slowest_ms")}};
    measured.same_storage = m.flag("same_storage");
    measured.host_bound = m.flag("host_bound");
    measured.steady = m.flag("steady", true);
    Fields background = m.object("background_cpu");
    measured.background_cpu_ms = background.number("ms");
    measured.background_calls = static_cast<int>(background.number("calls"));
    judgement.measured = measured;
  }
  if (!e.json("staged").is_null()) {
    Fields s = e.object("staged");
    judgement.staged = StagedCalls{static_cast<int>(s.number("calls")), static_cast<int>(s.number("judged_calls")),
                                   s.number("judged_fastest_ms"), s.number("output_bytes")};
  }
  return judgement;
}

}  // namespace kmem::eval
