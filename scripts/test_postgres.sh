#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server for the tests of the PostgreSQL engine
# and prints the export line of its URL:
#   eval "$(scripts/test_postgres.sh start DIR)"   # KMEM_TEST_PG_URL, KMEM_TEST_PG_DIR
#   scripts/test_postgres.sh restart DIR            # what a worker must survive
#   scripts/test_postgres.sh stop DIR
# The server lives in DIR (a new empty folder): its data, log and Unix socket;
# it listens on no TCP address. PostgreSQL refuses to run as root, so as root
# the server runs as the user `nobody`.
set -euo pipefail
action=${1:?start or stop}
dir=${2:?a folder for the server}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/pg_ctl" ] || { echo "test_postgres.sh: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 1; }
as=()
if [ "$(id -u)" -eq 0 ]; then as=(runuser -u nobody --); fi
port=5432  # the socket is private to DIR, so the usual port never collides
case "$action" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown nobody "$dir"; fi
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U kmem -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -s \
      -o "-k $dir -p $port -c listen_addresses= -c fsync=off -c max_connections=200" start >&2 ||
      { cat "$dir/server.log" >&2; exit 1; }
    echo "export KMEM_TEST_PG_URL='postgresql://kmem@/postgres?host=$dir&port=$port' KMEM_TEST_PG_DIR='$dir'"
    ;;
  restart)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -w -s -m fast restart >&2
    ;;
  stop)
    [ -d "$dir/data" ] && "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -w -s -m immediate stop >&2 || true
    rm -rf "$dir"
    ;;
  *) echo "test_postgres.sh: start, restart or stop" >&2; exit 2 ;;
esac
