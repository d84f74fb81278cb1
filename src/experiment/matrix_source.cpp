// The local job source: the experiment's matrix, less what is stored.
#include <mutex>

#include "kmem/experiment.h"

namespace kmem {

namespace {

class MatrixSource : public JobSource {
 public:
  explicit MatrixSource(std::vector<EpisodeKey> keys) : keys_(std::move(keys)) {}

  std::optional<EpisodeKey> next() override {
    std::lock_guard lock(mutex_);
    if (next_ == keys_.size()) return std::nullopt;
    return keys_[next_++];
  }
  size_t total() const override { return keys_.size(); }

 private:
  std::mutex mutex_;
  const std::vector<EpisodeKey> keys_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<JobSource> make_matrix_source(const ExperimentSpec& spec,
                                              const std::vector<ExperimentProblem>& problems,
                                              const std::set<EpisodeKey>& done) {
  std::vector<EpisodeKey> keys;
  // Samples outermost: a run stopped early has covered every cell evenly.
  for (int sample = 0; sample < spec.samples; ++sample)
    for (const auto& reader : spec.readers)
      for (const auto& policy : spec.policies)
        for (const auto& p : problems) {
          EpisodeKey key{reader.id, policy, p.problem.id, sample};
          if (!done.contains(key)) keys.push_back(std::move(key));
        }
  return std::make_unique<MatrixSource>(std::move(keys));
}

}  // namespace kmem
