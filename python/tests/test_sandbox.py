"""The candidate sandbox's worker side (kmem_worker/sandbox.py) that can be
checked without confining this process: when it applies, which build cache
a candidate gets, that a malformed filter is refused before anything is
installed, and what the minimal root is told to show of this machine
(kmem_worker/sandbox_root.py). The confinement itself is tested end to end
by tests/eval/sandbox_test.cpp."""
import hashlib
import importlib.util
import io
import json
import os
import site
import sys
import tempfile
import unittest
from unittest import mock

from kmem_worker import sandbox, sandbox_root


class SandboxTest(unittest.TestCase):
    def test_applies_only_inside_the_sandbox(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertFalse(sandbox.enabled())
        with mock.patch.dict(os.environ, {"KMEM_SANDBOX_RUN_DIR": "/x"}):
            self.assertTrue(sandbox.enabled())

    def test_the_build_cache_is_named_by_the_source_text(self):
        with tempfile.NamedTemporaryFile("wb", suffix=".py") as source:
            source.write(b"print('kernel')\n")
            source.flush()
            self.assertEqual(sandbox.build_key(source.name),
                             hashlib.sha256(b"print('kernel')\n").hexdigest()[:32])

    def test_a_malformed_filter_is_refused_before_anything_is_installed(self):
        for program in (None, b"", b"1234567"):
            with self.assertRaises(OSError):
                sandbox._install(program)



class SandboxRootTest(unittest.TestCase):
    def test_the_interpreter_and_its_packages_are_listed_as_absolute_paths(self):
        paths = sandbox_root.root_paths()
        self.assertTrue(all(os.path.isabs(p) and os.path.exists(p) for p in paths), paths)
        self.assertEqual(len(paths), len(set(paths)))
        self.assertIn(os.path.normpath(sys.prefix), paths)
        self.assertIn(os.path.realpath(sys.executable), paths)
        stdlib = os.path.dirname(os.__file__)
        self.assertTrue(any(stdlib == p or stdlib.startswith(p + os.sep) for p in paths), stdlib)

    def test_folders_that_pythonpath_adds_are_not_listed(self):
        with tempfile.TemporaryDirectory() as project:
            with mock.patch.object(sys, "path", [project] + sys.path):
                self.assertNotIn(project, sandbox_root.root_paths())

    def test_cuda_home_is_found_as_torch_finds_it(self):
        with tempfile.TemporaryDirectory() as home:
            with mock.patch.dict(os.environ, {"CUDA_HOME": home}):
                self.assertEqual(sandbox_root.cuda_home(), home)
                self.assertIn(home, sandbox_root.root_paths())
            with mock.patch.dict(os.environ, {"CUDA_HOME": os.path.join(home, "missing")}):
                self.assertIsNone(sandbox_root.cuda_home())

    def test_the_compilers_that_cc_and_cxx_name_are_bound_with_their_toolchain(self):
        # A machine whose $CC and $CXX name a toolchain off $PATH: Triton's
        # launcher build and the native harness's key use them in the sandbox.
        with tempfile.TemporaryDirectory() as toolchain:
            os.makedirs(os.path.join(toolchain, "bin"))
            for name in ("gcc", "g++", "ccache"):
                program = os.path.join(toolchain, "bin", name)
                with open(program, "w") as script:
                    script.write("#!/bin/sh\n")
                os.chmod(program, 0o755)
            bin_folder = os.path.join(toolchain, "bin")
            named = {"CC": os.path.join(bin_folder, "gcc"), "CXX": f"{bin_folder}/ccache '{bin_folder}/g++' -O2"}
            with mock.patch.dict(os.environ, named):
                paths = sandbox_root.root_paths()
            for name in ("gcc", "g++", "ccache"):
                self.assertIn(os.path.join(bin_folder, name), paths)
            self.assertIn(toolchain, paths)
            self.assertNotIn("-O2", paths)
            with mock.patch.dict(os.environ, {"CXX": "'unbalanced"}):
                self.assertNotIn(toolchain, sandbox_root.root_paths())

    def test_the_answer_is_one_json_object(self):
        out = io.StringIO()
        with mock.patch.object(sys, "stdout", out):
            sandbox_root.main()
        answer = json.loads(out.getvalue())
        self.assertEqual(set(answer), {"python", "paths", "environment"})
        self.assertTrue(os.path.isabs(answer["python"]))
        self.assertTrue(all(isinstance(v, str) for v in answer["environment"].values()))

    def test_a_virtual_environment_is_run_through_its_own_link(self):
        # The real path of a venv's python is the base interpreter, which
        # would start without the venv's packages.
        with tempfile.TemporaryDirectory() as venv:
            link = os.path.join(venv, "bin", "python3")
            os.makedirs(os.path.dirname(link))
            os.symlink(os.path.realpath(sys.executable), link)
            out = io.StringIO()
            with mock.patch.object(sys, "executable", link), mock.patch.object(sys, "stdout", out):
                sandbox_root.main()
            answer = json.loads(out.getvalue())
            self.assertEqual(answer["python"], link)
            self.assertIn(link, answer["paths"])
            self.assertIn(os.path.realpath(sys.executable), answer["paths"])

    def test_the_users_site_folder_comes_with_its_base(self):
        with tempfile.TemporaryDirectory() as base:
            user_site = os.path.join(base, "lib", "site-packages")
            os.makedirs(user_site)
            with mock.patch.object(site, "ENABLE_USER_SITE", True), \
                 mock.patch.object(site, "getusersitepackages", return_value=user_site), \
                 mock.patch.object(site, "getuserbase", return_value=base), \
                 mock.patch.object(sys, "path", sys.path + [user_site]):
                self.assertEqual(sandbox_root._user_site_environment(), {"PYTHONUSERBASE": base})
                self.assertIn(user_site, sandbox_root.root_paths())
            with mock.patch.object(site, "ENABLE_USER_SITE", False):
                self.assertEqual(sandbox_root._user_site_environment(), {})

    def test_the_folder_holding_torch_is_bound_for_its_dependencies(self):
        spec = importlib.util.find_spec("torch")
        if spec is None:
            self.skipTest("no torch")
        holder = os.path.dirname(os.path.abspath(spec.submodule_search_locations[0]))
        self.assertIn(os.path.normpath(holder), sandbox_root.root_paths())


if __name__ == "__main__":
    unittest.main()
