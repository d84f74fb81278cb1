#!/usr/bin/env bash
# The GPU checks CI cannot run, in one go on a machine with a CUDA device
# (docs/benchmarks.md, "On a GPU"): the seed's 44 kernels through `kmem eval
# --parallel 8` with an empty cache (cold) and again (warm), the evaluator's
# GPU tests, the CUDA hack suite, and the same 44 jobs timed as KernelBench
# times them (bench/kernelbench_compare.py). Every output lands in OUT.
#   bench/gpu_checks.sh BUILD_DIR KERNELBENCH_CHECKOUT OUT [STEP ...]
# STEP: batch, gputest, hacks, kernelbench (default: all four, in that order).
# Each step has a time limit of its own (KMEM_GPU_STEP_S, default 300 s).
set -uo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd) kernelbench=$(cd "$2" && pwd) out=$3
shift 3
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(batch gputest hacks kernelbench)
limit=${KMEM_GPU_STEP_S:-300}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export KMEM_CACHE_DIR=${KMEM_CACHE_DIR:-$(mktemp -d /tmp/kmem-gpu-cache.XXXXXX)}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt"
"$build/kmem" --version | tee -a "$out/gpu.txt"
python3 "$root/scripts/seed_jobs.py" --kernelbench "$kernelbench" --out "$out/seed" >/dev/null || exit 1
for step in "${steps[@]}"; do
  echo "=== $step $(date +%T)"
  case $step in
    batch)
      for run in cold warm; do
        /usr/bin/time -f "$run: %e s" timeout "$limit" "$build/kmem" eval --device cuda --parallel 8 \
          --jobs "$out/seed/jobs.jsonl" --out "$out/$run.jsonl" 2>&1 | tail -6
      done ;;
    gputest)
      (cd "$root" && timeout "$limit" "$build/eval_gpu_test" 2>&1 | tail -12) ;;
    hacks)
      timeout "$limit" "$build/hack_suite" --kmem "$build/kmem" --suite "$root/tests/hacks" --device cuda \
        --work "$out/hacks" 2>&1 | tail -45 ;;
    kernelbench)
      timeout "$limit" python3 "$root/bench/kernelbench_compare.py" "$out/seed/jobs.jsonl" \
        "$kernelbench/src/kernelbench/timing.py" > "$out/kernelbench.jsonl"
      python3 - "$out/warm.jsonl" "$out/kernelbench.jsonl" <<'PY'
import json, statistics, sys
kmem = {}
try:
    kmem = {o["id"]: o for o in (json.loads(l) for l in open(sys.argv[1]) if l.strip())}
except OSError:
    pass
ratios = []
for line in open(sys.argv[2]):
    kb = json.loads(line)
    ours = kmem.get(kb["id"], {})
    if "kb_speedup" in kb and ours.get("speedup"):
        ratios.append(ours["speedup"] / kb["kb_speedup"])
if ratios:
    print(f"kmem / KernelBench speedup: median {statistics.median(ratios):.3f} over {len(ratios)} jobs, "
          f"{sum(0.9 <= r <= 1.1 for r in ratios)} within 0.9-1.1")
else:
    print("no job timed by both (run the batch step first)")
PY
      ;;
    *) echo "unknown step $step (batch, gputest, hacks, kernelbench)" >&2 ;;
  esac
done
echo "=== end $(date +%T)"
