#pragma once

// Qt's moc reads the app's headers, and with them this one; it cannot parse libstdc++'s
// <concepts>, which <compare> (and <ranges>) include. It needs none of this header's bodies.
#ifndef Q_MOC_RUN
#include <compare>
#endif
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace topocast {

/// A strong integer id: a node id, a channel id or a step number that does not mix with the
/// others or with plain integers, so a node is never passed where a step is meant. Zero cost: one integer, trivially
/// copyable, every operation inline.
///
/// What it forbids, which is what catches mistakes:
///  - making one from an integer implicitly: `NodeId v = i;` and passing an int, a size_t or
///    a step where a NodeId is wanted do not compile; write `NodeId{i}` where it is meant;
///  - making one Id type from another (`ChannelId{node}`, `NodeId{step}`), and comparing two
///    different Id types (`node == step`).
///
/// What it allows on purpose: reading the integer back *implicitly* (`positions[v]`,
/// `v < topo.nodeCount()`, `v ^ (1u << d)`, `fmt::format("{}", v)`). Node ids are indices into
/// per-node arrays everywhere in topocast; requiring `.value()` at each of those hundreds of
/// reads would bury the code without catching anything more — every mistake above is an
/// integer flowing *into* an id slot, which stays a compile error. Arithmetic therefore gives
/// a plain integer back, and turning it into an id again is an explicit, visible step.
///
/// One trap that comes with explicit construction: `std::vector<NodeId> v = {0, last}` (an int
/// and a NodeId) is not a two-element list but vector(count 0, value last) — empty. Write
/// `{NodeId{0}, last}`.

// (std::enable_if rather than <concepts>: see the includes.)

template <class Tag, class Rep> class Id {
    static_assert(std::is_unsigned_v<Rep>, "an id is an unsigned integer");

public:
    using rep_type = Rep;

    constexpr Id() noexcept = default;
    /// From any integer type; never from another Id (those are not integral).
    template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
    constexpr explicit Id(T v) noexcept : m_value(static_cast<Rep>(v))
    {
    }

    constexpr Rep value() const noexcept { return m_value; }
    constexpr operator Rep() const noexcept { return m_value; } // NOLINT(google-explicit-constructor): see above

    constexpr Id& operator++() noexcept
    {
        ++m_value;
        return *this;
    }
    constexpr Id operator++(int) noexcept
    {
        Id old = *this;
        ++m_value;
        return old;
    }
    constexpr Id& operator--() noexcept
    {
        --m_value;
        return *this;
    }
    constexpr Id operator--(int) noexcept
    {
        Id old = *this;
        --m_value;
        return old;
    }

    friend constexpr bool operator==(const Id&, const Id&) noexcept = default;
    friend constexpr std::strong_ordering operator<=>(const Id&, const Id&) noexcept = default;
    /// Two different Id types never compare (a node id against a step number is a mistake).
    template <class OtherTag, class OtherRep> friend bool operator==(const Id&, const Id<OtherTag, OtherRep>&) = delete;
    template <class OtherTag, class OtherRep>
    friend bool operator<=>(const Id&, const Id<OtherTag, OtherRep>&) = delete;

    /// In JSON files (io/): written and read as the plain unsigned number (files unchanged).
    template <class Json> friend void to_json(Json& j, const Id& id) { j = id.m_value; }
    template <class Json> friend void from_json(const Json& j, Id& id) { id.m_value = j.template get<Rep>(); }

private:
    Rep m_value = 0;
};

/// A node's linear id. Mesh and torus: x0 + n0·x1 + n0·n1·x2 + … (x fastest); hypercube: the
/// node's binary address.
using NodeId = Id<struct NodeIdTag, std::uint32_t>;
/// A directed channel's id: tail node × ports per node + port (see Topology::channel).
using ChannelId = Id<struct ChannelIdTag, std::uint64_t>;
/// A step number (routing cycle), 1-based: step 1 is the first step of a schedule.
using StepNo = Id<struct StepNoTag, std::uint32_t>;

/// The ids first … last−1 as a range for range-for (`nodes(topo)`, `steps(schedule)`); what
/// std::views::iota does, without <ranges>, which Qt's moc cannot read in the app's headers.
template <class IdT> class IdRange {
public:
    class iterator {
    public:
        constexpr explicit iterator(IdT id) noexcept : m_id(id) {}
        constexpr IdT operator*() const noexcept { return m_id; }
        constexpr iterator& operator++() noexcept
        {
            ++m_id;
            return *this;
        }
        friend constexpr bool operator==(const iterator&, const iterator&) noexcept = default;

    private:
        IdT m_id;
    };
    constexpr IdRange(IdT first, IdT last) noexcept : m_first(first), m_last(last) {}
    constexpr iterator begin() const noexcept { return iterator{m_first}; }
    constexpr iterator end() const noexcept { return iterator{m_last}; }
    constexpr std::size_t size() const noexcept { return m_last - m_first; }

private:
    IdT m_first;
    IdT m_last;
};

static_assert(sizeof(NodeId) == 4 && sizeof(ChannelId) == 8 && sizeof(StepNo) == 4);
static_assert(std::is_trivially_copyable_v<NodeId> && std::is_trivially_copyable_v<ChannelId>);
static_assert(!std::is_convertible_v<std::uint32_t, NodeId>, "no implicit id from an integer");
static_assert(!std::is_constructible_v<NodeId, StepNo>, "a step is not a node");
static_assert(!std::is_constructible_v<ChannelId, NodeId>, "a node is not a channel");

} // namespace topocast

template <class Tag, class Rep> struct std::hash<topocast::Id<Tag, Rep>> {
    std::size_t operator()(const topocast::Id<Tag, Rep>& id) const noexcept { return std::hash<Rep>{}(id.value()); }
};
