#!/usr/bin/env bash
# The GPU checks CI cannot run, in one go on a machine with a CUDA device
# (docs/benchmarks.md, "On a GPU"): the seed's 44 kernels through `kmem eval
# --parallel 8` with an empty cache (cold) and again (warm, GPU memory
# sampled), the same 44 submitted through the Python client to `kmem serve`
# and drained by one `kmem worker` (served), the evaluator's GPU tests, the
# CUDA hack suite, the same 44 jobs timed as KernelBench times them
# (bench/kernelbench_compare.py), the seed replay experiment with its HTML
# report (replay), and a learning run of two experiments
# (scripts/learning_run.py). Every output lands in OUT.
#   bench/gpu_checks.sh BUILD_DIR KERNELBENCH_CHECKOUT OUT [STEP ...]
# STEP: batch, served, gputest, hacks, kernelbench, replay, learning
# (default: the first five, in that order). Each step has a time limit of
# its own (KMEM_GPU_STEP_S, default 300 s). KMEM_TUNE_* variables (docs/cli.md)
# apply to every step: KMEM_TUNE_COMPILE_BASELINE=0 leaves out the
# torch.compile baseline.
set -uo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd) kernelbench=$(cd "$2" && pwd) out=$3
shift 3
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(batch served gputest hacks kernelbench)
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
        [ $run = warm ] && { nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader -lms 250 \
          > "$out/gpu_memory.csv" & sampler=$!; }
        /usr/bin/time -f "$run: %e s" timeout "$limit" "$build/kmem" eval --device cuda --parallel 8 \
          --jobs "$out/seed/jobs.jsonl" --out "$out/$run.jsonl" 2>&1 | tail -6
      done
      kill "$sampler" 2>/dev/null
      sort -t, -k2 -n "$out/gpu_memory.csv" | tail -1 | sed 's/^/warm batch, most GPU memory used: /' ;;
    served)
      rm -f "$out/served.db"
      problems=$kernelbench
      [ -d "$kernelbench/KernelBench" ] && problems=$kernelbench/KernelBench
      "$build/kmem" serve --queue "$out/served.db" --insecure-local --port 18420 --kernelbench "$problems" \
        --device cuda > "$out/serve.log" 2>&1 &
      server=$!
      "$build/kmem" worker --store "$out/served.db" --device cuda --parallel 8 > "$out/worker.log" 2>&1 &
      worker=$!
      sleep 1
      timeout "$limit" python3 "$root/bench/served_batch.py" "$out/seed/jobs.jsonl" "$problems" \
        http://127.0.0.1:18420 "" "$out/served.jsonl"
      kill "$worker" "$server"; wait "$worker" "$server" 2>/dev/null
      tail -3 "$out/worker.log" ;;
    replay)
      python3 "$root/scripts/seed_replay.py" --kernelbench "$kernelbench" --out "$out/replay" >/dev/null
      "$build/kmem-scripted-endpoint" "$out/replay/script.json" --port 8765 > "$out/replay/endpoint.log" &
      endpoint=$!
      for _ in $(seq 50); do [ -s "$out/replay/endpoint.log" ] && break; sleep 0.2; done  # its URL once listening
      rm -f "$out/replay/results.db"
      /usr/bin/time -f "replay: %e s" timeout "$limit" "$build/kmem" experiment run "$out/replay/spec.json" \
        --results "$out/replay/results.db" --quiet --work-dir "$out/replay/work"
      kill "$endpoint"
      "$build/kmem" experiment report seed-replay --results "$out/replay/results.db" \
        --html "$out/seed-replay.html" | tee "$out/replay.txt" ;;
    learning)
      timeout "$limit" python3 "$root/scripts/learning_run.py" --kmem "$build/kmem" \
        --endpoint "$build/kmem-scripted-endpoint" --kernelbench "$kernelbench" --out "$out/learning" \
        --problems 20 --device cuda 2>&1 | tail -40 ;;
    gputest)
      (cd "$root" && timeout "$limit" "$build/eval_gpu_test" 2>&1 | tee "$out/gputest.log" | tail -12) ;;
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
    *) echo "unknown step $step (batch, served, gputest, hacks, kernelbench, replay, learning)" >&2 ;;
  esac
done
echo "=== end $(date +%T)"
