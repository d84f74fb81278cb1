"""What a worker does before it is given a job, all of it trusted code: the
imports (`preload`) and device set-up (`prepare`) that every job of its role
needs: Triton, the flop counter, the CUDA context, cuBLAS and cuDNN. The
orchestrator starts workers ahead of need, so this happens while other jobs
run; a zygote preloads once for all the workers it forks. Workers take turns
at setting up the device (Turn). A failure here is only logged: the job then
pays for the set-up itself, or reports the real error."""
import os
import sys

import torch


def _log_failure(error):
    print(f"kmem worker warm-up: {type(error).__name__}: {error}", file=sys.stderr)


class Turn:
    """A worker's turn at setting up the device, given by the orchestrator
    (src/eval/warmup_turns.h) as descriptors: on entry, reads "after" (the
    pipe of a worker started earlier) to its end, that is until that worker
    is set up or gone; on exit, closes "done", letting a later worker go.
    Either may be absent. Both are closed before any job's code runs."""

    def __init__(self, descriptors):
        self._after = descriptors.get("after")
        self._done = descriptors.get("done")

    def __enter__(self):
        if self._after is not None:
            try:
                while os.read(self._after, 64):
                    pass
            except OSError as error:
                _log_failure(error)
            finally:
                os.close(self._after)
        return self

    def __exit__(self, *_):
        if self._done is not None:
            os.close(self._done)
        return False


def preload(role, device):
    """The imports of `role`; never initialises CUDA (a zygote forks after it)."""
    try:
        if role == "reference":
            from . import reference, roofline  # noqa: F401  (imported for the workers)
            roofline.load_flop_counter()
        else:
            from . import candidate  # noqa: F401
            if device == "cuda":
                _triton_warmup()  # most candidates use Triton
    except Exception as error:
        _log_failure(error)


def prepare(role, device):
    """Everything `preload` does (a no-op after it), then the device: the
    CUDA context, cuBLAS, cuDNN (loaded at its first convolution) and, for
    candidates, Triton (a launch of a kernel of ours: triton_warmup.py)."""
    preload(role, device)
    try:
        if device == "cuda" and torch.cuda.is_available():
            x = torch.ones(64, 64, device="cuda")
            (x @ x).sum().item()
            torch.nn.functional.conv2d(x.view(1, 1, 64, 64), x[:3, :3].reshape(1, 1, 3, 3)).sum().item()
            if role == "candidate" and (triton_warmup := _triton_warmup()) is not None:
                triton_warmup.launch()
    except Exception as error:
        _log_failure(error)


def _triton_warmup():
    """The triton_warmup module (imported with Triton), or None without Triton."""
    try:
        from . import triton_warmup
    except ImportError:
        return None
    return triton_warmup
