// Parameters declared once: each algorithm's parameters live in the registry
// (AlgorithmInfo::params, core param_spec.h); the scenario check, the CLI's options and the app's
// panel are built from them, and the algorithms read their values (defaults, ranges) through them.
#include "cli_runner.h"

#include "topocast/algorithms/divisible_load.h"
#include "topocast/algorithms/figures.h"
#include "topocast/algorithms/registry.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

using namespace topocast;
using topocast::testing::CliRun;
using topocast::testing::runCli;

namespace {

std::string refusalOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("params: every algorithm declares its mode, pattern and order, and every default is allowed", "[params]")
{
    for (const AlgorithmInfo& a : algorithms()) {
        INFO(a.name);
        std::set<std::string> keys;
        for (const ParamSpec& p : a.params) {
            INFO(p.key);
            CHECK(keys.insert(p.key).second); // declared once
            CHECK_FALSE(p.label.empty());
            CHECK_FALSE(p.help.empty());
            CHECK_FALSE(p.allowedText().empty());
            CHECK_FALSE(p.defaultValueText().empty());
            if (p.kind == ParamSpec::Kind::Integer || p.kind == ParamSpec::Kind::Number) {
                CHECK(p.min <= p.max);
                if (p.byDefault) {
                    CHECK(*p.byDefault >= p.min);
                    CHECK(*p.byDefault <= p.max);
                }
            }
        }
        CHECK(keys.count("order") == 1);
        CHECK(keys.count("pattern") == (a.patterns.empty() ? 0u : 1u));
        CHECK(keys.count("mode") == (a.modes.empty() ? 0u : 1u));
        if (const ParamSpec* mode = findParam(a.params, "mode"))
            CHECK(mode->choices == a.modes);
        if (const ParamSpec* pattern = findParam(a.params, "pattern"))
            CHECK(pattern->choices == a.patterns);
    }
    const AlgorithmInfo& dl = findAlgorithm("divisible-load");
    CHECK(findParam(dl.params, "ports") == findParam(dl.params, "p")); // an alias
    CHECK(findParam(dl.params, "layers")->max == kDivisibleMaxLayers);
    CHECK(findParam(findAlgorithm("sbt").params, "message")->allowedText() == "a whole number 1..1073741824");
    CHECK(findParam(findAlgorithm("cang-wu").params, "mode")->allowedText() == "optimal, eye-best, paper");
    CHECK(findParam(dl.params, "A")->allowedText() == "a number > 0");
    CHECK(findParam(dl.params, "C")->allowedText() == "a number ≥ 0");
}

TEST_CASE("params: a parameter an algorithm does not take, or a value outside its declaration, is refused",
          "[params][bad-input]")
{
    const Topology mesh = Topology::parse("mesh:4x4");
    const Topology cube = Topology::hypercube(4);
    CHECK(refusalOf([&] {
              buildSchedule("binomial", mesh, NodeId{0}, {{"layers", "3"}});
          }) == "binomial takes no parameter 'layers'; its parameters: pattern, order");
    CHECK(refusalOf([&] {
              buildSchedule("cang-wu", mesh, NodeId{0}, {{"mode", "best"}});
          }) == "cang-wu does not take mode 'best'; allowed: optimal, eye-best, paper");
    CHECK(refusalOf([&] {
              buildSchedule("sbt", cube, NodeId{0}, {{"message", "0"}});
          }) == "parameter message = 0 is out of range; allowed: a whole number 1..1073741824");
    CHECK(refusalOf([&] {
              buildSchedule("sbt", cube, NodeId{0}, {{"tau", "-1"}});
          }) == "parameter tau = -1 is out of range; allowed: a number ≥ 0");
    CHECK(refusalOf([&] {
              buildSchedule("sbt", cube, NodeId{0}, {{"ports", "two"}});
          }) == "sbt does not take ports 'two'; allowed: one, send-recv, half, n");
    CHECK(refusalOf([&] {
              buildSchedule("nesbt", cube, NodeId{0}, {{"variant", "nopipe"}});
          }) == "nesbt takes no parameter 'variant'; its parameters: pattern, message, packet, ports, tau, tc, order");
    const Topology m3 = Topology::parse("mesh:27x27x27");
    CHECK(refusalOf([&] {
              buildSchedule("divisible-load", m3, NodeId{0}, {{"p", "7"}});
          }) == "parameter p = 7 is out of range; allowed: a whole number 1..6");
    CHECK(refusalOf([&] {
              buildSchedule("divisible-load", m3, NodeId{0}, {{"V", "0"}});
          }) == "parameter V = 0 is out of range; allowed: a number > 0");
    CHECK(refusalOf([&] {
              buildSchedule("divisible-load", m3, NodeId{0}, {{"ports", "one"}});
          }) == "parameter p = 'one' is not a whole number 1..6");
    // Empty values count as not given; the aliases and the values also accepted still work.
    CHECK_NOTHROW(buildSchedule("binomial", mesh, NodeId{0}, {{"mode", ""}}));
    CHECK_NOTHROW(buildSchedule("sbt", cube, NodeId{0}, {{"ports", "one-port"}}));
    CHECK_NOTHROW(buildSchedule("tsay-wang", Topology::parse("torus:5x5"), NodeId{0}, {{"variant", "direct-final"}}));
}

TEST_CASE("params: every declared parameter of every algorithm refuses a value it does not allow",
          "[params][bad-input]")
{
    // buildSchedule enforces the declarations once, for every algorithm: a baseline given
    // pattern=scatter used to build a broadcast and say nothing.
    const std::vector<std::string> allPatterns{"broadcast", "scatter", "allgather", "alltoall", "allsum"};
    const std::vector<Topology> candidates{Topology::parse("mesh:4x4"), Topology::parse("torus:5x5"),
                                           Topology::hypercube(4), Topology::parse("mesh:8x8x8")};
    std::size_t refusals = 0;
    for (const AlgorithmInfo& a : algorithms()) {
        INFO(a.name);
        const auto topo = std::find_if(candidates.begin(), candidates.end(),
                                       [&](const Topology& t) { return !a.whyNot || !a.whyNot(t); });
        REQUIRE(topo != candidates.end());
        INFO(topo->spec());
        const auto refusal = [&](const std::string& key, const std::string& value) {
            return refusalOf([&] { (void)buildSchedule(a.name, *topo, NodeId{0}, {{key, value}}); });
        };
        for (const ParamSpec& p : a.params) {
            INFO(p.key);
            std::vector<std::string> bad;
            switch (p.kind) {
            case ParamSpec::Kind::Choice:
                bad = {"no-such-" + p.key};
                if (p.key == "pattern")
                    for (const std::string& name : allPatterns)
                        if (std::find(p.choices.begin(), p.choices.end(), name) == p.choices.end())
                            bad.push_back(name);
                for (const std::string& value : bad)
                    CHECK(refusal(p.key, value) ==
                          a.name + " does not take " + p.key + " '" + value + "'; allowed: " + p.allowedText());
                break;
            case ParamSpec::Kind::Integer:
            case ParamSpec::Kind::Number:
                bad = {"many"};
                CHECK(refusal(p.key, "many") == "parameter " + p.key + " = 'many' is not " + p.allowedText());
                if (p.max < 1e300) {
                    bad.push_back(paramNumberText(p.max + 1));
                    CHECK(refusal(p.key, bad.back()) ==
                          "parameter " + p.key + " = " + bad.back() + " is out of range; allowed: " + p.allowedText());
                }
                break;
            case ParamSpec::Kind::Text:
                bad = {"qq"};
                CHECK(refusal(p.key, "qq").find("'qq'") != std::string::npos);
                break;
            }
            refusals += bad.size();
        }
    }
    CHECK(refusals > 60);
    // The report's case on the command line: refused, exit 2 — not a broadcast labelled a scatter.
    const CliRun r =
        runCli({"schedule", "--topology", "hypercube:4", "--algorithm", "binomial", "--pattern", "scatter"});
    CHECK(r.status != 0);
    CHECK(r.err.find("binomial does not take pattern 'scatter'; allowed: broadcast") != std::string::npos);
    const CliRun l = runCli({"source-map", "--topology", "hypercube:3", "--algorithm", "binomial", "--pattern",
                             "allsum", "--metric", "steps"});
    CHECK(l.status != 0);
    CHECK(l.err.find("binomial does not take pattern 'allsum'; allowed: broadcast") != std::string::npos);
}

TEST_CASE("params: the declared defaults are the values the algorithms use", "[params]")
{
    // Hypercube: M = 1, B = M, τ = t_c = 1 — the same schedule and cost with them given or not.
    const Topology cube = Topology::hypercube(5);
    const AlgorithmInfo& nesbt = findAlgorithm("nesbt");
    Params given;
    for (const ParamSpec& p : nesbt.params)
        if (p.byDefault)
            given.set(p.key, p.defaultValueText());
    CHECK(given.values().size() == 3); // message, tau, tc (B defaults to M)
    const Schedule a = buildSchedule("nesbt", cube, NodeId{3}, {});
    const Schedule b = buildSchedule("nesbt", cube, NodeId{3}, given);
    CHECK(a.transfers().size() == b.transfers().size());
    CHECK(a.figures->get<HypercubeFigures>()->time == b.figures->get<HypercubeFigures>()->time);

    // Divisible-load: the declared numbers are DivisibleLoadParams{}'s.
    const DivisibleLoadParams d;
    const AlgorithmInfo& dl = findAlgorithm("divisible-load");
    CHECK(*findParam(dl.params, "p")->byDefault == d.ports);
    CHECK(*findParam(dl.params, "A")->byDefault == d.A);
    CHECK(*findParam(dl.params, "C")->byDefault == d.C);
    CHECK(*findParam(dl.params, "S")->byDefault == d.S);
    CHECK(*findParam(dl.params, "V")->byDefault == d.V);
    CHECK(*findParam(dl.params, "epsilon")->byDefault == d.epsilon);
    // Parsed once, typed: "ports" is p's alias; what is not given takes the declared default.
    const ParamValues values = parseParams("divisible-load", dl.params, {{"ports", "2"}, {"V", "2e6"}});
    CHECK(values.given("p"));
    CHECK_FALSE(values.given("A"));
    CHECK(values.integer("p") == 2);
    CHECK(values.number("A") == d.A);
    CHECK_FALSE(values.has("layers")); // its default is chosen by the algorithm (h_max)
    const DivisibleLoadParams read = divisibleLoadParamsFrom(values);
    CHECK(read.ports == 2);
    CHECK(read.V == 2e6);
    CHECK(read.A == d.A);
}

TEST_CASE("params: parsed once into the types the declarations give", "[params]")
{
    const AlgorithmInfo& hp = findAlgorithm("sbt");
    const ParamValues v = parseParams("sbt", hp.params, {{"message", "12"}, {"tau", "0.5"}, {"pattern", "scatter"}});
    CHECK(v.integer("message") == 12);
    CHECK(v.number("tau") == 0.5);
    CHECK(v.text("pattern") == "scatter");
    CHECK(v.given("pattern"));
    CHECK_FALSE(v.given("packet"));
    CHECK(v.number("tc") == 1.0);   // the declared default
    CHECK(v.text("order").empty()); // a text without a default is absent until given
    CHECK_THROWS_WITH(v.text("message"), Catch::Contains("not a text"));
    CHECK_THROWS_WITH(v.integer("pattern"), Catch::Contains("not a whole number"));
    // A bad value is refused while parsing, before any algorithm runs, naming what is allowed.
    CHECK_THROWS_WITH(parseParams("sbt", hp.params, {{"message", "twelve"}}), Catch::Contains("message"));
    // with(): one thing changed, the rest as parsed.
    const ParamValues reduced = v.with("pattern", std::string("broadcast"));
    CHECK(reduced.text("pattern") == "broadcast");
    CHECK(reduced.integer("message") == 12);
}

TEST_CASE("params: the CLI's options and `algorithms` come from the declarations", "[params][cli]")
{
    const auto help = runCli({"schedule", "--help"});
    REQUIRE(help.status == 0);
    std::set<std::string> keys;
    for (const AlgorithmInfo& a : algorithms())
        for (const ParamSpec& p : a.params)
            keys.insert(p.key);
    for (const std::string& key : keys) {
        INFO(key);
        if (key.size() > 1)
            CHECK(help.out.find("--" + key + " ") != std::string::npos);
    }
    CHECK(help.out.find("--layers") != std::string::npos);
    CHECK(help.out.find("--epsilon") != std::string::npos);

    const auto list = runCli({"algorithms"});
    REQUIRE(list.status == 0);
    CHECK(list.out.find("    --message  message size M: a whole number 1..1073741824; default 1 (elements)") !=
          std::string::npos);
    CHECK(list.out.find("    --param V=…  load V: a number > 0; default 1000000 (bytes)") != std::string::npos);
    CHECK(list.out.find("    --packet  packet size B: a whole number 1..1099511627776; default = M (elements)") !=
          std::string::npos);

    // A declared option reaches the algorithm: --layers 2 gives a two-layer scatter.
    const auto run = runCli({"schedule", "--topology", "mesh:9x9x9", "--algorithm", "divisible-load", "--source",
                             "4,4,4", "--layers", "2", "--param", "p=2", "--json"});
    INFO(run.err);
    REQUIRE(run.status == 0);
    CHECK(run.out.find("\"layers\": 2") != std::string::npos);
    const auto bad = runCli({"schedule", "--topology", "mesh:4x4", "--algorithm", "binomial", "--message", "4"});
    CHECK(bad.status == 2);
    CHECK(bad.err == "topocast-cli: binomial takes no parameter 'message'; its parameters: pattern, order\n");
}
