"""Loading Python files as modules, drawing a problem's input sets and
handling the values models take and return (a tensor or a tuple/list of
tensors)."""
import importlib.util
import sys

import torch

SEED_STRIDE = 1_000_003


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


def draw_inputs(problem, seed, device):
    """One input set from the problem's get_inputs(), seeded; created on the
    device directly where torch and the problem allow it."""
    torch.manual_seed(seed)
    if device == "cuda" and hasattr(torch, "set_default_device"):
        try:
            with torch.device(device):
                return to_device(problem.get_inputs(), device)
        except Exception as error:  # a problem that builds inputs on the CPU on purpose
            print(f"kmem: inputs drawn on the CPU instead: {type(error).__name__}: {error}", file=sys.stderr)
            torch.manual_seed(seed)
    return to_device(problem.get_inputs(), device)


def input_sets(problem, secret_seed, count, device):
    return [draw_inputs(problem, (secret_seed + i * SEED_STRIDE) % 2**63, device)
            for i in range(count)]


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
