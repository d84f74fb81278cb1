#!/usr/bin/env bash
# Installs and builds (scripts/setup.sh), then runs every test suite with CTest,
# with a throw-away PostgreSQL server (scripts/test_postgres.sh) for the tests
# of the PostgreSQL engine, stopped when the tests end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
pg_dir=$(mktemp -d /tmp/kmem-test-pg.XXXXXX)
trap '"$root/scripts/test_postgres.sh" stop "$pg_dir"' EXIT
eval "$("$root/scripts/test_postgres.sh" start "$pg_dir")"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)"
