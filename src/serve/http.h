// What every handler of the server shares: JSON replies, one-line JSON errors
// that name the field at fault, reading a JSON request body and query
// parameters with their types checked.
#pragma once

#include <httplib.h>

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kmem/result.h"

namespace kmem::serve {

// A refusal: the HTTP status and one line saying why.
struct Refusal {
  int status = 400;
  std::string message;
};

// {"error": {"status", "message"}} with `status`; the message made one line.
void send_error(httplib::Response& res, int status, std::string_view message);
void send_error(httplib::Response& res, const Refusal& refusal);
void send_json(httplib::Response& res, const nlohmann::json& body, int status = 200);
// An already serialised JSON document.
void send_json_text(httplib::Response& res, std::string body, int status = 200);

// The request body as a JSON object with only the `allowed` keys; else a
// 400 (or 415 when it is not declared as JSON) naming what is wrong.
Result<nlohmann::json> json_body(const httplib::Request& req, std::initializer_list<std::string_view> allowed);

// Refuses query parameters other than `allowed` ("unknown query parameter 'x'").
Status only_params(const httplib::Request& req, std::initializer_list<std::string_view> allowed);
// A required query parameter.
Result<std::string> required_param(const httplib::Request& req, const char* name);
// An optional number parameter within [low, high]; nothing when absent.
Result<std::optional<double>> number_param(const httplib::Request& req, const char* name, double low, double high);

}  // namespace kmem::serve
