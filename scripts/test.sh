#!/usr/bin/env bash
# Installs and builds (scripts/setup.sh), runs every test suite with CTest, then
# the unit tests under AddressSanitizer and UndefinedBehaviorSanitizer and the
# checker's fuzzer for a fixed time (scripts/sanitize.sh; KMEM_FUZZ_SECONDS, default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
"$root/scripts/sanitize.sh"
