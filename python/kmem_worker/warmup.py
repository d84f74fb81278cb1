"""What a worker does before it is given a job, all of it trusted code: the
imports and device set-up that every job of its role needs (CUDA context,
cuBLAS, Triton, the flop counter). The orchestrator starts workers
ahead of need, so this happens while other jobs run. A failure here is only
logged: the job then pays for the set-up itself, or reports the real error."""
import sys

import torch


def _initialise_cuda():
    if not torch.cuda.is_available():
        return
    x = torch.ones(64, 64, device="cuda")
    (x @ x).sum().item()  # creates the context and the cuBLAS handle


def prepare(role, device):
    try:
        if device == "cuda":
            _initialise_cuda()
        if role == "reference":
            from . import roofline
            roofline.load_flop_counter()
        elif device == "cuda":
            try:
                import triton  # noqa: F401  (most candidates use it)
            except ImportError:
                pass
    except Exception as error:
        print(f"kmem worker warm-up: {type(error).__name__}: {error}", file=sys.stderr)
