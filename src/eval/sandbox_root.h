// The candidates' minimal root (docs/evaluator.md, "Sandbox"): what their
// sandbox shows of the machine, all of it read-only. The fixed system
// folders (/usr, the /bin, /sbin and /lib* links, /sys, the loader's and the
// compilers' files of /etc, a generated /etc/passwd and /etc/group, a
// minimal /dev with the GPU's device nodes) and the folders that the worker's
// interpreter reports for its Python, torch, Triton, compilers, CUDA and GPU
// driver (python/kmem_worker/sandbox_root.py), never the whole file system,
// a home folder or the cache.
#pragma once

#include <string>
#include <vector>

#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem::eval {

// What the interpreter's probe reported.
struct SandboxRoot {
  std::string python;                    // the interpreter as invoked (a venv's own link): what the sandbox runs
  std::vector<std::string> paths;        // its installation's folders and files, as found
  std::vector<std::string> environment;  // "NAME=value" it needs there to find its packages (PYTHONUSERBASE)
};

// Runs `options.python -m kmem_worker.sandbox_root` (outside any sandbox;
// its stderr goes to `log_path`, removed after) and reads its answer. The
// error names what failed.
Result<SandboxRoot> probe_sandbox_root(const EvalOptions& options, const std::string& log_path);

// Which of `found` get bound: absolute paths that exist, not under /usr
// (bound whole) nor under another one chosen, and none that is "/", a
// top-level folder, under /proc, /sys or /dev, or is or holds one of
// `hidden` (the cache). Parents before children.
std::vector<std::string> chosen_paths(const std::vector<std::string>& found, const std::vector<std::string>& hidden);

// Whether the candidates of a run under `options` see the machine's
// /dev/shm: only when CUDA inputs travel by IPC (torch's IPC reference
// counts are files the reference creates there); otherwise each job gets
// a private, empty one.
bool shares_dev_shm(const EvalOptions& options);

// bubblewrap's arguments that build the root from `root`, with the files it
// needs written into `run_dir` (passwd, group). The cache, the scratch
// folders and the worker's own code are added by sandbox_command.
Result<std::vector<std::string>> root_arguments(const SandboxRoot& root, const EvalOptions& options,
                                                const std::string& run_dir);

}  // namespace kmem::eval
