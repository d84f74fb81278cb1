// Building kmem's native harness (python/kmem_worker/harness.cpp, a C++
// torch extension of kmem's own that runs every warm-up and timed call) once
// per machine and toolchain, before any worker starts: the workers load the
// built library before any candidate code runs, and the sandboxed candidate
// zygote could not write it.
#pragma once

#include <string>

#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem::eval {

// Runs `PYTHON -m kmem_worker harness` (quick when built already; the
// compiler's minutes the first time) with its stderr in `log_path`; an
// error carries the log's tail.
Status build_native_harness(const EvalOptions& options, const std::string& log_path);

}  // namespace kmem::eval
