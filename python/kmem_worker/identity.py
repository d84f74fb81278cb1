"""The evaluator's identity, recorded as the provenance of what it verified
(docs/learning.md, "Provenance"): a hash of the worker's own code with the
torch, Triton and CUDA versions, and the GPU model (or "cpu"). Prints one
JSON line, {"format": "kmem-evaluator-identity/1", "version", "gpu",
"torch", "triton", "cuda"}; `python -m kmem_worker.identity [cpu|cuda]`."""
import hashlib
import json
import os
import sys

import torch

FORMAT = "kmem-evaluator-identity/1"


def worker_code_hash():
    """sha256 over the worker package's sources, by file name."""
    folder = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        if name.endswith((".py", ".c")):
            digest.update(name.encode() + b"\0")
            with open(os.path.join(folder, name), "rb") as f:
                digest.update(f.read() + b"\0")
    return digest.hexdigest()


def triton_version():
    try:
        import triton
    except ImportError:
        return "none"
    return triton.__version__


def identity(device):
    versions = {"torch": torch.__version__, "triton": triton_version(), "cuda": str(torch.version.cuda)}
    digest = hashlib.sha256(worker_code_hash().encode())
    for key in ("torch", "triton", "cuda"):
        digest.update(("\0%s=%s" % (key, versions[key])).encode())
    gpu = torch.cuda.get_device_name() if device == "cuda" and torch.cuda.is_available() else "cpu"
    return {"format": FORMAT, "version": "sha256:" + digest.hexdigest()[:16], "gpu": gpu, **versions}


if __name__ == "__main__":
    print(json.dumps(identity(sys.argv[1] if len(sys.argv) > 1 else "cpu")))
