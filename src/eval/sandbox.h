// The sandbox of the candidate workers (docs/evaluator.md, "Sandbox"): the
// bubblewrap command line the candidate zygote runs under (no network, a
// minimal read-only root, sandbox_root.h, the batch's scratch folder its
// working directory) and the
// seccomp filters, as BPF programs made with libseccomp, that each worker
// installs on itself (python/kmem_worker/sandbox.py): `confined` before any
// candidate code runs, `no_processes` once its compilers have run.
#pragma once

#include <string>
#include <vector>

#include "kmem/eval.h"
#include "kmem/result.h"
#include "sandbox_root.h"

namespace kmem::eval {

// Where the candidates' build caches are seen inside the sandbox; each
// worker binds there its own folder of CACHE/builds (per candidate source).
inline constexpr const char* kSandboxBuildDir = "/tmp/kmem-build";

enum class SeccompFilter { kConfined, kNoProcesses };

// The BPF program of `filter` for this machine's architecture.
Result<std::string> seccomp_program(SeccompFilter filter);

// The bubblewrap path: $KMEM_BWRAP, else `bwrap` on $PATH; "" when absent.
std::string find_bwrap();

// The argv that runs root.python in the candidates' sandbox for a batch
// whose scratch folder is `run_dir` (under options.cache_dir/work): the
// interpreter's arguments follow. Writes the root's generated files into
// `run_dir`.
Result<std::vector<std::string>> sandbox_command(const std::string& bwrap, const EvalOptions& options,
                                                 const std::string& run_dir, const SandboxRoot& root);

// Of `environment` (KEY=VALUE: the caller's with kmem's own settings for
// its workers), the variables a sandboxed candidate sees: what the
// interpreter, the compilers, CUDA, torch, Triton and the worker need
// (docs/evaluator.md, "Sandbox"); everything else, the caller's secrets and
// folders included, stays outside.
std::vector<std::string> sandbox_visible_environment(const std::vector<std::string>& environment);

// Writes the filters into `run_dir`, creates the cache's build folders and
// returns the environment that tells the candidate zygote to confine its
// workers (filter paths, build cache folders, whether /dev/shm is shared).
Result<std::vector<std::string>> sandbox_environment(const EvalOptions& options, const std::string& run_dir);

}  // namespace kmem::eval
