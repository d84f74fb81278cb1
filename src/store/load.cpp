// Loads a store from a path that holds either format.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kmem/store.h"

namespace kmem {

Result<Memory> load_memory(const std::string& path) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec)) return Error(path + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(path + ": cannot open the store");
  char header[16] = {};
  in.read(header, sizeof header);
  if (in.gcount() == sizeof header && std::string(header, 15) == "SQLite format 3") {
    auto db = Database::open_existing(path);
    if (!db) return db.error();
    return db->read();
  }
  in.clear();
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error(path + ": read failed");
  return parse_memory_json(text.str(), path);
}

}  // namespace kmem
