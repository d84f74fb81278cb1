#!/usr/bin/env bash
# Installs everything kmem needs on a Debian machine (packages, the npm
# tree-sitter grammar), builds it into build/ and installs it under $PREFIX
# (default /usr/local: $PREFIX/bin/kmem, its data and worker in
# $PREFIX/share/kmem). Safe to run again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(build-essential cmake ninja-build pkg-config git
  libsqlite3-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libtree-sitter-dev
  libcurl4-openssl-dev libcpp-httplib-dev libtomlplusplus-dev libjs-chart.js chromium
  python3 python3-dev python3-numpy python3-torch libtorch-dev pybind11-dev
  clang clang-format libclang-rt-14-dev
  bubblewrap libseccomp-dev
  wrk python3-pip python3-setuptools python3-wheel
  postgresql libpq-dev libpqxx-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi

grammar=third_party/npm/node_modules/tree-sitter-python/src/parser.c
if [ ! -f "$grammar" ]; then
  mkdir -p third_party/npm
  npm install --prefix third_party/npm --no-audit --no-fund --silent tree-sitter-python@0.23.6
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build

prefix=${PREFIX:-/usr/local}
install_cmd=""
if ! { mkdir -p "$prefix" && [ -w "$prefix" ]; } 2>/dev/null; then install_cmd=sudo; fi
$install_cmd cmake --install build --prefix "$prefix" >/dev/null
echo "kmem installed: $prefix/bin/kmem ($("$prefix/bin/kmem" --version))"
