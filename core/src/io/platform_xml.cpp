// A topology as a SimGrid platform (io/platform_xml.h).
#include "topocast/io/platform_xml.h"

#include "topocast/io/xml_text.h"
#include "topocast/model/error.h"
#include "topocast/model/routing.h"
#include "topocast/model/units.h"

#include <fmt/format.h>

namespace topocast {

namespace {

std::string hostName(std::uint32_t n)
{
    return "node-" + std::to_string(n);
}

/// What the file holds and what it leaves to the MPI library, as an XML comment.
std::string header(const Topology& topo, const NetworkModel& network)
{
    std::string out = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
    out += "<!-- topocast-cli platform: the " + xmlEscaped(topo.displayName()) + " (" + topo.spec() +
           "), host node-i is node i.\n";
    out += "     Links: " + formatBandwidth(network.perByte) + ", latency " + formatSeconds(network.hopLatency) +
           " each (the network model's latency per hop).\n";
    out += "     Not in the file (the MPI library's own model: SMPI's smpi/os, smpi/or, smpi/ois and factors):\n";
    out += "     " + xmlEscaped(describe(network)) + " -->\n";
    return out;
}

std::string torusPlatform(const Topology& topo, const NetworkModel& network, const std::string& bw,
                          const std::string& lat)
{
    std::string sides;
    for (int d = 0; d < topo.dims(); ++d)
        sides += (d ? "," : "") + std::to_string(topo.side(d));
    return fmt::format(
               "<platform version=\"4.1\">\n  <cluster id=\"torus\" prefix=\"node-\" radical=\"0-{}\" suffix=\"\" "
               "speed=\"1Gf\" bw=\"{}\" lat=\"{}\" topology=\"TORUS\" topo_parameters=\"{}\" "
               "sharing_policy=\"SPLITDUPLEX\" loopback_bw=\"{}\" loopback_lat=\"0s\"/>\n</platform>\n",
               topo.nodeCount() - 1, bw, lat, sides, bw)
        .insert(0, header(topo, network));
}

std::string listedPlatform(const Topology& topo, const NetworkModel& network, const std::string& bw,
                           const std::string& lat)
{
    const std::uint32_t n = topo.nodeCount();
    std::string out = header(topo, network) + "<platform version=\"4.1\">\n  <zone id=\"topocast\" routing=\"Full\">\n";
    for (std::uint32_t i = 0; i < n; ++i)
        out += "    <host id=\"" + hostName(i) + "\" speed=\"1Gf\"/>\n";
    const auto linkName = [&](ChannelId ch) {
        return "l-" + std::to_string(topo.channelTail(ch).value()) + "-" + std::to_string(topo.channelHead(ch).value());
    };
    for (std::uint32_t i = 0; i < n; ++i)
        topo.forEachNeighbour(NodeId{i}, [&](NodeId next, Port) {
            const std::optional<ChannelId> ch = topo.channelBetween(NodeId{i}, next);
            out += fmt::format("    <link id=\"{}\" bandwidth=\"{}\" latency=\"{}\" sharing_policy=\"SHARED\"/>\n",
                               linkName(*ch), bw, lat);
        });
    const DimensionOrder order = defaultOrder(topo.dims());
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = 0; b < n; ++b) {
            if (a == b)
                continue;
            out += "    <route src=\"" + hostName(a) + "\" dst=\"" + hostName(b) + "\" symmetrical=\"NO\">";
            forEachChannel(topo, NodeId{a}, NodeId{b}, RouteSpec::dimensionOrder(), order,
                           [&](ChannelId ch) { out += "<link_ctn id=\"" + linkName(ch) + "\"/>"; });
            out += "</route>\n";
        }
    return out + "  </zone>\n</platform>\n";
}

} // namespace

SimgridPlatform simgridPlatform(const Topology& topo, const NetworkModel& network)
{
    checkNetworkModel(network);
    if (!topo.isTorus() && topo.nodeCount() > kPlatformListedNodes)
        throw Error("a SimGrid platform of the " + topo.displayName() + " lists every route between two of its " +
                    std::to_string(topo.nodeCount()) + " nodes (SimGrid has a cluster of its own for tori, not for " +
                    (topo.isMesh() ? "meshes" : "hypercubes") + "), and that is held to " +
                    std::to_string(kPlatformListedNodes) + " nodes; give a torus of the same sides, or a smaller " +
                    (topo.isMesh() ? "mesh" : "hypercube"));
    const std::string bw = fmt::format("{}Bps", network.bandwidth());
    const std::string lat = fmt::format("{}s", network.hopLatency);
    SimgridPlatform p;
    p.xml = topo.isTorus() ? torusPlatform(topo, network, bw, lat) : listedPlatform(topo, network, bw, lat);
    for (std::uint32_t i = 0; i < topo.nodeCount(); ++i)
        p.hosts += hostName(i) + "\n";
    return p;
}

} // namespace topocast
