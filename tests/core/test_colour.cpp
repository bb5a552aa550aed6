// Colour science for colour-blind-safe pictures: CIEDE2000 against Sharma's
// published test data, Machado 2009 simulation, viridis/cividis against matplotlib's tables, and
// the palettes: every pair of colours shown at once stays apart under every simulated deficiency.
#include "topocast/drawing/colour.h"
#include "topocast/model/error.h"

#include <catch2/catch.hpp>

#include <tuple>

using namespace topocast;
using namespace topocast::colour;

TEST_CASE("CIEDE2000 matches the 34 pairs of Sharma, Wu & Dalal 2005 (Table 1), both orders", "[colour][ciede2000]")
{
    // L1 a1 b1, L2 a2 b2, ΔE00 as published (4 decimals).
    const auto [L1, a1, b1, L2, a2, b2, want] = GENERATE(table<double, double, double, double, double, double, double>({
        {50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425},
        {50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615},
        {50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412},
        {50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669},
        {50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461},
        {50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065},
        {50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492},
        {50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977},
        {50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030},
        {50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000},
        {60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644},
        {63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630},
        {61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731},
        {35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645},
        {22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373},
        {36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146},
        {90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441},
        {90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381},
        {6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377},
        {2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082},
    }));
    CAPTURE(L1, a1, b1, L2, a2, b2);
    CHECK(deltaE2000(Lab{L1, a1, b1}, Lab{L2, a2, b2}) == Approx(want).margin(1e-4));
    CHECK(deltaE2000(Lab{L2, a2, b2}, Lab{L1, a1, b1}) == Approx(want).margin(1e-4));
}

TEST_CASE("colour modes by name: any letter case and the source map's former name tcdmap", "[colour][modes]")
{
    const auto sourceMap = colour::colourModeIndex("source-map");
    REQUIRE(sourceMap);
    CHECK(std::string(colour::kColourModes[*sourceMap].label) == "Source map");
    CHECK(colour::colourModeIndex("tcdmap") == sourceMap);
    CHECK(colour::colourModeIndex("TcdMap") == sourceMap);
    CHECK(colour::colourModeIndex("DATA") == colour::colourModeIndex("data"));
    CHECK(colour::colourModeIndex("plain") == std::optional<std::size_t>(0));
    CHECK_FALSE(colour::colourModeIndex("sparkly"));
    CHECK_FALSE(colour::colourModeIndex(""));
    CHECK_FALSE(colour::colourModeIndex("source map"));
}

TEST_CASE("sRGB to CIELAB (D65): white, black, grey and the primaries", "[colour][lab]")
{
    const Lab white = toLab({1, 1, 1}), black = toLab({0, 0, 0}), grey = toLab({0.5, 0.5, 0.5});
    CHECK(white.L == Approx(100.0).margin(1e-3));
    CHECK(white.a == Approx(0.0).margin(1e-3));
    CHECK(white.b == Approx(0.0).margin(1e-3));
    CHECK(black.L == Approx(0.0).margin(1e-9));
    CHECK(grey.L == Approx(53.389).margin(0.01)); // sRGB 128/255-ish mid grey (0.5 encoded → 21.4 % luminance)
    const Lab red = toLab({1, 0, 0}), green = toLab({0, 1, 0}), blue = toLab({0, 0, 1});
    CHECK(red.L == Approx(53.2408).margin(0.01));
    CHECK(red.a == Approx(80.0925).margin(0.01));
    CHECK(red.b == Approx(67.2032).margin(0.01));
    CHECK(green.L == Approx(87.7347).margin(0.01));
    CHECK(green.a == Approx(-86.1827).margin(0.01));
    CHECK(blue.b == Approx(-107.8602).margin(0.01));
    for (double c : {0.0, 0.02, 0.04045, 0.3, 0.7, 1.0})
        CHECK(linearToSrgb(srgbToLinear(c)) == Approx(c).margin(1e-12));
    CHECK(fromHex("#e69f00") == Srgb{230 / 255.0, 159 / 255.0, 0.0});
    CHECK_THROWS_WITH(fromHex("e69f00"), Catch::Contains("#rrggbb"));
    CHECK_THROWS_WITH(fromHex("#e69g00"), Catch::Contains("\"#e69g00\""));
}

TEST_CASE("chroma and the grey of a lightness: the olive and dark blue of the old hypercube dimensions are saturated",
          "[colour][lab]")
{
    // C*ab of red: √(80.0925² + 67.2032²) (the CIELAB values above).
    CHECK(chroma({1, 0, 0}) == Approx(104.5518).margin(0.01));
    CHECK(chroma({0.5, 0.5, 0.5}) == Approx(0.0).margin(1e-3));
    for (double L : {0.0, 5.0, 8.0, 20.0, 34.0, 53.389, 72.0, 100.0}) {
        INFO("L* " << L);
        const Srgb g = greyOfLightness(L);
        CHECK(toLab(g).L == Approx(L).margin(1e-6));
        CHECK(chroma(g) < 1e-3);
    }
    CHECK(greyOfLightness(53.389).r == Approx(0.5).margin(5e-4));
    CHECK(greyOfLightness(-3) == Srgb{0, 0, 0});
    CHECK(toLab(greyOfLightness(140)).L == Approx(100.0).margin(1e-3));
    // The dimension colours, read as "in use" and "used earlier": olive 132,127,49 and
    // dark blue 12,70,105; both well above what an idle link may carry.
    CHECK(chroma({132 / 255.0, 127 / 255.0, 49 / 255.0}) > 35.0);
    CHECK(chroma({12 / 255.0, 70 / 255.0, 105 / 255.0}) > 25.0);
    CHECK(kMaxIdleChroma <= 20.0);
    // The state colours are all far above it.
    for (const NamedColour& c : stateColours(normalPalette(), 0.0))
        if (c.name == "channel used earlier" || c.name == "channel in use" || c.name == "contention")
            CHECK(chroma(c.colour) > 2 * kMaxIdleChroma);
}

TEST_CASE("Machado 2009 at severity 1: greys unchanged, known colours, red-green and blue-yellow confusions",
          "[colour][cvd]")
{
    for (Vision v : allVisions())
        for (double g : {0.0, 0.2, 0.5, 1.0}) {
            const Srgb s = simulate({g, g, g}, v);
            CHECK(s.r == Approx(g).margin(2e-5));
            CHECK(s.g == Approx(g).margin(2e-5));
            CHECK(s.b == Approx(g).margin(2e-5));
        }
    // Pure red for a protanope: the first column of the matrix in linear light, blue clamped at 0.
    const Srgb red = simulate({1, 0, 0}, Vision::Protan);
    CHECK(red.r == Approx(0.426608).margin(1e-5));
    CHECK(red.g == Approx(0.372654).margin(1e-5));
    CHECK(red.b == Approx(0.0).margin(1e-9));
    CHECK(simulate({0.3, 0.6, 0.9}, Vision::Normal) == Srgb{0.3, 0.6, 0.9});
    // The classic confusions: red vs green collapses for protan and deutan (not for tritan), and
    // blue vs green collapses more for tritan than for normal vision.
    const Srgb r{0.8, 0.2, 0.1}, g{0.35, 0.55, 0.1};
    const double normal = deltaE2000(r, g);
    CHECK(deltaE2000(simulate(r, Vision::Protan), simulate(g, Vision::Protan)) < 0.5 * normal);
    CHECK(deltaE2000(simulate(r, Vision::Deutan), simulate(g, Vision::Deutan)) < 0.5 * normal);
    CHECK(deltaE2000(simulate(r, Vision::Tritan), simulate(g, Vision::Tritan)) > 0.5 * normal);
    const Srgb blue{0.2, 0.4, 0.8}, teal{0.1, 0.6, 0.5};
    CHECK(deltaE2000(simulate(blue, Vision::Tritan), simulate(teal, Vision::Tritan)) < deltaE2000(blue, teal));
    CHECK(visionName(Vision::Deutan) == "deuteranopia");
}

TEST_CASE("viridis and cividis: matplotlib's end points and entries, lightness rising all the way", "[colour][maps]")
{
    auto near = [](const Srgb& c, double r, double g, double b, double tol) {
        return std::abs(c.r - r) <= tol && std::abs(c.g - g) <= tol && std::abs(c.b - b) <= tol;
    };
    CHECK(near(mapColour(ColourMap::Viridis, 0.0), 0.267004, 0.004874, 0.329415, 1e-9));
    CHECK(near(mapColour(ColourMap::Viridis, 1.0), 0.993248, 0.906157, 0.143936, 1e-9));
    CHECK(near(mapColour(ColourMap::Viridis, 128 / 255.0), 0.127568, 0.566949, 0.550556, 1e-9));
    CHECK(near(mapColour(ColourMap::Cividis, 0.0), 0.0, 0.135112, 0.304751, 1e-9));
    CHECK(near(mapColour(ColourMap::Cividis, 1.0), 0.995737, 0.909344, 0.217772, 1e-9));
    CHECK(near(mapColour(ColourMap::Cividis, 120 / 255.0), 0.461616, 0.462405, 0.461969, 1e-9));
    // Between the stored entries the interpolation stays within 0.01 of the published table
    // (viridis[100], [201]; cividis[37]), 0.015 at cividis' last bend (cividis[250]).
    CHECK(near(mapColour(ColourMap::Viridis, 100 / 255.0), 0.166617, 0.463708, 0.558119, 0.01));
    CHECK(near(mapColour(ColourMap::Viridis, 201 / 255.0), 0.449368, 0.813768, 0.335384, 0.01));
    CHECK(near(mapColour(ColourMap::Cividis, 37 / 255.0), 0.136830, 0.234216, 0.432148, 0.01));
    CHECK(near(mapColour(ColourMap::Cividis, 250 / 255.0), 0.987293, 0.884718, 0.213336, 0.015));
    CHECK(mapColour(ColourMap::Viridis, -3.0) == mapColour(ColourMap::Viridis, 0.0));
    CHECK(mapColour(ColourMap::Viridis, 7.0) == mapColour(ColourMap::Viridis, 1.0));
    for (ColourMap m : {ColourMap::Viridis, ColourMap::Cividis}) {
        double last = -1;
        for (int i = 0; i <= 64; ++i) {
            const double L = toLab(mapColour(m, i / 64.0)).L;
            CHECK(L > last); // a colour bar reads as "more" from one end to the other
            last = L;
        }
    }
}

TEST_CASE("palettes: every pair of colours shown at once stays apart for every simulated deficiency",
          "[colour][palette]")
{
    const auto [name, palette] = GENERATE(table<std::string, Palette>({
        {"normal", normalPalette()},
        {"high contrast", highContrastPalette()},
        {"print", printPalette()},
    }));
    const double fade = GENERATE(0.0, 0.3, kMaxUninformedFade);
    for (Vision v : allVisions()) {
        const double floor = v == Vision::Normal ? kMinDeltaENormal : kMinDeltaESimulated;
        const ClosestPair states = closestPair(stateColours(palette, fade), v);
        INFO(name << " palette, " << visionName(v) << ", fade " << fade << ": closest states " << states.a << " / "
                  << states.b << " ΔE00 " << states.deltaE);
        CHECK(states.deltaE >= floor);
        const ClosestPair map = closestPair(sourceMapColours(palette), v);
        INFO("source map: " << map.a << " / " << map.b << " ΔE00 " << map.deltaE);
        CHECK(map.deltaE >= floor);
    }
    CHECK(stateColours(palette, 0.0).size() == 9);
    CHECK_THROWS_AS(closestPair({{"one", palette.source}}, Vision::Normal), Error);
}

TEST_CASE("palettes: the colour-blind-safe set replaces the red/green states", "[colour][palette]")
{
    const Palette p = normalPalette();
    CHECK(p.source == fromHex("#e69f00"));
    CHECK(p.receiving == fromHex("#009e73"));
    CHECK(p.contention == fromHex("#d55e00"));
    CHECK(p.heatMap == ColourMap::Viridis);
    CHECK(p.sourceMapMap == ColourMap::Cividis);
    // Receiving (green) and contention (vermillion), red and green in the old palette, stay apart
    // for a deuteranope by more than the floor.
    CHECK(deltaE2000(simulate(p.receiving, Vision::Deutan), simulate(p.contention, Vision::Deutan)) >=
          kMinDeltaESimulated);
    CHECK(highContrastPalette().background == Srgb{0, 0, 0});
}

TEST_CASE("category colours (trees, dimensions, layers): ten apart from each other and the background for "
          "every simulated deficiency",
          "[colour][palette]")
{
    std::vector<NamedColour> colours = {{"background", normalPalette().background}};
    for (int i = 0; i < kCategoryColours; ++i)
        colours.push_back({"category " + std::to_string(i), categoryColour(i)});
    for (Vision v : allVisions()) {
        const ClosestPair p = closestPair(colours, v);
        INFO(visionName(v) << ": " << p.a << " / " << p.b << " ΔE00 " << p.deltaE);
        CHECK(p.deltaE >= (v == Vision::Normal ? kMinDeltaENormal : kMinDeltaESimulated));
    }
    CHECK(categoryColour(kCategoryColours) == categoryColour(0));
    CHECK(categoryColour(-1) == categoryColour(kCategoryColours - 1));
    // Layer 1 (category 0) is not the source's orange: the layers mode shows both at once.
    CHECK(deltaE2000(categoryColour(0), normalPalette().source) >= kMinDeltaENormal);
}
