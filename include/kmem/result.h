// Errors as values. Every fallible kmem function returns Result<T> (or Status
// when there is no value): either the value, or an Error whose message carries
// its context ("file:entry: what is wrong"). Callers add context with
// Error::wrap and hand errors up to the CLI, which prints them and picks the
// exit code. Nothing in kmem throws across a module boundary.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kmem {

class Error {
 public:
  // What kind of failure it is, for the few callers that act on it (the
  // evaluator runs a job again alone when a worker ran out of memory); most
  // only print the message.
  enum class Kind { kFailure, kOutOfMemory };

  explicit Error(std::string message, Kind kind = Kind::kFailure) : message_(std::move(message)), kind_(kind) {}

  const std::string& message() const { return message_; }
  Kind kind() const { return kind_; }

  // Returns this error, of the same kind, with `context: ` put in front of its message.
  Error wrap(const std::string& context) const { return Error(context + ": " + message_, kind_); }

 private:
  std::string message_;
  Kind kind_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// The result of an operation that yields nothing but may fail.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}

  static Status success() { return Status(); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_{""};
  bool ok_ = true;
};

}  // namespace kmem
