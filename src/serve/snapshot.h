// What render, items and readers read: an immutable snapshot of the memory
// (the Memory, its MemoryIndex and the prompt pack), shared by every request
// through a shared_ptr. A change (a write through the server, or the store
// file changed by anyone) builds a new snapshot and swaps the pointer; a
// request keeps the one it started with, so readers never wait for a writer.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "kmem/memory.h"
#include "kmem/result.h"
#include "kmem/types.h"

namespace kmem::serve {

// The answers of GET /v1/render for the problems of one snapshot, by
// problem, reader and policy: a snapshot never changes, so neither do they.
// Bounded: once full it starts again empty.
class RenderCache {
 public:
  struct Answer {
    std::string body;          // the JSON response
    std::string items_header;  // Kmem-Items: the ids of the items shown
  };
  static constexpr size_t kMaxAnswers = 4096;

  std::shared_ptr<const Answer> find(const std::string& key) const;
  void put(const std::string& key, std::shared_ptr<const Answer> answer) const;

 private:
  mutable std::shared_mutex mutex_;
  mutable std::unordered_map<std::string, std::shared_ptr<const Answer>> answers_;
};

struct Snapshot {
  Snapshot(Memory m, Pack p) : memory(std::move(m)), pack(std::move(p)), index(memory) {}
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  const Memory memory;
  const Pack pack;
  const MemoryIndex index;  // refers to `memory`
  const RenderCache renders;
};

// A file's identity for change detection: modification time and size of the
// file and, for a database, of its write-ahead log.
struct FileStamp {
  long long mtime_ns = -1, size = -1, wal_mtime_ns = -1, wal_size = -1;
  bool operator==(const FileStamp&) const = default;
};
FileStamp stamp_of(const std::string& path);

class SnapshotHolder {
 public:
  // Loads the store (a kmem-memory-store/1 file or a database) and the pack.
  static Result<std::unique_ptr<SnapshotHolder>> open(const std::string& store_path, const std::string& pack_path);

  std::shared_ptr<const Snapshot> current() const { return current_.load(); }

  // Loads again when the store's stamp changed (or always with `force`);
  // a failed load keeps the current snapshot and returns the error.
  Status reload(bool force);

  const std::string& store_path() const { return store_path_; }

 private:
  SnapshotHolder(std::string store_path, std::string pack_path)
      : store_path_(std::move(store_path)), pack_path_(std::move(pack_path)) {}
  Result<std::shared_ptr<const Snapshot>> load() const;

  const std::string store_path_, pack_path_;
  std::atomic<std::shared_ptr<const Snapshot>> current_;
  std::mutex reload_mutex_;  // one reload at a time (the watcher and a write may ask together)
  FileStamp stamp_;
};

}  // namespace kmem::serve
