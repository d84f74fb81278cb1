"""The worker protocol, written once as data (data/protocol/worker.json) and
checked here on the worker's side: every command a worker receives and every
event it sends must be a record the file declares for its role, with every
field declared, of its declared type, and every required field present. The
orchestrator checks the same file (src/eval/protocol.cpp), and binds its
folder into the candidates' sandbox (src/eval/sandbox.cpp)."""
import json
import os

PATH = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "protocol",
                                    "worker.json"))
FORMAT = "kmem-worker-protocol/1"

# The JSON types of the file and the Python values they take (bool is no int here).
_SCALARS = {
    "string": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
}
_KEYS = {"commands": "cmd", "events": "event"}


class ProtocolError(ValueError):
    """A record the protocol does not allow; the message names the record and the field."""


class Protocol:
    def __init__(self, spec):
        if spec.get("format") != FORMAT:
            raise ProtocolError(f"protocol file: format {spec.get('format')!r}, expected {FORMAT!r}")
        self._types = spec["types"]
        self._records = {}  # (role, "commands" | "events") -> {name: record}
        common = spec["every_role"]
        for role, declared in spec["roles"].items():
            for kind in _KEYS:
                self._records[role, kind] = {**common[kind], **declared[kind]}

    def roles(self):
        return sorted({role for role, _ in self._records})

    def records(self, role, kind):
        """{name: declaration} of `role`'s commands or events."""
        return self._records[role, kind]

    def check_command(self, role, record):
        self._check(role, "commands", record)

    def check_event(self, role, record):
        self._check(role, "events", record)

    def _check(self, role, kind, record):
        key = _KEYS[kind]
        what = f"{role} {kind[:-1]}"
        if not isinstance(record, dict) or not isinstance(record.get(key), str):
            raise ProtocolError(f"{what}: not a record with a {key!r}: {record!r}")
        name = record[key]
        declared = self._records[role, kind].get(name)
        if declared is None:
            raise ProtocolError(f"{what} {name!r}: not in the protocol")
        fields = {k: v for k, v in record.items() if k != key}
        self._object(f"{what} {name!r}", "", {"type": "object", "fields": declared["fields"]}, fields)

    def _resolve(self, field):
        named = self._types.get(field["type"])
        return {**named, **{k: v for k, v in field.items() if k != "type"}} if named else field

    def _value(self, where, path, field, value):
        field = self._resolve(field)
        kind = field["type"]
        if value is None:
            if not field.get("nullable"):
                raise ProtocolError(f"{where}: field {path!r}: null, expected {kind}")
            return
        if kind == "any":
            return
        if kind == "object":
            if not isinstance(value, dict):
                raise ProtocolError(f"{where}: field {path!r}: expected object, got {type(value).__name__}")
            self._object(where, path, field, value)
        elif kind == "array":
            if not isinstance(value, list):
                raise ProtocolError(f"{where}: field {path!r}: expected array, got {type(value).__name__}")
            for i, item in enumerate(value):
                self._value(where, f"{path}[{i}]", field["items"], item)
        elif not _SCALARS[kind](value):
            raise ProtocolError(f"{where}: field {path!r}: expected {kind}, got {type(value).__name__}")
        elif "enum" in field and value not in field["enum"]:
            raise ProtocolError(f"{where}: field {path!r}: {value!r} is not one of {field['enum']}")

    def _object(self, where, path, field, value):
        prefix = f"{path}." if path else ""
        if "values" in field:
            for key, item in value.items():
                self._value(where, prefix + key, field["values"], item)
            return
        declared = field["fields"]
        for key, item in value.items():
            if key not in declared:
                raise ProtocolError(f"{where}: field {prefix + key!r}: not in the protocol")
            self._value(where, prefix + key, declared[key], item)
        for key, sub in declared.items():
            if key not in value and not self._resolve(sub).get("optional"):
                raise ProtocolError(f"{where}: field {prefix + key!r}: missing")


def load(path=PATH):
    with open(path, encoding="utf-8") as file:
        return Protocol(json.load(file))
