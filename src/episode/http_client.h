// The libcurl chat client (http_client.cpp) and the URL it posts to.
#pragma once

#include <memory>
#include <string>

#include "kmem/episode.h"

namespace kmem::episode {

// {base_url}/chat/completions, trailing slashes of base_url dropped.
std::string chat_completions_url(const std::string& base_url);

std::unique_ptr<ChatClient> make_http_chat_client(const EndpointConfig& config);

}  // namespace kmem::episode
