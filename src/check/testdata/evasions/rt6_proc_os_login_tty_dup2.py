# expect: uses_threads
# os.login_tty(fd) (Python 3.11+) is setsid() plus dup2(fd, 0/1/2): the worker
# leaves its session and process group (os.setsid is refused) and its
# stdin/stdout/stderr are replaced by a pseudo-terminal of the candidate's
# (os.dup2 is refused, runtime_patching), which it can read back from the master
# side. Neither os.openpty nor os.login_tty is refused.
import os
import torch
import torch.nn as nn

MASTER, SLAVE = os.openpty()
os.login_tty(SLAVE)


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 2.0
