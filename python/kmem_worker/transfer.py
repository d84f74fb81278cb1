"""Handing one candidate its own copy of the input sets, as a torch.save
file (on the CPU, or with `KMEM_TUNE_INPUTS_BY_FILE=1`); or, on CUDA,
as IPC handles to copies in a memory pool of their own (no trip through the
host, no file; only those copies are reachable through the handles, never
the reference's expected outputs). With IPC the pool also holds blank
output slots of the expected shapes, which the candidate fills so that its
outputs come back without a file either. The reference keeps a candidate's
copies and slots until it releases them after the judgement."""
import os
import pickle

import torch

IPC_FILE = "inputs.ipc"
FILE = "inputs.pt"


def _is_plain(value):
    return not isinstance(value, (dict, list, tuple))


def _map(value, leaf, is_leaf=_is_plain):
    """`value` (dicts, lists and tuples of leaves) with `leaf` applied to each leaf."""
    if is_leaf(value):
        return leaf(value)
    if isinstance(value, dict):
        return {k: _map(v, leaf, is_leaf) for k, v in value.items()}
    return type(value)(_map(v, leaf, is_leaf) for v in value)


def _ipc_available(device):
    return device == "cuda" and hasattr(torch.cuda, "MemPool") and hasattr(torch.cuda, "use_mem_pool")


def _blank(value):
    """A slot for an output like `value`: same shape and dtype, filled with
    NaN (or -1) so that a slot the candidate never wrote cannot pass, and
    none of the process's earlier memory shows through."""
    if not isinstance(value, torch.Tensor):
        return None
    fill = float("nan") if value.is_floating_point() or value.is_complex() else -1
    return torch.full_like(value, fill, memory_format=torch.contiguous_format)


class SharedInputs:
    """One candidate's copy of `payload` (init inputs and input sets), shared
    through `folder` (by IPC when `ipc` and the device allow); `path` is what
    the candidate is told to load. With IPC, `slots` holds blank outputs
    shaped like `outputs_like` (lists of expected outputs, by kind), shared
    with the candidate as payload["slots"]; otherwise `slots` is None."""

    def __init__(self, payload, folder, device, ipc, outputs_like=None):
        self._copies = None
        self._pool = None
        self.slots = None
        if ipc and _ipc_available(device):
            from torch.multiprocessing.reductions import reduce_tensor
            self._pool = torch.cuda.MemPool()
            with torch.cuda.use_mem_pool(self._pool):
                self._copies = _map(payload, lambda v: v.clone() if isinstance(v, torch.Tensor) else v)
                if outputs_like is not None:
                    self.slots = _map(outputs_like, _blank)
                    self._copies = {**self._copies, "slots": self.slots}
            torch.cuda.synchronize()

            def handle(value):
                if isinstance(value, torch.Tensor):
                    return ("tensor", reduce_tensor(value)[1])
                return ("value", value)
            self.path = os.path.join(folder, IPC_FILE)
            with open(self.path, "wb") as out:
                pickle.dump(_map(self._copies, handle), out)
        else:
            self.path = os.path.join(folder, FILE)
            torch.save(payload, self.path)

    def release(self):
        """Drops the copies and slots (their memory returns once the
        candidate has let go of its mappings; see torch.cuda.ipc_collect)."""
        self._copies = None
        self.slots = None
        self._pool = None
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.ipc_collect()


def load(path, device):
    """The payload a SharedInputs wrote at `path` (from the trusted
    reference), on `device`."""
    if os.path.basename(path) != IPC_FILE:
        return torch.load(path, map_location=device)
    from torch.multiprocessing.reductions import rebuild_cuda_tensor
    with open(path, "rb") as source:
        handles = pickle.load(source)

    def rebuild(leaf):
        kind, value = leaf
        return rebuild_cuda_tensor(*value) if kind == "tensor" else value

    def is_handle(value):  # what SharedInputs wrote for each leaf
        return isinstance(value, tuple) and len(value) == 2 and value[0] in ("tensor", "value")
    return _map(handles, rebuild, is_handle)
