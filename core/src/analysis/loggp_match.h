#pragma once
// Internal to the time engine: the matching of messages to receives (loggp_engine.h).
#include "topocast/model/op_program.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace topocast::loggp {

/// A receive waiting for its message, or a message waiting for its receive.
struct Pending {
    std::uint32_t src = 0;
    std::uint32_t tag = 0;
    std::uint64_t size = 0;
    std::uint32_t op = 0;
    double ready = 0; ///< a message: when its bytes are in place at the receiver
};

/// FIFO matching as MPI and LogGOPSim match: the first entry whose source and tag match, either
/// side may be a wildcard. Without wildcards in the program, a hash of (source, tag) makes each
/// match O(1) with the same answer (only entries with the same key can match, first come first):
/// each key's entries are a list in one pool, so a million posted receives cost a million small
/// entries, not a million queues.
class MatchQueue {
public:
    explicit MatchQueue(bool wildcards) : m_wildcards(wildcards) {}
    void push(const Pending& p)
    {
        ++m_size;
        if (m_wildcards) {
            m_list.push_back(p);
            return;
        }
        std::uint32_t slot;
        if (m_free != kNone) {
            slot = m_free;
            m_free = m_pool[slot].next;
            m_pool[slot] = Node{p, kNone};
        } else {
            slot = static_cast<std::uint32_t>(m_pool.size());
            m_pool.push_back(Node{p, kNone});
        }
        const auto [it, added] = m_keyed.try_emplace(key(p.src, p.tag), Ends{slot, slot});
        if (!added) {
            m_pool[it->second.tail].next = slot;
            it->second.tail = slot;
        }
    }
    bool take(std::uint32_t src, std::uint32_t tag, Pending& out)
    {
        if (m_wildcards) {
            for (auto it = m_list.begin(); it != m_list.end(); ++it)
                if ((src == ProgramOp::kAny || it->src == ProgramOp::kAny || it->src == src) &&
                    (tag == ProgramOp::kAny || it->tag == ProgramOp::kAny || it->tag == tag)) {
                    out = *it;
                    m_list.erase(it);
                    --m_size;
                    return true;
                }
            return false;
        }
        const auto found = m_keyed.find(key(src, tag));
        if (found == m_keyed.end())
            return false;
        const std::uint32_t slot = found->second.head;
        out = m_pool[slot].pending;
        if (slot == found->second.tail)
            m_keyed.erase(found);
        else
            found->second.head = m_pool[slot].next;
        m_pool[slot].next = m_free;
        m_free = slot;
        --m_size;
        return true;
    }
    std::size_t size() const { return m_size; }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    struct Node {
        Pending pending;
        std::uint32_t next;
    };
    struct Ends {
        std::uint32_t head, tail;
    };
    static std::uint64_t key(std::uint32_t src, std::uint32_t tag) { return (std::uint64_t{src} << 32) | tag; }
    bool m_wildcards;
    std::vector<Pending> m_list; // (a vector, not a deque: an empty one allocates nothing)
    std::unordered_map<std::uint64_t, Ends> m_keyed;
    std::vector<Node> m_pool;
    std::uint32_t m_free = kNone;
    std::size_t m_size = 0;
};

} // namespace topocast::loggp
