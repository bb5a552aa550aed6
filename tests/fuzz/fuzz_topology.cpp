// libFuzzer target: the topology, node and dimension-order text parsers.
// Input: "TOPOLOGY\nNODE\nORDER" (later lines optional).
#include "fuzz_common.h"

#include "topocast/model/error.h"
#include "topocast/model/routing.h"
#include "topocast/model/topology.h"

#include <string>
#include <string_view>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    topocast::fuzz::initLimits();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace topocast;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto nl = input.find('\n');
    const std::string_view topoText = input.substr(0, nl);
    const std::string_view rest = nl == std::string_view::npos ? std::string_view{} : input.substr(nl + 1);
    const auto nl2 = rest.find('\n');
    const std::string_view nodeText = rest.substr(0, nl2);
    const std::string_view orderText = nl2 == std::string_view::npos ? std::string_view{} : rest.substr(nl2 + 1);

    Topology topo = Topology::mesh({1});
    try {
        topo = Topology::parse(topoText);
    } catch (const Error&) {
        return 0;
    }
    // The canonical form reads back as the same topology.
    fuzz::require(Topology::parse(topo.spec()) == topo);
    fuzz::require(topo.nodeCount() >= 1 && topo.nodeCount() <= Topology::kMaxNodes);
    (void)topo.displayName();
    try {
        const NodeId v = topo.parseNode(nodeText);
        fuzz::require(v < topo.nodeCount());
        fuzz::require(topo.parseNode(topo.nodeName(v)) == v);
        fuzz::require(topo.id(topo.coords(v)) == v);
    } catch (const Error&) {
    }
    try {
        const DimensionOrder order = parseOrder(orderText, topo.dims());
        fuzz::require(parseOrder(orderName(order), topo.dims()) == order);
    } catch (const Error&) {
    }
    return 0;
}
