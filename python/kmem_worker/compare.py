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


# Elements of a mismatch shown to the agent (expected against got).
MISMATCH_SAMPLES = 3
# Where a mismatch counts as "everywhere": at least this share of the elements.
EVERYWHERE_SHARE = 0.5


def mismatch_facts(expected, actual, tolerance):
    """Where the first output of one call that is not close (atol = rtol =
    tolerance) differs, as plain JSON values (docs/evaluator.md, "Mismatch
    facts"): its index, shape, the first bad element as a multi-index, the
    count of bad elements, the NaNs and infinities it holds where the
    expected value is finite, where the errors lie ("edges": all on the
    tensor's border; "tail": every element from the first bad one to the
    end; "everywhere": at least EVERYWHERE_SHARE of the elements;
    "scattered": otherwise) and a few bad elements, expected against got
    (as text: NaN and infinity have no JSON number). None when every
    output is close."""
    for i, (e, a) in enumerate(zip(expected, actual)):
        a = a.to(e.device)
        if e.numel() == 0:
            continue
        bad = _not_close(e, a, tolerance).flatten()
        count = int(bad.sum())
        if count == 0:
            continue
        n = bad.numel()
        first = int(bad.to(torch.uint8).argmax())
        last = n - 1 - int(bad.flip(0).to(torch.uint8).argmax())
        window = bad[first:first + 4096].nonzero().flatten()[:MISMATCH_SAMPLES] + first
        flat_e, flat_a = e.flatten(), a.flatten()
        samples = [{"index": _unravel(int(k), e.shape), "expected": _text(flat_e[k]), "got": _text(flat_a[k])}
                   for k in window.tolist()]
        return {"output": i, "shape": list(e.shape), "first_index": _unravel(first, e.shape),
                "bad": count, "elements": n, "where": _where(bad.view(e.shape), count, first, last),
                "nan": _count_new(a, e, torch.isnan), "inf": _count_new(a, e, torch.isinf), "samples": samples}
    return None


def _not_close(e, a, tolerance):
    if not e.is_floating_point() and not e.is_complex():
        return a != e
    return ~torch.isclose(a, e, rtol=tolerance, atol=tolerance, equal_nan=True)


def _where(bad, count, first, last):
    n = bad.numel()
    border = _border(bad.shape, bad.device)
    if border is not None and int((bad & border).sum()) == count and int(border.sum()) < n:
        return "edges"
    if first > 0 and last == n - 1 and count == n - first:
        return "tail"
    return "everywhere" if count >= EVERYWHERE_SHARE * n else "scattered"


def _border(shape, device):
    """The elements whose index is first or last along a dimension of more
    than two elements, or None when no dimension has more than two."""
    border = None
    for d, size in enumerate(shape):
        if size <= 2:
            continue
        line = torch.zeros(size, dtype=torch.bool, device=device)
        line[0] = line[-1] = True
        view = [1] * len(shape)
        view[d] = size
        line = line.view(view)
        border = line if border is None else border | line
    return None if border is None else border.expand(shape)


def _count_new(a, e, test):
    """Elements where `test` holds for the candidate's value but not the expected one."""
    if not a.is_floating_point() and not a.is_complex():
        return 0
    return int((test(a) & ~test(e)).sum())


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return index[::-1]


def _text(value):
    value = value.item()
    return f"{value:.6g}" if isinstance(value, float) else str(value)


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
