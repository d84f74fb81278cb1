"""The values the client returns, typed, each built from the JSON of one
response (the schemas of docs/openapi.json); `raw` keeps the whole object."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


class KmemError(Exception):
    """A request the server refused or could not answer: the HTTP status (0
    when no answer came) and the server's one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}" if status else message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Rendered:
    problem: str
    reader: str
    policy: str
    text: str
    items: List[str]

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "Rendered":
        return Rendered(j["problem"], j["reader"], j["policy"], j["text"], list(j["items"]))


@dataclass(frozen=True)
class Verdict:
    code: str
    message: str
    line: int
    column: int


@dataclass(frozen=True)
class CheckResult:
    kind: str
    passed: bool
    verdicts: List[Verdict]
    action: Optional[str]  # CHECK, SUBMIT or none (replies only)

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "CheckResult":
        verdicts = [Verdict(v["code"], v["message"], v["line"], v["column"]) for v in j["verdicts"]]
        return CheckResult(j["kind"], j["passed"], verdicts, j.get("action"))


@dataclass(frozen=True)
class EvalOutcome:
    """One outcome exactly as `kmem eval --json` prints it (raw), with its main fields."""
    id: str
    verdict: str
    passed: bool
    message: str
    detail: str
    speedup: float
    score: float
    flags: List[str]
    reference_ms: Optional[float]
    candidate_ms: Optional[float]
    raw: Dict[str, Any] = field(repr=False)

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "EvalOutcome":
        return EvalOutcome(j["id"], j["verdict"], j["passed"], j["message"], j["detail"], j["speedup"], j["score"],
                           list(j["flags"]), j["reference_ms"], j["candidate_ms"], j)


@dataclass(frozen=True)
class Episode:
    """One episode as `kmem episode --json` prints it (raw), with its main fields."""
    id: str
    end: str
    score: float
    turns: int
    raw: Dict[str, Any] = field(repr=False)

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "Episode":
        return Episode(j["id"], j["end"], j["score"], len(j["turns"]), j)


@dataclass(frozen=True)
class JobStatus:
    job: str
    kind: str  # evaluation or episode
    state: str  # queued, running, done or failed
    outcome: Optional[Dict[str, Any]]
    error: Optional[str]

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "JobStatus":
        return JobStatus(j["job"], j["kind"], j["state"], j.get("outcome"), j.get("error"))


@dataclass(frozen=True)
class ItemSummary:
    id: str
    kind: str
    state: str
    category: str
    labels: List[str]
    source: Optional[str]
    speedup: Optional[float]
    text: Optional[str]

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "ItemSummary":
        return ItemSummary(j["id"], j["kind"], j["state"], j["category"], list(j["labels"]), j.get("source"),
                           j.get("speedup"), j.get("text"))


@dataclass(frozen=True)
class Reader:
    id: str
    display: str
    author: bool
    problems: int
    groups: int

    @staticmethod
    def from_json(j: Dict[str, Any]) -> "Reader":
        return Reader(j["id"], j["display"], j["author"], j["problems"], j["groups"])
