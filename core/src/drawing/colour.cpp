#include "topocast/drawing/colour.h"

#include "topocast/model/error.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>

namespace topocast::colour {

std::optional<std::size_t> colourModeIndex(std::string_view text)
{
    const auto same = [text](const char* name) {
        return name && std::string_view(name).size() == text.size() &&
               std::equal(text.begin(), text.end(), name, [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
               });
    };
    for (std::size_t i = 0; i < kColourModes.size(); ++i)
        if (same(kColourModes[i].name) || same(kColourModes[i].formerName))
            return i;
    return std::nullopt;
}

namespace {

constexpr double kPi = std::numbers::pi;
double deg(double rad)
{
    return rad * 180.0 / kPi;
}
double rad(double deg)
{
    return deg * kPi / 180.0;
}

Eigen::Vector3d linear(const Srgb& c)
{
    return {srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b)};
}
Srgb encoded(const Eigen::Vector3d& v)
{
    auto e = [](double x) { return linearToSrgb(std::clamp(x, 0.0, 1.0)); };
    return {e(v.x()), e(v.y()), e(v.z())};
}

// Hue angle in degrees [0, 360) of (a', b); 0 for a neutral colour (Sharma 2005, eq. 4).
double hueAngle(double a, double b)
{
    if (a == 0 && b == 0)
        return 0;
    const double h = deg(std::atan2(b, a));
    return h < 0 ? h + 360.0 : h;
}

// matplotlib's _viridis_data and _cividis_data (lib/matplotlib/_cm_listed.py; viridis by van der
// Walt & Smith, cividis by Nuñez, Anderton & Renslow, PLoS ONE 13(8), 2018), entries 0, 8, …, 248
// and 255 of the 256.
constexpr int kMapEntries = 33;
constexpr double kViridis[kMapEntries][3] = {
    {0.267004, 0.004874, 0.329415}, {0.277018, 0.050344, 0.375715}, {0.282327, 0.094955, 0.417331},
    {0.282884, 0.135920, 0.453427}, {0.278826, 0.175490, 0.483397}, {0.270595, 0.214069, 0.507052},
    {0.258965, 0.251537, 0.524736}, {0.244972, 0.287675, 0.537260}, {0.229739, 0.322361, 0.545706},
    {0.214298, 0.355619, 0.551184}, {0.199430, 0.387607, 0.554642}, {0.185556, 0.418570, 0.556753},
    {0.172719, 0.448791, 0.557885}, {0.160665, 0.478540, 0.558115}, {0.149039, 0.508051, 0.557250},
    {0.137770, 0.537492, 0.554906}, {0.127568, 0.566949, 0.550556}, {0.120565, 0.596422, 0.543611},
    {0.120638, 0.625828, 0.533488}, {0.132268, 0.655014, 0.519661}, {0.157851, 0.683765, 0.501686},
    {0.196571, 0.711827, 0.479221}, {0.246070, 0.738910, 0.452024}, {0.304148, 0.764704, 0.419943},
    {0.369214, 0.788888, 0.382914}, {0.440137, 0.811138, 0.340967}, {0.515992, 0.831158, 0.294279},
    {0.595839, 0.848717, 0.243329}, {0.678489, 0.863742, 0.189503}, {0.762373, 0.876424, 0.137064},
    {0.845561, 0.887322, 0.099702}, {0.926106, 0.897330, 0.104071}, {0.993248, 0.906157, 0.143936},
};
constexpr double kCividis[kMapEntries][3] = {
    {0.000000, 0.135112, 0.304751}, {0.000000, 0.157932, 0.357521}, {0.000000, 0.178802, 0.414764},
    {0.017852, 0.198528, 0.441248}, {0.103401, 0.220406, 0.435790}, {0.154261, 0.242475, 0.430120},
    {0.195057, 0.264372, 0.425924}, {0.230871, 0.286134, 0.423498}, {0.263738, 0.307831, 0.422789},
    {0.294669, 0.329531, 0.423716}, {0.324250, 0.351289, 0.426250}, {0.352892, 0.373153, 0.430226},
    {0.380830, 0.395164, 0.435653}, {0.408226, 0.417357, 0.442570}, {0.435168, 0.439763, 0.451134},
    {0.461616, 0.462405, 0.461969}, {0.488697, 0.485318, 0.471008}, {0.517920, 0.508454, 0.472707},
    {0.547840, 0.531895, 0.471704}, {0.578236, 0.555673, 0.468724}, {0.609105, 0.579816, 0.463638},
    {0.640352, 0.604354, 0.456791}, {0.671991, 0.629316, 0.448018}, {0.704037, 0.654731, 0.437147},
    {0.736488, 0.680629, 0.424028}, {0.769353, 0.707035, 0.408516}, {0.802667, 0.733978, 0.390153},
    {0.836429, 0.761483, 0.368747}, {0.870717, 0.789572, 0.343333}, {0.905589, 0.818257, 0.312889},
    {0.941147, 0.847530, 0.275815}, {0.977780, 0.877281, 0.227954}, {0.995737, 0.909344, 0.217772},
};
// Table entry k sits at index min(8k, 255) of the 256.
double entryPosition(int k)
{
    return std::min(8 * k, 255) / 255.0;
}

} // namespace

double srgbToLinear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linearToSrgb(double c)
{
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

Srgb fromHex(const std::string& hex)
{
    auto bad = [&] { return Error("colour \"" + hex + "\" is not #rrggbb (a '#' and six hexadecimal digits)"); };
    if (hex.size() != 7 || hex[0] != '#')
        throw bad();
    double ch[3];
    for (int i = 0; i < 3; ++i) {
        int v = 0;
        for (int j = 0; j < 2; ++j) {
            const char c = hex[static_cast<std::size_t>(1 + 2 * i + j)];
            const int d = (c >= '0' && c <= '9')   ? c - '0'
                          : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                          : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                   : -1;
            if (d < 0)
                throw bad();
            v = v * 16 + d;
        }
        ch[i] = v / 255.0;
    }
    return {ch[0], ch[1], ch[2]};
}

Lab toLab(const Srgb& c)
{
    // IEC 61966-2-1 linear sRGB → XYZ; D65 white (0.95047, 1, 1.08883) = the rows' sums.
    Eigen::Matrix3d toXyz;
    toXyz << 0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.0721750, 0.0193339, 0.1191920, 0.9503041;
    const Eigen::Vector3d white(0.95047, 1.0, 1.08883);
    const Eigen::Vector3d xyz = (toXyz * linear(c)).cwiseQuotient(white);
    constexpr double e = 216.0 / 24389.0, k = 24389.0 / 27.0; // CIE's exact (6/29)^3 and (29/3)^3
    auto f = [&](double t) { return t > e ? std::cbrt(t) : (k * t + 16.0) / 116.0; };
    const double fx = f(xyz.x()), fy = f(xyz.y()), fz = f(xyz.z());
    return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

double deltaE2000(const Lab& x, const Lab& y)
{
    // Sharma, Wu & Dalal 2005, equations (2)–(22).
    const double c1 = std::hypot(x.a, x.b), c2 = std::hypot(y.a, y.b);
    const double cMean7 = std::pow((c1 + c2) / 2.0, 7.0);
    const double g = 0.5 * (1.0 - std::sqrt(cMean7 / (cMean7 + std::pow(25.0, 7.0))));
    const double a1 = (1.0 + g) * x.a, a2 = (1.0 + g) * y.a;
    const double cp1 = std::hypot(a1, x.b), cp2 = std::hypot(a2, y.b);
    const double h1 = hueAngle(a1, x.b), h2 = hueAngle(a2, y.b);

    const double dL = y.L - x.L, dC = cp2 - cp1;
    double dh = 0;
    if (cp1 * cp2 != 0) {
        dh = h2 - h1;
        if (dh > 180.0)
            dh -= 360.0;
        else if (dh < -180.0)
            dh += 360.0;
    }
    const double dH = 2.0 * std::sqrt(cp1 * cp2) * std::sin(rad(dh / 2.0));

    const double lMean = (x.L + y.L) / 2.0, cMean = (cp1 + cp2) / 2.0;
    double hMean = h1 + h2;
    if (cp1 * cp2 != 0) {
        if (std::abs(h1 - h2) <= 180.0)
            hMean /= 2.0;
        else
            hMean = (h1 + h2 < 360.0) ? (h1 + h2 + 360.0) / 2.0 : (h1 + h2 - 360.0) / 2.0;
    }
    const double t = 1.0 - 0.17 * std::cos(rad(hMean - 30.0)) + 0.24 * std::cos(rad(2.0 * hMean)) +
                     0.32 * std::cos(rad(3.0 * hMean + 6.0)) - 0.20 * std::cos(rad(4.0 * hMean - 63.0));
    const double dTheta = 30.0 * std::exp(-std::pow((hMean - 275.0) / 25.0, 2.0));
    const double cMeanP7 = std::pow(cMean, 7.0);
    const double rc = 2.0 * std::sqrt(cMeanP7 / (cMeanP7 + std::pow(25.0, 7.0)));
    const double l50 = (lMean - 50.0) * (lMean - 50.0);
    const double sl = 1.0 + 0.015 * l50 / std::sqrt(20.0 + l50);
    const double sc = 1.0 + 0.045 * cMean;
    const double sh = 1.0 + 0.015 * cMean * t;
    const double rt = -std::sin(rad(2.0 * dTheta)) * rc;
    const double tl = dL / sl, tc = dC / sc, th = dH / sh;
    return std::sqrt(tl * tl + tc * tc + th * th + rt * tc * th);
}

double deltaE2000(const Srgb& x, const Srgb& y)
{
    return deltaE2000(toLab(x), toLab(y));
}

Srgb mix(const Srgb& a, const Srgb& b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

double chroma(const Srgb& c)
{
    const Lab lab = toLab(c);
    return std::hypot(lab.a, lab.b);
}

Srgb greyOfLightness(double L)
{
    // Inverse of L* = 116·f(Y) − 16 (CIE 1976), with Y the linear luminance of the grey.
    L = std::clamp(L, 0.0, 100.0);
    const double fy = (L + 16.0) / 116.0;
    const double y = fy > 6.0 / 29.0 ? fy * fy * fy : 3.0 * (6.0 / 29.0) * (6.0 / 29.0) * (fy - 4.0 / 29.0);
    const double v = std::clamp(linearToSrgb(y), 0.0, 1.0);
    return {v, v, v};
}

const std::array<Vision, 4>& allVisions()
{
    static const std::array<Vision, 4> all = {Vision::Normal, Vision::Protan, Vision::Deutan, Vision::Tritan};
    return all;
}

std::string visionName(Vision v)
{
    switch (v) {
    case Vision::Normal:
        return "normal vision";
    case Vision::Protan:
        return "protanopia";
    case Vision::Deutan:
        return "deuteranopia";
    case Vision::Tritan:
        return "tritanopia";
    }
    return {};
}

Srgb simulate(const Srgb& c, Vision v)
{
    // Machado, Oliveira & Fernandes 2009, severity 1.0 (protanomaly, deuteranomaly, tritanomaly),
    // row-major, acting on linear RGB.
    static constexpr double kMatrices[3][9] = {
        {0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998},
        {0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881},
        {1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900},
    };
    if (v == Vision::Normal)
        return c;
    const int which = v == Vision::Protan ? 0 : v == Vision::Deutan ? 1 : 2;
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> m(kMatrices[which]);
    return encoded(m * linear(c));
}

Srgb mapColour(ColourMap map, double t)
{
    const double(*table)[3] = map == ColourMap::Viridis ? kViridis : kCividis;
    t = std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0);
    int k = 0;
    while (k + 2 < kMapEntries && entryPosition(k + 1) < t)
        ++k;
    const double u = (t - entryPosition(k)) / (entryPosition(k + 1) - entryPosition(k));
    const Srgb lo{table[k][0], table[k][1], table[k][2]}, hi{table[k + 1][0], table[k + 1][1], table[k + 1][2]};
    return mix(lo, hi, u);
}

std::vector<NamedColour> stateColours(const Palette& p, double uninformedFade)
{
    return {{"background", p.background},
            {"source", p.source},
            {"informed", p.informed},
            {"receiving", p.receiving},
            {"not yet informed", mix(p.uninformed, p.background, uninformedFade)},
            {"channel used earlier", p.linkUsed},
            {"channel in use", p.inFlight},
            {"contention", p.contention},
            {"message", p.message}};
}

std::vector<NamedColour> sourceMapColours(const Palette& p)
{
    return {{"background", p.background},
            {"current source", p.source},
            {"minimum", p.optimum},
            {"no schedule", mix(p.uninformed, p.background, 0.5)},
            {"map low end", mapColour(p.sourceMapMap, 0.0)},
            {"map high end", mapColour(p.sourceMapMap, 1.0)}};
}

ClosestPair closestPair(const std::vector<NamedColour>& colours, Vision vision)
{
    if (colours.size() < 2)
        throw Error("closestPair needs at least 2 colours, got " + std::to_string(colours.size()));
    ClosestPair best{{}, {}, 1e9};
    for (std::size_t i = 0; i < colours.size(); ++i)
        for (std::size_t j = i + 1; j < colours.size(); ++j) {
            const double d = deltaE2000(simulate(colours[i].colour, vision), simulate(colours[j].colour, vision));
            if (d < best.deltaE)
                best = {colours[i].name, colours[j].name, d};
        }
    return best;
}

Srgb categoryColour(int i)
{
    static const std::array<Srgb, kCategoryColours> colours = {
        fromHex("#cc79a7"), fromHex("#56b4e9"), fromHex("#f0e442"), fromHex("#009e73"), fromHex("#0072b2"),
        fromHex("#d55e00"), fromHex("#dddddd"), fromHex("#e69f00"), fromHex("#a50f15"), fromHex("#01665e"),
    };
    return colours[static_cast<std::size_t>(((i % kCategoryColours) + kCategoryColours) % kCategoryColours)];
}

Palette normalPalette()
{
    Palette p;
    p.background = fromHex("#171a1f");
    p.source = fromHex("#e69f00");     // Okabe–Ito orange
    p.informed = fromHex("#56b4e9");   // sky blue
    p.receiving = fromHex("#009e73");  // bluish green
    p.uninformed = fromHex("#8c8f98"); // light enough to stay apart from the background at full fade
    p.link = fromHex("#474a54");
    p.linkUsed = fromHex("#0072b2");   // blue
    p.inFlight = fromHex("#f0e442");   // yellow
    p.contention = fromHex("#d55e00"); // vermillion
    p.message = fromHex("#ffffff");
    p.optimum = fromHex("#ffffff");
    return p;
}

Palette highContrastPalette()
{
    Palette p = normalPalette();
    p.background = fromHex("#000000");
    p.uninformed = fromHex("#a0a0a0");
    p.link = fromHex("#5a5a5a");
    return p;
}

Palette printPalette()
{
    Palette p = normalPalette();
    p.background = fromHex("#ffffff");
    p.uninformed = fromHex("#55585f"); // still apart from white paper at full fade (ΔE00 15)
    p.link = fromHex("#b8bbc2");
    p.inFlight = fromHex("#332288"); // indigo (Tol's muted scheme): dark, unlike yellow on paper
    p.message = fromHex("#000000");
    p.optimum = fromHex("#000000");
    return p;
}

} // namespace topocast::colour
