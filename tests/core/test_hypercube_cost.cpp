// Closed-form costs of the hypercube algorithms: Johnsson & Ho §4–§7 (Tables 4–18); the expected values are
// those formulas evaluated by us (exact rationals, ceilings as printed), not numbers printed in the paper.

#include "topocast/algorithms/hypercube_cost.h"

#include "topocast/model/error.h"

#include "hypercube_shorthand.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace topocast;
using namespace topocast::hypercube;

namespace {

Rational frac(const std::string& s)
{
    const auto slash = s.find('/');
    if (slash == std::string::npos)
        return Rational(std::stoll(s));
    return Rational(std::stoll(s.substr(0, slash)), std::stoll(s.substr(slash + 1)));
}

struct Row {
    const char* what;
    const char* algo;
    Pattern pattern;
    Ports ports;
    const char* variant;
    const char* v[3][2]; // start-ups; transfer for (3,6,2), (4,8,4), (4,1,1)
};

const Row kRows[] = {
    {"T4 one-port bcast BRG", "hp", Bc, One, "", {{"11", "22"}, {"17", "68"}, {"15", "15"}}},
    {"T4 one-port bcast BRG no pipelining", "hp", Bc, One, "nopipe", {{"21", "42"}, {"30", "120"}, {"15", "15"}}},
    {"§4.1.1 one-port bcast BRG send+recv", "hp", Bc, SR, "", {{"9", "18"}, {"16", "64"}, {"15", "15"}}},
    {"T4 one-port bcast SBT", "sbt", Bc, One, "", {{"9", "18"}, {"8", "32"}, {"4", "4"}}},
    {"T4 one-port bcast nRSBT", "nrsbt", Bc, One, "", {{"9", "18"}, {"10", "32"}, {"7", "4"}}},
    {"T4 one-port bcast TCBT", "tcbt", Bc, One, "", {{"10", "20"}, {"9", "36"}, {"6", "6"}}},
    {"§4.1.3 one-port bcast TCBT send+recv", "tcbt", Bc, SR, "", {{"8", "16"}, {"8", "32"}, {"6", "6"}}},
    {"T4 one-port bcast nESBT", "nesbt", Bc, One, "", {{"6", "12"}, {"6", "24"}, {"5", "5"}}},
    {"Thm4.3 half-duplex bcast nESBT", "nesbt", Bc, Half, "", {{"8", "16"}, {"7", "28"}, {"5", "5"}}},
    {"T5 n-port bcast nRBRG", "hp", Bc, NP, "", {{"7", "14"}, {"15", "30"}, {"15", "15/4"}}},
    {"T5 n-port bcast SBT", "sbt", Bc, NP, "", {{"5", "10"}, {"5", "20"}, {"4", "4"}}},
    {"T5 n-port bcast TCBT", "tcbt", Bc, NP, "", {{"5", "10"}, {"5", "20"}, {"4", "4"}}},
    {"T5 n-port bcast nRSBT", "nrsbt", Bc, NP, "", {{"3", "6"}, {"4", "8"}, {"4", "1"}}},
    {"T5 n-port bcast nESBT", "nesbt", Bc, NP, "", {{"4", "8"}, {"5", "18"}, {"5", "17/4"}}},
    {"T7 one-port pers BRG", "hp", Sc, One, "", {{"39", "78"}, {"58", "232"}, {"29", "29"}}},
    {"§5.1.1 one-port pers BRG send+recv", "hp", Sc, SR, "", {{"21", "42"}, {"30", "120"}, {"15", "15"}}},
    {"T7 one-port pers SBT", "sbt", Sc, One, "", {{"21", "42"}, {"30", "120"}, {"15", "15"}}},
    {"T7 one-port pers nRSBT", "nrsbt", Sc, One, "", {{"21", "42"}, {"32", "120"}, {"17", "15"}}},
    {"T7 one-port pers TCBT (approx)", "tcbt", Sc, One, "", {{"24", "54"}, {"44", "184"}, {"22", "23"}}},
    {"T7 n-port pers nRBRG", "hp", Sc, NP, "", {{"28", "56"}, {"64", "240"}, {"36", "30"}}},
    {"T7 n-port pers SBT", "sbt", Sc, NP, "", {{"12", "24"}, {"16", "64"}, {"8", "8"}}},
    {"T7 n-port pers nRSBT", "nrsbt", Sc, NP, "", {{"7", "14"}, {"8", "30"}, {"5", "15/4"}}},
    {"T7 n-port pers SBnT (= nRSBT)", "sbntc", Sc, NP, "", {{"7", "14"}, {"8", "30"}, {"5", "15/4"}}},
    {"§5.1.5 n-port pers SBnT streaming", "sbntc", Sc, NP, "streaming", {{"7", "14"}, {"8", "30"}, {"4", "15/4"}}},
    {"T7 n-port pers TCBT (approx)", "tcbt", Sc, NP, "", {{"15", "30"}, {"22", "88"}, {"11", "11"}}},
    {"T11 one-port a2a bcast BRG", "hp", Ag, One, "", {{"21", "42"}, {"30", "120"}, {"15", "15"}}},
    {"T11 one-port a2a bcast SBT", "sbt", Ag, One, "", {{"21", "42"}, {"30", "120"}, {"15", "15"}}},
    {"T11 one-port a2a bcast nRSBT", "nrsbt", Ag, One, "", {{"21", "42"}, {"32", "120"}, {"17", "15"}}},
    {"T11 one-port a2a bcast nESBT", "nesbt", Ag, One, "", {{"21", "42"}, {"32", "120"}, {"18", "15"}}},
    {"T13 n-port a2a bcast nRBRG", "hp", Ag, NP, "", {{"7", "14"}, {"15", "30"}, {"15", "15/4"}}},
    {"T13 n-port a2a bcast SBT", "sbt", Ag, NP, "", {{"12", "24"}, {"16", "64"}, {"8", "8"}}},
    {"T13 n-port a2a bcast nRSBT", "nrsbt", Ag, NP, "", {{"7", "14"}, {"8", "30"}, {"5", "15/4"}}},
    {"T13 n-port a2a bcast SBnT", "sbntc", Ag, NP, "", {{"7", "14"}, {"8", "30"}, {"5", "15/4"}}},
    {"T13 n-port a2a bcast nESBT", "nesbt", Ag, NP, "", {{"7", "14"}, {"9", "30"}, {"6", "15/4"}}},
    {"T15 one-port a2a pers BRG", "hp", Aa, One, "", {{"84", "168"}, {"240", "960"}, {"120", "120"}}},
    {"T15 one-port a2a pers SBT", "sbt", Aa, One, "", {{"36", "72"}, {"64", "256"}, {"32", "32"}}},
    {"T15 one-port a2a pers nRSBT", "nrsbt", Aa, One, "", {{"36", "72"}, {"64", "256"}, {"32", "32"}}},
    {"T15 one-port a2a pers nESBT (corrected, §10 item 14)",
     "nesbt",
     Aa,
     One,
     "",
     {{"54", "108"}, {"96", "368"}, {"48", "46"}}},
    {"T17 n-port a2a pers nRBRG", "hp", Aa, NP, "", {{"28", "56"}, {"64", "240"}, {"36", "30"}}},
    {"T17 n-port a2a pers SBT", "sbt", Aa, NP, "", {{"21", "42"}, {"32", "128"}, {"16", "16"}}},
    {"T17 n-port a2a pers nRSBT (alt scheme)", "nrsbt", Aa, NP, "", {{"12", "24"}, {"16", "64"}, {"8", "8"}}},
    {"T17 n-port a2a pers nESBT", "nesbt", Aa, NP, "", {{"18", "36"}, {"25", "92"}, {"14", "23/2"}}},
    {"T17 n-port a2a pers SBnT", "sbntc", Aa, NP, "", {{"12", "24"}, {"18", "64"}, {"10", "8"}}},
};

} // namespace

TEST_CASE("formula evaluations: every row of spec §12.9 (Tables 4, 5, 7, 11, 13, 15, 17)", "[hypercube]")
{
    const CostParams cols[3] = {{3, 6, 2, 1, 1}, {4, 8, 4, 1, 1}, {4, 1, 1, 1, 1}};
    for (const Row& r : kRows)
        for (int c = 0; c < 3; ++c) {
            INFO(r.what << " column " << c);
            const ClosedForm f = closedForm(r.algo, r.pattern, r.ports, cols[c], r.variant);
            REQUIRE(f.available);
            CHECK(f.startups == frac(r.v[c][0]));
            CHECK(f.transfer == frac(r.v[c][1]));
        }
}

TEST_CASE("optimal packet sizes: spec §12.10 exact integer cases", "[hypercube]")
{
    struct Case {
        const char* algo;
        Ports ports;
        int n;
        long long M;
        double tau;
        double B;
        double T;
    };
    const Case cases[] = {{"nesbt", One, 4, 64, 4, 8, 144},
                          {"sbt", NP, 5, 64, 4, 8, 144},
                          {"hp", One, 3, 40, 1, 4, 125},
                          {"tcbt", One, 4, 16, 4, 8, 108},
                          {"nesbt", NP, 4, 256, 4, 8, 144}};
    for (const auto& k : cases) {
        INFO(k.algo << " n = " << k.n);
        const ClosedForm f = closedForm(k.algo, Bc, k.ports, {k.n, k.M, 1, k.tau, 1.0});
        CHECK(f.packetOpt == Approx(k.B));
        CHECK(f.timeMin == Approx(k.T));
        const long long B = static_cast<long long>(k.B);
        const ClosedForm atOpt = closedForm(k.algo, Bc, k.ports, {k.n, k.M, B, k.tau, 1.0});
        CHECK(atOpt.time(k.tau, 1.0) == Approx(k.T));
        // scanning every integer B finds nothing cheaper
        double best = 1e300;
        for (long long b = 1; b <= k.M; ++b)
            best = std::min(best, closedForm(k.algo, Bc, k.ports, {k.n, k.M, b, k.tau, 1.0}).time(k.tau, 1.0));
        CHECK(best == Approx(k.T));
    }
    // SBT one-port personalized, n = 4, M = 1: B = 1 → 15 start-ups, B = 4 → 5, B = 8 → 4 (§10 item 8)
    CHECK(closedForm("sbt", Sc, One, {4, 1, 1, 1, 1}).startups == 15);
    CHECK(closedForm("sbt", Sc, One, {4, 1, 4, 1, 1}).startups == 5);
    CHECK(closedForm("sbt", Sc, One, {4, 1, 8, 1, 1}).startups == 4);
    // §10 item 13: exact sqrt(2/π) packet = M·C(n,⌊n/2⌋)/n; n = 10 → 25.2·M
    CHECK(closedForm("nrsbt", Sc, NP, {10, 1, 1, 1, 1}).packetOpt == Approx(25.2));
    // §10 item 15: nESBT one-port all-to-all personalized B_opt for n = 3 is 5M
    CHECK(closedForm("nesbt", Aa, One, {3, 1, 1, 1, 1}).packetOpt == Approx(5.0));
}

TEST_CASE("graph-derived formulas: SBnTc one-port label amounts (spec §6.2, §7.2, §12.7 V38)", "[hypercube]")
{
    // With B = 1 and M = den the start-ups are the per-cycle amounts summed; transfer as §6.2.
    const ClosedForm ag = closedForm("sbntc", Ag, One, {4, 4, 1, 1, 1});
    // amounts ×M: 1, 2, 7/2, 15/4, 11/4, 7/4, 1/4 → ×4 = 4, 8, 14, 15, 11, 7, 1
    CHECK(ag.startups == 60);
    CHECK(ag.transfer == 60);
    const ClosedForm aa = closedForm("sbntc", Aa, One, {4, 4, 1, 1, 1});
    // 15/4, 6, 31/4, 8, 17/4, 2, 1/4 → ×4 = 15, 24, 31, 32, 17, 8, 1 = 128
    CHECK(aa.transfer == 128);
    // single-path SBnT n = 4: broadcast 1,2,4,5,2,1 (6 cycles), personalized 5,7,8,8,3,1
    CHECK(closedForm("sbnt", Ag, One, {4, 1, 100, 1, 1}).startups == 6);
    CHECK(closedForm("sbnt", Aa, One, {4, 1, 1, 1, 1}).transfer == 32);
    CHECK(closedForm("sbnt", Aa, One, {4, 1, 8, 1, 1}).startups == 6);
    CHECK(closedForm("sbntc", Ag, One, {3, 3, 100, 1, 1}).startups == 5); // 2n−1 cycles
    // TCBT n-port all-to-all from counters (V43, n = 3: e 1,2,1; s 4,4,1)
    CHECK(closedForm("tcbt", Ag, NP, {3, 1, 1, 1, 1}).transfer == 4);
    CHECK(closedForm("tcbt", Aa, NP, {3, 1, 1, 1, 1}).transfer == 9);
}

TEST_CASE("lower bounds (spec §4.1, §5.1, Thm. 6.1, 7.1, 7.2)", "[hypercube]")
{
    const CostParams p{4, 8, 4, 1, 1};
    CHECK(lowerBound(Bc, One, p).transfer == 11);
    CHECK(lowerBound(Bc, NP, p).transfer == 2); // M/n: the rational reading (hypercube_cost.cpp)
    CHECK(lowerBound(Sc, One, p).transfer == 120);
    CHECK(lowerBound(Sc, NP, p).transfer == 30);
    CHECK(lowerBound(Ag, NP, p).startups == 4);
    CHECK(lowerBound(Aa, One, p).transfer == 256);
    CHECK(lowerBound(Aa, NP, p).transfer == 64);
    // every closed form is at least the bound (n = 2..8, several M and B)
    for (const std::string& a : algorithmNames())
        for (Pattern pat : servedPatterns(a))
            for (Ports ports : servedPorts(a, pat))
                for (int n = 2; n <= 8; ++n)
                    for (auto [M, B] : {std::pair{8LL, 2LL}, {24LL, 24LL}, {64LL, 8LL}}) {
                        const CostParams q{n, M, B, 1, 1};
                        const ClosedForm f = closedForm(a, pat, ports, q);
                        if (!f.available)
                            continue;
                        INFO(a << " " << toString(pat) << " " << portsName(ports) << " n=" << n);
                        const Bound lb = lowerBound(pat, ports, q);
                        CHECK(f.transfer >= lb.transfer);
                        CHECK(f.startups >= lb.startups);
                    }
}

TEST_CASE("bad input: clear errors (spec §11)", "[hypercube]")
{
    CHECK_THROWS_WITH(closedForm("sbt", Bc, One, {21, 8, 4, 1, 1}), Catch::Contains("outside 1..20"));
    CHECK_THROWS_WITH(closedForm("sbt", Bc, One, {4, 8, 16, 1, 1}), Catch::Contains("larger than the message"));
    CHECK_THROWS_WITH(closedForm("sbt", Bc, One, {4, 8, 4, -1, 1}), Catch::Contains("tau"));
    CHECK_THROWS_WITH(closedForm("sbt", Bc, One, {4, 8, 4, 1, -2}), Catch::Contains("tc"));
    CHECK_THROWS_WITH(closedForm("sbnt", Bc, One, {4, 8, 4, 1, 1}),
                      Catch::Contains("does not serve pattern broadcast"));
    CHECK_THROWS_WITH(closedForm("tcbt", Ag, One, {4, 8, 4, 1, 1}), Catch::Contains("allowed: n"));
    CHECK_THROWS_WITH(closedForm("sbt", Bc, One, {4, 0, 1, 1, 1}), Catch::Contains("M = 0"));
    CHECK_THROWS_WITH(parsePorts("two"), Catch::Contains("one, send-recv, half or n"));
    CHECK_THROWS_AS(closedForm("foo", Bc, One, {4, 8, 4, 1, 1}), Error);
}
