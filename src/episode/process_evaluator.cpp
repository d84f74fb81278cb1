// The CandidateEvaluator of a real run: the protected evaluator (eval.h),
// one candidate at a time in its own worker processes.
#include "kmem/episode.h"

namespace kmem {
namespace {

class ProcessEvaluator : public CandidateEvaluator {
 public:
  explicit ProcessEvaluator(EvalOptions options) : options_(std::move(options)) {}
  EvalOutcome evaluate(const EvalJob& job) override { return kmem::evaluate(job, options_); }

 private:
  EvalOptions options_;
};

}  // namespace

std::unique_ptr<CandidateEvaluator> make_process_evaluator(const EvalOptions& options) {
  return std::make_unique<ProcessEvaluator>(options);
}

}  // namespace kmem
