#!/usr/bin/env python3
"""Checks that no module reaches past another module's public API.

  check_includes.py ROOT    # exit 1 naming each include of another module's private header

Each folder src/<module>/ is one module. Its headers are private to it: other
modules, and the cross-module suites of tests/ and bench/, use it through
include/kmem/ (the public API). The one exception is src/util/, what every
module reads its inputs with; and a module's test fixtures (headers named
test_*.h), which another module's tests (*_test.cpp) may share, since a
test is no part of the module's API. An include is resolved the way the compiler does
for the project's include paths (the including file's folder, then src/, then
include/); one that lands in another module's folder is refused.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
SOURCE_SUFFIXES = {".h", ".hpp", ".c", ".cc", ".cpp", ".in"}
SHARED_MODULES = {"util"}


def source_files(folder):
    for path in sorted(folder.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and "testdata" not in path.parts:
            yield path


def module_files(root):
    """(module, file) for every C/C++ file of src/<module>/ (module None for
    tests/ and bench/, which belong to no module), test data left out."""
    for module in sorted(p for p in (root / "src").iterdir() if p.is_dir()):
        for path in source_files(module):
            yield module.name, path
    for suite in ("tests", "bench"):
        if (root / suite).is_dir():
            for path in source_files(root / suite):
                yield None, path


def resolve(root, including_file, name):
    """The file an include names, as the compiler finds it, or None."""
    for folder in (including_file.parent, root / "src", root / "include"):
        path = (folder / name).resolve()
        if path.is_file():
            return path
    return None


def violations(root):
    root = root.resolve()
    src = root / "src"
    problems = []
    for module, path in module_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = resolve(root, path, match.group(1))
            if target is None or src not in target.parents:
                continue
            owner = target.relative_to(src).parts[0]
            shared_fixture = path.stem.endswith("_test") and target.name.startswith("test_") and target.suffix == ".h"
            if owner != module and owner not in SHARED_MODULES and not shared_fixture:
                problems.append(
                    f"{path.relative_to(root)}:{number}: includes {target.relative_to(root)}, a private header "
                    f"of src/{owner}/ (make it public in include/kmem/, move it to src/util/, or drop the dependency)")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    if not (root / "src").is_dir():
        print(f"check_includes: {root}: no src/ folder", file=sys.stderr)
        return 2
    problems = violations(root)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
