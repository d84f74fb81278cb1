"""Comparing a candidate's outputs with the reference's: count, shape,
dtype, then values within atol = rtol = tolerance. The relative error is
|actual - expected| / |expected| over elements whose |expected| > atol."""
import math

import torch


class Mismatch(Exception):
    def __init__(self, kind, detail):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def check_structure(expected, actual, where):
    """Raises Mismatch("shape"|"type"|"dtype") when `actual` (a list of
    tensors or None) does not have the form of `expected` (a different count
    of outputs is "shape")."""
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
    return read([error_figures(expected, actual, tolerance)])[0]


def error_figures(expected, actual, tolerance):
    """The figures of errors() as a float64 tensor [close, max_abs, max_rel]
    on the outputs' device, computed without waiting for the device, so that
    the figures of many calls are read back at once (read)."""
    figures = []
    for e, a in zip(expected, actual):
        a = a.to(e.device)
        if e.numel() == 0:
            continue
        if not e.is_floating_point() and not e.is_complex():
            same = torch.eq(a, e).all()
            worst = torch.where(same, _scalar(0.0, e), _scalar(math.inf, e))
            figures.append(torch.stack([same.double(), worst, _scalar(0.0, e)]))
            continue
        close = torch.isclose(a, e, rtol=tolerance, atol=tolerance, equal_nan=True).all()
        exact = e.numel() < (1 << 24)  # differences in double precision where memory allows
        diff = (_widened(a, exact) - _widened(e, exact)).abs()
        diff = diff.masked_fill((a == e) | (torch.isnan(a) & torch.isnan(e)), 0.0)  # equal infinities too
        diff = torch.nan_to_num(diff, nan=math.inf, posinf=math.inf)
        magnitude = e.abs().to(diff.dtype)
        large = magnitude > tolerance
        relative = torch.where(large, diff / torch.where(large, magnitude, torch.ones_like(magnitude)),
                               torch.zeros_like(diff))
        relative = torch.nan_to_num(relative, nan=math.inf, posinf=math.inf)  # an infinity off by an infinity
        figures.append(torch.stack([close.double(), diff.max().double(), relative.max().double()]))
    if not figures:
        return torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64)
    table = _stacked(figures)
    return torch.stack([table[:, 0].min(), table[:, 1].max(), table[:, 2].max()])


def read(figures):
    """[(close, max_abs_error, max_rel_error)] of error_figures tensors, read
    back from the device in one go."""
    if not figures:
        return []
    rows = _stacked(figures).tolist()
    return [(close == 1.0, worst_abs, worst_rel) for close, worst_abs, worst_rel in rows]


def read_calls(expected_calls, actual_calls, tolerance):
    """read() of the figures of each pair of calls' outputs."""
    return read([error_figures(expected, actual, tolerance)
                 for expected, actual in zip(expected_calls, actual_calls)])


def first_not_close(figures):
    """The index of the first call whose read figures are not close, or None."""
    return next((i for i, (close, _, _) in enumerate(figures) if not close), None)


def _stacked(figures):
    """The figure tensors as rows of one tensor, on the first one's device."""
    device = figures[0].device
    return torch.stack([f.to(device) for f in figures])


def _scalar(value, like):
    return torch.tensor(value, dtype=torch.float64, device=like.device)


def _widened(t, exact):
    if not exact:
        return t
    return t.to(torch.complex128 if t.is_complex() else torch.float64)


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
