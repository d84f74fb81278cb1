"""What a worker does before it is given a job, all of it trusted code: the
imports (`preload`) and device set-up (`prepare`) that every job of its role
needs: Triton, the flop counter, the CUDA context and cuBLAS. The
orchestrator starts workers ahead of need, so this happens while other jobs
run; a zygote preloads once for all the workers it forks. A failure here is
only logged: the job then pays for the set-up itself, or reports the real
error."""
import sys

import torch


def _log_failure(error):
    print(f"kmem worker warm-up: {type(error).__name__}: {error}", file=sys.stderr)


def preload(role, device):
    """The imports of `role`; never initialises CUDA (a zygote forks after it)."""
    try:
        if role == "reference":
            from . import reference, roofline  # noqa: F401  (imported for the workers)
            roofline.load_flop_counter()
        else:
            from . import candidate  # noqa: F401
            if device == "cuda":
                try:
                    import triton  # noqa: F401  (most candidates use it)
                except ImportError:
                    pass
    except Exception as error:
        _log_failure(error)


def prepare(role, device):
    """Everything `preload` does (a no-op after it), then the device: the
    CUDA context, cuBLAS, cuDNN (loaded at its first convolution) and, for
    candidates, Triton's CUDA driver helpers (loaded at its first launch)."""
    preload(role, device)
    try:
        if device == "cuda" and torch.cuda.is_available():
            x = torch.ones(64, 64, device="cuda")
            (x @ x).sum().item()
            torch.nn.functional.conv2d(x.view(1, 1, 64, 64), x[:3, :3].reshape(1, 1, 3, 3)).sum().item()
            if role == "candidate":
                _load_triton_driver()
    except Exception as error:
        _log_failure(error)


def _load_triton_driver():
    try:
        import triton
    except ImportError:
        return
    triton.runtime.driver.active.utils  # noqa: B018  (the attribute loads them)
