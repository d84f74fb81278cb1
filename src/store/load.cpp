// Loads a store from a path that holds either format.
#include <fstream>
#include <sstream>

#include "kmem/store.h"

namespace kmem {

Result<Memory> load_memory(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open the store");
  char header[16] = {};
  in.read(header, sizeof header);
  if (in.gcount() == sizeof header && std::string(header, 15) == "SQLite format 3") {
    auto db = Database::open(path);
    if (!db) return db.error();
    return db->read();
  }
  in.clear();
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_memory_json(text.str(), path);
}

}  // namespace kmem
