// The static rules, composed into the library's evaluation: before any of
// its code runs, a candidate is read, taken out of its reply (a file not
// ending in .py is an agent's reply; the block goes to CACHE/sources/) and
// checked by the checker's rules (kmem/check.h). The first offence is the
// verdict, every offence is listed in the detail. evaluate() and
// evaluate_batch() screen every job this way (EvalOptions::static_rules).
#pragma once

#include <variant>

#include "kmem/eval.h"

namespace kmem::eval {

// The job to run (its candidate a Python file), or the outcome of a candidate
// rejected before any code runs (an unreadable file: missing_candidate).
std::variant<EvalJob, EvalOutcome> screen(const EvalJob& job, const EvalOptions& options);

}  // namespace kmem::eval
