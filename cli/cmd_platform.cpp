// topocast-cli platform: the topology and the network model's links as a SimGrid platform, with
// its hostfile, for smpirun (io/platform_xml.h).
#include "commands.h"

#include "network_options.h"

#include "topocast/io/atomic_file.h"
#include "topocast/io/platform_xml.h"
#include "topocast/model/error.h"
#include "topocast/model/units.h"

#include <memory>
#include <ostream>

namespace topocast::cli {

namespace {

struct PlatformCommand {
    NetworkOptions network;
    std::string topology;
    std::string out;
    std::string hostfile;
};

int runPlatform(const PlatformCommand& o, Io& io)
{
    const Topology topo = Topology::parse(o.topology);
    const NetworkModel net = o.network.resolve();
    const SimgridPlatform p = simgridPlatform(topo, net);
    if (o.out.empty()) {
        io.out << p.xml;
        return 0;
    }
    writeFileAtomic(o.out, p.xml);
    std::string hosts = o.hostfile;
    if (hosts.empty()) { // T.xml → T.hosts
        hosts = o.out;
        if (hosts.ends_with(".xml"))
            hosts.resize(hosts.size() - 4);
        hosts += ".hosts";
    }
    writeFileAtomic(hosts, p.hosts);
    io.out << o.out << ": the " << topo.displayName() << " as a SimGrid platform ("
           << (topo.isTorus() ? "SimGrid's TORUS cluster" : "every link and route listed") << "), links "
           << formatBandwidth(net.perByte) << " and " << formatSeconds(net.hopLatency) << " each\n"
           << hosts << ": " << topo.nodeCount() << " hosts, rank i on node i\n"
           << "run: smpirun -platform " << o.out << " -hostfile " << hosts << " -np " << topo.nodeCount()
           << " PROGRAM …\n";
    return 0;
}

const CommandRegistrar reg{Command{
    .name = "platform",
    .help = "the topology and the network model's links as a SimGrid platform (XML) and hostfile, for smpirun: MPI "
            "programs on the simulated machine",
    .setup =
        [](CLI::App& sub) {
            auto o = std::make_shared<PlatformCommand>();
            sub.add_option("--topology,-t", o->topology,
                           "torus:4x4x4 (any size), mesh:8x8 or hypercube:6 (at most 256 nodes)")
                ->required();
            o->network.add(sub);
            sub.add_option("--out,-o", o->out,
                           "write the platform to FILE.xml (atomically) and its hostfile beside it; "
                           "without it, the platform on standard output");
            sub.add_option("--hostfile", o->hostfile, "where the hostfile goes (default FILE.hosts beside --out)");
            return [o](Io& io) { return runPlatform(*o, io); };
        },
}};

} // namespace

} // namespace topocast::cli
