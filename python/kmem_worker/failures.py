"""What kind of failure an exception is, for the `kind` of an error record
(data/protocol/worker.json, type error_kind): out of memory by the
exception's type (torch's OutOfMemoryError, CUDA or another device, or
Python's MemoryError), never by its message; a sticky CUDA error (illegal
memory access, ...), which leaves the context unusable, by the CUDA
runtime's message, since torch raises those as plain RuntimeErrors."""
import torch

OUT_OF_MEMORY = tuple({getattr(torch, "OutOfMemoryError", MemoryError), torch.cuda.OutOfMemoryError, MemoryError})
DEVICE_FAULTS = ("CUDA error", "illegal memory access", "misaligned address", "unspecified launch failure")


def error_kind(error):
    """"out_of_memory", "device_fault" or "exception"."""
    if isinstance(error, OUT_OF_MEMORY):
        return "out_of_memory"
    if any(fault in str(error) for fault in DEVICE_FAULTS):
        return "device_fault"
    return "exception"
