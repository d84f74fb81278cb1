"""Runtime guards in the candidate's process, behind the static checker: a
snapshot, taken before the candidate is imported, of torch's fp32 precision
switches and of the functions that the measurement and this worker rely on,
compared once the candidate's calls are done. What it changed becomes the
facts `precision_flags` (fp32 math allowed to run in lower precision) and
`patched` (a function replaced). Code running in this process could fool
them (undo its change in time, or patch this module): they catch what slipped
past the checker; the boundary is the process, not them."""
import json
import sys
import time

import torch

from . import channel, compare, host_speed, outputs, problem, timing

WORKER_PACKAGE = "kmem_worker"
# Modules whose replacement in sys.modules would hand the worker other clocks or functions.
TABLE_MODULES = {"time", "torch", "torch.cuda", "functools", "statistics", "json", "os"}


def _entry(owner, attribute):
    """owner's own entry `attribute` (a module table is a dict; else its vars)."""
    return (owner if isinstance(owner, dict) else vars(owner)).get(attribute)


# How much precision each setting of torch.get_float32_matmul_precision() gives up.
MATMUL_PRECISION_LOSS = {"highest": 0, "high": 1, "medium": 2}


def _precision_switches():
    """name -> how far the switch lets fp32 math drop below fp32 (higher: further)."""
    return {
        "torch.backends.cuda.matmul.allow_tf32": int(torch.backends.cuda.matmul.allow_tf32),
        "torch.backends.cudnn.allow_tf32": int(torch.backends.cudnn.allow_tf32),
        "torch.set_float32_matmul_precision": MATMUL_PRECISION_LOSS.get(torch.get_float32_matmul_precision(), 0),
    }


def _watched_functions():
    """name -> (owner, attribute) of each function whose replacement would
    fool the measurement or the hand-over of results."""
    return {
        "time.perf_counter": (time, "perf_counter"),
        "time.monotonic": (time, "monotonic"),
        "torch.cuda.synchronize": (torch.cuda, "synchronize"),
        "torch.cuda.Event": (torch.cuda, "Event"),
        "torch.cuda.Event.record": (torch.cuda.Event, "record"),
        "torch.cuda.Event.synchronize": (torch.cuda.Event, "synchronize"),
        "torch.cuda.Event.elapsed_time": (torch.cuda.Event, "elapsed_time"),
        "torch.equal": (torch, "equal"),
        "torch.allclose": (torch, "allclose"),
        "torch.isclose": (torch, "isclose"),
        "torch.Tensor.clone": (torch.Tensor, "clone"),
        "torch.Tensor.copy_": (torch.Tensor, "copy_"),
        "torch.nn.Module.__call__": (torch.nn.Module, "__call__"),
        "torch.no_grad": (torch, "no_grad"),
        "timing.Harness.__init__": (timing.Harness, "__init__"),
        "host_speed.probe_ms": (host_speed, "probe_ms"),
        "host_speed.HostSpeed.__init__": (host_speed.HostSpeed, "__init__"),
        "host_speed.HostSpeed.learn": (host_speed.HostSpeed, "learn"),
        "host_speed.HostSpeed.sample": (host_speed.HostSpeed, "sample"),
        "host_speed.HostSpeed.steady": (host_speed.HostSpeed, "steady"),
        "compare.same_inputs": (compare, "same_inputs"),
        "problem.clone_inputs": (problem, "clone_inputs"),
        "problem.synchronize": (problem, "synchronize"),
        "problem.as_output_list": (problem, "as_output_list"),
        "outputs.Outputs.keep": (outputs.Outputs, "keep"),
        "outputs.Outputs.deliver": (outputs.Outputs, "deliver"),
        "channel.Channel.send": (channel.Channel, "send"),
        "json.dumps": (json, "dumps"),
    }


def _module_tables():
    """name -> (owner, attribute) of the entries of the module table
    (sys.modules) the measurement relies on, and of every function and class
    of the worker's own modules: replacing one (`timing.Timer = Fake`, a
    module swapped in sys.modules, a fake dressed up by
    functools.update_wrapper) changes its identity, whatever it looks like."""
    watched = {f"sys.modules[{name!r}]": (sys.modules, name)
               for name in sorted(sys.modules) if name in TABLE_MODULES or name.startswith(WORKER_PACKAGE + ".")}
    for name in sorted(sys.modules):
        module = sys.modules[name]
        if not name.startswith(WORKER_PACKAGE + ".") or module is None:
            continue
        for attribute, value in sorted(vars(module).items()):
            if callable(value) and not attribute.startswith("__"):
                watched[f"{name[len(WORKER_PACKAGE) + 1:]}.{attribute}"] = (module, attribute)
    return watched


class Guards:
    """Takes the snapshot when made; facts() compares the present with it."""

    def __init__(self):
        self._precision = _precision_switches()
        watched = {**_module_tables(), **_watched_functions()}
        self._watched = {name: (owner, attribute, _entry(owner, attribute))
                         for name, (owner, attribute) in watched.items()}

    def facts(self):
        """{"precision_flags": [...], "patched": [...]}: the switches moved
        towards lower precision and the functions no longer the same object."""
        now = _precision_switches()
        lowered = sorted(name for name, loss in now.items() if loss > self._precision[name])
        patched = sorted(name for name, (owner, attribute, original) in self._watched.items()
                         if _entry(owner, attribute) is not original)
        return {"precision_flags": lowered, "patched": patched}
