"""Tests of scripts/check_includes.py on small trees written for each case."""
import importlib.util
import pathlib
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check_includes.py"
spec = importlib.util.spec_from_file_location("check_includes", SCRIPT)
check_includes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_includes)


class CheckIncludesTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.folder.name)
        for path in ["src/store/item_kind.h", "src/util/file.h", "include/kmem/store.h", "src/cli/commands.h"]:
            self.write(path, "#pragma once\n")

    def tearDown(self):
        self.folder.cleanup()

    def write(self, path, text):
        path = self.root / path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def test_public_util_and_own_headers_pass(self):
        self.write("src/cli/items.cpp",
                   '#include "kmem/store.h"\n#include "util/file.h"\n#include "commands.h"\n#include "cli/commands.h"\n'
                   "#include <vector>\n")
        self.assertEqual(check_includes.violations(self.root), [])

    def test_another_modules_header_is_named_with_its_line(self):
        self.write("src/cli/items.cpp", '#include "kmem/store.h"\n#include "store/item_kind.h"\n')
        problems = check_includes.violations(self.root)
        self.assertEqual(len(problems), 1)
        self.assertIn("src/cli/items.cpp:2: includes src/store/item_kind.h", problems[0])
        self.assertIn("src/store/", problems[0])

    def test_relative_paths_and_angle_brackets_are_resolved(self):
        self.write("src/cli/a.cpp", '#include "../store/item_kind.h"\n')
        self.write("src/cli/b.h", "#  include <store/item_kind.h>\n")
        problems = check_includes.violations(self.root)
        self.assertEqual([p.split(":")[0] for p in problems], ["src/cli/a.cpp", "src/cli/b.h"])

    def test_suites_outside_src_use_only_the_public_api(self):
        self.write("tests/eval/fixture.h", "#pragma once\n")
        self.write("tests/eval/eval_test.cpp", '#include "fixture.h"\n#include "util/file.h"\n')
        self.assertEqual(check_includes.violations(self.root), [])
        self.write("bench/bench.cpp", '#include "store/item_kind.h"\n')
        self.assertEqual(len(check_includes.violations(self.root)), 1)

    def test_a_modules_test_fixture_is_shared_with_other_modules_tests_only(self):
        self.write("src/store/test_database.h", "#pragma once\n")
        self.write("src/cli/worker_command_test.cpp", '#include "store/test_database.h"\n')
        self.assertEqual(check_includes.violations(self.root), [])
        self.write("src/cli/worker.cpp", '#include "store/test_database.h"\n')
        self.assertEqual([p.split(":")[0] for p in check_includes.violations(self.root)], ["src/cli/worker.cpp"])

    def test_test_data_is_not_code(self):
        self.write("src/check/testdata/evasion.cpp", '#include "../../store/item_kind.h"\n')
        self.assertEqual(check_includes.violations(self.root), [])

    def test_a_folder_without_src_is_a_usage_error(self):
        self.assertEqual(check_includes.main(["check_includes.py", str(self.root / "nowhere")]), 2)


if __name__ == "__main__":
    unittest.main()
