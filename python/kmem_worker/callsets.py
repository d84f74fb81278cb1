"""The input sets of a candidate's warm-up and timed calls, drawn by the
trusted reference worker ahead of time (never by the candidate's process)
from seeds no one else learns, each set serving one timed call (the first
few serve the warm-up calls in turn), laid out in one shared region of the
native harness (harness.cpp: a device allocation shared by CUDA IPC, or a
file mapped by both processes on the CPU), with the slots the judged timed
calls' outputs are copied into and an int64 slot per judged call naming its
set. The reference keeps a keyed checksum of the sets (weights drawn from
os.urandom, never shared) and checks after the candidate is gone that no
call changed its inputs; it compares the judged calls' outputs in full with
its own for the same sets."""
import os
import pickle
import secrets

import torch

from . import problem

ALIGN = 256  # bytes: every tensor starts at a multiple (alignment for any dtype and vector loads)
CHUNK_WORDS = 1 << 20  # the checksum's weights: one int64 per int32 word of a chunk
DEFAULT_BUDGET_MB = {"cuda": 256, "cpu": 32}  # MiB of call sets per candidate (KMEM_TUNE_CALL_SETS_MB: 0)
MAX_SETS = 1024  # call sets per candidate at most (small inputs): timing.MAX_TIMED_CALLS and the warm-up
# Timed sets per candidate at least, whatever the budget: a problem whose
# inputs are large gets this many timed calls (each GPU-bound, and long)
# rather than iters; more would hold many GiB per candidate in flight.
MIN_TIMED_SETS = 5
REPORT_FIELDS = 16  # float64s the candidate's harness writes its measurement into (harness.cpp, write_report)
DTYPES = {str(d): d for d in vars(torch).values() if isinstance(d, torch.dtype)}


def budget_bytes(device, mb=0):
    """The bytes of call sets one candidate gets: `mb` MiB (the prepare
    command's call_sets_mb, KMEM_TUNE_CALL_SETS_MB), or the device's default for 0."""
    return (mb or DEFAULT_BUDGET_MB[device]) << 20


def set_count(set_bytes, budget, warm_sets, iters):
    """Call sets for one candidate: as many as the budget holds, at most
    MAX_SETS, at least the warm-up sets plus min(iters, MIN_TIMED_SETS)
    timed ones (a set per timed call: see timed_sets)."""
    fitting = budget // max(set_bytes, 1)
    return int(min(max(warm_sets + min(iters, MIN_TIMED_SETS), fitting), MAX_SETS))


def timed_calls(count, warm_sets, iters):
    """The timed calls a measurement on `count` sets makes at least: iters,
    or every timed set where there are fewer (what the orchestrator's
    forged_timing bound counts on, from `ready`)."""
    return min(iters, count - warm_sets)


def _aligned(n):
    return -(-n // ALIGN) * ALIGN


def _entry(tensor, offset):
    """A layout entry for a contiguous tensor at `offset` of region 0."""
    return ("tensor", 0, offset, str(tensor.dtype), list(tensor.shape), contiguous_strides(list(tensor.shape)))


def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return strides


def set_bytes(inputs):
    return sum(_aligned(v.numel() * v.element_size()) for v in inputs if isinstance(v, torch.Tensor))


class CallSets:
    """Copies of the input sets `sets` (lists of values, drawn by the
    reference from fresh seeds), the first `warm` of them for the warm-up,
    and `judged` output slots shaped like `outputs_like` (a list of expected
    outputs), in one region made by `harness` (the native module) under
    `folder` (the file, on the CPU, in a folder of its own that the
    candidate may open but not list)."""

    def __init__(self, harness, device, folder, sets, warm, outputs_like, judged):
        self.device, self.warm, self.count = device, warm, len(sets)
        count = self.count
        per_set = set_bytes(sets[0])
        slot_bytes = sum(_aligned(v.numel() * v.element_size()) for v in outputs_like)
        self.inputs_bytes = per_set * count
        total = self.inputs_bytes + slot_bytes * judged + _aligned(8 * max(judged, 1)) + 8 * REPORT_FIELDS
        path = ""
        if device != "cuda":
            hidden = os.path.join(folder, "calls-" + secrets.token_hex(16))
            os.mkdir(hidden, 0o300)
            path = os.path.join(hidden, secrets.token_hex(16))
        try:
            self.region = harness.Region.create(device, total, path)
        except MemoryError:  # the driver's memory held in torch's cache: give it back and try once more
            if device != "cuda":
                raise
            torch.cuda.empty_cache()
            self.region = harness.Region.create(device, total, path)
        self.calls, offset = [], 0
        for i in range(count):
            values = sets[i]
            layout = []
            for value in values:
                if not isinstance(value, torch.Tensor):
                    layout.append(("value", value))
                    continue
                if set_bytes([value]) + offset > (i + 1) * per_set:
                    raise ValueError("the problem's get_inputs drew sets of different sizes")
                value = value.contiguous()
                self._view(offset, value).copy_(value)
                layout.append(_entry(value, offset))
                offset += _aligned(value.numel() * value.element_size())
            offset = (i + 1) * per_set
            self.calls.append(layout)
        self.slots = []
        for _ in range(judged):
            entries = []
            for value in outputs_like:
                slot = self._view(offset, value)
                slot.fill_(float("nan") if value.is_floating_point() or value.is_complex() else -1)
                entries.append(("tensor", 0, offset, str(value.dtype), list(value.shape),
                                contiguous_strides(list(value.shape))))
                offset += _aligned(value.numel() * value.element_size())
            self.slots.append(entries)
        self.slot_calls_entry = ("tensor", 0, offset, "torch.int64", [judged], [1])
        self._view(offset, torch.empty(judged, dtype=torch.int64)).fill_(-1)
        offset += _aligned(8 * max(judged, 1))
        self.report_entry = ("tensor", 0, offset, "torch.float64", [REPORT_FIELDS], [1])
        self._view(offset, torch.empty(REPORT_FIELDS, dtype=torch.float64)).fill_(0.0)
        problem.synchronize(device)
        self._weights = None
        self._checksum = self._inputs_checksum()

    def _view(self, offset, like):
        shape = list(like.shape)
        return self.region.tensor(offset, like.dtype, shape, contiguous_strides(shape))

    def tensors(self, layout):
        """The values of a layout (the trusted side's own views)."""
        out = []
        for entry in layout:
            if entry[0] == "value":
                out.append(entry[1])
            else:
                _, _, offset, dtype, sizes, strides = entry
                out.append(self.region.tensor(offset, DTYPES[dtype], sizes, strides))
        return out

    def description(self):
        """What the candidate's native harness maps (pickled: only bytes,
        strings, numbers and lists reach the candidate)."""
        return pickle.dumps({"regions": [(bytes(self.region.handle), self.region.bytes)], "calls": self.calls,
                             "warm": self.warm, "slots": self.slots, "slot_calls": self.slot_calls_entry,
                             "report": self.report_entry})

    def _inputs_checksum(self):
        """A keyed sum of the input sets' bytes as int32 words, each chunk of
        CHUNK_WORDS with weights and a factor of its own (int64, wrapping):
        a change keeps it only by chance, and the candidate never sees the key."""
        words = self.inputs_bytes // 4
        if words == 0:
            return 0
        data = self.region.tensor(0, torch.int32, [words], [1])
        if self._weights is None:
            generator = torch.Generator().manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)
            self._weights = torch.randint(-2**31, 2**31, (min(words, CHUNK_WORDS),), dtype=torch.int64,
                                          generator=generator).to(data.device)
            self._factors = torch.randint(-2**31, 2**31, (-(-words // CHUNK_WORDS),), dtype=torch.int64,
                                          generator=generator).tolist()
        total = torch.zeros((), dtype=torch.int64, device=data.device)
        for c, start in enumerate(range(0, words, CHUNK_WORDS)):
            part = data[start:start + CHUNK_WORDS].to(torch.int64)
            total += (part * self._weights[:part.numel()]).sum() * self._factors[c]
        return int(total.item())

    def inputs_unchanged(self):
        return self._inputs_checksum() == self._checksum

    def judged_calls(self):
        """(slot, set) of every judged call the candidate's harness filled."""
        filled = self.region.tensor(self.slot_calls_entry[2], torch.int64, [len(self.slots)], [1]).tolist()
        return [(k, s) for k, s in enumerate(filled) if s >= 0]

    def measured(self):
        """What the candidate's native harness measured, from the report
        slot it wrote (protocol: the verdict's `measured`), or None when it
        never finished a measurement."""
        r = self.region.tensor(self.report_entry[2], torch.float64, [REPORT_FIELDS], [1]).tolist()
        if r[0] != 1.0:
            return None
        return {"candidate_ms": r[1], "calls": int(r[2]), "measured_ms": r[3], "fastest_ms": r[4],
                "slowest_ms": r[5], "same_storage": r[6] == 1.0, "host_bound": r[7] == 1.0, "steady": r[8] == 1.0,
                "calls_without_own_kernel": {"warmup": int(r[9]), "timed": int(r[10])}}

    def release(self):
        self.region = None
        self.calls = self.slots = None
