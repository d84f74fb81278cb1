#!/usr/bin/env python3
"""Keeps docs/cli.md true to the programs: each command's `--help` output.

docs/cli.md holds, for every command of `kmem` (subcommands of subcommands
included) and of `kmem-scripted-endpoint`, the command's `--help` output
between two markers:

    <!-- kmem-help: kmem problems import -->
    ```text
    ...what `kmem problems import --help` prints...
    ```
    <!-- /kmem-help -->

  cli_doc.py --check docs/cli.md build/kmem build/kmem-scripted-endpoint   # exit 1, say what differs
  cli_doc.py --write docs/cli.md build/kmem build/kmem-scripted-endpoint   # refresh every block

--check fails when a block differs from the program's help, when a command has
no block, or when a block names a command the program no longer has. --write
refreshes the blocks and appends a section for each command that has none;
a block of a command that is gone is left for a person to remove (--check keeps
failing until then). Each program runs with argv[0] its file name, so the
usage lines read as they do for a user with it on the PATH.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

# A block; an empty one (the two markers alone) is filled by --write.
BLOCK = re.compile(r"<!-- kmem-help: (?P<command>kmem[a-z0-9 -]*?) -->\n(?:```text\n(?P<help>.*?)```\n)?<!-- /kmem-help -->",
                   re.DOTALL)


def help_text(program, command):
    """What `COMMAND --help` prints (stdout; COMMAND is "kmem ..."), as a user with it on the PATH sees it."""
    args = [*command.split(), "--help"]
    run = subprocess.run(args, executable=program, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"cli_doc.py: `{' '.join(args)}` exited {run.returncode}: {run.stderr.strip()}")
    return run.stdout.rstrip("\n") + "\n"


def subcommands(text):
    """The names under the "Subcommands:" heading of a help text."""
    names, inside = [], False
    for line in text.splitlines():
        if line == "Subcommands:":
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            names.append(line.split()[0])
        elif inside:
            inside = False
    return names


def command_tree(program, command):
    """{command: help text} for `command` and every subcommand below it, in help order."""
    text = help_text(program, command)
    tree = {command: text}
    for name in subcommands(text):
        tree.update(command_tree(program, f"{command} {name}"))
    return tree


def block(command, text):
    return f"<!-- kmem-help: {command} -->\n```text\n{text}```\n<!-- /kmem-help -->"


def check(doc, tree, path):
    problems = []
    documented = {}
    for match in BLOCK.finditer(doc):
        documented[match["command"]] = match["help"] or ""
    for command, text in tree.items():
        if command not in documented:
            problems.append(f"{path}: no `{command} --help` block (run scripts/cli_doc.py --write)")
        elif documented[command] != text:
            diff = difflib.unified_diff(documented[command].splitlines(), text.splitlines(),
                                        f"{path} ({command})", f"{command} --help", lineterm="")
            problems.append("\n".join(diff))
    for command in documented:
        if command not in tree:
            problems.append(f"{path}: documents `{command}`, which the program does not have")
    return problems


def write(doc, tree):
    documented = {m["command"] for m in BLOCK.finditer(doc)}
    doc = BLOCK.sub(lambda m: block(m["command"], tree[m["command"]]) if m["command"] in tree else m[0], doc)
    for command, text in tree.items():
        if command not in documented:
            summary = text.splitlines()[0]
            doc = doc.rstrip("\n") + f"\n\n## `{command}`\n\n{summary}.\n\n{block(command, text)}\n"
    return doc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="fail when the page and the program disagree")
    mode.add_argument("--write", action="store_true", help="refresh the page's help blocks")
    parser.add_argument("doc", help="the page, docs/cli.md")
    parser.add_argument("programs", nargs="+", help="the programs to ask: build/kmem, build/kmem-scripted-endpoint")
    args = parser.parse_args()

    tree = {}
    for program in args.programs:
        tree.update(command_tree(program, os.path.basename(program)))
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()
    if args.write:
        doc = write(doc, tree)
        with open(args.doc, "w", encoding="utf-8") as f:
            f.write(doc)
    problems = check(doc, tree, args.doc)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems and args.check:
        print(f"{args.doc} disagrees with the programs' --help: run scripts/cli_doc.py --write {args.doc} "
              + " ".join(args.programs), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
