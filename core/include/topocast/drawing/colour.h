#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// Colour science for the pictures: sRGB ↔ linear ↔ CIE XYZ ↔ CIELAB (D65), the CIEDE2000 colour
/// difference, simulated colour-vision deficiencies, perceptually uniform colour maps and the
/// app's palettes (defined here, once, so the palette test checks exactly what the app draws).
namespace topocast::colour {

/// One way the view colours a network: the name files and command lines use ("data") and the
/// label the app's "Colour by" menu shows ("Data held").
struct ColourMode {
    const char* name;
    const char* label;
    const char* formerName = nullptr; ///< the name earlier versions wrote, still read
};
/// Every colour mode, in the order of the app's menu (and of its ViewMode enum): the app's menu,
/// its scenario files, `topocast-cli render --mode` and its help text all read this list.
inline constexpr std::array<ColourMode, 7> kColourModes{{
    {"plain", "Plain"},
    {"contention", "Contention"},
    {"heatmap", "Heat map"},
    {"source-map", "Source map", "tcdmap"},
    {"layers", "Layers"},
    {"trees", "Spanning trees"},
    {"data", "Data held"},
}};

/// The index in kColourModes of the mode called `text` (any letter case; a former name too), or
/// nullopt.
std::optional<std::size_t> colourModeIndex(std::string_view text);

/// A gamma-encoded sRGB colour, each channel in [0, 1].
struct Srgb {
    double r = 0, g = 0, b = 0;
    friend bool operator==(const Srgb&, const Srgb&) = default;
};
/// CIELAB under the D65 white point (L* in [0, 100]).
struct Lab {
    double L = 0, a = 0, b = 0;
};

/// sRGB transfer function (IEC 61966-2-1): encoded channel → linear light. O(1).
double srgbToLinear(double c);
/// Inverse of srgbToLinear: linear light → encoded channel. O(1).
double linearToSrgb(double c);
/// "#rrggbb" → Srgb. Throws Error naming the text if it is not 7 characters "#" + 6 hex digits.
Srgb fromHex(const std::string& hex);
/// CIELAB (D65, 2° observer) of an sRGB colour, through linear sRGB and CIE XYZ. O(1).
Lab toLab(const Srgb& c);
/// CIEDE2000 colour difference ΔE00 (k_L = k_C = k_H = 1) as in Sharma, Wu & Dalal, "The CIEDE2000
/// colour-difference formula: implementation notes, supplementary test data, and mathematical
/// observations", Color Res. Appl. 30(1), 2005. Symmetric; O(1); never throws.
double deltaE2000(const Lab& x, const Lab& y);
/// ΔE00 between two sRGB colours.
double deltaE2000(const Srgb& x, const Srgb& y);
/// Linear interpolation in encoded sRGB: t = 0 gives a, 1 gives b (t clamped to [0, 1]).
Srgb mix(const Srgb& a, const Srgb& b, double t);
/// CIELAB chroma C*ab = √(a*² + b*²) of `c`: 0 for a grey, about 40–90 for the state colours. O(1).
double chroma(const Srgb& c);
/// The neutral grey of CIELAB lightness `L` (clamped to [0, 100]; a* = b* = 0). O(1).
Srgb greyOfLightness(double L);
/// The most chroma a channel may be drawn with while nothing has happened on it (idle, before
/// anything is sent): a link's colour says what happened on it, so an idle one is a pale neutral
/// and only the state colours (in use now, used earlier, contended) are saturated. The olive
/// (C* ≈ 40) and dark blue (C* ≈ 30) that hypercube dimensions were drawn in read as "in use" and
/// "used earlier"; 20 stays well below both.
inline constexpr double kMaxIdleChroma = 20.0;

/// Normal colour vision or one of the three common deficiencies at full severity.
enum class Vision { Normal, Protan, Deutan, Tritan };
/// Normal, Protan, Deutan, Tritan.
const std::array<Vision, 4>& allVisions();
/// "normal vision", "protanopia", "deuteranopia", "tritanopia".
std::string visionName(Vision v);
/// How `c` looks with deficiency `v`: Machado, Oliveira & Fernandes, "A physiologically-based
/// model for simulation of color vision deficiency", IEEE TVCG 15(6), 2009, severity 1.0 matrices,
/// applied to linear sRGB, result clamped to [0, 1]. Normal returns `c`. O(1).
Srgb simulate(const Srgb& c, Vision v);

/// The two perceptually uniform maps: viridis (purple → green → yellow) and cividis (blue → grey
/// → yellow, designed to look the same to deuteranopes), from matplotlib's published 256-entry
/// tables.
enum class ColourMap { Viridis, Cividis };
/// The colour of `t` ∈ [0, 1] on `map` (t clamped; NaN gives the low end): linear interpolation
/// in a 33-entry subsample (entries 0, 8, 16, …, 248, 255) of the 256-entry table. O(1).
Srgb mapColour(ColourMap map, double t);

/// The fixed colours of the 3-D view. Node states use the Okabe–Ito colour-blind-safe set (Okabe &
/// Ito, "Color Universal Design", 2002/2008) arranged so every colour shown at once stays apart
/// under the three simulated deficiencies (see stateColours and the palette test).
struct Palette {
    Srgb background, source, informed, receiving, uninformed, link, linkUsed, inFlight, contention, message, optimum;
    ColourMap heatMap = ColourMap::Viridis;      ///< channel load (heat-map mode)
    ColourMap sourceMapMap = ColourMap::Cividis; ///< the source map (TCD, steps, … from every source)
};
/// The default palette (dark grey background).
Palette normalPalette();
/// The presentation palette for projectors: black background, brighter and more saturated states.
Palette highContrastPalette();
/// The print palette for handouts: white paper; the states of the normal palette where they read on
/// white, a darker grey for nodes not yet informed, indigo for a channel in use now (yellow
/// vanishes on paper; reddish purple came within ΔE00 6 of a faded grey for deuteranopes), black
/// for the messages and the source map's minimum.
Palette printPalette();

/// The most a not-yet-informed node is faded toward the background on a large network (the app's
/// recede: fraction = kMaxUninformedFade · recedeAmount(nodes), recedeAmount ∈ [0, 1]).
inline constexpr double kMaxUninformedFade = 0.6;

/// One colour the picture shows, with what it means.
struct NamedColour {
    std::string name;
    Srgb colour;
};
/// The colours the plain view shows at once: background, source, informed, receiving, not yet
/// informed (faded by `uninformedFade` ∈ [0, kMaxUninformedFade]), channel used earlier, channel in
/// use now, contention and the moving messages.
std::vector<NamedColour> stateColours(const Palette& p, double uninformedFade);
/// The colours the source map shows at once besides the map itself: background, current source,
/// the minimum (optimum), a source with no schedule, and the map's two ends.
std::vector<NamedColour> sourceMapColours(const Palette& p);

/// How many category colours there are before categoryColour repeats.
inline constexpr int kCategoryColours = 10;
/// Colour of category `i` (member trees, hypercube dimensions, divisible-load layers), cycling
/// with period kCategoryColours: the seven Okabe–Ito colours, light grey, dark red and dark teal,
/// ordered so the first ones differ most from the source's orange. Any two of the ten, and each
/// against the normal background, keep ΔE00 ≥ kMinDeltaENormal / kMinDeltaESimulated. O(1).
Srgb categoryColour(int i);

/// The closest pair of `colours` as seen with `vision`.
struct ClosestPair {
    std::string a, b;
    double deltaE = 0;
};
/// The pair with the smallest ΔE00 after simulating `vision` on both. O(n²). Needs ≥ 2 colours
/// (else throws Error).
ClosestPair closestPair(const std::vector<NamedColour>& colours, Vision vision);

/// The separation the palettes guarantee (checked by the palette test, for both palettes, with the
/// not-yet-informed colour unfaded and at full fade): ΔE00 ≥ 15 between any two colours the view
/// shows at once with normal vision, and ≥ 10 under each simulated deficiency. ΔE00 ≈ 2 is a
/// just-noticeable difference side by side; small spheres and thin lines on a projector need
/// several times that. 10 is about what separates neighbouring Okabe–Ito colours (orange and
/// yellow) for a deuteranope, the tightest pair of that set.
inline constexpr double kMinDeltaENormal = 15.0;
inline constexpr double kMinDeltaESimulated = 10.0;

} // namespace topocast::colour
