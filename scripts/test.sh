#!/usr/bin/env bash
# Installs and builds (scripts/setup.sh), then runs every test suite with CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
