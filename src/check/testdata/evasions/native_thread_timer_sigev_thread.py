# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""

#include <torch/extension.h>
#include <signal.h>
#include <time.h>
static void work(union sigval) {}
torch::Tensor go(torch::Tensor x) {
    struct sigevent sev = {};
    sev.sigev_notify = SIGEV_THREAD;
    sev.sigev_notify_function = work;
    timer_t tid;
    timer_create(CLOCK_MONOTONIC, &sev, &tid);
    struct itimerspec its = {};
    its.it_value.tv_nsec = 1000;
    timer_settime(tid, 0, &its, nullptr);
    return x;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
