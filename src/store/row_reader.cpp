// Typed, checked reads of a query's columns (row_reader.h).
#include "store/row_reader.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>

#include "kmem/limits.h"

namespace kmem::store {
void RowReader::fail(const std::string& what) {
  if (!failure_) failure_ = what;
}

Status RowReader::status() const {
  if (failure_) return Error(fmt::format("{}: {}", where_, *failure_));
  return Status::success();
}

bool RowReader::expect(int column, const char* name, sql::Type type, const char* expected) {
  sql::Type actual = row_.type(column);
  if (actual == type || (type == sql::Type::kReal && actual == sql::Type::kInteger)) return true;
  fail(fmt::format("column '{}' must be {}, not {}", name, expected, sql::type_name(actual)));
  return false;
}

std::string RowReader::text(int column, const char* name) {
  if (!expect(column, name, sql::Type::kText, "text")) return "";
  std::string value = row_.text(column);
  if (Status s = limits::check_utf8(value); !s) fail(fmt::format("column '{}' {}", name, s.error().message()));
  return value;
}

std::optional<std::string> RowReader::optional_text(int column, const char* name) {
  if (row_.is_null(column)) return std::nullopt;
  return text(column, name);
}

int RowReader::integer(int column, const char* name) {
  if (!expect(column, name, sql::Type::kInteger, "an integer")) return 0;
  long long value = row_.integer64(column);
  if (value < INT_MIN || value > INT_MAX) {
    fail(fmt::format("column '{}' holds {}, beyond the range of int", name, value));
    return 0;
  }
  return static_cast<int>(value);
}

std::optional<int> RowReader::optional_integer(int column, const char* name) {
  if (row_.is_null(column)) return std::nullopt;
  return integer(column, name);
}

double RowReader::real(int column, const char* name) {
  if (!expect(column, name, sql::Type::kReal, "a number")) return 0.0;
  double value = row_.real(column);
  if (!std::isfinite(value)) {
    fail(fmt::format("column '{}' holds {}, not a finite number", name, value));
    return 0.0;
  }
  return value;
}

std::optional<double> RowReader::optional_real(int column, const char* name) {
  if (row_.is_null(column)) return std::nullopt;
  return real(column, name);
}

bool RowReader::flag(int column, const char* name) {
  int value = integer(column, name);
  if (value != 0 && value != 1) fail(fmt::format("column '{}' must be 0 or 1, not {}", name, value));
  return value == 1;
}

}  // namespace kmem::store
