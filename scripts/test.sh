#!/usr/bin/env bash
# Installs and builds (scripts/setup.sh), runs every test suite with CTest,
# with a throw-away PostgreSQL server (scripts/test_postgres.sh) for the tests
# of the PostgreSQL engine, stopped when the tests end; then the unit tests
# under AddressSanitizer and UndefinedBehaviorSanitizer and the checker's
# fuzzer for a fixed time (scripts/sanitize.sh; KMEM_FUZZ_SECONDS, default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
pg_dir=$(mktemp -d /tmp/kmem-test-pg.XXXXXX)
trap '"$root/scripts/test_postgres.sh" stop "$pg_dir"' EXIT
eval "$("$root/scripts/test_postgres.sh" start "$pg_dir")"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
"$root/scripts/sanitize.sh"
