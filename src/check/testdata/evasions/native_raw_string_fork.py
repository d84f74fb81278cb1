# expect: uses_threads
import torch
import torch.nn as nn

src = r'''void go() {
  pid_t p = fork ();
}'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
