// Loading the memory snapshot and swapping it when the store changes.
#include "serve/snapshot.h"

#include <sys/stat.h>

#include "kmem/store.h"
#include "util/file.h"

namespace kmem::serve {

std::shared_ptr<const RenderCache::Answer> RenderCache::find(const std::string& key) const {
  std::shared_lock hold(mutex_);
  auto found = answers_.find(key);
  return found == answers_.end() ? nullptr : found->second;
}

void RenderCache::put(const std::string& key, std::shared_ptr<const Answer> answer) const {
  std::unique_lock hold(mutex_);
  if (answers_.size() >= kMaxAnswers) answers_.clear();
  answers_.emplace(key, std::move(answer));
}

FileStamp stamp_of(const std::string& path) {
  FileStamp stamp;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    stamp.mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    stamp.size = st.st_size;
  }
  std::string wal = path + "-wal";
  if (::stat(wal.c_str(), &st) == 0) {
    stamp.wal_mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
    stamp.wal_size = st.st_size;
  }
  return stamp;
}

Result<std::shared_ptr<const Snapshot>> SnapshotHolder::load() const {
  auto memory = load_memory(store_path_);
  if (!memory) return memory.error();
  auto pack_text = util::read_file(pack_path_);
  if (!pack_text) return pack_text.error();
  auto pack = parse_pack_json(*pack_text, pack_path_);
  if (!pack) return pack.error();
  return std::shared_ptr<const Snapshot>(std::make_shared<Snapshot>(std::move(*memory), std::move(*pack)));
}

Result<std::unique_ptr<SnapshotHolder>> SnapshotHolder::open(const std::string& store_path,
                                                             const std::string& pack_path) {
  std::unique_ptr<SnapshotHolder> holder(new SnapshotHolder(store_path, pack_path));
  holder->stamp_ = stamp_of(store_path);
  auto first = holder->load();
  if (!first) return first.error();
  holder->current_.store(std::move(*first));
  return holder;
}

Status SnapshotHolder::reload(bool force) {
  std::lock_guard lock(reload_mutex_);
  FileStamp now = stamp_of(store_path_);
  if (!force && now == stamp_) return Status::success();
  auto next = load();
  if (!next) return next.error();
  stamp_ = now;
  current_.store(std::move(*next));
  return Status::success();
}

}  // namespace kmem::serve
