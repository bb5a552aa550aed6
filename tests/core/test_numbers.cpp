// The one number formatter: {fmt} behind every printed figure, with printf's
// meaning of "%.Ng" / "%.Nf" (the outputs the hand-made formatters it replaced gave).
#include "topocast/analysis/metrics.h"
#include "topocast/text/durations.h"
#include "topocast/text/numbers.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace topocast;

namespace {

std::string printfFormat(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

} // namespace

TEST_CASE("formatSignificant: printf's %.Ng for every digit count the front ends use", "[numbers]")
{
    CHECK(formatSignificant(1.0 / 3.0, 4) == "0.3333");
    CHECK(formatSignificant(16690.4, 4) == "1.669e+04");
    CHECK(formatSignificant(12.5, 4) == "12.5");
    CHECK(formatSignificant(1176.76852726166, 15) == "1176.76852726166");
    CHECK(formatSignificant(std::numeric_limits<double>::infinity(), 15) == "inf");
    CHECK(formatSignificant(-std::numeric_limits<double>::infinity(), 15) == "-inf");
    CHECK(formatSignificant(std::nan(""), 4) == "nan");
    CHECK(formatSignificant(5.0, 0) == "5"); // fewer than one digit counts as one
    const std::vector<double> values = {0.0,     -0.0, 1.0,      0.1,    1e-5, 123456789.0,        2.5e-300,
                                        8.57e-6, 1e6,  -42.4242, 3.3e-9, 1e21, 0.00117676852726166};
    for (double v : values)
        for (int digits : {3, 4, 6, 12, 15}) {
            INFO(v << " with " << digits << " digits");
            const std::string format = "%." + std::to_string(digits) + "g";
            CHECK(formatSignificant(v, digits) == printfFormat(format.c_str(), v));
        }
}

TEST_CASE("formatFixed: printf's %.Nf", "[numbers]")
{
    CHECK(formatFixed(0.0123, 3) == "0.012");
    CHECK(formatFixed(250.0, 3) == "250.000");
    CHECK(formatFixed(2.5, 0) == "2"); // round half to even, as printf
    CHECK(formatFixed(1.25, -1) == "1");
    for (double v : {0.01, 99.9999, -3.14159, 1e10})
        CHECK(formatFixed(v, 2) == printfFormat("%.2f", v));
}

TEST_CASE("formatNumber: whole numbers as digits, the rest with 6 significant digits", "[numbers]")
{
    CHECK(formatNumber(71.0) == "71");
    CHECK(formatNumber(-3.0) == "-3");
    CHECK(formatNumber(0.0) == "0");
    CHECK(formatNumber(999999999999999.0) == "999999999999999");
    CHECK(formatNumber(1e15) == "1e+15"); // beyond 10^15: as a float
    CHECK(formatNumber(12.5) == "12.5");
    CHECK(formatNumber(2.0 / 3.0) == "0.666667");
    CHECK(formatNumber(std::nan("")) == "nan");
}

TEST_CASE("formatRatio: never 1 for a time above its bound", "[numbers]")
{
    CHECK(formatRatio(4816.0 / 4805.0) == "1.002"); // three digits would print 1
    CHECK(formatRatio(1.0) == "1");
    CHECK(formatRatio(20.0 / 12.0) == "1.67");
    CHECK(formatRatio(1.00004) == "1.00004");
    CHECK(formatRatio(1.0 + 1e-12) == "1"); // past 8 digits: equal as printed
    CHECK(formatRatio(0.9996) == "0.9996");
    CHECK(formatRatio(std::nan("")) == "nan");
}

TEST_CASE("cumulativeTcd: the TCD so far at every timeline position", "[numbers][metrics]")
{
    CHECK(cumulativeTcd({3, 0, 4}, 3) == std::vector<std::uint64_t>{0, 3, 3, 7});
    CHECK(cumulativeTcd({3, 0, 4}, 5) == std::vector<std::uint64_t>{0, 3, 3, 7, 7, 7}); // padded with zeros
    CHECK(cumulativeTcd({3, 0, 4}, 1) == std::vector<std::uint64_t>{0, 3});
    CHECK(cumulativeTcd({}, 0) == std::vector<std::uint64_t>{0});
}

TEST_CASE("durationUnitFor: the largest unit the longest time is at least one of", "[numbers]")
{
    CHECK(std::string(durationUnitFor(2.5).symbol) == "s");
    CHECK(std::string(durationUnitFor(0.0026).symbol) == "ms");
    CHECK(durationUnitFor(0.0026).seconds == 1e-3);
    CHECK(std::string(durationUnitFor(812e-6).symbol) == "µs");
    CHECK(std::string(durationUnitFor(3e-9).symbol) == "ns");
    CHECK(std::string(durationUnitFor(1e-12).symbol) == "ns");
    CHECK(std::string(durationUnitFor(0).symbol) == "s");
    CHECK(std::string(durationUnitFor(-1).symbol) == "s");
}
