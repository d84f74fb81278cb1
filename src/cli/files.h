// Reading whole files for the CLI, with the path in every error.
#pragma once

#include <string>

#include "kmem/result.h"

namespace kmem::cli {

Result<std::string> read_file(const std::string& path);

}  // namespace kmem::cli
