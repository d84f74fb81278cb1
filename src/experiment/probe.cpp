// The endpoint probe run before an experiment: GET {base_url}/models.
#include <curl/curl.h>
#include <fmt/format.h>

#include <cstdlib>

#include "kmem/experiment.h"

namespace kmem {

Status probe_endpoint(const EndpointConfig& endpoint, double timeout_s) {
  std::string base = endpoint.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string url = base + "/models";
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return Error(url + ": cannot start libcurl");
  std::string header;
  curl_slist* headers = nullptr;
  if (const char* key = std::getenv(endpoint.api_key_env.c_str()); key != nullptr && *key != '\0') {
    header = std::string("Authorization: Bearer ") + key;
    headers = curl_slist_append(headers, header.c_str());
  }
  auto discard = +[](char*, size_t size, size_t n, void*) -> size_t { return size * n; };
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_s * 1000));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (rc != CURLE_OK) return Error(fmt::format("endpoint {}: unreachable ({})", url, curl_easy_strerror(rc)));
  if (status != 200) return Error(fmt::format("endpoint {}: answered HTTP {}", url, status));
  return Status::success();
}

}  // namespace kmem
