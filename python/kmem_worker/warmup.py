"""What a worker does before it is given a job, all of it trusted code: the
imports (`preload`) and device set-up (`create_context`, then `prepare`) that
every job of its role needs: Triton, the flop counter, the CUDA context,
cuBLAS and cuDNN. The orchestrator starts workers ahead of need, so this
happens while other jobs run; a zygote preloads once for all the workers it
forks. Workers create their CUDA context in a relay, passing a baton
(ContextBaton), since the driver creates contexts one at a time. A failure
here is only logged: the job then pays for the set-up itself, or reports the
real error."""
import importlib
import os
import sys

import torch

from . import problem


def _log_failure(error):
    print(f"kmem worker warm-up: {type(error).__name__}: {error}", file=sys.stderr)


class ContextBaton:
    """A worker's baton for creating its CUDA context, given by the orchestrator
    (src/eval/context_relay.h) as descriptors: on entry, reads "after" (the
    pipe of a worker started earlier) to its end, that is until that worker
    has its context or is gone; on exit, closes "done", letting a later one go.
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
    """The imports of `role`, and those of the reset of torch's settings
    that every job makes; never initialises CUDA (a zygote forks after it)."""
    try:
        problem.reset_torch_state()
        if role == "reference":
            from . import reference, roofline  # noqa: F401  (imported for the workers)
            roofline.load_flop_counter()
        else:
            from . import candidate  # noqa: F401
            if device == "cuda" and _triton_warmup() is not None:  # most candidates use Triton
                _hash_triton_installation()
    except Exception as error:
        _log_failure(error)


def create_context(device):
    """The CUDA context (and the caching allocator's first block)."""
    try:
        if device == "cuda" and torch.cuda.is_available():
            torch.ones(1, device="cuda").sum().item()
    except Exception as error:
        _log_failure(error)


def prepare(role, device):
    """Everything `preload` does (a no-op after it), then, once
    `create_context` has run, the libraries: cuBLAS, cuDNN (loaded at its
    first convolution) and, for candidates, Triton (a launch of a kernel of
    ours: triton_warmup.py)."""
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


def _hash_triton_installation():
    """Triton keys its kernel cache with a hash of its own compiler sources
    and of libtriton (hundreds of megabytes), computed once per process at a
    first launch; computed here, before the fork, every worker inherits it."""
    for module_name in ("triton.runtime.cache", "triton.compiler.compiler"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if callable(key := getattr(module, "triton_key", None)):
            key()
            return
