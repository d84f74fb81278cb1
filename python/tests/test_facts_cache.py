"""The facts cache remembers this machine's fastest probe of the host's
speed: the fastest stored wins, for a day; other machines' entries, a
damaged file and implausible values do not get in the way. A reference time
measured on an unsteady host reads as unknown, and does not overwrite a
steady one another batch stored meanwhile; processes writing at once lose
nothing; a folder that cannot be written costs the cache only."""
import json
import multiprocessing
import os
import platform
import tempfile
import unittest

from kmem_worker import facts_cache

DAY = facts_cache.HOST_PROBE_KEPT_S


class HostProbeMemoryTest(unittest.TestCase):
    def setUp(self):
        self._folder = tempfile.TemporaryDirectory()
        self.folder = self._folder.name

    def tearDown(self):
        self._folder.cleanup()

    def test_the_fastest_probe_is_kept(self):
        self.assertIsNone(facts_cache.remembered_host_probe(self.folder))
        facts_cache.remember_host_probe(self.folder, 0.4, now=1000)
        facts_cache.remember_host_probe(self.folder, 0.3, now=1001)
        facts_cache.remember_host_probe(self.folder, 0.5, now=1002)
        self.assertEqual(facts_cache.remembered_host_probe(self.folder, now=1003), 0.3)

    def test_a_probe_older_than_a_day_is_forgotten_and_replaced(self):
        facts_cache.remember_host_probe(self.folder, 0.3, now=1000)
        self.assertIsNone(facts_cache.remembered_host_probe(self.folder, now=1000 + DAY))
        facts_cache.remember_host_probe(self.folder, 0.5, now=1000 + DAY)
        self.assertEqual(facts_cache.remembered_host_probe(self.folder, now=1001 + DAY), 0.5)

    def test_other_machines_entries_are_kept_apart_and_a_damaged_file_is_replaced(self):
        path = os.path.join(self.folder, facts_cache.HOST_PROBE_FILE)
        with open(path, "w") as damaged:
            damaged.write("{not json")
        self.assertIsNone(facts_cache.remembered_host_probe(self.folder))
        facts_cache.remember_host_probe(self.folder, 0.4, now=1000)
        with open(path) as stored:
            entries = json.load(stored)
        entries["another-machine"] = {"ms": 0.1, "at": 1000}
        with open(path, "w") as stored:
            json.dump(entries, stored)
        self.assertEqual(facts_cache.remembered_host_probe(self.folder, now=1001), 0.4)
        facts_cache.remember_host_probe(self.folder, 0.3, now=1002)
        with open(path) as stored:
            entries = json.load(stored)
        self.assertEqual(entries["another-machine"], {"ms": 0.1, "at": 1000})
        self.assertEqual(entries[platform.node()]["ms"], 0.3)

    def test_processes_storing_probes_at_once_keep_the_fastest(self):
        values = [0.3 + 0.001 * i for i in range(80)]
        with multiprocessing.get_context("fork").Pool(8) as pool:
            pool.starmap(facts_cache.remember_host_probe, [(self.folder, ms, 1000) for ms in reversed(values)])
        self.assertEqual(facts_cache.remembered_host_probe(self.folder, now=1001), min(values))

    def test_implausible_probes_are_neither_stored_nor_believed(self):
        facts_cache.remember_host_probe(self.folder, facts_cache.HOST_PROBE_FLOOR_MS / 2, now=1000)
        self.assertIsNone(facts_cache.remembered_host_probe(self.folder, now=1001))
        facts_cache.remember_host_probe(self.folder, 0.3, now=5000)
        self.assertIsNone(facts_cache.remembered_host_probe(self.folder, now=1000), "stored in the future")


class ReferenceFactsTest(unittest.TestCase):
    def test_an_unsteady_time_is_stored_but_read_as_unknown(self):
        with tempfile.TemporaryDirectory() as folder:
            cache = facts_cache.FactsCache(folder, "k")
            self.assertEqual(cache.read(), {})
            cache.write({"reference_ms": 2.0, "roofline_ms": None, "steady": False})
            self.assertEqual(cache.read(), {})
            cache.write({"reference_ms": 2.5, "roofline_ms": None, "steady": True})
            self.assertEqual(cache.read(), {"reference_ms": 2.5})

    def test_the_roofline_floor_of_an_unsteady_time_is_reused(self):
        with tempfile.TemporaryDirectory() as folder:
            cache = facts_cache.FactsCache(folder, "k")
            cache.write({"reference_ms": 2.0, "roofline_ms": 0.25, "steady": False})
            self.assertEqual(cache.read(), {"roofline_ms": 0.25})

    def test_a_steady_time_and_a_floor_stored_meanwhile_are_kept(self):
        with tempfile.TemporaryDirectory() as folder:
            cache = facts_cache.FactsCache(folder, "k")
            cache.write({"reference_ms": 2.5, "roofline_ms": 0.25, "steady": True})
            cache.write({"reference_ms": 4.0, "roofline_ms": None, "steady": False})
            self.assertEqual(cache.read(), {"reference_ms": 2.5, "roofline_ms": 0.25})
            cache.write({"reference_ms": 2.4, "roofline_ms": None, "steady": True})
            self.assertEqual(cache.read(), {"reference_ms": 2.4, "roofline_ms": 0.25})

    def test_the_compile_baseline_or_its_failure_is_kept_with_the_reference_time(self):
        with tempfile.TemporaryDirectory() as folder:
            cache = facts_cache.FactsCache(folder, "k")
            cache.write({"reference_ms": 2.5, "roofline_ms": None, "steady": True,
                         "compile_ms": None, "compile_failure": "RuntimeError: no compiler"})
            self.assertEqual(cache.read(), {"reference_ms": 2.5, "compile_failure": "RuntimeError: no compiler"})
            cache.write({"reference_ms": 2.4, "roofline_ms": None, "steady": True})  # baseline off this time
            self.assertEqual(cache.read(), {"reference_ms": 2.4, "compile_failure": "RuntimeError: no compiler"})
            cache.write({"reference_ms": 2.4, "roofline_ms": None, "steady": True, "compile_ms": 1.2,
                         "compile_failure": None})
            self.assertEqual(cache.read(), {"reference_ms": 2.4, "compile_ms": 1.2})

    def test_a_measurement_asked_for_afresh_replaces_the_entry(self):
        with tempfile.TemporaryDirectory() as folder:
            cache = facts_cache.FactsCache(folder, "k")
            cache.write({"reference_ms": 2.5, "roofline_ms": 0.25, "steady": True})
            cache.write({"reference_ms": 4.0, "roofline_ms": None, "steady": False}, replace=True)
            self.assertEqual(cache.read(), {})

    def test_a_folder_that_cannot_be_written_costs_the_cache_only(self):
        with tempfile.TemporaryDirectory() as folder:
            blocked = os.path.join(folder, "file")
            open(blocked, "w").close()  # a file where the folder should be
            facts_cache.FactsCache(blocked, "k").write({"reference_ms": 1.0})
            facts_cache.remember_host_probe(blocked, 0.3)
            self.assertIsNone(facts_cache.remembered_host_probe(blocked))

if __name__ == "__main__":
    unittest.main()
