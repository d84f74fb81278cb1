"""How much device memory a problem takes, measured by the reference worker
that prepares it, so that the orchestrator can start a candidate only when
the device has room for it (src/eval/memory_gate.h) instead of running it,
seeing it run out of memory and running it again alone.

A problem's `held` bytes are what its reference keeps allocated between
commands (model, trial inputs, expected outputs), measured around its
preparation; `workspace` the most its forward allocated beyond them. One
candidate then needs about as much in its own process (its model, its copy
of the trial inputs, its trial outputs, its forward's workspace), plus, on
the reference's side, the call sets drawn for it (those drawn ahead for the
next candidate too), the stage and out-slot shared with it, the judged
outputs' reservoir and the judgement's own copies of an output."""
import torch

# Bytes the caching allocator reserves beyond what tensors use (rounding,
# fragmentation): a candidate's process is estimated at this many times its
# tensors.
ALLOCATOR_SLACK = 1.25
# Outputs a judgement holds beside the reservoir (an expected output and
# the figures compared, one call at a time).
JUDGING_OUTPUTS = 2


class Meter:
    """Measures the device memory one preparation leaves allocated, and the
    workspace of the forward passes it watches (a worker prepares one
    problem at a time)."""

    def __init__(self, device):
        self.on_device = device == "cuda" and torch.cuda.is_available()
        self.workspace = 0
        if self.on_device:
            torch.cuda.synchronize()
            self.before = torch.cuda.memory_allocated()

    def watch(self, run):
        """run()'s value; its transient allocations count as workspace
        (what it allocated at most beyond what it left allocated)."""
        if not self.on_device:
            return run()
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        value = run()
        torch.cuda.synchronize()
        self.workspace = max(self.workspace, torch.cuda.max_memory_allocated() - torch.cuda.memory_allocated())
        return value

    def held_and_workspace(self):
        """(held, workspace) in bytes; None off the device."""
        if not self.on_device:
            return None
        torch.cuda.synchronize()
        return max(0, torch.cuda.memory_allocated() - self.before), self.workspace


def tensor_bytes(values):
    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def per_candidate(held, workspace, set_bytes, sets, sets_ahead, output_bytes, judged):
    """Bytes one candidate's run needs on the device, both processes:
    `sets` call sets of `set_bytes` each (and `sets_ahead` more drawn for
    the next candidate), the stage and out-slot, `judged` outputs of
    `output_bytes` in the reservoir and the judgement's, and the candidate's
    own process at about the reference's held bytes and workspace."""
    reference_side = (sets + sets_ahead + 1) * set_bytes + (1 + judged + JUDGING_OUTPUTS) * output_bytes
    candidate_side = ALLOCATOR_SLACK * (held + workspace)
    return int(reference_side + candidate_side)


def report(held_and_workspace, set_bytes, sets, sets_ahead, output_bytes, judged):
    """The `device_memory` field of the reference's `ready` (worker
    protocol): the device's total bytes, the problem's held bytes and one
    candidate's; None off the device."""
    if held_and_workspace is None:
        return None
    held, workspace = held_and_workspace
    return {"total": torch.cuda.mem_get_info()[1], "held": held,
            "per_candidate": per_candidate(held, workspace, set_bytes, sets, sets_ahead, output_bytes, judged)}
