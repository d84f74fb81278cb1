// The ranges and formats of every value a memory holds (docs/store.md,
// "Limits"). Each path into a Memory checks them with the functions below:
// the JSON import, every read from a database, Database::replace and the
// catalogue's problem import. Code that writes to a store (ingesting verified
// results) checks with them first and skips what they refuse, with a reason:
// the evaluator may measure a speedup beyond kMaxSpeedup (and flags it
// implausible_speedup); the store does not hold it.
#pragma once

#include <cstddef>
#include <string_view>

#include "kmem/result.h"

namespace kmem::limits {

// Problem ids are L<level>_<number, 3 digits>, e.g. L1_008 (KernelBench level
// and file number).
inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 99;
inline constexpr int kMinProblemNumber = 1;
inline constexpr int kMaxProblemNumber = 999;

// A speedup (reference time / candidate time) is finite, > 0 and at most this.
inline constexpr double kMaxSpeedup = 1e6;
// A score cap is finite, > 0 and at most this; a baseline score is from 0 to
// the store's score cap.
inline constexpr double kMaxScoreCap = 1e6;

// Reader ids, item ids and categories: 1 to kMaxIdBytes printable ASCII
// characters, no space ('|' is not allowed in a category: it separates a
// group key's level and category).
inline constexpr std::size_t kMaxIdBytes = 128;
// Display names and problem names: 1 to kMaxNameBytes bytes of UTF-8 without
// control characters.
inline constexpr std::size_t kMaxNameBytes = 256;
// Item texts and kernel code: UTF-8, at most this many bytes.
inline constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;

// Each check returns success, or an error saying what is wrong with the value
// (without naming where it came from: callers wrap it with that).
Status check_level(int level);
Status check_problem_number(int number);
Status check_problem_id(std::string_view id);  // also its level and number ranges
Status check_reader_id(std::string_view id);
Status check_item_id(std::string_view id);
Status check_category(std::string_view category);
Status check_group_key(std::string_view key);  // L<level>|<category>
Status check_name(std::string_view name);      // display names, problem names
Status check_text(std::string_view text);      // item texts and code
Status check_utf8(std::string_view text);
Status check_speedup(double speedup);
Status check_score_cap(double cap);
Status check_baseline(double score, double score_cap);

}  // namespace kmem::limits
