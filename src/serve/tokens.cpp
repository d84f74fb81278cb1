// Reading the tokens file and finding the token of a request.
#include "serve/tokens.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <set>

#include "util/file.h"
#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem::serve {
namespace {

constexpr std::size_t kMinSecretBytes = 16;
constexpr std::size_t kMaxSecretBytes = 256;

// Compares without stopping at the first difference, so the time taken says
// nothing of how much of a secret was right.
bool same_secret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

Status check_secret(std::string_view secret) {
  if (secret.size() < kMinSecretBytes || secret.size() > kMaxSecretBytes)
    return Error(fmt::format("must be {} to {} characters", kMinSecretBytes, kMaxSecretBytes));
  for (char c : secret)
    if (c <= ' ' || c > '~') return Error("must be printable ASCII without spaces");
  return Status::success();
}

}  // namespace

Result<TokenTable> TokenTable::parse(std::string_view text, const std::string& source_name) {
  auto json = util::parse_strict_json(text, source_name);
  if (!json) return json.error();
  util::JsonFields doc(*json, source_name);
  if (Status s = doc.is_object(); !s) return s.error();
  if (Status s = doc.only({"format", "tokens"}); !s) return s.error();
  auto format = doc.string("format");
  if (!format) return format.error();
  if (*format != "kmem-serve-tokens/1") return doc.wrong("format", "\"kmem-serve-tokens/1\"");
  auto list = doc.array("tokens");
  if (!list) return list.error();
  TokenTable table;
  std::set<std::string> names, secrets;
  for (std::size_t i = 0; i < (*list)->size(); ++i) {
    util::JsonFields f((**list)[i], fmt::format("{}: tokens[{}]", source_name, i));
    if (Status s = f.is_object(); !s) return s.error();
    if (Status s = f.only({"name", "access", "secret"}); !s) return s.error();
    auto name = f.string("name");
    if (!name) return name.error();
    auto access = f.string("access");
    if (!access) return access.error();
    auto secret = f.string("secret");
    if (!secret) return secret.error();
    if (name->empty() || name->size() > 128) return f.wrong("name", "1 to 128 characters");
    if (*access != "read" && *access != "write") return f.wrong("access", "\"read\" or \"write\"");
    if (Status s = check_secret(*secret); !s) return f.wrong("secret", s.error().message());
    if (!names.insert(*name).second) return f.error(fmt::format("the name '{}' is given twice", *name));
    if (!secrets.insert(*secret).second) return f.error("this secret is given to another token too");
    table.tokens_.push_back(Token{*name, *access == "write" ? Access::kWrite : Access::kRead, *secret});
  }
  return table;
}

Result<TokenTable> TokenTable::load(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0)
    return Error(
        fmt::format("{}: others than its owner may read it (mode {:o}); chmod 600 it", path, st.st_mode & 0777));
  auto text = util::read_file(path, std::size_t{1} << 20);
  if (!text) return text.error();
  return parse(*text, path);
}

std::optional<Token> TokenTable::find(std::string_view authorization) const {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.substr(0, kBearer.size()) != kBearer) return std::nullopt;
  std::string_view secret = authorization.substr(kBearer.size());
  const Token* match = nullptr;
  for (const Token& token : tokens_)
    if (same_secret(token.secret, secret)) match = &token;
  if (match == nullptr) return std::nullopt;
  return *match;
}

}  // namespace kmem::serve
