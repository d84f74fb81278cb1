#!/usr/bin/env python3
"""Checks that the manual's references lead somewhere.

  doc_links.py ROOT    # exit 1 naming each reference that leads nowhere

- In README.md and docs/*.md: every relative Markdown link `[text](path#anchor)`
  names an existing file, and every page named in code spans (`memory.md`,
  `docs/memory.md`) exists in docs/ or a folder under it.
- In the code (src/, include/, python/, tests/, scripts/, bench/): every
  `docs/<page>.md` a comment or message cites exists, so the contracts the code
  relies on are in the repository.
"""
import pathlib
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGE_IN_CODE_SPAN = re.compile(r"`(?:docs/)?([A-Za-z0-9_-]+\.md)`")
CITED_PAGE = re.compile(r"\bdocs/([A-Za-z0-9_-]+\.md)\b")
CODE_FOLDERS = ["src", "include", "python", "tests", "scripts", "bench"]
CODE_SUFFIXES = {".cpp", ".h", ".c", ".py", ".sh", ".txt", ".cmake", ".md", ".json"}


def page_problems(root, page, pages):
    problems = []
    text = page.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{page.relative_to(root)}:{number}"
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists():
                problems.append(f"{where}: the link '{target}' leads nowhere")
        for name in PAGE_IN_CODE_SPAN.findall(line):
            if name not in pages:
                problems.append(f"{where}: names the page '{name}', which docs/ does not have")
    return problems


def code_problems(root):
    problems = []
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in CODE_SUFFIXES or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                for name in CITED_PAGE.findall(line):
                    if not (root / "docs" / name).exists():
                        problems.append(f"{path.relative_to(root)}:{number}: cites docs/{name}, which does not exist")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = pathlib.Path(sys.argv[1]).resolve()
    problems = []
    pages = {path.name for path in (root / "docs").rglob("*.md")}
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        problems += page_problems(root, page, pages)
    problems += code_problems(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
