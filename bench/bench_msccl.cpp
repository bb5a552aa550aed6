// MSCCL XML: read and check a 64-rank all-pairs all-reduce made here (8064 sends and as many
// receives, 4032 reduces, a nop step per dependency; 3 MB of XML) on torus:8x8, and write the
// ring all-reduce of torus:16x16 as MSCCL XML (31 MB) and check it (130 560 chunk transfers).
// Run: ./build/bench/bench_msccl

#include "topocast/algorithms/registry.h"
#include "topocast/analysis/msccl.h"
#include "topocast/io/msccl_xml.h"

#include <benchmark/benchmark.h>

#include <sstream>

using namespace topocast;

namespace {

MscclStep op(int s, MscclOp type, MscclBuffer sb, int so, MscclBuffer db, int dof, int cnt = 1, int depTb = -1,
             int depStep = -1)
{
    MscclStep st;
    st.s = s;
    st.type = type;
    st.srcBuf = sb;
    st.srcOff = so;
    st.dstBuf = db;
    st.dstOff = dof;
    st.cnt = cnt;
    st.depTb = depTb;
    st.depStep = depStep;
    st.hasDep = depTb >= 0;
    return st;
}

/// All-pairs all-reduce, in place: rank r sends chunk p to rank p's scratch, adds the n−1 chunks
/// it receives into chunk r once nop steps have waited for each, and sends the sum to everyone.
std::string allPairs(int n)
{
    using B = MscclBuffer;
    MscclProgram p;
    p.name = "allpairs";
    p.collective = "allreduce";
    p.inplace = true;
    p.ranks = n;
    p.chunksPerLoop = n;
    for (int r = 0; r < n; ++r) {
        MscclGpu& g = p.gpus.emplace_back();
        g.id = r;
        g.inputChunks = g.outputChunks = n;
        g.scratchChunks = n - 1;
        const int local = n - 1;
        for (int q = 0, tb = 0; q < n; ++q) {
            if (q == r)
                continue;
            MscclThreadblock& t = g.threadblocks.emplace_back();
            t.id = tb++;
            t.send = t.recv = q;
            t.steps.push_back(op(0, MscclOp::Send, B::Input, q, B::Scratch, r < q ? r : r - 1));
            t.steps.push_back(op(1, MscclOp::Recv, B::Input, q, B::Scratch, q < r ? q : q - 1));
            t.steps.push_back(op(2, MscclOp::Send, B::Input, r, B::Input, r, 1, local, 2 * (n - 1) - 1));
            t.steps.push_back(op(3, MscclOp::Recv, B::Input, q, B::Input, q));
        }
        MscclThreadblock& t = g.threadblocks.emplace_back();
        t.id = local;
        int s = 0;
        for (int tb = 0; tb < n - 1; ++tb)
            t.steps.push_back(op(s++, MscclOp::Nop, B::Input, -1, B::Output, -1, 0, tb, 1));
        for (int k = 0; k < n - 1; ++k)
            t.steps.push_back(op(s++, MscclOp::Reduce, B::Scratch, k, B::Input, r));
    }
    std::ostringstream out;
    writeMscclXml(out, p);
    return std::move(out).str();
}

void importAllPairs(benchmark::State& state)
{
    const std::string xml = allPairs(64);
    const Topology torus = Topology::parse("torus:8x8");
    std::uint64_t chunks = 0;
    for (auto _ : state) {
        const MscclCheck c = checkMscclProgram(parseMscclXml(xml), torus);
        if (!c.valid())
            state.SkipWithError(c.findings.front().what.c_str());
        chunks = c.chunkTransfers;
    }
    state.counters["xml_bytes"] = static_cast<double>(xml.size());
    state.counters["chunk_transfers"] = static_cast<double>(chunks);
}
BENCHMARK(importAllPairs)->Unit(benchmark::kMillisecond);

void exportAndCheckRing(benchmark::State& state)
{
    Params params;
    params.set("pattern", "allreduce");
    const Topology torus = Topology::parse("torus:16x16");
    const Schedule s = buildSchedule("ring", torus, NodeId{0}, params);
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::ostringstream out;
        writeMscclXml(out, mscclFromSchedule(s));
        const std::string xml = std::move(out).str();
        bytes = xml.size();
        const MscclCheck c = checkMscclProgram(parseMscclXml(xml), torus);
        if (!c.valid())
            state.SkipWithError(c.findings.front().what.c_str());
    }
    state.counters["xml_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(exportAndCheckRing)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
