"""The worker protocol as data (data/protocol/worker.json): every record's
example passes the checker, and records that break the file's declarations
are refused with the record and the field named; errors report out of
memory by the exception's type (failures.py)."""
import io
import json
import unittest

import torch

from kmem_worker import failures, protocol
from kmem_worker.channel import Channel

RULES = protocol.load()


class ExamplesTest(unittest.TestCase):
    def test_every_declared_record_has_an_example_that_passes(self):
        checked = 0
        for role in RULES.roles():
            for kind, check in (("commands", RULES.check_command), ("events", RULES.check_event)):
                for name, declared in RULES.records(role, kind).items():
                    with self.subTest(role=role, record=name):
                        example = declared["example"]
                        self.assertEqual(example.get("cmd" if kind == "commands" else "event"), name)
                        check(role, example)
                        checked += 1
        self.assertGreater(checked, 15)


class RefusalTest(unittest.TestCase):
    def example(self, role, kind, name):
        return json.loads(json.dumps(RULES.records(role, kind)[name]["example"]))

    def refused(self, role, record, pattern, kind="events"):
        check = RULES.check_event if kind == "events" else RULES.check_command
        with self.assertRaisesRegex(protocol.ProtocolError, pattern):
            check(role, record)

    def test_a_mistyped_field_is_named_with_its_record(self):
        ready = self.example("reference", "events", "ready")
        ready["reference_ms"] = "1.5"
        self.refused("reference", ready, r"reference event 'ready': field 'reference_ms': expected number, got str")

    def test_a_bool_is_no_int_and_an_int_is_a_number(self):
        verdict = self.example("reference", "events", "verdict")
        verdict["trials"] = True
        self.refused("reference", verdict, r"field 'trials': expected int, got bool")
        verdict["trials"], verdict["max_abs_error"] = 3, 1
        RULES.check_event("reference", verdict)

    def test_unknown_and_missing_fields_are_refused(self):
        ready = self.example("reference", "events", "ready")
        ready["surprise"] = 1
        self.refused("reference", ready, r"field 'surprise': not in the protocol")
        del ready["surprise"], ready["cached"]
        self.refused("reference", ready, r"field 'cached': missing")

    def test_nested_fields_enums_and_nulls(self):
        result = self.example("candidate", "events", "result")
        result["observations"]["timing_tally"]["calls"] = 1.5
        self.refused("candidate", result, r"field 'observations.timing_tally.calls': expected int")
        error = self.example("candidate", "events", "error")
        error["kind"] = "oom"
        self.refused("candidate", error, r"field 'kind': 'oom' is not one of")
        verdict = self.example("reference", "events", "verdict")
        verdict["roofline_ms"] = None
        RULES.check_event("reference", verdict)
        verdict["detail"] = None
        self.refused("reference", verdict, r"field 'detail': null, expected string")

    def test_records_of_another_role_or_direction_are_refused(self):
        self.refused("candidate", self.example("reference", "events", "ready"), r"candidate event 'ready': not in")
        self.refused("reference", {"cmd": "run"}, r"reference command 'run': not in", kind="commands")
        self.refused("reference", {"event": 3}, r"not a record")


class ChannelTest(unittest.TestCase):
    def test_the_channel_refuses_to_send_what_the_protocol_does_not_allow(self):
        events = io.StringIO()
        channel = Channel(io.StringIO(), events, "reference", RULES)
        channel.send("released")
        with self.assertRaisesRegex(protocol.ProtocolError, "reference event 'shared': field 'path': missing"):
            channel.send("shared")
        self.assertEqual(events.getvalue(), '{"event": "released"}\n')

    def test_the_channel_refuses_a_command_the_protocol_does_not_allow(self):
        channel = Channel(io.StringIO('{"cmd": "drop", "ref": "0"}\n'), io.StringIO(), "reference", RULES)
        with self.assertRaisesRegex(protocol.ProtocolError, "reference command 'drop': field 'ref': expected int"):
            channel.receive()


class ErrorKindTest(unittest.TestCase):
    def test_out_of_memory_by_type_not_by_message(self):
        self.assertEqual(failures.error_kind(torch.cuda.OutOfMemoryError("whatever it says")), "out_of_memory")
        self.assertEqual(failures.error_kind(MemoryError()), "out_of_memory")
        self.assertEqual(failures.error_kind(RuntimeError("OutOfMemoryError: CUDA out of memory")), "exception")

    def test_a_sticky_cuda_error_is_a_device_fault(self):
        self.assertEqual(failures.error_kind(RuntimeError("CUDA error: an illegal memory access")), "device_fault")
        self.assertEqual(failures.error_kind(ValueError("bad shape")), "exception")


if __name__ == "__main__":
    unittest.main()
