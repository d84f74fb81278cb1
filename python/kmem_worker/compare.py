"""Comparing a candidate's outputs with the reference's: count, shape,
dtype, then values within atol = rtol = tolerance. The relative error is
|actual - expected| / |expected| over elements whose |expected| > atol."""
import torch


class Mismatch(Exception):
    def __init__(self, kind, detail):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def check_structure(expected, actual, where):
    """Raises Mismatch("count"|"shape"|"dtype") when `actual` (a list of
    tensors or None) does not have the form of `expected`."""
    if len(actual) != len(expected):
        raise Mismatch("shape", f"{where}: returned {len(actual)} outputs, expected {len(expected)}")
    for i, (e, a) in enumerate(zip(expected, actual)):
        if a is None:
            raise Mismatch("type", f"{where}: output {i} is not a torch.Tensor")
        if tuple(a.shape) != tuple(e.shape):
            raise Mismatch("shape", f"{where}: output {i} has shape {tuple(a.shape)}, expected {tuple(e.shape)}")
        if a.dtype != e.dtype:
            raise Mismatch("dtype", f"{where}: output {i} has dtype {a.dtype}, expected {e.dtype}")


def errors(expected, actual, tolerance):
    """(close, max_abs_error, max_rel_error) over all outputs of one call."""
    close, worst_abs, worst_rel = True, 0.0, 0.0
    for e, a in zip(expected, actual):
        a = a.to(e.device)
        if not e.is_floating_point() and not e.is_complex():
            same = torch.equal(e, a)
            close = close and same
            worst_abs = max(worst_abs, 0.0 if same else float("inf"))
            continue
        close = close and torch.allclose(a, e, atol=tolerance, rtol=tolerance, equal_nan=True)
        if e.numel() == 0:
            continue
        diff = (a.double() - e.double()).abs() if e.numel() < (1 << 24) else (a - e).abs()
        both_nan = torch.isnan(a) & torch.isnan(e)
        diff = torch.where(both_nan, torch.zeros_like(diff), diff)
        diff = torch.nan_to_num(diff, nan=float("inf"))
        worst_abs = max(worst_abs, diff.max().item())
        magnitude = e.abs().to(diff.dtype)
        large = magnitude > tolerance
        if large.any():
            worst_rel = max(worst_rel, (diff[large] / magnitude[large]).max().item())
    return close, worst_abs, worst_rel


def same_inputs(original, after):
    """Whether the candidate's post-call inputs equal the originals."""
    for o, a in zip(original, after):
        if isinstance(o, torch.Tensor):
            if a is None or a.shape != o.shape or a.dtype != o.dtype:
                return False
            if not torch.equal(a.to(o.device), o) and not _equal_with_nan(a.to(o.device), o):
                return False
    return True


def _equal_with_nan(a, b):
    return a.is_floating_point() and bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())
