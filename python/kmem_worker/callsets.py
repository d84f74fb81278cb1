"""The input sets of a candidate's warm-up and timed calls, drawn by the
trusted reference worker ahead of time (never by the candidate's process)
from seeds no one else learns, each set serving one timed call (the first
few serve the warm-up calls in turn). The sets stay in the reference's own
memory: before each call the candidate's native harness asks for that
call's set, and the reference's Stager (harness.cpp) copies it into the
stage, the one set's worth of a region shared with the candidate (a device
allocation shared by CUDA IPC, or a file mapped by both processes on the
CPU) that also holds the out-slot every timed call's outputs are copied
into and the report. A set is staged only in its turn, so no set can be
read ahead of its call; the Stager also finds a call that changed its
inputs, and keeps a reservoir of the timed calls' outputs (the judged
calls) in the reference's memory, which the reference compares in full
with its own for the same sets."""
import os
import pickle
import secrets

import torch

from . import problem

ALIGN = 256  # bytes: every tensor starts at a multiple (alignment for any dtype and vector loads)
DEFAULT_BUDGET_MB = {"cuda": 256, "cpu": 32}  # MiB of call sets per candidate (KMEM_TUNE_CALL_SETS_MB: 0)
MAX_SETS = 1024  # call sets per candidate at most (small inputs): timing.MAX_TIMED_CALLS and the warm-up
# Timed sets per candidate at least, whatever the budget: a problem whose
# inputs are large gets this many timed calls (each GPU-bound, and long)
# rather than iters; more would hold many GiB per candidate in flight.
MIN_TIMED_SETS = 5
REPORT_FIELDS = 16  # float64s the candidate's harness writes its measurement into (harness.cpp, write_report)
CONTROL_BYTES = 4096  # the staging handshake's host region (harness.cpp, ControlWords)
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
    """The input sets `sets` (lists of values, drawn by the reference from
    fresh seeds), the first `warm` of them for the warm-up, kept in the
    reference's memory and staged one at a time, and `judged` output slots
    shaped like `outputs_like` (a list of expected outputs), in a region
    made by `harness` (the native module) under `folder` (the files, on the
    CPU, and the control block, in a folder of its own that the candidate
    may open but not list)."""

    def __init__(self, harness, device, folder, sets, warm, outputs_like, judged):
        self.device, self.warm, self.count = device, warm, len(sets)
        self.per_set = per_set = max(set_bytes(sets[0]), ALIGN)
        self.private = torch.empty(per_set * self.count, dtype=torch.uint8, device=device)
        self.calls = []  # per set: its layout entries, offsets within the stage (region 0's start)
        for i, values in enumerate(sets):
            layout, offset = [], 0
            for value in values:
                if not isinstance(value, torch.Tensor):
                    layout.append(("value", value))
                    continue
                if set_bytes([value]) + offset > per_set:
                    raise ValueError("the problem's get_inputs drew sets of different sizes")
                value = value.contiguous()
                self._typed(self.private, i * per_set + offset, value.dtype, list(value.shape)).copy_(value)
                layout.append(_entry(value, offset))
                offset += _aligned(value.numel() * value.element_size())
            self.calls.append(layout)
        slot_bytes = sum(_aligned(v.numel() * v.element_size()) for v in outputs_like)
        total = per_set + slot_bytes + 8 * REPORT_FIELDS
        hidden = os.path.join(folder, "calls-" + secrets.token_hex(16))
        os.mkdir(hidden, 0o300)
        path = os.path.join(hidden, secrets.token_hex(16)) if device != "cuda" else ""
        try:
            self.region = harness.Region.create(device, total, path)
        except MemoryError:  # the driver's memory held in torch's cache: give it back and try once more
            if device != "cuda":
                raise
            torch.cuda.empty_cache()
            self.region = harness.Region.create(device, total, path)
        self.control = harness.Region.create("cpu", CONTROL_BYTES, os.path.join(hidden, secrets.token_hex(16)))
        # The out-slot every timed call's outputs are copied into by the
        # harness, right after the stage; the Stager judges from there.
        offset = per_set
        self.out_slot = []
        for value in outputs_like:
            slot = self._view(offset, value)
            slot.fill_(float("nan") if value.is_floating_point() or value.is_complex() else -1)
            self.out_slot.append(("tensor", 0, offset, str(value.dtype), list(value.shape),
                                  contiguous_strides(list(value.shape))))
            offset += _aligned(value.numel() * value.element_size())
        self.report_entry = ("tensor", 0, offset, "torch.float64", [REPORT_FIELDS], [1])
        self._view(offset, torch.empty(REPORT_FIELDS, dtype=torch.float64)).fill_(0.0)
        problem.synchronize(device)
        # The judged outputs: `judged` slots in the reference's memory, kept by
        # the Stager's reservoir from the out-slot.
        self.slot_bytes = slot_bytes
        self.judged = torch.empty(max(slot_bytes * judged, 1), dtype=torch.uint8, device=device)
        self.stager = harness.Stager(self.private, per_set, warm, self.region, self.control, self.judged, slot_bytes)
        self.staging = None  # the Stager's report, once finished

    @staticmethod
    def _typed(buffer, offset, dtype, sizes):
        """The bytes of `buffer` from `offset` as a contiguous tensor of `dtype` and `sizes`."""
        n = torch.empty((), dtype=dtype).element_size() * _numel(sizes)
        return buffer.narrow(0, offset, n).view(dtype).view(sizes)

    def _view(self, offset, like):
        shape = list(like.shape)
        return self.region.tensor(offset, like.dtype, shape, contiguous_strides(shape))

    def inputs(self, number):
        """Set `number` as the reference holds it (its own memory)."""
        out = []
        for entry in self.calls[number]:
            if entry[0] == "value":
                out.append(entry[1])
            else:
                _, _, offset, dtype, sizes, _ = entry
                out.append(self._typed(self.private, number * self.per_set + offset, DTYPES[dtype], sizes))
        return out

    def description(self):
        """What the candidate's native harness maps (pickled: only bytes,
        strings, numbers and lists reach the candidate)."""
        return pickle.dumps({"regions": [(bytes(self.region.handle), self.region.bytes)], "calls": self.calls,
                             "warm": self.warm, "out_slot": self.out_slot, "report": self.report_entry,
                             "control": (bytes(self.control.handle).decode(), self.control.bytes)})

    def finish_staging(self):
        """Stops staging (the candidate is done) and returns the Stager's
        report: sets staged, requests out of turn (the first one's set), and
        whether a call changed its inputs."""
        if self.staging is None:
            self.staging = self.stager.finish()
        return self.staging

    def judged_calls(self):
        """(slot, set) of every judged call, as the Stager took it (the set its
        own record: the one it staged for that call); stops staging."""
        return [tuple(pair) for pair in self.finish_staging()["judged"]]

    def judged_outputs(self, slot):
        """The outputs of judged slot `slot` as the Stager took them."""
        # The out-slot's layout (offsets after the stage), one slot after another.
        return [self._typed(self.judged, slot * self.slot_bytes + offset - self.per_set, DTYPES[dtype], sizes)
                for _, _, offset, dtype, sizes, _ in self.out_slot]

    def measured(self):
        """What the candidate's native harness measured, from the report
        slot it wrote (protocol: the verdict's `measured`), or None when it
        never finished a measurement."""
        r = self.region.tensor(self.report_entry[2], torch.float64, [REPORT_FIELDS], [1]).tolist()
        if r[0] != 1.0:
            return None
        return {"candidate_ms": r[1], "calls": int(r[2]), "measured_ms": r[3], "fastest_ms": r[4],
                "slowest_ms": r[5], "same_storage": r[6] == 1.0, "host_bound": r[7] == 1.0, "steady": r[8] == 1.0,
                "calls_without_own_kernel": {"warmup": int(r[9]), "timed": int(r[10])},
                "background_cpu": {"ms": r[11], "calls": int(r[12])}}

    def release(self):
        self.finish_staging()
        self.stager = self.region = self.control = self.private = self.judged = None
        self.calls = self.out_slot = None


def _numel(sizes):
    n = 1
    for size in sizes:
        n *= size
    return n
