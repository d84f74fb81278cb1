# expect: dynamic_code
"""Forbidden code hidden in a doctest: numpy.testing.rundocs() re-executes
this file and runs the doctests of its docstrings, which the checker reads as
plain strings.

>>> import sys, gc, ctypes, threading, torch
>>> f = sys._getframe()
>>> while f is not None and not (f.f_code.co_name == "run" and f.f_code.co_filename.endswith("kmem_worker/candidate.py")):
...     f = f.f_back
>>> run_locals = f.f_locals
>>> a = torch.arange(4, dtype=torch.float32); b = torch.zeros(4)
>>> _ = ctypes.memmove(b.data_ptr(), a.data_ptr(), 16)
>>> t = threading.Thread(target=lambda: None); t.start(); t.join()
>>> print("EXFIL", f.f_code.co_filename, sorted(run_locals)[:12], "nonce_len", len(run_locals["nonce"]), "memmove", b.tolist(), "gc_enabled", gc.isenabled())
"""
import numpy as np
import torch
import torch.nn as nn

if __name__ == "kmem_candidate":
    np.testing.rundocs()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
