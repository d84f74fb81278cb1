"""The plausibility floor of a problem: the least time any implementation of
the problem *as written* can take on the device, from its own size. Bytes:
every input, parameter and output moved once. Flops: what torch's flop
counter sees in the reference's forward (matrix products and convolutions;
torch >= 2.1, else flops are left out). The floor is the larger of bytes over
the device's peak bandwidth and flops over its peak fp32 rate. A candidate
faster than the floor is flagged for review (implausible_speedup), not
rejected: algebraic rewrites can legitimately beat the problem as written."""
import sys

import torch

# Peak rates (bytes/s, fp32 flop/s): the vendors' datasheet figures, which are
# above what code reaches (an H200 copies at ~4.3 TB/s measured here), so the
# floor errs on the side of not flagging.
DEVICE_PEAKS = {
    "H200": (4.8e12, 67e12),
    "H100": (3.35e12, 67e12),
    "A100": (2.0e12, 19.5e12),
}
DEFAULT_GPU_PEAKS = (8.0e12, 100e12)  # generous for GPUs not in the table
CPU_PEAKS = (200e9, 5e12)  # generous for one CPU socket


def peaks(device):
    if device != "cuda":
        return CPU_PEAKS
    name = torch.cuda.get_device_name()
    for key, value in DEVICE_PEAKS.items():
        if key in name:
            return value
    return DEFAULT_GPU_PEAKS


def tensor_bytes(values):
    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def load_flop_counter():
    """torch's FlopCounterMode class (slow to import), or None before torch 2.1."""
    try:
        from torch.utils.flop_counter import FlopCounterMode
    except ImportError:
        return None
    return FlopCounterMode


def count_flops(model, inputs):
    """Flops of one forward as torch's flop counter sees them, or 0 where
    this torch has no counter or the counter cannot follow the model (the
    floor then rests on bytes alone; the reason goes to the log)."""
    counter_class = load_flop_counter()
    if counter_class is None:
        return 0
    counter = counter_class(display=False)
    try:
        with torch.no_grad(), counter:
            model(*inputs)
    except Exception as error:  # a plausibility estimate must not fail the reference
        print(f"kmem roofline: flops not counted: {type(error).__name__}: {error}", file=sys.stderr)
        return 0
    return counter.get_total_flops()


def floor_ms(byte_count, flop_count, device_peaks):
    bandwidth, rate = device_peaks
    return max(byte_count / bandwidth, flop_count / rate) * 1e3


def problem_floor_ms(model, inputs, outputs, device):
    byte_count = tensor_bytes(inputs) + tensor_bytes(outputs) + tensor_bytes(model.parameters())
    return floor_ms(byte_count, count_flops(model, inputs), peaks(device))
