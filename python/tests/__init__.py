"""Unit tests of the worker that need no GPU. The worker's modules load
kmem's native harness when imported, so it is built first (once per
machine and toolchain; native_harness.py)."""
from kmem_worker import native_harness

native_harness.build()
