// Loads a store from a path that holds either format, or a PostgreSQL URL.
#include "kmem/store.h"
#include "store/postgres.h"
#include "util/file.h"

namespace kmem {

Result<Memory> load_memory(const std::string& path) {
  if (store::postgres::is_url(path)) {
    auto db = Database::open_existing(path);
    if (!db) return db.error();
    return db->read();
  }
  auto header = util::read_file_start(path, 16);
  if (!header) return header.error();
  if (*header == std::string("SQLite format 3\0", 16)) {
    auto db = Database::open_existing(path);
    if (!db) return db.error();
    return db->read();
  }
  auto text = util::read_file(path);
  if (!text) return text.error();
  return parse_memory_json(*text, path);
}

}  // namespace kmem
