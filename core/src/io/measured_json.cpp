#include "topocast/io/measured_json.h"

#include "json_fields.h"

#include "topocast/analysis/replay.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/error.h"
#include "topocast/model/topology.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace topocast {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

namespace {

constexpr const char* kFormat = "topocast-measured";
constexpr int kVersion = 1;

void putStats(ojson& o, const TimeStats& s)
{
    o["min_s"] = s.min;
    o["median_s"] = s.median;
    o["samples_s"] = s.samples;
}

using jsonfields::fail;
using jsonfields::joinPath;
using jsonfields::need;

std::string stringAt(const json& obj, const char* key, const std::string& path)
{
    return jsonfields::stringValue(need(obj, key, path), joinPath(path, key));
}

std::string optString(const json& obj, const char* key, const std::string& path)
{
    return obj.contains(key) ? stringAt(obj, key, path) : std::string();
}

std::uint64_t uintAt(const json& obj, const char* key, const std::string& path, std::uint64_t max)
{
    const json& v = need(obj, key, path);
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<long long>() < 0))
        fail(joinPath(path, key), std::string("expected an integer ≥ 0, got ") + v.dump());
    const auto x = v.get<std::uint64_t>();
    if (x > max)
        fail(joinPath(path, key), std::to_string(x) + " is larger than " + std::to_string(max));
    return x;
}

double secondsValue(const json& v, const std::string& path)
{
    if (!v.is_number())
        fail(path, std::string("expected a number of seconds ≥ 0, got ") + v.type_name());
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0)
        fail(path, "expected a number of seconds ≥ 0, got " + v.dump());
    return x;
}

TimeStats statsFrom(const json& obj, const std::string& path)
{
    TimeStats s;
    s.min = secondsValue(need(obj, "min_s", path), joinPath(path, "min_s"));
    s.median = secondsValue(need(obj, "median_s", path), joinPath(path, "median_s"));
    if (obj.contains("samples_s")) {
        const json& arr = obj["samples_s"];
        const std::string p = joinPath(path, "samples_s");
        if (!arr.is_array())
            fail(p, "expected an array of seconds");
        for (std::size_t i = 0; i < arr.size(); ++i)
            s.samples.push_back(secondsValue(arr[i], p + "[" + std::to_string(i) + "]"));
    }
    if (s.min > s.median)
        fail(path, "min_s " + std::to_string(s.min) + " is larger than median_s " + std::to_string(s.median));
    return s;
}

const json& arrayAt(const json& obj, const char* key, const std::string& path)
{
    const json& v = need(obj, key, path);
    if (!v.is_array())
        fail(joinPath(path, key), std::string("expected an array, got ") + v.type_name());
    return v;
}

} // namespace

namespace {

/// A transfer's node in node notation (coordinate arrays; the address on a hypercube), or its id
/// when the file's topology does not parse.
ojson measuredNodeJson(const MeasuredTimes& m, NodeId v)
{
    try {
        const Topology topo = Topology::parse(m.topology);
        if (v < topo.nodeCount())
            return nodeToJson(topo, v);
    } catch (const Error&) {
    }
    return v;
}

/// A transfer's "from" or "to": node notation (needs the file's topology) or, as files before
/// node notation wrote them, a node id.
NodeId measuredNode(const MeasuredTimes& m, const json& transfer, const char* key, const std::string& path)
{
    if (!transfer.contains(key) || !transfer[key].is_array())
        return static_cast<NodeId>(uintAt(transfer, key, path, 0xFFFFFFFFu));
    const std::string where = path + "." + key;
    std::optional<Topology> topo;
    try {
        topo = Topology::parse(m.topology);
    } catch (const Error& e) {
        fail(where, std::string("coordinates need the schedule's topology, which does not parse: ") + e.what());
    }
    return nodeFromJson(*topo, transfer[key], where);
}

} // namespace

ojson toJson(const MeasuredTimes& m)
{
    ojson o = {{"format", kFormat}, {"version", kVersion}};
    o["schedule"] = {{"file", m.scheduleFile}, {"topology", m.topology}, {"algorithm", m.algorithm},
                     {"pattern", m.pattern},   {"steps", m.stepCount},   {"fingerprint", m.fingerprint}};
    o["run"] = {{"ranks", m.ranks},   {"bytes_per_block", m.bytesPerBlock},
                {"repeat", m.repeat}, {"mpi", m.mpiLibrary},
                {"hosts", m.hosts},   {"mapping", m.mapping},
                {"mode", m.mode},     {"verified", m.verified},
                {"date", m.date}};
    ojson steps = ojson::array();
    for (const MeasuredStep& s : m.steps) {
        ojson e = {{"step", s.step}, {"transfers", s.transfers}, {"bytes", s.bytes}};
        putStats(e, s.time);
        steps.push_back(e);
    }
    o["steps"] = steps;
    ojson total;
    putStats(total, m.total);
    o["total"] = total;
    for (const auto& [key, stats] : {std::pair{"end_to_end", &m.endToEnd}, std::pair{"barriers", &m.barriers}})
        if (*stats) {
            ojson e;
            putStats(e, **stats);
            o[key] = e;
        }
    ojson transfers = ojson::array();
    for (const MeasuredTransfer& t : m.transfers) {
        ojson e = {{"index", t.index},
                   {"step", t.step},
                   {"from", measuredNodeJson(m, t.from)},
                   {"to", measuredNodeJson(m, t.to)},
                   {"bytes", t.bytes}};
        putStats(e, t.time);
        transfers.push_back(e);
    }
    o["transfers"] = transfers;
    if (m.library) {
        ojson lib = {{"operation", m.library->operation}, {"bytes", m.library->bytes}};
        putStats(lib, m.library->time);
        o["library"] = lib;
    }
    return o;
}

MeasuredTimes measuredFromJson(const json& doc)
{
    if (!doc.is_object())
        fail("measured", std::string("expected a JSON object, got ") + doc.type_name());
    const std::string format = stringAt(doc, "format", "");
    if (format != kFormat)
        fail("format", "\"" + format + "\" is not a measured-times file (expected \"" + kFormat + "\")");
    const std::uint64_t version = uintAt(doc, "version", "", 1000);
    if (version != kVersion)
        fail("version",
             std::to_string(version) + " is not supported (this build reads version " + std::to_string(kVersion) + ")");
    MeasuredTimes m;
    const json& sched = need(doc, "schedule", "measured");
    m.scheduleFile = optString(sched, "file", "schedule");
    m.topology = stringAt(sched, "topology", "schedule");
    m.algorithm = optString(sched, "algorithm", "schedule");
    m.pattern = optString(sched, "pattern", "schedule");
    m.fingerprint = optString(sched, "fingerprint", "schedule");
    m.stepCount = static_cast<std::uint32_t>(uintAt(sched, "steps", "schedule", 1u << 30));

    const json& run = need(doc, "run", "measured");
    m.ranks = static_cast<std::uint32_t>(uintAt(run, "ranks", "run", 1u << 24));
    m.bytesPerBlock = uintAt(run, "bytes_per_block", "run", std::uint64_t{1} << 40);
    m.repeat = static_cast<int>(uintAt(run, "repeat", "run", 1u << 24));
    m.mpiLibrary = optString(run, "mpi", "run");
    if (run.contains("hosts"))
        m.hosts = static_cast<std::uint32_t>(uintAt(run, "hosts", "run", 1u << 24));
    m.mapping = optString(run, "mapping", "run");
    if (run.contains("mode")) {
        m.mode = stringAt(run, "mode", "run");
        if (m.mode != "stepped" && m.mode != "async")
            fail("run.mode", "\"" + m.mode + "\" is not a mode (expected \"stepped\" or \"async\")");
    }
    if (run.contains("verified")) {
        if (!run["verified"].is_boolean())
            fail("run.verified", "expected true or false");
        m.verified = run["verified"].get<bool>();
    }
    m.date = optString(run, "date", "run");

    const json& steps = arrayAt(doc, "steps", "");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string path = "steps[" + std::to_string(i) + "]";
        MeasuredStep s;
        s.step = StepNo{uintAt(steps[i], "step", path, 1u << 30)};
        if (s.step != i + 1)
            fail(path + ".step", "is " + std::to_string(s.step) + "; steps must be listed in order from 1 (expected " +
                                     std::to_string(i + 1) + ")");
        s.transfers = uintAt(steps[i], "transfers", path, std::uint64_t{1} << 40);
        s.bytes = steps[i].contains("bytes") ? uintAt(steps[i], "bytes", path, std::uint64_t{1} << 60) : 0;
        s.time = statsFrom(steps[i], path);
        m.steps.push_back(s);
    }
    if (m.steps.size() != m.stepCount)
        fail("steps", "lists " + std::to_string(m.steps.size()) + " steps but schedule.steps says " +
                          std::to_string(m.stepCount));
    if (doc.contains("total"))
        m.total = statsFrom(doc["total"], "total");
    if (doc.contains("end_to_end"))
        m.endToEnd = statsFrom(doc["end_to_end"], "end_to_end");
    if (doc.contains("barriers"))
        m.barriers = statsFrom(doc["barriers"], "barriers");

    if (doc.contains("transfers")) {
        const json& transfers = arrayAt(doc, "transfers", "");
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const std::string path = "transfers[" + std::to_string(i) + "]";
            MeasuredTransfer t;
            t.index = static_cast<std::size_t>(uintAt(transfers[i], "index", path, std::uint64_t{1} << 40));
            t.step = StepNo{uintAt(transfers[i], "step", path, m.stepCount)};
            if (t.step < 1)
                fail(path + ".step", "steps start at 1");
            t.from = measuredNode(m, transfers[i], "from", path);
            t.to = measuredNode(m, transfers[i], "to", path);
            t.bytes = transfers[i].contains("bytes") ? uintAt(transfers[i], "bytes", path, std::uint64_t{1} << 60) : 0;
            t.time = statsFrom(transfers[i], path);
            m.transfers.push_back(t);
        }
    }
    if (doc.contains("library") && !doc["library"].is_null()) {
        const json& lib = doc["library"];
        LibraryTiming l;
        l.operation = stringAt(lib, "operation", "library");
        l.bytes = lib.contains("bytes") ? uintAt(lib, "bytes", "library", std::uint64_t{1} << 60) : 0;
        l.time = statsFrom(lib, "library");
        m.library = l;
    }
    return m;
}

MeasuredTimes readMeasuredTimes(const std::filesystem::path& path)
{
    const json doc = readJsonFile(path);
    try {
        return measuredFromJson(doc);
    } catch (const Error& e) {
        throw Error(path.string() + ": " + e.what());
    }
}

} // namespace topocast
