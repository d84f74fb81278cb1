// The bearer tokens of the server (docs/serve.md, "Tokens"): a
// kmem-serve-tokens/1 file names each token, its access ("read" or "write")
// and its secret. Lookups compare secrets in constant time; the secret never
// leaves this table (the audit log names tokens by name).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kmem/result.h"

namespace kmem::serve {

enum class Access { kRead, kWrite };

struct Token {
  std::string name;
  Access access = Access::kRead;
  std::string secret;
};

class TokenTable {
 public:
  // Parses a kmem-serve-tokens/1 document; errors name `source_name` and the entry.
  static Result<TokenTable> parse(std::string_view text, const std::string& source_name);
  // Reads the file at `path`, refusing one that others than its owner may read.
  static Result<TokenTable> load(const std::string& path);

  // The token whose secret an `Authorization: Bearer <secret>` header value
  // carries, or nothing.
  std::optional<Token> find(std::string_view authorization) const;

  std::size_t size() const { return tokens_.size(); }

 private:
  std::vector<Token> tokens_;
};

}  // namespace kmem::serve
