#include "topocast/analysis/import_findings.h"

#include "topocast/model/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace topocast {

namespace {

[[noreturn]] void badImportFindings(const std::string& what)
{
    throw Error(std::string(kImportFindingsKey) + ": " + what +
                " (expected {\"file\", \"collective\", \"count\", \"findings\": [{\"text\", …}]}, as import --force "
                "writes it)");
}

} // namespace

std::optional<ImportFindings> importFindings(const Schedule& schedule)
{
    const auto it = std::find_if(schedule.fileInfo.begin(), schedule.fileInfo.end(),
                                 [](const auto& kv) { return kv.first == kImportFindingsKey; });
    if (it == schedule.fileInfo.end())
        return std::nullopt;
    const nlohmann::json doc = nlohmann::json::parse(it->second, nullptr, false);
    if (!doc.is_object())
        badImportFindings("not an object");
    ImportFindings out;
    if (!doc.contains("file") || !doc["file"].is_string() || !doc.contains("collective") ||
        !doc["collective"].is_string())
        badImportFindings("\"file\" and \"collective\" must be strings");
    out.file = doc["file"].get<std::string>();
    out.collective = doc["collective"].get<std::string>();
    if (!doc.contains("count") || !doc["count"].is_number_unsigned() || doc["count"].get<std::uint64_t>() == 0)
        badImportFindings("\"count\" must be a whole number of findings, at least 1");
    out.count = doc["count"].get<std::uint64_t>();
    if (!doc.contains("findings") || !doc["findings"].is_array() || doc["findings"].size() > out.count)
        badImportFindings("\"findings\" must be an array of at most \"count\" findings");
    for (const auto& f : doc["findings"]) {
        if (!f.is_object() || !f.contains("text") || !f["text"].is_string())
            badImportFindings("every finding needs its \"text\"");
        out.texts.push_back(f["text"].get<std::string>());
        out.structured.push_back(f.dump());
    }
    return out;
}

void recordImportFindings(Schedule& schedule, const ImportFindings& findings)
{
    nlohmann::ordered_json doc;
    doc["file"] = findings.file;
    doc["collective"] = findings.collective;
    doc["count"] = findings.count;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < findings.texts.size(); ++i) {
        nlohmann::ordered_json f = i < findings.structured.size()
                                       ? nlohmann::ordered_json::parse(findings.structured[i], nullptr, false)
                                       : nlohmann::ordered_json::object();
        if (!f.is_object())
            f = nlohmann::ordered_json::object();
        f["text"] = findings.texts[i];
        list.push_back(std::move(f));
    }
    doc["findings"] = std::move(list);
    std::erase_if(schedule.fileInfo, [](const auto& kv) { return kv.first == kImportFindingsKey; });
    schedule.fileInfo.emplace_back(kImportFindingsKey,
                                   doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace topocast
