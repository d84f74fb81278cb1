"""Unit tests of the worker that need no GPU."""
