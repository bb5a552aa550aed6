// Strong ids (core/include/topocast/model/ids.h, STYLE habit 5): node ids, channel ids and step numbers
// do not mix with each other or with plain integers, cost nothing, and read and write as before.
#include "topocast/algorithms/registry.h"
#include "topocast/analysis/metrics.h"
#include "topocast/io/schedule_json.h"
#include "topocast/model/ids.h"
#include "topocast/model/schedule.h"
#include "topocast/model/topology.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

using namespace topocast;

// The mistakes the types catch, as compile-time facts (a compile-fail test in static_assert form).
template <class A, class B>
concept EqualityComparable = requires(const A& a, const B& b)
{
    a == b;
};
template <class A, class B>
concept LessComparable = requires(const A& a, const B& b)
{
    a < b;
};

// No id from an integer without saying so; explicit construction is fine.
static_assert(!std::is_convertible_v<int, NodeId>);
static_assert(!std::is_convertible_v<std::uint32_t, NodeId>);
static_assert(!std::is_convertible_v<std::uint64_t, ChannelId>);
static_assert(!std::is_convertible_v<std::uint32_t, StepNo>);
static_assert(std::is_constructible_v<NodeId, std::uint32_t>);
static_assert(std::is_constructible_v<StepNo, int>);
// No id of one kind from another, implicitly or explicitly.
static_assert(!std::is_convertible_v<StepNo, NodeId> && !std::is_constructible_v<NodeId, StepNo>);
static_assert(!std::is_convertible_v<NodeId, StepNo> && !std::is_constructible_v<StepNo, NodeId>);
static_assert(!std::is_convertible_v<NodeId, ChannelId> && !std::is_constructible_v<ChannelId, NodeId>);
static_assert(!std::is_constructible_v<NodeId, ChannelId>);
// No comparing a node with a step (or a channel); same-kind comparisons and integers are fine.
static_assert(!EqualityComparable<NodeId, StepNo> && !EqualityComparable<StepNo, NodeId>);
static_assert(!EqualityComparable<NodeId, ChannelId>);
static_assert(!LessComparable<NodeId, StepNo> && !LessComparable<StepNo, ChannelId>);
static_assert(EqualityComparable<NodeId, NodeId> && LessComparable<StepNo, StepNo>);
static_assert(LessComparable<NodeId, std::uint32_t>);
// The public API takes the types: a step where a node is wanted does not compile.
static_assert(!std::is_invocable_v<decltype(&Topology::nodeName), const Topology&, StepNo>);
static_assert(!std::is_invocable_v<decltype(&Topology::nodeName), const Topology&, int>);
static_assert(std::is_invocable_v<decltype(&Topology::nodeName), const Topology&, NodeId>);
static_assert(!std::is_invocable_v<decltype(&Schedule::stepTransfers), const Schedule&, NodeId>);
static_assert(!std::is_invocable_v<decltype(&Schedule::stepTransfers), const Schedule&, std::uint32_t>);
static_assert(!std::is_invocable_v<decltype(&Topology::channelTail), const Topology&, NodeId>);
// Zero cost in size and layout: Transfer is still 32 bytes.
static_assert(sizeof(NodeId) == sizeof(std::uint32_t) && sizeof(ChannelId) == sizeof(std::uint64_t));
static_assert(std::is_trivially_copyable_v<StepNo> && std::is_standard_layout_v<NodeId>);
static_assert(sizeof(Transfer) == 32);

TEST_CASE("ids read back as integers, count, order and hash like them", "[ids]")
{
    const NodeId v{7};
    CHECK(v.value() == 7u);
    CHECK(v == NodeId{7});
    CHECK(v < NodeId{8});
    CHECK(v + 1 == 8u); // arithmetic gives an integer back
    std::vector<int> perNode(10, 0);
    perNode[v] = 3; // indexing reads the integer
    CHECK(perNode[7] == 3);
    NodeId w = v;
    CHECK(++w == NodeId{8});
    CHECK(w-- == NodeId{8});
    CHECK(w == v);
    const std::unordered_set<NodeId> set{NodeId{1}, NodeId{2}, NodeId{1}};
    CHECK(set.size() == 2);
    CHECK(NodeId{} == NodeId{0});
    CHECK(ChannelId{std::uint64_t{1} << 40}.value() == std::uint64_t{1} << 40);
}

TEST_CASE("nodes(topo) runs over 0..N-1 and steps(schedule) over 1..stepCount", "[ids]")
{
    const Topology t = Topology::mesh({4, 3});
    std::vector<std::uint32_t> seen;
    for (NodeId v : nodes(t))
        seen.push_back(v);
    REQUIRE(seen.size() == 12);
    for (std::uint32_t i = 0; i < 12; ++i)
        CHECK(seen[i] == i);
    CHECK(nodes(t).size() == 12);

    // Binomial broadcast on 16 nodes: ⌈log2 16⌉ = 4 steps, 1 + 2 + 4 + 8 transfers.
    const Schedule s = buildSchedule("binomial", Topology::hypercube(4), NodeId{0}, Params{});
    std::vector<std::size_t> perStep;
    for (StepNo k : steps(s))
        perStep.push_back(s.stepTransfers(k).size());
    CHECK(perStep == std::vector<std::size_t>{1, 2, 4, 8});
    CHECK(s.stepBegin(StepNo{3}) == 3);
    CHECK(s.stepEnd(StepNo{3}) == 7);
    CHECK(steps(Schedule{}).size() == 0);
}

TEST_CASE("ids format and serialize as the plain numbers", "[ids][json]")
{
    CHECK(fmt::format("{} {} {:>3}", NodeId{5}, StepNo{2}, ChannelId{12}) == "5 2  12");
    nlohmann::ordered_json j;
    j["node"] = NodeId{4294967295u};
    j["channel"] = ChannelId{std::uint64_t{1} << 33};
    j["step"] = StepNo{3};
    CHECK(j.dump() == R"({"node":4294967295,"channel":8589934592,"step":3})");
    CHECK(j["node"].get<NodeId>() == NodeId{4294967295u});
    CHECK(j["channel"].get<ChannelId>() == ChannelId{std::uint64_t{1} << 33});
    CHECK(j["step"].get<StepNo>() == StepNo{3});

    // A schedule's JSON is byte-identical after a round trip through the typed fields.
    const Schedule s = buildSchedule("binomial", Topology::mesh({4, 4}), NodeId{5}, Params{});
    const std::string text = toJson(s, computeMetrics(s)).dump();
    const Schedule back = scheduleFromJson(nlohmann::json::parse(text));
    CHECK(toJson(back, computeMetrics(back)).dump() == text);
    CHECK(back.source() == NodeId{5});
}
