#!/usr/bin/env bash
# Throughput and latency of `kmem serve` on loopback, measured with wrk
# against a server this script starts (seed memory, one read token, an audit
# log), beside the in-process figure of the same render (render_bench's
# BM_RenderOne) on the same run, so the ratio says what HTTP costs
# (docs/benchmarks.md, "The HTTP service").
#
#   bench/serve_bench.sh [BUILD_DIR] [SECONDS] [CONNECTIONS]
#
# BUILD_DIR defaults to build/ (it needs kmem and render_bench), SECONDS to
# 10 per measurement, CONNECTIONS to 16 (the server gets as many threads).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
seconds=${2:-10}
connections=${3:-16}
command -v wrk >/dev/null || { echo "serve_bench: wrk is not installed (apt-get install wrk)" >&2; exit 2; }

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

secret=bench-read-secret-0123456789
printf '{"format": "kmem-serve-tokens/1", "tokens": [{"name": "bench", "access": "read", "secret": "%s"}]}\n' \
  "$secret" >"$work/tokens.json"
chmod 600 "$work/tokens.json"
"$build/kmem" serve --port 0 --tokens "$work/tokens.json" --audit-log "$work/audit.jsonl" \
  --threads "$connections" 2>"$work/serve.err" &
server=$!
for _ in $(seq 100); do grep -q listening "$work/serve.err" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/serve.err")
[ -n "$port" ] || { cat "$work/serve.err" >&2; exit 2; }
url="http://127.0.0.1:$port"

# The check request's body: the quick start's honest reply.
python3 -c 'import json, sys; print(json.dumps({"text": open(sys.argv[1]).read()}))' \
  "$root/docs/quickstart/reply.md" >"$work/check.json"
cat >"$work/check.lua" <<LUA
local f = io.open("$work/check.json", "r")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
LUA

# "Requests/sec", p50 and p99 (ms) of one wrk run.
measure() {
  local out
  out=$(wrk -t"${KMEM_WRK_THREADS:-2}" -c"$connections" -d"${seconds}s" --latency -H "Authorization: Bearer $secret" "$@")
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  local non2xx
  non2xx=$(awk '/Non-2xx/ {print $4}' <<<"$out")
  echo "$rps $p50 $p99 ${non2xx:-0}"
}

render_path="/v1/render?problem=L2_006&reader=claude-opus-5-5&policy=show_all"
python3 -c 'import sys, urllib.request as u; u.urlopen(u.Request(sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2]}))' \
  "$url$render_path" "$secret"
read -r render_rps render_p50 render_p99 render_bad < <(measure "$url$render_path")
read -r check_rps check_p50 check_p99 check_bad < <(measure -s "$work/check.lua" "$url/v1/check")
inproc_ns=$("$build/render_bench" --benchmark_filter='^BM_RenderOne$' --benchmark_format=json 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["benchmarks"][0]["real_time"])')
inproc=$(python3 -c "print(f'{1e9 / $inproc_ns:.0f}')")
ratio=$(python3 -c "print(f'{$render_rps / $inproc:.3f}')")

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) (at the end), commit $(git -C "$root" rev-parse --short HEAD)"
echo "wrk: ${KMEM_WRK_THREADS:-2} threads, $connections connections, ${seconds} s each; server: --threads $connections, audit log on"
echo "render  (GET $render_path): $render_rps requests/s, p50 $render_p50, p99 $render_p99, non-2xx $render_bad"
echo "check   (POST /v1/check, docs/quickstart/reply.md): $check_rps requests/s, p50 $check_p50, p99 $check_p99, non-2xx $check_bad"
echo "in-process render (render_bench BM_RenderOne): $inproc renders/s; served / in-process: $ratio"
