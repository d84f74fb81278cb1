"""Where a candidate's trial outputs go to be judged (its timed calls leave
sketches instead: sketch.py). Each output, a plain tensor checked by
problem.checked_outputs, is copied when it is kept (as soon as its call
returns, so later calls cannot change it): into the reference's output slots (CUDA
IPC, see transfer.py) while every output has the slot's shape, dtype and
device, so nothing travels through the host; otherwise into copies of its
own, saved to a file whose path the reference is given instead."""
import torch

from . import problem


def _fits(slot, value):
    return (isinstance(slot, torch.Tensor) and isinstance(value, torch.Tensor)
            and slot.shape == value.shape and slot.dtype == value.dtype and slot.device == value.device)


class Outputs:
    def __init__(self, slots):
        """`slots`: {"trials": [[tensor...]...]} shared by the reference, or
        None (outputs then always go to the file)."""
        self._slots = slots
        self._in_slots = slots is not None
        self._kept = {}

    def keep(self, index, values):
        """Keeps the output list `values` of trial `index`."""
        plain = [problem.plain(v) for v in values]
        slots = self._slot_list(index)
        if self._in_slots and slots is not None and len(slots) == len(plain) and all(
                _fits(s, v) for s, v in zip(slots, plain)):
            for slot, value in zip(slots, plain):
                slot.copy_(value)
            self._kept[index] = slots
            return
        self._in_slots = False
        self._kept[index] = [problem.plain_copy(v) for v in plain]

    def _slot_list(self, index):
        if self._slots is None:
            return None
        lists = self._slots.get("trials")
        return lists[index] if isinstance(lists, list) and index < len(lists) else None

    def deliver(self, path, device):
        """Makes the kept outputs readable by the reference: returns "slots"
        when they all went into the slots, else saves them to `path` and
        returns the path."""
        problem.synchronize(device)
        if self._in_slots:
            return "slots"
        torch.save({"trials": [self._kept[i] for i in sorted(self._kept)]}, path)
        return path
