// The checks of kmem/limits.h: one definition of what a valid value is.
#include "kmem/limits.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

namespace kmem::limits {
namespace {

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_sequence(std::string_view s) {
  auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
  auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
  std::uint8_t b = byte(0);
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return continuation(1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (b == 0xE0 && byte(1) < 0xA0) return 0;   // overlong
    if (b == 0xED && byte(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (b == 0xF0 && byte(1) < 0x90) return 0;   // overlong
    if (b == 0xF4 && byte(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

Status check_identifier(std::string_view what, std::string_view id, bool bar_allowed) {
  if (id.empty()) return Error(fmt::format("{} is empty", what));
  if (id.size() > kMaxIdBytes) return Error(fmt::format("{} is longer than {} bytes", what, kMaxIdBytes));
  for (char c : id)
    if (c < '!' || c > '~' || (c == '|' && !bar_allowed))
      return Error(fmt::format("{} '{}' may hold only printable ASCII characters without spaces{}", what,
                               check_utf8(id) ? id : "(not UTF-8)", bar_allowed ? "" : " or '|'"));
  return Status::success();
}

}  // namespace

Status check_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = utf8_sequence(text.substr(i));
    if (n == 0) return Error(fmt::format("holds invalid UTF-8 at byte {}", i));
    i += n;
  }
  return Status::success();
}

Status check_level(int level) {
  if (level < kMinLevel || level > kMaxLevel)
    return Error(fmt::format("level {} is not from {} to {}", level, kMinLevel, kMaxLevel));
  return Status::success();
}

Status check_problem_number(int number) {
  if (number < kMinProblemNumber || number > kMaxProblemNumber)
    return Error(fmt::format("problem number {} is not from {} to {}", number, kMinProblemNumber, kMaxProblemNumber));
  return Status::success();
}

Status check_problem_id(std::string_view id) {
  auto malformed = [&] {
    return Error(fmt::format("problem id '{}' is not L<level>_<number> (level {} to {}, number {:03d} to {})",
                             check_utf8(id) ? id : "(not UTF-8)", kMinLevel, kMaxLevel, kMinProblemNumber,
                             kMaxProblemNumber));
  };
  std::size_t bar = id.find('_');
  if (id.size() < 6 || id[0] != 'L' || bar == std::string_view::npos || id.size() - bar - 1 != 3) return malformed();
  int level = 0, number = 0;
  for (char c : id.substr(1, bar - 1)) {
    if (c < '0' || c > '9' || level > kMaxLevel) return malformed();
    level = level * 10 + (c - '0');
  }
  for (char c : id.substr(bar + 1)) {
    if (c < '0' || c > '9') return malformed();
    number = number * 10 + (c - '0');
  }
  if (!check_level(level) || !check_problem_number(number) || fmt::format("L{}_{:03d}", level, number) != id)
    return malformed();
  return Status::success();
}

Status check_reader_id(std::string_view id) { return check_identifier("reader id", id, true); }
Status check_item_id(std::string_view id) { return check_identifier("item id", id, true); }
Status check_category(std::string_view category) { return check_identifier("category", category, false); }

Status check_group_key(std::string_view key) {
  std::size_t bar = key.find('|');
  Status category = bar == std::string_view::npos ? Status(Error("")) : check_category(key.substr(bar + 1));
  bool level_ok = false;
  if (bar != std::string_view::npos && bar >= 2 && bar <= 3 && key[0] == 'L' && key[1] != '0') {
    int level = 0;
    level_ok = true;
    for (char c : key.substr(1, bar - 1)) {
      if (c < '0' || c > '9') level_ok = false;
      level = level * 10 + (c - '0');
    }
    level_ok = level_ok && check_level(level);
  }
  if (!level_ok || !category)
    return Error(fmt::format("group '{}' is not L<level>|<category> (level {} to {})",
                             check_utf8(key) ? key : "(not UTF-8)", kMinLevel, kMaxLevel));
  return Status::success();
}

Status check_name(std::string_view name) {
  if (name.empty()) return Error("is empty");
  if (name.size() > kMaxNameBytes) return Error(fmt::format("is longer than {} bytes", kMaxNameBytes));
  if (Status s = check_utf8(name); !s) return s;
  for (char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return Error("holds a control character");
  return Status::success();
}

Status check_text(std::string_view text) {
  if (text.size() > kMaxTextBytes) return Error(fmt::format("is longer than {} bytes", kMaxTextBytes));
  return check_utf8(text);
}

Status check_speedup(double speedup) {
  if (!std::isfinite(speedup) || speedup <= 0 || speedup > kMaxSpeedup)
    return Error(fmt::format("speedup {} is not > 0 and at most {}", speedup, kMaxSpeedup));
  return Status::success();
}

Status check_score_cap(double cap) {
  if (!std::isfinite(cap) || cap <= 0 || cap > kMaxScoreCap)
    return Error(fmt::format("score cap {} is not > 0 and at most {}", cap, kMaxScoreCap));
  return Status::success();
}

Status check_baseline(double score, double score_cap) {
  if (!std::isfinite(score) || score < 0 || std::signbit(score) || score > score_cap)
    return Error(fmt::format("score {} is not from 0 to the score cap {}", score, score_cap));
  return Status::success();
}

}  // namespace kmem::limits
