// An evaluator shared by the episodes of an experiment: at most `slots`
// evaluations at once, the others waiting in the order they came.
#include <condition_variable>
#include <mutex>

#include "kmem/experiment.h"

namespace kmem {

namespace {

class SharedEvaluator : public CandidateEvaluator {
 public:
  SharedEvaluator(CandidateEvaluator& inner, int slots) : inner_(inner), slots_(slots < 1 ? 1 : slots) {}

  EvalOutcome evaluate(const EvalJob& job) override {
    {
      std::unique_lock lock(mutex_);
      unsigned long ticket = next_ticket_++;
      turn_.wait(lock, [&] { return ticket == serving_ && running_ < slots_; });
      ++serving_;
      ++running_;
      turn_.notify_all();  // the next ticket may take a free slot too
    }
    EvalOutcome outcome = inner_.evaluate(job);
    {
      std::lock_guard lock(mutex_);
      --running_;
    }
    turn_.notify_all();
    return outcome;
  }

 private:
  CandidateEvaluator& inner_;
  const int slots_;
  std::mutex mutex_;
  std::condition_variable turn_;
  unsigned long next_ticket_ = 0, serving_ = 0;
  int running_ = 0;
};

}  // namespace

std::unique_ptr<CandidateEvaluator> make_shared_evaluator(CandidateEvaluator& inner, int slots) {
  return std::make_unique<SharedEvaluator>(inner, slots);
}

}  // namespace kmem
