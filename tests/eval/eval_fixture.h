// Shared set-up of the evaluator tests: options pointing at the test cache
// and the fixtures under tests/eval/, and a helper that evaluates one pair.
#pragma once

#include <string>

#include "kmem/eval.h"

namespace kmem::test {

// Small, quick settings: 3 trials, 5 timed calls, one shared build cache.
EvalOptions test_options(const std::string& device);

// Evaluates tests/eval/<candidate> against tests/eval/<problem>.
EvalOutcome evaluate_fixture(const std::string& problem, const std::string& candidate, const EvalOptions& options);

std::string fixture_path(const std::string& relative);

}  // namespace kmem::test
