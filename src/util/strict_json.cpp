// Strict JSON parsing: duplicate keys and out-of-range numbers are errors.
#include "util/strict_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <vector>

namespace kmem::util {
namespace {

using Json = nlohmann::json;

// Where `byte` (1-based count of bytes read, as nlohmann reports it) falls in
// `text`, as "line:column".
std::string line_and_column(std::string_view text, std::size_t byte) {
  std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return fmt::format("{}:{}", line, column);
}

// The path of the key being parsed, as "readers.alice": the parser callback
// keeps one set of seen keys per open object to catch duplicates, which
// nlohmann would otherwise silently collapse to the last one.
class DuplicateKeyGuard {
 public:
  bool operator()(int depth, nlohmann::json::parse_event_t event, Json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) {
      frames_.resize(depth + 1);
      frames_[depth] = Frame{};
    } else if (event == Event::array_start) {
      frames_.resize(depth + 1);
      frames_[depth] = Frame{{}, "[]"};
    } else if (event == Event::key && duplicate_.empty()) {
      Frame& frame = frames_.at(depth - 1);
      frame.key = parsed.get<std::string>();
      if (!frame.seen.insert(frame.key).second) duplicate_ = path(depth);
    }
    return true;
  }
  // The path of the first duplicated key, empty when there was none.
  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    std::set<std::string> seen;
    std::string key;
  };
  std::string path(int depth) const {
    std::string out;
    for (int d = 0; d < depth; ++d) {
      if (frames_[d].key == "[]") {
        out += "[]";
        continue;
      }
      if (!out.empty()) out += '.';
      out += frames_[d].key;
    }
    return out;
  }
  std::vector<Frame> frames_;
  std::string duplicate_;
};

// `text` safe to print on one line: whole UTF-8 characters kept, a cut or
// invalid sequence and every control byte written as \xNN.
std::string printable(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    auto byte = static_cast<unsigned char>(text[i]);
    size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
    bool whole = length > 0 && i + length <= text.size();
    for (size_t k = 1; whole && k < length; ++k) whole = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!whole || byte < 0x20 || byte == 0x7F) {
      out += fmt::format("\\x{:02X}", byte);
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace

Result<Json> parse_strict_json(std::string_view text, const std::string& source_name) {
  DuplicateKeyGuard guard;
  Json doc;
  try {
    doc = Json::parse(text, std::ref(guard), /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const Json::parse_error& e) {
    std::string what = e.what();  // "[json.exception...] parse error at line L, column C: <reason>"
    if (auto reason = what.find(": "); reason != std::string::npos) what = what.substr(reason + 2);
    return Error(fmt::format("{}:{}: malformed JSON: {}", source_name, line_and_column(text, e.byte), printable(what)));
  } catch (const Json::exception& e) {  // e.g. a number too large for a double
    std::string what = e.what();
    if (auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
    return Error(fmt::format("{}: malformed JSON: {}", source_name, printable(what)));
  }
  if (!guard.duplicate().empty())
    return Error(
        fmt::format("{}: {}: duplicate key (a key may appear once per object)", source_name, guard.duplicate()));
  return doc;
}

}  // namespace kmem::util
