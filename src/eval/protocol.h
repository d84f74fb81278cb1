// The worker protocol, written once as data (data/protocol/worker.json,
// compiled in) and checked here on the orchestrator's side, as
// python/kmem_worker/protocol.py checks it on the worker's. Every record a
// worker sends is checked against its role's declarations before anything
// reads it: a trusted role's record (the reference's) that breaks them is an
// error naming the record and the field; an untrusted one (the candidate's)
// was not written by the worker (forged_result). Fields reads a checked
// record's fields, each as the type the file declares for it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kmem/result.h"

namespace kmem::eval {

using Json = nlohmann::json;

class Protocol {
 public:
  // The protocol compiled into kmem (parsed once; immutable).
  static const Protocol& compiled();
  // A protocol file's text; the error names what is wrong with it.
  static Result<Protocol> parse(const std::string& text);

  // Whether `role`'s events come from kmem's own code only.
  bool trusted(const std::string& role) const;
  // Checks an event `role` sent / a command sent to it: every field
  // declared, of its type, every required one present.
  Status check_event(const std::string& role, const Json& record) const;
  Status check_command(const std::string& role, const Json& record) const;
  // The declaration of the field at `path` ("observations.timing_tally.calls")
  // of `role`'s event `event`, its named type resolved; nullopt when undeclared.
  std::optional<Json> event_field(const std::string& role, const std::string& event, const std::string& path) const;

  struct Example {
    std::string role, kind, name;  // kind: "commands" or "events"
    Json record;
  };
  // Every record's example (the tests of both sides check and read them).
  std::vector<Example> examples() const;

 private:
  explicit Protocol(Json spec) : spec_(std::move(spec)) {}
  const Json* record(const std::string& role, const char* kind, const std::string& name) const;
  Json resolved(const Json& field) const;
  Status check(const std::string& role, const char* kind, const Json& record) const;
  Status check_value(const std::string& where, const std::string& path, const Json& field, const Json& value) const;
  Status check_object(const std::string& where, const std::string& path, const Json& field, const Json& value) const;

  Json spec_;
};

// An error record's "kind" (type error_kind): out of memory is reported by
// the exception's type, never read from a message.
enum class ErrorKind { kException, kOutOfMemory, kDeviceFault };
ErrorKind error_kind(const std::string& kind);

// The fields of one checked event of `role`, read by their declared types.
// Reading a field as a type the protocol does not declare for it (or one it
// does not declare at all) is a bug in kmem, not in the input: it throws
// std::logic_error, so every reader's test finds it. A field that is absent
// (optional, or an untrusted record read before or without a check) or null
// reads as the fallback.
class Fields {
 public:
  // `base`: the path of `object` inside the event ("" for the event itself).
  Fields(const std::string& role, const std::string& event, const Json& object, std::string base = "",
         const Protocol& protocol = Protocol::compiled());

  std::string text(const char* key) const;
  double number(const char* key, double fallback = 0.0) const;  // int or number
  std::optional<double> maybe_number(const char* key) const;
  bool flag(const char* key, bool fallback = false) const;
  // An object, array or any-typed field as it is (null when absent).
  const Json& json(const char* key) const;
  // The fields of the object at `key`.
  Fields object(const char* key) const;

 private:
  const Json* find(const char* key, std::initializer_list<const char*> types) const;

  std::string role_, event_;
  const Json& object_;
  std::string base_;
  const Protocol& protocol_;
};

}  // namespace kmem::eval
