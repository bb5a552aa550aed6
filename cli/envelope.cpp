#include "envelope.h"

namespace topocast::cli {

nlohmann::ordered_json envelope(const std::string& format)
{
    nlohmann::ordered_json doc;
    doc["format"] = format;
    doc["version"] = kOutputVersion;
    return doc;
}

nlohmann::ordered_json envelope(const std::string& format, const Topology& topo)
{
    nlohmann::ordered_json doc = envelope(format);
    doc["topology"] = topo.spec();
    return doc;
}

} // namespace topocast::cli
