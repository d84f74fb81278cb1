# expect: uses_threads
# torch's ThroughputBenchmark calls a module from C++ threads of its own (red-team round 5, 2026-12-07).
import torch
import torch.nn as nn
import torch.utils.throughput_benchmark


class Worker(nn.Module):
    def forward(self, x):
        return x + 1


bench = torch.utils.throughput_benchmark.ThroughputBenchmark(Worker())
bench.add_input(torch.ones(4))
stats = bench.benchmark(num_calling_threads=4, num_warmup_iters=1, num_iters=8)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
