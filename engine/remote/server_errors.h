// What went wrong with a server, in the user's words: an HttpResponse's failure or error status
// turned into an EngineError naming the server, what it said, and what to do about it.
#pragma once
#include <string>

#include "reef/result.h"
#include "remote/http_client.h"

namespace reef::remote {

// The message inside an error body, whichever shape the server uses: fish-speech
// {statusCode, message, error}, OpenAI {"error": {"message"}}, FastAPI/pydantic {"detail": …} or a
// bare validation array [{loc, msg}], else the body's first printable line. Empty when none.
std::string server_message(const std::string& body);

// what: "synthesis", "the health check" … ; route: the path that was asked for; key_setting: where
// the user gives the key in this front end (ServerProfile::key_setting), named when it is refused.
EngineError describe_failure(const HttpResponse& r, const std::string& server, const std::string& route,
                             const std::string& what, const std::string& key_setting = {});

}  // namespace reef::remote
