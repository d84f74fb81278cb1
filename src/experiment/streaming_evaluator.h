// The seam under make_streaming_evaluator: the evaluation it runs is a
// function, evaluate_stream in kmem and a fake in tests.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "kmem/episode.h"
#include "kmem/eval.h"

namespace kmem {

using EvaluationStream =
    std::function<void(const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions& options,
                       const std::function<void(const EvalOutcome&)>& on_result)>;

// make_streaming_evaluator over `stream` in place of evaluate_stream.
std::unique_ptr<CandidateEvaluator> make_streaming_evaluator_over(EvaluationStream stream, const EvalOptions& options,
                                                                  int parallel, double gather_s, double idle_s);

}  // namespace kmem
