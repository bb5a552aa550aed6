#include "topocast/io/network_json.h"

#include "topocast/io/read_file.h"
#include "topocast/model/error.h"

namespace topocast {

nlohmann::ordered_json networkJson(const NetworkModel& m)
{
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (const auto& [key, value] : networkFields(m))
        o[key] = value;
    return o;
}

NetworkModel networkFromJson(const nlohmann::json& object, const std::string& path)
{
    if (!object.is_object())
        throw Error(path + ": expected an object such as {\"preset\": \"cluster\", \"bandwidth\": \"12.5GB/s\"}");
    NetworkModel m;
    if (object.contains("preset")) {
        if (!object["preset"].is_string())
            throw Error(path + ".preset: expected a preset name (cluster, loggopsim) or \"custom\"");
        const std::string preset = object["preset"].get<std::string>();
        if (preset != "custom" && preset != "measured")
            m = networkPreset(preset);
    }
    for (const auto& [key, value] : object.items()) {
        if (key == "preset")
            continue;
        if (!value.is_string())
            throw Error(path + "." + key +
                        ": expected a string with its unit, such as \"12.5GB/s\", \"1us\", \"64KiB\"; got " +
                        value.dump());
        try {
            setNetworkField(m, key, value.get<std::string>());
        } catch (const Error& e) {
            throw Error(path + "." + key + ": " + e.what());
        }
    }
    // The preset recorded in the file is kept when the values are its own, or where they were
    // measured; values that differ from a named preset make it "custom".
    if (object.contains("preset") && object["preset"].is_string()) {
        const std::string preset = object["preset"].get<std::string>();
        if (preset == "measured" || preset == "custom")
            m.preset = preset;
    }
    try {
        checkNetworkModel(m);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
    return m;
}

NetworkModel readNetworkFile(const std::filesystem::path& file)
{
    ReadFileLimits limits;
    limits.kind = "network file";
    limits.maxBytes = std::uint64_t{1} << 26;
    limits.whenPast = [&] { throw Error(file.string() + ": past 64 MiB; a network file is one small JSON object"); };
    const std::string text = readFileText(file, limits);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw Error(file.string() + ": not JSON (" + e.what() + ")");
    }
    try {
        if (doc.is_object() && doc.contains("network"))
            return networkFromJson(doc["network"], "network");
        return networkFromJson(doc, "network");
    } catch (const Error& e) {
        throw Error(file.string() + ": " + e.what());
    }
}

std::string networkText(const NetworkModel& m)
{
    return networkJson(m).dump();
}

} // namespace topocast
