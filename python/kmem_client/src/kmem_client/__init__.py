"""The Python client of `kmem serve` (docs/client.md).

    from kmem_client import Client
    kmem = Client("http://127.0.0.1:8420", token="...")
    text = kmem.render("L2_006", reader="my-model", policy="show_all").text
    outcome = kmem.evaluate("level1/19_ReLU.py", candidate_source)
"""
from .client import Client, Job
from .types import (CheckResult, Episode, EvalOutcome, ItemSummary, JobStatus, KmemError, Reader, Rendered,
                    Verdict)

__all__ = ["Client", "Job", "CheckResult", "Episode", "EvalOutcome", "ItemSummary", "JobStatus", "KmemError",
           "Reader", "Rendered", "Verdict"]
