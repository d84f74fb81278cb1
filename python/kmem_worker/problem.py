"""Loading Python files as modules, drawing a problem's input sets and
handling the values models take and return (a tensor or a tuple/list of
tensors), and resetting torch's process-wide settings."""
import importlib.util
import os
import sys

import torch
import torch.return_types

SEED_STRIDE = 1_000_003
# torch's named tuples (torch.max(x, dim) and the like), known before any
# candidate code runs: outputs may come in them.
RETURN_TYPES = frozenset(v for v in vars(torch.return_types).values() if isinstance(v, type))


def strict_fp32():
    """Makes fp32 math run in fp32 in this process. PyTorch lets cuDNN
    convolutions use TF32 by default; such a reference departs from fp32 by
    more than the tolerance, and by how much depends on the algorithm cuDNN
    picks, which changes with the memory free (a correct candidate was
    rejected under load: docs/benchmarks.md, L2_072). The candidate worker
    calls it before the candidate's code runs (its guards then see it switch
    TF32 back on); the reference worker before each problem's code runs and
    again once the problem is built, so that one switching TF32 on leaves it
    on neither for its own outputs nor for the next problem."""
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def reset_torch_state():
    """Puts back torch's process-wide settings that problem code may have
    changed and that change how the next problem computes: deterministic
    algorithms, cuDNN's flags, the default dtype and device, grad mode, and
    TF32 (strict_fp32). The reference worker calls it before every command,
    so what one problem left behind reaches no other; the candidate worker
    once it has loaded the problem (for its get_inputs), before any
    candidate code runs."""
    allow_nondeterministic_algorithms()
    torch.backends.cudnn.deterministic = False
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.enabled = True
    torch.set_default_dtype(torch.float32)
    if hasattr(torch, "set_default_device"):
        torch.set_default_device(None)
    torch.set_grad_enabled(True)
    strict_fp32()


def allow_nondeterministic_algorithms():
    """torch.use_deterministic_algorithms(False) without its imports: in
    torch 2.x it also sets Inductor's `deterministic`, importing Inductor's
    config on its first call (some 880 modules, sympy among them: 4.6 s on
    the H200's VM, in every zygote). Inductor's setting is put back only
    where problem or candidate code has loaded it."""
    torch._C._set_deterministic_algorithms(False, warn_only=False)
    inductor = sys.modules.get("torch._inductor.config")
    if inductor is not None and getattr(inductor, "deterministic", False):
        inductor.deterministic = False


def load_module(path, name):
    """Imports the Python file at `path` as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def synchronize(device):
    if device == "cuda":
        torch.cuda.synchronize()


def to_device(values, device):
    return [v.to(device) if isinstance(v, torch.Tensor) else v for v in values]


def draw_inputs(problem, seed, device, on_device=None):
    """One input set from the problem's get_inputs(), seeded; created on the
    device directly where torch and the problem allow it. `on_device` (a
    one-element list) remembers whether they do, so a problem that builds
    its inputs on the CPU on purpose fails once, not at every call; the
    values are the same either way."""
    torch.manual_seed(seed)
    tried = on_device is None or on_device[0]
    if device == "cuda" and hasattr(torch, "set_default_device") and tried:
        try:
            with torch.device(device):
                return to_device(problem.get_inputs(), device)
        except Exception as error:  # a problem that builds inputs on the CPU on purpose
            print(f"kmem: inputs drawn on the CPU instead: {type(error).__name__}: {error}", file=sys.stderr)
            if on_device is not None:
                on_device[0] = False
            torch.manual_seed(seed)
    return to_device(problem.get_inputs(), device)


def fresh_seed(urandom=os.urandom):
    """A seed no one can predict (63 bits from the OS)."""
    return int.from_bytes(urandom(8), "little") >> 1


def input_drawer(problem, device):
    """draw(seed): a fresh input set of the problem's get_inputs(), seeded
    (draw_inputs, remembering where they can be drawn)."""
    on_device = [True]

    def draw(seed):
        return draw_inputs(problem, seed, device, on_device)
    return draw


def trial_seed(secret_seed, i):
    """The seed of trial i's inputs."""
    return (secret_seed + i * SEED_STRIDE) % 2**63


def build_model(model_class, init_inputs, init_seed, device, on_device):
    """Builds a model seeded with `init_seed`: on the device itself where
    `on_device` (initialising large weights on a GPU takes milliseconds where
    the CPU takes seconds), else the way KernelBench does, on the CPU, then
    moved. Reference and candidate are built the same way (the reference
    decides: see build_reference_model), so their weights are the same.
    Left in its default (training) mode."""
    torch.manual_seed(init_seed)
    if on_device:
        with torch.device(device):
            return model_class(*init_inputs).to(device)
    return model_class(*init_inputs).to(device)


def build_reference_model(model_class, init_inputs, init_seed, device):
    """(model, on_device): the reference model built on a CUDA device where
    the problem allows it, else on the CPU and moved."""
    if device == "cuda":
        try:
            return build_model(model_class, init_inputs, init_seed, device, True), True
        except Exception as error:  # a problem that builds on the CPU on purpose
            print(f"kmem: model built on the CPU instead: {type(error).__name__}: {error}", file=sys.stderr)
    return build_model(model_class, init_inputs, init_seed, device, False), False


def clone_inputs(inputs):
    return [v.clone() if isinstance(v, torch.Tensor) else v for v in inputs]


def as_output_list(output):
    """A model's return value as a list (a tensor, or a tuple/list of them)."""
    return list(output) if isinstance(output, (tuple, list)) else [output]


class OutputRejected(Exception):
    """An output the worker refuses to touch: `stage` is "output_type" (not
    a plain torch.Tensor, or a tuple/list of them) or "output_device" (on
    another device than the reference's)."""

    def __init__(self, stage, detail):
        super().__init__(detail)
        self.stage = stage


def type_name(cls):
    """`module.qualname` of a class, read without running any of its code
    (a metaclass may define properties of those names)."""
    module = type.__dict__["__module__"].__get__(cls, type)
    qualname = type.__dict__["__qualname__"].__get__(cls, type)
    return f"{module if type(module) is str else '?'}.{qualname if type(qualname) is str else '?'}"


def checked_outputs(output, devices=None):
    """A model's return value as a list of plain tensors, checked by
    identity before any method or attribute of it is used: the value is a
    torch.Tensor itself, or a tuple/list (or one of torch's named tuples) of
    them; subclasses are refused whatever they call themselves. `devices`
    (the reference's output device types, in order) refuses an output on
    another device. Raises OutputRejected."""
    kind = type(output)
    if kind is torch.Tensor:
        values = [output]
    elif kind is tuple or kind is list or any(kind is named for named in RETURN_TYPES):  # no hash of kind
        values = list(output)
    else:
        raise OutputRejected("output_type", _not_a_tensor("the output", kind))
    for i, value in enumerate(values):
        if type(value) is not torch.Tensor:
            raise OutputRejected("output_type", _not_a_tensor(f"output {i}", type(value)))
    for i, value in enumerate(values):
        if devices is not None and i < len(devices) and value.device.type != devices[i]:
            raise OutputRejected("output_device", f"output {i} is on {value.device.type}, the reference's on {devices[i]}")
    return values


def _not_a_tensor(what, cls):
    mro = type.__dict__["__mro__"].__get__(cls, type)
    subclass = any(c is torch.Tensor for c in mro)
    return (f"{what} is {'a subclass of torch.Tensor' if subclass else 'no torch.Tensor'} "
            f"(its type calls itself {type_name(cls)}), not a plain torch.Tensor")


def plain(value):
    """An output seen as a detached plain tensor (no copy; a subclass's
    overrides no longer apply); a value that is no tensor stays as it is."""
    if not isinstance(value, torch.Tensor):
        return value
    return value.detach().as_subclass(torch.Tensor)


def plain_copy(value):
    """A detached plain-tensor copy of an output, safe to save and to load
    with weights_only; None when the value is not a tensor at all."""
    if not isinstance(value, torch.Tensor):
        return None
    return plain(value).clone()
