// JSON replies, errors and typed request fields for the server's handlers.
#include "serve/http.h"

#include <fmt/format.h>

#include <charconv>

#include "util/json_fields.h"
#include "util/strict_json.h"

namespace kmem::serve {

namespace {

std::string one_line(std::string_view text) {
  std::string line(text.substr(0, 2000));
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

std::string names(std::initializer_list<std::string_view> allowed) {
  std::string out;
  for (std::string_view name : allowed) out += fmt::format("{}{}", out.empty() ? "" : ", ", name);
  return out;
}

}  // namespace

void send_json(httplib::Response& res, const nlohmann::json& body, int status) {
  send_json_text(res, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), status);
}

void send_json_text(httplib::Response& res, std::string body, int status) {
  res.status = status;
  if (body.empty() || body.back() != '\n') body += '\n';
  res.set_content(std::move(body), "application/json");
}

void send_error(httplib::Response& res, int status, std::string_view message) {
  send_json(res, {{"error", {{"status", status}, {"message", one_line(message)}}}}, status);
}

void send_error(httplib::Response& res, const Refusal& refusal) { send_error(res, refusal.status, refusal.message); }

Result<nlohmann::json> json_body(const httplib::Request& req, std::initializer_list<std::string_view> allowed) {
  std::string type = req.get_header_value("Content-Type");
  if (type.rfind("application/json", 0) != 0)
    return Error(
        fmt::format("the request body must be JSON (Content-Type: application/json, not '{}')", one_line(type)));
  auto parsed = util::parse_strict_json(req.body, "request body");
  if (!parsed) return parsed.error();
  util::JsonFields fields(*parsed, "request body");
  if (Status s = fields.is_object(); !s) return s.error();
  if (Status s = fields.only(allowed); !s) return s.error();
  return std::move(*parsed);
}

Status only_params(const httplib::Request& req, std::initializer_list<std::string_view> allowed) {
  for (const auto& [name, value] : req.params) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == name;
    if (!known)
      return Error(allowed.size() == 0
                       ? fmt::format("unknown query parameter '{}' (this path takes none)", one_line(name))
                       : fmt::format("unknown query parameter '{}' (expected {})", one_line(name), names(allowed)));
    if (req.params.count(name) > 1) return Error(fmt::format("query parameter '{}' is given twice", name));
  }
  return Status::success();
}

Result<std::string> required_param(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return Error(fmt::format("missing query parameter '{}'", name));
  std::string value = req.get_param_value(name);
  if (value.empty()) return Error(fmt::format("query parameter '{}' is empty", name));
  return value;
}

Result<std::optional<double>> number_param(const httplib::Request& req, const char* name, double low, double high) {
  if (!req.has_param(name)) return std::optional<double>();
  std::string text = req.get_param_value(name);
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !(value >= low && value <= high))
    return Error(fmt::format("query parameter '{}' must be a number from {} to {}", name, low, high));
  return std::optional<double>(value);
}

}  // namespace kmem::serve
