// The per-problem rule of validate_memory, for the paths that handle
// problems without a whole Memory: the catalogue in a database.
#pragma once

#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem::store {

// Success when `p` is a valid problem: its id is L<level>_<number, 3 digits>
// of its own level and number, within kmem/limits.h, with a valid name and
// category. The error does not name the problem; callers wrap it.
Status check_problem(const Problem& p);

}  // namespace kmem::store
