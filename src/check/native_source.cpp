// Decoding Python string literals and normalising the native source they
// hold (see native_source.h).
#include "native_source.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <optional>

#include "grammar.h"

namespace kmem::check {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

namespace {

void append_utf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code >> 6)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

uint32_t digits_value(std::string_view digits, int base) {
  uint32_t value = 0;
  for (char c : digits) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    value = value * base + static_cast<uint32_t>(d);
  }
  return value;
}

// One escape sequence as Python reads it (\N{...} stays as written).
void decode_escape(std::string_view escape, std::string& out) {
  if (escape.size() < 2) return out.append(escape), void();
  char kind = escape[1];
  switch (kind) {
    case 'n': out.push_back('\n'); return;
    case 't': out.push_back('\t'); return;
    case 'r': out.push_back('\r'); return;
    case 'a': out.push_back('\a'); return;
    case 'b': out.push_back('\b'); return;
    case 'f': out.push_back('\f'); return;
    case 'v': out.push_back('\v'); return;
    case '\n': return;  // a line continuation
    case 'x':
    case 'u':
    case 'U': append_utf8(out, digits_value(escape.substr(2), 16)); return;
    default: break;
  }
  if (kind >= '0' && kind <= '7') return append_utf8(out, digits_value(escape.substr(1), 8));
  if (kind == 'N') return out.append(escape), void();
  out.push_back(kind);  // \\ \' \"
}

// `text` with every `alias::` of a `namespace alias = target;` read as
// `target::` ("namespace s = std; s::thread" -> "std::thread").
std::string expand_namespace_aliases_once(std::string text) {
  constexpr std::string_view kKeyword = "namespace";
  for (size_t at = text.find(kKeyword); at != std::string::npos; at = text.find(kKeyword, at + 1)) {
    if ((at > 0 && identifier_char(text[at - 1])) ||
        (at + kKeyword.size() < text.size() && identifier_char(text[at + kKeyword.size()])))
      continue;
    size_t i = at + kKeyword.size();
    auto skip_blanks = [&] {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skip_blanks();
    size_t alias_begin = i;
    while (i < text.size() && identifier_char(text[i])) ++i;
    std::string alias = text.substr(alias_begin, i - alias_begin);
    skip_blanks();
    if (alias.empty() || i >= text.size() || text[i] != '=') continue;
    ++i;
    skip_blanks();
    size_t target_begin = i;
    while (i < text.size() && (identifier_char(text[i]) || text[i] == ':')) ++i;
    std::string target = text.substr(target_begin, i - target_begin);
    while (target.starts_with("::")) target.erase(0, 2);
    if (target.empty() || target == alias) continue;
    std::string from = alias + "::";
    for (size_t use = text.find(from, i); use != std::string::npos; use = text.find(from, use + 1)) {
      if (use > 0 && (identifier_char(text[use - 1]) || text[use - 1] == ':')) continue;
      text.replace(use, alias.size(), target);
      use += target.size();
    }
  }
  return text;
}

// The same until nothing changes: an alias of an alias (`namespace a = std;
// namespace b = a; b::thread`) needs a pass per link (a few at most).
std::string expand_namespace_aliases(std::string text) {
  for (int pass = 0; pass < 8; ++pass) {
    std::string next = expand_namespace_aliases_once(text);
    if (next == text) break;
    text = std::move(next);
  }
  return text;
}

}  // namespace

std::optional<std::string> python_string_value(const SyntaxTree& tree, TSNode node,
                                               const std::function<std::optional<std::string>(TSNode)>& field) {
  const Grammar& g = python_grammar();
  std::string out;
  TSSymbol symbol = ts_node_symbol(node);
  if (symbol == g.concatenated_string) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      auto part = python_string_value(tree, ts_node_named_child(node, i), field);
      if (!part) return std::nullopt;
      out += *part;
    }
    return out;
  }
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(node, i);
    TSSymbol s = ts_node_symbol(part);
    if (s == g.string_content) {
      // Escapes are children of the content in some grammar versions.
      uint32_t start = ts_node_start_byte(part);
      uint32_t m = ts_node_named_child_count(part);
      for (uint32_t j = 0; j < m; ++j) {
        TSNode escape = ts_node_named_child(part, j);
        if (ts_node_symbol(escape) != g.escape_sequence) continue;
        std::string_view whole = tree.text(part);
        out.append(whole.substr(start - ts_node_start_byte(part), ts_node_start_byte(escape) - start));
        decode_escape(tree.text(escape), out);
        start = ts_node_end_byte(escape);
      }
      std::string_view whole = tree.text(part);
      out.append(whole.substr(start - ts_node_start_byte(part)));
    } else if (s == g.escape_sequence) {
      decode_escape(tree.text(part), out);
    } else if (s == g.interpolation) {
      auto value = field(part);
      if (!value) return std::nullopt;
      out += *value;
    }
  }
  return out;
}

std::string python_string_value(const SyntaxTree& tree, TSNode node) {
  // A field reads as a blank: it separates the tokens around it.
  return *python_string_value(tree, node, [](TSNode) { return std::optional<std::string>(" "); });
}

namespace {

// `source` with its line ends made `\n` (a lone carriage return ends a line
// for GCC) and its line splices undone, as the compiler's second phase does:
// a backslash, any blanks (space, tab, form feed, vertical tab, NUL: GCC and
// nvcc take them), a line end.
std::string spliced(std::string_view source) {
  std::string lines(source);
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i] == '\r' && (i + 1 == lines.size() || lines[i + 1] != '\n')) lines[i] = '\n';
  std::string out;
  out.reserve(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == '\\') {
      size_t end = lines.find_first_not_of(std::string_view(" \t\r\f\v\0", 6), i + 1);
      if (end != std::string::npos && lines[end] == '\n') {
        i = end;
        continue;
      }
    }
    out.push_back(lines[i]);
  }
  return out;
}

// Where the next token after `at` begins: blanks and comments skipped.
size_t next_token(std::string_view source, size_t at) {
  while (at < source.size()) {
    if (std::isspace(static_cast<unsigned char>(source[at]))) {
      ++at;
    } else if (source.compare(at, 2, "/*") == 0) {
      size_t end = source.find("*/", at + 2);
      at = end == std::string_view::npos ? source.size() : end + 2;
    } else if (source.compare(at, 2, "//") == 0) {
      at = source.find('\n', at);
    } else {
      break;
    }
  }
  return std::min(at, source.size());
}

// `text` (from native_tokens) with each use of an object-like macro whose
// body is string literals or a (qualified) name replaced by the body
// (`#define T "f16"` then `"cvt." T`; `#define NS std` then `NS::thread`), so
// that literals join and names read as the compiler reads them; empty when
// the text defines none.
std::string with_string_macros(std::string_view text) {
  std::vector<std::pair<std::string_view, std::string_view>> macros;
  for (std::string_view defined : directives(text, "define")) {
    size_t end = 0;
    while (end < defined.size() && identifier_char(defined[end])) ++end;
    if (end == 0 || (end < defined.size() && defined[end] == '(')) continue;  // function-like
    std::string_view body = trimmed(defined.substr(end));
    bool literals = body.size() >= 2 && body.front() == '"' && body.back() == '"';
    bool name = !body.empty() &&
                std::all_of(body.begin(), body.end(), [](char ch) { return identifier_char(ch) || ch == ':'; }) &&
                !std::isdigit(static_cast<unsigned char>(body.front()));
    if (literals || name) macros.emplace_back(defined.substr(0, end), body);
  }
  if (macros.empty()) return {};
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!identifier_char(text[i]) || (i > 0 && identifier_char(text[i - 1]))) {
      out.push_back(text[i++]);
      continue;
    }
    size_t end = i;
    while (end < text.size() && identifier_char(text[end])) ++end;
    std::string_view word = text.substr(i, end - i);
    auto macro = std::find_if(macros.begin(), macros.end(), [&](const auto& m) { return m.first == word; });
    bool defining = !line_before(text, i).empty() && line_before(text, i).find('#') != std::string_view::npos;
    out.append(macro != macros.end() && !defining ? macro->second : word);
    i = end;
  }
  return out;
}

std::string tokens_of(std::string_view source);

}  // namespace

std::string native_tokens(std::string_view source) {
  std::string text = tokens_of(spliced(source));
  // Strings and names given by macros read as the compiler reads them
  // (expanded once: a macro naming another macro is left as it is).
  if (std::string expanded = with_string_macros(text); !expanded.empty()) return tokens_of(expanded);
  return text;
}

namespace {

// Whether the `"` at `at` opens a raw string: R, LR, uR, UR or u8R before it,
// as a whole name (`8R"` is a number and a string).
bool raw_prefix(std::string_view source, size_t at) {
  size_t begin = at;
  while (begin > 0 && identifier_char(source[begin - 1])) --begin;
  std::string_view prefix = source.substr(begin, at - begin);
  return prefix == "R" || prefix == "LR" || prefix == "uR" || prefix == "UR" || prefix == "u8R";
}

// The end of the preprocessing number starting at `at`: digits, letters,
// `_`, `.`, a sign after e/E/p/P, and `'` before a digit, letter or `_`.
size_t pp_number_end(std::string_view source, size_t at) {
  size_t i = at + 1;
  while (i < source.size()) {
    char c = source[i];
    if (identifier_char(c) || c == '.') {
      ++i;
    } else if ((c == '+' || c == '-') && std::string_view("eEpP").find(source[i - 1]) != std::string_view::npos) {
      ++i;
    } else if (c == '\'' && i + 1 < source.size() && identifier_char(source[i + 1])) {
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

std::string tokens_of(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  size_t i = 0;
  char quote = 0;  // inside a C++ string or character literal
  while (i < source.size()) {
    char c = source[i];
    if (quote) {
      out.push_back(c);
      if (c == '\n') {  // an unterminated literal ends with its line, as the compiler's does
        quote = 0;
      } else if (c == '\\' && i + 1 < source.size()) {
        out.push_back(source[++i]);
      } else if (c == quote) {
        // "cvt.rna.t" "f32" (a comment between or not): adjacent literals are
        // one, as the compiler reads them.
        size_t next = next_token(source, i + 1);
        if (quote == '"' && next < source.size() && source[next] == '"') {
          out.pop_back();
          i = next + 1;
          continue;
        }
        quote = 0;
      }
      ++i;
      continue;
    }
    // R"delim(...)delim": a raw string, kept whole (quotes inside do not end it).
    if (c == '"' && raw_prefix(source, i)) {
      size_t paren = source.find('(', i);
      size_t end = paren == std::string_view::npos
                       ? std::string_view::npos
                       : source.find(std::string(")").append(source.substr(i + 1, paren - i - 1)).append("\""), paren);
      end = end == std::string_view::npos ? source.size() : end + (paren - i) + 1;
      out.append(source.substr(i, end - i));
      i = end;
      continue;
    }
    // A preprocessing number, read as the compiler reads it: 1'000'000 (its
    // separators dropped), 1.5e+3, 0x1p-2, and also 9'a or 8R, whose quote
    // opens no literal.
    if ((std::isdigit(static_cast<unsigned char>(c)) ||
         (c == '.' && i + 1 < source.size() && std::isdigit(static_cast<unsigned char>(source[i + 1])))) &&
        (i == 0 || !identifier_char(source[i - 1]))) {
      size_t end = pp_number_end(source, i);
      for (size_t k = i; k < end; ++k)
        if (source[k] != '\'') out.push_back(source[k]);
      i = end;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      out.push_back(c);
      ++i;
      continue;
    }
    // Digraphs of the preprocessor: %:%: is ## and %: is #.
    if (source.compare(i, 4, "%:%:") == 0) {
      while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
      i += 4;
      while (i < source.size() && (source[i] == ' ' || source[i] == '\t')) ++i;
      continue;
    }
    if (source.compare(i, 2, "%:") == 0) {
      out.push_back('#');
      i += 2;
      continue;
    }
    if (source.compare(i, 2, "//") == 0) {
      i = source.find('\n', i);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (source.compare(i, 2, "/*") == 0) {
      size_t end = source.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      out.push_back(' ');
      i = end + 2;
      continue;
    }
    if (source.compare(i, 2, "##") == 0 || source.compare(i, 2, "::") == 0) {
      // Paste: drop the blanks on both sides; `::` keeps itself, and joins
      // across line ends too (`std::` then `thread` on the next line).
      bool scope = c == ':';
      auto blank = [scope](char ch) { return ch == ' ' || ch == '\t' || (scope && (ch == '\n' || ch == '\r')); };
      while (!out.empty() && blank(out.back())) out.pop_back();
      if (scope) out.append("::");
      i += 2;
      size_t after = i;
      while (i < source.size() && blank(source[i])) ++i;
      // A directive on the next line stays one: its `#` begins a line.
      if (scope && i < source.size() && source[i] == '#' &&
          source.substr(after, i - after).find('\n') != std::string_view::npos)
        out.push_back('\n');
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return expand_namespace_aliases(out);
}

}  // namespace

bool has_identifier(std::string_view text, std::string_view name, std::string_view unless_member) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if (at > 0 && identifier_char(text[at - 1])) continue;
    if (end < text.size() && identifier_char(text[end])) continue;
    if (!unless_member.empty() && text.substr(end).starts_with("::") && text.substr(end + 2).starts_with(unless_member))
      continue;
    return true;
  }
  return false;
}

bool has_call(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if (at > 0 && (identifier_char(text[at - 1]) || text[at - 1] == '.')) continue;
    if (end < text.size() && identifier_char(text[end])) continue;
    while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    if (end < text.size() && text[end] == '(') return true;
  }
  return false;
}

std::vector<std::string_view> directives(std::string_view text, std::string_view name) {
  std::vector<std::string_view> found;
  for (size_t line = 0; line < text.size();) {
    size_t end = std::min(text.find('\n', line), text.size());
    std::string_view content = text.substr(line, end - line);
    size_t hash = content.find_first_not_of(" \t");
    if (hash != std::string_view::npos && content[hash] == '#') {
      size_t word = content.find_first_not_of(" \t", hash + 1);
      if (word != std::string_view::npos && content.substr(word).starts_with(name) &&
          (word + name.size() == content.size() || !identifier_char(content[word + name.size()]))) {
        size_t operand = content.find_first_not_of(" \t", word + name.size());
        found.push_back(operand == std::string_view::npos ? std::string_view{} : content.substr(operand));
      }
    }
    line = end + 1;
  }
  return found;
}

bool pastes_tokens(std::string_view value) {
  std::string text = native_tokens(value);
  return !directives(text, "define").empty() &&
         (value.find("##") != std::string_view::npos || value.find("%:%:") != std::string_view::npos);
}

bool has_uncompared_identifier(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at > 0 && identifier_char(text[at - 1])) || (end < text.size() && identifier_char(text[end]))) continue;
    // Back over a qualifier (`at::`) and blanks to what precedes the name.
    size_t before = at;
    while (before >= 2 && text.compare(before - 2, 2, "::") == 0) {
      before -= 2;
      while (before > 0 && identifier_char(text[before - 1])) --before;
    }
    while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
    bool compared = before >= 2 && (text.compare(before - 2, 2, "==") == 0 || text.compare(before - 2, 2, "!=") == 0);
    if (!compared) return true;
  }
  return false;
}

char previous_char(std::string_view text, size_t at) {
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  return at > 0 ? text[at - 1] : 0;
}

bool is_member(std::string_view text, size_t at) {
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  return at > 0 && (text[at - 1] == '.' || (text[at - 1] == '>' && at > 1 && text[at - 2] == '-'));
}

char next_char(std::string_view text, size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  return at < text.size() ? text[at] : 0;
}

std::string_view line_before(std::string_view text, size_t at) {
  size_t line = text.rfind('\n', at);
  line = line == std::string_view::npos ? 0 : line + 1;
  return text.substr(line, at - line);
}

std::string_view word_before(std::string_view text, size_t at) {
  size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  size_t begin = end;
  while (begin > 0 && identifier_char(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

std::string c_escapes_decoded(std::string_view text) {
  auto hex = [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; };
  auto octal = [](char ch) { return ch >= '0' && ch <= '7'; };
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size(); ++at) {
    if (text[at] != '\\' || at + 1 >= text.size()) {
      out += text[at];
      continue;
    }
    // The escape's extent as C reads it; its value as decode_escape reads it.
    size_t end = at + 2;
    char kind = text[at + 1];
    if (kind == 'x') {
      while (end < text.size() && hex(text[end])) ++end;
      if (end == at + 2) {  // "\x" with no digit: left as written
        out += text[at];
        continue;
      }
    } else if (octal(kind)) {
      while (end < text.size() && end < at + 4 && octal(text[end])) ++end;
    } else if (kind == 'u' || kind == 'U') {
      size_t digits = kind == 'u' ? 4 : 8;
      while (end < text.size() && end < at + 2 + digits && hex(text[end])) ++end;
    }
    decode_escape(text.substr(at, end - at), out);
    at = end - 1;
  }
  return out;
}

std::string blank_literals(std::string_view text) {
  constexpr std::string_view kRawStringPrefixes[] = {"R", "u8R", "uR", "UR", "LR"};
  std::string out(text);
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < std::min(to, out.size()); ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
      continue;
    }
    if (!identifier_char(c)) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && identifier_char(text[end])) ++end;
    // A preprocessing number holds its digit separators (`1'000`, `0x1'f`):
    // their quotes open no character literal.
    while (std::isdigit(static_cast<unsigned char>(c)) && end + 1 < text.size() && text[end] == '\'' &&
           identifier_char(text[end + 1]))
      for (end += 1; end < text.size() && identifier_char(text[end]);) ++end;
    std::string_view word = text.substr(i, end - i);
    if (end < text.size() && text[end] == '"' &&
        std::find(std::begin(kRawStringPrefixes), std::end(kRawStringPrefixes), word) != std::end(kRawStringPrefixes)) {
      size_t open = text.find('(', end + 1);
      size_t close = std::string_view::npos;  // the closing `)delim"`'s quote
      if (open != std::string_view::npos) {
        std::string closing(1, ')');
        closing.append(text.substr(end + 1, open - end - 1)).push_back('"');
        close = text.find(closing, open + 1);
        if (close != std::string_view::npos) close += closing.size() - 1;
      }
      if (close == std::string_view::npos) close = text.size();
      blank(end + 1, close);
      end = close + 1;
    }
    i = end;
  }
  return out;
}

std::string blank_prose_literals(std::string_view text) {
  constexpr std::string_view kAssembly[] = {"asm", "__asm", "__asm__"};
  constexpr std::string_view kAssemblyQualifiers[] = {"volatile", "__volatile__", "__volatile", "inline", "goto"};
  std::string out = blank_literals(text);
  // Directives keep their text (a macro's string may be handed to asm).
  for (size_t line = 0; line < text.size();) {
    size_t end = std::min(text.find('\n', line), text.size());
    std::string_view content = trimmed(text.substr(line, end - line));
    if (content.starts_with('#') || content.starts_with("%:"))
      out.replace(line, end - line, text.substr(line, end - line));
    line = end + 1;
  }
  for (const Identifier& word : identifiers(out)) {
    if (std::find(std::begin(kAssembly), std::end(kAssembly), word.text) == std::end(kAssembly)) continue;
    std::string_view before = trimmed(line_before(out, word.at));
    if (before.starts_with('#') || before.starts_with("%:")) return std::string(text);  // a macro names asm
    size_t at = word.at + word.text.size();
    for (;;) {  // past qualifiers and blanks
      while (at < out.size() && std::isspace(static_cast<unsigned char>(out[at]))) ++at;
      size_t end = at;
      while (end < out.size() && identifier_char(out[end])) ++end;
      std::string_view qualifier(out.data() + at, end - at);
      if (end == at || std::find(std::begin(kAssemblyQualifiers), std::end(kAssemblyQualifiers), qualifier) ==
                           std::end(kAssemblyQualifiers))
        break;
      at = end;
    }
    if (at >= out.size() || out[at] != '(') return std::string(text);  // asm used other than as a statement
    size_t close = at;
    for (int depth = 0; close < out.size(); ++close) {
      depth += out[close] == '(' ? 1 : out[close] == ')' ? -1 : 0;
      if (depth == 0) break;
    }
    close = std::min(close + 1, out.size());
    out.replace(at, close - at, text.substr(at, close - at));
  }
  return out;
}

std::vector<Identifier> identifiers(std::string_view code) {
  std::vector<Identifier> out;
  for (size_t i = 0; i < code.size();) {
    if (!identifier_char(code[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < code.size() && identifier_char(code[end])) ++end;
    if (!std::isdigit(static_cast<unsigned char>(code[i]))) out.push_back({code.substr(i, end - i), i});
    i = end;
  }
  return out;
}

std::string_view trimmed(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  return first == std::string_view::npos ? std::string_view{}
                                         : text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

namespace {

// Calls `visit(at)` for every whole-identifier occurrence of `name`; stops
// when it returns true.
template <typename Visit>
bool any_word(std::string_view text, std::string_view name, Visit visit) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at > 0 && identifier_char(text[at - 1])) || (end < text.size() && identifier_char(text[end]))) continue;
    if (visit(at)) return true;
  }
  return false;
}

// any_word for the occurrences that are not a member (`.name`, `->name`).
template <typename Visit>
bool any_occurrence(std::string_view text, std::string_view name, Visit visit) {
  return any_word(text, name, [&](size_t at) { return !is_member(text, at) && visit(at); });
}

// The arguments of the call whose `(` is at `open`, split at the commas
// outside brackets; those before the text ends when it is not closed.
std::vector<std::string_view> call_arguments(std::string_view text, size_t open) {
  std::vector<std::string_view> arguments;
  size_t start = open + 1;
  int depth = 0;
  for (size_t i = start; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if ((ch == ')' || ch == ']' || ch == '}') && depth-- == 0) {
      arguments.push_back(text.substr(start, i - start));
      break;
    }
    if (ch == ',' && depth == 0) {
      arguments.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return arguments;
}

// The name called by the innermost call whose argument list holds `at`
// (`CALL` of `CALL(a, fork)`); empty when `at` is in none.
std::string_view enclosing_call(std::string_view text, size_t at) {
  size_t paren = at;
  for (int depth = 0; paren > 0; --paren) {
    char ch = text[paren - 1];
    if (ch == ')') ++depth;
    if (ch == '(' && depth-- == 0) break;
  }
  if (paren == 0) return {};
  return word_before(text, paren - 1);
}

}  // namespace

bool has_free_identifier(std::string_view text, std::string_view name) {
  return any_occurrence(text, name, [](size_t) { return true; });
}

bool has_definition(std::string_view text, std::string_view name) {
  return any_occurrence(text, name, [&](size_t at) {
    size_t i = at + name.size();
    if (next_char(text, i) != '(') return false;
    // The parameter list, then a body.
    int depth = 0;
    for (i = text.find('(', i); i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      if (text[i] == ')' && --depth == 0) break;
    }
    if (i >= text.size()) return false;
    size_t body = text.find_first_not_of(" \t\n", i + 1);
    while (body != std::string_view::npos && identifier_char(text[body])) {  // noexcept, const, __host__
      while (body < text.size() && identifier_char(text[body])) ++body;
      body = text.find_first_not_of(" \t\n", body);
    }
    return body != std::string_view::npos && text[body] == '{' && identifier_char(previous_char(text, at));
  });
}

bool has_member_call(std::string_view text, std::string_view name) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if (end < text.size() && identifier_char(text[end])) continue;
    if (previous_char(text, at) == '.' && next_char(text, end) == '(') return true;
  }
  return false;
}

bool has_half_type(std::string_view text) {
  return any_occurrence(text, "half", [&](size_t at) {
    char before = previous_char(text, at);
    size_t after = at + 4;
    while (after < text.size() &&
           (std::isspace(static_cast<unsigned char>(text[after])) || text[after] == '*' || text[after] == '&'))
      ++after;
    bool then_name =
        after < text.size() && identifier_char(text[after]) && !std::isdigit(static_cast<unsigned char>(text[after]));
    // `const half* x`, `(half* x`, `typedef half h`, `<half>`, `<half*, 2>`:
    // half as a type; `int half = n / 2`, `x * half`, `return half * y`,
    // `i < half && p[i]` are a variable.
    std::string_view word = word_before(text, at);
    bool declares = before == 0 || std::string_view("(,;{}").find(before) != std::string_view::npos ||
                    word == "const" || word == "typedef" || word == "static" || word == "volatile" ||
                    word == "__shared__" || word == "extern";
    bool template_argument =
        (before == '<' || before == ',') && after < text.size() && (text[after] == '>' || text[after] == ',');
    return (declares && then_name) || template_argument;
  });
}

bool has_type_use(std::string_view text, std::string_view name) {
  return any_word(text, name, [&](size_t at) {
    size_t end = at + name.size();
    char before = previous_char(text, at);
    char after = next_char(text, end);
    std::string_view head = line_before(text, at);
    if (head.find('#') != std::string_view::npos)  // `#include <thread>` names a header; `#define T thread` renames
      return head.find("include") == std::string_view::npos;
    if (before == '.' || (before == '>' && at >= 2 && text[at - 2] == '-')) return false;  // a member `x.thread`
    // `thread::hardware_concurrency()`, `thread::id`: what the type tells, no thread made.
    std::string_view rest = text.substr(end);
    if (rest.starts_with("::hardware_concurrency") || rest.starts_with("::id")) return false;
    // `::thread` (global or `std::` qualified), `thread t(f)`, `thread(f)`,
    // `thread{f}`: the type named or an object made.
    if (before == ':' || identifier_char(after) || after == '(' || after == '{') return true;
    // `<thread>`, `<thread&>`, `<thread*, ...>`: a template argument.
    if ((before == '<' || before == ',') && (after == '>' || after == ',' || after == '&' || after == '*')) return true;
    // `(thread)(f)`: a cast, not a call's argument `f(thread)`.
    if (before == '(' && after == ')') {
      size_t open = text.rfind('(', at);
      char ahead = open == std::string_view::npos ? 0 : previous_char(text, open);
      if (!identifier_char(ahead) && ahead != ')' && ahead != ']') return true;
    }
    // `using T = thread;`, `typedef thread T;`: renamed.
    return head.find("using") != std::string_view::npos || head.find("typedef") != std::string_view::npos;
  });
}

bool has_using_directive(std::string_view text) {
  return any_word(text, "namespace", [&](size_t at) {
    size_t end = at;
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return end >= 5 && text.substr(end - 5, 5) == "using" && (end == 5 || !identifier_char(text[end - 6]));
  });
}

namespace {

// Whether the occurrence of `name` at `at` declares it: assigned to, in a
// directive (`#define NAME ...`, `#undef NAME`), or with a type before it
// (`auto NAME = ...`, `cublasMath_t NAME{...}`, `void NAME(...) {`).
bool declared_at(std::string_view text, std::string_view name, size_t at) {
  size_t end = at + name.size();
  size_t next = text.find_first_not_of(" \t\r\n", end);
  bool assigned = next_char(text, end) == '=' && (next + 1 >= text.size() || text[next + 1] != '=');
  bool directive = line_before(text, at).find('#') != std::string_view::npos;
  std::string_view word = word_before(text, at);
  return assigned || directive || (!word.empty() && word != "return" && word != "case");
}

}  // namespace

bool redefines(std::string_view text, std::string_view name) {
  return any_word(text, name, [&](size_t at) {
    char after = next_char(text, at + name.size());
    return declared_at(text, name, at) || after == '(' || after == '{';
  });
}

bool has_unlisted_argument(std::string_view text, std::string_view name, size_t index, size_t arity,
                           std::span<const std::string_view> allowed, std::span<const std::string_view> restored) {
  for (std::string_view value : allowed)
    if (redefines(text, value)) return true;  // `const auto CUBLAS_DEFAULT_MATH = ...(3)` shadows the name
  auto listed_only = [&](std::string_view argument) {
    if (std::find(restored.begin(), restored.end(), trimmed(argument)) != restored.end()) return true;
    for (size_t at = 0; at < argument.size();) {
      char ch = argument[at];
      if (std::isspace(static_cast<unsigned char>(ch)) || ch == '(' || ch == ')' || ch == '|') {
        ++at;
        continue;
      }
      size_t end = at;
      while (end < argument.size() && identifier_char(argument[end])) ++end;
      std::string_view word = argument.substr(at, end - at);
      if (word.empty() || std::isdigit(static_cast<unsigned char>(word.front())) ||
          std::find(allowed.begin(), allowed.end(), word) == allowed.end())
        return false;
      at = end;
    }
    return true;
  };
  return any_occurrence(text, name, [&](size_t at) {
    size_t open = at + name.size();
    while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
    if (open >= text.size() || text[open] != '(') return true;  // its address taken, renamed, passed on
    std::vector<std::string_view> arguments = call_arguments(text, open);
    // Another count of arguments: a declaration, or commas of a template
    // argument (`pick<T, CUBLAS_DEFAULT_MATH, U>(h)`) that shift them.
    if (arguments.size() != arity) return true;
    return !listed_only(arguments[index]);
  });
}

std::vector<std::string_view> restored_values(std::string_view source, std::string_view type, std::string_view getter,
                                              std::string_view setter, std::span<const std::string_view> kept) {
  if (source.find(type) == std::string_view::npos) return {};  // no variable of the type
  // Read outside literals: `"cublasSetMathMode("` in a string is no call
  // around a later argument. The names found are given as `source`'s.
  const std::string code = blank_literals(source);
  std::string_view text = code;
  // A getter of the text's own (`template <class T> void cublasGetMathMode(int, T* m)`)
  // saves what it likes.
  if (any_word(text, getter, [&](size_t at) { return declared_at(text, getter, at); })) return {};
  // Where `setter` is called with one of `kept` (the mode set to fp32's).
  std::vector<size_t> kept_at;
  any_occurrence(text, setter, [&](size_t at) {
    size_t open = text.find_first_not_of(" \t\r\n", at + setter.size());
    if (open == std::string_view::npos || text[open] != '(') return false;
    std::vector<std::string_view> arguments = call_arguments(text, open);
    if (arguments.size() == 2 && std::find(kept.begin(), kept.end(), trimmed(arguments[1])) != kept.end())
      kept_at.push_back(at);
    return false;
  });
  std::vector<std::string_view> names;
  any_word(text, type, [&](size_t at) {  // `cublasMath_t mode;`
    size_t begin = text.find_first_not_of(" \t\r\n", at + type.size());
    size_t end = begin;
    while (end < text.size() && identifier_char(text[end])) ++end;
    if (begin == std::string_view::npos || end == begin || next_char(text, end) != ';') return false;
    std::string_view name = text.substr(begin, end - begin);
    size_t saved = std::string_view::npos;  // where the last getter call saved it
    bool restores_only = !any_word(text, name, [&](size_t use) {
      char before = previous_char(text, use), after = next_char(text, use + name.size());
      std::string_view call = enclosing_call(text, use);
      if (word_before(text, use) == type && after == ';') return false;  // its declaration
      if (before == '&' && after == ')' && call == getter) return saved = use, false;
      if (before == ',' && after == ')' && call == setter)
        return saved == std::string_view::npos ||
               std::none_of(kept_at.begin(), kept_at.end(), [&](size_t k) { return saved < k && k < use; });
      return true;  // written or read any other way
    });
    if (restores_only && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(source.substr(begin, end - begin));
    return false;
  });
  return names;
}

bool has_type_besides_declarations(std::string_view text, std::string_view type,
                                   std::span<const std::string_view> declared) {
  return any_word(text, type, [&](size_t at) {
    size_t begin = text.find_first_not_of(" \t\r\n", at + type.size());
    size_t end = begin;
    while (end < text.size() && identifier_char(text[end])) ++end;
    return begin == std::string_view::npos || next_char(text, end) != ';' ||
           std::find(declared.begin(), declared.end(), text.substr(begin, end - begin)) == declared.end();
  });
}

std::string_view identifier_with_prefix(std::string_view text, std::string_view prefix) {
  for (size_t at = text.find(prefix); at != std::string_view::npos; at = text.find(prefix, at + 1)) {
    if (at > 0 && identifier_char(text[at - 1])) continue;
    size_t end = at + prefix.size();
    while (end < text.size() && identifier_char(text[end])) ++end;
    return text.substr(at, end - at);
  }
  return {};
}

std::string_view ptx_instruction_type(std::string_view text, std::string_view opcode,
                                      std::span<const std::string_view> types) {
  std::string_view found;
  any_word(text, opcode, [&](size_t at) {
    for (size_t i = at + opcode.size(); i < text.size() && text[i] == '.';) {
      size_t end = ++i;
      while (end < text.size() && identifier_char(text[end])) ++end;
      std::string_view part = text.substr(i, end - i);
      if (std::find(types.begin(), types.end(), part) != types.end()) return found = part, true;
      i = end;
    }
    return false;
  });
  return found;
}

std::string_view quoted_dunder(std::string_view text) {
  for (size_t at = text.find("\"__"); at != std::string_view::npos; at = text.find("\"__", at + 1)) {
    size_t end = at + 3;
    while (end < text.size() && identifier_char(text[end])) ++end;
    std::string_view name = text.substr(at + 1, end - at - 1);
    if (end < text.size() && text[end] == '"' && name.size() > 4 && name.ends_with("__")) return name;
  }
  return {};
}

bool has_function_use(std::string_view text, std::string_view name) {
  if (has_call(text, name)) return true;
  return any_word(text, name, [&](size_t at) {
    size_t end = at + name.size();
    // &fork: its address taken.
    size_t before = at;
    while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
    if (before > 0 && text[before - 1] == '&' && (before < 2 || text[before - 2] != '&')) return true;
    // #define SPAWN fork: named in a macro, called under another name.
    std::string_view head = line_before(text, at);
    size_t hash = head.find_first_not_of(" \t");
    if (hash != std::string_view::npos && head[hash] == '#' &&
        head.substr(hash + 1).find("define") != std::string_view::npos)
      return true;
    // CALL(fork): an argument of a function-like macro the text defines.
    char after = next_char(text, end);
    char open = previous_char(text, at);
    if ((open == '(' || open == ',') && (after == ')' || after == ',')) {
      std::string_view macro = enclosing_call(text, at);
      for (std::string_view defined : directives(text, "define"))
        if (!macro.empty() && defined.starts_with(macro) && defined.substr(macro.size()).starts_with('(')) return true;
    }
    return false;
  });
}

}  // namespace kmem::check
