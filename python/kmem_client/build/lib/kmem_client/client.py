"""The client: one method per route of `kmem serve` (docs/serve.md), over
urllib. Evaluations and episodes are jobs: `submit_*` returns a Job (a
future: .result(timeout)), `evaluate` and `episode` wait for the outcome."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

from .types import CheckResult, Episode, EvalOutcome, ItemSummary, JobStatus, KmemError, Reader, Rendered

# The longest wait one status request asks the server for (it may allow less).
_WAIT_STEP_S = 25.0


class Client:
    """A connection to `kmem serve` at `url` with a bearer `token` (None for a
    server started with --insecure-local). `timeout` is per HTTP request."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 60.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # ---- HTTP -------------------------------------------------------------

    def request(self, method: str, path: str, query: Optional[Dict[str, Any]] = None,
                body: Optional[Dict[str, Any]] = None, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Sends one request and returns the JSON answer; raises KmemError."""
        url = self.url + urllib.parse.quote(path)
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        headers = {"Accept": "application/json"}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            raise KmemError(e.code, _error_message(e)) from None
        except (urllib.error.URLError, OSError) as e:
            raise KmemError(0, f"{self.url}: {getattr(e, 'reason', e)}") from None

    # ---- The memory ----------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        return self.request("GET", "/v1/health")

    def render(self, problem: str, reader: str, policy: str) -> Rendered:
        """The memory text `reader` sees for `problem` (an id, or a file inside
        the server's KernelBench folder) under `policy`, with the item ids."""
        return Rendered.from_json(self.request("GET", "/v1/render",
                                               {"problem": problem, "reader": reader, "policy": policy}))

    def check(self, text: str, kind: str = "reply") -> CheckResult:
        """The static checker on a reply (kind "reply") or bare Python source ("python")."""
        return CheckResult.from_json(self.request("POST", "/v1/check", body={"text": text, "kind": kind}))

    def items(self, state: Optional[str] = None, kind: Optional[str] = None) -> List[ItemSummary]:
        j = self.request("GET", "/v1/items", {"state": state, "kind": kind})
        return [ItemSummary.from_json(i) for i in j["items"]]

    def item(self, item_id: str) -> Dict[str, Any]:
        """One item whole, as the store format writes it."""
        return self.request("GET", f"/v1/items/{item_id}")

    def promote(self, item_id: str, reason: str) -> None:
        self.request("POST", f"/v1/items/{item_id}/promote", body={"reason": reason})

    def retire(self, item_id: str, reason: str) -> None:
        self.request("POST", f"/v1/items/{item_id}/retire", body={"reason": reason})

    def readers(self) -> List[Reader]:
        return [Reader.from_json(r) for r in self.request("GET", "/v1/readers")["readers"]]

    # ---- Experiments -----------------------------------------------------------

    def experiments(self) -> List[str]:
        return list(self.request("GET", "/v1/experiments")["experiments"])

    def experiment(self, name: str) -> Dict[str, Any]:
        return self.request("GET", f"/v1/experiments/{name}")

    def report(self, name: str, p: Optional[float] = None, resamples: Optional[int] = None,
               seed: Optional[int] = None) -> Dict[str, Any]:
        """The report as `kmem experiment report --json` prints it."""
        return self.request("GET", f"/v1/experiments/{name}/report", {"p": p, "resamples": resamples, "seed": seed})

    # ---- Jobs -------------------------------------------------------------------

    def submit_evaluation(self, problem: str, candidate: str, candidate_kind: str = "python",
                          id: Optional[str] = None) -> "Job":
        body: Dict[str, Any] = {"problem": problem, "candidate": candidate, "candidate_kind": candidate_kind}
        if id is not None:
            body["id"] = id
        return Job(self, self.request("POST", "/v1/evaluations", body=body)["job"], "evaluation")

    def evaluate(self, problem: str, candidate: str, candidate_kind: str = "python", id: Optional[str] = None,
                 timeout: Optional[float] = None) -> EvalOutcome:
        """Evaluates `candidate` (Python source, or a reply with candidate_kind
        "reply") against `problem` and waits for the outcome."""
        result = self.submit_evaluation(problem, candidate, candidate_kind, id).result(timeout)
        assert isinstance(result, EvalOutcome)
        return result

    def submit_episode(self, problem: str, reader: str, policy: str, base_url: str, model: str,
                       max_turns: int = 5, **endpoint: Any) -> "Job":
        """Starts one episode against `base_url` (one the server allows);
        `endpoint` may add temperature, max_tokens and seed."""
        body = {"problem": problem, "reader": reader, "policy": policy, "max_turns": max_turns,
                "endpoint": {"base_url": base_url, "model": model, **endpoint}}
        return Job(self, self.request("POST", "/v1/episodes", body=body)["job"], "episode")

    def episode(self, problem: str, reader: str, policy: str, base_url: str, model: str, max_turns: int = 5,
                timeout: Optional[float] = None, **endpoint: Any) -> Episode:
        result = self.submit_episode(problem, reader, policy, base_url, model, max_turns, **endpoint).result(timeout)
        assert isinstance(result, Episode)
        return result

    def job_status(self, kind: str, job_id: str, wait: float = 0) -> JobStatus:
        query = {"wait": f"{wait:g}"} if wait > 0 else None
        timeout = max(self.timeout, wait + 10)
        return JobStatus.from_json(self.request("GET", f"/v1/{kind}s/{job_id}", query, timeout=timeout))


class Job:
    """A submitted evaluation or episode: a future of its outcome."""

    def __init__(self, client: Client, job_id: str, kind: str) -> None:
        self.client, self.id, self.kind = client, job_id, kind

    def status(self) -> JobStatus:
        return self.client.job_status(self.kind, self.id)

    def done(self) -> bool:
        return self.status().finished

    def result(self, timeout: Optional[float] = None) -> EvalOutcome | Episode:
        """Waits for the outcome (at most `timeout` seconds: then TimeoutError);
        a failed job raises KmemError with its error."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = _WAIT_STEP_S if deadline is None else min(_WAIT_STEP_S, deadline - time.monotonic())
            status = self.client.job_status(self.kind, self.id, wait=max(left, 0))
            if status.state == "done":
                assert status.outcome is not None
                return (EvalOutcome.from_json(status.outcome) if self.kind == "evaluation"
                        else Episode.from_json(status.outcome))
            if status.state == "failed":
                raise KmemError(500, f"{self.kind} {self.id} failed: {status.error}")
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"{self.kind} {self.id} is still {status.state} after {timeout} s")


def _error_message(e: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(e.read().decode("utf-8"))["error"]["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return e.reason if isinstance(e.reason, str) else f"HTTP {e.code}"
