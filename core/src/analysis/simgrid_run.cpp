// A schedule's program timed by the engine (loggp_engine.h) with every message's bytes on
// SimGrid's flow-level network: one SimGrid link per directed channel, the bandwidth of the
// network model and no latency of its own (the engine charges L and the per-hop latency), SimGrid's
// CM02 model (max-min sharing, no factors) without its cross-traffic (the two directions of a
// channel are two links and do not share). Each message is one communication over exactly the
// links of its route (store-and-forward: one per hop, one after the other), which a zone of our
// own hands to SimGrid when the communication starts. SimGrid's clock drives the engine: its
// events run on SimGrid timers, and a communication's end is the engine's flowDone.
#include "simgrid_run.h"

#include "loggp_engine.h"
#include "topocast/model/error.h"

#include <chrono>
#include <cmath>
#include <deque>

#ifdef TOPOCAST_HAVE_SIMGRID
#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <set>
#endif

namespace topocast::sim {

#ifndef TOPOCAST_HAVE_SIMGRID

bool available()
{
    return false;
}

Output runSimGrid(const Input&)
{
    throw Error("this build of topocast has no SimGrid, so it cannot simulate (install libsimgrid-dev 3.32 and "
                "build again: scripts/install-deps.sh)");
}

#else

namespace {

namespace sg4 = simgrid::s4u;
namespace kr = simgrid::kernel::routing;
using LinkImpl = simgrid::kernel::resource::StandardLinkImpl;

/// The root zone: the route of a communication is the one being started (set just before).
class PathZone final : public kr::NetZoneImpl {
public:
    explicit PathZone(const std::string& name) : NetZoneImpl(name) {}
    void get_local_route(const kr::NetPoint*, const kr::NetPoint*, kr::Route* into, double*) override
    {
        into->link_list_.insert(into->link_list_.end(), m_begin, m_end);
    }
    void use(LinkImpl* const* begin, LinkImpl* const* end)
    {
        m_begin = begin;
        m_end = end;
    }

private:
    LinkImpl* const* m_begin = nullptr;
    LinkImpl* const* m_end = nullptr;
};

constexpr double kNs = 1e-9;

/// One message on the wire: which send, which part, which of its links now.
struct Flow {
    std::uint32_t op = 0;
    std::uint64_t transfer = 0;
    bool transit = false;
    std::uint32_t hop = 0; ///< store-and-forward: the link it crosses now
    double at = 0;         ///< engine time (ns) its current part started
    double clockAt = 0;    ///< SimGrid's clock (s) then
    double began = 0;      ///< engine time (ns) its first part started
};

class Driver final : public loggp::Wire {
public:
    Driver(const Input& in, Output& out, PathZone& zone, std::vector<sg4::Host*> hosts, std::vector<LinkImpl*> links)
        : m_in(in), m_out(out), m_zone(zone), m_hosts(std::move(hosts)), m_links(std::move(links)),
          m_saf(in.network.routing == Routing::StoreAndForward),
          m_engine(in.program->ranks, loggp::countOf(*in.program, &ProgramOp::cpu), loggp::nicCount(*in.program),
                   loggp::Params(in.network), false)
    {
        m_engine.setWire(this);
        out.ops.assign(in.program->ops.size(), OpTiming{});
        out.done.assign(in.program->ops.size(), 0);
        out.hops.assign(in.routes.links.size(), OpTiming{});
    }

    void begin()
    {
        sg4::Activity::on_completion_cb([this](const sg4::Activity& a) { completed(a); });
        nextPart(0.0);
    }
    void finish() { m_out.rankFinish = m_engine.rankFinish(m_in.program->ranks); }

    void start(std::uint32_t op, bool transit, double at) override
    {
        const ProgramOp& p = (*m_ops)[op];
        Flow f{.op = op,
               .transfer = static_cast<std::uint64_t>(p.transfer),
               .transit = transit,
               .hop = 0,
               .at = at,
               .clockAt = 0,
               .began = at};
        const std::uint64_t hops = m_in.routes.first[f.transfer + 1] - m_in.routes.first[f.transfer];
        f.hop = m_saf && !transit && hops > 0 ? static_cast<std::uint32_t>(hops - 1) : 0;
        launch(f);
    }

private:
    /// Bytes the part of `f` carries: the model's (M − 1) bytes on the last part (LogGP charges
    /// the message so), the whole message on each hop of a store-and-forward transit.
    std::uint64_t bytesOf(const Flow& f) const
    {
        const std::uint64_t size = (*m_ops)[f.op].size;
        return f.transit ? size : (size > 0 ? size - 1 : 0);
    }

    void launch(Flow f)
    {
        const std::uint64_t first = m_in.routes.first[f.transfer];
        const std::uint64_t hops = m_in.routes.first[f.transfer + 1] - first;
        std::uint64_t from = first, to = first + hops; // the links this part crosses
        if (m_saf)
            from = first + f.hop, to = from + 1;
        f.clockAt = sg4::Engine::get_clock();
        const std::uint64_t bytes = bytesOf(f);
        if (hops == 0 || bytes == 0) { // nothing on a link: the model's time, which is none
            arrived(f, f.at);
            return;
        }
        m_route.clear();
        for (std::uint64_t k = from; k < to; ++k)
            m_route.push_back(m_links[m_in.routes.links[k]]);
        m_zone.use(m_route.data(), m_route.data() + m_route.size());
        const std::uint32_t slot = slotFor(f);
        sg4::CommPtr comm = sg4::Comm::sendto_init(m_hosts[(*m_ops)[f.op].rank], m_hosts[(*m_ops)[f.op].peer]);
        comm->set_payload_size(bytes);
        comm->set_data(&m_slots[slot]);
        comm->start();
        m_comms[slot] = std::move(comm);
    }

    std::uint32_t slotFor(const Flow& f)
    {
        std::uint32_t slot;
        if (!m_free.empty()) {
            slot = m_free.back();
            m_free.pop_back();
        } else {
            slot = static_cast<std::uint32_t>(m_slots.size());
            m_slots.push_back(Slot{});
            m_comms.emplace_back();
        }
        m_slots[slot] = Slot{f, slot};
        return slot;
    }

    void completed(const sg4::Activity& a)
    {
        const Slot* slot = a.get_data<Slot>();
        if (slot == nullptr)
            return;
        const Flow f = slot->flow;
        releaseEnded(); // (not this one: SimGrid still holds it while it tells us)
        m_release.push_back(slot->index);
        const double end = f.at + (sg4::Engine::get_clock() - f.clockAt) / kNs;
        arrived(f, end);
        settle();
    }

    /// Part of `f` is through at `end` (ns): the next hop, or the engine told.
    void arrived(Flow f, double end)
    {
        const std::uint64_t first = m_in.routes.first[f.transfer];
        const std::uint64_t hops = m_in.routes.first[f.transfer + 1] - first;
        if (m_saf) {
            if (hops > 0)
                m_out.hops[first + f.hop] = OpTiming{f.at, end};
            if (f.transit && f.hop + 2 < hops) {
                ++f.hop;
                f.at = end;
                launch(f);
                return;
            }
        } else {
            for (std::uint64_t k = first; k < first + hops; ++k)
                m_out.hops[k] = OpTiming{f.began, end};
        }
        m_engine.flowDone(f.op, f.transit, end);
        if (!f.transit && ++m_through % 1024 == 0 && m_in.progress) {
            const auto now = std::chrono::steady_clock::now();
            if (now - m_reported > std::chrono::seconds(1)) {
                m_reported = now;
                m_in.progress(static_cast<double>(m_through) / static_cast<double>(m_in.routes.first.size() - 1));
            }
        }
    }

    /// After anything happened: the engine's events up to now, then the next step or a timer.
    void releaseEnded()
    {
        for (std::uint32_t s : m_release) {
            m_comms[s] = nullptr;
            m_free.push_back(s);
        }
        m_release.clear();
    }

    void settle()
    {
        m_engine.drain(sg4::Engine::get_clock() / kNs);
        arm();
    }

    void arm()
    {
        double next = m_engine.nextTime();
        // An event at SimGrid's present (or, by the rounding of nanoseconds to seconds, a hair
        // before it) runs now: SimGrid takes no timer in its past.
        while (!std::isinf(next) && next * kNs <= sg4::Engine::get_clock()) {
            m_engine.drain(next);
            next = m_engine.nextTime();
        }
        if (std::isinf(next)) {
            if (m_engine.inFlight() == 0 && !m_over)
                endPart();
            return;
        }
        if (!m_armed.empty() && *m_armed.begin() <= next)
            return;
        m_armed.insert(next);
        simgrid::kernel::timer::Timer::set(next * kNs, [this, next] {
            m_armed.erase(m_armed.find(next));
            m_engine.drain(next);
            arm();
        });
    }

    /// The engine is idle: the step (or the program) is over.
    void endPart()
    {
        copyBack();
        double barrier = 0;
        for (double f : m_engine.rankFinish(m_in.program->ranks))
            barrier = std::max(barrier, f);
        nextPart(barrier);
    }

    void copyBack()
    {
        if (!m_in.steps || m_part == 0)
            return;
        const std::size_t from = 2 * m_in.stepFirst[m_partStep - 1];
        std::copy(m_timing.begin(), m_timing.end(), m_out.ops.begin() + static_cast<std::ptrdiff_t>(from));
        std::copy(m_partDone.begin(), m_partDone.end(), m_out.done.begin() + static_cast<std::ptrdiff_t>(from));
    }

    /// Begins the next part at `start`: the whole program, or the next step with transfers.
    void nextPart(double start)
    {
        if (!m_in.steps) {
            if (m_part++ > 0) {
                m_over = true;
                return;
            }
            m_ops = &m_in.program->ops;
            m_engine.begin(*m_in.program, start, m_out.ops, m_out.done);
            arm();
            return;
        }
        ++m_part;
        while (m_partStep + 1 < m_in.stepFirst.size()) {
            const std::size_t s = ++m_partStep;
            const std::size_t from = 2 * m_in.stepFirst[s - 1], to = 2 * m_in.stepFirst[s];
            if (from == to)
                continue;
            m_stepProgram.ranks = m_in.program->ranks;
            m_stepProgram.pairedByIndex = true;
            m_stepProgram.ops.assign(m_in.program->ops.begin() + static_cast<std::ptrdiff_t>(from),
                                     m_in.program->ops.begin() + static_cast<std::ptrdiff_t>(to));
            m_timing.assign(m_stepProgram.ops.size(), OpTiming{});
            m_partDone.assign(m_stepProgram.ops.size(), 0);
            m_ops = &m_stepProgram.ops;
            m_engine.begin(m_stepProgram, start, m_timing, m_partDone);
            arm();
            return;
        }
        m_over = true; // every step ran
    }

    struct Slot {
        Flow flow;
        std::uint32_t index = 0;
    };

    const Input& m_in;
    Output& m_out;
    PathZone& m_zone;
    std::vector<sg4::Host*> m_hosts;
    std::vector<LinkImpl*> m_links;
    bool m_saf;
    loggp::Engine m_engine;
    const std::vector<ProgramOp>* m_ops = nullptr;
    std::vector<LinkImpl*> m_route;
    std::deque<Slot> m_slots; // only grows: a Comm holds a pointer into it (set_data)
    std::vector<sg4::CommPtr> m_comms;
    std::vector<std::uint32_t> m_free, m_release;
    std::multiset<double> m_armed;
    std::size_t m_part = 0, m_partStep = 0; // parts begun; the step of the last (steps only)
    bool m_over = false;
    std::uint64_t m_through = 0; // messages whose bytes are through
    std::chrono::steady_clock::time_point m_reported = std::chrono::steady_clock::now();
    OpProgram m_stepProgram;
    std::vector<OpTiming> m_timing;
    std::vector<std::uint8_t> m_partDone;
};

} // namespace

bool available()
{
    return true;
}

Output runSimGrid(const Input& in)
{
    const auto began = std::chrono::steady_clock::now();
    xbt_log_control_set("root.thresh:critical");
    int argc = 1;
    char name[] = "topocast";
    char* argv[] = {name, nullptr};
    sg4::Engine engine(&argc, argv);
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/crosstraffic:0");
    auto* zone = new PathZone("topocast"); // the first zone is SimGrid's root, which it owns
    sg4::NetZone* z = zone->get_iface();
    std::vector<sg4::Host*> hosts;
    hosts.reserve(in.program->ranks);
    for (std::uint32_t r = 0; r < in.program->ranks; ++r)
        hosts.push_back(z->create_host("n" + std::to_string(r), 1.0));
    std::vector<LinkImpl*> links;
    links.reserve(in.routes.linkCount);
    const double bandwidth = in.network.bandwidth();
    for (std::uint32_t l = 0; l < in.routes.linkCount; ++l)
        links.push_back(z->create_link("l" + std::to_string(l), bandwidth)->set_latency(0)->seal()->get_impl());
    z->seal();
    Output out;
    Driver driver(in, out, *zone, std::move(hosts), std::move(links));
    driver.begin();
    engine.run();
    driver.finish();
    out.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return out;
}

#endif

} // namespace topocast::sim
