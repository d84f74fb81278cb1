#!/usr/bin/env bash
# The C++ unit tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang, build-asan/), then the checker's fuzzer for a fixed time. Run by scripts/test.sh after the main suites; exit 1 when a
# test fails or a sanitizer or fuzzer reports an error.
#   scripts/sanitize.sh              every step
#   KMEM_FUZZ_SECONDS=N              the fuzzer's time (default 60; 0: no fuzzing)
# Only the unit tests of the modules that parse untrusted input or hold the
# evaluator's logic run here: the suites that run the real evaluator (tests/eval,
# tests/hacks, the command tests, the quick start) take minutes of Python and
# torch, where the sanitizers see nothing of ours.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fuzz_seconds=${KMEM_FUZZ_SECONDS:-60}
unit_tests=(kmem_util_test kmem_store_test memory_test kmem_catalog_test kmem_check_test
  protocol_test verdict_test timing_check_test process_test share_gate_test context_relay_test scheduler_test)

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
  -DKMEM_SANITIZE=ON -DKMEM_BUILD_FUZZ=ON -DKMEM_BUILD_BENCH=OFF >/dev/null
targets=("${unit_tests[@]}")
((fuzz_seconds > 0)) && targets+=(kmem_check_fuzz)
cmake --build build-asan --target "${targets[@]}"

# A leak, an overflow or undefined behaviour fails the test that showed it.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for test in "${unit_tests[@]}"; do
  echo "sanitize: $test"
  (cd build-asan && "./$test" --gtest_brief=1) || failed+=("$test")
done

if ((fuzz_seconds > 0)); then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  mkdir "$scratch/corpus"
  echo "sanitize: kmem_check_fuzz for ${fuzz_seconds} s"
  build-asan/kmem_check_fuzz -max_total_time="$fuzz_seconds" -print_final_stats=1 -artifact_prefix="$scratch/" \
    "$scratch/corpus" src/check/testdata/honest src/check/testdata/evasions 2>"$scratch/fuzz.log" ||
    { tail -n 60 "$scratch/fuzz.log"; failed+=(kmem_check_fuzz); }
fi

if ((${#failed[@]})); then
  echo "sanitize: failed: ${failed[*]}" >&2
  exit 1
fi
echo "sanitize: ${#unit_tests[@]} unit tests clean under ASan+UBSan; the checker's fuzzer $( ((fuzz_seconds > 0)) && echo "ran ${fuzz_seconds} s" || echo "skipped")"
