#!/usr/bin/env bash
# Installs kmem from the build folder $1 into a temporary prefix and runs the
# installed binary from another folder: it finds its data and worker under
# <prefix>/share/kmem (not in the source tree: no source path is compiled
# into it), renders the seed memory as the build's kmem does, checks replies,
# and still works once the whole prefix has moved elsewhere.
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cat "$build/kmem-source-dir")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
kmem="$work/prefix/bin/kmem"
[ -x "$kmem" ] || fail "no $kmem"
[ -f "$work/prefix/share/kmem/data/seed/memory-store.json" ] || fail "seed store not installed"
[ -f "$work/prefix/share/kmem/python/kmem_worker/__main__.py" ] || fail "worker not installed"
[ ! -e "$work/prefix/bin/kmem-source-dir" ] || fail "the build folder's marker was installed"
# No path of the source tree in the program's constant data.
if objcopy -O binary --only-section=.rodata "$kmem" "$work/rodata" && grep -qF "$source_dir" "$work/rodata"; then
  fail "$kmem holds the source path $source_dir"
fi

mkdir "$work/elsewhere" && cd "$work/elsewhere"
unset KMEM_DATA_DIR KMEM_PYTHON_DIR
"$kmem" --version | grep -Eq '^kmem [0-9]+\.[0-9]+\.[0-9]+' || fail "--version: $("$kmem" --version)"
"$kmem" render --all >installed.json
"$build/kmem" render --all >built.json
cmp -s installed.json built.json || fail "the installed kmem renders differently"
printf 'Here.\n```python\nimport gc\nclass ModelNew:\n    pass\n```\n' >reply.md
set +e
"$kmem" check reply.md >check.txt
code=$?
set -e
[ "$code" -eq 1 ] || fail "kmem check reply.md: exit $code"
grep -q '^reply.md:3:8: ' check.txt || fail "kmem check: $(cat check.txt)"

# The data it reads is the installed copy: removing it is noticed, naming it.
mv "$work/prefix" "$work/moved"
"$work/moved/bin/kmem" render --all | cmp -s - built.json || fail "a moved prefix renders differently"
rm "$work/moved/share/kmem/data/seed/prompt-pack.json"
if "$work/moved/bin/kmem" render --all >/dev/null 2>err.txt; then fail "rendered without its prompt pack"; fi
grep -qF "$work/moved/share/kmem/data/seed/prompt-pack.json" err.txt || fail "error does not name the file: $(cat err.txt)"
echo "install_test: ok"
