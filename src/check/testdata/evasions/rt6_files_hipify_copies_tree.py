# expect: runtime_patching
# torch.utils.hipify.hipify_python.hipify copies a whole folder tree
# (project_directory, a computed path) into output_directory and writes
# the translated sources there: arbitrary reads and writes of files. Its
# spelling under torch.utils.cpp_extension (cpp_extension.hipify) is refused;
# this one is not.
import torch
import torch.nn as nn
from torch.utils.hipify import hipify_python

SRC_DIR = "/" + "root"
hipify_python.hipify(project_directory=SRC_DIR, output_directory="/tmp/" + "copy", includes=["*"],
                     show_detailed=False, show_progress=False)


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 2.0
