#pragma once
// Field readers shared by the JSON loaders in core/src/io (schedule, measured times): each
// failure throws topocast::Error "<path>: <what>", where path names the field
// ("transfers[3].step").

#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <string>

namespace topocast::jsonfields {

[[noreturn]] inline void fail(const std::string& path, const std::string& what)
{
    throw Error(path + ": " + what);
}

/// obj[key]; fails unless obj is an object that has key.
inline const nlohmann::json& need(const nlohmann::json& obj, const char* key, const std::string& path)
{
    if (!obj.is_object())
        fail(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end())
        fail(path, std::string("missing \"") + key + "\"");
    return *it;
}

inline std::string stringValue(const nlohmann::json& v, const std::string& path)
{
    if (!v.is_string())
        fail(path, std::string("expected a string, got ") + v.type_name());
    return v.get<std::string>();
}

/// "path.key" (or "key" at the top).
inline std::string joinPath(const std::string& path, const char* key)
{
    return path.empty() ? key : path + "." + key;
}

} // namespace topocast::jsonfields
