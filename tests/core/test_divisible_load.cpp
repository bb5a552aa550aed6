// The analytic divisible-load model (Drozdowski & Głazek §3–§5 and Appendix A: eq. (1), Theorem 1,
// eqs. (4)–(12), Theorem 3, Tables 1–2; the values behind Figs. 3–7, which are lost, recomputed by us).

#include "topocast/algorithms/divisible_load.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace topocast;

namespace {

// Figure-4 parameters (spec §3).
DivisibleLoadParams fig4(int p, int h)
{
    DivisibleLoadParams pr;
    pr.ports = p;
    pr.layers = h;
    pr.A = 1e-6;
    pr.C = 3.3e-9;
    pr.S = 8.57e-6;
    pr.V = 1e6;
    pr.epsilon = 0;
    return pr;
}

bool relClose(double a, double b, double tol = 1e-9)
{
    return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b));
}

// Element-wise relative agreement, with the scale of the whole vector for entries near 0.
bool vectorsClose(const std::vector<double>& a, const std::vector<double>& b, double tol)
{
    if (a.size() != b.size())
        return false;
    double scale = 0;
    for (double x : a)
        scale = std::max(scale, std::abs(x));
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(std::abs(a[i] - b[i]) <= tol * std::max({std::abs(a[i]), std::abs(b[i]), 1e-6 * scale})))
            return false;
    return true;
}

} // namespace

TEST_CASE("closed form = Gaussian elimination = recurrence, p = 1..6, h = 0..12, Fig-4 parameters "
          "(docs/papers/divisible-load.md §2.7, §5 item 1)",
          "[divisible]")
{
    for (int p = 1; p <= 6; ++p)
        for (int h = 0; h <= 12; ++h) {
            const auto pr = fig4(p, h);
            const auto m = solveDivisibleLoad(pr);
            const auto dense = solveDivisibleLoadSystem(pr);
            INFO("p = " << p << ", h = " << h);
            CHECK(vectorsClose(m.alpha, dense, 1e-9));
            // Shooting cancels badly once α_h < 0; the spec claims it for feasible h only.
            if (m.feasible)
                CHECK(vectorsClose(m.alpha, solveDivisibleLoadRecurrence(pr), 1e-9));
        }
}

TEST_CASE("closed form = Gaussian elimination for 200 random parameter sets (spec §5 item 1)", "[divisible]")
{
    std::mt19937_64 rng(20261121);
    std::uniform_int_distribution<int> port(1, 6), depth(0, 12);
    std::uniform_real_distribution<double> logu(-3.0, 3.0), unit(0.0, 1.0);
    for (int run = 0; run < 200; ++run) {
        DivisibleLoadParams pr;
        pr.ports = port(rng);
        pr.layers = depth(rng);
        pr.A = std::pow(10.0, logu(rng));
        pr.C = pr.A * std::pow(10.0, logu(rng) - 1.0);
        pr.S = unit(rng) < 0.1 ? 0.0 : pr.A * std::pow(10.0, logu(rng));
        pr.V = std::pow(10.0, 3.0 + logu(rng));
        pr.epsilon = unit(rng) < 0.5 ? 0.0 : unit(rng);
        INFO("run " << run << ": p = " << pr.ports << ", h = " << pr.layers << ", A = " << pr.A << ", C = " << pr.C
                    << ", S = " << pr.S << ", V = " << pr.V << ", eps = " << pr.epsilon);
        const auto m = solveDivisibleLoad(pr);
        CHECK(vectorsClose(m.alpha, solveDivisibleLoadSystem(pr), 1e-9));
        if (m.feasible)
            CHECK(vectorsClose(m.alpha, solveDivisibleLoadRecurrence(pr), 1e-9));
        CHECK(relClose(m.speedup, divisibleLoadSpeedup(pr), 1e-9));
        if (m.feasible) {
            double sum = 0;
            for (double l : m.lambda)
                sum += l;
            CHECK(std::abs(sum - 1.0) < 1e-12);
        }
    }
}

TEST_CASE("small exact example p = 2, h = 2, A = 1, C = 1/2, S = 1, V = 100 (spec §2.7)", "[divisible]")
{
    DivisibleLoadParams pr{2, 2, 1.0, 0.5, 1.0, 100.0, 0.0};
    const auto m = solveDivisibleLoad(pr);
    REQUIRE(m.alpha.size() == 3);
    CHECK(relClose(m.alpha[0], 1364.0 / 49, 1e-13));
    CHECK(relClose(m.alpha[1], 622.0 / 49, 1e-13));
    CHECK(relClose(m.alpha[2], 382.0 / 49, 1e-13));
    CHECK(relClose(m.speedup, 1225.0 / 341, 1e-13));
    CHECK(m.feasible);
}

TEST_CASE("T1 (Fig 4): speedup (6) for p = 1, 3, 6 and the infeasible marks (spec §3)", "[divisible]")
{
    struct Row {
        int p, h;
        double s;
        bool feasible;
    };
    const std::vector<Row> rows = {
        {1, 0, 1, true},
        {1, 1, 1.996693798798111, true},
        {1, 2, 3.973657907580957, true},
        {1, 3, 7.856602052940898, true},
        {1, 4, 15.33735191794047, true},
        {1, 5, 29.22684320145981, true},
        {1, 6, 53.32670786163789, true},
        {1, 7, 90.59655613492687, true},
        {1, 8, 139.0552183798962, true},
        {1, 9, 189.5535437656821, true},
        {1, 10, 231.2944460864595, true},
        {1, 11, 259.5700216036464, true},
        {1, 12, 276.1129174504513, true},
        {1, 13, 284.8381576242566, true},
        {1, 14, 289.0453814137556, true},
        {1, 15, 290.8300903294712, true},
        {1, 16, 291.3656224563602, true},
        {1, 17, 291.2702996393522, false},
        {3, 0, 1, true},
        {3, 1, 3.990030316276855, true},
        {3, 2, 15.76250789464867, true},
        {3, 3, 59.91276903931087, true},
        {3, 4, 199.2308784494857, true},
        {3, 5, 473.8837604085693, true},
        {3, 6, 719.4380184596048, true},
        {3, 7, 822.0423397631174, true},
        {3, 8, 847.7683951694802, true},
        {3, 9, 849.7847935540920, true},
        {3, 10, 845.6719862297781, false},
        {6, 0, 1, true},
        {6, 1, 6.979907398745696, true},
        {6, 2, 47.74829155241370, true},
        {6, 3, 287.0508709339902, true},
        {6, 4, 1001.991153006473, true},
        {6, 5, 1537.459180846115, true},
        {6, 6, 1644.374843763782, true},
        {6, 7, 1640.857269742748, false},
        {6, 8, 1620.835031706657, false},
        {6, 9, 1599.019693092460, false},
        {6, 10, 1577.467914515305, false},
    };
    for (const auto& r : rows) {
        INFO("p = " << r.p << ", h = " << r.h);
        const auto pr = fig4(r.p, r.h);
        const auto m = solveDivisibleLoad(pr);
        CHECK(relClose(m.speedup, r.s));
        CHECK(relClose(divisibleLoadSpeedup(pr), r.s));
        CHECK(m.feasible == r.feasible);
        CHECK(m.processors == std::pow(r.p + 1.0, r.h));
    }
}

TEST_CASE("T2: speedup with S = 0 (formula 10) for p = 1, 3, 6 (spec §3)", "[divisible]")
{
    const double t2[11][3] = {
        {1, 1, 1},
        {1.996710854181202, 3.990132562543606, 6.980265125087212},
        {3.973826730395986, 15.76609857076888, 47.78418795809931},
        {7.857723820244323, 59.99499527766734, 289.0649773367233},
        {15.34351333146551, 200.4852051129139, 1036.078514832331},
        {29.25630822452568, 483.0295216443859, 1641.971401707383},
        {53.44889502110015, 745.4564403289176, 1791.572522995305},
        {91.01994950095251, 862.5087786785203, 1815.187527243761},
        {140.2222821904454, 897.7199576367941, 1818.610398578012},
        {192.0427008166010, 906.9688833952154, 1819.100203299728},
        {235.4835699813134, 909.3090338605387, 1819.170163958679},
    };
    const int ps[3] = {1, 3, 6};
    for (int h = 0; h <= 10; ++h)
        for (int c = 0; c < 3; ++c) {
            auto pr = fig4(ps[c], h);
            INFO("p = " << ps[c] << ", h = " << h);
            CHECK(relClose(divisibleLoadSpeedupNoSetup(pr), t2[h][c]));
            pr.S = 0;
            const auto m = solveDivisibleLoad(pr);
            CHECK(relClose(m.speedup, t2[h][c]));
            CHECK(m.feasible);
            CHECK(!divisibleLoadMaxLayers(pr).has_value());
        }
}

TEST_CASE("T3 (Fig 5): p = 6 with C = 0.33, 3.3, 33 ns/byte, full model and S = 0 (spec §3)", "[divisible]")
{
    const double t3[8][6] = {
        {1, 1, 1, 1, 1, 1},
        {6.997660952159627, 6.979907398745696, 6.807986382710746, 6.998020653184449, 6.980265125087212,
         6.808325266214908},
        {48.83801202260241, 47.74829155241370, 39.07457749628838, 48.87558324657802, 47.78418795809931,
         39.09850532255043},
        {333.9833946589212, 287.0508709339902, 119.7180815255700, 336.7143650454159, 289.0649773367233,
         120.0653670175887},
        {1983.185737319287, 1001.991153006473, 169.2307662008439, 2121.391665347083, 1036.078514832331,
         170.1719045259647},
        {6414.440136011531, 1537.459180846115, 179.5681381762809, 8735.249504088177, 1641.971401707383,
         180.9066185380467},
        {8811.894727895796, 1644.374843763782, 180.9018443724616, 15749.52863511500, 1791.572522995305,
         182.5439227569981},
        {8713.131496870854, 1640.857269742748, 180.8536371153486, 17790.18395493332, 1815.187527243761,
         182.7791355432766},
    };
    const double cs[3] = {0.33e-9, 3.3e-9, 33e-9};
    const double limits[3] = {18182.81818181818, 1819.181818181818, 182.8181818181818};
    for (int h = 0; h <= 7; ++h)
        for (int c = 0; c < 3; ++c) {
            auto pr = fig4(6, h);
            pr.C = cs[c];
            INFO("h = " << h << ", C = " << cs[c]);
            const auto m = solveDivisibleLoad(pr);
            CHECK(relClose(m.speedup, t3[h][c]));
            CHECK(m.feasible == (h <= 6));
            CHECK(relClose(m.limit, limits[c]));
            pr.S = 0;
            CHECK(relClose(solveDivisibleLoad(pr).speedup, t3[h][c + 3]));
        }
}

TEST_CASE("T4 (Fig 6): α_i and λ_i at h = 6 for p = 1, 3, 6 (spec §3)", "[divisible]")
{
    const double t4[7][6] = {
        {18752.32955678816, 0.01875232955678816, 1389.973805027859, 0.001389973805027859, 608.1338472140066,
         0.0006081338472140066},
        {17096.49168926957, 0.01709649168926957, 557.0909333969546, 0.001671272800190864, 128.3614541992849,
         0.0007701687251957096},
        {16265.65863005797, 0.03253131726011594, 342.6196542944881, 0.004111435851533857, 52.51258395029923,
         0.002205528525912568},
        {15846.64846722085, 0.06338659386888341, 282.6238310730291, 0.01356594389150540, 34.33988390189552,
         0.01009592586715728},
        {15633.21055835193, 0.1250656844668154, 261.2150375223437, 0.05015328720428999, 24.40275425609943,
         0.05022086825905263},
        {15522.38945873184, 0.2483582313397094, 249.4450493748940, 0.1915737979199186, 15.64158028871319,
         0.2253326056392022},
        {15462.79224432556, 0.4948093518184181, 240.0827762133898, 0.7375342885275335, 7.048320829974273,
         0.7107667691362656},
    };
    const int ps[3] = {1, 3, 6};
    for (int c = 0; c < 3; ++c) {
        const auto m = solveDivisibleLoad(fig4(ps[c], 6));
        double sum = 0;
        for (int i = 0; i <= 6; ++i) {
            INFO("p = " << ps[c] << ", layer " << i);
            CHECK(relClose(m.alpha[static_cast<std::size_t>(i)], t4[i][2 * c]));
            CHECK(relClose(m.lambda[static_cast<std::size_t>(i)], t4[i][2 * c + 1]));
            sum += m.lambda[static_cast<std::size_t>(i)];
        }
        CHECK(std::abs(sum - 1.0) < 1e-12);
        // Fewer ports leave more in the front layers; the last layer holds the most.
        CHECK(std::max_element(m.lambda.begin(), m.lambda.end()) == m.lambda.end() - 1);
    }
}

TEST_CASE("T5: p = 1 at h = 16 and p = 3 at h = 9 (each at its h_max) (spec §3)", "[divisible]")
{
    const std::vector<std::pair<double, double>> p1 = {
        {3432.113890339883, 0.003432113890339883}, {1776.276022821288, 0.001776276022821288},
        {945.4429636096903, 0.001890885927219381}, {526.4328007725725, 0.002105731203090290},
        {312.9948919036473, 0.002503959135229179}, {202.1737922835579, 0.003234780676536927},
        {142.5765778772836, 0.004562450492073074}, {108.5491159862666, 0.006947143423121059},
        {87.28547005654209, 0.01117254016723739},  {72.39321930541922, 0.01853266414218732},
        {60.68141840134950, 0.03106888622149094},  {50.55722287193816, 0.05177059622086468},
        {41.22552241298976, 0.08442986990180303},  {32.28941675784655, 0.1322574510401395},
        {23.55078267650915, 0.1929280116859629},   {14.91072173639164, 0.2442972649290406},
        {6.319866178004227, 0.2070893749208425},
    };
    const std::vector<std::pair<double, double>> p3 = {
        {1176.768527261657, 0.001176768527261657}, {343.8856556307524, 0.001031656966892257},
        {129.4143765282858, 0.001552972518339429}, {69.41855330682683, 0.003332090558727688},
        {48.00975975614141, 0.009217873873179151}, {36.23977160869170, 0.02783214459547523},
        {26.87749844718751, 0.08256767522976004},  {18.11665785030390, 0.2226174916645343},
        {9.506051451362119, 0.4672414409373509},   {0.9329726416446911, 0.1834298851284794},
    };
    const auto m1 = solveDivisibleLoad(fig4(1, 16));
    for (std::size_t i = 0; i < p1.size(); ++i) {
        INFO("p = 1, layer " << i);
        CHECK(relClose(m1.alpha[i], p1[i].first));
        CHECK(relClose(m1.lambda[i], p1[i].second));
    }
    const auto m3 = solveDivisibleLoad(fig4(3, 9));
    for (std::size_t i = 0; i < p3.size(); ++i) {
        INFO("p = 3, layer " << i);
        CHECK(relClose(m3.alpha[i], p3[i].first));
        CHECK(relClose(m3.lambda[i], p3[i].second));
    }
    // The maximum layer share is not in the last layer here: layer 15 (p = 1) and 8 (p = 3).
    CHECK(std::max_element(m1.lambda.begin(), m1.lambda.end()) - m1.lambda.begin() == 15);
    CHECK(std::max_element(m3.lambda.begin(), m3.lambda.end()) - m3.lambda.begin() == 8);
}

TEST_CASE("T6 (Fig 7): p = 6, h = 6 with three values of ρ (spec §3)", "[divisible]")
{
    const double t6[7][6] = {
        {113.4829716966888, 0.0001134829716966888, 608.1338472140066, 0.0006081338472140066, 5527.859616185473,
         0.005527859616185473},
        {57.77274089328383, 0.0003466364453597030, 128.3614541992849, 0.0007701687251957096, 827.1643225696618,
         0.004962985935417971},
        {42.46914366238114, 0.001783704033820008, 52.51258395029923, 0.002205528525912568, 151.4760965472231,
         0.006361996054983371},
        {32.93765054264212, 0.009683669259536783, 34.33988390189552, 0.01009592586715728, 48.09088027785889,
         0.01413871880169051},
        {24.23070485297620, 0.04986679058742502, 24.40275425609943, 0.05022086825905263, 26.07961676735636,
         0.05367185130721940},
        {15.64154610050797, 0.2253321131239178, 15.64158028871319, 0.2253326056392022, 15.63865792895134,
         0.2252905061244730},
        {7.069213260132127, 0.7128736035782440, 7.048320829974273, 0.7107667691362656, 6.842844074493071,
         0.6900460821600302},
    };
    const double cs[3] = {0.33e-9, 3.3e-9, 33e-9};
    for (int c = 0; c < 3; ++c) {
        auto pr = fig4(6, 6);
        pr.C = cs[c];
        const auto m = solveDivisibleLoad(pr);
        for (int i = 0; i <= 6; ++i) {
            INFO("C = " << cs[c] << ", layer " << i);
            CHECK(relClose(m.alpha[static_cast<std::size_t>(i)], t6[i][2 * c]));
            CHECK(relClose(m.lambda[static_cast<std::size_t>(i)], t6[i][2 * c + 1]));
        }
        CHECK(std::max_element(m.lambda.begin(), m.lambda.end()) == m.lambda.end() - 1);
    }
}

TEST_CASE("T7: h_max, h_opt, speedup at h_max and the limit 1 + p/ρ for p = 1..6 (spec §3, §2.4)", "[divisible]")
{
    struct Row {
        int p, hMax;
        double hOpt, sAtMax, nAtMax, limit;
    };
    const Row rows[] = {
        {1, 16, 16.268252872, 291.3656224563602, 65536, 304.0303030303030},
        {2, 11, 10.695799011, 573.8242678231949, 177147, 607.0606060606061},
        {3, 9, 8.647040699, 849.7847935540920, 262144, 910.0909090909091},
        {4, 8, 7.542113664, 1119.533885755270, 390625, 1213.121212121212},
        {5, 7, 6.835175896, 1386.271221001379, 279936, 1516.151515151515},
        {6, 6, 6.336484628, 1644.374843763782, 117649, 1819.181818181818},
    };
    for (const auto& r : rows) {
        INFO("p = " << r.p);
        const auto hMax = divisibleLoadMaxLayers(fig4(r.p, 0));
        REQUIRE(hMax.has_value());
        CHECK(*hMax == r.hMax);
        const auto hOpt = divisibleLoadOptimalLayersEstimate(fig4(r.p, 0));
        REQUIRE(hOpt.has_value());
        CHECK(std::abs(*hOpt - r.hOpt) < 1e-8);
        const auto m = solveDivisibleLoad(fig4(r.p, r.hMax));
        CHECK(m.feasible);
        CHECK(relClose(m.speedup, r.sAtMax));
        CHECK(m.processors == r.nAtMax);
        CHECK(relClose(m.limit, r.limit));
        CHECK_FALSE(solveDivisibleLoad(fig4(r.p, r.hMax + 1)).feasible);
        // The gap log_q((p+ρ)/ln q) is positive and below the paper's 0.72.
        CHECK(*hOpt < r.hMax + 1);
        CHECK(r.hMax + 1 - *hOpt < 1.0 + 0.7202);
    }
}

TEST_CASE("counterexample: round(h_opt) = 6 but h_max = 7 for p = 3, A = 1, C = 0.5, S = 8.57, V = 1e5 "
          "(spec §2.4)",
          "[divisible]")
{
    DivisibleLoadParams pr{3, 0, 1.0, 0.5, 8.57, 1e5, 0.0};
    const auto hOpt = divisibleLoadOptimalLayersEstimate(pr);
    REQUIRE(hOpt.has_value());
    CHECK(std::abs(*hOpt - 6.4976) < 1e-4);
    CHECK(std::lround(*hOpt) == 6);
    CHECK(divisibleLoadMaxLayers(pr) == 7);
    pr.layers = 6;
    const double s6 = solveDivisibleLoad(pr).speedup;
    pr.layers = 7;
    const double s7 = solveDivisibleLoad(pr).speedup;
    CHECK(relClose(s6, 6.974467401378753));
    CHECK(relClose(s7, 6.974799634843639));
    CHECK(s7 > s6);
    pr.layers = 8;
    const auto m8 = solveDivisibleLoad(pr);
    CHECK_FALSE(m8.feasible);
    CHECK(relClose(m8.alpha.back(), -1.853854194840996));
}

TEST_CASE("monotonicity: s_h > s_{h−1} exactly when h is feasible, argmax is h_max (spec §2.4, §5 item 4)",
          "[divisible]")
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> logu(-3.0, 3.0);
    for (int run = 0; run < 300; ++run) {
        DivisibleLoadParams pr;
        pr.ports = 1 + run % 6;
        pr.A = 1.0;
        pr.C = std::pow(10.0, logu(rng) - 1.0);
        pr.S = std::pow(10.0, logu(rng));
        pr.V = std::pow(10.0, 4.0 + logu(rng));
        const int hMax = divisibleLoadMaxLayers(pr).value();
        double prev = 1.0;
        int argmax = 0;
        double best = 1.0;
        for (int h = 1; h <= hMax + 3; ++h) {
            pr.layers = h;
            const auto m = solveDivisibleLoad(pr);
            INFO("run " << run << " p = " << pr.ports << " h = " << h << " h_max = " << hMax);
            CHECK(m.feasible == (h <= hMax));
            CHECK((m.speedup > prev) == m.feasible);
            if (m.speedup > best) {
                best = m.speedup;
                argmax = h;
            }
            prev = m.speedup;
        }
        CHECK(argmax == hMax);
    }
}

TEST_CASE("the speedup never exceeds min{n, 1 + p/ρ}, with S = 0 it tends to 1 + p/ρ (spec §2.5, §5 item 5)",
          "[divisible]")
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> logu(-3.0, 3.0);
    for (int run = 0; run < 200; ++run) {
        DivisibleLoadParams pr;
        pr.ports = 1 + run % 6;
        pr.A = 1.0;
        pr.C = std::pow(10.0, logu(rng) - 1.0);
        pr.S = run % 5 == 0 ? 0.0 : std::pow(10.0, logu(rng));
        pr.V = std::pow(10.0, 4.0 + logu(rng));
        pr.epsilon = run % 3 == 0 ? 0.5 : 0.0;
        for (int h = 0; h <= 30; ++h) {
            pr.layers = h;
            const auto m = solveDivisibleLoad(pr);
            INFO("run " << run << " h = " << h);
            CHECK(m.speedup <= m.bound * (1 + 1e-12));
            CHECK(m.bound == std::min(m.processors, m.limit));
            CHECK(relClose(m.limit, 1.0 + pr.ports / ((1 + pr.epsilon) * pr.C / pr.A), 1e-12));
        }
    }
    for (int p = 1; p <= 6; ++p) {
        auto pr = fig4(p, 200);
        pr.S = 0;
        const auto m = solveDivisibleLoad(pr);
        CHECK(relClose(m.speedup, 1.0 + p / 0.0033, 1e-9));
    }
}

TEST_CASE("degenerate inputs: h = 0 gives s = 1, C = 0 and S = 0 give s = n (spec §2.7 step 6)", "[divisible]")
{
    for (int p = 1; p <= 6; ++p) {
        const auto m0 = solveDivisibleLoad(fig4(p, 0));
        CHECK(m0.alpha == std::vector<double>{1e6});
        CHECK(m0.speedup == 1.0);
        CHECK(divisibleLoadTimeline(m0).rows.size() == 1);
        auto pr = fig4(p, 5);
        pr.C = 0;
        pr.S = 0;
        const auto m = solveDivisibleLoad(pr);
        CHECK(relClose(m.speedup, std::pow(p + 1.0, 5), 1e-12));
        CHECK(std::isinf(m.limit));
        CHECK(m.bound == m.processors);
        for (double a : m.alpha)
            CHECK(relClose(a, 1e6 / std::pow(p + 1.0, 5), 1e-12));
        pr.S = 1e-6;
        CHECK(relClose(solveDivisibleLoad(pr).alpha[0], solveDivisibleLoadSystem(pr)[0]));
    }
}

TEST_CASE("ε scales C: the limit becomes 1 + p/((1+ε)ρ) (spec §1.2, §2.3)", "[divisible]")
{
    auto pr = fig4(3, 6);
    pr.epsilon = 0.25;
    const auto m = solveDivisibleLoad(pr);
    CHECK(relClose(m.limit, 1.0 + 3.0 / (1.25 * 0.0033), 1e-12));
    auto same = fig4(3, 6);
    same.C = 1.25 * 3.3e-9;
    CHECK(vectorsClose(m.alpha, solveDivisibleLoad(same).alpha, 1e-13));
    CHECK(vectorsClose(m.alpha, solveDivisibleLoadSystem(pr), 1e-9));
    const auto t = divisibleLoadTimeline(m);
    for (const auto& mv : t.moves)
        CHECK(relClose(mv.resultAllowance, 0.25 * 3.3e-9 * mv.messageSize, 1e-12));
}

TEST_CASE("timing identities: T_k = A(α₀ − α_k), every processor stops at T = Aα₀ (spec §1.4, §4)", "[divisible]")
{
    for (int p = 1; p <= 6; ++p) {
        const int hMax = divisibleLoadMaxLayers(fig4(p, 0)).value();
        for (int h = 0; h <= hMax + 1; ++h) {
            const auto pr = fig4(p, h);
            const auto m = solveDivisibleLoad(pr);
            const auto t = divisibleLoadTimeline(m);
            INFO("p = " << p << " h = " << h);
            CHECK(relClose(t.finishTime, pr.A * m.alpha[0], 1e-15));
            REQUIRE(t.rows.size() == static_cast<std::size_t>(h) + 1);
            REQUIRE(t.moves.size() == static_cast<std::size_t>(h));
            for (int k = 0; k <= h; ++k) {
                const auto& r = t.rows[static_cast<std::size_t>(k)];
                CHECK(std::abs(r.receiveEnd - pr.A * (m.alpha[0] - m.alpha[static_cast<std::size_t>(k)])) <=
                      1e-9 * t.finishTime);
                CHECK(std::abs(r.computeEnd - t.finishTime) <= 1e-9 * t.finishTime);
                CHECK(r.computeBegin == r.receiveEnd);
                CHECK(r.sendEnd == t.rows.back().receiveEnd);
                if (k >= 1) {
                    const auto& mv = t.moves[static_cast<std::size_t>(k - 1)];
                    CHECK(r.receiveBegin == mv.begin);
                    CHECK(r.receiveEnd == mv.end);
                    CHECK(relClose(mv.end - mv.begin, pr.S + pr.C * mv.messageSize, 1e-9));
                    CHECK(mv.messages == m.layerSize[static_cast<std::size_t>(k)]);
                    CHECK(relClose(mv.senders * pr.ports, mv.messages, 1e-15));
                    // L_k = (α_{k−1} − α_k − σ)/ρ.
                    CHECK(relClose(
                        m.messageSize[static_cast<std::size_t>(k)],
                        (m.alpha[static_cast<std::size_t>(k - 1)] - m.alpha[static_cast<std::size_t>(k)] - m.sigma) /
                            m.rho,
                        1e-6));
                }
            }
            // T_h < T iff feasible.
            CHECK((t.rows.back().receiveEnd < t.finishTime) == m.feasible);
            // L_0 = V and the shipments add up: L_k = α_k + p Σ_{r>k} (p+1)^{r−k−1} α_r.
            CHECK(m.messageSize[0] == pr.V);
        }
    }
}

TEST_CASE("Gantt examples 1 and 2: p = 3, h = 4 and p = 6, h = 3 (spec §4)", "[divisible]")
{
    {
        const auto m = solveDivisibleLoad(fig4(3, 4));
        CHECK(relClose(m.finishTime, 5.019302267713219e-3));
        const double alpha[] = {5019.302267713219, 4186.419396082314, 3971.948116979848, 3911.952293758389,
                                3890.543500207703};
        const double L[] = {1000000, 249791.7792820923, 62394.32700074745, 15583.58279438150, 3890.543500207703};
        const double T[] = {0, 8.328828716309045e-4, 1.047354150733371e-3, 1.107349973954830e-3, 1.128758767505515e-3};
        const double n[] = {1, 3, 12, 48, 192};
        for (std::size_t k = 0; k < 5; ++k) {
            CHECK(relClose(m.alpha[k], alpha[k]));
            CHECK(relClose(m.messageSize[k], L[k]));
            if (k > 0)
                CHECK(relClose(m.receiveTime[k], T[k]));
            CHECK(m.layerSize[k] == n[k]);
        }
    }
    {
        const auto m = solveDivisibleLoad(fig4(6, 3));
        CHECK(relClose(m.finishTime, 3.483703068888993e-3));
        const double alpha[] = {3483.703068888993, 3003.930675874272, 2928.081805625286, 2909.909105576882};
        const double L[] = {1000000, 142788.6039438550, 20387.53643908658, 2909.909105576882};
        const double T[] = {0, 4.797723930147216e-4, 5.556212632637073e-4, 5.737939633121111e-4};
        for (std::size_t k = 0; k < 4; ++k) {
            CHECK(relClose(m.alpha[k], alpha[k]));
            CHECK(relClose(m.messageSize[k], L[k]));
            if (k > 0)
                CHECK(relClose(m.receiveTime[k], T[k]));
        }
    }
}

TEST_CASE("Tables 1 and 2: generalized Pascal triangles f(j,i), g(j,i) and f_j, g_j (spec §2.6)", "[divisible]")
{
    // Digit strings in radix p+1, most significant first.
    auto digits = [](int p, std::initializer_list<int> ds) {
        double v = 0;
        for (int d : ds)
            v = v * (p + 1) + d;
        return v;
    };
    for (int p = 1; p <= 6; ++p) {
        CHECK(divisiblePascalF(p, 4, 2) == digits(p, {3, 2, 1}));
        CHECK(divisiblePascalF(p, 6, 3) == digits(p, {10, 6, 3, 1}));
        CHECK(divisiblePascalF(p, 5, 1) == digits(p, {1, 1, 1, 1, 1}));
        CHECK(divisiblePascalF(p, 6, 6) == 1);
        CHECK(divisiblePascalG(p, 5, 2) == digits(p, {3, 4, 3}));
        CHECK(divisiblePascalG(p, 6, 2) == digits(p, {4, 6, 6, 4}));
        CHECK(divisiblePascalG(p, 6, 3) == digits(p, {6, 6, 3}));
        CHECK(divisiblePascalG(p, 6, 0) == 6);
        CHECK(divisiblePascalG(p, 6, 6) == 0);
        // Closed forms of the coefficients.
        for (int j = 0; j <= 6; ++j)
            for (int i = 1; i <= j; ++i) {
                double f = 0, g = 0;
                for (int k = 0; k <= j - i; ++k) {
                    const double binom = std::tgamma(i + k) / (std::tgamma(i) * std::tgamma(k + 1));
                    f += binom * std::pow(p + 1.0, k);
                    if (k <= j - 1 - i)
                        g += binom * (j - i - k) * std::pow(p + 1.0, k);
                }
                CHECK(std::abs(divisiblePascalF(p, j, i) - f) < 1e-9 * f);
                if (i <= j - 1)
                    CHECK(std::abs(divisiblePascalG(p, j, i) - g) < 1e-9 * g);
            }
    }
    // f_j, g_j for p = 2, ρ = 1/2.
    const double fj[] = {1, 3.0 / 2, 13.0 / 4, 75.0 / 8, 493.0 / 16, 3387.0 / 32, 23581.0 / 64};
    const double gj[] = {0, 1, 5.0 / 2, 23.0 / 4, 121.0 / 8, 735.0 / 16, 4857.0 / 32};
    for (int j = 0; j <= 6; ++j) {
        double f = 0, g = 0;
        for (int i = 0; i <= j; ++i) {
            f += divisiblePascalF(2, j, i) * std::pow(0.5, i);
            g += divisiblePascalG(2, j, i) * std::pow(0.5, i);
        }
        CHECK(f == fj[j]);
        CHECK(g == gj[j]);
        CHECK(relClose(f, (0.5 * std::pow(3.5, j) + 2) / 2.5, 1e-14));
    }
}

TEST_CASE("bad input is rejected with a message naming the value (spec §2.7 step 1)", "[divisible]")
{
    auto bad = [](auto mutate) {
        auto pr = fig4(3, 4);
        mutate(pr);
        return pr;
    };
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.ports = 0; })), Contains("p = 0") && Contains("1..6"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.ports = 7; })), Contains("p = 7"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.layers = -1; })), Contains("layers = -1"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.A = 0; })), Contains("A = 0"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.A = -1; })), Contains("A = -1"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.C = -1e-9; })), Contains("C = -1e-09"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.S = -1; })), Contains("S = -1"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.V = 0; })), Contains("V = 0"));
    CHECK_THROWS_WITH(solveDivisibleLoad(bad([](auto& p) { p.epsilon = -0.1; })), Contains("epsilon = -0.1"));
    CHECK_THROWS_AS(solveDivisibleLoad(bad([](auto& p) { p.V = std::numeric_limits<double>::quiet_NaN(); })), Error);
    CHECK_THROWS_AS(solveDivisibleLoad(bad([](auto& p) { p.C = std::numeric_limits<double>::infinity(); })), Error);
    CHECK_THROWS_AS(solveDivisibleLoadSystem(bad([](auto& p) { p.ports = 9; })), Error);
    CHECK_THROWS_AS(divisibleLoadMaxLayers(bad([](auto& p) { p.S = -1; })), Error);
}
